//! The skies a map's MAPINFO gives it, as GZDoom reads them (`g_mapinfo.cpp` G_ParseMapInfo
//! and FMapInfoParser): `sky1` (the sky of every F_SKY1 plane), `sky2` (the sky of sectors
//! with the Hexen-numbered special Sky2, 200) and `doublesky`, or UMAPINFO's `skytexture`.
//!
//! Facts relied on:
//! - Lumps are read in load order; within one file a `ZMAPINFO` replaces its `MAPINFO`, and a
//!   `UMAPINFO` is read only where the file has neither. A later file's `map` block replaces
//!   the earlier definition of that map.
//! - Two syntaxes: Hexen's (`map MAP01 "Name"`, then `sky1 NAME speed` lines up to the next
//!   top-level keyword; Hexen's own lumps give the map as a number, `map 1`, which is MAP01) and ZDoom's (`map MAP01 "Name" { sky1 = "NAME", speed }`); the name
//!   may be `lookup "KEY"`, or absent in UMAPINFO (`MAP MAP01 { skytexture = "NAME" }`).
//! - A map's properties start from its lump's `defaultmap` (replaced by each `defaultmap`,
//!   added to by `adddefaultmap`) over `gamedefaults`; `include "lump"` reads another lump in
//!   place.
//! - Sky scroll speeds move the sky over time (not drawn: mapscope's sky does not scroll);
//!   `doublesky` draws sky2 behind sky1's transparent texels (not drawn).

use crate::formats::doom::archive::wad::{Lump, WadStack};
use crate::formats::doom::script_tokens::{Scanner, Token};
use crate::limits::doom::MAX_MAPINFO_INCLUDE_DEPTH;

/// Map properties read here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapSkies {
    pub sky1: Option<String>,
    pub sky2: Option<String>,
    /// Scroll speeds given with sky1 and sky2.
    pub speeds: [f64; 2],
    pub double: bool,
    /// The lump that defined the map (its file and name), where one did.
    pub source: Option<String>,
}

/// Top-level keywords that end a Hexen-syntax map definition.
const TOP_LEVEL: [&str; 18] = [
    "map",
    "defaultmap",
    "adddefaultmap",
    "gamedefaults",
    "clusterdef",
    "episode",
    "clearepisodes",
    "skill",
    "clearskills",
    "gameinfo",
    "intermission",
    "include",
    "automap",
    "automap_overlay",
    "doomednums",
    "spawnnums",
    "conversationids",
    "damagetype",
];

/// The skies MAPINFO gives map `map` (empty where no MAPINFO defines it); problems become
/// notes naming the lump.
pub fn map_skies(stack: &WadStack, map: &str, notes: &mut Vec<String>) -> MapSkies {
    let mut found = MapSkies::default();
    // Each name's lumps found once (each search reads the whole directory), then by file.
    let [z, m, u] = ["ZMAPINFO", "MAPINFO", "UMAPINFO"].map(|n| stack.global_lumps_named(n));
    for file in 0..stack.wads().len() {
        let of_file = |all: &[(usize, _)]| -> Vec<_> {
            all.iter().filter(|&&(f, _)| f == file).map(|&(_, n)| n).collect()
        };
        let lumps = [&z, &m, &u].into_iter().map(|all| of_file(all)).find(|l| !l.is_empty());
        let lumps = lumps.unwrap_or_default();
        for num in lumps {
            let Some(lump) = stack.lump_at(num) else { continue };
            let mut parser = Parser { stack, map, defaults: MapSkies::default(), found: None };
            match parser.lump(&lump, 0) {
                Ok(()) => {
                    if let Some(mut skies) = parser.found {
                        skies.source = Some(format!("{} {}", lump.file, lump.name));
                        found = skies;
                    }
                }
                Err(e) => notes.push(format!("{e}; the rest of that lump is not read")),
            }
        }
    }
    found
}

struct Parser<'s> {
    stack: &'s WadStack,
    map: &'s str,
    defaults: MapSkies,
    /// This lump's last definition of the map.
    found: Option<MapSkies>,
}

