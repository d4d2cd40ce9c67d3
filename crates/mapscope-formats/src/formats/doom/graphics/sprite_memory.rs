//! The things of a level as vanilla's renderer holds them for `R_ProjectSprite` and
//! `R_DrawVisSprite`: each spawned thing's fixed-point position, facing, sector and frame, and
//! the sprite patch lumps' own bytes. `R_DrawMaskedColumn` walks a patch column's posts as
//! they lie in the lump (their headers, lengths past the picture's height, the byte after a
//! post's last texel that a row rounded to -1 reads), so the canvas draws from the bytes,
//! not from the decoded picture.

use std::collections::HashMap;
use std::sync::Arc;

use super::sprites::{SpriteFrame, SpritePicture};
use crate::formats::doom::archive::wad::WadStack;
use crate::limits::doom::MAX_SPRITE_BYTES;
use crate::scene::doom::vanilla::{SpritePatch, VSpriteFrame, VThing, VanillaThings};
use crate::scene::{Texels, Texture};

/// Collects the things and the patches they draw from while the level builder spawns them.
#[derive(Default)]
pub struct SpriteMemory {
    things: VanillaThings,
    patch_of: HashMap<SpritePicture, u32>,
    frame_of: HashMap<[Option<(SpritePicture, bool)>; 8], u32>,
    bytes: usize,
}

impl SpriteMemory {
    /// The frame index of `frame`; `picture(view)` gives the decoded picture of a view that
    /// is not a readable Doom patch lump (a PNG, a TEXTURES sprite), whose posts are then
    /// made from its texels.
    pub fn frame(
        &mut self,
        stack: &WadStack,
        frame: &SpriteFrame,
        mut picture: impl FnMut(SpritePicture) -> Option<Texture>,
    ) -> u32 {
        // A rotation without a lump (vanilla refuses such frames) shows the first there is.
        let fallback = frame.first_picture();
        let views: [Option<(SpritePicture, bool)>; 8] = std::array::from_fn(|r| {
            let r = if frame.rotates { r } else { 0 };
            frame.pictures[r].or(fallback).map(|l| (l, frame.mirrored[r]))
        });
        if let Some(&i) = self.frame_of.get(&views) {
            return i;
        }
        let mut out = VSpriteFrame { rotate: frame.rotates, ..Default::default() };
        for (r, view) in views.iter().enumerate() {
            let Some((view, flip)) = *view else { continue };
            out.patches[r] = self.patch(stack, view, &mut picture);
            out.flip[r] = flip;
        }
        let i = self.things.frames.len() as u32;
        self.things.frames.push(out);
        self.frame_of.insert(views, i);
        i
    }

    fn patch(
        &mut self,
        stack: &WadStack,
        view: SpritePicture,
        picture: &mut impl FnMut(SpritePicture) -> Option<Texture>,
    ) -> u32 {
        if let Some(&i) = self.patch_of.get(&view) {
            return i;
        }
        let data = match view {
            SpritePicture::Lump(lump) => stack.lump_at(lump).map_or(&[][..], |l| l.data),
            SpritePicture::Defined(_) => &[][..],
        };
        let read = (self.bytes + data.len() <= MAX_SPRITE_BYTES)
            .then(|| read_patch(data))
            .flatten()
            .map(|p| (p, Arc::<[u8]>::from(data)));
        let (mut patch, bytes) = match read {
            Some(found) => found,
            None => {
                let encoded = picture(view).map(|t| encode_patch(&t)).unwrap_or_default();
                let patch = read_patch(&encoded).unwrap_or_default();
                (patch, Arc::from(encoded))
            }
        };
        self.bytes += bytes.len();
        patch.block = self.things.blocks.len() as u32;
        self.things.blocks.push(bytes);
        let i = self.things.patches.len() as u32;
        self.things.patches.push(patch);
        self.patch_of.insert(view, i);
        i
    }

    /// Adds a spawned thing (in spawn order).
    pub fn add_thing(&mut self, thing: VThing) {
        self.things.things.push(thing);
    }

