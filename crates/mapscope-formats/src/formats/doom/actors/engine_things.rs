//! GZDoom's own things that a map places but that draw nothing in the world: dynamic lights,
//! sounds, cameras and path points, sector actions, map spots, invisible bridges, portal
//! markers and the like. Modern maps carry many (a community deathmatch map has dozens of
//! lights), and GZDoom spawns them all; mapscope places them as markers, so that they are
//! neither counted as unknown nor drawn. The numbers and classes are GZDoom's, as Ultimate
//! Doom Builder's ZDoom configuration lists them. Particle fountains and sparks draw
//! particles, which mapscope does not, and are listed apart.

/// What kind of engine thing `doomednum` is, where it is one that draws no sprite.
pub fn engine_thing(doomednum: u16) -> Option<EngineThing> {
    use EngineThing::*;
    Some(match doomednum {
        9800..=9804 | 9810..=9814 | 9820..=9824 => DynamicLight,
        1400..=1409 | 1411 | 9048 | 14001..=14067 | 14101..=14165 => Sound,
        9024 | 9025 | 9047 | 9070..=9075 | 9080 | 9081 | 9083 | 9084 => CameraOrPath,
        9038 | 9039 | 9041 | 9082 | 9600..=9605 | 9982 | 9983 | 9989 | 9992..=9999 => SectorAction,
        9001 | 9013 | 9040 | 9043..=9046 | 9076 | 9200 => MapSpot,
        5061 | 5064 | 5065 | 9990 => InvisibleBridge,
        9077 | 9078 => PortalMarker,
        9026..=9033 => Particles,
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EngineThing {
    DynamicLight,
    Sound,
    CameraOrPath,
    SectorAction,
    MapSpot,
    InvisibleBridge,
    PortalMarker,
    /// Draws particles, not a sprite.
    Particles,
}

impl EngineThing {
    /// How `info` and the markers name it.
    pub fn name(self) -> &'static str {
        match self {
            EngineThing::DynamicLight => "dynamic light",
            EngineThing::Sound => "sound thing",
            EngineThing::CameraOrPath => "camera or path point",
            EngineThing::SectorAction => "sector action",
            EngineThing::MapSpot => "map spot",
            EngineThing::InvisibleBridge => "invisible bridge",
            EngineThing::PortalMarker => "stacked-sector portal",
            EngineThing::Particles => "particle fountain",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lights_sounds_and_spots_are_engine_things_and_monsters_are_not() {
        assert_eq!(engine_thing(9800), Some(EngineThing::DynamicLight));
        assert_eq!(engine_thing(9821), Some(EngineThing::DynamicLight));
        assert_eq!(engine_thing(14002), Some(EngineThing::Sound));
        assert_eq!(engine_thing(9080), Some(EngineThing::CameraOrPath));
        assert_eq!(engine_thing(9999), Some(EngineThing::SectorAction));
        assert_eq!(engine_thing(9001), Some(EngineThing::MapSpot));
        assert_eq!(engine_thing(5061), Some(EngineThing::InvisibleBridge));
        assert_eq!(engine_thing(9027), Some(EngineThing::Particles));
        // Slope things, polyobject spots and player starts are read elsewhere; monsters and
        // decorations are actors.
        for n in [1, 9, 3001, 2035, 9300, 9500, 1504, 5050, 9050] {
            assert_eq!(engine_thing(n), None, "{n}");
        }
    }
}
