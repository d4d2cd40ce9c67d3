//! Boom line specials that change what is seen in a static level: light transfer (213, 261)
//! and scrollers (vanilla's 48, Boom's 85 and 250-255), read from a map's linedefs.
//!
//! Facts relied on (Boom's reference `boomref.txt` and its `p_spec.c` behaviour as the MBF,
//! PrBoom and Eternity descendants document and keep it):
//! - 213 sets the floor lighting of every sector tagged like the line to the light of the
//!   line's first sidedef's sector; 261 does the same for ceilings. The transfer is a
//!   pointer, not a copy: the floor shows the control sector's light as it changes (its light
//!   specials), and only the plane is relit (walls and things keep their sector's light).
//! - Tagged sectors are those whose tag equals the line's tag, 0 included (Boom's
//!   `P_FindSectorFromLineTag` does not skip tag 0); a later line overrides an earlier one.
//! - A scroller adds a fixed amount per tic (one thinker run a tic) to a sidedef's texture
//!   and row offsets or a sector plane's flat offsets; several scrollers on one surface add up.
//! - 250/251/253 take the line's vector shifted right by 5 (`SCROLL_SHIFT`: a 32-unit line
//!   scrolls one unit a tic) and add (-dx, dy) to the flat's (xoffs, yoffs); the span drawer
//!   adds xoffs to its x fraction and yoffs to its y fraction (whose texel row is -y), so the
//!   texture moves along the line's direction. 250 scrolls ceilings, 251 floors, 253 floors
//!   and carries things; 252 only carries things (nothing seen).
//! - 254 scrolls the first sidedef of every other line with the same tag: the scroll vector
//!   (dx, dy) is turned into the tagged line's frame, `x = (dy*-ldy - dx*ldx) / len` added to
//!   the texture offset and `y = (dy*ldx - dx*ldy) / len` to the row offset (16.16, 64-bit,
//!   truncated toward zero), with `len` the tagged line's length.
//! - 255 scrolls its own first sidedef by (-x offset, +y offset) of that sidedef a tic.
//! - 48 adds one unit a tic to its first sidedef's texture offset; 85 (Boom) subtracts one.
//! - 245-249 and 214-218 are 250-254 moved by a control sector's height changes; heights do
//!   not change in a viewer, so they scroll nothing.
//!
//! Velocities are (u, v) in 16.16 texels per tic: walls add u to the texture offset (texture
//! column) and v to the row offset (texel row); flats add u to the texel column and v to the
//! texel row.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::doom::map::MapData;

/// One map unit (and texel) in 16.16.
const FRACUNIT: i64 = 1 << 16;
/// Boom's `SCROLL_SHIFT`: the line vector over 32 is the scroll a tic.
const SCROLL_SHIFT: u32 = 5;

/// Vanilla's scrolling wall (front sidedef, one unit a tic to the left).
pub const SCROLL_LEFT: u16 = 48;
/// Boom: scrolling wall the other way.
pub const SCROLL_RIGHT: u16 = 85;
pub const TRANSFER_FLOOR_LIGHT: u16 = 213;
pub const TRANSFER_CEILING_LIGHT: u16 = 261;
pub const SCROLL_CEILING: u16 = 250;
pub const SCROLL_FLOOR: u16 = 251;
pub const CARRY: u16 = 252;
pub const SCROLL_FLOOR_CARRY: u16 = 253;
pub const SCROLL_TAGGED_WALLS: u16 = 254;
pub const SCROLL_BY_OFFSETS: u16 = 255;
/// MBF: the sky of tagged sectors from the upper texture of the line's first sidedef (272
/// flipped); see `boom_views`.
pub const SKY_TRANSFER: u16 = 271;
pub const SKY_TRANSFER_FLIPPED: u16 = 272;

/// A scroll velocity: (u, v) in 16.16 texels a tic.
pub type Velocity = [i64; 2];

/// The Boom effects of one map (empty for maps whose specials are not Doom-numbered).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoomEffects {
    /// Target sector -> the sector whose light its floor (213) or ceiling (261) shows.
    pub floor_light: BTreeMap<u32, u32>,
    pub ceiling_light: BTreeMap<u32, u32>,
    /// Sidedef -> its wall scroll a tic.
    pub side_scroll: BTreeMap<u32, Velocity>,
    /// Sector -> its floor's / ceiling's flat scroll a tic.
    pub floor_scroll: BTreeMap<u32, Velocity>,
    pub ceiling_scroll: BTreeMap<u32, Velocity>,
    /// Lines with a scroll special (48, 85, 250-255).
    pub scrolling_lines: usize,
}

