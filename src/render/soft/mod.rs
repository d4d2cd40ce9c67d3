//! The faithful frames of the shading families whose rules fit a triangle rasteriser (Saturn
//! Quake, Marathon, Attack of the Saucerman and Carmageddon 2), and Doom's frames vanilla's
//! canvas cannot draw (`doom`: smooth frames, and faithful ones from a pitched camera or at
//! another field of view), drawn on the CPU as Doom's faithful frames are (`vanilla`): the
//! solid world, the masked surfaces and the sprites.
//!
//! On a software GPU (lavapipe) a full-screen frame costs a depth pre-pass and a shading pass
//! whose fixed cost alone (a fragment shader returning a constant) is several milliseconds at
//! 1280x720: the fragment stage runs eight pixels at a time through code compiled for any
//! triangle. Here each frame's triangles in view (after the frustum and occlusion culling the
//! GPU path uses too) and its sprites' quads (`billboards`) are clipped and set up once (a
//! share of them on each core, those too small to cover a pixel centre dropped first),
//! sorted nearest first, dealt to the bands of rows they reach, and drawn band by band on
//! every core, each core taking the next band when it is free (`canvas_bands`), a span's
//! pixels depth-tested eight at a time before any is shaded, so that most pixels are shaded
//! once; a masked surface's or sprite's transparent texels leave the pixel as it was. The
//! family's shading is the same arithmetic as its WGSL, so the picture matches the GPU's but
//! for pixel centres on the exact edge of a texel or a triangle. Translucent surfaces are
//! blended over the canvas as the GPU's translucent pass blends them (`translucent`). Only
//! overlays are left for the GPU, drawn over the canvas and tested against its depths; a frame
//! without them never reaches the GPU.

pub(super) mod billboards;
mod raster;
pub(super) mod textures;
pub(super) mod translucent;

use std::ops::Range;

use glam::{Mat4, Vec3};

use super::canvas_bands::{self, Band, Bands};
use super::carma2::Carma2Shader;
use super::doom::DoomShader;
use super::family::{
    Canvas, CanvasMut, FamilyFrames, FamilyInputs, FrameInput, FramePlan, SolidWorld,
};
use super::marathon::MarathonShader;
use super::profiler::CpuSteps;
use super::saturn::SaturnShader;
use super::saucer::SaucerShader;
use super::{CanvasPolicy, Gpu, RenderMode};
use crate::scene::{vertex_flags, Scene, Shading, ShadingFamily, Sprite, WorldVertex};
use billboards::{billboard, Billboard};
use raster::{ClipCorner, RasterTriangle, Span, Viewport};
use textures::{floor_i32, SoftTextures};
use translucent::{blend_translucent, Layer};

/// One frame's view and animation state, as the GPU's frame uniform and state buffer hold
/// them.
pub(super) struct SoftView<'a> {
    pub view_proj: Mat4,
    pub width: u32,
    pub height: u32,
    /// The near plane's distance (reverse depth is `near / distance`).
    pub near: f32,
    /// Projection centre x, y (pixels), yaw and pitch (radians).
    pub centre: [f32; 4],
    /// Focal length in pixels.
    pub focal: f32,
    pub show_sky: bool,
    pub show_sprites: bool,
    /// The eye, and the camera's right (horizontal) that sprites face the viewer across.
    pub cam_pos: Vec3,
    pub cam_right: Vec3,
    /// Light values by slot, the texture each texture shows, and the scroll slots' offsets
    /// (two f32 bit patterns a slot), as `packing::pack_state` lays them out.
    pub light: &'a [u32],
    pub remap: &'a [u32],
    pub scroll: &'a [u32],
}

/// Pixels a span tests and shades together: a group where the canvas is nearer everywhere
/// (the walls of the next room behind this one's) costs one vector compare, and the shading
/// arithmetic of a group runs a lane a pixel.
pub(super) const GROUP: usize = 8;

/// A group of pixels of one span, as a shader sees them: up to [`GROUP`] pixels from column
/// `x` of row `y`, lane by lane their texel coordinates (perspective-correct, before
/// scrolling), view distance, and whether the triangle wins the pixel.
pub(super) struct Pixels {
    pub x: usize,
    pub y: usize,
    pub u: [f32; GROUP],
    pub v: [f32; GROUP],
    pub dist: [f32; GROUP],
    pub wins: [bool; GROUP],
}

/// The reverse depths (`near / distance`) of group `g` of `span` (its pixels from
/// `g * GROUP` on).
#[inline(always)]
fn group_depths(span: &Span, g: usize, near: f32) -> [f32; GROUP] {
    let first = (g * GROUP) as f32;
    std::array::from_fn(|j| near * span.inv_w(first + j as f32))
}

impl Pixels {
    /// Group `g` of `span` on row `y`: each lane's view distance and texel coordinates, no
    /// lane winning yet.
    #[inline(always)]
    fn of_group(span: &Span, g: usize, y: usize) -> Pixels {
        let first = (g * GROUP) as f32;
        let mut p = Pixels {
            x: span.x0 + g * GROUP,
            y,
            u: [0.0; GROUP],
            v: [0.0; GROUP],
            dist: [0.0; GROUP],
            wins: [false; GROUP],
        };
        for j in 0..GROUP {
            let k = first + j as f32;
            p.dist[j] = 1.0 / span.inv_w(k);
            (p.u[j], p.v[j]) = span.uv(k, p.dist[j]);
        }
        p
    }
}

