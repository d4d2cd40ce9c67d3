//! The animation step: every member of each ANIMATED/ANIMDEFS cycle the map uses any member
//! of gets its texture, so that the animator only remaps textures the scene already has.
//! After the walls, flats and things, which decide what the map uses.

use super::Builder;
use crate::formats::doom::specials::animation::{active_anims, SceneCycle};

impl Builder<'_> {
    /// The texture and flat cycles the map's surfaces take part in, their members made.
    pub(super) fn animation_cycles(&mut self) -> Vec<SceneCycle> {
        let anims = active_anims(self.texdir, self.stack, &mut self.notes);
        let mut cycles = Vec::new();
        for anim in anims {
            let used = if anim.is_texture { &self.used_walls } else { &self.used_flats };
            if !used.iter().any(|&n| anim.contains(n)) {
                continue;
            }
            let members =
                (anim.basepic..anim.basepic + anim.numpics)
                    .map(|n| {
                        if anim.is_texture {
                            self.wall_by_number(n)
                        } else {
                            self.flat_by_number(n)
                        }
                    })
                    .collect();
            cycles.push(SceneCycle { anim, members });
        }
        cycles
    }
}
