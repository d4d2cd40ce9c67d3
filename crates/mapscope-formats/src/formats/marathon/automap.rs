//! The overhead map as Marathon draws it (Aleph One `OverheadMapRenderer.cpp` `Render`, with
//! `overhead_map.cpp`'s colours): every polygon filled by its type or liquid, solid lines
//! bright green, lines where the floor changes height darker green, things as squares and
//! the player as a triangle, at the engine's default scale. The map is shown as if every
//! polygon had been seen.

use glam::DVec2;

use super::definitions::transfer;
use super::level::Level;
use super::lights::LightSim;
use super::map::{line_flags, object_kind, Line};
use super::platforms::POLYGON_IS_PLATFORM;
use crate::scene::automap::{
    Automap, AutomapFill, AutomapLine, AutomapStyle, LineKind, Mark, MarkShape, MarkSize, Pen, Zoom,
};

/// `_polygon_is_detached`.
const POLYGON_IS_DETACHED: u16 = 0x4000;
/// `VARIABLE_ELEVATION_LINE_BIT`.
const LINE_VARIABLE_ELEVATION: u16 = 0x0400;
/// `_platform_is_secret`.
const PLATFORM_IS_SECRET: u32 = 1 << 25;
const POLYGON_IS_HILL: u16 = 3;
const POLYGON_IS_MINOR_OUCH: u16 = 19;
const POLYGON_IS_MAJOR_OUCH: u16 = 20;

/// `overhead_map.cpp`'s polygon colours (16-bit channels shifted to 8).
pub mod colours {
    pub const POLYGON: [u8; 3] = [0, 46, 0];
    pub const PLATFORM: [u8; 3] = [117, 0, 0];
    pub const WATER: [u8; 3] = [14, 37, 63];
    pub const LAVA: [u8; 3] = [76, 27, 0];
    pub const SEWAGE: [u8; 3] = [70, 90, 0];
    pub const JJARO: [u8; 3] = [70, 90, 0];
    pub const GOO: [u8; 3] = [137, 0, 137];
    pub const HILL: [u8; 3] = [0, 46, 0];
    pub const MINOR_OUCH: [u8; 3] = [76, 27, 0];
    pub const MAJOR_OUCH: [u8; 3] = [137, 0, 137];
    pub const SOLID_LINE: [u8; 3] = [0, 255, 0];
    pub const ELEVATION_LINE: [u8; 3] = [0, 156, 0];
    /// Not drawn by the engine: two-sided lines with no change, when every line is shown.
    pub const OPEN_LINE: [u8; 3] = [0, 90, 0];
    pub const CIVILIAN: [u8; 3] = [0, 0, 255];
    pub const MONSTER: [u8; 3] = [255, 0, 0];
    pub const ITEM: [u8; 3] = [255, 255, 255];
    /// Not drawn by the engine: scenery.
    pub const SCENERY: [u8; 3] = [110, 110, 110];
    /// Team 0's colour (slate), a single player's.
    pub const PLAYER: [u8; 3] = [36, 95, 163];
    /// Not drawn by the engine: player starts, goals and sound sources (its checkpoints are
    /// red).
    pub const MARKER: [u8; 3] = [255, 0, 0];
}

/// The style at the engine's default scale (3: a world unit, 1024 map units, is 32 pixels
/// of its 640x480 screen), with the pens and marks of that scale.
pub fn marathon_style() -> AutomapStyle {
    let pen = |rgb, width| Pen { rgb, width };
    AutomapStyle {
        name: "Marathon (overhead map)",
        background: [0, 0, 0],
        pens: [
            pen(colours::SOLID_LINE, 2.0),
            pen(colours::ELEVATION_LINE, 1.0),
            pen(colours::ELEVATION_LINE, 1.0),
            pen(colours::OPEN_LINE, 1.0),
            pen(colours::SOLID_LINE, 2.0),
            pen(colours::SOLID_LINE, 2.0),
        ],
        // The player entity {front 16, rear 10, rear theta 7/20 of a turn} halved at scale 3.
        player: Mark {
            shape: MarkShape::Triangle,
            rgb: colours::PLAYER,
            size: MarkSize::Pixels(8.0),
        },
        // Rectangles `radius` pixels across: 4 for monsters at scale 3.
        thing: Mark {
            shape: MarkShape::Square,
            rgb: colours::MONSTER,
            size: MarkSize::Pixels(2.0),
        },
        marker: Mark {
            shape: MarkShape::Diamond,
            rgb: colours::MARKER,
            size: MarkSize::Pixels(4.0),
        },
        rows: 480,
        zoom: Zoom::PixelsPerUnit(1.0 / 32.0),
    }
}

