//! The largest Attack of the Saucerman level the format holds, for benchmarks: every one of
//! the 64 x 64 terrain tiles on rolling ground, a block of buildings on half the cells (cubes
//! of four heights, some with glass walls drawn through the blend tables), billboards on a
//! few hundred cells and the player entity in the middle. Colours and tables are made up, as
//! the writer tests' are; nothing comes from game data.

use super::map::{BlockDef, IndexedName};
use super::map_items::{
    Billboard, BlockInstance, OpaqueItem, TerrainTile, GRID, TERRAIN_TILES, TYPE_ENTITY,
};
use super::packed::Bitmap;
use super::texture_def::TextureDef;
use super::writer::{write_map, write_wad, MapContents, WadContents};
use crate::formats::layout_hash;

/// Texture definitions, each a 16 x 16 region of the atlas in one colour.
const GROUND: u16 = 1;
const WALL: u16 = 2;
const ROOF: u16 = 3;
const GLASS: u16 = 4;
const SPRITE: u16 = 5;
const DEFS: u16 = 6;

fn colour(def: u16) -> u8 {
    (40 + def * 23) as u8
}

fn region(def: u16) -> (u8, u8) {
    ((16 * (def % 16)) as u8, (16 * (def / 16)) as u8)
}

fn texture_def(def: u16, blend_mode: u8) -> TextureDef {
    let (u, v) = region(def);
    TextureDef {
        bitmap: 0,
        uv: [[u, v], [u + 15, v], [u + 15, v + 15], [u, v + 15]],
        unknown: 0,
        blend_mode,
        origin: [0, 0],
        flags: 0,
    }
}

/// The layout hash of a cell.
fn mix(col: usize, row: usize, salt: u32) -> u32 {
    layout_hash(col as u32, row as u32, salt)
}

/// The level's WAD (tables, palette, atlas) and map, as `LEVELS/<name>.wad` and
/// `maps/<name>.map` hold them.
pub fn large_level() -> (Vec<u8>, Vec<u8>) {
    (wad(), map())
}

fn wad() -> Vec<u8> {
    // Fog darkens towards colour 1 over the 64 levels; blending mixes the two colours.
    let lut1 = (0..16u32)
        .flat_map(|p| {
            (0..64u32).flat_map(move |l| {
                (0..=255u32).map(
                    move |c| if c == 0 { 0 } else { (1 + (c * (64 - l) / 64 + p) % 255) as u8 },
                )
            })
        })
        .collect();
    let lut2 = (0..16u32)
        .flat_map(|t| {
            (0..=255u32)
                .flat_map(move |a| (0..=255u32).map(move |b| (1 + (a + b + t) / 2 % 255) as u8))
        })
        .collect();
    let mut index = vec![0u8; 256 * 256];
    for def in 1..DEFS {
        let (u0, v0) = region(def);
        for y in 0..16usize {
            for x in 0..16usize {
                // A darker border, so the cells read apart.
                let edge = x == 0 || y == 0;
                let c = colour(def).wrapping_sub(if edge { 12 } else { 0 });
                index[(v0 as usize + y) * 256 + u0 as usize + x] = c;
            }
        }
    }
    write_wad(&WadContents {
        lut1,
        lut2,
        background: 9,
        fog_near: 3000,
        fog_far: 9000,
        palette: (0..256u32)
            .map(|i| [i as u8, (i * 37 % 256) as u8, (i * 101 % 256) as u8])
            .collect(),
        bitmaps: vec![("ATLAS".into(), Bitmap { width: 256, height: 256, index })],
        textures: vec![texture_def(GROUND, 0)],
        models: vec![],
    })
}

/// A building of `height` game units (down positive, so negative), walls and roof.
fn building(height: i16, wall: u16) -> BlockDef {
    // Slots: inside front, top, left, back, right, bottom; outside back, top, left, front,
    // right, bottom.
    BlockDef {
        textures: [0, 0, 0, 0, 0, 0, wall, ROOF, wall, wall, wall, 0],
        y: [0, 0, 0, 0, height, height, height, height],
    }
}

fn map() -> Vec<u8> {
    let mut texture_defs: Vec<TextureDef> = (0..DEFS).map(|d| texture_def(d, 0)).collect();
    // Glass drawn through blend table 1.
    texture_defs[GLASS as usize] = texture_def(GLASS, 0x40);
    let ground = BlockDef { textures: [0, 0, 0, 0, 0, GROUND, 0, 0, 0, 0, 0, 0], y: [0; 8] };
    let mut block_defs = vec![ground];
    for height in [-256, -512, -768, -1024] {
        block_defs.push(building(height, WALL));
    }
    block_defs.push(building(-512, GLASS));
    let terrain = (0..TERRAIN_TILES)
        .map(|i| {
            let (col, row) = (i % GRID, i / GRID);
            // Rolling ground: corner heights from a slow wave, down positive.
            let wave = ((col as f32 * 0.3).sin() + (row as f32 * 0.23).cos()) * 96.0;
            TerrainTile { block_def: 0, flags: 0, brightness: 0, offset: wave as i16 }
        })
        .collect();
    let mut blocks = Vec::new();
    let mut billboards = Vec::new();
    let centre = GRID / 2;
    for row in 0..GRID {
        for col in 0..GRID {
            let near_centre = col.abs_diff(centre) < 3 && row.abs_diff(centre) < 3;
            // Streets every fourth row and column, and the player's square, stay open.
            if near_centre || col % 4 == 0 || row % 4 == 0 {
                if mix(col, row, 3).is_multiple_of(16) {
                    billboards.push(Billboard {
                        cell: [col as u16, row as u16],
                        texture: SPRITE as u32,
                        x_offset: 127,
                        y_offset: 128,
                        vertical_offset: 0,
                        scale: 256,
                    });
                }
                continue;
            }
            let h = mix(col, row, 1);
            let def = if h.is_multiple_of(9) { 5 } else { 1 + (h % 4) };
            blocks.push(BlockInstance {
                cell: [col as u16, row as u16],
                block_def: def,
                flags: 0,
                brightness: (h % 5) as i16,
                overall: 0,
                displacement: [0; 8],
            });
        }
    }
    write_map(&MapContents {
        imported_textures: vec![IndexedName { index: 0, name: "ATLAS".into() }],
        block_defs,
        texture_defs,
        strat_names: vec![IndexedName { index: 0, name: "PLAYER".into() }],
        terrain,
        billboards,
        blocks,
        opaque: vec![OpaqueItem {
            kind: TYPE_ENTITY,
            cell: [centre as u16, centre as u16],
            strat: Some(0),
        }],
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::saucer::{build_scene, SaucerLevel};

    #[test]
    fn the_large_level_loads_whole_with_its_buildings_and_billboards() {
        let (wad, map) = large_level();
        let level = SaucerLevel::load("BIG", "BIG.wad", &wad, "BIG.map", &map)
            .unwrap_or_else(|e| panic!("{e}"));
        let scene = build_scene(&level);
        assert!(scene.triangle_count() > 25_000, "{} triangles", scene.triangle_count());
        assert!(scene.sprites.len() > 20, "{} billboards", scene.sprites.len());
        assert!(level.notes.is_empty(), "{:?}", level.notes);
    }
}