/// A family's shading on the CPU: per-frame tables, a set-up per triangle, and the colours of
/// a group of pixels (RGBA8 in the colour target's byte order).
pub(super) trait SoftShader: Sync {
    type Triangle: Send + Sync;
    /// Whether the canvas keeps each pixel's palette index (`keys`), which the GPU's
    /// translucent surfaces blend with.
    const KEYS: bool = false;

    fn begin_frame(&mut self, view: &SoftView);

    /// The scene's textures, as the shader reads them.
    fn textures(&self) -> &SoftTextures;

    /// The shading of the triangle whose first (provoking) corner is `first`.
    fn triangle(&self, first: &WorldVertex, view: &SoftView) -> Self::Triangle;

    /// The shading of a sprite's quad (texel coordinates in texels, kept inside the
    /// texture as shaders/world.wgsl `fs_sprite` keeps them).
    fn sprite(&self, quad: &Billboard, view: &SoftView) -> Self::Triangle;

    /// Which lanes of `p` show an opaque texel of triangle `t` (a masked surface or a
    /// sprite, whose transparent texels the GPU discards).
    fn opaque(&self, t: &Self::Triangle, p: &Pixels) -> [bool; GROUP];

    /// What translucent triangle `t` leaves in the list of lane `j` of `p`, as the family's
    /// WGSL `translucent` says; `None` for a transparent texel of a `masked` one.
    fn translucent(&self, t: &Self::Triangle, p: &Pixels, j: usize, masked: bool) -> Option<Layer>;

    /// Palette index `src` blended with `dst` through the family's blend table `mode` (its
    /// WGSL `blend_index`), and the result's palette colour. Only a family whose translucent
    /// layers name a table (Attack of the Saucerman) is asked.
    fn blend(&self, src: u8, _dst: u8, _mode: u16) -> (u8, u32) {
        (src, 0xFF00_0000)
    }

    /// Writes the colour of each pixel of `p` that triangle `t` wins into `colors` (one a
    /// lane), and with [`Self::KEYS`] its palette index into `keys` (ignored otherwise).
    fn shade(
        &self,
        t: &Self::Triangle,
        p: &Pixels,
        colors: &mut [u32; GROUP],
        keys: &mut [u8; GROUP],
    );

    /// Draws the lanes of `p` that masked triangle `t` wins: an opaque texel whose reverse
    /// depth `z` beats the canvas's `depths`. A family whose opacity and colour come from the
    /// same texel fetch overrides this to fetch once.
    #[inline(always)]
    fn shade_masked(
        &self,
        t: &Self::Triangle,
        p: &mut Pixels,
        z: &[f32; GROUP],
        depths: &mut [f32; GROUP],
        colors: &mut [u32; GROUP],
        keys: &mut [u8; GROUP],
    ) {
        let opaque = self.opaque(t, p);
        depth_test(p, z, depths, &opaque);
        self.shade(t, p, colors, keys);
    }
}

/// Marks the lanes of `p` that win their pixel (reverse depth `z` beats `depths`, and the
/// texel is `opaque`) and writes their depths. Without branches, so that the lanes are tested
/// together.
#[inline(always)]
pub(super) fn depth_test(
    p: &mut Pixels,
    z: &[f32; GROUP],
    depths: &mut [f32; GROUP],
    opaque: &[bool; GROUP],
) {
    for (j, d) in depths.iter_mut().enumerate() {
        let wins = z[j] > *d && opaque[j];
        p.wins[j] = wins;
        *d = if wins { z[j] } else { *d };
    }
}

/// The vector instructions the triangle canvas's pixel loops run with on this CPU ("SSE2" or
/// "AVX2"), for reports.
pub fn canvas_vectors() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        return "AVX2";
    }
    if cfg!(target_arch = "x86_64") {
        "SSE2"
    } else {
        "baseline"
    }
}

/// Scroll slot `slot`'s texel offset (none for a slot past the end).
pub(super) fn scroll_offset(scroll: &[u32], slot: u32) -> [f32; 2] {
    let at = slot as usize * 2;
    match scroll.get(at..at + 2) {
        Some(&[u, v]) => [f32::from_bits(u), f32::from_bits(v)],
        _ => [0.0, 0.0],
    }
}

/// Texel coordinate `c` of a sprite, kept on the texture's last texel at its far edge instead
/// of wrapping to the first (shaders/world.wgsl `fs_sprite`).
#[inline(always)]
pub(super) fn sprite_texel(c: f32, size: u32) -> i32 {
    floor_i32(c.clamp(0.0, size as f32 - 0.001))
}

/// The texel coordinates of every lane of `p`: its texel coordinates plus `scroll`, or for a
/// sprite (`sprite`: its texture's size) kept inside the texture. The branch is taken once a
/// group, so that each loop compiles to vector instructions.
#[inline(always)]
pub(super) fn texel_lanes(
    p: &Pixels,
    scroll: [f32; 2],
    sprite: Option<(u32, u32)>,
) -> ([i32; GROUP], [i32; GROUP]) {
    let (mut tx, mut ty) = ([0i32; GROUP], [0i32; GROUP]);
    if let Some((w, h)) = sprite {
        for j in 0..GROUP {
            (tx[j], ty[j]) = (sprite_texel(p.u[j], w), sprite_texel(p.v[j], h));
        }
    } else {
        for j in 0..GROUP {
            (tx[j], ty[j]) = (floor_i32(p.u[j] + scroll[0]), floor_i32(p.v[j] + scroll[1]));
        }
    }
    (tx, ty)
}

