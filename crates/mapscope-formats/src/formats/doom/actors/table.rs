//! The editor numbers a level's things may have and what each spawns: vanilla's types,
//! GZDoom's DoomEdNums and DECORATE numbers, each class followed through `replaces` and
//! joined with its ancestors.
//!
//! Facts relied on (ZDoom wiki: Editor number, MAPINFO/Editor number definition, Actor
//! replacement):
//! - A DECORATE editor number overrides a DoomEdNums assignment of the same number, which
//!   overrides the engine's; `N = None` takes a number away (its things do not spawn).
//! - `replaces` does not move editor numbers: whatever spawns the replaced class (its own
//!   editor number included) spawns the replacement instead, following a chain of
//!   replacements; a replacement may have its own number as well.
//! - A class takes each property and flag its parent's chain sets unless it sets its own,
//!   and its parent's states where it does not define the label itself.

use std::collections::HashMap;

use super::builtin::{BASE_CLASSES, RANDOM_SPAWNER, VANILLA_CLASSES};
use super::defs::ClassDef;
use super::look::ThingLook;
use super::spawn_walk::resolve_look;
use crate::formats::doom::map::things::{thing_type, ThingType, THING_TYPES};
use crate::limits::doom::MAX_ACTOR_INHERITANCE;

/// What an editor number spawns.
#[derive(Clone, Debug, PartialEq)]
pub enum Lookup<'a> {
    Look(&'a ThingLook),
    /// Mapped to no class (`DoomEdNums { N = None }`): nothing spawns.
    Removed,
    /// A class that cannot spawn (not defined anywhere): the reason.
    Broken(&'a str),
    /// No class has this number.
    Unknown,
}

enum Entry {
    Look(ThingLook),
    Removed,
    Broken(String),
}

/// Every editor number's look for one load of a WAD stack.
pub struct ActorTable {
    by_number: HashMap<u16, Entry>,
    /// Classes the mod's scripts define.
    pub script_classes: usize,
}

impl ActorTable {
    /// Vanilla's types only.
    pub fn vanilla() -> ActorTable {
        let by_number =
            THING_TYPES.iter().map(|t| (t.doomednum, Entry::Look(ThingLook::vanilla(t))));
        ActorTable { by_number: by_number.collect(), script_classes: 0 }
    }

    /// Vanilla's types with `classes` (read from scripts) and `assignments` (MAPINFO's
    /// DoomEdNums) over them; problems are added to `notes`.
    pub(super) fn with_classes(
        classes: Vec<ClassDef>,
        assignments: &[(u16, Option<String>)],
        notes: &mut Vec<String>,
    ) -> ActorTable {
        let script_classes = classes.len();
        let registry = Registry::new(classes, notes);
        // Numbers: the engine's, then DoomEdNums, then DECORATE's.
        let mut numbers: HashMap<u16, Option<String>> =
            VANILLA_CLASSES.iter().map(|&(name, n)| (n, Some(name.to_string()))).collect();
        for (n, class) in assignments {
            numbers.insert(*n, class.clone());
        }
        for def in &registry.defs {
            if let Some(n) = def.doomednum {
                numbers.insert(n, Some(def.name.clone()));
            }
        }
        let mut by_number = HashMap::new();
        for (n, class) in numbers {
            let entry = match class {
                None => Entry::Removed,
                Some(class) => match registry.spawned_class(&class) {
                    Ok(spawned) => match registry.look(&spawned, n) {
                        Some(look) => Entry::Look(look),
                        None => Entry::Broken(format!("class {spawned} is not defined")),
                    },
                    Err(why) => Entry::Broken(why),
                },
            };
            by_number.insert(n, entry);
        }
        ActorTable { by_number, script_classes }
    }

    /// What editor number `n` spawns.
    pub fn get(&self, n: u16) -> Lookup<'_> {
        match self.by_number.get(&n) {
            Some(Entry::Look(l)) => Lookup::Look(l),
            Some(Entry::Removed) => Lookup::Removed,
            Some(Entry::Broken(why)) => Lookup::Broken(why),
            None => Lookup::Unknown,
        }
    }
}

