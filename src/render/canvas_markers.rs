//! Markers (entities, cameras, records the format does not draw) put into a CPU canvas frame
//! as the GPU's `vs_marker` and `fs_marker` draw them (shaders/world.wgsl): a diamond 5
//! pixels in radius around each marker's projected centre, at the centre's depth, hidden where
//! the canvas is as near or nearer; in the marker colour.
//!
//! The viewer shows markers unless told not to, and drawing them on the GPU over a canvas
//! frame takes the canvas's colours and depths up to the GPU, a pass over the whole frame and,
//! in a window presented from the CPU, a read-back: more than the frame itself on a software
//! adapter. Drawn here, the frame stays the CPU's.

use glam::{Mat4, Vec4};

/// `fs_marker`'s colour, (1.0, 0.85, 0.1) as a unorm target stores it.
const MARKER_RGB: [u8; 3] = [255, 217, 26];
/// `vs_marker`'s radius in pixels.
const RADIUS: f32 = 5.0;
/// The rasteriser's sub-pixel grid: vertices snap to 1/256 of a pixel, as lavapipe's do.
const SUBPIXEL: f32 = 256.0;

/// A canvas frame to draw markers into: colours in the target's byte order, reverse depths.
pub(super) struct MarkerCanvas<'a> {
    pub colors: &'a mut [u32],
    pub depths: &'a [f32],
    pub width: usize,
    pub height: usize,
    pub bgra: bool,
}

/// Draws a marker at each of `positions` (render space) seen through `view_proj`.
pub(super) fn draw_markers(canvas: MarkerCanvas<'_>, view_proj: Mat4, positions: &[[f32; 3]]) {
    let MarkerCanvas { colors, depths, width, height, bgra } = canvas;
    let n = width * height;
    if colors.len() < n || depths.len() < n {
        return;
    }
    let [r, g, b] = MARKER_RGB.map(u32::from);
    let color = if bgra { b | g << 8 | r << 16 } else { r | g << 8 | b << 16 } | 0xFF00_0000;
    for &p in positions {
        let c = view_proj * Vec4::new(p[0], p[1], p[2], 1.0);
        // Clipped whole: behind the eye, or outside the depth range (every corner has the
        // centre's depth).
        let z = c.z / c.w;
        if c.w.is_nan() || c.w <= 0.0 || !(0.0..=1.0).contains(&z) {
            continue;
        }
        let cx = (c.x / c.w + 1.0) * 0.5 * width as f32;
        let cy = (1.0 - c.y / c.w) * 0.5 * height as f32;
        let at = |dx: f32, dy: f32| snap(cx + dx * RADIUS, cy - dy * RADIUS);
        // vs_marker's two triangles, its corners in its order.
        let top = [at(0.0, 1.0), at(-1.0, 0.0), at(1.0, 0.0)];
        let bottom = [at(1.0, 0.0), at(-1.0, 0.0), at(0.0, -1.0)];
        for tri in [top, bottom] {
            fill(tri, (width, height), |i| {
                if z > depths[i] {
                    colors[i] = color;
                }
            });
        }
    }
}

/// A point in pixels on the sub-pixel grid.
fn snap(x: f32, y: f32) -> [i64; 2] {
    [(x * SUBPIXEL).round() as i64, (y * SUBPIXEL).round() as i64]
}

