//! A vanilla-style node builder for maps saved without `SEGS`/`SSECTORS`/`NODES` (editors can
//! skip the node builder, and UDMF maps may come without `ZNODES`).
//!
//! It works as the classic builders (id's BSP, glBSP, ZDBSP) do: segs start as the linedef
//! sides that exist; each node's partition is the line of one of its segs, chosen by a cost
//! that weighs split segs heavily plus the imbalance between the two sides; segs crossing the
//! partition are cut at a new vertex rounded to the nearest [`Fixed`]; a set of segs that no
//! seg line divides is convex and becomes a subsector. No minisegs are made, so subsectors are
//! the open kind vanilla draws.
//!
//! Side tests are exact integer arithmetic on 16.16 coordinates, with a small tolerance so a
//! rounded split vertex still counts as lying on the partition that made it: that is what
//! stops a used partition from being chosen again below it, so the tree depth is bounded by
//! the number of distinct lines. The seg count is capped as well, so no input can make the
//! builder run away.

use std::collections::HashMap;

use super::{BspChild, BspNode, BspSeg, BspSubsector, Fixed, NodeFormat, NodeSet, NodeVertex};
use crate::formats::{FormatError, Result};

mod dividers;
#[cfg(test)]
mod tests;

/// One linedef as the builder sees it; its index in the slice is its linedef number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildLine {
    pub v1: u32,
    pub v2: u32,
    /// Sector of the front (right) sidedef; `None` when the side does not exist.
    pub front_sector: Option<u32>,
    /// Sector of the back (left) sidedef.
    pub back_sector: Option<u32>,
}

/// Cost of cutting one seg in two, against one seg of imbalance. Classic builders weigh a
/// split several times a unit of imbalance (Doomsday's glBSP-derived builder uses 7, ZDBSP 8):
/// splits add segs and vertices, imbalance only adds depth.
const SPLIT_COST: i64 = 8;
/// Extra cost of a partition that is neither horizontal nor vertical: its split vertices are
/// rounded off the line, and vanilla's point-on-side answers axis-aligned lines exactly.
const DIAGONAL_COST: i64 = 4;
/// Partition lines tried per node before the best is taken. Sampling keeps the build close to
/// linear in the seg count for large maps; when no sampled line divides the set, the lines
/// that divide it are found without trying each (`dividers`), and as many of those are tried.
const MAX_CANDIDATES: usize = 64;
/// Distance (in [`Fixed`] units, 1/1024 map unit) within which a vertex counts as on a line.
/// Split vertices are rounded by at most half a unit on each axis, well inside it.
const ON_LINE: f64 = 64.0;
/// Segs the builder may add by splitting, beyond the linedef sides: a bound on work and
/// memory for crafted input. Real maps split a small fraction of their segs (at most 0.31 of
/// them over Freedoom's 68 maps and the community maps), so the budget is proportional to the
/// map with a small floor: a fixed floor of tens of thousands let a fuzzed 2700-seg map grow
/// thirty-fold, and classifying that many segs took a second.
const fn split_budget(initial_segs: usize) -> usize {
    initial_segs.saturating_mul(4).saturating_add(4096)
}

/// Seg classifications (the builder's unit of work) allowed for a map of `initial_segs`
/// segs: four times `MAX_CANDIDATES * n * log2(n)`, at least [`MIN_WORK`]. A node classifies
/// its set against at most two samples of lines and a balanced tree puts each seg in about
/// log2(n) sets; Freedoom's 68 maps and the community maps use at most a sixth of the budget.
/// It stops trees that degenerate into peeling off one seg at a time, which costs the square
/// of the seg count however few splits it makes (a round pillar of a thousand sides standing
/// alone: 32 million classifications).
fn work_budget(initial_segs: usize) -> u64 {
    let n = initial_segs as u64;
    let log2 = u64::from(u64::BITS - n.leading_zeros());
    (4 * MAX_CANDIDATES as u64).saturating_mul(n).saturating_mul(log2).max(MIN_WORK)
}

