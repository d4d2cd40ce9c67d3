//! A uniform grid over the floor plane (viewer x and z) holding a level's triangles, so a body
//! only tests the few triangles near it each tic, whatever the level's size.

use glam::{DVec2, DVec3, Vec3};

/// Most cells along either side of the grid (memory stays bounded on huge levels).
const MAX_CELLS_ACROSS: f64 = 512.0;
/// A triangle over more cells than this is kept in a short list every query looks at (a
/// ground plane under the whole level) instead of in each cell.
const MAX_CELLS_PER_TRIANGLE: usize = 4096;

/// Triangles in viewer space, each listed in every cell its bounding box covers.
pub struct TriangleGrid {
    triangles: Vec<[Vec3; 3]>,
    origin: DVec2,
    cell: f64,
    cols: usize,
    rows: usize,
    /// Cell `c` holds `items[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
    everywhere: Vec<u32>,
}

impl TriangleGrid {
    /// A grid over `triangles` with cells at least `min_cell` across.
    pub fn new(triangles: Vec<[Vec3; 3]>, min_cell: f64) -> TriangleGrid {
        let flat = |p: Vec3| DVec2::new(p.x as f64, p.z as f64);
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for p in triangles.iter().flatten() {
            lo = lo.min(flat(*p));
            hi = hi.max(flat(*p));
        }
        if triangles.is_empty() {
            (lo, hi) = (DVec2::ZERO, DVec2::ZERO);
        }
        let extent = (hi - lo).max_element();
        let cell = min_cell.max(extent / MAX_CELLS_ACROSS).max(f64::MIN_POSITIVE);
        let cols = ((hi.x - lo.x) / cell).floor() as usize + 1;
        let rows = ((hi.y - lo.y) / cell).floor() as usize + 1;
        let mut grid = TriangleGrid {
            triangles,
            origin: lo,
            cell,
            cols,
            rows,
            starts: Vec::new(),
            items: Vec::new(),
            everywhere: Vec::new(),
        };
        grid.fill();
        grid
    }

    /// Counts each cell's triangles, then lays them out one cell after another.
    fn fill(&mut self) {
        let mut counts = vec![0u32; self.cols * self.rows + 1];
        let mut spans = Vec::with_capacity(self.triangles.len());
        for (i, t) in self.triangles.iter().enumerate() {
            let (lo, hi) = bounds(t);
            let span = self.cells_over(lo, hi);
            let (c0, c1, r0, r1) = span;
            if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS_PER_TRIANGLE {
                self.everywhere.push(i as u32);
                spans.push(None);
                continue;
            }
            for r in r0..=r1 {
                for c in c0..=c1 {
                    counts[r * self.cols + c] += 1;
                }
            }
            spans.push(Some(span));
        }
        let mut starts = Vec::with_capacity(counts.len());
        let mut total = 0u32;
        for n in &counts {
            starts.push(total);
            total += n;
        }
        let mut next = starts.clone();
        let mut items = vec![0u32; total as usize];
        for (i, span) in spans.iter().enumerate() {
            let Some((c0, c1, r0, r1)) = *span else { continue };
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let slot = &mut next[r * self.cols + c];
                    items[*slot as usize] = i as u32;
                    *slot += 1;
                }
            }
        }
        self.starts = starts;
        self.items = items;
    }

    /// The cells (first and last column, first and last row) a box on the floor plane covers,
    /// held to the grid.
    fn cells_over(&self, lo: DVec2, hi: DVec2) -> (usize, usize, usize, usize) {
        let at = |v: f64, o: f64, n: usize| {
            (((v - o) / self.cell).floor().max(0.0) as usize).min(n.saturating_sub(1))
        };
        (
            at(lo.x, self.origin.x, self.cols),
            at(hi.x, self.origin.x, self.cols),
            at(lo.y, self.origin.y, self.rows),
            at(hi.y, self.origin.y, self.rows),
        )
    }

    /// Calls `f` with each triangle whose cells meet the floor-plane box lo..hi (a triangle
    /// in several of those cells comes more than once).
    pub fn near(&self, lo: DVec2, hi: DVec2, mut f: impl FnMut(&[DVec3; 3])) {
        let wide = |t: &[Vec3; 3]| t.map(|p| p.as_dvec3());
        for &i in &self.everywhere {
            f(&wide(&self.triangles[i as usize]));
        }
        if self.triangles.is_empty() || !lo.is_finite() || !hi.is_finite() {
            return;
        }
        let (c0, c1, r0, r1) = self.cells_over(lo, hi);
        for r in r0..=r1 {
            for c in c0..=c1 {
                let cell = r * self.cols + c;
                let range = self.starts[cell] as usize..self.starts[cell + 1] as usize;
                for &i in &self.items[range] {
                    f(&wide(&self.triangles[i as usize]));
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.triangles.len()
    }
}

/// Floor-plane bounding box of a triangle.
fn bounds(t: &[Vec3; 3]) -> (DVec2, DVec2) {
    let flat = |p: Vec3| DVec2::new(p.x as f64, p.z as f64);
    let (a, b, c) = (flat(t[0]), flat(t[1]), flat(t[2]));
    (a.min(b).min(c), a.max(b).max(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_finds_the_triangles_near_it_and_not_the_far_ones() {
        let tri = |x: f32, z: f32| {
            [Vec3::new(x, 0.0, z), Vec3::new(x + 1.0, 0.0, z), Vec3::new(x, 0.0, z + 1.0)]
        };
        let grid = TriangleGrid::new(vec![tri(0.0, 0.0), tri(100.0, 100.0), tri(50.0, 0.0)], 4.0);
        let mut seen = Vec::new();
        grid.near(DVec2::new(-1.0, -1.0), DVec2::new(2.0, 2.0), |t| seen.push(t[0].x));
        seen.dedup();
        assert_eq!(seen, vec![0.0]);
        let mut seen = Vec::new();
        grid.near(DVec2::new(99.0, 99.0), DVec2::new(101.0, 101.0), |t| seen.push(t[0].x));
        seen.dedup();
        assert_eq!(seen, vec![100.0]);
    }
}
