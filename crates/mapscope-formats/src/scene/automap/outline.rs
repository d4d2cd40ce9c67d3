//! A plain map drawn from a scene's triangles, for the games whose records have no map of
//! their own (Saturn Quake, Attack of the Saucerman, Carmageddon 2): the footprint of every
//! wall, and the edges of the floors where the floor steps up or down or ends.
//!
//! - A wall is a triangle within 20 degrees of vertical; its footprint is the segment its
//!   corners make seen from above, one line however many triangles stand on it. A footprint
//!   whose triangles together stand lower than [`RISER_METRES`] is a step's riser, which the
//!   floor step beside it already draws, and is left out.
//! - A floor is a triangle facing up, no steeper than 45 degrees. Each of its edges that no
//!   other floor triangle shares is looked at from just outside it: floor there at the same
//!   height (a neighbour cut differently) draws nothing, floor at another height a
//!   [`LineKind::FloorStep`], no floor at all a [`LineKind::Edge`].

use std::collections::HashMap;

use glam::Vec3;

use super::{Automap, AutomapLine, AutomapStyle, LineKind, Mark, MarkShape, MarkSize, Pen, Zoom};
use crate::scene::{Axes, WorldVertex};

/// Walls standing lower than this (metres) are risers of steps.
pub const RISER_METRES: f64 = 1.0;
/// Floors closer than this in height (metres) are one floor.
const SAME_FLOOR_METRES: f64 = 0.1;
/// How far outside an edge the floor beyond it is looked for (metres).
const PROBE_METRES: f64 = 0.02;
/// The most cells the floor index has each way.
const MAX_GRID: usize = 512;

/// The plain style: black ground, light grey walls, blue floor steps, dark grey floor edges,
/// a white arrow for the camera, green things and yellow markers (as the 3D view's).
pub const OUTLINE_STYLE: AutomapStyle = AutomapStyle {
    name: "plain",
    background: [0, 0, 0],
    pens: [
        // Wall, FloorStep, CeilingStep, Open, Teleporter, Edge.
        Pen { rgb: [215, 215, 215], width: 1.0 },
        Pen { rgb: [80, 150, 255], width: 1.0 },
        Pen { rgb: [230, 200, 60], width: 1.0 },
        Pen { rgb: [90, 90, 90], width: 1.0 },
        Pen { rgb: [230, 60, 230], width: 1.0 },
        Pen { rgb: [120, 120, 120], width: 1.0 },
    ],
    player: Mark { shape: MarkShape::DoomArrow, rgb: [255, 255, 255], size: MarkSize::Pixels(8.0) },
    thing: Mark { shape: MarkShape::ThinTriangle, rgb: [70, 210, 70], size: MarkSize::Pixels(3.0) },
    marker: Mark { shape: MarkShape::Diamond, rgb: [255, 220, 0], size: MarkSize::Pixels(3.0) },
    rows: 360,
    zoom: Zoom::PixelsPerUnit(0.0),
};

