//! A coarse map of what near solid triangles hide, for dropping runs of triangles behind them
//! before the rasteriser sees them.
//!
//! On a software rasteriser every triangle in the view frustum costs vertex shading, set-up and
//! a depth test per pixel even when a wall in front hides it: a level of closed rooms draws all
//! of them. The map holds, per cell of a low-resolution grid over the screen, the farthest
//! view distance at which some already drawn solid triangle covers the whole cell. A box whose
//! nearest point lies beyond that distance in every cell it touches is hidden: every fragment
//! it could produce fails the depth test against that triangle. Only whole-cell coverage and
//! far distances are recorded, so the map errs towards drawing: the picture is the same.

use std::collections::HashMap;
use std::ops::Range;

use glam::{Mat4, Vec2, Vec3, Vec4};

/// Cell size in pixels: 8 x 8 pixel centres, one bit each in a cell's coverage mask.
const CELL: usize = 8;
/// Corners of a polygon the map records at most.
pub const MAX_CORNERS: usize = 8;
/// How far inside an edge a pixel centre must lie to count as covered, in pixels, so that a
/// centre on an edge (which the rasteriser's tie rule may give to a triangle not recorded
/// here) is never counted.
const INSIDE_MARGIN: f32 = 0.01;

pub struct OcclusionMap {
    width: usize,
    height: usize,
    columns: usize,
    rows: usize,
    /// Per cell, which of its pixel centres recorded triangles cover (bit y * 8 + x).
    covered: Vec<u64>,
    /// Per cell, the farthest view distance (clip w) of the triangles recorded there.
    far: Vec<f32>,
    /// Per cell, `far` where recorded triangles cover all its centres, and infinity where
    /// they do not: the one number a box's test reads.
    full_far: Vec<f32>,
    /// Centres on an edge of a recorded triangle whose other side is not recorded yet: cell
    /// and bits, by the edge's end points.
    seams: HashMap<EdgeKey, Vec<(u32, u64)>>,
    view_proj: Mat4,
    /// Clip w below which the GPU clips (the projection's near plane).
    near: f32,
}

impl OcclusionMap {
    /// An empty map for a `width` x `height` screen seen through `view_proj`, whose clip w is
    /// the view distance and clips below `near`.
    pub fn new(view_proj: Mat4, width: u32, height: u32, near: f32) -> OcclusionMap {
        let mut map = OcclusionMap {
            width: 0,
            height: 0,
            columns: 0,
            rows: 0,
            covered: Vec::new(),
            far: Vec::new(),
            full_far: Vec::new(),
            seams: HashMap::new(),
            view_proj,
            near,
        };
        map.reset(view_proj, width, height, near);
        map
    }

    /// Empties the map for a new view.
    pub fn reset(&mut self, view_proj: Mat4, width: u32, height: u32, near: f32) {
        self.width = width.max(1) as usize;
        self.height = height.max(1) as usize;
        self.columns = self.width.div_ceil(CELL);
        self.rows = self.height.div_ceil(CELL);
        let cells = self.columns * self.rows;
        self.covered.clear();
        self.covered.resize(cells, 0);
        self.far.clear();
        self.far.resize(cells, 0.0);
        self.full_far.clear();
        self.full_far.resize(cells, f32::INFINITY);
        self.seams.clear();
        self.view_proj = view_proj;
        self.near = near;
    }

    /// Where the box `min`..`max` falls on the map and its nearest view distance; `None` when
    /// some corner is nearer than the near plane (it cannot be tested, so it counts as seen).
    pub fn box_extent(&self, min: Vec3, max: Vec3) -> Option<BoxExtent> {
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        let mut nearest = f32::INFINITY;
        // The matrix's columns times each end of each axis, summed per corner in the order
        // the matrix-vector product sums them (so the corners are the same bits): 6
        // products for the box instead of 32.
        let m = &self.view_proj;
        let xs = [m.x_axis * min.x, m.x_axis * max.x];
        let ys = [m.y_axis * min.y, m.y_axis * max.y];
        let zs = [m.z_axis * min.z, m.z_axis * max.z];
        for i in 0..8 {
            let c = xs[i & 1] + ys[(i >> 1) & 1] + zs[i >> 2] + m.w_axis;
            // (NaN, from a degenerate matrix, cannot be tested either.)
            if c.w < self.near || c.w.is_nan() {
                return None;
            }
            let p = self.to_pixels(c);
            lo = lo.min(p);
            hi = hi.max(p);
            nearest = nearest.min(c.w);
        }
        // Cells holding a pixel centre (x + 0.5) the box's projection could reach (clamped,
        // so that truncation is the floor).
        let cell =
            |v: f32, cells: usize| ((v - 0.5) / CELL as f32).clamp(0.0, cells as f32) as usize;
        Some(BoxExtent {
            cells: [
                cell(lo.x, self.columns),
                cell(lo.y, self.rows),
                (cell(hi.x, self.columns) + 1).min(self.columns),
                (cell(hi.y, self.rows) + 1).min(self.rows),
            ],
            nearest,
        })
    }

