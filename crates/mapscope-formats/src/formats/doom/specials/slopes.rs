//! Sloped floors and ceilings (ZDoom): a sector's floor or ceiling may be a tilted plane
//! instead of a level one at its height. Three ways of making one are read, as ZDoom's map
//! loader applies them, in its order (a later one replaces an earlier one):
//!
//! 1. UDMF plane equations: `floorplane_a` .. `floorplane_d` and `ceilingplane_a` ..
//!    `ceilingplane_d` on a sector. Used only when all four are given; the normal (a, b, c) is
//!    made unit length and d kept as written (GZDoom's reading), so the plane is
//!    `a x + b y + c z + d = 0` and the height at (x, y) is `-(a x + b y + d) / c`.
//! 2. `Plane_Align` (line special 181 in Hexen-numbered maps: Hexen format, UDMF namespaces
//!    other than doom, heretic and strife) on a two-sided line: arg0 for the floor, arg1 for
//!    the ceiling, 1 tilting the front sector's plane and 2 the back's (with arg1 0, bits 2-3
//!    of arg0 give the ceiling's). The plane runs through the line at the other sector's
//!    height and through the vertex of the tilted sector farthest from the line at the
//!    sector's own height.
//! 3. Slope things (9500-9503, 1500, 1501), then plane copy things (9510, 9511): see
//!    [`super::slope_things`].
//! 4. Vertex heights (UDMF `zfloor`, `zceiling`, or things 1504 / 1505 on the vertex, the UDMF
//!    value winning) on the vertices of a sector of exactly three lines: the plane through its
//!    three corners, each at its vertex height or, without one, at the sector's height.
//! 5. `Plane_Copy` lines (118): see [`super::slope_things`].
//!
//! The sector's own `heightfloor` / `heightceiling` still anchor wall textures (ZDoom pegs
//! to them); only the geometry follows the planes.

use std::collections::HashMap;

use glam::{DVec2, DVec3};

use super::slope_things;
use crate::formats::doom::map::{Linedef, MapData};

/// `Plane_Align`'s number among Hexen's line specials.
pub const PLANE_ALIGN: u16 = 181;

/// Index of the floor and the ceiling in a sector's pair of planes.
pub const FLOOR: usize = 0;
pub const CEILING: usize = 1;

/// Most a sloped plane rises or falls from 0 (twice what a vanilla height can be).
pub const MAX_HEIGHT: f64 = 65536.0;

/// A plane `a x + b y + c z + d = 0` in map units, `c` not 0 (it is not vertical).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plane {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
}

impl Plane {
    /// Height of the plane above map point (`x`, `y`), kept within +-[`MAX_HEIGHT`]: a
    /// nearly vertical plane from a hostile map would otherwise put vertices out of `f32`'s
    /// range.
    pub fn z_at(&self, x: f64, y: f64) -> f64 {
        let z = -(self.a * x + self.b * y + self.d) / self.c;
        if z.is_nan() {
            0.0
        } else {
            z.clamp(-MAX_HEIGHT, MAX_HEIGHT)
        }
    }

    /// A UDMF plane equation as GZDoom reads it: the normal made unit length, `d` as given.
    /// `None` for a vertical or degenerate plane, which has no height to draw at.
    pub fn from_udmf(a: f64, b: f64, c: f64, d: f64) -> Option<Plane> {
        let n = DVec3::new(a, b, c);
        let len = n.length();
        if !len.is_finite() || !d.is_finite() || len == 0.0 {
            return None;
        }
        let n = n / len;
        Plane::checked(n, d)
    }

    /// The plane through three points; `None` when they lie on one vertical plane (or line).
    pub fn through(p: [DVec3; 3]) -> Option<Plane> {
        let n = (p[1] - p[0]).cross(p[2] - p[0]);
        let len = n.length();
        if !len.is_finite() || len == 0.0 {
            return None;
        }
        let n = n / len;
        Plane::checked(n, -n.dot(p[0]))
    }

    /// Rejects planes too steep to have a height (`|c|` tiny: walls, not floors).
    pub(super) fn checked(n: DVec3, d: f64) -> Option<Plane> {
        (n.z.abs() > 1e-6 && d.is_finite()).then_some(Plane { a: n.x, b: n.y, c: n.z, d })
    }

    /// Whether the plane is level (every point at one height).
    pub fn is_level(&self) -> bool {
        self.a == 0.0 && self.b == 0.0
    }
}

