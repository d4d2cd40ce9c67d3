//! R_DrawMasked (r_things.c) on the canvas, after the walls and flats: the things far to near
//! (`sprites`), each after the masked middles behind it over its columns, then what is left
//! of the masked middles, last stored first (R_RenderMaskedSegRange, r_segs.c). A masked
//! middle's column is drawn once, when a sprite in front of it first asks for it or at the
//! end, so the two interleave exactly as vanilla draws them.

use super::canvas::{
    column_setup, remapped, row_scroll, texture_column, wall_light_level, Band, CanvasFrame,
    CanvasScene, LitRow,
};
use super::tables::{fixed_div, fixed_mul, FRACUNIT};
use crate::scene::doom::vanilla::MemoryColumn;

/// Which masked middle columns are drawn (vanilla sets `maskedtexturecol[x]` to MAXSHORT).
pub(super) struct MaskedDone {
    /// Per drawseg, where its columns' marks start in `drawn` (`u32::MAX`: no masked middle).
    first: Vec<u32>,
    drawn: Vec<bool>,
}

impl MaskedDone {
    pub(super) fn new(f: &CanvasFrame) -> MaskedDone {
        let mut first = vec![u32::MAX; f.walk.drawsegs.len()];
        let mut n = 0usize;
        for m in &f.walk.masked {
            let Some(ds) = f.walk.drawsegs.get(m.drawseg as usize) else { continue };
            first[m.drawseg as usize] = n as u32;
            n += (ds.x2 - ds.x1 + 1).max(0) as usize;
        }
        MaskedDone { first, drawn: vec![false; n] }
    }

    /// Marks column `x` of drawseg `ds` (first column `x1`) drawn; false if it already was.
    fn take(&mut self, ds: usize, x1: i32, x: i32) -> bool {
        let Some(&first) = self.first.get(ds).filter(|&&f| f != u32::MAX) else { return false };
        let i = first as usize + (x - x1) as usize;
        self.drawn.get_mut(i).is_some_and(|d| !std::mem::replace(d, true))
    }
}

impl CanvasScene {
    /// R_DrawMasked clipped to the band's rows. `fuzzpos` is vanilla's position in the fuzz
    /// table, carried from frame to frame; a frame with fuzz is drawn as one band (the fuzz
    /// reads the rows above and below and steps through the table pixel by pixel).
    pub(super) fn draw_masked(&self, f: &CanvasFrame, out: &mut Band, fuzzpos: &mut usize) {
        let mut done = MaskedDone::new(f);
        if f.sprites {
            for spr in &f.walk.vissprites {
                self.draw_sprite(f, spr, out, &mut done, fuzzpos);
            }
        }
        for m in f.walk.masked.iter().rev() {
            let Some(ds) = f.walk.drawsegs.get(m.drawseg as usize) else { continue };
            self.masked_seg_range(f, m.drawseg as usize, ds.x1, ds.x2, out, &mut done);
        }
    }

