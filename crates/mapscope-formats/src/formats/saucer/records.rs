//! An Attack of the Saucerman scene's surfaces in the map's own records: the grid cell a
//! surface lies over, its terrain tile, the block standing there, and billboards by entry.

use crate::scene::{Fact, Facts, LevelRecords, Scene, Sprite, SurfaceHit, Walker};

use super::geometry::CELL;
use super::map_items::{Billboard, BlockInstance, TerrainTile, GRID};

pub struct SaucerRecords {
    terrain: Vec<TerrainTile>,
    blocks: Vec<BlockInstance>,
    billboards: Vec<Billboard>,
}

impl SaucerRecords {
    pub fn new(level: &super::level::SaucerLevel) -> SaucerRecords {
        let items = &level.map.items;
        SaucerRecords {
            terrain: items.terrain.clone(),
            blocks: items.blocks.clone(),
            billboards: items.billboards.clone(),
        }
    }
}

impl LevelRecords for SaucerRecords {
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts {
        let mut facts = Facts::new();
        // Native X = column * 256, Z = row * 256; a wall's point lies on its cell's edge, so
        // the cell is taken a hair behind the surface.
        let (x, z) = (hit.point[0] - hit.normal[0] * 0.5, hit.point[2] - hit.normal[2] * 0.5);
        let (col, row) = ((x / CELL).floor(), (z / CELL).floor());
        if !(0.0..GRID as f64).contains(&col) || !(0.0..GRID as f64).contains(&row) {
            return facts;
        }
        let (col, row) = (col as usize, row as usize);
        facts.push(("cell".into(), Fact::Ints(vec![col as i64, row as i64])));
        let tile = row * GRID + col;
        if let Some(t) = self.terrain.get(tile) {
            facts.push(("tile".into(), Fact::Int(tile as i64)));
            facts.push(("tile_block_def".into(), Fact::Int(t.block_def as i64)));
            facts.push(("tile_flags".into(), Fact::Text(format!("0x{:02X}", t.flags))));
            facts.push(("brightness".into(), Fact::Int(t.brightness as i64)));
        }
        let here = |b: &&BlockInstance| b.cell == [col as u16, row as u16];
        if let Some((i, b)) = self.blocks.iter().enumerate().find(|(_, b)| here(b)) {
            facts.push(("block".into(), Fact::Int(i as i64)));
            facts.push(("block_def".into(), Fact::Int(b.block_def as i64)));
            facts.push(("block_flags".into(), Fact::Text(format!("0x{:02X}", b.flags))));
        }
        facts
    }

    fn sprite(&self, sprite: &Sprite) -> Facts {
        let i = sprite.source as usize;
        let Some(b) = self.billboards.get(i) else { return Facts::new() };
        vec![
            ("billboard".into(), Fact::Int(i as i64)),
            ("cell".into(), Fact::Ints(vec![b.cell[0] as i64, b.cell[1] as i64])),
            ("billboard_texture".into(), Fact::Int(b.texture as i64)),
            ("scale".into(), Fact::Int(b.scale as i64)),
        ]
    }

    fn walker(&self, scene: &Scene) -> Option<Box<dyn Walker>> {
        Some(Box::new(super::walk::walker(scene)))
    }
}