/// How many planes each source tilted (for `info`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlopeCounts {
    pub equations: usize,
    pub plane_align: usize,
    pub vertex_heights: usize,
    /// Planes set by slope things (9500-9503, 1500, 1501).
    pub slope_things: usize,
    /// Planes copied by things 9510 / 9511 and `Plane_Copy` lines.
    pub plane_copies: usize,
}

impl SlopeCounts {
    /// "4 Plane_Align lines, 2 UDMF plane equations": the sources that made any.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = [
            (self.equations, "UDMF plane equations"),
            (self.plane_align, "Plane_Align lines"),
            (self.vertex_heights, "vertex-height triangles"),
            (self.slope_things, "slope things"),
            (self.plane_copies, "plane copies"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        parts.join(", ")
    }
}

/// The sloped planes of a map's sectors: `[floor, ceiling]` per sector, `None` where the plane
/// is level at the sector's height.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SectorSlopes {
    planes: Vec<[Option<Plane>; 2]>,
    pub counts: SlopeCounts,
}

impl SectorSlopes {
    /// Reads every slope `map` defines (see the module notes); what is ignored becomes notes.
    pub fn read(map: &MapData, notes: &mut Vec<String>) -> SectorSlopes {
        let mut s =
            SectorSlopes { planes: vec![[None; 2]; map.sectors.len()], ..Default::default() };
        s.read_equations(map, notes);
        s.read_plane_align(map, notes);
        let things = slope_things::things_apply(map);
        if things {
            s.read_slope_makers(map, notes);
            s.read_copy_things(map);
        }
        s.read_vertex_heights(map, things, notes);
        if !map.doom_specials() {
            s.read_plane_copy(map);
        }
        // A plane that came out level at the sector's own height is no slope.
        for (i, pair) in s.planes.iter_mut().enumerate() {
            for (which, plane) in pair.iter_mut().enumerate() {
                if let Some(p) = plane {
                    let nominal = nominal(map, i, which);
                    if p.is_level() && (p.z_at(0.0, 0.0) - nominal).abs() < 1e-9 {
                        *plane = None;
                    }
                }
            }
        }
        s
    }

    /// Whether no sector has a sloped plane.
    pub fn is_empty(&self) -> bool {
        self.planes.iter().all(|p| p[FLOOR].is_none() && p[CEILING].is_none())
    }

    /// How many floors and ceilings are sloped.
    pub fn sloped_planes(&self) -> usize {
        self.planes.iter().flatten().filter(|p| p.is_some()).count()
    }

    /// The sloped plane `which` ([`FLOOR`] or [`CEILING`]) of sector `sector`, if it is.
    pub fn plane(&self, sector: usize, which: usize) -> Option<&Plane> {
        self.planes.get(sector)?.get(which)?.as_ref()
    }

    /// Height of plane `which` of sector `sector` above `p`: the slope's, or `level` (the
    /// height the plane has when level).
    pub fn height(&self, sector: usize, which: usize, level: f64, p: DVec2) -> f64 {
        match self.plane(sector, which) {
            Some(plane) => plane.z_at(p.x, p.y),
            None => level,
        }
    }

    /// Plane `which` of `sector` as it stands: its slope, or level at its height.
    pub(super) fn current(&self, map: &MapData, sector: usize, which: usize) -> Plane {
        match self.plane(sector, which) {
            Some(p) => *p,
            None => {
                let h = nominal(map, sector, which);
                // Normals up for floors and down for ceilings, as ZDoom's planes have.
                if which == FLOOR {
                    Plane { a: 0.0, b: 0.0, c: 1.0, d: -h }
                } else {
                    Plane { a: 0.0, b: 0.0, c: -1.0, d: h }
                }
            }
        }
    }

    pub(super) fn set(&mut self, sector: usize, which: usize, plane: Plane) {
        if let Some(pair) = self.planes.get_mut(sector) {
            pair[which] = Some(plane);
        }
    }

