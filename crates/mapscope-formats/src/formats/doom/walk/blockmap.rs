//! A grid over the map's lines and solid things, as vanilla's BLOCKMAP (128-unit blocks) is
//! used by `P_CheckPosition`: each move tests only what lies in the blocks under the body's
//! box, so walking stays cheap on maps of tens of thousands of lines.

use glam::DVec2;

/// Vanilla's block size (`MAPBLOCKUNITS`).
const BLOCK: f64 = 128.0;
/// Most blocks kept on either axis; a crafted map spanning the whole 16-bit range is still
/// 1,024 x 1,024 blocks of 128 at most, so this only guards the arithmetic.
const MAX_BLOCKS: usize = 1024;

/// Line and thing numbers by block.
pub struct Blockmap {
    origin: DVec2,
    columns: usize,
    rows: usize,
    lines: Vec<Vec<u32>>,
    things: Vec<Vec<u32>>,
}

impl Blockmap {
    /// Blocks covering the segments `lines` and the squares `things` (middle, half-width).
    pub fn new(lines: &[(DVec2, DVec2)], things: &[(DVec2, f64)]) -> Blockmap {
        let (mut lo, mut hi) = (DVec2::splat(f64::MAX), DVec2::splat(f64::MIN));
        for &(a, b) in lines {
            lo = lo.min(a).min(b);
            hi = hi.max(a).max(b);
        }
        if lo.x > hi.x {
            (lo, hi) = (DVec2::ZERO, DVec2::ZERO);
        }
        let span = ((hi - lo) / BLOCK).floor();
        let columns = (span.x as usize + 1).min(MAX_BLOCKS);
        let rows = (span.y as usize + 1).min(MAX_BLOCKS);
        let mut map = Blockmap {
            origin: lo,
            columns,
            rows,
            lines: vec![Vec::new(); columns * rows],
            things: vec![Vec::new(); columns * rows],
        };
        for (i, &(a, b)) in lines.iter().enumerate() {
            for block in map.blocks(a.min(b), a.max(b)) {
                map.lines[block].push(i as u32);
            }
        }
        for (i, &(at, r)) in things.iter().enumerate() {
            let r = DVec2::splat(r);
            for block in map.blocks(at - r, at + r) {
                map.things[block].push(i as u32);
            }
        }
        map
    }

    /// The block column and row holding `p`, clamped to the grid.
    fn cell(&self, p: DVec2) -> (usize, usize) {
        let c = ((p - self.origin) / BLOCK).floor();
        let clamp = |v: f64, n: usize| (v.max(0.0) as usize).min(n - 1);
        (clamp(c.x, self.columns), clamp(c.y, self.rows))
    }

    /// The blocks under the box `lo..hi`.
    fn blocks(&self, lo: DVec2, hi: DVec2) -> impl Iterator<Item = usize> {
        let ((c0, r0), (c1, r1)) = (self.cell(lo), self.cell(hi));
        let columns = self.columns;
        (r0..=r1).flat_map(move |r| (c0..=c1).map(move |c| r * columns + c))
    }

    /// The lines in the blocks under the box `lo..hi`, each once, in number order (the order
    /// a whole-map scan would meet them, so what blocks first does not depend on the grid).
    pub fn lines_near(&self, lo: DVec2, hi: DVec2) -> Vec<u32> {
        self.near(&self.lines, lo, hi)
    }

    /// The things whose squares reach the blocks under the box `lo..hi`.
    pub fn things_near(&self, lo: DVec2, hi: DVec2) -> Vec<u32> {
        self.near(&self.things, lo, hi)
    }

    fn near(&self, lists: &[Vec<u32>], lo: DVec2, hi: DVec2) -> Vec<u32> {
        let mut out = Vec::new();
        for block in self.blocks(lo, hi) {
            out.extend_from_slice(&lists[block]);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The lines of the blocks in `p`'s row from its column eastwards, a block at a time with
    /// the block's east edge: `visit` returns true once it has its answer west of that edge.
    pub fn lines_east(&self, p: DVec2, mut visit: impl FnMut(&[u32], f64) -> bool) {
        // A point on the grid's top edge still meets the lines ending there, in the last row.
        let y = ((p.y - self.origin.y) / BLOCK).floor();
        if y < 0.0 || y > self.rows as f64 {
            return;
        }
        let row = (y as usize).min(self.rows - 1);
        let (column, _) = self.cell(p);
        for c in column..self.columns {
            let edge = self.origin.x + (c + 1) as f64 * BLOCK;
            let last = c + 1 == self.columns;
            if visit(&self.lines[row * self.columns + c], if last { f64::MAX } else { edge }) {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_finds_the_lines_of_its_blocks_in_number_order_once() {
        let lines = [
            (DVec2::new(0.0, 0.0), DVec2::new(1000.0, 0.0)),
            (DVec2::new(900.0, 900.0), DVec2::new(1000.0, 1000.0)),
            (DVec2::new(10.0, -5.0), DVec2::new(10.0, 5.0)),
        ];
        let map = Blockmap::new(&lines, &[(DVec2::new(950.0, 950.0), 20.0)]);
        assert_eq!(map.lines_near(DVec2::new(0.0, -16.0), DVec2::new(300.0, 16.0)), vec![0, 2]);
        assert_eq!(map.lines_near(DVec2::new(940.0, 940.0), DVec2::new(960.0, 960.0)), vec![1]);
        assert_eq!(map.things_near(DVec2::new(900.0, 900.0), DVec2::new(910.0, 910.0)), vec![0]);
        assert!(map.things_near(DVec2::new(0.0, 0.0), DVec2::new(10.0, 10.0)).is_empty());
    }
}
