//! Compositing: a definition's patches drawn into texels as `R_GenerateComposite` draws them
//! (GZDoom's mirrored, turned and offset parts too), cut to the width vanilla shows, fitted
//! to 64x64 for flats, and the cache of decoded patches. Apart from the lookup rules because
//! it only draws what they resolved, and is what the scene builder calls for each texture.

use std::collections::HashMap;
use std::rc::Rc;

use crate::formats::doom::archive::wad::{LumpNum, WadStack};
use crate::formats::doom::graphics::flats::{fit_flat, flat_picture, FlatTexture};
use crate::formats::doom::graphics::palette_match::PaletteMatcher;
use crate::formats::doom::graphics::picture::Picture;
use crate::limits::doom::{MAX_CACHED_TEXELS, MAX_TEXTURE_NESTING};
use crate::scene::{Texels, Texture};

use super::{DefSource, PatchRef, TextureDef, TextureDirectory};

impl TextureDirectory {
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
                // Which file's definition asks for the patch, to know where to look.
                let from = stack.wads().get(def.file).map_or("?", |w| w.name());
                match def.source {
                    // Vanilla stops on a missing patch; a placeholder shows the fault.
                    DefSource::TextureX | DefSource::Picture => {
                        notes.push(format!(
                            "texture {} uses missing {what}; drawn as a placeholder (defined \
                             in {from})",
                            def.name
                        ));
                        return None;
                    }
                    // GZDoom drops the part, warning unless the texture is optional.
                    DefSource::TexturesLump { optional } => {
                        if !optional {
                            notes.push(format!(
                                "TEXTURES texture {}: unknown {what} left out (defined in {from})",
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
                if depth >= MAX_TEXTURE_NESTING {
                    notes.push(format!(
                        "texture {} used as a patch more than {MAX_TEXTURE_NESTING} levels deep",
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
