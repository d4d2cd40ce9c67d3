//! Pixels of the automap: lines with Bresenham's steps as am_map.c draws them (`AM_drawFline`),
//! a square pen for wider ones, filled polygons by scanlines, all clipped to the image.

use glam::DVec2;
use image::{Rgba, RgbaImage};

/// An RGBA image being drawn on.
pub struct Raster<'a> {
    pub image: &'a mut RgbaImage,
}

impl Raster<'_> {
    fn size(&self) -> (i64, i64) {
        (self.image.width() as i64, self.image.height() as i64)
    }

    /// One pixel, when it is in the image.
    pub fn dot(&mut self, x: i64, y: i64, rgb: [u8; 3]) {
        let (w, h) = self.size();
        if x >= 0 && y >= 0 && x < w && y < h {
            self.image.put_pixel(x as u32, y as u32, Rgba([rgb[0], rgb[1], rgb[2], 255]));
        }
    }

    /// A `pen`-pixel square centred on (x, y) (a 1-pixel pen is the pixel itself).
    fn stamp(&mut self, x: i64, y: i64, pen: i64, rgb: [u8; 3]) {
        let lo = -(pen - 1) / 2;
        for dy in lo..lo + pen {
            for dx in lo..lo + pen {
                self.dot(x + dx, y + dy, rgb);
            }
        }
    }

    /// The line from `a` to `b` (pixel coordinates: pixel (x, y) covers x..x+1, y..y+1),
    /// `pen` pixels wide: clipped to the image, then stepped as am_map.c steps its lines.
    pub fn line(&mut self, a: DVec2, b: DVec2, pen: i64, rgb: [u8; 3]) {
        let (w, h) = self.size();
        let margin = pen as f64;
        let lo = DVec2::splat(-margin);
        let hi = DVec2::new(w as f64 + margin, h as f64 + margin);
        let Some((a, b)) = clip(a, b, lo, hi) else { return };
        let (mut x, mut y) = (a.x.floor() as i64, a.y.floor() as i64);
        let (x1, y1) = (b.x.floor() as i64, b.y.floor() as i64);
        let (dx, dy) = (x1 - x, y1 - y);
        let (ax, ay) = (2 * dx.abs(), 2 * dy.abs());
        let (sx, sy) = (dx.signum(), dy.signum());
        if ax > ay {
            let mut d = ay - ax / 2;
            loop {
                self.stamp(x, y, pen, rgb);
                if x == x1 {
                    return;
                }
                if d >= 0 {
                    y += sy;
                    d -= ax;
                }
                x += sx;
                d += ay;
            }
        } else {
            let mut d = ax - ay / 2;
            loop {
                self.stamp(x, y, pen, rgb);
                if y == y1 {
                    return;
                }
                if d >= 0 {
                    x += sx;
                    d -= ay;
                }
                y += sy;
                d += ax;
            }
        }
    }

    /// The closed outline through `points`.
    pub fn outline(&mut self, points: &[DVec2], pen: i64, rgb: [u8; 3]) {
        for (i, &p) in points.iter().enumerate() {
            self.line(p, points[(i + 1) % points.len()], pen, rgb);
        }
    }

    /// The polygon `ring` filled: every pixel whose centre lies inside it (even-odd).
    pub fn fill(&mut self, ring: &[DVec2], rgb: [u8; 3]) {
        if ring.len() < 3 {
            return;
        }
        let (w, h) = self.size();
        let (lo, hi) = ring
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p.y), hi.max(p.y)));
        if !(lo.is_finite() && hi.is_finite()) {
            return;
        }
        let first = ((lo - 0.5).ceil() as i64).max(0);
        let last = ((hi - 0.5).floor() as i64).min(h - 1);
        let mut xs = Vec::new();
        for y in first..=last {
            let cy = y as f64 + 0.5;
            xs.clear();
            for (i, &p) in ring.iter().enumerate() {
                let q = ring[(i + 1) % ring.len()];
                if (p.y <= cy) != (q.y <= cy) {
                    xs.push(p.x + (cy - p.y) * (q.x - p.x) / (q.y - p.y));
                }
            }
            xs.sort_by(f64::total_cmp);
            for pair in xs.chunks_exact(2) {
                let x0 = ((pair[0] - 0.5).ceil() as i64).max(0);
                let x1 = ((pair[1] - 0.5).floor() as i64).min(w - 1);
                for x in x0..=x1 {
                    self.image.put_pixel(x as u32, y as u32, Rgba([rgb[0], rgb[1], rgb[2], 255]));
                }
            }
        }
    }
}

/// The part of segment `a`..`b` inside the box `lo`..`hi` (Liang-Barsky), if any.
pub fn clip(a: DVec2, b: DVec2, lo: DVec2, hi: DVec2) -> Option<(DVec2, DVec2)> {
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    let d = b - a;
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-d.x, a.x - lo.x), (d.x, hi.x - a.x), (-d.y, a.y - lo.y), (d.y, hi.y - a.y)] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((a + d * t0, a + d * t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 255]))
    }

    fn lit(image: &RgbaImage) -> Vec<(u32, u32)> {
        image.enumerate_pixels().filter(|(_, _, p)| p.0[0] != 0).map(|(x, y, _)| (x, y)).collect()
    }

    #[test]
    fn a_line_lights_both_ends_and_one_pixel_a_column() {
        let mut image = blank(16, 16);
        Raster { image: &mut image }.line(
            DVec2::new(1.5, 2.5),
            DVec2::new(9.5, 5.5),
            1,
            [255, 0, 0],
        );
        let px = lit(&image);
        assert!(px.contains(&(1, 2)) && px.contains(&(9, 5)), "{px:?}");
        assert_eq!(px.len(), 9, "{px:?}");
    }

    #[test]
    fn lines_off_the_image_are_clipped_not_wrapped() {
        let mut image = blank(8, 8);
        let mut r = Raster { image: &mut image };
        r.line(DVec2::new(-100.0, 4.5), DVec2::new(100.0, 4.5), 1, [255, 0, 0]);
        r.line(DVec2::new(-5.0, -5.0), DVec2::new(-1.0, -9.0), 3, [255, 0, 0]);
        r.line(DVec2::new(f64::NAN, 0.0), DVec2::new(3.0, 3.0), 1, [255, 0, 0]);
        let px = lit(&image);
        assert_eq!(px, (0..8).map(|x| (x, 4)).collect::<Vec<_>>());
    }

    #[test]
    fn a_wide_pen_is_a_square_on_each_step() {
        let mut image = blank(16, 16);
        Raster { image: &mut image }.line(
            DVec2::new(4.5, 8.5),
            DVec2::new(10.5, 8.5),
            3,
            [9, 9, 9],
        );
        let px = lit(&image);
        // Seven steps of a 3x3 square: columns 3..=11, rows 7..=9.
        assert_eq!(px.len(), 9 * 3);
        assert!(px.iter().all(|&(x, y)| (3..=11).contains(&x) && (7..=9).contains(&y)));
    }

    #[test]
    fn a_filled_square_covers_the_pixels_whose_centres_it_holds() {
        let mut image = blank(8, 8);
        let ring = [(1.0, 1.0), (5.0, 1.0), (5.0, 4.0), (1.0, 4.0)].map(|(x, y)| DVec2::new(x, y));
        Raster { image: &mut image }.fill(&ring, [200, 0, 0]);
        let px = lit(&image);
        assert_eq!(px.len(), 4 * 3);
        assert!(px.iter().all(|&(x, y)| (1..5).contains(&x) && (1..4).contains(&y)));
    }
}
