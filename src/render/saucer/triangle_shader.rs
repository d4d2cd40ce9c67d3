//! Attack of the Saucerman's faithful shading on the CPU, pixel for pixel as
//! shaders/saucer.wgsl shades it: the texel's palette index through LUT1 (the tile's lighting
//! part and the fog level of the pixel's depth), tabulated with the palette by
//! render/saucer/packing.rs. Each pixel also keeps its palette index, which translucent surfaces
//! blend with through LUT2.

use crate::render::packing::PackedScene;
use crate::scene::{vertex_flags, WorldVertex};

use crate::render::soft::billboards::Billboard;
use crate::render::soft::textures::{floor_i32, SoftTextures, TextureAt};
use crate::render::soft::translucent::Layer;
use crate::render::soft::{
    scroll_offset, sprite_texel, texel_lanes, to_target, Pixels, SoftShader, SoftView, GROUP,
};

/// Fog levels of LUT1, and the words of one lighting part (levels x 256 colours).
const FOG_LEVELS: i32 = 64;
const PART_WORDS: usize = 64 * 256;
const PARTS: usize = 16;
/// LUT2's tables, each a byte per source and destination index.
const BLEND_TABLES: usize = 16;
const BLEND_TABLE_BYTES: usize = 256 * 256;

pub struct SaucerShader {
    textures: SoftTextures,
    /// LUT1 joined with the palette: per part, fog level and colour, the lit colour (in the
    /// target's order) and its palette index.
    lit: Vec<(u32, u8)>,
    fog_near: f32,
    fog_far: f32,
    /// LUT2: per table, source and destination index, the blended index.
    blend: Vec<u8>,
    /// The palette (in the target's order), which blended indices are shown in.
    palette: Vec<u32>,
}

/// One triangle's shading.
pub struct SaucerTriangle {
    texture: TextureAt,
    scroll: [f32; 2],
    /// Its LUT1 lighting part's first word in `lit`.
    part: u32,
    /// A sprite: texel coordinates clamped to the texture.
    sprite: bool,
    /// A translucent triangle's LUT2 table + 1 (its contrast byte), 0 for none.
    mode: u16,
}

impl SaucerShader {
    /// The first word in `lit` of the lighting part light slot `slot` holds.
    fn part(slot: u32, view: &SoftView) -> u32 {
        let slot = (slot as usize).min(view.light.len().saturating_sub(1));
        let part = view.light.get(slot).copied().unwrap_or(0) as usize & (PARTS - 1);
        (part * PART_WORDS) as u32
    }

    /// A texel's lit colour and palette index at view depth `depth`: its index with the
    /// texture's palette base, through LUT1 at the depth's fog level.
    fn lit_texel(&self, t: &SaucerTriangle, texel: u32, depth: f32) -> (u32, u8) {
        let colour = ((texel & 255) + t.texture.palette) as usize & 255;
        let level = fog_level(self.fog_near, self.fog_far, depth) as usize;
        self.lit.get(t.part as usize + level * 256 + colour).copied().unwrap_or((0, 0))
    }

    /// The texel coordinates of lane `j` of `p`.
    #[inline(always)]
    fn texel_of(t: &SaucerTriangle, p: &Pixels, j: usize) -> (i32, i32) {
        if t.sprite {
            (sprite_texel(p.u[j], t.texture.width()), sprite_texel(p.v[j], t.texture.height()))
        } else {
            (floor_i32(p.u[j] + t.scroll[0]), floor_i32(p.v[j] + t.scroll[1]))
        }
    }
}

impl SaucerShader {
    pub fn new(packed: &PackedScene, bgra: bool) -> SaucerShader {
        let [_, near, far, lut1, lut2, ..] = packed.layout.family;
        let word = |i: usize| packed.meta.get(lut1 as usize + i).copied().unwrap_or(0);
        let lit = (0..PARTS * PART_WORDS)
            .map(|i| (to_target(word(i) & 0x00FF_FFFF, bgra), (word(i) >> 24) as u8))
            .collect();
        // Four bytes a word, as shaders/saucer.wgsl `saucer_lut2` reads them.
        let blend = (0..BLEND_TABLES * BLEND_TABLE_BYTES)
            .map(|i| {
                let w = packed.meta.get(lut2 as usize + i / 4).copied().unwrap_or(0);
                (w >> ((i % 4) * 8)) as u8
            })
            .collect();
        let layout = &packed.layout;
        let palette = packed
            .meta
            .get(layout.palette as usize..layout.colormap as usize)
            .unwrap_or(&[])
            .iter()
            .map(|&c| to_target(c & 0x00FF_FFFF, bgra))
            .collect();
        SaucerShader {
            textures: SoftTextures::new(packed),
            lit,
            fog_near: near as f32,
            fog_far: far as f32,
            blend,
            palette,
        }
    }
}

impl SoftShader for SaucerShader {
    type Triangle = SaucerTriangle;
    const KEYS: bool = true;

    fn begin_frame(&mut self, _view: &SoftView) {}

