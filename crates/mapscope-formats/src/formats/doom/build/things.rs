//! The things step: each THINGS entry that spawns at level start, as vanilla's
//! `P_LoadThings` spawns it (skill, `-nomonsters`, `P_Random` drawn in the same order), made
//! a sprite with its frames' textures, a marker where it shows nothing, and an entry in
//! vanilla's thing memory for the CPU's frames. What each editor number spawns comes from
//! the actor table: vanilla's types, with a mod's DECORATE and ZScript actors over them.
//! Separate from the walls and flats because it has its own state (the sprite directory, the
//! frames made so far, `P_Random`) that only the light specials and the animator read
//! afterwards.

use std::collections::BTreeMap;

use glam::DVec2;

use super::thing_notes::ThingNotes;
use super::{fixed_units, to_fixed, viewer, BuildOptions, Builder};
use crate::formats::doom::actors::{
    engine_thing, load_actors, ActorTable, Blend, LookState, Lookup, ThingLook,
};
use crate::formats::doom::graphics::sprite_memory::SpriteMemory;
use crate::formats::doom::graphics::sprites::{SpriteDirectory, SpriteFrame};
use crate::formats::doom::map::things::{
    spawn_angle_degrees, spawn_decision, spawn_player, spawn_thing, Spawn,
};
use crate::formats::doom::map::udmf_props::LightRule;
use crate::formats::doom::map::{MapData, Thing};
use crate::formats::doom::nodes::bsp::point_in_subsector;
use crate::formats::doom::specials::animation::AnimatedThing;
use crate::formats::doom::specials::lights::PRandom;
use crate::formats::doom::specials::line_styles::{blend_table, InversePalette, LineStyle};
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
    /// Classes the mod's scripts define (0 without a mod).
    pub(super) actor_classes: usize,
}

/// The things as vanilla's canvas holds them, apart from [`Things`] because the vanilla map
/// payload takes them whole while the scene still needs the rest.
pub(super) struct ThingFrames {
    pub(super) memory: SpriteMemory,
    /// Each of `memory`'s frames as the GPU draws it, by the frame's index there.
    pub(super) views: Vec<Vec<SpriteView>>,
    /// The blend tables translucent things use (`VThing::translucent` counts from the first),
    /// to go after the level's own.
    pub(super) tranmaps: Vec<Vec<u8>>,
}

/// The sprite frames made so far, for vanilla's canvas and the GPU alike.
struct FrameMaker {
    dir: SpriteDirectory,
    memory: SpriteMemory,
    views: Vec<Vec<SpriteView>>,
}

