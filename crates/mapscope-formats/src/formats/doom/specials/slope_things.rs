//! ZDoom's slope things and `Plane_Copy`, read as GZDoom's `P_SpawnSlopeMakers` and
//! `P_CopySlopes` apply them after `Plane_Align` (maps in Hexen format or UDMF; a Doom-format
//! map's things have no arguments or heights to give them):
//!
//! 1. In thing order, the slope makers, each on the sector under it and starting from its
//!    current plane (so one may build on an earlier one):
//!    - 9500 / 9501 (`SlopeFloorPointLine` / `SlopeCeilingPointLine`): every line with id
//!      arg0 tilts the floor (ceiling) of the sector on the thing's side of it, through the
//!      line at that plane's heights and through the thing, at its z above the plane under it.
//!    - 9502 / 9503 (`SetFloorSlope` / `SetCeilingSlope`): the plane through the thing (z
//!      above the plane under it) tilted arg0 degrees up from level (clamped to 1..179)
//!      towards the thing's facing.
//!    - 1500 / 1501 (Vavoom floor / ceiling): the first line of the sector under the thing
//!      whose arg0 is the thing's TID; the plane through that line at the sector's own height
//!      and through the thing at its absolute z.
//! 2. In thing order, 9510 / 9511 (`CopyFloorPlane` / `CopyCeilingPlane`): the sector under
//!    the thing takes the plane of the first sector tagged arg0.
//! 3. Vertex heights from things 1504 / 1505 (on a vertex's exact position, absolute z),
//!    with UDMF's `zfloor` / `zceiling` winning (see [`super::slopes`]).
//! 4. `Plane_Copy` (118) lines: args 0-3 are the tags of the sectors whose planes the front
//!    floor, front ceiling, back floor and back ceiling take (the back's only on two-sided
//!    lines); arg4 then copies from one side to the other (bits 0-1 floor, 2-3 ceiling:
//!    1 front to back, 2 back to front).

use glam::{DVec2, DVec3};

use super::slopes::{Plane, SectorSlopes, CEILING, FLOOR};
use crate::formats::doom::map::{MapData, MapFormat, Thing};
use crate::formats::doom::nodes::bsp::sector_at;

pub const SLOPE_FLOOR_POINT_LINE: u16 = 9500;
pub const SLOPE_CEILING_POINT_LINE: u16 = 9501;
pub const SET_FLOOR_SLOPE: u16 = 9502;
pub const SET_CEILING_SLOPE: u16 = 9503;
pub const VAVOOM_FLOOR: u16 = 1500;
pub const VAVOOM_CEILING: u16 = 1501;
pub const COPY_FLOOR_PLANE: u16 = 9510;
pub const COPY_CEILING_PLANE: u16 = 9511;
pub const VERTEX_FLOOR_Z: u16 = 1504;
pub const VERTEX_CEILING_Z: u16 = 1505;
/// `Plane_Copy`'s number among Hexen's line specials.
pub const PLANE_COPY: u16 = 118;

/// Whether the map's things can make slopes (they have heights and arguments).
pub fn things_apply(map: &MapData) -> bool {
    !matches!(map.format, MapFormat::Doom)
}

fn thing_pos(t: &Thing) -> DVec2 {
    DVec2::new(t.x as f64, t.y as f64) / 65536.0
}

fn thing_z(t: &Thing) -> f64 {
    t.z as f64 / 65536.0
}

