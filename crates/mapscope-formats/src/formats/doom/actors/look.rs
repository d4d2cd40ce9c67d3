//! What a thing looks like when spawned, owned: vanilla's types (`map::things`, `&'static`
//! tables) and a mod's classes (read from its scripts at each load) both become a
//! [`ThingLook`], which the things step draws.

use crate::formats::doom::map::things::{removed_by_nomonsters, ThingType};

/// One state a thing shows: its sprite and frame, `Bright`, and how long it lasts (-1: for
/// ever).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LookState {
    pub sprite: [u8; 4],
    pub frame: u8,
    pub bright: bool,
    pub tics: i32,
}

impl LookState {
    /// The sprite's name (its four letters, as written).
    pub fn sprite_name(&self) -> String {
        String::from_utf8_lossy(&self.sprite).into_owned()
    }
}

/// How a thing's sprite is laid over what is behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Blend {
    Opaque,
    /// Vanilla's `MF_SHADOW`, GZDoom's `Fuzzy` and `OptFuzzy`.
    Fuzz,
    /// `alpha` of the sprite over the rest (`Translucent`), or added to it (`Add`).
    Alpha {
        alpha: f32,
        additive: bool,
    },
}

/// A thing type's look at level start.
#[derive(Clone, Debug, PartialEq)]
pub struct ThingLook {
    pub doomednum: u16,
    /// Vanilla's description, or the mod's class name.
    pub name: String,
    /// The states it shows from its spawn state on, none lasting 0 tics; the first is the
    /// spawn frame. Empty when it shows nothing.
    pub states: Vec<LookState>,
    /// Where the states go on after the last: back to this one, or (`None`) the last stays.
    pub loop_to: Option<usize>,
    /// Whether the states are played (not for monsters standing watch, nor for durations
    /// that are not plain numbers).
    pub animates: bool,
    /// The spawn state's tics, which `P_SpawnMapThing` cuts at random (-1: for ever).
    pub spawn_tics: i32,
    /// Hangs from the ceiling (`MF_SPAWNCEILING`), placed at `ceiling - height`.
    pub hangs: bool,
    pub height: f64,
    /// Width and height scale of the sprite.
    pub scale: [f64; 2],
    pub blend: Blend,
    /// `-nomonsters` keeps it out.
    pub monster: bool,
    /// Defined by a mod's script (not vanilla's table).
    pub script: bool,
    /// Why what is drawn may not be what the game shows (a computed spawn state, a function
    /// that changes the look): each becomes a note for the things placed.
    pub unread: Vec<String>,
}

impl ThingLook {
    /// Whether it draws anything.
    pub fn visible(&self) -> bool {
        !self.states.is_empty()
    }

    /// The spawn state (the first shown); `None` for a thing that shows nothing.
    pub fn spawn_state(&self) -> Option<&LookState> {
        self.states.first()
    }

    /// Vanilla's look of type `t`.
    pub fn vanilla(t: &ThingType) -> ThingLook {
        let sprite = t.sprite.as_bytes();
        let sprite = [0, 1, 2, 3].map(|i| sprite.get(i).copied().unwrap_or(b'-'));
        let states: Vec<LookState> = if !t.visible {
            Vec::new()
        } else if t.cycle.is_empty() {
            let tics = t.spawn_tics as i32;
            vec![LookState { sprite, frame: t.frame, bright: t.fullbright, tics }]
        } else {
            t.cycle
                .iter()
                .map(|s| LookState {
                    sprite,
                    frame: s.frame,
                    bright: s.bright,
                    tics: s.tics as i32,
                })
                .collect()
        };
        ThingLook {
            doomednum: t.doomednum,
            name: t.name.to_string(),
            animates: states.len() > 1,
            loop_to: Some(0),
            states,
            spawn_tics: t.spawn_tics as i32,
            hangs: t.hangs,
            height: t.height as f64,
            scale: [1.0, 1.0],
            blend: if t.shadow { Blend::Fuzz } else { Blend::Opaque },
            monster: removed_by_nomonsters(t.doomednum),
            script: false,
            unread: Vec::new(),
        }
    }
}

/// The state of a look's states a thing shows after `tic` tics, its first state having
/// lasted `first_tics` (P_MobjThinker counts a state's tics down once a tic and moves on
/// when they reach 0): after the last state, back to `loop_to`, or the last stays; a state
/// of negative tics stays. 0 when the first state never ends.
pub fn look_state_at(tics: &[i32], loop_to: Option<usize>, first_tics: i32, tic: u32) -> usize {
    if tics.len() < 2 || first_tics <= 0 || (tic as i64) < first_tics as i64 {
        return 0;
    }
    let mut left = tic as i64 - first_tics as i64;
    // The states after the first, once.
    for (s, &t) in tics.iter().enumerate().skip(1) {
        if t < 0 || left < t as i64 {
            return s;
        }
        left -= t as i64;
    }
    let last = tics.len() - 1;
    let Some(start) = loop_to.filter(|&k| k < tics.len()) else { return last };
    // Then the loop, every `period` tics (a state of 0 or fewer tics is not in a loop: it
    // stays, and the loop above returned at it).
    let period: i64 = tics[start..].iter().map(|&t| t.max(1) as i64).sum();
    left %= period;
    for (s, &t) in tics.iter().enumerate().skip(start) {
        if left < t.max(1) as i64 {
            return s;
        }
        left -= t.max(1) as i64;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::things::{cycle_state, thing_type};

    #[test]
    fn vanilla_looks_keep_the_tables() {
        let torch = ThingLook::vanilla(thing_type(46).unwrap());
        assert_eq!(torch.states.len(), 4);
        assert_eq!(torch.states[0].sprite_name(), "TRED");
        assert!(torch.animates && torch.states[0].bright);
        let imp = ThingLook::vanilla(thing_type(3001).unwrap());
        assert_eq!((imp.states.len(), imp.spawn_tics, imp.monster), (1, 10, true));
        assert!(!imp.animates);
        let spectre = ThingLook::vanilla(thing_type(58).unwrap());
        assert_eq!(spectre.blend, Blend::Fuzz);
        assert!(!ThingLook::vanilla(thing_type(14).unwrap()).visible());
    }

    #[test]
    fn states_play_as_vanillas_cycles_do_and_stop_or_loop_elsewhere() {
        // Vanilla's cycles loop to the first state: the same as `cycle_state`.
        let torch = thing_type(46).unwrap().cycle;
        let tics: Vec<i32> = torch.iter().map(|s| s.tics as i32).collect();
        for tic in 0..40 {
            assert_eq!(look_state_at(&tics, Some(0), 3, tic), cycle_state(torch, 3, tic));
        }
        // A lead-in of 5 then a loop of 2 + 3 from the second state.
        let tics = [5, 2, 3];
        let at = |tic| look_state_at(&tics, Some(1), 5, tic);
        assert_eq!([at(4), at(5), at(6), at(7), at(9), at(10), at(12)], [0, 1, 1, 2, 2, 1, 2]);
        // Holding at the last state, or at a state of -1 tics.
        assert_eq!(look_state_at(&[4, 4], None, 4, 1000), 1);
        assert_eq!(look_state_at(&[4, -1, 4], Some(0), 4, 1000), 1);
        assert_eq!(look_state_at(&[-1, 4], Some(0), -1, 1000), 0);
    }
}
