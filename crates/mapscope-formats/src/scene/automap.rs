//! The level seen from above, as the game's own map screen shows it: lines in the game's
//! native map coordinates, each with what it stands for (a wall, a floor step, ...), the
//! areas some games fill (Marathon's polygons), and the style the game draws them in
//! (colours, pen widths, the player's and the things' marks, the zoom it opens at).
//!
//! Doom and Marathon build theirs from their own records with their own colours; the other
//! games' maps are drawn from the scene's triangles in a plain style ([`outline`]). Nothing
//! here draws: `render::automap` turns this into pixels, for `render --automap` and the
//! viewer's Tab alike.

mod outline;

pub use outline::{outline, OUTLINE_STYLE};

use glam::{DVec2, DVec3, Vec3};

use super::Axes;

/// What a line of the map stands for; the style gives each its pen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LineKind {
    /// A wall with nothing beyond it (Doom: a one-sided linedef, and a secret one, which
    /// vanilla draws the same; Marathon: a solid line; a plain map: a wall's footprint).
    Wall,
    /// The floor changes height across the line.
    FloorStep,
    /// The ceiling changes height across the line, the floor does not.
    CeilingStep,
    /// Two-sided with no change in height: drawn only when every line is shown (Doom's
    /// IDDT cheat draws these grey).
    Open,
    /// Doom: a teleporter line (type 39).
    Teleporter,
    /// A plain map: where a floor ends with no wall above its edge.
    Edge,
}

impl LineKind {
    pub const COUNT: usize = 6;
    pub const ALL: [LineKind; LineKind::COUNT] = [
        LineKind::Wall,
        LineKind::FloorStep,
        LineKind::CeilingStep,
        LineKind::Open,
        LineKind::Teleporter,
        LineKind::Edge,
    ];

    /// The name `info`-like output and tests use.
    pub const fn name(self) -> &'static str {
        match self {
            LineKind::Wall => "wall",
            LineKind::FloorStep => "floor step",
            LineKind::CeilingStep => "ceiling step",
            LineKind::Open => "open",
            LineKind::Teleporter => "teleporter",
            LineKind::Edge => "edge",
        }
    }
}

/// One line of the map, its ends in native map coordinates (see [`Axes::plan_of_native`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutomapLine {
    pub a: DVec2,
    pub b: DVec2,
    pub kind: LineKind,
    /// Never on the map as the game shows it (Doom's ML_DONTDRAW): drawn only when every line
    /// is shown.
    pub hidden: bool,
}

/// An area filled in one colour under the lines (Marathon's polygons by type and liquid).
#[derive(Clone, Debug, PartialEq)]
pub struct AutomapFill {
    /// Corners in native map coordinates, in order round the area.
    pub ring: Vec<DVec2>,
    pub rgb: [u8; 3],
}

/// A line's colour and width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    pub rgb: [u8; 3],
    /// Width in pixels on an image [`AutomapStyle::rows`] tall (wider on taller images);
    /// 0: lines of this kind are not drawn.
    pub width: f64,
}

/// How big a mark is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MarkSize {
    /// Its radius in native map units: it grows and shrinks with the zoom (Doom's things and
    /// player arrow), but never below `min_px` pixels on an image [`AutomapStyle::rows`] tall.
    Units { radius: f64, min_px: f64 },
    /// Its radius in pixels on an image [`AutomapStyle::rows`] tall, whatever the zoom.
    Pixels(f64),
}

/// The outline of a mark, drawn turned to its facing (0 = pointing along the map's +x,
/// counter-clockwise as seen on the map).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkShape {
    /// Doom's player arrow (am_map.c `player_arrow`: a shaft with a head and two fletchings).
    DoomArrow,
    /// Doom's thing mark (am_map.c `thintriangle_guy`): a thin triangle's outline.
    ThinTriangle,
    /// A filled triangle (Marathon's player: `front` ahead, two corners `rear` behind at
    /// 7/20 of a turn either side).
    Triangle,
    /// A filled square, not turned (Marathon's things).
    Square,
    /// A diamond's outline, not turned (markers, as the 3D view draws them).
    Diamond,
}

/// A kind of mark: its shape, colour and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub shape: MarkShape,
    pub rgb: [u8; 3],
    pub size: MarkSize,
}

/// How far in the map opens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Zoom {
    /// The whole level would fit the image this many times over each way (Doom's automap
    /// opens at the scale that fits the level, divided by 0.7: am_map.c `AM_LevelInit`), but
    /// never closer than `max_px_per_unit` pixels a native unit on an image
    /// [`AutomapStyle::rows`] tall.
    LevelFit { times: f64, max_px_per_unit: f64 },
    /// Pixels a native unit on an image [`AutomapStyle::rows`] tall.
    PixelsPerUnit(f64),
}

/// How the game draws its map.
#[derive(Clone, Debug, PartialEq)]
pub struct AutomapStyle {
    /// Whose style this is, for messages ("Doom (am_map.c)").
    pub name: &'static str,
    pub background: [u8; 3],
    /// One pen per [`LineKind`], by `kind as usize`.
    pub pens: [Pen; LineKind::COUNT],
    /// The camera (the player).
    pub player: Mark,
    /// The things the scene draws as sprites.
    pub thing: Mark,
    /// The scene's markers (entities, starts and other records).
    pub marker: Mark,
    /// The image height pen widths and pixel sizes are given for (the game's screen).
    pub rows: u32,
    pub zoom: Zoom,
}

impl AutomapStyle {
    pub fn pen(&self, kind: LineKind) -> Pen {
        self.pens[kind as usize]
    }
}