/// `rgb` (red low) as an opaque pixel in the colour target's byte order.
#[inline(always)]
pub(super) fn to_target(rgb: u32, bgra: bool) -> u32 {
    let rgb = if bgra { (rgb & 0xFF00) | (rgb >> 16 & 0xFF) | (rgb & 0xFF) << 16 } else { rgb };
    rgb | 0xFF00_0000
}

/// A triangle to draw this frame: its raster set-up, its shading, whether its transparent
/// texels are left out (masked surfaces and sprites), and its place in the order the GPU
/// would draw it in (where two triangles' nearest corners tie, the later one is drawn first,
/// as it would win a depth tie there).
struct Drawn<T> {
    raster: RasterTriangle,
    shading: T,
    masked: bool,
    sequence: u32,
}

/// What the canvas draws this frame: the solid and masked triangles the renderer's culling
/// keeps (positions in [`SoftFrames`]' solid and masked vertices, in the GPU's drawing order),
/// and the scene's sprites where the view shows them; and the frame's CPU steps, which the
/// canvas marks its own in (set-up, order, drawing).
pub(super) struct CanvasDraws<'a> {
    pub solid: &'a mut dyn Iterator<Item = Range<u32>>,
    pub masked: &'a mut dyn Iterator<Item = Range<u32>>,
    pub cpu: &'a mut CpuSteps,
}

/// The scene's triangles and sprites as the canvas reads them.
struct SoftWorld {
    /// The solid triangles, as the renderer's culling ranges count them.
    solid: Vec<WorldVertex>,
    /// The masked triangles, and the position of the first in the renderer's ranges.
    masked: Vec<WorldVertex>,
    masked_first: u32,
    /// The translucent triangles, all drawn every frame (as the GPU's pass draws them).
    translucent: Vec<WorldVertex>,
    sprites: Vec<Sprite>,
}

/// A family's shader and this frame's triangles for it: the opaque ones (drawn in the order
/// of `bins`) and the translucent ones (in the scene's order).
struct Family<S: SoftShader> {
    shader: S,
    triangles: Vec<Drawn<S::Triangle>>,
    /// The triangles the other threads set up, before they join `triangles`.
    parts: Vec<Vec<Drawn<S::Triangle>>>,
    /// Every opaque triangle's drawing order key, position and bands; and each thread's.
    keys: Vec<OrderKey>,
    part_keys: Vec<Vec<OrderKey>>,
    /// Per band of rows, the opaque triangles that reach it, nearest first.
    bins: Vec<Vec<u32>>,
    translucent: Vec<Drawn<S::Triangle>>,
}

/// A run of world triangles to draw (`masked`: with their transparent texels left out), the
/// first numbered `sequence`.
struct Run<'a> {
    vertices: &'a [WorldVertex],
    masked: bool,
    sequence: u32,
}

/// An opaque triangle's place in the drawing order (`key`: nearest first, then the later of
/// two ties), its position in [`Family::triangles`] and the bands of rows it reaches.
#[derive(Clone, Copy)]
struct OrderKey {
    key: u64,
    at: u32,
    bands: [u16; 2],
}

impl OrderKey {
    fn new<T>(t: &Drawn<T>, at: usize) -> OrderKey {
        // A reverse depth is positive, so its bits sort as its value.
        let nearest = !t.raster.nearest().to_bits();
        let rows = t.raster.rows();
        let last = rows.end.saturating_sub(1).max(rows.start);
        let band = |y: usize| (y / BAND_ROWS).min(u16::MAX as usize) as u16;
        OrderKey {
            key: u64::from(nearest) << 32 | u64::from(!t.sequence),
            at: at as u32,
            bands: [band(rows.start), band(last)],
        }
    }
}

/// Triangles a thread sets up at least: fewer are not worth a thread.
const MIN_TRIANGLES_A_THREAD: usize = 2048;

/// How far (in pixels) a triangle's corners may lie from where the rasteriser snaps them
/// (1/512) plus float error, for the test that drops triangles that cover no pixel centre.
const COVER_MARGIN: f32 = 0.01;

/// How far outside an edge (in pixels) a pixel centre must lie for that test to count it as
/// uncovered: far more than snapping and float error can move the edge.
const OUTSIDE_MARGIN: f32 = 0.05;

/// Pixel centres a small triangle's box may hold for that test to try each of them; a larger
/// triangle is left to the rasteriser.
const MAX_CENTRES_TRIED: i32 = 6;

