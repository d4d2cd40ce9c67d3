//! The overlay's egui meshes painted on the CPU, straight into the window's pixels, for windows
//! presented from the CPU (a software adapter: `window_surface`'s shared memory).
//!
//! There the GPU's way to draw the overlay costs more than the frame under it: the canvas is
//! uploaded to a texture, egui's pass runs on the software rasteriser over the whole window,
//! and the result is read back, some 3.7 MB copied three times a 1280x720 frame. Painting the
//! few thousand overlay triangles into the pixels on their way to the window touches only the
//! panel's pixels.
//!
//! The arithmetic is egui-wgpu's for a window format that is not sRGB
//! (`fs_main_gamma_framebuffer`): vertex colour times texel, both premultiplied sRGB in gamma
//! space, blended `src + dst * (1 - src alpha)`; textures are sampled bilinearly (or nearest,
//! as the texture's options say) with their edges clamped. Dithering, which egui-wgpu adds to
//! smooth gradients, is left out.

use std::collections::HashMap;
use std::ops::Range;

use egui::epaint::{ClippedPrimitive, Primitive, Vertex};
use egui::{TextureFilter, TextureId, TexturesDelta};

/// One texture as egui sent it: premultiplied sRGBA texels.
struct Texture {
    width: usize,
    height: usize,
    texels: Vec<[u8; 4]>,
    nearest: bool,
}

impl Texture {
    /// The texel at normalised `uv`, filtered as the texture's options say (edges clamped).
    fn sample(&self, u: f32, v: f32) -> [f32; 4] {
        let (w, h) = (self.width, self.height);
        if w == 0 || h == 0 {
            return [255.0; 4];
        }
        let x = u * w as f32 - 0.5;
        let y = v * h as f32 - 0.5;
        let at = |x: i64, y: i64| -> [f32; 4] {
            let x = x.clamp(0, w as i64 - 1) as usize;
            let y = y.clamp(0, h as i64 - 1) as usize;
            self.texels[y * w + x].map(f32::from)
        };
        if self.nearest {
            return at(floor(x + 0.5) as i64, floor(y + 0.5) as i64);
        }
        let (x0, y0) = (floor(x), floor(y));
        let (fx, fy) = (x - x0, y - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        // On a texel's centre (text drawn at its own size, pixel-aligned) no neighbour weighs.
        if fx == 0.0 && fy == 0.0 {
            return at(x0, y0);
        }
        let (a, b, c, d) = (at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1));
        std::array::from_fn(|i| {
            let top = a[i] + (b[i] - a[i]) * fx;
            let bottom = c[i] + (d[i] - c[i]) * fx;
            top + (bottom - top) * fy
        })
    }
}

/// `v` rounded down, without libm's call (x86-64's baseline has no rounding instruction);
/// for the texture coordinates here, well inside i32.
fn floor(v: f32) -> f32 {
    let t = v as i32 as f32;
    if t > v {
        t - 1.0
    } else {
        t
    }
}

/// The overlay's textures (egui's font atlas and any images), kept on the CPU.
#[derive(Default)]
pub struct OverlayPainter {
    textures: HashMap<TextureId, Texture>,
}

/// A window's pixels (`0x00RRGGBB` words) or a layer's (premultiplied `0xAARRGGBB`), row
/// by row.
pub struct Pixels<'a> {
    pub words: &'a mut [u32],
    pub width: usize,
    pub height: usize,
}

impl OverlayPainter {
    /// Takes in this frame's new and changed textures (before painting).
    pub fn set_textures(&mut self, delta: &TexturesDelta) {
        for (id, deltas) in &delta.set {
            for d in deltas {
                self.set_texture(*id, d);
            }
        }
    }

    /// Forgets the textures egui freed (after painting).
    pub fn free_textures(&mut self, delta: &TexturesDelta) {
        for id in &delta.free {
            self.textures.remove(id);
        }
    }

    fn set_texture(&mut self, id: TextureId, delta: &egui::epaint::ImageDelta) {
        let egui::ImageData::Color(image) = &delta.image;
        let [w, h] = image.size;
        let texels = image.pixels.iter().map(|c| c.to_array());
        let nearest = delta.options.magnification == TextureFilter::Nearest;
        match delta.pos {
            None => {
                let texels = texels.collect();
                self.textures.insert(id, Texture { width: w, height: h, texels, nearest });
            }
            Some([x0, y0]) => {
                let Some(t) = self.textures.get_mut(&id) else {
                    log::warn!("overlay: a patch for texture {id:?}, which was never set");
                    return;
                };
                for (i, texel) in texels.enumerate() {
                    let (x, y) = (x0 + i % w.max(1), y0 + i / w.max(1));
                    if x < t.width && y < t.height {
                        t.texels[y * t.width + x] = texel;
                    }
                }
            }
        }
    }