    fn read_equations(&mut self, map: &MapData, notes: &mut Vec<String>) {
        let Some(extra) = map.udmf.as_deref() else { return };
        let mut partial = 0;
        let mut vertical = 0;
        for (i, fields) in extra.sectors.iter().enumerate() {
            for (which, prefix) in [(FLOOR, "floorplane_"), (CEILING, "ceilingplane_")] {
                let value = |k: &str| {
                    let key = format!("{prefix}{k}");
                    fields.iter().rev().find(|(f, _)| *f == key).and_then(|(_, v)| v.as_f64())
                };
                let v = [value("a"), value("b"), value("c"), value("d")];
                match v {
                    [Some(a), Some(b), Some(c), Some(d)] => match Plane::from_udmf(a, b, c, d) {
                        Some(p) => {
                            self.set(i, which, p);
                            self.counts.equations += 1;
                        }
                        None => vertical += 1,
                    },
                    [None, None, None, None] => {}
                    _ => partial += 1,
                }
            }
        }
        if partial > 0 {
            notes.push(format!(
                "{partial} sector plane equations lack some of a, b, c, d (or are not numbers): \
                 level, as in GZDoom"
            ));
        }
        if vertical > 0 {
            notes.push(format!("{vertical} sector plane equations are vertical: drawn level"));
        }
    }

    fn read_plane_align(&mut self, map: &MapData, notes: &mut Vec<String>) {
        if map.doom_specials() {
            return;
        }
        let lines = sector_lines(map);
        let mut degenerate = 0;
        for ld in map.linedefs.iter().filter(|l| l.special == PLANE_ALIGN) {
            let (Some(front), Some(back)) = (map.line_sector(ld, 0), map.line_sector(ld, 1)) else {
                continue;
            };
            for which in [FLOOR, CEILING] {
                let mut bits = ld.args[which] & 3;
                if which == CEILING && bits == 0 {
                    bits = (ld.args[0] >> 2) & 3;
                }
                let (sector, other) = match bits {
                    1 => (front, back),
                    2 => (back, front),
                    _ => continue,
                };
                let Some(sector_lines) = lines.get(sector) else { continue };
                match align_plane(map, ld, sector_lines, sector, other, which) {
                    Some(p) => {
                        self.set(sector, which, p);
                        self.counts.plane_align += 1;
                    }
                    None => degenerate += 1,
                }
            }
        }
        if degenerate > 0 {
            notes.push(format!(
                "{degenerate} Plane_Align planes have no vertex off their line: drawn level"
            ));
        }
    }

    fn read_vertex_heights(&mut self, map: &MapData, things: bool, notes: &mut Vec<String>) {
        let mut bad = 0;
        let mut heights: [Vec<Option<f64>>; 2] =
            [vec![None; map.vertices.len()], vec![None; map.vertices.len()]];
        if things {
            // Things 1504 / 1505 on a vertex's exact position give it their z; with more than
            // one, the last.
            let mut at: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
            for (i, v) in map.vertices.iter().enumerate() {
                at.entry((v.x, v.y)).or_default().push(i);
            }
            for t in &map.things {
                let which = match t.kind {
                    slope_things::VERTEX_FLOOR_Z => FLOOR,
                    slope_things::VERTEX_CEILING_Z => CEILING,
                    _ => continue,
                };
                for &v in at.get(&(t.x, t.y)).map_or(&[][..], Vec::as_slice) {
                    heights[which][v] = Some(t.z as f64 / 65536.0);
                }
            }
        }
        if let Some(extra) = map.udmf.as_deref() {
            for (which, key) in [(FLOOR, "zfloor"), (CEILING, "zceiling")] {
                for (slot, fields) in heights[which].iter_mut().zip(&extra.vertices) {
                    let Some((_, v)) = fields.iter().rev().find(|(k, _)| k == key) else {
                        continue;
                    };
                    match v.as_f64().filter(|h| h.is_finite()) {
                        Some(h) => *slot = Some(h),
                        None => bad += 1,
                    }
                }
            }
        }
        if bad > 0 {
            notes.push(format!("{bad} vertex zfloor / zceiling values are not numbers: ignored"));
        }
        if heights.iter().all(|h| h.iter().all(Option::is_none)) {
            return;
        }
        for (sector, lines) in sector_lines(map).iter().enumerate() {
            // Only triangular sectors (ZDoom: exactly three lines).
            let &[l0, l1, _] = lines.as_slice() else { continue };
            let (Some(l0), Some(l1)) = (map.linedefs.get(l0), map.linedefs.get(l1)) else {
                continue;
            };
            let third = if l1.v1 == l0.v1 || l1.v1 == l0.v2 { l1.v2 } else { l1.v1 };
            let corners = [l0.v1, l0.v2, third];
            for (which, h) in heights.iter().enumerate() {
                let at = |v: u32| h.get(v as usize).copied().flatten();
                if corners.iter().all(|&v| at(v).is_none()) {
                    continue;
                }
                let level = nominal(map, sector, which);
                let mut points = [DVec3::ZERO; 3];
                for (p, &v) in points.iter_mut().zip(&corners) {
                    let xy = map.vertices.get(v as usize).map_or(DVec2::ZERO, |v| v.to_dvec2());
                    *p = xy.extend(at(v).unwrap_or(level));
                }
                if let Some(plane) = Plane::through(points) {
                    self.set(sector, which, plane);
                    self.counts.vertex_heights += 1;
                }
            }
        }
    }
}

