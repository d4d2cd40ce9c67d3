//! GZDoom's texture scales (TEXTURES `XScale` / `YScale`) in the world: a texture scaled 2
//! spans half as many map units. GZDoom multiplies a wall part's scale by its texture's
//! (`FTexCoordInfo`: texture scale times the UDMF `scalex_*` / `scaley_*`) and a flat's by
//! its flat's, so the scales fold into the placements [`UdmfProps`] already hold and every
//! drawer (the GPU's and the CPU walk's) follows them. Offsets stay in texels, or with
//! `WorldPanning` in map units (scaled into texels here).

use std::collections::HashMap;

use super::flats::{fitted_scale, flat_lump_size};
use super::textures::TextureDirectory;
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::map::udmf_props::{UdmfProps, BOTTOM, MID, TOP};
use crate::formats::doom::map::MapData;

/// Folds the scales of the textures and flats `map` names into `props`; how many wall parts
/// and flats were scaled. A flat larger than 64 x 64 texels is fitted to 64 x 64 (see
/// [`super::flats::fit_flat`]) and scaled to keep its size in the world.
pub fn fold_texture_scales(
    props: &mut UdmfProps,
    map: &MapData,
    texdir: &TextureDirectory,
    stack: &WadStack,
) -> usize {
    let wall_scale = |name: &str| {
        let n = texdir.number(name)?;
        Some(texdir.defs.get(n)?.scale)
            .filter(|s| !s.is_unit())
            .map(|s| (s.units(), s.world_panning))
    };
    let mut flat_scales: HashMap<String, Option<[f64; 2]>> = HashMap::new();
    let flat_scale = |name: &str| -> Option<[f64; 2]> {
        let (own, (w, h)) =
            if let Some(d) = texdir.flat_def(name).and_then(|i| texdir.flat_defs.get(i)) {
                (d.scale.units(), (d.width as usize, d.height as usize))
            } else if let Some(n) = stack.flats().number(name) {
                let entry = stack.flats().entries().get(n)?;
                let lump = stack.lump_at(entry.lump)?;
                ([1.0, 1.0], flat_lump_size(&lump))
            } else {
                // A wall texture no flat shares a name with is drawn as the flat (GZDoom's
                // fallback to a texture of any use; see `build.rs`).
                let d = texdir.number(name).and_then(|n| texdir.defs.get(n))?;
                (d.scale.units(), (d.width as usize, d.height as usize))
            };
        let [fx, fy] = fitted_scale(w, h);
        let s = [own[0] * fx, own[1] * fy];
        (s != [1.0, 1.0]).then_some(s)
    };
    let mut scaled = 0;
    for (i, sd) in map.sidedefs.iter().enumerate() {
        for (part, name) in [(TOP, &sd.upper), (MID, &sd.middle), (BOTTOM, &sd.lower)] {
            let Some(([sx, sy], world_panning)) = wall_scale(name) else { continue };
            if props.sides.len() <= i {
                props.sides.resize(i + 1, Default::default());
            }
            let p = &mut props.sides[i].parts[part];
            if world_panning {
                // Offsets in map units: the texels they span at this scale.
                let (ox, oy) = (sd.x_offset as f64, sd.y_offset as f64);
                p.x_offset = (ox + p.x_offset) * sx - ox;
                p.y_offset = (oy + p.y_offset) * sy - oy;
            }
            p.x_scale *= sx;
            p.y_scale *= sy;
            scaled += 1;
        }
    }
    for (i, sector) in map.sectors.iter().enumerate() {
        let mut scale_of = |name: &str| {
            if let Some(&s) = flat_scales.get(name) {
                return s;
            }
            let s = flat_scale(name);
            flat_scales.insert(name.to_string(), s);
            s
        };
        let floor = scale_of(&sector.floor_flat);
        let ceiling = scale_of(&sector.ceiling_flat);
        if floor.is_none() && ceiling.is_none() {
            continue;
        }
        if props.sectors.len() <= i {
            props.sectors.resize(i + 1, Default::default());
        }
        let s = &mut props.sectors[i];
        for (placement, scale) in [(&mut s.floor, floor), (&mut s.ceiling, ceiling)] {
            let Some([sx, sy]) = scale else { continue };
            placement.x_scale *= sx;
            placement.y_scale *= sy;
            scaled += 1;
        }
    }
    scaled
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::{Wad, WadStack};
    use crate::formats::doom::archive::writer::{png_lump, WadWriter};
    use crate::formats::doom::testwad;

    fn directory(textures: &str) -> (WadStack, TextureDirectory) {
        let mut w = WadWriter::pwad();
        w.lump("TEXTURES", textures.as_bytes().to_vec());
        w.marker("F_START");
        w.lump("RAW", vec![1; 4096]);
        let big = png_lump(256, 128, &[9, 9, 9, 255].repeat(256 * 128), None).unwrap();
        w.lump("BIGPNG", big);
        w.marker("F_END");
        let stack = WadStack::new(vec![Wad::from_bytes("t.wad", w.to_bytes()).unwrap()]);
        let dir = TextureDirectory::load(&stack).unwrap();
        (stack, dir)
    }

    #[test]
    fn scales_fold_into_wall_parts_and_flats() {
        let (stack, dir) = directory(
            "WallTexture WIDE, 8, 8 { XScale 2 YScale 0.5 WorldPanning Patch P, 0, 0 }\n\
             WallTexture TEXEL, 8, 8 { XScale 2 Patch P, 0, 0 }\n\
             WallTexture PLAIN, 8, 8 { Patch P, 0, 0 }\n\
             Texture FLR, 8, 8 { XScale 4 Patch P, 0, 0 }\n",
        );
        let mut map = testwad::two_room_level().map;
        map.sidedefs[0].x_offset = 3;
        map.sidedefs[0].y_offset = 8;
        map.sidedefs[0].middle = "WIDE".into();
        map.sidedefs[0].upper = "TEXEL".into();
        map.sidedefs[0].lower = "PLAIN".into();
        map.sectors[0].floor_flat = "FLR".into();
        let mut props = UdmfProps::default();
        assert_eq!(fold_texture_scales(&mut props, &map, &dir, &stack), 3);
        let side = props.side(0);
        let mid = side.parts[MID];
        assert_eq!((mid.x_scale, mid.y_scale), (2.0, 0.5));
        // WorldPanning: 3 map units are 6 texels (3 added to the sidedef's), 8 are 4 (-4).
        assert_eq!((mid.x_offset, mid.y_offset), (3.0, -4.0));
        // Without it the offsets stay texels.
        let top = side.parts[TOP];
        assert_eq!((top.x_scale, top.y_scale, top.x_offset, top.y_offset), (2.0, 1.0, 0.0, 0.0));
        assert!(side.parts[BOTTOM].unit_scale());
        let floor = props.sector(0).floor;
        assert_eq!((floor.x_scale, floor.y_scale), (4.0, 1.0));
        assert!(props.sector(0).ceiling.is_identity() && props.sector(1).floor.is_identity());
        // Scales multiply a UDMF part scale already there.
        let mut props = UdmfProps::default();
        props.sides.resize(1, Default::default());
        props.sides[0].parts[MID].x_scale = 3.0;
        fold_texture_scales(&mut props, &map, &dir, &stack);
        assert_eq!(props.side(0).parts[MID].x_scale, 6.0);
    }

    #[test]
    fn flats_larger_than_64_keep_their_world_size() {
        // A 256 x 128 PNG flat is fitted to 64 x 64 texels: a quarter and a half of a texel
        // per map unit keep it 256 x 128 units large.
        let (stack, dir) = directory("");
        let mut map = testwad::two_room_level().map;
        map.sectors[1].ceiling_flat = "BIGPNG".into();
        map.sectors[1].floor_flat = "RAW".into();
        let mut props = UdmfProps::default();
        assert_eq!(fold_texture_scales(&mut props, &map, &dir, &stack), 1);
        let ceiling = props.sector(1).ceiling;
        assert_eq!((ceiling.x_scale, ceiling.y_scale), (0.25, 0.5));
        assert!(props.sector(1).floor.is_identity());
    }

    #[test]
    fn unscaled_directories_change_nothing() {
        let (stack, dir) = directory("WallTexture PLAIN, 8, 8 { XScale 1.0 Patch P, 0, 0 }\n");
        let mut map = testwad::two_room_level().map;
        map.sidedefs[0].middle = "PLAIN".into();
        map.sectors[0].floor_flat = "RAW".into();
        let mut props = UdmfProps::default();
        assert_eq!(fold_texture_scales(&mut props, &map, &dir, &stack), 0);
        assert!(props.sides.is_empty() && props.sectors.is_empty());
    }
}
