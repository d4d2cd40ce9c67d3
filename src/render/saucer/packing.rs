//! Attack of the Saucerman's part of packing a scene (`FamilyPacking`): LUT1 joined with the
//! palette, and the fog and table constants.

use crate::render::family::FamilyPacking;
use crate::render::lit_tables::FamilyTables;

/// Words of the tables before LUT1 (shaders/saucer.wgsl).
const SAUCER_HEADER: usize = 8;

pub(in crate::render) struct SaucerPacking<'a> {
    pub tables: &'a [u32],
}

impl FamilyPacking for SaucerPacking<'_> {
    fn tables_words(&self) -> Vec<u32> {
        self.tables.to_vec()
    }

    fn tables(&self, palette: &[u32], tables_at: u32, joined_at: u32) -> FamilyTables {
        joined(self.tables, palette, tables_at, joined_at)
    }
}

/// LUT1 (lighting part x fog level x colour → palette index) through the palette: each word
/// is the lit colour's RGB with its index in the top byte, which translucent surfaces and the
/// key target still need.
///
/// Constants: background, fog near, fog far, joined LUT1 and LUT2 word offsets.
fn joined(tables: &[u32], palette: &[u32], tables_at: u32, joined_at: u32) -> FamilyTables {
    let word = |i: usize| tables.get(i).copied().unwrap_or(0);
    let (lut1, lut2) = (word(3) as usize, word(4) as usize);
    let lut1_words = tables.get(lut1.max(SAUCER_HEADER)..lut2).unwrap_or(&[]);
    let joined = lut1_words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|index| {
            let rgb = palette.get(index as usize).copied().unwrap_or(0) & 0x00FF_FFFF;
            rgb | (index as u32) << 24
        })
        .collect();
    FamilyTables {
        constants: [word(0), word(1), word(2), joined_at, tables_at + lut2 as u32, 0, 0, 0],
        joined,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saucer_lut1_joins_the_palette_and_keeps_the_index() {
        let palette: Vec<u32> = (0..256).map(|i| 0xFF00_0000 | (i * 0x010101)).collect();
        // Header, then a LUT1 of two words (bytes 7, 8, 9, 10 and 200, 0, 0, 1), LUT2 at 10.
        let mut tables = vec![5, 100, 900, 8, 10, 0, 0, 0];
        tables.extend([u32::from_le_bytes([7, 8, 9, 10]), u32::from_le_bytes([200, 0, 0, 1])]);
        tables.push(0xAB);
        let t = SaucerPacking { tables: &tables }.tables(&palette, 1000, 5000);
        assert_eq!(t.constants[..5], [5, 100, 900, 5000, 1010]);
        assert_eq!(t.joined.len(), 8);
        assert_eq!(t.joined[0], 7 << 24 | 0x070707);
        assert_eq!(t.joined[4], 200 << 24 | 0xC8C8C8);
        assert_eq!(t.joined[7], 1 << 24 | 0x010101);
    }
}