/// The plain map of a scene's `world` triangles (viewer space), in the native coordinates of
/// `axes`; the map opens with 48 metres across the image's height.
pub fn outline(world: &[WorldVertex], axes: Axes, units_per_metre: f64) -> Automap {
    let metre = units_per_metre.max(1e-6);
    let mut style = OUTLINE_STYLE;
    style.zoom = Zoom::PixelsPerUnit(style.rows as f64 / (48.0 * metre));
    let mut map = Automap::new(style);
    let native = |p: Vec3| axes.native_2d(axes.to_native_f64(p.as_dvec3()));

    // Walls: one footprint per plan segment, with the heights its triangles span.
    let mut walls: HashMap<[u32; 4], (Vec3, Vec3, f32, f32)> = HashMap::new();
    let mut floors: Vec<[Vec3; 3]> = Vec::new();
    for t in world.chunks_exact(3) {
        let p = [t[0].pos, t[1].pos, t[2].pos].map(Vec3::from);
        let n = (p[1] - p[0]).cross(p[2] - p[0]);
        let len = n.length();
        if len.is_nan() || len <= 0.0 {
            continue;
        }
        let up = n.y / len;
        if up.abs() < 0.34 {
            let (a, b) = footprint(&p);
            if (a.x, a.z) == (b.x, b.z) {
                continue;
            }
            let (lo, hi) = (p[0].y.min(p[1].y).min(p[2].y), p[0].y.max(p[1].y).max(p[2].y));
            let key = plan_key(a, b);
            let e = walls.entry(key).or_insert((a, b, lo, hi));
            e.2 = e.2.min(lo);
            e.3 = e.3.max(hi);
        } else if up > std::f32::consts::FRAC_1_SQRT_2 - 1e-4 {
            floors.push(p);
        }
    }

    // Floors' edges no other floor triangle shares.
    let mut edges: HashMap<[u32; 6], (usize, usize)> = HashMap::new();
    for (i, t) in floors.iter().enumerate() {
        for k in 0..3 {
            let key = edge_key(t[k], t[(k + 1) % 3]);
            edges.entry(key).and_modify(|e| e.1 += 1).or_insert((i * 3 + k, 1));
        }
    }
    let index = FloorIndex::new(&floors);
    let same = (SAME_FLOOR_METRES * metre) as f32;
    let mut lines: Vec<(LineKind, Vec3, Vec3)> = Vec::new();
    let mut open: Vec<(usize, usize)> = edges.into_values().filter(|e| e.1 == 1).collect();
    open.sort_unstable();
    for (slot, _) in open {
        let t = &floors[slot / 3];
        let k = slot % 3;
        let (a, b, c) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        let (pa, pb, pc) = (plan(a), plan(b), plan(c));
        let along = pb - pa;
        let length = along.length();
        if length <= 0.0 {
            continue;
        }
        let mut out = along.perp() / length;
        if out.dot(pc - pa) > 0.0 {
            out = -out;
        }
        let step = ((PROBE_METRES * metre) as f32).min(0.25 * length);
        let probe = (pa + pb) * 0.5 + out * step;
        let height = (a.y + b.y) * 0.5;
        let beyond = index.heights_at(&floors, probe);
        if beyond.iter().any(|h| (h - height).abs() <= same) {
            continue;
        }
        let kind = if beyond.is_empty() { LineKind::Edge } else { LineKind::FloorStep };
        lines.push((kind, a, b));
    }

    let riser = (RISER_METRES * metre) as f32;
    let mut standing: Vec<_> = walls.into_iter().filter(|(_, w)| w.3 - w.2 >= riser).collect();
    standing.sort_unstable_by_key(|(key, _)| *key);
    lines.extend(standing.into_iter().map(|(_, (a, b, _, _))| (LineKind::Wall, a, b)));
    // Floor edges first, walls over them.
    lines.sort_by_key(|(kind, _, _)| match kind {
        LineKind::Edge => 0,
        LineKind::FloorStep => 1,
        _ => 2,
    });
    map.lines = lines
        .into_iter()
        .map(|(kind, a, b)| AutomapLine { a: native(a), b: native(b), kind, hidden: false })
        .collect();
    map
}

/// A point's place on the map, in single precision.
fn plan(p: Vec3) -> glam::Vec2 {
    glam::Vec2::new(p.x, -p.z)
}

/// The two corners of a near-vertical triangle farthest apart seen from above.
fn footprint(p: &[Vec3; 3]) -> (Vec3, Vec3) {
    let d = |i: usize, j: usize| plan(p[i]).distance_squared(plan(p[j]));
    let pairs = [(0, 1), (1, 2), (2, 0)];
    let (i, j) = pairs.into_iter().max_by(|x, y| d(x.0, x.1).total_cmp(&d(y.0, y.1))).unwrap();
    (p[i], p[j])
}

/// A plan segment's key, the same whichever way round.
fn plan_key(a: Vec3, b: Vec3) -> [u32; 4] {
    let (ka, kb) = ([a.x.to_bits(), a.z.to_bits()], [b.x.to_bits(), b.z.to_bits()]);
    let (first, second) = if ka <= kb { (ka, kb) } else { (kb, ka) };
    [first[0], first[1], second[0], second[1]]
}

/// A 3D edge's key, the same whichever way round.
fn edge_key(a: Vec3, b: Vec3) -> [u32; 6] {
    let (ka, kb) = (a.to_array().map(f32::to_bits), b.to_array().map(f32::to_bits));
    let (first, second) = if ka <= kb { (ka, kb) } else { (kb, ka) };
    [first[0], first[1], first[2], second[0], second[1], second[2]]
}