impl Parser<'_> {
    fn lump(&mut self, lump: &Lump<'_>, depth: usize) -> crate::formats::Result<()> {
        let mut s = Scanner::new(lump, "MAPINFO")?;
        while let Some(t) = s.next_token()? {
            if t.is_word("map") {
                let (name, _) = s.expect_text("a map name")?;
                title(&mut s)?;
                let mut skies = self.defaults.clone();
                properties(&mut s, &mut skies)?;
                let name = match name.parse::<u32>() {
                    Ok(n @ 1..=99) => format!("MAP{n:02}"),
                    _ => name,
                };
                if name.eq_ignore_ascii_case(self.map) {
                    self.found = Some(skies);
                }
            } else if t.is_word("defaultmap") || t.is_word("gamedefaults") {
                let mut skies = MapSkies::default();
                properties(&mut s, &mut skies)?;
                self.defaults = skies;
            } else if t.is_word("adddefaultmap") {
                let mut skies = self.defaults.clone();
                properties(&mut s, &mut skies)?;
                self.defaults = skies;
            } else if t.is_word("include") {
                let (path, at) = s.expect_text("the lump to include")?;
                if depth >= MAX_MAPINFO_INCLUDE_DEPTH {
                    return Err(s.error_on(&at, "includes nest too deep"));
                }
                let num = self.stack.lump_num_by_path(&path).or_else(|| self.stack.lump_num(&path));
                let Some(included) = num.and_then(|n| self.stack.lump_at(n)) else {
                    return Err(s.error_on(&at, format!("no lump {path} to include")));
                };
                self.lump(&included, depth + 1)?;
            } else if t.is_punct('{') {
                // Any other block (cluster, episode, skill, ...).
                skip_block(&mut s)?;
            }
        }
        Ok(())
    }
}

/// Skips a map's title: a quoted name, `lookup "KEY"`, or nothing (UMAPINFO).
fn title(s: &mut Scanner<'_>) -> crate::formats::Result<()> {
    let Some(t) = s.peek()?.cloned() else { return Ok(()) };
    if t.is_word("lookup") {
        s.next_token()?;
        s.expect_text("the title's lookup key")?;
    } else if matches!(t.kind, crate::formats::doom::script_tokens::TokenKind::Quoted(_)) {
        s.next_token()?;
    }
    Ok(())
}

/// Skips to the `}` that closes a block whose `{` was just read.
fn skip_block(s: &mut Scanner<'_>) -> crate::formats::Result<()> {
    let mut depth = 1usize;
    while depth > 0 {
        let t = s.expect_any("'}'")?;
        if t.is_punct('{') {
            depth += 1;
        } else if t.is_punct('}') {
            depth -= 1;
        }
    }
    Ok(())
}

/// Reads a definition's properties into `skies`: a `{ key = value, ... }` block, or
/// Hexen-style lines up to the next top-level keyword.
fn properties(s: &mut Scanner<'_>, skies: &mut MapSkies) -> crate::formats::Result<()> {
    if s.check_punct('{')? {
        loop {
            let t = s.expect_any("a property or '}'")?;
            if t.is_punct('}') {
                return Ok(());
            }
            if t.is_punct('{') {
                skip_block(s)?;
                continue;
            }
            let mut values = Vec::new();
            if s.check_punct('=')? {
                values.push(s.expect_any("a value")?);
                while s.check_punct(',')? {
                    values.push(s.expect_any("a value")?);
                }
            }
            property(&t, &values, skies);
        }
    }
    loop {
        let Some(t) = s.peek()?.cloned() else { return Ok(()) };
        if TOP_LEVEL.iter().any(|k| t.is_word(k)) || t.is_punct('{') {
            return Ok(());
        }
        s.next_token()?;
        // Hexen syntax: `sky1 NAME [speed]`; other lines are skipped token by token.
        let mut values = Vec::new();
        if t.is_word("sky1") || t.is_word("sky2") {
            values.push(s.expect_any("a sky texture")?);
            if s.peek()?.and_then(Token::text).is_some_and(|w| w.parse::<f64>().is_ok()) {
                values.extend(s.next_token()?);
            }
        }
        property(&t, &values, skies);
    }
}

