//! Smooth Doom frames from a level camera at 90° draw only what vanilla's BSP walk reached:
//! the walls of the subsectors it drew, and the flats of their sectors. What it never reached
//! lies behind solid walls; a software rasteriser would still set up and depth test every
//! pixel of it. Flats go by sector because vanilla draws a floor or ceiling as one visplane
//! per sector height, flat and light, marked by the walls in front of it: a floor can show
//! past the subsectors the walk entered (measured on freedoom2 MAP01's start, where a
//! subsector's floor the walk never entered fills a wedge of the far room).

use std::ops::Range;

use crate::render::doom::smooth_textures::Run;
use crate::scene::doom::vanilla::VanillaMap;
use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};

/// A triangle that belongs to no subsector (no seg or subsector number): always drawn.
const ALWAYS: u32 = u32::MAX;
/// Set in a triangle's owner when it is a sector (flats), clear for a subsector (walls).
const SECTOR: u32 = 1 << 31;

pub struct WalkCull {
    /// What each triangle of the smooth runs' vertices is drawn with: a subsector, a sector
    /// (with [`SECTOR`]), or [`ALWAYS`].
    owner: Vec<u32>,
    /// The sector of each subsector.
    sector_of: Vec<u32>,
    visible: Vec<bool>,
    visible_sectors: Vec<bool>,
    indices: Vec<u32>,
    ranges: Vec<Range<u32>>,
}

impl WalkCull {
    /// `triangles` is the smooth runs' triangle list. A wall's surface number is its seg + 1,
    /// a flat's its subsector + 1, as the Doom builder numbers them.
    pub fn new(map: &VanillaMap, triangles: &[WorldVertex]) -> WalkCull {
        let mut seg_subsector = vec![ALWAYS; map.segs.len()];
        for (s, sub) in map.subsectors.iter().enumerate() {
            let first = sub.first_seg as usize;
            let end = first.saturating_add(sub.num_segs as usize).min(map.segs.len());
            for seg in seg_subsector.iter_mut().take(end).skip(first) {
                *seg = s as u32;
            }
        }
        let sector_of: Vec<u32> = map.subsectors.iter().map(|s| s.sector).collect();
        let sectors = sector_of.iter().map(|&s| s as usize + 1).max().unwrap_or(0);
        let owner = triangles
            .chunks_exact(3)
            .map(|t| {
                let n = t[0].surface as usize;
                let flat = t[0].flags & vertex_flags::KIND_MASK == SurfaceKind::Flat as u32;
                let owner = match n {
                    0 => None,
                    n if flat => sector_of.get(n - 1).map(|&s| s | SECTOR),
                    n => seg_subsector.get(n - 1).copied(),
                };
                owner.unwrap_or(ALWAYS)
            })
            .collect();
        WalkCull {
            owner,
            visible: vec![false; map.subsectors.len()],
            visible_sectors: vec![false; sectors],
            sector_of,
            indices: Vec::new(),
            ranges: Vec::new(),
        }
    }

    /// The index list of the triangles of `runs` a walk that drew `subsectors` reached, and
    /// each run's range of it.
    pub fn frame(&mut self, subsectors: &[u32], runs: &[Run]) -> (&[u32], &[Range<u32>]) {
        self.visible.fill(false);
        self.visible_sectors.fill(false);
        for &s in subsectors {
            if let Some(v) = self.visible.get_mut(s as usize) {
                *v = true;
            }
            if let Some(&sector) = self.sector_of.get(s as usize) {
                self.visible_sectors[sector as usize] = true;
            }
        }
        self.indices.clear();
        self.ranges.clear();
        for run in runs {
            let start = self.indices.len() as u32;
            for first in run.vertices.clone().step_by(3) {
                let owner = self.owner.get(first as usize / 3).copied().unwrap_or(ALWAYS);
                let drawn = match owner {
                    ALWAYS => true,
                    o if o & SECTOR != 0 => self.visible_sectors[(o & !SECTOR) as usize],
                    o => self.visible[o as usize],
                };
                if drawn {
                    self.indices.extend([first, first + 1, first + 2]);
                }
            }
            self.ranges.push(start..self.indices.len() as u32);
        }
        (&self.indices, &self.ranges)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::doom::vanilla::{WalkSeg, WalkSubsector};

    fn tri(kind: SurfaceKind, surface: u32) -> [WorldVertex; 3] {
        let v = WorldVertex {
            surface,
            flags: vertex_flags::pack(kind, false, 0, 0),
            ..bytemuck::Zeroable::zeroed()
        };
        [v; 3]
    }

    #[test]
    fn only_the_reached_subsectors_are_drawn() {
        // Subsector 0 has seg 0, subsector 1 seg 1 and subsector 2 seg 2; subsectors 1 and 2
        // are sector 1.
        let map = VanillaMap {
            subsectors: vec![
                WalkSubsector { first_seg: 0, num_segs: 1, sector: 0 },
                WalkSubsector { first_seg: 1, num_segs: 1, sector: 1 },
                WalkSubsector { first_seg: 2, num_segs: 1, sector: 1 },
            ],
            segs: vec![WalkSeg::default(); 3],
            ..Default::default()
        };
        let triangles: Vec<WorldVertex> = [
            tri(SurfaceKind::Wall, 1), // seg 0: subsector 0
            tri(SurfaceKind::Wall, 2), // seg 1: subsector 1
            tri(SurfaceKind::Flat, 3), // subsector 2: sector 1
            tri(SurfaceKind::Flat, 0), // no subsector: always
            tri(SurfaceKind::Flat, 1), // subsector 0: sector 0
        ]
        .concat();
        let runs = [
            Run { texture: 0, surface: 1, vertices: 0..6 },
            Run { texture: 1, surface: 2, vertices: 6..15 },
        ];
        let mut cull = WalkCull::new(&map, &triangles);
        // Subsector 1 reached: its wall, and sector 1's flats (subsector 2's included).
        let (indices, ranges) = cull.frame(&[1], &runs);
        assert_eq!(indices, &[3, 4, 5, 6, 7, 8, 9, 10, 11]);
        assert_eq!(ranges, &[0..3, 3..9]);
        let (indices, ranges) = cull.frame(&[0], &runs);
        assert_eq!(indices, &[0, 1, 2, 9, 10, 11, 12, 13, 14]);
        assert_eq!(ranges, &[0..3, 3..9]);
    }
}