impl SectorSlopes {
    /// Step 1: the slope makers (9500-9503, 1500, 1501) in thing order.
    pub(super) fn read_slope_makers(&mut self, map: &MapData, notes: &mut Vec<String>) {
        let mut on_line = 0;
        let mut line_ids: Option<Vec<Vec<i32>>> = None;
        for t in &map.things {
            if !matches!(
                t.kind,
                SLOPE_FLOOR_POINT_LINE
                    | SLOPE_CEILING_POINT_LINE
                    | SET_FLOOR_SLOPE
                    | SET_CEILING_SLOPE
                    | VAVOOM_FLOOR
                    | VAVOOM_CEILING
            ) {
                continue;
            }
            let pos = thing_pos(t);
            let Some(sector) = sector_at(map, pos.x, pos.y) else { continue };
            let which = match t.kind {
                SLOPE_CEILING_POINT_LINE | SET_CEILING_SLOPE | VAVOOM_CEILING => CEILING,
                _ => FLOOR,
            };
            let above = self.current(map, sector, which).z_at(pos.x, pos.y) + thing_z(t);
            match t.kind {
                SLOPE_FLOOR_POINT_LINE | SLOPE_CEILING_POINT_LINE => {
                    let ids = line_ids.get_or_insert_with(|| super::line_styles::line_ids(map));
                    let point = pos.extend(above);
                    for (i, ld) in map.linedefs.iter().enumerate() {
                        if !ids.get(i).is_some_and(|ids| ids.contains(&t.args[0])) {
                            continue;
                        }
                        let (Some(a), Some(b)) = (map.vertex(ld.v1), map.vertex(ld.v2)) else {
                            continue;
                        };
                        let (a, b) = (a.to_dvec2(), b.to_dvec2());
                        let side = usize::from(on_back_side(point.truncate(), a, b));
                        let Some(target) = map.line_sector(ld, side) else { continue };
                        let plane = self.current(map, target, which);
                        let a3 = a.extend(plane.z_at(a.x, a.y));
                        let b3 = b.extend(plane.z_at(b.x, b.y));
                        match plane_facing(which, (b3 - a3).cross(point - a3), point) {
                            Some(p) => {
                                self.set(target, which, p);
                                self.counts.slope_things += 1;
                            }
                            // GZDoom gives up on the thing's remaining lines.
                            None => {
                                on_line += 1;
                                break;
                            }
                        }
                    }
                }
                SET_FLOOR_SLOPE | SET_CEILING_SLOPE => {
                    let tilt =
                        t.args[0].clamp(1, 179) as f64 + if which == CEILING { 180.0 } else { 0.0 };
                    let (tilt, facing) = (tilt.to_radians(), (t.angle as f64).to_radians());
                    let n = DVec3::new(
                        tilt.cos() * facing.cos(),
                        tilt.cos() * facing.sin(),
                        tilt.sin(),
                    );
                    if let Some(p) = plane_facing(which, n, pos.extend(above)) {
                        self.set(sector, which, p);
                        self.counts.slope_things += 1;
                    }
                }
                _ => {
                    // Vavoom: z is absolute; the first line of the sector whose arg0 is the
                    // thing's TID.
                    let point = pos.extend(thing_z(t));
                    let own = super::slopes::nominal(map, sector, which);
                    let line = map.linedefs.iter().find(|ld| {
                        ld.args[0] == t.tid
                            && (map.line_sector(ld, 0) == Some(sector)
                                || map.line_sector(ld, 1) == Some(sector))
                    });
                    let ends = line.and_then(|ld| Some((map.vertex(ld.v1)?, map.vertex(ld.v2)?)));
                    let Some((a, b)) = ends else { continue };
                    let (a, b) = (a.to_dvec2().extend(own), b.to_dvec2().extend(own));
                    match plane_facing(which, (point - b).cross(point - a), point) {
                        Some(p) => {
                            self.set(sector, which, p);
                            self.counts.slope_things += 1;
                        }
                        None => on_line += 1,
                    }
                }
            }
        }
        if on_line > 0 {
            notes.push(format!(
                "{on_line} slope things lie on their target line: they tilt nothing, as in GZDoom"
            ));
        }
    }

    /// Step 2: the plane copy things (9510, 9511) in thing order.
    pub(super) fn read_copy_things(&mut self, map: &MapData) {
        for t in map.things.iter() {
            let which = match t.kind {
                COPY_FLOOR_PLANE => FLOOR,
                COPY_CEILING_PLANE => CEILING,
                _ => continue,
            };
            let pos = thing_pos(t);
            let Some(dest) = sector_at(map, pos.x, pos.y) else { continue };
            if self.copy_plane(map, t.args[0], dest, which) {
                self.counts.plane_copies += 1;
            }
        }
    }