    /// Paints `primitives` (tessellated at `pixels_per_point`) straight over a window's
    /// words (the tests' reference for the layer).
    #[cfg(test)]
    pub fn paint(&self, primitives: &[ClippedPrimitive], pixels_per_point: f32, target: Pixels) {
        let Pixels { words, width, height } = target;
        let all = 0..height;
        let rows = std::slice::from_ref(&all);
        self.paint_rows(primitives, pixels_per_point, Pixels { words, width, height }, rows);
        words.iter_mut().for_each(|w| *w &= 0x00FF_FFFF);
    }

    /// Paints what of `primitives` falls on the rows `bands` name (ranges in order, apart) of
    /// `target`, premultiplied 0xAARRGGBB words whose alpha is blended too (an overlay layer).
    pub(super) fn paint_rows(
        &self,
        primitives: &[ClippedPrimitive],
        ppp: f32,
        target: Pixels,
        bands: &[Range<usize>],
    ) {
        let Pixels { words, width, height } = target;
        if words.len() < width * height {
            return;
        }
        for p in primitives {
            let Primitive::Mesh(mesh) = &p.primitive else { continue };
            let Some(texture) = self.textures.get(&mesh.texture_id) else { continue };
            let clip = scissor(p.clip_rect, ppp, (width, height));
            if clip[0] >= clip[2] || clip[1] >= clip[3] {
                continue;
            }
            for tri in mesh.indices.chunks_exact(3) {
                let corner = |i: u32| mesh.vertices.get(i as usize).copied();
                let (Some(a), Some(b), Some(c)) = (corner(tri[0]), corner(tri[1]), corner(tri[2]))
                else {
                    continue;
                };
                // Most triangles miss the bands being painted: a look at their rows first.
                let top = a.pos.y.min(b.pos.y).min(c.pos.y) * ppp - 0.5;
                let bottom = a.pos.y.max(b.pos.y).max(c.pos.y) * ppp + 0.5;
                for band in bands {
                    if (band.end as f32) < top || (band.start as f32) > bottom {
                        continue;
                    }
                    let clip = [clip[0], clip[1].max(band.start), clip[2], clip[3].min(band.end)];
                    if clip[1] < clip[3] {
                        let mut canvas = PaintTarget { words: &mut *words, width, clip };
                        canvas.triangle([a, b, c], ppp, texture);
                    }
                }
            }
        }
    }

    /// Whether a texture with this id is held.
    #[cfg(test)]
    pub(super) fn has_texture(&self, id: TextureId) -> bool {
        self.textures.contains_key(&id)
    }
}

/// A clip rectangle in points as egui-wgpu rounds it to a scissor rectangle of pixels
/// (x0, y0, x1, y1), inside a `width` x `height` target.
pub(super) fn scissor(clip: egui::Rect, ppp: f32, (width, height): (usize, usize)) -> [usize; 4] {
    let round = |v: f32, max: usize| (((v * ppp).max(0.0) + 0.5) as usize).min(max);
    [
        round(clip.min.x, width),
        round(clip.min.y, height),
        round(clip.max.x, width),
        round(clip.max.y, height),
    ]
}

/// The pixels a mesh may paint: the target inside its clip rectangle (x0, y0, x1, y1).
struct PaintTarget<'a> {
    words: &'a mut [u32],
    width: usize,
    clip: [usize; 4],
}

