//! Boom and MBF line specials that change how sectors and walls are seen rather than what
//! moves: 242 (fake floors and ceilings, "deep water", with colormaps for the viewer's
//! region), 260 (translucent middle textures) and 271/272 (skies transferred from a
//! sidedef), read from a map's linedefs and the WAD stack's lumps.
//!
//! Facts relied on (Boom's `boomref.txt`, `p_setup.c` P_LoadSideDefs2 / P_LoadLineDefs2 and
//! `p_spec.c` P_SpawnSpecials as MBF and its descendants keep them):
//! - 242: every sector tagged like the line (tag 0 included, a later line overriding) takes
//!   the line's first sidedef's sector as its control sector (`heightsec`). That sidedef's
//!   upper, middle and lower names are colormaps when they name `COLORMAP` or a lump between
//!   `C_START` and `C_END` (then the sidedef draws no texture there): the colormaps of the
//!   regions above the control ceiling, between, and below the control floor.
//! - 260: the line's first sidedef's middle name may name a 64 KiB lump (a translucency table)
//!   or `TRANMAP`; then that sidedef has no middle texture, and the line's table is that lump
//!   (`TRANMAP`: the default table). With tag 0 the line itself is translucent, otherwise every
//!   line with its tag (itself included), a later 260 overriding.
//! - 271/272: every sector tagged like the line draws its F_SKY1 floor and ceiling with the
//!   upper texture of the line's first sidedef, that sidedef's x offset added to the view
//!   angle (16.16 units as a binary angle: 1/65536 of a turn a unit), its y offset as the
//!   texture's row offset (`texturemid = rowoffset - 28`), and 271 flipping the columns
//!   (`angle ^ !0`) where 272 keeps vanilla's order.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::doom::archive::wad::{LumpNum, WadStack};
use crate::formats::doom::map::MapData;

pub const FAKE_FLATS: u16 = 242;
pub const TRANSLUCENT_MIDDLE: u16 = 260;
pub const SKY_TRANSFER: u16 = super::boom::SKY_TRANSFER;
pub const SKY_TRANSFER_FLIPPED: u16 = super::boom::SKY_TRANSFER_FLIPPED;

/// Size of a translucency table: a result for each (destination, source) palette pair.
pub const TRANMAP_SIZE: usize = 65536;

/// A sidedef texture slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Upper,
    Middle,
    Lower,
}

/// A sky transferred from a 271/272 line's first sidedef.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkyLine {
    /// The sidedef's upper texture name.
    pub texture: String,
    pub x_offset: i16,
    pub y_offset: i16,
    /// 271: columns read right to left compared with vanilla's sky.
    pub flipped: bool,
}

/// Which translucency table a line blends its middle texture through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tranmap {
    /// The WAD's `TRANMAP` lump when there is one, else Boom's table computed from the palette.
    Default,
    /// A 64 KiB lump named in a 260 line's middle texture.
    Lump(LumpNum),
}

/// The view specials of one map (empty for maps whose specials are not Doom-numbered).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoomViews {
    /// Tagged sector -> its control sector (242).
    pub heightsec: BTreeMap<u32, u32>,
    /// Control sector -> colormap lumps of its regions (below the floor, between, above the
    /// ceiling); `None`: COLORMAP.
    pub region_maps: BTreeMap<u32, [Option<LumpNum>; 3]>,
    /// Linedef -> the table its middle texture blends through (260).
    pub translucent: BTreeMap<u32, Tranmap>,
    /// Sector -> index into `skies` (271, 272).
    pub sector_sky: BTreeMap<u32, usize>,
    pub skies: Vec<SkyLine>,
    /// Sidedef texture slots that name a lump (a colormap, a translucency table), not a
    /// texture: nothing is drawn there.
    pub lump_names: BTreeSet<(u32, Part)>,
}

