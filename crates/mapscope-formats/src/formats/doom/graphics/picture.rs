//! Doom's picture ("patch") format (spec chapter 5): header, one offset per column, and each
//! column a list of posts (`topdelta`, `length`, pad, texels, pad) ended by 0xFF. Pictures
//! stored as PNG (GZDoom) decode to the same [`Picture`] through [`Picture::decode`].

use crate::formats::Result;

use super::palette_match::PaletteMatcher;
use super::png_lump::{decode_png, is_png, read_header};
use crate::formats::doom::archive::wad::Lump;
use crate::limits::doom::MAX_PICTURE_TEXELS;

/// A decoded picture, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u16,
    pub height: u16,
    /// Left offset: columns to the left of the origin (sprite hotspot).
    pub left: i16,
    /// Top offset: rows above the origin.
    pub top: i16,
    /// Palette index per texel (0 where transparent).
    pub index: Vec<u8>,
    /// Whether each texel is drawn.
    pub opaque: Vec<bool>,
    /// Texels of posts that ran past the picture's height and were clipped.
    pub clipped: usize,
}

impl Picture {
    /// Decodes a picture lump in either format GZDoom reads: PNG (colours matched to the
    /// palette) or Doom's own.
    pub fn decode(lump: &Lump<'_>, colours: &mut PaletteMatcher) -> Result<Picture> {
        if is_png(lump.data) {
            decode_png(lump, colours)
        } else {
            Picture::parse(lump)
        }
    }

    /// Width and height from the header alone (either format); `None` when unreadable.
    pub fn size_of(lump: &Lump<'_>) -> Option<(usize, usize)> {
        if is_png(lump.data) {
            return read_header(lump).ok().map(|h| (h.width as usize, h.height as usize));
        }
        let mut r = lump.reader("picture header");
        let (w, h) = (r.i16_le().ok()?, r.i16_le().ok()?);
        (w > 0 && h > 0).then_some((w as usize, h as usize))
    }

    /// The picture mirrored left to right when `flip_x`, then turned `turns` quarter turns
    /// clockwise (GZDoom's patch `Rotate`; a 90 or 270 turn swaps width and height). Offsets
    /// are kept.
    pub fn transformed(&self, flip_x: bool, turns: u8) -> Picture {
        let (w, h) = (self.width as usize, self.height as usize);
        let turns = turns & 3;
        let (ow, oh) = if turns & 1 == 1 { (h, w) } else { (w, h) };
        // The source texel each output texel shows, before the mirror.
        let source = |ox: usize, oy: usize| -> (usize, usize) {
            match turns {
                0 => (ox, oy),
                1 => (oy, h - 1 - ox),
                2 => (w - 1 - ox, h - 1 - oy),
                _ => (w - 1 - oy, ox),
            }
        };
        let mut index = Vec::with_capacity(ow * oh);
        let mut opaque = Vec::with_capacity(ow * oh);
        for oy in 0..oh {
            for ox in 0..ow {
                let (mut sx, sy) = source(ox, oy);
                if flip_x {
                    sx = w - 1 - sx;
                }
                let i = sy * w + sx;
                index.push(self.index.get(i).copied().unwrap_or(0));
                opaque.push(self.opaque.get(i).copied().unwrap_or(false));
            }
        }
        Picture {
            width: ow as u16,
            height: oh as u16,
            left: self.left,
            top: self.top,
            index,
            opaque,
            clipped: self.clipped,
        }
    }

