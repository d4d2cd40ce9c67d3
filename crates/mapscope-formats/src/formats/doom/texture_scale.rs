//! GZDoom's texture scales (TEXTURES `XScale` / `YScale`) in the world: a texture scaled 2
//! spans half as many map units. GZDoom multiplies a wall part's scale by its texture's
//! (`FTexCoordInfo`: texture scale times the UDMF `scalex_*` / `scaley_*`) and a flat's by
//! its flat's, so the scales fold into the placements [`UdmfProps`] already hold and every
//! drawer (the GPU's and the CPU walk's) follows them. Offsets stay in texels, or with
//! `WorldPanning` in map units (scaled into texels here).

use super::map::MapData;
use super::textures::{TextureDirectory, TextureScale};
use super::udmf_props::{UdmfProps, BOTTOM, MID, TOP};

/// Folds the scales of the textures and flats `map` names into `props`; how many wall parts
/// and flats were scaled.
pub fn fold_texture_scales(
    props: &mut UdmfProps,
    map: &MapData,
    texdir: &TextureDirectory,
) -> usize {
    let wall_scale = |name: &str| {
        let n = texdir.number(name)?;
        Some(texdir.defs.get(n)?.scale).filter(|s| !s.is_unit())
    };
    let flat_scale = |name: &str| {
        let i = texdir.flat_def(name)?;
        Some(texdir.flat_defs.get(i)?.scale).filter(|s| !s.is_unit())
    };
    let mut scaled = 0;
    for (i, sd) in map.sidedefs.iter().enumerate() {
        for (part, name) in [(TOP, &sd.upper), (MID, &sd.middle), (BOTTOM, &sd.lower)] {
            let Some(scale) = wall_scale(name) else { continue };
            if props.sides.len() <= i {
                props.sides.resize(i + 1, Default::default());
            }
            let p = &mut props.sides[i].parts[part];
            let [sx, sy] = scale.units();
            if scale.world_panning {
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
        let floor = flat_scale(&sector.floor_flat);
        let ceiling = flat_scale(&sector.ceiling_flat);
        if floor.is_none() && ceiling.is_none() {
            continue;
        }
        if props.sectors.len() <= i {
            props.sectors.resize(i + 1, Default::default());
        }
        let s = &mut props.sectors[i];
        for (placement, scale) in [(&mut s.floor, floor), (&mut s.ceiling, ceiling)] {
            let Some(scale) = scale else { continue };
            let [sx, sy] = scale.units();
            placement.x_scale *= sx;
            placement.y_scale *= sy;
            scaled += 1;
        }
    }
    scaled
}

/// Whether any texture or flat of the directory has a scale (for skipping the fold).
pub fn any_scaled(texdir: &TextureDirectory) -> bool {
    let scaled = |s: &TextureScale| !s.is_unit();
    texdir.defs.iter().any(|d| scaled(&d.scale))
        || texdir.flat_defs.iter().any(|d| scaled(&d.scale))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;
    use crate::formats::doom::wad::{Wad, WadStack};
    use crate::formats::doom::writer::WadWriter;

    fn directory(textures: &str) -> TextureDirectory {
        let mut w = WadWriter::pwad();
        w.lump("TEXTURES", textures.as_bytes().to_vec());
        let stack = WadStack::new(vec![Wad::from_bytes("t.wad", w.to_bytes()).unwrap()]);
        TextureDirectory::load(&stack).unwrap()
    }

    #[test]
    fn scales_fold_into_wall_parts_and_flats() {
        let dir = directory(
            "WallTexture WIDE, 8, 8 { XScale 2 YScale 0.5 WorldPanning Patch P, 0, 0 }\n\
             WallTexture TEXEL, 8, 8 { XScale 2 Patch P, 0, 0 }\n\
             WallTexture PLAIN, 8, 8 { Patch P, 0, 0 }\n\
             Texture FLR, 8, 8 { XScale 4 Patch P, 0, 0 }\n",
        );
        assert!(any_scaled(&dir));
        let mut map = testwad::two_room_level().map;
        map.sidedefs[0].x_offset = 3;
        map.sidedefs[0].y_offset = 8;
        map.sidedefs[0].middle = "WIDE".into();
        map.sidedefs[0].upper = "TEXEL".into();
        map.sidedefs[0].lower = "PLAIN".into();
        map.sectors[0].floor_flat = "FLR".into();
        let mut props = UdmfProps::default();
        assert_eq!(fold_texture_scales(&mut props, &map, &dir), 3);
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
        fold_texture_scales(&mut props, &map, &dir);
        assert_eq!(props.side(0).parts[MID].x_scale, 6.0);
    }

    #[test]
    fn unscaled_directories_change_nothing() {
        let dir = directory("WallTexture PLAIN, 8, 8 { XScale 1.0 Patch P, 0, 0 }\n");
        assert!(!any_scaled(&dir));
        let mut map = testwad::two_room_level().map;
        map.sidedefs[0].middle = "PLAIN".into();
        let mut props = UdmfProps::default();
        assert_eq!(fold_texture_scales(&mut props, &map, &dir), 0);
        assert!(props.sides.is_empty() && props.sectors.is_empty());
    }
}
