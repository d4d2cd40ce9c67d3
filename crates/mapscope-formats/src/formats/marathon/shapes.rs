//! Marathon 2 Shapes file: 32 collection headers, each collection's colour tables, frames
//! (low-level shapes), sequences (high-level shapes) and bitmaps, raw or transparent-RLE.
//! All offsets inside a collection, including its u32 offset tables, are relative to the
//! collection definition.

use super::mac_roman;
use crate::formats::{Reader, Result};
use crate::limits::MAX_ALLOC;

pub const COLLECTION_COUNT: usize = 32;
const COLLECTION_HEADER_SIZE: usize = 32;
const DEFINITION_SIZE: usize = 544;
const COLOR_SIZE: usize = 8;
const FRAME_SIZE: usize = 36;
const SEQUENCE_HEADER_SIZE: usize = 88;
const BITMAP_HEADER_SIZE: usize = 26;

/// Colour flag: drawn at full brightness whatever the light.
pub const SELF_LUMINESCENT: u8 = 0x80;
/// Bitmap flags.
pub const BITMAP_COLUMN_ORDER: u16 = 0x8000;
pub const BITMAP_TRANSPARENT: u16 = 0x4000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CollectionHeader {
    pub status: u16,
    pub flags: u16,
    /// 8-bit version of the collection (-1: none).
    pub offset: i32,
    pub length: i32,
    /// True-colour version.
    pub offset16: i32,
    pub length16: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColorEntry {
    pub flags: u8,
    /// Pixel value this entry describes.
    pub value: u8,
    pub rgb16: [u16; 3],
}

impl ColorEntry {
    pub fn rgb8(&self) -> [u8; 3] {
        self.rgb16.map(|c| (c >> 8) as u8)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub flags: u16,
    pub minimum_light: i32,
    pub bitmap: i16,
    pub origin: (i16, i16),
    pub key: (i16, i16),
}

/// Frame flags: mirrored horizontally / vertically.
pub const FRAME_X_MIRRORED: u16 = 0x8000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    pub name: String,
    pub views_code: i16,
    pub frames_per_view: i16,
    pub ticks_per_frame: i16,
    pub transfer_mode: i16,
    pub pixels_to_world: i16,
    /// Frame index of view 0, frame 0 (what a still billboard shows).
    pub first_frame: Option<i16>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitmapHeader {
    pub width: i16,
    pub height: i16,
    /// -1: transparent RLE.
    pub bytes_per_row: i16,
    pub flags: u16,
    pub bit_depth: i16,
}

impl BitmapHeader {
    pub fn column_order(&self) -> bool {
        self.flags & BITMAP_COLUMN_ORDER != 0
    }

    pub fn is_rle(&self) -> bool {
        self.bytes_per_row < 0
    }

    /// Storage lines: columns for column-ordered bitmaps, rows otherwise.
    pub fn lines(&self) -> usize {
        (if self.column_order() { self.width } else { self.height }).max(0) as usize
    }

    /// Pixels per storage line.
    pub fn line_length(&self) -> usize {
        (if self.column_order() { self.height } else { self.width }).max(0) as usize
    }
}

/// A bitmap in storage order: pixel `p` of line `l` is `pixels[p * lines + l]`, so a
/// column-ordered bitmap reads upright with x = line. `opaque` is empty when every pixel is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitmap {
    pub header: BitmapHeader,
    pub lines: usize,
    pub line_length: usize,
    pub pixels: Vec<u8>,
    pub opaque: Vec<bool>,
}

impl Bitmap {
    /// Pixel at nominal bitmap coordinates (x, y), or None where transparent.
    pub fn pixel_xy(&self, x: usize, y: usize) -> Option<u8> {
        let (line, pos) = if self.header.column_order() { (x, y) } else { (y, x) };
        if line >= self.lines || pos >= self.line_length {
            return None;
        }
        let i = pos * self.lines + line;
        if !self.opaque.is_empty() && !self.opaque[i] {
            return None;
        }
        self.pixels.get(i).copied()
    }
}

pub struct ShapesFile<'a> {
    pub file: &'a str,
    data: &'a [u8],
    pub headers: Vec<CollectionHeader>,
}

