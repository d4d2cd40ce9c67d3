//! Platform polygons' heights at level start, as the engine sets them when it adds the
//! platforms (Aleph One `game_wad.cpp` `scan_and_add_platforms`, `platforms.cpp`
//! `new_platform` and `calculate_platform_extrema`).
//!
//! Every polygon of the platform type becomes a platform, in polygon order: with the first
//! `plat` record that names it, else with the defaults of the split door. A record's missing
//! extremes (NONE) come from the polygon's neighbours as they stand at that moment, so a
//! platform next to an earlier one sees its moved heights. An extended platform stands at its
//! top (from the floor) or hangs at its bottom (from the ceiling); a contracted one the other
//! way; split platforms meet half way.

use super::map::{platform_flags as flag, Platform, NONE};

/// `_polygon_is_platform`.
pub const POLYGON_IS_PLATFORM: u16 = 5;

/// The split door's defaults (`platform_definitions.h`), which a platform polygon without a
/// record gets: from floor and ceiling, initially extended (closed), extremes from the
/// neighbours.
pub fn split_door(polygon: i16) -> Platform {
    Platform {
        kind: 1,
        speed: 0,
        delay: 0,
        maximum_height: NONE,
        minimum_height: NONE,
        static_flags: flag::INITIALLY_EXTENDED
            | flag::EXTENDS_FLOOR_TO_CEILING
            | flag::COMES_FROM_FLOOR
            | flag::COMES_FROM_CEILING,
        polygon,
        tag: 0,
    }
}

/// The floor and ceiling a platform starts at, from the polygon's stored `floor` and
/// `ceiling` and its neighbours' current (floor, ceiling) pairs.
pub fn initial_heights(
    p: &Platform,
    (floor, ceiling): (i16, i16),
    neighbours: impl IntoIterator<Item = (i16, i16)>,
) -> (i16, i16) {
    let has = |f: u32| p.static_flags & f != 0;
    let (mut lowest_floor, mut highest_floor) = (floor, floor);
    let (mut lowest_ceiling, mut highest_ceiling) = (ceiling, ceiling);
    for (f, c) in neighbours {
        lowest_floor = lowest_floor.min(f);
        highest_floor = highest_floor.max(f);
        lowest_ceiling = lowest_ceiling.min(c);
        highest_ceiling = highest_ceiling.max(c);
    }
    if has(flag::EXTENDS_FLOOR_TO_CEILING) {
        highest_floor = highest_floor.max(ceiling);
        lowest_ceiling = lowest_ceiling.min(floor);
    }
    let or = |stored: i16, derived: i16| if stored == NONE { derived } else { stored };
    let (from_floor, from_ceiling) = (has(flag::COMES_FROM_FLOOR), has(flag::COMES_FROM_CEILING));
    let native = has(flag::USES_NATIVE_POLYGON_HEIGHTS);
    let extended = has(flag::INITIALLY_EXTENDED);
    if from_floor && from_ceiling {
        let bottom = or(p.minimum_height, lowest_floor);
        let top = or(p.maximum_height, highest_ceiling);
        let middle = ((bottom as i32 + top as i32) / 2) as i16;
        return if extended { (middle, middle) } else { (bottom, top) };
    }
    if from_floor {
        if native {
            if floor < lowest_floor || has(flag::EXTENDS_FLOOR_TO_CEILING) {
                lowest_floor = floor;
            } else {
                highest_floor = floor;
            }
        }
        let (low, high) = (or(p.minimum_height, lowest_floor), or(p.maximum_height, highest_floor));
        return (if extended { high } else { low }, ceiling);
    }
    if from_ceiling {
        if native {
            if ceiling > highest_ceiling || has(flag::EXTENDS_FLOOR_TO_CEILING) {
                highest_ceiling = ceiling;
            } else {
                lowest_ceiling = ceiling;
            }
        }
        let low = or(p.minimum_height, lowest_ceiling);
        let high = or(p.maximum_height, highest_ceiling);
        return (floor, if extended { low } else { high });
    }
    (floor, ceiling)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn platform(flags: u32, min: i16, max: i16) -> Platform {
        Platform {
            kind: 0,
            speed: 0,
            delay: 0,
            maximum_height: max,
            minimum_height: min,
            static_flags: flags,
            polygon: 0,
            tag: 0,
        }
    }

    const NEIGHBOURS: [(i16, i16); 2] = [(0, 2048), (512, 3072)];

    #[test]
    fn stored_extremes_win() {
        let up = platform(flag::COMES_FROM_FLOOR | flag::INITIALLY_EXTENDED, 100, 900);
        assert_eq!(initial_heights(&up, (300, 2000), NEIGHBOURS), (900, 2000));
        let down = platform(flag::COMES_FROM_FLOOR, 100, 900);
        assert_eq!(initial_heights(&down, (300, 2000), NEIGHBOURS), (100, 2000));
        let door = platform(flag::COMES_FROM_CEILING | flag::INITIALLY_EXTENDED, 100, 900);
        assert_eq!(initial_heights(&door, (300, 2000), NEIGHBOURS), (300, 100));
    }

    #[test]
    fn missing_extremes_come_from_the_neighbours() {
        // A lift from the floor: between the lowest and highest floor around it (and its own).
        let up = platform(flag::COMES_FROM_FLOOR | flag::INITIALLY_EXTENDED, NONE, NONE);
        assert_eq!(initial_heights(&up, (300, 2000), NEIGHBOURS), (512, 2000));
        let down = platform(flag::COMES_FROM_FLOOR, NONE, NONE);
        assert_eq!(initial_heights(&down, (300, 2000), NEIGHBOURS), (0, 2000));
        // A door from the ceiling that closes onto its own floor.
        let door = platform(
            flag::COMES_FROM_CEILING | flag::INITIALLY_EXTENDED | flag::EXTENDS_FLOOR_TO_CEILING,
            NONE,
            NONE,
        );
        assert_eq!(initial_heights(&door, (300, 2000), NEIGHBOURS), (300, 300));
        let open = platform(flag::COMES_FROM_CEILING, NONE, NONE);
        assert_eq!(initial_heights(&open, (300, 2000), NEIGHBOURS), (300, 3072));
    }

    #[test]
    fn native_heights_take_the_polygon_as_one_extreme() {
        let f = flag::COMES_FROM_FLOOR | flag::USES_NATIVE_POLYGON_HEIGHTS;
        // The engine compares the floor with a lowest floor that already counts it, so the
        // polygon's floor is the top, the lowest neighbour the bottom.
        let up = platform(f | flag::INITIALLY_EXTENDED, NONE, NONE);
        assert_eq!(initial_heights(&up, (300, 2000), NEIGHBOURS), (300, 2000));
        let down = platform(f, NONE, NONE);
        assert_eq!(initial_heights(&down, (300, 2000), NEIGHBOURS), (0, 2000));
        // Unless the platform reaches the ceiling: then its floor is the bottom.
        let reach =
            platform(f | flag::EXTENDS_FLOOR_TO_CEILING | flag::INITIALLY_EXTENDED, NONE, NONE);
        assert_eq!(initial_heights(&reach, (300, 2000), NEIGHBOURS), (2000, 2000));
    }

    #[test]
    fn split_platforms_meet_half_way() {
        let door = split_door(0);
        assert_eq!(initial_heights(&door, (300, 2000), NEIGHBOURS), (1536, 1536));
        let open = platform(flag::COMES_FROM_FLOOR | flag::COMES_FROM_CEILING, NONE, 2500);
        assert_eq!(initial_heights(&open, (300, 2000), NEIGHBOURS), (0, 2500));
    }
}
