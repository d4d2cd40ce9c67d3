//! Animated textures and flats (vanilla `p_spec.c` animdefs), scrolling walls (linedef 48),
//! and the [`Animator`] that combines them with the light specials of [`super::lights`].
//!
//! At tic N (after `P_UpdateSpecials` last ran with leveltime N-1), texture or flat number `i`
//! of a cycle shows `basepic + (((N-1)/speed + i) % numpics)`; `i` is the absolute number
//! (TEXTURE1/2 order, or flat position), not the position within the cycle. Tic 0 shows
//! every texture as itself.

use crate::scene::{Animator, FrameState};

use super::lights::LightSim;
use super::textures::TextureDirectory;
use super::wad::WadStack;

/// One vanilla animation definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimDef {
    pub is_texture: bool,
    pub first: &'static str,
    pub last: &'static str,
    pub speed: u32,
}

const fn flat(first: &'static str, last: &'static str) -> AnimDef {
    AnimDef { is_texture: false, first, last, speed: 8 }
}

const fn wall(first: &'static str, last: &'static str) -> AnimDef {
    AnimDef { is_texture: true, first, last, speed: 8 }
}

/// Vanilla's `animdefs[]`, in its order (flats, then textures).
pub static ANIMDEFS: [AnimDef; 22] = [
    flat("NUKAGE1", "NUKAGE3"),
    flat("FWATER1", "FWATER4"),
    flat("SWATER1", "SWATER4"),
    flat("LAVA1", "LAVA4"),
    flat("BLOOD1", "BLOOD3"),
    flat("RROCK05", "RROCK08"),
    flat("SLIME01", "SLIME04"),
    flat("SLIME05", "SLIME08"),
    flat("SLIME09", "SLIME12"),
    wall("BLODGR1", "BLODGR4"),
    wall("SLADRIP1", "SLADRIP3"),
    wall("BLODRIP1", "BLODRIP4"),
    wall("FIREWALA", "FIREWALL"),
    wall("GSTFONT1", "GSTFONT3"),
    wall("FIRELAV3", "FIRELAVA"),
    wall("FIREMAG1", "FIREMAG3"),
    wall("FIREBLU1", "FIREBLU2"),
    wall("ROCKRED1", "ROCKRED3"),
    wall("BFALL1", "BFALL4"),
    wall("SFALL1", "SFALL4"),
    wall("WFALL1", "WFALL4"),
    wall("DBRAIN1", "DBRAIN4"),
];

/// An animation whose first and last pictures exist: numbers `basepic..basepic+numpics`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActiveAnim {
    pub is_texture: bool,
    pub basepic: usize,
    pub numpics: usize,
    pub speed: u32,
}

impl ActiveAnim {
    /// The picture number that number `i` (in the cycle) shows at `tic`.
    pub fn pic_at(&self, i: usize, tic: u32) -> usize {
        if tic == 0 {
            return i;
        }
        let step = ((tic - 1) / self.speed) as usize;
        self.basepic + (step + i) % self.numpics
    }

    pub fn contains(&self, i: usize) -> bool {
        (self.basepic..self.basepic + self.numpics).contains(&i)
    }
}

/// `P_InitPicAnims`: the cycles whose first and last pictures exist. A cycle whose last
/// picture comes before its first (vanilla: "bad cycle" error) is skipped with a note.
pub fn active_anims(
    textures: &TextureDirectory,
    stack: &WadStack,
    notes: &mut Vec<String>,
) -> Vec<ActiveAnim> {
    let mut out = Vec::new();
    for def in &ANIMDEFS {
        let lookup = |name: &str| {
            if def.is_texture {
                textures.number(name)
            } else {
                stack.flats().number(name)
            }
        };
        let (Some(first), Some(last)) = (lookup(def.first), lookup(def.last)) else {
            continue;
        };
        if last <= first {
            notes.push(format!(
                "animation {}..{} is out of order; not animated",
                def.first, def.last
            ));
            continue;
        }
        out.push(ActiveAnim {
            is_texture: def.is_texture,
            basepic: first,
            numpics: last - first + 1,
            speed: def.speed,
        });
    }
    out
}

/// A cycle in scene terms: the scene texture of each member, in picture-number order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneCycle {
    pub anim: ActiveAnim,
    pub members: Vec<u32>,
}

