//! The level WAD (`LEVELS/<name>.wad`): two lookup tables, a 16-byte header, a run of
//! size-prefixed and counted tables, and the packed block they point into. There is no
//! directory and no magic; the header's version byte is the only signature.

use crate::formats::{Reader, Result};

use super::packed::PackedBlock;
use super::texture_def::TextureDef;

/// LUT1: 16 lighting parts x 64 fog levels x 256 colours.
pub const LUT1_SIZE: usize = 16 * 64 * 256;
/// LUT2: 16 blend tables of 256 x 256.
pub const LUT2_SIZE: usize = 16 * 256 * 256;
/// The only version the game shipped.
pub const WAD_VERSION: u8 = 1;
/// The language section always has seven headers (five languages, one empty, one fallback).
pub const LANGUAGE_COUNT: usize = 7;

const BITMAP_ENTRY_SIZE: usize = 12;
const EXPORTED_NAME_SIZE: usize = 20;
const UNKNOWN_ASSET_SIZE: usize = 28;
const MODEL_NAME_SIZE: usize = 16;
const MODEL_ENTRY_SIZE: usize = 36;
const SOUND_ENTRY_SIZE: usize = 116;
const NAMED_TEXTURE_SIZE: usize = 24;
const UNKNOWN_NAME_SIZE: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WadHeader {
    pub version: u8,
    /// Size of the packed block (lower 24 bits of the first word).
    pub packed_size: u32,
    /// Palette index the screen is cleared to; also the colour fog fades into.
    pub background: u32,
    pub fog_near: u32,
    pub fog_far: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LanguageHeader {
    pub unknown: u16,
    pub count: u16,
    pub start: u32,
    pub end: u32,
}

/// A bitmap table entry: where an 8-bit image lies in the packed block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitmapEntry {
    pub offset: u32,
    pub unknown: u32,
    pub width: u16,
    pub height: u16,
}

/// A model table entry: its name and the packed offsets of its two records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelEntry {
    pub name: String,
    /// The 80-byte model data record (vertex and face lists).
    pub data: u32,
    /// The 60-byte parameter record (placement matrix).
    pub params: u32,
}

/// A sound table entry: packed offsets of the WAVEFORMAT and of the samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoundEntry {
    pub name: String,
    pub format: u32,
    pub data: u32,
    pub data_size: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedTexture {
    pub name: String,
    /// Byte offset into the texture table (16 bytes a definition).
    pub offset: u32,
}

impl NamedTexture {
    pub fn texture_index(&self) -> u32 {
        self.offset / 16
    }
}

pub struct Wad {
    pub lut1: Vec<u8>,
    pub lut2: Vec<u8>,
    pub header: WadHeader,
    pub block1_size: u32,
    pub block2_size: u32,
    pub languages: [LanguageHeader; LANGUAGE_COUNT],
    pub language_data_size: u32,
    pub block3_size: u32,
    pub unknown_dword: u32,
    pub block4_count: u32,
    pub bitmaps: Vec<BitmapEntry>,
    /// (bitmap index, name) pairs the map's imported names refer to.
    pub exported_textures: Vec<(u32, String)>,
    /// Texture definitions used by the models.
    pub textures: Vec<TextureDef>,
    /// Packed offsets of the unknown asset records.
    pub unknown_assets: Vec<u32>,
    pub models: Vec<ModelEntry>,
    pub sounds: Vec<SoundEntry>,
    pub palette_table: [i32; 5],
    pub named_textures: Vec<NamedTexture>,
    pub unknown_names: Vec<String>,
    /// How many u32 values the trailing unknown data holds (name count minus its first word).
    pub unknown_data_values: u32,
    pub packed: PackedBlock,
    /// Bytes in the file after the packed block.
    pub bytes_after_packed: usize,
    /// Problems that did not stop the load (shown by `info`).
    pub notes: Vec<String>,
}

