//! Engine tables the map files refer to by number: shape descriptors, collections, transfer
//! modes, and which shapes scenery, items and liquids are drawn with (facts from the engine's
//! definition tables).

/// A shape descriptor: colour table (bits 15..13), collection (12..8), frame or sequence
/// (7..0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Descriptor(pub u16);

impl Descriptor {
    pub fn new(collection: u8, shape: u8) -> Descriptor {
        Descriptor(((collection as u16 & 0x1F) << 8) | shape as u16)
    }

    /// The same shape in colour table `clut` of its collection.
    pub fn with_clut(self, clut: u8) -> Descriptor {
        Descriptor((self.0 & 0x1FFF) | ((clut as u16 & 7) << 13))
    }

    pub fn clut(self) -> usize {
        (self.0 >> 13) as usize
    }

    pub fn collection(self) -> usize {
        ((self.0 >> 8) & 0x1F) as usize
    }

    pub fn shape(self) -> usize {
        (self.0 & 0xFF) as usize
    }
}

pub mod collection {
    pub const JUGGERNAUT: u8 = 2;
    pub const TICK: u8 = 3;
    pub const HUNTER: u8 = 5;
    pub const ITEMS: u8 = 7;
    pub const TROOPER: u8 = 8;
    pub const FIGHTER: u8 = 9;
    pub const DEFENDER: u8 = 10;
    pub const YETI: u8 = 11;
    pub const CIVILIAN: u8 = 12;
    pub const CIVILIAN_FUSION: u8 = 13;
    pub const ENFORCER: u8 = 14;
    pub const HUMMER: u8 = 15;
    pub const COMPILER: u8 = 16;
    pub const WALLS1: u8 = 17;
    pub const WALLS2: u8 = 18;
    pub const WALLS3: u8 = 19;
    pub const WALLS4: u8 = 20;
    pub const WALLS5: u8 = 21;
    pub const SCENERY1: u8 = 22;
    pub const SCENERY2: u8 = 23;
    pub const SCENERY3: u8 = 24;
    pub const SCENERY4: u8 = 25;
    pub const SCENERY5: u8 = 26;
    pub const CYBORG: u8 = 31;
}

/// Transfer modes the renderer animates.
pub mod transfer {
    pub const NORMAL: u16 = 0;
    pub const PULSATE: u16 = 4;
    pub const WOBBLE: u16 = 5;
    pub const FAST_WOBBLE: u16 = 6;
    pub const STATIC: u16 = 7;
    pub const HALF_STATIC: u16 = 8;
    pub const LANDSCAPE: u16 = 9;
    pub const HORIZONTAL_SLIDE: u16 = 15;
    pub const FAST_HORIZONTAL_SLIDE: u16 = 16;
    pub const VERTICAL_SLIDE: u16 = 17;
    pub const FAST_VERTICAL_SLIDE: u16 = 18;
    pub const WANDER: u16 = 19;
    pub const FAST_WANDER: u16 = 20;
    pub const BIG_LANDSCAPE: u16 = 21;

    pub fn is_landscape(mode: u16) -> bool {
        mode == LANDSCAPE || mode == BIG_LANDSCAPE
    }

    /// Modes that move the texture origin each tick.
    pub fn moves(mode: u16) -> bool {
        matches!(
            mode,
            PULSATE
                | WOBBLE
                | FAST_WOBBLE
                | HORIZONTAL_SLIDE
                | FAST_HORIZONTAL_SLIDE
                | VERTICAL_SLIDE
                | FAST_VERTICAL_SLIDE
                | WANDER
                | FAST_WANDER
        )
    }
}

use collection::*;

