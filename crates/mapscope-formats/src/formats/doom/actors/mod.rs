//! The things a GZDoom mod defines: its DECORATE and ZScript actor classes and MAPINFO's
//! DoomEdNums, read over vanilla's thing types so that a placed thing of the mod's numbers
//! spawns with the mod's look (sprite and frame of its spawn state, the frames it cycles
//! through, `Bright`, scale, render style and alpha, height, `+SPAWNCEILING`), inherited
//! through `: Parent` (vanilla's types included, under GZDoom's class names) and swapped in
//! by `replaces`.
//!
//! Read once per build from the stack's lumps: `scripts` (which lumps, `#include`),
//! `decorate` and `zscript` (the two syntaxes, sharing `states` and `props`), `doomednums`
//! (MAPINFO), then `table` (editor numbers, `replaces`, inheritance) and `spawn_walk` (a
//! class's look). What cannot be read (a parse error, a look computed by code) is a note:
//! the rest of the mod still loads.

pub(crate) mod builtin;
mod cursor;
mod decorate;
mod defs;
mod doomednums;
mod engine_things;
mod look;
mod props;
mod scripts;
mod spawn_walk;
mod states;
mod table;
mod zscript;

#[cfg(test)]
mod tests;

pub use engine_things::{engine_thing, EngineThing};
pub use look::{look_state_at, Blend, LookState, ThingLook};
pub use table::{ActorTable, Lookup};

use crate::formats::doom::archive::wad::WadStack;

/// Vanilla's thing types with the actors of `stack`'s scripts over them; problems reading
/// the scripts are added to `notes`.
pub fn load_actors(stack: &WadStack, notes: &mut Vec<String>) -> ActorTable {
    let mut reader = scripts::ScriptReader::new(stack);
    reader.read_all();
    let assignments = doomednums::read_doomednums(stack, &mut reader.notes);
    let table = if reader.classes.is_empty() && assignments.is_empty() {
        ActorTable::vanilla()
    } else {
        ActorTable::with_classes(reader.classes, &assignments, &mut reader.notes)
    };
    notes.extend(reader.notes);
    table
}
