//! Doom's frames that vanilla's walk and canvas cannot draw, on the CPU as shaders/doom.wgsl
//! shades them: smooth frames, and faithful frames from a pitched camera, at another field
//! of view or of a walk that reached a ZDoom slope or 3D floor.
//!
//! - Smooth: each pixel's four nearest texels in true colour, filtered bilinearly
//!   (`shade_smooth`, which the GPU's bound textures repeat with the sampler), times
//!   vanilla's light diminishing as a continuous factor, tinted by ZDoom's sector colours; a
//!   masked texel left out where the texel nearest the pixel centre is transparent. The
//!   GPU's texture unit filters with its own fixed-point weights, so a filtered pixel may
//!   differ from the GPU's by a step of a channel.
//! - Faithful: the texel under the pixel through the COLORMAP row vanilla's light
//!   diminishing picks by depth (`doom_colormap_index`: `zlight` for flats, `scalelight`
//!   for walls and things).
//! - Both: the sky by view angle and row at full brightness.

use crate::render::packing::PackedScene;
use crate::scene::{doom::shade, vertex_flags, SurfaceKind, WorldVertex};

use crate::render::soft::billboards::Billboard;
use crate::render::soft::textures::{floor_i32, SoftTextures, TextureAt};
use crate::render::soft::translucent::{Layer, ADD};
use crate::render::soft::{
    depth_test, scroll_offset, to_target, Pixels, SoftShader, SoftView, GROUP,
};

/// `LIGHTSEGSHIFT` (r_main.h): light levels of 16 steps.
const LIGHTSEGSHIFT: u32 = 4;
/// Boom 260's share of the texture over what lies behind (shaders/doom.wgsl `translucent`).
const BOOM_ALPHA: f32 = 2.0 / 3.0;
/// Bit of a packed colour (alpha byte) marking a transparent texel.
const TRANSPARENT: u32 = 1 << 24;
/// `MAXLIGHTSCALE` and `MAXLIGHTZ` (r_main.h): the columns of `scalelight` and `zlight`.
const MAXLIGHTSCALE: i32 = 48;
const MAXLIGHTZ: usize = 128;

pub struct DoomShader {
    /// Faithful frames (COLORMAP by depth) rather than smooth ones.
    pub faithful: bool,
    textures: SoftTextures,
    /// Each 16-bit texel's palette colour (RGB, red low), [`TRANSPARENT`] where it is
    /// transparent: the texture's texels at the places `textures` keeps their indices.
    colors: Vec<u32>,
    /// The palette (RGB, red low), at least one entry.
    palette: Vec<u32>,
    /// ZDoom's sector colours: (light, fade) pairs, channels 0..255.
    sector_colors: Vec<[[f32; 3]; 2]>,
    /// Each COLORMAP row through the palette (256 colours a row), in the target's order.
    lit: Vec<u32>,
    /// Vanilla's `zlight`: a flat's colormap row by light level and distance.
    zlight: Vec<u32>,
    bgra: bool,
    /// This frame's light scale (`frame.screen.w`: the focal length on a 320-wide screen).
    light_scale: f32,
    /// This frame's sky: each column's angle and each row's texel row (before transfers).
    sky_angles: Vec<u32>,
    sky_rows: Vec<i32>,
    show_sky: bool,
}

/// One triangle's shading.
pub struct DoomTriangle {
    texture: TextureAt,
    scroll: [f32; 2],
    /// Smooth frames: texels of `texture` per texel coordinate (a flat's full-size picture
    /// drawn in place of its 64x64 texture; 1 otherwise).
    uv_scale: [f32; 2],
    /// Vanilla's starting colormap (`(15 - level) * 4`), or none at full brightness.
    startmap: Option<f32>,
    /// The light level (0..15, fake contrast added), and whether it is a flat's (lit by
    /// `zlight`) rather than a wall's or a thing's (by `scalelight`).
    level: i32,
    flat: bool,
    /// A sprite's light depth (its origin's), where walls and flats use each pixel's.
    sprite_depth: Option<f32>,
    /// The sector colour pair, when the surface has one.
    pair: Option<[[f32; 3]; 2]>,
    sky: Option<SkyTransfer>,
    /// Translucent: the alpha (0..1) and whether it adds.
    alpha: f32,
    additive: bool,
}

/// A sky surface: the MBF transfer's offsets (x in texture columns as 16.16 angle units,
/// y in rows) and whether the columns read the other way.
#[derive(Clone, Copy)]
struct SkyTransfer {
    transferred: bool,
    angle_offset: u32,
    row_offset: i32,
    flipped: bool,
}

