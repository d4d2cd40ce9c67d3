//! The things step: each THINGS entry that spawns at level start, as vanilla's
//! `P_LoadThings` spawns it (skill, `-nomonsters`, `P_Random` drawn in the same order), made
//! a sprite with its frames' textures, a marker where it shows nothing, and an entry in
//! vanilla's thing memory for the CPU's frames. Separate from the walls and flats because it
//! has its own state (the sprite directory, the frames made so far, `P_Random`) that only the
//! light specials and the animator read afterwards.

use std::collections::BTreeSet;

use glam::DVec2;

use super::{fixed_units, viewer, BuildOptions, Builder};
use crate::formats::doom::graphics::sprite_memory::SpriteMemory;
use crate::formats::doom::graphics::sprites::{SpriteDirectory, SpriteFrame};
use crate::formats::doom::map::things::{
    removed_by_nomonsters, spawn_angle_degrees, spawn_decision, spawn_player, spawn_thing, Spawn,
};
use crate::formats::doom::map::udmf_props::LightRule;
use crate::formats::doom::map::MapData;
use crate::formats::doom::nodes::bsp::point_in_subsector;
use crate::formats::doom::specials::animation::AnimatedThing;
use crate::formats::doom::specials::lights::PRandom;
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::doom::vanilla::VThing;
use crate::scene::{thing_frame_word, Marker, Sprite, SpriteView};

/// What the things step made, for the steps after it and the scene.
pub(super) struct Things {
    pub(super) sprites: Vec<Sprite>,
    pub(super) markers: Vec<Marker>,
    pub(super) spawned: u64,
    /// `P_Random` as `P_LoadThings` leaves it (G_InitNew clears it to 0): the light specials
    /// draw from there.
    pub(super) random: PRandom,
    /// The frame word each spawned thing starts with, and the things whose frame changes
    /// with the frame word of each state of their cycle.
    pub(super) spawn_words: Vec<u32>,
    pub(super) animated: Vec<AnimatedThing>,
}

/// The things as vanilla's canvas holds them, apart from [`Things`] because the vanilla map
/// payload takes them whole while the scene still needs the rest.
pub(super) struct ThingFrames {
    pub(super) memory: SpriteMemory,
    /// Each of `memory`'s frames as the GPU draws it, by the frame's index there.
    pub(super) views: Vec<Vec<SpriteView>>,
}

