//! The light a sector's 3D floors cast below them: bands of height, each lit by one sector's
//! light, as GZDoom's light lists are (`p_3dfloors.cpp` P_Recalculate3DFloors and
//! P_GetPlaneLight; walls are split at the band edges as `hw_walls.cpp` SplitWall splits
//! them).
//!
//! Facts relied on:
//! - The first band runs down from the sector's ceiling with the sector's own light. Each 3D
//!   floor without "no shade", taken from the highest top down (heights at the centre of the
//!   sector's bounding box), starts a band at its top with its control sector's light; a
//!   floor whose top is above the ceiling but whose bottom is below it lights the first band
//!   instead; a floor whose top is below the sector's floor ends the list.
//! - "Double shadow" ends the floor's light at its bottom: a band starts there with the light
//!   of the last band that no double-shadow floor started (the sector's own after a "reset"
//!   floor).
//! - A surface at height `h` takes the band of the first list entry after the top one whose
//!   top is at or below `h` — the one before it — so a floor at a 3D floor's top is lit from
//!   above it; a surface seen from below (a ceiling) looks a hair lower.
//! - A band's light replaces the sector's on walls (a sidedef's relative light still applies
//!   to it), on floors and ceilings without absolute light of their own (`hw_flats.cpp`
//!   ProcessSector), and on things.

use std::collections::BTreeMap;

use glam::DVec2;

use super::walls::WallPart;
use super::Builder;
use crate::formats::doom::map::udmf_props::LightRule;
use crate::formats::doom::map::MapData;
use crate::formats::doom::specials::floors_3d::{floor_flags, Floor3d, FloorKind};
use crate::formats::doom::specials::slopes::{SectorSlopes, CEILING, FLOOR};

/// How far below a plane a surface seen from below looks for its band (GZDoom's
/// `EQUAL_EPSILON`, 1/65536).
pub(super) const BELOW: f64 = 1.0 / 65536.0;

/// One band: from `top` down to the next band's top, lit by sector `source`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Band {
    top: f64,
    source: u32,
}

/// The bands of every sector with a 3D floor that casts light.
#[derive(Default)]
pub(super) struct LightBands {
    bands: BTreeMap<u32, Vec<Band>>,
}

impl LightBands {
    pub(super) fn new(map: &MapData, floors: &[Floor3d], slopes: &SectorSlopes) -> LightBands {
        let mut of_sector: BTreeMap<u32, Vec<&Floor3d>> = BTreeMap::new();
        for f in floors.iter().filter(|f| !f.has(floor_flags::NO_SHADE)) {
            for &t in &f.targets {
                of_sector.entry(t).or_default().push(f);
            }
        }
        if of_sector.is_empty() {
            return LightBands::default();
        }
        let centres = sector_centres(map);
        let mut bands = BTreeMap::new();
        for (sector, floors) in of_sector {
            let (Some(s), Some(&centre)) =
                (map.sectors.get(sector as usize), centres.get(sector as usize))
            else {
                continue;
            };
            let height =
                |s: usize, which: usize, level: i16| slopes.height(s, which, level as f64, centre);
            let ceiling = height(sector as usize, CEILING, s.ceiling);
            let floor = height(sector as usize, FLOOR, s.floor);
            // Each floor's top and bottom heights and light.
            let mut planes: Vec<(f64, f64, &Floor3d)> = floors
                .into_iter()
                .filter_map(|f| {
                    let c = f.control as usize;
                    let control = map.sectors.get(c)?;
                    let (top, bottom) =
                        (height(c, CEILING, control.ceiling), height(c, FLOOR, control.floor));
                    Some(match f.kind {
                        FloorKind::Vavoom => (bottom, top, f),
                        _ if f.has(floor_flags::THIN) => (top, top, f),
                        _ => (top, bottom, f),
                    })
                })
                .collect();
            // Highest top first; of equal tops, the first defined.
            planes.sort_by(|a, b| b.0.total_cmp(&a.0));
            let list = band_list(sector, (floor, ceiling), &planes);
            if list.len() > 1 || list[0].source != sector {
                bands.insert(sector, list);
            }
        }
        LightBands { bands }
    }

