//! Carmageddon 2's faithful shading on the CPU, pixel for pixel as shaders/carma2.wgsl shades
//! it: the pixelmap's texel (8-bit through the palette, or RGB565 / ARGB4444 packed as RGBA8
//! words) times the face brightness (`WorldVertex::shade`), a Z-transparency material's
//! transparent texels left out, and a translucent texel (partial alpha) blended over the
//! pixel by its alpha, as the GPU's translucent pass blends it.

use crate::render::packing::PackedScene;
use crate::scene::{vertex_flags, WorldVertex};

use crate::render::soft::billboards::Billboard;
use crate::render::soft::textures::{floor_i32, SoftTextures, TextureAt};
use crate::render::soft::translucent::Layer;
use crate::render::soft::{
    scroll_offset, sprite_texel, texel_lanes, to_target, Pixels, SoftShader, SoftView, GROUP,
};

/// A brightness byte that shows the texel as stored (`shade.x` = 1.0).
const FULL: u8 = 255;
/// Alpha below which a direct-colour texel counts as transparent (shaders/common.wgsl
/// `fetch_with`: `rgba.a < 0.5`).
const OPAQUE_ALPHA: u32 = 128;

pub struct Carma2Shader {
    textures: SoftTextures,
    /// The palette (RGBA8, red low), at least one entry.
    palette: Vec<u32>,
    /// Per brightness byte and channel byte, the channel the GPU stores: the channel (0..1)
    /// times the brightness (0..1), rounded to 8 bits.
    scaled: Vec<u8>,
    bgra: bool,
}

/// One triangle's shading.
pub struct Carma2Triangle {
    texture: TextureAt,
    scroll: [f32; 2],
    /// The face brightness byte.
    shade: u8,
    /// A sprite: texel coordinates clamped to the texture.
    sprite: bool,
}

impl Carma2Shader {
    pub fn new(packed: &PackedScene, bgra: bool) -> Carma2Shader {
        let layout = &packed.layout;
        let mut palette: Vec<u32> = packed
            .meta
            .get(layout.palette as usize..layout.colormap as usize)
            .unwrap_or(&[])
            .to_vec();
        if palette.is_empty() {
            palette.push(0xFF00_0000);
        }
        let scaled =
            (0..256 * 256).map(|i| scale_channel((i & 255) as u8, (i >> 8) as u8)).collect();
        Carma2Shader { textures: SoftTextures::new(packed), palette, scaled, bgra }
    }

    /// The texel (`x`, `y`) of `t` as RGBA8 (red low) and whether it is transparent
    /// (shaders/common.wgsl `fetch_with`).
    #[inline(always)]
    fn texel(&self, t: &TextureAt, x: i32, y: i32) -> (u32, bool) {
        if t.rgba {
            let c = self.textures.rgba(t, x, y);
            (c, c >> 24 < OPAQUE_ALPHA)
        } else {
            let v = self.textures.texel(t, x, y) as u32;
            let index = ((v & 255) + t.palette) as usize;
            let last = self.palette.len() - 1;
            (self.palette[index.min(last)] | 0xFF00_0000, v & 0x100 != 0)
        }
    }

    /// Colour `rgba` (red low) times brightness `shade`, opaque, in the target's order.
    #[inline(always)]
    fn lit(&self, rgba: u32, shade: u8) -> u32 {
        if shade == FULL {
            return to_target(rgba & 0x00FF_FFFF, self.bgra);
        }
        let row = &self.scaled[shade as usize * 256..][..256];
        let channel = |k: u32| (row[(rgba >> (8 * k)) as usize & 255] as u32) << (8 * k);
        to_target(channel(0) | channel(1) | channel(2), self.bgra)
    }

    /// The texel coordinates of lane `j` of `p`.
    #[inline(always)]
    fn texel_of(t: &Carma2Triangle, p: &Pixels, j: usize) -> (i32, i32) {
        if t.sprite {
            (sprite_texel(p.u[j], t.texture.width()), sprite_texel(p.v[j], t.texture.height()))
        } else {
            (floor_i32(p.u[j] + t.scroll[0]), floor_i32(p.v[j] + t.scroll[1]))
        }
    }

    /// The texel coordinates of every lane of `p`.
    #[inline(always)]
    fn lanes(t: &Carma2Triangle, p: &Pixels) -> ([i32; GROUP], [i32; GROUP]) {
        texel_lanes(p, t.scroll, t.sprite.then(|| (t.texture.width(), t.texture.height())))
    }
}

