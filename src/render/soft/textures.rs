//! The scene's textures as the CPU canvas reads them: the packed 16-bit texels (and the
//! 32-bit words of direct-colour textures) and their descriptors, wrapped as
//! shaders/common.wgsl wraps them.

use crate::render::packing::PackedScene;

/// Words of one texture descriptor in the scene metadata (render/packing.rs).
const INFO_WORDS: usize = 8;
/// Descriptor flag: the texels are RGBA8 words, not 16-bit indices (render/packing.rs).
const TEX_RGBA: u32 = 1;

/// A texture's descriptor: where its texels start (counted in 16-bit texels), its size and
/// the palette base its indices are read with.
#[derive(Clone, Copy, Debug)]
pub struct TextureAt {
    first: usize,
    width: u32,
    height: u32,
    /// Both sides powers of two: coordinates wrap with a mask.
    pow2: bool,
    pub palette: u32,
    /// Direct colour: each texel is an RGBA8 word (red low), read with
    /// [`SoftTextures::rgba`].
    pub rgba: bool,
}

impl TextureAt {
    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Where the texture's texels start, counted in 16-bit texels.
    pub fn first(&self) -> usize {
        self.first
    }
}

impl Default for TextureAt {
    fn default() -> Self {
        TextureAt { first: 0, width: 1, height: 1, pow2: true, palette: 0, rgba: false }
    }
}

/// Every texture's 16-bit texels (a palette index and the transparency bit, or Saturn's
/// rgb555 colour) and descriptors.
pub struct SoftTextures {
    texels: Vec<u16>,
    infos: Vec<TextureAt>,
    /// Each texture's texel at a sprite's position (x from the left, y from the top); apart
    /// from `infos`, which every triangle copies.
    origins: Vec<[i32; 2]>,
    /// The texture smooth frames draw in each one's place, plus one (0: itself).
    smooth_twins: Vec<u32>,
}

impl SoftTextures {
    pub fn new(packed: &PackedScene) -> SoftTextures {
        let texels = packed.texels.iter().flat_map(|&w| [w as u16, (w >> 16) as u16]).collect();
        let at = packed.layout.texinfo as usize;
        let count = packed.layout.texture_count as usize;
        let infos = (0..count)
            .map(|t| {
                let word = |k: usize| packed.meta.get(at + t * INFO_WORDS + k).copied();
                let (width, height) = (word(1).unwrap_or(1).max(1), word(2).unwrap_or(1).max(1));
                TextureAt {
                    first: word(0).unwrap_or(0) as usize * 2,
                    width,
                    height,
                    pow2: width.is_power_of_two() && height.is_power_of_two(),
                    palette: word(6).unwrap_or(0),
                    rgba: word(3).unwrap_or(0) & TEX_RGBA != 0,
                }
            })
            .collect();
        let origins = (0..count)
            .map(|t| {
                [4, 5]
                    .map(|k| packed.meta.get(at + t * INFO_WORDS + k).copied().unwrap_or(0) as i32)
            })
            .collect();
        let smooth_twins = (0..count)
            .map(|t| packed.meta.get(at + t * INFO_WORDS + 7).copied().unwrap_or(0))
            .collect();
        SoftTextures { texels, infos, origins, smooth_twins }
    }

    /// The texture smooth frames draw for `texture` after this frame's animation (`remap`):
    /// a flat's full-size picture in place of its 64x64 texture, with the scale from the
    /// texel coordinates of the one to the other (`[1.0, 1.0]` for a texture drawn as it is).
    pub fn smooth_at(&self, remap: &[u32], texture: u32) -> (TextureAt, [f32; 2]) {
        let t = remap.get(texture as usize).copied().unwrap_or(texture);
        let own = self.infos.get(t as usize).copied().unwrap_or_default();
        let twin = self.smooth_twins.get(t as usize).and_then(|&w| w.checked_sub(1));
        match twin.and_then(|w| self.infos.get(w as usize)) {
            Some(full) => {
                let scale = |a: u32, b: u32| a as f32 / b as f32;
                (*full, [scale(full.width, own.width), scale(full.height, own.height)])
            }
            None => (own, [1.0, 1.0]),
        }
    }

