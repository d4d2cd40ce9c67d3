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

use std::collections::HashMap;
use std::rc::Rc;

use crate::formats::{FormatError, Result};
use crate::scene::{Texels, Texture};

use super::flats::{fit_flat, flat_picture, FlatTexture};
use super::palette_match::PaletteMatcher;
use super::picture::{Picture, MAX_PICTURE_TEXELS};
use super::textures_lump::{parse_textures_lump, DefinitionKind, TextureDefinition, TexturesItem};
use super::wad::{Lump, LumpNum, WadStack};

/// Deepest chain of textures used as patches of textures (GZDoom allows it; a cycle stops).
const MAX_NESTING: usize = 4;
/// Deepest `#include` chain in TEXTURES lumps.
const MAX_INCLUDES: usize = 8;
/// Longest side of a defined texture (sizes are 16-bit numbers).
const MAX_SIDE: i64 = 32767;

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

impl TextureDirectory {
    /// [`TextureDirectory::load_with`] by ZDoom's rules.
    pub fn load(stack: &WadStack) -> Result<TextureDirectory> {
        TextureDirectory::load_with(stack, TextureRules::ZDoom)
    }

    /// Reads the TEXTURE1/TEXTURE2 tables as `rules` say, then each file's TEXTURES lumps and
    /// loose pictures. A corrupt TEXTURE1/2 table or PNAMES (a count or offset past the lump)
    /// or malformed TEXTURES syntax is an error; a corrupt entry becomes a placeholder with a
    /// note.
    pub fn load_with(stack: &WadStack, rules: TextureRules) -> Result<TextureDirectory> {
        let mut dir = TextureDirectory::default();
        let any = match rules {
            TextureRules::Vanilla => dir.read_vanilla_tables(stack)?,
            TextureRules::ZDoom => dir.read_zdoom_tables(stack)?,
        };
        let loose = stack.loose_textures();
        let textures_lumps = stack.global_lumps_named("TEXTURES");
        if !any && loose.is_empty() && textures_lumps.is_empty() {
            dir.notes.push("no TEXTURE1 lump: every wall is a placeholder".into());
        }
        // Graphics, with their files: walls by their name where no wall texture has it.
        let mut graphics: Vec<(TextureDefinition, usize)> = Vec::new();
        for file in 0..stack.wads().len() {
            let mut definitions = Vec::new();
            for &(_, num) in textures_lumps.iter().filter(|(f, _)| *f == file) {
                if let Some(lump) = stack.lump_at(num) {
                    read_textures(stack, &lump, 0, &mut definitions, &mut dir.notes)?;
                }
            }
            let (others, definitions): (Vec<_>, Vec<_>) = definitions
                .into_iter()
                .partition(|d| !d.kind.replaces_walls() && !d.kind.replaces_flats());
            for d in others {
                match d.kind {
                    DefinitionKind::Sprite => dir.install_sprite(&d, file),
                    _ => graphics.push((d, file)),
                }
            }
            let (overrides, walls_or_flats): (Vec<_>, Vec<_>) =
                definitions.into_iter().partition(|d| d.kind == DefinitionKind::Texture);
            for d in walls_or_flats {
                dir.install_definition(stack, &d, file);
            }
            for &(_, num) in loose.iter().filter(|(f, _)| *f == file) {
                dir.install_picture(stack, num, file);
            }
            for d in overrides {
                dir.install_definition(stack, &d, file);
            }
        }
        dir.install_hires(stack);
        dir.install_graphics(graphics);
        Ok(dir)
    }

    /// A TEXTURES `Sprite` definition of file `file`; a later file's of the same name wins.
    fn install_sprite(&mut self, d: &TextureDefinition, file: usize) {
        let def = SpriteDef { def: self.definition_texture(d, file), origin: d.origin };
        match self.sprite_by_name.get(&d.name) {
            Some(&i) if self.sprite_defs[i].def.file > file => {}
            Some(&i) => self.sprite_defs[i] = def,
            None => {
                self.sprite_by_name.insert(d.name.clone(), self.sprite_defs.len());
                self.sprite_defs.push(def);
            }
        }
    }

    /// TEXTURES `Graphic` definitions as wall textures where no wall texture has their name:
    /// GZDoom looks walls up with `TEXMAN_TryAny`, which falls back to a texture of any use
    /// (a graphic among them) when no wall texture or override has the name.
    fn install_graphics(&mut self, graphics: Vec<(TextureDefinition, usize)>) {
        let mut used = Vec::new();
        let mut added: HashMap<String, usize> = HashMap::new();
        for (d, file) in graphics {
            if self.by_name.contains_key(&d.name) && !added.contains_key(&d.name) {
                continue;
            }
            let def = self.definition_texture(&d, file);
            match added.get(&d.name) {
                Some(&i) => self.defs[i] = def,
                None => {
                    added.insert(d.name.clone(), self.defs.len());
                    self.by_name.insert(d.name.clone(), self.defs.len());
                    self.defs.push(def);
                    used.push(d.name.clone());
                }
            }
        }
        if !used.is_empty() {
            self.notes.push(format!(
                "TEXTURES graphics usable as wall textures (no wall texture has their name, \
                 so GZDoom falls back to them): {}",
                shortened(&used)
            ));
        }
    }

    /// The sprite definition named `name` (a sprite lump's name), if TEXTURES has one.
    pub fn sprite_def(&self, name: &str) -> Option<usize> {
        self.sprite_by_name.get(&name.to_ascii_uppercase()).copied()
    }

    /// Composes sprite definition `i`, placed by its offsets.
    pub fn compose_sprite(
        &self,
        i: usize,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
    ) -> Texture {
        let Some(sprite) = self.sprite_defs.get(i) else {
            return placeholder("?", 16, 16);
        };
        let def = &sprite.def;
        match self.compose_picture(def, None, stack, patches, notes, 0) {
            Some(pic) => Texture { origin: sprite.origin, ..crop_to_visible_width(def, pic) },
            None => placeholder(&def.name, def.width.clamp(1, 1024), def.height.clamp(1, 1024)),
        }
    }

