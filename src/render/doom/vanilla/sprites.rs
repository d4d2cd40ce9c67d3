//! Things on the canvas as vanilla draws them (r_things.c R_DrawSprite, R_DrawVisSprite;
//! r_draw.c R_DrawColumn, R_DrawFuzzColumn): each vissprite clipped column by column by the
//! drawsegs in front of it (their silhouettes' saved clip rows), the masked middles behind it
//! drawn first over its columns, then its patch's posts stepped down as R_DrawMaskedColumn
//! does, lit by one colormap or drawn as fuzz.

use super::canvas::{Band, CanvasFrame, CanvasScene, FUZZ_COLORMAP};
use super::masked::{memory_posts, put, MaskedDone, PostPlace};
use super::segs::{SIL_BOTTOM, SIL_TOP};
use super::tables::fixed_mul;
use super::vissprites::{SpriteLight, VisSprite};
use crate::scene::doom::vanilla::point_on_side;

/// R_DrawFuzzColumn's offsets: the row below (+1) or above (-1) each fuzz pixel copies from
/// (vanilla's `fuzzoffset`, in rows rather than bytes).
pub(super) const FUZZ_OFFSETS: [i8; 50] = [
    1, -1, 1, -1, 1, 1, -1, 1, 1, -1, 1, 1, 1, -1, 1, 1, 1, -1, -1, -1, -1, 1, -1, -1, 1, 1, 1, 1,
    -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, -1, -1, -1, 1, 1, 1, 1, -1, 1, 1, -1, 1,
];

/// A clip array entry not set yet.
const UNCLIPPED: i32 = -2;

impl CanvasScene {
    /// R_DrawSprite: the sprite's clip arrays from the drawsegs in front of it (scanned from
    /// the last stored), the masked middles behind it drawn over its columns on the way,
    /// then the sprite.
    pub(super) fn draw_sprite(
        &self,
        f: &CanvasFrame,
        spr: &VisSprite,
        out: &mut Band,
        done: &mut MaskedDone,
        fuzzpos: &mut usize,
    ) {
        if spr.x1 > spr.x2 {
            return;
        }
        let n = (spr.x2 - spr.x1 + 1) as usize;
        let (mut clipbot, mut cliptop) = (vec![UNCLIPPED; n], vec![UNCLIPPED; n]);
        let walk = f.walk;
        for (index, ds) in walk.drawsegs.iter().enumerate().rev() {
            let Some(clip) = walk.sprite_clips.get(index) else { continue };
            if ds.x1 > spr.x2 || ds.x2 < spr.x1 || (clip.silhouette == 0 && !clip.masked) {
                continue;
            }
            let (r1, r2) = (ds.x1.max(spr.x1), ds.x2.min(spr.x2));
            let (lowscale, scale) = (ds.scale1.min(ds.scale2), ds.scale1.max(ds.scale2));
            // The seg is behind the sprite: nearer the viewer nowhere, or partly and with the
            // sprite on its front side.
            let behind = scale < spr.scale
                || (lowscale < spr.scale && self.in_front_of_seg(f, ds.seg, spr.gx, spr.gy));
            if behind {
                if clip.masked {
                    self.masked_seg_range(f, index, r1, r2, out, done);
                }
                continue;
            }
            let mut silhouette = clip.silhouette;
            if spr.gz >= clip.bsilheight {
                silhouette &= !SIL_BOTTOM;
            }
            if spr.gzt <= clip.tsilheight {
                silhouette &= !SIL_TOP;
            }
            for x in r1..=r2 {
                let i = (x - spr.x1) as usize;
                if silhouette & SIL_BOTTOM != 0 && clipbot[i] == UNCLIPPED {
                    clipbot[i] = walk.clip_at(clip.bottom, ds, x).unwrap_or(UNCLIPPED);
                }
                if silhouette & SIL_TOP != 0 && cliptop[i] == UNCLIPPED {
                    cliptop[i] = walk.clip_at(clip.top, ds, x).unwrap_or(UNCLIPPED);
                }
            }
        }
        let height = walk.height as i32;
        for c in &mut clipbot {
            if *c == UNCLIPPED {
                *c = height;
            }
        }
        for c in &mut cliptop {
            if *c == UNCLIPPED {
                *c = -1;
            }
        }
        self.draw_vis_sprite(f, spr, (&cliptop, &clipbot), out, fuzzpos);
    }

    /// Whether (`x`, `y`) lies on the front side of seg `seg` (`!R_PointOnSegSide`).
    fn in_front_of_seg(&self, f: &CanvasFrame, seg: u32, x: i32, y: i32) -> bool {
        let Some(s) = f.map.segs.get(seg as usize) else { return true };
        let (dx, dy) = (s.v2[0].wrapping_sub(s.v1[0]), s.v2[1].wrapping_sub(s.v1[1]));
        point_on_side(x, y, s.v1[0], s.v1[1], dx, dy) == 0
    }

