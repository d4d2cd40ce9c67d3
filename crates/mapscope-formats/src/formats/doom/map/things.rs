//! Thing types (vanilla `info.c` mobjinfo, by editor number) and the spawn rules of
//! `P_SpawnMapThing`: what a map thing shows at level start.
//!
//! Each entry gives the sprite and frame of the type's spawn state, whether that frame is
//! full-bright (`FF_FULLBRIGHT`), the states it cycles through, whether the type hangs from the ceiling (`MF_SPAWNCEILING`,
//! placed at `ceiling - height`), and whether it draws at all.

use crate::formats::doom::specials::lights::PRandom;

/// What a thing type looks like when spawned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThingType {
    pub doomednum: u16,
    /// Sprite name of the spawn state (4 letters).
    pub sprite: &'static str,
    /// Frame letter of the spawn state.
    pub frame: u8,
    pub fullbright: bool,
    /// `MF_SPAWNCEILING`: spawned with its top at the ceiling.
    pub hangs: bool,
    /// mobjinfo height in map units (used for ceiling placement).
    pub height: i16,
    /// False for types that never draw: `MF_NOSECTOR` markers, `S_NULL` spawn states, and the
    /// dead lost soul (its spawn state vanishes after 6 tics).
    pub visible: bool,
    /// `MF_SHADOW`: vanilla draws it with the fuzz effect.
    pub shadow: bool,
    /// The spawn state's tics (-1: it stays): `P_SpawnMapThing` draws `P_Random` to start a
    /// thing with positive tics at a random point of its first state.
    pub spawn_tics: i16,
    /// The spawn state and the states after it, looping back to the first (empty for a type
    /// that keeps its spawn frame, as one with tics -1 does). Monsters are left at their spawn
    /// frame: their standing states call `A_Look`, and a monster that sees the player wakes
    /// and draws `P_Random` every tic it chases, which a level at rest does not simulate.
    pub cycle: &'static [StateFrame],
    pub name: &'static str,
}

/// One state of a thing's cycle (info.c `state_t`): its frame letter, `FF_FULLBRIGHT`, and
/// how many tics it lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateFrame {
    pub frame: u8,
    pub bright: bool,
    pub tics: i16,
}

const fn st(frame: u8, bright: bool, tics: i16) -> StateFrame {
    StateFrame { frame, bright, tics }
}

const fn t(doomednum: u16, sprite: &'static str, frame: u8, name: &'static str) -> ThingType {
    ThingType {
        doomednum,
        sprite,
        frame,
        fullbright: false,
        hangs: false,
        height: 16,
        visible: true,
        shadow: false,
        spawn_tics: -1,
        cycle: &[],
        name,
    }
}

/// A type whose spawn state starts a cycle of states (decorations and items that animate).
const fn anim(mut x: ThingType, cycle: &'static [StateFrame]) -> ThingType {
    x.cycle = cycle;
    x.spawn_tics = cycle[0].tics;
    x
}

/// A type whose spawn state has positive tics but whose later states are not simulated
/// (monsters' `A_Look` stands, the dead lost soul, the boss spawner's eye).
const fn ticking(mut x: ThingType, tics: i16) -> ThingType {
    x.spawn_tics = tics;
    x
}

const fn bright(mut x: ThingType) -> ThingType {
    x.fullbright = true;
    x
}

const fn tall(mut x: ThingType, height: i16) -> ThingType {
    x.height = height;
    x
}

const fn hang(mut x: ThingType, height: i16) -> ThingType {
    x.hangs = true;
    x.height = height;
    x
}

const fn hidden(mut x: ThingType) -> ThingType {
    x.visible = false;
    x
}

const fn shadow(mut x: ThingType) -> ThingType {
    x.shadow = true;
    x
}

