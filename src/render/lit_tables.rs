//! Lookup tables joined with the palette before the first frame, and each family's constants
//! (pipeline overrides `FAMILY_0..7` in shaders/common.wgsl).
//!
//! A software rasteriser gathers every storage read lane by lane, so a fragment that chains
//! texel → light table → palette pays for each link. Where the chain after the texel depends
//! only on a small light index, the whole chain is tabulated here once: the fragment reads its
//! texel and one word of the joined table. The families' header words (fog range, table
//! offsets, flags) are the same for every fragment, so they travel in the uniform rather than
//! being read per pixel.

use super::doom::vanilla::tables::zlight;
use crate::scene::{Shading, ShadingFamily};

/// The family's constants (`FAMILY_0..7` in shaders/common.wgsl) and the joined table to
/// append to the scene metadata.
pub struct FamilyTables {
    pub constants: [u32; 8],
    pub joined: Vec<u32>,
}

/// Saucerman: words of `tables` before LUT1 (shaders/saucer.wgsl).
const SAUCER_HEADER: usize = 8;
/// Marathon: words of `tables` before the colour entries, and the flag marking a colour that
/// ignores light (shaders/marathon.wgsl).
const MARATHON_HEADER: usize = 4;
const MARATHON_SELF_LUMINESCENT: u32 = 0x80;
/// Marathon's shading steps (the table index a fragment picks, 0..=255).
const MARATHON_TABLES: usize = 256;

/// `tables_at` and `joined_at` are the word offsets in the scene metadata where the family's
/// tables and the joined table will sit; `palette` is the packed palette (RGB in the low three
/// bytes).
pub fn family_tables(
    shading: &Shading,
    palette: &[u32],
    tables_at: u32,
    joined_at: u32,
) -> FamilyTables {
    let empty = FamilyTables { constants: [0; 8], joined: Vec::new() };
    let (family, tables) = match shading {
        Shading::Family { family, tables } => (family, tables),
        Shading::DoomColormap { colormap, map, .. } => {
            let colors = map.as_deref().map_or(&[][..], |m| &m.colors[..]);
            return doom(colormap, colors, palette, joined_at);
        }
        Shading::Unlit => return empty,
    };
    match family {
        ShadingFamily::Saucer => saucer(tables, palette, tables_at, joined_at),
        ShadingFamily::Marathon => marathon(tables, joined_at),
        ShadingFamily::Saturn | ShadingFamily::Carma2 => empty,
    }
}

/// Every COLORMAP row through the palette (packed RGB), so a fragment reads one word where
/// colormap then palette take two, followed by vanilla's `zlight` (flats' colormap by light
/// level and distance), which depends on no viewport.
///
/// Then ZDoom's sector colours, two words (light, fade) a pair, for smooth mode.
///
/// Constants: the lit rows' and `zlight`'s word offsets, the colours' offset and their
/// number (0: none, so the shader's colour code folds away for other maps).
fn doom(colormap: &[u8], colors: &[[u32; 2]], palette: &[u32], joined_at: u32) -> FamilyTables {
    let lit = colormap.iter().map(|&i| palette.get(i as usize).copied().unwrap_or(0));
    let mut joined: Vec<u32> = lit.collect();
    let zlight_at = joined_at + joined.len() as u32;
    joined.extend(zlight());
    let colors_at = joined_at + joined.len() as u32;
    joined.extend(colors.iter().flatten());
    let count = colors.len() as u32;
    FamilyTables { constants: [joined_at, zlight_at, colors_at, count, 0, 0, 0, 0], joined }
}

/// LUT1 (lighting part x fog level x colour → palette index) through the palette: each word
/// is the lit colour's RGB with its index in the top byte, which translucent surfaces and the
/// key target still need.
///
/// Constants: background, fog near, fog far, joined LUT1 and LUT2 word offsets.
fn saucer(tables: &[u32], palette: &[u32], tables_at: u32, joined_at: u32) -> FamilyTables {
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

/// Every colour entry through every shading step: the engine's `(colour * step / 255) >> 8`
/// per 16-bit channel, step 255 for self-luminescent colours; word `step * entries + entry`
/// holds the 8-bit RGB.
///
/// Constants: flags, entries, joined table offset.
fn marathon(tables: &[u32], joined_at: u32) -> FamilyTables {
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
    fn saucer_lut1_joins_the_palette_and_keeps_the_index() {
        let palette: Vec<u32> = (0..256).map(|i| 0xFF00_0000 | (i * 0x010101)).collect();
        // Header, then a LUT1 of two words (bytes 7, 8, 9, 10 and 200, 0, 0, 1), LUT2 at 10.
        let mut tables = vec![5, 100, 900, 8, 10, 0, 0, 0];
        tables.extend([u32::from_le_bytes([7, 8, 9, 10]), u32::from_le_bytes([200, 0, 0, 1])]);
        tables.push(0xAB);
        let shading = Shading::Family { family: ShadingFamily::Saucer, tables };
        let t = family_tables(&shading, &palette, 1000, 5000);
        assert_eq!(t.constants[..5], [5, 100, 900, 5000, 1010]);
        assert_eq!(t.joined.len(), 8);
        assert_eq!(t.joined[0], 7 << 24 | 0x070707);
        assert_eq!(t.joined[4], 200 << 24 | 0xC8C8C8);
        assert_eq!(t.joined[7], 1 << 24 | 0x010101);
    }

    #[test]
    fn marathon_steps_scale_each_channel_and_spare_self_luminescent_colours() {
        let mut tables = vec![4, 1, 2, 0];
        tables.extend([0xFFFF | 0x8000 << 16, 0x4000]);
        tables.extend([0xFFFF | 0xFFFF << 16, 0xFFFF | (MARATHON_SELF_LUMINESCENT << 16)]);
        let shading = Shading::Family { family: ShadingFamily::Marathon, tables };
        let t = family_tables(&shading, &[], 0, 77);
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