/// The least work any map may use: small maps keep room for odd shapes (a lone round pillar
/// of a few hundred sides peels within it).
const MIN_WORK: u64 = 1 << 22;

/// Builds a BSP tree for a map without nodes. `vertices` are the map's own vertices (segs
/// index them, then the split vertices in [`NodeSet::extra_vertices`]); `file` and `map` name
/// the map in errors.
pub fn build_nodes(
    file: &str,
    map: &str,
    vertices: &[NodeVertex],
    lines: &[BuildLine],
) -> Result<NodeSet> {
    let mut b = Builder::new(file, map, vertices, lines)?;
    let segs = b.initial_segs()?;
    b.build(segs)
}

/// [`build_nodes`] and the number of seg classifications it made: the builder's unit of work.
#[cfg(test)]
fn build_nodes_counted(vertices: &[NodeVertex], lines: &[BuildLine]) -> (Result<NodeSet>, u64) {
    let mut b = match Builder::new("test.wad", "TEST", vertices, lines) {
        Ok(b) => b,
        Err(e) => return (Err(e), 0),
    };
    let built = b.initial_segs().and_then(|segs| b.build(segs));
    (built, b.classify_calls.get())
}

/// A piece of one linedef side; its sector is on its right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    v1: u32,
    v2: u32,
    line: u32,
    side: u8,
}

/// A partition line through a linedef, directed as one of its sides.
#[derive(Clone, Copy, Debug)]
struct Partition {
    x: i64,
    y: i64,
    dx: i64,
    dy: i64,
    len: f64,
    /// Cross products up to this size are within [`ON_LINE`] of the line, and from `far` on
    /// beyond it, whatever the float rounding: [`Partition::side_of`] then needs no division
    /// (converting a 128-bit product to a float and dividing was a third of a node build).
    near: i128,
    far: i128,
    line: u32,
    side: u8,
}

impl Partition {
    fn new(x: i64, y: i64, dx: i64, dy: i64, line: u32, side: u8) -> Partition {
        let len = ((dx as f64).powi(2) + (dy as f64).powi(2)).sqrt();
        // A cross product a whole unit inside or outside ON_LINE * len stays on its side of
        // ON_LINE after rounding to a float and dividing by len (len < 2^32, so 1 / len is far
        // above the rounding's relative 2^-52): side_of answers as the division would.
        let edge = ON_LINE * len;
        Partition {
            x,
            y,
            dx,
            dy,
            len,
            near: edge.floor() as i128 - 1,
            far: edge.ceil() as i128 + 1,
            line,
            side,
        }
    }

    /// Twice the signed area of (origin, origin + d, v): positive on the left.
    fn cross(&self, v: NodeVertex) -> i128 {
        self.dx as i128 * (v.y as i64 - self.y) as i128
            - self.dy as i128 * (v.x as i64 - self.x) as i128
    }