// The cycles of info.c's states (frame letter, full-bright, tics), from each type's spawn
// state; all loop back to their first state.
const ARM1: &[StateFrame] = &[st(b'A', false, 6), st(b'B', true, 7)];
const ARM2: &[StateFrame] = &[st(b'A', false, 6), st(b'B', true, 6)];
const BAR1: &[StateFrame] = &[st(b'A', false, 6), st(b'B', false, 6)];
const FCAN: &[StateFrame] = &[st(b'A', true, 4), st(b'B', true, 4), st(b'C', true, 4)];
const BONUS: &[StateFrame] = &[
    st(b'A', false, 6),
    st(b'B', false, 6),
    st(b'C', false, 6),
    st(b'D', false, 6),
    st(b'C', false, 6),
    st(b'B', false, 6),
];
const KEY: &[StateFrame] = &[st(b'A', false, 10), st(b'B', true, 10)];
const BRIGHT_ABCDCB: &[StateFrame] = &[
    st(b'A', true, 6),
    st(b'B', true, 6),
    st(b'C', true, 6),
    st(b'D', true, 6),
    st(b'C', true, 6),
    st(b'B', true, 6),
];
const BRIGHT_ABCD6: &[StateFrame] =
    &[st(b'A', true, 6), st(b'B', true, 6), st(b'C', true, 6), st(b'D', true, 6)];
const PVIS: &[StateFrame] = &[st(b'A', true, 6), st(b'B', false, 6)];
const GOR1: &[StateFrame] =
    &[st(b'A', false, 10), st(b'B', false, 15), st(b'C', false, 8), st(b'B', false, 6)];
const POL3: &[StateFrame] = &[st(b'A', true, 6), st(b'B', true, 6)];
const POL6: &[StateFrame] = &[st(b'A', false, 6), st(b'B', false, 8)];
const CEYE: &[StateFrame] =
    &[st(b'A', true, 6), st(b'B', true, 6), st(b'C', true, 6), st(b'B', true, 6)];
const FSKU: &[StateFrame] = &[st(b'A', true, 6), st(b'B', true, 6), st(b'C', true, 6)];
const COL5: &[StateFrame] = &[st(b'A', false, 14), st(b'B', false, 14)];
/// Torches and techno lamps.
const BRIGHT_ABCD4: &[StateFrame] =
    &[st(b'A', true, 4), st(b'B', true, 4), st(b'C', true, 4), st(b'D', true, 4)];