/// Sequence each scenery type is drawn with, in scenery index order (lava, water, sewage,
/// alien, jjaro sets).
const SCENERY: [(u8, u8); 61] = [
    (SCENERY2, 3),
    (SCENERY2, 4),
    (SCENERY2, 5),
    (SCENERY2, 6),
    (SCENERY2, 7),
    (SCENERY2, 8),
    (SCENERY2, 9),
    (SCENERY2, 10),
    (SCENERY2, 12),
    (SCENERY2, 13),
    (SCENERY2, 14),
    (SCENERY2, 15),
    (SCENERY2, 16),
    (SCENERY1, 4),
    (SCENERY1, 5),
    (SCENERY1, 7),
    (SCENERY1, 9),
    (SCENERY1, 10),
    (SCENERY1, 21),
    (SCENERY1, 11),
    (SCENERY1, 12),
    (SCENERY1, 13),
    (SCENERY1, 14),
    (SCENERY1, 15),
    (SCENERY1, 16),
    (SCENERY1, 17),
    (SCENERY1, 18),
    (SCENERY1, 20),
    (SCENERY3, 5),
    (SCENERY3, 7),
    (SCENERY3, 4),
    (SCENERY3, 9),
    (SCENERY3, 10),
    (SCENERY3, 11),
    (SCENERY3, 13),
    (SCENERY3, 17),
    (SCENERY3, 12),
    (SCENERY3, 14),
    (SCENERY3, 15),
    (SCENERY5, 4),
    (SCENERY5, 14),
    (SCENERY5, 16),
    (SCENERY5, 6),
    (SCENERY5, 7),
    (SCENERY5, 9),
    (SCENERY5, 10),
    (SCENERY5, 11),
    (SCENERY5, 12),
    (SCENERY5, 13),
    (SCENERY5, 18),
    (SCENERY4, 5),
    (SCENERY4, 7),
    (SCENERY4, 4),
    (SCENERY4, 9),
    (SCENERY4, 10),
    (SCENERY4, 11),
    (SCENERY4, 13),
    (SCENERY4, 17),
    (SCENERY4, 12),
    (SCENERY4, 14),
    (SCENERY4, 15),
];

/// Item sequences in collection 7 by item index (None: not drawn, or drawn from the player
/// collection as net-game balls are).
const ITEM_SEQUENCES: [Option<u8>; 36] = [
    None,
    Some(0),
    Some(3),
    Some(1),
    Some(4),
    Some(2),
    Some(5),
    Some(6),
    Some(12),
    Some(7),
    Some(8),
    Some(9),
    Some(14),
    Some(13),
    None,
    Some(10),
    Some(11),
    Some(15),
    Some(23),
    Some(20),
    Some(21),
    Some(22),
    Some(18),
    Some(19),
    Some(17),
    Some(16),
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    Some(25),
    Some(24),
];

/// Size of a monster relative to its shapes.
const NORMAL: f32 = 1.0;
const TINY: f32 = 0.25;
const ENLARGED: f32 = 1.25;

