//! The solid world of a vanilla-exact Doom frame drawn on the CPU, as vanilla draws it: every
//! wall column the walk drew stepped down its texture as R_DrawColumn does, every flat span
//! stepped across its flat as R_MapPlane / R_DrawSpan do, the sky by view angle. Vanilla's
//! renderer is a column and span rasteriser; repeating it here instead of rasterising the
//! level's triangles and then correcting each pixel to what the walk found costs a few
//! additions a pixel where a software GPU pays a full fragment shader, and every pixel lands
//! where vanilla puts it.
//!
//! The things and masked middles follow (`masked`, `sprites`). The result is the frame's
//! colour (RGBA8, copied into the scene's colour target) and each pixel's depth, which what
//! the GPU draws over it tests against (`hidden_by_canvas` in shaders/common.wgsl).

pub(super) use crate::render::canvas_bands::Band;

use super::tables::{fixed_div, fixed_mul, zlight, ANG90, ANGLETOFINESHIFT, MAXLIGHTZ};
use super::vissprites::SpriteLight;
use super::wall_setup::{ColumnTables, COLUMN_WORDS, SEG_INDEX_WORDS};
use super::{VanillaView, WalkResult};
use crate::render::canvas_bands::{self, Bands};
use crate::render::packing::MetaLayout;
use crate::scene::doom::vanilla::{FlatXform, VSky, VanillaMap, WalkSeg};
use crate::scene::doom::{VanillaSeg, VanillaTier};

/// Rows of one colormap (light levels 0..31, then the invulnerability and all-black maps);
/// the lit palette holds COLORMAP's, then those of the map's Boom colormaps.
const LIT_ROWS: usize = 34;
/// The COLORMAP row R_DrawFuzzColumn darkens by (`colormaps[6 * 256 + ...]`).
pub(super) const FUZZ_COLORMAP: usize = 6;

/// One colormap row: each palette index's colour and index after it.
pub(super) struct LitRow {
    pub(super) colors: [u32; 256],
    pub(super) indices: [u8; 256],
}

/// A texture's descriptor as packed for the shaders (packing.rs).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TexInfo {
    /// First texel, counted in 16-bit texels.
    pub(super) first: usize,
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) palette: u32,
}

/// What the canvas reads of the scene, kept on the CPU: the packed texels and their
/// descriptors, the palette and the lit palette (packed RGBA8, as the shaders read them).
pub struct CanvasScene {
    /// The packed texels (two 16-bit texels a word: index, transparency above).
    texels: Vec<u32>,
    pub(super) infos: Vec<TexInfo>,
    /// Every colormap row, through the palette and as indices.
    lit: Vec<LitRow>,
    pub(super) palette: Vec<u32>,
    clear: u32,
    zlight: Vec<u32>,
    /// Each palette colour (as drawn) to its index's colour through COLORMAP row 6, which
    /// R_DrawFuzzColumn applies to the pixel it copies (the canvas keeps colours, not indices;
    /// where two indices share a colour the first one's is taken).
    fuzz: std::collections::HashMap<u32, u32>,
    /// Bands a frame is drawn in: the cores (asked once; the answer reads cgroup files).
    bands: usize,
}

/// A canvas: a colour (RGBA8), a reverse depth (`near / distance`; 0 for the sky and for
/// pixels the walk left empty) and a palette index (what Boom's translucency tables blend
/// with) a pixel, row-major.
#[derive(Default)]
pub struct Canvas {
    pub colors: Vec<u32>,
    pub depths: Vec<f32>,
    /// R_DrawFuzzColumn's place in its table, which vanilla never resets: carried from frame
    /// to frame, 0 when the canvas is made (at level load).
    pub fuzzpos: usize,
    /// Each pixel's palette index (Boom 260's translucency tables read what lies behind).
    pub indices: Vec<u8>,
}

/// The per-frame state the canvas reads: light values by slot, texture remap, scroll
/// offsets (see `packing::pack_state`).
pub struct CanvasState<'a> {
    pub light: &'a [u32],
    pub remap: &'a [u32],
    /// Two f32 bit patterns a scroll slot.
    pub scroll: &'a [u32],
}

/// The viewer as the spans and columns read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CanvasViewer {
    pub viewx: i32,
    pub viewy: i32,
    pub viewz: i32,
    pub viewangle: u32,
    /// Per-pixel steps of a span at distance 1 (R_SetupFrame's `basexscale`, `baseyscale`).
    pub basexscale: i32,
    pub baseyscale: i32,
    /// The scene's near distance (reverse depth is `near / distance`).
    pub near: f32,
    /// The sky texture (before animation).
    pub sky_texture: u32,
}

