//! T-junction repair. Where a corner of one face lies inside an edge of another (a welded
//! tile corner on a neighbouring plane's long quad edge, say), the two edges are the same line
//! but not the same segments, and rasterisers leave pixel cracks along them. Such corners are
//! inserted into the edge they lie on, so every shared edge is drawn from the same vertices.

use std::collections::{HashMap, HashSet};

use glam::DVec3;

use super::geometry::Face;

/// A corner of another face on a face's edge: edge k runs from corner k to corner k+1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgePoint {
    pub edge: usize,
    /// Position along the edge, strictly between 0 and 1.
    pub t: f64,
}

/// How far (native units) a corner may be from an edge's line to count as on it; welded
/// corners sit on it to rounding error.
const ON_EDGE: f64 = 0.01;
const CELL: f64 = 128.0;

type Cell = (i64, i64, i64);

fn cell_of(p: DVec3) -> Cell {
    ((p.x / CELL).floor() as i64, (p.y / CELL).floor() as i64, (p.z / CELL).floor() as i64)
}

/// Every distinct face corner, and the same points bucketed by grid cell.
struct Corners {
    all: Vec<DVec3>,
    grid: HashMap<Cell, Vec<DVec3>>,
}

/// For every face, the other faces' corners inside its edges, in polygon order (edge by
/// edge, increasing `t`).
pub fn edge_points(faces: &[Face]) -> Vec<Vec<EdgePoint>> {
    let mut corners = Corners { all: Vec::new(), grid: HashMap::new() };
    let mut seen = HashSet::new();
    for p in faces.iter().flat_map(|f| f.corners) {
        if seen.insert([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]) {
            corners.all.push(p);
            corners.grid.entry(cell_of(p)).or_default().push(p);
        }
    }
    faces
        .iter()
        .map(|f| {
            let mut points = Vec::new();
            for k in 0..4 {
                let (a, b) = (f.corners[k], f.corners[(k + 1) % 4]);
                let mut ts = points_on_segment(&corners, a, b);
                ts.sort_by(f64::total_cmp);
                ts.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
                points.extend(ts.into_iter().map(|t| EdgePoint { edge: k, t }));
            }
            points
        })
        .collect()
}

/// Pieces a segment is cut into for the cell search: each at most half a cell long, so the
/// cells near a piece are at most 2 a side.
fn piece_count(a: DVec3, b: DVec3) -> usize {
    // `as` saturates, so a non-finite or huge length gives usize::MAX, never a panic.
    ((a.distance(b) / (CELL / 2.0)).ceil() as usize).max(1)
}

/// The grid cells that hold every point within ON_EDGE of segment a-b: those of each piece's
/// bounding box grown by ON_EDGE. The count grows with the length (at most 8 a piece), not
/// with the segment's bounding box, which for a long diagonal edge holds millions of cells.
fn cells_near_segment(a: DVec3, b: DVec3, pieces: usize) -> Vec<Cell> {
    let mut cells = Vec::new();
    for s in 0..pieces {
        let p = a.lerp(b, s as f64 / pieces as f64);
        let q = a.lerp(b, (s + 1) as f64 / pieces as f64);
        let (lo, hi) = (cell_of(p.min(q) - ON_EDGE), cell_of(p.max(q) + ON_EDGE));
        for x in lo.0..=hi.0 {
            for y in lo.1..=hi.1 {
                cells.extend((lo.2..=hi.2).map(|z| (x, y, z)));
            }
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Parameters of corners strictly inside segment a-b. The work is the smaller of the cells
/// along the segment and the number of corners: hostile levels have edges tens of thousands
/// of units long (hundreds of cells) among a handful of corners.
fn points_on_segment(corners: &Corners, a: DVec3, b: DVec3) -> Vec<f64> {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 < 1e-12 {
        return Vec::new();
    }
    let on_segment = |q: DVec3| {
        let t = (q - a).dot(ab) / len2;
        (t > 1e-6 && t < 1.0 - 1e-6 && (a + ab * t).distance(q) < ON_EDGE).then_some(t)
    };
    let pieces = piece_count(a, b);
    if pieces >= corners.all.len() {
        return corners.all.iter().filter_map(|&q| on_segment(q)).collect();
    }
    cells_near_segment(a, b, pieces)
        .iter()
        .filter_map(|c| corners.grid.get(c))
        .flatten()
        .filter_map(|&q| on_segment(q))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::geometry::{FaceSource, FaceTexture};
    use super::*;

    fn face(corners: [[f64; 3]; 4]) -> Face {
        Face {
            plane: 0,
            source: FaceSource::SkyPlane,
            corners: corners.map(DVec3::from),
            lights: [0; 4],
            texture: FaceTexture::Sky,
            flags: 0,
            normal: DVec3::Z,
            layer: 0,
        }
    }

    #[test]
    fn corners_inside_long_and_short_edges_are_found_either_way() {
        // A long diagonal edge from the origin with another face's corner a third of the way
        // along it, and enough far-away corners that the cell search is used.
        let long =
            face([[0.0; 3], [3000.0, 1500.0, 600.0], [3000.0, 1500.0, 900.0], [0.0, 0.0, 300.0]]);
        let on = [1000.0, 500.0, 200.0];
        let mut faces = vec![
            long,
            face([on, [1000.0, 600.0, 200.0], [1100.0, 600.0, 200.0], [1100.0, 500.0, 200.0]]),
        ];
        let found = |faces: &[Face]| edge_points(faces)[0].clone();
        let few = found(&faces);
        assert_eq!(few.len(), 1, "{few:?}");
        assert_eq!(few[0].edge, 0);
        assert!((few[0].t - 1.0 / 3.0).abs() < 1e-9);
        for k in 0..100 {
            let x = 20000.0 + 300.0 * k as f64;
            faces.push(face([
                [x, 0.0, 0.0],
                [x + 10.0, 0.0, 0.0],
                [x + 10.0, 10.0, 0.0],
                [x, 10.0, 0.0],
            ]));
        }
        assert!(piece_count(faces[0].corners[0], faces[0].corners[1]) < 4 * faces.len());
        assert_eq!(found(&faces), few);
    }

    #[test]
    fn cells_near_a_segment_grow_with_its_length_and_cover_it() {
        let (a, b) =
            (DVec3::new(-30000.0, -30000.0, -30000.0), DVec3::new(30000.0, 30000.0, 30000.0));
        let pieces = piece_count(a, b);
        let cells = cells_near_segment(a, b, pieces);
        // Its bounding box holds 469^3 cells; the walk at most 8 a piece.
        assert!(cells.len() <= 8 * pieces, "{} cells for {pieces} pieces", cells.len());
        for k in 0..=1000 {
            let p = a.lerp(b, k as f64 / 1000.0);
            for d in [DVec3::ZERO, DVec3::splat(ON_EDGE * 0.9), DVec3::splat(-ON_EDGE * 0.9)] {
                assert!(cells.binary_search(&cell_of(p + d)).is_ok(), "{p} + {d}");
            }
        }
        assert_eq!(piece_count(DVec3::ZERO, DVec3::splat(f64::INFINITY)), usize::MAX);
    }
}
