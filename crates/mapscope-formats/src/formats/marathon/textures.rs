//! Scene textures and palette from the Shapes file: one 256-entry palette block per
//! (collection, colour table) in use, textures kept in storage-line order, and the 16-bit
//! colour table values the shading family builds its shading tables from. Without a Shapes
//! file (or for a shape it lacks) each descriptor gets a flat colour of its own.

use std::collections::HashMap;

use super::definitions::Descriptor;
use super::shapes::{Collection, ColorEntry, ShapesFile, FRAME_X_MIRRORED};
use crate::scene::{Texels, Texture};

/// Words of `tables` before the per-palette-entry colours.
pub const TABLE_HEADER_WORDS: usize = 4;
/// `tables[1]` flag: colours come from a Shapes file (shading tables apply).
pub const TABLE_FLAG_SHAPES: u32 = 1;

/// A billboard's picture: texture, scale and mirroring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpriteShape {
    pub texture: u32,
    /// World units per texel.
    pub scale: f32,
    pub mirrored: bool,
}

pub struct TextureSet<'s> {
    shapes: Option<&'s ShapesFile<'s>>,
    collections: HashMap<usize, Option<Collection<'s>>>,
    blocks: HashMap<(usize, usize), u32>,
    by_frame: HashMap<u16, Option<u32>>,
    flat_colours: HashMap<u16, u32>,
    pub palette: Vec<[u8; 3]>,
    colors16: Vec<ColorEntry>,
    /// Per palette entry: entries its colour table defines (values 0..n), for static noise.
    block_len: Vec<u16>,
    pub textures: Vec<Texture>,
    /// Texture has transparent texels.
    pub masked: Vec<bool>,
    pub notes: Vec<String>,
}

impl<'s> TextureSet<'s> {
    pub fn new(shapes: Option<&'s ShapesFile<'s>>) -> TextureSet<'s> {
        TextureSet {
            shapes,
            collections: HashMap::new(),
            blocks: HashMap::new(),
            by_frame: HashMap::new(),
            flat_colours: HashMap::new(),
            palette: Vec::new(),
            colors16: Vec::new(),
            block_len: Vec::new(),
            textures: Vec::new(),
            masked: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The texture of a wall, floor or ceiling descriptor (frame index in the low byte).
    pub fn surface(&mut self, d: Descriptor) -> u32 {
        self.frame_cached(d).unwrap_or_else(|| self.flat(d))
    }

    fn frame_cached(&mut self, d: Descriptor) -> Option<u32> {
        if let Some(&t) = self.by_frame.get(&d.0) {
            return t;
        }
        let t = self.frame_texture(d);
        self.by_frame.insert(d.0, t);
        t
    }

    /// The first frame of view 0 of a sequence descriptor, as a billboard.
    pub fn sprite(&mut self, sequence: Descriptor) -> Option<SpriteShape> {
        let c = self.collection(sequence.collection())?;
        let seq = c.sequences.get(sequence.shape())?;
        let frame_index = usize::try_from(seq.first_frame?).ok()?;
        let frame = *c.frames.get(frame_index)?;
        let ptw = if seq.pixels_to_world > 0 { seq.pixels_to_world } else { c.pixels_to_world };
        let frame_desc = Descriptor(
            (sequence.0 & 0xFF00) | u16::try_from(frame_index).ok().filter(|&f| f < 256)?,
        );
        let texture = self.frame_cached(frame_desc)?;
        self.textures[texture as usize].origin = (frame.origin.0 as i32, frame.origin.1 as i32);
        Some(SpriteShape {
            texture,
            scale: ptw.max(1) as f32,
            mirrored: frame.flags & FRAME_X_MIRRORED != 0,
        })
    }

    fn collection(&mut self, i: usize) -> Option<&Collection<'s>> {
        let shapes = self.shapes?;
        if !self.collections.contains_key(&i) {
            let c = match shapes.collection(i) {
                Ok(Some(c)) => Some(c),
                Ok(None) => {
                    self.notes.push(format!("Shapes file has no collection {i}"));
                    None
                }
                Err(e) => {
                    self.notes.push(format!("collection {i} skipped: {e}"));
                    None
                }
            };
            self.collections.insert(i, c);
        }
        self.collections.get(&i)?.as_ref()
    }

