//! A tiny indexed-colour picture and deterministic noise for drawing the demo art.
//!
//! Everything uses integer hashing and basic float arithmetic only (no `sin`, `exp`...), so
//! the generated WAD is byte-identical on every platform.

/// Row-major palette indices; `None` is transparent.
#[derive(Clone, Debug)]
pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub px: Vec<Option<u8>>,
}

impl Picture {
    pub fn new(width: usize, height: usize) -> Picture {
        Picture { width, height, px: vec![None; width * height] }
    }

    pub fn filled(width: usize, height: usize, c: u8) -> Picture {
        Picture { width, height, px: vec![Some(c); width * height] }
    }

    /// Sets every texel from `f(x, y)`.
    pub fn paint(&mut self, mut f: impl FnMut(usize, usize) -> Option<u8>) {
        for y in 0..self.height {
            for x in 0..self.width {
                self.px[y * self.width + x] = f(x, y);
            }
        }
    }

    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        if x < 0 || y < 0 || x >= self.width as i32 || y >= self.height as i32 {
            return None;
        }
        self.px[y as usize * self.width + x as usize]
    }

    pub fn set(&mut self, x: i32, y: i32, c: Option<u8>) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.px[y as usize * self.width + x as usize] = c;
        }
    }

    /// Fills the rectangle `x0..x1`, `y0..y1` (clipped).
    pub fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: u8) {
        for y in y0..y1 {
            for x in x0..x1 {
                self.set(x, y, Some(c));
            }
        }
    }

    /// Raw texels of an opaque picture (flats); transparent texels become index 0.
    pub fn indices(&self) -> Vec<u8> {
        self.px.iter().map(|p| p.unwrap_or(0)).collect()
    }

    /// Copies `other` onto this picture at (x, y), skipping its transparent texels.
    pub fn blit(&mut self, other: &Picture, x: i32, y: i32) {
        for oy in 0..other.height as i32 {
            for ox in 0..other.width as i32 {
                if let Some(c) = other.get(ox, oy) {
                    self.set(x + ox, y + oy, Some(c));
                }
            }
        }
    }

    /// Mirror image (left-right).
    pub fn mirrored(&self) -> Picture {
        let mut out = Picture::new(self.width, self.height);
        for y in 0..self.height as i32 {
            for x in 0..self.width as i32 {
                out.set(self.width as i32 - 1 - x, y, self.get(x, y));
            }
        }
        out
    }
}

/// A 32-bit integer hash of a lattice point and a seed.
pub fn hash(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(0x8da6_b343)
        ^ (y as u32).wrapping_mul(0xd816_3841)
        ^ seed.wrapping_mul(0xcb1a_b31f);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297a_2d39);
    h ^= h >> 15;
    h
}

/// Uniform value in [0, 1) at a lattice point.
pub fn rnd(x: i32, y: i32, seed: u32) -> f64 {
    (hash(x, y, seed) >> 8) as f64 / (1u32 << 24) as f64
}

fn smooth(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

/// Smooth value noise in [0, 1) with lattice spacing `cell` texels, tiling every `period`
/// lattice cells in x and y (so a texture of `cell * period` texels wraps seamlessly).
pub fn value_noise(x: f64, y: f64, cell: f64, period: (i32, i32), seed: u32) -> f64 {
    let (fx, fy) = (x / cell, y / cell);
    let (ix, iy) = (fx.floor() as i32, fy.floor() as i32);
    let (tx, ty) = (smooth(fx - ix as f64), smooth(fy - iy as f64));
    let at = |dx: i32, dy: i32| {
        rnd((ix + dx).rem_euclid(period.0), (iy + dy).rem_euclid(period.1), seed)
    };
    let top = at(0, 0) + (at(1, 0) - at(0, 0)) * tx;
    let bottom = at(0, 1) + (at(1, 1) - at(0, 1)) * tx;
    top + (bottom - top) * ty
}

/// Fractal sum of `octaves` layers of [`value_noise`], tiling over `size` texels; in [0, 1).
pub fn fbm(x: f64, y: f64, size: (usize, usize), cell: f64, octaves: u32, seed: u32) -> f64 {
    let (mut sum, mut amp, mut norm, mut c) = (0.0, 1.0, 0.0, cell);
    for o in 0..octaves {
        let period = (((size.0 as f64) / c).max(1.0) as i32, ((size.1 as f64) / c).max(1.0) as i32);
        sum += amp * value_noise(x, y, c, period, seed.wrapping_add(o * 101));
        norm += amp;
        amp *= 0.5;
        c = (c / 2.0).max(1.0);
    }
    sum / norm
}

/// A smooth periodic wave in [-1, 1] with period 1 (a sine-like cubic, platform-exact).
pub fn wave(t: f64) -> f64 {
    let f = t - t.floor();
    // Triangle in [-1, 1], then smoothed.
    let tri = if f < 0.5 { 4.0 * f - 1.0 } else { 3.0 - 4.0 * f };
    tri * (1.5 - 0.5 * tri * tri)
}
