//! Which seg lines divide a set of segs, found in O(n log n) rather than by classifying every
//! seg against every line (the square of the set's size: seconds for a set of thousands of
//! segs that no sampled line divides, such as a huge convex room).
//!
//! A line through a set's seg divides the set exactly when some seg would go to its left
//! (`Builder::classify` gives Left or Split): its own seg already goes right. A seg goes left
//! when one of its ends lies left of the line beyond the on-line tolerance, or when it lies on
//! the line running the other way. The first is a question about the farthest vertex on the
//! left, which is a vertex of the set's convex hull: the vertex that maximises a linear
//! function over a convex polygon is found by climbing along its edges, and the candidate
//! lines sorted by direction move that vertex round the hull once in all. The second holds
//! for the other side of a two-sided line, and for another linedef on exactly the same line
//! facing the other way, which a table of the set's lines by their exact equation finds.
//! (Segs within the tolerance of a line that is not exactly theirs, facing it, are left to the
//! sampled search: only crafted maps have them.)

use std::collections::HashMap;

use super::{Builder, Partition, Seg};

/// A linedef's line by its exact equation: the reduced direction with a canonical sign
/// (x positive, or x zero and y positive) and `ux * y - uy * x` on the line.
type LineKey = (i64, i64, i128);

impl Builder<'_> {
    /// Those of `lines` (one (linedef, side) a linedef of `segs`) whose partition divides
    /// `segs`, in the order given.
    pub(super) fn dividing_lines(&self, segs: &[Seg], lines: &[(u32, u8)]) -> Vec<(u32, u8)> {
        let hull = self.hull(segs);
        // The directions present on each exact line: bit 0 along its canonical direction,
        // bit 1 against it.
        let mut directions: HashMap<LineKey, u8> = HashMap::new();
        for s in segs {
            if let Some((key, along)) = self.line_key(s.line) {
                *directions.entry(key).or_insert(0) |= direction_bit(along == (s.side == 0));
            }
        }
        let mut candidates: Vec<(f64, usize, Partition)> = lines
            .iter()
            .enumerate()
            .map(|(i, &(line, side))| (i, self.partition(line, side)))
            .filter(|(_, p)| p.dx != 0 || p.dy != 0)
            // The angle of the left normal (-dy, dx), which the farthest left vertex follows.
            .map(|(i, p)| ((p.dx as f64).atan2(-p.dy as f64), i, p))
            .collect();
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut divides = vec![false; lines.len()];
        let mut at = 0;
        for (_, i, p) in &candidates {
            let (line, side) = lines[*i];
            let opposite = self.line_key(line).is_some_and(|(key, along)| {
                let bits = directions.get(&key).copied().unwrap_or(0);
                bits & direction_bit(along != (side == 0)) != 0
            });
            at = self.farthest_left(&hull, p, at);
            let left = hull.get(at).is_some_and(|&v| p.side_of(self.vertex(v)) > 0);
            divides[*i] = opposite || left;
        }
        lines.iter().zip(divides).filter(|(_, d)| *d).map(|(&l, _)| l).collect()
    }

    /// The convex hull of the segs' vertices, counter-clockwise, without collinear points
    /// (Andrew's monotone chain, exact in integers).
    fn hull(&self, segs: &[Seg]) -> Vec<u32> {
        let mut points: Vec<u32> = segs.iter().flat_map(|s| [s.v1, s.v2]).collect();
        let key = |&v: &u32| {
            let p = self.vertex(v);
            (p.x, p.y)
        };
        points.sort_unstable_by_key(key);
        points.dedup_by_key(|v| key(v));
        if points.len() < 3 {
            return points;
        }
        let turn = |o: u32, a: u32, b: u32| {
            let (o, a, b) = (self.vertex(o), self.vertex(a), self.vertex(b));
            let (ax, ay) = (a.x as i64 - o.x as i64, a.y as i64 - o.y as i64);
            let (bx, by) = (b.x as i64 - o.x as i64, b.y as i64 - o.y as i64);
            ax as i128 * by as i128 - ay as i128 * bx as i128
        };
        let mut hull: Vec<u32> = Vec::with_capacity(points.len() + 1);
        // The lower chain left to right, then the upper one back; each chain's last point
        // starts the next.
        for chain in [points.clone(), points.iter().rev().copied().collect()] {
            let start = hull.len();
            for p in chain {
                while hull.len() >= start + 2
                    && turn(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0
                {
                    hull.pop();
                }
                hull.push(p);
            }
            hull.pop();
        }
        hull
    }

    /// The index in `hull` of the vertex farthest left of `p`, climbing from index `from`:
    /// over a convex polygon a linear function has one maximum (at most two equal vertices),
    /// so stepping to a better neighbour until none is better ends there.
    fn farthest_left(&self, hull: &[u32], p: &Partition, from: usize) -> usize {
        let n = hull.len();
        if n == 0 {
            return 0;
        }
        let value = |i: usize| p.cross(self.vertex(hull[i]));
        let mut at = from.min(n - 1);
        // Each step gains, so at most n steps.
        for _ in 0..n {
            let (next, prev) = ((at + 1) % n, (at + n - 1) % n);
            if value(next) > value(at) {
                at = next;
            } else if value(prev) > value(at) {
                at = prev;
            } else {
                break;
            }
        }
        at
    }

    /// Linedef `line`'s [`LineKey`] and whether it runs along the key's direction (`None` for
    /// a zero-length line, which has no segs).
    fn line_key(&self, line: u32) -> Option<(LineKey, bool)> {
        let l = self.lines.get(line as usize)?;
        let (a, b) = (self.vertex(l.v1), self.vertex(l.v2));
        let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
        let g = gcd(dx.unsigned_abs(), dy.unsigned_abs());
        if g == 0 {
            return None;
        }
        // |dx|, |dy| < 2^33, so the reduced values fit.
        let (mut ux, mut uy) = (dx / g as i64, dy / g as i64);
        let along = ux > 0 || (ux == 0 && uy > 0);
        if !along {
            (ux, uy) = (-ux, -uy);
        }
        let c = ux as i128 * a.y as i128 - uy as i128 * a.x as i128;
        Some(((ux, uy, c), along))
    }
}

fn direction_bit(along: bool) -> u8 {
    if along {
        1
    } else {
        2
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