    /// Signed distance in [`Fixed`] units: -1 right, 1 left, 0 within [`ON_LINE`].
    fn side_of(&self, v: NodeVertex) -> i8 {
        let cross = self.cross(v);
        if cross.abs() <= self.near {
            return 0;
        }
        if cross.abs() >= self.far {
            return if cross < 0 { -1 } else { 1 };
        }
        let d = cross as f64 / self.len;
        if d < -ON_LINE {
            -1
        } else if d > ON_LINE {
            1
        } else {
            0
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Right,
    Left,
    Split,
}

/// A set of segs still to be turned into a subtree, and where the result hangs.
struct Task {
    segs: Vec<Seg>,
    /// Temporary node index and child slot (0 right, 1 left); `None` for the root.
    parent: Option<(usize, usize)>,
}

struct Builder<'a> {
    file: &'a str,
    map: &'a str,
    lines: &'a [BuildLine],
    /// The map's vertices followed by split vertices.
    verts: Vec<NodeVertex>,
    map_vertex_count: usize,
    /// Every vertex position to its first index, so a split landing on an existing vertex
    /// (or the same split made for both sides of a line) reuses it.
    by_position: HashMap<(Fixed, Fixed), u32>,
    /// Per linedef, the generation in which it was last offered as a candidate.
    offered: Vec<u32>,
    generation: u32,
    split_limit: usize,
    splits_left: usize,
    /// [`work_budget`] of the map: `classify_calls` may not pass it.
    work_limit: u64,
    /// Seg classifications made (the cost model the partition search is bounded by).
    classify_calls: std::cell::Cell<u64>,
}

impl<'a> Builder<'a> {
    fn new(
        file: &'a str,
        map: &'a str,
        vertices: &[NodeVertex],
        lines: &'a [BuildLine],
    ) -> Result<Builder<'a>> {
        if u32::try_from(vertices.len()).is_err() || u32::try_from(lines.len()).is_err() {
            return Err(FormatError::new(
                file,
                &structure(map),
                0,
                format!("{} vertices and {} linedefs are too many", vertices.len(), lines.len()),
            ));
        }
        let mut by_position = HashMap::with_capacity(vertices.len());
        for (i, v) in vertices.iter().enumerate() {
            by_position.entry((v.x, v.y)).or_insert(i as u32);
        }
        Ok(Builder {
            file,
            map,
            lines,
            verts: vertices.to_vec(),
            map_vertex_count: vertices.len(),
            by_position,
            offered: vec![0; lines.len()],
            generation: 0,
            split_limit: 0,
            splits_left: 0,
            work_limit: 0,
            classify_calls: std::cell::Cell::new(0),
        })
    }

    fn error(&self, message: String) -> FormatError {
        FormatError::new(self.file, &structure(self.map), 0, message)
    }

    /// One seg per existing side of every linedef of non-zero length.
    fn initial_segs(&mut self) -> Result<Vec<Seg>> {
        let n = self.map_vertex_count;
        let mut segs = Vec::with_capacity(self.lines.len().saturating_mul(2));
        for (i, l) in self.lines.iter().enumerate() {
            for v in [l.v1, l.v2] {
                if v as usize >= n {
                    return Err(self.error(format!(
                        "linedef {i} uses vertex {v}, but the map has {n} vertices"
                    )));
                }
            }
            // A zero-length line has no direction to partition by and nothing to draw.
            if self.verts[l.v1 as usize] == self.verts[l.v2 as usize] {
                continue;
            }
            let line = i as u32;
            if l.front_sector.is_some() {
                segs.push(Seg { v1: l.v1, v2: l.v2, line, side: 0 });
            }
            if l.back_sector.is_some() {
                segs.push(Seg { v1: l.v2, v2: l.v1, line, side: 1 });
            }
        }
        if segs.is_empty() {
            return Err(self.error(
                "no linedef of non-zero length has a sidedef, so there is nothing to build \
                 nodes from"
                    .to_string(),
            ));
        }
        self.split_limit = split_budget(segs.len());
        // Seg and subsector numbers are 32-bit.
        if u32::try_from(segs.len().saturating_add(self.split_limit)).is_err() {
            return Err(self.error(format!("{} linedef sides are too many", segs.len())));
        }
        self.splits_left = self.split_limit;
        self.work_limit = work_budget(segs.len());
        Ok(segs)
    }