/// Whether the triangle whose clip-space corners are `c` may cover a pixel centre of the
/// viewport: `false` only where it clearly faces away, where its screen box holds no centre
/// in x or in y (a triangle off the screen, or too thin), or where it is small and every
/// centre in its box lies clearly
/// outside one of its edges (far triangles of a pixel or less, most of which cover no
/// centre). `RasterTriangle` finds the same at far greater cost. A triangle with a corner
/// behind the near plane (clipped there), or too thin to know its facing here, may.
#[inline(always)]
fn may_cover(c: &[glam::Vec4; 3], vp: &Viewport) -> bool {
    if c.iter().any(|c| c.w.is_nan() || c.w < vp.near) {
        return true;
    }
    let (w, h) = (vp.width as f32, vp.height as f32);
    let p = c.map(|c| {
        let iw = 1.0 / c.w;
        [(c.x * iw * 0.5 + 0.5) * w, (0.5 - c.y * iw * 0.5) * h]
    });
    // Front faces wind clockwise on the screen (`RasterTriangle`): their inside is where
    // each edge's cross product is negative. A face whose area is positive by far more than
    // snapping and float error can change it is a back face, which the rasteriser drops: in
    // a long open view half the walls face away.
    let cross = |a: [f32; 2], b: [f32; 2], q: [f32; 2]| {
        (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0])
    };
    let edges = [(p[0], p[1]), (p[1], p[2]), (p[2], p[0])];
    let length2 = edges.map(|(a, b)| (b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2));
    let area = cross(p[0], p[1], p[2]);
    let longest = length2[0].max(length2[1]).max(length2[2]);
    let clear = area * area > longest * (4.0 * OUTSIDE_MARGIN * OUTSIDE_MARGIN);
    if area > 0.0 && clear {
        return false;
    }
    let mut range = [(0, 0); 2];
    for (k, range) in range.iter_mut().enumerate() {
        let lo = p[0][k].min(p[1][k]).min(p[2][k]);
        let hi = p[0][k].max(p[1][k]).max(p[2][k]);
        // Columns (rows) n on the screen whose centre n + 0.5 lies in [lo, hi], widened by
        // the margin. Both ends are clamped to the screen first, so that the rounding is a
        // conversion, not a call to libm's ceil and floor (x86-64's baseline has no
        // instruction for them); a NaN end is clamped to the screen's, and counts as covering.
        let last_column = [w, h][k] - 1.0;
        let from = (lo - COVER_MARGIN - 0.5).max(0.0);
        let to = (hi + COVER_MARGIN - 0.5).min(last_column);
        if to < 0.0 || from > last_column {
            return false;
        }
        let first = from as i32 + ((from as i32 as f32) < from) as i32;
        if first > to as i32 {
            return false;
        }
        *range = (first, to as i32);
    }
    let [(x0, x1), (y0, y1)] = range;
    if (x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CENTRES_TRIED {
        return true;
    }
    // One too thin to tell which way it faces is left to the rasteriser.
    if !(area < 0.0 && clear) {
        return true;
    }
    let outside = |q: [f32; 2]| {
        edges.iter().zip(length2).any(|(&(a, b), l2)| {
            let d = cross(a, b, q);
            d > 0.0 && d * d > l2 * (OUTSIDE_MARGIN * OUTSIDE_MARGIN)
        })
    };
    !(y0..=y1).all(|y| (x0..=x1).all(|x| outside([x as f32 + 0.5, y as f32 + 0.5])))
}

/// Sets up the triangles of `runs` that may cover a pixel centre into `out`, in order.
#[inline(always)]
fn set_up_runs<S: SoftShader>(
    shader: &S,
    runs: &[Run],
    view: &SoftView,
    vp: &Viewport,
    out: &mut Vec<Drawn<S::Triangle>>,
) {
    for run in runs {
        for (n, t) in run.vertices.chunks_exact(3).enumerate() {
            let clip =
                [&t[0], &t[1], &t[2]].map(|v| view.view_proj * Vec3::from(v.pos).extend(1.0));
            if !may_cover(&clip, vp) {
                continue;
            }
            let corners = [0, 1, 2].map(|k| ClipCorner { clip: clip[k], uv: t[k].uv });
            if let Some(raster) = RasterTriangle::new(&corners, vp) {
                let shading = shader.triangle(&t[0], view);
                let sequence = run.sequence + n as u32;
                out.push(Drawn { raster, shading, masked: run.masked, sequence });
            }
        }
    }
}

/// [`set_up_runs`] compiled for the widest vectors the CPU has (see [`draw_opaque_widest`]):
/// the same IEEE arithmetic, so the same triangles, with AVX's three-operand instructions.
fn set_up_runs_widest<S: SoftShader>(
    shader: &S,
    runs: &[Run],
    view: &SoftView,
    vp: &Viewport,
    out: &mut Vec<Drawn<S::Triangle>>,
) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (asked at run time by `avx2`).
        unsafe { set_up_runs_avx2(shader, runs, view, vp, out) };
        return;
    }
    set_up_runs(shader, runs, view, vp, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn set_up_runs_avx2<S: SoftShader>(
    shader: &S,
    runs: &[Run],
    view: &SoftView,
    vp: &Viewport,
    out: &mut Vec<Drawn<S::Triangle>>,
) {
    set_up_runs(shader, runs, view, vp, out);
}

/// `runs` cut into `parts` runs of about equal triangles, in order.
fn split_runs<'a>(runs: &[Run<'a>], parts: usize) -> Vec<Vec<Run<'a>>> {
    let total: usize = runs.iter().map(|r| r.vertices.len() / 3).sum();
    let share = total.div_ceil(parts.max(1)).max(1);
    let mut out: Vec<Vec<Run>> = vec![Vec::new()];
    let mut room = share;
    for r in runs {
        let mut run = Run { vertices: r.vertices, masked: r.masked, sequence: r.sequence };
        while run.vertices.len() / 3 > room {
            let (head, tail) = run.vertices.split_at(room * 3);
            let sequence = run.sequence;
            if let Some(part) = out.last_mut() {
                part.push(Run { vertices: head, masked: run.masked, sequence });
            }
            out.push(Vec::new());
            run = Run { vertices: tail, masked: run.masked, sequence: sequence + room as u32 };
            room = share;
        }
        room -= run.vertices.len() / 3;
        if let Some(part) = out.last_mut() {
            part.push(run);
        }
    }
    out
}