    /// Step 4: `Plane_Copy` lines, in line order.
    pub(super) fn read_plane_copy(&mut self, map: &MapData) {
        for ld in map.linedefs.iter().filter(|l| l.special == PLANE_COPY) {
            let front = map.line_sector(ld, 0);
            let back = map.line_sector(ld, 1);
            let sides = if back.is_some() { 4 } else { 2 };
            for s in 0..sides {
                let dest = if s & 2 != 0 { back } else { front };
                if let (Some(dest), true) = (dest, ld.args[s] != 0) {
                    if self.copy_plane(map, ld.args[s], dest, s & 1) {
                        self.counts.plane_copies += 1;
                    }
                }
            }
            let (Some(front), Some(back)) = (front, back) else { continue };
            for (which, bits) in [(FLOOR, ld.args[4] & 3), (CEILING, (ld.args[4] >> 2) & 3)] {
                let (from, to) = match bits {
                    1 => (front, back),
                    2 => (back, front),
                    _ => continue,
                };
                let plane = self.current(map, from, which);
                self.set(to, which, plane);
                self.counts.plane_copies += 1;
            }
        }
    }

    /// Sector `dest`'s plane `which` becomes the one of the first sector tagged `tag`
    /// (`P_FindFirstSectorFromTag`); false when no sector has the tag.
    fn copy_plane(&mut self, map: &MapData, tag: i32, dest: usize, which: usize) -> bool {
        let Some(source) = map.sectors.iter().position(|s| i32::from(s.tag) == tag) else {
            return false;
        };
        let plane = self.current(map, source, which);
        self.set(dest, which, plane);
        true
    }
}

/// GZDoom's `P_PointOnLineSidePrecise`: whether `p` is on the left (back) side of a to b.
fn on_back_side(p: DVec2, a: DVec2, b: DVec2) -> bool {
    let d = b - a;
    (p.y - a.y) * d.x + (a.x - p.x) * d.y > 1.0 / 65536.0
}