impl Builder<'_> {
    /// Spawns the map's things at `opts`' skill: their sprites, markers and vanilla's thing
    /// memory, with notes for the frames and types not found; `palette` makes the blend
    /// tables of translucent things.
    pub(super) fn things(
        &mut self,
        map: &MapData,
        opts: &BuildOptions,
        palette: &[[u8; 3]],
    ) -> (Things, ThingFrames) {
        let stack = self.stack;
        let actors =
            if opts.vanilla { ActorTable::vanilla() } else { load_actors(stack, &mut self.notes) };
        let mut dir = SpriteDirectory::new(stack);
        dir.install_definitions(stack, self.texdir);
        self.notes.extend(dir.notes.iter().filter(|n| n.starts_with("TEXTURES")).cloned());
        let mut frames = FrameMaker { dir, memory: SpriteMemory::default(), views: Vec::new() };
        let mut sprites = Vec::new();
        let mut markers = Vec::new();
        let mut spawned = 0u64;
        let mut notes = ThingNotes::default();
        let mut styles: BTreeMap<LineStyle, u32> = BTreeMap::new();
        // P_Random as P_LoadThings leaves it (G_InitNew clears it to 0), and the things whose
        // frame changes, with the frame word of each state of their cycle.
        let mut random = PRandom::default();
        let mut spawn_words = Vec::new();
        let mut animated = Vec::new();
        for (thing_index, th) in map.things.iter().enumerate() {
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
            let look = match spawn_decision(th.kind, th.flags, opts.skill) {
                Spawn::PlayerStart(n) => {
                    spawn_player(n, &mut random);
                    markers.push(Marker { pos: at(floor), label: format!("player {n} start") });
                    continue;
                }
                Spawn::DeathmatchStart => {
                    markers.push(Marker { pos: at(floor), label: "deathmatch start".into() });
                    continue;
                }
                Spawn::Skipped | Spawn::Ignored => continue,
                Spawn::Thing => match actors.get(th.kind) {
                    Lookup::Look(look) => look,
                    Lookup::Unknown => {
                        // GZDoom spawns its lights, sounds, map spots and the like, which
                        // draw nothing; vanilla knows none of them.
                        match engine_thing(th.kind).filter(|_| !opts.vanilla) {
                            Some(kind) => {
                                spawned += 1;
                                notes.engine(kind);
                                markers.push(Marker { pos: at(floor), label: kind.name().into() });
                            }
                            None => notes.unknown(th.kind),
                        }
                        continue;
                    }
                    Lookup::Removed => {
                        notes.removed(th.kind);
                        continue;
                    }
                    Lookup::Broken(why) => {
                        notes.broken(th.kind, why);
                        continue;
                    }
                },
            };
            if opts.no_monsters && look.monster {
                continue;
            }
            spawned += 1;
            notes.spawned(look);
            let first_tics = spawn_thing(look.spawn_tics, &mut random);
            let Some(spawn) = look.spawn_state() else {
                markers.push(Marker { pos: at(floor), label: look.name.clone() });
                continue;
            };
            let Some((thing_frame, views)) =
                self.sprite_frame(&mut frames, spawn, look, &mut notes)
            else {
                continue;
            };
            let spawn_word = thing_frame_word(thing_frame, spawn.bright);
            if look.animates {
                // Each state as its sprite frame in vanilla's things (a frame the sprites
                // lack shows the spawn frame).
                let words = look
                    .states
                    .iter()
                    .map(|state| match self.sprite_frame(&mut frames, state, look, &mut notes) {
                        Some((i, _)) => thing_frame_word(i, state.bright),
                        None => spawn_word,
                    })
                    .collect();
                animated.push(AnimatedThing {
                    thing: spawn_words.len() as u32,
                    tics: look.states.iter().map(|s| s.tics).collect(),
                    loop_to: look.loop_to,
                    words,
                    first_tics,
                });
            }
            spawn_words.push(spawn_word);
            let z = thing_z(th, look, floor, ceiling);
            let translucent = match look.blend {
                Blend::Alpha { alpha, additive } => {
                    let style = LineStyle { alpha: (alpha * 255.0).round() as u8, additive };
                    let next = styles.len() as u32;
                    Some(*styles.entry(style).or_insert(next))
                }
                _ => None,
            };
            let scale = look.scale.map(|s| s as f32);
            frames.memory.add_thing(VThing {
                x: th.x,
                y: th.y,
                z: (z as i32).wrapping_shl(16),
                angle: (spawn_angle_degrees(th.angle) / 45.0) as u32 * 0x2000_0000,
                sector: sector.map_or(u32::MAX, |s| s as u32),
                frame: thing_frame,
                fullbright: spawn.bright,
                shadow: look.blend == Blend::Fuzz,
                scale: (look.scale != [1.0, 1.0]).then(|| look.scale.map(to_fixed)),
                translucent,
            });
            sprites.push(Sprite {
                tint: 0,
                pos: at(z),
                views,
                facing: spawn_angle_degrees(th.angle).to_radians() as f32,
                scale,
                light: match sector {
                    Some(s) => self.banded_slot(s as u32, z, LightRule::default()),
                    None => 0,
                },
                fullbright: spawn.bright,
                label: th.kind.to_string(),
                source: thing_index as u32,
            });
        }
        self.notes.extend(notes.into_notes());
        let tranmaps = blend_tables(&styles, palette);
        let things = Things {
            sprites,
            markers,
            spawned,
            random,
            spawn_words,
            animated,
            actor_classes: actors.script_classes,
        };
        (things, ThingFrames { memory: frames.memory, views: frames.views, tranmaps })
    }

    /// The frame `state` shows, as vanilla's canvas holds it (its index there) and as the
    /// GPU draws it; `None`, noted, when the sprites lack it.
    fn sprite_frame(
        &mut self,
        frames: &mut FrameMaker,
        state: &LookState,
        look: &ThingLook,
        notes: &mut ThingNotes,
    ) -> Option<(u32, Vec<SpriteView>)> {
        let name = state.sprite_name();
        let shown = |what: &str| match look.script {
            true => format!("{name}{} ({}{what})", state.frame as char, look.name),
            false => format!("{name}{}{what}", state.frame as char),
        };
        let Some(frame) = frames.dir.frame(&name, state.frame) else {
            notes.missing_frames.insert(shown(""));
            return None;
        };
        let stack = self.stack;
        let index = frames.memory.frame(stack, frame, |lump| {
            let texture = self.sprite_texture(lump);
            self.textures.get(texture as usize).cloned()
        });
        let views = gpu_sprite_views(self, frame);
        if index as usize == frames.views.len() {
            frames.views.push(views.clone());
        }
        if frame.missing_rotations() > 0 {
            notes.missing_frames.insert(if look.script {
                shown(", some rotations")
            } else {
                shown(" (some rotations)")
            });
        }
        Some((index, views))
    }
}

/// Where a thing's feet are: Hexen's and UDMF's height above the floor, or for things hanging
/// from the ceiling below it (ZDoom P_SpawnMapThing); Doom-format things have none.
fn thing_z(th: &Thing, look: &ThingLook, floor: f64, ceiling: f64) -> f64 {
    let above = fixed_units(th.z);
    if look.hangs {
        ceiling - look.height - above
    } else {
        floor + above
    }
}

/// The blend table of each style, in the order of their numbers.
fn blend_tables(styles: &BTreeMap<LineStyle, u32>, palette: &[[u8; 3]]) -> Vec<Vec<u8>> {
    if styles.is_empty() {
        return Vec::new();
    }
    let inverse = InversePalette::new(palette);
    let mut ordered: Vec<(u32, LineStyle)> = styles.iter().map(|(s, &i)| (i, *s)).collect();
    ordered.sort_unstable_by_key(|&(i, _)| i);
    ordered.into_iter().map(|(_, s)| blend_table(palette, &inverse, s)).collect()
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
