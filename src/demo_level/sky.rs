//! SKY1: a 256x128 dusk sky (gradient, clouds, two mountain ranges), tiling horizontally.
//! Vanilla draws texture row `y & 127` on screen row `y` of 200, so row 100 is the horizon.

use super::palette::{c, ramp::*};
use super::picture::{fbm, Picture};

/// Gradient stops from the top of the sky down to the horizon.
const STOPS: [(u8, i32); 14] = [
    (INDIGO, 2),
    (INDIGO, 3),
    (INDIGO, 4),
    (BLUE, 5),
    (BLUE, 6),
    (INDIGO, 7),
    (PURPLE, 7),
    (PURPLE, 8),
    (SKIN, 8),
    (SKIN, 10),
    (ORANGE, 10),
    (ORANGE, 11),
    (YELLOW, 12),
    (YELLOW, 13),
];

/// 4x4 ordered-dither thresholds in [0, 1).
const BAYER: [[f64; 4]; 4] = [
    [0.0 / 16.0, 8.0 / 16.0, 2.0 / 16.0, 10.0 / 16.0],
    [12.0 / 16.0, 4.0 / 16.0, 14.0 / 16.0, 6.0 / 16.0],
    [3.0 / 16.0, 11.0 / 16.0, 1.0 / 16.0, 9.0 / 16.0],
    [15.0 / 16.0, 7.0 / 16.0, 13.0 / 16.0, 5.0 / 16.0],
];

pub fn sky() -> Picture {
    let (w, h) = (256usize, 128usize);
    let ridge = |x: usize, seed: u32, base: f64, amp: f64| {
        base - amp * fbm(x as f64, 0.0, (w, 64), 64.0, 5, seed)
    };
    let mut cv = Picture::new(w, h);
    cv.paint(|x, y| {
        let (fx, fy) = (x as f64, y as f64);
        let dither = BAYER[y % 4][x % 4];
        // Near range (dark) in front of the far range (hazy).
        let near = ridge(x, 201, 124.0, 32.0);
        if fy >= near {
            let s = 1 + ((fy - near) < 2.0) as i32 + ((fy - near) / 24.0 + dither > 1.0) as i32;
            return Some(c(INDIGO, s));
        }
        let far = ridge(x, 202, 114.0, 46.0);
        if fy >= far {
            let lit = fy - far < 3.0;
            return Some(if lit { c(PURPLE, 7) } else { c(PURPLE, 4 + (dither > 0.5) as i32) });
        }
        // Gradient, dithered between neighbouring stops.
        let t = (fy / 104.0).min(1.0) * (STOPS.len() - 1) as f64;
        let i = (t.floor() as usize + (t.fract() > dither) as usize).min(STOPS.len() - 1);
        let (r, s) = STOPS[i];
        // Clouds: stretched noise, brighter towards the horizon.
        let cl = fbm(fx, fy * 3.0, (w, 512), 64.0, 5, 203);
        let band = 1.0 - ((fy - 40.0) / 36.0).abs().min(1.0);
        let density = (cl - 0.44) * 5.0 * band;
        if density > dither {
            let shade = 7 + (fy / 18.0) as i32 + (density > 1.0 + dither) as i32;
            let r = if fy < 40.0 { STEEL } else { SKIN };
            return Some(c(r, shade));
        }
        Some(c(r, s))
    });
    cv
}
