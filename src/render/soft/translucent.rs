//! Translucent triangles on the CPU canvas, blended as the GPU's translucent pass blends them
//! (shaders/translucent.wgsl): every fragment in front of the opaque canvas joins its pixel's
//! list, the first [`LAYERS`] to arrive are kept, and each list is blended far to near over
//! the canvas pixel, equal depths in the order they arrived. A layer replaces the colour, or
//! blends its palette index with the pixel's through a table of the family (Saucerman's LUT2).

use super::canvas_bands::Band;
use super::raster::{Span, Viewport};
use super::{group_depths, Drawn, Pixels, SoftShader, GROUP};
use crate::render::carma2::blend_by_alpha;
use crate::render::translucent_pass::LAYERS;

/// What a translucent fragment leaves in its pixel's list: `mode` 0 blends `color` over the
/// pixel's colour by `alpha` (255, most families' translucent colours, replaces it), [`ADD`]
/// adds it times `alpha`, any other blends palette index `index` with the pixel's through the family's table `mode`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(in crate::render) struct Layer {
    pub color: u32,
    pub index: u8,
    pub mode: u16,
    pub alpha: u8,
}

/// A layer's `mode` that adds its colour times its alpha to the pixel's (shaders/common.wgsl
/// `TRANSLUCENT_ADD`).
pub(in crate::render) const ADD: u16 = 0xFFFF;

/// A fragment in a band's lists: its pixel (in the band), the triangle's place in the
/// drawing order (its arrival), its view distance and what it blends.
struct Fragment {
    pixel: u32,
    arrival: u32,
    depth: f32,
    layer: Layer,
}

/// Blends the translucent triangles `translucent` (in the scene's order) over `band`; where
/// the canvas drew nothing the palette index blended with is `clear_index`. Kept out of the
/// opaque triangles' loop, which every frame runs.
#[inline(never)]
pub(super) fn blend_translucent<S: SoftShader>(
    shader: &S,
    translucent: &[Drawn<S::Triangle>],
    band: &mut Band,
    vp: Viewport,
    clear_index: u8,
) {
    let mut fragments = Vec::new();
    for t in translucent {
        let (rows, band_rows) = (t.raster.rows(), band.rows());
        let rows = rows.start.max(band_rows.start)..rows.end.min(band_rows.end);
        for y in rows {
            if let Some(span) = t.raster.span(y, vp.width) {
                let at = (y - band.y0) * vp.width + span.x0;
                let depths = &band.depths[at..at + span.x1 - span.x0];
                collect_span(shader, t, &span, y, vp.near, depths, at, &mut fragments);
            }
        }
    }
    resolve(shader, &mut fragments, band, clear_index);
}

/// Adds the fragments of span `span` (row `y`) of translucent triangle `t` that lie in front
/// of the canvas to `fragments`.
#[allow(clippy::too_many_arguments)]
fn collect_span<S: SoftShader>(
    shader: &S,
    t: &Drawn<S::Triangle>,
    span: &Span,
    y: usize,
    near: f32,
    depths: &[f32],
    first_pixel: usize,
    fragments: &mut Vec<Fragment>,
) {
    for (g, depths) in depths.chunks(GROUP).enumerate() {
        let z = group_depths(span, g, near);
        if !z.iter().zip(depths).any(|(z, d)| z > d) {
            continue;
        }
        let p = Pixels::of_group(span, g, y);
        for (j, d) in depths.iter().enumerate() {
            if z[j] <= *d {
                continue;
            }
            if let Some(layer) = shader.translucent(&t.shading, &p, j, t.masked) {
                let pixel = (first_pixel + g * GROUP + j) as u32;
                fragments.push(Fragment { pixel, arrival: t.sequence, depth: p.dist[j], layer });
            }
        }
    }
}

/// Blends each pixel's list of `fragments` over `band`.
fn resolve<S: SoftShader>(
    shader: &S,
    fragments: &mut [Fragment],
    band: &mut Band,
    clear_index: u8,
) {
    fragments.sort_unstable_by_key(|f| (f.pixel, f.arrival));
    for list in fragments.chunk_by_mut(|a, b| a.pixel == b.pixel) {
        let kept = list.len().min(LAYERS as usize);
        let kept = &mut list[..kept];
        // Far to near; a stable sort keeps equal depths in their order of arrival.
        kept.sort_by(|a, b| b.depth.total_cmp(&a.depth));
        let at = kept[0].pixel as usize;
        let Some(color) = band.colors.get_mut(at) else { continue };
        let drawn = band.depths.get(at).is_some_and(|&d| d > 0.0);
        let mut index = band.indices.get(at).filter(|_| drawn).copied().unwrap_or(clear_index);
        for f in kept.iter() {
            if f.layer.mode == 0 && f.layer.alpha == u8::MAX {
                *color = f.layer.color;
            } else if f.layer.mode == 0 {
                *color = blend_by_alpha(*color, f.layer.color, f.layer.alpha);
            } else if f.layer.mode == ADD {
                *color = add_by_alpha(*color, f.layer.color, f.layer.alpha);
            } else {
                (index, *color) = shader.blend(f.layer.index, index, f.layer.mode);
            }
        }
    }
}

/// `dst` plus `src` times `alpha` (0..255), each channel saturating, as the GPU's resolve adds
/// an 8-bit colour (shaders/translucent.wgsl); the result opaque.
fn add_by_alpha(dst: u32, src: u32, alpha: u8) -> u32 {
    let a = alpha as f32 / 255.0;
    let channel = |k: u32| {
        let (d, s) = ((dst >> (8 * k)) & 255, (src >> (8 * k)) & 255);
        let sum = d as f32 / 255.0 + s as f32 / 255.0 * a;
        ((sum.min(1.0) * 255.0 + 0.5) as u32) << (8 * k)
    };
    channel(0) | channel(1) | channel(2) | 0xFF00_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_saturates_each_channel() {
        assert_eq!(add_by_alpha(0xFF10_2030, 0xFF10_1010, 255), 0xFF20_3040);
        assert_eq!(add_by_alpha(0xFFF0_2030, 0xFF40_1010, 255), 0xFFFF_3040);
        assert_eq!(add_by_alpha(0xFF10_2030, 0xFF40_5060, 0), 0xFF10_2030);
    }
}
