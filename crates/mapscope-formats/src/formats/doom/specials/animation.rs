//! Animated textures and flats (vanilla `p_spec.c` animdefs), scrolling walls (linedef 48),
//! and the [`Animator`] that combines them with the light specials of [`super::lights`].
//!
//! At tic N (after `P_UpdateSpecials` last ran with leveltime N-1), texture or flat number `i`
//! of a cycle shows `basepic + (((N-1)/speed + i) % numpics)`; `i` is the absolute number
//! (TEXTURE1/2 order, or flat position), not the position within the cycle. Tic 0 shows
//! every texture as itself.
//!
//! A Boom `ANIMATED` lump (the last one in the stack) replaces vanilla's table, as in Boom and
//! its descendants: 23-byte records of type (bit 0: texture, else flat; 255 ends the list),
//! last and first names (9 bytes each, NUL-padded) and speed in tics (little-endian u32).

use std::borrow::Cow;

use crate::formats::error::Result;
use crate::scene::{Animator, FrameState};

use super::animdefs::{animdefs, Frames, Pic};
use super::boom::Velocity;
use super::lights::LightSim;
use crate::formats::doom::actors::look_state_at;
use crate::formats::doom::archive::wad::{Lump, WadStack};
use crate::formats::doom::graphics::textures::TextureDirectory;
use crate::formats::doom::map::udmf_props::LightRule;

/// One vanilla animation definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimDef {
    pub is_texture: bool,
    pub first: Cow<'static, str>,
    pub last: Cow<'static, str>,
    pub speed: u32,
}

const fn flat(first: &'static str, last: &'static str) -> AnimDef {
    AnimDef { is_texture: false, first: Cow::Borrowed(first), last: Cow::Borrowed(last), speed: 8 }
}

const fn wall(first: &'static str, last: &'static str) -> AnimDef {
    AnimDef { is_texture: true, first: Cow::Borrowed(first), last: Cow::Borrowed(last), speed: 8 }
}

/// Size of one `ANIMATED` record.
const ANIMATED_RECORD: usize = 23;

/// The definitions of an `ANIMATED` lump, in its order. A speed of 0 (Boom would divide by
/// it) is read as 1 with a note.
pub fn animated_lump(lump: &Lump<'_>, notes: &mut Vec<String>) -> Result<Vec<AnimDef>> {
    let mut r = lump.reader("ANIMATED record");
    let mut defs = Vec::new();
    // The list ends at type 255; a lump cut short at a record boundary ends there too.
    while r.remaining() > 0 {
        let at = r.pos();
        let kind = r.u8()?;
        if kind == 0xFF {
            break;
        }
        if r.remaining() < ANIMATED_RECORD - 1 {
            return Err(r.error_at(at, "record cut short"));
        }
        let name = |bytes: &[u8]| -> String {
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len()).min(8);
            bytes[..end].iter().map(|&b| (b as char).to_ascii_uppercase()).collect()
        };
        let last = name(r.bytes(9)?);
        let first = name(r.bytes(9)?);
        let mut speed = r.u32_le()?;
        if speed == 0 {
            notes.push(format!("ANIMATED: {first}..{last} has speed 0; animated at 1 tic"));
            speed = 1;
        }
        defs.push(AnimDef {
            is_texture: kind & 1 != 0,
            first: Cow::Owned(first),
            last: Cow::Owned(last),
            speed,
        });
    }
    Ok(defs)
}

