//! A Doom level loaded for `info` and for building: its map, subsector polygons, slopes and
//! player start, and the camera the scene opens with. Apart from the scene's steps because
//! `info` and the tests use a level without building anything.

use glam::{DVec2, DVec3};

use super::{fixed_units, VIEW_HEIGHT};
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::map::things::spawn_angle_degrees;
use crate::formats::doom::map::MapData;
use crate::formats::doom::nodes::bsp::{point_in_subsector, SubsectorPolygons};
use crate::formats::doom::specials::slopes::{SectorSlopes, CEILING, FLOOR};
use crate::formats::Result;
use crate::scene::{Axes, CameraPose};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerStart {
    pub x: f64,
    pub y: f64,
    /// Floor height of the sector under the start.
    pub floor: f64,
    /// Facing in degrees as the game uses it (snapped down to 45, 0 = east, CCW).
    pub angle: f64,
    pub sector: Option<usize>,
}

impl PlayerStart {
    /// Eye position in map coordinates (x, y, z up).
    pub fn eye(&self) -> DVec3 {
        DVec3::new(self.x, self.y, self.floor + VIEW_HEIGHT)
    }
}

/// A parsed map with its geometry, for `info` and for building the scene.
#[derive(Clone, Debug)]
pub struct DoomLevel {
    pub map: MapData,
    pub polygons: SubsectorPolygons,
    /// Player 1 start (the last one in THINGS, whose mobj the player gets in vanilla).
    pub player_start: Option<PlayerStart>,
    /// Sloped floors and ceilings (ZDoom's; none in a vanilla map).
    pub slopes: SectorSlopes,
}

impl DoomLevel {
    pub fn load(stack: &WadStack, name: &str) -> Result<DoomLevel> {
        let mut map = MapData::load(stack, name)?;
        let polygons = SubsectorPolygons::compute(&map);
        let mut notes = Vec::new();
        let slopes = SectorSlopes::read(&map, &mut notes);
        map.notes.extend(notes);
        // The player stands on the slope under the start.
        let player_start = player_start(&map).map(|mut p| {
            if let Some(s) = p.sector {
                p.floor = slopes.height(s, FLOOR, p.floor, DVec2::new(p.x, p.y));
            }
            p
        });
        Ok(DoomLevel { map, polygons, player_start, slopes })
    }

    /// Native bounds: (min, max) of x, y over vertices and z over sector floors/ceilings
    /// (sloped ones at their lines' ends).
    pub fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        let b = self.map.bounds();
        let zmin = self.map.sectors.iter().map(|s| s.floor).min().unwrap_or(0) as f64;
        let zmax = self.map.sectors.iter().map(|s| s.ceiling).max().unwrap_or(0) as f64;
        let (mut zmin, mut zmax) = (zmin, zmax);
        for ld in &self.map.linedefs {
            for s in [0, 1].into_iter().filter_map(|side| self.map.line_sector(ld, side)) {
                for v in [ld.v1, ld.v2].into_iter().filter_map(|v| self.map.vertex(v)) {
                    let p = v.to_dvec2();
                    if let Some(f) = self.slopes.plane(s, FLOOR) {
                        zmin = zmin.min(f.z_at(p.x, p.y));
                    }
                    if let Some(c) = self.slopes.plane(s, CEILING) {
                        zmax = zmax.max(c.z_at(p.x, p.y));
                    }
                }
            }
        }
        ([b[0] as f64, b[1] as f64, zmin], [b[2] as f64, b[3] as f64, zmax])
    }

    /// The sector under map point (x, y).
    pub fn sector_at(&self, x: f64, y: f64) -> Option<usize> {
        self.map.subsector_sector(point_in_subsector(&self.map, x, y))
    }

    /// Sky texture name vanilla picks for this map.
    pub fn sky_texture_name(&self) -> &'static str {
        sky_texture_name(&self.map.name)
    }
}

/// Player 1's start: the last type-1 thing (vanilla spawns a player for each and the last one
/// is the one the player controls), on the floor of the sector under it.
pub fn player_start(map: &MapData) -> Option<PlayerStart> {
    map.things.iter().rev().find(|t| t.kind == 1).map(|t| {
        let (x, y) = (fixed_units(t.x), fixed_units(t.y));
        let sector = map.subsector_sector(point_in_subsector(map, x, y));
        let floor = sector.map(|s| map.sectors[s].floor as f64).unwrap_or(0.0);
        PlayerStart { x, y, floor, angle: spawn_angle_degrees(t.angle), sector }
    })
}

/// Sky texture for a map name: Doom 2 MAP01-11 SKY1, 12-20 SKY2, 21+ SKY3; Doom 1 by episode
/// (E1 SKY1, E2 SKY2, E3 SKY3, E4 SKY4 as in the Ultimate Doom executable).
pub fn sky_texture_name(map: &str) -> &'static str {
    let m = map.to_ascii_uppercase();
    if let Some(n) = m.strip_prefix("MAP").and_then(|d| d.parse::<u32>().ok()) {
        return match n {
            0..=11 => "SKY1",
            12..=20 => "SKY2",
            _ => "SKY3",
        };
    }
    let b = m.as_bytes();
    match (b.first(), b.get(1)) {
        (Some(b'E'), Some(b'2')) => "SKY2",
        (Some(b'E'), Some(b'3')) => "SKY3",
        (Some(b'E'), Some(b'4')) => "SKY4",
        _ => "SKY1",
    }
}

