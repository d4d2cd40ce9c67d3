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

/// For every face, the other faces' corners inside its edges, in polygon order (edge by
/// edge, increasing `t`).
pub fn edge_points(faces: &[Face]) -> Vec<Vec<EdgePoint>> {
    let mut grid: HashMap<Cell, Vec<DVec3>> = HashMap::new();
    let mut seen = HashSet::new();
    for p in faces.iter().flat_map(|f| f.corners) {
        if seen.insert([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]) {
            grid.entry(cell_of(p)).or_default().push(p);
        }
    }
    faces
        .iter()
        .map(|f| {
            let mut points = Vec::new();
            for k in 0..4 {
                let (a, b) = (f.corners[k], f.corners[(k + 1) % 4]);
                let mut ts = points_on_segment(&grid, a, b);
                ts.sort_by(f64::total_cmp);
                ts.dedup_by(|x, y| (*x - *y).abs() < 1e-9);
                points.extend(ts.into_iter().map(|t| EdgePoint { edge: k, t }));
            }
            points
        })
        .collect()
}

/// Parameters of grid points strictly inside segment a-b. Short segments visit the cells of
/// their bounding box; long ones the cells around samples every half cell along them, so the
/// work grows with the length, not with the bounding box.
fn points_on_segment(grid: &HashMap<Cell, Vec<DVec3>>, a: DVec3, b: DVec3) -> Vec<f64> {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 < 1e-12 {
        return Vec::new();
    }
    let (lo, hi) = (cell_of(a.min(b) - ON_EDGE), cell_of(a.max(b) + ON_EDGE));
    let span = (hi.0 - lo.0 + 1) * (hi.1 - lo.1 + 1) * (hi.2 - lo.2 + 1);
    let cells: Vec<Cell> = if span <= 27 {
        (lo.0..=hi.0)
            .flat_map(|x| (lo.1..=hi.1).flat_map(move |y| (lo.2..=hi.2).map(move |z| (x, y, z))))
            .collect()
    } else {
        let steps = (ab.length() / (CELL / 2.0)).ceil() as usize;
        let mut around = HashSet::new();
        for s in 0..=steps {
            let c = cell_of(a + ab * (s as f64 / steps as f64));
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        around.insert((c.0 + dx, c.1 + dy, c.2 + dz));
                    }
                }
            }
        }
        around.into_iter().collect()
    };
    let mut out = Vec::new();
    for c in cells {
        for &q in grid.get(&c).map(Vec::as_slice).unwrap_or(&[]) {
            let t = (q - a).dot(ab) / len2;
            if t > 1e-6 && t < 1.0 - 1e-6 && (a + ab * t).distance(q) < ON_EDGE {
                out.push(t);
            }
        }
    }
    out
}