/// Channel byte `c` times brightness byte `shade`, as the GPU computes and stores it: both
/// read as unorm (`/ 255`), multiplied, and converted back to 8 bits, rounding to nearest.
fn scale_channel(c: u8, shade: u8) -> u8 {
    let v = (c as f32 / 255.0) * (shade as f32 / 255.0);
    (v * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

/// Colour `dst` with `src` blended over it by alpha `alpha` (all bytes), as the GPU's
/// resolve (`mix`, shaders/translucent.wgsl) and its 8-bit store compute it.
fn blend_channel(dst: u8, src: u8, alpha: u8) -> u8 {
    let (d, s, a) = (dst as f32 / 255.0, src as f32 / 255.0, alpha as f32 / 255.0);
    let v = d * (1.0 - a) + s * a;
    (v * 255.0).round_ties_even().clamp(0.0, 255.0) as u8
}

/// Colour `dst` (any byte order) with `src` (the same order) blended over it by `alpha`.
pub(in crate::render) fn blend_by_alpha(dst: u32, src: u32, alpha: u8) -> u32 {
    let channel = |k: u32| {
        let (d, s) = ((dst >> (8 * k)) as u8, (src >> (8 * k)) as u8);
        (blend_channel(d, s, alpha) as u32) << (8 * k)
    };
    channel(0) | channel(1) | channel(2) | 0xFF00_0000
}

impl SoftShader for Carma2Shader {
    type Triangle = Carma2Triangle;

    fn begin_frame(&mut self, _view: &SoftView) {}

    fn textures(&self) -> &SoftTextures {
        &self.textures
    }

    fn triangle(&self, v: &WorldVertex, view: &SoftView) -> Carma2Triangle {
        Carma2Triangle {
            texture: self.textures.at(view.remap, v.texture),
            scroll: scroll_offset(view.scroll, v.flags >> vertex_flags::SCROLL_SHIFT),
            shade: v.shade[0],
            sprite: false,
        }
    }

    /// The game's tracks have no sprites; a scene that had some would show them unlit.
    fn sprite(&self, quad: &Billboard, _view: &SoftView) -> Carma2Triangle {
        Carma2Triangle { texture: quad.texture, scroll: [0.0; 2], shade: FULL, sprite: true }
    }

    fn opaque(&self, t: &Carma2Triangle, p: &Pixels) -> [bool; GROUP] {
        let (tx, ty) = Self::lanes(t, p);
        std::array::from_fn(|j| !self.texel(&t.texture, tx[j], ty[j]).1)
    }

    /// The lit texel with its alpha; a texel of alpha 0 leaves nothing (masked or not).
    fn translucent(
        &self,
        t: &Carma2Triangle,
        p: &Pixels,
        j: usize,
        _masked: bool,
    ) -> Option<Layer> {
        let (x, y) = Self::texel_of(t, p, j);
        let (rgba, _) = self.texel(&t.texture, x, y);
        let alpha = (rgba >> 24) as u8;
        if alpha == 0 {
            return None;
        }
        Some(Layer { color: self.lit(rgba, t.shade), index: 0, mode: 0, alpha })
    }

    #[inline(always)]
    fn shade(
        &self,
        t: &Carma2Triangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        _keys: &mut [u8; GROUP],
    ) {
        let (tx, ty) = Self::lanes(t, p);
        for (j, c) in colors.iter_mut().enumerate() {
            if p.wins[j] {
                let (rgba, _) = self.texel(&t.texture, tx[j], ty[j]);
                *c = self.lit(rgba, t.shade);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_brightness_keeps_the_channel_and_darker_scales_it() {
        for c in 0..=255u8 {
            assert_eq!(scale_channel(c, 255), c);
            assert_eq!(scale_channel(c, 0), 0);
        }
        // 200 * 128 / 255 = 100.39.
        assert_eq!(scale_channel(200, 128), 100);
    }

    #[test]
    fn alpha_blends_between_the_two_colours() {
        assert_eq!(blend_by_alpha(0xFF10_2030, 0xFF40_5060, 255), 0xFF40_5060);
        assert_eq!(blend_by_alpha(0xFF10_2030, 0xFF40_5060, 0), 0xFF10_2030);
        // Half way (alpha 128 = 0.502): 0x30 + (0x60 - 0x30) * 0.502 = 72.1.
        assert_eq!(blend_by_alpha(0xFF10_2030, 0xFF40_5060, 128) & 255, 72);
    }
}
