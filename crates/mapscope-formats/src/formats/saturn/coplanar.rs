//! Overlapping coplanar faces. The Saturn draws them in order and its sorting lets the later
//! one win; a depth buffer makes them fight. A face that more than [`OVERLAP_FRACTION`] of
//! whose area lies on an earlier coplanar face goes one layer above it, and each layer is
//! pushed [`COPLANAR_OFFSET`] along the plane normal (see [`super::geometry::Face`]).
//!
//! The overlap is the face clipped against the other face's edge half-planes, in the plane's
//! own 2D coordinates. Faces are binned by quantised normal, plane distance and 2D cells, so
//! only faces that can touch are compared.

use std::collections::HashMap;

use glam::{DVec2, DVec3};

use super::geometry::{Face, FaceSource};

/// Push per layer (native units). Depth is reverse-Z float, so this separates faces at any
/// distance inside a level.
pub const COPLANAR_OFFSET: f64 = 0.1;
/// Share of a face's area that must lie on an earlier coplanar face to layer it.
pub const OVERLAP_FRACTION: f64 = 0.01;
/// Side of the 2D cells faces are binned in (native units).
const CELL: f64 = 256.0;
/// Faces spanning more cells than this go in one shared list instead.
const MAX_CELLS: i64 = 1024;

/// (normal key, distance key, cell x, cell y); cell (i64::MIN, i64::MIN) holds huge faces.
type BinKey = ((i32, i32, i32), i64, i64, i64);

/// Sets `layer` on every face; returns how many were layered above another.
pub fn layer_coplanar(faces: &mut [Face]) -> usize {
    let mut bins: HashMap<BinKey, Vec<usize>> = HashMap::new();
    let mut polys: Vec<Vec<DVec2>> = Vec::with_capacity(faces.len());
    let mut pushed = 0;
    for i in 0..faces.len() {
        let f = &faces[i];
        let n = f.normal;
        let nk =
            ((n.x * 64.0).round() as i32, (n.y * 64.0).round() as i32, (n.z * 64.0).round() as i32);
        // One basis per normal key, so the faces compared share 2D coordinates.
        let basis =
            PlaneBasis::new(DVec3::new(nk.0 as f64, nk.1 as f64, nk.2 as f64).normalize_or_zero());
        let poly = basis.polygon(&f.corners);
        polys.push(poly);
        let poly = &polys[i];
        if n == DVec3::ZERO {
            continue;
        }
        let d = n.dot(f.corners[0]);
        let dk = d.round() as i64;
        let area = polygon_area(poly);
        let cells = cells_of(poly);
        let mut layer = 0u32;
        if area > 1e-9 {
            let mut seen = Vec::new();
            for k in dk - 1..=dk + 1 {
                for &(cx, cy) in &cells {
                    for &j in bins.get(&(nk, k, cx, cy)).map(Vec::as_slice).unwrap_or(&[]) {
                        let g = &faces[j];
                        if g.layer < layer
                            || seen.contains(&j)
                            || same_tile_set(f.source, g.source)
                            || (n.dot(g.corners[0]) - d).abs() > 0.5
                        {
                            continue;
                        }
                        seen.push(j);
                        if overlap_area(poly, &polys[j]) > OVERLAP_FRACTION * area {
                            layer = g.layer + 1;
                        }
                    }
                }
            }
        }
        pushed += (layer > 0) as usize;
        faces[i].layer = layer;
        for (cx, cy) in cells {
            bins.entry((nk, dk, cx, cy)).or_default().push(i);
        }
    }
    pushed
}

/// The 2D cells a polygon's bounding box covers (one shared cell for huge polygons).
fn cells_of(poly: &[DVec2]) -> Vec<(i64, i64)> {
    let (lo, hi) = bounds(poly);
    let (x0, y0) = ((lo.x / CELL).floor() as i64, (lo.y / CELL).floor() as i64);
    let (x1, y1) = ((hi.x / CELL).floor() as i64, (hi.y / CELL).floor() as i64);
    if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_CELLS {
        return vec![(i64::MIN, i64::MIN)];
    }
    (x0..=x1).flat_map(|x| (y0..=y1).map(move |y| (x, y))).collect()
}