/// A class known by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Class {
    /// Vanilla's type of this editor number.
    Vanilla(u16),
    /// An abstract base with no look: `BASE_CLASSES[i]`.
    Base(usize),
    /// `defs[i]`.
    Script(usize),
}

/// The classes by name: the engine's, then the scripts' (a later definition of a name
/// replacing an earlier one, with a note).
pub(super) struct Registry {
    pub(super) defs: Vec<ClassDef>,
    by_name: HashMap<String, Class>,
    /// Replaced class (lower-cased) to the class replacing it.
    replaced_by: HashMap<String, String>,
}

impl Registry {
    fn new(defs: Vec<ClassDef>, notes: &mut Vec<String>) -> Registry {
        let mut by_name: HashMap<String, Class> = HashMap::new();
        for &(name, n) in VANILLA_CLASSES {
            by_name.insert(name.to_ascii_lowercase(), Class::Vanilla(n));
        }
        for (i, name) in BASE_CLASSES.iter().enumerate() {
            by_name.insert(name.to_ascii_lowercase(), Class::Base(i));
        }
        let mut replaced_by = HashMap::new();
        for (i, def) in defs.iter().enumerate() {
            let key = def.name.to_ascii_lowercase();
            if let Some(Class::Script(j)) = by_name.get(&key) {
                notes.push(format!(
                    "actor {} ({}) is defined again at {}: the later definition is used",
                    def.name, defs[*j].origin, def.origin
                ));
            }
            by_name.insert(key, Class::Script(i));
            if let Some(r) = &def.replaces {
                replaced_by.insert(r.to_ascii_lowercase(), def.name.clone());
            }
        }
        Registry { defs, by_name, replaced_by }
    }

    pub(super) fn class(&self, name: &str) -> Option<Class> {
        self.by_name.get(&name.to_ascii_lowercase()).copied()
    }

    /// The class that spawns where `name` is asked for: its replacement's replacement ...
    fn spawned_class(&self, name: &str) -> Result<String, String> {
        let mut current = name.to_string();
        for _ in 0..MAX_ACTOR_INHERITANCE {
            match self.replaced_by.get(&current.to_ascii_lowercase()) {
                Some(next) if !next.eq_ignore_ascii_case(&current) => current = next.clone(),
                _ => return Ok(current),
            }
        }
        Err(format!("the classes replacing {name} replace each other in a loop"))
    }

    /// The chain from class `name` up through its parents: the classes found, and why it
    /// stops early (a parent not found, a loop) if it does.
    pub(super) fn chain(&self, name: &str) -> (Vec<Class>, Option<String>) {
        let mut out = Vec::new();
        let mut current = name.to_string();
        loop {
            let Some(class) = self.class(&current) else {
                let why = if out.is_empty() {
                    format!("class {current} is not defined")
                } else {
                    format!("parent class {current} is not defined: nothing is inherited from it")
                };
                return (out, Some(why));
            };
            if out.contains(&class) || out.len() >= MAX_ACTOR_INHERITANCE {
                return (out, Some(format!("{name}'s parents inherit from each other in a loop")));
            }
            out.push(class);
            match class {
                Class::Script(i) => match &self.defs[i].parent {
                    Some(parent) => current = parent.clone(),
                    // No parent: `Actor`.
                    None => return (out, None),
                },
                Class::Vanilla(_) | Class::Base(_) => return (out, None),
            }
        }
    }

    /// Whether class chain `chain` derives from the random spawner.
    pub(super) fn is_random_spawner(chain: &[Class]) -> bool {
        chain.iter().any(|c| matches!(c, Class::Base(i) if BASE_CLASSES[*i] == RANDOM_SPAWNER))
    }

    /// The look of class `name` placed with editor number `n`; `None` when no such class.
    fn look(&self, name: &str, n: u16) -> Option<ThingLook> {
        match self.class(name)? {
            Class::Vanilla(v) => {
                let mut look = ThingLook::vanilla(vanilla_type(v)?);
                look.doomednum = n;
                Some(look)
            }
            _ => Some(resolve_look(self, name, n)),
        }
    }
}

/// Vanilla's type of editor number `n`.
pub(super) fn vanilla_type(n: u16) -> Option<&'static ThingType> {
    thing_type(n)
}
