//! What the things step could not spawn or draw as the game does, gathered while it spawns
//! and said once each in `info`'s notes.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::doom::actors::{Blend, EngineThing, ThingLook};

#[derive(Default)]
pub(super) struct ThingNotes {
    pub(super) missing_frames: BTreeSet<String>,
    unknown: BTreeSet<u16>,
    /// Things of the unknown types.
    unknown_things: usize,
    /// Numbers DoomEdNums maps to `None`.
    removed: BTreeSet<u16>,
    /// Why a number's class cannot spawn, and the numbers.
    broken: BTreeMap<String, BTreeSet<u16>>,
    /// Why a class's look is not all read, and the classes.
    unread: BTreeMap<String, BTreeSet<String>>,
    /// Classes drawn blended by alpha or added (only vanilla's canvas blends sprites).
    blended: BTreeSet<String>,
    /// Classes drawn scaled.
    scaled: usize,
    /// GZDoom's own things placed as markers, by kind.
    engine: BTreeMap<EngineThing, usize>,
}

impl ThingNotes {
    /// A thing of type `n`, which no class has.
    pub(super) fn unknown(&mut self, n: u16) {
        self.unknown.insert(n);
        self.unknown_things += 1;
    }

    /// A thing of GZDoom's own that draws nothing, placed as a marker.
    pub(super) fn engine(&mut self, kind: EngineThing) {
        *self.engine.entry(kind).or_default() += 1;
    }

    pub(super) fn removed(&mut self, n: u16) {
        self.removed.insert(n);
    }

    pub(super) fn broken(&mut self, n: u16, why: &str) {
        self.broken.entry(why.to_string()).or_default().insert(n);
    }

    /// A thing of `look` spawned.
    pub(super) fn spawned(&mut self, look: &ThingLook) {
        for why in &look.unread {
            self.unread.entry(why.clone()).or_default().insert(look.name.clone());
        }
        if matches!(look.blend, Blend::Alpha { .. }) && look.visible() {
            self.blended.insert(look.name.clone());
        }
        if look.scale != [1.0, 1.0] && look.visible() {
            self.scaled += 1;
        }
    }

    /// The notes, in a fixed order.
    pub(super) fn into_notes(self) -> Vec<String> {
        let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
        let mut notes = Vec::new();
        if !self.missing_frames.is_empty() {
            notes.push(format!(
                "sprite frames not found: {}",
                list(&mut self.missing_frames.into_iter())
            ));
        }
        if !self.unknown.is_empty() {
            let things = match self.unknown_things {
                1 => "1 thing".to_string(),
                n => format!("{n} things"),
            };
            notes.push(format!(
                "unknown thing types skipped: {} ({things})",
                list(&mut self.unknown.iter().map(u16::to_string))
            ));
        }
        if !self.engine.is_empty() {
            let kinds: Vec<String> =
                self.engine.iter().map(|(k, n)| format!("{} {n}", k.name())).collect();
            let particles = if self.engine.contains_key(&EngineThing::Particles) {
                "; particle fountains' particles are not drawn"
            } else {
                ""
            };
            notes.push(format!(
                "GZDoom's own things that draw no sprite, placed as markers: {}{particles}",
                kinds.join(", ")
            ));
        }
        if !self.removed.is_empty() {
            notes.push(format!(
                "thing types DoomEdNums maps to None, not spawned: {}",
                list(&mut self.removed.iter().map(u16::to_string))
            ));
        }
        for (why, numbers) in self.broken {
            notes.push(format!(
                "thing types skipped ({why}): {}",
                list(&mut numbers.iter().map(u16::to_string))
            ));
        }
        for (why, classes) in self.unread {
            notes.push(format!(
                "actors not drawn as the game shows them ({why}): {}",
                list(&mut classes.into_iter())
            ));
        }
        if !self.blended.is_empty() {
            notes.push(format!(
                "translucent and additive actors ({}): faithful frames on vanilla's canvas blend \
                 them through tables made as ZDoom's 8-bit renderer does; the GPU's frames and \
                 the triangle canvas draw them opaque",
                list(&mut self.blended.into_iter())
            ));
        }
        if self.scaled > 0 {
            notes.push(format!("{} things drawn at their actors' scale", self.scaled));
        }
        notes
    }
}