    /// Whether a box with `extent` is hidden behind the triangles recorded so far.
    pub fn hides(&self, extent: &BoxExtent) -> bool {
        let [x0, y0, x1, y1] = extent.cells;
        if x0 >= x1 || y0 >= y1 {
            return false;
        }
        // A margin so a box lying in its occluder's plane is never taken for hidden.
        let limit = extent.nearest * (1.0 - 1e-4);
        (y0..y1).all(|y| {
            let row = &self.full_far[y * self.columns..][x0..x1];
            // Without an early exit, so that the row is compared a vector at a time.
            row.iter().fold(true, |hidden, &far| hidden & (far < limit))
        })
    }

    /// Records the pixel centres the triangle `a`, `b`, `c` (render space, drawn front face
    /// only) covers, as the rasteriser will (see [`Self::add_polygon`]).
    pub fn add_triangle(&mut self, a: Vec3, b: Vec3, c: Vec3) {
        self.add_polygon(&[a, b, c]);
    }

    /// Records the pixel centres that the convex polygon `corners` (render space, at most
    /// [`MAX_CORNERS`], in one plane; drawn front face only) covers, as the rasteriser will
    /// draw the triangles it is made of, edge to edge.
    ///
    /// A centre within [`INSIDE_MARGIN`] of an edge may fall to either side in the
    /// rasteriser's fixed point: it counts only once the polygon on the edge's other side is
    /// recorded too (the rasteriser gives it to one of the two; edges of shared vertices meet
    /// exactly), so the seams of quads and grids do not leave holes in the map. Inside the
    /// polygon the rasteriser's tie rule gives a centre on a diagonal to one of its triangles,
    /// so a polygon costs the map its outline only.
    pub fn add_polygon(&mut self, corners: &[Vec3]) {
        self.record_polygon(corners, true);
    }