/// The plane with normal `n` (any length) through `point`, the normal turned up for a floor
/// and down for a ceiling; `None` when `n` is zero (the points made no plane) or vertical.
fn plane_facing(which: usize, n: DVec3, point: DVec3) -> Option<Plane> {
    let len = n.length();
    if !len.is_finite() || len == 0.0 {
        return None;
    }
    let mut n = n / len;
    if (n.z < 0.0 && which == FLOOR) || (n.z > 0.0 && which == CEILING) {
        n = -n;
    }
    Plane::checked(n, -n.dot(point))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::udmf;
    use crate::formats::doom::map::udmf_map::udmf_records;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Two rooms side by side: A (sector 0) x 0..256, B (sector 1) x 256..512, y 0..256,
    /// both floor 0 ceiling 128, the line between them (line 1, A in front, running south) has id 5;
    /// B is tagged 7 and A 3.
    fn rooms(things: &str, extra_line: &str, b_floor: i32) -> MapData {
        let text = format!(
            r#"namespace = "zdoom";
            vertex {{ x = 0.0; y = 0.0; }}
            vertex {{ x = 256.0; y = 0.0; }}
            vertex {{ x = 256.0; y = 256.0; }}
            vertex {{ x = 0.0; y = 256.0; }}
            vertex {{ x = 512.0; y = 0.0; }}
            vertex {{ x = 512.0; y = 256.0; }}
            linedef {{ v1 = 1; v2 = 0; sidefront = 0; }}
            linedef {{ v1 = 2; v2 = 1; sidefront = 0; sideback = 1; twosided = true; id = 5; {extra_line} }}
            linedef {{ v1 = 3; v2 = 2; sidefront = 0; }}
            linedef {{ v1 = 0; v2 = 3; sidefront = 0; }}
            linedef {{ v1 = 4; v2 = 1; sidefront = 1; }}
            linedef {{ v1 = 5; v2 = 4; sidefront = 1; }}
            linedef {{ v1 = 2; v2 = 5; sidefront = 1; }}
            sidedef {{ sector = 0; }}
            sidedef {{ sector = 1; }}
            sector {{ heightfloor = 0; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; id = 3; }}
            sector {{ heightfloor = {b_floor}; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; id = 7; }}
            {things}"#
        );
        let doc = udmf::parse("t.wad", text.as_bytes(), 0).unwrap();
        with_nodes(udmf_records("t.wad", "MAP01", &doc).unwrap())
    }

    /// The map with nodes built, so things find their sectors.
    fn with_nodes(mut map: MapData) -> MapData {
        use crate::formats::doom::nodes::node_builder::build_nodes;
        use crate::formats::doom::nodes::NodeVertex;
        let vertices: Vec<NodeVertex> =
            map.vertices.iter().map(|v| NodeVertex { x: v.x, y: v.y }).collect();
        let lines = map.build_lines();
        map.bsp = build_nodes("t.wad", "MAP01", &vertices, &lines).unwrap();
        map
    }

    fn read(map: &MapData) -> (SectorSlopes, Vec<String>) {
        let mut notes = Vec::new();
        let s = SectorSlopes::read(map, &mut notes);
        (s, notes)
    }

    #[test]
    fn point_line_tilts_the_sector_on_the_things_side() {
        // In B at x 448, 32 above its floor: B's floor rises from 0 at the line (x 256) to
        // 32 at x 448.
        let map =
            rooms("thing { x = 448.0; y = 128.0; type = 9500; arg0 = 5; height = 32.0; }", "", 0);
        let (s, notes) = read(&map);
        let f = s.plane(1, FLOOR).expect("B's floor sloped");
        assert!(close(f.z_at(256.0, 0.0), 0.0) && close(f.z_at(448.0, 200.0), 32.0));
        assert!(close(f.z_at(352.0, 50.0), 16.0), "{}", f.z_at(352.0, 50.0));
        assert!(s.plane(0, FLOOR).is_none() && s.plane(1, CEILING).is_none());
        assert_eq!(s.counts.slope_things, 1);
        assert!(notes.is_empty(), "{notes:?}");
        // 9501 in A, 32 below... above its ceiling plane (z is added): A's ceiling from 128 at
        // the line to 96 at x 64.
        let map =
            rooms("thing { x = 64.0; y = 128.0; type = 9501; arg0 = 5; height = -32.0; }", "", 0);
        let c = *read(&map).0.plane(0, CEILING).expect("A's ceiling sloped");
        assert!(close(c.z_at(256.0, 9.0), 128.0) && close(c.z_at(64.0, 9.0), 96.0));
        assert!(c.c < 0.0, "a ceiling faces down");
        // A doom-format map's things make no slopes.
        let mut doom =
            rooms("thing { x = 448.0; y = 128.0; type = 9500; arg0 = 5; height = 32.0; }", "", 0);
        doom.format = MapFormat::Doom;
        assert!(read(&doom).0.is_empty());
    }

    #[test]
    fn set_slope_tilts_through_the_thing_towards_its_facing() {
        // 45 degrees facing east (angle 0) at (128, 128), 16 above the floor: the floor's
        // normal leans east, so it falls 1 unit per unit eastwards.
        let map = rooms(
            "thing { x = 128.0; y = 128.0; type = 9502; arg0 = 45; angle = 0; height = 16.0; }",
            "",
            0,
        );
        let f = *read(&map).0.plane(0, FLOOR).unwrap();
        assert!(close(f.z_at(128.0, 0.0), 16.0) && close(f.z_at(138.0, 50.0), 6.0));
        // Tilt 90 is level at the thing's height; facing north leans it along y.
        let map = rooms(
            "thing { x = 128.0; y = 128.0; type = 9502; arg0 = 90; angle = 90; height = 16.0; }",
            "",
            0,
        );
        let f = *read(&map).0.plane(0, FLOOR).unwrap();
        assert!(f.a.abs() < 1e-9 && close(f.z_at(3.0, 3.0), 16.0));
        // A ceiling: 180 added, so the normal points down and the plane passes the thing.
        let map = rooms(
            "thing { x = 128.0; y = 128.0; type = 9503; arg0 = 60; angle = 90; height = -8.0; }",
            "",
            0,
        );
        let c = *read(&map).0.plane(0, CEILING).unwrap();
        assert!(c.c < 0.0 && close(c.z_at(128.0, 128.0), 120.0));
        assert!(!close(c.z_at(128.0, 0.0), 120.0) && close(c.z_at(0.0, 128.0), 120.0));
    }

    #[test]
    fn vavoom_thing_tilts_from_the_line_with_its_tid() {
        // Line 1's arg0 is 9; a Vavoom floor thing with TID 9 in A at absolute z 64, x 0.
        let map = rooms(
            "thing { x = 0.0; y = 128.0; type = 1500; id = 9; height = 64.0; }",
            "special = 0; arg0 = 9;",
            0,
        );
        let f = *read(&map).0.plane(0, FLOOR).unwrap();
        assert!(close(f.z_at(256.0, 77.0), 0.0) && close(f.z_at(0.0, 5.0), 64.0));
    }

    #[test]
    fn copy_things_and_plane_copy_lines_copy_planes() {
        // B (floor 48) gets a 9502 slope; a 9510 in A copies the plane of the sector tagged
        // 7 (B) onto A's floor.
        let slope =
            "thing { x = 384.0; y = 128.0; type = 9502; arg0 = 45; angle = 0; height = 0.0; }";
        let map = rooms(
            &format!("{slope} thing {{ x = 64.0; y = 64.0; type = 9510; arg0 = 7; }}"),
            "",
            48,
        );
        let (s, _) = read(&map);
        assert_eq!(s.plane(0, FLOOR), s.plane(1, FLOOR));
        assert!(s.plane(0, FLOOR).is_some());
        assert_eq!(s.counts.plane_copies, 1);
        // Copying a level plane at another height makes the copy at that height.
        let map = rooms("thing { x = 64.0; y = 64.0; type = 9510; arg0 = 7; }", "", 48);
        let f = *read(&map).0.plane(0, FLOOR).unwrap();
        assert!(f.is_level() && close(f.z_at(1.0, 2.0), 48.0));
        // Plane_Copy: arg0 copies the plane of the sector tagged 7 onto the front floor.
        let map = rooms(slope, "special = 118; arg0 = 7;", 48);
        let (s, _) = read(&map);
        assert!(s.plane(0, FLOOR).is_some() && s.plane(0, FLOOR) == s.plane(1, FLOOR));
        // arg4 2: the back's floor to the front; 4 << 0 ... 1 << 2 front ceiling to back.
        let map = rooms(slope, "special = 118; arg4 = 2;", 48);
        let (s, _) = read(&map);
        assert!(s.plane(0, FLOOR).is_some() && s.plane(0, FLOOR) == s.plane(1, FLOOR));
        let map = rooms(slope, "special = 118; arg4 = 1;", 48);
        let (s, _) = read(&map);
        // Front (level at 0) to back: B's slope replaced by a level floor at 0.
        let b = *s.plane(1, FLOOR).unwrap();
        assert!(b.is_level() && close(b.z_at(300.0, 1.0), 0.0));
        // In a doom-namespace map 118 is no Plane_Copy.
        let mut doom = rooms("", "special = 118; arg4 = 1;", 48);
        doom.format = MapFormat::Udmf { namespace: "doom".into() };
        assert!(read(&doom).0.is_empty());
    }

    #[test]
    fn vertex_height_things_slope_triangles() {
        // Split A along its diagonal (0,0)-(256,256) into two triangles by a one-off map.
        let text = r#"namespace = "zdoom";
            vertex { x = 0.0; y = 0.0; }
            vertex { x = 256.0; y = 0.0; }
            vertex { x = 256.0; y = 256.0; }
            vertex { x = 0.0; y = 256.0; }
            linedef { v1 = 1; v2 = 0; sidefront = 0; }
            linedef { v1 = 2; v2 = 1; sidefront = 0; }
            linedef { v1 = 0; v2 = 2; sidefront = 0; sideback = 1; twosided = true; }
            linedef { v1 = 3; v2 = 2; sidefront = 1; }
            linedef { v1 = 0; v2 = 3; sidefront = 1; }
            sidedef { sector = 0; }
            sidedef { sector = 1; }
            sector { heightfloor = 0; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; }
            sector { heightfloor = 0; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; }
            thing { x = 256.0; y = 0.0; type = 1504; height = 64.0; }
            thing { x = 0.0; y = 256.0; type = 1505; height = 100.0; }
            thing { x = 0.0; y = 255.0; type = 1504; height = 50.0; }"#;
        let doc = udmf::parse("t.wad", text.as_bytes(), 0).unwrap();
        let map = with_nodes(udmf_records("t.wad", "MAP01", &doc).unwrap());
        let (s, _) = read(&map);
        let f = *s.plane(0, FLOOR).unwrap();
        assert!(close(f.z_at(256.0, 0.0), 64.0) && close(f.z_at(256.0, 256.0), 0.0));
        let c = *s.plane(1, CEILING).unwrap();
        assert!(close(c.z_at(0.0, 256.0), 100.0) && close(c.z_at(256.0, 256.0), 128.0));
        // The thing off every vertex moves nothing.
        assert!(s.plane(1, FLOOR).is_none() && s.plane(0, CEILING).is_none());
    }
}