    /// Texture `texture` after this frame's animation (`remap`, the state's remap words).
    pub fn at(&self, remap: &[u32], texture: u32) -> TextureAt {
        let t = remap.get(texture as usize).copied().unwrap_or(texture);
        self.infos.get(t as usize).copied().unwrap_or_default()
    }

    /// Texture `texture`'s origin after this frame's animation (`remap`).
    pub fn origin(&self, remap: &[u32], texture: u32) -> [i32; 2] {
        let t = remap.get(texture as usize).copied().unwrap_or(texture);
        self.origins.get(t as usize).copied().unwrap_or_default()
    }

    /// The 16-bit texel (`x`, `y`) of `t`, wrapped into the texture; 0 outside the texels.
    #[inline(always)]
    pub fn texel(&self, t: &TextureAt, x: i32, y: i32) -> u16 {
        self.texels.get(t.first + Self::wrapped(t, x, y)).copied().unwrap_or(0)
    }

    /// The 16-bit texels (`x[j]`, `y[j]`) of `t` for a group of lanes, wrapped into the
    /// texture; 0 outside the texels. The same as [`Self::texel`] lane by lane, with the
    /// texture's wrapping and bounds decided once, so that the positions are worked out in
    /// vector lanes and only the loads are a lane at a time.
    #[inline(always)]
    pub fn texels<const N: usize>(&self, t: &TextureAt, x: &[i32; N], y: &[i32; N]) -> [u32; N] {
        let (w, h) = (t.width, t.height);
        let size = (w * h) as usize;
        let texels = match self.texels.get(t.first..t.first.saturating_add(size)) {
            Some(texels) if !texels.is_empty() => texels,
            _ => return std::array::from_fn(|j| self.texel(t, x[j], y[j]) as u32),
        };
        let last = texels.len() - 1;
        let mut at = [0usize; N];
        if t.pow2 {
            // (y mod h) * w + x mod w is (y * w + x mod w) mod (w * h) for powers of two.
            for j in 0..N {
                at[j] = ((y[j] as u32).wrapping_mul(w) + (x[j] as u32 & (w - 1))) as usize & last;
            }
        } else {
            // Wrapped by a division in double precision, a vector of lanes at a time, where
            // `rem_euclid` divides a lane at a time.
            let (wf, hf) = (f64::from(w), f64::from(h));
            for j in 0..N {
                at[j] = (wrap(y[j], h, hf) * w + wrap(x[j], w, wf)) as usize;
            }
        }
        // A position no greater than the slice's last is provably inside it: the loads need
        // no bounds check, so no branch a lane.
        std::array::from_fn(|j| texels[at[j].min(last)] as u32)
    }

    /// The palette index (the texture's palette base added) of texel (`x`, `y`) of indexed
    /// texture `t`, wrapped into the texture.
    #[inline(always)]
    pub fn texel_index(&self, t: &TextureAt, x: i32, y: i32) -> u32 {
        (self.texel(t, x, y) as u32 & 255) + t.palette
    }

    /// Every 16-bit texel of the indexed textures as `color(palette index, transparent)`
    /// makes it, at the texel's own position (direct-colour textures' words are left 0).
    pub fn through_palette(&self, color: impl Fn(u32, bool) -> u32) -> Vec<u32> {
        let mut out = vec![0; self.texels.len()];
        for t in self.infos.iter().filter(|t| !t.rgba) {
            let n = (t.width * t.height) as usize;
            let end = (t.first + n).min(self.texels.len());
            let range = t.first.min(end)..end;
            for (c, &v) in out[range.clone()].iter_mut().zip(&self.texels[range]) {
                *c = color((v as u32 & 255) + t.palette, v & 0x100 != 0);
            }
        }
        out
    }

    /// The RGBA8 word (red low) of texel (`x`, `y`) of direct-colour texture `t`, wrapped
    /// into the texture; 0 outside the texels.
    #[inline(always)]
    pub fn rgba(&self, t: &TextureAt, x: i32, y: i32) -> u32 {
        let at = t.first + 2 * Self::wrapped(t, x, y);
        match self.texels.get(at..at + 2) {
            Some(&[lo, hi]) => lo as u32 | (hi as u32) << 16,
            _ => 0,
        }
    }

