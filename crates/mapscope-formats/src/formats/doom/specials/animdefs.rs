//! ZDoom's `ANIMDEFS` lumps: the texture and flat animations GZDoom adds to the game's (vanilla
//! or `ANIMATED`), as `animations.cpp` (FTextureAnimator::ParseAnim) reads them.
//!
//! Facts relied on:
//! - `flat|texture NAME range LAST tics N` cycles every picture from NAME to LAST in lockstep,
//!   as vanilla's cycles do; `rand MIN MAX` in place of `tics N` draws each frame for a random
//!   time (read here as MIN: a viewer's clock must repeat).
//! - `flat|texture NAME` followed by `pic P tics N` lines animates NAME alone through the
//!   frames P (a number counts from NAME, 1 being NAME itself; or a name). Frames that are the
//!   pictures from NAME on, one after the other with equal tics, are the same cycle as a range
//!   (its other pictures then cycle too, which GZDoom does not do); other frame lists are not
//!   drawn (`info` says so).
//! - `oscillate` runs a cycle back and forth (drawn forward here); `allowdecals` changes
//!   nothing seen. Lumps are read in load order; a later definition of a picture's animation
//!   replaces the earlier (vanilla's and `ANIMATED`'s too).
//! - Other statements (`warp flat|texture NAME ...`, `warp2`, `switch`, `animateddoor`,
//!   `cameratexture`, `canvastexture`, `skyoffset`) are skipped up to the next one.

use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::script_tokens::{Scanner, Token};
use crate::formats::Result;

/// A frame of a `pic` animation: a number counted from the animated picture (1: itself), or
/// a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pic {
    Number(u32),
    Name(String),
}

/// What an animation cycles through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frames {
    Range { last: String, tics: u32 },
    Pics(Vec<(Pic, u32)>),
}

/// One `flat` or `texture` animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnimdefsEntry {
    pub is_texture: bool,
    pub name: String,
    pub frames: Frames,
    pub oscillate: bool,
}

/// Statements that start a new definition.
const STATEMENTS: [&str; 9] = [
    "flat",
    "texture",
    "warp",
    "warp2",
    "switch",
    "animateddoor",
    "cameratexture",
    "canvastexture",
    "skyoffset",
];

/// Every `ANIMDEFS` lump's animations, in load order; a lump that does not read is a note and
/// adds what came before the error.
pub fn animdefs(stack: &WadStack, notes: &mut Vec<String>) -> Vec<AnimdefsEntry> {
    let mut out = Vec::new();
    for (_, num) in stack.global_lumps_named("ANIMDEFS") {
        let Some(lump) = stack.lump_at(num) else { continue };
        let parsed = Scanner::new(&lump, "ANIMDEFS").and_then(|mut s| parse(&mut s, &mut out));
        if let Err(e) = parsed {
            notes.push(format!("{e}; the rest of that lump is not read"));
        }
    }
    out
}

fn is_statement(t: &Token) -> bool {
    STATEMENTS.iter().any(|k| t.is_word(k))
}

fn parse(s: &mut Scanner<'_>, out: &mut Vec<AnimdefsEntry>) -> Result<()> {
    while let Some(t) = s.next_token()? {
        let is_texture = t.is_word("texture");
        if !(is_texture || t.is_word("flat")) {
            // A warp names its picture's use and name, which are no statement of their own.
            if t.is_word("warp") || t.is_word("warp2") {
                s.expect_text("'flat' or 'texture'")?;
                s.expect_text("the warped picture")?;
            }
            // Skipped: everything up to the next statement.
            while s.peek()?.is_some_and(|t| !is_statement(t)) {
                s.next_token()?;
            }
            continue;
        }
        let (name, _) = s.expect_text("a picture name")?;
        let mut entry =
            AnimdefsEntry { is_texture, name, frames: Frames::Pics(Vec::new()), oscillate: false };
        let mut pics = Vec::new();
        while let Some(t) = s.peek()?.cloned() {
            if t.is_word("range") {
                s.next_token()?;
                let (last, _) = s.expect_text("the range's last picture")?;
                let tics = duration(s)?;
                entry.frames = Frames::Range { last, tics };
            } else if t.is_word("pic") {
                s.next_token()?;
                let (p, _) = s.expect_text("a frame")?;
                let pic = match p.parse::<u32>() {
                    Ok(n) => Pic::Number(n),
                    Err(_) => Pic::Name(p),
                };
                pics.push((pic, duration(s)?));
            } else if t.is_word("oscillate") {
                s.next_token()?;
                entry.oscillate = true;
            } else if t.is_word("allowdecals") {
                s.next_token()?;
            } else {
                break;
            }
        }
        if matches!(entry.frames, Frames::Pics(_)) {
            if pics.is_empty() {
                // A name with no frames animates nothing.
                continue;
            }
            entry.frames = Frames::Pics(pics);
        }
        out.push(entry);
    }
    Ok(())
}

/// `tics N`, or `rand MIN MAX` read as MIN; at least 1.
fn duration(s: &mut Scanner<'_>) -> Result<u32> {
    let t = s.expect_any("'tics' or 'rand'")?;
    let tics = if t.is_word("tics") {
        s.expect_int("the tics")?
    } else if t.is_word("rand") {
        let min = s.expect_int("the shortest tics")?;
        s.expect_int("the longest tics")?;
        min
    } else {
        return Err(s.error_on(&t, format!("expected 'tics' or 'rand', found {}", t.describe())));
    };
    Ok(tics.clamp(1, u32::MAX as i64) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::Wad;
    use crate::formats::doom::archive::writer::WadWriter;

    fn read(text: &str) -> (Vec<AnimdefsEntry>, Vec<String>) {
        let mut w = WadWriter::pwad();
        w.lump("ANIMDEFS", text.as_bytes().to_vec());
        let stack = WadStack::new(vec![Wad::from_bytes("a.wad", w.to_bytes()).unwrap()]);
        let mut notes = Vec::new();
        (animdefs(&stack, &mut notes), notes)
    }

    #[test]
    fn ranges_pics_and_skipped_statements() {
        let text = "// water\nflat FWATER1 range FWATER4 tics 8\n\
                    warp flat NUKAGE1 speed 2\n\
                    switch doom 1 SW1BRCOM on pic SW2BRCOM tics 0 off pic SW1BRCOM tics 0\n\
                    texture SLADRIP1 pic 1 tics 4 pic 2 rand 4 8 pic SLADRIP3 tics 4 oscillate\n\
                    cameratexture CAMTEX 128 128\n\
                    texture BLODGR1 range BLODGR4 rand 3 9 allowdecals";
        let (e, notes) = read(text);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(e.len(), 3);
        assert_eq!(
            (e[0].is_texture, &e[0].name[..], &e[0].frames),
            (false, "FWATER1", &Frames::Range { last: "FWATER4".into(), tics: 8 })
        );
        let pics =
            vec![(Pic::Number(1), 4), (Pic::Number(2), 4), (Pic::Name("SLADRIP3".into()), 4)];
        assert_eq!((&e[1].frames, e[1].oscillate), (&Frames::Pics(pics), true));
        assert_eq!(e[2].frames, Frames::Range { last: "BLODGR4".into(), tics: 3 });
    }

    #[test]
    fn a_broken_lump_keeps_what_came_before() {
        let (e, notes) = read("flat A1 range A3 tics 8\nflat B1 range B3 speed 8");
        assert_eq!(e.len(), 1);
        assert!(notes.iter().any(|n| n.contains("ANIMDEFS") && n.contains("'tics'")), "{notes:?}");
    }
}