    /// R_DrawVisSprite: each column of the sprite's patch (stepped by `xiscale` from
    /// `startfrac`) through R_DrawMaskedColumn within the clip arrays.
    fn draw_vis_sprite(
        &self,
        f: &CanvasFrame,
        spr: &VisSprite,
        (cliptop, clipbot): (&[i32], &[i32]),
        out: &mut Band,
        fuzzpos: &mut usize,
    ) {
        let things = &f.map.things;
        let (w, rows) = (out.w, out.rows());
        let centery = f.view.centery();
        let depth = f.viewer.near * spr.scale as f32 / f.view.projection().max(1) as f32;
        let colors = match spr.light {
            SpriteLight::Map(m) => Some(self.lit_row(f, m as u32)),
            SpriteLight::Fuzz => None,
        };
        let fuzz_row = self.lit_row(f, FUZZ_COLORMAP as u32);
        // GZDoom's translucent styles: blended through their table into what is drawn here.
        let tranmap = spr.translucent.and_then(|t| f.map.tranmaps.get(t as usize));
        let blend = tranmap.filter(|t| t.len() >= 65536).map(|t| (&t[..], &self.palette[..]));
        let sprtopscreen = (centery << 16).wrapping_sub(fixed_mul(spr.texturemid, spr.scale));
        let height = f.walk.height as i32;
        let mut frac = spr.startfrac;
        for x in spr.x1..=spr.x2 {
            let i = (x - spr.x1) as usize;
            let column = things.column(spr.patch, frac >> 16);
            frac = frac.wrapping_add(spr.xiscale);
            // Vanilla stops with "R_DrawSpriteRange: bad texturecolumn" here.
            let Some(memory) = column else { continue };
            let place = PostPlace {
                clip: (cliptop[i], clipbot[i]),
                centery,
                texturemid: spr.texel_mid,
                sprtopscreen,
                post_scale: spr.post_scale,
                iscale: spr.post_iscale,
                rows: rows.start as i32..rows.end as i32,
            };
            let x = x as usize;
            memory_posts(&memory, &place, |yl, yh, source, mut frac| {
                let Some(colors) = colors else {
                    // A frame with fuzz is drawn as one band (see `CanvasScene::draw`).
                    // Through row 6 of the frame's colormap (Boom's `fullcolormap`); under
                    // COLORMAP, colour by colour as before the canvas kept indices.
                    let fuzzed = |c, i: u8| {
                        let (colour, index) =
                            (fuzz_row.colors[i as usize], fuzz_row.indices[i as usize]);
                        (if f.walk.colormap == 0 { self.fuzzed(c) } else { colour }, index)
                    };
                    fuzz_column(out, x, (yl, yh), height, fuzzpos, depth, fuzzed);
                    return;
                };
                for y in yl..=yh {
                    let t = memory.byte(source + ((frac >> 16) & 127) as isize) as usize;
                    let p = (y as usize - rows.start) * w + x;
                    if blend.is_some() {
                        put(out, p, (colors, blend), t as u32, depth);
                    } else {
                        out.colors[p] = colors.colors[t];
                        out.indices[p] = colors.indices[t];
                        out.depths[p] = depth;
                    }
                    frac = frac.wrapping_add(spr.post_iscale);
                }
            });
        }
    }
}

/// R_DrawFuzzColumn: rows `yl..=yh` of column `x` (kept off the screen's first and last rows)
/// take the pixel above or below them, by the fuzz table from `fuzzpos` on, through COLORMAP
/// row 6 (`fuzzed`), in place and top to bottom, so a row may copy one fuzzed just before.
/// Only a band that holds the whole screen is drawn on.
fn fuzz_column(
    out: &mut Band,
    x: usize,
    (yl, yh): (i32, i32),
    height: i32,
    fuzzpos: &mut usize,
    depth: f32,
    fuzzed: impl Fn(u32, u8) -> (u32, u8),
) {
    let w = out.w;
    let yl = if yl == 0 { 1 } else { yl };
    let yh = if yh == height - 1 { height - 2 } else { yh };
    if yh < yl || out.y0 != 0 || out.colors.len() < height as usize * w {
        return;
    }
    for y in yl..=yh {
        let p = y as usize * w + x;
        let from = (y + FUZZ_OFFSETS[*fuzzpos % FUZZ_OFFSETS.len()] as i32) as usize * w + x;
        let source = out.colors.get(from).zip(out.indices.get(from));
        if let (Some((&colour, &index)), true) = (source, p < out.colors.len()) {
            (out.colors[p], out.indices[p]) = fuzzed(colour, index);
            out.depths[p] = depth;
        }
        *fuzzpos = (*fuzzpos + 1) % FUZZ_OFFSETS.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_copies_the_row_above_or_below_through_colormap_6() {
        // One column of 8 rows holding their row number; "colormap 6" adds 100.
        let (mut colors, mut depths) = ((0..8).collect::<Vec<u32>>(), vec![0.0; 8]);
        let mut indices: Vec<u8> = (0..8).collect();
        let mut band =
            Band { y0: 0, w: 1, colors: &mut colors, depths: &mut depths, indices: &mut indices };
        let mut fuzzpos = 48;
        fuzz_column(&mut band, 0, (0, 7), 8, &mut fuzzpos, 1.0, |c, i| (c + 100, i + 100));
        // Rows 0 and 7 are left alone; rows 1..=6 take offsets 48, 49, 0, 1, 2, 3 of the
        // table (-1, +1, +1, -1, +1, -1), reading rows already fuzzed where they lie above.
        assert_eq!(colors, [0, 100, 103, 104, 204, 106, 206, 7]);
        assert_eq!(indices, [0, 100, 103, 104, 204, 106, 206, 7]);
        assert_eq!(depths, [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]);
        // The table position carries on from where the column left it, wrapping at 50.
        assert_eq!(fuzzpos, 4);
        assert_eq!(FUZZ_OFFSETS.iter().filter(|&&o| o > 0).count(), 29);
    }
}
