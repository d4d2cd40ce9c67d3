//! Writes level WADs and maps from the spec: the tests build their own levels with it, for
//! what the shared fixtures leave out. Everything here is the inverse of the parsers.

use super::map::{
    BlockDef, IndexedName, TextureAnimation, MAP_SIGNATURE, MAP_VERSION, MAX_ANIMATION_FRAMES,
};
use super::map_items::{
    Billboard, BlockInstance, ExtraTile, ModelInstance, OpaqueItem, TerrainTile, TERRAIN_TILES,
    TYPE_BILLBOARD, TYPE_BLOCK, TYPE_EXTRA_TILE, TYPE_MODEL, TYPE_TERRAIN,
};
use super::model::{Model, MODEL_DATA_SIZE, MODEL_PARAMS_SIZE};
use super::packed::Bitmap;
use super::texture_def::TextureDef;
use super::wad::{LANGUAGE_COUNT, LUT1_SIZE, LUT2_SIZE, WAD_VERSION};
use crate::formats::ByteWriter;

/// What a written WAD holds (no sounds, language data or unknown assets).
#[derive(Clone, Debug)]
pub struct WadContents {
    pub lut1: Vec<u8>,
    pub lut2: Vec<u8>,
    pub background: u32,
    pub fog_near: u32,
    pub fog_far: u32,
    pub palette: Vec<[u8; 3]>,
    /// Exported name and image of each bitmap.
    pub bitmaps: Vec<(String, Bitmap)>,
    pub textures: Vec<TextureDef>,
    pub models: Vec<Model>,
}

/// What a written map holds; items are written terrain first, then the other kinds in the
/// order of these fields.
#[derive(Clone, Debug, Default)]
pub struct MapContents {
    pub imported_textures: Vec<IndexedName>,
    pub block_defs: Vec<BlockDef>,
    pub texture_defs: Vec<TextureDef>,
    pub animations: Vec<TextureAnimation>,
    pub strat_names: Vec<IndexedName>,
    pub model_names: Vec<IndexedName>,
    /// 4096 tiles in row order.
    pub terrain: Vec<TerrainTile>,
    pub extra_tiles: Vec<ExtraTile>,
    pub billboards: Vec<Billboard>,
    pub blocks: Vec<BlockInstance>,
    pub models: Vec<ModelInstance>,
    /// Entities (with their strat index), cameras and unknown kinds, with zeroed payloads.
    pub opaque: Vec<OpaqueItem>,
}

/// A NUL-terminated name in a field of `n` bytes, NUL-padded.
fn name(w: &mut ByteWriter, s: &str, n: usize) {
    w.terminated_name(s.as_bytes(), n, 0);
}

pub fn texture_def_bytes(d: &TextureDef) -> [u8; 16] {
    let [[u1, v1], [u2, v2], [u3, v3], [u4, v4]] = d.uv;
    let b = d.bitmap.to_le_bytes();
    let f = d.flags.to_le_bytes();
    [
        u1,
        v1,
        b[0],
        b[1],
        u2,
        v2,
        d.unknown,
        d.blend_mode,
        u3,
        v3,
        d.origin[0] as u8,
        d.origin[1] as u8,
        u4,
        v4,
        f[0],
        f[1],
    ]
}