/// Every Doom 1 and Doom 2 editor number, sorted.
pub static THING_TYPES: &[ThingType] = &[
    anim(t(5, "BKEY", b'A', "blue keycard"), KEY),
    anim(t(6, "YKEY", b'A', "yellow keycard"), KEY),
    ticking(tall(t(7, "SPID", b'A', "spider mastermind"), 100), 10),
    t(8, "BPAK", b'A', "backpack"),
    ticking(tall(t(9, "SPOS", b'A', "shotgun guy"), 56), 10),
    t(10, "PLAY", b'W', "bloody mess"),
    t(12, "PLAY", b'W', "bloody mess"),
    anim(t(13, "RKEY", b'A', "red keycard"), KEY),
    hidden(t(14, "TFOG", b'A', "teleport destination")),
    t(15, "PLAY", b'N', "dead player"),
    ticking(tall(t(16, "CYBR", b'A', "cyberdemon"), 110), 10),
    t(17, "CELP", b'A', "cell pack"),
    t(18, "POSS", b'L', "dead former human"),
    t(19, "SPOS", b'L', "dead former sergeant"),
    t(20, "TROO", b'M', "dead imp"),
    t(21, "SARG", b'N', "dead demon"),
    t(22, "HEAD", b'L', "dead cacodemon"),
    ticking(hidden(t(23, "SKUL", b'K', "dead lost soul")), 6),
    t(24, "POL5", b'A', "pool of blood and flesh"),
    t(25, "POL1", b'A', "impaled human"),
    anim(t(26, "POL6", b'A', "twitching impaled human"), POL6),
    t(27, "POL4", b'A', "skull on a pole"),
    t(28, "POL2", b'A', "five skulls shish kebab"),
    anim(bright(t(29, "POL3", b'A', "pile of skulls and candles")), POL3),
    t(30, "COL1", b'A', "tall green pillar"),
    t(31, "COL2", b'A', "short green pillar"),
    t(32, "COL3", b'A', "tall red pillar"),
    t(33, "COL4", b'A', "short red pillar"),
    bright(t(34, "CAND", b'A', "candle")),
    bright(t(35, "CBRA", b'A', "candelabra")),
    anim(t(36, "COL5", b'A', "short green pillar with beating heart"), COL5),
    t(37, "COL6", b'A', "short red pillar with skull"),
    anim(t(38, "RSKU", b'A', "red skull key"), KEY),
    anim(t(39, "YSKU", b'A', "yellow skull key"), KEY),
    anim(t(40, "BSKU", b'A', "blue skull key"), KEY),
    anim(bright(t(41, "CEYE", b'A', "evil eye")), CEYE),
    anim(bright(t(42, "FSKU", b'A', "floating skull")), FSKU),
    t(43, "TRE1", b'A', "burnt tree"),
    anim(bright(t(44, "TBLU", b'A', "tall blue firestick")), BRIGHT_ABCD4),
    anim(bright(t(45, "TGRN", b'A', "tall green firestick")), BRIGHT_ABCD4),
    anim(bright(t(46, "TRED", b'A', "tall red firestick")), BRIGHT_ABCD4),
    t(47, "SMIT", b'A', "brown stump"),
    t(48, "ELEC", b'A', "tall techno column"),
    anim(hang(t(49, "GOR1", b'A', "hanging victim, twitching"), 68), GOR1),
    hang(t(50, "GOR2", b'A', "hanging victim, arms out"), 84),
    hang(t(51, "GOR3", b'A', "hanging victim, one-legged"), 84),
    hang(t(52, "GOR4", b'A', "hanging pair of legs"), 68),
    hang(t(53, "GOR5", b'A', "hanging leg"), 52),
    t(54, "TRE2", b'A', "large brown tree"),
    anim(bright(t(55, "SMBT", b'A', "short blue firestick")), BRIGHT_ABCD4),
    anim(bright(t(56, "SMGT", b'A', "short green firestick")), BRIGHT_ABCD4),
    anim(bright(t(57, "SMRT", b'A', "short red firestick")), BRIGHT_ABCD4),
    ticking(shadow(tall(t(58, "SARG", b'A', "spectre"), 56)), 10),
    hang(t(59, "GOR2", b'A', "hanging victim, arms out (non-blocking)"), 84),
    hang(t(60, "GOR4", b'A', "hanging pair of legs (non-blocking)"), 68),
    hang(t(61, "GOR3", b'A', "hanging victim, one-legged (non-blocking)"), 52),
    hang(t(62, "GOR5", b'A', "hanging leg (non-blocking)"), 52),
    anim(hang(t(63, "GOR1", b'A', "hanging victim, twitching (non-blocking)"), 68), GOR1),
    ticking(tall(t(64, "VILE", b'A', "arch-vile"), 56), 10),
    ticking(tall(t(65, "CPOS", b'A', "heavy weapon dude"), 56), 10),
    ticking(tall(t(66, "SKEL", b'A', "revenant"), 56), 10),
    ticking(tall(t(67, "FATT", b'A', "mancubus"), 64), 15),
    ticking(tall(t(68, "BSPI", b'A', "arachnotron"), 64), 10),
    ticking(tall(t(69, "BOS2", b'A', "hell knight"), 64), 10),
    anim(bright(t(70, "FCAN", b'A', "burning barrel")), FCAN),
    ticking(tall(t(71, "PAIN", b'A', "pain elemental"), 56), 10),
    hang(t(72, "KEEN", b'A', "commander keen"), 72),
    hang(t(73, "HDB1", b'A', "hanging victim, guts removed"), 88),
    hang(t(74, "HDB2", b'A', "hanging victim, guts and brain removed"), 88),
    hang(t(75, "HDB3", b'A', "hanging torso, looking down"), 64),
    hang(t(76, "HDB4", b'A', "hanging torso, open skull"), 64),
    hang(t(77, "HDB5", b'A', "hanging torso, looking up"), 64),
    hang(t(78, "HDB6", b'A', "hanging torso, brain removed"), 64),
    t(79, "POB1", b'A', "pool of blood"),
    t(80, "POB2", b'A', "small pool of blood"),
    t(81, "BRS1", b'A', "pool of brains"),
    t(82, "SGN2", b'A', "super shotgun"),
    anim(bright(t(83, "MEGA", b'A', "megasphere")), BRIGHT_ABCD6),
    ticking(tall(t(84, "SSWV", b'A', "wolfenstein ss"), 56), 10),
    anim(bright(t(85, "TLMP", b'A', "tall techno floor lamp")), BRIGHT_ABCD4),
    anim(bright(t(86, "TLP2", b'A', "short techno floor lamp")), BRIGHT_ABCD4),
    hidden(tall(t(87, "SSWV", b'A', "monster spawn spot"), 32)),
    t(88, "BBRN", b'A', "boss brain"),
    ticking(hidden(tall(t(89, "SSWV", b'A', "monster spawner"), 32)), 10),
    t(2001, "SHOT", b'A', "shotgun"),
    t(2002, "MGUN", b'A', "chaingun"),
    t(2003, "LAUN", b'A', "rocket launcher"),
    t(2004, "PLAS", b'A', "plasma gun"),
    t(2005, "CSAW", b'A', "chainsaw"),
    t(2006, "BFUG", b'A', "bfg9000"),
    t(2007, "CLIP", b'A', "ammo clip"),
    t(2008, "SHEL", b'A', "4 shotgun shells"),
    t(2010, "ROCK", b'A', "rocket"),
    t(2011, "STIM", b'A', "stimpack"),
    t(2012, "MEDI", b'A', "medikit"),
    anim(bright(t(2013, "SOUL", b'A', "soulsphere")), BRIGHT_ABCDCB),
    anim(t(2014, "BON1", b'A', "health bonus"), BONUS),
    anim(t(2015, "BON2", b'A', "armor bonus"), BONUS),
    anim(t(2018, "ARM1", b'A', "green armor"), ARM1),
    anim(t(2019, "ARM2", b'A', "blue armor"), ARM2),
    anim(bright(t(2022, "PINV", b'A', "invulnerability")), BRIGHT_ABCD6),
    bright(t(2023, "PSTR", b'A', "berserk")),
    anim(shadow(bright(t(2024, "PINS", b'A', "partial invisibility"))), BRIGHT_ABCD6),
    bright(t(2025, "SUIT", b'A', "radiation suit")),
    anim(bright(t(2026, "PMAP", b'A', "computer area map")), BRIGHT_ABCDCB),
    bright(t(2028, "COLU", b'A', "floor lamp")),
    anim(tall(t(2035, "BAR1", b'A', "exploding barrel"), 42), BAR1),
    anim(bright(t(2045, "PVIS", b'A', "light amplification visor")), PVIS),
    t(2046, "BROK", b'A', "box of rockets"),
    t(2047, "CELL", b'A', "energy cell"),
    t(2048, "AMMO", b'A', "box of ammo"),
    t(2049, "SBOX", b'A', "box of shells"),
    ticking(tall(t(3001, "TROO", b'A', "imp"), 56), 10),
    ticking(tall(t(3002, "SARG", b'A', "demon"), 56), 10),
    ticking(tall(t(3003, "BOSS", b'A', "baron of hell"), 64), 10),
    ticking(tall(t(3004, "POSS", b'A', "former human"), 56), 10),
    ticking(tall(t(3005, "HEAD", b'A', "cacodemon"), 56), 10),
    ticking(bright(tall(t(3006, "SKUL", b'A', "lost soul"), 56)), 10),
];

