//! Wall patches and the TEXTURE1 entries built from them.

use super::palette::{c, ramp::*};
use super::picture::{fbm, hash, rnd, value_noise, Picture};

/// A patch: its PNAMES name and picture.
pub struct Patch {
    pub name: &'static str,
    pub picture: Picture,
}

/// A texture: name, size, and (x, y, patch name) placements.
pub struct TextureDef {
    pub name: &'static str,
    pub width: i16,
    pub height: i16,
    pub patches: Vec<(i16, i16, &'static str)>,
}

pub fn patches() -> Vec<Patch> {
    vec![
        Patch { name: "DBRICK", picture: brick() },
        Patch { name: "DLAMP", picture: wall_lamp() },
        Patch { name: "DMETAL", picture: metal() },
        Patch { name: "DTECH", picture: tech() },
        Patch { name: "DSTONE", picture: stone() },
        Patch { name: "DDOOR", picture: door() },
        Patch { name: "DTRACK", picture: track() },
        Patch { name: "DGRATE", picture: grate() },
        Patch { name: "DSTEP", picture: step() },
        Patch { name: "DNUKEDGE", picture: nukage_edge() },
        Patch { name: "DSUPPORT", picture: support() },
        Patch { name: "DSKY", picture: super::sky::sky() },
    ]
}

pub fn textures() -> Vec<TextureDef> {
    let t = |name, width, height, patches: &[(i16, i16, &'static str)]| TextureDef {
        name,
        width,
        height,
        patches: patches.to_vec(),
    };
    vec![
        // Texture number 0 is never drawn by vanilla: a dummy, as in the id IWADs.
        t("AADUMMY", 64, 128, &[(0, 0, "DBRICK")]),
        t("BRICKRED", 64, 128, &[(0, 0, "DBRICK")]),
        t("BRICKLIT", 64, 128, &[(0, 0, "DBRICK"), (20, 40, "DLAMP")]),
        t("METALPNL", 64, 128, &[(0, 0, "DMETAL")]),
        t("TECHWALL", 128, 128, &[(0, 0, "DTECH")]),
        t("STONEWAL", 128, 128, &[(0, 0, "DSTONE")]),
        t("STONELIT", 128, 128, &[(0, 0, "DSTONE"), (52, 40, "DLAMP")]),
        t("DOOR1", 64, 128, &[(0, 0, "DDOOR")]),
        t("DOORTRAK", 8, 128, &[(0, 0, "DTRACK")]),
        t("GRATE", 64, 128, &[(0, 0, "DGRATE")]),
        t("STEPRISE", 64, 16, &[(0, 0, "DSTEP")]),
        t("NUKEDGE", 64, 32, &[(0, 0, "DNUKEDGE")]),
        t("SUPPORT", 64, 128, &[(0, 0, "DSUPPORT")]),
        t("SKY1", 256, 128, &[(0, 0, "DSKY")]),
    ]
}

/// Per-texel shade jitter in -1..=1.
fn jitter(x: usize, y: usize, seed: u32) -> i32 {
    (hash(x as i32, y as i32, seed) % 3) as i32 - 1
}

fn brick() -> Picture {
    let mut cv = Picture::new(64, 128);
    cv.paint(|x, y| {
        let row = y / 16;
        let xs = (x + if row % 2 == 1 { 16 } else { 0 }) % 64;
        let (bx, by) = (xs / 32, row);
        let (ix, iy) = (xs % 32, y % 16);
        let n = fbm(x as f64, y as f64, (64, 128), 16.0, 3, 7);
        if iy >= 14 || ix >= 30 {
            return Some(c(STONE, 4 + (n * 3.0) as i32 + jitter(x, y, 1).min(0)));
        }
        let h = hash(bx as i32, by as i32, 11);
        let r = if h.is_multiple_of(7) {
            ORANGE
        } else if h.is_multiple_of(11) {
            TAN
        } else {
            RED
        };
        let mut s = 6 + (h >> 8) as i32 % 3 + (n * 3.0) as i32 - 1 + jitter(x, y, 2);
        if iy == 0 || ix == 0 {
            s += 2;
        } else if iy == 13 || ix == 29 {
            s -= 2;
        }
        Some(c(r, s))
    });
    cv
}

/// A small wall lamp: a steel housing round a glowing lens (composited onto walls).
fn wall_lamp() -> Picture {
    let mut cv = Picture::new(24, 20);
    cv.paint(|x, y| {
        let (dx, dy) = (x as f64 - 11.5, y as f64 - 9.5);
        let edge = x == 0 || y == 0 || x == 23 || y == 19;
        if edge {
            return Some(c(STEEL, 3));
        }
        if dx.abs() <= 8.0 && dy.abs() <= 5.0 {
            let d = (dx * dx / 64.0 + dy * dy / 25.0).sqrt();
            return Some(if d < 0.45 {
                c(GREY, 15)
            } else if d < 0.75 {
                c(YELLOW, 15)
            } else {
                c(YELLOW, 13)
            });
        }
        Some(c(
            STEEL,
            if x < 2 || y < 2 {
                10
            } else if x > 21 || y > 17 {
                4
            } else {
                7
            },
        ))
    });
    cv
}

fn metal() -> Picture {
    let mut cv = Picture::new(64, 128);
    cv.paint(|x, y| {
        let (px, py) = (x, y % 64);
        let brushed = value_noise(x as f64, y as f64 / 10.0, 2.0, (32, 13), 21);
        let mut s = 7 + (brushed * 2.0) as i32;
        if px < 2 || py < 2 {
            s = 11;
        } else if px > 61 || py > 61 {
            s = 3;
        }
        // Rivets in the corners of each panel.
        for (rx, ry) in [(6, 6), (57, 6), (6, 57), (57, 57)] {
            let (dx, dy) = (px as i32 - rx, py as i32 - ry);
            if dx.abs() <= 1 && dy.abs() <= 1 {
                s = if dx + dy < 0 {
                    12
                } else if dx + dy > 0 {
                    4
                } else {
                    9
                };
            }
        }
        // Lower panel: a vent of dark slits.
        if y >= 64 && (16..48).contains(&px) && (20..44).contains(&py) {
            s = if py % 6 < 3 {
                2
            } else if py % 6 == 3 {
                9
            } else {
                5
            };
        }
        // Upper panel: a yellow stencil bar.
        if y < 64 && (14..50).contains(&px) && (26..31).contains(&py) {
            return Some(c(YELLOW, if py == 26 { 12 } else { 9 }));
        }
        Some(c(STEEL, s))
    });
    cv
}

fn tech() -> Picture {
    let mut cv = Picture::new(128, 128);
    cv.paint(|x, y| {
        let (xi, yi) = (x as i32, y as i32);
        // Two screens with scan lines and text.
        for sx in [8, 72] {
            if (sx..sx + 48).contains(&xi) && (10..52).contains(&yi) {
                let (lx, ly) = (xi - sx, yi - 10);
                if lx == 0 || ly == 0 || lx == 47 || ly == 41 {
                    return Some(c(STEEL, 10));
                }
                let line = ly / 5;
                let len = 8 + (hash(line, sx, 3) % 34) as i32;
                let text = ly % 5 < 3
                    && lx > 3
                    && lx < len
                    && !hash(lx / 3, line, sx as u32).is_multiple_of(4);
                let r = if sx == 8 { TEAL } else { LIME };
                return Some(if text { c(r, 14) } else { c(r, if ly % 2 == 0 { 3 } else { 2 }) });
            }
        }
        // A row of indicator lights.
        if (60..66).contains(&yi) && xi % 12 >= 3 && xi % 12 < 9 {
            let r = [RED, YELLOW, LIME, SKY][(xi / 12 % 4) as usize];
            return Some(c(r, if yi == 60 || xi % 12 == 3 { 15 } else { 12 }));
        }
        // Meter bars.
        if (72..112).contains(&yi) && (8..120).contains(&xi) && xi % 8 < 5 {
            let level = 72 + (hash(xi / 8, 9, 5) % 36) as i32;
            return Some(if yi >= level { c(SKY, 9 + (yi - level) / 8) } else { c(STEEL, 2) });
        }
        // Vents at the bottom.
        if (116..126).contains(&yi) && (8..120).contains(&xi) {
            return Some(c(STEEL, if yi % 3 == 0 { 7 } else { 1 }));
        }
        let s = if xi % 64 == 0 || yi == 0 {
            8
        } else if xi % 64 == 63 || yi == 127 {
            1
        } else {
            3 + jitter(x, y, 4).max(0)
        };
        Some(c(STEEL, s))
    });
    cv
}

fn stone() -> Picture {
    let rows = [0, 22, 50, 74, 100, 128];
    let mut cv = Picture::new(128, 128);
    cv.paint(|x, y| {
        // rows[0] is 0, so some row always starts at or above y.
        let r = rows.iter().rposition(|&b| b <= y).unwrap_or(0).min(4);
        let (top, bottom) = (rows[r], rows[r + 1]);
        // Four stones per row, joints jittered; a texel belongs to the nearest joint on its
        // left (wrapping at 128).
        let shift = (hash(r as i32, 0, 31) % 32) as i32;
        let (stone, ix) = (0..4)
            .map(|k| {
                let joint = shift + k * 32 + (hash(r as i32, k, 32) % 12) as i32;
                (k, (x as i32 - joint).rem_euclid(128) as usize)
            })
            .min_by_key(|&(_, d)| d)
            .unwrap_or((0, 0));
        let (iy, h) = (y - top, bottom - top);
        if iy + 2 >= h || ix < 2 {
            return Some(c(STONE, 2 + jitter(x, y, 5).max(0)));
        }
        let n = fbm(x as f64, y as f64, (128, 128), 16.0, 4, 41);
        let hs = hash(r as i32, stone, 43);
        let rp = if hs.is_multiple_of(5) { TAN } else { STONE };
        let mut s = 5 + (hs >> 9) as i32 % 3 + (n * 5.0) as i32 - 2 + jitter(x, y, 6);
        if iy == 0 || ix == 2 {
            s += 2;
        } else if iy + 3 == h {
            s -= 2;
        }
        Some(c(rp, s))
    });
    cv
}

fn door() -> Picture {
    let mut cv = Picture::new(64, 128);
    cv.paint(|x, y| {
        let (xi, yi) = (x as i32, y as i32);
        if !(3..=60).contains(&xi) {
            return Some(c(STEEL, if !(1..=62).contains(&xi) { 2 } else { 5 }));
        }
        // Hazard stripes along the bottom edge.
        if (108..122).contains(&yi) {
            return Some(if (xi + yi) / 6 % 2 == 0 { c(YELLOW, 12) } else { c(GREY, 2) });
        }
        if yi >= 122 {
            return Some(c(STEEL, if yi == 122 { 10 } else { 4 }));
        }
        if (yi - 40).abs() <= 2 || (yi - 84).abs() <= 2 {
            return Some(c(STEEL, if yi == 38 || yi == 82 { 12 } else { 9 }));
        }
        if xi == 31 || xi == 32 {
            return Some(c(STEEL, if xi == 31 { 2 } else { 9 }));
        }
        // A small red status light.
        if (44..50).contains(&xi) && (58..64).contains(&yi) {
            return Some(c(RED, if yi < 60 { 15 } else { 12 }));
        }
        let n = value_noise(x as f64, y as f64, 8.0, (8, 16), 51);
        Some(c(STEEL, 6 + (n * 2.0) as i32))
    });
    cv
}

fn track() -> Picture {
    let mut cv = Picture::new(8, 128);
    cv.paint(|x, y| {
        let s = match x {
            0 | 7 => 2,
            3 | 4 => 9,
            _ => 5,
        };
        Some(c(STEEL, if y % 32 == 16 && (2..6).contains(&x) { 12 } else { s }))
    });
    cv
}

/// A masked grate: a frame and bars with transparent holes.
fn grate() -> Picture {
    let mut cv = Picture::new(64, 128);
    cv.paint(|x, y| {
        let (xi, yi) = (x as i32, y as i32);
        if !(3..=60).contains(&xi) || !(3..=124).contains(&yi) {
            let s = if xi == 0 || yi == 0 {
                11
            } else if xi == 63 || yi == 127 {
                3
            } else {
                7
            };
            return Some(c(STEEL, s));
        }
        let vbar = xi % 10 == 6 || xi % 10 == 7;
        let hbar = yi % 20 == 12 || yi % 20 == 13;
        match (vbar, hbar) {
            (true, true) => Some(c(STEEL, 12)),
            (true, false) => Some(c(STEEL, if xi % 10 == 6 { 10 } else { 5 })),
            (false, true) => Some(c(STEEL, if yi % 20 == 12 { 9 } else { 4 })),
            _ => None,
        }
    });
    cv
}

/// A stair riser: a bright nosing, a thin hazard band, then ribbed steel.
fn step() -> Picture {
    let mut cv = Picture::new(64, 16);
    cv.paint(|x, y| {
        Some(match y {
            0 => c(STEEL, 12),
            1 => c(STEEL, 9),
            2..=5 if (x + y) / 4 % 2 == 0 => c(YELLOW, 11),
            2..=5 => c(GREY, 2),
            6 => c(STEEL, 3),
            15 => c(STEEL, 2),
            _ => c(
                STEEL,
                if x % 8 == 0 {
                    8
                } else if x % 8 == 7 {
                    3
                } else {
                    5
                } + jitter(x, y, 7).max(0),
            ),
        })
    });
    cv
}

fn nukage_edge() -> Picture {
    let mut cv = Picture::new(64, 32);
    cv.paint(|x, y| {
        if y < 3 {
            return Some(c(STEEL, if y == 0 { 11 } else { 8 }));
        }
        let n = fbm(x as f64, 0.0, (64, 64), 8.0, 3, 61);
        let slime_top = 10.0 + n * 18.0;
        if y as f64 > slime_top {
            let s = 6 + ((y as f64 - slime_top) / 3.0) as i32 + jitter(x, y, 8);
            return Some(c(if (y as f64) - slime_top < 2.0 { GREEN } else { LIME }, s));
        }
        Some(c(STEEL, 5 + jitter(x, y, 9)))
    });
    cv
}

fn support() -> Picture {
    let mut cv = Picture::new(64, 128);
    cv.paint(|x, y| {
        let (xi, yi) = (x as i32, y as i32);
        if yi % 64 < 6 {
            // A hazard band with bolts.
            return Some(if yi % 64 == 0 || yi % 64 == 5 {
                c(STEEL, 3)
            } else if (xi + yi) / 5 % 2 == 0 {
                c(YELLOW, 11)
            } else {
                c(GREY, 2)
            });
        }
        let s = match xi {
            0..=3 => 3,
            4..=15 => 5,
            16 | 17 => 11,
            18..=45 => 8 - (xi - 18) / 8,
            46 | 47 => 2,
            48..=59 => 5,
            _ => 3,
        };
        let bolt = (xi == 9 || xi == 54) && yi % 16 == 12;
        Some(c(STEEL, if bolt { 12 } else { s + (rnd(xi, yi / 3, 71) * 1.6) as i32 }))
    });
    cv
}