/// The floor triangles by the grid cells their boxes cover, seen from above.
struct FloorIndex {
    origin: glam::Vec2,
    cell: f32,
    size: (usize, usize),
    cells: Vec<Vec<u32>>,
}

impl FloorIndex {
    fn new(floors: &[[Vec3; 3]]) -> FloorIndex {
        let mut lo = glam::Vec2::splat(f32::INFINITY);
        let mut hi = glam::Vec2::splat(f32::NEG_INFINITY);
        for p in floors.iter().flatten() {
            lo = lo.min(plan(*p));
            hi = hi.max(plan(*p));
        }
        if floors.is_empty() {
            return FloorIndex { origin: lo, cell: 1.0, size: (0, 0), cells: Vec::new() };
        }
        let extent = (hi - lo).max(glam::Vec2::splat(1e-3));
        let per_side = (floors.len() as f32).sqrt().clamp(1.0, MAX_GRID as f32);
        let cell = (extent.x.max(extent.y) / per_side).max(1e-3);
        let nx = ((extent.x / cell) as usize + 1).min(MAX_GRID);
        let ny = ((extent.y / cell) as usize + 1).min(MAX_GRID);
        let mut index =
            FloorIndex { origin: lo, cell, size: (nx, ny), cells: vec![Vec::new(); nx * ny] };
        for (i, t) in floors.iter().enumerate() {
            let (a, b) = t.iter().fold(
                (glam::Vec2::splat(f32::INFINITY), glam::Vec2::splat(f32::NEG_INFINITY)),
                |(lo, hi), p| (lo.min(plan(*p)), hi.max(plan(*p))),
            );
            let (x0, y0) = index.cell_of(a);
            let (x1, y1) = index.cell_of(b);
            for y in y0..=y1 {
                for x in x0..=x1 {
                    index.cells[y * nx + x].push(i as u32);
                }
            }
        }
        index
    }

    fn cell_of(&self, p: glam::Vec2) -> (usize, usize) {
        let q = (p - self.origin) / self.cell;
        let clamp = |v: f32, n: usize| (v.max(0.0) as usize).min(n.saturating_sub(1));
        (clamp(q.x, self.size.0), clamp(q.y, self.size.1))
    }

    /// The heights of the floors under `p`.
    fn heights_at(&self, floors: &[[Vec3; 3]], p: glam::Vec2) -> Vec<f32> {
        if self.cells.is_empty() {
            return Vec::new();
        }
        let q = (p - self.origin) / self.cell;
        let (nx, ny) = self.size;
        if q.x < 0.0 || q.y < 0.0 || q.x >= nx as f32 || q.y >= ny as f32 {
            return Vec::new();
        }
        let (x, y) = self.cell_of(p);
        self.cells[y * nx + x].iter().filter_map(|&i| height_in(&floors[i as usize], p)).collect()
    }
}

/// The height of triangle `t`'s plane at plan point `p`, if `p` is inside it seen from above.
fn height_in(t: &[Vec3; 3], p: glam::Vec2) -> Option<f32> {
    let [a, b, c] = t.map(plan);
    let area = |p: glam::Vec2, q: glam::Vec2, r: glam::Vec2| (q - p).perp_dot(r - p);
    let whole = area(a, b, c);
    if whole.abs() < 1e-12 {
        return None;
    }
    let (w0, w1, w2) = (area(b, c, p) / whole, area(c, a, p) / whole, area(a, b, p) / whole);
    let tol = -1e-5;
    (w0 >= tol && w1 >= tol && w2 >= tol).then(|| w0 * t[0].y + w1 * t[1].y + w2 * t[2].y)
}