impl BoomViews {
    /// Reads the view specials of `map`, looking the lumps their sidedefs name up in `stack`.
    pub fn read(map: &MapData, stack: &WadStack, notes: &mut Vec<String>) -> BoomViews {
        let mut v = BoomViews::default();
        if !map.doom_specials() {
            return v;
        }
        let mut sectors_by_tag: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
        for (i, s) in map.sectors.iter().enumerate() {
            sectors_by_tag.entry(s.tag).or_default().push(i as u32);
        }
        let mut lines_by_tag: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
        for (i, l) in map.linedefs.iter().enumerate() {
            lines_by_tag.entry(l.tag).or_default().push(i as u32);
        }
        let colormaps = ColormapLumps::new(stack);
        let (mut fake, mut translucent, mut skies, mut no_side) = (0, 0, 0, 0);
        let mut unknown_tables = BTreeSet::new();
        for (i, line) in map.linedefs.iter().enumerate() {
            if !matches!(
                line.special,
                FAKE_FLATS | TRANSLUCENT_MIDDLE | SKY_TRANSFER | SKY_TRANSFER_FLIPPED
            ) {
                continue;
            }
            let Some((side, sd)) =
                line.sides[0].and_then(|s| Some((s, map.sidedefs.get(s as usize)?)))
            else {
                no_side += 1;
                continue;
            };
            let tagged = sectors_by_tag.get(&line.tag).map_or(&[][..], |t| &t[..]);
            match line.special {
                FAKE_FLATS => {
                    fake += 1;
                    for &s in tagged {
                        v.heightsec.insert(s, sd.sector);
                    }
                    let mut maps = [None; 3];
                    for (k, (part, name)) in [
                        (Part::Lower, &sd.lower),
                        (Part::Middle, &sd.middle),
                        (Part::Upper, &sd.upper),
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        if let Some(lump) = colormaps.number(name) {
                            v.lump_names.insert((side, part));
                            maps[k] = lump;
                        }
                    }
                    v.region_maps.insert(sd.sector, maps);
                }
                TRANSLUCENT_MIDDLE => {
                    translucent += 1;
                    let name = &sd.middle;
                    let table = if name.eq_ignore_ascii_case("TRANMAP") {
                        v.lump_names.insert((side, Part::Middle));
                        Tranmap::Default
                    } else {
                        match stack.lump_num(name).filter(|&n| {
                            stack.lump_at(n).is_some_and(|l| l.data.len() == TRANMAP_SIZE)
                        }) {
                            Some(n) => {
                                v.lump_names.insert((side, Part::Middle));
                                Tranmap::Lump(n)
                            }
                            None => {
                                if stack.lump_num(name).is_some() {
                                    unknown_tables.insert(name.clone());
                                }
                                Tranmap::Default
                            }
                        }
                    };
                    if line.tag == 0 {
                        v.translucent.insert(i as u32, table);
                    } else {
                        for &l in lines_by_tag.get(&line.tag).map_or(&[][..], |t| &t[..]) {
                            v.translucent.insert(l, table.clone());
                        }
                    }
                }
                _ => {
                    skies += 1;
                    let index = v.skies.len();
                    v.skies.push(SkyLine {
                        texture: sd.upper.clone(),
                        x_offset: sd.x_offset,
                        y_offset: sd.y_offset,
                        flipped: line.special == SKY_TRANSFER,
                    });
                    for &s in tagged {
                        v.sector_sky.insert(s, index);
                    }
                }
            }
        }
        if fake > 0 {
            notes.push(format!(
                "{fake} Boom fake floor/ceiling lines (242) drawn: faithful mode repeats Boom's \
                 R_FakeFlat for the viewer's region (below the control floor, between, above \
                 the control ceiling) and draws the view through that region's colormap; smooth \
                 mode and faithful mode off vanilla's projection draw the static heights seen \
                 from between (the control sector's floor and ceiling) with no colormap, and \
                 walls are pegged as seen from between in every mode; sprites are not clipped \
                 by the fake planes"
            ));
        }
        if translucent > 0 {
            notes.push(format!(
                "{translucent} Boom translucent middle lines (260) drawn: faithful mode blends \
                 through the translucency table (the WAD's TRANMAP, or Boom's 66% table from \
                 the palette, or the lump the line names); smooth mode and faithful mode off \
                 vanilla's projection blend 2/3 of the texture over 1/3 of what is behind in \
                 true colour, with any table; things behind the glass show in front of it in \
                 faithful mode"
            ));
        }
        if !unknown_tables.is_empty() {
            let names: Vec<String> = unknown_tables.into_iter().collect();
            notes.push(format!(
                "260 lines name lumps that are not 64 KiB translucency tables ({}): drawn as \
                 textures with the default table, as Boom does",
                names.join(", ")
            ));
        }
        if skies > 0 {
            notes.push(format!(
                "{skies} MBF sky transfer lines (271, 272) drawn: their tagged sectors' skies \
                 show the line's upper texture with its sidedef's offsets"
            ));
        }
        if no_side > 0 {
            notes.push(format!(
                "{no_side} Boom 242, 260 or sky transfer lines have no first sidedef: ignored"
            ));
        }
        v
    }

