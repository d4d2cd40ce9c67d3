//! Saturn Quake's faithful shading on the CPU, pixel for pixel as shaders/saturn.wgsl shades
//! it: the texel's rgb555 colour plus the VDP1 Gouraud offsets of the quad's four corners
//! (bilinear in the quad, rounded to whole 5-bit steps, clamped), or the sky as a background
//! scroll following the view direction.

use crate::render::packing::PackedScene;
use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};

use crate::render::soft::billboards::Billboard;
use crate::render::soft::textures::{floor_i32, SoftTextures, TextureAt};
use crate::render::soft::translucent::Layer;
use crate::render::soft::{
    scroll_offset, sprite_texel, texel_lanes, to_target, Pixels, SoftShader, SoftView, GROUP,
};

/// Light indices the offset table holds (shaders/saturn.wgsl `sat_offset_word`).
const OFFSET_WORDS: usize = 18;
/// Bits of `WorldVertex::surface`: u and v mirrored.
const FLIP_H: u32 = 1 << 20;
const FLIP_V: u32 = 1 << 21;
/// Texels a quad spans, in u and in v.
const TEXTURE_SIZE: f32 = 64.0;
/// Sky texels per full turn of view angle.
const SKY_TEXELS_PER_TURN: f32 = 512.0;

pub struct SaturnShader {
    textures: SoftTextures,
    /// Each light index's (r, g, b) offsets in 5-bit steps, -16..=15.
    offsets: [[f32; 3]; OFFSET_WORDS],
    bgra: bool,
    /// This frame's sky texel column of each pixel column and row of each pixel row.
    sky_columns: Vec<i32>,
    sky_rows: Vec<i32>,
}

/// One triangle's shading: its texture (after animation), scroll and corner offsets.
pub struct SaturnTriangle {
    texture: TextureAt,
    scroll: [f32; 2],
    sky: bool,
    /// The corners' offsets as the VDP1 steps them: per channel, the top edge's start and
    /// change across (corners 0 → 1) and the bottom edge's (corners 3 → 2).
    top: [[f32; 2]; 3],
    bottom: [[f32; 2]; 3],
    flip_h: bool,
    flip_v: bool,
    /// A sprite: texel coordinates clamped to the texture.
    sprite: bool,
}

impl SaturnShader {
    pub fn new(packed: &PackedScene, bgra: bool) -> SaturnShader {
        let at = packed.layout.colormap as usize;
        let offsets = std::array::from_fn(|i| {
            let w = packed.meta.get(at + i).copied().unwrap_or(0x10_1010);
            std::array::from_fn(|k| ((w >> (8 * k)) & 255) as f32 - 16.0)
        });
        SaturnShader {
            textures: SoftTextures::new(packed),
            offsets,
            bgra,
            sky_columns: Vec::new(),
            sky_rows: Vec::new(),
        }
    }
}

impl SoftShader for SaturnShader {
    type Triangle = SaturnTriangle;

    /// The sky's texel for each column and row: azimuth and elevation of the pixel centre's
    /// direction (shaders/saturn.wgsl `sat_sky`).
    fn begin_frame(&mut self, view: &SoftView) {
        let turn = std::f32::consts::TAU;
        let [cx, cy, yaw, pitch] = view.centre;
        let texel = |angle: f32| (angle / turn * SKY_TEXELS_PER_TURN).floor() as i32;
        self.sky_columns.clear();
        self.sky_columns.extend(
            (0..view.width).map(|x| texel(yaw - ((x as f32 + 0.5 - cx) / view.focal).atan())),
        );
        self.sky_rows.clear();
        self.sky_rows.extend(
            (0..view.height).map(|y| texel(-(pitch - ((y as f32 + 0.5 - cy) / view.focal).atan()))),
        );
    }

    fn textures(&self) -> &SoftTextures {
        &self.textures
    }

    fn triangle(&self, v: &WorldVertex, view: &SoftView) -> SaturnTriangle {
        let corner = |k: u32| self.offsets[((v.surface >> (5 * k)) & 31).min(17) as usize];
        let [c0, c1, c2, c3] = [corner(0), corner(1), corner(2), corner(3)];
        let kind = v.flags & vertex_flags::KIND_MASK;
        SaturnTriangle {
            texture: self.textures.at(view.remap, v.texture),
            scroll: scroll_offset(view.scroll, v.flags >> vertex_flags::SCROLL_SHIFT),
            sky: view.show_sky && kind == SurfaceKind::Sky as u32,
            top: std::array::from_fn(|k| [c0[k], c1[k] - c0[k]]),
            bottom: std::array::from_fn(|k| [c3[k], c2[k] - c3[k]]),
            flip_h: v.surface & FLIP_H != 0,
            flip_v: v.surface & FLIP_V != 0,
            sprite: false,
        }
    }

    /// Saturn Quake levels carry no sprites. A sprite has no corner light words, which
    /// shaders/saturn.wgsl reads as word 0: every channel 16 steps down.
    fn sprite(&self, quad: &Billboard, _view: &SoftView) -> SaturnTriangle {
        SaturnTriangle {
            texture: quad.texture,
            scroll: [0.0; 2],
            sky: false,
            top: [[-16.0, 0.0]; 3],
            bottom: [[-16.0, 0.0]; 3],
            flip_h: false,
            flip_v: false,
            sprite: true,
        }
    }