    fn build(&mut self, segs: Vec<Seg>) -> Result<NodeSet> {
        let mut out_segs: Vec<BspSeg> = Vec::with_capacity(segs.len());
        let mut subsectors: Vec<BspSubsector> = Vec::new();
        // Nodes in creation order: a parent is always made before its children, so reversing
        // the order puts children first and the root last, as the engines expect.
        let mut nodes: Vec<BspNode> = Vec::new();
        let mut stack = vec![Task { segs, parent: None }];
        while let Some(Task { segs, parent }) = stack.pop() {
            let chosen = self.choose_partition(&segs);
            // Checked per node: one node's search is bounded (two samples of its set).
            if self.classify_calls.get() > self.work_limit {
                return Err(self.error(format!(
                    "choosing partitions took more than {} seg classifications; the map's \
                     lines are too tangled to build nodes for",
                    self.work_limit
                )));
            }
            let child = match chosen {
                None => {
                    let first = out_segs.len() as u32;
                    let num = segs.len() as u32;
                    out_segs.extend(segs.iter().map(|s| self.out_seg(s)));
                    subsectors.push(BspSubsector { first_seg: first, num_segs: num });
                    BspChild::Subsector(subsectors.len() as u32 - 1)
                }
                Some(p) => {
                    let (right, left) = self.split(&p, segs)?;
                    let index = nodes.len();
                    nodes.push(BspNode {
                        x: p.x as Fixed,
                        y: p.y as Fixed,
                        dx: p.dx as Fixed,
                        dy: p.dy as Fixed,
                        bbox: [self.bbox(&right), self.bbox(&left)],
                        children: [BspChild::Subsector(u32::MAX); 2],
                    });
                    stack.push(Task { segs: left, parent: Some((index, 1)) });
                    stack.push(Task { segs: right, parent: Some((index, 0)) });
                    BspChild::Node(index as u32)
                }
            };
            if let Some((node, slot)) = parent {
                nodes[node].children[slot] = child;
            }
        }
        let last = nodes.len().saturating_sub(1);
        let flip = |c: BspChild| match c {
            BspChild::Node(n) => BspChild::Node((last - n as usize) as u32),
            s => s,
        };
        nodes.reverse();
        for n in &mut nodes {
            n.children = n.children.map(flip);
        }
        let extra_vertices = self.verts.split_off(self.map_vertex_count);
        Ok(NodeSet { format: NodeFormat::Built, extra_vertices, segs: out_segs, subsectors, nodes })
    }

    fn vertex(&self, v: u32) -> NodeVertex {
        self.verts[v as usize]
    }