impl<'a> ShapesFile<'a> {
    pub fn parse(file: &'a str, data: &'a [u8]) -> Result<ShapesFile<'a>> {
        let mut r = Reader::new(file, "shapes collection headers", data);
        r.check_count(COLLECTION_COUNT, COLLECTION_HEADER_SIZE, "collection headers")?;
        let mut headers = Vec::with_capacity(COLLECTION_COUNT);
        for i in 0..COLLECTION_COUNT {
            r.seek(i * COLLECTION_HEADER_SIZE)?;
            headers.push(CollectionHeader {
                status: r.u16_be()?,
                flags: r.u16_be()?,
                offset: r.i32_be()?,
                length: r.i32_be()?,
                offset16: r.i32_be()?,
                length16: r.i32_be()?,
            });
        }
        Ok(ShapesFile { file, data, headers })
    }

    /// Collections with an 8-bit version.
    pub fn present(&self) -> Vec<usize> {
        (0..self.headers.len()).filter(|&i| self.headers[i].offset >= 0).collect()
    }

    /// Collection `i`, None when the file has no 8-bit version of it.
    pub fn collection(&self, i: usize) -> Result<Option<Collection<'a>>> {
        let Some(h) = self.headers.get(i) else {
            return Ok(None);
        };
        if h.offset < 0 {
            return Ok(None);
        }
        let r = Reader::new(self.file, "shapes collection", self.data);
        let bytes = r.slice_at(h.offset as usize, h.length.max(0) as usize).map_err(|mut e| {
            e.message = format!("collection {i}: {}", e.message);
            e
        })?;
        Collection::parse(self.file, i, bytes, h.offset as usize).map(Some)
    }
}

pub struct Collection<'a> {
    pub index: usize,
    pub offset: usize,
    pub version: i16,
    pub kind: i16,
    pub flags: u16,
    pub colors_per_table: usize,
    pub color_tables: Vec<Vec<ColorEntry>>,
    pub frames: Vec<Frame>,
    pub sequences: Vec<Sequence>,
    pub pixels_to_world: i16,
    bitmap_offsets: Vec<usize>,
    file: &'a str,
    data: &'a [u8],
}

impl<'a> Collection<'a> {
    fn parse(file: &'a str, index: usize, data: &'a [u8], base: usize) -> Result<Collection<'a>> {
        let mut r = Reader::with_base(file, "collection definition", data, base as u64);
        r.check_count(1, DEFINITION_SIZE, "collection definition")?;
        let version = r.i16_be()?;
        let kind = r.i16_be()?;
        let flags = r.u16_be()?;
        let colors_per_table = r.i16_be()?.max(0) as usize;
        let table_count = r.i16_be()?.max(0) as usize;
        let table_offset = r.u32_be()? as usize;
        let sequence_count = r.i16_be()?.max(0) as usize;
        let sequence_table = r.u32_be()? as usize;
        let frame_count = r.i16_be()?.max(0) as usize;
        let frame_table = r.u32_be()? as usize;
        let bitmap_count = r.i16_be()?.max(0) as usize;
        let bitmap_table = r.u32_be()? as usize;
        let pixels_to_world = r.i16_be()?;

        let mut c = r.structure("collection colour tables");
        c.seek(table_offset)?;
        c.check_count(table_count * colors_per_table, COLOR_SIZE, "colours")?;
        let mut color_tables = Vec::with_capacity(table_count);
        for _ in 0..table_count {
            let mut table = Vec::with_capacity(colors_per_table);
            for _ in 0..colors_per_table {
                let flags = c.u8()?;
                let value = c.u8()?;
                table.push(ColorEntry {
                    flags,
                    value,
                    rgb16: [c.u16_be()?, c.u16_be()?, c.u16_be()?],
                });
            }
            color_tables.push(table);
        }

        let frames = offset_table(&r.structure("collection frame"), frame_table, frame_count)?
            .into_iter()
            .map(|o| {
                let mut f = r.structure("collection frame");
                f.seek(o)?;
                f.check_count(1, FRAME_SIZE, "frame")?;
                let flags = f.u16_be()?;
                let minimum_light = f.i32_be()?;
                let bitmap = f.i16_be()?;
                Ok(Frame {
                    flags,
                    minimum_light,
                    bitmap,
                    origin: (f.i16_be()?, f.i16_be()?),
                    key: (f.i16_be()?, f.i16_be()?),
                })
            })
            .collect::<Result<Vec<_>>>()?;

        let sequences =
            offset_table(&r.structure("collection sequence"), sequence_table, sequence_count)?
                .into_iter()
                .map(|o| {
                    let mut s = r.structure("collection sequence");
                    s.seek(o)?;
                    s.check_count(1, SEQUENCE_HEADER_SIZE, "sequence")?;
                    s.skip(4)?;
                    let name_len = s.u8()? as usize;
                    let name_bytes = s.bytes(33)?;
                    let name = mac_roman::decode(&name_bytes[..name_len.min(33)]);
                    s.seek(o + 38)?;
                    let views_code = s.i16_be()?;
                    let frames_per_view = s.i16_be()?;
                    let ticks_per_frame = s.i16_be()?;
                    s.skip(2)?;
                    let transfer_mode = s.i16_be()?;
                    s.skip(8)?;
                    let pixels_to_world = s.i16_be()?;
                    s.seek(o + SEQUENCE_HEADER_SIZE)?;
                    let first_frame = if frames_per_view > 0 { s.i16_be().ok() } else { None };
                    Ok(Sequence {
                        name,
                        views_code,
                        frames_per_view,
                        ticks_per_frame,
                        transfer_mode,
                        pixels_to_world,
                        first_frame,
                    })
                })
                .collect::<Result<Vec<_>>>()?;

