//! The level map (`maps/<name>.map`): a "SUCK" header with counts, imported name lists,
//! block definitions, the map's own texture definitions, texture animations, one unknown
//! record and the map items (see [`super::map_items`]).

use crate::formats::{Reader, Result};

use super::map_items::{read_items, MapItems};
use super::texture_def::TextureDef;

pub const MAP_SIGNATURE: &[u8; 4] = b"SUCK";
pub const MAP_VERSION: u32 = 40;
pub const BLOCK_DEF_SIZE: usize = 60;
pub const ANIMATION_SIZE: usize = 40;
/// Frames an animation record has room for.
pub const MAX_ANIMATION_FRAMES: usize = 16;
const UNKNOWN_RECORD_SIZE: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapHeader {
    pub version: u32,
    pub texture_defs: u32,
    pub block_defs: u32,
    pub unknown_records: u32,
    pub items: u32,
    pub animations: u32,
    pub imported_textures: u32,
    pub entities: u16,
    pub model_instances: u16,
}

/// Which face of a block a texture slot belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockFace {
    Front,
    Top,
    Left,
    Back,
    Right,
    Bottom,
}

/// Texture slot order in a block definition: six inside faces, then six outside faces.
pub const INSIDE_FACES: [BlockFace; 6] = [
    BlockFace::Front,
    BlockFace::Top,
    BlockFace::Left,
    BlockFace::Back,
    BlockFace::Right,
    BlockFace::Bottom,
];
pub const OUTSIDE_FACES: [BlockFace; 6] = [
    BlockFace::Back,
    BlockFace::Top,
    BlockFace::Left,
    BlockFace::Front,
    BlockFace::Right,
    BlockFace::Bottom,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockDef {
    /// Map texture definition per slot (0 = no face), in the file's order.
    pub textures: [u16; 12],
    /// Vertex heights (game units, down positive): bottom TL, TR, BR, BL, then top.
    pub y: [i16; 8],
}

impl BlockDef {
    /// The texture of `face`, inside or outside (0 = none).
    pub fn texture(&self, face: BlockFace, outside: bool) -> u16 {
        let (slots, base) = if outside { (&OUTSIDE_FACES, 6) } else { (&INSIDE_FACES, 0) };
        slots.iter().position(|&f| f == face).map_or(0, |i| self.textures[base + i])
    }

    /// The one texture a terrain tile uses: the bottom inside face.
    pub fn terrain_texture(&self) -> u16 {
        self.texture(BlockFace::Bottom, false)
    }
}

/// A texture animation as the fixtures lay it out (the spec leaves it open): the target
/// definition cycles through `frames`, one every `delay` tics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureAnimation {
    pub target: u16,
    pub frames: Vec<u16>,
    pub delay: u16,
    pub flags: u16,
}

/// An indexed name list entry (`i32` index + fixed-size name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedName {
    pub index: i32,
    pub name: String,
}

pub struct MapFile {
    pub header: MapHeader,
    pub imported_textures: Vec<IndexedName>,
    pub block_defs: Vec<BlockDef>,
    pub texture_defs: Vec<TextureDef>,
    pub animations: Vec<TextureAnimation>,
    pub strat_names: Vec<IndexedName>,
    pub model_names: Vec<IndexedName>,
    pub unknown_records: Vec<[u16; 4]>,
    pub items: MapItems,
    /// Problems that did not stop the load.
    pub notes: Vec<String>,
}