    /// The line through linedef `line`, directed as its side `side` runs.
    fn partition(&self, line: u32, side: u8) -> Partition {
        let l = self.lines[line as usize];
        let (a, b) = if side == 0 { (l.v1, l.v2) } else { (l.v2, l.v1) };
        let (a, b) = (self.vertex(a), self.vertex(b));
        let (mut dx, mut dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
        // Nodes store the direction in 32 bits; halving keeps the line (exactly, for lines
        // between whole map units) when a very long one does not fit.
        while Fixed::try_from(dx).is_err() || Fixed::try_from(dy).is_err() {
            dx /= 2;
            dy /= 2;
        }
        Partition::new(a.x as i64, a.y as i64, dx, dy, line, side)
    }

    fn classify(&self, p: &Partition, s: &Seg) -> Class {
        self.classify_calls.set(self.classify_calls.get().wrapping_add(1));
        // Pieces of the partition's own linedef lie on it even where rounding moved them.
        let (a, b) = if s.line == p.line {
            (0, 0)
        } else {
            (p.side_of(self.vertex(s.v1)), p.side_of(self.vertex(s.v2)))
        };
        if a == 0 && b == 0 {
            // On the line: the seg goes where its sector is, the right when it runs along the
            // partition, as vanilla's point-on-side puts a point's subsector.
            let same = if s.line == p.line {
                s.side == p.side
            } else {
                let (v1, v2) = (self.vertex(s.v1), self.vertex(s.v2));
                let (sx, sy) = (v2.x as i64 - v1.x as i64, v2.y as i64 - v1.y as i64);
                p.dx as i128 * sx as i128 + p.dy as i128 * sy as i128 > 0
            };
            return if same { Class::Right } else { Class::Left };
        }
        if a <= 0 && b <= 0 {
            Class::Right
        } else if a >= 0 && b >= 0 {
            Class::Left
        } else {
            Class::Split
        }
    }

    /// The cost of partitioning `segs` by `p`, or `None` when one side would be empty (the
    /// line divides nothing) or the cost cannot beat `best`.
    fn evaluate(&self, p: &Partition, segs: &[Seg], best: Option<i64>) -> Option<i64> {
        let (mut right, mut left, mut splits) = (0i64, 0i64, 0i64);
        let base = if p.dx != 0 && p.dy != 0 { DIAGONAL_COST } else { 0 };
        for s in segs {
            match self.classify(p, s) {
                Class::Right => right += 1,
                Class::Left => left += 1,
                Class::Split => {
                    splits += 1;
                    if best.is_some_and(|b| base + splits * SPLIT_COST >= b) {
                        return None;
                    }
                }
            }
        }
        if left + splits == 0 || right + splits == 0 {
            return None;
        }
        let cost = base + splits * SPLIT_COST + (right - left).abs();
        if best.is_some_and(|b| cost >= b) {
            return None;
        }
        Some(cost)
    }

    /// The partition for `segs`, or `None` when they are convex (no seg line divides them).
    fn choose_partition(&mut self, segs: &[Seg]) -> Option<Partition> {
        // One candidate per linedef: both sides give the same line.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.offered.iter_mut().for_each(|g| *g = 0);
            self.generation = 1;
        }
        let mut lines: Vec<(u32, u8)> = Vec::new();
        for s in segs {
            let g = &mut self.offered[s.line as usize];
            if *g != self.generation {
                *g = self.generation;
                lines.push((s.line, s.side));
            }
        }
        // A sample spread evenly over the set (every line of a small set).
        let n = lines.len();
        let count = MAX_CANDIDATES.min(n);
        let mut best: Option<(i64, Partition)> = None;
        for k in 0..count {
            self.consider(lines[k * n / count], segs, &mut best);
        }
        // No sampled line divides a larger set: it is convex unless one of the others does.
        // Trying each would cost the square of the set's size (a huge convex room, or a
        // crafted map, took seconds), so the dividing lines are found geometrically and a
        // sample of them is tried.
        if best.is_none() && n > count {
            let dividers = self.dividing_lines(segs, &lines);
            let count = MAX_CANDIDATES.min(dividers.len());
            for k in 0..count {
                self.consider(dividers[k * dividers.len() / count], segs, &mut best);
            }
        }
        best.map(|(_, p)| p)
    }

    fn consider(&self, (line, side): (u32, u8), segs: &[Seg], best: &mut Option<(i64, Partition)>) {
        let p = self.partition(line, side);
        if p.dx == 0 && p.dy == 0 {
            return;
        }
        if let Some(cost) = self.evaluate(&p, segs, best.as_ref().map(|b| b.0)) {
            *best = Some((cost, p));
        }
    }

    /// Divides `segs` into the right and left of `p`, cutting those that cross it.
    fn split(&mut self, p: &Partition, segs: Vec<Seg>) -> Result<(Vec<Seg>, Vec<Seg>)> {
        let mut right = Vec::with_capacity(segs.len());
        let mut left = Vec::with_capacity(segs.len());
        for s in segs {
            match self.classify(p, &s) {
                Class::Right => right.push(s),
                Class::Left => left.push(s),
                Class::Split => {
                    let (a, b) = (self.vertex(s.v1), self.vertex(s.v2));
                    let (ca, cb) = (p.cross(a), p.cross(b));
                    let at = intersection(a, b, ca, cb);
                    let a_right = ca < 0;
                    if at == a || at == b {
                        // Cannot happen with both ends off the line by more than rounding, but
                        // a zero-length piece must never be made: keep the seg whole, on the
                        // side most of it lies.
                        let right_side = if at == a { !a_right } else { a_right };
                        if right_side {
                            right.push(s)
                        } else {
                            left.push(s)
                        }
                        continue;
                    }
                    if self.splits_left == 0 {
                        return Err(self.error(format!(
                            "partitions cut more than {} segs; the map's lines are too tangled \
                             to build nodes for",
                            self.split_limit
                        )));
                    }
                    self.splits_left -= 1;
                    let x = self.intern(at)?;
                    let first = Seg { v2: x, ..s };
                    let second = Seg { v1: x, ..s };
                    if a_right {
                        right.push(first);
                        left.push(second);
                    } else {
                        left.push(first);
                        right.push(second);
                    }
                }
            }
        }
        Ok((right, left))
    }

