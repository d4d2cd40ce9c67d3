//! Wall textures: PNAMES (patch names) and TEXTURE1/TEXTURE2 (textures composed of patches),
//! read by one of two rules ([`TextureRules`]). Vanilla's (`R_InitTextures`): the last PNAMES,
//! TEXTURE1 and TEXTURE2 of the stack, numbered TEXTURE1's entries then TEXTURE2's, so a
//! PWAD's TEXTURE1 replaces the IWAD's whole table. ZDoom's (`FTextureManager::LoadTextureX`):
//! every file's TEXTURE1 and TEXTURE2, in load order, each read with the last PNAMES of that
//! file or of the files before it, appended after the earlier files' textures; a name a later
//! file defines again is that file's texture for lookups by name, while the earlier entry
//! keeps its number (animation ranges go by number, as GZDoom's do). Then what GZDoom adds on
//! top, file by file in load order, each file's additions in GZDoom's order
//! (`AddTexturesForWad`, then sorted by type): `WallTexture` and `Flat` definitions from its
//! TEXTURES lumps, the pictures between its `TX_START` and `TX_END` (a package's
//! `textures/`), then its `Texture` definitions. An addition replaces the wall texture (and,
//! for pictures and `Texture`, the flat) of its name in place, keeping the number that
//! animations and "texture 0" depend on, unless a later file defined that name; new names are
//! appended.
//!
//! The types are here; reading is split by concern: `parsing` reads the lumps (PNAMES,
//! TEXTURE1/TEXTURE2, TEXTURES with its `#include`s), `lookup` holds the rules above (which
//! tables are read, which definition a name resolves to, what replaces what), and
//! `compositing` draws a definition's patches into texels.

use std::collections::HashMap;

use crate::formats::doom::archive::wad::LumpNum;

mod compositing;
mod lookup;
mod parsing;

#[cfg(test)]
mod tests;

pub use compositing::{placeholder, PatchCache, PatchKey};

/// What a placement draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchRef {
    /// Index into PNAMES (TEXTURE1/2).
    Pnames(u16),
    /// A name from TEXTURES: a patch or other picture lump, else a texture, else a flat,
    /// else a package member by path.
    Named(String),
    /// A lump used whole: a picture in `textures/` or between `TX_START` and `TX_END`.
    Lump(LumpNum),
}

/// One patch placed in a texture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatchPlacement {
    pub x: i32,
    pub y: i32,
    pub patch: PatchRef,
    /// Mirrored left to right, then turned `turns` quarter turns clockwise (TEXTURES).
    pub flip_x: bool,
    pub turns: u8,
    /// Placed by the picture's own offsets (TEXTURES `UseOffsets`).
    pub use_offsets: bool,
}

impl PatchPlacement {
    fn at(x: i32, y: i32, patch: PatchRef) -> PatchPlacement {
        PatchPlacement { x, y, patch, flip_x: false, turns: 0, use_offsets: false }
    }
}

/// Where a texture definition comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefSource {
    /// TEXTURE1/TEXTURE2: vanilla rules, the width masked to a power of two.
    TextureX,
    /// A TEXTURES lump (`optional` when it said so).
    TexturesLump { optional: bool },
    /// A whole picture (`textures/`, `TX_START`).
    Picture,
}

/// A texture definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureDef {
    /// Upper-cased name.
    pub name: String,
    pub width: u16,
    pub height: u16,
    pub patches: Vec<PatchPlacement>,
    /// Why the entry could not be read (it then draws as a placeholder).
    pub broken: Option<String>,
    /// Never drawn, like texture number 0 (TEXTURES `NullTexture`, or a size of 0).
    pub null: bool,
    pub source: DefSource,
    /// The file of the stack that defined it.
    pub file: usize,
    /// The PNAMES table (in [`TextureDirectory::pnames`]) its `Pnames` patches index.
    pub pnames: usize,
    /// The first entry of a file's TEXTURE1 under ZDoom's rules (GZDoom's `FirstDefined`):
    /// like vanilla's texture 0, walls naming it draw nothing.
    pub first_defined: bool,
    /// TEXTURES `XScale` / `YScale` and `WorldPanning`: how many texels a map unit spans.
    pub scale: TextureScale,
}

/// A texture's own scale (GZDoom's `Scale`): texels per map unit along x and y, in 16.16 so
/// that definitions compare exactly; `world_panning` puts offsets in map units instead of
/// texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureScale {
    pub x: i32,
    pub y: i32,
    pub world_panning: bool,
}