impl PaintTarget<'_> {
    /// Fills the pixel centres `corners` cover (the top-left rule decides a centre on an
    /// edge, so meshes whose triangles share edges blend each pixel once).
    fn triangle(&mut self, corners: [Vertex; 3], ppp: f32, texture: &Texture) {
        let p = corners.map(|v| [v.pos.x * ppp, v.pos.y * ppp]);
        let area =
            (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
        if area == 0.0 || !area.is_finite() {
            return;
        }
        // Wind the corners one way, so every edge function is positive inside.
        let (corners, p) = if area < 0.0 {
            ([corners[0], corners[2], corners[1]], [p[0], p[2], p[1]])
        } else {
            (corners, p)
        };
        let area = area.abs();
        let min_x = p.iter().map(|q| q[0]).fold(f32::INFINITY, f32::min);
        let max_x = p.iter().map(|q| q[0]).fold(f32::NEG_INFINITY, f32::max);
        let min_y = p.iter().map(|q| q[1]).fold(f32::INFINITY, f32::min);
        let max_y = p.iter().map(|q| q[1]).fold(f32::NEG_INFINITY, f32::max);
        let [cx0, cy0, cx1, cy1] = self.clip;
        let x0 = ((min_x - 0.5).ceil().max(cx0 as f32) as usize).min(cx1);
        let x1 = (((max_x - 0.5).floor() + 1.0).max(0.0) as usize).min(cx1);
        let y0 = ((min_y - 0.5).ceil().max(cy0 as f32) as usize).min(cy1);
        let y1 = (((max_y - 0.5).floor() + 1.0).max(0.0) as usize).min(cy1);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        // Edge i runs from corner i+1 to corner i+2; its function is the doubled area of the
        // triangle it makes with a point, so over `area` it is corner i's weight.
        let edges: [Edge; 3] = std::array::from_fn(|i| Edge::new(p[(i + 1) % 3], p[(i + 2) % 3]));
        let inside = |x: usize, py: f32| edges.iter().all(|e| e.covers(e.at(x as f32 + 0.5, py)));
        let shade = Shade::new(&corners, texture);
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            // The span's ends from the edges, a pixel or two wide of the true ends, then
            // walked in to them: a row's covered centres are one run (the triangle is convex).
            let (mut lo, mut hi) = (x0 as f32, x1 as f32);
            for e in &edges {
                let at = e.c + e.b * py;
                if e.a > 0.0 {
                    lo = lo.max((-at / e.a - 0.5).floor() - 1.0);
                } else if e.a < 0.0 {
                    hi = hi.min((-at / e.a - 0.5).ceil() + 2.0);
                } else if at < 0.0 {
                    lo = hi;
                }
            }
            let (mut lo, mut hi) = (lo.max(x0 as f32) as usize, (hi.max(0.0) as usize).min(x1));
            while lo < hi && !inside(lo, py) {
                lo += 1;
            }
            while hi > lo && !inside(hi - 1, py) {
                hi -= 1;
            }
            if lo >= hi {
                continue;
            }
            let span = &mut self.words[y * self.width + lo..y * self.width + hi];
            match &shade {
                Shade::Flat(c) if c[3] >= 255.0 => span.fill(Premultiplied::new(*c).argb),
                Shade::Flat(c) => {
                    let src = Premultiplied::new(*c);
                    span.iter_mut().for_each(|d| *d = src.over(*d));
                }
                Shade::Varying { .. } | Shade::Textured { .. } => {
                    let px = lo as f32 + 0.5;
                    let w0: [f32; 3] = std::array::from_fn(|i| edges[i].at(px, py) / area);
                    let step: [f32; 3] = std::array::from_fn(|i| edges[i].a / area);
                    for (k, d) in span.iter_mut().enumerate() {
                        let k = k as f32;
                        let w = [w0[0] + step[0] * k, w0[1] + step[1] * k, w0[2] + step[2] * k];
                        let c = shade.at(w, texture);
                        // Most of a glyph's box is clear: nothing to blend.
                        if c[3] > 0.0 || c[0] > 0.0 || c[1] > 0.0 || c[2] > 0.0 {
                            *d = Premultiplied::new(c).over(*d);
                        }
                    }
                }
            }
        }
    }
}

/// A premultiplied colour rounded to bytes, for blending over the window's pixels or a layer.
pub(super) struct Premultiplied {
    /// Alpha, red, green and blue as a word (0xAARRGGBB; a window's words leave the alpha 0).
    pub(super) argb: u32,
    /// 255 minus alpha: how much of the pixel under it stays.
    keep: u32,
}

impl Premultiplied {
    pub(super) fn new(c: [f32; 4]) -> Premultiplied {
        let byte = |v: f32| (v.clamp(0.0, 255.0) + 0.5) as u32;
        let argb = byte(c[3]) << 24 | byte(c[0]) << 16 | byte(c[1]) << 8 | byte(c[2]);
        Premultiplied { argb, keep: 255 - byte(c[3]) }
    }

    /// A layer's word (0xAARRGGBB, premultiplied).
    pub(super) fn from_argb(argb: u32) -> Premultiplied {
        Premultiplied { argb, keep: 255 - (argb >> 24) }
    }