    /// R_RenderMaskedSegRange: columns `x1..=x2` of drawseg `index`'s masked middle not yet
    /// drawn, each column's posts (runs of opaque texels) scaled as R_DrawMaskedColumn scales
    /// them, clipped to the drawseg's sprite clips.
    pub(super) fn masked_seg_range(
        &self,
        f: &CanvasFrame,
        index: usize,
        x1: i32,
        x2: i32,
        out: &mut Band,
        done: &mut MaskedDone,
    ) {
        let (w, rows) = (out.w, out.rows());
        let centery = f.view.centery();
        let focal = (f.view.projection() as f32) / 65536.0;
        let all = self.all_texels();
        let (Some(ds), Some(clip)) = (f.walk.drawsegs.get(index), f.walk.sprite_clips.get(index))
        else {
            return;
        };
        let s = ds.seg as usize;
        let (Some(seg), Some(vseg)) = (f.segs.get(s), f.map.segs.get(s)) else { return };
        let Some(tier) = seg.tiers[2] else { return };
        let texture = remapped(&f.state, tier.texture);
        let info = self.infos.get(texture as usize).copied().unwrap_or_default();
        let (tw, th) = (info.width as usize, info.height as usize);
        let Some(texels) = all.get(info.first..info.first + tw * th) else { return };
        let level = wall_light_level(f, seg, vseg, ds.control_light);
        // Boom 260: blended through a translucency table into what is drawn at this point of
        // R_DrawMasked (walls, flats, and the sprites and masked columns drawn before it).
        let tranmap = seg.translucent.and_then(|t| f.map.tranmaps.get(t as usize));
        let blend = tranmap.filter(|t| t.len() >= 65536).map(|t| (&t[..], &self.palette[..]));
        // In texels: a UDMF y scale multiplies the texel step as for solid walls; a Boom
        // scroller's row offset adds texels.
        let texturemid = fixed_mul(tier.top.wrapping_sub(f.viewer.viewz), tier.y_scale)
            .wrapping_add(row_scroll(f, seg));
        for x in x1.max(ds.x1)..=x2.min(ds.x2) {
            if !done.take(index, ds.x1, x) {
                continue;
            }
            let Some((colbase, _)) = column_setup(f, s, x as u16) else { continue };
            let (Some(top), Some(bottom)) =
                (f.walk.clip_at(clip.top, ds, x), f.walk.clip_at(clip.bottom, ds, x))
            else {
                continue;
            };
            let col = texture_column(f, seg, &tier, colbase, info.width);
            let scale = ds.scale_at(x);
            if scale <= 0 {
                continue;
            }
            // Screen rows per texel (ZDoom's spryscale): the wall's scale over the y scale.
            let post_scale = if tier.y_scale == FRACUNIT {
                scale
            } else {
                fixed_div(scale, tier.y_scale.wrapping_abs().max(1))
            };
            if post_scale <= 0 {
                continue;
            }
            let j = (((scale >> 12) as f32 * 320.0 / w as f32) as i32).min(47);
            let colors = self.lit_row(f, ((15 - level) * 4 - j / 2).clamp(0, 31) as u32);
            let depth = f.viewer.near * scale as f32 / (focal * 65536.0);
            let place = PostPlace {
                clip: (top, bottom),
                centery,
                texturemid,
                sprtopscreen: (centery << 16).wrapping_sub(fixed_mul(texturemid, post_scale)),
                post_scale,
                iscale: (u32::MAX / post_scale as u32) as i32,
                rows: rows.start as i32..rows.end as i32,
            };
            let x = x as usize;
            if let Some(memory) = f.map.texture_memory.column(texture, col as i32) {
                memory_posts(&memory, &place, |yl, yh, source, mut frac| {
                    for y in yl..=yh {
                        let t = memory.byte(source + ((frac >> 16) & 127) as isize) as u32;
                        let p = (y as usize - rows.start) * w + x;
                        put(out, p, (colors, blend), t + info.palette, depth);
                        frac = frac.wrapping_add(place.iscale);
                    }
                });
                continue;
            }
            let texel = |row: usize| texels.get(col + (row % th) * tw).copied().unwrap_or(0);
            // The column's posts: runs of opaque texels.
            let mut row = 0;
            while row < th {
                if texel(row) & 256 != 0 {
                    row += 1;
                    continue;
                }
                let topdelta = row;
                while row < th && texel(row) & 256 == 0 {
                    row += 1;
                }
                let Some((yl, yh, mut frac)) = place.post(topdelta as i32, (row - topdelta) as i32)
                else {
                    continue;
                };
                for y in yl..=yh {
                    let t = texel(topdelta + ((frac >> 16) & 127) as usize) as u32;
                    let p = (y as usize - rows.start) * w + x;
                    put(out, p, (colors, blend), (t & 255) + info.palette, depth);
                    frac = frac.wrapping_add(place.iscale);
                }
            }
        }
    }
}

/// Boom 260's translucency table and the canvas's palette (RGBA8 as the canvas holds it).
pub(super) type Blend<'a> = Option<(&'a [u8], &'a [u32])>;

/// A masked middle's pixel `p` gets texel index `t` (palette base added) through `colors`, or
/// with Boom 260's table in `blend` becomes `table[dest << 8 | src]` (R_DrawTLColumn), its
/// depth left as it was.
pub(super) fn put(out: &mut Band, p: usize, (colors, blend): (&LitRow, Blend), t: u32, depth: f32) {
    let t = (t & 255) as usize;
    match blend {
        Some((table, palette)) => {
            let i = table[(out.indices[p] as usize) << 8 | colors.indices[t] as usize];
            out.colors[p] = palette.get(i as usize).copied().unwrap_or(0xFF00_0000);
            out.indices[p] = i;
        }
        None => {
            out.colors[p] = colors.colors[t];
            out.indices[p] = colors.indices[t];
            out.depths[p] = depth;
        }
    }
}

/// Where R_DrawMaskedColumn puts one column's posts: `mceilingclip` and `mfloorclip` at the
/// column, the column's top on screen and its scale, the band's rows.
pub(super) struct PostPlace {
    pub(super) clip: (i32, i32),
    pub(super) centery: i32,
    pub(super) texturemid: i32,
    pub(super) sprtopscreen: i32,
    /// `spryscale`.
    pub(super) post_scale: i32,
    /// `dc_iscale`.
    pub(super) iscale: i32,
    pub(super) rows: std::ops::Range<i32>,
}