    /// The position of texel (`x`, `y`) in `t`, wrapped into the texture.
    #[inline(always)]
    fn wrapped(t: &TextureAt, x: i32, y: i32) -> usize {
        let (w, h) = (t.width, t.height);
        let (tx, ty) = if t.pow2 {
            (x as u32 & (w - 1), y as u32 & (h - 1))
        } else {
            // (A texture of no texels wraps to its first, not to a division by zero.)
            let (w, h) = (w.max(1), h.max(1));
            (wrap(x, w, f64::from(w)), wrap(y, h, f64::from(h)))
        };
        (ty * w + tx) as usize
    }
}

/// `c.rem_euclid(size)` (`size_f` is `size` as a float) for a size above 0: `c - size *
/// floor(c / size)`. The quotient's floor is exact in double precision: `c` and `size` are
/// whole and below 2^31, so `c / size` is either whole (and exact) or at least `1 / size`
/// from the nearest whole number, far more than its rounding error.
#[inline(always)]
fn wrap(c: i32, size: u32, size_f: f64) -> u32 {
    let quotient = f64::from(c) / size_f;
    // The floor by float arithmetic and a bit cast, as [`floor_i32`] takes it, where `as i32`
    // saturates and checks for NaN a lane at a time and libm's floor is a call on x86-64's
    // baseline. The result lies in 0..size, so wrapping arithmetic gives it exactly. (A
    // quotient that is not finite, from size 0, gives some number: callers bound it.)
    let sum = quotient + ROUNDER_F64;
    let nearest = (sum.to_bits() as i64).wrapping_sub(ROUNDER_F64.to_bits() as i64);
    let floor = nearest - ((sum - ROUNDER_F64) > quotient) as i64;
    c.wrapping_sub((floor as i32).wrapping_mul(size as i32)) as u32
}

/// 1.5 * 2^52: a double in [2^52, 2^53) has no fraction bits (see [`ROUNDER`]).
const ROUNDER_F64: f64 = 6_755_399_441_055_744.0;

/// 1.5 * 2^23: a float in [2^23, 2^24) has no fraction bits, so adding this rounds to a
/// whole number held in the low mantissa bits.
const ROUNDER: f32 = 12_582_912.0;

