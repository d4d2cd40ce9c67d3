//! The scene's textures as the builder asks for them by name or number: each made once (keyed
//! by what it was made from), within the scene's texel budget, with ZDoom's and GZDoom's
//! fallbacks (a flat on a wall, a wall texture or sprite on a flat) and placeholders for what
//! is missing. Apart from the steps because every step draws textures through these rules.

use crate::formats::doom::archive::wad::LumpNum;
use crate::formats::doom::graphics::flats::{fit_flat, flat_texture, FlatTexture};
use crate::formats::doom::graphics::picture::Picture;
use crate::formats::doom::graphics::sprites::SpritePicture;
use crate::formats::doom::graphics::textures::placeholder;
use crate::scene::{Texels, Texture};

use super::{Builder, Missing, SCENE_TEXEL_BUDGET};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum TexKey {
    Wall(usize),
    Flat(usize),
    /// A flat only TEXTURES or a loose picture defines (index in `flat_defs`).
    FlatDef(usize),
    /// A wall texture (or a TEXTURES graphic) drawn as a flat.
    WallAsFlat(usize),
    /// A sprite (its scene texture) drawn as a flat.
    SpriteAsFlat(u32),
    Sprite(LumpNum),
    /// A TEXTURES sprite definition (index in `sprite_defs`).
    SpriteDef(usize),
    Missing(String),
    MissingFlat(String),
}

