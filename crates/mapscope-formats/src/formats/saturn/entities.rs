//! Entities: a type and an offset into the entity data block. Only the mover (type 0x92,
//! 42 bytes) is documented; other records start with an int16 (0 for most, a style for
//! lights) and an int16 position triple, which is how public importers of the real levels
//! place them.

use super::level::{LevelData, MOVER_TYPE};

/// Names public importers of the real levels give some entity types.
pub fn type_name(kind: u16) -> Option<&'static str> {
    Some(match kind {
        13 => "info_player_start",
        29 => "item_shells",
        38 | 92 | 110 | 232 | 235 | 253 => "light",
        88 => "item_armor1",
        113 => "light_flame_large_yellow",
        MOVER_TYPE => "misc_polymover",
        243 => "monster_army",
        244 => "monster_dog",
        _ => return None,
    })
}

/// Type of the player start.
pub const PLAYER_START_TYPE: u16 = 13;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntityView {
    pub index: usize,
    pub kind: u16,
    pub data_offset: u16,
    pub data: Vec<u8>,
    /// Native position for records that carry one (not movers).
    pub position: Option<[i16; 3]>,
}

impl EntityView {
    pub fn label(&self) -> String {
        let name = type_name(self.kind).unwrap_or("unknown");
        format!("entity {}: type 0x{:02x} {name}", self.index, self.kind)
    }
}

pub fn entity_views(level: &LevelData) -> Vec<EntityView> {
    level
        .entities
        .iter()
        .enumerate()
        .map(|(index, e)| {
            let data = level.entity_bytes(index).unwrap_or(&[]).to_vec();
            let position = (e.kind != MOVER_TYPE).then(|| position(&data)).flatten();
            EntityView { index, kind: e.kind, data_offset: e.data_offset, data, position }
        })
        .collect()
}

fn position(data: &[u8]) -> Option<[i16; 3]> {
    let w = |i: usize| Some(i16::from_be_bytes([*data.get(i)?, *data.get(i + 1)?]));
    Some([w(2)?, w(4)?, w(6)?])
}
