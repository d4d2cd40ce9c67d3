//! A Saturn Quake scene's surfaces in the level's own records: the plane a face belongs to
//! (the scene's part), its flags, its quads and its tile, and the tile's size.

use crate::scene::{Fact, Facts, LevelRecords, Scene, Sprite, SurfaceHit, Walker};

use super::level::{Plane, NONE16};
use super::tiles::TileRecord;

pub struct SaturnRecords {
    planes: Vec<Plane>,
    tiles: Vec<TileRecord>,
}

impl SaturnRecords {
    pub fn new(file: &super::file::LevFile) -> SaturnRecords {
        SaturnRecords { planes: file.level.planes.clone(), tiles: file.tiles.clone() }
    }
}

impl LevelRecords for SaturnRecords {
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts {
        let mut facts = Facts::new();
        let Some(p) = hit.part.map(|p| p as usize) else { return facts };
        let Some(plane) = self.planes.get(p) else { return facts };
        facts.push(("plane".into(), Fact::Int(p as i64)));
        facts.push(("plane_flags".into(), Fact::Text(format!("0x{:04X}", plane.flags))));
        facts.push((
            "collision_flags".into(),
            Fact::Text(format!("0x{:04X}", plane.collision_flags)),
        ));
        if let Some(q) = plane.quad_range() {
            facts.push(("quads".into(), Fact::Ints(vec![*q.start() as i64, *q.end() as i64])));
        }
        if plane.tile_index != NONE16 {
            facts.push(("tile".into(), Fact::Int(plane.tile_index as i64)));
            if let Some(t) = self.tiles.get(plane.tile_index as usize) {
                facts.push(("tile_size".into(), Fact::Ints(vec![t.width as i64, t.height as i64])));
            }
        }
        facts.push((
            "plane_normal".into(),
            Fact::Ints(plane.plane[..3].iter().map(|&n| n as i64).collect()),
        ));
        facts
    }

    fn sprite(&self, _sprite: &Sprite) -> Facts {
        Facts::new()
    }

    fn walker(&self, scene: &Scene) -> Option<Box<dyn Walker>> {
        Some(Box::new(super::walk::walker(scene)))
    }
}