/// The map's own pixel test data: rooms built from quads, as the tests of the three plain
/// formats see them.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{vertex_flags, SurfaceKind};
    use glam::DVec2;

    fn vertex(p: [f32; 3]) -> WorldVertex {
        WorldVertex {
            pos: p,
            uv: [0.0; 2],
            texture: 0,
            light: 0,
            flags: vertex_flags::pack(SurfaceKind::Flat, false, 0, 0),
            surface: 0,
            shade: [0; 4],
        }
    }

    /// A quad's two triangles, corners in order (counter-clockwise seen from its front).
    fn quad(world: &mut Vec<WorldVertex>, q: [[f32; 3]; 4]) {
        for i in [0, 1, 2, 0, 2, 3] {
            world.push(vertex(q[i]));
        }
    }

    /// A floor at height `y` over x0..x1, z0..z1 (viewer space), facing up.
    fn floor(world: &mut Vec<WorldVertex>, (x0, x1): (f32, f32), (z0, z1): (f32, f32), y: f32) {
        quad(world, [[x0, y, z1], [x1, y, z1], [x1, y, z0], [x0, y, z0]]);
    }

    fn lines_of(map: &Automap, kind: LineKind) -> Vec<(DVec2, DVec2)> {
        map.lines.iter().filter(|l| l.kind == kind).map(|l| (l.a, l.b)).collect()
    }

    #[test]
    fn two_floors_at_one_height_draw_only_their_outer_edge_and_a_step_draws_from_both_sides() {
        let mut world = Vec::new();
        floor(&mut world, (0.0, 100.0), (0.0, 100.0), 0.0);
        // Beside it, the same height but cut in two (a T-junction on the shared edge).
        floor(&mut world, (100.0, 200.0), (0.0, 50.0), 0.0);
        floor(&mut world, (100.0, 200.0), (50.0, 100.0), 0.0);
        // Beyond that, a step up of 16 units (half a metre at 32 a metre).
        floor(&mut world, (200.0, 300.0), (0.0, 100.0), 16.0);
        let map = outline(&world, Axes::YUp, 32.0);
        assert!(lines_of(&map, LineKind::Wall).is_empty());
        let steps = lines_of(&map, LineKind::FloorStep);
        // The step's edge, seen from both sides: the lower floors' two and the upper one's.
        assert_eq!(steps.len(), 3, "{steps:?}");
        for (a, b) in &steps {
            assert_eq!((a.x, b.x), (200.0, 200.0));
        }
        // Nothing on x = 100, where two floors of one height meet.
        assert!(map.lines.iter().all(|l| l.a.x != 100.0 || l.b.x != 100.0), "{:?}", map.lines);
        // The outline: the three floors' outer edges.
        assert!(map.count(LineKind::Edge) >= 4);
    }

    #[test]
    fn a_tall_wall_is_one_line_and_a_riser_none() {
        let mut world = Vec::new();
        // A wall 3 m tall (96 units at 32 a metre) along z = 0 from x 0 to 128, in two bands.
        quad(
            &mut world,
            [[0.0, 0.0, 0.0], [128.0, 0.0, 0.0], [128.0, 48.0, 0.0], [0.0, 48.0, 0.0]],
        );
        quad(
            &mut world,
            [[0.0, 48.0, 0.0], [128.0, 48.0, 0.0], [128.0, 96.0, 0.0], [0.0, 96.0, 0.0]],
        );
        // A riser 16 units tall along x = 300.
        quad(
            &mut world,
            [[300.0, 0.0, 0.0], [300.0, 0.0, 64.0], [300.0, 16.0, 64.0], [300.0, 16.0, 0.0]],
        );
        let map = outline(&world, Axes::YUp, 32.0);
        let walls = lines_of(&map, LineKind::Wall);
        assert_eq!(walls.len(), 1, "{walls:?}");
        let (a, b) = walls[0];
        let (lo, hi) = if a.x < b.x { (a, b) } else { (b, a) };
        assert_eq!((lo, hi), (DVec2::new(0.0, 0.0), DVec2::new(128.0, 0.0)));
    }

    #[test]
    fn the_lines_are_in_native_coordinates() {
        let mut world = Vec::new();
        // Saturn Quake: viewer (x, y, -z); a wall along native z = 40 is viewer z = -40.
        quad(
            &mut world,
            [[0.0, 0.0, -40.0], [64.0, 0.0, -40.0], [64.0, 64.0, -40.0], [0.0, 64.0, -40.0]],
        );
        let map = outline(&world, Axes::YUpLeftHanded, 32.0);
        let walls = lines_of(&map, LineKind::Wall);
        assert_eq!(walls.len(), 1);
        assert!(walls[0].0.y == 40.0 && walls[0].1.y == 40.0, "{walls:?}");
    }

    #[test]
    fn an_empty_world_is_an_empty_map() {
        let map = outline(&[], Axes::YUp, 1.0);
        assert!(map.lines.is_empty());
        assert!(map.plan_bounds(Axes::YUp).is_none());
    }
}