/// A level's map as the game draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Automap {
    pub style: AutomapStyle,
    /// Drawn in order, after the fills.
    pub lines: Vec<AutomapLine>,
    pub fills: Vec<AutomapFill>,
    /// One colour per scene sprite where the game tells its things apart (Marathon: monsters
    /// red, items white); empty: every sprite in the style's thing colour.
    pub sprite_rgb: Vec<[u8; 3]>,
}

impl Automap {
    /// An empty map in `style`.
    pub fn new(style: AutomapStyle) -> Automap {
        Automap { style, lines: Vec::new(), fills: Vec::new(), sprite_rgb: Vec::new() }
    }

    /// How many lines of each kind the map has, shown and hidden alike.
    pub fn count(&self, kind: LineKind) -> usize {
        self.lines.iter().filter(|l| l.kind == kind).count()
    }

    /// The box round every line and fill, in plan coordinates (see [`Axes::plan`]).
    pub fn plan_bounds(&self, axes: Axes) -> Option<(DVec2, DVec2)> {
        let ends = self.lines.iter().flat_map(|l| [l.a, l.b]);
        let corners = self.fills.iter().flat_map(|f| f.ring.iter().copied());
        let mut it = ends.chain(corners).map(|p| axes.plan_of_native(p));
        let first = it.next()?;
        Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
    }
}

impl Axes {
    /// Where a viewer-space point lies on the map: the plane seen from above with +x to the
    /// right and +y up the image, which for every format is viewer (x, -z): Doom's north,
    /// Marathon's -y (its map's up), Saturn Quake's +z.
    pub fn plan(v: Vec3) -> DVec2 {
        DVec2::new(v.x as f64, -(v.z as f64))
    }

    /// [`Axes::plan`] of a viewer-space point in double precision.
    pub fn plan_f64(v: DVec3) -> DVec2 {
        DVec2::new(v.x, -v.z)
    }

    /// The native map coordinates of a line's end (the two horizontal native axes: Doom and
    /// Marathon x and y, the y-up formats x and z) on the map.
    pub fn plan_of_native(self, p: DVec2) -> DVec2 {
        Axes::plan_f64(self.to_viewer_f64(self.native_3d(p, 0.0)))
    }

    /// The native map coordinates of a point of the map ([`Axes::plan_of_native`] undone).
    pub fn native_of_plan(self, p: DVec2) -> DVec2 {
        let n = self.to_native_f64(DVec3::new(p.x, 0.0, -p.y));
        match self {
            Axes::ZUpRightHanded | Axes::ZUpLeftHanded => DVec2::new(n.x, n.y),
            Axes::YUp | Axes::YUpLeftHanded => DVec2::new(n.x, n.z),
        }
    }

    /// A native point from its map coordinates and its height.
    pub fn native_3d(self, p: DVec2, height: f64) -> DVec3 {
        match self {
            Axes::ZUpRightHanded | Axes::ZUpLeftHanded => DVec3::new(p.x, p.y, height),
            Axes::YUp | Axes::YUpLeftHanded => DVec3::new(p.x, height, p.y),
        }
    }

    /// A native point's map coordinates (its two horizontal axes).
    pub fn native_2d(self, p: DVec3) -> DVec2 {
        match self {
            Axes::ZUpRightHanded | Axes::ZUpLeftHanded => DVec2::new(p.x, p.y),
            Axes::YUp | Axes::YUpLeftHanded => DVec2::new(p.x, p.z),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_shows_doom_north_and_marathon_minus_y_up() {
        let up = |axes: Axes, p: DVec2| axes.plan_of_native(p);
        assert_eq!(up(Axes::ZUpRightHanded, DVec2::new(3.0, 5.0)), DVec2::new(3.0, 5.0));
        assert_eq!(up(Axes::ZUpLeftHanded, DVec2::new(3.0, 5.0)), DVec2::new(3.0, -5.0));
        assert_eq!(up(Axes::YUp, DVec2::new(3.0, 5.0)), DVec2::new(3.0, -5.0));
        assert_eq!(up(Axes::YUpLeftHanded, DVec2::new(3.0, 5.0)), DVec2::new(3.0, 5.0));
        for axes in [Axes::ZUpRightHanded, Axes::ZUpLeftHanded, Axes::YUp, Axes::YUpLeftHanded] {
            let p = DVec2::new(-7.5, 12.25);
            assert_eq!(axes.native_of_plan(axes.plan_of_native(p)), p, "{axes:?}");
            let viewer = axes.to_viewer_f64(axes.native_3d(p, 40.0));
            assert_eq!(Axes::plan_f64(viewer), axes.plan_of_native(p), "{axes:?}");
            assert_eq!(axes.native_2d(axes.native_3d(p, 40.0)), p);
        }
    }

    #[test]
    fn a_camera_facing_its_native_angle_points_that_way_on_the_map() {
        // Doom: angle 90 faces north, which is up the map; Marathon: facing 90 is +y,
        // which is down its map.
        for (axes, angle, want) in [
            (Axes::ZUpRightHanded, 90.0, DVec2::new(0.0, 1.0)),
            (Axes::ZUpLeftHanded, 90.0, DVec2::new(0.0, -1.0)),
            (Axes::ZUpRightHanded, 0.0, DVec2::new(1.0, 0.0)),
        ] {
            let yaw = axes.yaw_to_viewer(angle);
            let pose = crate::scene::CameraPose { pos: DVec3::ZERO, yaw, pitch: 0.0 };
            let dir = Axes::plan_f64(pose.forward());
            assert!((dir - want).length() < 1e-9, "{axes:?} {angle}: {dir}");
            // The map's own angle of a yaw: the yaw itself.
            assert!((DVec2::from_angle(yaw) - want).length() < 1e-9);
        }
    }
}
