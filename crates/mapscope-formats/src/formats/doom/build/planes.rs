//! The floors and ceilings step: each subsector's polygon as a floor and a ceiling (on their
//! slopes, with UDMF placement, light and Boom's scrollers; F_SKY1 as the sky), then the 3D
//! floors' slabs over them. Apart from the walls because flats are placed by vanilla's 64x64
//! grid and lit by plane, not by seg.

use glam::DVec2;

use super::skies::is_sky;
use super::{viewer, Builder};
use crate::formats::doom::map::{MapData, Sector};
use crate::formats::doom::nodes::bsp::SubsectorPolygons;
use crate::formats::doom::specials::floors_3d::Floor3d;
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};

impl Builder<'_> {
    /// Draws every subsector's floor and ceiling (`shown`: the sectors as Boom 242 shows
    /// them), then the slabs of `floors_3d`.
    pub(super) fn planes(
        &mut self,
        map: &MapData,
        polygons: &SubsectorPolygons,
        shown: &[Sector],
        floors_3d: &[Floor3d],
    ) {
        for (si, poly) in polygons.polygons.iter().enumerate() {
            if poly.len() < 3 {
                continue;
            }
            let Some(s) = map.subsector_sector(si) else { continue };
            self.surface = si as u32 + 1;
            self.flat_polygon(&shown[s], s, poly);
        }
        self.slabs(map, polygons, floors_3d);
    }

    fn flat_polygon(&mut self, sector: &Sector, index: usize, poly: &[DVec2]) {
        let sky = self.sky_of(index as u32);
        let p = self.props.sector(index);
        let [floor_light, ceiling_light] = self.plane_light_slots(index as u32);
        let key = index as u32;
        // Under a 3D floor, its light.
        let floor_light =
            self.banded_plane_slot(key, FLOOR, sector.floor as f64, (floor_light, p.floor_light));
        let ceiling_light = self.banded_plane_slot(
            key,
            CEILING,
            sector.ceiling as f64,
            (ceiling_light, p.ceiling_light),
        );
        let floor_scroll = self.scrolls.slot(self.boom.floor_scroll.get(&key).copied());
        let ceiling_scroll = self.scrolls.slot(self.boom.ceiling_scroll.get(&key).copied());
        let planes = [
            (sector.floor as f64, &sector.floor_flat, true, floor_light, p.floor, floor_scroll),
            (
                sector.ceiling as f64,
                &sector.ceiling_flat,
                false,
                ceiling_light,
                p.ceiling,
                ceiling_scroll,
            ),
        ];
        for (z, name, up, light, placement, scroll) in planes {
            let which = if up { FLOOR } else { CEILING };
            // F_SKY1 on any plane shows the sky (R_DrawPlanes checks every plane).
            let (kind, texture) = if is_sky(name) {
                (SurfaceKind::Sky, sky.texture)
            } else {
                (SurfaceKind::Flat, self.flat(name))
            };
            // A sky plane does not scroll (its texels follow the view angle); its contrast
            // byte says which kind of sky it is, its uv holds a transferred sky's offsets.
            let flags = if kind == SurfaceKind::Sky {
                vertex_flags::pack(kind, false, sky.kind, 0)
            } else {
                vertex_flags::pack(kind, false, 0, scroll)
            };
            let vert = |p: DVec2| WorldVertex {
                // A sloped plane's height at each corner (the level height otherwise).
                pos: viewer(p, self.slopes.height(index, which, z, p)).to_array(),
                // Vanilla's flat grid, column x & 63 and row (-y) & 63, under the UDMF
                // placement (udmf_props: rotated about the origin, panned, scaled).
                uv: if kind == SurfaceKind::Sky {
                    sky.uv
                } else {
                    placement.uv(p.x, p.y).map(|c| c as f32)
                },
                texture,
                light,
                flags,
                surface: self.surface,
                shade: [0; 4],
            };
            for i in 1..poly.len() - 1 {
                let (p1, p2) = if up { (poly[i], poly[i + 1]) } else { (poly[i + 1], poly[i]) };
                self.world.extend_from_slice(&[vert(poly[0]), vert(p1), vert(p2)]);
            }
        }
    }
}
