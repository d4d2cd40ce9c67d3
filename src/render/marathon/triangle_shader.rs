//! Marathon's faithful shading on the CPU, pixel for pixel as shaders/marathon.wgsl shades it:
//! a shape's 8-bit texel through the shading table the engine picks from the surface light
//! and the headlight at the pixel's depth (tabulated with the colours by
//! render/marathon/packing.rs), landscapes by view direction at full brightness, and the static
//! transfer modes as noise.

use crate::render::packing::PackedScene;
use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};

use crate::render::soft::billboards::Billboard;
use crate::render::soft::textures::{floor_i32, SoftTextures, TextureAt};
use crate::render::soft::translucent::Layer;
use crate::render::soft::{
    scroll_offset, sprite_texel, to_target, Pixels, SoftShader, SoftView, GROUP,
};

/// Family constant 0's flag: the scene has a Shapes file (its colours go through the shading
/// tables; without one, flat colours are scaled by the light).
const FLAG_SHAPES: u32 = 1;
const WORLD_ONE: f32 = 1024.0;
const XFER_STATIC: i32 = 7;
const XFER_HALF_STATIC: i32 = 8;
/// Landscape repeats per full turn, as shaders/marathon.wgsl.
const LANDSCAPE_REPEATS: f32 = 2.0;
/// Light intensity 1.0 in the light slots' 16.16.
const FULL_LIGHT: i32 = 65536;

pub struct MarathonShader {
    textures: SoftTextures,
    /// The palette (RGB, red low).
    palette: Vec<u32>,
    /// Per shading step 0..=255, each palette entry's colour (in the target's order).
    lit: Vec<u32>,
    /// Palette entries the shading tables hold (at least 1).
    entries: usize,
    shapes: bool,
    /// Each palette entry's colour table size (the entries static draws from).
    defined: Vec<u32>,
    bgra: bool,
    /// This frame's view for landscapes: centre, yaw and pitch, focal length.
    centre: [f32; 4],
    focal: f32,
}

/// One triangle's shading.
pub struct MarathonTriangle {
    texture: TextureAt,
    scroll: [f32; 2],
    /// Light slot value, 16.16.
    light: i32,
    landscape: bool,
    /// 0, or the static transfer modes.
    transfer: i32,
    /// Entries of the texture's colour table.
    defined: u32,
    /// A sprite: texel coordinates in texels, clamped to the texture.
    sprite: bool,
}

impl MarathonShader {
    pub fn new(packed: &PackedScene, bgra: bool) -> MarathonShader {
        let layout = &packed.layout;
        let meta = &packed.meta;
        let [flags, entries, lit_at, ..] = layout.family;
        let entries = (entries as usize).max(1);
        let lit_at = lit_at as usize;
        let lit = (0..256 * entries)
            .map(|i| to_target(meta.get(lit_at + i).copied().unwrap_or(0), bgra))
            .collect();
        let palette = meta
            .get(layout.palette as usize..layout.colormap as usize)
            .unwrap_or(&[])
            .iter()
            .map(|c| c & 0x00FF_FFFF)
            .collect();
        // The colour tables' sizes, as `m_defined` reads them.
        let table = |i: usize| meta.get(layout.colormap as usize + i).copied().unwrap_or(0);
        let count = table(2).max(1) as usize;
        let defined =
            (0..count).map(|i| (table(table(0) as usize + 2 * i + 1) >> 24) + 1).collect();
        MarathonShader {
            textures: SoftTextures::new(packed),
            palette,
            lit,
            entries,
            shapes: flags & FLAG_SHAPES != 0,
            defined,
            bgra,
            centre: [0.0; 4],
            focal: 1.0,
        }
    }

    /// The texel of lane `j` of `p` (before static): by direction for a landscape, in
    /// texels for a sprite, else one texture per world unit.
    #[inline(always)]
    fn texel_of(&self, t: &MarathonTriangle, p: &Pixels, j: usize) -> (i32, i32) {
        let (w, h) = (t.texture.width(), t.texture.height());
        if t.landscape {
            self.landscape_texel(&t.texture, p.x + j, p.y)
        } else if t.sprite {
            (sprite_texel(p.u[j], w), sprite_texel(p.v[j], h))
        } else {
            let scale = |c: f32, size: u32| floor_i32(c * (size as f32 / WORLD_ONE));
            (scale(p.u[j] + t.scroll[0], w), scale(p.v[j] + t.scroll[1], h))
        }
    }