impl PostPlace {
    /// The rows `yl..=yh` a post of `length` texels from texel row `topdelta` covers, clipped
    /// to the column's clips and the band, and R_DrawColumn's `frac` at `yl` (relative to
    /// the post's first texel); `None` when it covers none.
    pub(super) fn post(&self, topdelta: i32, length: i32) -> Option<(i32, i32, i32)> {
        let topscreen = self.sprtopscreen.wrapping_add(self.post_scale.wrapping_mul(topdelta));
        let bottomscreen = topscreen.wrapping_add(self.post_scale.wrapping_mul(length));
        let yl = (topscreen.wrapping_add(0xFFFF) >> 16).max(self.clip.0 + 1);
        let yh = (bottomscreen.wrapping_sub(1) >> 16).min(self.clip.1 - 1);
        let (yl, yh) = (yl.max(self.rows.start), yh.min(self.rows.end - 1));
        if yl > yh {
            return None;
        }
        let postmid = self.texturemid.wrapping_sub(topdelta << 16);
        Some((yl, yh, postmid.wrapping_add((yl - self.centery).wrapping_mul(self.iscale))))
    }
}

/// R_DrawMaskedColumn over the column's bytes as vanilla holds them: the post headers start
/// three bytes before the column's first texel. In a patch lump they are the patch's own
/// posts (its topdelta, whatever the patch's y offset in the texture, and its whole length,
/// past the texture's height too); in a composite they are the previous column's last texels
/// and the column's texels read as headers (the Medusa effect). The walk ends at a 0xFF
/// topdelta or at the block's end (vanilla would read on into the zone heap). `draw` gets
/// each post's rows `yl..=yh`, its first texel (relative to the column's) and `frac` at `yl`.
pub(super) fn memory_posts(
    memory: &MemoryColumn,
    place: &PostPlace,
    mut draw: impl FnMut(i32, i32, isize, i32),
) {
    let mut header: isize = -3;
    while memory.before_end(header) {
        let topdelta = memory.byte(header);
        if topdelta == 0xFF {
            break;
        }
        let length = memory.byte(header + 1) as i32;
        if let Some((yl, yh, frac)) = place.post(topdelta as i32, length) {
            draw(yl, yh, header + 3, frac);
        }
        header += length as isize + 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::doom::vanilla::{ColumnAt, TextureMemory};
    use std::sync::Arc;

    /// The rows a one-pixel-wide band of 100 rows gets from R_DrawMaskedColumn over the
    /// column at `offset` of `block`, one screen row a texel, texel rows at half a row.
    fn posts(block: &[u8], offset: u32) -> Vec<u32> {
        let memory = TextureMemory {
            blocks: vec![Arc::from(block)],
            textures: vec![vec![ColumnAt { block: 0, offset }]],
        };
        let column = memory.column(0, 0).unwrap();
        let place = PostPlace {
            clip: (-1, 100),
            centery: 0,
            texturemid: 0x8000,
            sprtopscreen: -0x8000,
            post_scale: FRACUNIT,
            iscale: (u32::MAX / FRACUNIT as u32) as i32,
            rows: 0..100,
        };
        let mut out = vec![999u32; 100];
        memory_posts(&column, &place, |yl, yh, source, mut frac| {
            for y in yl..=yh {
                out[y as usize] = column.byte(source + ((frac >> 16) & 127) as isize) as u32;
                frac = frac.wrapping_add(place.iscale);
            }
        });
        out
    }

    #[test]
    fn masked_columns_walk_the_posts_in_memory() {
        // A patch column: a post of 3 at row 2, one of 2 at row 70 (past a 64-row texture:
        // vanilla draws it all the same), then the 0xFF end.
        let block = [2, 3, 0, 10, 11, 12, 0, 70, 2, 0, 20, 21, 0, 0xFF];
        let rows = posts(&block, 3);
        let drawn: Vec<(usize, u32)> =
            rows.iter().enumerate().filter(|(_, &c)| c != 999).map(|(y, &c)| (y, c)).collect();
        assert_eq!(drawn, [(2, 10), (3, 11), (4, 12), (70, 20), (71, 21)]);
        // No end marker: the walk stops at the block's end without reading on.
        let rows = posts(&block[..12], 3);
        assert_eq!(rows.iter().filter(|&&c| c != 999).count(), 5);
        // A composite's first column (the Medusa effect): the three bytes before the buffer
        // read as a post of length 0, then the column's own texels are headers: texel 1 a
        // topdelta of 1, texel 2 a length of 2, texels 4 and 5 that post's pixels.
        let composite = [9, 1, 2, 0, 7, 8];
        let rows = posts(&composite, 0);
        assert_eq!(rows[..4], [999, 7, 8, 999]);
    }
}