    /// The sector whose light reaches a surface of sector `sector` at height `h` (see the
    /// module notes): `sector` itself where no 3D floor's light does.
    pub(super) fn source_at(&self, sector: u32, h: f64) -> u32 {
        let Some(list) = self.bands.get(&sector) else { return sector };
        let i = list.iter().skip(1).position(|b| b.top <= h).unwrap_or(list.len() - 1);
        list[i].source
    }

    /// Whether any 3D floor's light reaches sector `sector`.
    pub(super) fn has(&self, sector: u32) -> bool {
        self.bands.contains_key(&sector)
    }

    /// The heights strictly between `lo` and `hi` where the light of sector `sector` changes,
    /// highest first.
    fn cuts(&self, sector: u32, lo: f64, hi: f64) -> Vec<f64> {
        let mut cuts: Vec<f64> = self
            .bands
            .get(&sector)
            .map(|list| list[1..].iter().map(|b| b.top).filter(|&t| lo < t && t < hi).collect())
            .unwrap_or_default();
        cuts.sort_by(|a, b| b.total_cmp(a));
        cuts.dedup();
        cuts
    }
}

/// The light list of `sector`, whose floor and ceiling are at `floor` and `ceiling`, under the
/// 3D floors `planes` (top, bottom, floor), highest top first.
fn band_list(
    sector: u32,
    (floor, ceiling): (f64, f64),
    planes: &[(f64, f64, &Floor3d)],
) -> Vec<Band> {
    let mut list = vec![Band { top: f64::INFINITY, source: sector }];
    let mut reset = sector;
    for &(top, bottom, f) in planes {
        if top < floor {
            break;
        }
        if top < ceiling {
            list.push(Band { top, source: f.control });
        } else if bottom < ceiling {
            list[0].source = f.control;
        }
        if f.has(floor_flags::RESET) {
            reset = sector;
        } else if !f.has(floor_flags::DOUBLE_SHADOW) {
            reset = list.last().map_or(sector, |b| b.source);
        }
        if f.has(floor_flags::DOUBLE_SHADOW) && bottom < ceiling && bottom > floor {
            list.push(Band { top: bottom, source: reset });
        }
    }
    list
}

/// The centre of each sector's bounding box (its lines' vertices), where its bands' heights
/// are taken.
fn sector_centres(map: &MapData) -> Vec<DVec2> {
    let mut boxes =
        vec![(DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)); map.sectors.len()];
    for ld in &map.linedefs {
        let ends = [map.vertex(ld.v1), map.vertex(ld.v2)];
        for side in 0..2 {
            let Some(b) = map.line_sector(ld, side).and_then(|s| boxes.get_mut(s)) else {
                continue;
            };
            for v in ends.iter().flatten() {
                let p = v.to_dvec2();
                *b = (b.0.min(p), b.1.max(p));
            }
        }
    }
    boxes
        .into_iter()
        .map(|(lo, hi)| if lo.x <= hi.x { (lo + hi) / 2.0 } else { DVec2::ZERO })
        .collect()
}

