//! Flats: raw 64x64 floor/ceiling textures between F_START and F_END (spec chapter 6).
//!
//! A flat's *number* is its position in the merged flat list counted from the first lump after
//! `F_START`, inner markers (`F1_START` ...) included, because vanilla computes flat numbers as
//! `lump - firstflat` and the animation formula works on those numbers.

use crate::scene::{Texels, Texture};

use super::textures::placeholder;
use super::wad::WadStack;

pub const FLAT_SIZE: usize = 64;

/// The name vanilla treats as the sky (`skyflatnum`).
pub const SKY_FLAT: &str = "F_SKY1";

/// Flat number of `name`, or `None` if it is not a flat.
pub fn flat_number(stack: &WadStack, name: &str) -> Option<usize> {
    stack.flats().number(name)
}

/// The texture of flat number `num`: 64x64 row-major, first byte the north-west corner.
/// A short or missing lump gives a placeholder and a note.
pub fn flat_texture(stack: &WadStack, num: usize, notes: &mut Vec<String>) -> Texture {
    let Some(entry) = stack.flats().entries().get(num) else {
        return placeholder("?", 64, 64);
    };
    let data = stack.lump_at(entry.lump).map(|l| l.data).unwrap_or(&[]);
    if data.len() < FLAT_SIZE * FLAT_SIZE {
        notes.push(format!(
            "flat {} has {} bytes, not {}; drawn as a placeholder",
            entry.name,
            data.len(),
            FLAT_SIZE * FLAT_SIZE
        ));
        return placeholder(&entry.name, 64, 64);
    }
    Texture {
        name: entry.name.clone(),
        width: FLAT_SIZE as u32,
        height: FLAT_SIZE as u32,
        origin: (0, 0),
        texels: Texels::Indexed {
            index: data[..FLAT_SIZE * FLAT_SIZE].to_vec(),
            opaque: Vec::new(),
        },
        palette: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn flats_are_numbered_with_inner_markers() {
        let stack = testwad::two_room_stack();
        // F_START, F1_START, FLOOR, CEIL, NUKAGE1.., F1_END, F_END
        assert_eq!(flat_number(&stack, "FLOOR"), Some(1));
        let mut notes = Vec::new();
        let t = flat_texture(&stack, 1, &mut notes);
        assert_eq!(t.name, "FLOOR");
        let Texels::Indexed { index, .. } = &t.texels else { panic!() };
        assert_eq!(index[0], testwad::FLOOR_COLOR);
        let short = flat_number(&stack, "SHORT").unwrap();
        let t = flat_texture(&stack, short, &mut notes);
        assert_eq!(t.width, 64);
        assert_eq!(notes.len(), 1);
    }
}
