//! Triangles rasterised on the CPU as the GPU rasterises them: clipped at the near plane in
//! clip space, back faces dropped, corners snapped to the rasteriser's 1/256 pixel grid, pixel
//! centres covered by the top-left rule, attributes interpolated perspective-correct from
//! their planes in screen space, and a reverse depth (`near / distance`, nearer is greater)
//! tested and written per pixel.

use std::ops::Range;

use glam::Vec4;

/// A corner of a triangle: its clip-space position (as the view-projection matrix gives it)
/// and its texel coordinates.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClipCorner {
    pub clip: Vec4,
    pub uv: [f32; 2],
}

/// A triangle clipped at the near plane is a convex polygon of at most four corners.
const MAX_CORNERS: usize = 4;

/// Sub-pixel steps a pixel that corners are snapped to (lavapipe's fixed-point rasteriser
/// keeps 8 fractional bits), so that edges shared by two triangles cover the same centres
/// here as there.
const SUBPIXEL: f64 = 256.0;

/// `a + b * x + c * y` over the screen (pixel coordinates, centres at +0.5).
#[derive(Clone, Copy, Debug, Default)]
struct Plane {
    a: f64,
    b: f64,
    c: f64,
}

impl Plane {
    /// The plane through the values `q` at the screen points `p`.
    fn through(p: [[f64; 2]; 3], q: [f64; 3]) -> Plane {
        let (dx1, dy1) = (p[1][0] - p[0][0], p[1][1] - p[0][1]);
        let (dx2, dy2) = (p[2][0] - p[0][0], p[2][1] - p[0][1]);
        let det = dx1 * dy2 - dx2 * dy1;
        let (dq1, dq2) = (q[1] - q[0], q[2] - q[0]);
        let b = (dq1 * dy2 - dq2 * dy1) / det;
        let c = (dx1 * dq2 - dx2 * dq1) / det;
        Plane { a: q[0] - b * p[0][0] - c * p[0][1], b, c }
    }

    fn at(&self, x: f64, y: f64) -> f64 {
        self.a + self.b * x + self.c * y
    }
}

/// An edge of the polygon on screen, for the rows whose centres lie in `y0 <= y < y1`.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    y0: f64,
    y1: f64,
    /// x at `y0`, and its change a row.
    x0: f64,
    slope: f64,
}

/// The screen a triangle is drawn on.
#[derive(Clone, Copy, Debug)]
pub struct Viewport {
    pub width: usize,
    pub height: usize,
    /// The near plane's distance: clip w below it lies behind the near plane.
    pub near: f32,
}

/// A front-facing triangle ready to draw: its edges on screen and the planes of 1/w, u/w and
/// v/w.
#[derive(Clone, Debug, Default)]
pub struct RasterTriangle {
    edges: [Edge; MAX_CORNERS],
    edge_count: usize,
    /// Rows whose centres the triangle may cover.
    first_row: usize,
    end_row: usize,
    inv_w: Plane,
    u_w: Plane,
    v_w: Plane,
    /// The reverse depth of its nearest corner.
    nearest: f32,
}

/// One row of a triangle: its pixel centres `x0..x1`, and the interpolated values at
/// the first of them with their steps a pixel.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    pub x0: usize,
    pub x1: usize,
    inv_w: [f32; 2],
    u_w: [f32; 2],
    v_w: [f32; 2],
}

impl Span {
    /// 1/w (the reciprocal of the view distance) at the span's `k`-th pixel.
    #[inline(always)]
    pub fn inv_w(&self, k: f32) -> f32 {
        self.inv_w[0] + self.inv_w[1] * k
    }

    /// Texel coordinates at the span's `k`-th pixel, whose view distance is `dist`.
    #[inline(always)]
    pub fn uv(&self, k: f32, dist: f32) -> (f32, f32) {
        ((self.u_w[0] + self.u_w[1] * k) * dist, (self.v_w[0] + self.v_w[1] * k) * dist)
    }
}