impl Band<'_> {
    /// Pixel `p` shows palette index `i` through `row`.
    pub(super) fn put(&mut self, p: usize, row: &LitRow, i: u32) {
        let i = (i & 255) as usize;
        self.colors[p] = row.colors[i];
        self.indices[p] = row.indices[i];
    }
}

/// One frame's inputs besides the scene.
pub struct CanvasFrame<'a> {
    pub walk: &'a WalkResult,
    pub view: &'a VanillaView,
    pub map: &'a VanillaMap,
    pub segs: &'a [VanillaSeg],
    /// The wall columns' set-up (`wall_setup::WallSetup::columns`) and where it lies.
    pub columns: &'a [u32],
    pub column_tables: ColumnTables,
    pub sine: &'a [i32],
    pub viewer: CanvasViewer,
    pub state: CanvasState<'a>,
    /// Whether the things are drawn.
    pub sprites: bool,
}

impl CanvasScene {
    /// `meta` and `texels` as `packing::pack_scene` made them; `clear` is what pixels the walk
    /// leaves empty show (RGB); `bgra` puts the colours in BGRA order (the image's format).
    pub fn new(
        meta: &[u32],
        layout: &MetaLayout,
        texels: Vec<u32>,
        clear: [u8; 3],
        bgra: bool,
    ) -> Self {
        let infos = (0..layout.texture_count as usize)
            .map(|t| {
                let at = layout.texinfo as usize + t * 8;
                let word = |i: usize| meta.get(at + i).copied().unwrap_or(0);
                TexInfo {
                    first: word(0) as usize * 2,
                    width: word(1).max(1),
                    height: word(2).max(1),
                    palette: word(6),
                }
            })
            .collect();
        let words = |from: u32, count: usize| {
            let from = from as usize;
            let mut row = meta.get(from..(from + count).min(meta.len())).unwrap_or(&[]).to_vec();
            row.resize(count, 0xFF00_0000);
            row
        };
        // The colormaps lie before their lit rows (Doom's family constant 0, doom/packing.rs), as
        // many words as rows.
        let rows = (layout.family[0].saturating_sub(layout.colormap) as usize / 256).max(LIT_ROWS);
        let lit =
            if layout.family[0] == 0 { Vec::new() } else { words(layout.family[0], rows * 256) };
        let maps = words(layout.colormap, rows * 256);
        let [r, g, b] = clear.map(u32::from);
        let order = |c: u32| {
            if bgra {
                c & 0xFF00_FF00 | (c & 0xFF) << 16 | (c >> 16) & 0xFF
            } else {
                c
            }
        };
        let lit = if lit.is_empty() { vec![0xFF00_0000; rows * 256] } else { lit };
        let palette_len = layout.colormap.saturating_sub(layout.palette).max(1) as usize;
        let lit: Vec<LitRow> = lit
            .chunks_exact(256)
            .zip(maps.chunks_exact(256))
            .map(|(row, map)| LitRow {
                colors: std::array::from_fn(|i| order(row[i])),
                indices: std::array::from_fn(|i| map[i] as u8),
            })
            .collect();
        let palette: Vec<u32> = words(layout.palette, palette_len).into_iter().map(order).collect();
        let mut fuzz = std::collections::HashMap::new();
        for (&colour, &fuzzed) in palette.iter().zip(&lit[FUZZ_COLORMAP].colors) {
            fuzz.entry(colour).or_insert(fuzzed);
        }
        CanvasScene {
            texels,
            infos,
            lit,
            palette,
            clear: order(r | g << 8 | b << 16 | 0xFF00_0000),
            zlight: zlight(),
            fuzz,
            bands: canvas_bands::threads(),
        }
    }

    fn info(&self, state: &CanvasState, texture: u32) -> TexInfo {
        self.infos.get(remapped(state, texture) as usize).copied().unwrap_or_default()
    }

    /// A pixel's colour after R_DrawFuzzColumn's COLORMAP row 6 (unchanged if it is no
    /// palette colour: the clear colour of a pixel the walk left empty).
    pub(super) fn fuzzed(&self, colour: u32) -> u32 {
        self.fuzz.get(&colour).copied().unwrap_or(colour)
    }