    /// The things, linked into the level's `sectors` sectors.
    pub fn finish(mut self, sectors: usize) -> VanillaThings {
        self.things.link(sectors);
        self.things
    }
}

/// A Doom-format patch's header and column offsets, bounds-checked: a positive width whose
/// column offsets all lie inside the lump (`None` for a PNG or a broken lump).
fn read_patch(data: &[u8]) -> Option<SpritePatch> {
    if data.starts_with(b"\x89PNG") {
        return None;
    }
    let short = |at: usize| -> Option<i32> {
        let b = data.get(at..at + 2)?;
        Some(i16::from_le_bytes([b[0], b[1]]) as i32)
    };
    let (width, left_offset, top_offset) = (short(0)?, short(4)?, short(6)?);
    if width <= 0 {
        return None;
    }
    let columns = (0..width as usize)
        .map(|c| {
            let at = 8 + c * 4;
            let b = data.get(at..at + 4)?;
            let ofs = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            ((ofs as usize) < data.len()).then_some(ofs)
        })
        .collect::<Option<Vec<u32>>>()?;
    Some(SpritePatch { width, left_offset, top_offset, block: 0, columns })
}

/// A Doom-format patch lump made from a picture: each column's runs of opaque texels as
/// posts (rows past 254, which a post's one-byte top cannot reach, are left out).
fn encode_patch(t: &Texture) -> Vec<u8> {
    let (w, h) = (t.width.clamp(1, i16::MAX as u32) as usize, t.height as usize);
    let texel = |x: usize, y: usize| -> Option<u8> {
        let i = y * t.width as usize + x;
        match &t.texels {
            Texels::Indexed { index, opaque } => {
                let shown = opaque.is_empty() || opaque.get(i).copied().unwrap_or(false);
                index.get(i).copied().filter(|_| shown)
            }
            Texels::Rgba(_) => None,
        }
    };
    let mut out = Vec::new();
    for v in [w as i32, h as i32, t.origin.0, t.origin.1] {
        out.extend_from_slice(&(v.clamp(i16::MIN as i32, i16::MAX as i32) as i16).to_le_bytes());
    }
    let table = out.len();
    out.resize(table + 4 * w, 0);
    for x in 0..w {
        let at = out.len() as u32;
        out[table + 4 * x..table + 4 * x + 4].copy_from_slice(&at.to_le_bytes());
        let mut y = 0;
        while y < h.min(255) {
            if texel(x, y).is_none() {
                y += 1;
                continue;
            }
            let start = y;
            while y < h.min(255) && y - start < 255 && texel(x, y).is_some() {
                y += 1;
            }
            out.extend_from_slice(&[start as u8, (y - start) as u8, 0]);
            out.extend((start..y).map(|r| texel(x, r).unwrap_or(0)));
            out.push(0);
        }
        out.push(0xFF);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_become_posts_of_their_opaque_runs() {
        // 2x4: column 0 opaque at rows 1-2, column 1 at rows 0 and 3.
        let t = Texture {
            name: "T".into(),
            width: 2,
            height: 4,
            origin: (1, 4),
            texels: Texels::Indexed {
                index: vec![0, 5, 6, 0, 7, 0, 0, 8],
                opaque: vec![false, true, true, false, true, false, false, true],
            },
            palette: 0,
        };
        let bytes = encode_patch(&t);
        let p = read_patch(&bytes).unwrap();
        assert_eq!((p.width, p.left_offset, p.top_offset), (2, 1, 4));
        let col = |c: usize| &bytes[p.columns[c] as usize..];
        assert_eq!(col(0)[..6], [1, 2, 0, 6, 7, 0]);
        assert_eq!(col(0)[6], 0xFF);
        assert_eq!(col(1)[..11], [0, 1, 0, 5, 0, 3, 1, 0, 8, 0, 0xFF]);
        // A lump whose column offsets point past its end is not read as a patch.
        let mut broken = bytes.clone();
        broken[8] = 200;
        assert!(read_patch(&broken).is_none());
        assert!(read_patch(&bytes[..5]).is_none());
    }
}
