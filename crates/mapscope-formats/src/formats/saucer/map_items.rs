//! Map items: a 12-byte header (`u32` X, `u32` Y, `u32` type/flags) and a payload whose size
//! depends on the type. The first 4096 are the terrain grid in row order.

use std::collections::BTreeMap;

use crate::formats::{Reader, Result};

pub const GRID: usize = 64;
pub const TERRAIN_TILES: usize = GRID * GRID;
/// Bits of the type/flags word that hold the type (shifted down by 16).
pub const TYPE_MASK: u32 = 0x1BFC_0000;

pub const TYPE_TERRAIN: u16 = 0x4;
pub const TYPE_EXTRA_TILE: u16 = 0x8;
pub const TYPE_BILLBOARD: u16 = 0x10;
pub const TYPE_UNKNOWN_20: u16 = 0x20;
pub const TYPE_BLOCK: u16 = 0x40;
pub const TYPE_UNKNOWN_100: u16 = 0x100;
pub const TYPE_ENTITY: u16 = 0x200;
pub const TYPE_CAMERA: u16 = 0x800;
pub const TYPE_MODEL: u16 = 0x1000;

const HEADER_SIZE: usize = 12;

/// Payload size of each known type; an unknown type cannot be skipped.
pub fn payload_size(kind: u16) -> Option<usize> {
    Some(match kind {
        TYPE_TERRAIN => 20,
        TYPE_EXTRA_TILE => 24,
        TYPE_BILLBOARD => 12,
        TYPE_UNKNOWN_20 => 8,
        TYPE_BLOCK => 24,
        TYPE_UNKNOWN_100 => 8,
        TYPE_ENTITY => 32,
        TYPE_CAMERA => 24,
        TYPE_MODEL => 16,
        _ => return None,
    })
}

/// Rotation in quarter turns: flags bits 4-5 (the spec's mask 0x30).
pub fn rotation(flags: u8) -> usize {
    ((flags & 0x30) >> 4) as usize
}