    fn textures(&self) -> &SoftTextures {
        &self.textures
    }

    fn triangle(&self, v: &WorldVertex, view: &SoftView) -> SaucerTriangle {
        SaucerTriangle {
            texture: self.textures.at(view.remap, v.texture),
            scroll: scroll_offset(view.scroll, v.flags >> vertex_flags::SCROLL_SHIFT),
            part: Self::part(v.light, view),
            sprite: false,
            mode: (((v.flags >> vertex_flags::CONTRAST_SHIFT) & 255) as u8 as i8).max(0) as u16,
        }
    }

    /// The light slot is the sprite brightness of the tile under it; the game has no
    /// full-brightness frames.
    fn sprite(&self, quad: &Billboard, view: &SoftView) -> SaucerTriangle {
        SaucerTriangle {
            texture: quad.texture,
            scroll: [0.0; 2],
            part: Self::part(quad.light, view),
            sprite: true,
            mode: 0,
        }
    }

    /// The lit, fogged texel; its index is blended through LUT2 table `mode - 1`.
    fn translucent(&self, t: &SaucerTriangle, p: &Pixels, j: usize, masked: bool) -> Option<Layer> {
        let (x, y) = Self::texel_of(t, p, j);
        let texel = self.textures.texel(&t.texture, x, y) as u32;
        if masked && texel & 0x100 != 0 {
            return None;
        }
        let (color, index) = self.lit_texel(t, texel, p.dist[j]);
        Some(Layer { color, index, mode: t.mode, alpha: u8::MAX })
    }

    fn blend(&self, src: u8, dst: u8, mode: u16) -> (u8, u32) {
        let table = (mode as usize).wrapping_sub(1) % BLEND_TABLES;
        let at = table * BLEND_TABLE_BYTES + src as usize * 256 + dst as usize;
        let index = self.blend.get(at).copied().unwrap_or(0);
        let last = self.palette.len().saturating_sub(1);
        (index, self.palette.get((index as usize).min(last)).copied().unwrap_or(0xFF00_0000))
    }

    /// Lane by lane as [`Self::texel_of`] finds each lane's texel, with the positions worked
    /// out in vector lanes (inlined into the pixel loops, so in their vector instructions).
    #[inline(always)]
    fn opaque(&self, t: &SaucerTriangle, p: &Pixels) -> [bool; GROUP] {
        let sprite = t.sprite.then(|| (t.texture.width(), t.texture.height()));
        let (tx, ty) = texel_lanes(p, t.scroll, sprite);
        self.textures.texels(&t.texture, &tx, &ty).map(|texel| texel & 0x100 == 0)
    }

    #[inline(always)]
    fn shade(
        &self,
        t: &SaucerTriangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        keys: &mut [u8; GROUP],
    ) {
        // 32-bit lanes: four a vector.
        let mut level = [0u32; GROUP];
        let sprite = t.sprite.then(|| (t.texture.width(), t.texture.height()));
        let (tx, ty) = texel_lanes(p, t.scroll, sprite);
        for (j, level) in level.iter_mut().enumerate() {
            *level = t.part + fog_level(self.fog_near, self.fog_far, p.dist[j]) * 256;
        }
        // Every lane's texel (positions worked out in vector lanes), then the winners' colours.
        let texels = self.textures.texels(&t.texture, &tx, &ty);
        let mut at = [0u32; GROUP];
        for j in 0..GROUP {
            // The texel's index with the texture's palette base, as LUT1 reads it.
            at[j] = level[j] + (((texels[j] & 255) + t.texture.palette) & 255);
        }
        for (j, (c, k)) in colors.iter_mut().zip(keys.iter_mut()).enumerate() {
            if p.wins[j] {
                (*c, *k) = self.lit.get(at[j] as usize).copied().unwrap_or((0, 0));
            }
        }
    }
}

/// The fog level of view depth `depth`: 64 levels linear from `near` to `far`, clamped
/// (shaders/saucer.wgsl `saucer_fog_level`).
#[inline(always)]
fn fog_level(near: f32, far: f32, depth: f32) -> u32 {
    if far <= near {
        return if depth >= far { 63 } else { 0 };
    }
    // Clamped first so that the floor stays in its range.
    let level = ((depth - near) * 64.0 / (far - near)).clamp(-1.0, FOG_LEVELS as f32);
    floor_i32(level).clamp(0, FOG_LEVELS - 1) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fog_levels_run_linearly_from_near_to_far_and_clamp() {
        assert_eq!(fog_level(100.0, 740.0, 0.0), 0);
        assert_eq!(fog_level(100.0, 740.0, 109.9), 0);
        assert_eq!(fog_level(100.0, 740.0, 110.0), 1);
        assert_eq!(fog_level(100.0, 740.0, 739.0), 63);
        assert_eq!(fog_level(100.0, 740.0, 1e9), 63);
        // No fog range: all or nothing at the far distance.
        assert_eq!((fog_level(500.0, 500.0, 499.0), fog_level(500.0, 500.0, 500.0)), (0, 63));
    }
}