    /// Whether lane `j` of `p` shows an opaque texel of `t`.
    fn opaque_at(&self, t: &MarathonTriangle, p: &Pixels, j: usize) -> bool {
        let (x, y) = self.texel_of(t, p, j);
        self.textures.texel(&t.texture, x, y) & 0x100 == 0
    }

    /// The landscape texel of pixel (`x`, `y`): its line by the ray's elevation, its place
    /// in the line by the ray's direction (shaders/marathon.wgsl `m_landscape_texel`).
    fn landscape_texel(&self, t: &TextureAt, x: usize, y: usize) -> (i32, i32) {
        let [cx, cy, yaw, pitch] = self.centre;
        let dx = (x as f32 + 0.5 - cx) / self.focal;
        let dy = (cy - (y as f32 + 0.5)) / self.focal;
        let forward = pitch.cos() - dy * pitch.sin();
        let up = pitch.sin() + dy * pitch.cos();
        let turn = ((dx.atan2(forward) - yaw) / std::f32::consts::TAU).rem_euclid(1.0);
        let per_turn = t.height() as f32 * LANDSCAPE_REPEATS;
        let elevation = up.atan2((dx * dx + forward * forward).sqrt());
        let line = t.width() as f32 * 0.5 + elevation / std::f32::consts::TAU * per_turn;
        let line = line.clamp(0.0, t.width() as f32 - 1.0);
        (line as i32, floor_i32(turn * per_turn))
    }
}

impl SoftShader for MarathonShader {
    type Triangle = MarathonTriangle;

    fn begin_frame(&mut self, view: &SoftView) {
        self.centre = view.centre;
        self.focal = view.focal;
    }

    fn textures(&self) -> &SoftTextures {
        &self.textures
    }

    fn triangle(&self, v: &WorldVertex, view: &SoftView) -> MarathonTriangle {
        let texture = self.textures.at(view.remap, v.texture);
        let slot = (v.light as usize).min(view.light.len().saturating_sub(1));
        let kind = v.flags & vertex_flags::KIND_MASK;
        let palette = texture.palette as usize;
        MarathonTriangle {
            texture,
            scroll: scroll_offset(view.scroll, v.flags >> vertex_flags::SCROLL_SHIFT),
            light: view.light.get(slot).copied().unwrap_or(0) as i32,
            landscape: view.show_sky && kind == SurfaceKind::Sky as u32,
            transfer: ((v.flags >> vertex_flags::CONTRAST_SHIFT) & 255) as u8 as i8 as i32,
            defined: self.defined[palette.min(self.defined.len() - 1)],
            sprite: false,
        }
    }

    /// Lit by its light slot, or at full intensity for a self-luminous frame.
    fn sprite(&self, quad: &Billboard, view: &SoftView) -> MarathonTriangle {
        let slot = (quad.light as usize).min(view.light.len().saturating_sub(1));
        let light = view.light.get(slot).copied().unwrap_or(0) as i32;
        let palette = quad.texture.palette as usize;
        MarathonTriangle {
            texture: quad.texture,
            scroll: [0.0; 2],
            light: if quad.fullbright { FULL_LIGHT } else { light },
            landscape: false,
            transfer: 0,
            defined: self.defined[palette.min(self.defined.len() - 1)],
            sprite: true,
        }
    }

    fn opaque(&self, t: &MarathonTriangle, p: &Pixels) -> [bool; GROUP] {
        std::array::from_fn(|j| self.opaque_at(t, p, j))
    }

    /// The shaded texel, replacing the colour behind it.
    fn translucent(
        &self,
        t: &MarathonTriangle,
        p: &Pixels,
        j: usize,
        masked: bool,
    ) -> Option<Layer> {
        if masked && !self.opaque_at(t, p, j) {
            return None;
        }
        Some(Layer { color: self.shade_pixel(t, p, j), index: 0, mode: 0, alpha: u8::MAX })
    }

