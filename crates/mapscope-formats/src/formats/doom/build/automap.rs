//! The automap step: every linedef as vanilla's automap draws it (am_map.c `AM_drawWalls`),
//! in the level's own PLAYPAL colours at vanilla's palette indices, with vanilla's player
//! arrow, thing triangles and opening zoom.
//!
//! The map is shown as it looks once every line has been seen: one-sided lines red, floor
//! height changes brown, ceiling height changes yellow, teleporters a lighter red, secret
//! lines as one-sided walls, two-sided lines with no change and ML_DONTDRAW lines left off
//! (the IDDT cheat's view, every line, draws those too: two-sided ones grey).

use glam::DVec2;

use crate::formats::doom::map::{line_flags, Linedef, MapData};
use crate::scene::automap::{
    Automap, AutomapLine, AutomapStyle, LineKind, Mark, MarkShape, MarkSize, Pen, Zoom,
};

/// am_map.c's palette indices (`REDS` 256-5*16, `GRAYS` 6*16, `BROWNS` 4*16, `YELLOWS`
/// 256-32+7, `GREENS` 7*16, `WHITE` 256-47, `BLUES` 256-4*16+8).
pub mod colours {
    pub const BACKGROUND: u8 = 0;
    pub const WALL: u8 = 176;
    /// `WALLCOLORS + WALLRANGE/2`.
    pub const TELEPORTER: u8 = 184;
    pub const FLOOR_CHANGE: u8 = 64;
    pub const CEILING_CHANGE: u8 = 231;
    pub const NO_CHANGE: u8 = 96;
    pub const THING: u8 = 112;
    pub const PLAYER: u8 = 209;
    /// Not an am_map.c colour: mapscope's markers (player starts, the engine's things).
    pub const MARKER: u8 = 200;
}

/// `PLAYERRADIUS`: the player arrow is 8/7 of it long each way from its centre.
const PLAYER_RADIUS: f64 = 16.0;
/// `AM_drawThings` scales `thintriangle_guy` to 16 map units.
const THING_RADIUS: f64 = 16.0;

/// How vanilla's automap tells a linedef apart, in the order `AM_drawWalls` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VanillaClass {
    /// No back sector (no second sidedef): `WALLCOLORS`.
    OneSided,
    /// Type 39 (W1 teleport): `WALLCOLORS + WALLRANGE/2`.
    Teleporter,
    /// ML_SECRET: drawn as a one-sided wall (`SECRETWALLCOLORS` is `WALLCOLORS`), so a
    /// secret door does not show as one.
    Secret,
    /// The floors either side differ: `FDWALLCOLORS`.
    FloorChange,
    /// The ceilings differ: `CDWALLCOLORS`.
    CeilingChange,
    /// Nothing differs: drawn only by the IDDT cheat, `TSWALLCOLORS`.
    NoChange,
}

impl VanillaClass {
    pub fn kind(self) -> LineKind {
        match self {
            VanillaClass::OneSided | VanillaClass::Secret => LineKind::Wall,
            VanillaClass::Teleporter => LineKind::Teleporter,
            VanillaClass::FloorChange => LineKind::FloorStep,
            VanillaClass::CeilingChange => LineKind::CeilingStep,
            VanillaClass::NoChange => LineKind::Open,
        }
    }
}

/// How vanilla's automap draws `line` of `map`. Type 39 is a teleporter only where the map
/// numbers its specials as Doom does.
pub fn vanilla_class(map: &MapData, line: &Linedef) -> VanillaClass {
    let sector = |side: Option<u32>| {
        let sd = map.sidedefs.get(side? as usize)?;
        map.sectors.get(sd.sector as usize)
    };
    let (Some(front), Some(back)) = (sector(line.sides[0]), sector(line.sides[1])) else {
        return VanillaClass::OneSided;
    };
    if line.special == 39 && map.doom_specials() {
        VanillaClass::Teleporter
    } else if line.has_flag(line_flags::SECRET) {
        VanillaClass::Secret
    } else if back.floor != front.floor {
        VanillaClass::FloorChange
    } else if back.ceiling != front.ceiling {
        VanillaClass::CeilingChange
    } else {
        VanillaClass::NoChange
    }
}

/// Vanilla's automap style in `palette`'s colours (the level's PLAYPAL).
pub fn doom_style(palette: &[[u8; 3]]) -> AutomapStyle {
    let rgb = |i: u8| palette.get(i as usize).copied().unwrap_or([255, 255, 255]);
    let pen = |i: u8| Pen { rgb: rgb(i), width: 1.0 };
    AutomapStyle {
        name: "Doom (am_map.c)",
        background: rgb(colours::BACKGROUND),
        pens: [
            pen(colours::WALL),
            pen(colours::FLOOR_CHANGE),
            pen(colours::CEILING_CHANGE),
            pen(colours::NO_CHANGE),
            pen(colours::TELEPORTER),
            // No Doom line is an edge; the wall's pen, should one be.
            pen(colours::WALL),
        ],
        player: Mark {
            shape: MarkShape::DoomArrow,
            rgb: rgb(colours::PLAYER),
            size: MarkSize::Units { radius: 8.0 * PLAYER_RADIUS / 7.0, min_px: 8.0 },
        },
        thing: Mark {
            shape: MarkShape::ThinTriangle,
            rgb: rgb(colours::THING),
            size: MarkSize::Units { radius: THING_RADIUS, min_px: 3.0 },
        },
        marker: Mark {
            shape: MarkShape::Diamond,
            rgb: rgb(colours::MARKER),
            size: MarkSize::Units { radius: THING_RADIUS, min_px: 3.0 },
        },
        // One-pixel lines on a 640x400 screen, as ports draw vanilla's at twice its size
        // (on 320x200 too: no pen is narrower than a pixel).
        rows: 400,
        // AM_LevelInit: the scale that fits the level, over 0.7; above max_scale_mtof (the
        // window's height across two player radii), the fitting scale.
        zoom: Zoom::LevelFit { times: 1.0 / 0.7, max_px_per_unit: 400.0 / (2.0 * PLAYER_RADIUS) },
    }
}