impl Wad {
    pub fn parse(file: &str, data: &[u8]) -> Result<Wad> {
        let mut r = Reader::new(file, "LUT1", data);
        let lut1 = r.bytes(LUT1_SIZE)?.to_vec();
        let mut r = r.structure("LUT2");
        let lut2 = r.bytes(LUT2_SIZE)?.to_vec();
        let mut r = r.structure("WAD header");
        let header = read_header(&mut r)?;

        let mut r = r.structure("block 1");
        let block1_size = skip_sized(&mut r)?;
        let mut r = r.structure("block 2");
        let block2_size = skip_sized(&mut r)?;
        let mut r = r.structure("language headers");
        let languages = read_languages(&mut r)?;
        let entries: usize = languages.iter().map(|l| l.count as usize).sum();
        let mut r = r.structure("language tables");
        r.check_count(entries, 2, "language table entries")?;
        r.skip(entries * 2)?;
        let mut r = r.structure("language data");
        let language_data_size = skip_sized(&mut r)?;
        let mut r = r.structure("block 3");
        let block3_size = skip_sized(&mut r)?;
        let unknown_dword = r.u32_le()?;
        let mut r = r.structure("block 4");
        let block4_count = r.u32_le()?;
        r.check_count(block4_count as usize, 4, "block 4 values")?;
        r.skip(block4_count as usize * 4)?;

        let mut r = r.structure("bitmap table");
        let bitmaps = read_counted(&mut r, BITMAP_ENTRY_SIZE, "bitmaps", |r| {
            Ok(BitmapEntry {
                offset: r.u32_le()?,
                unknown: r.u32_le()?,
                width: r.u16_le()?,
                height: r.u16_le()?,
            })
        })?;
        let mut r = r.structure("exported texture names");
        let exported_textures = read_counted(&mut r, EXPORTED_NAME_SIZE, "exported names", |r| {
            Ok((r.u32_le()?, r.name(16)?))
        })?;
        let mut r = r.structure("texture table");
        let count = r.u32_le()? as usize;
        let textures = TextureDef::read_list(&mut r, count)?;
        let mut r = r.structure("unknown asset table");
        let unknown_assets = read_counted(&mut r, UNKNOWN_ASSET_SIZE, "unknown assets", |r| {
            let offset = r.u32_le()?;
            r.skip(UNKNOWN_ASSET_SIZE - 4)?;
            Ok(offset)
        })?;
        let mut r = r.structure("model table");
        let models = read_models(&mut r)?;
        let mut r = r.structure("sound table");
        let sounds = read_sounds(&mut r)?;
        let mut r = r.structure("palette table");
        let mut palette_table = [0i32; 5];
        for p in &mut palette_table {
            *p = r.i32_le()?;
        }
        let mut r = r.structure("named texture table");
        let named_textures = read_counted(&mut r, NAMED_TEXTURE_SIZE, "named textures", |r| {
            let offset = r.u32_le()?;
            Ok(NamedTexture { offset, name: r.name(20)? })
        })?;
        let mut r = r.structure("unknown name table");
        let unknown_names =
            read_counted(&mut r, UNKNOWN_NAME_SIZE, "unknown names", |r| r.name(16))?;
        let mut r = r.structure("trailing unknown data");
        let unknown_data_values = skip_unknown_data(&mut r, unknown_names.len())?;

        let mut notes = Vec::new();
        let packed_start = r.pos();
        let present = r.remaining();
        let wanted = header.packed_size as usize;
        if present < wanted {
            notes.push(format!(
                "{file}: packed block at offset {packed_start} is truncated: the header says \
                 {wanted} bytes, {present} are present"
            ));
        }
        let take = wanted.min(present);
        let packed = PackedBlock::new(file, r.bytes(take)?.to_vec(), packed_start as u64);
        Ok(Wad {
            lut1,
            lut2,
            header,
            block1_size,
            block2_size,
            languages,
            language_data_size,
            block3_size,
            unknown_dword,
            block4_count,
            bitmaps,
            exported_textures,
            textures,
            unknown_assets,
            models,
            sounds,
            palette_table,
            named_textures,
            unknown_names,
            unknown_data_values,
            packed,
            bytes_after_packed: r.remaining(),
            notes,
        })
    }

    pub fn language_counts(&self) -> [u16; LANGUAGE_COUNT] {
        self.languages.map(|l| l.count)
    }

    /// LUT1 entry: the palette index `colour` becomes at fog `level` in lighting `part`.
    pub fn lut1(&self, part: usize, level: usize, colour: u8) -> u8 {
        let i = (part % 16) * 16384 + (level % 64) * 256 + colour as usize;
        self.lut1.get(i).copied().unwrap_or(colour)
    }