    /// GZDoom's `AddHiresTextures`: each picture in `HI_START`..`HI_END` (a package's `hires/`)
    /// replaces the wall texture and the flat of its name, drawn at the replaced one's size in
    /// the world (its scale is its size over that) with offsets in map units (WorldPanning).
    /// A name nothing has is added as a texture and flat at its own size. A replacement
    /// defined by a later file than the picture's stays.
    fn install_hires(&mut self, stack: &WadStack) {
        let mut replaced = 0;
        for (file, num) in stack.hires_pictures() {
            let Some(lump) = stack.lump_at(num) else { continue };
            let Some((w, h)) = Picture::size_of(&lump)
                .filter(|&(w, h)| w > 0 && h > 0 && w as i64 <= MAX_SIDE && h as i64 <= MAX_SIDE)
            else {
                self.notes.push(format!(
                    "{}: hires picture {} is not a picture of an accepted size; not used",
                    lump.file, lump.name
                ));
                continue;
            };
            let name = lump.name.to_string();
            let picture = |file, old: Option<(u16, u16, TextureScale)>| {
                let scale = match old {
                    Some((ow, oh, s)) => {
                        // The old texture's world size: its texels over its scale.
                        let [sx, sy] = s.units();
                        let world = (ow as f64 / sx, oh as f64 / sy);
                        TextureScale::from_units(w as f64 / world.0, h as f64 / world.1, true)
                    }
                    None => TextureScale::default(),
                };
                TextureDef::picture(name.clone(), (w as u16, h as u16), num, file, scale)
            };
            let wall = self.by_name.get(&name).map(|&i| &self.defs[i]);
            let wall_old = wall.filter(|d| d.file <= file).map(|d| (d.width, d.height, d.scale));
            let flat_lump = stack.flats().number(&name);
            let flat_old = match self.flat_def(&name).map(|i| &self.flat_defs[i]) {
                Some(d) => Some((d.width, d.height, d.scale)),
                // A flat lump is 64 x 64 texels at scale 1.
                None => flat_lump.map(|_| (64, 64, TextureScale::default())),
            };
            if wall.is_none() || wall_old.is_some() {
                self.install_wall(picture(file, wall_old));
            }
            self.install_flat(stack, picture(file, flat_old));
            replaced += 1;
        }
        if replaced > 0 {
            self.notes.push(format!(
                "hires: {replaced} high-resolution pictures replace textures and flats at their \
                 world size"
            ));
        }
    }

    /// Vanilla's tables: the stack's last PNAMES, TEXTURE1 and TEXTURE2, numbered in that
    /// order, the first definition of a name winning (`R_CheckTextureNumForName` scans
    /// forward). Whether there was a TEXTURE1 or TEXTURE2.
    fn read_vanilla_tables(&mut self, stack: &WadStack) -> Result<bool> {
        match stack.lump("PNAMES") {
            Some(l) => self.pnames.push(parse_pnames(&l)?),
            None => self.notes.push("no PNAMES lump: textures cannot be composed".into()),
        }
        let mut files = Vec::new();
        for name in ["TEXTURE1", "TEXTURE2"] {
            let Some(num) = stack.lump_num(name) else { continue };
            let Some(l) = stack.lump_at(num) else { continue };
            let file = stack.file_of(num).unwrap_or(0);
            files.push(file);
            let defs = parse_texture_lump(&l, file, &mut self.notes)?;
            self.defs.extend(defs);
        }
        for (i, d) in self.defs.iter().enumerate() {
            self.by_name.entry(d.name.clone()).or_insert(i);
        }
        let with_tables = stack_files_with_tables(stack);
        if with_tables.len() > 1 {
            let shown: Vec<&str> = files.iter().map(|&f| stack.wads()[f].name()).collect();
            self.notes.push(format!(
                "vanilla rules (--vanilla): only the last TEXTURE1/TEXTURE2 are read ({}); the \
                 tables of the other files are not (ZDoom reads every file's)",
                shown.join(", ")
            ));
        }
        Ok(!files.is_empty())
    }

    /// ZDoom's tables (`LoadTextureX`, `AddTexturesLumps`): each file's TEXTURE1 then
    /// TEXTURE2 with the last PNAMES of that file or the files before it, appended in load
    /// order. Within a file the first definition of a name wins (GZDoom skips the repeats;
    /// they keep their numbers here, as vanilla's do, which a file alone never notices);
    /// a later file's definition wins over an earlier file's. The first entry of each file's
    /// TEXTURE1 is GZDoom's `FirstDefined`: not drawn on walls. A file with tables and no
    /// PNAMES at or before it is skipped, as GZDoom does.
    fn read_zdoom_tables(&mut self, stack: &WadStack) -> Result<bool> {
        let pnames_lumps = stack.global_lumps_named("PNAMES");
        let table1 = stack.global_lumps_named("TEXTURE1");
        let table2 = stack.global_lumps_named("TEXTURE2");
        // The last lump of a name in one file (GZDoom's exact `CheckNumForName`).
        let last_in = |lumps: &[(usize, LumpNum)], file: usize| {
            lumps.iter().rev().find(|(f, _)| *f == file).map(|&(_, n)| n)
        };
        let mut any = false;
        let with_tables = stack_files_with_tables(stack);
        // The PNAMES table in force: the last of the files read so far.
        let mut table = None;
        let mut merged = Vec::new();
        for file in 0..stack.wads().len() {
            // GZDoom reads every file's PNAMES (`AddPatches`), tables or not.
            if let Some(l) = last_in(&pnames_lumps, file).and_then(|n| stack.lump_at(n)) {
                self.pnames.push(parse_pnames(&l)?);
                table = Some(self.pnames.len() - 1);
            }
            if !with_tables.contains(&file) {
                continue;
            }
            let Some(table) = table else {
                self.notes.push(format!(
                    "{}: TEXTURE1/TEXTURE2 without a PNAMES lump in it or before it; its \
                     textures are not read (as in GZDoom)",
                    stack.wads()[file].name()
                ));
                continue;
            };
            let first = self.defs.len();
            for (lumps, is_texture1) in [(&table1, true), (&table2, false)] {
                let Some(num) = last_in(lumps, file) else { continue };
                let Some(l) = stack.lump_at(num) else { continue };
                any = true;
                let mut defs = parse_texture_lump(&l, file, &mut self.notes)?;
                for d in &mut defs {
                    d.pnames = table;
                }
                if let Some(d) = defs.first_mut().filter(|_| is_texture1) {
                    d.first_defined = true;
                }
                self.defs.extend(defs);
            }
            let mut own: HashMap<&str, usize> = HashMap::new();
            for (i, d) in self.defs.iter().enumerate().skip(first) {
                own.entry(d.name.as_str()).or_insert(i);
            }
            let (mut added, mut replaced) = (0, 0);
            for (name, i) in own {
                match self.by_name.insert(name.to_string(), i) {
                    Some(_) => replaced += 1,
                    None => added += 1,
                }
            }
            merged
                .push(format!("{} {added} added, {replaced} replaced", stack.wads()[file].name()));
        }
        if merged.len() > 1 {
            self.notes.push(format!(
                "TEXTURE1/TEXTURE2 of {} files merged by ZDoom's rules (each with its own \
                 PNAMES, a later file's texture winning by name): {}",
                merged.len(),
                merged.join("; ")
            ));
        }
        Ok(any)
    }