/// The animation definitions of a stack: its last `ANIMATED` lump's, or vanilla's table. A
/// lump that cannot be read is named in a note and vanilla's table is used.
fn anim_defs(stack: &WadStack, notes: &mut Vec<String>) -> Cow<'static, [AnimDef]> {
    let Some(lump) = stack.lump("ANIMATED") else { return Cow::Borrowed(&ANIMDEFS) };
    match animated_lump(&lump, notes) {
        Ok(defs) => {
            notes.push(format!(
                "ANIMATED ({}): {} animations replace the built-in ones",
                lump.file,
                defs.len()
            ));
            Cow::Owned(defs)
        }
        Err(e) => {
            notes.push(format!("{e}; the built-in animations are used"));
            Cow::Borrowed(&ANIMDEFS)
        }
    }
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
    /// Its last picture comes before its first: GZDoom runs it from the higher number down
    /// (vanilla stops with "bad cycle").
    pub backward: bool,
    /// GZDoom's own cycles (`ANIMDEFS`): each member starts from itself, where vanilla's
    /// formula counts from its absolute number.
    pub own_frame: bool,
}

impl ActiveAnim {
    /// The picture number that number `i` (in the cycle) shows at `tic`.
    pub fn pic_at(&self, i: usize, tic: u32) -> usize {
        if tic == 0 {
            return i;
        }
        let step = ((tic - 1) / self.speed) as usize;
        if self.backward {
            // GZDoom: the cycle's frame counts down from 0 (wrapping to the last), and member
            // k (from basepic) shows basepic + (k + frame) % numpics.
            let back = self.numpics - step % self.numpics;
            let k = i.saturating_sub(self.basepic);
            return self.basepic + (k + back) % self.numpics;
        }
        if self.own_frame {
            return self.basepic + (i.saturating_sub(self.basepic) + step) % self.numpics;
        }
        self.basepic + (step + i) % self.numpics
    }

    pub fn contains(&self, i: usize) -> bool {
        (self.basepic..self.basepic + self.numpics).contains(&i)
    }
}

/// `P_InitPicAnims`: the cycles whose first and last pictures exist. A cycle whose last
/// picture comes before its first (vanilla: "bad cycle" error) runs backwards, as in GZDoom;
/// one of a single picture is skipped with a note (GZDoom's rule too).
pub fn active_anims(
    textures: &TextureDirectory,
    stack: &WadStack,
    notes: &mut Vec<String>,
) -> Vec<ActiveAnim> {
    let mut out = Vec::new();
    let mut reversed = Vec::new();
    for def in anim_defs(stack, notes).iter() {
        let lookup = |name: &str| {
            if def.is_texture {
                textures.number(name)
            } else {
                stack.flats().number(name)
            }
        };
        let (Some(first), Some(last)) = (lookup(&def.first), lookup(&def.last)) else {
            continue;
        };
        if last == first {
            notes.push(format!(
                "animation {}..{} has one picture; not animated",
                def.first, def.last
            ));
            continue;
        }
        let backward = last < first;
        if backward {
            reversed.push(format!("{}..{}", def.first, def.last));
        }
        let (low, high) = (first.min(last), first.max(last));
        out.push(ActiveAnim {
            is_texture: def.is_texture,
            basepic: low,
            numpics: high - low + 1,
            speed: def.speed,
            backward,
            own_frame: false,
        });
    }
    if !reversed.is_empty() {
        notes.push(format!(
            "animations whose last picture comes before their first run backwards, as in \
             GZDoom (vanilla stops with \"bad cycle\"): {}",
            reversed.join(", ")
        ));
    }
    add_animdefs(&mut out, textures, stack, notes);
    out
}