    /// The palette index of texel `i` of the texture at `info`, 0 outside the texels.
    fn texel(&self, info: &TexInfo, i: usize) -> u32 {
        self.all_texels().get(info.first + i).map_or(0, |&t| t as u32 & 255)
    }

    /// Draws the frame into `out`, in bands of rows on as many threads as the machine has
    /// cores, one band each: each draws every column and span clipped to its rows,
    /// then the things and masked middles (R_DrawMasked). Fuzz reads the rows above and below
    /// and steps one table position a pixel in drawing order, so a frame with fuzz draws its
    /// things and masked middles on one thread over the whole screen once the bands are done.
    pub fn draw(&self, f: &CanvasFrame, out: &mut Canvas) {
        let (w, h) = (f.walk.width as usize, f.walk.height as usize);
        let fuzz = f.sprites && f.walk.vissprites.iter().any(|v| v.light == SpriteLight::Fuzz);
        // Each band walks every column and span of the frame: one band a core.
        let rows = h.div_ceil(self.bands).max(1);
        let how = Bands { rows, threads: self.bands, clear: self.clear, indices: true };
        let (colors, depths, indices) = (&mut out.colors, &mut out.depths, &mut out.indices);
        canvas_bands::draw_in_bands(colors, depths, indices, (w, h), how, |band| {
            self.walls(f, band);
            self.flats(f, band);
            if !fuzz {
                // No fuzz: the table position is not read.
                self.draw_masked(f, band, &mut 0);
            }
        });
        if fuzz {
            let mut screen = Band {
                y0: 0,
                w,
                colors: &mut out.colors,
                depths: &mut out.depths,
                indices: &mut out.indices,
            };
            self.draw_masked(f, &mut screen, &mut out.fuzzpos);
        }
    }

    /// The lit palette's row `map` of the frame's colormap (Boom 242's region colormap, else
    /// COLORMAP).
    pub(super) fn lit_row(&self, f: &CanvasFrame, map: u32) -> &LitRow {
        let base = (f.walk.colormap as usize).saturating_mul(LIT_ROWS);
        let base = if base + LIT_ROWS <= self.lit.len() { base } else { 0 };
        &self.lit[base + (map as usize).min(LIT_ROWS - 1)]
    }

    /// R_RenderSegLoop's columns: each through R_DrawColumn with its colormap.
    fn walls(&self, f: &CanvasFrame, out: &mut Band) {
        let (w, rows) = (out.w, out.rows());
        let centery = f.view.centery();
        let focal = (f.view.projection() as f32) / 65536.0;
        let all = self.all_texels();
        for c in &f.walk.wall_columns {
            let (yl, yh) = ((c.yl as usize).max(rows.start), (c.yh as usize).min(rows.end - 1));
            if yl > yh {
                continue;
            }
            let Some(ds) = f.walk.drawsegs.get(c.drawseg as usize) else { continue };
            let s = ds.seg as usize;
            let (Some(seg), Some(vseg)) = (f.segs.get(s), f.map.segs.get(s)) else { continue };
            let Some(tier) = seg.tiers[c.tier as usize & 1] else { continue };
            let Some((colbase, packed)) = column_setup(f, s, c.x) else { continue };
            let texture = remapped(&f.state, tier.texture);
            let info = self.infos.get(texture as usize).copied().unwrap_or_default();
            let col = texture_column(f, seg, &tier, colbase, info.width);
            // The 128 rows R_DrawColumn reads of the column as vanilla holds it in memory
            // (tutti-frutti below a short texture); `None`: the composed texels, wrapped.
            let memory = f.map.texture_memory.column(texture, col as i32).map(|c| c.rows());
            // A UDMF y scale multiplies the texel step (identity at FRACUNIT).
            let iscale = fixed_mul((packed & 0xFF_FFFF) as i32, tier.y_scale);
            // Light: the sector's level with fake contrast, then scalelight by the column's
            // scale (R_StoreWallRange, R_RenderSegLoop).
            let level = wall_light_level(f, seg, vseg, ds.control_light);
            let j = ((packed >> 24) as i32).min(47);
            let map = ((15 - level) * 4 - j / 2).clamp(0, 31) as u32;
            let depth = f.viewer.near * ds.scale_at(c.x as i32) as f32 / (focal * 65536.0);
            let colors = self.lit_row(f, map);
            let texturemid = fixed_mul(tier.top.wrapping_sub(f.viewer.viewz), tier.y_scale)
                .wrapping_add(row_scroll(f, seg));
            let mut frac = texturemid.wrapping_add((yl as i32 - centery).wrapping_mul(iscale));
            let (tw, th) = (info.width as usize, info.height);
            let Some(texels) = all.get(info.first..info.first + tw * th as usize) else { continue };
            let x = c.x as usize;
            let texel = |row: u32| {
                let t = texels.get(col + row as usize * tw).copied().unwrap_or(0) as u32;
                (t & 255) + info.palette
            };
            let pow2 = th.is_power_of_two() && th <= 128;
            for p in (yl - rows.start..=yh - rows.start).map(|y| y * w + x) {
                let t = match &memory {
                    Some(column) => column[((frac >> 16) & 127) as usize] as u32 + info.palette,
                    None if pow2 => texel((frac >> 16) as u32 & (th - 1)),
                    None => texel(((frac >> 16) & 127) as u32 % th),
                };
                out.put(p, colors, t);
                out.depths[p] = depth;
                frac = frac.wrapping_add(iscale);
            }
        }
    }