    /// Texture number for `name` (case-insensitive), by the rules it was read with.
    pub fn number(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_uppercase()).copied()
    }

    /// Whether texture `num` is drawn: texture 0, null textures and each file's first
    /// TEXTURE1 entry under ZDoom's rules are not.
    pub fn draws(&self, num: usize) -> bool {
        num != 0 && self.defs.get(num).is_some_and(|d| !d.null && !d.first_defined)
    }

    /// The name PNAMES index `index` of `def`'s table gives, if it is in the table.
    pub fn patch_name(&self, def: &TextureDef, index: u16) -> Option<&str> {
        self.pnames.get(def.pnames)?.get(index as usize).map(String::as_str)
    }

    /// The GZDoom definition replacing or adding flat `name`, if any.
    pub fn flat_def(&self, name: &str) -> Option<usize> {
        self.flat_by_name.get(&name.to_ascii_uppercase()).copied()
    }

    /// Adds a TEXTURES definition of file `file` as a wall texture and/or flat.
    fn install_definition(&mut self, stack: &WadStack, d: &TextureDefinition, file: usize) {
        let def = self.definition_texture(d, file);
        if d.kind.replaces_walls() {
            self.install_wall(def.clone());
        }
        if d.kind.replaces_flats() {
            self.install_flat(stack, def);
        }
    }

    /// A TEXTURES definition of file `file` as the texture it composes.
    fn definition_texture(&mut self, d: &TextureDefinition, file: usize) -> TextureDef {
        let source = DefSource::TexturesLump { optional: d.optional };
        if d.width <= 0 || d.height <= 0 {
            // GZDoom makes such a texture a null texture, with a message.
            self.notes.push(format!(
                "TEXTURES texture {} has size {}x{}: not drawn",
                d.name, d.width, d.height
            ));
            TextureDef {
                name: d.name.clone(),
                width: 1,
                height: 1,
                patches: Vec::new(),
                broken: None,
                null: true,
                source,
                file,
                pnames: 0,
                first_defined: false,
                scale: TextureScale::default(),
            }
        } else if d.width > MAX_SIDE
            || d.height > MAX_SIDE
            || d.width * d.height > MAX_PICTURE_TEXELS as i64
        {
            let why = format!("size {}x{} is larger than accepted", d.width, d.height);
            TextureDef::broken(&d.name, file, source, why)
        } else {
            let patches = d
                .parts
                .iter()
                .map(|p| PatchPlacement {
                    x: p.x,
                    y: p.y,
                    patch: PatchRef::Named(p.name.clone()),
                    flip_x: p.flip_x,
                    turns: p.turns,
                    use_offsets: p.use_offsets,
                })
                .collect();
            TextureDef {
                name: d.name.clone(),
                width: d.width as u16,
                height: d.height as u16,
                patches,
                broken: None,
                null: d.null_texture,
                source,
                file,
                pnames: 0,
                first_defined: false,
                scale: TextureScale::from_units(d.x_scale, d.y_scale, d.world_panning),
            }
        }
    }

    /// Adds a loose picture of file `file` as a wall texture and a flat.
    fn install_picture(&mut self, stack: &WadStack, num: LumpNum, file: usize) {
        let Some(lump) = stack.lump_at(num) else { return };
        let def = match Picture::size_of(&lump) {
            Some((w, h)) if w as i64 <= MAX_SIDE && h as i64 <= MAX_SIDE => TextureDef::picture(
                lump.name.to_string(),
                (w as u16, h as u16),
                num,
                file,
                TextureScale::default(),
            ),
            _ => TextureDef::broken(
                lump.name,
                file,
                DefSource::Picture,
                format!("{}: not a picture (neither PNG nor Doom picture)", lump.file),
            ),
        };
        self.install_wall(def.clone());
        self.install_flat(stack, def);
    }

    fn install_wall(&mut self, def: TextureDef) {
        match self.by_name.get(&def.name) {
            Some(&i) if self.defs[i].file > def.file => {}
            Some(&i) => self.defs[i] = def,
            None => {
                self.by_name.insert(def.name.clone(), self.defs.len());
                self.defs.push(def);
            }
        }
    }

    fn install_flat(&mut self, stack: &WadStack, def: TextureDef) {
        // A flat lump of a later file keeps its place over an earlier file's definition.
        let lump_file = stack
            .flats()
            .number(&def.name)
            .and_then(|n| stack.flats().entries().get(n))
            .and_then(|e| stack.file_of(e.lump));
        if lump_file.is_some_and(|f| f > def.file) {
            return;
        }
        match self.flat_by_name.get(&def.name) {
            Some(&i) if self.flat_defs[i].file > def.file => {}
            Some(&i) => self.flat_defs[i] = def,
            None => {
                self.flat_by_name.insert(def.name.clone(), self.flat_defs.len());
                self.flat_defs.push(def);
            }
        }
    }

    /// Composes texture `num` from its patches. Missing or unreadable patches give a visible
    /// placeholder of the texture's size and a note.
    pub fn compose(
        &self,
        num: usize,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
    ) -> Texture {
        let Some(def) = self.defs.get(num) else {
            return placeholder("?", 64, 64);
        };
        match self.compose_picture(def, Some(num), stack, patches, notes, 0) {
            Some(pic) => crop_to_visible_width(def, pic),
            None => placeholder(&def.name, def.width.clamp(1, 1024), def.height.clamp(1, 1024)),
        }
    }

    /// Composes flat definition `i` and fits it to vanilla's 64x64 flats.
    pub fn compose_flat(
        &self,
        i: usize,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
    ) -> FlatTexture {
        self.compose_fitted(self.flat_defs.get(i), None, stack, patches, notes)
    }

    /// Composes wall texture `num` as a flat, fitted to vanilla's 64x64 flats: GZDoom draws a
    /// texture of any use on a floor or ceiling no flat names (`TEXMAN_TryAny`).
    pub fn compose_as_flat(
        &self,
        num: usize,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
    ) -> FlatTexture {
        self.compose_fitted(self.defs.get(num), Some(num), stack, patches, notes)
    }

    /// `def` (wall texture `own`, if it is one) composed and fitted to a 64x64 flat.
    fn compose_fitted(
        &self,
        def: Option<&TextureDef>,
        own: Option<usize>,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
    ) -> FlatTexture {
        let Some(def) = def else {
            return placeholder("?", 64, 64).into();
        };
        match self.compose_picture(def, own, stack, patches, notes, 0) {
            Some(pic) => fit_flat(&def.name, &pic, notes),
            None => placeholder(&def.name, 64, 64).into(),
        }
    }

    /// The texels of `def` (number `own` among the wall textures, if it is one); `None` when
    /// it must be a placeholder (the note says why).
    fn compose_picture(
        &self,
        def: &TextureDef,
        own: Option<usize>,
        stack: &WadStack,
        patches: &mut PatchCache,
        notes: &mut Vec<String>,
        depth: usize,
    ) -> Option<Picture> {
        if let Some(why) = &def.broken {
            notes.push(format!("texture {}: {why}", def.name));
            return None;
        }
        if def.null {
            // Walls skip null textures; only a flat of that name gets here.
            notes.push(format!("{} is a null texture; drawn as a placeholder", def.name));
            return None;
        }
        let (w, h) = (def.width as usize, def.height as usize);
        let mut out = Picture {
            width: def.width,
            height: def.height,
            left: 0,
            top: 0,
            index: vec![0u8; w * h],
            opaque: vec![false; w * h],
            clipped: 0,
        };
        for p in &def.patches {
            let found = self
                .resolve(def, &p.patch, own, stack)
                .and_then(|key| patches.get(self, key, stack, notes, depth));
            let Some(pic) = found else {
                let what = match &p.patch {
                    PatchRef::Pnames(i) => format!(
                        "patch #{i} ({})",
                        self.patch_name(def, *i).unwrap_or("past PNAMES")
                    ),
                    PatchRef::Named(name) => format!("patch {name}"),
                    PatchRef::Lump(n) => format!("picture lump #{n}"),
                };
                match def.source {
                    // Vanilla stops on a missing patch; a placeholder shows the fault.
                    DefSource::TextureX | DefSource::Picture => {
                        notes.push(format!(
                            "texture {} uses missing {what}; drawn as a placeholder",
                            def.name
                        ));
                        return None;
                    }
                    // GZDoom drops the part, warning unless the texture is optional.
                    DefSource::TexturesLump { optional } => {
                        if !optional {
                            notes.push(format!(
                                "TEXTURES texture {}: unknown {what} left out",
                                def.name
                            ));
                        }
                        continue;
                    }
                }
            };
            let turned;
            let pic = if p.flip_x || p.turns != 0 {
                turned = pic.transformed(p.flip_x, p.turns);
                &turned
            } else {
                &*pic
            };
            let (x0, y0) = if p.use_offsets {
                (p.x - pic.left as i32, p.y - pic.top as i32)
            } else {
                (p.x, p.y)
            };
            blit(&mut out, pic, x0, y0);
        }
        Some(out)
    }

    /// What a placement's picture is, as a cache key.
    fn resolve(
        &self,
        def: &TextureDef,
        patch: &PatchRef,
        own: Option<usize>,
        stack: &WadStack,
    ) -> Option<PatchKey> {
        match patch {
            // By name in the whole stack, as vanilla and GZDoom's ResolvePatches find them.
            PatchRef::Pnames(i) => stack.lump_num(self.patch_name(def, *i)?).map(PatchKey::Lump),
            PatchRef::Lump(n) => Some(PatchKey::Lump(*n)),
            PatchRef::Named(name) if name.contains('/') => {
                stack.lump_num_by_path(name).map(PatchKey::Lump)
            }
            PatchRef::Named(name) => {
                if let Some(n) = stack.lump_num(name) {
                    return Some(PatchKey::Lump(n));
                }
                if let Some(t) = self.number(name).filter(|&t| Some(t) != own) {
                    return Some(PatchKey::Texture(t));
                }
                let in_namespace = |ns: &super::wad::Namespace| {
                    ns.number(name).and_then(|n| ns.entries().get(n)).map(|e| e.lump)
                };
                in_namespace(stack.flats())
                    .or_else(|| in_namespace(stack.sprites()))
                    .or_else(|| stack.lump_num_by_path(name))
                    .map(PatchKey::Lump)
            }
        }
    }
}