fn same_tile_set(a: FaceSource, b: FaceSource) -> bool {
    matches!((a, b), (FaceSource::Tile { set: s, .. }, FaceSource::Tile { set: t, .. }) if s == t)
}

struct PlaneBasis {
    u: DVec3,
    v: DVec3,
}

impl PlaneBasis {
    fn new(n: DVec3) -> PlaneBasis {
        let u = if n == DVec3::ZERO { DVec3::X } else { n.any_orthonormal_vector() };
        PlaneBasis { u, v: n.cross(u) }
    }

    /// The corners in plane coordinates, counter-clockwise.
    fn polygon(&self, c: &[DVec3; 4]) -> Vec<DVec2> {
        let mut p: Vec<DVec2> =
            c.iter().map(|q| DVec2::new(q.dot(self.u), q.dot(self.v))).collect();
        if signed_area(&p) < 0.0 {
            p.reverse();
        }
        p
    }
}

fn signed_area(p: &[DVec2]) -> f64 {
    (0..p.len()).map(|i| p[i].perp_dot(p[(i + 1) % p.len()])).sum::<f64>() / 2.0
}

fn polygon_area(p: &[DVec2]) -> f64 {
    signed_area(p).abs()
}

fn bounds(p: &[DVec2]) -> (DVec2, DVec2) {
    p.iter().fold((DVec2::splat(f64::MAX), DVec2::splat(f64::MIN)), |(lo, hi), &q| {
        (lo.min(q), hi.max(q))
    })
}

/// Area of `subject` inside the convex counter-clockwise `clip` (Sutherland-Hodgman).
fn overlap_area(subject: &[DVec2], clip: &[DVec2]) -> f64 {
    let (alo, ahi) = bounds(subject);
    let (blo, bhi) = bounds(clip);
    if alo.x >= bhi.x || blo.x >= ahi.x || alo.y >= bhi.y || blo.y >= ahi.y {
        return 0.0;
    }
    let mut out = subject.to_vec();
    for i in 0..clip.len() {
        let (a, b) = (clip[i], clip[(i + 1) % clip.len()]);
        let inside = |p: DVec2| (b - a).perp_dot(p - a) >= 0.0;
        let input = std::mem::take(&mut out);
        for k in 0..input.len() {
            let (p, q) = (input[k], input[(k + 1) % input.len()]);
            let (pi, qi) = (inside(p), inside(q));
            if pi {
                out.push(p);
            }
            if pi != qi {
                let (dp, dq) = ((b - a).perp_dot(p - a), (b - a).perp_dot(q - a));
                out.push(p + (q - p) * (dp / (dp - dq)));
            }
        }
        if out.is_empty() {
            return 0.0;
        }
    }
    polygon_area(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, s: f64) -> Vec<DVec2> {
        vec![DVec2::new(x, y), DVec2::new(x + s, y), DVec2::new(x + s, y + s), DVec2::new(x, y + s)]
    }

    #[test]
    fn overlap_of_squares() {
        assert!((overlap_area(&square(0.0, 0.0, 2.0), &square(1.0, 1.0, 2.0)) - 1.0).abs() < 1e-9);
        assert_eq!(overlap_area(&square(0.0, 0.0, 1.0), &square(1.0, 0.0, 1.0)), 0.0);
        assert!(
            (overlap_area(&square(0.0, 0.0, 1.0), &square(-1.0, -1.0, 4.0)) - 1.0).abs() < 1e-9
        );
    }

    #[test]
    fn huge_polygons_share_one_cell() {
        assert_eq!(cells_of(&square(0.0, 0.0, 100.0)), vec![(0, 0)]);
        assert_eq!(cells_of(&square(-30000.0, -30000.0, 60000.0)), vec![(i64::MIN, i64::MIN)]);
    }
}