    /// Decodes the bitmap a frame names, in the colour table the descriptor picks.
    fn frame_texture(&mut self, d: Descriptor) -> Option<u32> {
        let (ci, clut) = (d.collection(), d.clut());
        let c = self.collection(ci)?;
        let Some(frame) = c.frames.get(d.shape()).copied() else {
            self.notes.push(format!("collection {ci} has no frame {}", d.shape()));
            return None;
        };
        let bitmap_index = usize::try_from(frame.bitmap).ok()?;
        let bitmap = match c.bitmap(bitmap_index) {
            Ok(b) => b,
            Err(e) => {
                self.notes.push(format!("bitmap {bitmap_index} of collection {ci} skipped: {e}"));
                return None;
            }
        };
        let tables = c.color_tables.len();
        let table = if clut < tables { clut } else { 0 };
        let entries = c.color_tables.get(table)?.clone();
        let base = self.block(ci, table, &entries);
        let masked = !bitmap.opaque.is_empty();
        self.textures.push(Texture {
            name: format!("0x{:04X}", d.0),
            width: bitmap.lines as u32,
            height: bitmap.line_length as u32,
            origin: (0, 0),
            texels: Texels::Indexed { index: bitmap.pixels, opaque: bitmap.opaque },
            palette: base,
        });
        self.masked.push(masked);
        Some(self.textures.len() as u32 - 1)
    }

    /// Palette base of a colour table: entry `value` of the table lands at base + value.
    fn block(&mut self, collection: usize, table: usize, entries: &[ColorEntry]) -> u32 {
        if let Some(&b) = self.blocks.get(&(collection, table)) {
            return b;
        }
        let base = self.palette.len() as u32;
        let empty = ColorEntry { flags: 0, value: 0, rgb16: [0; 3] };
        let mut block = vec![None; 256];
        for e in entries {
            block[e.value as usize].get_or_insert(*e);
        }
        let defined = block.iter().rposition(Option::is_some).map_or(1, |i| i as u16 + 1);
        for e in block {
            let e = e.unwrap_or(empty);
            self.palette.push(e.rgb8());
            self.colors16.push(e);
            self.block_len.push(defined);
        }
        self.blocks.insert((collection, table), base);
        base
    }

    /// A one-texel texture in a colour of its own, for descriptors with no picture.
    fn flat(&mut self, d: Descriptor) -> u32 {
        if let Some(&t) = self.flat_colours.get(&d.0) {
            return t;
        }
        let base = self.palette.len() as u32;
        // Spread descriptors over well separated hues.
        let h = (d.0 as u32).wrapping_mul(2_654_435_761) >> 8;
        let rgb = [0, 8, 16].map(|shift| 64 + ((h >> shift) & 0x7F) as u8);
        self.palette.push(rgb);
        self.colors16.push(ColorEntry { flags: 0, value: 0, rgb16: rgb.map(|c| c as u16 * 257) });
        self.block_len.push(1);
        self.textures.push(Texture {
            name: format!("0x{:04X} (flat)", d.0),
            width: 1,
            height: 1,
            origin: (0, 0),
            texels: Texels::Indexed { index: vec![0], opaque: Vec::new() },
            palette: base,
        });
        self.masked.push(false);
        let t = self.textures.len() as u32 - 1;
        self.flat_colours.insert(d.0, t);
        t
    }

    /// The shading family's tables: header, then per palette entry (r16 | g16 << 16) and
    /// (b16 | flags << 16 | (defined entries of its table - 1) << 24).
    pub fn tables(&self) -> Vec<u32> {
        let flags = if self.shapes.is_some() { TABLE_FLAG_SHAPES } else { 0 };
        let mut t = vec![TABLE_HEADER_WORDS as u32, flags, self.colors16.len() as u32, 0];
        for (e, &n) in self.colors16.iter().zip(&self.block_len) {
            t.push(e.rgb16[0] as u32 | (e.rgb16[1] as u32) << 16);
            t.push(e.rgb16[2] as u32 | (e.flags as u32) << 16 | (n.saturating_sub(1) as u32) << 24);
        }
        t
    }
}
