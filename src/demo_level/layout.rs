//! The demo map's plan: axis-aligned rectangular cells (each its own sector), per-edge
//! styling, and things.
//!
//! ```text
//!   y                               (not to scale)
//! 1472             +----------+
//!                  | machine  |  strobe; scrolling TECHWALL at the back
//! 1344  +----------+==grate===+----+
//!  closet|door|rec.   gallery       |  carpet, ELEC columns, a trooper
//! 1152  +---+-------------------+---+
//!           |   6 steps (16 up) |
//!  960  +---+-------------------+---+
//!       |   rim (ELEC columns)      |
//!  896 ++---+-------------------+---++              +---------------------+ 1088
//!      |walk|  nukage pool, sky |walk|              |      court_n        |
//!      | W  |  ceiling; pillars | E  |=window========+------+--------+-----+ 768
//!      |    |  at y 640..672    |    |      court_w | plinth |court_e|
//!      |    |                   |    |=grate passage=+------+--------+-----+ 576
//!  448 ++---+-------------------+---++              |      court_s  (sky) |
//!      |          hall               |              |                     |
//!  192 +--------+--------+-----------+              +---------------------+ 192
//!               | start  |  player 1 at (448, 64) looking north
//!    0          +--------+
//!      0  192  320      576    704  896  960      1152     1344     1536   x
//! ```

use crate::formats::doom::map::{line_flags, Thing};

/// Sector light specials used.
pub mod light {
    pub const BLINK: u16 = 1;
    pub const GLOW: u16 = 8;
    pub const STROBE: u16 = 12;
}

/// One rectangular cell: a sector of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub name: &'static str,
    /// West, south, east, north edges.
    pub x0: i16,
    pub y0: i16,
    pub x1: i16,
    pub y1: i16,
    pub floor: i16,
    pub ceiling: i16,
    pub floor_flat: &'static str,
    pub ceiling_flat: &'static str,
    pub light: i16,
    pub special: u16,
    /// Middle texture of its one-sided walls.
    pub wall: &'static str,
    /// Texture of its face above a neighbour whose ceiling is higher (a neighbour's upper).
    pub upper: &'static str,
    /// Texture of its face above a neighbour whose floor is lower (a neighbour's lower).
    pub lower: &'static str,
}

impl Cell {
    pub fn area(&self) -> f64 {
        (self.x1 - self.x0) as f64 * (self.y1 - self.y0) as f64
    }
}

/// Which side of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    West,
    North,
    East,
    South,
}

/// Overrides for the sidedef facing `cell` on the edge between `cell` and `other` (`None`:
/// a one-sided wall on side `dir`), and for that edge's linedef.
#[derive(Clone, Debug, Default)]
pub struct EdgeStyle {
    pub cell: &'static str,
    pub other: Option<&'static str>,
    /// For one-sided walls: which side of `cell` (every one-sided piece on that side).
    pub dir: Option<Dir>,
    pub upper: Option<&'static str>,
    pub lower: Option<&'static str>,
    pub middle: Option<&'static str>,
    pub y_offset: i16,
    /// Linedef flags added.
    pub flags: u16,
    pub special: u16,
}

