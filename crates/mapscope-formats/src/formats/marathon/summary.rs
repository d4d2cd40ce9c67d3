//! Counts and histograms of a level as stored in the file (before platform initialisation),
//! for `info` and the fixture facts.

use std::collections::BTreeMap;

use super::level::Level;
use super::map::line_flags;
use super::panels::{side_panels, SideHeights};

/// Transfer mode that draws a surface as the landscape.
pub const TRANSFER_LANDSCAPE: u16 = 9;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelSummary {
    /// full, high, low, composite, split.
    pub side_types: [usize; 5],
    pub sides_with_transparent_texture: usize,
    pub solid_lines: usize,
    pub transparent_lines: usize,
    /// Vertex count -> polygons.
    pub polygon_vertex_counts: BTreeMap<u16, usize>,
    /// (min, max) of endpoint x, endpoint y, and lowest floor .. highest ceiling.
    pub bounds: Option<[[i16; 2]; 3]>,
    pub wall_panels_by_texture: BTreeMap<u16, usize>,
    pub floor_polygons_by_texture: BTreeMap<u16, usize>,
    pub ceiling_polygons_by_texture: BTreeMap<u16, usize>,
    /// Polygons with a landscape floor or ceiling.
    pub landscape_polygons: Vec<usize>,
}

impl LevelSummary {
    pub fn of(level: &Level) -> LevelSummary {
        let mut s = LevelSummary::default();
        for side in &level.sides {
            if let Some(n) = s.side_types.get_mut(side.kind as usize) {
                *n += 1;
            }
            if side.transparent.texture != super::panels::NO_TEXTURE {
                s.sides_with_transparent_texture += 1;
            }
        }
        for l in &level.lines {
            s.solid_lines += (l.flags & line_flags::SOLID != 0) as usize;
            s.transparent_lines += (l.flags & line_flags::TRANSPARENT != 0) as usize;
        }
        for (i, p) in level.polygons.iter().enumerate() {
            *s.polygon_vertex_counts.entry(p.vertex_count).or_default() += 1;
            let floor_sky = p.floor_transfer_mode == TRANSFER_LANDSCAPE;
            let ceiling_sky = p.ceiling_transfer_mode == TRANSFER_LANDSCAPE;
            if floor_sky || ceiling_sky {
                s.landscape_polygons.push(i);
            }
            if !floor_sky {
                *s.floor_polygons_by_texture.entry(p.floor_texture).or_default() += 1;
            }
            if !ceiling_sky {
                *s.ceiling_polygons_by_texture.entry(p.ceiling_texture).or_default() += 1;
            }
        }
        let xs = level.endpoints.iter().map(|e| e.x);
        let ys = level.endpoints.iter().map(|e| e.y);
        let floors = level.polygons.iter().map(|p| p.floor_height);
        let ceilings = level.polygons.iter().map(|p| p.ceiling_height);
        if let (Some(x0), Some(x1), Some(y0), Some(y1), Some(z0), Some(z1)) =
            (xs.clone().min(), xs.max(), ys.clone().min(), ys.max(), floors.min(), ceilings.max())
        {
            s.bounds = Some([[x0, x1], [y0, y1], [z0, z1]]);
        }
        for (side, owner) in level.sides.iter().zip(&level.side_owners) {
            let Some((p, l)) = *owner else { continue };
            let (poly, line) = (&level.polygons[p], &level.lines[l]);
            let h = SideHeights {
                floor: poly.floor_height,
                ceiling: poly.ceiling_height,
                adjacent_floor: line.highest_adjacent_floor,
                adjacent_ceiling: line.lowest_adjacent_ceiling,
            };
            for panel in side_panels(side, h) {
                *s.wall_panels_by_texture.entry(panel.texture(side).texture).or_default() += 1;
            }
        }
        s
    }
}