pub fn write_wad(w: &WadContents) -> Vec<u8> {
    // The packed block: offsets into it are known as it is written, and the header before it
    // holds its length, so it is written first.
    let mut packed = ByteWriter::little_endian();
    for i in 0..256 {
        let [r, g, b] = w.palette.get(i).copied().unwrap_or([0, 0, 0]);
        // PALETTEENTRY flags PC_RESERVED | PC_NOCOLLAPSE, as the game's files have.
        packed.bytes(&[r, g, b, 5]);
    }
    let mut bitmap_offsets = Vec::new();
    for (_, b) in &w.bitmaps {
        bitmap_offsets.push(packed.len() as u32);
        packed.bytes(&b.index);
    }
    let mut model_records = Vec::new();
    for m in &w.models {
        let data = packed.len() as u32;
        let params = data + MODEL_DATA_SIZE as u32;
        let vertices = params + MODEL_PARAMS_SIZE as u32;
        let faces = vertices + 6 * m.vertices.len() as u32;
        packed.zeros(40);
        packed.u32s(&[m.vertices.len() as u32, vertices, m.faces.len() as u32, faces]);
        packed.zeros(24).i16s(&m.matrix).zeros(MODEL_PARAMS_SIZE - 24);
        for v in &m.vertices {
            packed.i16s(v);
        }
        for f in &m.faces {
            packed.u32(f.texture).u16s(&f.vertices);
            packed.u16(if f.quad { 0x8000 } else { 0x1000 }).zeros(18);
        }
        model_records.push((data, params));
    }

    let mut out = ByteWriter::little_endian();
    out.bytes(&w.lut1[..LUT1_SIZE.min(w.lut1.len())]).pad_to(LUT1_SIZE, 0);
    out.bytes(&w.lut2[..LUT2_SIZE.min(w.lut2.len())]).pad_to(LUT1_SIZE + LUT2_SIZE, 0);
    out.u32((WAD_VERSION as u32) << 24 | packed.len() as u32);
    out.u32s(&[w.background, w.fog_near, w.fog_far]);
    // Blocks 1 and 2 empty, seven empty language headers, no tables, no language data,
    // block 3 empty, the unknown dword, block 4 empty.
    out.u32(0).u32(0).zeros(LANGUAGE_COUNT * 12);
    out.u32(0).u32(0).u32(0x0BAD_F00D).u32(0);
    out.u32(w.bitmaps.len() as u32);
    for ((_, b), off) in w.bitmaps.iter().zip(&bitmap_offsets) {
        out.u32(*off).u32(0).u16(b.width as u16).u16(b.height as u16);
    }
    out.u32(w.bitmaps.len() as u32);
    for (i, (n, _)) in w.bitmaps.iter().enumerate() {
        out.u32(i as u32);
        name(&mut out, n, 16);
    }
    out.u32(w.textures.len() as u32);
    w.textures.iter().for_each(|t| {
        out.bytes(&texture_def_bytes(t));
    });
    out.u32(0).u32(w.models.len() as u32);
    w.models.iter().for_each(|m| name(&mut out, &m.name, 16));
    for (data, params) in &model_records {
        out.u32(*data).zeros(8).u32(*params).zeros(20);
    }
    out.u32(0).i32s(&[0, -1, -1, -1, -1]).u32(0).u32(0);
    // Trailing unknown data: v = 0, (0 - 0) values, two more words.
    out.zeros(3 * 4);
    out.bytes(packed.as_bytes());
    out.into_bytes()
}

fn name_list(out: &mut ByteWriter, list: &[IndexedName], n: usize) {
    for e in list {
        out.i32(e.index);
        name(out, &e.name, n);
    }
    out.i32(-1);
}

fn item_header(out: &mut ByteWriter, cell: [u16; 2], kind: u16) {
    out.u32(cell[0] as u32).u32(cell[1] as u32).u32((kind as u32) << 16);
}

/// The tile/block payload prefix shared by terrain, extra tiles and blocks.
fn tile_prefix(out: &mut ByteWriter, block_def: u32, flags: u8, brightness: i16) {
    out.u32(0).u32(block_def).u8(flags).u8(0).i16(brightness).i16(0);
}

