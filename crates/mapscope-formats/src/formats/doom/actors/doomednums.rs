//! MAPINFO's `DoomEdNums { number = Class [, args...] }` blocks: editor numbers given to
//! classes (the only way ZScript classes get one), or taken away (`= None`).
//!
//! Lumps are chosen as for the skies (`map_info`): in each file its ZMAPINFO, else its
//! MAPINFO, in load order, `include "lump"` read in place; a later assignment of a number
//! wins. Problems are notes naming the lump and line.

use super::cursor::{plain_int, Cursor};
use crate::formats::doom::archive::wad::{LumpNum, WadStack};
use crate::formats::Result;
use crate::limits::doom::MAX_MAPINFO_INCLUDE_DEPTH;

/// Editor number assignments in the order read: the class, or `None` for `= None`.
pub type Assignments = Vec<(u16, Option<String>)>;

/// Every DoomEdNums assignment of the stack's MAPINFO lumps.
pub fn read_doomednums(stack: &WadStack, notes: &mut Vec<String>) -> Assignments {
    let mut out = Vec::new();
    let [z, m] = ["ZMAPINFO", "MAPINFO"].map(|n| stack.global_lumps_named(n));
    for file in 0..stack.wads().len() {
        let of_file = |all: &[(usize, LumpNum)]| -> Vec<LumpNum> {
            all.iter().filter(|&&(f, _)| f == file).map(|&(_, n)| n).collect()
        };
        let lumps = [of_file(&z), of_file(&m)].into_iter().find(|l| !l.is_empty());
        for num in lumps.unwrap_or_default() {
            if let Err(e) = read_lump(stack, num, 0, &mut out) {
                notes.push(format!("{e}; its later editor numbers are not read"));
            }
        }
    }
    out
}

fn read_lump(stack: &WadStack, num: LumpNum, depth: usize, out: &mut Assignments) -> Result<()> {
    let Some(lump) = stack.lump_at(num) else { return Ok(()) };
    let mut c = Cursor::new(&lump, "MAPINFO")?;
    while let Some(t) = c.next()? {
        if t.is_word("doomednums") {
            c.expect_punct('{', "to open DoomEdNums")?;
            block(&mut c, out)?;
        } else if t.is_word("include") {
            let (path, at) = c.expect_text("the lump to include")?;
            if depth >= MAX_MAPINFO_INCLUDE_DEPTH {
                return Err(c.error(&at, "includes nest too deep"));
            }
            let found = stack.lump_num_by_path(&path).or_else(|| stack.lump_num(&path));
            let Some(n) = found else {
                return Err(c.error(&at, format!("no lump {path} to include")));
            };
            read_lump(stack, n, depth + 1, out)?;
        } else if t.is_punct('{') {
            c.skip_nested(&t)?;
        }
    }
    Ok(())
}

/// The entries of a DoomEdNums block whose `{` was just taken.
fn block(c: &mut Cursor<'_>, out: &mut Assignments) -> Result<()> {
    loop {
        let t = c.expect("an editor number or '}'")?;
        if t.is_punct('}') {
            return Ok(());
        }
        let number = t.text().and_then(plain_int);
        let Some(number) = number.and_then(|n| u16::try_from(n).ok()).filter(|&n| n > 0) else {
            return Err(c.error(&t, format!("expected an editor number, found {}", t.describe())));
        };
        c.expect_punct('=', "after the editor number")?;
        let (class, _) = c.expect_text("the class")?;
        // The special and its arguments.
        while c.check_punct(',')? {
            c.expect("an argument")?;
        }
        let class = (!class.eq_ignore_ascii_case("none")).then_some(class);
        out.push((number, class));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::Wad;
    use crate::formats::doom::archive::writer::WadWriter;

    fn read(lumps: &[(&str, &str)]) -> (Assignments, Vec<String>) {
        let mut w = WadWriter::pwad();
        for (name, text) in lumps {
            w.lump(name, text.as_bytes().to_vec());
        }
        let stack = WadStack::new(vec![Wad::from_bytes("m.wad", w.to_bytes()).unwrap()]);
        let mut notes = Vec::new();
        (read_doomednums(&stack, &mut notes), notes)
    }

    #[test]
    fn blocks_with_specials_none_and_includes() {
        let text = "map MAP01 \"x\" { sky1 = \"SKY1\" }\nDoomEdNums\n{\n  11001 = MarblePillar\n  \
                    11002 = \"GreenCard\", Autosave\n  11004 = IceDemon, Thing_Spawn, 0, 25, 0\n  \
                    64 = None\n}\ninclude \"MORE\"";
        let (got, notes) = read(&[("ZMAPINFO", text), ("MORE", "doomednums { 7 = Fatso }")]);
        assert!(notes.is_empty(), "{notes:?}");
        let names: Vec<(u16, Option<&str>)> = got.iter().map(|(n, c)| (*n, c.as_deref())).collect();
        assert_eq!(
            names,
            [
                (11001, Some("MarblePillar")),
                (11002, Some("GreenCard")),
                (11004, Some("IceDemon")),
                (64, None),
                (7, Some("Fatso"))
            ]
        );
    }

    #[test]
    fn bad_entries_are_notes_naming_the_line() {
        let (got, notes) = read(&[("MAPINFO", "DoomEdNums {\n 5 = A\n 99999 = B\n}")]);
        assert_eq!(got.len(), 1);
        assert!(notes[0].contains("MAPINFO at offset") && notes[0].contains("line 3"), "{notes:?}");
        let (_, notes) = read(&[("MAPINFO", "include \"MAPINFO\"")]);
        assert!(notes[0].contains("too deep"), "{notes:?}");
    }
}