/// The height a sector's plane has when level (its `heightfloor` / `heightceiling`).
pub(super) fn nominal(map: &MapData, sector: usize, which: usize) -> f64 {
    map.sectors.get(sector).map_or(0.0, |s| if which == FLOOR { s.floor } else { s.ceiling } as f64)
}

/// The lines of each sector in line order, a line whose two sides face one sector once
/// (ZDoom's `sector_t::Lines`).
fn sector_lines(map: &MapData) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); map.sectors.len()];
    for (i, ld) in map.linedefs.iter().enumerate() {
        let front = map.line_sector(ld, 0);
        let back = map.line_sector(ld, 1);
        if let Some(lines) = front.and_then(|s| out.get_mut(s)) {
            lines.push(i);
        }
        if back != front {
            if let Some(lines) = back.and_then(|s| out.get_mut(s)) {
                lines.push(i);
            }
        }
    }
    out
}

/// ZDoom's `AlignPlane`: plane `which` of `sector` through line `ld` at `other`'s height and
/// through the vertex of `sector`'s lines farthest from the line at `sector`'s own height.
fn align_plane(
    map: &MapData,
    ld: &Linedef,
    sector_lines: &[usize],
    sector: usize,
    other: usize,
    which: usize,
) -> Option<Plane> {
    let vertex = |v: u32| map.vertices.get(v as usize).map(|v| v.to_dvec2());
    let (a, b) = (vertex(ld.v1)?, vertex(ld.v2)?);
    let delta = b - a;
    // The first vertex strictly farthest (|cross product|, proportional to the distance).
    let mut best = 0.0;
    let mut far = None;
    for &l in sector_lines {
        let Some(line) = map.linedefs.get(l) else { continue };
        for v in [line.v1, line.v2] {
            let Some(p) = vertex(v) else { continue };
            let dist = ((a.y - p.y) * delta.x - (a.x - p.x) * delta.y).abs();
            if dist > best {
                best = dist;
                far = Some(p);
            }
        }
    }
    let far = far?;
    let (own, line_height) = (nominal(map, sector, which), nominal(map, other, which));
    Plane::through([a.extend(line_height), b.extend(line_height), far.extend(own)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::udmf::{self};
    use crate::formats::doom::map::udmf_map::udmf_records;
    use crate::formats::doom::map::MapFormat;
    use crate::formats::doom::testwad;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn plane_equation_gives_heights() {
        // z = x / 4 + 8: -x/4 + z - 8 = 0.
        let p = Plane::from_udmf(-0.25, 0.0, 1.0, -8.0).unwrap();
        // GZDoom makes the normal unit length and keeps d: the height at the origin is
        // 8 |(-0.25, 0, 1)|, not 8; the tilt is the equation's.
        let len = (1.0f64 + 0.0625).sqrt();
        assert!(close(p.z_at(0.0, 0.0), 8.0 * len), "{}", p.z_at(0.0, 0.0));
        assert!(close(p.z_at(64.0, 100.0) - p.z_at(0.0, 100.0), 16.0));
        // A unit normal reads as written: a level ceiling at 128 facing down.
        let c = Plane::from_udmf(0.0, 0.0, -1.0, 128.0).unwrap();
        assert!(close(c.z_at(5.0, -7.0), 128.0) && c.is_level());
        // Vertical and degenerate planes have no height.
        assert_eq!(Plane::from_udmf(1.0, 0.0, 0.0, 5.0), None);
        assert_eq!(Plane::from_udmf(0.0, 0.0, 0.0, 5.0), None);
        assert_eq!(Plane::from_udmf(0.0, 0.0, 1.0, f64::NAN), None);
        // Nearly vertical: heights stay finite and bounded.
        let steep = Plane::from_udmf(1.0, 0.0, 1e-5, 1e300).unwrap();
        assert_eq!(steep.z_at(1e9, 0.0), -MAX_HEIGHT);
    }

    #[test]
    fn plane_through_three_points() {
        let p = Plane::through([
            DVec3::new(0.0, 0.0, 0.0),
            DVec3::new(128.0, 0.0, 32.0),
            DVec3::new(0.0, 64.0, -16.0),
        ])
        .unwrap();
        assert!(close(p.z_at(128.0, 64.0), 16.0), "{}", p.z_at(128.0, 64.0));
        assert!(close(p.z_at(64.0, 32.0), 8.0));
        // Points on one line, or on a vertical plane, make none.
        let on_line = [DVec3::ZERO, DVec3::new(1.0, 1.0, 5.0), DVec3::new(2.0, 2.0, 0.0)];
        assert_eq!(Plane::through(on_line), None);
    }

    /// The two rooms of `testwad` (A x 0..128 floor 0 ceiling 128; B x 128..256 floor 16
    /// ceiling 96) in Hexen format with line 3 (between them, A in front) a Plane_Align.
    fn aligned(args: [i32; 5]) -> MapData {
        let mut map = testwad::two_room_level().map;
        map.format = MapFormat::Hexen;
        map.linedefs[3].special = PLANE_ALIGN;
        map.linedefs[3].args = args;
        map
    }

    #[test]
    fn plane_align_tilts_from_the_line_to_the_farthest_vertex() {
        // arg0 2: B's floor runs from A's floor (0) at the line to its own (16) at x = 256.
        let mut notes = Vec::new();
        let s = SectorSlopes::read(&aligned([2, 0, 0, 0, 0]), &mut notes);
        let f = s.plane(1, FLOOR).unwrap();
        for (x, z) in [(128.0, 0.0), (192.0, 8.0), (256.0, 16.0)] {
            for y in [0.0, 64.0, 128.0] {
                assert!(close(f.z_at(x, y), z), "({x}, {y}): {}", f.z_at(x, y));
            }
        }
        assert_eq!(
            (s.plane(0, FLOOR), s.plane(0, CEILING), s.plane(1, CEILING)),
            (None, None, None)
        );
        assert_eq!(s.counts.plane_align, 1);
        assert_eq!(s.sloped_planes(), 1);
        // arg1 1: A's ceiling from B's ceiling (96) at the line to its own (128) at x = 0.
        let s = SectorSlopes::read(&aligned([0, 1, 0, 0, 0]), &mut notes);
        let c = s.plane(0, CEILING).unwrap();
        assert!(close(c.z_at(128.0, 50.0), 96.0) && close(c.z_at(0.0, 50.0), 128.0));
        assert!(close(c.z_at(64.0, 0.0), 112.0));
        // With arg1 0, bits 2-3 of arg0 give the ceiling: 2 << 2 tilts B's ceiling.
        let s = SectorSlopes::read(&aligned([2 << 2, 0, 0, 0, 0]), &mut notes);
        assert!(s.plane(1, FLOOR).is_none());
        let c = s.plane(1, CEILING).unwrap();
        assert!(close(c.z_at(128.0, 0.0), 128.0) && close(c.z_at(256.0, 0.0), 96.0));
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn plane_align_needs_hexen_numbering_and_two_sides() {
        let mut notes = Vec::new();
        // Doom format: 181 is no Plane_Align.
        let mut map = aligned([2, 0, 0, 0, 0]);
        map.format = MapFormat::Doom;
        assert!(SectorSlopes::read(&map, &mut notes).is_empty());
        // UDMF zdoom: it is; namespace doom: it is not.
        map.format = MapFormat::Udmf { namespace: "zdoom".into() };
        assert!(!SectorSlopes::read(&map, &mut notes).is_empty());
        map.format = MapFormat::Udmf { namespace: "doom".into() };
        assert!(SectorSlopes::read(&map, &mut notes).is_empty());
        // One-sided: nothing to align to.
        let mut map = aligned([1, 0, 0, 0, 0]);
        map.linedefs[3].sides[1] = None;
        assert!(SectorSlopes::read(&map, &mut notes).is_empty());
        // Equal heights on both sides make a level plane: no slope.
        let mut map = aligned([2, 2, 0, 0, 0]);
        map.sectors[1].floor = 0;
        map.sectors[1].ceiling = 128;
        assert!(SectorSlopes::read(&map, &mut notes).is_empty());
    }

    const TRIANGLE: &str = r#"
        namespace = "zdoom";
        vertex { x = 0.0; y = 0.0; zfloor = 32.0; }
        vertex { x = 256.0; y = 0.0; }
        vertex { x = 0.0; y = 256.0; zceiling = 64.0; }
        vertex { x = 512.0; y = 0.0; zfloor = 99.0; }
        linedef { v1 = 0; v2 = 2; sidefront = 0; }
        linedef { v1 = 2; v2 = 1; sidefront = 0; sideback = 1; twosided = true; }
        linedef { v1 = 1; v2 = 0; sidefront = 0; }
        linedef { v1 = 1; v2 = 3; sidefront = 1; }
        linedef { v1 = 3; v2 = 2; sidefront = 1; }
        sidedef { sector = 0; }
        sidedef { sector = 1; }
        sector { heightfloor = 0; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; }
        sector { heightfloor = 0; heightceiling = 128; texturefloor = "F"; textureceiling = "C"; }
    "#;

    fn triangle(text: &str) -> MapData {
        let doc = udmf::parse("t.wad", text.as_bytes(), 0).unwrap();
        udmf_records("t.wad", "MAP01", &doc).unwrap()
    }

    #[test]
    fn vertex_heights_tilt_triangular_sectors() {
        let map = triangle(TRIANGLE);
        let mut notes = Vec::new();
        let s = SectorSlopes::read(&map, &mut notes);
        // Sector 0 (corners 0, 2, 1): floor 32 at vertex 0, the sector's 0 at the others.
        let f = s.plane(0, FLOOR).unwrap();
        assert!(close(f.z_at(0.0, 0.0), 32.0) && close(f.z_at(256.0, 0.0), 0.0));
        assert!(close(f.z_at(0.0, 256.0), 0.0) && close(f.z_at(64.0, 64.0), 16.0));
        // Its ceiling: 64 at vertex 2, 128 at the others.
        let c = s.plane(0, CEILING).unwrap();
        assert!(close(c.z_at(0.0, 256.0), 64.0) && close(c.z_at(0.0, 0.0), 128.0));
        // Sector 1 (corners 1, 3, 2) is triangular too: vertex 3's floor 99, vertex 2's
        // ceiling 64.
        let f = s.plane(1, FLOOR).unwrap();
        assert!(close(f.z_at(512.0, 0.0), 99.0) && close(f.z_at(256.0, 0.0), 0.0));
        assert_eq!(s.counts.vertex_heights, 4);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn vertex_heights_ignore_other_sectors() {
        // A fourth line makes sector 1 a quadrilateral: no slope from vertex heights there.
        let text = TRIANGLE.replace(
            "linedef { v1 = 3; v2 = 2; sidefront = 1; }",
            "linedef { v1 = 3; v2 = 2; sidefront = 1; }\n linedef { v1 = 3; v2 = 3; sidefront = 1; }",
        );
        let s = SectorSlopes::read(&triangle(&text), &mut Vec::new());
        assert!(s.plane(0, FLOOR).is_some());
        assert!(s.plane(1, FLOOR).is_none() && s.plane(1, CEILING).is_none());
    }

    #[test]
    fn equations_replace_heights_only_when_complete() {
        let text = TRIANGLE.replace("zfloor = 32.0;", "").replace("zfloor = 99.0;", "").replace(
            "sector { heightfloor = 0;",
            "sector { floorplane_a = 0.0; floorplane_b = -0.5; floorplane_c = 1.0; \
             floorplane_d = 0.0; ceilingplane_a = 1.0; heightfloor = 0;",
        );
        let mut notes = Vec::new();
        let s = SectorSlopes::read(&triangle(&text), &mut notes);
        // Both sectors got the equation (the replacement hit both); z = y / 2 scaled by the
        // unit normal.
        let f = s.plane(0, FLOOR).unwrap();
        let len = (1.0f64 + 0.25).sqrt();
        assert!(close(f.z_at(7.0, 100.0), 50.0), "{}", f.z_at(7.0, 100.0));
        assert!(close(f.c, 1.0 / len));
        assert_eq!(s.counts.equations, 2);
        // The ceilings have only a: level, with a note; vertex 2's zceiling still slopes
        // sector 0's and 1's ceilings.
        assert!(notes.iter().any(|n| n.contains("lack some of a, b, c, d")), "{notes:?}");
        assert!(s.plane(0, CEILING).is_some() && s.plane(1, CEILING).is_some());
    }
}
