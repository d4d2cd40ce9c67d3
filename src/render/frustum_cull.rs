//! Drops the runs of world triangles that lie wholly outside the view before they are drawn.
//!
//! A software rasteriser shades every vertex of a draw on the thread that submits it, one
//! triangle after another, before clipping throws most of them away: on a level of ten
//! thousand triangles that costs as much as shading the pixels. Triangles are kept in short
//! chunks of scene order (neighbours in a level are near each other), each with its bounding
//! box; a frame draws only the chunks whose box meets the view frustum, consecutive ones merged
//! into one draw. A box wholly outside one side of the frustum holds no triangle that could
//! cover a pixel centre, so the picture is the same. With an occlusion map (`occlusion`) the
//! chunks in the frustum are taken nearest first, the solid ones drawn are recorded on the map,
//! and a chunk the map shows behind them is dropped too.

use std::ops::Range;

use glam::{Mat4, Vec3, Vec4};

use super::cell_visibility::CellVisibility;
use super::occlusion::{BoxExtent, OcclusionMap, MAX_CORNERS};
use super::world_batches::Group;
use crate::scene::{WorldVertex, NO_CELL};

/// Triangles per chunk: small enough to fit the view closely, large enough that the boxes
/// cost nothing next to the vertices they stand for.
const CHUNK_TRIANGLES: u32 = 16;

struct Chunk {
    vertices: Range<u32>,
    min: Vec3,
    max: Vec3,
    /// The chunk's triangles as convex polygons, one for each side they face (see
    /// [`outlines`]), for the occlusion map; empty where they are not.
    outlines: Box<[Box<[Vec3]>]>,
    /// The level cell all its triangles belong to ([`NO_CELL`]: none, or no cells).
    cell: u32,
}

/// What a frame's culling kept and dropped, in triangles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CullCounts {
    /// In the view frustum.
    pub in_view: usize,
    /// Of those, in cells the camera cannot see into.
    pub out_of_sight: usize,
    /// Of the rest, shown hidden by the occlusion map (`None`: the map was not used).
    pub occluded: Option<usize>,
}

impl CullCounts {
    /// In the view and not dropped.
    pub fn drawn(&self) -> usize {
        self.in_view - self.out_of_sight - self.occluded.unwrap_or(0)
    }
}

/// The chunks of each group of a vertex buffer, and the ranges of this frame's view.
pub struct FrustumCull {
    /// Per group, its chunks in buffer order.
    chunks: Vec<Vec<Chunk>>,
    /// Per group, the vertex ranges to draw this frame.
    visible: Vec<Vec<Range<u32>>>,
    /// The triangles' corners, when they hide what is behind them (solid ones): indexed by
    /// vertex number like the chunks' ranges.
    occluders: Option<Vec<Vec3>>,
    /// This frame's chunks in the frustum: group, chunk, footprint on the occlusion map.
    candidates: Vec<(usize, usize, Option<BoxExtent>)>,
    /// This frame's order of the candidates for the occlusion map (nearest first): nearest
    /// distance and position, and whether each candidate is left to draw.
    order: Vec<u64>,
    shown: Vec<bool>,
}

/// Triangles in the frustum below which the occlusion map is not used: the rasteriser's cost
/// is then in the pixels, and the map's (a millisecond or two where large triangles cross
/// it) would outweigh the triangles it drops.
const OCCLUSION_MIN_TRIANGLES: usize = 4096;

/// Triangles a frame records on the occlusion map at most: the nearest chunks hide the most,
/// and the map must cost far less than the triangles it saves.
const OCCLUDER_BUDGET: usize = 8192;