impl RasterTriangle {
    /// Clips `corners` at the near plane, projects them and sets up the edges and planes;
    /// `None` for a triangle that is back-facing, wholly behind the near plane, or covers no
    /// pixel row.
    #[inline(always)]
    pub fn new(corners: &[ClipCorner; 3], vp: &Viewport) -> Option<RasterTriangle> {
        let near = vp.near as f64;
        // Sutherland-Hodgman against w >= near (the GPU's z <= w, with z = near).
        let mut poly = [[0.0f64; 5]; MAX_CORNERS];
        let mut n = 0;
        let attrs = |v: &ClipCorner| {
            let c = v.clip.as_dvec4();
            [c.x, c.y, c.w, v.uv[0] as f64, v.uv[1] as f64]
        };
        for i in 0..3 {
            let (p, q) = (&corners[i], &corners[(i + 1) % 3]);
            let (dp, dq) = (p.clip.w as f64 - near, q.clip.w as f64 - near);
            if !(dp.is_finite() && dq.is_finite()) {
                return None;
            }
            if dp >= 0.0 {
                poly[n] = attrs(p);
                n += 1;
            }
            if (dp >= 0.0) != (dq >= 0.0) {
                let t = dp / (dp - dq);
                let (a, b) = (attrs(p), attrs(q));
                poly[n] = std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t);
                n += 1;
            }
        }
        if n < 3 {
            return None;
        }
        let (w, h) = (vp.width as f64, vp.height as f64);
        // Screen position (snapped), then 1/w, u/w, v/w.
        let mut screen = [[0.0f64; 5]; MAX_CORNERS];
        for (s, &[x, y, cw, u, v]) in screen.iter_mut().zip(&poly[..n]) {
            let iw = 1.0 / cw;
            let snap = |p: f64| round(p * SUBPIXEL) / SUBPIXEL;
            *s = [
                snap((x * iw * 0.5 + 0.5) * w),
                snap((0.5 - y * iw * 0.5) * h),
                iw,
                u * iw,
                v * iw,
            ];
        }
        let screen = &screen[..n];
        // Front faces wind counter-clockwise with y up, so clockwise on the screen.
        let area: f64 = (0..n)
            .map(|i| {
                let (p, q) = (screen[i], screen[(i + 1) % n]);
                p[0] * q[1] - q[0] * p[1]
            })
            .sum();
        if area.is_nan() || area >= 0.0 {
            return None;
        }
        let mut t = RasterTriangle::default();
        let (mut top, mut bottom) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..n {
            let (p, q) = (screen[i], screen[(i + 1) % n]);
            top = top.min(p[1]);
            bottom = bottom.max(p[1]);
            if p[1] == q[1] {
                continue;
            }
            let (a, b) = if p[1] < q[1] { (p, q) } else { (q, p) };
            let slope = (b[0] - a[0]) / (b[1] - a[1]);
            t.edges[t.edge_count] = Edge { y0: a[1], y1: b[1], x0: a[0], slope };
            t.edge_count += 1;
        }
        // Rows whose centre y + 0.5 lies in [top, bottom).
        t.first_row = ceil_index(top - 0.5, vp.height);
        t.end_row = ceil_index(bottom - 0.5, vp.height);
        if t.first_row >= t.end_row {
            return None;
        }
        // Far triangles are a pixel or less, and most cover no centre: those of a row or two
        // are dropped before their planes are worked out (a span's cover does not need them).
        if t.end_row - t.first_row <= 2 && t.rows().all(|y| t.span(y, vp.width).is_none()) {
            return None;
        }
        t.nearest = screen.iter().map(|p| p[2]).fold(0.0, f64::max) as f32 * vp.near;
        // The planes through the three corners that span the most area, for precision.
        let size = |k: usize| {
            let (a, b, c) = (screen[0], screen[k], screen[k + 1]);
            ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs()
        };
        let k = if n == 4 && size(2) > size(1) { 2 } else { 1 };
        let at = [0, k, k + 1].map(|i| [screen[i][0], screen[i][1]]);
        let plane = |attr: usize| Plane::through(at, [0, k, k + 1].map(|i| screen[i][attr]));
        t.inv_w = plane(2);
        t.u_w = plane(3);
        t.v_w = plane(4);
        Some(t)
    }

    /// The reverse depth of the triangle's nearest corner (after clipping): triangles drawn
    /// in decreasing order of it are drawn nearest first.
    pub fn nearest(&self) -> f32 {
        self.nearest
    }

    /// Rows whose centres the triangle may cover.
    pub fn rows(&self) -> Range<usize> {
        self.first_row..self.end_row
    }

    /// The triangle's row `y`: `None` where it covers no pixel centre of the row.
    #[inline]
    pub fn span(&self, y: usize, width: usize) -> Option<Span> {
        let yc = y as f64 + 0.5;
        let (mut left, mut right) = (f64::INFINITY, f64::NEG_INFINITY);
        for e in &self.edges[..self.edge_count] {
            if e.y0 <= yc && yc < e.y1 {
                let x = e.x0 + (yc - e.y0) * e.slope;
                left = left.min(x);
                right = right.max(x);
            }
        }
        // Centres x + 0.5 in [left, right).
        let x0 = ceil_index(left - 0.5, width);
        let x1 = ceil_index(right - 0.5, width);
        if x0 >= x1 {
            return None;
        }
        let xc = x0 as f64 + 0.5;
        Some(Span {
            x0,
            x1,
            inv_w: [self.inv_w.at(xc, yc) as f32, self.inv_w.b as f32],
            u_w: [self.u_w.at(xc, yc) as f32, self.u_w.b as f32],
            v_w: [self.v_w.at(xc, yc) as f32, self.v_w.b as f32],
        })
    }
}

