//! True colour to palette index, for pictures stored as PNG: textures stay palette indices on
//! the GPU (they go through COLORMAP like every other texel), so each colour is replaced by
//! a PLAYPAL entry once, at load.
//!
//! The rule: the entry at the smallest squared distance in RGB, `dr² + dg² + db²`, the lowest
//! index winning ties; an exact match is therefore kept. This is GZDoom's `BestColor`
//! metric. GZDoom's own paletted copies avoid index 0, which they use for transparency;
//! here transparency is a separate mask, so index 0 (black in Doom's palettes) stays
//! available like any other entry, as it is for vanilla patches.

use std::collections::HashMap;

/// Alpha below this is a transparent texel (half way, as GZDoom's paletted conversion cuts).
pub const ALPHA_OPAQUE: u8 = 128;

/// Finds nearest palette entries, remembering the colours already seen (pictures reuse few).
#[derive(Clone, Debug, Default)]
pub struct PaletteMatcher {
    palette: Vec<[u8; 3]>,
    seen: HashMap<[u8; 3], u8>,
}

impl PaletteMatcher {
    /// A matcher for `palette` (PLAYPAL's first 256 colours; fewer are allowed).
    pub fn new(palette: &[[u8; 3]]) -> PaletteMatcher {
        PaletteMatcher {
            palette: palette.iter().take(256).copied().collect(),
            seen: HashMap::new(),
        }
    }

    /// The palette index nearest to `rgb` (0 for an empty palette).
    pub fn nearest(&mut self, rgb: [u8; 3]) -> u8 {
        if let Some(&i) = self.seen.get(&rgb) {
            return i;
        }
        let distance =
            |c: &[u8; 3]| (0..3).map(|k| (c[k] as i32 - rgb[k] as i32).pow(2)).sum::<i32>();
        // min_by_key keeps the first of equal keys: the lowest index wins ties.
        let best =
            self.palette.iter().enumerate().min_by_key(|(_, c)| distance(c)).map_or(0, |(i, _)| i);
        self.seen.insert(rgb, best as u8);
        best as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_entry_lowest_index_on_ties() {
        let pal = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [255, 0, 0], [10, 10, 10]];
        let mut m = PaletteMatcher::new(&pal);
        assert_eq!(m.nearest([255, 0, 0]), 1, "exact colour, first of two equal entries");
        assert_eq!(m.nearest([200, 30, 20]), 1);
        assert_eq!(m.nearest([6, 6, 6]), 4, "48 from entry 4, 108 from entry 0");
        assert_eq!(m.nearest([5, 5, 5]), 0, "75 from both: the lower index");
        assert_eq!(m.nearest([0, 200, 0]), 2);
        assert_eq!(PaletteMatcher::new(&[]).nearest([1, 2, 3]), 0);
    }
}