    /// [`Self::add_polygon`]; with `whole_cells`, the cells of a row that lie wholly inside
    /// the polygon are found from where its outline crosses the row's first and last centres
    /// and recorded without testing each edge in each of them.
    fn record_polygon(&mut self, corners: &[Vec3], whole_cells: bool) {
        let n = corners.len();
        if !(3..=MAX_CORNERS).contains(&n) {
            return;
        }
        let mut clip = [Vec4::ZERO; MAX_CORNERS];
        for (c, p) in clip.iter_mut().zip(corners) {
            *c = self.view_proj * p.extend(1.0);
            if c.w < self.near || c.w.is_nan() {
                return;
            }
        }
        let clip = &clip[..n];
        let mut px = [Vec2::ZERO; MAX_CORNERS];
        for (p, c) in px.iter_mut().zip(clip) {
            *p = self.to_pixels(*c);
        }
        let px = &px[..n];
        // In pixel coordinates y runs down: a polygon facing the viewer (counter-clockwise in
        // device coordinates) is clockwise here. Back faces are culled and hide nothing.
        let area = (px[1] - px[0]).perp_dot(px[2] - px[0]);
        let winding: f32 = (0..n).map(|i| px[i].perp_dot(px[(i + 1) % n])).sum();
        if area >= 0.0 || area.is_nan() || winding >= 0.0 || winding.is_nan() {
            return;
        }
        // Signed distances to the edges in pixels, positive inside.
        let mut edges: Edges = [(Vec2::ZERO, 0.0); MAX_CORNERS];
        for (e, edge) in edges.iter_mut().enumerate().take(n) {
            let (p, q) = (px[e], px[(e + 1) % n]);
            let d = q - p;
            let normal = Vec2::new(d.y, -d.x) / d.length();
            *edge = (normal, -normal.dot(p));
        }
        let edges = &edges[..n];
        let distance = |e: usize, at: Vec2| edges[e].0.dot(at) + edges[e].1;
        // 1/w is affine in screen space (the polygon is flat): g0 + gx x + gy y through its
        // first three corners.
        let inv_w = [0, 1, 2].map(|k| 1.0 / clip[k].w);
        let (e1, e2) = (px[1] - px[0], px[2] - px[0]);
        let (d1, d2) = (inv_w[1] - inv_w[0], inv_w[2] - inv_w[0]);
        let gx = (d1 * e2.y - d2 * e1.y) / area;
        let gy = (d2 * e1.x - d1 * e2.x) / area;
        let g0 = inv_w[0] - gx * px[0].x - gy * px[0].y;
        let plane = |at: Vec2| g0 + gx * at.x + gy * at.y;
        // Over a cell's centres an affine function's least and greatest values lie at
        // corners: offsets from its first centre.
        let span = (CELL - 1) as f32;
        let low = |a: f32, b: f32| (a * span).min(0.0) + (b * span).min(0.0);
        let high = |a: f32, b: f32| (a * span).max(0.0) + (b * span).max(0.0);
        let edge_low: [f32; MAX_CORNERS] =
            std::array::from_fn(|e| edges.get(e).map_or(0.0, |(n, _)| low(n.x, n.y)));
        let edge_high: [f32; MAX_CORNERS] =
            std::array::from_fn(|e| edges.get(e).map_or(0.0, |(n, _)| high(n.x, n.y)));
        let plane_low = low(gx, gy);
        // A plane's distance over the polygon lies between its corners' distances.
        let nearest = clip.iter().fold(f32::INFINITY, |m, c| m.min(c.w));
        let mut on_edge: [Vec<(u32, u64)>; MAX_CORNERS] = Default::default();
        let lo = px.iter().fold(Vec2::INFINITY, |m, &p| m.min(p));
        let hi = px.iter().fold(Vec2::NEG_INFINITY, |m, &p| m.max(p));
        // The cell holding pixel centre v (clamped to the map): truncation is the floor of
        // the clamped value, without libm's floorf.
        let first = |v: f32, cells: usize| (((v - 0.5) / CELL as f32).max(0.0) as usize).min(cells);
        let (cx0, cy0) = (first(lo.x, self.columns), first(lo.y, self.rows));
        let (cx1, cy1) = (first(hi.x, self.columns) + 1, first(hi.y, self.rows) + 1);
        for cy in cy0..cy1.min(self.rows) {
            // The cells of this row the polygon reaches: its x extent between the row's
            // first and last centres.
            let top = (cy * CELL) as f32 + 0.5;
            let Some((left, right)) = x_extent(px, top, top + (CELL - 1) as f32) else {
                continue;
            };
            let row_x0 = cx0.max(first(left, self.columns));
            let row_x1 = cx1.min(first(right, self.columns) + 1);
            let inside = if whole_cells { inner_cells(px, top) } else { 0..0 };
            for cx in row_x0..row_x1.min(self.columns) {
                let i = cy * self.columns + cx;
                let present = if cx + 1 < self.columns && cy + 1 < self.rows {
                    u64::MAX
                } else {
                    self.present(cx, cy)
                };
                let full = self.covered[i] | !present == u64::MAX;
                if full && self.far[i] <= nearest {
                    // No part of this polygon is nearer than what the cell holds.
                    continue;
                }
                let s0 = Vec2::new((cx * CELL) as f32 + 0.5, (cy * CELL) as f32 + 0.5);
                if inside.contains(&cx) {
                    // Every centre is inside: the polygon alone covers the cell.
                    let least = plane(s0) + plane_low;
                    let far = if least > 0.0 { 1.0 / least } else { f32::INFINITY };
                    if !(full && far >= self.far[i]) {
                        self.covered[i] = u64::MAX;
                        self.far[i] = far;
                        self.full_far[i] = far;
                    }
                    continue;
                }
                // The edges' distances at the cell's first pixel centre.
                let d: [f32; MAX_CORNERS] =
                    std::array::from_fn(|e| if e < n { distance(e, s0) } else { f32::INFINITY });
                if (0..n).any(|e| d[e] + edge_high[e] <= -INSIDE_MARGIN) {
                    continue;
                }
                // The mask, the centres on each edge, and the least 1/w (the farthest point)
                // of the centres recorded in the cell.
                let (mask, pending, least) = if (0..n).all(|e| d[e] + edge_low[e] >= INSIDE_MARGIN)
                {
                    (present, [0; MAX_CORNERS], plane(s0) + plane_low)
                } else if full {
                    // Partial coverage adds nothing to a full cell.
                    continue;
                } else {
                    // Edges wholly on the inside of the cell decide nothing in it.
                    let crossing: [bool; MAX_CORNERS] =
                        std::array::from_fn(|e| e < n && d[e] + edge_low[e] < INSIDE_MARGIN);
                    partial_cell(edges, crossing, s0, present, &plane)
                };
                if mask == 0 && pending.iter().all(|&p| p == 0) {
                    continue;
                }
                let far = if least > 0.0 { 1.0 / least } else { f32::INFINITY };
                if full && far >= self.far[i] {
                    continue;
                }
                if mask == present {
                    // This polygon alone covers the cell: its distance bounds it, whatever
                    // farther polygons recorded there before (untestable boxes come first).
                    self.covered[i] = u64::MAX;
                    self.far[i] = far;
                } else {
                    self.covered[i] |= mask;
                    self.far[i] = self.far[i].max(far);
                }
                let full = self.covered[i] | !present == u64::MAX;
                self.full_far[i] = if full { self.far[i] } else { f32::INFINITY };
                for (list, bits) in on_edge.iter_mut().zip(pending) {
                    if bits != 0 {
                        list.push((i as u32, bits));
                    }
                }
            }
        }
        for (e, list) in on_edge.into_iter().enumerate().take(n) {
            let key = edge_key(px[e], px[(e + 1) % n]);
            match self.seams.remove(&key) {
                // The other side is recorded: both sides' centres on the seam are covered.
                Some(other) => {
                    for (i, bits) in other.into_iter().chain(list) {
                        self.covered[i as usize] |= bits;
                        self.settle(i as usize);
                    }
                }
                None => {
                    if !list.is_empty() {
                        self.seams.insert(key, list);
                    }
                }
            }
        }
    }

