//! The lookup rules: which TEXTURE1/TEXTURE2 tables a stack's rules read and how they are
//! numbered, then what GZDoom adds on top (TEXTURES definitions, loose and hires pictures,
//! graphics) and which definition wins a name; and how a patch name resolves to a lump, a
//! texture, a flat or a sprite. Apart from parsing and compositing because these are the
//! engines' rules, which the module comment of `textures` sets out.

use std::collections::HashMap;

use crate::formats::doom::archive::wad::{LumpNum, Namespace, WadStack};
use crate::formats::doom::graphics::picture::Picture;
use crate::formats::doom::graphics::textures_lump::{DefinitionKind, TextureDefinition};
use crate::formats::Result;
use crate::limits::doom::MAX_TEXTURE_SIDE;

use super::parsing::{parse_pnames, parse_texture_lump, read_textures};
use super::{
    shortened, DefSource, PatchKey, PatchRef, SpriteDef, TextureDef, TextureDirectory,
    TextureRules, TextureScale,
};

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
        for &(_, num) in &loose {
            if let Some(lump) = stack.lump_at(num) {
                dir.loose_by_name.insert(lump.name.to_string(), num);
            }
        }
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

    /// GZDoom's `AddHiresTextures`: each picture in `HI_START`..`HI_END` (a package's `hires/`)
    /// replaces the wall texture and the flat of its name, drawn at the replaced one's size in
    /// the world (its scale is its size over that) with offsets in map units (WorldPanning).
    /// A name nothing has is added as a texture and flat at its own size. A replacement
    /// defined by a later file than the picture's stays.
    fn install_hires(&mut self, stack: &WadStack) {
        let mut replaced = 0;
        for (file, num) in stack.hires_pictures() {
            let Some(lump) = stack.lump_at(num) else { continue };
            let Some((w, h)) = Picture::size_of(&lump).filter(|&(w, h)| {
                w > 0 && h > 0 && w as i64 <= MAX_TEXTURE_SIDE && h as i64 <= MAX_TEXTURE_SIDE
            }) else {
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

    /// Adds a loose picture of file `file` as a wall texture and a flat.
    fn install_picture(&mut self, stack: &WadStack, num: LumpNum, file: usize) {
        let Some(lump) = stack.lump_at(num) else { return };
        let def = match Picture::size_of(&lump) {
            Some((w, h)) if w as i64 <= MAX_TEXTURE_SIDE && h as i64 <= MAX_TEXTURE_SIDE => {
                TextureDef::picture(
                    lump.name.to_string(),
                    (w as u16, h as u16),
                    num,
                    file,
                    TextureScale::default(),
                )
            }
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

    /// What a placement's picture is, as a cache key.
    pub(super) fn resolve(
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
                // A definition naming itself (`Texture X { Patch X }`, common in TEXTURES that
                // give `textures/` pictures offsets or scales) gets the picture it replaced:
                // GZDoom's ResolvePatches, finding the texture itself, takes the last texture
                // of the name that is not composed of patches.
                if let Some(&n) = self.loose_by_name.get(&name.to_ascii_uppercase()) {
                    return Some(PatchKey::Lump(n));
                }
                let in_namespace = |ns: &Namespace| {
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