    /// R_DrawPlanes: each span of a flat through R_MapPlane and R_DrawSpan, the sky's columns
    /// by view angle.
    fn flats(&self, f: &CanvasFrame, out: &mut Band) {
        let (w, rows) = (out.w, out.rows());
        let v = &f.viewer;
        let xtoviewangle = f.view.xtoviewangle();
        let (yslope, distscale) = (f.view.yslope(), f.view.distscale());
        for s in &f.walk.spans {
            let Some(plane) = f.walk.planes.get(s.plane as usize) else { continue };
            let (y, x1, x2) = (s.y as usize, s.x1 as usize, s.x2 as usize);
            if !rows.contains(&y) {
                continue;
            }
            let at = (y - rows.start) * w;
            out.depths[at + x1..=at + x2].fill(0.0);
            if plane.sky {
                self.sky_span(f, plane.sky_index, (y, x1, x2), out);
                continue;
            }
            let texture = f.map.flat_textures.get(plane.picnum as usize).copied();
            let info = self.info(&f.state, texture.unwrap_or(u32::MAX));
            // R_MapPlane.
            let planeheight = plane.height.wrapping_sub(v.viewz).wrapping_abs();
            let distance = fixed_mul(planeheight, yslope[y]);
            let length = fixed_mul(distance, distscale[x1]);
            let (xfrac, yfrac, xstep, ystep) = if plane.xform.only_panned() {
                let angle =
                    (v.viewangle.wrapping_add(xtoviewangle[x1]) >> ANGLETOFINESHIFT) as usize;
                let xstep = fixed_mul(distance, v.basexscale);
                let ystep = fixed_mul(distance, v.baseyscale);
                // Boom's R_MapPlane adds the plane's offsets (its flat scrollers') to the
                // fractions; 0 for vanilla's planes.
                let xfrac = v
                    .viewx
                    .wrapping_add(fixed_mul(f.sine[angle + 2048], length))
                    .wrapping_add(plane.xform.x_offset);
                let yfrac = v
                    .viewy
                    .wrapping_neg()
                    .wrapping_sub(fixed_mul(f.sine[angle], length))
                    .wrapping_add(plane.xform.y_offset);
                (xfrac, yfrac, xstep, ystep)
            } else {
                placed_span(f, &plane.xform, xtoviewangle[x1], distance, length)
            };
            let level = (plane.lightlevel >> 4).min(15) as usize;
            let zindex = (distance >> 20).clamp(0, MAXLIGHTZ as i32 - 1) as usize;
            let map = self.zlight[level * MAXLIGHTZ + zindex];
            let depth = v.near * 65536.0 / distance.max(1) as f32;
            let colors = self.lit_row(f, map);
            // R_DrawSpan: x and y packed as 6.10 in one word, stepped by one addition.
            let pack =
                |x: i32, y: i32| ((x as u32) << 10) & 0xFFFF_0000 | ((y >> 6) as u32 & 0xFFFF);
            let mut position = pack(xfrac, yfrac);
            let step = pack(xstep, ystep);
            let texels = info.first..info.first + (info.width * info.height) as usize;
            let Some(flat) = self.all_texels().get(texels) else { continue };
            for p in at + x1..=at + x2 {
                let i = ((position >> 26) | ((position >> 10) & 63) << 6) as usize;
                let t = flat.get(i).copied().unwrap_or(0) as u32 & 255;
                out.put(p, colors, t + info.palette);
                position = position.wrapping_add(step);
            }
            out.depths[at + x1..=at + x2].fill(depth);
        }
    }