    /// LUT2 entry: table `table` blending `a` with `b`.
    pub fn lut2(&self, table: usize, a: u8, b: u8) -> u8 {
        let i = (table % 16) * 65536 + a as usize * 256 + b as usize;
        self.lut2.get(i).copied().unwrap_or(a)
    }

    /// The model entry called `name` (case-insensitive).
    pub fn model_index(&self, name: &str) -> Option<usize> {
        self.models.iter().position(|m| m.name.eq_ignore_ascii_case(name))
    }
}

fn read_header(r: &mut Reader) -> Result<WadHeader> {
    let start = r.pos();
    let word = r.u32_le()?;
    let version = (word >> 24) as u8;
    if version != WAD_VERSION {
        return Err(r.error_at(
            start,
            format!("version {version}, expected {WAD_VERSION} (not a Saucerman level WAD)"),
        ));
    }
    Ok(WadHeader {
        version,
        packed_size: word & 0x00FF_FFFF,
        background: r.u32_le()?,
        fog_near: r.u32_le()?,
        fog_far: r.u32_le()?,
    })
}

/// Skips a `u32` size and that many bytes, returning the size.
fn skip_sized(r: &mut Reader) -> Result<u32> {
    let size = r.u32_le()?;
    r.check_count(size as usize, 1, "bytes")?;
    r.skip(size as usize)?;
    Ok(size)
}

fn read_languages(r: &mut Reader) -> Result<[LanguageHeader; LANGUAGE_COUNT]> {
    let mut out = [LanguageHeader { unknown: 0, count: 0, start: 0, end: 0 }; LANGUAGE_COUNT];
    for l in &mut out {
        *l = LanguageHeader {
            unknown: r.u16_le()?,
            count: r.u16_le()?,
            start: r.u32_le()?,
            end: r.u32_le()?,
        };
    }
    Ok(out)
}

/// A `u32` count followed by that many records of `size` bytes.
fn read_counted<T>(
    r: &mut Reader,
    size: usize,
    what: &str,
    mut read: impl FnMut(&mut Reader) -> Result<T>,
) -> Result<Vec<T>> {
    let count = r.u32_le()? as usize;
    r.check_count(count, size, what)?;
    (0..count).map(|_| read(r)).collect()
}

fn read_models(r: &mut Reader) -> Result<Vec<ModelEntry>> {
    let count = r.u32_le()? as usize;
    r.check_count(count, MODEL_NAME_SIZE + MODEL_ENTRY_SIZE, "models")?;
    let names = (0..count).map(|_| r.name(MODEL_NAME_SIZE)).collect::<Result<Vec<_>>>()?;
    names
        .into_iter()
        .map(|name| {
            let data = r.u32_le()?;
            r.skip(8)?;
            let params = r.u32_le()?;
            r.skip(MODEL_ENTRY_SIZE - 16)?;
            Ok(ModelEntry { name, data, params })
        })
        .collect()
}

fn read_sounds(r: &mut Reader) -> Result<Vec<SoundEntry>> {
    let count = r.u32_le()? as usize;
    r.check_count(count, 16 + SOUND_ENTRY_SIZE, "sounds")?;
    let names = (0..count).map(|_| r.name(16)).collect::<Result<Vec<_>>>()?;
    names
        .into_iter()
        .map(|name| {
            let format = r.u32_le()?;
            let data = r.u32_le()?;
            let data_size = r.u32_le()?;
            r.skip(SOUND_ENTRY_SIZE - 12)?;
            Ok(SoundEntry { name, format, data, data_size })
        })
        .collect()
}

/// The spec's rule: read `v`, then (name count - v) words, then two more. A `v` larger than
/// the count would make a negative length; the packed block cannot be found after that.
fn skip_unknown_data(r: &mut Reader, name_count: usize) -> Result<u32> {
    let at = r.pos();
    let v = r.u32_le()? as usize;
    let Some(values) = name_count.checked_sub(v) else {
        return Err(r.error_at(
            at,
            format!(
                "value {v} exceeds the unknown name count {name_count}, so the packed block \
                 cannot be located"
            ),
        ));
    };
    r.check_count(values + 2, 4, "trailing values")?;
    r.skip((values + 2) * 4)?;
    Ok(values as u32)
}
