//! Polyobjects' walls at their start spots (see `polyobjects` for the facts): each line's
//! front side drawn as a one-sided wall in the sector it stands in, with that sector's heights
//! and light, its own sidedef's texture, offsets and pegging.

use std::collections::BTreeSet;

use glam::DVec2;

use super::walls::{Placement, WallPart};
use super::Builder;
use crate::formats::doom::map::udmf_props::MID;
use crate::formats::doom::map::{line_flags, MapData, Sector};
use crate::formats::doom::nodes::bsp::point_in_subsector;
use crate::formats::doom::specials::polyobjects::Polyobject;
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::{vertex_flags, SurfaceKind};

/// How far in front of a wall's middle (map units) its sector is looked for.
const IN_FRONT: f64 = 0.5;

impl Builder<'_> {
    /// Emits every polyobject's walls at its start spot; the sectors they stand in.
    pub(super) fn polyobject_walls(
        &mut self,
        map: &MapData,
        sectors: &[Sector],
        polyobjects: &[Polyobject],
    ) -> BTreeSet<u32> {
        let mut reached = BTreeSet::new();
        self.surface = 0;
        for po in polyobjects {
            for &l in &po.lines {
                if let Some(s) = self.polyobject_wall(map, sectors, l, po.offset) {
                    reached.insert(s);
                }
            }
        }
        reached
    }

    /// The front side of line `l` moved by `offset`; the sector it stands in.
    fn polyobject_wall(
        &mut self,
        map: &MapData,
        sectors: &[Sector],
        l: u32,
        offset: DVec2,
    ) -> Option<u32> {
        let line = map.linedefs.get(l as usize)?;
        let side = line.sides[0]?;
        let sd = map.sidedefs.get(side as usize)?;
        let (v1, v2) = (map.vertex(line.v1)?, map.vertex(line.v2)?);
        let (a, b) = (v1.to_dvec2() + offset, v2.to_dvec2() + offset);
        let len = a.distance(b);
        if len == 0.0 {
            return None;
        }
        // The front is on the right of v1 -> v2.
        let d = (b - a) / len;
        let front = (a + b) / 2.0 + DVec2::new(d.y, -d.x) * IN_FRONT;
        let sector = map.subsector_sector(point_in_subsector(map, front.x, front.y))?;
        let s = sectors.get(sector)?;
        let (tex, h) = self.wall_texture(&sd.middle)?;
        let props = self.props.side(side as usize);
        let p = Placement::new(0.0, sd.x_offset as f64, sd.y_offset as f64, &props.parts[MID]);
        let ends = |which: usize, level: i16| {
            [a, b].map(|q| self.slopes.height(sector, which, level as f64, q))
        };
        let (floor, ceiling) = (ends(FLOOR, s.floor), ends(CEILING, s.ceiling));
        let anchor = if line.has_flag(line_flags::LOWER_UNPEGGED) {
            s.floor as f64 + p.height(h)
        } else {
            s.ceiling as f64
        } + p.y_shift;
        let part = WallPart { top: ceiling, bottom: floor, anchor, y_scale: p.y_scale };
        // Fake contrast, as every wall.
        let contrast: i8 = if v1.y == v2.y {
            -1
        } else if v1.x == v2.x {
            1
        } else {
            0
        };
        let contrast = if props.no_fake_contrast { 0 } else { contrast };
        let flags = vertex_flags::pack(SurfaceKind::Wall, false, contrast, 0);
        self.banded_wall((sector as u32, props.light), a, b, &part, p.u(len), tex, flags);
        Some(sector as u32)
    }
}
