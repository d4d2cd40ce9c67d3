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

use super::occlusion::{BoxExtent, OcclusionMap};
use super::world_batches::Group;
use crate::scene::WorldVertex;

/// Triangles per chunk: small enough to fit the view closely, large enough that the boxes
/// cost nothing next to the vertices they stand for.
const CHUNK_TRIANGLES: u32 = 16;

struct Chunk {
    vertices: Range<u32>,
    min: Vec3,
    max: Vec3,
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
    /// triangles hide what lies behind them (solid ones do, masked ones have holes).
    pub fn new(vertices: &[WorldVertex], groups: &[Group], occluders: bool) -> FrustumCull {
        let chunks: Vec<Vec<Chunk>> = groups.iter().map(|g| chunk_group(vertices, g)).collect();
        // Until the first update every triangle is drawn.
        let visible = groups.iter().map(|g| vec![g.vertices.clone()]).collect();
        let occluders = occluders.then(|| vertices.iter().map(|v| Vec3::from(v.pos)).collect());
        FrustumCull { chunks, visible, occluders, candidates: Vec::new() }
    }

    /// Finds the chunks `view_proj` (render space to clip space) can see. With a map, chunks
    /// it shows hidden are dropped too, nearest first, and this buffer's occluders that are
    /// drawn are recorded on it for the chunks behind them (and for later buffers).
    ///
    /// Returns the triangles in the frustum and, when the map was used, those of them it
    /// showed hidden.
    pub fn update(
        &mut self,
        view_proj: Mat4,
        occlusion: Option<&mut OcclusionMap>,
    ) -> (usize, Option<usize>) {
        let mut hidden = None;
        // Inside: -w <= x <= w, -w <= y <= w, and in front of the eye (w >= 0).
        let (r0, r1, r3) = (view_proj.row(0), view_proj.row(1), view_proj.row(3));
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3];
        self.candidates.clear();
        for (g, chunks) in self.chunks.iter().enumerate() {
            for (i, c) in chunks.iter().enumerate() {
                if planes.iter().all(|&p| reaches(p, c)) {
                    let extent = occlusion.as_ref().and_then(|m| m.box_extent(c.min, c.max));
                    self.candidates.push((g, i, extent));
                }
            }
        }
        let in_frustum: usize =
            self.candidates.iter().map(|&(g, i, _)| self.chunks[g][i].vertices.len() / 3).sum();
        if let Some(map) = occlusion.filter(|_| in_frustum >= OCCLUSION_MIN_TRIANGLES) {
            let hidden = hidden.insert(0);
            let nearest = |e: &Option<BoxExtent>| e.as_ref().map_or(0.0, |e| e.nearest);
            self.candidates.sort_by(|a, b| nearest(&a.2).total_cmp(&nearest(&b.2)));
            let mut budget = OCCLUDER_BUDGET;
            self.candidates.retain(|(g, i, extent)| {
                if extent.as_ref().is_some_and(|e| map.hides(e)) {
                    *hidden += self.chunks[*g][*i].vertices.len() / 3;
                    return false;
                }
                // Boxes smaller than a few cells hold triangles too small to cover one.
                let large = extent.as_ref().is_none_or(|e| e.area() >= 4);
                if let (Some(corners), true) = (&self.occluders, large && budget > 0) {
                    let range = &self.chunks[*g][*i].vertices;
                    let tris = corners.get(range.start as usize..range.end as usize);
                    for t in tris.unwrap_or(&[]).chunks_exact(3) {
                        map.add_triangle(t[0], t[1], t[2]);
                    }
                    budget = budget.saturating_sub(range.len() / 3);
                }
                true
            });
            self.candidates.sort_by_key(|&(g, i, _)| (g, i));
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
        (drawn + hidden.unwrap_or(0), hidden)
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
fn chunk_group(vertices: &[WorldVertex], group: &Group) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let corners = vertices.get(group.vertices.start as usize..group.vertices.end as usize);
    for (t, tri) in corners.unwrap_or(&[]).chunks_exact(3).enumerate() {
        let at = group.vertices.start + 3 * t as u32;
        let points = tri.iter().map(|v| Vec3::from(v.pos));
        let (lo, hi) =
            points.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)));
        if let Some(c) = chunks.last_mut() {
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
        chunks.push(Chunk { vertices: at..at + 3, min: lo, max: hi });
    }
    chunks
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
        let mut cull = FrustumCull::new(&vertices, &groups, false);
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(0..n)), "all before the first update");
        let quarter_turn = std::f64::consts::FRAC_PI_2;
        let camera = CameraPose { pos: DVec3::ZERO, yaw: quarter_turn, pitch: 0.0 };
        let proj = Mat4::perspective_rh(90f32.to_radians(), 16.0 / 9.0, 0.1, 1000.0);
        cull.update(proj * camera.view_matrix(), None);
        let chunk = CHUNK_TRIANGLES * 3;
        assert_eq!(cull.ranges(0), &[0..3 * chunk, 5 * chunk..6 * chunk]);
        // Turned round, only the chunk behind is in view.
        let back = CameraPose { yaw: -quarter_turn, ..camera };
        cull.update(proj * back.view_matrix(), None);
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(3 * chunk..4 * chunk)));
    }
}
