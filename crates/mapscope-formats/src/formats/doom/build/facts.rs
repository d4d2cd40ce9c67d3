//! The level's facts for `info`: its formats, counts of what it has and what was built, the
//! texture names it uses, and every note the steps left. Last of the steps, since it takes the
//! notes away from the builder.

use std::collections::BTreeSet;

use super::things::Things;
use super::Builder;
use crate::formats::doom::map::{node_format_name, MapData};
use crate::formats::doom::specials::lights::LightSim;
use crate::scene::LevelFacts;

use super::level::DoomLevel;

impl Builder<'_> {
    /// The facts of `level` (drawn as `map`) with the things spawned, the light specials and
    /// the number of animation cycles; the builder's notes move into them.
    pub(super) fn level_facts(
        &mut self,
        map: &MapData,
        level: &DoomLevel,
        things: &Things,
        lights: &LightSim,
        cycles: usize,
    ) -> LevelFacts {
        // Line specials are Doom's only in Doom-numbered maps (BoomEffects reads none of the
        // others); Hexen-style specials are not drawn.
        let scroll_lines = self.boom.scrolling_lines;
        let things_animated = things.animated.len() as u64;
        // Before the notes move into the facts, or they would be left behind with the builder.
        self.notes.extend(self.scrolls.note());
        self.notes.extend(self.missing_notes(map));
        let (textures_missing, flats_missing) = self.missing_counts();
        let mut counts = vec![
            ("vertices".into(), map.vertices.len() as u64),
            ("linedefs".into(), map.linedefs.len() as u64),
            ("sidedefs".into(), map.sidedefs.len() as u64),
            ("sectors".into(), map.sectors.len() as u64),
            ("subsectors".into(), map.bsp.subsectors.len() as u64),
            ("segs".into(), map.bsp.segs.len() as u64),
            ("nodes".into(), map.bsp.nodes.len() as u64),
            ("things".into(), map.things.len() as u64),
            ("things_spawned".into(), things.spawned),
            ("things_animated".into(), things_animated),
            ("degenerate_subsectors".into(), level.polygons.degenerate as u64),
            ("light_thinkers".into(), lights.thinker_count() as u64),
            ("scrolling_lines".into(), scroll_lines as u64),
            ("animated_cycles".into(), cycles as u64),
            ("textures_missing".into(), textures_missing as u64),
            ("flats_missing".into(), flats_missing as u64),
        ];
        // Only for a mod with actors, so that vanilla levels' facts stay as they were.
        if things.actor_classes > 0 {
            counts.push(("actor_classes".into(), things.actor_classes as u64));
        }
        LevelFacts {
            details: vec![
                ("map format".into(), map.format.to_string()),
                ("node format".into(), node_format_name(map.bsp.format)),
            ],
            counts,
            textures_used: textures_used(map),
            notes: std::mem::take(&mut self.notes),
        }
    }
}

/// Wall texture and flat names the map refers to, sorted.
fn textures_used(map: &MapData) -> Vec<String> {
    let mut names = BTreeSet::new();
    for sd in &map.sidedefs {
        for n in [&sd.upper, &sd.lower, &sd.middle] {
            if !n.is_empty() && !n.starts_with('-') {
                names.insert(n.clone());
            }
        }
    }
    for s in &map.sectors {
        names.insert(s.floor_flat.clone());
        names.insert(s.ceiling_flat.clone());
    }
    names.into_iter().collect()
}