impl BoomEffects {
    /// Reads the effects of `map`'s line specials; what is recognised but not drawn is named
    /// in `notes`.
    pub fn read(map: &MapData, notes: &mut Vec<String>) -> BoomEffects {
        BoomEffects::read_with(map, notes, false)
    }

    /// [`BoomEffects::read`], or with `vanilla_only` the effects vanilla Doom has among them
    /// (48's scrolling walls) and nothing of Boom's.
    pub fn read_with(map: &MapData, notes: &mut Vec<String>, vanilla_only: bool) -> BoomEffects {
        let mut fx = BoomEffects::default();
        if !map.doom_specials() {
            return fx;
        }
        let mut sectors_by_tag: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
        for (i, s) in map.sectors.iter().enumerate() {
            sectors_by_tag.entry(s.tag).or_default().push(i as u32);
        }
        let mut lines_by_tag: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
        for (i, l) in map.linedefs.iter().enumerate() {
            lines_by_tag.entry(l.tag).or_default().push(i);
        }
        let mut carriers = 0usize;
        let mut height_driven = BTreeSet::new();
        let mut no_front = 0usize;
        let mut light_transfers = 0usize;
        for (i, line) in map.linedefs.iter().enumerate() {
            let special = line.special;
            if vanilla_only && special != SCROLL_LEFT {
                continue;
            }
            let front_side = line.sides[0];
            let front = front_side.and_then(|s| map.sidedefs.get(s as usize));
            let tagged = || sectors_by_tag.get(&line.tag).map_or(&[][..], |v| &v[..]);
            let (dx, dy) = line_vector(map, line.v1, line.v2);
            // The scroll a tic of a vector scroller (250-254): the line vector >> SCROLL_SHIFT.
            let (sdx, sdy) = (dx >> SCROLL_SHIFT, dy >> SCROLL_SHIFT);
            match special {
                TRANSFER_FLOOR_LIGHT | TRANSFER_CEILING_LIGHT => {
                    light_transfers += 1;
                    let Some(control) = front.map(|sd| sd.sector) else {
                        no_front += 1;
                        continue;
                    };
                    let to = if special == TRANSFER_FLOOR_LIGHT {
                        &mut fx.floor_light
                    } else {
                        &mut fx.ceiling_light
                    };
                    for &s in tagged() {
                        to.insert(s, control);
                    }
                }
                SCROLL_LEFT | SCROLL_RIGHT | SCROLL_BY_OFFSETS => {
                    fx.scrolling_lines += 1;
                    let (Some(side), Some(sd)) = (front_side, front) else {
                        no_front += 1;
                        continue;
                    };
                    let v = match special {
                        SCROLL_LEFT => [FRACUNIT, 0],
                        SCROLL_RIGHT => [-FRACUNIT, 0],
                        _ => [-(sd.x_offset as i64) * FRACUNIT, sd.y_offset as i64 * FRACUNIT],
                    };
                    add(&mut fx.side_scroll, side, v);
                }
                SCROLL_CEILING | SCROLL_FLOOR | SCROLL_FLOOR_CARRY => {
                    fx.scrolling_lines += 1;
                    let to = if special == SCROLL_CEILING {
                        &mut fx.ceiling_scroll
                    } else {
                        &mut fx.floor_scroll
                    };
                    for &s in tagged() {
                        add(to, s, [-sdx, sdy]);
                    }
                    if special == SCROLL_FLOOR_CARRY {
                        carriers += 1;
                    }
                }
                CARRY => {
                    fx.scrolling_lines += 1;
                    carriers += 1;
                }
                SCROLL_TAGGED_WALLS => {
                    fx.scrolling_lines += 1;
                    for &j in lines_by_tag.get(&line.tag).map_or(&[][..], |v| &v[..]) {
                        let Some(target) = map.linedefs.get(j).filter(|_| j != i) else {
                            continue;
                        };
                        let Some(side) = target.sides[0] else { continue };
                        let (ldx, ldy) = line_vector(map, target.v1, target.v2);
                        if let Some(v) = wall_scroll(sdx, sdy, ldx, ldy) {
                            add(&mut fx.side_scroll, side, v);
                        }
                    }
                }
                214..=218 | 245..=249 => {
                    height_driven.insert(special);
                }
                _ => {}
            }
        }
        if carriers > 0 {
            notes.push(format!(
                "{carriers} Boom conveyor lines (252, 253) carry things: not shown (things stand \
                 still in a viewer); 253's floor scroll is drawn"
            ));
        }
        if !height_driven.is_empty() {
            let list: Vec<String> = height_driven.iter().map(u16::to_string).collect();
            notes.push(format!(
                "Boom displacement/accelerative scrollers ({}) move only when their control \
                 sector's heights change, which never happens here: nothing scrolls",
                list.join(", ")
            ));
        }
        if light_transfers > 0 {
            // Freedoom's own maps have some (MAP02, MAP20): say why such a floor differs from a
            // vanilla engine's frame.
            notes.push(format!(
                "{light_transfers} Boom light-transfer lines (213, 261) drawn: their tagged \
                 sectors' floor or ceiling takes the control sector's light, as Boom ports show \
                 it (vanilla Doom and Chocolate Doom ignore these lines)"
            ));
        }
        if no_front > 0 {
            notes.push(format!(
                "{no_front} Boom light-transfer or wall-scroll lines have no first sidedef: ignored"
            ));
        }
        fx
    }