impl DoomShader {
    pub fn new(packed: &PackedScene, bgra: bool) -> DoomShader {
        let [lit_at, zlight_at, colors_at, count, ..] = packed.layout.family;
        let layout = &packed.layout;
        let mut palette: Vec<u32> = packed
            .meta
            .get(layout.palette as usize..layout.colormap as usize)
            .unwrap_or(&[])
            .iter()
            .map(|c| c & 0x00FF_FFFF)
            .collect();
        if palette.is_empty() {
            palette.push(0);
        }
        let textures = SoftTextures::new(packed);
        let colors = textures.through_palette(|index, transparent| {
            let c = palette[(index as usize).min(palette.len() - 1)];
            c | if transparent { TRANSPARENT } else { 0 }
        });
        let word = |i: u32| packed.meta.get(i as usize).copied().unwrap_or(0);
        // COLORMAP's rows (34 in Doom's), then `zlight`.
        let rows = zlight_at.saturating_sub(lit_at);
        let lit = (0..rows).map(|i| to_target(word(lit_at + i) & 0x00FF_FFFF, bgra)).collect();
        let zlight = (0..16 * MAXLIGHTZ as u32).map(|i| word(zlight_at + i).min(33)).collect();
        let rgb = |w: u32| [16, 8, 0].map(|s| ((w >> s) & 255) as f32);
        let sector_colors = (0..count)
            .map(|n| [rgb(word(colors_at + 2 * n)), rgb(word(colors_at + 2 * n + 1))])
            .collect();
        DoomShader {
            faithful: false,
            lit,
            zlight,
            textures,
            colors,
            palette,
            sector_colors,
            bgra,
            light_scale: 1.0,
            sky_angles: Vec::new(),
            sky_rows: Vec::new(),
            show_sky: true,
        }
    }

    /// The packed colour of texel (`x`, `y`), already wrapped, of `t`.
    #[inline(always)]
    fn color(&self, t: &TextureAt, x: i32, y: i32) -> u32 {
        let at = t.first() + (y as u32 * t.width() + x as u32) as usize;
        self.colors.get(at).copied().unwrap_or(0)
    }

    /// The filtered colour of every lane of `p` (channels 0..255, red first), and whether
    /// each lane's nearest texel is opaque.
    #[inline(always)]
    fn filtered(&self, t: &DoomTriangle, p: &Pixels) -> ([[f32; GROUP]; 3], [bool; GROUP]) {
        let tex = &t.texture;
        let (w, h) = (tex.width() as i32, tex.height() as i32);
        let (inv_w, inv_h) = (1.0 / w as f32, 1.0 / h as f32);
        let (mut x0, mut y0, mut x1, mut y1) =
            ([0i32; GROUP], [0i32; GROUP], [0i32; GROUP], [0i32; GROUP]);
        let (mut fx, mut fy) = ([0f32; GROUP], [0f32; GROUP]);
        for j in 0..GROUP {
            let px = (p.u[j] + t.scroll[0]) * t.uv_scale[0] - 0.5;
            let py = (p.v[j] + t.scroll[1]) * t.uv_scale[1] - 0.5;
            let (bx, by) = (floor_i32(px), floor_i32(py));
            fx[j] = px - bx as f32;
            fy[j] = py - by as f32;
            x0[j] = wrap(bx, w, inv_w);
            y0[j] = wrap(by, h, inv_h);
            x1[j] = if x0[j] + 1 >= w { 0 } else { x0[j] + 1 };
            y1[j] = if y0[j] + 1 >= h { 0 } else { y0[j] + 1 };
        }
        let mut quad = [[0u32; GROUP]; 4];
        for j in 0..GROUP {
            quad[0][j] = self.color(tex, x0[j], y0[j]);
            quad[1][j] = self.color(tex, x1[j], y0[j]);
            quad[2][j] = self.color(tex, x0[j], y1[j]);
            quad[3][j] = self.color(tex, x1[j], y1[j]);
        }
        let mut rgb = [[0f32; GROUP]; 3];
        let mut opaque = [true; GROUP];
        for j in 0..GROUP {
            let right = fx[j] >= 0.5;
            let below = fy[j] >= 0.5;
            let near = match (right, below) {
                (false, false) => quad[0][j],
                (true, false) => quad[1][j],
                (false, true) => quad[2][j],
                (true, true) => quad[3][j],
            };
            opaque[j] = near & TRANSPARENT == 0;
        }
        for (k, channel) in rgb.iter_mut().enumerate() {
            let shift = 8 * k as u32;
            for j in 0..GROUP {
                let c = |q: usize| ((quad[q][j] >> shift) & 255) as f32;
                let top = mix(c(0), c(1), fx[j]);
                let bottom = mix(c(2), c(3), fx[j]);
                channel[j] = mix(top, bottom, fy[j]);
            }
        }
        (rgb, opaque)
    }

