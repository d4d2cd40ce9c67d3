//! Doom's part of packing a scene (`FamilyPacking`): COLORMAP joined with the palette,
//! vanilla's `zlight` and the sector colours; smooth frames' full-size flats; the things'
//! frame views.

use super::vanilla::tables::zlight;
use crate::render::family::FamilyPacking;
use crate::render::lit_tables::FamilyTables;
use crate::scene::doom::vanilla::VanillaMap;
use crate::scene::SpriteView;

pub(in crate::render) struct DoomPacking<'a> {
    pub colormap: &'a [u8],
    pub map: Option<&'a VanillaMap>,
    pub smooth_flats: &'a [[u32; 2]],
}

impl FamilyPacking for DoomPacking<'_> {
    fn tables_words(&self) -> Vec<u32> {
        self.colormap.iter().map(|&c| c as u32).collect()
    }

    fn tables(&self, palette: &[u32], _tables_at: u32, joined_at: u32) -> FamilyTables {
        let colors = self.map.map_or(&[][..], |m| &m.colors[..]);
        joined(self.colormap, colors, palette, joined_at)
    }

    fn smooth_twins(&self) -> &[[u32; 2]] {
        self.smooth_flats
    }

    fn sprite_frame_views(&self) -> &[Vec<SpriteView>] {
        self.map.map_or(&[], |m| &m.things.frame_views[..])
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
fn joined(colormap: &[u8], colors: &[[u32; 2]], palette: &[u32], joined_at: u32) -> FamilyTables {
    let lit = colormap.iter().map(|&i| palette.get(i as usize).copied().unwrap_or(0));
    let mut joined: Vec<u32> = lit.collect();
    let zlight_at = joined_at + joined.len() as u32;
    joined.extend(zlight());
    let colors_at = joined_at + joined.len() as u32;
    joined.extend(colors.iter().flatten());
    let count = colors.len() as u32;
    FamilyTables { constants: [joined_at, zlight_at, colors_at, count, 0, 0, 0, 0], joined }
}
