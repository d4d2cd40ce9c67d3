//! The overlay kept as a layer of its own pixels on the CPU, repainted only where it changed,
//! and laid over each frame on its way to a CPU-presented window.
//!
//! The overlay's figures (frame time, position, tic) change every frame, but they are a few
//! lines of a panel that is otherwise the same from frame to frame. Painting the whole panel
//! anew each frame costs more than a Doom frame's walls; so the layer is cut into bands of
//! rows, each with a fingerprint of the triangles that reach it, and only bands whose
//! fingerprint changed are cleared and repainted. Laying the layer over the frame then copies
//! its opaque runs (most of the panel) and blends only its edges.

use std::ops::Range;

use egui::epaint::{ClippedPrimitive, Primitive};

use super::overlay_paint::{scissor, OverlayPainter, Pixels, Premultiplied};

/// Rows a fingerprint covers.
const BAND: usize = 8;

/// The overlay's own pixels (premultiplied 0xAARRGGBB, clear where it draws nothing; in
/// opaque runs the alpha byte is dropped, as the window's words have it).
#[derive(Default)]
pub struct OverlayLayer {
    painter: OverlayPainter,
    width: usize,
    height: usize,
    words: Vec<u32>,
    /// Each band's fingerprint of the triangles painted on it.
    bands: Vec<u64>,
    /// Each row's runs of the layer: what laying it over a frame does there.
    runs: Vec<Vec<Run>>,
    /// Every band must be repainted (a new size, new texels).
    stale: bool,
}

/// Part of a row of the layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// Opaque words: copied over the frame.
    Opaque(usize, usize),
    /// Partly clear words: blended over the frame.
    Blended(usize, usize),
}

impl OverlayLayer {
    /// Takes in new and changed textures (before [`Self::update`]). A whole texture set anew
    /// may change texels under triangles already painted: every band is repainted. A patch
    /// (egui adding glyphs to its font atlas as new text needs them) fills texels no
    /// painted triangle read, and the triangles that read them are new, so their bands'
    /// fingerprints change anyway.
    pub fn set_textures(&mut self, delta: &egui::TexturesDelta) {
        let whole = delta.set.values().flatten().any(|d| d.pos.is_none());
        self.painter.set_textures(delta);
        self.stale |= whole;
    }

    /// Forgets the textures egui freed (after painting).
    pub fn free_textures(&mut self, delta: &egui::TexturesDelta) {
        self.painter.free_textures(delta);
    }

    /// Brings the layer up to `primitives` (tessellated at `ppp`) for a `width` x `height`
    /// window, repainting the bands whose triangles changed.
    pub fn update(&mut self, primitives: &[ClippedPrimitive], ppp: f32, (w, h): (usize, usize)) {
        if (w, h) != (self.width, self.height) {
            (self.width, self.height) = (w, h);
            self.words = vec![0; w * h];
            self.runs = vec![Vec::new(); h];
            self.stale = true;
        }
        let bands = self.fingerprints(primitives, ppp);
        let stale = std::mem::take(&mut self.stale) || bands.len() != self.bands.len();
        let old = std::mem::take(&mut self.bands);
        let changed = |b: usize| stale || bands[b] != old[b];
        let mut repaint: Vec<Range<usize>> = Vec::new();
        for b in (0..bands.len()).filter(|&b| changed(b)) {
            let rows = b * BAND..((b + 1) * BAND).min(h);
            match repaint.last_mut() {
                Some(last) if last.end == rows.start => last.end = rows.end,
                _ => repaint.push(rows),
            }
        }
        if !repaint.is_empty() {
            self.repaint(primitives, ppp, &repaint);
        }
        self.bands = bands;
    }

    /// Each band's fingerprint: a sum of a hash of every triangle that reaches it (its
    /// corners, texture and clip rectangle), so a line of text that changes changes the bands
    /// it lies on and no others, whatever it does to the meshes' vertex numbering.
    fn fingerprints(&self, primitives: &[ClippedPrimitive], ppp: f32) -> Vec<u64> {
        let mut bands = vec![0u64; self.height.div_ceil(BAND)];
        for p in primitives {
            let Primitive::Mesh(mesh) = &p.primitive else { continue };
            let clip = scissor(p.clip_rect, ppp, (self.width, self.height));
            if clip[0] >= clip[2] || clip[1] >= clip[3] {
                continue;
            }
            let seed = mix(hash_words(&clip.map(|c| c as u64)), texture_key(mesh.texture_id));
            for tri in mesh.indices.chunks_exact(3) {
                let mut h = seed;
                let (mut top, mut bottom) = (f32::INFINITY, f32::NEG_INFINITY);
                for &i in tri {
                    let Some(v) = mesh.vertices.get(i as usize) else { continue };
                    let [r, g, b, a] = v.color.to_array();
                    h = mix(h, u64::from(v.pos.x.to_bits()) << 32 | u64::from(v.pos.y.to_bits()));
                    h = mix(h, u64::from(v.uv.x.to_bits()) << 32 | u64::from(v.uv.y.to_bits()));
                    h = mix(h, u64::from(u32::from_le_bytes([r, g, b, a])));
                    (top, bottom) = (top.min(v.pos.y * ppp), bottom.max(v.pos.y * ppp));
                }
                // No corner (broken indices) or a corner not a number.
                if top.partial_cmp(&bottom).is_none_or(|o| o.is_gt()) {
                    continue;
                }
                // The rows the triangle's centres may fall on, inside its scissor.
                let y0 = ((top - 0.5).max(0.0) as usize).max(clip[1]);
                let y1 = ((bottom + 0.5).max(0.0) as usize + 1).min(clip[3]);
                for band in bands.iter_mut().take(y1.div_ceil(BAND)).skip(y0 / BAND) {
                    *band = band.wrapping_add(h);
                }
            }
        }
        bands
    }

