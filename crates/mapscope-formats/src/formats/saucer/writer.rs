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

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend(v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend(v.to_le_bytes());
}

fn i16le(out: &mut Vec<u8>, v: i16) {
    out.extend(v.to_le_bytes());
}

/// A NUL-padded name field of `n` bytes.
fn name(out: &mut Vec<u8>, s: &str, n: usize) {
    let mut b = vec![0u8; n];
    for (d, c) in b.iter_mut().zip(s.bytes().take(n - 1)) {
        *d = c;
    }
    out.extend(b);
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
    let mut packed = Vec::new();
    for i in 0..256 {
        let [r, g, b] = w.palette.get(i).copied().unwrap_or([0, 0, 0]);
        // PALETTEENTRY flags PC_RESERVED | PC_NOCOLLAPSE, as the game's files have.
        packed.extend([r, g, b, 5]);
    }
    let mut bitmap_offsets = Vec::new();
    for (_, b) in &w.bitmaps {
        bitmap_offsets.push(packed.len() as u32);
        packed.extend(&b.index);
    }
    let mut model_records = Vec::new();
    for m in &w.models {
        let data = packed.len() as u32;
        let params = data + MODEL_DATA_SIZE as u32;
        let vertices = params + MODEL_PARAMS_SIZE as u32;
        let faces = vertices + 6 * m.vertices.len() as u32;
        let mut record = vec![0u8; 40];
        for v in [m.vertices.len() as u32, vertices, m.faces.len() as u32, faces, 0, 0, 0, 0, 0, 0]
        {
            u32le(&mut record, v);
        }
        packed.extend(record);
        for v in m.matrix {
            i16le(&mut packed, v);
        }
        packed.extend([0u8; MODEL_PARAMS_SIZE - 24]);
        for v in &m.vertices {
            v.iter().for_each(|&c| i16le(&mut packed, c));
        }
        for f in &m.faces {
            u32le(&mut packed, f.texture);
            f.vertices.iter().for_each(|&i| u16le(&mut packed, i));
            u16le(&mut packed, if f.quad { 0x8000 } else { 0x1000 });
            packed.extend([0u8; 18]);
        }
        model_records.push((data, params));
    }

    let mut out = Vec::with_capacity(LUT1_SIZE + LUT2_SIZE + packed.len() + 1024);
    out.extend(&w.lut1[..LUT1_SIZE.min(w.lut1.len())]);
    out.resize(LUT1_SIZE, 0);
    out.extend(&w.lut2[..LUT2_SIZE.min(w.lut2.len())]);
    out.resize(LUT1_SIZE + LUT2_SIZE, 0);
    u32le(&mut out, (WAD_VERSION as u32) << 24 | packed.len() as u32);
    for v in [w.background, w.fog_near, w.fog_far] {
        u32le(&mut out, v);
    }
    // Blocks 1 and 2 empty, seven empty language headers, no tables, no language data,
    // block 3 empty, the unknown dword, block 4 empty.
    u32le(&mut out, 0);
    u32le(&mut out, 0);
    out.extend(vec![0u8; LANGUAGE_COUNT * 12]);
    u32le(&mut out, 0);
    u32le(&mut out, 0);
    u32le(&mut out, 0x0BAD_F00D);
    u32le(&mut out, 0);
    u32le(&mut out, w.bitmaps.len() as u32);
    for ((_, b), off) in w.bitmaps.iter().zip(&bitmap_offsets) {
        u32le(&mut out, *off);
        u32le(&mut out, 0);
        u16le(&mut out, b.width as u16);
        u16le(&mut out, b.height as u16);
    }
    u32le(&mut out, w.bitmaps.len() as u32);
    for (i, (n, _)) in w.bitmaps.iter().enumerate() {
        u32le(&mut out, i as u32);
        name(&mut out, n, 16);
    }
    u32le(&mut out, w.textures.len() as u32);
    w.textures.iter().for_each(|t| out.extend(texture_def_bytes(t)));
    u32le(&mut out, 0);
    u32le(&mut out, w.models.len() as u32);
    w.models.iter().for_each(|m| name(&mut out, &m.name, 16));
    for (data, params) in &model_records {
        u32le(&mut out, *data);
        out.extend([0u8; 8]);
        u32le(&mut out, *params);
        out.extend([0u8; 20]);
    }
    u32le(&mut out, 0);
    for v in [0i32, -1, -1, -1, -1] {
        out.extend(v.to_le_bytes());
    }
    u32le(&mut out, 0);
    u32le(&mut out, 0);
    // Trailing unknown data: v = 0, (0 - 0) values, two more words.
    for _ in 0..3 {
        u32le(&mut out, 0);
    }
    out.extend(packed);
    out
}