/// The mobjinfo entry for an editor number.
pub fn thing_type(doomednum: u16) -> Option<&'static ThingType> {
    THING_TYPES.binary_search_by_key(&doomednum, |t| t.doomednum).ok().map(|i| &THING_TYPES[i])
}

/// Whether `-nomonsters` keeps the type from spawning: `P_SpawnMapThing` skips `MT_SKULL` and
/// every type with `MF_COUNTKILL` (the monsters; not the boss brain, nor the dead ones).
pub fn removed_by_nomonsters(doomednum: u16) -> bool {
    const MONSTERS: [u16; 19] =
        [7, 9, 16, 58, 64, 65, 66, 67, 68, 69, 71, 72, 84, 3001, 3002, 3003, 3004, 3005, 3006];
    MONSTERS.contains(&doomednum)
}

/// `P_SpawnPlayer` for the player 1 start of a single-player game: its `P_SpawnMobj` draws
/// `P_Random` once (`lastlook`); the player's state never ticks. Starts 2..4 draw nothing (those
/// players are not in the game), nor do deathmatch starts.
pub fn spawn_player(start: u8, random: &mut PRandom) {
    if start == 1 {
        random.p_random();
    }
}

/// `P_SpawnMapThing` for a thing that spawns, its spawn state lasting `spawn_tics`:
/// `P_SpawnMobj` draws `P_Random` for `lastlook`, then a spawn state with positive tics is
/// cut to `1 + P_Random() % tics` so that things of a type do not animate in step. Returns
/// the tics the first state lasts (-1: for ever). Things `-nomonsters` or the flags keep
/// out return before either draw.
pub fn spawn_thing(spawn_tics: i32, random: &mut PRandom) -> i32 {
    random.p_random();
    if spawn_tics > 0 {
        1 + random.p_random() % spawn_tics
    } else {
        spawn_tics
    }
}