    /// Lane by lane as [`texel_of`] finds each lane's texel, with the positions worked out in
    /// vector lanes (inlined into the pixel loops, so in their vector instructions).
    #[inline(always)]
    fn opaque(&self, t: &SaturnTriangle, p: &Pixels) -> [bool; GROUP] {
        if t.sky {
            return std::array::from_fn(|j| {
                let (x, y) = (self.sky_columns[p.x + j], self.sky_rows[p.y]);
                self.textures.texel(&t.texture, x, y) & 0x8000 == 0
            });
        }
        let sprite = t.sprite.then(|| (t.texture.width(), t.texture.height()));
        let (tx, ty) = texel_lanes(p, t.scroll, sprite);
        self.textures.texels(&t.texture, &tx, &ty).map(|texel| texel & 0x8000 == 0)
    }

    /// Saturn Quake levels have no translucent surfaces; shaders/saturn.wgsl gives one its
    /// texel's colour, without the Gouraud offsets.
    fn translucent(&self, t: &SaturnTriangle, p: &Pixels, j: usize, masked: bool) -> Option<Layer> {
        let (x, y) = texel_of(t, p, j);
        let texel = self.textures.texel(&t.texture, x, y) as u32;
        if masked && texel & 0x8000 != 0 {
            return None;
        }
        Some(Layer { color: to_target(rgb(texel), self.bgra), index: 0, mode: 0, alpha: u8::MAX })
    }

    #[inline(always)]
    fn shade(
        &self,
        t: &SaturnTriangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        _keys: &mut [u8; GROUP],
    ) {
        if t.sky {
            let sy = self.sky_rows[p.y];
            for (j, c) in colors.iter_mut().enumerate() {
                if p.wins[j] {
                    let sx = self.sky_columns[p.x + j];
                    *c = to_target(rgb(self.textures.texel(&t.texture, sx, sy) as u32), self.bgra);
                }
            }
            return;
        }
        if t.sprite {
            // Every corner's offsets are the same: the quad's are too.
            for (j, c) in colors.iter_mut().enumerate() {
                if p.wins[j] {
                    let (x, y) = texel_of(t, p, j);
                    let texel = self.textures.texel(&t.texture, x, y) as u32;
                    *c = to_target(offset_rgb(texel, |k| t.top[k][0] as i32), self.bgra);
                }
            }
            return;
        }
        // Lane by lane: texel coordinates and the Gouraud offsets.
        let (mut tx, mut ty) = ([0i32; GROUP], [0i32; GROUP]);
        let mut offsets = [[0i32; GROUP]; 3];
        for j in 0..GROUP {
            let (u, v) = (p.u[j] + t.scroll[0], p.v[j] + t.scroll[1]);
            tx[j] = floor_i32(u);
            ty[j] = floor_i32(v);
            let px = (u / TEXTURE_SIZE).clamp(0.0, 1.0);
            let py = (v / TEXTURE_SIZE).clamp(0.0, 1.0);
            let px = if t.flip_h { 1.0 - px } else { px };
            let py = if t.flip_v { 1.0 - py } else { py };
            for ((offset, top), bottom) in offsets.iter_mut().zip(&t.top).zip(&t.bottom) {
                let top = top[0] + top[1] * px;
                let bottom = bottom[0] + bottom[1] * px;
                // Whole 5-bit steps, rounded half up.
                offset[j] = floor_i32(top + (bottom - top) * py + 0.5);
            }
        }
        // Every lane's texel (coordinates wrap, so any is safe to read), then the offsets.
        let texels = self.textures.texels(&t.texture, &tx, &ty);
        for (j, c) in colors.iter_mut().enumerate() {
            let lit = to_target(offset_rgb(texels[j], |k| offsets[k][j]), self.bgra);
            *c = if p.wins[j] { lit } else { *c };
        }
    }
}

/// The texel coordinates of lane `j` of `p`.
#[inline(always)]
fn texel_of(t: &SaturnTriangle, p: &Pixels, j: usize) -> (i32, i32) {
    if t.sprite {
        (sprite_texel(p.u[j], t.texture.width()), sprite_texel(p.v[j], t.texture.height()))
    } else {
        (floor_i32(p.u[j] + t.scroll[0]), floor_i32(p.v[j] + t.scroll[1]))
    }
}

/// An rgb555 texel's colour (red low) after adding channel `k`'s offset `offset(k)` in
/// 5-bit steps, clamped.
#[inline(always)]
fn offset_rgb(texel: u32, offset: impl Fn(usize) -> i32) -> u32 {
    let mut rgb = 0;
    for k in 0..3 {
        let five = ((texel >> (5 * k)) & 31) as i32 + offset(k);
        rgb |= expand(five.clamp(0, 31) as u32) << (8 * k);
    }
    rgb
}

/// An rgb555 texel's colour (red low).
fn rgb(c: u32) -> u32 {
    expand(c & 31) | expand((c >> 5) & 31) << 8 | expand((c >> 10) & 31) << 16
}

/// A 5-bit channel as the palette's 8 bits: `(v << 3) | (v >> 2)`.
#[inline(always)]
fn expand(five: u32) -> u32 {
    (five << 3) | (five >> 2)
}
