//! Vanilla's texture memory: where `R_GetColumn` points the column drawers for each column of
//! a TEXTURE1/TEXTURE2 texture (r_data.c `R_GenerateLookup`, `R_GenerateComposite`).
//!
//! Vanilla never builds a texture as a picture. A column covered by exactly one patch is read
//! straight out of the patch lump, from the first byte of its first post's pixels
//! (`columnofs[x] + 3`); only columns covered by several patches are composed, into the
//! texture's composite buffer, `height` bytes each, one after the other in column order. The
//! drawers then read past the column: `R_DrawColumn` reads row `(frac >> 16) & 127`, so a
//! texture shorter than 128 rows that tiles vertically shows the bytes that follow its column
//! (tutti-frutti: post trailers and headers and the next posts of the lump, or the next
//! composite column), and `R_DrawMaskedColumn` walks the post headers it finds there, which
//! in a composite are texels (the Medusa effect). Reproducing that means keeping the bytes.

use std::collections::HashMap;
use std::sync::Arc;

use super::textures::{DefSource, PatchRef, TextureDirectory};
use crate::formats::doom::archive::wad::{LumpNum, WadStack};
use crate::limits::doom::MAX_TEXTURE_MEMORY_BYTES;
use crate::scene::doom::vanilla::{ColumnAt, TextureMemory};

/// Where one texture column's bytes start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnSource {
    /// In a patch lump, at `offset` (the first post's pixels; vanilla keeps the offset in
    /// 16 bits, so it is already cut to them).
    Lump { lump: LumpNum, offset: u32 },
    /// In the texture's composite buffer, at `offset`.
    Composite { offset: u32 },
    /// Nowhere vanilla defines: a column no patch covers (vanilla prints "column without a
    /// patch" and leaves the column's lookup uninitialised).
    Undefined,
}

/// A texture's columns as `R_GetColumn` finds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColumnMemory {
    /// `texturecomposite`: the multi-patch columns, `height` bytes each.
    pub composite: Vec<u8>,
    /// Columns `0..=texturewidthmask` (the only ones `col &= texturewidthmask` reaches).
    pub columns: Vec<ColumnSource>,
}

/// A patch lump's width and column offsets, read bounds-checked.
struct PatchHeader<'a> {
    data: &'a [u8],
    width: i32,
}