impl Builder<'_> {
    /// Spawns the map's things at `opts`' skill: their sprites, markers and vanilla's thing
    /// memory, with notes for the frames and types not found.
    pub(super) fn things(&mut self, map: &MapData, opts: &BuildOptions) -> (Things, ThingFrames) {
        let stack = self.stack;
        let mut sprite_dir = SpriteDirectory::new(stack);
        sprite_dir.install_definitions(stack, self.texdir);
        self.notes.extend(sprite_dir.notes.iter().filter(|n| n.starts_with("TEXTURES")).cloned());
        let mut sprite_memory = SpriteMemory::default();
        // Each of sprite_memory's frames as the GPU draws it, by the frame's index there.
        let mut frame_views: Vec<Vec<SpriteView>> = Vec::new();
        let mut sprites = Vec::new();
        let mut markers = Vec::new();
        let mut spawned = 0u64;
        let mut missing_frames = BTreeSet::new();
        let mut unknown = BTreeSet::new();
        // P_Random as P_LoadThings leaves it (G_InitNew clears it to 0), and the things whose
        // frame changes, with the frame word of each state of their cycle.
        let mut random = PRandom::default();
        let mut spawn_words = Vec::new();
        let mut animated = Vec::new();
        for th in &map.things {
            let (x, y) = (fixed_units(th.x), fixed_units(th.y));
            let sector = map.subsector_sector(point_in_subsector(map, x, y));
            // On a sloped floor or under a sloped ceiling, the plane's height at the thing.
            let (floor, ceiling) = sector
                .map(|s| {
                    let (f, c) = (map.sectors[s].floor as f64, map.sectors[s].ceiling as f64);
                    let at = DVec2::new(x, y);
                    (self.slopes.height(s, FLOOR, f, at), self.slopes.height(s, CEILING, c, at))
                })
                .unwrap_or((0.0, 0.0));
            let at = |z: f64| viewer(DVec2::new(x, y), z);
            match spawn_decision(th.kind, th.flags, opts.skill) {
                Spawn::PlayerStart(n) => {
                    spawn_player(n, &mut random);
                    markers.push(Marker { pos: at(floor), label: format!("player {n} start") })
                }
                Spawn::DeathmatchStart => {
                    markers.push(Marker { pos: at(floor), label: "deathmatch start".into() })
                }
                Spawn::Skipped | Spawn::Ignored => {}
                Spawn::Unknown => {
                    unknown.insert(th.kind);
                }
                Spawn::Thing(t) if opts.no_monsters && removed_by_nomonsters(t.doomednum) => {}
                Spawn::Thing(t) => {
                    spawned += 1;
                    let first_tics = spawn_thing(t, &mut random);
                    if !t.visible {
                        markers.push(Marker { pos: at(floor), label: t.name.to_string() });
                        continue;
                    }
                    let Some(frame) = sprite_dir.frame(t.sprite, t.frame) else {
                        missing_frames.insert(format!("{}{}", t.sprite, t.frame as char));
                        continue;
                    };
                    let thing_frame = sprite_memory.frame(stack, frame, |lump| {
                        let texture = self.sprite_texture(lump);
                        self.textures.get(texture as usize).cloned()
                    });
                    let views = gpu_sprite_views(self, frame);
                    if thing_frame as usize == frame_views.len() {
                        frame_views.push(views.clone());
                    }
                    if frame.missing_rotations() > 0 {
                        missing_frames
                            .insert(format!("{}{} (some rotations)", t.sprite, t.frame as char));
                    }
                    // The frames of the type's cycle, each as its sprite frame in vanilla's
                    // things (a frame the sprites lack shows the spawn frame).
                    let spawn_word = thing_frame_word(thing_frame, t.fullbright);
                    if t.cycle.len() > 1 {
                        let words = t
                            .cycle
                            .iter()
                            .map(|state| match sprite_dir.frame(t.sprite, state.frame) {
                                Some(f) => {
                                    let i = sprite_memory.frame(stack, f, |lump| {
                                        let texture = self.sprite_texture(lump);
                                        self.textures.get(texture as usize).cloned()
                                    });
                                    if i as usize == frame_views.len() {
                                        frame_views.push(gpu_sprite_views(self, f));
                                    }
                                    thing_frame_word(i, state.bright)
                                }
                                None => {
                                    missing_frames
                                        .insert(format!("{}{}", t.sprite, state.frame as char));
                                    spawn_word
                                }
                            })
                            .collect();
                        animated.push(AnimatedThing {
                            thing: spawn_words.len() as u32,
                            cycle: t.cycle,
                            words,
                            first_tics,
                        });
                    }
                    spawn_words.push(spawn_word);
                    // Hexen's and UDMF's height: above the floor, or for things hanging from
                    // the ceiling below it (ZDoom P_SpawnMapThing); Doom-format things have none.
                    let above = fixed_units(th.z);
                    let z = if t.hangs { ceiling - t.height as f64 - above } else { floor + above };
                    let bam = (spawn_angle_degrees(th.angle) / 45.0) as u32 * 0x2000_0000;
                    sprite_memory.add_thing(VThing {
                        x: th.x,
                        y: th.y,
                        z: (z as i32).wrapping_shl(16),
                        angle: bam,
                        sector: sector.map_or(u32::MAX, |s| s as u32),
                        frame: thing_frame,
                        fullbright: t.fullbright,
                        shadow: t.shadow,
                    });
                    sprites.push(Sprite {
                        tint: 0,
                        pos: at(z),
                        views,
                        facing: spawn_angle_degrees(th.angle).to_radians() as f32,
                        scale: 1.0,
                        light: match sector {
                            Some(s) => self.banded_slot(s as u32, z, LightRule::default()),
                            None => 0,
                        },
                        fullbright: t.fullbright,
                        label: th.kind.to_string(),
                    });
                }
            }
        }
        if !missing_frames.is_empty() {
            self.notes.push(format!(
                "sprite frames not found: {}",
                missing_frames.into_iter().collect::<Vec<_>>().join(", ")
            ));
        }
        if !unknown.is_empty() {
            self.notes.push(format!(
                "unknown thing types skipped: {}",
                unknown.iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
            ));
        }
        let things = Things { sprites, markers, spawned, random, spawn_words, animated };
        (things, ThingFrames { memory: sprite_memory, views: frame_views })
    }
}

/// A sprite frame's views as the GPU draws it: eight by rotation (rotation 1 first) or one; a
/// rotation without a lump shows the first the frame has.
fn gpu_sprite_views(b: &mut Builder, frame: &SpriteFrame) -> Vec<SpriteView> {
    let n_views = if frame.rotates { 8 } else { 1 };
    let fallback = frame.first_picture();
    (0..n_views)
        .filter_map(|r| {
            let picture = frame.pictures[r].or(fallback)?;
            Some(SpriteView { texture: b.sprite_texture(picture), mirrored: frame.mirrored[r] })
        })
        .collect()
}