    pub fn is_empty(&self) -> bool {
        *self == BoomViews::default()
    }
}

/// Boom's colormap namespace: lumps between `C_START` and `C_END`, the last of a name
/// winning, and `COLORMAP` itself (colormap 0).
struct ColormapLumps {
    by_name: BTreeMap<String, LumpNum>,
}

impl ColormapLumps {
    fn new(stack: &WadStack) -> ColormapLumps {
        let mut by_name = BTreeMap::new();
        let mut base = 0;
        for wad in stack.wads() {
            let mut inside = false;
            for (i, info) in wad.lumps().iter().enumerate() {
                match info.name.as_str() {
                    "C_START" => inside = true,
                    "C_END" => inside = false,
                    name if inside => {
                        by_name.insert(name.to_string(), base + i);
                    }
                    _ => {}
                }
            }
            base += wad.lumps().len();
        }
        ColormapLumps { by_name }
    }

    /// `Some(None)` for COLORMAP, `Some(Some(lump))` for a colormap lump, `None` when `name`
    /// is no colormap (R_ColormapNumForName's -1).
    fn number(&self, name: &str) -> Option<Option<LumpNum>> {
        let upper = name.to_ascii_uppercase();
        if upper == "COLORMAP" {
            return Some(None);
        }
        self.by_name.get(&upper).map(|&l| Some(l))
    }
}

/// Boom's default translucency table (`R_InitTranMap`) for `palette`: entry
/// `dest * 256 + src` is the palette colour nearest (in squared RGB distance, the last of
/// equals by Boom's downward search) to 34% of `dest` plus 66% of `src`, in Boom's 12-bit
/// fixed point.
pub fn default_tranmap(palette: &[[u8; 3]]) -> Vec<u8> {
    const TSC: u32 = 12;
    let pal: Vec<[i64; 3]> =
        (0..256).map(|i| palette.get(i).copied().unwrap_or([0; 3]).map(i64::from)).collect();
    let w1 = (66i64 << TSC) / 100;
    let w2 = (1i64 << TSC) - w1;
    let total: Vec<i64> =
        pal.iter().map(|c| (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) << (TSC - 1)).collect();
    let mut out = Vec::with_capacity(TRANMAP_SIZE);
    for dest in &pal {
        for src in &pal {
            let mix: [i64; 3] = std::array::from_fn(|k| dest[k] * w2 + src[k] * w1);
            let mut best = (i64::MAX, 0u8);
            for colour in (0..256).rev() {
                let c = pal[colour];
                let err = total[colour] - c[0] * mix[0] - c[1] * mix[1] - c[2] * mix[2];
                if err < best.0 {
                    best = (err, colour as u8);
                }
            }
            out.push(best.1);
        }
    }
    out
}