impl FrustumCull {
    /// `vertices` is the buffer the groups' ranges index; `occluders` says whether its
    /// triangles hide what lies behind them (solid ones do, masked ones have holes); with
    /// `cells`, a chunk holds one cell's triangles.
    pub fn new(
        vertices: &[WorldVertex],
        groups: &[Group],
        occluders: bool,
        cells: Option<&CellVisibility>,
    ) -> FrustumCull {
        let mut chunks: Vec<Vec<Chunk>> =
            groups.iter().map(|g| chunk_group(vertices, g, cells)).collect();
        // Until the first update every triangle is drawn.
        let visible = groups.iter().map(|g| vec![g.vertices.clone()]).collect();
        let occluders: Option<Vec<Vec3>> =
            occluders.then(|| vertices.iter().map(|v| Vec3::from(v.pos)).collect());
        if let Some(corners) = &occluders {
            for c in chunks.iter_mut().flatten() {
                let tris = corners.get(c.vertices.start as usize..c.vertices.end as usize);
                c.outlines = tris.and_then(outlines).unwrap_or_default();
            }
        }
        FrustumCull {
            chunks,
            visible,
            occluders,
            candidates: Vec::new(),
            order: Vec::new(),
            shown: Vec::new(),
        }
    }

    /// Finds the chunks `view_proj` (render space to clip space) can see. With a map, chunks
    /// it shows hidden are dropped too, nearest first, and this buffer's occluders that are
    /// drawn are recorded on it for the chunks behind them (and for later buffers).
    ///
    /// `visible` (per cell, from [`CellVisibility::update`]) drops the chunks of cells the
    /// camera cannot see into.
    pub fn update(
        &mut self,
        view_proj: Mat4,
        occlusion: Option<&mut OcclusionMap>,
        visible: Option<&[bool]>,
    ) -> CullCounts {
        let mut hidden = None;
        let mut out_of_sight = 0;
        // Inside: -w <= x <= w, -w <= y <= w, and in front of the eye (w >= 0).
        let (r0, r1, r3) = (view_proj.row(0), view_proj.row(1), view_proj.row(3));
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3];
        self.candidates.clear();
        for (g, chunks) in self.chunks.iter().enumerate() {
            for (i, c) in chunks.iter().enumerate() {
                if planes.iter().all(|&p| reaches(p, c)) {
                    let seen = |v: &[bool]| v.get(c.cell as usize).copied().unwrap_or(true);
                    if !visible.is_none_or(seen) {
                        out_of_sight += c.vertices.len() / 3;
                        continue;
                    }
                    let extent = occlusion.as_ref().and_then(|m| m.box_extent(c.min, c.max));
                    self.candidates.push((g, i, extent));
                }
            }
        }
        let in_frustum: usize =
            self.candidates.iter().map(|&(g, i, _)| self.chunks[g][i].vertices.len() / 3).sum();
        if let Some(map) = occlusion.filter(|_| in_frustum >= OCCLUSION_MIN_TRIANGLES) {
            let hidden = hidden.insert(0);
            // Nearest first, ties in buffer order: a box's nearest distance is positive (or
            // 0 for a box the map cannot test), so its bits sort as its value, and sorting
            // these keys moves 8 bytes a chunk where sorting the candidates moved 56.
            self.order.clear();
            self.order.extend(self.candidates.iter().enumerate().map(|(k, (_, _, extent))| {
                let nearest = extent.as_ref().map_or(0.0f32, |e| e.nearest);
                u64::from(nearest.to_bits()) << 32 | k as u64
            }));
            self.order.sort_unstable();
            self.shown.clear();
            self.shown.resize(self.candidates.len(), true);
            let mut budget = OCCLUDER_BUDGET;
            for &key in &self.order {
                let k = key as u32 as usize;
                let (g, i, extent) = &self.candidates[k];
                if extent.as_ref().is_some_and(|e| map.hides(e)) {
                    *hidden += self.chunks[*g][*i].vertices.len() / 3;
                    self.shown[k] = false;
                    continue;
                }
                // Boxes smaller than a few cells hold triangles too small to cover one.
                let large = extent.as_ref().is_none_or(|e| e.area() >= 4);
                if let (Some(corners), true) = (&self.occluders, large && budget > 0) {
                    let chunk = &self.chunks[*g][*i];
                    let range = &chunk.vertices;
                    if !chunk.outlines.is_empty() {
                        for outline in &chunk.outlines {
                            map.add_polygon(outline);
                        }
                    } else {
                        let tris = corners.get(range.start as usize..range.end as usize);
                        for t in tris.unwrap_or(&[]).chunks_exact(3) {
                            map.add_triangle(t[0], t[1], t[2]);
                        }
                    }
                    budget = budget.saturating_sub(range.len() / 3);
                }
            }
            // The candidates stay in buffer order, as the draws' ranges are merged.
            let mut shown = self.shown.iter();
            self.candidates.retain(|_| shown.next().copied().unwrap_or(true));
        }
        for visible in &mut self.visible {
            visible.clear();
        }
        let mut drawn = 0;
        for &(g, i, _) in &self.candidates {
            let c = &self.chunks[g][i];
            let visible = &mut self.visible[g];
            match visible.last_mut() {
                Some(last) if last.end == c.vertices.start => last.end = c.vertices.end,
                _ => visible.push(c.vertices.clone()),
            }
            drawn += c.vertices.len() / 3;
        }
        CullCounts {
            in_view: drawn + out_of_sight + hidden.unwrap_or(0),
            out_of_sight,
            occluded: hidden,
        }
    }

    /// The vertex ranges of group `group` to draw this frame.
    pub fn ranges(&self, group: usize) -> &[Range<u32>] {
        self.visible.get(group).map_or(&[], |v| &v[..])
    }
}

