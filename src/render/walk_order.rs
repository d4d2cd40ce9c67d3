//! Doom's vanilla-exact frames draw the solid world in the order of vanilla's BSP walk and only
//! what the walk reached: the subsectors it drew, front to back, each with its flats and the
//! walls of its segs. Front to back, each pixel's nearest surface comes first and every later
//! fragment fails the depth test before it is shaded; what the walk never reached lies behind
//! solid walls and is not rasterised at all.

use std::ops::Range;

use crate::scene::vanilla_doom::VanillaMap;
use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};

/// The solid triangles of a scene by subsector, made once.
pub struct WalkOrder {
    /// Per subsector: first vertex of each of its triangles, planes first.
    by_subsector: Vec<Vec<u32>>,
    /// Triangles of no subsector (no seg or subsector number): drawn every frame.
    always: Vec<u32>,
    /// `SURFACE_KIND` (kind + 1) of each triangle, by first vertex / 3.
    surface: Vec<u32>,
}

/// One frame's index lists, in one buffer: the pre-pass's, then one range per surface kind.
pub struct FrameIndices {
    pub indices: Vec<u32>,
    pub pre_pass: Range<u32>,
    /// (`SURFACE_KIND`, range of `indices`).
    pub kinds: Vec<(u32, Range<u32>)>,
}

impl WalkOrder {
    /// `solid` is the scene's solid triangle list (its first `solid.len()` vertices are the
    /// draw buffer's). A wall's surface number is its seg + 1, a flat's (and a sky ceiling's)
    /// its subsector + 1, as the Doom builder numbers them.
    pub fn new(map: &VanillaMap, solid: &[WorldVertex]) -> WalkOrder {
        let mut seg_subsector = vec![u32::MAX; map.segs.len()];
        for (s, sub) in map.subsectors.iter().enumerate() {
            let first = sub.first_seg as usize;
            let end = first.saturating_add(sub.num_segs as usize).min(map.segs.len());
            for seg in seg_subsector.iter_mut().take(end).skip(first) {
                *seg = s as u32;
            }
        }
        let mut by_subsector = vec![Vec::new(); map.subsectors.len()];
        let mut walls_of = vec![Vec::new(); map.subsectors.len()];
        let mut always = Vec::new();
        let mut surface = Vec::with_capacity(solid.len() / 3);
        for (i, t) in solid.chunks_exact(3).enumerate() {
            let first = 3 * i as u32;
            let kind = t[0].flags & vertex_flags::KIND_MASK;
            surface.push(kind + 1);
            let horizontal = t[0].pos[1] == t[1].pos[1] && t[1].pos[1] == t[2].pos[1];
            let plane =
                kind == SurfaceKind::Flat as u32 || (kind == SurfaceKind::Sky as u32 && horizontal);
            let n = t[0].surface as usize;
            let subsector = match (n, plane) {
                (0, _) => None,
                (n, true) => Some(n - 1).filter(|&s| s < by_subsector.len()),
                (n, false) => seg_subsector
                    .get(n - 1)
                    .map(|&s| s as usize)
                    .filter(|&s| s != u32::MAX as usize),
            };
            match (subsector, plane) {
                (Some(s), true) => by_subsector[s].push(first),
                (Some(s), false) => walls_of[s].push(first),
                (None, _) => always.push(first),
            }
        }
        for (list, walls) in by_subsector.iter_mut().zip(walls_of) {
            list.extend(walls);
        }
        WalkOrder { by_subsector, always, surface }
    }

    /// The index lists for a walk that drew `subsectors` (in its order): every triangle of
    /// them for the pre-pass, and those of each surface kind in `kinds` for the shading pass.
    pub fn frame(&self, subsectors: &[u32], kinds: &[u32], out: &mut FrameIndices) {
        out.indices.clear();
        out.kinds.clear();
        let triangles = || {
            self.always.iter().chain(
                subsectors
                    .iter()
                    .filter_map(|&s| self.by_subsector.get(s as usize))
                    .flat_map(|list| list.iter()),
            )
        };
        for &first in triangles() {
            out.indices.extend([first, first + 1, first + 2]);
        }
        out.pre_pass = 0..out.indices.len() as u32;
        for &kind in kinds {
            let start = out.indices.len() as u32;
            for &first in triangles() {
                if self.surface.get(first as usize / 3) == Some(&kind) {
                    out.indices.extend([first, first + 1, first + 2]);
                }
            }
            out.kinds.push((kind, start..out.indices.len() as u32));
        }
    }
}

impl Default for FrameIndices {
    fn default() -> Self {
        FrameIndices { indices: Vec::new(), pre_pass: 0..0, kinds: Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::vanilla_doom::{VSeg, VSubsector};
    use crate::scene::vertex_flags::pack;

    fn tri(kind: SurfaceKind, surface: u32, heights: [f32; 3]) -> [WorldVertex; 3] {
        let mut v: WorldVertex = bytemuck::Zeroable::zeroed();
        v.flags = pack(kind, false, 0, 0);
        v.surface = surface;
        heights.map(|h| WorldVertex { pos: [0.0, h, 0.0], ..v })
    }

    #[test]
    fn draws_what_the_walk_reached_in_its_order_planes_first() {
        // Two subsectors: 0 holds seg 0, 1 holds segs 1 and 2.
        let map = VanillaMap {
            nodes: Vec::new(),
            subsectors: vec![
                VSubsector { first_seg: 0, num_segs: 1, sector: 0 },
                VSubsector { first_seg: 1, num_segs: 2, sector: 0 },
            ],
            segs: vec![VSeg::default(); 3],
            sectors: Vec::new(),
            sky_flat: 0,
        };
        let mut solid = Vec::new();
        solid.extend(tri(SurfaceKind::Wall, 1, [0.0, 0.0, 64.0])); // seg 0: triangle 0
        solid.extend(tri(SurfaceKind::Wall, 3, [0.0, 0.0, 64.0])); // seg 2: triangle 1
        solid.extend(tri(SurfaceKind::Flat, 1, [8.0; 3])); // subsector 0: triangle 2
        solid.extend(tri(SurfaceKind::Flat, 2, [8.0; 3])); // subsector 1: triangle 3
        solid.extend(tri(SurfaceKind::Sky, 2, [128.0; 3])); // subsector 1's sky: 4
        solid.extend(tri(SurfaceKind::Sky, 2, [0.0, 0.0, 128.0])); // seg 1's sky wall: 5
        solid.extend(tri(SurfaceKind::Wall, 0, [0.0, 0.0, 64.0])); // no seg: 6
        let order = WalkOrder::new(&map, &solid);
        let mut f = FrameIndices::default();
        let wall = SurfaceKind::Wall as u32 + 1;
        order.frame(&[1], &[wall], &mut f);
        fn triangles(f: &FrameIndices, r: &Range<u32>) -> Vec<u32> {
            f.indices[r.start as usize..r.end as usize].chunks(3).map(|t| t[0] / 3).collect()
        }
        // Subsector 0 was not reached: its flat and seg 0's wall are left out.
        assert_eq!(triangles(&f, &f.pre_pass), [6, 3, 4, 1, 5]);
        assert_eq!(f.kinds.len(), 1);
        assert_eq!(f.kinds[0].0, wall);
        assert_eq!(triangles(&f, &f.kinds[0].1), [6, 1]);
        order.frame(&[1, 0], &[], &mut f);
        assert_eq!(triangles(&f, &f.pre_pass), [6, 3, 4, 1, 5, 2, 0]);
    }
}
