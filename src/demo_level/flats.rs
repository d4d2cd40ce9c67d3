//! Flats (64x64 floor and ceiling pictures), including the three NUKAGE frames that vanilla
//! animates.

use super::palette::{c, ramp::*};
use super::picture::{fbm, hash, wave, Picture};

/// Flats in F_START..F_END order; NUKAGE1..3 are consecutive so the animation cycles.
pub fn flats() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("FLTILE", tiles()),
        ("FLMETAL", diamond_plate()),
        ("FLCARPET", carpet()),
        ("FLGRASS", grass()),
        ("CEILTILE", ceiling_tiles()),
        ("CEILLITE", ceiling_light()),
        ("NUKAGE1", nukage(0)),
        ("NUKAGE2", nukage(1)),
        ("NUKAGE3", nukage(2)),
        ("F_SKY1", Picture::filled(64, 64, c(SKY, 8)).indices()),
    ]
}

fn flat(f: impl FnMut(usize, usize) -> Option<u8>) -> Vec<u8> {
    let mut cv = Picture::new(64, 64);
    cv.paint(f);
    cv.indices()
}

fn jitter(x: usize, y: usize, seed: u32) -> i32 {
    (hash(x as i32, y as i32, seed) % 3) as i32 - 1
}

fn tiles() -> Vec<u8> {
    flat(|x, y| {
        let (ix, iy) = (x % 32, y % 32);
        if ix == 31 || iy == 31 {
            return Some(c(GREY, 3));
        }
        let dark = (x / 32 + y / 32) % 2 == 1;
        let n = fbm(x as f64, y as f64, (64, 64), 8.0, 3, 81);
        let mut s = if dark { 6 } else { 8 } + (n * 2.5) as i32 + jitter(x, y, 82).min(0);
        if ix == 0 || iy == 0 {
            s += 2;
        } else if ix == 30 || iy == 30 {
            s -= 1;
        }
        Some(c(if dark { STEEL } else { STONE }, s))
    })
}

fn diamond_plate() -> Vec<u8> {
    flat(|x, y| {
        let (u, v) = (x % 8, y % 8);
        let flip = (x / 8 + y / 8) % 2 == 0;
        let d = if flip { u as i32 - v as i32 } else { u as i32 + v as i32 - 7 };
        let bump = d.abs() <= 1 && (2..6).contains(&u) && (1..7).contains(&v);
        let s = if bump {
            if d == -1 || (v < 4 && d == 0) {
                11
            } else {
                4
            }
        } else {
            6 + jitter(x, y, 91).max(0)
        };
        Some(c(STEEL, s))
    })
}

fn carpet() -> Vec<u8> {
    flat(|x, y| {
        let (xi, yi) = (x as i32, y as i32);
        let border = xi < 4 || yi < 4;
        if border {
            return Some(c(YELLOW, if xi == 1 || yi == 1 { 10 } else { 7 }));
        }
        let (cx, cy) = ((xi - 34).abs(), (yi - 34).abs());
        if cx + cy == 14 || cx + cy == 15 {
            return Some(c(YELLOW, 8));
        }
        let n = fbm(x as f64, y as f64, (64, 64), 4.0, 2, 101);
        Some(c(if cx + cy < 14 { PURPLE } else { RED }, 4 + (n * 3.0) as i32))
    })
}

fn grass() -> Vec<u8> {
    flat(|x, y| {
        let n = fbm(x as f64, y as f64, (64, 64), 16.0, 4, 111);
        let d = fbm(x as f64, y as f64, (64, 64), 32.0, 2, 112);
        if d > 0.68 {
            return Some(c(TAN, 4 + (n * 4.0) as i32 + jitter(x, y, 113)));
        }
        let blade = hash(x as i32, y as i32, 114).is_multiple_of(9);
        let r = if n > 0.55 { OLIVE } else { GREEN };
        Some(c(r, 3 + (n * 5.0) as i32 + if blade { 3 } else { jitter(x, y, 115) }))
    })
}

fn ceiling_tiles() -> Vec<u8> {
    flat(|x, y| {
        let (ix, iy) = (x % 32, y % 32);
        if ix == 0 || iy == 0 {
            return Some(c(STEEL, 3));
        }
        let speck = hash(x as i32, y as i32, 121).is_multiple_of(7);
        Some(c(GREY, if speck { 6 } else { 9 } + jitter(x, y, 122).min(0)))
    })
}

fn ceiling_light() -> Vec<u8> {
    flat(|x, y| {
        let (dx, dy) = ((x as i32 - 32).abs(), (y as i32 - 32).abs());
        let m = dx.max(dy);
        Some(match m {
            0..=15 => {
                if dx % 8 == 0 || dy % 8 == 0 {
                    c(YELLOW, 14)
                } else {
                    c(GREY, 15)
                }
            }
            16..=18 => c(STEEL, 12 - (m - 16) * 2),
            19..=21 => c(STEEL, 3),
            _ => c(STEEL, 5 + jitter(x, y, 131)),
        })
    })
}

/// Frame `f` of 3: ripples whose phase advances a third of a cycle per frame.
fn nukage(f: u32) -> Vec<u8> {
    flat(|x, y| {
        let n = fbm(x as f64, y as f64, (64, 64), 16.0, 3, 141);
        let m = fbm(x as f64, y as f64, (64, 64), 8.0, 2, 142);
        let w = wave(n * 3.0 + m * 0.7 + f as f64 / 3.0);
        let s = 8 + (w * 4.0).round() as i32;
        let fleck = hash(x as i32, y as i32, 143 + f).is_multiple_of(61);
        Some(if fleck { c(YELLOW, 14) } else { c(LIME, s) })
    })
}
