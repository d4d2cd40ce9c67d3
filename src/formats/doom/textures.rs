//! Wall textures: PNAMES (patch names) and TEXTURE1/TEXTURE2 (textures composed of patches),
//! numbered as vanilla `R_InitTextures` does: TEXTURE1's entries, then TEXTURE2's.

use std::collections::HashMap;

use crate::formats::{FormatError, Result};
use crate::scene::{Texels, Texture};

use super::picture::{Picture, MAX_PICTURE_TEXELS};
use super::wad::{Lump, WadStack};

/// One patch placed in a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatchPlacement {
    pub x: i16,
    pub y: i16,
    /// Index into PNAMES.
    pub patch: u16,
}

/// A texture definition from TEXTURE1/2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureDef {
    /// Upper-cased name.
    pub name: String,
    pub width: u16,
    pub height: u16,
    pub patches: Vec<PatchPlacement>,
    /// Why the entry could not be read (it then draws as a placeholder).
    pub broken: Option<String>,
}

impl TextureDef {
    /// Width the game can show: vanilla masks the column with the largest power of two not
    /// above the width (`texturewidthmask`), so a 96-wide texture shows columns 0..63 only.
    pub fn visible_width(&self) -> u16 {
        if self.width == 0 {
            return 0;
        }
        1 << (15 - self.width.leading_zeros())
    }
}

/// All wall textures of a WAD stack, in vanilla numbering.
#[derive(Clone, Debug, Default)]
pub struct TextureDirectory {
    pub defs: Vec<TextureDef>,
    pub pnames: Vec<String>,
    by_name: HashMap<String, usize>,
    pub notes: Vec<String>,
}

impl TextureDirectory {
    /// Reads PNAMES, TEXTURE1 and (if present) TEXTURE2, each the last lump of its name.
    /// A corrupt table (count or offsets past the lump) is an error; a corrupt entry becomes a
    /// placeholder with a note.
    pub fn load(stack: &WadStack) -> Result<TextureDirectory> {
        let mut dir = TextureDirectory::default();
        match stack.lump("PNAMES") {
            Some(l) => dir.pnames = parse_pnames(&l)?,
            None => dir.notes.push("no PNAMES lump: textures cannot be composed".into()),
        }
        let mut any = false;
        for name in ["TEXTURE1", "TEXTURE2"] {
            if let Some(l) = stack.lump(name) {
                any = true;
                let defs = parse_texture_lump(&l, &mut dir.notes)?;
                dir.defs.extend(defs);
            }
        }
        if !any {
            dir.notes.push("no TEXTURE1 lump: every wall is a placeholder".into());
        }
        for (i, d) in dir.defs.iter().enumerate() {
            // Vanilla R_CheckTextureNumForName scans forward: the first definition wins.
            dir.by_name.entry(d.name.clone()).or_insert(i);
        }
        Ok(dir)
    }

    /// Texture number for `name` (case-insensitive), first definition winning.
    pub fn number(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_uppercase()).copied()
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
        if let Some(why) = &def.broken {
            notes.push(format!("texture {}: {why}", def.name));
            return placeholder(&def.name, def.width.max(1), def.height.max(1));
        }
        let (w, h) = (def.width as usize, def.height as usize);
        let mut index = vec![0u8; w * h];
        let mut opaque = vec![false; w * h];
        for p in &def.patches {
            let Some(pic) = patches.get(self, p.patch as usize, stack, notes) else {
                notes.push(format!(
                    "texture {} uses missing patch #{} ({}); drawn as a placeholder",
                    def.name,
                    p.patch,
                    self.pnames.get(p.patch as usize).map(String::as_str).unwrap_or("past PNAMES")
                ));
                return placeholder(&def.name, def.width, def.height);
            };
            // As R_DrawColumnInCache: columns outside the texture are skipped, posts clipped
            // to the texture's rows.
            let (pw, ph) = (pic.width as usize, pic.height as usize);
            for px in 0..pw {
                let x = p.x as i32 + px as i32;
                if x < 0 || x >= w as i32 {
                    continue;
                }
                for py in 0..ph {
                    let src = py * pw + px;
                    if !pic.opaque[src] {
                        continue;
                    }
                    let y = p.y as i32 + py as i32;
                    if y < 0 || y >= h as i32 {
                        continue;
                    }
                    let dst = y as usize * w + x as usize;
                    index[dst] = pic.index[src];
                    opaque[dst] = true;
                }
            }
        }
        crop_to_visible_width(def, index, opaque)
    }
}

fn crop_to_visible_width(def: &TextureDef, index: Vec<u8>, opaque: Vec<bool>) -> Texture {
    let (w, h) = (def.width as usize, def.height as usize);
    let vw = def.visible_width() as usize;
    let (index, opaque) = if vw == w {
        (index, opaque)
    } else {
        let mut i2 = Vec::with_capacity(vw * h);
        let mut o2 = Vec::with_capacity(vw * h);
        for y in 0..h {
            i2.extend_from_slice(&index[y * w..y * w + vw]);
            o2.extend_from_slice(&opaque[y * w..y * w + vw]);
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

/// Decoded patches by PNAMES index, looked up as vanilla does (last lump with the name).
#[derive(Default)]
pub struct PatchCache {
    pics: HashMap<usize, Option<Picture>>,
}

impl PatchCache {
    pub fn get(
        &mut self,
        dir: &TextureDirectory,
        patch: usize,
        stack: &WadStack,
        notes: &mut Vec<String>,
    ) -> Option<&Picture> {
        self.pics
            .entry(patch)
            .or_insert_with(|| {
                let name = dir.pnames.get(patch)?;
                let lump = stack.lump(name)?;
                match Picture::parse(&lump) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        notes.push(format!("patch {name}: {e}"));
                        None
                    }
                }
            })
            .as_ref()
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

fn parse_texture_lump(lump: &Lump<'_>, notes: &mut Vec<String>) -> Result<Vec<TextureDef>> {
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
        match parse_texture_entry(lump, off) {
            Ok(d) => defs.push(d),
            Err(e) => {
                notes.push(format!("{} entry {i}: {e}", lump.name));
                defs.push(TextureDef {
                    name: format!("{}#{i}", lump.name),
                    width: 64,
                    height: 64,
                    patches: Vec::new(),
                    broken: Some(e.to_string()),
                });
            }
        }
    }
    Ok(defs)
}

fn parse_texture_entry(
    lump: &Lump<'_>,
    offset: i32,
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
        patches.push(PatchPlacement {
            x,
            y,
            patch: if patch < 0 { u16::MAX } else { patch as u16 },
        });
    }
    Ok(TextureDef { name, width: width as u16, height: height as u16, patches, broken: None })
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
