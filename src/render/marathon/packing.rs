//! Marathon's part of packing a scene (`FamilyPacking`): every colour through every shading
//! step, and the flag and table constants.

use crate::render::family::FamilyPacking;
use crate::render::lit_tables::FamilyTables;

/// Words of the tables before the colour entries, and the flag marking a colour that ignores
/// light (shaders/marathon.wgsl).
const MARATHON_HEADER: usize = 4;
const MARATHON_SELF_LUMINESCENT: u32 = 0x80;
/// Marathon's shading steps (the table index a fragment picks, 0..=255).
const MARATHON_TABLES: usize = 256;

pub(in crate::render) struct MarathonPacking<'a> {
    pub tables: &'a [u32],
}

impl FamilyPacking for MarathonPacking<'_> {
    fn tables_words(&self) -> Vec<u32> {
        self.tables.to_vec()
    }

    fn tables(&self, _palette: &[u32], _tables_at: u32, joined_at: u32) -> FamilyTables {
        joined(self.tables, joined_at)
    }
}

/// Every colour entry through every shading step: the engine's `(colour * step / 255) >> 8`
/// per 16-bit channel, step 255 for self-luminescent colours; word `step * entries + entry`
/// holds the 8-bit RGB.
///
/// Constants: flags, entries, joined table offset.
fn joined(tables: &[u32], joined_at: u32) -> FamilyTables {
    let word = |i: usize| tables.get(i).copied().unwrap_or(0);
    let entries = tables.get(MARATHON_HEADER..).unwrap_or(&[]).chunks_exact(2);
    let colours: Vec<([u32; 3], bool)> = entries
        .take(word(2) as usize)
        .map(|e| {
            let rgb = [e[0] & 0xFFFF, e[0] >> 16, e[1] & 0xFFFF];
            (rgb, (e[1] >> 16) & MARATHON_SELF_LUMINESCENT != 0)
        })
        .collect();
    let mut joined = Vec::with_capacity(MARATHON_TABLES * colours.len());
    for step in 0..MARATHON_TABLES as u32 {
        joined.extend(colours.iter().map(|&(rgb, self_lit)| {
            let t = if self_lit { 255 } else { step };
            let [r, g, b] = rgb.map(|c| c * t / 65280);
            r | g << 8 | b << 16
        }));
    }
    FamilyTables { constants: [word(1), colours.len() as u32, joined_at, 0, 0, 0, 0, 0], joined }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marathon_steps_scale_each_channel_and_spare_self_luminescent_colours() {
        let mut tables = vec![4, 1, 2, 0];
        tables.extend([0xFFFF | 0x8000 << 16, 0x4000]);
        tables.extend([0xFFFF | 0xFFFF << 16, 0xFFFF | (MARATHON_SELF_LUMINESCENT << 16)]);
        let t = MarathonPacking { tables: &tables }.tables(&[], 0, 77);
        assert_eq!(t.constants[..3], [1, 2, 77]);
        assert_eq!(t.joined.len(), 512);
        // Step 0: black, except the self-luminescent entry at full brightness.
        assert_eq!(t.joined[0], 0);
        assert_eq!(t.joined[1], 0xFFFFFF);
        // Step 128: 65535 * 128 / 65280 = 128, 32768 * 128 / 65280 = 64, 16384 → 32.
        assert_eq!(t.joined[256], 128 | 64 << 8 | 32 << 16);
        // Step 255: the full colour.
        assert_eq!(t.joined[510], 255 | 128 << 8 | 64 << 16);
    }
}