impl<S: SoftShader> Family<S> {
    fn new(shader: S) -> Self {
        Family {
            shader,
            triangles: Vec::new(),
            parts: Vec::new(),
            keys: Vec::new(),
            part_keys: Vec::new(),
            bins: Vec::new(),
            translucent: Vec::new(),
        }
    }

    /// Sets up this frame's triangles and sprite quads and draws them into `canvas`.
    fn draw(
        &mut self,
        world: &SoftWorld,
        draws: CanvasDraws,
        view: &SoftView,
        canvas: &mut SoftCanvas,
    ) {
        let vp =
            Viewport { width: view.width as usize, height: view.height as usize, near: view.near };
        self.shader.begin_frame(view);
        let corner = |v: &WorldVertex| ClipCorner {
            clip: view.view_proj * Vec3::from(v.pos).extend(1.0),
            uv: v.uv,
        };
        let shader = &self.shader;
        self.translucent.clear();
        for (n, t) in world.translucent.chunks_exact(3).enumerate() {
            let corners = [corner(&t[0]), corner(&t[1]), corner(&t[2])];
            if let Some(raster) = RasterTriangle::new(&corners, &vp) {
                let shading = shader.triangle(&t[0], view);
                let masked = t[0].flags & vertex_flags::MASKED != 0;
                self.translucent.push(Drawn { raster, shading, masked, sequence: n as u32 });
            }
        }
        // The solid and masked triangles, numbered in the GPU's drawing order from 1.
        let mut runs = Vec::new();
        let mut sequence = 1;
        let first = world.masked_first;
        let solid = draws.solid.map(|r| (&world.solid, r, false));
        let masked = draws.masked.map(|r| {
            (&world.masked, r.start.saturating_sub(first)..r.end.saturating_sub(first), true)
        });
        for (vertices, r, masked) in solid.chain(masked) {
            let Some(vertices) = vertices.get(r.start as usize..r.end as usize) else { continue };
            runs.push(Run { vertices, masked, sequence });
            sequence += (vertices.len() / 3) as u32;
        }
        // Set up on every core, a share of the triangles each, each share then put in order
        // on its own core.
        let total: usize = runs.iter().map(|r| r.vertices.len() / 3).sum();
        let threads = canvas.threads.min(total / MIN_TRIANGLES_A_THREAD).max(1);
        let shares = split_runs(&runs, threads);
        self.parts.resize_with(shares.len(), Vec::new);
        self.part_keys.resize_with(shares.len(), Vec::new);
        let (mut parts, mut keys) =
            (std::mem::take(&mut self.parts), std::mem::take(&mut self.part_keys));
        let set_up = |runs: &[Run], out: &mut Vec<Drawn<S::Triangle>>, keys: &mut Vec<OrderKey>| {
            out.clear();
            set_up_runs_widest(shader, runs, view, &vp, out);
            keys.clear();
            keys.extend(out.iter().enumerate().map(|(i, t)| OrderKey::new(t, i)));
            keys.sort_unstable_by_key(|k| k.key);
        };
        std::thread::scope(|scope| {
            let mut jobs = shares.iter().zip(parts.iter_mut()).zip(keys.iter_mut());
            let first = jobs.next();
            for ((runs, out), keys) in jobs {
                scope.spawn(move || set_up(runs, out, keys));
            }
            if let Some(((runs, out), keys)) = first {
                set_up(runs, out, keys);
            }
        });
        draws.cpu.mark("CPU canvas: set-up");
        // The shares joined in order: their keys' positions move by the triangles before.
        self.triangles.clear();
        self.keys.clear();
        for (i, (part, part_keys)) in parts.iter_mut().zip(&keys).enumerate() {
            let offset = self.triangles.len() as u32;
            self.keys.extend(part_keys.iter().map(|k| OrderKey { at: k.at + offset, ..*k }));
            if i == 0 {
                // The first share becomes the list as it is, without a copy.
                std::mem::swap(&mut self.triangles, part);
            } else {
                self.triangles.append(part);
            }
        }
        (self.parts, self.part_keys) = (parts, keys);
        let sprites_from = self.keys.len();
        if view.show_sprites {
            for s in &world.sprites {
                let Some(quad) = billboard(s, view, shader.textures()) else { continue };
                for t in &quad.triangles {
                    let number = sequence;
                    sequence += 1;
                    // A billboard faces the camera, but its corners may wind either way on
                    // screen (the GPU draws sprites without culling).
                    let raster = RasterTriangle::new(t, &vp)
                        .or_else(|| RasterTriangle::new(&[t[0], t[2], t[1]], &vp));
                    if let Some(raster) = raster {
                        let shading = shader.sprite(&quad, view);
                        let drawn = Drawn { raster, shading, masked: true, sequence: number };
                        self.keys.push(OrderKey::new(&drawn, self.triangles.len()));
                        self.triangles.push(drawn);
                    }
                }
            }
        }
        // Nearest first, so that most pixels are shaded once: the shares' sorted runs merged
        // (a stable sort finds and merges them), the sprites sorted in.
        self.keys[sprites_from..].sort_unstable_by_key(|k| k.key);
        self.keys.sort_by_key(|k| k.key);
        let bands = vp.height.div_ceil(BAND_ROWS);
        self.bins.resize_with(bands, Vec::new);
        for bin in &mut self.bins {
            bin.clear();
        }
        for k in &self.keys {
            let reach = k.bands[0] as usize..(k.bands[1] as usize + 1).min(bands);
            for bin in self.bins.get_mut(reach).unwrap_or_default() {
                bin.push(k.at);
            }
        }
        draws.cpu.mark("CPU canvas: order");
        let tris = &self.triangles;
        let (shader, bins, translucent) = (&self.shader, &self.bins, &self.translucent);
        let clear_index = canvas.clear_index;
        let how = Bands {
            rows: BAND_ROWS,
            threads: canvas.threads,
            clear: canvas.clear,
            indices: S::KEYS,
        };
        let (colors, depths, indices) =
            (&mut canvas.colors, &mut canvas.depths, &mut canvas.indices);
        canvas_bands::draw_in_bands(colors, depths, indices, (vp.width, vp.height), how, |band| {
            let order = bins.get(band.y0 / BAND_ROWS).map_or(&[][..], |b| &b[..]);
            draw_opaque_widest(shader, tris, order, band, vp);
            if !translucent.is_empty() {
                blend_translucent(shader, translucent, band, vp, clear_index);
            }
        });
        draws.cpu.mark("CPU canvas: drawing");
    }
}