impl MapFile {
    pub fn parse(file: &str, data: &[u8]) -> Result<MapFile> {
        let mut r = Reader::new(file, "map header", data);
        let header = read_header(&mut r)?;
        let mut r = r.structure("imported texture names");
        let imported_textures = read_name_list(&mut r, 14)?;
        let mut r = r.structure("block definitions");
        r.check_count(header.block_defs as usize, BLOCK_DEF_SIZE, "block definitions")?;
        let block_defs =
            (0..header.block_defs).map(|_| read_block_def(&mut r)).collect::<Result<_>>()?;
        let mut r = r.structure("map texture definitions");
        let texture_defs = TextureDef::read_list(&mut r, header.texture_defs as usize)?;
        let mut r = r.structure("texture animations");
        r.check_count(header.animations as usize, ANIMATION_SIZE, "texture animations")?;
        let mut notes = Vec::new();
        let mut animations = Vec::new();
        for i in 0..header.animations {
            let at = r.pos();
            match read_animation(&mut r)? {
                Some(a) => animations.push(a),
                None => notes.push(format!(
                    "{file}: texture animation {i} at offset {at} has an invalid frame count; skipped"
                )),
            }
        }
        let mut r = r.structure("strat names");
        let strat_names = read_name_list(&mut r, 16)?;
        let mut r = r.structure("model names");
        let model_names = read_name_list(&mut r, 16)?;
        let mut r = r.structure("unknown records");
        r.check_count(header.unknown_records as usize, UNKNOWN_RECORD_SIZE, "unknown records")?;
        let unknown_records = (0..header.unknown_records)
            .map(|_| Ok([r.u16_le()?, r.u16_le()?, r.u16_le()?, r.u16_le()?]))
            .collect::<Result<_>>()?;
        let mut r = r.structure("map items");
        let items = read_items(&mut r, header.items, &mut notes)?;
        Ok(MapFile {
            header,
            imported_textures,
            block_defs,
            texture_defs,
            animations,
            strat_names,
            model_names,
            unknown_records,
            items,
            notes,
        })
    }

    /// The name a model instance's index refers to (looked up by the list's own indices).
    pub fn model_name(&self, index: u32) -> Option<&str> {
        lookup(&self.model_names, index)
    }

    pub fn strat_name(&self, index: u32) -> Option<&str> {
        lookup(&self.strat_names, index)
    }
}

fn lookup(list: &[IndexedName], index: u32) -> Option<&str> {
    list.iter().find(|n| n.index >= 0 && n.index as u32 == index).map(|n| n.name.as_str())
}

fn read_header(r: &mut Reader) -> Result<MapHeader> {
    let sig = r.bytes(4)?;
    if sig != MAP_SIGNATURE {
        return Err(r.error_at(
            0,
            format!("signature {:?}, expected \"SUCK\"", String::from_utf8_lossy(sig)),
        ));
    }
    let at = r.pos();
    let version = r.u32_le()?;
    if version != MAP_VERSION {
        return Err(r.error_at(at, format!("version {version}, expected {MAP_VERSION}")));
    }
    Ok(MapHeader {
        version,
        texture_defs: r.u32_le()?,
        block_defs: r.u32_le()?,
        unknown_records: r.u32_le()?,
        items: r.u32_le()?,
        animations: r.u32_le()?,
        imported_textures: r.u32_le()?,
        entities: r.u16_le()?,
        model_instances: r.u16_le()?,
    })
}

/// `{i32 index, char[name_len]}` entries up to an index of -1. Every entry consumes bytes, so
/// a list without its terminator ends at the end of the file with an error.
fn read_name_list(r: &mut Reader, name_len: usize) -> Result<Vec<IndexedName>> {
    let mut out = Vec::new();
    loop {
        let at = r.pos();
        let index = r.i32_le().map_err(|_| r.error_at(at, "name list has no -1 terminator"))?;
        if index == -1 {
            return Ok(out);
        }
        let name = r.name(name_len).map_err(|_| r.error_at(at, "name list entry cut off"))?;
        out.push(IndexedName { index, name });
    }
}

fn read_block_def(r: &mut Reader) -> Result<BlockDef> {
    let mut textures = [0u16; 12];
    for t in &mut textures {
        *t = r.u16_le()?;
    }
    let mut y = [0i16; 8];
    for v in &mut y {
        *v = r.i16_le()?;
    }
    r.skip(BLOCK_DEF_SIZE - 40)?;
    Ok(BlockDef { textures, y })
}

/// One 40-byte record; `None` when its frame count does not fit the record.
fn read_animation(r: &mut Reader) -> Result<Option<TextureAnimation>> {
    let target = r.u16_le()?;
    let count = r.u16_le()? as usize;
    let delay = r.u16_le()?;
    let flags = r.u16_le()?;
    let mut frames = [0u16; MAX_ANIMATION_FRAMES];
    for f in &mut frames {
        *f = r.u16_le()?;
    }
    if count == 0 || count > MAX_ANIMATION_FRAMES {
        return Ok(None);
    }
    Ok(Some(TextureAnimation { target, frames: frames[..count].to_vec(), delay, flags }))
}