    /// Decodes a picture lump. Posts reaching past the height are clipped; a column offset
    /// or post running past the lump is an error.
    pub fn parse(lump: &Lump<'_>) -> Result<Picture> {
        let mut r = lump.reader("picture header");
        let width = r.i16_le()?;
        let height = r.i16_le()?;
        let left = r.i16_le()?;
        let top = r.i16_le()?;
        if width <= 0 || height <= 0 {
            return Err(r.error_at(0, format!("picture {} has size {width}x{height}", lump.name)));
        }
        let (w, h) = (width as usize, height as usize);
        if w * h > MAX_PICTURE_TEXELS {
            return Err(r.error_at(0, format!("picture {} is {w}x{h}, too large", lump.name)));
        }
        let mut r = r.structure("picture column offsets");
        r.check_count(w, 4, "column offsets")?;
        let mut offsets = Vec::with_capacity(w);
        for _ in 0..w {
            offsets.push(r.u32_le()? as usize);
        }
        let mut pic = Picture {
            width: width as u16,
            height: height as u16,
            left,
            top,
            index: vec![0; w * h],
            opaque: vec![false; w * h],
            clipped: 0,
        };
        let mut c = lump.reader("picture column");
        for (x, &off) in offsets.iter().enumerate() {
            c.seek(off)?;
            // Each post advances the cursor by at least 4 bytes, so this ends at 0xFF or at
            // the end of the lump (an error), never loops.
            loop {
                let topdelta = c.u8()?;
                if topdelta == 0xFF {
                    break;
                }
                let len = c.u8()? as usize;
                c.skip(1)?;
                let texels = c.bytes(len)?;
                c.skip(1)?;
                for (k, &t) in texels.iter().enumerate() {
                    let y = topdelta as usize + k;
                    if y >= h {
                        pic.clipped += 1;
                        continue;
                    }
                    pic.index[y * w + x] = t;
                    pic.opaque[y * w + x] = true;
                }
            }
        }
        Ok(pic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::writer::patch_lump;

    fn lump(data: &[u8]) -> Lump<'_> {
        Lump { name: "TEST", data, file: "t.wad", offset: 1000 }
    }

    #[test]
    fn round_trips_posts_and_transparency() {
        let texels: Vec<Option<u8>> =
            (0..12).map(|i| if i % 5 == 0 { None } else { Some(i as u8) }).collect();
        let bytes = patch_lump(3, 4, 1, 4, &texels);
        let p = Picture::parse(&lump(&bytes)).unwrap();
        assert_eq!((p.width, p.height, p.left, p.top), (3, 4, 1, 4));
        for (i, t) in texels.iter().enumerate() {
            assert_eq!(p.opaque[i], t.is_some());
            if let Some(c) = t {
                assert_eq!(p.index[i], *c);
            }
        }
    }

    #[test]
    fn flips_and_quarter_turns_follow_gzdoom() {
        // 3x2:  a b c
        //       d e f
        let p = Picture {
            width: 3,
            height: 2,
            left: 1,
            top: 2,
            index: vec![1, 2, 3, 4, 5, 6],
            opaque: vec![true; 6],
            clipped: 0,
        };
        let t = |flip, turns| {
            let q = p.transformed(flip, turns);
            (q.width, q.height, q.index)
        };
        assert_eq!(t(false, 0), (3, 2, vec![1, 2, 3, 4, 5, 6]));
        // Clockwise: the left column, bottom to top, becomes the top row.
        assert_eq!(t(false, 1), (2, 3, vec![4, 1, 5, 2, 6, 3]));
        assert_eq!(t(false, 2), (3, 2, vec![6, 5, 4, 3, 2, 1]));
        assert_eq!(t(false, 3), (2, 3, vec![3, 6, 2, 5, 1, 4]));
        assert_eq!(t(true, 0), (3, 2, vec![3, 2, 1, 6, 5, 4]));
        // GZDoom's FlipY is a half turn of the mirrored picture.
        assert_eq!(t(true, 2), (3, 2, vec![4, 5, 6, 1, 2, 3]));
        // Mirror then turn a quarter left: the transpose.
        assert_eq!(t(true, 3), (2, 3, vec![1, 4, 2, 5, 3, 6]));
        assert_eq!((p.transformed(true, 1).left, p.transformed(true, 1).top), (1, 2));
    }

    #[test]
    fn posts_past_height_are_clipped() {
        // One column, height 2, one post of 4 texels starting at row 1.
        let mut b = vec![1, 0, 2, 0, 0, 0, 0, 0];
        b.extend(12u32.to_le_bytes());
        b.extend([1, 4, 0, 10, 11, 12, 13, 0, 0xFF]);
        let p = Picture::parse(&lump(&b)).unwrap();
        assert_eq!(p.index, vec![0, 10]);
        assert_eq!(p.opaque, vec![false, true]);
        assert_eq!(p.clipped, 3);
    }

    #[test]
    fn corrupt_pictures_are_errors_with_offsets() {
        // Truncated header.
        let e = Picture::parse(&lump(&[1, 0, 2])).unwrap_err();
        assert_eq!(e.offset, 1002);
        // Huge width: column offsets do not fit.
        let e = Picture::parse(&lump(&[0xFF, 0x7F, 1, 0, 0, 0, 0, 0])).unwrap_err();
        assert_eq!(e.structure, "picture column offsets");
        assert_eq!(e.offset, 1008);
        // Column offset past the end.
        let mut b = vec![1, 0, 1, 0, 0, 0, 0, 0];
        b.extend(500u32.to_le_bytes());
        let e = Picture::parse(&lump(&b)).unwrap_err();
        assert_eq!(e.structure, "picture column");
        // Post running past the end of the lump.
        let mut b = vec![1, 0, 8, 0, 0, 0, 0, 0];
        b.extend(12u32.to_le_bytes());
        b.extend([0, 8, 0, 1, 2]);
        assert!(Picture::parse(&lump(&b)).is_err());
        // Zero size.
        assert!(Picture::parse(&lump(&[0, 0, 1, 0, 0, 0, 0, 0])).is_err());
    }
}
