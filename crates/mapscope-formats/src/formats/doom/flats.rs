//! Flats: raw 64x64 floor/ceiling textures between F_START and F_END (spec chapter 6), or, as
//! GZDoom reads them, PNG pictures (in a package's `flats/` too). The renderer draws flats
//! with vanilla's 64x64 texel arithmetic, so a picture of another size is tiled or cut to
//! 64x64, with a note.
//!
//! A flat's *number* is its position in the merged flat list counted from the first lump after
//! `F_START`, inner markers (`F1_START` ...) included, because vanilla computes flat numbers as
//! `lump - firstflat` and the animation formula works on those numbers.

use crate::formats::{FormatError, Result};
use crate::scene::{Texels, Texture};

use super::palette_match::PaletteMatcher;
use super::picture::Picture;
use super::png_lump::{decode_png, is_png};
use super::textures::placeholder;
use super::wad::{Lump, WadStack};

pub const FLAT_SIZE: usize = 64;

/// The name vanilla treats as the sky (`skyflatnum`).
pub const SKY_FLAT: &str = "F_SKY1";

/// Flat number of `name`, or `None` if it is not a flat.
pub fn flat_number(stack: &WadStack, name: &str) -> Option<usize> {
    stack.flats().number(name)
}

/// The texture of flat number `num`: 64x64 row-major, first byte the north-west corner.
/// A short, missing or undecodable lump gives a placeholder and a note.
pub fn flat_texture(
    stack: &WadStack,
    num: usize,
    colours: &mut PaletteMatcher,
    notes: &mut Vec<String>,
) -> Texture {
    let Some(entry) = stack.flats().entries().get(num) else {
        return placeholder("?", 64, 64);
    };
    let Some(lump) = stack.lump_at(entry.lump) else {
        return placeholder(&entry.name, 64, 64);
    };
    match flat_picture(&lump, colours) {
        Ok(pic) => fit_flat(&entry.name, &pic, notes),
        Err(e) => {
            notes.push(format!("flat {}: {}; drawn as a placeholder", entry.name, e.message));
            placeholder(&entry.name, 64, 64)
        }
    }
}

/// Decodes a flat lump as GZDoom tells formats apart: PNG; vanilla's raw 64x64 bytes when
/// the lump has exactly that size; a Doom picture when it reads as one; else raw bytes (extra
/// bytes ignored, as vanilla reads only the first 4096).
pub fn flat_picture(lump: &Lump<'_>, colours: &mut PaletteMatcher) -> Result<Picture> {
    if is_png(lump.data) {
        return decode_png(lump, colours);
    }
    let texels = FLAT_SIZE * FLAT_SIZE;
    if lump.data.len() != texels {
        if let Ok(pic) = Picture::parse(lump) {
            return Ok(pic);
        }
    }
    let Some(raw) = lump.data.get(..texels) else {
        return Err(FormatError::new(
            lump.file,
            "flat",
            lump.offset,
            format!("{} bytes, not {texels}", lump.data.len()),
        ));
    };
    Ok(Picture {
        width: FLAT_SIZE as u16,
        height: FLAT_SIZE as u16,
        left: 0,
        top: 0,
        index: raw.to_vec(),
        opaque: vec![true; texels],
        clipped: 0,
    })
}

/// A flat texture from a picture: 64x64 as it is; another size repeated (smaller) or cut
/// (larger) to 64x64 from its top-left corner, with a note. Flats are opaque: a transparent
/// texel shows palette index 0.
pub fn fit_flat(name: &str, pic: &Picture, notes: &mut Vec<String>) -> Texture {
    let (w, h) = (pic.width.max(1) as usize, pic.height.max(1) as usize);
    if (w, h) != (FLAT_SIZE, FLAT_SIZE) {
        notes.push(format!(
            "flat {name} is {w}x{h}; drawn as vanilla's 64x64 flat from its top-left corner"
        ));
    }
    let mut index = Vec::with_capacity(FLAT_SIZE * FLAT_SIZE);
    for y in 0..FLAT_SIZE {
        for x in 0..FLAT_SIZE {
            let i = (y % h) * w + x % w;
            let shown = pic.opaque.get(i).copied().unwrap_or(false);
            index.push(if shown { pic.index.get(i).copied().unwrap_or(0) } else { 0 });
        }
    }
    Texture {
        name: name.to_string(),
        width: FLAT_SIZE as u32,
        height: FLAT_SIZE as u32,
        origin: (0, 0),
        texels: Texels::Indexed { index, opaque: Vec::new() },
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
        let mut colours = PaletteMatcher::default();
        let t = flat_texture(&stack, 1, &mut colours, &mut notes);
        assert_eq!(t.name, "FLOOR");
        let Texels::Indexed { index, .. } = &t.texels else { panic!() };
        assert_eq!(index[0], testwad::FLOOR_COLOR);
        // A flat in Doom's picture format (packages' flats/ may hold any picture).
        let pic = crate::formats::doom::writer::patch_lump(2, 2, 0, 0, &[Some(9); 4]);
        let lump = Lump { name: "PIC", data: &pic, file: "p.pk3:flats/pic.lmp", offset: 0 };
        let p = flat_picture(&lump, &mut colours).unwrap();
        assert_eq!((p.width, p.height, p.index[3]), (2, 2, 9));
        let short = flat_number(&stack, "SHORT").unwrap();
        let t = flat_texture(&stack, short, &mut colours, &mut notes);
        assert_eq!(t.width, 64);
        assert_eq!(notes.len(), 1);
    }
}