    /// Brings cell `i`'s entry in `full_far` up to date with its coverage and distance.
    fn settle(&mut self, i: usize) {
        let (x, y) = (i % self.columns, i / self.columns);
        let full = self.covered[i] | !self.present(x, y) == u64::MAX;
        self.full_far[i] = if full { self.far[i] } else { f32::INFINITY };
    }

    /// The bits of cell (`x`, `y`) whose pixel centres lie on the screen.
    fn present(&self, x: usize, y: usize) -> u64 {
        let across = (self.width - x * CELL).min(CELL);
        let down = (self.height - y * CELL).min(CELL);
        let row = if across == CELL { 0xFF } else { (1u64 << across) - 1 };
        (0..down).fold(0, |m, r| m | (row << (r * CELL)))
    }

    /// Clip position to framebuffer pixels (y down; pixel centres at + 0.5).
    fn to_pixels(&self, c: Vec4) -> Vec2 {
        Vec2::new(
            (c.x / c.w * 0.5 + 0.5) * self.width as f32,
            (0.5 - c.y / c.w * 0.5) * self.height as f32,
        )
    }
}

/// The least and greatest x of the convex polygon `px` between heights `y0` and `y1`, if it
/// reaches them.
fn x_extent(px: &[Vec2], y0: f32, y1: f32) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    let mut take = |x: f32| {
        lo = lo.min(x);
        hi = hi.max(x);
    };
    for (e, &p) in px.iter().enumerate() {
        if (y0..=y1).contains(&p.y) {
            take(p.x);
        }
        let q = px[(e + 1) % px.len()];
        for y in [y0, y1] {
            if (p.y - y) * (q.y - y) < 0.0 {
                take(p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y));
            }
        }
    }
    // Rounding in the crossings must not lose a centre next to the extent.
    (lo <= hi).then_some((lo - 0.01, hi + 0.01))
}

/// How far inside the outline (across and down) a cell's centres must all lie for
/// [`inner_cells`] to count the cell whole: twice [`INSIDE_MARGIN`], so that rounding in the
/// crossings cannot count a centre the edge tests would leave out.
const WHOLE_CELL_MARGIN: f32 = 2.0 * INSIDE_MARGIN;

/// The cells of the cell row whose first centres lie at height `top` that lie wholly inside
/// the convex polygon `px`, every centre at least [`WHOLE_CELL_MARGIN`] from its outline.
///
/// The polygon's left side is convex in y and its right side concave, so over the row's
/// heights (widened by the margin) the inside they share is bounded by the sides' crossings
/// at the two ends. A centre in that band, the margin in from both ends, has a box of the
/// margin's size around it inside the polygon, so its distance to every edge is at least
/// the margin.
fn inner_cells(px: &[Vec2], top: f32) -> Range<usize> {
    let (y0, y1) = (top - WHOLE_CELL_MARGIN, top + (CELL - 1) as f32 + WHOLE_CELL_MARGIN);
    let (Some((l0, r0)), Some((l1, r1))) = (crossings(px, y0), crossings(px, y1)) else {
        return 0..0;
    };
    let (left, right) = (l0.max(l1) + WHOLE_CELL_MARGIN, r0.min(r1) - WHOLE_CELL_MARGIN);
    // Cell x's centres run from 8x + 0.5 to 8x + 7.5: x from the ceiling of the first
    // quotient up to the floor of the second. Clamped at 0 first, so that the rounding is a
    // conversion, not a call to libm (x86-64's baseline has no instruction for it).
    let from = ((left - 0.5) / CELL as f32).max(0.0);
    let to = (right - (CELL as f32 - 0.5)) / CELL as f32;
    if to.is_nan() || to < 0.0 {
        return 0..0;
    }
    let first = from.min(1e9) as usize;
    let first = first + ((first as f32) < from) as usize;
    first..(to.min(1e9) as usize + 1).max(first)
}

