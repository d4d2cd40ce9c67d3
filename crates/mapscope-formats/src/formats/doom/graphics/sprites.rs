//! Sprite frames from lump names (spec chapter 5, vanilla `R_InitSpriteDefs`): `SSSSFR` is
//! sprite `SSSS`, frame letter `F`, rotation `R` (0 = one view for all angles, 1..8 = seen
//! from the front, then counter-clockwise); `SSSSFRFR` adds a second frame/rotation drawn
//! mirrored (e.g. `TROOA2A8`: rotation 2, and rotation 8 mirrored).
//!
//! GZDoom takes frames from every texture of sprite use, so a TEXTURES `Sprite` definition
//! named like a sprite lump defines or replaces that frame (see
//! [`SpriteDirectory::install_definitions`]).

use std::collections::HashMap;

use super::textures::TextureDirectory;
use crate::formats::doom::archive::wad::{LumpNum, WadStack};

/// What one view of a frame shows: a sprite lump, or a TEXTURES sprite definition (its index
/// in [`TextureDirectory::sprite_defs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpritePicture {
    Lump(LumpNum),
    Defined(usize),
}

/// One frame of a sprite: the picture and mirroring for each of the 8 rotations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpriteFrame {
    /// True when the frame has 8 views; false when rotation 0 serves all angles.
    pub rotates: bool,
    pub pictures: [Option<SpritePicture>; 8],
    pub mirrored: [bool; 8],
}

impl SpriteFrame {
    fn install(&mut self, rotation: u8, picture: SpritePicture, mirrored: bool) {
        if rotation == 0 {
            // A later rot-0 lump replaces any rotations (vanilla would stop with an error).
            *self = SpriteFrame {
                rotates: false,
                pictures: [Some(picture); 8],
                mirrored: [mirrored; 8],
            };
        } else {
            if !self.rotates {
                *self = SpriteFrame { rotates: true, ..Default::default() };
            }
            let r = (rotation - 1) as usize;
            self.pictures[r] = Some(picture);
            self.mirrored[r] = mirrored;
        }
    }

    /// Rotations that no picture covers (vanilla refuses such frames).
    pub fn missing_rotations(&self) -> usize {
        self.pictures.iter().filter(|l| l.is_none()).count()
    }

    /// The picture the first rotation that has one shows (what a missing rotation shows).
    pub fn first_picture(&self) -> Option<SpritePicture> {
        self.pictures.iter().flatten().next().copied()
    }
}

/// The sprite, and each (frame letter, rotation, mirrored) view, a lump name gives.
type NamedViews = ([u8; 4], Vec<(u8, u8, bool)>);

/// Reads a sprite lump's name; `Err` says what is wrong with it.
fn parse_name(name: &str) -> Result<NamedViews, &'static str> {
    let b = name.as_bytes();
    if b.len() != 6 && b.len() != 8 {
        return Err("a malformed name");
    }
    let mut views = vec![(b[4], b[5], false)];
    if b.len() == 8 {
        views.push((b[6], b[7], true));
    }
    let bad = |&(frame, rot, _): &(u8, u8, bool)| {
        !(b'A'..=b']').contains(&frame) || !(b'0'..=b'8').contains(&rot)
    };
    if views.iter().any(bad) {
        return Err("bad frame characters");
    }
    Ok(([b[0], b[1], b[2], b[3]], views))
}

/// Every sprite frame found between S_START and S_END (and in TEXTURES, once installed).
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
            match parse_name(&entry.name) {
                Ok((sprite, views)) => {
                    for (frame, rot, mirrored) in views {
                        dir.frames.entry((sprite, frame)).or_default().install(
                            rot - b'0',
                            SpritePicture::Lump(entry.lump),
                            mirrored,
                        );
                    }
                }
                Err(why) => dir.notes.push(format!("sprite lump {} has {why}", entry.name)),
            }
        }
        dir
    }

    /// Adds the TEXTURES `Sprite` definitions of `textures` as frames by their names, over
    /// the sprite lumps of the same or earlier files (GZDoom adds a file's TEXTURES after
    /// its sprites); a sprite lump of a later file keeps its place.
    pub fn install_definitions(&mut self, stack: &WadStack, textures: &TextureDirectory) {
        let file_of = |p: Option<SpritePicture>| match p {
            Some(SpritePicture::Lump(l)) => stack.file_of(l),
            _ => None,
        };
        for (i, sprite) in textures.sprite_defs.iter().enumerate() {
            let def = &sprite.def;
            let (name, views) = match parse_name(&def.name) {
                Ok(found) => found,
                Err(why) => {
                    self.notes.push(format!("TEXTURES sprite {} has {why}: not used", def.name));
                    continue;
                }
            };
            for (frame, rot, mirrored) in views {
                let existing = self.frames.entry((name, frame)).or_default();
                let slot = if rot == b'0' {
                    existing.first_picture()
                } else {
                    existing.pictures[(rot - b'1') as usize]
                };
                if file_of(slot).is_some_and(|f| f > def.file) {
                    continue;
                }
                existing.install(rot - b'0', SpritePicture::Defined(i), mirrored);
            }
        }
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
    use crate::formats::doom::archive::wad::{Wad, WadStack};
    use crate::formats::doom::archive::writer::WadWriter;

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
        assert_eq!(a.pictures[1], a.pictures[7]);
        assert!(!a.mirrored[1] && a.mirrored[7]);
        let bar = dir.frame("BAR1", b'a').unwrap();
        assert!(!bar.rotates);
        assert_eq!(bar.missing_rotations(), 0);
        assert_eq!(dir.frame("TROO", b'B').unwrap().missing_rotations(), 7);
        assert!(dir.frame("TROO", b'C').is_none());
    }
}