    #[inline(always)]
    fn shade(
        &self,
        t: &MarathonTriangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        _keys: &mut [u8; GROUP],
    ) {
        let plain = !t.landscape && t.transfer == 0 && !t.sprite;
        if !plain || !self.shapes {
            if plain {
                self.shade_flat_colours(t, p, colors);
                return;
            }
            for (j, c) in colors.iter_mut().enumerate() {
                if p.wins[j] {
                    *c = self.shade_pixel(t, p, j);
                }
            }
            return;
        }
        // Lane by lane: texel coordinates and shading table (32-bit lanes: four a vector).
        let (mut tx, mut ty, mut table) = ([0i32; GROUP], [0i32; GROUP], [0u32; GROUP]);
        let entries = self.entries as u32;
        let (w, h) = (t.texture.width() as f32 / WORLD_ONE, t.texture.height() as f32 / WORLD_ONE);
        for j in 0..GROUP {
            tx[j] = floor_i32((p.u[j] + t.scroll[0]) * w);
            ty[j] = floor_i32((p.v[j] + t.scroll[1]) * h);
            table[j] = table_index(t.light, p.dist[j]) * entries;
        }
        // Every lane's texel (positions worked out in vector lanes), then the winners' colours.
        let texels = self.textures.texels(&t.texture, &tx, &ty);
        let last = self.entries as u32 - 1;
        let mut at = [0u32; GROUP];
        for j in 0..GROUP {
            at[j] = table[j] + ((texels[j] & 255) + t.texture.palette).min(last);
        }
        for (j, c) in colors.iter_mut().enumerate() {
            if p.wins[j] {
                *c = self.lit.get(at[j] as usize).copied().unwrap_or(0);
            }
        }
    }
}

impl MarathonShader {
    /// Every lane's texel of a surface with one texture per world unit, its positions worked
    /// out in vector lanes.
    #[inline(always)]
    fn plain_texels(&self, t: &MarathonTriangle, p: &Pixels) -> [u32; GROUP] {
        let (mut tx, mut ty) = ([0i32; GROUP], [0i32; GROUP]);
        let (w, h) = (t.texture.width() as f32 / WORLD_ONE, t.texture.height() as f32 / WORLD_ONE);
        for j in 0..GROUP {
            tx[j] = floor_i32((p.u[j] + t.scroll[0]) * w);
            ty[j] = floor_i32((p.v[j] + t.scroll[1]) * h);
        }
        self.textures.texels(&t.texture, &tx, &ty)
    }

    /// `shade_pixel`'s flat colours for a whole group of a plain surface, the light's scale
    /// and the channels in vector lanes (the same operations in the same order, so the same
    /// bytes).
    #[inline(always)]
    fn shade_flat_colours(&self, t: &MarathonTriangle, p: &Pixels, colors: &mut [u32; GROUP]) {
        let texels = self.plain_texels(t, p);
        let last = self.palette.last().copied().unwrap_or(0);
        let mut rgb = [0u32; GROUP];
        for j in 0..GROUP {
            let index = (texels[j] & 255) + t.texture.palette;
            rgb[j] = self.palette.get(index as usize).copied().unwrap_or(last);
        }
        let mut out = [0u32; GROUP];
        for j in 0..GROUP {
            let scale = light_scale(t.light, p.dist[j]);
            let channel = |k: u32| {
                let f = ((rgb[j] >> (8 * k)) & 255) as f32 / 255.0 * scale;
                ((f * 255.0 + 0.5) as u32).min(255) << (8 * k)
            };
            out[j] = to_target(channel(0) | channel(1) | channel(2), self.bgra);
        }
        for (j, c) in colors.iter_mut().enumerate() {
            if p.wins[j] {
                *c = out[j];
            }
        }
    }