impl Builder<'_> {
    /// The light slot of sector `sector`'s floor or ceiling (`which`) at `level`, whose own
    /// slot is `own` and rule `rule`: a 3D floor's light where one reaches it and the plane's
    /// light is not absolute.
    pub(super) fn banded_plane_slot(
        &mut self,
        sector: u32,
        which: usize,
        level: f64,
        (own, rule): (u32, LightRule),
    ) -> u32 {
        let h = if which == CEILING { level - BELOW } else { level };
        match self.bands.source_at(sector, h) {
            s if s == sector || rule.absolute => own,
            source => self.lights.slot_from(sector, source, LightRule::default()),
        }
    }

    /// The light slot of something of sector `sector` at height `h`, lit by rule `rule`.
    pub(super) fn banded_slot(&mut self, sector: u32, h: f64, rule: LightRule) -> u32 {
        let source = self.bands.source_at(sector, h);
        self.lights.slot_from(sector, source, rule)
    }

    /// A wall of sector `sector` (its sidedef's light rule `rule`), cut where the light of the
    /// sector's 3D floors changes, each piece lit by its band. Without bands it is one quad,
    /// exactly as `wall_quad` draws it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn banded_wall(
        &mut self,
        (sector, rule): (u32, LightRule),
        a: DVec2,
        b: DVec2,
        part: &WallPart,
        u: (f64, f64),
        texture: u32,
        flags: u32,
    ) {
        if !self.bands.has(sector) {
            let light = self.lights.slot(sector, rule);
            self.wall_quad(a, b, part, u, texture, light, flags);
            return;
        }
        let lo = part.bottom[0].min(part.bottom[1]);
        let hi = part.top[0].max(part.top[1]);
        let mut edges = vec![hi];
        edges.extend(self.bands.cuts(sector, lo, hi));
        edges.push(lo);
        for piece in edges.windows(2) {
            let (top, bottom) = (piece[0], piece[1]);
            let cut = WallPart {
                top: part.top.map(|t| t.min(top)),
                bottom: part.bottom.map(|t| t.max(bottom)),
                ..*part
            };
            if (0..2).all(|e| cut.top[e] <= cut.bottom[e]) {
                continue;
            }
            let light = self.banded_slot(sector, (top + bottom) / 2.0, rule);
            self.wall_quad(a, b, &cut, u, texture, light, flags);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn floor(control: u32, flags: i32) -> Floor3d {
        Floor3d {
            line: 0,
            control,
            targets: vec![0],
            kind: FloorKind::Solid,
            inside: false,
            flags,
            alpha: 255,
        }
    }

    fn bands(planes: &[(f64, f64, &Floor3d)]) -> LightBands {
        LightBands { bands: BTreeMap::from([(0, band_list(0, (0.0, 256.0), planes))]) }
    }

    #[test]
    fn a_floor_lights_everything_below_its_top_with_its_control_light() {
        let f = floor(7, 0);
        let b = bands(&[(128.0, 96.0, &f)]);
        // Above the top, and a floor at the top, are the sector's; below it the control's.
        assert_eq!(b.source_at(0, 200.0), 0);
        assert_eq!(b.source_at(0, 128.0), 0);
        assert_eq!(b.source_at(0, 100.0), 7);
        assert_eq!(b.source_at(0, 0.0), 7);
        assert_eq!(b.source_at(0, 128.0 - BELOW), 7, "the slab's underside");
        assert_eq!(b.cuts(0, 0.0, 256.0), vec![128.0]);
        assert_eq!(b.source_at(3, 0.0), 3, "a sector without bands");
    }

    #[test]
    fn double_shadow_ends_the_light_at_the_bottom_and_reset_returns_to_the_sector() {
        let (upper, lower) = (floor(7, floor_flags::DOUBLE_SHADOW), floor(8, 0));
        let b = bands(&[(200.0, 160.0, &upper), (100.0, 80.0, &lower)]);
        assert_eq!([250.0, 180.0, 120.0, 50.0].map(|h| b.source_at(0, h)), [0, 7, 0, 8]);
        assert_eq!(b.cuts(0, 0.0, 256.0), vec![200.0, 160.0, 100.0]);
        // A reset floor's light stops at the next double-shadow floor's bottom.
        let (first, second) = (floor(7, floor_flags::RESET), floor(8, floor_flags::DOUBLE_SHADOW));
        let b = bands(&[(200.0, 190.0, &first), (100.0, 80.0, &second)]);
        assert_eq!([150.0, 90.0, 50.0].map(|h| b.source_at(0, h)), [7, 8, 0]);
    }

    #[test]
    fn floors_reaching_past_the_ceiling_light_the_top_band_and_those_under_the_floor_nothing() {
        let (over, under) = (floor(7, 0), floor(8, 0));
        let b = bands(&[(300.0, 200.0, &over), (-10.0, -20.0, &under)]);
        assert_eq!([250.0, 10.0].map(|h| b.source_at(0, h)), [7, 7]);
        assert!(b.cuts(0, -100.0, 400.0).is_empty());
    }
}
