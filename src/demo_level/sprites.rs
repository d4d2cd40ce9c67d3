//! Sprites: a floor lamp (COLU, full-bright in vanilla), a tall techno column (ELEC), a barrel
//! with two frames (BAR1), and a trooper with five drawn rotations and three mirrored (POSS).

use super::palette::{c, ramp::*};
use super::picture::{hash, Picture};

/// A sprite lump: name, picture, and offsets (left = width/2, top = height: it stands on the
/// floor).
pub struct SpriteLump {
    pub name: &'static str,
    pub picture: Picture,
}

pub fn sprites() -> Vec<SpriteLump> {
    let s = |name, picture| SpriteLump { name, picture };
    vec![
        s("BAR1A0", barrel(0)),
        s("BAR1B0", barrel(1)),
        s("COLUA0", lamp()),
        s("ELECA0", column()),
        s("POSSA1", trooper(View::Front)),
        s("POSSA2A8", trooper(View::FrontSide)),
        s("POSSA3A7", trooper(View::Side)),
        s("POSSA4A6", trooper(View::BackSide)),
        s("POSSA5", trooper(View::Back)),
    ]
}

/// Cylinder shading across `width` texels: bright a third of the way in, dark at the rims.
fn cylinder(x: i32, width: i32, lo: i32, hi: i32) -> i32 {
    let t = (x as f64 + 0.5) / width as f64;
    let d = (t - 0.35).abs() / 0.65;
    hi - ((hi - lo) as f64 * d * d * 1.6).min((hi - lo) as f64) as i32
}

fn lamp() -> Picture {
    let (w, h) = (22, 56);
    let mut cv = Picture::new(w, h);
    // Base.
    for y in 50..56 {
        let half = 4 + (y - 50);
        for x in 11 - half..11 + half {
            cv.set(x, y, Some(c(STEEL, cylinder(x - (11 - half), 2 * half, 2, 8))));
        }
    }
    // Pole.
    for y in 18..50 {
        for x in 9..13 {
            cv.set(x, y, Some(c(STEEL, cylinder(x - 9, 4, 4, 10))));
        }
    }
    // Glowing globe with a cap.
    for y in 0..20 {
        for x in 0..w as i32 {
            let (dx, dy) = (x as f64 - 10.5, y as f64 - 10.0);
            let d = (dx * dx + dy * dy).sqrt();
            if d <= 9.5 {
                let col = if d < 3.5 {
                    c(GREY, 15)
                } else if d < 6.0 {
                    c(YELLOW, 15)
                } else if d < 8.0 {
                    c(YELLOW, 13)
                } else {
                    c(ORANGE, 12)
                };
                cv.set(x, y, Some(col));
            }
        }
    }
    cv.rect(7, 0, 15, 2, c(STEEL, 9));
    cv.rect(8, 18, 14, 20, c(STEEL, 6));
    cv
}

fn column() -> Picture {
    let (w, h) = (28i32, 128i32);
    let mut cv = Picture::new(w as usize, h as usize);
    for y in 0..h {
        let (x0, x1) = if !(6..116).contains(&y) { (0, w) } else { (4, w - 4) };
        for x in x0..x1 {
            let mut s = cylinder(x - x0, x1 - x0, 2, 10);
            if y == 0 || y == 116 || (y - 6) % 22 == 0 {
                s = (s + 3).min(13);
            } else if y == 5 || y == 127 || (y - 6) % 22 == 21 {
                s = (s - 3).max(1);
            }
            let mut col = c(STEEL, s);
            // A segmented light strip down the middle.
            if (12..16).contains(&x) && y > 8 && y < 114 && (y - 6) % 22 > 3 && (y - 6) % 22 < 19 {
                col = c(TEAL, if x == 13 { 15 } else { 12 });
            }
            cv.set(x, y, Some(col));
        }
    }
    cv
}

fn barrel(frame: u32) -> Picture {
    let (w, h) = (24i32, 32i32);
    let mut cv = Picture::new(w as usize, h as usize);
    for y in 3..h {
        for x in 0..w {
            let mut s = cylinder(x, w, 2, 10);
            if (9..11).contains(&y) || (23..25).contains(&y) {
                s -= 2;
            }
            let rust = hash(x / 2, y / 3, 151).is_multiple_of(9);
            let r = if rust { TAN } else { OLIVE };
            cv.set(x, y, Some(c(r, s)));
        }
    }
    // The open top: a rim round glowing slime, bubbling differently per frame.
    for y in 0..7 {
        for x in 0..w {
            let (dx, dy) = ((x as f64 - 11.5) / 12.0, (y as f64 - 3.5) / 3.5);
            let d = dx * dx + dy * dy;
            if d <= 1.0 {
                let bubble = hash(x, y, 160 + frame).is_multiple_of(5);
                let col = if d > 0.6 {
                    c(OLIVE, 11)
                } else if bubble {
                    c(YELLOW, 14)
                } else {
                    c(LIME, 12 + frame as i32)
                };
                cv.set(x, y, Some(col));
            }
        }
    }
    cv
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Front,
    /// Facing the viewer and to screen-left.
    FrontSide,
    /// Facing screen-left.
    Side,
    /// Facing away and to screen-left.
    BackSide,
    Back,
}