/// Splits a group into chunks of at most [`CHUNK_TRIANGLES`] neighbouring triangles. A
/// triangle apart from the chunk so far (farther from its box than either is large) starts a
/// new one: neighbours in scene order are usually neighbours in space, but a chunk that
/// joined the end of one room to the start of another far away would be seen from both.
fn chunk_group(
    vertices: &[WorldVertex],
    group: &Group,
    cells: Option<&CellVisibility>,
) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let corners = vertices.get(group.vertices.start as usize..group.vertices.end as usize);
    for (t, tri) in corners.unwrap_or(&[]).chunks_exact(3).enumerate() {
        let at = group.vertices.start + 3 * t as u32;
        let points = tri.iter().map(|v| Vec3::from(v.pos));
        let (lo, hi) =
            points.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)));
        let cell = cells.map_or(NO_CELL, |cells| cells.cell_of(tri[0].surface));
        if let Some(c) = chunks.last_mut().filter(|c| c.cell == cell) {
            let full = c.vertices.len() as u32 >= CHUNK_TRIANGLES * 3;
            let gap = (c.min - hi).max(lo - c.max).max(Vec3::ZERO).length();
            let apart = gap > (c.max - c.min).length().max((hi - lo).length());
            if !full && !apart {
                c.vertices.end = at + 3;
                c.min = c.min.min(lo);
                c.max = c.max.max(hi);
                continue;
            }
        }
        let outlines = Box::default();
        chunks.push(Chunk { vertices: at..at + 3, min: lo, max: hi, outlines, cell });
    }
    chunks
}

/// The triangles `tris` (corners in threes) as one convex polygon for each way they face
/// (two-sided surfaces are a triangle each way), when they are: see [`outline`].
fn outlines(tris: &[Vec3]) -> Option<Box<[Box<[Vec3]>]>> {
    let facing = |t: &[Vec3]| (t[1] - t[0]).cross(t[2] - t[0]);
    let first = facing(tris.get(..3)?);
    let (mut front, mut back) = (Vec::new(), Vec::new());
    for t in tris.chunks_exact(3) {
        let side = if facing(t).dot(first) >= 0.0 { &mut front } else { &mut back };
        side.extend_from_slice(t);
    }
    let mut out = vec![outline(&front)?];
    if !back.is_empty() {
        out.push(outline(&back)?);
    }
    Some(out.into_boxed_slice())
}

