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
        Ok(Sky { palette, indices: untile(image) })
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

/// The frames as rows of palette indices, from `image` in the order [`tiled_byte`] gives.
/// Walked a cell row (4 bytes, 8 pixels) at a time rather than a pixel at a time: this runs
/// for every level opened, and for every input the `saturn_lev` fuzz target tries.
fn untile(image: &[u8]) -> Vec<u8> {
    let mut indices = vec![0u8; SKY_FRAMES * SKY_FRAME_SIZE * SKY_FRAME_SIZE];
    for (n, row) in image.chunks_exact(4).take(SKY_FRAMES * FRAME_BYTES / 4).enumerate() {
        let (f, at) = (n / (FRAME_BYTES / 4), n % (FRAME_BYTES / 4));
        let (character, cell, line) = (at / 32, (at / 8) % 4, at % 8);
        let x = (character % 4) * 16 + (cell % 2) * 8;
        let y = (character / 4) * 16 + (cell / 2) * 8 + line;
        let start = (f * SKY_FRAME_SIZE + y) * SKY_FRAME_SIZE + x;
        for (pair, &byte) in indices[start..start + 8].chunks_exact_mut(2).zip(row) {
            pair[0] = byte >> 4;
            pair[1] = byte & 15;
        }
    }
    indices
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
    fn untiling_puts_every_byte_where_tiled_byte_says() {
        let image: Vec<u8> =
            (0..SKY_FRAMES * FRAME_BYTES).map(|i| (i * 131 + i / 7) as u8).collect();
        let indices = untile(&image);
        for f in [0, 1, 37, SKY_FRAMES - 1] {
            for y in 0..SKY_FRAME_SIZE {
                for x in 0..SKY_FRAME_SIZE {
                    let byte = image[tiled_byte(f, x, y)];
                    let want = if x % 2 == 0 { byte >> 4 } else { byte & 15 };
                    let at = (f * SKY_FRAME_SIZE + y) * SKY_FRAME_SIZE + x;
                    assert_eq!(indices[at], want, "frame {f} pixel {x},{y}");
                }
            }
        }
    }

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