/// A trooper 40 wide, 56 tall: helmet, khaki tunic, olive trousers and a rifle.
fn trooper(view: View) -> Picture {
    let (w, h) = (40i32, 56i32);
    let mut cv = Picture::new(w as usize, h as usize);
    let cx = 20;
    let (front, side): (bool, i32) = match view {
        View::Front => (true, 0),
        View::FrontSide => (true, 1),
        View::Side => (false, 2),
        View::BackSide => (false, 1),
        View::Back => (false, 0),
    };
    let half_torso = [9, 7, 5][side as usize];
    let shift = [0, -1, -2][side as usize];
    // Legs and boots.
    for lx in [-5, 2] {
        let lx = if side == 2 { lx / 2 } else { lx - side };
        for y in 36..56 {
            for x in cx + lx..cx + lx + 5 {
                let col =
                    if y >= 51 { c(GREY, 3) } else { c(OLIVE, cylinder(x - cx - lx, 5, 3, 7)) };
                cv.set(x, y, Some(col));
            }
        }
    }
    // Torso.
    for y in 17..37 {
        for x in cx - half_torso + shift..cx + half_torso + shift {
            let s = cylinder(x - (cx - half_torso + shift), 2 * half_torso, 3, 9) - (!front) as i32;
            cv.set(x, y, Some(c(TAN, s)));
        }
    }
    cv.rect(cx - half_torso + shift, 33, cx + half_torso + shift, 35, c(GREY, 3));
    if front {
        cv.rect(cx - 1 + shift, 33, cx + 2 + shift, 35, c(YELLOW, 11));
    }
    // Arms (both visible from the front and back; one from the side).
    let arms: &[i32] = match side {
        0 => &[-half_torso - 4, half_torso],
        1 => &[-half_torso - 3, half_torso - 1],
        _ => &[-2],
    };
    for &ax in arms {
        for y in 18..34 {
            for x in cx + ax + shift..cx + ax + shift + 4 {
                cv.set(x, y, Some(c(TAN, cylinder(x - (cx + ax + shift), 4, 3, 8))));
            }
        }
        cv.rect(cx + ax + shift, 33, cx + ax + shift + 4, 37, c(SKIN, 8));
    }
    // Rifle: across the body from the front, pointing left in side views, over the shoulder
    // from behind.
    match (front, side) {
        (true, 0) => {
            cv.rect(cx - 12, 29, cx + 12, 32, c(GREY, 3));
            cv.rect(cx - 12, 29, cx - 8, 31, c(GREY, 6));
        }
        (true, 1) | (false, 2) => {
            let x0 = if side == 2 { 2 } else { 5 };
            cv.rect(x0, 26, cx + 4, 29, c(GREY, 3));
            cv.rect(x0, 26, x0 + 8, 27, c(GREY, 7));
        }
        _ => {
            for i in 0..14 {
                cv.set(cx + 4 + i / 2 + shift, 8 + i, Some(c(GREY, 4)));
                cv.set(cx + 5 + i / 2 + shift, 8 + i, Some(c(GREY, 2)));
            }
        }
    }
    // Head and helmet.
    let hx = cx + shift - if side == 2 { 1 } else { 0 };
    for y in 3..18 {
        for x in hx - 6..hx + 6 {
            let (dx, dy) = (x as f64 - hx as f64 + 0.5, y as f64 - 10.5);
            if dx * dx / 36.0 + dy * dy / 56.0 > 1.0 {
                continue;
            }
            let helmet = y < 8 || (!front && y < 14) || (side == 2 && x > hx + 1 && y < 14);
            let col = if helmet {
                c(GREEN, if y < 5 { 7 } else { 4 })
            } else {
                c(SKIN, cylinder(x - hx + 6, 12, 5, 10))
            };
            cv.set(x, y, Some(col));
        }
    }
    if front {
        let eyes: &[i32] = if side == 0 { &[-3, 2] } else { &[-4, 0] };
        for &e in eyes {
            cv.set(hx + e, 10, Some(c(GREY, 1)));
        }
        cv.rect(hx - 2 - side, 14, hx + 2 - side, 15, c(RED, 4));
    } else if side == 2 {
        cv.set(hx - 5, 10, Some(c(GREY, 1)));
    }
    cv
}