/// The triangles `tris` (corners in threes) as one convex polygon, when they are one: all in
/// one plane and facing one way, each edge either shared whole with one other triangle (in
/// the opposite direction, the same corners exactly) or on the outline, the outline one loop
/// of at most [`MAX_CORNERS`] corners once points along a straight edge are dropped, turning
/// one way at every corner, and enclosing exactly the triangles' area (no overlaps). The
/// occlusion map then records the outline, whose inside the rasteriser covers as it covers
/// the triangles (their shared edges meet exactly), at a fraction of the triangles' cost.
fn outline(tris: &[Vec3]) -> Option<Box<[Vec3]>> {
    if tris.len() < 3 || !tris.len().is_multiple_of(3) {
        return None;
    }
    let normal = (tris[1] - tris[0]).cross(tris[2] - tris[0]);
    let unit = normal.try_normalize()?;
    let (lo, hi) = tris
        .iter()
        .fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let size = (hi - lo).length();
    let mut area = 0.0;
    for t in tris.chunks_exact(3) {
        let n = (t[1] - t[0]).cross(t[2] - t[0]);
        if n.dot(unit) <= 0.0 || n.cross(unit).length() > 1e-5 * n.length() {
            return None;
        }
        area += n.length();
        if t.iter().any(|p| (*p - tris[0]).dot(unit).abs() > 1e-5 * size) {
            return None;
        }
    }
    // Directed edges by their corners' bits; an edge whose reverse is there too is inside.
    let key = |p: Vec3| p.to_array().map(f32::to_bits);
    let edges: Vec<([u32; 3], [u32; 3], Vec3)> = tris
        .chunks_exact(3)
        .flat_map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])])
        .map(|(p, q)| (key(p), key(q), p))
        .collect();
    let boundary: Vec<&([u32; 3], [u32; 3], Vec3)> =
        edges.iter().filter(|(p, q, _)| !edges.iter().any(|(a, b, _)| a == q && b == p)).collect();
    // One loop: from each start exactly one edge on.
    let first = boundary.first()?;
    let mut ring = Vec::with_capacity(boundary.len());
    let mut at = first.0;
    for _ in 0..boundary.len() {
        let mut next = boundary.iter().filter(|e| e.0 == at);
        let (Some(edge), None) = (next.next(), next.next()) else { return None };
        ring.push(edge.2);
        at = edge.1;
        if at == first.0 {
            break;
        }
    }
    if at != first.0 || ring.len() != boundary.len() {
        return None;
    }
    // Corners where the outline turns (straight through: dropped); every turn the same way.
    let count = ring.len();
    let turn = |i: usize| {
        let (p, c, n) = (ring[(i + count - 1) % count], ring[i], ring[(i + 1) % count]);
        ((c - p).cross(n - c).dot(unit), (c - p).length() * (n - c).length())
    };
    let mut corners = Vec::new();
    for (i, &corner) in ring.iter().enumerate() {
        let (t, scale) = turn(i);
        if t.abs() <= 1e-6 * scale {
            continue;
        }
        if t < 0.0 {
            return None;
        }
        corners.push(corner);
    }
    if !(3..=MAX_CORNERS).contains(&corners.len()) {
        return None;
    }
    let polygon: f32 = (1..corners.len() - 1)
        .map(|i| (corners[i] - corners[0]).cross(corners[i + 1] - corners[0]).dot(unit))
        .sum();
    ((polygon - area).abs() <= 1e-5 * area).then(|| corners.into_boxed_slice())
}