#[allow(clippy::too_many_arguments)]
const fn cell(
    name: &'static str,
    (x0, y0, x1, y1): (i16, i16, i16, i16),
    (floor, ceiling): (i16, i16),
    (floor_flat, ceiling_flat): (&'static str, &'static str),
    (light, special): (i16, u16),
    (wall, upper, lower): (&'static str, &'static str, &'static str),
) -> Cell {
    Cell {
        name,
        x0,
        y0,
        x1,
        y1,
        floor,
        ceiling,
        floor_flat,
        ceiling_flat,
        light,
        special,
        wall,
        upper,
        lower,
    }
}

/// Pool cells: nukage under an open sky, glowing.
fn pool(name: &'static str, rect: (i16, i16, i16, i16)) -> Cell {
    cell(name, rect, (-32, 320), ("NUKAGE1", "F_SKY1"), (208, light::GLOW), ("-", "-", "-"))
}

/// A pillar: floor and ceiling at the same height.
fn pillar(name: &'static str, rect: (i16, i16, i16, i16)) -> Cell {
    cell(
        name,
        rect,
        (320, 320),
        ("FLMETAL", "FLMETAL"),
        (160, 0),
        ("SUPPORT", "SUPPORT", "SUPPORT"),
    )
}

fn courtyard(name: &'static str, rect: (i16, i16, i16, i16)) -> Cell {
    cell(
        name,
        rect,
        (-16, 288),
        ("FLGRASS", "F_SKY1"),
        (224, 0),
        ("STONEWAL", "STONEWAL", "STONEWAL"),
    )
}

/// The cells, in sector order: name, (x0, y0, x1, y1), (floor, ceiling), (floor flat,
/// ceiling flat), (light, special), (wall, upper, lower).
#[rustfmt::skip]
pub fn cells() -> Vec<Cell> {
    let mut v = vec![
        cell("start",  (320, 0, 576, 192),   (48, 176), ("FLTILE", "CEILLITE"),  (176, 0), ("BRICKLIT", "METALPNL", "STEPRISE")),
        cell("hall",   (0, 192, 896, 448),   (0, 256),  ("FLTILE", "CEILTILE"),  (160, 0), ("BRICKRED", "BRICKRED", "NUKEDGE")),
        cell("walk_w", (0, 448, 192, 896),   (0, 192),  ("FLMETAL", "CEILLITE"), (192, 0), ("BRICKLIT", "METALPNL", "NUKEDGE")),
        cell("walk_e", (704, 448, 896, 896), (0, 192),  ("FLMETAL", "CEILLITE"), (192, 0), ("BRICKLIT", "METALPNL", "NUKEDGE")),
        pool("pool_s",     (192, 448, 704, 640)),
        pool("pool_w",     (192, 640, 240, 672)),
        pillar("pillar_w", (240, 640, 272, 672)),
        pool("pool_c",     (272, 640, 624, 672)),
        pillar("pillar_e", (624, 640, 656, 672)),
        pool("pool_e",     (656, 640, 704, 672)),
        pool("pool_n",     (192, 672, 704, 896)),
        cell("rim",    (192, 896, 704, 960), (0, 256),  ("FLMETAL", "CEILLITE"), (192, 0), ("BRICKRED", "BRICKRED", "NUKEDGE")),
    ];
    // Six steps of 16 up to the gallery.
    const STEPS: [&str; 6] = ["step1", "step2", "step3", "step4", "step5", "step6"];
    for (k, name) in (0..).zip(STEPS) {
        let y = 960 + 32 * k;
        v.push(cell(name, (256, y, 640, y + 32), (16 * (k + 1), 256), ("FLTILE", "CEILTILE"), (176, 0), ("METALPNL", "METALPNL", "STEPRISE")));
    }
    v.extend([
        cell("gallery", (192, 1152, 704, 1344), (112, 304), ("FLCARPET", "CEILLITE"), (160, 0),              ("BRICKLIT", "METALPNL", "STEPRISE")),
        cell("machine", (320, 1344, 576, 1472), (112, 240), ("FLMETAL", "CEILLITE"),  (224, light::STROBE), ("TECHWALL", "METALPNL", "STEPRISE")),
        cell("recess",  (160, 1216, 192, 1280), (112, 224), ("FLMETAL", "CEILTILE"),  (160, 0),              ("SUPPORT", "METALPNL", "STEPRISE")),
        cell("door",    (144, 1216, 160, 1280), (112, 136), ("FLMETAL", "FLMETAL"),   (160, 0),              ("DOORTRAK", "DOOR1", "STEPRISE")),
        cell("closet",  (48, 1184, 144, 1312),  (112, 240), ("FLTILE", "CEILLITE"),   (208, light::BLINK),  ("BRICKLIT", "METALPNL", "STEPRISE")),
        cell("window",  (896, 640, 960, 768),   (64, 160),  ("FLMETAL", "CEILTILE"),  (176, 0),              ("SUPPORT", "METALPNL", "METALPNL")),
        cell("passage", (896, 448, 960, 576),   (0, 128),   ("FLMETAL", "CEILLITE"),  (176, 0),              ("SUPPORT", "METALPNL", "STEPRISE")),
        courtyard("court_s", (960, 192, 1536, 576)),
        courtyard("court_w", (960, 576, 1152, 768)),
        cell("plinth",  (1152, 576, 1344, 768), (24, 288),  ("FLTILE", "F_SKY1"),     (224, 0),              ("STONEWAL", "STONEWAL", "STONEWAL")),
        courtyard("court_e", (1344, 576, 1536, 768)),
        courtyard("court_n", (960, 768, 1536, 1088)),
    ]);
    v
}

/// Edge overrides: the grates, the window and doorway faces seen from outside, the door
/// tracks, and the scrolling wall.
pub fn edge_styles() -> Vec<EdgeStyle> {
    let grate = |cell, other| EdgeStyle {
        cell,
        other: Some(other),
        middle: Some("GRATE"),
        flags: line_flags::IMPASSABLE,
        ..Default::default()
    };
    vec![
        grate("gallery", "machine"),
        grate("machine", "gallery"),
        grate("passage", "court_s"),
        grate("court_s", "passage"),
        // The window: outside faces are stone; the sill is lower-unpegged and the lintel
        // upper-unpegged so both line up with the window opening.
        EdgeStyle {
            cell: "court_w",
            other: Some("window"),
            upper: Some("STONELIT"),
            lower: Some("STONEWAL"),
            flags: line_flags::UPPER_UNPEGGED | line_flags::LOWER_UNPEGGED,
            ..Default::default()
        },
        EdgeStyle {
            cell: "walk_e",
            other: Some("window"),
            flags: line_flags::UPPER_UNPEGGED | line_flags::LOWER_UNPEGGED,
            ..Default::default()
        },
        EdgeStyle {
            cell: "court_s",
            other: Some("passage"),
            upper: Some("STONEWAL"),
            ..Default::default()
        },
        // Door tracks stay put as the door rises.
        EdgeStyle {
            cell: "door",
            dir: Some(Dir::North),
            flags: line_flags::LOWER_UNPEGGED,
            ..Default::default()
        },
        EdgeStyle {
            cell: "door",
            dir: Some(Dir::South),
            flags: line_flags::LOWER_UNPEGGED,
            ..Default::default()
        },
        // The machine room's back wall scrolls (linedef special 48).
        EdgeStyle { cell: "machine", dir: Some(Dir::North), special: 48, ..Default::default() },
    ]
}

/// Things: lamps, columns, barrels, troopers, and player 1 (last, so it is the one vanilla
/// gives the player).
pub fn things() -> Vec<Thing> {
    let t = |x: i32, y: i32, angle, kind| Thing {
        x: x << 16,
        y: y << 16,
        angle,
        kind,
        flags: 7,
        ..Default::default()
    };
    vec![
        // Floor lamps at the pool's corners and on the plinth.
        t(160, 480, 0, 2028),
        t(736, 480, 0, 2028),
        t(160, 864, 0, 2028),
        t(736, 864, 0, 2028),
        t(1184, 608, 0, 2028),
        t(1312, 736, 0, 2028),
        // Techno columns beside the stairs and the grate.
        t(224, 928, 0, 48),
        t(672, 928, 0, 48),
        t(288, 1312, 0, 48),
        t(608, 1312, 0, 48),
        // Barrels.
        t(96, 256, 0, 2035),
        t(136, 230, 0, 2035),
        t(816, 300, 0, 2035),
        t(1040, 280, 0, 2035),
        t(1072, 248, 0, 2035),
        t(1440, 960, 0, 2035),
        t(168, 600, 0, 2035),
        t(728, 656, 0, 2035),
        // Troopers: on the gallery facing the start, in the courtyard side-on.
        t(448, 1232, 270, 3004),
        t(584, 928, 225, 3004),
        t(1248, 400, 180, 3004),
        t(1100, 900, 45, 3004),
        // Player 1 in the entrance, looking north up the hall.
        t(448, 64, 90, 1),
    ]
}