    /// This colour over `dst` (alpha byte included), as the GPU's blend state `One,
    /// OneMinusSrcAlpha` does, each channel rounded to the nearest step, saturating.
    pub(super) fn over(&self, dst: u32) -> u32 {
        if self.keep == 0 {
            return self.argb;
        }
        let channel = |shift: u32| -> u32 {
            let kept = div255(((dst >> shift) & 0xFF) * self.keep);
            (((self.argb >> shift) & 0xFF) + kept).min(255) << shift
        };
        channel(24) | channel(16) | channel(8) | channel(0)
    }
}

/// `v / 255` rounded to the nearest whole number, for `v` up to 255 * 255.
fn div255(v: u32) -> u32 {
    let v = v + 128;
    (v + (v >> 8)) >> 8
}

/// `a * x + b * y + c`: twice the signed area of a point with an edge's two ends.
struct Edge {
    a: f32,
    b: f32,
    c: f32,
    /// A centre exactly on this edge is inside: a top or left edge.
    inclusive: bool,
}

impl Edge {
    fn new(from: [f32; 2], to: [f32; 2]) -> Edge {
        let a = from[1] - to[1];
        let b = to[0] - from[0];
        let c = from[0] * to[1] - from[1] * to[0];
        // With the corners wound so that inside is positive (clockwise on a y-down screen),
        // a top edge runs right, a left edge runs up.
        let inclusive = (a == 0.0 && b > 0.0) || a > 0.0;
        Edge { a, b, c, inclusive }
    }

    fn at(&self, x: f32, y: f32) -> f32 {
        self.a * x + self.b * y + self.c
    }

    fn covers(&self, w: f32) -> bool {
        w > 0.0 || (w == 0.0 && self.inclusive)
    }
}

/// How a triangle's pixels get their colour: one premultiplied colour for a triangle of one
/// colour on one texel (panel backgrounds, lines, shadows' inside), else interpolated.
enum Shade {
    Flat([f32; 4]),
    /// One colour on varying texels (text).
    Textured {
        color: [f32; 4],
        uvs: [[f32; 2]; 3],
    },
    Varying {
        colors: [[f32; 4]; 3],
        uvs: [[f32; 2]; 3],
        textured: bool,
    },
}

impl Shade {
    fn new(corners: &[Vertex; 3], texture: &Texture) -> Shade {
        let colors = corners.map(|v| v.color.to_array().map(f32::from));
        let uvs = corners.map(|v| [v.uv.x, v.uv.y]);
        let one_uv = uvs[1] == uvs[0] && uvs[2] == uvs[0];
        if one_uv && colors[1] == colors[0] && colors[2] == colors[0] {
            let t = texture.sample(uvs[0][0], uvs[0][1]);
            return Shade::Flat(std::array::from_fn(|i| colors[0][i] * t[i] / 255.0));
        }
        if one_uv {
            // One texel (egui's white one, mostly): its colour is folded into the corners'.
            let t = texture.sample(uvs[0][0], uvs[0][1]);
            let colors = colors.map(|c| std::array::from_fn(|i| c[i] * t[i] / 255.0));
            return Shade::Varying { colors, uvs, textured: false };
        }
        if colors[1] == colors[0] && colors[2] == colors[0] {
            return Shade::Textured { color: colors[0], uvs };
        }
        Shade::Varying { colors, uvs, textured: true }
    }

    /// The premultiplied colour (0-255 a channel) at barycentric weights `w`.
    fn at(&self, w: [f32; 3], texture: &Texture) -> [f32; 4] {
        let uv = |uvs: &[[f32; 2]; 3]| {
            let u = uvs[0][0] * w[0] + uvs[1][0] * w[1] + uvs[2][0] * w[2];
            let v = uvs[0][1] * w[0] + uvs[1][1] * w[1] + uvs[2][1] * w[2];
            texture.sample(u, v)
        };
        match self {
            Shade::Flat(c) => *c,
            Shade::Textured { color, uvs } => {
                let t = uv(uvs);
                std::array::from_fn(|i| color[i] * t[i] / 255.0)
            }
            Shade::Varying { colors, uvs, textured } => {
                let c: [f32; 4] = std::array::from_fn(|i| {
                    colors[0][i] * w[0] + colors[1][i] * w[1] + colors[2][i] * w[2]
                });
                if !textured {
                    return c;
                }
                let t = uv(uvs);
                std::array::from_fn(|i| c[i] * t[i] / 255.0)
            }
        }
    }
}

#[cfg(test)]
mod tests;
