//! R_MapPlane on the CPU for every flat pixel of vanilla's walk: the texel and light column
//! each pixel of a span gets by vanilla's fixed-point stepping from the span's start, packed
//! one word a pixel, uploaded with the frame state for the flats' fragment shader
//! (`exact_flat` in shaders/doom.wgsl). Vanilla sets up each span once and steps one addition
//! a pixel; the GPU only looks the texel up.

use super::vanilla_bsp::{VanillaView, WalkResult, NO_PLANE};
use super::vanilla_tables::{fixed_mul, ANGLETOFINESHIFT};

/// Bit set in a pixel's word when it holds a texel (a pixel of a non-sky visplane).
pub const FLAT_VALID: u32 = 1 << 31;
/// Planes a word can name (12 bits); pixels of later planes are left to the shader.
pub const MAX_WORD_PLANES: usize = 4096;

/// The viewer as R_MapPlane reads it: position (16.16), angle (BAM), and the per-pixel steps
/// of a span at distance 1 (`basexscale`, `baseyscale`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatViewer {
    pub viewx: i32,
    pub viewy: i32,
    pub viewz: i32,
    pub viewangle: u32,
    pub basexscale: i32,
    pub baseyscale: i32,
}

/// One span's start: the packed 6.10 position and step of R_DrawSpan, and the light column.
struct SpanSetup {
    position: u32,
    step: u32,
    zindex: u32,
}

fn setup_span(
    view: &VanillaView,
    sine: &[i32],
    v: &FlatViewer,
    y: usize,
    x1: usize,
    height: i32,
) -> SpanSetup {
    let planeheight = height.wrapping_sub(v.viewz).wrapping_abs();
    let distance = fixed_mul(planeheight, view.yslope()[y]);
    let length = fixed_mul(distance, view.distscale()[x1]);
    let angle = (v.viewangle.wrapping_add(view.xtoviewangle()[x1]) >> ANGLETOFINESHIFT) as usize;
    let xstep = fixed_mul(distance, v.basexscale);
    let ystep = fixed_mul(distance, v.baseyscale);
    let xfrac = v.viewx.wrapping_add(fixed_mul(sine[angle + 2048], length));
    let yfrac = v.viewy.wrapping_neg().wrapping_sub(fixed_mul(sine[angle], length));
    let pack = |x: i32, y: i32| ((x as u32) << 10) & 0xFFFF_0000 | ((y >> 6) as u32 & 0xFFFF);
    SpanSetup {
        position: pack(xfrac, yfrac),
        step: pack(xstep, ystep),
        zindex: (distance >> 20).clamp(0, 127) as u32,
    }
}

/// Fills `out` (one word a pixel, row-major) with each flat pixel's texel: column in bits
/// 0..6, row in 6..12, light column (distance >> 20, at most 127) in 12..19, its visplane in
/// 19..31, and [`FLAT_VALID`]. Pixels of no visplane, of a sky plane or of a plane past
/// [`MAX_WORD_PLANES`] get 0. Then one word per visplane: its height (16.16).
pub fn flat_words(
    walk: &WalkResult,
    view: &VanillaView,
    sine: &[i32],
    viewer: &FlatViewer,
    out: &mut Vec<u32>,
) {
    let (w, h) = (walk.width as usize, walk.height as usize);
    out.clear();
    out.resize(w * h, 0);
    for y in 0..h {
        let row = y * w;
        let mut current: Option<(u16, u16, SpanSetup)> = None;
        for x in 0..w {
            let (start, plane) = (walk.span_start[row + x], walk.plane_id[row + x]);
            if plane == NO_PLANE || plane as usize >= MAX_WORD_PLANES {
                current = None;
                continue;
            }
            let Some(info) = walk.planes.get(plane as usize) else { continue };
            if info.sky {
                current = None;
                continue;
            }
            if current.as_ref().is_none_or(|(s, p, _)| *s != start || *p != plane) {
                let x1 = (start as usize).min(w - 1);
                current = Some((start, plane, setup_span(view, sine, viewer, y, x1, info.height)));
            }
            let Some((_, _, span)) = &current else { continue };
            let steps = (x as u32).wrapping_sub(start as u32);
            let p = span.position.wrapping_add(steps.wrapping_mul(span.step));
            out[row + x] = FLAT_VALID
                | (p >> 26)
                | ((p >> 10) & 63) << 6
                | span.zindex << 12
                | (plane as u32) << 19;
        }
    }
    out.extend(walk.planes.iter().take(MAX_WORD_PLANES).map(|p| p.height as u32));
}