/// The camera the scene opens with: player 1's eye, else the middle of the map on the floor
/// under it (with a note).
pub(super) fn spawn_camera(
    level: &DoomLevel,
    map: &MapData,
    notes: &mut Vec<String>,
) -> CameraPose {
    match &level.player_start {
        Some(p) => CameraPose {
            pos: Axes::ZUpRightHanded.to_viewer_f64(p.eye()),
            yaw: Axes::ZUpRightHanded.yaw_to_viewer(p.angle),
            pitch: 0.0,
        },
        None => match open_spot(level, map) {
            Some((at, floor, angle)) => {
                notes.push(format!(
                    "no player 1 start: camera in the largest sector with room to stand, at \
                     ({:.0}, {:.0}) eye height, facing {angle:.0}° (the longest view there)",
                    at.x, at.y
                ));
                CameraPose {
                    pos: Axes::ZUpRightHanded.to_viewer_f64(DVec3::new(
                        at.x,
                        at.y,
                        floor + VIEW_HEIGHT,
                    )),
                    yaw: Axes::ZUpRightHanded.yaw_to_viewer(angle),
                    pitch: 0.0,
                }
            }
            None => {
                let (lo, hi) = level.bounds();
                let (cx, cy) = ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0);
                let floor =
                    level.sector_at(cx, cy).map(|s| map.sectors[s].floor as f64).unwrap_or(0.0);
                notes.push("no player 1 start: camera at the map centre".into());
                CameraPose {
                    pos: Axes::ZUpRightHanded.to_viewer_f64(DVec3::new(
                        cx,
                        cy,
                        floor + VIEW_HEIGHT,
                    )),
                    yaw: 0.0,
                    pitch: 0.0,
                }
            }
        },
    }
}

/// Where a map without a player 1 start opens, inside the level rather than at the middle of
/// its box (often the void): the largest sector a player fits in (56 units of room), at the
/// centroid of its largest subsector (convex, so the centroid is inside), facing the way of
/// 16 that sees farthest before a one-sided line. Returns the spot, its floor and the facing
/// in degrees.
fn open_spot(level: &DoomLevel, map: &MapData) -> Option<(DVec2, f64, f64)> {
    let area = |p: &[DVec2]| -> f64 {
        (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f64>().abs() / 2.0
    };
    let mut sector_area = vec![0.0f64; map.sectors.len()];
    let mut largest_piece: Vec<Option<(f64, usize)>> = vec![None; map.sectors.len()];
    for (ss, poly) in level.polygons.polygons.iter().enumerate() {
        let (Some(sector), 3..) = (map.subsector_sector(ss), poly.len()) else { continue };
        let Some(total) = sector_area.get_mut(sector) else { continue };
        let a = area(poly);
        *total += a;
        if largest_piece[sector].is_none_or(|(best, _)| a > best) {
            largest_piece[sector] = Some((a, ss));
        }
    }
    let roomy = |s: usize| map.sectors[s].ceiling as f64 - map.sectors[s].floor as f64 >= 56.0;
    let sector = (0..map.sectors.len())
        .filter(|&s| roomy(s) && largest_piece[s].is_some())
        .max_by(|&a, &b| sector_area[a].total_cmp(&sector_area[b]))?;
    let (_, ss) = largest_piece[sector]?;
    let poly = &level.polygons.polygons[ss];
    // Whole units, as a person would type them; half a unit stays within so large a piece.
    let at = (poly.iter().copied().sum::<DVec2>() / poly.len() as f64).round();
    let vertex = |v: u32| {
        map.vertices.get(v as usize).map(|v| DVec2::new(fixed_units(v.x), fixed_units(v.y)))
    };
    let walls: Vec<(DVec2, DVec2)> = map
        .linedefs
        .iter()
        .filter(|l| l.sides[1].is_none())
        .filter_map(|l| Some((vertex(l.v1)?, vertex(l.v2)?)))
        .collect();
    let view = |angle: f64| {
        let d = DVec2::from_angle(angle.to_radians());
        walls
            .iter()
            .filter_map(|&(a, b)| {
                // The ray at + t d meets the segment a + u (b - a) at t >= 0, 0 <= u <= 1.
                let e = b - a;
                let denom = d.perp_dot(e);
                if denom.abs() < 1e-9 {
                    return None;
                }
                let w = a - at;
                let (t, u) = (w.perp_dot(e) / denom, w.perp_dot(d) / denom);
                (t >= 0.0 && (0.0..=1.0).contains(&u)).then_some(t)
            })
            .fold(f64::INFINITY, f64::min)
    };
    let angle = (0..16)
        .map(|k| k as f64 * 22.5)
        .max_by(|&a, &b| view(a).total_cmp(&view(b)))
        .unwrap_or(0.0);
    Some((at, map.sectors[sector].floor as f64, angle))
}