    /// The colours of a faithful frame's lanes: the texel under each pixel through the
    /// COLORMAP row vanilla's light diminishing picks (shaders/doom.wgsl `shade`,
    /// `doom_colormap_index`); and whether each texel is opaque.
    #[inline(always)]
    fn faithful_lanes(&self, t: &DoomTriangle, p: &Pixels) -> ([u32; GROUP], [bool; GROUP]) {
        let (mut x, mut y, mut map) = ([0i32; GROUP], [0i32; GROUP], [0u32; GROUP]);
        for j in 0..GROUP {
            x[j] = floor_i32(p.u[j] + t.scroll[0]);
            y[j] = floor_i32(p.v[j] + t.scroll[1]);
        }
        if t.startmap.is_some() && t.flat {
            let row = t.level as usize * MAXLIGHTZ;
            for (map, dist) in map.iter_mut().zip(p.dist) {
                let z = floor_i32(dist.min(1e6) / 16.0).clamp(0, MAXLIGHTZ as i32 - 1);
                *map = self.zlight.get(row + z as usize).copied().unwrap_or(0);
            }
        } else if t.startmap.is_some() {
            for (map, dist) in map.iter_mut().zip(p.dist) {
                let depth = t.sprite_depth.unwrap_or(dist).max(0.001);
                let scale = floor_i32((self.light_scale * 16.0 / depth).min(1e6));
                let scale = scale.clamp(0, MAXLIGHTSCALE - 1);
                *map = ((15 - t.level) * 4 - scale / 2).clamp(0, 31) as u32;
            }
        }
        let texels = self.textures.texels(&t.texture, &x, &y);
        let (mut out, mut opaque) = ([0u32; GROUP], [true; GROUP]);
        for j in 0..GROUP {
            let v = texels[j];
            let index = ((v & 255) + t.texture.palette) & 255;
            out[j] = self.lit.get((map[j] * 256 + index) as usize).copied().unwrap_or(0);
            opaque[j] = v & 0x100 == 0;
        }
        (out, opaque)
    }

    /// The light factor (0..1) of every lane of `p`: shaders/doom.wgsl `smooth_light`.
    #[inline(always)]
    fn light(&self, t: &DoomTriangle, p: &Pixels) -> [f32; GROUP] {
        let Some(startmap) = t.startmap else { return [1.0; GROUP] };
        std::array::from_fn(|j| {
            let depth = t.sprite_depth.unwrap_or(p.dist[j]);
            let scale = self.light_scale / depth.max(1.0);
            let map = (startmap - scale * 8.0).clamp(0.0, 31.0);
            1.0 - map / 32.0
        })
    }

    /// The colours of a group's lanes: channels (0..255) lit by `light` and tinted by the
    /// surface's sector colours (shaders/doom.wgsl `sector_colored`), rounded as the colour
    /// target stores them, in its byte order. Every lane at once, without branches, so that
    /// the loops compile to vector instructions.
    #[inline(always)]
    fn lit(&self, t: &DoomTriangle, rgb: &[[f32; GROUP]; 3], light: &[f32; GROUP]) -> [u32; GROUP] {
        let shifts = if self.bgra { [16, 8, 0] } else { [0, 8, 16] };
        let mut out = [0xFF00_0000u32; GROUP];
        for k in 0..3 {
            let mut c = [0f32; GROUP];
            match &t.pair {
                None => {
                    for j in 0..GROUP {
                        c[j] = rgb[k][j] * light[j];
                    }
                }
                Some([tint, fade]) => {
                    let (tint, fade) = (tint[k] / 255.0, fade[k]);
                    for j in 0..GROUP {
                        c[j] = mix(fade, rgb[k][j] * tint, light[j]);
                    }
                }
            }
            for j in 0..GROUP {
                let byte = floor_i32(c[j].clamp(0.0, 255.0) + 0.5) as u32;
                out[j] |= byte << shifts[k];
            }
        }
        out
    }