/// Reads one TEXTURES lump's definitions into `out`, following `#include`s.
fn read_textures(
    stack: &WadStack,
    lump: &Lump<'_>,
    depth: usize,
    out: &mut Vec<TextureDefinition>,
    notes: &mut Vec<String>,
) -> Result<()> {
    let items = parse_textures_lump(lump)?;
    let mut ignored = Vec::new();
    let mut hires = Vec::new();
    for item in items {
        match item {
            TexturesItem::Definition(d) => {
                ignored.extend(d.ignored.iter().map(|i| format!("{} {i}", d.name)));
                out.push(d);
            }
            TexturesItem::HiresEntry { keyword, name } => hires.push(format!("{keyword} {name}")),
            TexturesItem::Include { name, offset } => {
                let found = stack.lump_num_by_path(&name).or_else(|| stack.lump_num(&name));
                let Some(included) = found.and_then(|n| stack.lump_at(n)) else {
                    return Err(FormatError::new(
                        lump.file,
                        "TEXTURES",
                        offset,
                        format!("#include \"{name}\": no such lump"),
                    ));
                };
                if depth >= MAX_INCLUDES {
                    return Err(FormatError::new(
                        lump.file,
                        "TEXTURES",
                        offset,
                        format!("#include \"{name}\": more than {MAX_INCLUDES} levels deep"),
                    ));
                }
                read_textures(stack, &included, depth + 1, out, notes)?;
            }
        }
    }
    if !ignored.is_empty() {
        notes.push(format!(
            "{} TEXTURES: read but not drawn by mapscope (drawn unmirrored, untranslated, \
             opaque): {}",
            lump.file,
            shortened(&ignored)
        ));
    }
    if !hires.is_empty() {
        notes.push(format!(
            "{} TEXTURES: high-resolution replacements not used: {}",
            lump.file,
            shortened(&hires)
        ));
    }
    Ok(())
}