pub fn write_map(m: &MapContents) -> Vec<u8> {
    let mut items = ByteWriter::little_endian();
    let mut count = 0u32;
    for t in m.terrain.iter().take(TERRAIN_TILES) {
        item_header(&mut items, [0, 0], TYPE_TERRAIN);
        tile_prefix(&mut items, t.block_def, t.flags, t.brightness);
        items.i16(t.offset).zeros(4);
        count += 1;
    }
    for t in &m.extra_tiles {
        item_header(&mut items, t.cell, TYPE_EXTRA_TILE);
        tile_prefix(&mut items, t.block_def, t.flags, t.brightness);
        items.i16s(&t.y).zeros(2);
        count += 1;
    }
    for b in &m.billboards {
        item_header(&mut items, b.cell, TYPE_BILLBOARD);
        items.u32(b.texture).bytes(&[0, b.x_offset as u8, b.y_offset, 0]);
        items.i16(b.vertical_offset).u16(b.scale);
        count += 1;
    }
    for b in &m.blocks {
        item_header(&mut items, b.cell, TYPE_BLOCK);
        tile_prefix(&mut items, b.block_def, b.flags, b.brightness);
        items.i16(b.overall).bytes(&b.displacement.map(|d| d as u8));
        count += 1;
    }
    for i in &m.models {
        item_header(&mut items, i.cell, TYPE_MODEL);
        items.u8(i.x_offset).u8(i.y_offset).i16(i.vertical_offset).u16s(&i.rotation);
        items.u32(i.model).u16(i.scale);
        count += 1;
    }
    for o in &m.opaque {
        item_header(&mut items, o.cell, o.kind);
        let size = super::map_items::payload_size(o.kind).unwrap_or(0);
        let start = items.len();
        // Only the strat index of an entity is kept; the rest of a payload is zero.
        if let Some(s) = o.strat.filter(|_| size >= 4) {
            items.u32(s);
        }
        items.pad_to(start + size, 0);
        count += 1;
    }

    let entities = m.opaque.iter().filter(|o| o.strat.is_some()).count() as u16;
    let mut out = ByteWriter::little_endian();
    out.bytes(MAP_SIGNATURE);
    out.u32s(&[
        MAP_VERSION,
        m.texture_defs.len() as u32,
        m.block_defs.len() as u32,
        1,
        count,
        m.animations.len() as u32,
        m.imported_textures.len() as u32,
    ]);
    out.u16(entities).u16(m.models.len() as u16);
    name_list(&mut out, &m.imported_textures, 14);
    for d in &m.block_defs {
        out.u16s(&d.textures).i16s(&d.y).zeros(20);
    }
    m.texture_defs.iter().for_each(|t| {
        out.bytes(&texture_def_bytes(t));
    });
    for a in &m.animations {
        out.u16(a.target).u16(a.frames.len() as u16).u16(a.delay).u16(a.flags);
        for k in 0..MAX_ANIMATION_FRAMES {
            out.u16(a.frames.get(k).copied().unwrap_or(0));
        }
    }
    name_list(&mut out, &m.strat_names, 16);
    name_list(&mut out, &m.model_names, 16);
    out.u16s(&[64, 64, 6, 6]);
    out.bytes(items.as_bytes());
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::saucer::map::MapFile;
    use crate::formats::saucer::map_items::{OpaqueItem, TYPE_CAMERA, TYPE_ENTITY};
    use crate::formats::saucer::model::{read_model, ModelFace};
    use crate::formats::saucer::wad::Wad;

    fn def(bitmap: u16, blend_mode: u8, flags: u16) -> TextureDef {
        TextureDef {
            bitmap,
            uv: [[1, 2], [30, 2], [30, 40], [1, 40]],
            unknown: 7,
            blend_mode,
            origin: [-3, 4],
            flags,
        }
    }

    #[test]
    fn written_wads_parse_back() {
        let model = Model {
            name: "BOX".into(),
            vertices: vec![[0, 0, 0], [10, 0, 0], [10, -10, 0], [0, -10, 5]],
            faces: vec![
                ModelFace { texture: 1, vertices: [0, 1, 2, 3], quad: true },
                ModelFace { texture: 0, vertices: [0, 2, 3, 0], quad: false },
            ],
            matrix: [512, 0, 0, 0, 512, 0, 0, 0, 512, 1, -2, 3],
            bad_faces: 0,
        };
        let bitmap = Bitmap { width: 4, height: 2, index: vec![1, 2, 3, 4, 5, 6, 7, 8] };
        let w = WadContents {
            lut1: vec![3; LUT1_SIZE],
            lut2: vec![4; LUT2_SIZE],
            background: 17,
            fog_near: 100,
            fog_far: 900,
            palette: vec![[9, 8, 7]; 256],
            bitmaps: vec![("PAGE".into(), bitmap.clone())],
            textures: vec![def(0, 0x40, 2), def(0, 0, 1)],
            models: vec![model.clone()],
        };
        let wad = Wad::parse("w.wad", &write_wad(&w)).expect("parses");
        assert_eq!(
            (wad.header.background, wad.header.fog_near, wad.header.fog_far),
            (17, 100, 900)
        );
        assert_eq!(wad.textures, w.textures);
        assert_eq!(wad.exported_textures, vec![(0, "PAGE".to_string())]);
        assert_eq!(wad.packed.bitmap(&wad.bitmaps[0]).unwrap(), bitmap);
        assert_eq!(wad.packed.palette().unwrap().rgb[200], [9, 8, 7]);
        assert_eq!(read_model(&wad.packed, &wad.models[0]).unwrap(), model);
        assert_eq!(wad.bytes_after_packed, 0);
    }

    #[test]
    fn written_maps_parse_back() {
        let m = MapContents {
            imported_textures: vec![IndexedName { index: 0, name: "PAGE".into() }],
            block_defs: vec![BlockDef {
                textures: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
                y: [0, 1, 2, 3, -4, -5, -6, -7],
            }],
            texture_defs: vec![def(0, 0, 0), def(0, 0xC0, 4)],
            animations: vec![TextureAnimation {
                target: 1,
                frames: vec![0, 1, 0],
                delay: 5,
                flags: 1,
            }],
            strat_names: vec![IndexedName { index: 3, name: "PLAYER".into() }],
            model_names: vec![IndexedName { index: 0, name: "BOX".into() }],
            terrain: (0..TERRAIN_TILES)
                .map(|i| TerrainTile {
                    block_def: 0,
                    flags: (i % 256) as u8,
                    brightness: -2,
                    offset: (i % 7) as i16,
                })
                .collect(),
            extra_tiles: vec![ExtraTile {
                cell: [3, 4],
                block_def: 0,
                flags: 0x20,
                brightness: 1,
                y: [1, -2, 3, -4],
            }],
            billboards: vec![Billboard {
                cell: [5, 6],
                texture: 1,
                x_offset: -20,
                y_offset: 200,
                vertical_offset: -64,
                scale: 128,
            }],
            blocks: vec![BlockInstance {
                cell: [7, 8],
                block_def: 0,
                flags: 0x10,
                brightness: 3,
                overall: -512,
                displacement: [1, -1, 2, -2, 3, -3, 4, -4],
            }],
            models: vec![ModelInstance {
                cell: [9, 10],
                x_offset: 128,
                y_offset: 64,
                vertical_offset: -32,
                rotation: [1, 2, 3],
                model: 0,
                scale: 256,
            }],
            opaque: vec![
                OpaqueItem { kind: TYPE_ENTITY, cell: [11, 12], strat: Some(3) },
                OpaqueItem { kind: TYPE_CAMERA, cell: [13, 14], strat: None },
            ],
        };
        let parsed = MapFile::parse("m.map", &write_map(&m)).expect("parses");
        assert!(parsed.notes.is_empty(), "{:?}", parsed.notes);
        assert_eq!(parsed.header.entities, 1);
        assert_eq!(parsed.imported_textures, m.imported_textures);
        assert_eq!(parsed.block_defs, m.block_defs);
        assert_eq!(parsed.texture_defs, m.texture_defs);
        assert_eq!(parsed.animations, m.animations);
        assert_eq!(parsed.strat_names, m.strat_names);
        assert_eq!(parsed.model_names, m.model_names);
        assert_eq!(parsed.items.terrain, m.terrain);
        assert_eq!(parsed.items.extra_tiles, m.extra_tiles);
        assert_eq!(parsed.items.billboards, m.billboards);
        assert_eq!(parsed.items.blocks, m.blocks);
        assert_eq!(parsed.items.models, m.models);
        assert_eq!(parsed.items.opaque, m.opaque);
        assert_eq!(parsed.strat_name(3), Some("PLAYER"));
    }
}