    pub fn is_empty(&self) -> bool {
        *self == BoomEffects::default()
    }
}

fn add(to: &mut BTreeMap<u32, Velocity>, key: u32, v: Velocity) {
    let e = to.entry(key).or_insert([0, 0]);
    // Offsets are 32-bit in Boom; sums stay far inside i64 (at most 2^32 a line).
    e[0] = e[0].saturating_add(v[0]);
    e[1] = e[1].saturating_add(v[1]);
}

/// A line's vector v2 - v1 in 16.16 (0 for a vertex that does not exist).
fn line_vector(map: &MapData, v1: u32, v2: u32) -> (i64, i64) {
    match (map.vertex(v1), map.vertex(v2)) {
        (Some(a), Some(b)) => (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64),
        _ => (0, 0),
    }
}

/// 254's scroll a tic of a wall on a line with vector (`ldx`, `ldy`) for the scroll vector
/// (`dx`, `dy`), all 16.16: the texture offset gets the part along the line (negated), the
/// row offset the part across it. Boom's line length comes from its angle tables; here it is
/// the exact length (they differ by well under a texel over thousands of tics). `None` for a
/// zero-length line.
pub fn wall_scroll(dx: i64, dy: i64, ldx: i64, ldy: i64) -> Option<Velocity> {
    let len = ((ldx as f64).hypot(ldy as f64)).round() as i64;
    if len == 0 {
        return None;
    }
    // Rust's integer division truncates toward zero, as C's does.
    let x = (dy.saturating_mul(-ldy)).saturating_sub(dx.saturating_mul(ldx)) / len;
    let y = (dy.saturating_mul(ldx)).saturating_sub(dx.saturating_mul(ldy)) / len;
    Some([x, y])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn wall_scroll_turns_the_vector_into_the_line_frame() {
        let u = FRACUNIT;
        // A scroll along a line's own direction moves its texture offset back (the picture
        // moves toward v2); across it, the rows.
        assert_eq!(wall_scroll(u, 0, 64 * u, 0), Some([-u, 0]));
        assert_eq!(wall_scroll(0, u, 64 * u, 0), Some([0, u]));
        assert_eq!(wall_scroll(u, 0, 0, 0), None);
    }

    #[test]
    fn reads_transfers_and_scrollers() {
        let mut level = testwad::two_room_level();
        let map = &mut level.map;
        map.sectors[1].tag = 7;
        // Line 0 (front sector 0): floor light of sector 1 from sector 0.
        map.linedefs[0].special = TRANSFER_FLOOR_LIGHT;
        map.linedefs[0].tag = 7;
        map.linedefs[1].special = SCROLL_FLOOR;
        map.linedefs[1].tag = 7;
        map.linedefs[2].special = CARRY;
        let mut notes = Vec::new();
        let fx = BoomEffects::read(map, &mut notes);
        assert_eq!(fx.floor_light, BTreeMap::from([(1, 0)]));
        let (dx, dy) = line_vector(map, map.linedefs[1].v1, map.linedefs[1].v2);
        assert_eq!(fx.floor_scroll, BTreeMap::from([(1, [-(dx >> 5), dy >> 5])]));
        assert_eq!(fx.scrolling_lines, 2);
        assert!(notes.iter().any(|n| n.contains("carry things")), "{notes:?}");
    }

    #[test]
    fn vanilla_rules_keep_48_and_nothing_of_boom() {
        let mut level = testwad::two_room_level();
        let map = &mut level.map;
        map.sectors[1].tag = 7;
        map.linedefs[0].special = TRANSFER_FLOOR_LIGHT;
        map.linedefs[0].tag = 7;
        map.linedefs[1].special = SCROLL_RIGHT;
        map.linedefs[2].special = SCROLL_LEFT;
        let fx = BoomEffects::read_with(map, &mut Vec::new(), true);
        assert!(fx.floor_light.is_empty(), "213 is Boom's");
        let side = map.linedefs[2].sides[0].expect("line 2 has a front side");
        assert_eq!(fx.side_scroll, BTreeMap::from([(side, [FRACUNIT, 0])]));
        assert_eq!(fx.scrolling_lines, 1);
    }
}