    /// A sky span (R_DrawPlanes draws the sky by columns; each pixel is the same): vanilla's
    /// sky, or the sky MBF transfers from a 271/272 line's sidedef (`sky_index` 1..): its x
    /// offset turns the view angle, its y offset moves the rows, 271 reads the columns the
    /// other way. Full bright, through row 0 of the frame's colormap.
    fn sky_span(
        &self,
        f: &CanvasFrame,
        sky_index: u32,
        (y, x1, x2): (usize, usize, usize),
        out: &mut Band,
    ) {
        let v = &f.viewer;
        let sky = match sky_index.checked_sub(1) {
            Some(i) => f.map.skies.get(i as usize).copied(),
            None => None,
        };
        let sky = sky.unwrap_or(VSky::vanilla(v.sky_texture));
        let texture = remapped(&f.state, sky.texture);
        let info = self.infos.get(texture as usize).copied().unwrap_or_default();
        // The width rounded up to a power of two, as the shaders mask the column.
        let mask = if info.width <= 1 { 0 } else { u32::MAX >> (info.width - 1).leading_zeros() };
        // R_DrawColumn's row: `texturemid + (y - centery) * iscale` at one texel a row (the
        // centre row 100 of vanilla's screen), read `& 127`.
        let frac_row = (y as i32).wrapping_add((sky.texturemid >> 16).wrapping_sub(100));
        let r = (frac_row & 127) as u32 % info.height;
        let colors = self.lit_row(f, 0);
        let at = (y - out.y0) * out.w;
        let xtoviewangle = f.view.xtoviewangle();
        for (x, &xangle) in xtoviewangle.iter().enumerate().take(x2 + 1).skip(x1) {
            let mut angle = v.viewangle.wrapping_add(sky.angle).wrapping_add(xangle);
            if sky.flipped {
                angle = !angle;
            }
            // The sky's column as vanilla holds it: R_GetColumn masks the column, and
            // R_DrawColumn reads the row `& 127` from it.
            let memory = f.map.texture_memory.column(texture, (angle >> 22) as i32);
            let t = match memory {
                Some(column) => column.byte((frac_row & 127) as isize) as u32,
                None => {
                    let col = ((angle >> 22) & mask) % info.width;
                    self.texel(&info, (r * info.width + col) as usize)
                }
            };
            let i = t + info.palette;
            if f.walk.colormap == 0 {
                // COLORMAP's row 0 is the identity in every IWAD: the palette straight.
                let i = (i as usize).min(self.palette.len() - 1);
                out.colors[at + x] = self.palette[i];
                out.indices[at + x] = i as u8;
            } else {
                out.put(at + x, colors, i);
            }
        }
    }

    /// The texels as 16-bit values: the packing puts texel `2i` in the low half of word `i`,
    /// which is the first half in memory on the little-endian machines wgpu runs on.
    pub(super) fn all_texels(&self) -> &[u16] {
        bytemuck::cast_slice(&self.texels)
    }
}

/// The set-up of seg `seg`'s column `x` (`wall_setup::WallSetup::columns`): the texture
/// column before scrolling (16.16) and the packed `dc_iscale` and light column.
pub(super) fn column_setup(f: &CanvasFrame, seg: usize, x: u16) -> Option<(u32, u32)> {
    let ColumnTables { seg_index, entries } = f.column_tables;
    let index = seg_index as usize + seg * SEG_INDEX_WORDS;
    let (first, base) = (*f.columns.get(index)?, *f.columns.get(index + 2)?);
    let entry =
        entries as usize + (base as usize + (x as u32).wrapping_sub(first) as usize) * COLUMN_WORDS;
    Some((*f.columns.get(entry)?, *f.columns.get(entry + 1)?))
}