/// Applies property `key` with `values` to `skies` (others are not read).
fn property(key: &Token, values: &[Token], skies: &mut MapSkies) {
    let text = |i: usize| values.get(i).and_then(Token::text).map(str::to_string);
    let speed = || text(1).and_then(|v| v.parse::<f64>().ok()).filter(|v| v.is_finite());
    if key.is_word("sky1") || key.is_word("skytexture") {
        skies.sky1 = text(0);
        skies.speeds[0] = speed().unwrap_or(0.0);
    } else if key.is_word("sky2") {
        skies.sky2 = text(0);
        skies.speeds[1] = speed().unwrap_or(0.0);
    } else if key.is_word("doublesky") {
        skies.double = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::Wad;
    use crate::formats::doom::archive::writer::WadWriter;

    fn stack(files: &[&[(&str, &str)]]) -> WadStack {
        let wads = files
            .iter()
            .enumerate()
            .map(|(i, lumps)| {
                let mut w = WadWriter::pwad();
                for (name, text) in *lumps {
                    w.lump(name, text.as_bytes().to_vec());
                }
                Wad::from_bytes(&format!("file{i}.wad"), w.to_bytes()).unwrap()
            })
            .collect();
        WadStack::new(wads)
    }

    fn skies(files: &[&[(&str, &str)]], map: &str) -> (MapSkies, Vec<String>) {
        let mut notes = Vec::new();
        let s = map_skies(&stack(files), map, &mut notes);
        (s, notes)
    }

    #[test]
    fn reads_both_syntaxes_and_umapinfo() {
        let hexen = "map MAP01 \"Entry\"\nsky1 SKY3 0.5\nsky2 SKY2\ndoublesky\nmusic D_RUNNIN\n\
                     map MAP02 \"Next\"\nsky1 SKY1 0";
        let (s, notes) = skies(&[&[("MAPINFO", hexen)]], "map01");
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(
            (s.sky1.as_deref(), s.sky2.as_deref(), s.double),
            (Some("SKY3"), Some("SKY2"), true)
        );
        assert_eq!(s.speeds, [0.5, 0.0]);
        assert_eq!(s.source.as_deref(), Some("file0.wad MAPINFO"));
        let zdoom =
            "// comment\nmap MAP01 lookup \"HUSTR_1\" { levelnum = 1 sky1 = \"RSKY1\", 0.1 \
                     next = \"MAP02\" }\ncluster 1 { exittext = \"x\" }";
        let (s, _) = skies(&[&[("ZMAPINFO", zdoom)]], "MAP01");
        assert_eq!((s.sky1.as_deref(), s.speeds[0], s.double), (Some("RSKY1"), 0.1, false));
        let umapinfo = "MAP MAP01 { levelname = \"x\" skytexture = \"SKY4\" }";
        assert_eq!(skies(&[&[("UMAPINFO", umapinfo)]], "MAP01").0.sky1.as_deref(), Some("SKY4"));
        // Hexen's map numbers.
        let numbered =
            "map 1 \"WINNOWING HALL\"\nsky1 SKY2 1\nmap 2 \"SEVEN PORTALS\"\nsky1 SKY3 1";
        assert_eq!(skies(&[&[("MAPINFO", numbered)]], "MAP02").0.sky1.as_deref(), Some("SKY3"));
        // A map nobody defines.
        assert_eq!(skies(&[&[("MAPINFO", hexen)]], "MAP03").0, MapSkies::default());
    }

    #[test]
    fn defaults_includes_and_the_order_of_files_and_lumps() {
        let defaults = "defaultmap { sky1 = \"SKY2\" }\nadddefaultmap { doublesky }\n\
                        map MAP01 \"a\" { }\nmap MAP02 \"b\" { sky1 = \"SKY3\" }";
        let (s, _) = skies(&[&[("ZMAPINFO", defaults)]], "MAP01");
        assert_eq!((s.sky1.as_deref(), s.double), (Some("SKY2"), true));
        let (s, _) = skies(&[&[("ZMAPINFO", defaults)]], "MAP02");
        assert_eq!(s.sky1.as_deref(), Some("SKY3"));
        // include reads another lump in place.
        let files: &[&[(&str, &str)]] =
            &[&[("MAPINFO", "include \"MAPS\""), ("MAPS", "map MAP01 \"a\" sky1 SKY4 0")]];
        assert_eq!(skies(files, "MAP01").0.sky1.as_deref(), Some("SKY4"));
        // A file's ZMAPINFO hides its MAPINFO and UMAPINFO; a later file wins.
        let z = ("ZMAPINFO", "map MAP01 \"a\" { sky1 = \"SKYZ\" }");
        let m = ("MAPINFO", "map MAP01 \"a\" sky1 SKYM 0");
        let u = ("UMAPINFO", "MAP MAP01 { skytexture = \"SKYU\" }");
        assert_eq!(skies(&[&[m, z, u]], "MAP01").0.sky1.as_deref(), Some("SKYZ"));
        assert_eq!(skies(&[&[m, u]], "MAP01").0.sky1.as_deref(), Some("SKYM"));
        assert_eq!(skies(&[&[z], &[u]], "MAP01").0.sky1.as_deref(), Some("SKYU"));
    }

    #[test]
    fn broken_lumps_and_include_loops_are_notes() {
        let (s, notes) = skies(&[&[("MAPINFO", "map MAP01 \"a\" { sky1 = ")]], "MAP01");
        assert_eq!(s, MapSkies::default());
        assert!(notes.iter().any(|n| n.contains("MAPINFO")), "{notes:?}");
        let (_, notes) = skies(&[&[("MAPINFO", "include \"MAPINFO\"")]], "MAP01");
        assert!(notes.iter().any(|n| n.contains("too deep")), "{notes:?}");
        let (_, notes) = skies(&[&[("MAPINFO", "include \"NOWHERE\"")]], "MAP01");
        assert!(notes.iter().any(|n| n.contains("no lump NOWHERE")), "{notes:?}");
    }
}