/// Doom's [`Animator`]: texture cycles, scrolling walls and sector lights.
pub struct DoomAnimator {
    cycles: Vec<SceneCycle>,
    lights: LightSim,
    texture_count: usize,
    scroll_slots: usize,
}

impl DoomAnimator {
    /// `scroll_slots` counts slot 0 (always zero) plus one per scrolling line.
    pub fn new(
        cycles: Vec<SceneCycle>,
        lights: LightSim,
        texture_count: usize,
        scroll_slots: usize,
    ) -> DoomAnimator {
        DoomAnimator { cycles, lights, texture_count, scroll_slots: scroll_slots.max(1) }
    }

    fn fill(&self, tic: u32, out: &mut FrameState) {
        out.texture_remap.clear();
        out.texture_remap.extend(0..self.texture_count as u32);
        // Later cycles overwrite earlier ones, as later anims overwrite texturetranslation.
        for c in &self.cycles {
            for (k, &tex) in c.members.iter().enumerate() {
                let shown = c.anim.pic_at(c.anim.basepic + k, tic) - c.anim.basepic;
                if let (Some(slot), Some(&to)) =
                    (out.texture_remap.get_mut(tex as usize), c.members.get(shown))
                {
                    *slot = to;
                }
            }
        }
        out.scroll.clear();
        out.scroll.push([0.0, 0.0]);
        // Linedef 48 adds one texel per tic to its front sidedef's x offset.
        out.scroll.extend((1..self.scroll_slots).map(|_| [tic as f32, 0.0]));
    }
}

fn light_values(levels: &[i32], out: &mut Vec<u32>) {
    out.clear();
    out.extend(levels.iter().map(|&l| l.clamp(0, 255) as u32));
}

impl Animator for DoomAnimator {
    fn tic_rate(&self) -> f64 {
        35.0
    }

    fn state_at(&mut self, tic: u32, out: &mut FrameState) {
        self.fill(tic, out);
        light_values(self.lights.levels_at(tic), &mut out.light);
    }

    fn initial(&self) -> FrameState {
        let mut out = FrameState::default();
        self.fill(0, &mut out);
        light_values(self.lights.initial_levels(), &mut out.light);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn cycle_formula_uses_absolute_numbers() {
        let a = ActiveAnim { is_texture: false, basepic: 5, numpics: 3, speed: 8 };
        assert_eq!(a.pic_at(5, 0), 5);
        // Tic 1..8: step 0; number 5 shows basepic + (0 + 5) % 3 = 5 + 2 = 7.
        assert_eq!(a.pic_at(5, 1), 7);
        assert_eq!(a.pic_at(6, 8), 5);
        assert_eq!(a.pic_at(5, 9), 5);
        assert_eq!(a.pic_at(7, 9), 7);
    }

    #[test]
    fn finds_cycles_in_test_wad() {
        let stack = testwad::two_room_stack();
        let tex = TextureDirectory::load(&stack).unwrap();
        let mut notes = Vec::new();
        let anims = active_anims(&tex, &stack, &mut notes);
        // NUKAGE1..3 flats exist in the test WAD; no other cycle does.
        assert_eq!(anims.len(), 1);
        assert_eq!(anims[0].basepic, stack.flats().number("NUKAGE1").unwrap());
        assert_eq!(anims[0].numpics, 3);
    }

    #[test]
    fn animator_remaps_and_scrolls() {
        let level = testwad::two_room_level();
        let lights = LightSim::new(&level.map);
        let anim = ActiveAnim { is_texture: true, basepic: 1, numpics: 2, speed: 8 };
        let cycles = vec![SceneCycle { anim, members: vec![3, 0] }];
        let mut a = DoomAnimator::new(cycles, lights, 4, 2);
        let init = a.initial();
        assert_eq!(init.texture_remap, vec![0, 1, 2, 3]);
        assert_eq!(init.scroll, vec![[0.0, 0.0], [0.0, 0.0]]);
        assert_eq!(init.light.len(), 2);
        let mut s = FrameState::default();
        a.state_at(1, &mut s);
        // Number 1 (scene 3) shows 1 + (0 + 1) % 2 = 2 (scene 0) and vice versa.
        assert_eq!(s.texture_remap, vec![3, 1, 2, 0]);
        assert_eq!(s.scroll[1], [1.0, 0.0]);
        a.state_at(9, &mut s);
        assert_eq!(s.texture_remap, vec![0, 1, 2, 3]);
        assert_eq!(s.scroll[1], [9.0, 0.0]);
    }
}