/// Where the outline of the convex polygon `px` crosses height `y`: its least and greatest
/// x, if `y` lies strictly between its top and bottom.
fn crossings(px: &[Vec2], y: f32) -> Option<(f32, f32)> {
    let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
    for (e, &p) in px.iter().enumerate() {
        let q = px[(e + 1) % px.len()];
        if (p.y < y) != (q.y < y) {
            let x = p.x + (q.x - p.x) * (y - p.y) / (q.y - p.y);
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    let (top, bottom) =
        px.iter().fold((f32::INFINITY, f32::NEG_INFINITY), |(t, b), p| (t.min(p.y), b.max(p.y)));
    (top < y && y < bottom && lo <= hi).then_some((lo, hi))
}

/// Edges of a polygon: unit normal `n` and offset `k`, so `n · p + k` is the signed distance
/// of `p` in pixels, positive inside.
type Edges = [(Vec2, f32); MAX_CORNERS];

/// The centres of a cell (first centre `s0`, bits `present`) that lie inside the crossing
/// edges, those on one crossing edge (within the margin) and inside the others, per edge,
/// and the least `plane` value among them. Every centre is tested, the cell's 64 at once
/// (vector compares), rather than a row at a time from where its edges cross it.
fn partial_cell(
    edges: &[(Vec2, f32)],
    crossing: [bool; MAX_CORNERS],
    s0: Vec2,
    present: u64,
    plane: &impl Fn(Vec2) -> f32,
) -> (u64, [u64; MAX_CORNERS], f32) {
    const CENTRES: usize = CELL * CELL;
    let at = |l: usize| Vec2::new(s0.x + (l % CELL) as f32, s0.y + (l / CELL) as f32);
    let (xs, ys): ([f32; CENTRES], [f32; CENTRES]) =
        (std::array::from_fn(|l| at(l).x), std::array::from_fn(|l| at(l).y));
    // Per crossing edge, the centres inside it and those on it (bit l: centre l).
    let (mut inside, mut on) = ([u64::MAX; MAX_CORNERS], [0u64; MAX_CORNERS]);
    for (e, &(n, k)) in edges.iter().enumerate().filter(|&(e, _)| crossing[e]) {
        let d: [f32; CENTRES] = std::array::from_fn(|l| n.dot(Vec2::new(xs[l], ys[l])) + k);
        inside[e] = bits(&d.map(|d| d >= INSIDE_MARGIN));
        on[e] = bits(&d.map(|d| d.abs() < INSIDE_MARGIN));
    }
    let all = inside.iter().fold(present, |m, &i| m & i);
    let mut pending = [0u64; MAX_CORNERS];
    let mut recorded = all;
    for e in (0..edges.len()).filter(|&e| crossing[e]) {
        let others = (0..edges.len()).filter(|&o| o != e).fold(present, |m, o| m & inside[o]);
        pending[e] = on[e] & others;
        recorded |= pending[e];
    }
    // Along a row the plane is monotone: its least over the row's recorded centres lies at
    // the first or last of them.
    let mut least = f32::INFINITY;
    for y in 0..CELL {
        let row = (recorded >> (y * CELL)) & 0xFF;
        if row != 0 {
            let (lo, hi) = (row.trailing_zeros() as usize, 63 - row.leading_zeros() as usize);
            least = least.min(plane(at(y * CELL + lo))).min(plane(at(y * CELL + hi)));
        }
    }
    (all, pending, least)
}

/// The lanes of `set` as the bits of a number (lane l: bit l).
#[inline(always)]
fn bits(set: &[bool; CELL * CELL]) -> u64 {
    let mut out = 0u64;
    for (row, lanes) in set.chunks_exact(CELL).enumerate() {
        // A row's eight lanes as bytes of 0 or 1, gathered into the top byte by one multiply:
        // lane j's byte, times bit 7(7 - j) + 7 of the factor, lands on bit 56 + j, and no two
        // products share a bit, so nothing carries.
        let bytes = u64::from_le_bytes(std::array::from_fn(|j| lanes[j] as u8));
        out |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (row * CELL);
    }
    out
}

/// An edge by its end points' exact pixel positions, in either direction: the triangles on
/// its two sides project shared vertices identically.
type EdgeKey = [u32; 4];

fn edge_key(p: Vec2, q: Vec2) -> EdgeKey {
    let (a, b) = ([p.x.to_bits(), p.y.to_bits()], [q.x.to_bits(), q.y.to_bits()]);
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    [a[0], a[1], b[0], b[1]]
}

/// A box's footprint on an [`OcclusionMap`].
pub struct BoxExtent {
    /// Cells x0, y0, x1, y1 (exclusive ends), clamped to the map.
    pub cells: [usize; 4],
    /// The box's nearest view distance.
    pub nearest: f32,
}

impl BoxExtent {
    /// Cells the footprint covers.
    pub fn area(&self) -> usize {
        let [x0, y0, x1, y1] = self.cells;
        x1.saturating_sub(x0) * y1.saturating_sub(y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::CameraPose;
    use glam::DVec3;

    fn map() -> OcclusionMap {
        // Looking down -z from the origin.
        let camera = CameraPose { pos: DVec3::ZERO, yaw: std::f64::consts::FRAC_PI_2, pitch: 0.0 };
        let proj = super::super::frame::projection(1280, 720, 640.0, false).matrix();
        OcclusionMap::new(proj * camera.view_matrix(), 1280, 720, 1.0)
    }

    /// A wall across the view at distance `d`, `half` wide each way, front face to the eye.
    fn wall(m: &mut OcclusionMap, d: f32, half: f32) {
        let (l, r) = (-half, half);
        let p = |x: f32, y: f32| Vec3::new(x, y, -d);
        m.add_triangle(p(l, -half), p(r, -half), p(r, half));
        m.add_triangle(p(l, -half), p(r, half), p(l, half));
    }

    #[test]
    fn a_wall_hides_what_is_behind_it_and_only_that() {
        let mut m = map();
        let behind = m.box_extent(Vec3::new(-10.0, -10.0, -220.0), Vec3::new(10.0, 10.0, -200.0));
        let behind = behind.expect("in front of the eye");
        assert!(!m.hides(&behind), "nothing drawn yet");
        // The diagonal seam runs through pixel centres: the two triangles cover them together.
        wall(&mut m, 100.0, 50.0);
        assert!(m.hides(&behind));
        // In front of the wall, or reaching past its edge, or in its plane: seen.
        let front = m.box_extent(Vec3::new(-10.0, -10.0, -60.0), Vec3::new(10.0, 10.0, -50.0));
        assert!(!m.hides(&front.expect("in view")));
        let wide = m.box_extent(Vec3::new(-500.0, -10.0, -220.0), Vec3::new(-10.0, 10.0, -200.0));
        assert!(!m.hides(&wide.expect("in view")));
        let flush = m.box_extent(Vec3::new(-10.0, -10.0, -100.0), Vec3::new(10.0, 10.0, -100.0));
        assert!(!m.hides(&flush.expect("in view")));
        // A box reaching behind the eye cannot be tested.
        assert!(m.box_extent(Vec3::new(-1.0, -1.0, -300.0), Vec3::new(1.0, 1.0, 5.0)).is_none());
    }

    #[test]
    fn back_faces_and_partly_clipped_triangles_hide_nothing() {
        let mut m = map();
        let p = |x: f32, y: f32| Vec3::new(x, y, -100.0);
        // Clockwise seen from the eye: culled by the GPU.
        m.add_triangle(p(-100.0, -100.0), p(100.0, 100.0), p(100.0, -100.0));
        m.add_triangle(p(-100.0, -100.0), p(-100.0, 100.0), p(100.0, 100.0));
        // Reaching behind the near plane: clipped, so not recorded.
        m.add_triangle(
            Vec3::new(-100.0, -100.0, -100.0),
            Vec3::new(100.0, -100.0, 0.5),
            Vec3::new(0.0, 100.0, -100.0),
        );
        assert!(m.covered.iter().all(|&c| c == 0));
        let behind = m.box_extent(Vec3::new(-10.0, -10.0, -220.0), Vec3::new(10.0, 10.0, -200.0));
        assert!(!m.hides(&behind.expect("in view")));
    }

    /// Numbers in [0, 1) from `seed` (xorshift), the same on every run.
    fn uniform(mut seed: u64) -> impl FnMut() -> f32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as f32 / (1u64 << 53) as f32
        }
    }

    #[test]
    fn whole_cells_found_from_the_outline_record_what_testing_every_edge_records() {
        // Convex polygons of every size, slant and distance, some past the screen's edges,
        // slivers among them: the map is the same bit for bit either way.
        let (mut fast, mut slow) = (map(), map());
        let mut random = uniform(0x2545_f491_4f6c_dd1d);
        let mut whole = 0;
        for _ in 0..400 {
            let d = 20.0 + 400.0 * random();
            let centre = Vec3::new((random() - 0.5) * 2.5 * d, (random() - 0.5) * 1.5 * d, -d);
            let radius = d * (0.02 + 1.2 * random()) * random();
            let (stretch, turn, tilt) = (0.05 + random(), random() * 6.3, (random() - 0.5) * 1.4);
            let corners = 3 + (random() * 6.0) as usize;
            // Counter-clockwise seen from the eye (front faces), in a plane tilted away.
            let polygon: Vec<Vec3> = (0..corners)
                .map(|k| {
                    let a = turn + k as f32 / corners as f32 * std::f32::consts::TAU;
                    let (x, y) = (a.cos() * radius, a.sin() * radius * stretch);
                    centre + Vec3::new(x, y, x * tilt)
                })
                .collect();
            fast.record_polygon(&polygon, true);
            slow.record_polygon(&polygon, false);
            whole += inner_cells(
                &polygon
                    .iter()
                    .map(|&p| fast.to_pixels(fast.view_proj * p.extend(1.0)))
                    .collect::<Vec<_>>(),
                360.5,
            )
            .len();
        }
        assert!(whole > 100, "the rows across the middle had {whole} whole cells");
        assert_eq!(fast.covered, slow.covered);
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fast.far), bits(&slow.far));
        assert_eq!(bits(&fast.full_far), bits(&slow.full_far));
        assert!(fast.full_far.iter().filter(|f| f.is_finite()).count() > 1000);
    }

    #[test]
    fn a_partly_covered_cell_records_each_centre_as_testing_it_alone_would() {
        // Centre by centre: inside every crossing edge by the margin, or on one of them and
        // inside the others; the least plane value over those centres.
        type Cell<'a> = (&'a [(Vec2, f32)], [bool; MAX_CORNERS], Vec2, u64);
        fn one_at_a_time(cell: Cell, plane: impl Fn(Vec2) -> f32) -> (u64, [u64; 8], f32) {
            let (edges, crossing, s0, present) = cell;
            let (mut mask, mut pending, mut least) = (0u64, [0u64; MAX_CORNERS], f32::INFINITY);
            let crossing_edges = || (0..edges.len()).filter(|&e| crossing[e]);
            for l in (0..64).filter(|l| present >> l & 1 == 1) {
                let p = Vec2::new(s0.x + (l % 8) as f32, s0.y + (l / 8) as f32);
                let d = |e: usize| edges[e].0.dot(p) + edges[e].1;
                if crossing_edges().all(|e| d(e) >= INSIDE_MARGIN) {
                    mask |= 1 << l;
                    least = least.min(plane(p));
                }
                for e in crossing_edges() {
                    let others =
                        crossing_edges().filter(|&o| o != e).all(|o| d(o) >= INSIDE_MARGIN);
                    if d(e).abs() < INSIDE_MARGIN && others {
                        pending[e] |= 1 << l;
                        least = least.min(plane(p));
                    }
                }
            }
            (mask, pending, least)
        }
        let mut random = uniform(0x9e37_79b9_7f4a_7c15);
        let mut seen = [0; 3];
        for _ in 0..3000 {
            let s0 = Vec2::new(
                (random() * 100.0).floor() * 8.0 + 0.5,
                (random() * 60.0).floor() * 8.0 + 0.5,
            );
            let count = 3 + (random() * 3.0) as usize;
            // Edges through the cell, some through centres exactly (on the margin's edge).
            let edges: Vec<(Vec2, f32)> = (0..count)
                .map(|_| {
                    let a = random() * std::f32::consts::TAU;
                    let n = if random() < 0.2 {
                        Vec2::new(a.cos().signum(), 0.0)
                    } else {
                        Vec2::new(a.cos(), a.sin())
                    };
                    let through =
                        s0 + Vec2::new((random() * 8.0).floor(), (random() * 8.0).floor());
                    let shift = if random() < 0.3 { 0.0 } else { (random() - 0.5) * 6.0 };
                    (n, -n.dot(through) + shift)
                })
                .collect();
            let crossing = std::array::from_fn(|e| e < count && random() < 0.8);
            let present = if random() < 0.2 { 0x0000_00FF_FFFF_FFFF } else { u64::MAX };
            let (g0, gx, gy) = (random(), (random() - 0.5) * 1e-3, (random() - 0.5) * 1e-3);
            let plane = |p: Vec2| g0 + gx * p.x + gy * p.y;
            let got = partial_cell(&edges, crossing, s0, present, &plane);
            let want = one_at_a_time((&edges, crossing, s0, present), plane);
            assert_eq!((got.0, got.1), (want.0, want.1), "cell at {s0}, edges {edges:?}");
            assert_eq!(got.2.to_bits(), want.2.to_bits(), "cell at {s0}");
            seen[0] += (got.0 != 0 && got.0 != present) as usize;
            seen[1] += got.1.iter().any(|&p| p != 0) as usize;
            seen[2] += (got.0 == 0) as usize;
        }
        assert!(seen.iter().all(|&n| n > 100), "partial, on an edge, empty: {seen:?}");
    }

    #[test]
    fn a_box_projects_its_corners_as_the_matrix_vector_product_does() {
        // Turned and pitched, so that every entry of the matrix counts.
        let camera = CameraPose { pos: DVec3::new(3.0, -2.0, 5.0), yaw: 0.7, pitch: 0.3 };
        let proj = super::super::frame::projection(1280, 720, 640.0, false).matrix();
        let m = OcclusionMap::new(proj * camera.view_matrix(), 1280, 720, 1.0);
        let mut uniform = uniform(0x1234_5678_9abc_def1);
        let mut random = move || uniform() - 0.5;
        for _ in 0..2000 {
            let min = Vec3::new(random() * 900.0, random() * 300.0, random() * 400.0 - 300.0);
            let max = min + Vec3::new(random() + 0.5, random() + 0.5, random() + 0.5) * 80.0;
            let corners = (0..8).map(|i| {
                let pick = |bit: usize, lo: f32, hi: f32| if i & bit == 0 { lo } else { hi };
                let corner =
                    Vec3::new(pick(1, min.x, max.x), pick(2, min.y, max.y), pick(4, min.z, max.z));
                m.view_proj * corner.extend(1.0)
            });
            let want = corners.clone().all(|c| c.w >= m.near).then(|| {
                let p: Vec<Vec2> = corners.clone().map(|c| m.to_pixels(c)).collect();
                let lo = p.iter().fold(Vec2::INFINITY, |a, &b| a.min(b));
                let hi = p.iter().fold(Vec2::NEG_INFINITY, |a, &b| a.max(b));
                (lo, hi, corners.clone().fold(f32::INFINITY, |a, c| a.min(c.w)))
            });
            match (m.box_extent(min, max), want) {
                (None, None) => {}
                (Some(got), Some((lo, hi, nearest))) => {
                    assert_eq!(got.nearest.to_bits(), nearest.to_bits());
                    let cell =
                        |v: f32, n: usize| ((v - 0.5) / CELL as f32).clamp(0.0, n as f32) as usize;
                    let (c, r) = (m.columns, m.rows);
                    let cells = [
                        cell(lo.x, c),
                        cell(lo.y, r),
                        (cell(hi.x, c) + 1).min(c),
                        (cell(hi.y, r) + 1).min(r),
                    ];
                    assert_eq!(got.cells, cells, "box {min} {max}");
                }
                (got, want) => {
                    panic!("box {min} {max}: {:?} against {want:?}", got.map(|g| g.cells))
                }
            }
        }
    }

    #[test]
    fn recorded_distances_bound_every_covered_centre() {
        let mut m = map();
        // A floor seen at a slant, in two triangles: the cells they cover together are full,
        // and each cell's distance is at least that of its farthest pixel centre.
        let p = |x: f32, z: f32| Vec3::new(x, -50.0, z);
        m.add_triangle(p(-400.0, -20.0), p(400.0, -20.0), p(400.0, -800.0));
        m.add_triangle(p(-400.0, -20.0), p(400.0, -800.0), p(-400.0, -800.0));
        let full: Vec<usize> = (0..m.covered.len()).filter(|&i| m.covered[i] == u64::MAX).collect();
        assert!(full.len() > 100, "{} cells full", full.len());
        for i in full {
            let row = i / m.columns;
            // The floor under pixel row y lies at distance 50 * focal / (y - centre).
            let top = (row * CELL) as f32 + 0.5 - 360.0;
            assert!(top > 0.0, "only rows below the horizon see the floor");
            let farthest = 50.0 * 640.0 / top;
            assert!(m.far[i] >= farthest * 0.999, "row {row}: {} < {farthest}", m.far[i]);
        }
    }
}