/// The files of the stack that have a TEXTURE1 or TEXTURE2 outside namespaces, in load order.
fn stack_files_with_tables(stack: &WadStack) -> Vec<usize> {
    let mut files: Vec<usize> = ["TEXTURE1", "TEXTURE2"]
        .iter()
        .flat_map(|name| stack.global_lumps_named(name))
        .map(|(file, _)| file)
        .collect();
    files.sort_unstable();
    files.dedup();
    files
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

/// Draws `pic`'s opaque texels into `out` with its top-left at (x0, y0), as
/// R_DrawColumnInCache: columns outside the texture are skipped, posts clipped to its rows.
fn blit(out: &mut Picture, pic: &Picture, x0: i32, y0: i32) {
    let (w, h) = (out.width as i64, out.height as i64);
    let (pw, ph) = (pic.width as usize, pic.height as usize);
    for px in 0..pw {
        let x = x0 as i64 + px as i64;
        if x < 0 || x >= w {
            continue;
        }
        for py in 0..ph {
            let src = py * pw + px;
            if !pic.opaque.get(src).copied().unwrap_or(false) {
                continue;
            }
            let y = y0 as i64 + py as i64;
            if y < 0 || y >= h {
                continue;
            }
            let dst = (y * w + x) as usize;
            out.index[dst] = pic.index[src];
            out.opaque[dst] = true;
        }
    }
}

fn crop_to_visible_width(def: &TextureDef, pic: Picture) -> Texture {
    let (w, h) = (def.width as usize, def.height as usize);
    let vw = def.visible_width() as usize;
    let (index, opaque) = if vw == w {
        (pic.index, pic.opaque)
    } else {
        let mut i2 = Vec::with_capacity(vw * h);
        let mut o2 = Vec::with_capacity(vw * h);
        for y in 0..h {
            i2.extend_from_slice(&pic.index[y * w..y * w + vw]);
            o2.extend_from_slice(&pic.opaque[y * w..y * w + vw]);
        }
        (i2, o2)
    };
    let all_opaque = opaque.iter().all(|&o| o);
    Texture {
        name: def.name.clone(),
        width: vw as u32,
        height: h as u32,
        origin: (0, 0),
        texels: Texels::Indexed { index, opaque: if all_opaque { Vec::new() } else { opaque } },
        palette: 0,
    }
}

/// A visible stand-in for missing data: a red/black checkerboard of the given size.
pub fn placeholder(name: &str, width: u16, height: u16) -> Texture {
    let (w, h) = (width.clamp(1, 1024) as usize, height.clamp(1, 1024) as usize);
    let index =
        (0..w * h).map(|i| if ((i % w) / 8 + (i / w) / 8) % 2 == 0 { 176 } else { 0 }).collect();
    Texture {
        name: name.to_string(),
        width: w as u32,
        height: h as u32,
        origin: (0, 0),
        texels: Texels::Indexed { index, opaque: Vec::new() },
        palette: 0,
    }
}

/// A picture a texture can be composed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchKey {
    Lump(LumpNum),
    /// Another texture, composed first (TEXTURES may use textures as patches).
    Texture(usize),
}

/// Most texels the patch cache keeps (32 MiB of texels and masks). A PNG of a few KiB can
/// claim 16M texels, so a package could otherwise make the cache hold gigabytes; past this,
/// pictures are decoded for each use and dropped.
const MAX_CACHED_TEXELS: usize = 1 << 24;

/// Decoded patches, each decoded once while the cache has room, and the palette matcher PNG
/// pictures go through.
#[derive(Default)]
pub struct PatchCache {
    pics: HashMap<PatchKey, Option<Rc<Picture>>>,
    cached_texels: usize,
    pub colours: PaletteMatcher,
}

impl PatchCache {
    /// A cache whose PNG pictures map to `palette`.
    pub fn new(palette: &[[u8; 3]]) -> PatchCache {
        PatchCache { colours: PaletteMatcher::new(palette), ..PatchCache::default() }
    }

    pub fn get(
        &mut self,
        dir: &TextureDirectory,
        key: PatchKey,
        stack: &WadStack,
        notes: &mut Vec<String>,
        depth: usize,
    ) -> Option<Rc<Picture>> {
        if let Some(p) = self.pics.get(&key) {
            return p.clone();
        }
        // Marked missing while decoding, so a texture that reaches itself stops.
        self.pics.insert(key, None);
        let pic = match key {
            PatchKey::Lump(n) => {
                let lump = stack.lump_at(n)?;
                let is_flat = stack
                    .flats()
                    .number(lump.name)
                    .and_then(|i| stack.flats().entries().get(i))
                    .is_some_and(|e| e.lump == n);
                let decoded = if is_flat {
                    flat_picture(&lump, &mut self.colours)
                } else {
                    Picture::decode(&lump, &mut self.colours)
                };
                match decoded {
                    Ok(p) => Some(p),
                    Err(e) => {
                        notes.push(format!("patch {}: {e}", lump.name));
                        None
                    }
                }
            }
            PatchKey::Texture(t) => {
                let def = dir.defs.get(t)?;
                if depth >= MAX_NESTING {
                    notes.push(format!(
                        "texture {} used as a patch more than {MAX_NESTING} levels deep",
                        def.name
                    ));
                    None
                } else {
                    dir.compose_picture(def, Some(t), stack, self, notes, depth + 1)
                }
            }
        };
        let pic = pic.map(Rc::new);
        let texels = pic.as_ref().map_or(0, |p| p.index.len());
        if self.cached_texels + texels <= MAX_CACHED_TEXELS {
            self.cached_texels += texels;
            self.pics.insert(key, pic.clone());
        } else {
            self.pics.remove(&key);
        }
        pic
    }
}

fn parse_pnames(lump: &Lump<'_>) -> Result<Vec<String>> {
    let mut r = lump.reader("PNAMES");
    let count = r.i32_le()?;
    if count < 0 {
        return Err(r.error_at(0, format!("negative patch count {count}")));
    }
    r.check_count(count as usize, 8, "patch names")?;
    (0..count).map(|_| Ok(r.name(8)?.to_ascii_uppercase())).collect()
}

fn parse_texture_lump(
    lump: &Lump<'_>,
    file: usize,
    notes: &mut Vec<String>,
) -> Result<Vec<TextureDef>> {
    let mut r = lump.reader(lump.name);
    let count = r.i32_le()?;
    if count < 0 {
        return Err(r.error_at(0, format!("negative texture count {count}")));
    }
    r.check_count(count as usize, 4, "texture offsets")?;
    let mut offsets = Vec::with_capacity(count as usize);
    for _ in 0..count {
        offsets.push(r.i32_le()?);
    }
    let mut defs = Vec::with_capacity(offsets.len());
    for (i, off) in offsets.into_iter().enumerate() {
        match parse_texture_entry(lump, off, file) {
            Ok(d) => defs.push(d),
            Err(e) => {
                notes.push(format!("{} entry {i}: {e}", lump.name));
                let name = format!("{}#{i}", lump.name);
                defs.push(TextureDef::broken(&name, file, DefSource::TextureX, e.to_string()));
            }
        }
    }
    Ok(defs)
}

