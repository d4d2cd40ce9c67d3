//! The vanilla map payload: what the CPU's faithful frames draw from (vanilla's map with
//! its flat numbers tied to the scene's textures, the sectors' light, scroll and placement
//! slots, Boom's and MBF's sector effects, the wall textures as vanilla holds them in memory,
//! the things, and which sectors only the GPU can draw). A step of its own because it reads
//! what every other step made and must come after them.

use std::collections::BTreeSet;

use super::inputs::LevelInputs;
use super::scene_textures::TexKey;
use super::sector_tints::sector_color_table;
use super::things::ThingFrames;
use super::{to_fixed, Builder};
use crate::formats::doom::graphics::texture_memory::scene_texture_memory;
use crate::formats::doom::map::udmf_props::FlatPlacement;
use crate::formats::doom::map::vanilla_map::vanilla_map_with_textures;
use crate::formats::doom::map::MapData;
use crate::formats::doom::specials::boom_build::SkySurface;
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::doom::vanilla::{FlatXform, VanillaMap};
use crate::scene::Sprite;

impl Builder<'_> {
    /// The payload for `map` once every surface and thing is made: `tranmaps` are Boom's
    /// translucency tables, `sprites` get their sector colours, `frames` become its things,
    /// and the sectors of `po_sectors` (where polyobjects stand) are left to the GPU.
    pub(super) fn vanilla_payload(
        &mut self,
        map: &MapData,
        inputs: &LevelInputs,
        tranmaps: Vec<Vec<u8>>,
        sprites: &mut [Sprite],
        frames: ThingFrames,
        po_sectors: &BTreeSet<u32>,
    ) -> Box<VanillaMap> {
        // The walk's flat numbers to the textures made for them, for the CPU's spans.
        let mut vanilla_map =
            Box::new(vanilla_map_with_textures(map, self.stack, Some(self.texdir)));
        // UDMF floor and ceiling light and placement (identity for vanilla maps).
        // Boom's light transfers (213, 261) and flat scrollers (250, 251, 253) too.
        for (i, sector) in vanilla_map.sectors.iter_mut().enumerate().take(map.sectors.len()) {
            let p = self.props.sector(i);
            let [floor_slot, ceiling_slot] = self.plane_light_slots(i as u32);
            sector.floor_light_slot = floor_slot;
            sector.ceiling_light_slot = ceiling_slot;
            sector.floor_scroll_slot =
                self.scrolls.slot(self.boom.floor_scroll.get(&(i as u32)).copied());
            sector.ceiling_scroll_slot =
                self.scrolls.slot(self.boom.ceiling_scroll.get(&(i as u32)).copied());
            sector.floor_xform = flat_xform(&p.floor);
            sector.ceiling_xform = flat_xform(&p.ceiling);
            // Boom 242 and MBF 271/272.
            sector.heightsec = inputs.views.heightsec.get(&(i as u32)).copied();
            sector.region_colormaps =
                inputs.region_colormaps.get(&(i as u32)).copied().unwrap_or([0; 3]);
            sector.sky = self.sector_sky.get(&(i as u32)).map_or(0, |&k| k as u32 + 1);
        }
        vanilla_map.skies = self.skies.iter().skip(1).map(SkySurface::vanilla).collect();
        vanilla_map.tranmaps = tranmaps;
        vanilla_map.colors = sector_color_table(&inputs.colors, self, sprites);
        if self.props.beyond_vanilla() {
            self.notes.push(
                "UDMF wall scales and flat scales or rotations have no vanilla equivalent: \
                 faithful mode draws them with the ZDoom software renderer's extension of \
                 vanilla's column and span arithmetic (offsets and light use vanilla's own)"
                    .into(),
            );
        }
        for (sector, s) in vanilla_map.sectors.iter().zip(&map.sectors) {
            for (pic, name) in
                [(sector.floorpic, &s.floor_flat), (sector.ceilingpic, &s.ceiling_flat)]
            {
                let pic = pic as usize;
                if pic as u32 == vanilla_map.sky_flat || pic > 1 << 20 {
                    continue;
                }
                let textures = &mut vanilla_map.flat_textures;
                if textures.len() <= pic {
                    textures.resize(pic + 1, u32::MAX);
                }
                if textures[pic] == u32::MAX {
                    textures[pic] = self.flat(name);
                }
            }
        }
        // Every wall texture made (sky and animation frames included) as vanilla holds it in
        // memory, for the canvas's columns: tutti-frutti and the Medusa effect come from there.
        // A texture the texel budget made a placeholder keeps its placeholder.
        let mut walls: Vec<(usize, u32)> = self
            .keys
            .iter()
            .filter_map(|(key, &i)| match key {
                TexKey::Wall(n) => Some((*n, i)),
                _ => None,
            })
            .filter(|&(n, i)| {
                let (def, tex) = (self.texdir.defs.get(n), self.textures.get(i as usize));
                def.zip(tex).is_some_and(|(d, t)| {
                    (t.width, t.height) == (d.visible_width() as u32, d.height as u32)
                })
            })
            .collect();
        walls.sort_unstable();
        vanilla_map.texture_memory = scene_texture_memory(
            self.texdir,
            self.stack,
            &walls,
            self.textures.len(),
            &mut self.notes,
        );
        vanilla_map.things = frames.memory.finish(vanilla_map.sectors.len());
        vanilla_map.things.frame_views = frames.views;
        // Translucent things' tables go after the lines'.
        let base = vanilla_map.tranmaps.len() as u32;
        vanilla_map.tranmaps.extend(frames.tranmaps);
        for thing in &mut vanilla_map.things.things {
            if let Some(t) = &mut thing.translucent {
                *t += base;
            }
        }
        // Vanilla's walk and spans know only level planes and no slabs: a frame that reaches a
        // sloped sector or one with a 3D floor is drawn by ordinary rasterisation (vanilla's
        // COLORMAP light by depth), as every faithful frame off vanilla's projection is; the
        // others stay vanilla's.
        let with_3d_floors: BTreeSet<u32> =
            inputs.floors_3d.iter().flat_map(|f| f.targets.iter().copied()).collect();
        for (i, sector) in vanilla_map.sectors.iter_mut().enumerate() {
            sector.beyond_canvas =
                [FLOOR, CEILING].iter().any(|&w| self.slopes.plane(i, w).is_some())
                    || with_3d_floors.contains(&(i as u32))
                    || po_sectors.contains(&(i as u32));
        }
        if !self.slopes.is_empty() {
            self.notes.push(format!(
                "slopes ({} sloped floors and ceilings, made by {}) have no vanilla equivalent: \
                 faithful frames that reach a sloped sector are drawn with vanilla's COLORMAP \
                 light tables over ordinary rasterisation (the GPU), the others with vanilla's \
                 wall columns and flat spans",
                self.slopes.sloped_planes(),
                self.slopes.counts.describe()
            ));
        }
        vanilla_map
    }
}

/// A flat placement as the span drawer applies it.
fn flat_xform(p: &FlatPlacement) -> FlatXform {
    FlatXform {
        x_offset: to_fixed(p.x_panning),
        y_offset: to_fixed(p.y_panning),
        x_scale: to_fixed(p.x_scale),
        y_scale: to_fixed(p.y_scale),
        // Degrees in 0..360 to a binary angle (2^32 a turn).
        angle: ((p.rotation / 360.0).fract() * 4294967296.0).round() as u64 as u32,
    }
}