/// R_MapPlane's span start and steps for a flat with a UDMF placement, as the ZDoom software
/// renderer extends it: the view position rotated by the placement's angle about the map
/// origin and the span's angles turned by it (so texel (u, v) is the map point rotated, then
/// panned, then scaled; see `formats::doom::map::udmf_props`), in vanilla's fixed point.
fn placed_span(
    f: &CanvasFrame,
    x: &FlatXform,
    xtoviewangle: u32,
    distance: i32,
    length: i32,
) -> (i32, i32, i32, i32) {
    let v = &f.viewer;
    let turned = v.viewangle.wrapping_add(x.angle);
    let fine = |a: u32| (a >> ANGLETOFINESHIFT) as usize;
    let sin = |a: u32| f.sine[fine(a)];
    let cos = |a: u32| f.sine[fine(a) + 2048];
    // The view position rotated (counter-clockwise by the placement's angle).
    let (s, c) = (x.angle as f64 / 4294967296.0 * std::f64::consts::TAU).sin_cos();
    let (vx, vy) = (v.viewx as f64, v.viewy as f64);
    let wrap = |t: f64| t.rem_euclid(4294967296.0) as i64 as i32;
    let (rvx, rvy) = (wrap(vx * c - vy * s), wrap(vx * s + vy * c));
    let angle = turned.wrapping_add(xtoviewangle);
    let xfrac = rvx.wrapping_add(fixed_mul(cos(angle), length)).wrapping_add(x.x_offset);
    let yfrac =
        rvy.wrapping_neg().wrapping_sub(fixed_mul(sin(angle), length)).wrapping_add(x.y_offset);
    // R_ClearPlanes' basexscale / baseyscale for the turned view angle.
    let centerxfrac = f.view.projection().max(1);
    let left = turned.wrapping_sub(ANG90);
    let xstep = fixed_mul(distance, fixed_div(cos(left), centerxfrac));
    let ystep = fixed_mul(distance, fixed_div(sin(left), centerxfrac).wrapping_neg());
    (
        fixed_mul(xfrac, x.x_scale),
        fixed_mul(yfrac, x.y_scale),
        fixed_mul(xstep, x.x_scale),
        fixed_mul(ystep, x.y_scale),
    )
}

/// The texture column (wrapped to `width`) of a column whose set-up gives `colbase`, under the
/// tier's UDMF placement (identity for vanilla maps: FixedMul by FRACUNIT is exact), with the
/// seg's scrolling.
pub(super) fn texture_column(
    f: &CanvasFrame,
    seg: &VanillaSeg,
    tier: &VanillaTier,
    colbase: u32,
    width: u32,
) -> usize {
    let scroll = scroll_fixed(f.state.scroll, seg.scroll, 0);
    let placed = fixed_mul(colbase as i32, tier.x_scale).wrapping_add(tier.x_offset);
    let col = placed.wrapping_add(scroll) >> 16;
    col.rem_euclid(width.max(1) as i32) as usize
}

/// The texel rows a seg's scroller has moved its rows by (16.16; Boom's 254 and 255 change a
/// sidedef's row offset, which adds to `dc_texturemid`).
pub(super) fn row_scroll(f: &CanvasFrame, seg: &VanillaSeg) -> i32 {
    scroll_fixed(f.state.scroll, seg.scroll, 1)
}

/// Component `axis` (0: u, 1: v) of scroll slot `slot` of `scroll` (two f32 bit patterns a
/// slot) in 16.16: the whole texels shifted (wrapping, as the offsets do in the games) plus
/// the fraction rounded to 1/65536.
pub(super) fn scroll_fixed(scroll: &[u32], slot: u16, axis: usize) -> i32 {
    let bits = scroll.get(slot as usize * 2 + axis).copied().unwrap_or(0);
    let t = f32::from_bits(bits);
    if !t.is_finite() {
        return 0;
    }
    let whole = t.floor();
    ((whole as i32).wrapping_shl(16)).wrapping_add(((t - whole) * 65536.0).round() as i32)
}

/// A wall's light level: its sector's (or its sidedef's own UDMF light), with vanilla's fake
/// contrast for walls along an axis unless the sidedef turns it off.
pub(super) fn wall_light_level(
    f: &CanvasFrame,
    seg: &VanillaSeg,
    vseg: &WalkSeg,
    control_light: Option<u32>,
) -> i32 {
    let slot = match seg.light_slot {
        Some(slot) => Some(slot),
        None => f.map.sectors.get(vseg.front_sector as usize).map(|sec| sec.light_slot),
    };
    let light = match control_light {
        Some(light) => light,
        None => slot.and_then(|s| f.state.light.get(s as usize)).copied().unwrap_or(0),
    };
    let contrast = if seg.no_contrast {
        0
    } else if vseg.v1[1] == vseg.v2[1] {
        -1
    } else if vseg.v1[0] == vseg.v2[0] {
        1
    } else {
        0
    };
    ((light >> 4) as i32 + contrast).clamp(0, 15)
}

/// Scene texture `texture` after the frame's animation remap.
pub(super) fn remapped(state: &CanvasState, texture: u32) -> u32 {
    state.remap.get(texture as usize).copied().unwrap_or(texture)
}
