//! Floors and ceilings as GZDoom's movement code meets them where a map has more than
//! vanilla's level planes: sloped floors and ceilings, and solid 3D floors (GZDoom
//! `sector_t::NextLowestFloorAt` / `NextHighestCeilingAt` for where a body stands,
//! `P_LineOpening_XFloors` for the opening of a line it crosses; read for the rules).
//!
//! In a vanilla or Boom map every plane is level and there are no 3D floors, so every answer
//! here is the sector's own floor and ceiling height.

use glam::DVec2;

use super::super::map::MapData;
use super::super::specials::floors_3d::{read_3d_floors, FloorKind};
use super::super::specials::slopes::{SectorSlopes, CEILING, FLOOR};
use super::STEP_HEIGHT;

/// A solid 3D floor in a sector: its planes are the control sector's.
#[derive(Clone, Copy, Debug)]
struct Slab {
    control: usize,
    /// Vavoom style: the control sector's floor is the slab's top, its ceiling the bottom.
    vavoom: bool,
}

/// Every sector's floor and ceiling, sloped or level, and the solid 3D floors in it.
pub struct Heights {
    level: Vec<(f64, f64)>,
    slopes: SectorSlopes,
    slabs: Vec<Vec<Slab>>,
}

impl Heights {
    pub fn new(map: &MapData) -> Heights {
        let level = map.sectors.iter().map(|s| (s.floor as f64, s.ceiling as f64)).collect();
        // The notes are the scene builder's to give; the walker only needs the planes.
        let mut notes = Vec::new();
        let slopes = SectorSlopes::read(map, &mut notes);
        let mut slabs = vec![Vec::new(); map.sectors.len()];
        for floor in read_3d_floors(map, &mut notes) {
            // Swimmable and non-solid floors let bodies through (no `FF_SOLID`).
            if !matches!(floor.kind, FloorKind::Solid | FloorKind::Vavoom) {
                continue;
            }
            let slab =
                Slab { control: floor.control as usize, vavoom: floor.kind == FloorKind::Vavoom };
            for &t in &floor.targets {
                if let Some(list) = slabs.get_mut(t as usize) {
                    list.push(slab);
                }
            }
        }
        Heights { level, slopes, slabs }
    }

    /// Sector `sector`'s own floor and ceiling above `p` (slopes followed); `None`: no such
    /// sector.
    pub fn planes(&self, sector: usize, p: DVec2) -> Option<(f64, f64)> {
        let &(floor, ceiling) = self.level.get(sector)?;
        Some((
            self.slopes.height(sector, FLOOR, floor, p),
            self.slopes.height(sector, CEILING, ceiling, p),
        ))
    }

    /// A 3D floor's bottom and top above `p`.
    fn slab(&self, slab: Slab, p: DVec2) -> Option<(f64, f64)> {
        let (floor, ceiling) = self.planes(slab.control, p)?;
        Some(if slab.vavoom { (ceiling, floor) } else { (floor, ceiling) })
    }

    /// The floor and ceiling a body with its feet at `z` and `height` tall stands between in
    /// `sector` at `p`: the top of a solid 3D floor it stands on (feet on or above the top, or
    /// the top less than a step above feet that are inside it), else the sector's floor; the
    /// bottom of the lowest 3D floor whose middle is nearer its head than its feet, else the
    /// sector's ceiling. A 3D floor nearer the feet that is neither (a thin walkway a little
    /// above them) is left to the lines' openings, which step the body onto it.
    pub fn standing(&self, sector: usize, p: DVec2, z: f64, height: f64) -> Option<(f64, f64)> {
        let (mut floor, real_ceiling) = self.planes(sector, p)?;
        let slabs: Vec<(f64, f64)> =
            self.slabs[sector].iter().filter_map(|&s| self.slab(s, p)).collect();
        let under_feet = |&(bottom, top): &(f64, f64)| {
            top > floor && (z >= top || (bottom < z && top < z + STEP_HEIGHT))
        };
        if let Some(top) = slabs.iter().filter(|s| under_feet(s)).map(|s| s.1).reduce(f64::max) {
            floor = top;
        }
        let overhead = |&(bottom, top): &(f64, f64)| {
            let middle = (bottom + top) / 2.0;
            bottom < real_ceiling && (z - middle).abs() > (z + height - middle).abs()
        };
        let ceiling =
            slabs.iter().filter(|s| overhead(s)).map(|s| s.0).fold(real_ceiling, f64::min);
        Some((floor, ceiling))
    }

    /// The floor and ceiling that `sector` gives the opening of a line at `p` for a body from
    /// `z` to `z + height`: a 3D floor counts as floor where its middle is nearer the feet than
    /// the head, as ceiling otherwise.
    pub fn side_opening(&self, sector: usize, p: DVec2, z: f64, height: f64) -> Option<(f64, f64)> {
        let (mut floor, mut ceiling) = self.planes(sector, p)?;
        let (real_floor, real_ceiling) = (floor, ceiling);
        for &s in &self.slabs[sector] {
            let Some((bottom, top)) = self.slab(s, p) else { continue };
            let middle = (bottom + top) / 2.0;
            if (z - middle).abs() <= (z + height - middle).abs() {
                if top > floor && top > real_floor {
                    floor = top;
                }
            } else if bottom < ceiling && bottom < real_ceiling {
                ceiling = bottom;
            }
        }
        Some((floor, ceiling))
    }

    /// Whether a sector's floor is sloped (bodies walking down it keep to it).
    pub fn sloped_floor(&self, sector: usize) -> bool {
        self.slopes.plane(sector, FLOOR).is_some()
    }
}
