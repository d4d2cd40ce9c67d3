//! The sky segment: a 16-colour palette and 64 animation frames of 64x64 4-bit texels stored
//! in the VDP2 cell layout.
//!
//! A frame is 4x4 characters of 16x16 pixels (row-major, 128 bytes each); a character is 2x2
//! cells of 8x8 pixels stored upper-left, upper-right, lower-left, lower-right; a cell is 8
//! rows of 4 bytes, the high nibble of each byte being the left pixel.

use crate::formats::{Reader, Result};

pub const SKY_FRAMES: usize = 64;
pub const SKY_FRAME_SIZE: usize = 64;
const FRAME_BYTES: usize = SKY_FRAME_SIZE * SKY_FRAME_SIZE / 2;
/// Palette (16 words) plus the image block: the segment never varies in size.
pub const SKY_SEGMENT_BYTES: usize = 32 + SKY_FRAMES * FRAME_BYTES;

#[derive(Clone, Debug)]
pub struct Sky {
    pub palette: [u16; 16],
    /// Untiled palette indices, frame after frame, each 64 rows of 64.
    pub indices: Vec<u8>,
}

impl Sky {
    pub fn parse(r: &mut Reader) -> Result<Sky> {
        let mut s = r.structure("sky segment");
        if s.remaining() < SKY_SEGMENT_BYTES {
            return Err(s.error(format!(
                "the sky segment needs {SKY_SEGMENT_BYTES} bytes, the file has {} (not a Saturn Quake level?)",
                s.remaining()
            )));
        }
        let mut palette = [0u16; 16];
        for p in &mut palette {
            *p = s.u16_be()?;
        }
        let image = s.bytes(SKY_FRAMES * FRAME_BYTES)?;
        r.seek(s.pos())?;
        let mut indices = vec![0u8; SKY_FRAMES * SKY_FRAME_SIZE * SKY_FRAME_SIZE];
        for (i, out) in indices.iter_mut().enumerate() {
            let f = i / (SKY_FRAME_SIZE * SKY_FRAME_SIZE);
            let y = (i / SKY_FRAME_SIZE) % SKY_FRAME_SIZE;
            let x = i % SKY_FRAME_SIZE;
            let byte = image.get(tiled_byte(f, x, y)).copied().unwrap_or(0);
            *out = if x.is_multiple_of(2) { byte >> 4 } else { byte & 15 };
        }
        Ok(Sky { palette, indices })
    }

    /// Palette index of pixel (x, y) of `frame`.
    pub fn pixel(&self, frame: usize, x: usize, y: usize) -> Option<u8> {
        if x >= SKY_FRAME_SIZE || y >= SKY_FRAME_SIZE {
            return None;
        }
        self.indices.get((frame * SKY_FRAME_SIZE + y) * SKY_FRAME_SIZE + x).copied()
    }

    pub fn frame(&self, frame: usize) -> &[u8] {
        let n = SKY_FRAME_SIZE * SKY_FRAME_SIZE;
        self.indices.get(frame * n..(frame + 1) * n).unwrap_or(&[])
    }
}

/// Byte of the image block holding pixel (x, y) of frame `f`.
pub fn tiled_byte(f: usize, x: usize, y: usize) -> usize {
    let character = (y / 16) * 4 + x / 16;
    let cell = ((y / 8) % 2) * 2 + (x / 8) % 2;
    f * FRAME_BYTES + character * 128 + cell * 32 + (y % 8) * 4 + (x % 8) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_order_is_vdp2_character_order() {
        assert_eq!(tiled_byte(0, 0, 0), 0);
        assert_eq!(tiled_byte(0, 8, 0), 32);
        assert_eq!(tiled_byte(0, 0, 8), 64);
        assert_eq!(tiled_byte(0, 16, 0), 128);
        assert_eq!(tiled_byte(0, 0, 16), 512);
        assert_eq!(tiled_byte(1, 0, 0), 2048);
        assert_eq!(tiled_byte(0, 63, 63), 2047);
    }

    #[test]
    fn short_files_are_refused_before_reading() {
        let data = vec![0u8; 1000];
        let mut r = Reader::new("x.lev", "file", &data);
        let e = Sky::parse(&mut r).unwrap_err();
        assert_eq!(e.structure, "sky segment");
        assert!(e.message.contains("131104"));
    }
}