/// The state of [`ThingType::cycle`] a thing shows after `tic` tics, its first state having
/// lasted `first_tics` ([`spawn_thing`]): `P_MobjThinker` counts a state's tics down once a
/// tic and moves to the next state when they reach 0. 0 for a type without a cycle.
pub fn cycle_state(cycle: &[StateFrame], first_tics: i32, tic: u32) -> usize {
    let period: i64 = cycle.iter().map(|s| s.tics.max(0) as i64).sum();
    if cycle.len() < 2 || first_tics <= 0 || cycle.iter().any(|s| s.tics <= 0) {
        return 0;
    }
    let tic = tic as i64;
    if tic < first_tics as i64 {
        return 0;
    }
    // From the second state on the cycle repeats every `period` tics.
    let mut left = (tic - first_tics as i64) % period;
    let mut s = 1 % cycle.len();
    loop {
        let tics = cycle[s].tics as i64;
        if left < tics {
            return s;
        }
        left -= tics;
        s = (s + 1) % cycle.len();
    }
}

/// Thing flag bits (spec [4-2-2]).
pub mod thing_flags {
    pub const EASY: u16 = 0x0001;
    pub const MEDIUM: u16 = 0x0002;
    pub const HARD: u16 = 0x0004;
    pub const AMBUSH: u16 = 0x0008;
    pub const MULTIPLAYER: u16 = 0x0010;
}

/// The default skill: 3, "Hurt Me Plenty".
pub const DEFAULT_SKILL: u8 = 3;

/// The thing-flag bit that must be set for a thing to appear at `skill` (1..5), as
/// `P_SpawnMapThing`: skills 1 and 2 use bit 0, 3 uses bit 1, 4 and 5 use bit 2.
pub fn skill_bit(skill: u8) -> u16 {
    match skill {
        0..=2 => thing_flags::EASY,
        3 => thing_flags::MEDIUM,
        _ => thing_flags::HARD,
    }
}

/// What a map thing becomes at level start in a single-player game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spawn {
    /// Player start 1..4 (recorded whatever its skill bits, as vanilla).
    PlayerStart(u8),
    DeathmatchStart,
    /// Spawns, if its type is known (vanilla's [`thing_type`], or a mod's actor): possibly
    /// as an invisible marker (see [`ThingType::visible`]).
    Thing,
    /// Flags exclude it (multiplayer only, or not on this skill).
    Skipped,
    /// Type 0, which vanilla silently ignores.
    Ignored,
}

/// `P_SpawnMapThing`'s decisions, in its order, for a single-player game at `skill`.
pub fn spawn_decision(kind: u16, flags: u16, skill: u8) -> Spawn {
    match kind {
        0 => return Spawn::Ignored,
        11 => return Spawn::DeathmatchStart,
        1..=4 => return Spawn::PlayerStart(kind as u8),
        _ => {}
    }
    if flags & thing_flags::MULTIPLAYER != 0 || flags & skill_bit(skill) == 0 {
        return Spawn::Skipped;
    }
    Spawn::Thing
}

