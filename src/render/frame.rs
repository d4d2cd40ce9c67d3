//! The projection every renderer shares: a pinhole in framebuffer pixels with reverse,
//! infinite depth, centred half a pixel off in faithful mode so that pixel centres fall where
//! the games sample their columns and rows.

use glam::{Mat4, Vec4};

/// A pinhole projection in framebuffer pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    pub width: f64,
    pub height: f64,
    pub focal: f64,
    /// Projection centre in framebuffer coordinates (pixel centres at +0.5).
    pub cx: f64,
    pub cy: f64,
    pub near: f64,
}

/// The projection for a view. Faithful mode puts the centre half a pixel right and down,
/// because vanilla samples column x and row y at their integer coordinates around centre
/// (160, 100) where the GPU samples pixel centres.
pub fn projection(width: u32, height: u32, focal: f64, faithful: bool) -> Projection {
    let half = if faithful { 0.5 } else { 0.0 };
    Projection {
        width: width as f64,
        height: height as f64,
        focal,
        cx: (width / 2) as f64 + half,
        cy: (height / 2) as f64 + half,
        near: 1.0,
    }
}

impl Projection {
    /// Clip matrix with reverse, infinite depth (depth = near / distance).
    pub fn matrix(&self) -> Mat4 {
        let (w, h, f) = (self.width, self.height, self.focal);
        let sx = 2.0 * f / w;
        let sy = 2.0 * f / h;
        let ox = 2.0 * self.cx / w - 1.0;
        let oy = 1.0 - 2.0 * self.cy / h;
        // View space looks down -Z; clip w = -z.
        Mat4::from_cols(
            Vec4::new(sx as f32, 0.0, 0.0, 0.0),
            Vec4::new(0.0, sy as f32, 0.0, 0.0),
            Vec4::new(-ox as f32, -oy as f32, 0.0, -1.0),
            Vec4::new(0.0, 0.0, self.near as f32, 0.0),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    fn to_pixels(p: &Projection, v: Vec3) -> (f64, f64) {
        let c = p.matrix() * v.extend(1.0);
        let ndc = c / c.w;
        (((ndc.x as f64 + 1.0) / 2.0) * p.width, ((1.0 - ndc.y as f64) / 2.0) * p.height)
    }

    #[test]
    fn straight_ahead_lands_on_the_centre() {
        let p = projection(320, 200, 160.0, true);
        let (x, y) = to_pixels(&p, Vec3::new(0.0, 0.0, -100.0));
        assert!((x - 160.5).abs() < 1e-4 && (y - 100.5).abs() < 1e-4, "{x} {y}");
        // 45 degrees right reaches the right edge (plus the half pixel).
        let (x, _) = to_pixels(&p, Vec3::new(100.0, 0.0, -100.0));
        assert!((x - 320.5).abs() < 1e-3, "{x}");
        // Up is up on screen.
        let (_, y) = to_pixels(&p, Vec3::new(0.0, 10.0, -100.0));
        assert!(y < 100.5);
    }

    #[test]
    fn depth_is_reverse() {
        let p = projection(320, 200, 160.0, false);
        let near = p.matrix() * Vec4::new(0.0, 0.0, -1.0, 1.0);
        let far = p.matrix() * Vec4::new(0.0, 0.0, -1000.0, 1.0);
        assert!((near.z / near.w - 1.0).abs() < 1e-6);
        assert!(far.z / far.w < 0.01);
    }
}