fn name_list(out: &mut Vec<u8>, list: &[IndexedName], n: usize) {
    for e in list {
        out.extend(e.index.to_le_bytes());
        name(out, &e.name, n);
    }
    out.extend((-1i32).to_le_bytes());
}

fn item_header(out: &mut Vec<u8>, cell: [u16; 2], kind: u16) {
    u32le(out, cell[0] as u32);
    u32le(out, cell[1] as u32);
    u32le(out, (kind as u32) << 16);
}

/// The tile/block payload prefix shared by terrain, extra tiles and blocks.
fn tile_prefix(out: &mut Vec<u8>, block_def: u32, flags: u8, brightness: i16) {
    u32le(out, 0);
    u32le(out, block_def);
    out.extend([flags, 0]);
    i16le(out, brightness);
    i16le(out, 0);
}

pub fn write_map(m: &MapContents) -> Vec<u8> {
    let mut items = Vec::new();
    let mut count = 0u32;
    for t in m.terrain.iter().take(TERRAIN_TILES) {
        item_header(&mut items, [0, 0], TYPE_TERRAIN);
        tile_prefix(&mut items, t.block_def, t.flags, t.brightness);
        i16le(&mut items, t.offset);
        items.extend([0u8; 4]);
        count += 1;
    }
    for t in &m.extra_tiles {
        item_header(&mut items, t.cell, TYPE_EXTRA_TILE);
        tile_prefix(&mut items, t.block_def, t.flags, t.brightness);
        t.y.iter().for_each(|&y| i16le(&mut items, y));
        items.extend([0u8; 2]);
        count += 1;
    }
    for b in &m.billboards {
        item_header(&mut items, b.cell, TYPE_BILLBOARD);
        u32le(&mut items, b.texture);
        items.extend([0, b.x_offset as u8, b.y_offset, 0]);
        i16le(&mut items, b.vertical_offset);
        u16le(&mut items, b.scale);
        count += 1;
    }
    for b in &m.blocks {
        item_header(&mut items, b.cell, TYPE_BLOCK);
        tile_prefix(&mut items, b.block_def, b.flags, b.brightness);
        i16le(&mut items, b.overall);
        items.extend(b.displacement.map(|d| d as u8));
        count += 1;
    }
    for i in &m.models {
        item_header(&mut items, i.cell, TYPE_MODEL);
        items.extend([i.x_offset, i.y_offset]);
        i16le(&mut items, i.vertical_offset);
        i.rotation.iter().for_each(|&r| u16le(&mut items, r));
        u32le(&mut items, i.model);
        u16le(&mut items, i.scale);
        count += 1;
    }
    for o in &m.opaque {
        item_header(&mut items, o.cell, o.kind);
        let size = super::map_items::payload_size(o.kind).unwrap_or(0);
        let mut payload = vec![0u8; size];
        if let (Some(s), Some(head)) = (o.strat, payload.get_mut(..4)) {
            head.copy_from_slice(&s.to_le_bytes());
        }
        items.extend(payload);
        count += 1;
    }

    let entities = m.opaque.iter().filter(|o| o.strat.is_some()).count() as u16;
    let mut out = Vec::new();
    out.extend(MAP_SIGNATURE);
    for v in [
        MAP_VERSION,
        m.texture_defs.len() as u32,
        m.block_defs.len() as u32,
        1,
        count,
        m.animations.len() as u32,
        m.imported_textures.len() as u32,
    ] {
        u32le(&mut out, v);
    }
    u16le(&mut out, entities);
    u16le(&mut out, m.models.len() as u16);
    name_list(&mut out, &m.imported_textures, 14);
    for d in &m.block_defs {
        d.textures.iter().for_each(|&t| u16le(&mut out, t));
        d.y.iter().for_each(|&y| i16le(&mut out, y));
        out.extend([0u8; 20]);
    }
    m.texture_defs.iter().for_each(|t| out.extend(texture_def_bytes(t)));
    for a in &m.animations {
        u16le(&mut out, a.target);
        u16le(&mut out, a.frames.len() as u16);
        u16le(&mut out, a.delay);
        u16le(&mut out, a.flags);
        for k in 0..MAX_ANIMATION_FRAMES {
            u16le(&mut out, a.frames.get(k).copied().unwrap_or(0));
        }
    }
    name_list(&mut out, &m.strat_names, 16);
    name_list(&mut out, &m.model_names, 16);
    for v in [64u16, 64, 6, 6] {
        u16le(&mut out, v);
    }
    out.extend(items);
    out
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
