//! Flats: raw 64x64 floor/ceiling textures between F_START and F_END (spec chapter 6), or, as
//! GZDoom reads them, PNG pictures (in a package's `flats/` too). Faithful frames draw flats
//! with vanilla's 64x64 texel arithmetic, so a picture of another size is tiled or resampled
//! to 64x64, with a note; smooth frames draw a larger picture with all of its texels.
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
use crate::formats::doom::archive::wad::{Lump, WadStack};

pub const FLAT_SIZE: usize = 64;

/// The name vanilla treats as the sky (`skyflatnum`).
pub const SKY_FLAT: &str = "F_SKY1";

/// Flat number of `name`, or `None` if it is not a flat.
pub fn flat_number(stack: &WadStack, name: &str) -> Option<usize> {
    stack.flats().number(name)
}

/// A flat as the scene holds it: 64x64 texels for vanilla's spans and, for a picture larger
/// than that, all of its texels for smooth frames (the same map units, finer texels).
#[derive(Clone, Debug)]
pub struct FlatTexture {
    pub fitted: Texture,
    pub full: Option<Texture>,
}

impl From<Texture> for FlatTexture {
    fn from(fitted: Texture) -> Self {
        FlatTexture { fitted, full: None }
    }
}

/// The texture of flat number `num`: 64x64 row-major, first byte the north-west corner.
/// A short, missing or undecodable lump gives a placeholder and a note.
pub fn flat_texture(
    stack: &WadStack,
    num: usize,
    colours: &mut PaletteMatcher,
    notes: &mut Vec<String>,
) -> FlatTexture {
    let Some(entry) = stack.flats().entries().get(num) else {
        return placeholder("?", 64, 64).into();
    };
    let Some(lump) = stack.lump_at(entry.lump) else {
        return placeholder(&entry.name, 64, 64).into();
    };
    match flat_picture(&lump, colours) {
        Ok(pic) => fit_flat(&entry.name, &pic, notes),
        Err(e) => {
            notes.push(format!("flat {}: {}; drawn as a placeholder", entry.name, e.message));
            placeholder(&entry.name, 64, 64).into()
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

/// The size in texels of a flat lump as [`flat_picture`] reads it (64 x 64 for raw bytes).
pub fn flat_lump_size(lump: &Lump<'_>) -> (usize, usize) {
    if is_png(lump.data) {
        return Picture::size_of(lump).unwrap_or((FLAT_SIZE, FLAT_SIZE));
    }
    if lump.data.len() != FLAT_SIZE * FLAT_SIZE {
        if let Ok(pic) = Picture::parse(lump) {
            return (pic.width as usize, pic.height as usize);
        }
    }
    (FLAT_SIZE, FLAT_SIZE)
}

/// How a picture's side of `n` texels becomes [`fit_flat`]'s 64: the texels per map unit
/// the fitted flat has for each texel of the picture's (1 where the side is repeated, 64/n
/// where a larger side is resampled).
pub fn fitted_scale(w: usize, h: usize) -> [f64; 2] {
    let fit = |n: usize| if n > FLAT_SIZE { FLAT_SIZE as f64 / n as f64 } else { 1.0 };
    [fit(w), fit(h)]
}

/// A flat texture from a picture, 64x64 texels as the walk's spans need: a side of 64 as it
/// is, a shorter one repeated, a longer one resampled (nearest texel) so that the whole
/// picture shows; GZDoom draws a larger flat whole at its own size, which the scene keeps by
/// scaling the flat by [`fitted_scale`] (see `texture_scale`), and with all of its texels,
/// which smooth frames draw from [`FlatTexture::full`]. Flats are opaque: a transparent texel
/// shows palette index 0.
pub fn fit_flat(name: &str, pic: &Picture, notes: &mut Vec<String>) -> FlatTexture {
    let (w, h) = (pic.width.max(1) as usize, pic.height.max(1) as usize);
    let larger = w > FLAT_SIZE || h > FLAT_SIZE;
    if larger {
        notes.push(format!(
            "flat {name} is {w}x{h}; drawn at its size in the world, with 64x64 texels in \
             faithful frames (vanilla's spans) and all of its texels in smooth ones (as GZDoom)"
        ));
    } else if (w, h) != (FLAT_SIZE, FLAT_SIZE) {
        notes.push(format!("flat {name} is {w}x{h}; repeated to vanilla's 64x64 flat"));
    }
    let texel = |i: usize| {
        let shown = pic.opaque.get(i).copied().unwrap_or(false);
        if shown {
            pic.index.get(i).copied().unwrap_or(0)
        } else {
            0
        }
    };
    let source = |i: usize, n: usize| if n > FLAT_SIZE { i * n / FLAT_SIZE } else { i % n };
    let mut index = Vec::with_capacity(FLAT_SIZE * FLAT_SIZE);
    for y in 0..FLAT_SIZE {
        for x in 0..FLAT_SIZE {
            index.push(texel(source(y, h) * w + source(x, w)));
        }
    }
    let texture = |width: usize, height: usize, index: Vec<u8>| Texture {
        name: name.to_string(),
        width: width as u32,
        height: height as u32,
        origin: (0, 0),
        texels: Texels::Indexed { index, opaque: Vec::new() },
        palette: 0,
    };
    FlatTexture {
        fitted: texture(FLAT_SIZE, FLAT_SIZE, index),
        full: larger.then(|| texture(w, h, (0..w * h).map(texel).collect())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn larger_flats_are_resampled_whole_and_smaller_ones_repeated() {
        // 128 x 64: the left half index 1, the right half 2.
        let index: Vec<u8> = (0..128 * 64).map(|i| if i % 128 < 64 { 1 } else { 2 }).collect();
        let pic = |w: u16, index: Vec<u8>| Picture {
            width: w,
            height: 64,
            left: 0,
            top: 0,
            opaque: vec![true; index.len()],
            index,
            clipped: 0,
        };
        let mut notes = Vec::new();
        let flat = fit_flat("BIG", &pic(128, index.clone()), &mut notes);
        let Texels::Indexed { index: out, .. } = &flat.fitted.texels else { panic!("indexed") };
        // The whole picture shows: columns 0..32 from the left half, 32..64 the right.
        assert!((0..64).all(|y| out[y * 64 + 31] == 1 && out[y * 64 + 32] == 2));
        // And all of it for smooth frames.
        let full = flat.full.expect("a full-size flat");
        assert_eq!((full.width, full.height), (128, 64));
        assert!(matches!(&full.texels, Texels::Indexed { index: all, .. } if *all == index));
        assert_eq!(fitted_scale(128, 64), [0.5, 1.0]);
        assert!(notes[0].contains("at its size in the world"), "{notes:?}");
        // 32 wide: repeated, at one texel a map unit.
        let small: Vec<u8> = (0..32 * 64).map(|i| (i % 32) as u8).collect();
        let flat = fit_flat("SMALL", &pic(32, small), &mut notes);
        let Texels::Indexed { index: out, .. } = &flat.fitted.texels else { panic!("indexed") };
        assert_eq!((out[5], out[37]), (5, 5));
        assert!(flat.full.is_none());
        assert_eq!(fitted_scale(32, 64), [1.0, 1.0]);
    }

    #[test]
    fn flats_are_numbered_with_inner_markers() {
        let stack = testwad::two_room_stack();
        // F_START, F1_START, FLOOR, CEIL, NUKAGE1.., F1_END, F_END
        assert_eq!(flat_number(&stack, "FLOOR"), Some(1));
        let mut notes = Vec::new();
        let mut colours = PaletteMatcher::default();
        let t = flat_texture(&stack, 1, &mut colours, &mut notes).fitted;
        assert_eq!(t.name, "FLOOR");
        let Texels::Indexed { index, .. } = &t.texels else { panic!() };
        assert_eq!(index[0], testwad::FLOOR_COLOR);
        // A flat in Doom's picture format (packages' flats/ may hold any picture).
        let pic = crate::formats::doom::archive::writer::patch_lump(2, 2, 0, 0, &[Some(9); 4]);
        let lump = Lump { name: "PIC", data: &pic, file: "p.pk3:flats/pic.lmp", offset: 0 };
        let p = flat_picture(&lump, &mut colours).unwrap();
        assert_eq!((p.width, p.height, p.index[3]), (2, 2, 9));
        let short = flat_number(&stack, "SHORT").unwrap();
        let t = flat_texture(&stack, short, &mut colours, &mut notes).fitted;
        assert_eq!(t.width, 64);
        assert_eq!(notes.len(), 1);
    }
}
