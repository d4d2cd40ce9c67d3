//! Sprite frames from lump names (spec chapter 5, vanilla `R_InitSpriteDefs`): `SSSSFR` is
//! sprite `SSSS`, frame letter `F`, rotation `R` (0 = one view for all angles, 1..8 = seen
//! from the front, then counter-clockwise); `SSSSFRFR` adds a second frame/rotation drawn
//! mirrored (e.g. `TROOA2A8`: rotation 2, and rotation 8 mirrored).

use std::collections::HashMap;

use super::wad::{LumpNum, WadStack};

/// One frame of a sprite: the lump and mirroring for each of the 8 rotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpriteFrame {
    /// True when the frame has 8 views; false when rotation 0 serves all angles.
    pub rotates: bool,
    pub lumps: [Option<LumpNum>; 8],
    pub mirrored: [bool; 8],
}

impl SpriteFrame {
    fn install(&mut self, rotation: u8, lump: LumpNum, mirrored: bool) {
        if rotation == 0 {
            // A later rot-0 lump replaces any rotations (vanilla would stop with an error).
            *self = SpriteFrame { rotates: false, lumps: [Some(lump); 8], mirrored: [mirrored; 8] };
        } else {
            if !self.rotates {
                *self = SpriteFrame { rotates: true, ..Default::default() };
            }
            let r = (rotation - 1) as usize;
            self.lumps[r] = Some(lump);
            self.mirrored[r] = mirrored;
        }
    }

    /// Rotations that no lump covers (vanilla refuses such frames).
    pub fn missing_rotations(&self) -> usize {
        self.lumps.iter().filter(|l| l.is_none()).count()
    }
}

/// Every sprite frame found between S_START and S_END.
#[derive(Clone, Debug, Default)]
pub struct SpriteDirectory {
    frames: HashMap<([u8; 4], u8), SpriteFrame>,
    pub notes: Vec<String>,
}

impl SpriteDirectory {
    /// Indexes the sprite namespace; lumps later in the merged list override earlier ones
    /// for the same frame and rotation.
    pub fn new(stack: &WadStack) -> SpriteDirectory {
        let mut dir = SpriteDirectory::default();
        for entry in stack.sprites().entries() {
            if entry.is_marker {
                continue;
            }
            let b = entry.name.as_bytes();
            if b.len() != 6 && b.len() != 8 {
                dir.notes.push(format!("sprite lump {} has a malformed name", entry.name));
                continue;
            }
            let sprite = [b[0], b[1], b[2], b[3]];
            let mut install = |frame: u8, rot: u8, mirrored: bool| {
                let frame_ok = (b'A'..=b']').contains(&frame);
                if !frame_ok || !(b'0'..=b'8').contains(&rot) {
                    dir.notes.push(format!("sprite lump {} has bad frame characters", entry.name));
                    return;
                }
                dir.frames.entry((sprite, frame)).or_default().install(
                    rot - b'0',
                    entry.lump,
                    mirrored,
                );
            };
            install(b[4], b[5], false);
            if b.len() == 8 {
                install(b[6], b[7], true);
            }
        }
        dir
    }

    /// The frame `letter` ('A'..) of sprite `name` (4 letters).
    pub fn frame(&self, name: &str, letter: u8) -> Option<&SpriteFrame> {
        let b = name.as_bytes();
        if b.len() != 4 {
            return None;
        }
        self.frames.get(&([b[0], b[1], b[2], b[3]], letter.to_ascii_uppercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::wad::{Wad, WadStack};
    use crate::formats::doom::writer::WadWriter;

    #[test]
    fn rotations_and_mirrored_pairs() {
        let mut w = WadWriter::iwad();
        w.marker("S_START");
        for n in ["TROOA1", "TROOA2A8", "TROOA3A7", "TROOA4A6", "TROOA5", "BAR1A0", "TROOB1"] {
            w.lump(n, vec![0; 8]);
        }
        w.marker("S_END");
        let stack = WadStack::new(vec![Wad::from_bytes("s.wad", w.to_bytes()).unwrap()]);
        let dir = SpriteDirectory::new(&stack);
        let a = dir.frame("TROO", b'A').unwrap();
        assert!(a.rotates);
        assert_eq!(a.missing_rotations(), 0);
        assert_eq!(a.lumps[1], a.lumps[7]);
        assert!(!a.mirrored[1] && a.mirrored[7]);
        let bar = dir.frame("BAR1", b'a').unwrap();
        assert!(!bar.rotates);
        assert_eq!(bar.missing_rotations(), 0);
        assert_eq!(dir.frame("TROO", b'B').unwrap().missing_rotations(), 7);
        assert!(dir.frame("TROO", b'C').is_none());
    }
}