/// [`draw_opaque`] compiled for the widest vectors the CPU has: the pixel loops are written
/// lane by lane over 8-pixel groups, which x86-64's baseline (SSE2) runs as two 4-lane halves
/// and without a vector floor, and AVX2 as one. The arithmetic is the same IEEE arithmetic
/// either way (no fused multiply-adds), so the pictures are byte-identical.
fn draw_opaque_widest<S: SoftShader>(
    shader: &S,
    tris: &[Drawn<S::Triangle>],
    order: &[u32],
    band: &mut Band,
    vp: Viewport,
) {
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2 (asked at run time by `avx2`).
        unsafe { draw_opaque_avx2(shader, tris, order, band, vp) };
        return;
    }
    draw_opaque(shader, tris, order, band, vp);
}

/// Whether the CPU has AVX2, asked once; `MAPSCOPE_CANVAS_SIMD=sse2` says no, to compare the
/// two (tests/render/soft_canvas.rs checks they draw the same bytes).
#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    static AVX2: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVX2.get_or_init(|| {
        let baseline = std::env::var_os("MAPSCOPE_CANVAS_SIMD").is_some_and(|v| v == "sse2");
        !baseline && std::arch::is_x86_feature_detected!("avx2")
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn draw_opaque_avx2<S: SoftShader>(
    shader: &S,
    tris: &[Drawn<S::Triangle>],
    order: &[u32],
    band: &mut Band,
    vp: Viewport,
) {
    draw_opaque(shader, tris, order, band, vp);
}

/// Draws the opaque triangles `tris` that reach `band`, listed in `order` (nearest first),
/// into it.
#[inline(always)]
fn draw_opaque<S: SoftShader>(
    shader: &S,
    tris: &[Drawn<S::Triangle>],
    order: &[u32],
    band: &mut Band,
    vp: Viewport,
) {
    for (n, &i) in order.iter().enumerate() {
        // The triangles come nearest first, so their records are read all over a list of
        // tens of megabytes: fetched ahead, their cache misses overlap instead of each
        // stalling the drawing in turn.
        if let Some(&ahead) = order.get(n + PREFETCH_AHEAD) {
            prefetch(&tris[ahead as usize]);
        }
        let t = &tris[i as usize];
        let (rows, band_rows) = (t.raster.rows(), band.rows());
        let rows = rows.start.max(band_rows.start)..rows.end.min(band_rows.end);
        for y in rows {
            if let Some(span) = t.raster.span(y, vp.width) {
                let at = (y - band.y0) * vp.width;
                let pixels = at + span.x0..at + span.x1;
                let colors = &mut band.colors[pixels.clone()];
                let depths = &mut band.depths[pixels.clone()];
                let keys = band.indices.get_mut(pixels).unwrap_or_default();
                let at = (&span, y, vp.near);
                if t.masked {
                    draw_span::<S, true>(shader, t, at, colors, depths, keys);
                } else {
                    draw_span::<S, false>(shader, t, at, colors, depths, keys);
                }
            }
        }
    }
}

/// How many triangles ahead [`draw_opaque`] asks for a triangle's record: about a memory
/// latency's worth of small triangles.
const PREFETCH_AHEAD: usize = 8;

