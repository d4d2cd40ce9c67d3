//! The 16-byte texture definition shared by the WAD's texture table (used by models) and the
//! map's own list (used by terrain, blocks, billboards and animations), and the LUT2 table a
//! definition's blend mode and flags select.

use crate::formats::{Reader, Result};

/// Size of one texture definition record.
pub const TEXTURE_DEF_SIZE: usize = 16;

/// Flags bit 0: colour index 0 is transparent.
pub const FLAG_MASKED: u16 = 1;
/// Flags bit 1: the blend mode selects the brightening tables 7..14.
pub const FLAG_BRIGHT_BLEND: u16 = 2;
/// Flags bit 2: a blend mode of 0x80 or more selects table 15, anything less is opaque.
pub const FLAG_NEAR_OPAQUE_BLEND: u16 = 4;

/// A piece of an atlas bitmap: four corners in the order top-left, top-right, bottom-right,
/// bottom-left (as stored; they may describe a rotated rectangle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureDef {
    pub bitmap: u16,
    /// Texel coordinates of the corners TL, TR, BR, BL.
    pub uv: [[u8; 2]; 4],
    pub unknown: u8,
    pub blend_mode: u8,
    pub origin: [i8; 2],
    pub flags: u16,
}

impl TextureDef {
    pub fn read(r: &mut Reader) -> Result<TextureDef> {
        let u1 = r.u8()?;
        let v1 = r.u8()?;
        let bitmap = r.u16_le()?;
        let u2 = r.u8()?;
        let v2 = r.u8()?;
        let unknown = r.u8()?;
        let blend_mode = r.u8()?;
        let u3 = r.u8()?;
        let v3 = r.u8()?;
        let ox = r.i8()?;
        let oy = r.i8()?;
        let u4 = r.u8()?;
        let v4 = r.u8()?;
        let flags = r.u16_le()?;
        Ok(TextureDef {
            bitmap,
            uv: [[u1, v1], [u2, v2], [u3, v3], [u4, v4]],
            unknown,
            blend_mode,
            origin: [ox, oy],
            flags,
        })
    }

    /// Reads `count` definitions after checking that they fit.
    pub fn read_list(r: &mut Reader, count: usize) -> Result<Vec<TextureDef>> {
        r.check_count(count, TEXTURE_DEF_SIZE, "texture definitions")?;
        (0..count).map(|_| TextureDef::read(r)).collect()
    }

    pub fn masked(&self) -> bool {
        self.flags & FLAG_MASKED != 0
    }

    /// The LUT2 table (0..15) this definition blends through, or `None` when it is opaque.
    pub fn blend_table(&self) -> Option<u8> {
        blend_table(self.blend_mode, self.flags)
    }

    /// The texel rectangle the corners span: (min u, min v, width, height), ends inclusive.
    pub fn rect(&self) -> (u32, u32, u32, u32) {
        let us = self.uv.map(|c| c[0] as u32);
        let vs = self.uv.map(|c| c[1] as u32);
        let (u0, u1) = (min4(us), max4(us));
        let (v0, v1) = (min4(vs), max4(vs));
        (u0, v0, u1 - u0 + 1, v1 - v0 + 1)
    }

    /// Corner `k`'s texel coordinates inside [`TextureDef::rect`]; a corner on the far edge
    /// of the rectangle gets the edge's outer side so that the inclusive last texel row and
    /// column are drawn in full.
    pub fn corner_uv(&self, k: usize) -> [f32; 2] {
        let (u0, v0, w, h) = self.rect();
        let [u, v] = self.uv[k % 4];
        let edge = |c: u32, lo: u32, size: u32| {
            let rel = c - lo;
            if size > 1 && rel == size - 1 {
                size as f32
            } else {
                rel as f32
            }
        };
        [edge(u as u32, u0, w), edge(v as u32, v0, h)]
    }
}

fn min4(a: [u32; 4]) -> u32 {
    a.into_iter().min().unwrap_or(0)
}

fn max4(a: [u32; 4]) -> u32 {
    a.into_iter().max().unwrap_or(0)
}

/// The spec's table selection: the mode is rounded up to a multiple of 0x20 (values above
/// 0xE0 count as 0); without flag bits 1/2, 0x20..0xE0 pick tables 0..6 and 0 is opaque;
/// bit 1 picks 7 + q/0x20 (0 included); bit 2 picks table 15 from 0x80 up.
///
/// The spec lists no 0xC0, but seven tables for 0x20..0xE0 need it (table 5). With bit 2 the
/// rounded value is compared with 0x80, and bit 1 wins when both bits are set; the fixtures
/// exercise neither corner.
pub fn blend_table(mode: u8, flags: u16) -> Option<u8> {
    let q = quantised_blend_mode(mode);
    if flags & FLAG_BRIGHT_BLEND != 0 {
        Some(7 + q / 0x20)
    } else if flags & FLAG_NEAR_OPAQUE_BLEND != 0 {
        (q >= 0x80).then_some(15)
    } else if q == 0 {
        None
    } else {
        Some(q / 0x20 - 1)
    }
}

/// The blend mode rounded up to the next multiple of 0x20; above 0xE0 it is 0.
pub fn quantised_blend_mode(mode: u8) -> u8 {
    if mode > 0xE0 {
        0
    } else {
        // mode <= 0xE0 so the sum stays below 256.
        (mode + 0x1F) & !0x1F
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blend_modes_round_up_and_select_families() {
        assert_eq!(blend_table(0x00, 0), None);
        assert_eq!(blend_table(0x01, 0), Some(0));
        assert_eq!(blend_table(0x61, 0), Some(3));
        assert_eq!(blend_table(0xC0, 0), Some(5));
        assert_eq!(blend_table(0xE0, 0), Some(6));
        assert_eq!(blend_table(0xF0, 0), None);
        assert_eq!(blend_table(0x00, 2), Some(7));
        assert_eq!(blend_table(0x3F, 2), Some(9));
        assert_eq!(blend_table(0xF5, 2), Some(7));
        assert_eq!(blend_table(0x40, 4), None);
        assert_eq!(blend_table(0x80, 4), Some(15));
        assert_eq!(blend_table(0xE0, 5), Some(15));
    }

    #[test]
    fn corners_cover_inclusive_rectangles() {
        let d = TextureDef {
            bitmap: 0,
            uv: [[64, 128], [95, 128], [95, 159], [64, 159]],
            unknown: 0,
            blend_mode: 0,
            origin: [0, 0],
            flags: 0,
        };
        assert_eq!(d.rect(), (64, 128, 32, 32));
        assert_eq!(d.corner_uv(0), [0.0, 0.0]);
        assert_eq!(d.corner_uv(2), [32.0, 32.0]);
        assert_eq!(d.corner_uv(3), [0.0, 32.0]);
    }
}