    /// Lane `j` of `p`, every rule of shaders/marathon.wgsl `shade`: landscapes, sprites,
    /// static, and flat colours without a Shapes file.
    fn shade_pixel(&self, t: &MarathonTriangle, p: &Pixels, j: usize) -> u32 {
        let (x, y, dist) = (p.x + j, p.y, p.dist[j]);
        let (tx, ty) = self.texel_of(t, p, j);
        let mut index = (self.textures.texel(&t.texture, tx, ty) as u32 & 255) + t.texture.palette;
        let tick = t.scroll[0] as u32;
        let fizzing = t.transfer == XFER_STATIC
            || (t.transfer == XFER_HALF_STATIC && (x as u32 + y as u32 + tick) & 1 == 0);
        if fizzing {
            let r = hash(x as u32, y as u32, tick);
            index = t.texture.palette + (((r & 0xFFFF) * t.defined) >> 16);
        }
        let light = if t.landscape { FULL_LIGHT } else { t.light };
        if !self.shapes {
            let c = self.palette.get(index as usize).or(self.palette.last()).copied().unwrap_or(0);
            let scale = light_scale(light, dist);
            let channel = |k: u32| {
                let f = ((c >> (8 * k)) & 255) as f32 / 255.0 * scale;
                ((f * 255.0 + 0.5) as u32).min(255) << (8 * k)
            };
            return to_target(channel(0) | channel(1) | channel(2), self.bgra);
        }
        let table = if t.landscape { 255 } else { table_index(light, dist) as usize };
        self.lit[table * self.entries + (index as usize).min(self.entries - 1)]
    }
}

/// The shading table the engine picks: the brighter of surface light and headlight plus half
/// the other, in 1/256 steps (the headlight fades over the first 4 world units of depth).
#[inline(always)]
fn table_index(ambient: i32, depth: f32) -> u32 {
    // Past 4096 units the headlight is gone: the clamp keeps `floor_i32` in its range.
    let headlight = (32768 - floor_i32((depth * 8.0).clamp(0.0, 65536.0))).clamp(0, 65536);
    let total =
        if ambient > headlight { ambient + (headlight >> 1) } else { headlight + (ambient >> 1) };
    (total >> 8).clamp(0, 255) as u32
}

/// Flat colours' light (shaders/marathon.wgsl `m_light_scale`): the table rule unquantised,
/// the headlight included.
#[inline(always)]
fn light_scale(ambient: i32, depth: f32) -> f32 {
    let a = ambient as f32 / FULL_LIGHT as f32;
    let h = (0.5 - depth / 8192.0).clamp(0.0, 1.0);
    (if a > h { a + h * 0.5 } else { h + a * 0.5 }).min(1.0)
}

/// shaders/marathon.wgsl `m_hash`.
fn hash(x: u32, y: u32, z: u32) -> u32 {
    let mut h =
        x.wrapping_mul(0x27d4_eb2d) ^ y.wrapping_mul(0x1656_67b1) ^ z.wrapping_mul(0x9e37_79b9);
    h = (h ^ (h >> 15)).wrapping_mul(0x2c1b_3c6d);
    h = (h ^ (h >> 12)).wrapping_mul(0x297a_2d39);
    h ^ (h >> 15)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_brighter_light_wins_and_adds_half_the_other() {
        // Far away the headlight is gone: the surface light alone.
        assert_eq!(table_index(65536, 10_000.0), 255);
        assert_eq!(table_index(32768, 10_000.0), 128);
        // At the eye the headlight is half intensity: a dark surface gets it.
        assert_eq!(table_index(0, 0.0), 128);
        assert_eq!(table_index(32768, 0.0), (32768 + 16384) >> 8);
    }

    #[test]
    fn flat_colours_take_the_table_rule_unquantised() {
        assert_eq!(light_scale(0, 0.0), 0.5);
        assert_eq!(light_scale(0, 5000.0), 0.0);
        assert_eq!(light_scale(FULL_LIGHT, 0.0), 1.0);
        for (light, depth) in [(0, 1024.0), (20000, 512.0), (40000, 3000.0), (65536, 100.0)] {
            let table = table_index(light, depth) as f32 / 256.0;
            assert!((light_scale(light, depth) - table).abs() < 1.0 / 128.0, "{light} {depth}");
        }
    }
}