    /// The sky's colour at lane `j` of `p` (shaders/doom.wgsl `sky_texel`), at full
    /// brightness.
    fn sky_pixel(&self, t: &DoomTriangle, sky: &SkyTransfer, p: &Pixels, j: usize) -> u32 {
        let mut angle = self.sky_angles.get(p.x + j).copied().unwrap_or(0);
        let mut row = self.sky_rows.get(p.y).copied().unwrap_or(0);
        if sky.transferred {
            angle = angle.wrapping_add(sky.angle_offset);
            row = row.wrapping_add(sky.row_offset);
            if sky.flipped {
                angle = !angle;
            }
        }
        let tex = &t.texture;
        let width = tex.width();
        // The width rounded up to a power of two.
        let mask = if width <= 1 { 0 } else { u32::MAX >> (width - 1).leading_zeros() };
        let col = (angle >> 22) & mask;
        let index = self.textures.texel_index(tex, col as i32, row & 127);
        let c = self.palette[(index as usize).min(self.palette.len() - 1)];
        to_target(c, self.bgra)
    }

    /// The colour of every lane of `p` in this frame's mode, and whether its texel is opaque
    /// (a surface other than the sky).
    #[inline(always)]
    fn lanes(&self, t: &DoomTriangle, p: &Pixels) -> ([u32; GROUP], [bool; GROUP]) {
        if self.faithful {
            return self.faithful_lanes(t, p);
        }
        let (rgb, opaque) = self.filtered(t, p);
        (self.lit(t, &rgb, &self.light(t, p)), opaque)
    }
}

/// `x` wrapped into `0..size` (`inv` = 1 / `size`): a remainder by float arithmetic, which
/// a lane-by-lane loop vectorises, exact for the texel coordinates of a level (|x| < 2^21).
#[inline(always)]
fn wrap(x: i32, size: i32, inv: f32) -> i32 {
    let q = floor_i32((x as f32 + 0.5) * inv);
    (x - q * size).clamp(0, size - 1)
}

/// WGSL's `mix`.
#[inline(always)]
fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

impl SoftShader for DoomShader {
    type Triangle = DoomTriangle;

    fn begin_frame(&mut self, view: &SoftView) {
        let [cx, cy, yaw, pitch] = view.centre;
        let focal = view.focal;
        self.light_scale = focal * 320.0 / view.width.max(1) as f32;
        self.show_sky = view.show_sky;
        self.sky_angles.clear();
        self.sky_angles.extend((0..view.width).map(|x| {
            let a = yaw + (cx - (x as f32 + 0.5)).atan2(focal);
            let turns = a / std::f32::consts::TAU;
            ((turns - turns.floor()) * 4_294_967_296.0) as u32
        }));
        let horizon = cy - pitch.tan() * focal;
        self.sky_rows.clear();
        self.sky_rows.extend(
            (0..view.height)
                .map(|y| (100.0 + (y as f32 + 0.5 - horizon) * 160.0 / focal).floor() as i32),
        );
    }

    fn textures(&self) -> &SoftTextures {
        &self.textures
    }

    fn triangle(&self, v: &WorldVertex, view: &SoftView) -> DoomTriangle {
        let (texture, uv_scale) = if self.faithful {
            (self.textures.at(view.remap, v.texture), [1.0, 1.0])
        } else {
            self.textures.smooth_at(view.remap, v.texture)
        };
        let kind = v.flags & vertex_flags::KIND_MASK;
        let contrast = ((v.flags >> vertex_flags::CONTRAST_SHIFT) & 255) as u8 as i8;
        let is_sky = kind == SurfaceKind::Sky as u32;
        let slot = (v.light as usize).min(view.light.len().saturating_sub(1));
        let light = view.light.get(slot).copied().unwrap_or(0);
        let level = ((light >> LIGHTSEGSHIFT) as i32 + i32::from(contrast)).clamp(0, 15);
        let flat = kind == SurfaceKind::Flat as u32;
        let sky = (is_sky && self.show_sky).then(|| {
            let transferred = contrast == vertex_flags::SKY_TRANSFERRED
                || contrast == vertex_flags::SKY_TRANSFERRED_FLIPPED;
            SkyTransfer {
                transferred,
                angle_offset: (v.uv[0].round() as i32 as u32) << 16,
                row_offset: v.uv[1].round() as i32 - 128,
                flipped: contrast == vertex_flags::SKY_TRANSFERRED_FLIPPED,
            }
        });
        let pair = u32::from(v.shade[2]) | u32::from(v.shade[3]) << 8;
        let pair = pair.checked_sub(1).and_then(|n| self.sector_colors.get(n as usize)).copied();
        let bits = v.shade[1];
        let alpha =
            if bits & shade::OWN_ALPHA != 0 { v.shade[0] as f32 / 255.0 } else { BOOM_ALPHA };
        DoomTriangle {
            texture,
            scroll: scroll_offset(view.scroll, v.flags >> vertex_flags::SCROLL_SHIFT),
            uv_scale,
            startmap: (!is_sky).then_some((15 - level) as f32 * 4.0),
            level,
            flat,
            sprite_depth: None,
            pair,
            sky,
            alpha,
            additive: bits & shade::ADDITIVE != 0,
        }
    }