/// Calls `pixel` with the index of each pixel whose centre `tri` (sub-pixel units) covers,
/// centres on an edge decided by the top-left rule, within the `width` x `height` target.
fn fill(tri: [[i64; 2]; 3], (width, height): (usize, usize), mut pixel: impl FnMut(usize)) {
    let [a, b, c] = tri;
    let area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if area == 0 {
        return;
    }
    // Wound so that inside is positive.
    let [a, b, c] = if area < 0 { [a, c, b] } else { [a, b, c] };
    let edges = [(b, c), (c, a), (a, b)].map(|(from, to)| {
        let (ea, eb) = (from[1] - to[1], to[0] - from[0]);
        let ec = from[0] * to[1] - from[1] * to[0];
        // On a y-down screen with inside positive, a top edge runs right, a left edge up.
        let inclusive = (ea == 0 && eb > 0) || ea > 0;
        (ea, eb, ec, inclusive)
    });
    let unit = SUBPIXEL as i64;
    let lo = |v: i64| (v - unit / 2).div_euclid(unit).max(0) as usize;
    let hi =
        |v: i64, max: usize| ((v - unit / 2).div_euclid(unit) + 1).clamp(0, max as i64) as usize;
    let xs = [a[0], b[0], c[0]];
    let ys = [a[1], b[1], c[1]];
    let (x0, x1) = (lo(*xs.iter().min().unwrap_or(&0)), hi(*xs.iter().max().unwrap_or(&0), width));
    let (y0, y1) = (lo(*ys.iter().min().unwrap_or(&0)), hi(*ys.iter().max().unwrap_or(&0), height));
    for y in y0..y1 {
        let py = y as i64 * unit + unit / 2;
        for x in x0..x1 {
            let px = x as i64 * unit + unit / 2;
            let inside = edges.iter().all(|&(ea, eb, ec, inclusive)| {
                let e = ea * px + eb * py + ec;
                e > 0 || (e == 0 && inclusive)
            });
            if inside {
                pixel(y * width + x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_is_a_diamond_of_radius_five_hidden_behind_nearer_canvas() {
        let (w, h) = (32usize, 24usize);
        let mut colors = vec![0u32; w * h];
        // The right half of the canvas is nearer than the marker (reverse depth: larger is
        // nearer), the left half farther.
        let depths: Vec<f32> = (0..w * h).map(|i| if i % w >= 16 { 0.9 } else { 0.1 }).collect();
        // An orthographic view_proj: the marker at the frame's centre, depth 0.5.
        let view_proj = Mat4::IDENTITY;
        let canvas =
            MarkerCanvas { colors: &mut colors, depths: &depths, width: w, height: h, bgra: false };
        draw_markers(canvas, view_proj, &[[0.0, 0.0, 0.5]]);
        let drawn: Vec<(usize, usize)> =
            (0..w * h).filter(|&i| colors[i] != 0).map(|i| (i % w, i / w)).collect();
        // Centred on (16, 12): pixel centres with |dx| + |dy| < 5 (edges by the top-left
        // rule) left of column 16, where the canvas is farther.
        assert!(!drawn.is_empty());
        for &(x, y) in &drawn {
            let (dx, dy) = (x as f32 + 0.5 - 16.0, y as f32 + 0.5 - 12.0);
            assert!(dx.abs() + dy.abs() <= 5.0, "{x},{y} outside the diamond");
            assert!(x < 16, "{x},{y} drawn over nearer canvas");
        }
        // Left of the centre every pixel whose centre is strictly inside is there.
        let inside = (0..h)
            .flat_map(|y| (0..16).map(move |x| (x, y)))
            .filter(|&(x, y)| (x as f32 + 0.5 - 16.0).abs() + (y as f32 + 0.5 - 12.0).abs() < 5.0);
        for p in inside {
            assert!(drawn.contains(&p), "{p:?} missing");
        }
        assert_eq!(colors[12 * w + 14], 0xFF1A_D9FF, "RGBA in little-endian words");
    }

    #[test]
    fn markers_behind_the_eye_or_out_of_depth_are_not_drawn() {
        let (w, h) = (16usize, 16usize);
        let mut colors = vec![0u32; w * h];
        let depths = vec![0.0; w * h];
        let canvas =
            MarkerCanvas { colors: &mut colors, depths: &depths, width: w, height: h, bgra: true };
        // z beyond 1 (in front of the near plane) and below 0 (beyond the far one).
        draw_markers(canvas, Mat4::IDENTITY, &[[0.0, 0.0, 1.5], [0.0, 0.0, -0.5]]);
        assert!(colors.iter().all(|&c| c == 0));
        // A short canvas is left alone rather than indexed out of bounds.
        let mut short = vec![0u32; 10];
        let canvas =
            MarkerCanvas { colors: &mut short, depths: &depths, width: w, height: h, bgra: true };
        draw_markers(canvas, Mat4::IDENTITY, &[[0.0, 0.0, 0.5]]);
        assert!(short.iter().all(|&c| c == 0));
    }
}