        let bitmap_offsets =
            offset_table(&r.structure("collection bitmap table"), bitmap_table, bitmap_count)?;
        Ok(Collection {
            index,
            offset: base,
            version,
            kind,
            flags,
            colors_per_table,
            color_tables,
            frames,
            sequences,
            pixels_to_world,
            bitmap_offsets,
            file,
            data,
        })
    }

    pub fn bitmap_count(&self) -> usize {
        self.bitmap_offsets.len()
    }

    fn bitmap_reader(&self, i: usize) -> Result<Reader<'a>> {
        let mut r = Reader::with_base(self.file, "shapes bitmap", self.data, self.offset as u64);
        let Some(&o) = self.bitmap_offsets.get(i) else {
            return Err(r.error_at(0, format!("collection {}: no bitmap {i}", self.index)));
        };
        r.seek(o)?;
        Ok(r)
    }

    pub fn bitmap_header(&self, i: usize) -> Result<BitmapHeader> {
        let mut r = self.bitmap_reader(i)?;
        r.check_count(1, BITMAP_HEADER_SIZE, "bitmap header")?;
        Ok(BitmapHeader {
            width: r.i16_be()?,
            height: r.i16_be()?,
            bytes_per_row: r.i16_be()?,
            flags: r.u16_be()?,
            bit_depth: r.i16_be()?,
        })
    }

    /// Decodes bitmap `i`. Sizes are checked against the collection's bytes before anything
    /// is allocated; RLE spans must lie within their line.
    pub fn bitmap(&self, i: usize) -> Result<Bitmap> {
        let header = self.bitmap_header(i)?;
        let mut r = self.bitmap_reader(i)?;
        let start = r.pos();
        let (lines, len) = (header.lines(), header.line_length());
        if header.width <= 0 || header.height <= 0 {
            return Err(r.error(format!(
                "collection {} bitmap {i}: size {}x{}",
                self.index, header.width, header.height
            )));
        }
        r.seek(start + BITMAP_HEADER_SIZE)?;
        // Row pointer space the engine fills in at load time.
        r.skip(4 * (lines + 1))?;
        if !header.is_rle() {
            let row = header.bytes_per_row as usize;
            if row < len {
                return Err(r.error(format!(
                    "collection {} bitmap {i}: {row} bytes per row for lines of {len}",
                    self.index
                )));
            }
            r.check_count(lines, row, "bitmap lines")?;
            let mut pixels = vec![0u8; lines * len];
            for l in 0..lines {
                let line = r.bytes(row)?;
                for (p, &v) in line[..len].iter().enumerate() {
                    pixels[p * lines + l] = v;
                }
            }
            let opaque = if header.flags & BITMAP_TRANSPARENT != 0 {
                pixels.iter().map(|&p| p != 0).collect()
            } else {
                Vec::new()
            };
            return Ok(Bitmap { header, lines, line_length: len, pixels, opaque });
        }
        // Each RLE line needs at least its 4-byte span header.
        r.check_count(lines, 4, "RLE lines")?;
        // RLE lines can be mostly transparent, but not by more than this: a picture far larger
        // than its bytes is a damaged header, refused before allocating for it.
        let pixels = lines.saturating_mul(len);
        if pixels > MAX_ALLOC / 2 || pixels > r.remaining().saturating_mul(64) + (1 << 20) {
            return Err(r.error(format!(
                "collection {} bitmap {i}: {lines}x{len} pixels from {} bytes",
                self.index,
                r.remaining()
            )));
        }
        let mut pixels = vec![0u8; lines * len];
        let mut opaque = vec![false; lines * len];
        for l in 0..lines {
            let at = r.pos();
            let first = r.i16_be()?;
            let last = r.i16_be()?;
            if first < 0 || last < first || last as usize > len {
                return Err(r.error_at(
                    at,
                    format!(
                        "collection {} bitmap {i} line {l}: span {first}..{last} outside a \
                         line of {len}",
                        self.index
                    ),
                ));
            }
            let span = r.bytes((last - first) as usize)?;
            for (k, &v) in span.iter().enumerate() {
                let idx = (first as usize + k) * lines + l;
                pixels[idx] = v;
                opaque[idx] = true;
            }
        }
        Ok(Bitmap { header, lines, line_length: len, pixels, opaque })
    }
}

/// Reads `count` u32 offsets at `at`; each must point inside the collection.
fn offset_table(r: &Reader, at: usize, count: usize) -> Result<Vec<usize>> {
    let mut r = r.clone();
    r.seek(at)?;
    r.check_count(count, 4, "offsets")?;
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let o = r.u32_be()? as usize;
        if o >= r.len() {
            return Err(r.error_at(
                at + 4 * k,
                format!("offset {o} of entry {k} is past the collection ({} bytes)", r.len()),
            ));
        }
        out.push(o);
    }
    Ok(out)
}