/// Asks the CPU to bring `record`'s cache lines in, without waiting for them.
#[inline(always)]
fn prefetch<T>(record: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let start = record as *const T as *const i8;
        for line in (0..std::mem::size_of::<T>()).step_by(64) {
            // SAFETY: a prefetch is a hint that never faults; the address lies inside the
            // record `record` borrows.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = record;
}

/// Draws one span of triangle `t`: each pixel whose reverse depth beats the canvas's gets the
/// triangle's colour and depth. A tie keeps the pixel drawn first: triangles come nearest
/// first, so only surfaces in one plane tie, and one buffer less to read and write a pixel
/// matters more here than which of two coplanar surfaces shows. `MASKED`: the triangle's
/// transparent texels are left out (a separate instance, so that solid spans pay nothing).
#[inline(always)]
fn draw_span<S: SoftShader, const MASKED: bool>(
    shader: &S,
    t: &Drawn<S::Triangle>,
    (span, y, near): (&Span, usize, f32),
    colors: &mut [u32],
    depths: &mut [f32],
    keys: &mut [u8],
) {
    // Whole groups as arrays, so that every lane loop compiles to vector instructions (a
    // slice's unknown length made the depth test a lane at a time).
    let mut no_keys = [0u8; GROUP];
    let mut colors = colors.chunks_exact_mut(GROUP);
    let mut depths = depths.chunks_exact_mut(GROUP);
    let mut group_keys = keys.chunks_exact_mut(GROUP);
    let mut g = 0;
    for (c, d) in colors.by_ref().zip(depths.by_ref()) {
        let (Ok(c), Ok(d)) = (c.try_into(), d.try_into()) else { break };
        let k = group_keys.next().and_then(|k| k.try_into().ok()).unwrap_or(&mut no_keys);
        draw_group::<S, MASKED>(shader, t, (span, g, y, near), c, d, k);
        g += 1;
    }
    // The last few pixels through a whole group whose other lanes cannot win (their depth
    // is nearer than any).
    let (colors, depths) = (colors.into_remainder(), depths.into_remainder());
    if colors.is_empty() {
        return;
    }
    let n = colors.len().min(depths.len());
    let (mut c, mut d, mut k) = ([0u32; GROUP], [f32::INFINITY; GROUP], [0u8; GROUP]);
    c[..n].copy_from_slice(&colors[..n]);
    d[..n].copy_from_slice(&depths[..n]);
    let keys = group_keys.into_remainder();
    let with_keys = keys.len() >= n;
    if with_keys {
        k[..n].copy_from_slice(&keys[..n]);
    }
    draw_group::<S, MASKED>(shader, t, (span, g, y, near), &mut c, &mut d, &mut k);
    colors[..n].copy_from_slice(&c[..n]);
    depths[..n].copy_from_slice(&d[..n]);
    if with_keys {
        keys[..n].copy_from_slice(&k[..n]);
    }
}

/// Draws group `g` of a span (see [`draw_span`]).
#[inline(always)]
fn draw_group<S: SoftShader, const MASKED: bool>(
    shader: &S,
    t: &Drawn<S::Triangle>,
    (span, g, y, near): (&Span, usize, usize, f32),
    colors: &mut [u32; GROUP],
    depths: &mut [f32; GROUP],
    keys: &mut [u8; GROUP],
) {
    let z = group_depths(span, g, near);
    let mut reach = false;
    for (z, d) in z.iter().zip(depths.iter()) {
        reach |= *z >= *d;
    }
    if !reach {
        return;
    }
    let mut p = Pixels::of_group(span, g, y);
    // A masked triangle's transparent texels leave the pixel as it was, depth and all.
    if MASKED {
        shader.shade_masked(&t.shading, &mut p, &z, depths, colors, keys);
    } else {
        depth_test(&mut p, &z, depths, &[true; GROUP]);
        shader.shade(&t.shading, &p, colors, keys);
    }
}

/// Rows of one band of the canvas (see `canvas_bands`).
const BAND_ROWS: usize = 8;

/// The canvas (a palette index a pixel for a family whose translucent surfaces blend by
/// index), the scene's clear colour (in the target's order) and the threads it is drawn on.
#[derive(Default)]
struct SoftCanvas {
    colors: Vec<u32>,
    depths: Vec<f32>,
    indices: Vec<u8>,
    clear: u32,
    /// The palette index translucent layers blend with where nothing was drawn.
    clear_index: u8,
    threads: usize,
}

enum Shaders {
    Saturn(Family<SaturnShader>),
    Marathon(Family<MarathonShader>),
    Saucer(Family<SaucerShader>),
    Carma2(Family<Carma2Shader>),
    Doom(Family<DoomShader>),
}

/// The frames of a family drawn on the CPU canvas: faithful frames' solid world; smooth
/// frames are the GPU's.
pub(super) struct SoftFrames {
    shaders: Shaders,
    world: SoftWorld,
    canvas: SoftCanvas,
    /// Whether this frame's solid world is on the canvas.
    on_canvas: bool,
    /// Whether faithful frames may use the canvas (`CanvasPolicy::triangles`).
    enabled: bool,
}

impl SoftFrames {
    /// The CPU canvas of `inputs.scene`, when its family draws on one.
    pub(super) fn new(inputs: &FamilyInputs) -> Option<SoftFrames> {
        let shaders = match soft_family(inputs.scene)? {
            ShadingFamily::Saturn => {
                Shaders::Saturn(Family::new(SaturnShader::new(&inputs.packed, inputs.bgra)))
            }
            ShadingFamily::Marathon => {
                Shaders::Marathon(Family::new(MarathonShader::new(&inputs.packed, inputs.bgra)))
            }
            ShadingFamily::Saucer => {
                Shaders::Saucer(Family::new(SaucerShader::new(&inputs.packed, inputs.bgra)))
            }
            ShadingFamily::Carma2 => {
                Shaders::Carma2(Family::new(Carma2Shader::new(&inputs.packed, inputs.bgra)))
            }
        };
        Some(SoftFrames::with_shaders(shaders, inputs, inputs.solid.to_vec()))
    }

    /// The CPU canvas of Doom's frames that vanilla's canvas cannot draw, whose solid
    /// triangles Doom lists each frame ([`SoftFrames::draw_listed`]).
    pub(super) fn doom(inputs: &FamilyInputs) -> SoftFrames {
        let shader = DoomShader::new(&inputs.packed, inputs.bgra);
        SoftFrames::with_shaders(Shaders::Doom(Family::new(shader)), inputs, Vec::new())
    }

    /// Doom: whether the next frames are faithful (COLORMAP by depth) or smooth.
    pub(super) fn set_doom_faithful(&mut self, faithful: bool) {
        if let Shaders::Doom(f) = &mut self.shaders {
            f.shader.faithful = faithful;
        }
    }

    fn with_shaders(shaders: Shaders, inputs: &FamilyInputs, solid: Vec<WorldVertex>) -> Self {
        let [r, g, b] = inputs.scene.clear.rgb.map(u32::from);
        SoftFrames {
            shaders,
            world: SoftWorld {
                solid,
                masked: inputs.masked.to_vec(),
                masked_first: inputs.masked_first,
                translucent: inputs.translucent.to_vec(),
                sprites: inputs.scene.sprites.clone(),
            },
            canvas: SoftCanvas {
                clear: to_target(r | g << 8 | b << 16, inputs.bgra),
                clear_index: inputs.scene.clear.index.min(255) as u8,
                threads: canvas_bands::threads(),
                ..SoftCanvas::default()
            },
            on_canvas: false,
            enabled: true,
        }
    }

    /// Draws a frame whose solid triangles the family lists itself (`list` writes them, in
    /// its drawing order), with the masked triangles of the renderer's ranges `masked`.
    pub(super) fn draw_listed(
        &mut self,
        view: &SoftView,
        list: impl FnOnce(&mut Vec<WorldVertex>),
        masked: &mut dyn Iterator<Item = Range<u32>>,
        cpu: &mut CpuSteps,
    ) {
        self.world.solid.clear();
        list(&mut self.world.solid);
        let mut solid = std::iter::once(0..self.world.solid.len() as u32);
        self.on_canvas = true;
        self.draw_canvas(view, CanvasDraws { solid: &mut solid, masked, cpu });
    }

    /// The scene's sprites, for a family that animates their frames.
    pub(super) fn sprites_mut(&mut self) -> &mut [Sprite] {
        &mut self.world.sprites
    }
}

/// The families whose faithful frames the CPU canvas draws.
pub(super) fn soft_family(scene: &Scene) -> Option<ShadingFamily> {
    match &scene.shading {
        Shading::Family { family, .. } => Some(*family),
        _ => None,
    }
}

impl FamilyFrames for SoftFrames {
    fn begin_frame(&mut self, _gpu: &Gpu, frame: &FrameInput, _cpu: &mut CpuSteps) -> FramePlan {
        self.on_canvas = self.enabled && frame.view.mode == RenderMode::Faithful;
        let solid = if self.on_canvas { SolidWorld::CulledCanvas } else { SolidWorld::Shaded };
        let keys = self.on_canvas && matches!(self.shaders, Shaders::Saucer(_));
        FramePlan { solid, occlusion: true, keys, translucent: self.on_canvas }
    }

    fn draw_canvas(&mut self, view: &SoftView, draws: CanvasDraws) {
        match &mut self.shaders {
            Shaders::Saturn(f) => f.draw(&self.world, draws, view, &mut self.canvas),
            Shaders::Marathon(f) => f.draw(&self.world, draws, view, &mut self.canvas),
            Shaders::Saucer(f) => f.draw(&self.world, draws, view, &mut self.canvas),
            Shaders::Carma2(f) => f.draw(&self.world, draws, view, &mut self.canvas),
            Shaders::Doom(f) => f.draw(&self.world, draws, view, &mut self.canvas),
        }
    }

    fn set_canvas_policy(&mut self, policy: CanvasPolicy) {
        self.enabled = policy.triangles;
    }

    fn canvas(&self) -> Option<Canvas<'_>> {
        let c = &self.canvas;
        self.on_canvas.then_some(Canvas { colors: &c.colors, depths: &c.depths, keys: &c.indices })
    }

    fn canvas_mut(&mut self) -> Option<CanvasMut<'_>> {
        let c = &mut self.canvas;
        self.on_canvas.then_some(CanvasMut { colors: &mut c.colors, depths: &c.depths })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    /// The quick test before set-up never drops a triangle the rasteriser draws a pixel of,
    /// and drops back faces (most of them clearly so) and far specks.
    #[test]
    fn the_quick_test_drops_only_what_the_rasteriser_would() {
        let vp = Viewport { width: 64, height: 48, near: 1.0 };
        let mut seed = 7u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let draws = |c: &[Vec4; 3]| {
            let corners = c.map(|clip| ClipCorner { clip, uv: [0.0; 2] });
            RasterTriangle::new(&corners, &vp)
                .is_some_and(|t| t.rows().any(|y| t.span(y, vp.width).is_some()))
        };
        let (mut specks, mut backs, mut visible_backs) = (0, 0, 0);
        for i in 0..100_000 {
            // Specks of a pixel or less, and triangles a good part of the screen across.
            let size = if i % 2 == 0 { 0.04 } else { 1.0 };
            let centre = [rnd() * 2.4 - 1.2, rnd() * 2.4 - 1.2];
            let c: [Vec4; 3] = std::array::from_fn(|_| {
                let w = 1.0 + rnd() * 20.0;
                let x = centre[0] + (rnd() - 0.5) * size;
                let y = centre[1] + (rnd() - 0.5) * size;
                Vec4::new(x * w, y * w, 0.0, w)
            });
            let reversed = [c[0], c[2], c[1]];
            if !may_cover(&c, &vp) {
                assert!(!draws(&c), "dropped a triangle that draws: {c:?}");
                if draws(&reversed) {
                    backs += 1;
                } else {
                    specks += 1;
                }
            } else if draws(&reversed) && size == 1.0 {
                visible_backs += 1;
            }
        }
        assert!(specks > 1000, "{specks} specks dropped");
        assert!(
            backs > 10 * visible_backs.max(1),
            "{backs} back faces dropped, {visible_backs} not"
        );
    }
}