/// `x.floor()` as an integer, exact for |x| < 2^22 (texel coordinates, light steps) and some
/// integer beyond. Float arithmetic and a bit cast only: a lane-by-lane loop of these
/// compiles to vector instructions, where `as i32` (saturating, with a NaN check) and
/// `f32::floor` (a libm call on x86-64's baseline) run a lane at a time.
#[inline(always)]
pub fn floor_i32(x: f32) -> i32 {
    let sum = x + ROUNDER;
    let nearest = (sum.to_bits() as i32).wrapping_sub(ROUNDER.to_bits() as i32);
    nearest - ((sum - ROUNDER) > x) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_matches_the_library_floor() {
        for x in
            [-2.5f32, -1.0, -0.0001, 0.0, 0.5, 1.5, 2.5, 0.9999, 1.0, 7.5, -4e6, 4e6, 4194303.5]
        {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
        }
        let mut x = -3000.0f32;
        while x < 3000.0 {
            assert_eq!(floor_i32(x), x.floor() as i32, "{x}");
            x += 0.013;
        }
        // Beyond its range: some number, never a panic.
        for x in [f32::NAN, f32::INFINITY, -1e30] {
            let _ = floor_i32(x);
        }
    }

    #[test]
    fn texels_wrap_both_ways_as_the_shaders_wrap_them() {
        let mut t = SoftTextures {
            texels: (0..12).collect(),
            infos: Vec::new(),
            origins: Vec::new(),
            smooth_twins: Vec::new(),
        };
        // 4 x 3: not a power of two.
        let odd = TextureAt { first: 0, width: 4, height: 3, pow2: false, palette: 0, rgba: false };
        assert_eq!(t.texel(&odd, 1, 1), 5);
        assert_eq!(t.texel(&odd, -1, -1), 11);
        assert_eq!(t.texel(&odd, 5, 4), 5);
        t.texels = (0..8).collect();
        let pow2 = TextureAt { first: 0, width: 4, height: 2, pow2: true, palette: 0, rgba: false };
        assert_eq!(t.texel(&pow2, -1, -1), 7);
        assert_eq!(t.texel(&pow2, 4, 2), 0);
    }

    #[test]
    fn a_group_of_texels_reads_as_texel_reads_each_lane() {
        // Two textures back to back: 8 x 4 (powers of two, the last in the list) after a
        // 3 x 5 one; coordinates either side of both edges and far beyond.
        let t = SoftTextures {
            texels: (0..47).collect(),
            infos: Vec::new(),
            origins: Vec::new(),
            smooth_twins: Vec::new(),
        };
        let odd = TextureAt { first: 0, width: 3, height: 5, pow2: false, palette: 0, rgba: false };
        let pow2 =
            TextureAt { first: 15, width: 8, height: 4, pow2: true, palette: 0, rgba: false };
        let xs = [-1, 0, 7, 8, 9, -9, 100_003, -70_001];
        let ys = [0, -1, 3, 4, 5, -5, -99_999, i32::MIN];
        for tex in [odd, pow2] {
            for shift in 0..8 {
                let x: [i32; 8] = std::array::from_fn(|j| xs[(j + shift) % 8]);
                let y = ys;
                let one_by_one: [u32; 8] =
                    std::array::from_fn(|j| t.texel(&tex, x[j], y[j]) as u32);
                assert_eq!(t.texels(&tex, &x, &y), one_by_one, "{tex:?} {x:?}");
            }
        }
        // A texture reaching past the texels reads 0 where `texel` does.
        let short =
            TextureAt { first: 40, width: 8, height: 4, pow2: true, palette: 0, rgba: false };
        let x = [0, 1, 2, 6, 7, 8, -1, 3];
        let one_by_one: [u32; 8] = std::array::from_fn(|j| t.texel(&short, x[j], 0) as u32);
        assert_eq!(t.texels(&short, &x, &[0; 8]), one_by_one);
    }

    #[test]
    fn wrapping_by_a_double_division_is_rem_euclid() {
        for size in [1u32, 2, 3, 5, 7, 24, 100, 127, 1000, 4095, 65_535, 1 << 20] {
            let mut cs: Vec<i32> = (-3000..3000).collect();
            for k in [1i64, 2, 1000, 1 << 20] {
                for d in -2..=2 {
                    cs.extend([k * size as i64 + d, -k * size as i64 + d].map(|c| c as i32));
                }
            }
            cs.extend([i32::MIN, i32::MIN + 1, i32::MAX, i32::MAX - 1]);
            for c in cs {
                let want = c.rem_euclid(size as i32) as u32;
                assert_eq!(wrap(c, size, f64::from(size)), want, "{c} mod {size}");
            }
        }
    }

    #[test]
    fn direct_colour_texels_are_whole_words_after_the_texture_start() {
        // A 2 x 2 RGBA texture whose words start at 16-bit texel 2 (packed word 1).
        let words = [0u32, 0x1111_2222, 0x3333_4444, 0x5555_6666, 0x7777_8888];
        let texels = words.iter().flat_map(|&w| [w as u16, (w >> 16) as u16]).collect();
        let t = SoftTextures {
            texels,
            infos: Vec::new(),
            origins: Vec::new(),
            smooth_twins: Vec::new(),
        };
        let rgba = TextureAt { first: 2, width: 2, height: 2, pow2: true, palette: 0, rgba: true };
        assert_eq!(t.rgba(&rgba, 0, 0), 0x1111_2222);
        assert_eq!(t.rgba(&rgba, 1, 0), 0x3333_4444);
        assert_eq!(t.rgba(&rgba, -1, 1), 0x7777_8888);
        assert_eq!(t.rgba(&rgba, 2, 3), 0x5555_6666);
    }
}