/// Adds the cycles of the stack's `ANIMDEFS` lumps (see `animdefs`), each replacing the
/// earlier cycle of its first picture.
fn add_animdefs(
    out: &mut Vec<ActiveAnim>,
    textures: &TextureDirectory,
    stack: &WadStack,
    notes: &mut Vec<String>,
) {
    let entries = animdefs(stack, notes);
    let (mut added, mut irregular, mut oscillating) = (0, 0, 0);
    for e in &entries {
        let lookup = |name: &str| {
            if e.is_texture {
                textures.number(name)
            } else {
                stack.flats().number(name)
            }
        };
        let Some(first) = lookup(&e.name) else { continue };
        let (last, speed) = match &e.frames {
            Frames::Range { last, tics } => (lookup(last), *tics),
            Frames::Pics(pics) => {
                // Frames from the picture on, one after the other, with equal tics: a cycle.
                let tics = pics.first().map_or(1, |p| p.1);
                let number = |p: &Pic| match p {
                    Pic::Number(n) => (*n as usize).checked_sub(1).map(|k| first + k),
                    Pic::Name(name) => lookup(name),
                };
                let in_order = pics
                    .iter()
                    .enumerate()
                    .all(|(k, (p, t))| number(p) == Some(first + k) && *t == tics);
                if !in_order || pics.is_empty() {
                    irregular += 1;
                    continue;
                }
                (Some(first + pics.len() - 1), tics)
            }
        };
        let Some(last) = last.filter(|&l| l != first) else { continue };
        let (low, high) = (first.min(last), first.max(last));
        out.retain(|a| !(a.is_texture == e.is_texture && a.contains(first)));
        out.push(ActiveAnim {
            is_texture: e.is_texture,
            basepic: low,
            numpics: high - low + 1,
            speed: speed.max(1),
            backward: last < first,
            own_frame: true,
        });
        added += 1;
        oscillating += usize::from(e.oscillate);
    }
    if added > 0 {
        notes.push(format!(
            "ANIMDEFS: {added} animations (each replacing its pictures' earlier one)"
        ));
    }
    if irregular > 0 {
        notes.push(format!(
            "ANIMDEFS: {irregular} animations through frames that are not their pictures in \
             order with equal tics are not drawn"
        ));
    }
    if oscillating > 0 {
        notes.push(format!(
            "ANIMDEFS: {oscillating} oscillating animations are drawn running forward"
        ));
    }
}

/// A cycle in scene terms: the scene texture of each member, in picture-number order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneCycle {
    pub anim: ActiveAnim,
    pub members: Vec<u32>,
}

/// A light slot after the sectors' own: a floor, ceiling or wall of sector `sector` lit by its
/// own UDMF rule from sector `source`'s light as it changes (`source` is `sector` itself, or a
/// Boom light transfer's control sector).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DerivedLight {
    pub sector: u32,
    pub source: u32,
    pub rule: LightRule,
}

/// A thing whose frame changes (vanilla things index `thing`): the tics and frame word
/// ([`crate::scene::thing_frame_word`]) of each state of its type's look, the state the
/// last goes back to (`None`: it stays), and how long its first state lasted
/// ([`crate::formats::doom::map::things::spawn_thing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimatedThing {
    pub thing: u32,
    pub tics: Vec<i32>,
    pub loop_to: Option<usize>,
    pub words: Vec<u32>,
    pub first_tics: i32,
}

/// Doom's [`Animator`]: texture cycles, scrolling walls and flats, sector lights, and the
/// things' frames.
pub struct DoomAnimator {
    cycles: Vec<SceneCycle>,
    lights: LightSim,
    texture_count: usize,
    /// Scroll slots 1.. : (u, v) in 16.16 texels a tic (see [`super::boom`]).
    scrolls: Vec<Velocity>,
    /// Slots `sectors..` of the light values.
    derived: Vec<DerivedLight>,
    /// Every vanilla thing's spawn frame word, and the things whose frame changes.
    thing_frames: Vec<u32>,
    animated: Vec<AnimatedThing>,
}

/// Texels a scroll offset is wrapped to when it is not whole: a multiple of every
/// power-of-two texture size up to 1024 (flats are 64, wall rows wrap at 128), so what is
/// drawn does not change, while the f32 the shaders read keeps 1/16384 of a texel.
const SCROLL_WRAP: i64 = 1024;