/// The map of `map` as vanilla's automap draws it, in `palette`'s colours.
pub fn doom_automap(map: &MapData, palette: &[[u8; 3]]) -> Automap {
    let mut automap = Automap::new(doom_style(palette));
    let point = |v: u32| map.vertices.get(v as usize).map(|v| v.to_dvec2());
    automap.lines = map
        .linedefs
        .iter()
        .filter_map(|line| {
            let (a, b): (DVec2, DVec2) = (point(line.v1)?, point(line.v2)?);
            Some(AutomapLine {
                a,
                b,
                kind: vanilla_class(map, line).kind(),
                hidden: line.has_flag(line_flags::NOT_ON_MAP),
            })
        })
        .collect();
    automap
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::{Sector, Sidedef, Vertex};

    /// Sectors 0 (floor 0, ceiling 128), 1 (floor 16, ceiling 128), 2 (floor 0, ceiling 96),
    /// 3 (as 0); one sidedef each.
    fn map() -> MapData {
        let sector = |floor, ceiling| Sector { floor, ceiling, ..Default::default() };
        let side = |sector| Sidedef { sector, ..Default::default() };
        MapData {
            vertices: vec![Vertex::units(0, 0), Vertex::units(64, 0)],
            sectors: vec![sector(0, 128), sector(16, 128), sector(0, 96), sector(0, 128)],
            sidedefs: (0..4).map(side).collect(),
            ..Default::default()
        }
    }

    fn line(front: u32, back: Option<u32>, special: u16, flags: u16) -> Linedef {
        Linedef { v1: 0, v2: 1, sides: [Some(front), back], special, flags, ..Default::default() }
    }

    #[test]
    fn lines_are_classed_in_am_draw_walls_order() {
        let m = map();
        let class = |l: Linedef| vanilla_class(&m, &l);
        assert_eq!(class(line(0, None, 0, 0)), VanillaClass::OneSided);
        // One-sided wins over everything, the secret flag included.
        assert_eq!(class(line(0, None, 39, line_flags::SECRET)), VanillaClass::OneSided);
        assert_eq!(class(line(0, Some(3), 0, 0)), VanillaClass::NoChange);
        assert_eq!(class(line(0, Some(1), 0, 0)), VanillaClass::FloorChange);
        assert_eq!(class(line(0, Some(2), 0, 0)), VanillaClass::CeilingChange);
        // A floor change wins over a ceiling one.
        let mut m2 = map();
        m2.sectors[1].ceiling = 96;
        assert_eq!(vanilla_class(&m2, &line(0, Some(1), 0, 0)), VanillaClass::FloorChange);
        // The teleporter before the secret flag, the secret flag before the heights.
        assert_eq!(class(line(0, Some(1), 39, line_flags::SECRET)), VanillaClass::Teleporter);
        assert_eq!(class(line(0, Some(1), 0, line_flags::SECRET)), VanillaClass::Secret);
        // The two-sided flag means nothing to the automap: the second sidedef does.
        assert_eq!(class(line(0, Some(3), 0, line_flags::TWO_SIDED)), VanillaClass::NoChange);
        assert_eq!(class(line(0, None, 0, line_flags::TWO_SIDED)), VanillaClass::OneSided);
    }

    #[test]
    fn type_39_is_a_teleporter_only_in_doom_numbering() {
        let mut m = map();
        m.format = crate::formats::doom::map::MapFormat::Hexen;
        assert_eq!(vanilla_class(&m, &line(0, Some(3), 39, 0)), VanillaClass::NoChange);
    }

    #[test]
    fn secret_lines_draw_as_walls_and_dontdraw_lines_are_hidden() {
        let mut m = map();
        m.linedefs = vec![
            line(0, Some(1), 0, line_flags::SECRET),
            line(0, Some(1), 0, line_flags::NOT_ON_MAP),
            line(0, None, 0, 0),
        ];
        let palette: Vec<[u8; 3]> = (0..256).map(|i| [i as u8, 0, 255 - i as u8]).collect();
        let automap = doom_automap(&m, &palette);
        let kinds: Vec<_> = automap.lines.iter().map(|l| (l.kind, l.hidden)).collect();
        assert_eq!(
            kinds,
            [(LineKind::Wall, false), (LineKind::FloorStep, true), (LineKind::Wall, false)]
        );
        assert_eq!(automap.lines[0].a, DVec2::new(0.0, 0.0));
        assert_eq!(automap.lines[0].b, DVec2::new(64.0, 0.0));
        // The colours are the palette's at am_map.c's indices.
        let style = &automap.style;
        assert_eq!(style.pen(LineKind::Wall).rgb, [176, 0, 79]);
        assert_eq!(style.pen(LineKind::FloorStep).rgb, [64, 0, 191]);
        assert_eq!(style.pen(LineKind::CeilingStep).rgb, [231, 0, 24]);
        assert_eq!(style.pen(LineKind::Open).rgb, [96, 0, 159]);
        assert_eq!(style.pen(LineKind::Teleporter).rgb, [184, 0, 71]);
        assert_eq!(style.player.rgb, [209, 0, 46]);
        assert_eq!(style.thing.rgb, [112, 0, 143]);
        assert_eq!(style.background, [0, 0, 255]);
    }
}
