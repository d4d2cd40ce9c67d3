//! What the map asks for that its files do not have: each wall texture and flat name no
//! lookup found, written once the steps are done with where it is asked for (the first
//! sidedef or sector naming it, how many do, else what else asked, such as MAPINFO's sky),
//! so that `info` tells what a mod still lacks and where to look. Apart from the lookups
//! (`scene_textures`) because it needs the whole map, not the one lookup.

use super::Builder;
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::map::MapData;
use crate::formats::doom::script_tokens::Scanner;

/// A name no lookup found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Missing {
    Texture(String),
    Flat(String),
}

/// Where the map asks for a name: how many records, and the first.
struct Uses {
    count: usize,
    first: Option<String>,
}

impl Uses {
    fn add(&mut self, at: impl FnOnce() -> String) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(at());
        }
    }
}

impl Builder<'_> {
    /// Remembers that `missing` was not found (once per name), for [`Builder::missing_notes`].
    pub(super) fn note_missing(&mut self, missing: Missing) {
        if !self.missing.contains(&missing) {
            self.missing.push(missing);
        }
    }

    /// Remembers that `what` (such as "MAPINFO's sky1") asked for texture `name`, which no
    /// sidedef names.
    pub(super) fn note_asker(&mut self, name: &str, what: String) {
        self.askers.push((name.to_ascii_uppercase(), what));
    }

    /// Counts of the names not found, textures then flats.
    pub(super) fn missing_counts(&self) -> (usize, usize) {
        let textures = self.missing.iter().filter(|m| matches!(m, Missing::Texture(_))).count();
        (textures, self.missing.len() - textures)
    }

    /// One note per name not found, in the order the steps first asked for them.
    pub(super) fn missing_notes(&self, map: &MapData) -> Vec<String> {
        self.missing.iter().map(|m| self.missing_note(map, m)).collect()
    }

    fn missing_note(&self, map: &MapData, missing: &Missing) -> String {
        let (what, name) = match missing {
            Missing::Texture(n) => ("texture", n),
            Missing::Flat(n) => ("flat", n),
        };
        let upper = name.to_ascii_uppercase();
        let mut uses = Uses { count: 0, first: None };
        match missing {
            Missing::Texture(_) => side_uses(map, &upper, &mut uses),
            Missing::Flat(_) => {
                for (i, s) in map.sectors.iter().enumerate() {
                    for (part, flat) in [("floor", &s.floor_flat), ("ceiling", &s.ceiling_flat)] {
                        if flat.eq_ignore_ascii_case(&upper) {
                            uses.add(|| format!("sector {i}'s {part}"));
                        }
                    }
                }
            }
        }
        let askers: Vec<&str> =
            self.askers.iter().filter(|(n, _)| *n == upper).map(|(_, w)| w.as_str()).collect();
        let from = match uses.first {
            Some(first) if uses.count == 1 => format!("asked for by {first}"),
            Some(first) => format!("asked for {} times, first by {first}", uses.count),
            None if !askers.is_empty() => {
                let skybox = if gldefs_skyboxes(self.stack).contains(&upper) {
                    "; GLDEFS makes it a skybox, which mapscope does not draw"
                } else {
                    ""
                };
                format!("asked for by {}{skybox}", askers.join(" and "))
            }
            None => "asked for by no sidedef or sector, but by another lookup".to_string(),
        };
        format!("{what} {name} not found ({from}); drawn as a placeholder")
    }
}

/// The sidedefs naming texture `name`, each with its linedef where one uses it.
fn side_uses(map: &MapData, name: &str, uses: &mut Uses) {
    let mut line_of = vec![None; map.sidedefs.len()];
    for (l, line) in map.linedefs.iter().enumerate() {
        for s in line.sides.iter().flatten() {
            if let Some(slot) = line_of.get_mut(*s as usize) {
                slot.get_or_insert(l);
            }
        }
    }
    for (i, sd) in map.sidedefs.iter().enumerate() {
        for (part, tex) in [("upper", &sd.upper), ("middle", &sd.middle), ("lower", &sd.lower)] {
            if tex.eq_ignore_ascii_case(name) {
                uses.add(|| match line_of[i] {
                    Some(l) => format!("sidedef {i}'s {part} texture (linedef {l})"),
                    None => format!("sidedef {i}'s {part} texture"),
                });
            }
        }
    }
}

/// The skybox names GLDEFS lumps define (`skybox NAME { faces }`), upper-cased: GZDoom's
/// hardware renderer draws such a sky from its six faces, which mapscope does not.
fn gldefs_skyboxes(stack: &WadStack) -> Vec<String> {
    let mut names = Vec::new();
    for (_, num) in stack.global_lumps_named("GLDEFS") {
        let Some(lump) = stack.lump_at(num) else { continue };
        let Ok(mut scanner) = Scanner::new(&lump, "GLDEFS") else { continue };
        let mut named_next = false;
        // A token the scanner cannot read ends the lump: this is a hint, not a parse.
        while let Ok(Some(token)) = scanner.next_token() {
            if named_next {
                names.extend(token.text().map(str::to_ascii_uppercase));
            }
            named_next = token.is_word("skybox");
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use crate::formats::doom::build::build_scene;
    use crate::formats::doom::testwad;

    #[test]
    fn notes_say_where_each_missing_name_is_asked_for() {
        let mut level = testwad::two_room_level();
        // Sidedef 5 (linedef 4) and sidedef 6 (linedef 5): their middles; sector 1's floor.
        level.map.sidedefs[5].middle = "NOSUCH".into();
        level.map.sidedefs[6].middle = "NOSUCH".into();
        level.map.sectors[1].floor_flat = "NOFLAT".into();
        let scene = build_scene(&testwad::stack_with(&level), "MAP01").unwrap();
        let notes = &scene.facts.notes;
        let said = |text: &str| notes.iter().any(|n| n == text);
        assert!(
            said(
                "texture NOSUCH not found (asked for 2 times, first by sidedef 5's middle \
                 texture (linedef 4)); drawn as a placeholder"
            ),
            "{notes:#?}"
        );
        assert!(
            said("flat NOFLAT not found (asked for by sector 1's floor); drawn as a placeholder"),
            "{notes:#?}"
        );
        let count = |k: &str| scene.facts.counts.iter().find(|c| c.0 == k).map(|c| c.1);
        assert_eq!((count("textures_missing"), count("flats_missing")), (Some(1), Some(1)));
    }
}