/// Whether some point of the chunk's box is on the inner side of `plane` (or on it).
fn reaches(plane: Vec4, c: &Chunk) -> bool {
    let n = plane.truncate();
    let corner = Vec3::select(n.cmpge(Vec3::ZERO), c.max, c.min);
    n.dot(corner) + plane.w >= 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::CameraPose;
    use glam::DVec3;

    fn triangle_at(x: f32, z: f32) -> [WorldVertex; 3] {
        [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
            .map(|[dx, dy]| WorldVertex { pos: [x + dx, dy, z], ..bytemuck::Zeroable::zeroed() })
    }

    #[test]
    fn only_chunks_in_view_are_drawn_and_neighbours_merge() {
        // Three chunks ahead of a camera looking down -z (yaw a quarter turn), one behind it,
        // one far to its side, then one more ahead.
        let spots = [(0.0, -10.0), (0.0, -20.0), (0.0, -30.0), (0.0, 10.0), (500.0, -10.0)];
        let mut vertices = Vec::new();
        for &(x, z) in spots.iter().chain(&[(0.0, -40.0)]) {
            for _ in 0..CHUNK_TRIANGLES {
                vertices.extend(triangle_at(x, z));
            }
        }
        let n = vertices.len() as u32;
        let groups = [Group { surface: 1, contrast: true, vertices: 0..n }];
        let mut cull = FrustumCull::new(&vertices, &groups, false, None);
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(0..n)), "all before the first update");
        let quarter_turn = std::f64::consts::FRAC_PI_2;
        let camera = CameraPose { pos: DVec3::ZERO, yaw: quarter_turn, pitch: 0.0 };
        let proj = Mat4::perspective_rh(90f32.to_radians(), 16.0 / 9.0, 0.1, 1000.0);
        cull.update(proj * camera.view_matrix(), None, None);
        let chunk = CHUNK_TRIANGLES * 3;
        assert_eq!(cull.ranges(0), &[0..3 * chunk, 5 * chunk..6 * chunk]);
        // Turned round, only the chunk behind is in view.
        let back = CameraPose { yaw: -quarter_turn, ..camera };
        cull.update(proj * back.view_matrix(), None, None);
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(3 * chunk..4 * chunk)));
    }

    /// A row of `n` unit quads in the plane z = 0 (front face +z), two triangles each, and
    /// with `two_sided` each triangle once more the other way round.
    fn strip(n: usize, two_sided: bool) -> Vec<Vec3> {
        let mut out = Vec::new();
        for i in 0..n {
            let x = i as f32;
            let [a, b, c, d] = [[x, 0.0], [x + 1.0, 0.0], [x + 1.0, 1.0], [x, 1.0]]
                .map(|[x, y]| Vec3::new(x, y, 0.0));
            for t in [[a, b, c], [a, c, d]] {
                out.extend(t);
                if two_sided {
                    out.extend([t[0], t[2], t[1]]);
                }
            }
        }
        out
    }

    #[test]
    fn a_flat_convex_run_of_triangles_is_one_polygon_a_side() {
        let one = outlines(&strip(4, false)).expect("a strip of quads is a rectangle");
        assert_eq!(one.len(), 1);
        let corners: Vec<[f32; 2]> = one[0].iter().map(|p| [p.x, p.y]).collect();
        // The points along the long edges are dropped; the winding is the triangles'.
        assert_eq!(corners, [[0.0, 0.0], [4.0, 0.0], [4.0, 1.0], [0.0, 1.0]]);
        let both = outlines(&strip(4, true)).expect("two-sided: a rectangle each way");
        assert_eq!(both.len(), 2);
        assert_eq!(both[0].len(), 4);
        assert_eq!(both[1].len(), 4);
        assert!(both[0].iter().all(|p| both[1].contains(p)));
    }

    #[test]
    fn runs_that_are_not_one_convex_polygon_stay_triangles() {
        let mut l_shape = strip(2, false);
        // A quad above the first: an L, not convex.
        let q = |x: f32, y: f32| Vec3::new(x, y, 0.0);
        l_shape.extend([
            q(0.0, 1.0),
            q(1.0, 1.0),
            q(1.0, 2.0),
            q(0.0, 1.0),
            q(1.0, 2.0),
            q(0.0, 2.0),
        ]);
        assert!(outlines(&l_shape).is_none());
        // Two quads apart: two loops.
        let mut apart = strip(1, false);
        apart.extend(strip(1, false).iter().map(|p| *p + Vec3::new(3.0, 0.0, 0.0)));
        assert!(outlines(&apart).is_none());
        // Bent out of the plane.
        let mut bent = strip(2, false);
        for p in bent.iter_mut().filter(|p| p.x == 2.0) {
            p.z = 0.5;
        }
        assert!(outlines(&bent).is_none());
        // A T-junction: a quad whose right edge is two triangles' edges of its neighbours.
        let mut t = strip(1, false);
        t.extend([q(1.0, 0.0), q(2.0, 0.0), q(1.0, 0.5), q(1.0, 0.5), q(2.0, 0.0), q(2.0, 1.0)]);
        t.extend([q(1.0, 0.5), q(2.0, 1.0), q(1.0, 1.0)]);
        assert!(outlines(&t).is_none());
        // The same triangle twice: overlapping area.
        let mut twice = strip(1, false);
        twice.extend(strip(1, false)[..3].to_vec());
        assert!(outlines(&twice).is_none());
    }

    #[test]
    fn a_wall_recorded_as_polygons_hides_what_its_triangles_hide() {
        // A wall of 8 x 4 two-sided quads 10 units each, 100 ahead of a camera looking down
        // -z, cut into chunks as a scene's buffer would be; boxes behind it, beside it and
        // in front of it.
        let mut vertices = Vec::new();
        for row in 0..4 {
            for p in strip(8, true) {
                let at = Vec3::new(p.x * 10.0 - 40.0, (p.y + row as f32) * 10.0 - 20.0, -100.0);
                vertices.push(WorldVertex { pos: at.to_array(), ..bytemuck::Zeroable::zeroed() });
            }
        }
        let n = vertices.len() as u32;
        let groups = [Group { surface: 1, contrast: true, vertices: 0..n }];
        let cull = FrustumCull::new(&vertices, &groups, true, None);
        assert!(cull.chunks[0].iter().all(|c| c.outlines.len() == 2), "every chunk a rectangle");
        let camera = CameraPose { pos: DVec3::ZERO, yaw: std::f64::consts::FRAC_PI_2, pitch: 0.0 };
        let proj = super::super::frame::projection(1280, 720, 640.0, false).matrix();
        let view_proj = proj * camera.view_matrix();
        let corners: Vec<Vec3> = vertices.iter().map(|v| Vec3::from(v.pos)).collect();
        let mut by_polygons = OcclusionMap::new(view_proj, 1280, 720, 1.0);
        let mut by_triangles = OcclusionMap::new(view_proj, 1280, 720, 1.0);
        for c in &cull.chunks[0] {
            for outline in &c.outlines {
                by_polygons.add_polygon(outline);
            }
            let tris = &corners[c.vertices.start as usize..c.vertices.end as usize];
            for t in tris.chunks_exact(3) {
                by_triangles.add_triangle(t[0], t[1], t[2]);
            }
        }
        let boxes = [
            (Vec3::new(-30.0, -10.0, -300.0), Vec3::new(30.0, 10.0, -200.0), true),
            (Vec3::new(-38.0, -18.0, -101.0), Vec3::new(38.0, 18.0, -101.0), true),
            (Vec3::new(30.0, -10.0, -300.0), Vec3::new(150.0, 10.0, -200.0), false),
            (Vec3::new(-10.0, -10.0, -90.0), Vec3::new(10.0, 10.0, -80.0), false),
        ];
        for (min, max, hidden) in boxes {
            let extent = by_polygons.box_extent(min, max).expect("in front of the eye");
            assert_eq!(by_polygons.hides(&extent), hidden, "{min} {max}: polygons");
            assert_eq!(by_triangles.hides(&extent), hidden, "{min} {max}: triangles");
        }
    }
}