/// The colour of an object's square: civilians (Marathon 2's marine, Bobs and VacBobs) blue,
/// other monsters red, items white, scenery grey.
pub fn object_rgb(kind: u16, index: i16) -> [u8; 3] {
    match kind {
        object_kind::MONSTER if matches!(index, 0 | 12..=15 | 43..=46) => colours::CIVILIAN,
        object_kind::MONSTER => colours::MONSTER,
        object_kind::ITEM => colours::ITEM,
        _ => colours::SCENERY,
    }
}

/// The map of `level` with its liquids as they stand under `lights` (the light state at the
/// start).
pub fn marathon_automap(level: &Level, lights: &LightSim) -> Automap {
    let mut map = Automap::new(marathon_style());
    let point = |i: i16| level.endpoint(i).map(|p| DVec2::new(p.x as f64, p.y as f64));
    for (p, polygon) in level.polygons.iter().enumerate() {
        let landscaped = transfer::is_landscape(polygon.floor_transfer_mode)
            && transfer::is_landscape(polygon.ceiling_transfer_mode);
        if landscaped || polygon.flags & POLYGON_IS_DETACHED != 0 {
            continue;
        }
        let Some(ring) = level.polygon_vertices(p) else { continue };
        let ring = ring.iter().map(|q| DVec2::new(q.x as f64, q.y as f64)).collect();
        map.fills.push(AutomapFill { ring, rgb: polygon_rgb(level, p, lights) });
    }
    for line in &level.lines {
        let (Some(a), Some(b)) = (point(line.endpoints[0]), point(line.endpoints[1])) else {
            continue;
        };
        let Some(kind) = line_kind(level, line) else { continue };
        map.lines.push(AutomapLine { a, b, kind, hidden: false });
    }
    map
}

/// A polygon's fill: its liquid's where the liquid stands at or above the floor, else its
/// type's (a secret platform as a plain polygon).
fn polygon_rgb(level: &Level, p: usize, lights: &LightSim) -> [u8; 3] {
    let polygon = &level.polygons[p];
    if let Some(m) = level.polygon_media(p) {
        if level.media_height(m, lights) >= level.floor[p] {
            match m.kind {
                0 => return colours::WATER,
                1 => return colours::LAVA,
                2 => return colours::GOO,
                3 => return colours::SEWAGE,
                4 => return colours::JJARO,
                _ => {}
            }
        }
    }
    match polygon.kind {
        POLYGON_IS_PLATFORM => {
            let record = level.platforms.iter().find(|r| usize::try_from(r.polygon) == Ok(p));
            if record.is_some_and(|r| r.static_flags & PLATFORM_IS_SECRET != 0) {
                colours::POLYGON
            } else {
                colours::PLATFORM
            }
        }
        POLYGON_IS_MINOR_OUCH => colours::MINOR_OUCH,
        POLYGON_IS_MAJOR_OUCH => colours::MAJOR_OUCH,
        POLYGON_IS_HILL => colours::HILL,
        _ => colours::POLYGON,
    }
}

/// How the engine draws `line`: solid and variable-elevation lines as walls (landscaped
/// ones as elevation lines, or not at all beside a landscaped floor), others as elevation
/// lines where the floors either side differ (not landscaped ones); the rest open.
pub fn line_kind(level: &Level, line: &Line) -> Option<LineKind> {
    let polygon = |i: i16| usize::try_from(i).ok().filter(|&i| i < level.polygons.len());
    let (cw, ccw) = (polygon(line.clockwise_polygon), polygon(line.counterclockwise_polygon));
    let landscaped = line.flags & line_flags::LANDSCAPE != 0;
    let landscape_floor = |p: Option<usize>| {
        p.is_some_and(|p| transfer::is_landscape(level.polygons[p].floor_transfer_mode))
    };
    let solid = line.flags & (line_flags::SOLID | LINE_VARIABLE_ELEVATION) != 0;
    let (Some(cw), Some(ccw)) = (cw, ccw) else {
        // A line with one polygon is a wall whatever its flags say.
        return Some(LineKind::Wall);
    };
    if solid {
        if !landscaped {
            return Some(LineKind::Wall);
        }
        let beside_landscape = landscape_floor(Some(cw)) || landscape_floor(Some(ccw));
        return (!beside_landscape).then_some(LineKind::FloorStep);
    }
    if level.floor[cw] != level.floor[ccw] {
        return (!landscaped).then_some(LineKind::FloorStep);
    }
    Some(LineKind::Open)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civilians_are_blue_monsters_red_items_white() {
        assert_eq!(object_rgb(object_kind::MONSTER, 12), colours::CIVILIAN);
        assert_eq!(object_rgb(object_kind::MONSTER, 44), colours::CIVILIAN);
        assert_eq!(object_rgb(object_kind::MONSTER, 1), colours::MONSTER);
        assert_eq!(object_rgb(object_kind::ITEM, 3), colours::ITEM);
        assert_eq!(object_rgb(object_kind::SCENERY, 3), colours::SCENERY);
    }
}