/// Per monster type: collection, colour table, standing ("stationary") sequence and size. The
/// marine (type 0) is the player's and is not placed as a monster.
const MONSTERS: [Option<(u8, u8, u8, f32)>; 47] = [
    None,
    Some((TICK, 0, 1, NORMAL)),
    Some((TICK, 0, 1, NORMAL)),
    Some((TICK, 0, 0, NORMAL)),
    Some((COMPILER, 0, 0, NORMAL)),
    Some((COMPILER, 1, 0, NORMAL)),
    Some((COMPILER, 0, 0, NORMAL)),
    Some((COMPILER, 1, 0, NORMAL)),
    Some((FIGHTER, 0, 7, NORMAL)),
    Some((FIGHTER, 1, 7, NORMAL)),
    Some((FIGHTER, 2, 7, NORMAL)),
    Some((FIGHTER, 3, 7, NORMAL)),
    Some((CIVILIAN, 0, 6, NORMAL)),
    Some((CIVILIAN, 1, 6, NORMAL)),
    Some((CIVILIAN, 2, 6, NORMAL)),
    Some((CIVILIAN, 3, 6, NORMAL)),
    Some((HUMMER, 0, 0, NORMAL)),
    Some((HUMMER, 1, 0, NORMAL)),
    Some((HUMMER, 2, 0, NORMAL)),
    Some((HUMMER, 3, 0, NORMAL)),
    Some((HUMMER, 4, 0, NORMAL)),
    Some((CYBORG, 0, 0, NORMAL)),
    Some((CYBORG, 1, 0, NORMAL)),
    Some((CYBORG, 0, 0, NORMAL)),
    Some((CYBORG, 0, 0, NORMAL)),
    Some((ENFORCER, 0, 0, NORMAL)),
    Some((ENFORCER, 1, 0, NORMAL)),
    Some((HUNTER, 0, 1, NORMAL)),
    Some((HUNTER, 1, 1, NORMAL)),
    Some((TROOPER, 0, 1, NORMAL)),
    Some((TROOPER, 1, 1, NORMAL)),
    Some((CYBORG, 0, 0, ENLARGED)),
    Some((HUNTER, 2, 1, ENLARGED)),
    Some((YETI, 0, 0, NORMAL)),
    Some((YETI, 1, 0, NORMAL)),
    Some((YETI, 2, 0, NORMAL)),
    Some((DEFENDER, 0, 0, NORMAL)),
    Some((DEFENDER, 1, 0, NORMAL)),
    Some((JUGGERNAUT, 0, 0, NORMAL)),
    Some((JUGGERNAUT, 1, 0, NORMAL)),
    Some((FIGHTER, 1, 7, TINY)),
    Some((CIVILIAN, 0, 6, TINY)),
    Some((YETI, 2, 0, TINY)),
    Some((CIVILIAN_FUSION, 0, 6, NORMAL)),
    Some((CIVILIAN_FUSION, 1, 6, NORMAL)),
    Some((CIVILIAN_FUSION, 2, 6, NORMAL)),
    Some((CIVILIAN_FUSION, 3, 6, NORMAL)),
];

/// The standing sequence a monster is drawn with, and its size factor.
pub fn monster_sequence(index: i16) -> Option<(Descriptor, f32)> {
    let (c, clut, s, size) = (*MONSTERS.get(usize::try_from(index).ok()?)?)?;
    Some((Descriptor::new(c, s).with_clut(clut), size))
}

/// The sequence (as a descriptor) a scenery object is drawn with.
pub fn scenery_sequence(index: i16) -> Option<Descriptor> {
    let &(c, s) = SCENERY.get(usize::try_from(index).ok()?)?;
    Some(Descriptor::new(c, s))
}

/// The sequence an item is drawn with.
pub fn item_sequence(index: i16) -> Option<Descriptor> {
    let s = (*ITEM_SEQUENCES.get(usize::try_from(index).ok()?)?)?;
    Some(Descriptor::new(collection::ITEMS, s))
}

/// Surface texture of each liquid type (water, lava, goo, sewage, jjaro).
pub fn media_texture(kind: u16) -> Option<Descriptor> {
    let (c, s) = match kind {
        0 => (WALLS1, 19),
        1 => (WALLS2, 12),
        2 => (WALLS5, 5),
        3 => (WALLS3, 13),
        4 => (WALLS4, 13),
        _ => return None,
    };
    Some(Descriptor::new(c, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_fields() {
        let d = Descriptor(0x3500);
        assert_eq!((d.clut(), d.collection(), d.shape()), (1, 21, 0));
    }

    #[test]
    fn engine_tables() {
        assert_eq!(scenery_sequence(42), Some(Descriptor::new(26, 6)));
        assert_eq!(media_texture(2), Some(Descriptor(0x1505)));
        assert_eq!(item_sequence(1), Some(Descriptor::new(7, 0)));
        assert_eq!(scenery_sequence(61), None);
        assert_eq!(monster_sequence(9), Some((Descriptor(0x2907), 1.0)));
        assert_eq!(monster_sequence(0), None);
        assert_eq!(monster_sequence(47), None);
    }
}