/// Vanilla snaps a thing's angle down to a multiple of 45 degrees (`ANG45 * (angle / 45)`,
/// C division truncating towards zero), then wraps it into 0..360.
pub fn spawn_angle_degrees(angle: i16) -> f64 {
    (((angle as i32 / 45) * 45).rem_euclid(360)) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_unique() {
        for w in THING_TYPES.windows(2) {
            assert!(w[0].doomednum < w[1].doomednum, "{} {}", w[0].doomednum, w[1].doomednum);
        }
        assert_eq!(thing_type(3001).unwrap().sprite, "TROO");
        assert!(thing_type(73).unwrap().hangs);
        assert!(!thing_type(14).unwrap().visible);
        assert!(thing_type(9999).is_none());
    }

    #[test]
    fn skill_and_multiplayer_filtering() {
        assert_eq!(spawn_decision(1, 0, 3), Spawn::PlayerStart(1));
        assert_eq!(spawn_decision(11, 7, 3), Spawn::DeathmatchStart);
        assert_eq!(spawn_decision(3001, 0x02, 3), Spawn::Thing);
        assert_eq!(spawn_decision(3001, 0x05, 3), Spawn::Skipped);
        assert_eq!(spawn_decision(3001, 0x17, 3), Spawn::Skipped);
        assert_eq!(spawn_decision(3001, 0x04, 5), Spawn::Thing);
        assert_eq!(spawn_decision(3001, 0x01, 2), Spawn::Thing);
        assert_eq!(spawn_decision(4321, 7, 3), Spawn::Thing);
        assert_eq!(spawn_decision(0, 7, 3), Spawn::Ignored);
    }

    #[test]
    fn angles_snap_down_to_45() {
        assert_eq!(spawn_angle_degrees(80), 45.0);
        assert_eq!(spawn_angle_degrees(90), 90.0);
        assert_eq!(spawn_angle_degrees(-90), 270.0);
        assert_eq!(spawn_angle_degrees(359), 315.0);
    }

    #[test]
    fn spawn_draws_lastlook_then_the_start_tics() {
        // rndtable[1..] = 8, 109, 220, 222, 241, ...
        let mut r = PRandom::default();
        // Player 1: lastlook only (index 1).
        spawn_player(1, &mut r);
        spawn_player(2, &mut r);
        assert_eq!(r.index, 1);
        // A stimpack (tics -1): lastlook only (index 2).
        assert_eq!(spawn_thing(thing_type(2011).unwrap().spawn_tics as i32, &mut r), -1);
        assert_eq!(r.index, 2);
        // A red torch (4 tics): lastlook (220), then 1 + 222 % 4 = 3.
        assert_eq!(spawn_thing(thing_type(46).unwrap().spawn_tics as i32, &mut r), 3);
        assert_eq!(r.index, 4);
        // A barrel (6 tics): lastlook (241), then 1 + 149 % 6 = 6.
        assert_eq!(spawn_thing(thing_type(2035).unwrap().spawn_tics as i32, &mut r), 6);
        assert_eq!(r.index, 6);
        // A candle stays lit for ever: one draw; the dead lost soul's 6 tics draw too.
        assert_eq!(spawn_thing(thing_type(34).unwrap().spawn_tics as i32, &mut r), -1);
        assert_eq!(r.index, 7);
        spawn_thing(thing_type(23).unwrap().spawn_tics as i32, &mut r);
        assert_eq!(r.index, 9);
        // Monsters' standing states tick (10 tics; the mancubus 15).
        assert_eq!(thing_type(3001).unwrap().spawn_tics, 10);
        assert_eq!(thing_type(67).unwrap().spawn_tics, 15);
        assert_eq!(thing_type(72).unwrap().spawn_tics, -1);
    }

    #[test]
    fn cycles_follow_the_state_tics() {
        let torch = thing_type(46).unwrap().cycle;
        // First state for 3 tics, then B, C, D, A 4 tics each.
        let states: Vec<usize> = (0..12).map(|t| cycle_state(torch, 3, t)).collect();
        assert_eq!(states, [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3]);
        assert_eq!(cycle_state(torch, 3, 3 + 12), 0);
        assert_eq!(cycle_state(torch, 3, 3 + 16), 1);
        // Green armour: A 6 (here cut to 2), B 7, A 6, ...
        let arm = thing_type(2018).unwrap().cycle;
        assert_eq!(cycle_state(arm, 2, 8), 1);
        assert_eq!(cycle_state(arm, 2, 9), 0);
        assert_eq!(cycle_state(arm, 2, 15), 1);
        // A type without a cycle, or a stopped one, stays at its spawn frame.
        assert_eq!(cycle_state(&[], -1, 100), 0);
        assert_eq!(cycle_state(torch, -1, 100), 0);
        // Every cycle's first state is the spawn frame the table gives.
        for t in THING_TYPES.iter().filter(|t| !t.cycle.is_empty()) {
            assert_eq!(
                (t.cycle[0].frame, t.cycle[0].bright),
                (t.frame, t.fullbright),
                "{}",
                t.name
            );
            assert_eq!(t.spawn_tics, t.cycle[0].tics);
        }
    }
}