/// The texel offset after `tic` tics of `v` (16.16 a tic), as the shaders read it.
pub fn scroll_at(v: Velocity, tic: u32) -> [f32; 2] {
    v.map(|c| {
        let total = c.saturating_mul(tic as i64);
        if c % 65536 == 0 {
            // Whole texels (vanilla's 48) stay unwrapped: exact in f32 up to 2^24.
            (total / 65536) as f32
        } else {
            (total.rem_euclid(SCROLL_WRAP << 16) as f64 / 65536.0) as f32
        }
    })
}

impl DoomAnimator {
    /// `scrolls` are the velocities of scroll slots 1.. (slot 0 never scrolls).
    pub fn new(
        cycles: Vec<SceneCycle>,
        lights: LightSim,
        texture_count: usize,
        scrolls: Vec<Velocity>,
    ) -> DoomAnimator {
        DoomAnimator {
            cycles,
            lights,
            texture_count,
            scrolls,
            derived: Vec::new(),
            thing_frames: Vec::new(),
            animated: Vec::new(),
        }
    }

    /// Sets the things' frames: `spawn` for every vanilla thing, `animated` for those that
    /// cycle through states.
    pub fn with_things(mut self, spawn: Vec<u32>, animated: Vec<AnimatedThing>) -> DoomAnimator {
        self.thing_frames = spawn;
        self.animated = animated;
        self
    }

    /// Adds light slots after the sectors' (see [`DerivedLight`]).
    pub fn with_derived_lights(mut self, derived: Vec<DerivedLight>) -> DoomAnimator {
        self.derived = derived;
        self
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
        // Each scroller thinker has run once a tic (tics 0..tic-1).
        out.scroll.extend(self.scrolls.iter().map(|&v| scroll_at(v, tic)));
        out.thing_frames.clone_from(&self.thing_frames);
        for a in &self.animated {
            let state = look_state_at(&a.tics, a.loop_to, a.first_tics, tic);
            if let (Some(slot), Some(&word)) =
                (out.thing_frames.get_mut(a.thing as usize), a.words.get(state))
            {
                *slot = word;
            }
        }
    }
}

/// The light slots' values: the sectors' levels as the map gives them, only negatives raised
/// to 0 (a shader shifts the unsigned value). Levels above 255 stay: vanilla keys visplanes and
/// R_AddLine's identical-sector test on the raw `lightlevel` (freedoom1 E2M3 has a sector lit
/// 256, a plane of its own beside the 255 ones), and every use of a level as light clamps
/// its colormap row anyway.
fn light_values(levels: &[i32], derived: &[DerivedLight], out: &mut Vec<u32>) {
    out.clear();
    out.extend(levels.iter().map(|&l| l.max(0) as u32));
    out.extend(derived.iter().map(|d| {
        let base = levels.get(d.source as usize).copied().unwrap_or(0);
        d.rule.apply(base) as u32
    }));
}

impl Animator for DoomAnimator {
    fn state_at(&mut self, tic: u32, out: &mut FrameState) {
        self.fill(tic, out);
        light_values(self.lights.levels_at(tic), &self.derived, &mut out.light);
    }