impl Default for TextureScale {
    fn default() -> Self {
        TextureScale { x: 1 << 16, y: 1 << 16, world_panning: false }
    }
}

impl TextureScale {
    /// From the scales a TEXTURES definition gives (kept to 1/65536..32767).
    pub fn from_units(x: f64, y: f64, world_panning: bool) -> TextureScale {
        let fixed = |v: f64| (v.abs() * 65536.0).round().clamp(1.0, i32::MAX as f64) as i32;
        TextureScale { x: fixed(x), y: fixed(y), world_panning }
    }

    pub fn is_unit(&self) -> bool {
        *self == TextureScale::default()
    }

    /// Texels per map unit, x and y.
    pub fn units(&self) -> [f64; 2] {
        [self.x as f64 / 65536.0, self.y as f64 / 65536.0]
    }
}

impl TextureDef {
    /// Width the game can show. Vanilla masks the column with the largest power of two not
    /// above the width (`texturewidthmask`), so a 96-wide TEXTURE1 texture shows columns
    /// 0..63 only; GZDoom's own definitions show their whole width.
    pub fn visible_width(&self) -> u16 {
        if self.width == 0 || self.source != DefSource::TextureX {
            return self.width;
        }
        1 << (15 - self.width.leading_zeros())
    }

    /// A texture that is one picture (lump `num`, `width` x `height`), as GZDoom makes of a
    /// `TX_START` or `hires/` picture.
    fn picture(
        name: String,
        (width, height): (u16, u16),
        num: usize,
        file: usize,
        scale: TextureScale,
    ) -> TextureDef {
        TextureDef {
            name,
            width,
            height,
            patches: vec![PatchPlacement::at(0, 0, PatchRef::Lump(num))],
            broken: None,
            null: false,
            source: DefSource::Picture,
            file,
            pnames: 0,
            first_defined: false,
            scale,
        }
    }

    fn broken(name: &str, file: usize, source: DefSource, why: String) -> TextureDef {
        TextureDef {
            name: name.to_string(),
            width: 64,
            height: 64,
            patches: Vec::new(),
            broken: Some(why),
            null: false,
            source,
            file,
            pnames: 0,
            first_defined: false,
            scale: TextureScale::default(),
        }
    }
}

/// Which engine's rules pick a stack's TEXTURE1/TEXTURE2 tables (see the module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextureRules {
    /// The last PNAMES, TEXTURE1 and TEXTURE2 of the stack (vanilla, Chocolate Doom, Boom).
    Vanilla,
    /// Every file's tables with their own PNAMES (ZDoom, GZDoom).
    #[default]
    ZDoom,
}

/// All wall textures of a WAD stack, numbered by its [`TextureRules`], and the flats GZDoom
/// definitions replace or add.
#[derive(Clone, Debug, Default)]
pub struct TextureDirectory {
    pub defs: Vec<TextureDef>,
    /// The PNAMES tables TEXTURE1/2 entries index ([`TextureDef::pnames`]).
    pub pnames: Vec<Vec<String>>,
    by_name: HashMap<String, usize>,
    /// Flats defined by TEXTURES or given as pictures, by name in `flat_by_name`.
    pub flat_defs: Vec<TextureDef>,
    flat_by_name: HashMap<String, usize>,
    /// Sprite pictures TEXTURES `Sprite` definitions compose, by name in `sprite_by_name`.
    pub sprite_defs: Vec<SpriteDef>,
    sprite_by_name: HashMap<String, usize>,
    /// The pictures between `TX_START` and `TX_END` (a package's `textures/`) by name, the
    /// last of a name winning: what a definition naming its own name as a patch draws, even
    /// where the definition replaced the picture as a texture.
    loose_by_name: HashMap<String, LumpNum>,
    pub notes: Vec<String>,
}

/// A TEXTURES `Sprite` definition: a picture named like a sprite lump (`BAR1A0`), which
/// GZDoom's sprite frames take as they take sprite lumps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteDef {
    pub def: TextureDef,
    /// `Offset x, y`: left and top offsets, as a sprite patch's header gives them.
    pub origin: (i32, i32),
}

/// The first items of a list, and how many more there are.
fn shortened(items: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut s = items.iter().take(SHOWN).cloned().collect::<Vec<_>>().join("; ");
    if items.len() > SHOWN {
        s.push_str(&format!("; and {} more", items.len() - SHOWN));
    }
    s
}