/// LUT1 part for sprites on a tile: flags bits 0-3 (the spec's mask 0x0F).
pub fn sprite_brightness(flags: u8) -> u8 {
    flags & 0x0F
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainTile {
    pub block_def: u32,
    pub flags: u8,
    pub brightness: i16,
    /// Height of the tile's top-left corner (game units, down positive).
    pub offset: i16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtraTile {
    pub cell: [u16; 2],
    pub block_def: u32,
    pub flags: u8,
    pub brightness: i16,
    /// Corner heights TL, TR, BR, BL (down positive).
    pub y: [i16; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Billboard {
    pub cell: [u16; 2],
    /// Map texture definition.
    pub texture: u32,
    pub x_offset: i8,
    pub y_offset: u8,
    pub vertical_offset: i16,
    /// 256 = 1.0.
    pub scale: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInstance {
    pub cell: [u16; 2],
    pub block_def: u32,
    pub flags: u8,
    pub brightness: i16,
    /// Added to every vertex height (down positive).
    pub overall: i16,
    /// Per-vertex displacements in units of 4, bottom TL..BL then top TL..BL.
    pub displacement: [i8; 8],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelInstance {
    pub cell: [u16; 2],
    pub x_offset: u8,
    pub y_offset: u8,
    pub vertical_offset: i16,
    /// Rotation about X, Y, Z (65536 a turn).
    pub rotation: [u16; 3],
    /// Index into the map's model name list.
    pub model: u32,
    /// 256 = 1.0.
    pub scale: u16,
}

/// An item kept only as a position and kind: entities (with their strat index), cameras,
/// and the types nobody knows yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpaqueItem {
    pub kind: u16,
    pub cell: [u16; 2],
    /// Entities: index into the strat name list.
    pub strat: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct MapItems {
    /// Terrain tiles in grid order (index = row * 64 + column); fewer than 4096 when cut off.
    pub terrain: Vec<TerrainTile>,
    pub extra_tiles: Vec<ExtraTile>,
    pub billboards: Vec<Billboard>,
    pub blocks: Vec<BlockInstance>,
    pub models: Vec<ModelInstance>,
    pub opaque: Vec<OpaqueItem>,
    pub counts_by_type: BTreeMap<u16, u32>,
}

impl MapItems {
    pub fn terrain_at(&self, col: usize, row: usize) -> Option<&TerrainTile> {
        if col >= GRID || row >= GRID {
            return None;
        }
        self.terrain.get(row * GRID + col)
    }

    pub fn total(&self) -> u32 {
        self.counts_by_type.values().sum()
    }
}

/// Reads up to `count` items. A cut-off file or an item of unknown size ends the list with a
/// note; what was read before stays. Nothing is allocated from `count`, and every item
/// consumes bytes, so a huge count stops at the end of the file.
pub fn read_items(r: &mut Reader, count: u32, notes: &mut Vec<String>) -> Result<MapItems> {
    let mut items = MapItems::default();
    for i in 0..count {
        let at = r.pos();
        if r.remaining() < HEADER_SIZE {
            notes.push(r.error_at(at, format!("item {i} of {count} cut off")).to_string());
            break;
        }
        let x = r.u32_le()?;
        let y = r.u32_le()?;
        let type_flags = r.u32_le()?;
        let kind = ((type_flags & TYPE_MASK) >> 16) as u16;
        let cell = [(x & 0xFFFF) as u16, (y & 0xFFFF) as u16];
        let Some(size) = payload_size(kind) else {
            notes.push(
                r.error_at(
                    at,
                    format!("item {i} has unknown type 0x{kind:x}; items from here on are skipped"),
                )
                .to_string(),
            );
            break;
        };
        if r.remaining() < size {
            notes.push(
                r.error_at(at, format!("item {i} of {count} (type 0x{kind:x}) cut off"))
                    .to_string(),
            );
            break;
        }
        let mut p = r.structure("map item");
        r.skip(size)?;
        *items.counts_by_type.entry(kind).or_insert(0) += 1;
        read_payload(&mut p, kind, cell, &mut items, i, notes)?;
    }
    Ok(items)
}

fn read_payload(
    p: &mut Reader,
    kind: u16,
    cell: [u16; 2],
    items: &mut MapItems,
    index: u32,
    notes: &mut Vec<String>,
) -> Result<()> {
    match kind {
        TYPE_TERRAIN => {
            p.skip(4)?;
            let block_def = p.u32_le()?;
            let flags = p.u8()?;
            p.skip(1)?;
            let brightness = p.i16_le()?;
            p.skip(2)?;
            let offset = p.i16_le()?;
            if items.terrain.len() < TERRAIN_TILES {
                items.terrain.push(TerrainTile { block_def, flags, brightness, offset });
            } else {
                notes.push(format!("map item {index}: terrain tile beyond the 64x64 grid ignored"));
            }
        }
        TYPE_EXTRA_TILE => {
            p.skip(4)?;
            let block_def = p.u32_le()?;
            let flags = p.u8()?;
            p.skip(1)?;
            let brightness = p.i16_le()?;
            p.skip(2)?;
            let y = [p.i16_le()?, p.i16_le()?, p.i16_le()?, p.i16_le()?];
            items.extra_tiles.push(ExtraTile { cell, block_def, flags, brightness, y });
        }
        TYPE_BILLBOARD => {
            let texture = p.u32_le()?;
            p.skip(1)?;
            let x_offset = p.i8()?;
            let y_offset = p.u8()?;
            p.skip(1)?;
            let vertical_offset = p.i16_le()?;
            let scale = p.u16_le()?;
            items.billboards.push(Billboard {
                cell,
                texture,
                x_offset,
                y_offset,
                vertical_offset,
                scale,
            });
        }
        TYPE_BLOCK => {
            p.skip(4)?;
            let block_def = p.u32_le()?;
            let flags = p.u8()?;
            p.skip(1)?;
            let brightness = p.i16_le()?;
            p.skip(2)?;
            let overall = p.i16_le()?;
            let mut displacement = [0i8; 8];
            for d in &mut displacement {
                *d = p.i8()?;
            }
            items.blocks.push(BlockInstance {
                cell,
                block_def,
                flags,
                brightness,
                overall,
                displacement,
            });
        }
        TYPE_MODEL => {
            let x_offset = p.u8()?;
            let y_offset = p.u8()?;
            let vertical_offset = p.i16_le()?;
            let rotation = [p.u16_le()?, p.u16_le()?, p.u16_le()?];
            let model = p.u32_le()?;
            let scale = p.u16_le()?;
            items.models.push(ModelInstance {
                cell,
                x_offset,
                y_offset,
                vertical_offset,
                rotation,
                model,
                scale,
            });
        }
        TYPE_ENTITY => {
            let strat = p.u32_le()?;
            items.opaque.push(OpaqueItem { kind, cell, strat: Some(strat) });
        }
        _ => items.opaque.push(OpaqueItem { kind, cell, strat: None }),
    }
    Ok(())
}