/// `x.round()` (halves away from zero, the sign of zero kept) without the call to libm's
/// `round` that x86-64's baseline (no SSE 4.1) makes of it, six times a triangle.
#[inline]
fn round(x: f64) -> f64 {
    // Past 2^52 every f64 is whole (and past 2^63 the conversion saturates).
    if x.is_nan() || x.abs() >= 4.0e15 {
        return x.round();
    }
    let whole = x as i64;
    let fraction = x - whole as f64;
    let away = (fraction >= 0.5) as i64 - (fraction <= -0.5) as i64;
    ((whole + away) as f64).copysign(x)
}

/// `x.ceil()` clamped to `0..=max`, as an index, without the call to libm's `ceil` that
/// x86-64's baseline (no SSE 4.1) makes of it, twice a row of every triangle.
#[inline]
fn ceil_index(x: f64, max: usize) -> usize {
    let x = x.clamp(0.0, max as f64);
    let t = x as usize;
    (t + ((t as f64) < x) as usize).min(max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn viewport() -> Viewport {
        Viewport { width: 64, height: 48, near: 1.0 }
    }

    /// The engine's projection at 64x48, focal 32, looking down -z.
    fn project(p: Vec3) -> Vec4 {
        crate::render::frame::projection(64, 48, 32.0, false).matrix() * p.extend(1.0)
    }

    fn corner(p: Vec3, uv: [f32; 2]) -> ClipCorner {
        ClipCorner { clip: project(p), uv }
    }

    /// Which triangle (1-based) each pixel centre of the viewport shows, nearest winning.
    fn cover(tris: &[[ClipCorner; 3]]) -> Vec<usize> {
        let vp = viewport();
        let mut owner = vec![0; vp.width * vp.height];
        let mut depth = vec![0.0f32; vp.width * vp.height];
        for (i, t) in tris.iter().enumerate() {
            let Some(r) = RasterTriangle::new(t, &vp) else { continue };
            for y in r.rows() {
                let Some(s) = r.span(y, vp.width) else { continue };
                for x in s.x0..s.x1 {
                    let z = s.inv_w((x - s.x0) as f32);
                    if z > depth[y * vp.width + x] {
                        depth[y * vp.width + x] = z;
                        owner[y * vp.width + x] = i + 1;
                    }
                }
            }
        }
        owner
    }

    /// A square of side 2 * `half` across the view at distance `d`, front face to the eye.
    fn square(d: f32, half: f32) -> [[ClipCorner; 3]; 2] {
        let p = |x: f32, y: f32| corner(Vec3::new(x, y, -d), [x, y]);
        let (l, r) = (-half, half);
        [[p(l, -half), p(r, -half), p(r, half)], [p(l, -half), p(r, half), p(l, half)]]
    }

    #[test]
    fn rounding_matches_the_library_round() {
        let mut x = -700.0f64;
        while x < 700.0 {
            for v in [x, x + 0.5, x - 0.5, x * 256.0, x + 0.4999999999999999] {
                assert_eq!(round(v).to_bits(), v.round().to_bits(), "{v}");
            }
            x += 0.0371;
        }
        for v in [0.0, -0.0, -0.3, 0.5, -0.5, 1.5, -2.5, 1e16, -1e300, f64::INFINITY, 4.5e15] {
            assert_eq!(round(v).to_bits(), v.round().to_bits(), "{v}");
        }
        assert!(round(f64::NAN).is_nan());
    }

    #[test]
    fn a_quad_covers_each_centre_once_and_back_faces_are_dropped() {
        // 2 units wide at distance 4 with focal 32: 16 pixels, centred on (32, 24).
        let owner = cover(&square(4.0, 1.0));
        for y in 0..48 {
            for x in 0..64 {
                let inside = (24..40).contains(&x) && (16..32).contains(&y);
                assert_eq!(owner[y * 64 + x] != 0, inside, "pixel {x},{y}");
            }
        }
        let [a, b] = square(4.0, 1.0);
        let back = [[a[0], a[2], a[1]], [b[0], b[2], b[1]]];
        assert!(cover(&back).iter().all(|&o| o == 0));
    }

    #[test]
    fn triangles_sharing_an_edge_cover_each_centre_once() {
        // A fan of thin triangles around a centre: every centre inside is covered by exactly
        // one of them (the top-left rule), none twice.
        let vp = viewport();
        let c = Vec3::new(0.1, 0.05, -4.0);
        let ring: Vec<Vec3> = (0..13)
            .map(|i| {
                let a = i as f32 / 12.0 * std::f32::consts::TAU;
                c + Vec3::new(a.cos() * 1.3, a.sin() * 1.3, 0.0)
            })
            .collect();
        let mut count = vec![0; vp.width * vp.height];
        for i in 0..12 {
            let t = [corner(c, [0.0; 2]), corner(ring[i], [0.0; 2]), corner(ring[i + 1], [0.0; 2])];
            let Some(r) = RasterTriangle::new(&t, &vp) else { continue };
            for y in r.rows() {
                if let Some(s) = r.span(y, vp.width) {
                    for x in s.x0..s.x1 {
                        count[y * vp.width + x] += 1;
                    }
                }
            }
        }
        assert!(count.iter().all(|&n| n <= 1), "a centre covered twice");
        assert!(count[24 * 64 + 32] == 1);
    }

    #[test]
    fn texel_coordinates_are_perspective_correct_and_clipping_keeps_them() {
        // A floor from behind the eye to far away: its uv are world x, z.
        let vp = viewport();
        let p = |x: f32, z: f32| corner(Vec3::new(x, -1.0, z), [x, z]);
        let tri = [p(-50.0, 0.5), p(50.0, 0.5), p(0.0, -100.0)];
        let t = RasterTriangle::new(&tri, &vp).expect("in view, clipped at the near plane");
        let mut seen = 0;
        for y in t.rows() {
            let Some(s) = t.span(y, vp.width) else { continue };
            for x in s.x0..s.x1 {
                let k = (x - s.x0) as f32;
                let dist = 1.0 / s.inv_w(k);
                let (u, v) = s.uv(k, dist);
                // Row y's centre sees the floor at distance 32 / (y + 0.5 - 24), column x at
                // (x + 0.5 - 32) / 32 of it across.
                let expect = 32.0 / (y as f32 + 0.5 - 24.0);
                assert!((dist - expect).abs() < 1e-3 * expect, "row {y}: {dist} vs {expect}");
                assert!((v + expect).abs() < 1e-3 * expect, "row {y}: v {v}");
                let across = (x as f32 + 0.5 - 32.0) / 32.0 * expect;
                assert!((u - across).abs() < 1e-3 * expect.max(1.0), "{x},{y}: u {u}, {across}");
                seen += 1;
            }
        }
        assert!(seen > 100);
    }
}
