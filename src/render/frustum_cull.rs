//! Drops the runs of world triangles that lie wholly outside the view before they are drawn.
//!
//! A software rasteriser shades every vertex of a draw on the thread that submits it, one
//! triangle after another, before clipping throws most of them away: on a level of ten
//! thousand triangles that costs as much as shading the pixels. Triangles are kept in short
//! chunks of scene order (neighbours in a level are near each other), each with its bounding
//! box; a frame draws only the chunks whose box meets the view frustum, consecutive ones merged
//! into one draw. A box wholly outside one side of the frustum holds no triangle that could
//! cover a pixel centre, so the picture is the same.

use std::ops::Range;

use glam::{Mat4, Vec3, Vec4};

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
}

impl FrustumCull {
    /// `vertices` is the buffer the groups' ranges index.
    pub fn new(vertices: &[WorldVertex], groups: &[Group]) -> FrustumCull {
        let chunks: Vec<Vec<Chunk>> = groups
            .iter()
            .map(|g| {
                let step = CHUNK_TRIANGLES * 3;
                (g.vertices.start..g.vertices.end)
                    .step_by(step as usize)
                    .map(|start| {
                        let range = start..(start + step).min(g.vertices.end);
                        let mut min = Vec3::splat(f32::INFINITY);
                        let mut max = Vec3::splat(f32::NEG_INFINITY);
                        let slice = vertices.get(range.start as usize..range.end as usize);
                        for v in slice.unwrap_or(&[]) {
                            min = min.min(Vec3::from(v.pos));
                            max = max.max(Vec3::from(v.pos));
                        }
                        Chunk { vertices: range, min, max }
                    })
                    .collect()
            })
            .collect();
        // Until the first update every triangle is drawn.
        let visible = groups.iter().map(|g| vec![g.vertices.clone()]).collect();
        FrustumCull { chunks, visible }
    }

    /// Finds the chunks `view_proj` (render space to clip space) can see.
    pub fn update(&mut self, view_proj: Mat4) {
        // Inside: -w <= x <= w, -w <= y <= w, and in front of the eye (w >= 0).
        let (r0, r1, r3) = (view_proj.row(0), view_proj.row(1), view_proj.row(3));
        let planes = [r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3];
        for (chunks, visible) in self.chunks.iter().zip(&mut self.visible) {
            visible.clear();
            for c in chunks.iter().filter(|c| planes.iter().all(|&p| reaches(p, c))) {
                match visible.last_mut() {
                    Some(last) if last.end == c.vertices.start => last.end = c.vertices.end,
                    _ => visible.push(c.vertices.clone()),
                }
            }
        }
    }

    /// The vertex ranges of group `group` to draw this frame.
    pub fn ranges(&self, group: usize) -> &[Range<u32>] {
        self.visible.get(group).map_or(&[], |v| &v[..])
    }
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
        let groups = [Group { surface: 1, vertices: 0..n }];
        let mut cull = FrustumCull::new(&vertices, &groups);
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(0..n)), "all before the first update");
        let quarter_turn = std::f64::consts::FRAC_PI_2;
        let camera = CameraPose { pos: DVec3::ZERO, yaw: quarter_turn, pitch: 0.0 };
        let proj = Mat4::perspective_rh(90f32.to_radians(), 16.0 / 9.0, 0.1, 1000.0);
        cull.update(proj * camera.view_matrix());
        let chunk = CHUNK_TRIANGLES * 3;
        assert_eq!(cull.ranges(0), &[0..3 * chunk, 5 * chunk..6 * chunk]);
        // Turned round, only the chunk behind is in view.
        let back = CameraPose { yaw: -quarter_turn, ..camera };
        cull.update(proj * back.view_matrix());
        assert_eq!(cull.ranges(0), std::slice::from_ref(&(3 * chunk..4 * chunk)));
    }
}