    fn repaint(&mut self, primitives: &[ClippedPrimitive], ppp: f32, bands: &[Range<usize>]) {
        let w = self.width;
        for rows in bands {
            self.words[rows.start * w..rows.end * w].fill(0);
        }
        let target = Pixels { words: &mut self.words, width: w, height: self.height };
        self.painter.paint_rows(primitives, ppp, target, bands);
        for y in bands.iter().flat_map(|rows| rows.clone()) {
            let row = &mut self.words[y * w..(y + 1) * w];
            self.runs[y] = row_runs(row);
            // An opaque run's alpha is known from the run: dropped, its words are the
            // window's as they are, copied without a mask.
            for run in &self.runs[y] {
                if let Run::Opaque(a, b) = *run {
                    row[a..b].iter_mut().for_each(|w| *w &= 0x00FF_FFFF);
                }
            }
        }
    }

    /// Lays the layer over `target` (a window's 0x00RRGGBB words of the layer's size).
    #[cfg(test)]
    pub fn composite(&self, target: Pixels) {
        let Pixels { words, width, .. } = target;
        for (y, out) in words.chunks_exact_mut(width).enumerate() {
            let under = out.to_vec();
            self.write_row(y, out, |from, out| out.copy_from_slice(&under[from..from + out.len()]));
        }
    }

    /// Writes row `y` of a window with the layer over it: `under(x, out)` writes the frame's
    /// pixels from column `x` into `out` where the layer is not opaque, and the layer's words
    /// are laid over them. A layer of another width, or a row past its end, leaves the frame
    /// as it is.
    pub fn write_row(&self, y: usize, out: &mut [u32], mut under: impl FnMut(usize, &mut [u32])) {
        let runs = match self.runs.get(y) {
            Some(runs) if out.len() == self.width => runs,
            _ => return under(0, out),
        };
        let layer = &self.words[y * self.width..(y + 1) * self.width];
        let mut x = 0;
        for run in runs {
            let (a, b, opaque) = match *run {
                Run::Opaque(a, b) => (a, b, true),
                Run::Blended(a, b) => (a, b, false),
            };
            under(x, &mut out[x..a]);
            if opaque {
                out[a..b].copy_from_slice(&layer[a..b]);
            } else {
                under(a, &mut out[a..b]);
                for (d, &s) in out[a..b].iter_mut().zip(&layer[a..b]) {
                    if s != 0 {
                        *d = Premultiplied::from_argb(s).over(*d) & 0x00FF_FFFF;
                    }
                }
            }
            x = b;
        }
        under(x, &mut out[x..]);
    }

    /// Whether the layer holds egui's texture `id` (for tests).
    #[cfg(test)]
    pub(super) fn has_texture(&self, id: egui::TextureId) -> bool {
        self.painter.has_texture(id)
    }
}

/// A row's runs: opaque words, and stretches holding anything else that is not clear.
fn row_runs(row: &[u32]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut x = 0;
    while x < row.len() {
        let opaque = row[x] >> 24 == 0xFF;
        if row[x] == 0 {
            x += 1;
            continue;
        }
        let start = x;
        while x < row.len() && row[x] != 0 && (row[x] >> 24 == 0xFF) == opaque {
            x += 1;
        }
        let run = if opaque { Run::Opaque(start, x) } else { Run::Blended(start, x) };
        runs.push(run);
    }
    runs
}

fn texture_key(id: egui::TextureId) -> u64 {
    match id {
        egui::TextureId::Managed(n) => n,
        egui::TextureId::User(n) => n ^ 1 << 63,
    }
}

fn hash_words(words: &[u64]) -> u64 {
    words.iter().fold(0x9E37_79B9_7F4A_7C15, |h, &w| mix(h, w))
}

/// One step of a 64-bit hash (a multiply-xorshift mix of `h` and `v`).
fn mix(h: u64, v: u64) -> u64 {
    let x = (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 29)
}

#[cfg(test)]
mod tests;