    /// Lit by its sector's light at its origin's depth, or at full brightness.
    fn sprite(&self, quad: &Billboard, view: &SoftView) -> DoomTriangle {
        let slot = (quad.light as usize).min(view.light.len().saturating_sub(1));
        let light = view.light.get(slot).copied().unwrap_or(0);
        let level = ((light >> LIGHTSEGSHIFT) as i32).clamp(0, 15);
        DoomTriangle {
            texture: quad.texture,
            scroll: [0.0; 2],
            uv_scale: [1.0, 1.0],
            startmap: (!quad.fullbright).then_some((15 - level) as f32 * 4.0),
            level,
            flat: false,
            sprite_depth: Some(quad.origin_depth),
            pair: quad
                .tint
                .checked_sub(1)
                .and_then(|n| self.sector_colors.get(n as usize))
                .copied(),
            sky: None,
            alpha: 1.0,
            additive: false,
        }
    }

    fn opaque(&self, t: &DoomTriangle, p: &Pixels) -> [bool; GROUP] {
        if t.sky.is_some() {
            return [true; GROUP];
        }
        if self.faithful {
            return self.faithful_lanes(t, p).1;
        }
        self.filtered(t, p).1
    }

    fn translucent(&self, t: &DoomTriangle, p: &Pixels, j: usize, masked: bool) -> Option<Layer> {
        // The group's lanes are shaded once for both questions.
        let (color, opaque) = match &t.sky {
            Some(sky) => (self.sky_pixel(t, sky, p, j), true),
            None => {
                let (colors, opaque) = self.lanes(t, p);
                (colors[j], opaque[j])
            }
        };
        if masked && !opaque {
            return None;
        }
        // The GPU keeps the alpha as a byte of the fragment's colour.
        let alpha = ((t.alpha.clamp(0.0, 1.0) * 255.0) + 0.5) as u8;
        let mode = if t.additive { ADD } else { 0 };
        Some(Layer { color, index: 0, mode, alpha })
    }

    #[inline(always)]
    fn shade(
        &self,
        t: &DoomTriangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        _keys: &mut [u8; GROUP],
    ) {
        if let Some(sky) = &t.sky {
            for (j, c) in colors.iter_mut().enumerate() {
                if p.wins[j] {
                    *c = self.sky_pixel(t, sky, p, j);
                }
            }
            return;
        }
        let (lit, _) = self.lanes(t, p);
        keep_winners(colors, &lit, &p.wins);
    }

    /// A masked surface's or sprite's texels fetched once for their opacity and their colour
    /// (a sky surface's lanes are all opaque, as `opaque` says, and shaded as `shade` shades
    /// them).
    #[inline(always)]
    fn shade_masked(
        &self,
        t: &DoomTriangle,
        p: &mut Pixels,
        z: &[f32; GROUP],
        depths: &mut [f32; GROUP],
        colors: &mut [u32; GROUP],
        keys: &mut [u8; GROUP],
    ) {
        if t.sky.is_some() {
            depth_test(p, z, depths, &[true; GROUP]);
            return self.shade(t, p, colors, keys);
        }
        let (lit, opaque) = self.lanes(t, p);
        depth_test(p, z, depths, &opaque);
        keep_winners(colors, &lit, &p.wins);
    }
}

/// `lit` into the lanes of `colors` whose pixel the triangle `wins`, without a branch a lane.
#[inline(always)]
fn keep_winners(colors: &mut [u32; GROUP], lit: &[u32; GROUP], wins: &[bool; GROUP]) {
    for ((c, &lit), &wins) in colors.iter_mut().zip(lit).zip(wins) {
        *c = if wins { lit } else { *c };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_wrapping_is_the_euclidean_remainder() {
        for size in [1, 3, 64, 72, 128, 200, 4096] {
            let inv = 1.0 / size as f32;
            for x in (-70_000..70_000).step_by(7).chain([-1, 0, 1, size - 1, size, -size]) {
                assert_eq!(wrap(x, size, inv), x.rem_euclid(size), "{x} mod {size}");
            }
        }
    }
}