fn parse_texture_entry(
    lump: &Lump<'_>,
    offset: i32,
    file: usize,
) -> std::result::Result<TextureDef, FormatError> {
    let mut r = lump.reader("texture definition");
    if offset < 0 {
        return Err(r.error_at(0, format!("negative entry offset {offset}")));
    }
    r.seek(offset as usize)?;
    let at = r.pos();
    let name = r.name(8)?.to_ascii_uppercase();
    let _masked = r.i32_le()?;
    let width = r.i16_le()?;
    let height = r.i16_le()?;
    let _column_directory = r.i32_le()?;
    let count = r.i16_le()?;
    if width <= 0
        || height <= 0
        || count < 0
        || width as usize * height as usize > MAX_PICTURE_TEXELS
    {
        return Err(
            r.error_at(at, format!("texture {name}: size {width}x{height} with {count} patches"))
        );
    }
    r.check_count(count as usize, 10, "patch placements")?;
    let mut patches = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let x = r.i16_le()?;
        let y = r.i16_le()?;
        let patch = r.i16_le()?;
        let _stepdir = r.i16_le()?;
        let _colormap = r.i16_le()?;
        // A negative index can never name a patch; keep it out of range so it reads as missing.
        let index = if patch < 0 { u16::MAX } else { patch as u16 };
        patches.push(PatchPlacement::at(x as i32, y as i32, PatchRef::Pnames(index)));
    }
    Ok(TextureDef {
        name,
        width: width as u16,
        height: height as u16,
        patches,
        broken: None,
        null: false,
        source: DefSource::TextureX,
        file,
        pnames: 0,
        first_defined: false,
        scale: TextureScale::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;
    use crate::formats::doom::wad::{Wad, WadStack};
    use crate::formats::doom::writer::{self, TextureSpec, WadWriter};

    #[test]
    fn composes_textures_from_patches() {
        let stack = testwad::two_room_stack();
        let dir = TextureDirectory::load(&stack).unwrap();
        assert_eq!(dir.number("aashitty"), Some(0));
        let n = dir.number("STARTAN").unwrap();
        let mut cache = PatchCache::default();
        let mut notes = Vec::new();
        let t = dir.compose(n, &stack, &mut cache, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!((t.width, t.height), (64, 128));
        let Texels::Indexed { index, opaque } = &t.texels else { panic!() };
        assert!(opaque.is_empty());
        assert_eq!(index[0], testwad::WALL_COLOR);
    }

    #[test]
    fn width_is_cut_to_a_power_of_two_and_holes_stay_transparent() {
        let mut w = WadWriter::pwad();
        let patch: Vec<Option<u8>> = vec![Some(7); 8 * 8];
        w.lump("P1", writer::patch_lump(8, 8, 0, 0, &patch))
            .lump("PNAMES", writer::pnames_lump(&["P1"]))
            .lump(
                "TEXTURE1",
                writer::texture_lump(&[TextureSpec {
                    name: "ODD",
                    width: 12,
                    height: 10,
                    patches: &[(0, 0, 0)],
                }]),
            );
        let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
        let dir = TextureDirectory::load(&stack).unwrap();
        let t = dir.compose(0, &stack, &mut PatchCache::default(), &mut Vec::new());
        assert_eq!((t.width, t.height), (8, 10));
        let Texels::Indexed { opaque, .. } = &t.texels else { panic!() };
        assert!(opaque[0] && !opaque[8 * 8]);
    }

    #[test]
    fn missing_patch_gives_placeholder_and_note() {
        let mut w = WadWriter::pwad();
        w.lump("PNAMES", writer::pnames_lump(&["NOSUCH"])).lump(
            "TEXTURE1",
            writer::texture_lump(&[TextureSpec {
                name: "BROKEN",
                width: 32,
                height: 16,
                patches: &[(0, 0, 0), (0, 0, 5)],
            }]),
        );
        let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
        let dir = TextureDirectory::load(&stack).unwrap();
        let mut notes = Vec::new();
        let t = dir.compose(0, &stack, &mut PatchCache::default(), &mut notes);
        assert_eq!((t.name.as_str(), t.width, t.height), ("BROKEN", 32, 16));
        assert!(notes[0].contains("NOSUCH"), "{notes:?}");
    }

    /// A WAD with patches P1 (8x8 of 1) and P2 (4x4 of 2), PNAMES, TEXTURE1 (A, B from P1)
    /// and flats FA, FB.
    fn base_wad() -> Wad {
        let mut w = WadWriter::iwad();
        w.lump("P1", writer::patch_lump(8, 8, 0, 0, &[Some(1); 64]))
            .lump("P2", writer::patch_lump(4, 4, 2, 3, &[Some(2); 16]))
            .lump("PNAMES", writer::pnames_lump(&["P1", "P2"]))
            .lump(
                "TEXTURE1",
                writer::texture_lump(&[
                    TextureSpec { name: "A", width: 8, height: 8, patches: &[(0, 0, 0)] },
                    TextureSpec { name: "B", width: 8, height: 8, patches: &[(0, 0, 0)] },
                ]),
            )
            .marker("F_START")
            .lump("FA", vec![3; 4096])
            .lump("FB", vec![4; 4096])
            .marker("F_END");
        Wad::from_bytes("base.wad", w.to_bytes()).unwrap()
    }

    fn pwad(name: &str, build: impl Fn(&mut WadWriter)) -> Wad {
        let mut w = WadWriter::pwad();
        build(&mut w);
        Wad::from_bytes(name, w.to_bytes()).unwrap()
    }

    fn indexed(t: &Texture) -> &[u8] {
        match &t.texels {
            Texels::Indexed { index, .. } => index,
            Texels::Rgba(_) => panic!("not indexed"),
        }
    }

    #[test]
    fn textures_definitions_replace_by_name_in_place_and_append_new_ones() {
        let text = b"WallTexture B, 4, 4 { Patch P2, 0, 0 }\n\
                     Texture C, 8, 4 { Patch P2, 0, 0  Patch P2, 4, 0 }\n\
                     Flat FA, 4, 4 { Patch P2, 0, 0 }\n";
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("t.wad", |w| {
                w.lump("TEXTURES", text.to_vec());
            }),
        ]);
        let dir = TextureDirectory::load(&stack).unwrap();
        assert_eq!(
            (dir.number("A"), dir.number("B"), dir.number("C")),
            (Some(0), Some(1), Some(2))
        );
        let mut cache = PatchCache::default();
        let mut notes = Vec::new();
        let b = dir.compose(1, &stack, &mut cache, &mut notes);
        assert_eq!((b.width, b.height, indexed(&b)[0]), (4, 4, 2));
        let c = dir.compose(2, &stack, &mut cache, &mut notes);
        assert_eq!((c.width, indexed(&c)[7]), (8, 2), "GZDoom widths are kept");
        // `Texture` replaces flats too; `Flat` only flats.
        assert!(dir.flat_def("C").is_some() && dir.flat_def("B").is_none());
        let fa =
            dir.compose_flat(dir.flat_def("FA").unwrap(), &stack, &mut cache, &mut notes).fitted;
        assert_eq!((fa.width, fa.height, indexed(&fa)[5 * 64 + 5]), (64, 64, 2), "tiled");
        assert!(notes.iter().any(|n| n.contains("flat FA is 4x4")), "{notes:?}");
    }

    #[test]
    fn hires_pictures_replace_at_the_old_world_size() {
        use crate::formats::doom::writer::png_lump;
        let png = |w: u32, h: u32| {
            png_lump(w, h, &[9, 9, 9, 255].repeat((w * h) as usize), None).unwrap()
        };
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("hi.wad", |w| {
                w.marker("HI_START")
                    .lump("A", png(16, 32))
                    .lump("FA", png(128, 128))
                    .lump("NEWPIC", png(4, 4))
                    .marker("HI_END");
            }),
        ]);
        let dir = TextureDirectory::load(&stack).unwrap();
        // A (8 x 8 texels at scale 1) becomes the 16 x 32 picture at scale 2 x 4: still 8 x 8
        // map units, offsets in map units.
        let a = &dir.defs[dir.number("A").unwrap()];
        assert_eq!((a.width, a.height, a.source), (16, 32, DefSource::Picture));
        assert_eq!(a.scale, TextureScale::from_units(2.0, 4.0, true));
        // Flat FA (a 64 x 64 lump) becomes the 128 x 128 picture at scale 2.
        let fa = &dir.flat_defs[dir.flat_def("FA").unwrap()];
        assert_eq!((fa.width, fa.scale), (128, TextureScale::from_units(2.0, 2.0, true)));
        // A name nothing had is added at its own size; B is untouched.
        let new = &dir.defs[dir.number("NEWPIC").unwrap()];
        assert!(new.scale.is_unit() && new.width == 4);
        assert!(dir.defs[dir.number("B").unwrap()].scale.is_unit());
        assert!(dir.notes.iter().any(|n| n.contains("hires: 3")), "{:?}", dir.notes);
    }

    #[test]
    fn a_later_files_texture1_keeps_its_name_over_an_earlier_textures_lump() {
        let textures = pwad("t.wad", |w| {
            w.lump("TEXTURES", b"WallTexture A, 4, 4 { Patch P2, 0, 0 }".to_vec());
        });
        let later = pwad("l.wad", |w| {
            w.lump("PNAMES", writer::pnames_lump(&["P1"])).lump(
                "TEXTURE1",
                writer::texture_lump(&[TextureSpec {
                    name: "A",
                    width: 16,
                    height: 8,
                    patches: &[(0, 0, 0)],
                }]),
            );
        });
        let stack = WadStack::new(vec![base_wad(), textures, later]);
        let dir = TextureDirectory::load(&stack).unwrap();
        assert_eq!(dir.defs[dir.number("A").unwrap()].width, 16);
    }

    /// A PWAD with its own patch P3 (8x8 of 5), a PNAMES naming only P3 (so its index 0 is
    /// not the base WAD's P1) and a TEXTURE1 of `textures`, each one patch 0 at (0, 0).
    fn pwad_with_table(name: &str, textures: &[&str]) -> Wad {
        pwad(name, |w| {
            let specs: Vec<TextureSpec> = textures
                .iter()
                .map(|&name| TextureSpec { name, width: 8, height: 8, patches: &[(0, 0, 0)] })
                .collect();
            w.lump("P3", writer::patch_lump(8, 8, 0, 0, &[Some(5); 64]))
                .lump("PNAMES", writer::pnames_lump(&["P3"]))
                .lump("TEXTURE1", writer::texture_lump(&specs));
        })
    }

    /// The first texel of texture `name` as composed from `dir`.
    fn texel_of(dir: &TextureDirectory, stack: &WadStack, name: &str) -> u8 {
        let num = dir.number(name).unwrap_or_else(|| panic!("no texture {name}"));
        let mut notes = Vec::new();
        let t = dir.compose(num, stack, &mut PatchCache::default(), &mut notes);
        assert!(notes.is_empty(), "{name}: {notes:?}");
        indexed(&t)[0]
    }

    #[test]
    fn zdoom_rules_read_every_files_table_with_its_own_pnames() {
        // The third file has a TEXTURE1 and no PNAMES: it uses the second file's (P3 at 0).
        let no_pnames = pwad("n.wad", |w| {
            w.lump(
                "TEXTURE1",
                writer::texture_lump(&[
                    TextureSpec { name: "DUMMY2", width: 8, height: 8, patches: &[(0, 0, 0)] },
                    TextureSpec { name: "LATER", width: 8, height: 8, patches: &[(0, 0, 0)] },
                ]),
            );
        });
        let stack = WadStack::new(vec![
            base_wad(),
            pwad_with_table("new.wad", &["DUMMY", "NEW"]),
            no_pnames,
        ]);
        let dir = TextureDirectory::load(&stack).unwrap();
        // The base WAD's textures keep their numbers and patches; the PWAD's come after,
        // composed from the PWAD's own PNAMES.
        assert_eq!((dir.number("A"), dir.number("B")), (Some(0), Some(1)));
        assert_eq!((dir.number("DUMMY"), dir.number("NEW")), (Some(2), Some(3)));
        assert_eq!(texel_of(&dir, &stack, "B"), 1, "P1 of the base WAD's PNAMES");
        assert_eq!(texel_of(&dir, &stack, "NEW"), 5, "P3 of the PWAD's PNAMES");
        assert_eq!(texel_of(&dir, &stack, "LATER"), 5, "the nearest earlier PNAMES");
        // Each file's first TEXTURE1 entry is GZDoom's FirstDefined: never drawn on walls.
        assert!(dir.draws(1) && dir.draws(3) && dir.draws(dir.number("LATER").unwrap()));
        assert!(!dir.draws(0) && !dir.draws(2) && !dir.draws(dir.number("DUMMY2").unwrap()));
        let note = dir.notes.iter().find(|n| n.contains("merged")).expect("a merge note");
        assert!(
            note.contains("3 files")
                && note.contains("base.wad 2 added, 0 replaced")
                && note.contains("new.wad 2 added, 0 replaced"),
            "{note}"
        );
    }

    #[test]
    fn under_zdoom_rules_a_later_files_texture_of_a_name_wins() {
        let stack =
            WadStack::new(vec![base_wad(), pwad_with_table("re.wad", &["DUMMY", "B", "NEW"])]);
        let dir = TextureDirectory::load(&stack).unwrap();
        assert_eq!(dir.number("B"), Some(3));
        assert_eq!(texel_of(&dir, &stack, "B"), 5, "the PWAD's B, from its P3");
        assert_eq!(texel_of(&dir, &stack, "A"), 1, "the base WAD's A");
        // The base WAD's B keeps its number (animation ranges go by number).
        assert_eq!(dir.defs[1].file, 0);
        assert!(dir.notes.iter().any(|n| n.contains("re.wad 2 added, 1 replaced")));
    }

    #[test]
    fn vanilla_rules_take_the_last_tables_whole() {
        let stack = WadStack::new(vec![base_wad(), pwad_with_table("new.wad", &["DUMMY", "NEW"])]);
        let dir = TextureDirectory::load_with(&stack, TextureRules::Vanilla).unwrap();
        // The PWAD's TEXTURE1 replaces the base WAD's: A and B are gone, NEW is number 1.
        assert_eq!((dir.number("A"), dir.number("B")), (None, None));
        assert_eq!((dir.number("DUMMY"), dir.number("NEW")), (Some(0), Some(1)));
        assert_eq!(texel_of(&dir, &stack, "NEW"), 5);
        assert!(dir.notes.iter().any(|n| n.contains("only the last TEXTURE1")), "{:?}", dir.notes);
        // With the PWAD's TEXTURE1 over the base WAD's PNAMES, vanilla's index 0 is P1.
        let old_pnames = pwad("t.wad", |w| {
            w.lump(
                "TEXTURE1",
                writer::texture_lump(&[TextureSpec {
                    name: "C",
                    width: 8,
                    height: 8,
                    patches: &[(0, 0, 0)],
                }]),
            );
        });
        let stack = WadStack::new(vec![pwad_with_table("p.wad", &["X"]), base_wad(), old_pnames]);
        let dir = TextureDirectory::load_with(&stack, TextureRules::Vanilla).unwrap();
        assert_eq!(dir.defs.len(), 1);
        assert_eq!(texel_of(&dir, &stack, "C"), 1);
    }

    #[test]
    fn loose_pictures_replace_walls_and_flats_and_texture_definitions_replace_them() {
        let pal = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]];
        let red = crate::formats::doom::writer::png_lump(2, 2, &[255, 0, 0, 255].repeat(4), None)
            .unwrap();
        let green = crate::formats::doom::writer::png_lump(2, 2, &[0, 255, 0, 255].repeat(4), None)
            .unwrap();
        let text = b"WallTexture A, 8, 8 { Patch P2, 0, 0 } Texture B, 8, 8 { Patch P2, 0, 0 }";
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("x.wad", |w| {
                w.lump("TEXTURES", text.to_vec())
                    .marker("TX_START")
                    .lump("A", red.clone())
                    .lump("B", green.clone())
                    .lump("FB", green.clone())
                    .marker("TX_END");
            }),
        ]);
        // Pictures between TX_START and TX_END are not patches of that name.
        assert!(stack.lump("A").is_none());
        let dir = TextureDirectory::load(&stack).unwrap();
        let mut cache = PatchCache::new(&pal);
        let mut notes = Vec::new();
        let a = dir.compose(0, &stack, &mut cache, &mut notes);
        assert_eq!(
            (a.width, indexed(&a)),
            (2, &[1u8, 1, 1, 1][..]),
            "the picture beats WallTexture"
        );
        let b = dir.compose(1, &stack, &mut cache, &mut notes);
        assert_eq!((b.width, indexed(&b)[0]), (8, 2), "Texture beats the picture");
        let fb =
            dir.compose_flat(dir.flat_def("FB").unwrap(), &stack, &mut cache, &mut notes).fitted;
        assert_eq!(indexed(&fb)[0], 2);
    }

    #[test]
    fn textures_as_patches_placement_and_missing_parts() {
        let text = b"Texture NEST, 8, 8 { Patch A, 0, 0 Patch P2, 0, 0 { UseOffsets } }\n\
                     Texture SELF, 8, 8 { Patch SELF, 0, 0 }\n\
                     Texture GAPS, 8, 8 { Patch P1, 0, 0 Patch NOSUCH, 0, 0 }\n\
                     Texture optional QUIET, 8, 8 { Patch NOSUCH, 0, 0 }\n\
                     Texture NULL, 8, 8 { NullTexture }\n";
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("t.wad", |w| {
                w.lump("TEXTURES", text.to_vec());
            }),
        ]);
        let dir = TextureDirectory::load(&stack).unwrap();
        let mut cache = PatchCache::default();
        let mut notes = Vec::new();
        let nest = dir.compose(dir.number("NEST").unwrap(), &stack, &mut cache, &mut notes);
        // P2 (left 2, top 3) drawn at (-2, -3): its bottom-right texel lands on (1, 0).
        let px = indexed(&nest);
        assert_eq!((px[0], px[1], px[2], px[8]), (2, 2, 1, 1));
        let own = dir.compose(dir.number("SELF").unwrap(), &stack, &mut cache, &mut notes);
        assert!(notes.iter().any(|n| n.contains("SELF")), "{notes:?}");
        assert_eq!(own.width, 8);
        notes.clear();
        dir.compose(dir.number("GAPS").unwrap(), &stack, &mut cache, &mut notes);
        dir.compose(dir.number("QUIET").unwrap(), &stack, &mut cache, &mut notes);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("GAPS: unknown patch NOSUCH left out"));
        assert!(!dir.draws(dir.number("NULL").unwrap()) && dir.draws(1) && !dir.draws(0));
    }

    #[test]
    fn malformed_textures_lumps_and_includes_are_errors() {
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("t.wad", |w| {
                w.lump("TEXTURES", b"WallTexture X, 8, 8 { Patch P1 0, 0 }".to_vec());
            }),
        ]);
        let e = TextureDirectory::load(&stack).unwrap_err();
        assert_eq!((e.file.as_str(), e.structure.as_str()), ("t.wad", "TEXTURES"));
        assert_eq!(e.offset, 12 + 31, "the file offset of the 0 where a comma belongs");
        let stack = WadStack::new(vec![
            base_wad(),
            pwad("i.wad", |w| {
                w.lump("TEXTURES", b"#include \"MORE\"".to_vec())
                    .lump("MORE", b"#include \"TEXTURES\"".to_vec());
            }),
        ]);
        let e = TextureDirectory::load(&stack).unwrap_err();
        assert!(e.message.contains("levels deep"), "{e}");
    }

    #[test]
    fn huge_counts_are_errors() {
        let mut pn = (0x4000_0000i32).to_le_bytes().to_vec();
        pn.extend(writer::name8("A"));
        let mut w = WadWriter::pwad();
        w.lump("PNAMES", pn);
        let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
        let e = TextureDirectory::load(&stack).unwrap_err();
        assert_eq!(e.structure, "PNAMES");
        assert_eq!(e.file, "w.wad");
        assert_eq!(e.offset, 16);

        let mut w = WadWriter::pwad();
        w.lump("PNAMES", writer::pnames_lump(&[]))
            .lump("TEXTURE1", (0x7fff_0000i32).to_le_bytes().to_vec());
        let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
        let e = TextureDirectory::load(&stack).unwrap_err();
        assert_eq!(e.structure, "TEXTURE1");

        // A bad entry offset only breaks that entry.
        let mut t1 = 1i32.to_le_bytes().to_vec();
        t1.extend(9999i32.to_le_bytes());
        let mut w = WadWriter::pwad();
        w.lump("PNAMES", writer::pnames_lump(&[])).lump("TEXTURE1", t1);
        let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
        let dir = TextureDirectory::load(&stack).unwrap();
        assert!(dir.defs[0].broken.is_some());
        assert_eq!(dir.notes.len(), 1);
    }
}