    fn initial(&self) -> FrameState {
        let mut out = FrameState::default();
        self.fill(0, &mut out);
        light_values(self.lights.initial_levels(), &self.derived, &mut out.light);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn light_levels_above_255_stay_raw_and_negatives_become_0() {
        let mut out = Vec::new();
        light_values(&[256, 255, -8, 300], &[], &mut out);
        assert_eq!(out, [256, 255, 0, 300]);
    }

    #[test]
    fn cycle_formula_uses_absolute_numbers() {
        let a = ActiveAnim {
            is_texture: false,
            basepic: 5,
            numpics: 3,
            speed: 8,
            backward: false,
            own_frame: false,
        };
        assert_eq!(a.pic_at(5, 0), 5);
        // Tic 1..8: step 0; number 5 shows basepic + (0 + 5) % 3 = 5 + 2 = 7.
        assert_eq!(a.pic_at(5, 1), 7);
        assert_eq!(a.pic_at(6, 8), 5);
        assert_eq!(a.pic_at(5, 9), 5);
        assert_eq!(a.pic_at(7, 9), 7);
    }

    #[test]
    fn backward_cycles_count_down_from_each_member() {
        // Pictures 5..=7 defined 7..5: at step 1 member 5 shows 7, 6 shows 5, 7 shows 6.
        let a = ActiveAnim {
            is_texture: true,
            basepic: 5,
            numpics: 3,
            speed: 8,
            backward: true,
            own_frame: false,
        };
        let shown = |tic| [5, 6, 7].map(|i| a.pic_at(i, tic));
        assert_eq!(shown(0), [5, 6, 7]);
        assert_eq!(shown(1), [5, 6, 7]);
        assert_eq!(shown(9), [7, 5, 6]);
        assert_eq!(shown(17), [6, 7, 5]);
        assert_eq!(shown(25), [5, 6, 7]);
    }

    #[test]
    fn animated_things_change_frame_word_by_tic() {
        let level = testwad::two_room_level();
        let torch = crate::formats::doom::map::things::thing_type(46).unwrap().cycle;
        let words: Vec<u32> =
            (0..4).map(|f| crate::scene::thing_frame_word(10 + f, true)).collect();
        let animated = vec![AnimatedThing {
            thing: 1,
            tics: torch.iter().map(|s| s.tics as i32).collect(),
            loop_to: Some(0),
            words: words.clone(),
            first_tics: 2,
        }];
        let mut a = DoomAnimator::new(Vec::new(), LightSim::new(&level.map), 0, Vec::new())
            .with_things(vec![3, words[0]], animated);
        assert_eq!(a.initial().thing_frames, [3, words[0]]);
        let mut out = FrameState::default();
        // The first state lasts 2 tics, then B (frame 11) for 4.
        a.state_at(1, &mut out);
        assert_eq!(out.thing_frames, [3, words[0]]);
        a.state_at(2, &mut out);
        assert_eq!(out.thing_frames, [3, words[1]]);
        a.state_at(6, &mut out);
        assert_eq!(out.thing_frames[1], words[2]);
        assert_eq!(out.thing_frames[1] & 0x7FFF_FFFF, 12);
        assert_eq!(out.thing_frames[1] >> 31, 1);
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
    fn animdefs_add_cycles_and_replace_earlier_ones() {
        let iwad = testwad::writer_for(&testwad::two_room_level()).to_bytes();
        let mut pwad = crate::formats::doom::archive::writer::WadWriter::pwad();
        // FLOOR..CEIL as a range; NUKAGE1..3 again through its pictures, replacing vanilla's
        // cycle; NUKAGE2 with frames out of order (not drawn); SKY1 through STARTAN (backward).
        pwad.lump(
            "ANIMDEFS",
            b"flat FLOOR range CEIL tics 5\n\
              flat NUKAGE1 pic 1 tics 6 pic 2 tics 6 pic NUKAGE3 tics 6 oscillate\n\
              flat NUKAGE2 pic 2 tics 3 pic 1 tics 3\n\
              texture SKY1 range STARTAN tics 2\n"
                .to_vec(),
        );
        let wads = [("test.wad", iwad), ("zdoom.wad", pwad.to_bytes())].map(|(n, b)| {
            crate::formats::doom::archive::wad::Wad::from_bytes(n, b).expect("parses")
        });
        let stack = WadStack::new(wads.into());
        let tex = TextureDirectory::load(&stack).unwrap();
        let mut notes = Vec::new();
        let anims = active_anims(&tex, &stack, &mut notes);
        let flat = |name: &str| stack.flats().number(name).unwrap();
        let (floor, nukage) = (flat("FLOOR").min(flat("CEIL")), flat("NUKAGE1"));
        let cycle = |is_texture, basepic, numpics, speed, backward| ActiveAnim {
            is_texture,
            basepic,
            numpics,
            speed,
            backward,
            own_frame: true,
        };
        assert_eq!(
            anims,
            [
                cycle(false, floor, 2, 5, flat("CEIL") < flat("FLOOR")),
                cycle(false, nukage, 3, 6, false),
                cycle(true, 1, 2, 2, true),
            ]
        );
        // GZDoom's cycles start each member from itself.
        assert_eq!([1, 7, 13, 19].map(|tic| anims[1].pic_at(nukage + 1, tic)), {
            [nukage + 1, nukage + 2, nukage, nukage + 1]
        });
        assert!(notes.iter().any(|n| n.contains("ANIMDEFS: 3 animations")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("1 animations through frames")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("1 oscillating")), "{notes:?}");
    }

    fn animated_record(kind: u8, last: &str, first: &str, speed: u32) -> Vec<u8> {
        let mut r = vec![kind];
        for name in [last, first] {
            let mut n = [0u8; 9];
            n[..name.len()].copy_from_slice(name.as_bytes());
            r.extend(n);
        }
        r.extend(speed.to_le_bytes());
        r
    }

    /// The test IWAD with a PWAD holding `animated` as its ANIMATED lump.
    fn stack_with_animated(animated: Vec<u8>) -> WadStack {
        let iwad = testwad::writer_for(&testwad::two_room_level()).to_bytes();
        let mut pwad = crate::formats::doom::archive::writer::WadWriter::pwad();
        pwad.lump("ANIMATED", animated);
        let wads = [("test.wad", iwad), ("boom.wad", pwad.to_bytes())].map(|(n, b)| {
            crate::formats::doom::archive::wad::Wad::from_bytes(n, b).expect("parses")
        });
        WadStack::new(wads.into())
    }

    #[test]
    fn an_animated_lump_replaces_the_built_in_cycles() {
        let mut lump = animated_record(1, "SKY1", "startan", 4);
        lump.extend(animated_record(0, "CEIL", "FLOOR", 0));
        lump.extend(animated_record(0, "NOSUCH2", "NOSUCH1", 8));
        // CEIL..FLOOR: the last before the first, run backwards.
        lump.extend(animated_record(0, "FLOOR", "CEIL", 3));
        lump.extend(animated_record(1, "SKY1", "SKY1", 3));
        lump.push(0xFF);
        let stack = stack_with_animated(lump);
        let tex = TextureDirectory::load(&stack).unwrap();
        let mut notes = Vec::new();
        let anims = active_anims(&tex, &stack, &mut notes);
        // STARTAN..SKY1 (textures 1 and 2) every 4 tics; FLOOR..CEIL with speed 0 read as 1;
        // the missing names and vanilla's NUKAGE cycle are not animated.
        let floor = stack.flats().number("FLOOR").unwrap();
        assert_eq!(
            anims,
            [
                ActiveAnim {
                    is_texture: true,
                    basepic: 1,
                    numpics: 2,
                    speed: 4,
                    backward: false,
                    own_frame: false
                },
                ActiveAnim {
                    is_texture: false,
                    basepic: floor,
                    numpics: 2,
                    speed: 1,
                    backward: false,
                    own_frame: false,
                },
                ActiveAnim {
                    is_texture: false,
                    basepic: floor,
                    numpics: 2,
                    speed: 3,
                    backward: true,
                    own_frame: false,
                },
            ]
        );
        assert!(notes.iter().any(|n| n.contains("run backwards") && n.contains("CEIL..FLOOR")));
        assert!(notes.iter().any(|n| n.contains("SKY1..SKY1 has one picture")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("speed 0")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("boom.wad") && n.contains("5 animations")));
    }

    #[test]
    fn a_broken_animated_lump_is_named_and_vanilla_cycles_stay() {
        let mut lump = animated_record(1, "SKY1", "STARTAN", 4);
        lump.extend([0, b'C', b'E']);
        let stack = stack_with_animated(lump);
        let tex = TextureDirectory::load(&stack).unwrap();
        let mut notes = Vec::new();
        let anims = active_anims(&tex, &stack, &mut notes);
        assert_eq!(anims.len(), 1, "vanilla's NUKAGE cycle");
        assert_eq!(anims[0].basepic, stack.flats().number("NUKAGE1").unwrap());
        let note = notes.iter().find(|n| n.contains("cut short")).expect("a note on the lump");
        // The second record starts 23 bytes into the lump, which follows the 12-byte header.
        assert!(note.contains("boom.wad") && note.contains("offset 35"), "{note}");
    }

    /// A WAD with patch P (8x8), its PNAMES and a TEXTURE1 of `names`, each drawing P.
    fn wad_with_textures(file: &str, names: &[&str]) -> crate::formats::doom::archive::wad::Wad {
        use crate::formats::doom::archive::writer::{self, TextureSpec, WadWriter};
        let specs: Vec<TextureSpec> = names
            .iter()
            .map(|&name| TextureSpec { name, width: 8, height: 8, patches: &[(0, 0, 0)] })
            .collect();
        let mut w = WadWriter::pwad();
        w.lump("P", writer::patch_lump(8, 8, 0, 0, &[Some(1); 64]))
            .lump("PNAMES", writer::pnames_lump(&["P"]))
            .lump("TEXTURE1", writer::texture_lump(&specs));
        crate::formats::doom::archive::wad::Wad::from_bytes(file, w.to_bytes()).expect("parses")
    }

    #[test]
    fn texture_cycles_follow_the_names_of_the_merged_tables() {
        use crate::formats::doom::graphics::textures::TextureRules;
        let iwad = || {
            wad_with_textures("i.wad", &["AASHITTY", "BLODGR1", "BLODGR2", "BLODGR3", "BLODGR4"])
        };
        let cycle = |pwad_names: &[&str], rules| {
            let stack = WadStack::new(vec![iwad(), wad_with_textures("p.wad", pwad_names)]);
            let tex = TextureDirectory::load_with(&stack, rules).unwrap();
            let anims = active_anims(&tex, &stack, &mut Vec::new());
            anims.iter().find(|a| a.is_texture).map(|a| (a.basepic, a.numpics))
        };
        // New textures only: the IWAD's cycle keeps its numbers.
        assert_eq!(cycle(&["DUMMY", "NEW"], TextureRules::ZDoom), Some((1, 4)));
        // The PWAD's own copies win by name: the cycle runs over them (numbers 6..9).
        let repeated = ["DUMMY", "BLODGR1", "BLODGR2", "BLODGR3", "BLODGR4"];
        assert_eq!(cycle(&repeated, TextureRules::ZDoom), Some((6, 4)));
        // Vanilla: the PWAD's TEXTURE1 replaces the table; without BLODGR there is no cycle.
        assert_eq!(cycle(&["DUMMY", "NEW"], TextureRules::Vanilla), None);
        assert_eq!(cycle(&repeated, TextureRules::Vanilla), Some((1, 4)));
    }

    #[test]
    fn animator_remaps_and_scrolls() {
        let level = testwad::two_room_level();
        let lights = LightSim::new(&level.map);
        let anim = ActiveAnim {
            is_texture: true,
            basepic: 1,
            numpics: 2,
            speed: 8,
            backward: false,
            own_frame: false,
        };
        let cycles = vec![SceneCycle { anim, members: vec![3, 0] }];
        let mut a = DoomAnimator::new(cycles, lights, 4, vec![[65536, 0]]);
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

    #[test]
    fn fractional_scrolls_wrap_without_changing_the_texel() {
        // 1/32 texel a tic backwards: after 32 tics one texel back, wrapped into 0..1024.
        assert_eq!(scroll_at([-2048, 2048], 32), [1023.0, 1.0]);
        assert_eq!(scroll_at([65536, -65536], 5000), [5000.0, -5000.0]);
    }
}