impl<'a> PatchHeader<'a> {
    /// The header of a Doom-format patch: a positive width whose column offsets all lie
    /// inside the lump (a PNG or other picture fails this and keeps the composed texels).
    fn read(data: &'a [u8]) -> Option<PatchHeader<'a>> {
        if data.starts_with(b"\x89PNG") {
            return None;
        }
        let width = i16::from_le_bytes([*data.first()?, *data.get(1)?]) as i32;
        let header = PatchHeader { data, width };
        let valid = width > 0
            && (0..width)
                .all(|c| header.column_offset(c).is_some_and(|o| (o as usize) < data.len()));
        valid.then_some(header)
    }

    /// `columnofs[c]`, `None` past the lump.
    fn column_offset(&self, c: i32) -> Option<u32> {
        let at = 8usize.checked_add(usize::try_from(c).ok()?.checked_mul(4)?)?;
        let b = self.data.get(at..at + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl TextureDirectory {
    /// Texture `num`'s column memory as vanilla lays it out, or `None` when vanilla's rules
    /// do not apply (a GZDoom definition, a broken entry, a patch that is not a readable
    /// Doom-format patch lump): its columns are then drawn from the composed picture.
    pub fn column_memory(&self, num: usize, stack: &WadStack) -> Option<ColumnMemory> {
        let def = self.defs.get(num)?;
        if def.source != DefSource::TextureX || def.broken.is_some() || def.null {
            return None;
        }
        let (width, height) = (def.width as usize, def.height as usize);
        if width == 0 {
            return None;
        }
        // The patches in definition order, as vanilla walks them.
        let mut patches = Vec::with_capacity(def.patches.len());
        for p in &def.patches {
            let PatchRef::Pnames(i) = p.patch else { return None };
            let lump = stack.lump_num(self.patch_name(def, i)?)?;
            let data = stack.lump_at(lump)?.data;
            patches.push((p.x, p.y, lump, PatchHeader::read(data)?));
        }

        // R_GenerateLookup, first pass: each column's patch count and its last patch's
        // lump and offset (`columnofs + 3`, stored in an unsigned short).
        let mut count = vec![0u32; width];
        let mut last = vec![(0usize, 0u32); width];
        for (x1, _, lump, header) in &patches {
            let x2 = x1.saturating_add(header.width).min(width as i32);
            for x in (*x1).max(0)..x2 {
                let ofs = header.column_offset(x - x1)?;
                count[x as usize] += 1;
                last[x as usize] = (*lump, ofs.wrapping_add(3) & 0xFFFF);
            }
        }
        // Second pass: multi-patch columns get composite space in column order. A column
        // no patch covers ends the pass (vanilla returns there), so the columns after it
        // keep their last patch's lump even when several patches cover them.
        let mut composite_at = vec![None; width];
        let mut size = 0usize;
        for x in 0..width {
            if count[x] == 0 {
                break;
            }
            if count[x] > 1 {
                composite_at[x] = Some(size);
                size += height;
            }
        }

        // R_GenerateComposite: each patch's posts into the multi-patch columns, clipped to
        // the texture's rows. Vanilla's buffer starts as whatever the zone block held; it
        // starts as zeros here (the rows no post covers keep that value).
        let mut composite = vec![0u8; size];
        for (x1, y0, _, header) in &patches {
            let x2 = x1.saturating_add(header.width).min(width as i32);
            for x in (*x1).max(0)..x2 {
                let Some(at) = composite_at[x as usize] else { continue };
                let ofs = header.column_offset(x - x1)? as usize;
                let column = composite.get_mut(at..at + height)?;
                draw_column_in_cache(header.data, ofs, *y0, column);
            }
        }

        let visible = 1usize << (usize::BITS - 1 - width.leading_zeros());
        let columns = (0..visible)
            .map(|x| match (composite_at[x], count[x]) {
                (Some(at), _) => ColumnSource::Composite { offset: at as u32 },
                (None, 0) => ColumnSource::Undefined,
                (None, _) => ColumnSource::Lump { lump: last[x].0, offset: last[x].1 },
            })
            .collect();
        Some(ColumnMemory { composite, columns })
    }
}

/// R_DrawColumnInCache: the posts of the patch column at `ofs` of `lump`, each at
/// `originy + topdelta`, clipped to `cache`. A post header or pixels past the lump's end end
/// the column (vanilla would read on into memory).
fn draw_column_in_cache(lump: &[u8], mut ofs: usize, originy: i32, cache: &mut [u8]) {
    let height = cache.len() as i32;
    while let Some(&topdelta) = lump.get(ofs) {
        if topdelta == 0xFF {
            return;
        }
        let Some(&length) = lump.get(ofs + 1) else { return };
        let mut count = length as i32;
        let mut position = originy.saturating_add(topdelta as i32);
        // A post reaching above the texture loses its bottom rows, not its top ones: vanilla
        // shortens the count but copies from the post's first pixel all the same.
        let source = ofs + 3;
        if position < 0 {
            count += position;
            position = 0;
        }
        if position + count > height {
            count = height - position;
        }
        if count > 0 {
            let n = count as usize;
            let Some(pixels) = lump.get(source..source + n) else { return };
            let Some(dst) = cache.get_mut(position as usize..position as usize + n) else {
                return;
            };
            dst.copy_from_slice(pixels);
        }
        ofs += length as usize + 4;
    }
}

/// The texture memory of a scene: for each `(texture number, scene texture)` of `walls`,
/// vanilla's column layout (scene textures not named, or without a vanilla layout, get
/// none). `texture_count` is the number of scene textures.
pub fn scene_texture_memory(
    dir: &TextureDirectory,
    stack: &WadStack,
    walls: &[(usize, u32)],
    texture_count: usize,
    notes: &mut Vec<String>,
) -> TextureMemory {
    let mut memory =
        TextureMemory { blocks: Vec::new(), textures: vec![Vec::new(); texture_count] };
    let mut lump_blocks: HashMap<LumpNum, u32> = HashMap::new();
    let mut bytes = 0usize;
    let mut noted = false;
    for &(num, scene) in walls {
        let Some(layout) = dir.column_memory(num, stack) else { continue };
        // The bytes this texture adds: its composite and the lumps not held yet.
        let mut new_lumps: Vec<LumpNum> = Vec::new();
        for c in &layout.columns {
            if let ColumnSource::Lump { lump, .. } = c {
                if !lump_blocks.contains_key(lump) && !new_lumps.contains(lump) {
                    new_lumps.push(*lump);
                }
            }
        }
        let lump_data = |l: LumpNum| stack.lump_at(l).map_or(&[][..], |l| l.data);
        let adds =
            layout.composite.len() + new_lumps.iter().map(|&l| lump_data(l).len()).sum::<usize>();
        if bytes + adds > MAX_TEXTURE_MEMORY_BYTES {
            if !std::mem::replace(&mut noted, true) {
                notes.push(format!(
                    "wall textures' vanilla column memory passes {MAX_TEXTURE_MEMORY_BYTES} \
                     bytes; the rest wrap at their height in faithful mode (no tutti-frutti)"
                ));
            }
            continue;
        }
        bytes += adds;
        for l in new_lumps {
            lump_blocks.insert(l, memory.blocks.len() as u32);
            memory.blocks.push(Arc::from(lump_data(l)));
        }
        let composite = memory.blocks.len() as u32;
        let has_composite = !layout.composite.is_empty();
        if has_composite {
            memory.blocks.push(Arc::from(layout.composite));
        }
        let columns = layout
            .columns
            .iter()
            .map(|c| match *c {
                ColumnSource::Lump { lump, offset } => {
                    ColumnAt { block: lump_blocks.get(&lump).copied().unwrap_or(u32::MAX), offset }
                }
                ColumnSource::Composite { offset } if has_composite => {
                    ColumnAt { block: composite, offset }
                }
                _ => ColumnAt { block: u32::MAX, offset: 0 },
            })
            .collect();
        if let Some(slot) = memory.textures.get_mut(scene as usize) {
            *slot = columns;
        }
    }
    memory
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::Wad;
    use crate::formats::doom::archive::writer::{self, TextureSpec, WadWriter};

    /// A patch to write: name, width, height and each texel by (x, y).
    type PatchSpec<'a> = (&'a str, u16, u16, fn(usize, usize) -> u8);

    /// A stack of one PWAD with `patches` (name, width, height, texel) and TEXTURE1 `textures`.
    fn stack(patches: &[PatchSpec], textures: &[TextureSpec]) -> WadStack {
        let mut w = WadWriter::pwad();
        for &(name, pw, ph, texel) in patches {
            let texels: Vec<Option<u8>> = (0..pw as usize * ph as usize)
                .map(|i| Some(texel(i % pw as usize, i / pw as usize)))
                .collect();
            w.lump(name, writer::patch_lump(pw, ph, 0, 0, &texels));
        }
        let names: Vec<&str> = patches.iter().map(|p| p.0).collect();
        w.lump("PNAMES", writer::pnames_lump(&names))
            .lump("TEXTURE1", writer::texture_lump(textures));
        WadStack::new(vec![Wad::from_bytes("t.wad", w.to_bytes()).unwrap()])
    }

    /// Texture 0 of `stack` as the canvas reads it (scene texture 0).
    fn memory(stack: &WadStack) -> TextureMemory {
        let dir = TextureDirectory::load(stack).unwrap();
        let mut notes = Vec::new();
        let m = scene_texture_memory(&dir, stack, &[(0, 0)], 1, &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        m
    }

    fn texel_a(x: usize, y: usize) -> u8 {
        (x * 64 + y) as u8 | 1
    }

    #[test]
    fn a_short_single_patch_column_reads_on_into_the_patch_lump() {
        let spec = TextureSpec { name: "SHORT", width: 4, height: 64, patches: &[(0, 0, 0)] };
        let stack = stack(&[("PA", 4, 64, texel_a)], &[spec]);
        let m = memory(&stack);
        for x in 0..3 {
            let rows = m.column(0, x as i32).unwrap().rows();
            // The texture's own rows, then (where vanilla's `& 127` reads on) the post's
            // trailing pad byte, the column's 0xFF end, the next column's post header
            // (topdelta 0, length 64, pad byte) and its pixels: not the column's top again.
            assert!((0..64).all(|y| rows[y] == texel_a(x, y)), "column {x}");
            assert_eq!(rows[64..69], [texel_a(x, 63), 0xFF, 0, 64, texel_a(x + 1, 0)]);
            assert!((69..128).all(|r| rows[r] == texel_a(x + 1, r - 69)), "column {x}");
        }
        // The last column runs off the lump's end: the documented fixed value.
        let rows = m.column(0, 3).unwrap().rows();
        assert_eq!(rows[64..66], [texel_a(3, 63), 0xFF]);
        assert!(rows[66..].iter().all(|&b| b == crate::scene::doom::vanilla::OUTSIDE_BLOCK));
    }

    #[test]
    fn a_multi_patch_column_reads_on_into_the_next_composite_column() {
        // PB covers the texture; PC covers columns 2 and 3 from row 8 and, placed 4 rows
        // above the top, columns 0 and 1: every column is composed.
        let spec = TextureSpec {
            name: "TWO",
            width: 4,
            height: 32,
            patches: &[(0, 0, 0), (2, 8, 1), (0, -4, 1)],
        };
        let pb: fn(usize, usize) -> u8 = |x, y| (10 + x * 32 + y) as u8;
        let pc: fn(usize, usize) -> u8 = |x, y| (200 + x * 16 + y) as u8;
        let stack = stack(&[("PB", 4, 32, pb), ("PC", 2, 16, pc)], &[spec]);
        let dir = TextureDirectory::load(&stack).unwrap();
        let layout = dir.column_memory(0, &stack).unwrap();
        // Every column has two patches: composed in column order, 32 bytes each.
        let at: Vec<ColumnSource> =
            (0..4).map(|x| ColumnSource::Composite { offset: x * 32 }).collect();
        assert_eq!(layout.columns, at);
        let m = memory(&stack);
        let column = |x: i32| m.column(0, x).unwrap().rows();
        // Column 2: PB's rows, PC's over rows 8..24; row 32 on is column 3.
        let c2 = column(2);
        assert!((0..8).all(|y| c2[y] == pb(2, y)) && (8..24).all(|y| c2[y] == pc(0, y - 8)));
        assert!((24..32).all(|y| c2[y] == pb(2, y)));
        assert_eq!(c2[32..64], column(3)[..32]);
        // Past the composite: the documented fixed value.
        assert!(column(3)[32..].iter().all(|&b| b == 0));
        // PC placed 4 rows above the top: vanilla shortens the post but still copies it from
        // its first pixel, so rows 0..12 show PC's rows 0..12 (not 4..16).
        let c0 = column(0);
        assert!((0..12).all(|y| c0[y] == pc(0, y)), "{:?}", &c0[..16]);
        assert!((12..32).all(|y| c0[y] == pb(0, y)));
        assert_eq!(c0[32..64], column(1)[..32]);
    }

    #[test]
    fn a_width_96_texture_repeats_its_first_64_columns() {
        let spec = TextureSpec { name: "WIDE", width: 96, height: 8, patches: &[(0, 0, 0)] };
        let texel: fn(usize, usize) -> u8 = |x, _| x as u8;
        let stack = stack(&[("PW", 96, 8, texel)], &[spec]);
        let m = memory(&stack);
        // texturewidthmask 63: column 64 is column 0, 95 is 31, -1 is 63.
        assert_eq!(m.textures[0].len(), 64);
        for (col, shown) in [(64, 0), (95, 31), (-1, 63), (63, 63), (130, 2)] {
            assert_eq!(m.column(0, col).unwrap().byte(0), shown as u8, "column {col}");
        }
    }

    #[test]
    fn a_column_no_patch_covers_ends_the_composite_lookup() {
        // Column 1 has no patch; columns 2, 3 have two patches but, as vanilla stops there,
        // are read straight from their last patch's lump.
        let spec = TextureSpec {
            name: "GAP",
            width: 4,
            height: 8,
            patches: &[(0, 0, 0), (2, 0, 0), (2, 0, 0)],
        };
        let texel: fn(usize, usize) -> u8 = |x, y| (x * 8 + y + 1) as u8;
        let stack = stack(&[("PG", 1, 8, texel)], &[spec]);
        let dir = TextureDirectory::load(&stack).unwrap();
        let layout = dir.column_memory(0, &stack).unwrap();
        assert!(layout.composite.is_empty());
        assert_eq!(layout.columns[1], ColumnSource::Undefined);
        assert!(matches!(layout.columns[2], ColumnSource::Lump { offset: 15, .. }));
        assert!(matches!(layout.columns[3], ColumnSource::Undefined));
    }
}