/// A colormap lump as 34 rows of 256: rows a short lump lacks repeat its last light row, or
/// for the invulnerability and black rows (32, 33) come from COLORMAP (`colormap`); `None`
/// for a lump under one row.
pub fn colormap_rows(data: &[u8], colormap: &[u8]) -> Option<Vec<u8>> {
    const ZERO: [u8; 256] = [0; 256];
    let rows = (data.len() / 256).min(34);
    if rows == 0 {
        return None;
    }
    let row = |r: usize| -> &[u8] {
        if r < rows {
            &data[r * 256..(r + 1) * 256]
        } else if r >= 32 {
            colormap.get(r * 256..(r + 1) * 256).unwrap_or(&ZERO)
        } else {
            &data[(rows - 1) * 256..rows * 256]
        }
    };
    Some((0..34).flat_map(|r| row(r).iter().copied()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn reads_fake_flats_translucency_and_skies() {
        let mut level = testwad::two_room_level();
        let map = &mut level.map;
        map.sectors[1].tag = 7;
        // Line 0's front sidedef is in sector 0: the control; its lower name is COLORMAP
        // (colormap 0), its middle a texture.
        map.linedefs[0].special = FAKE_FLATS;
        map.linedefs[0].tag = 7;
        map.sidedefs[0].lower = "COLORMAP".into();
        // Line 1: 260 with tag 3 (lines 1 and 2 get the default table).
        map.linedefs[1].special = TRANSLUCENT_MIDDLE;
        map.linedefs[1].tag = 3;
        map.linedefs[2].tag = 3;
        map.sidedefs[1].middle = "TRANMAP".into();
        // Line 5: a flipped sky transfer (271) to sector 1.
        map.linedefs[5].special = SKY_TRANSFER;
        map.linedefs[5].tag = 7;
        map.sidedefs[6].upper = "STARTAN".into();
        let stack = testwad::stack_with(&level);
        let mut notes = Vec::new();
        let v = BoomViews::read(&level.map, &stack, &mut notes);
        assert_eq!(v.heightsec, BTreeMap::from([(1, 0)]));
        assert_eq!(v.region_maps, BTreeMap::from([(0, [None, None, None])]));
        assert_eq!(v.translucent, BTreeMap::from([(1, Tranmap::Default), (2, Tranmap::Default)]));
        assert_eq!(v.sector_sky, BTreeMap::from([(1, 0)]));
        assert!(v.skies[0].flipped && v.skies[0].texture == "STARTAN");
        // COLORMAP and TRANMAP are lumps, not textures: nothing drawn there.
        assert_eq!(v.lump_names, BTreeSet::from([(0, Part::Lower), (1, Part::Middle)]));
        assert_eq!(notes.len(), 3, "{notes:?}");
    }

    #[test]
    fn default_table_leans_to_the_source() {
        // A grey ramp: 34% of black and 66% of white is the grey nearest 168.
        let palette: Vec<[u8; 3]> = (0..256).map(|i| [i as u8; 3]).collect();
        let table = default_tranmap(&palette);
        assert_eq!(table.len(), TRANMAP_SIZE);
        assert_eq!(table[255], 168); // dest 0, src 255
        assert_eq!(table[255 << 8], 87); // dest 255, src 0
        assert!((0..256).all(|i| table[i << 8 | i] as usize == i));
    }

    #[test]
    fn short_colormaps_are_padded() {
        let colormap: Vec<u8> = (0..34 * 256).map(|i| (i / 256) as u8).collect();
        let rows = colormap_rows(&[9; 2 * 256 + 10], &colormap).unwrap();
        assert_eq!(rows.len(), 34 * 256);
        // Two light rows, repeated to 32; then COLORMAP's rows 32 and 33.
        assert!(rows[..32 * 256].iter().all(|&b| b == 9));
        assert_eq!((rows[32 * 256], rows[33 * 256]), (32, 33));
        assert_eq!(colormap_rows(&[1; 255], &colormap), None);
    }
}
