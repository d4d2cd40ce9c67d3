//! Reading the texture lumps: PNAMES, TEXTURE1/TEXTURE2 (vanilla's binary tables, each entry
//! a texture of patches) and TEXTURES (GZDoom's text definitions, following `#include`s),
//! into [`TextureDef`]s. Apart from the lookup rules because what a lump says does not depend
//! on which engine's rules then pick among the lumps.

use crate::formats::doom::archive::wad::{Lump, WadStack};
use crate::formats::doom::graphics::textures_lump::{
    parse_textures_lump, TextureDefinition, TexturesItem,
};
use crate::formats::{FormatError, Result};
use crate::limits::doom::{MAX_PICTURE_TEXELS, MAX_TEXTURES_INCLUDE_DEPTH, MAX_TEXTURE_SIDE};

use super::{
    shortened, DefSource, PatchPlacement, PatchRef, TextureDef, TextureDirectory, TextureScale,
};

impl TextureDirectory {
    /// A TEXTURES definition of file `file` as the texture it composes.
    pub(super) fn definition_texture(&mut self, d: &TextureDefinition, file: usize) -> TextureDef {
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
        } else if d.width > MAX_TEXTURE_SIDE
            || d.height > MAX_TEXTURE_SIDE
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
}

/// Reads one TEXTURES lump's definitions into `out`, following `#include`s.
pub(super) fn read_textures(
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
                if depth >= MAX_TEXTURES_INCLUDE_DEPTH {
                    return Err(FormatError::new(
                        lump.file,
                        "TEXTURES",
                        offset,
                        format!(
                            "#include \"{name}\": more than {MAX_TEXTURES_INCLUDE_DEPTH} levels \
                             deep"
                        ),
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

pub(super) fn parse_pnames(lump: &Lump<'_>) -> Result<Vec<String>> {
    let mut r = lump.reader("PNAMES");
    let count = r.i32_le()?;
    if count < 0 {
        return Err(r.error_at(0, format!("negative patch count {count}")));
    }
    r.check_count(count as usize, 8, "patch names")?;
    (0..count).map(|_| Ok(r.name(8)?.to_ascii_uppercase())).collect()
}

pub(super) fn parse_texture_lump(
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