impl Builder<'_> {
    pub(super) fn add_texture(&mut self, key: TexKey, tex: Texture) -> u32 {
        if let Some(&i) = self.keys.get(&key) {
            return i;
        }
        let i = self.textures.len() as u32;
        self.textures.push(tex);
        self.keys.insert(key, i);
        i
    }

    /// Takes `texels` from the scene's texel budget; false (with a note, once) when exhausted.
    fn take_texels(&mut self, texels: usize) -> bool {
        if texels <= self.texels_left {
            self.texels_left -= texels;
            return true;
        }
        if !std::mem::replace(&mut self.budget_noted, true) {
            self.notes.push(format!(
                "textures exceed {SCENE_TEXEL_BUDGET} texels; the rest are placeholders"
            ));
        }
        false
    }

    pub(super) fn wall_by_number(&mut self, num: usize) -> u32 {
        if let Some(&i) = self.keys.get(&TexKey::Wall(num)) {
            return i;
        }
        let texels = self.texdir.defs.get(num).map_or(0, |d| d.width as usize * d.height as usize);
        let tex = if self.take_texels(texels) {
            self.texdir.compose(num, self.stack, &mut self.patches, &mut self.notes)
        } else {
            placeholder(&self.texdir.defs[num].name, 64, 64)
        };
        self.add_texture(TexKey::Wall(num), tex)
    }

    pub(super) fn flat_by_number(&mut self, num: usize) -> u32 {
        if let Some(&i) = self.keys.get(&TexKey::Flat(num)) {
            return i;
        }
        let defined =
            self.stack.flats().entries().get(num).and_then(|e| self.texdir.flat_def(&e.name));
        let tex = match defined {
            Some(i) => self.texdir.compose_flat(i, self.stack, &mut self.patches, &mut self.notes),
            None => flat_texture(self.stack, num, &mut self.patches.colours, &mut self.notes),
        };
        self.add_flat(TexKey::Flat(num), tex)
    }

    /// Adds a flat's 64x64 texture under `key`, and its full-size texture, where it has one,
    /// as the texture smooth frames draw in its place.
    fn add_flat(&mut self, key: TexKey, flat: FlatTexture) -> u32 {
        let fitted = self.add_texture(key, flat.fitted);
        if let Some(full) = flat.full {
            if self.take_texels(full.width as usize * full.height as usize) {
                let i = self.textures.len() as u32;
                self.textures.push(full);
                self.smooth_flats.push([fitted, i]);
            }
        }
        fitted
    }

    /// Scene texture and height of a sidedef texture name; `None` draws nothing: "-", an
    /// empty name, or texture number 0 (vanilla treats number 0 as "no texture").
    pub(super) fn wall_texture(&mut self, name: &str) -> Option<(u32, f64)> {
        if name.is_empty() || name.starts_with('-') {
            return None;
        }
        match self.texdir.number(name) {
            Some(0) => {
                // Remembered under a key no texture uses, so the note is written once.
                let key = TexKey::Missing(format!("#0 {name}"));
                if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
                    e.insert(u32::MAX);
                    self.notes.push(format!(
                        "texture {name} is texture number 0, which vanilla never draws"
                    ));
                }
                None
            }
            // TEXTURES' NullTexture and a file's first TEXTURE1 entry (ZDoom's rules): as
            // texture 0, nothing drawn.
            Some(n) if !self.texdir.draws(n) => {
                if self.texdir.defs[n].first_defined {
                    let key = TexKey::Missing(format!("#first {name}"));
                    if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
                        e.insert(u32::MAX);
                        self.notes.push(format!(
                            "texture {name} is the first entry of {}'s TEXTURE1, which ZDoom \
                             never draws on walls",
                            self.stack
                                .wads()
                                .get(self.texdir.defs[n].file)
                                .map_or("?", |w| w.name())
                        ));
                    }
                }
                None
            }
            Some(n) => {
                self.used_walls.insert(n);
                let height = self.texdir.defs[n].height as f64;
                Some((self.wall_by_number(n), height))
            }
            None => {
                if let Some(found) = self.other_use_on_wall(name) {
                    return Some(found);
                }
                // The placeholder is made once per name: a PWAD opened without its IWAD
                // misses every wall's texture.
                let key = TexKey::Missing(name.to_string());
                if let Some(&t) = self.keys.get(&key) {
                    return Some((t, 64.0));
                }
                self.note_missing(Missing::Texture(name.to_string()));
                Some((self.add_texture(key, placeholder(name, 64, 64)), 64.0))
            }
        }
    }

    pub(super) fn flat(&mut self, name: &str) -> u32 {
        match self.stack.flats().number(name) {
            Some(n) => {
                self.used_flats.insert(n);
                self.flat_by_number(n)
            }
            None => {
                if let Some(i) = self.texdir.flat_def(name) {
                    if let Some(&t) = self.keys.get(&TexKey::FlatDef(i)) {
                        return t;
                    }
                    let tex =
                        self.texdir.compose_flat(i, self.stack, &mut self.patches, &mut self.notes);
                    return self.add_flat(TexKey::FlatDef(i), tex);
                }
                // GZDoom looks a sector's textures up with TEXMAN_TryAny: where no flat has
                // the name, a texture of another use (a wall texture, or a TEXTURES graphic
                // standing in for one). Vanilla stops with an error instead.
                let wall =
                    self.texdir.number(name).filter(|&n| !self.vanilla && self.texdir.draws(n));
                if let Some(n) = wall {
                    if let Some(&t) = self.keys.get(&TexKey::WallAsFlat(n)) {
                        return t;
                    }
                    self.notes.push(format!(
                        "flat {name} is a wall texture: drawn on floors and ceilings as GZDoom \
                         draws it"
                    ));
                    let tex = self.texdir.compose_as_flat(
                        n,
                        self.stack,
                        &mut self.patches,
                        &mut self.notes,
                    );
                    return self.add_flat(TexKey::WallAsFlat(n), tex);
                }
                if let Some(t) = self.sprite_named(name) {
                    return self.sprite_as_flat(name, t);
                }
                let key = TexKey::MissingFlat(name.to_string());
                if let Some(&t) = self.keys.get(&key) {
                    return t;
                }
                self.note_missing(Missing::Flat(name.to_string()));
                self.add_texture(key, placeholder(name, 64, 64))
            }
        }
    }

    /// The texture of another use GZDoom's `TEXMAN_TryAny` draws on a wall no wall texture
    /// names: a flat (at its full size), else a sprite; none under vanilla's rules, where the
    /// name is an error. Its scene texture and height.
    fn other_use_on_wall(&mut self, name: &str) -> Option<(u32, f64)> {
        if self.vanilla {
            return None;
        }
        let (t, what) =
            if self.stack.flats().number(name).is_some() || self.texdir.flat_def(name).is_some() {
                let fitted = self.flat(name);
                let full = self.smooth_flats.iter().find(|p| p[0] == fitted).map(|p| p[1]);
                (full.unwrap_or(fitted), "flat")
            } else {
                (self.sprite_named(name)?, "sprite")
            };
        let key = TexKey::Missing(format!("#{what} on a wall {name}"));
        if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
            e.insert(u32::MAX);
            self.notes
                .push(format!("texture {name} is a {what}: drawn on walls as GZDoom draws it"));
        }
        let height = self.textures.get(t as usize).map_or(64, |t| t.height);
        Some((t, height as f64))
    }

    /// The scene texture of the sprite named `name`, as GZDoom's `TEXMAN_TryAny` finds one: a
    /// TEXTURES `Sprite` definition, else a lump between `S_START` and `S_END`; none under
    /// vanilla's rules.
    pub(super) fn sprite_named(&mut self, name: &str) -> Option<u32> {
        if self.vanilla {
            return None;
        }
        let picture = match self.texdir.sprite_def(name) {
            Some(i) => SpritePicture::Defined(i),
            None => {
                let sprites = self.stack.sprites();
                SpritePicture::Lump(sprites.entries().get(sprites.number(name)?)?.lump)
            }
        };
        Some(self.sprite_texture(picture))
    }

    /// Sprite texture `t` drawn as the flat `name`, fitted as any flat (its transparent
    /// texels index 0).
    fn sprite_as_flat(&mut self, name: &str, t: u32) -> u32 {
        if let Some(&f) = self.keys.get(&TexKey::SpriteAsFlat(t)) {
            return f;
        }
        self.notes.push(format!(
            "flat {name} is a sprite: drawn on floors and ceilings as GZDoom draws it"
        ));
        let Some(Texels::Indexed { index, opaque }) =
            self.textures.get(t as usize).map(|t| &t.texels)
        else {
            return self.add_texture(TexKey::SpriteAsFlat(t), placeholder(name, 64, 64));
        };
        let tex = &self.textures[t as usize];
        let pic = Picture {
            width: tex.width as u16,
            height: tex.height as u16,
            left: 0,
            top: 0,
            opaque: if opaque.is_empty() { vec![true; index.len()] } else { opaque.clone() },
            index: index.clone(),
            clipped: 0,
        };
        let flat = fit_flat(name, &pic, &mut self.notes);
        self.add_flat(TexKey::SpriteAsFlat(t), flat)
    }

    pub(super) fn sprite_texture(&mut self, picture: SpritePicture) -> u32 {
        let lump = match picture {
            SpritePicture::Lump(lump) => lump,
            SpritePicture::Defined(i) => return self.defined_sprite_texture(i),
        };
        if let Some(&i) = self.keys.get(&TexKey::Sprite(lump)) {
            return i;
        }
        let Some(l) = self.stack.lump_at(lump) else {
            return self.add_texture(TexKey::Sprite(lump), placeholder("?", 16, 16));
        };
        // The header gives the size; a picture too large for what is left becomes a
        // placeholder (decoding checks the header itself).
        let size = Picture::size_of(&l).map_or(0, |(w, h)| w * h);
        if !self.take_texels(size) {
            return self.add_texture(TexKey::Sprite(lump), placeholder(l.name, 16, 16));
        }
        let tex = match Picture::decode(&l, &mut self.patches.colours) {
            Ok(p) => {
                let all = p.opaque.iter().all(|&o| o);
                Texture {
                    name: l.name.to_string(),
                    width: p.width as u32,
                    height: p.height as u32,
                    origin: (p.left as i32, p.top as i32),
                    texels: Texels::Indexed {
                        index: p.index,
                        opaque: if all { Vec::new() } else { p.opaque },
                    },
                    palette: 0,
                }
            }
            Err(e) => {
                self.notes.push(format!("sprite {}: {e}", l.name));
                placeholder(l.name, 16, 16)
            }
        };
        self.add_texture(TexKey::Sprite(lump), tex)
    }

    /// The texture of TEXTURES sprite definition `i`, composed like a wall texture and placed
    /// by its `Offset`.
    fn defined_sprite_texture(&mut self, i: usize) -> u32 {
        if let Some(&t) = self.keys.get(&TexKey::SpriteDef(i)) {
            return t;
        }
        let (w, h) = self.texdir.sprite_defs.get(i).map_or((0, 0), |s| (s.def.width, s.def.height));
        let tex = if self.take_texels(w as usize * h as usize) {
            self.texdir.compose_sprite(i, self.stack, &mut self.patches, &mut self.notes)
        } else {
            placeholder("?", 16, 16)
        };
        self.add_texture(TexKey::SpriteDef(i), tex)
    }
}