    /// The index of a vertex at `v`, adding it when it is new.
    fn intern(&mut self, v: NodeVertex) -> Result<u32> {
        if let Some(&i) = self.by_position.get(&(v.x, v.y)) {
            return Ok(i);
        }
        let i = u32::try_from(self.verts.len())
            .map_err(|_| self.error("too many split vertices".to_string()))?;
        self.verts.push(v);
        self.by_position.insert((v.x, v.y), i);
        Ok(i)
    }

    /// Top, bottom, left, right of the segs' vertices.
    fn bbox(&self, segs: &[Seg]) -> [Fixed; 4] {
        let mut b = [Fixed::MIN, Fixed::MAX, Fixed::MAX, Fixed::MIN];
        for s in segs {
            for v in [self.vertex(s.v1), self.vertex(s.v2)] {
                b = [b[0].max(v.y), b[1].min(v.y), b[2].min(v.x), b[3].max(v.x)];
            }
        }
        b
    }

    fn out_seg(&self, s: &Seg) -> BspSeg {
        let l = self.lines[s.line as usize];
        let (start, end) = if s.side == 0 { (l.v1, l.v2) } else { (l.v2, l.v1) };
        let (start, end) = (self.vertex(start), self.vertex(end));
        let v1 = self.vertex(s.v1);
        let offset = ((v1.x as f64 - start.x as f64).hypot(v1.y as f64 - start.y as f64))
            .round()
            .min(Fixed::MAX as f64) as Fixed;
        BspSeg {
            v1: s.v1,
            v2: s.v2,
            linedef: Some(s.line),
            side: s.side,
            // The linedef's direction rather than the piece's: rounded split vertices would
            // tilt short pieces, and every piece of a wall should face the same way.
            angle: bam(end.x as f64 - start.x as f64, end.y as f64 - start.y as f64),
            offset,
            partner: None,
        }
    }
}

fn structure(map: &str) -> String {
    format!("map {map} (building nodes)")
}

/// Where the segment a→b crosses the line whose cross products at a and b are `ca` and `cb`
/// (of opposite signs), rounded to the nearest [`Fixed`].
fn intersection(a: NodeVertex, b: NodeVertex, ca: i128, cb: i128) -> NodeVertex {
    let den = ca - cb;
    let along = |from: Fixed, to: Fixed| {
        let d = (to as i128 - from as i128) * ca;
        // Between a and b, so it fits in a Fixed.
        (from as i128 + div_round(d, den)) as Fixed
    };
    NodeVertex { x: along(a.x, b.x), y: along(a.y, b.y) }
}

/// `num / den` rounded to the nearest integer, halves away from zero; `den` is not zero.
fn div_round(num: i128, den: i128) -> i128 {
    let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
    if num >= 0 {
        (num + den / 2) / den
    } else {
        -((-num + den / 2) / den)
    }
}

/// Binary angle of a direction: 0 east, 0x4000_0000 north.
fn bam(dx: f64, dy: f64) -> u32 {
    let turns = dy.atan2(dx) / std::f64::consts::TAU;
    ((turns * 4_294_967_296.0).round() as i64).rem_euclid(1 << 32) as u32
}
