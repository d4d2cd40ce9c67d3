//! The WAD's packed block: the palette, bitmaps, model records and sounds, located by the
//! offsets in the WAD tables. Each asset is decoded on its own so one bad pointer only loses
//! that asset.

use crate::formats::{Reader, Result};

use super::wad::BitmapEntry;

/// The palette opens the packed block: 256 PALETTEENTRY records (red, green, blue, flags).
pub const PALETTE_SIZE: usize = 256 * 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    pub rgb: Vec<[u8; 3]>,
    /// The PALETTEENTRY flag byte of each entry (5 in the shipped files).
    pub flags: Vec<u8>,
}

/// An 8-bit image, rows top to bottom, no padding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap {
    pub width: u32,
    pub height: u32,
    pub index: Vec<u8>,
}

impl Bitmap {
    pub fn texel(&self, x: u32, y: u32) -> Option<u8> {
        if x >= self.width || y >= self.height {
            return None;
        }
        self.index.get((y * self.width + x) as usize).copied()
    }
}

pub struct PackedBlock {
    file: String,
    data: Vec<u8>,
    /// Offset of the block in the WAD, for error messages.
    base: u64,
}

impl PackedBlock {
    pub fn new(file: &str, data: Vec<u8>, base: u64) -> PackedBlock {
        PackedBlock { file: file.to_string(), data, base }
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn base(&self) -> u64 {
        self.base
    }

    /// A reader over the whole block (positions are packed offsets; errors give WAD offsets).
    pub fn reader<'a>(&'a self, structure: &'a str) -> Reader<'a> {
        Reader::with_base(&self.file, structure, &self.data, self.base)
    }

    /// A reader positioned at packed offset `offset`.
    pub fn reader_at<'a>(&'a self, structure: &'a str, offset: u32) -> Result<Reader<'a>> {
        let mut r = self.reader(structure);
        r.seek(offset as usize)?;
        Ok(r)
    }

    pub fn palette(&self) -> Result<Palette> {
        let mut r = self.reader("palette");
        let bytes = r.bytes(PALETTE_SIZE)?;
        Ok(Palette {
            rgb: bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2]]).collect(),
            flags: bytes.chunks_exact(4).map(|c| c[3]).collect(),
        })
    }

    pub fn bitmap(&self, entry: &BitmapEntry) -> Result<Bitmap> {
        let mut r = self.reader_at("bitmap", entry.offset)?;
        let (w, h) = (entry.width as u32, entry.height as u32);
        let n = w as usize * h as usize;
        r.check_count(n, 1, "texels")?;
        Ok(Bitmap { width: w, height: h, index: r.bytes(n)?.to_vec() })
    }
}
