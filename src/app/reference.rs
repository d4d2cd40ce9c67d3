//! A screenshot of the game laid over the rendered view: the pictures the viewer shows
//! (overlay, difference, highlighted differences, wipe). Pure functions on `RgbaImage`s; the
//! viewer uploads what they return. Where the reference lies on the frame, and the live
//! comparison figures, are `compare::placement`'s.

use image::{Rgba, RgbaImage};

use crate::compare;

/// What the viewer shows where the reference lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefMode {
    /// The reference blended over the view with an opacity.
    Overlay,
    /// Absolute difference per channel.
    Difference,
    /// Differing pixels highlighted (the colours of `mapscope compare --diff`).
    Highlight,
    /// Reference left of a divider, the view right of it.
    Wipe,
}

impl RefMode {
    pub const ALL: [RefMode; 4] =
        [RefMode::Overlay, RefMode::Difference, RefMode::Highlight, RefMode::Wipe];

    pub fn label(self) -> &'static str {
        match self {
            RefMode::Overlay => "overlay",
            RefMode::Difference => "difference",
            RefMode::Highlight => "highlight",
            RefMode::Wipe => "wipe",
        }
    }

    pub fn next(self) -> RefMode {
        let i = RefMode::ALL.iter().position(|m| *m == self).unwrap_or(0);
        RefMode::ALL[(i + 1) % RefMode::ALL.len()]
    }
}

/// How to combine the view and the reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    pub mode: RefMode,
    /// Overlay: weight of the reference, 0..=1.
    pub opacity: f32,
    /// Wipe: the divider as a fraction of the frame width, 0..=1.
    pub wipe: f32,
    /// Highlight: largest channel difference drawn yellow rather than red.
    pub tolerance: u8,
}

impl Default for Blend {
    fn default() -> Self {
        Blend {
            mode: RefMode::Overlay,
            opacity: 0.5,
            wipe: 0.5,
            tolerance: compare::DEFAULT_TOLERANCE,
        }
    }
}

/// Where no reference lies (difference and highlight modes): compare's "masked" blue.
pub const UNCOVERED: Rgba<u8> = Rgba([0, 0, 96, 255]);
const WITHIN: Rgba<u8> = Rgba([255, 255, 0, 255]);

/// Column where the wipe divider lies for a frame `width` wide: columns left of it show the
/// reference.
pub fn wipe_column(wipe: f32, width: u32) -> u32 {
    ((wipe.clamp(0.0, 1.0) as f64) * width as f64).round() as u32
}

/// The picture the viewer shows: `frame` combined with `placed` (from
/// [`place_reference`](crate::compare::placement::place_reference), same size) as `blend`
/// says. Where no reference lies, overlay and wipe show the frame, and difference and
/// highlight show [`UNCOVERED`].
pub fn compose(frame: &RgbaImage, placed: &RgbaImage, blend: &Blend) -> RgbaImage {
    let (w, h) = frame.dimensions();
    assert_eq!(placed.dimensions(), (w, h), "placed reference and frame sizes differ");
    let a = (blend.opacity.clamp(0.0, 1.0) * 255.0).round() as u32;
    let wipe = wipe_column(blend.wipe, w);
    let mut out = RgbaImage::new(w, h);
    let pixels = out.chunks_exact_mut(4).zip(frame.chunks_exact(4)).zip(placed.chunks_exact(4));
    for (i, ((o, f), r)) in pixels.enumerate() {
        let x = (i % w as usize) as u32;
        let covered = r[3] != 0;
        let px: [u8; 4] = match blend.mode {
            _ if !covered && matches!(blend.mode, RefMode::Overlay | RefMode::Wipe) => {
                [f[0], f[1], f[2], 255]
            }
            _ if !covered => UNCOVERED.0,
            RefMode::Overlay => {
                let mix =
                    |c: usize| ((f[c] as u32 * (255 - a) + r[c] as u32 * a + 127) / 255) as u8;
                [mix(0), mix(1), mix(2), 255]
            }
            RefMode::Difference => {
                [f[0].abs_diff(r[0]), f[1].abs_diff(r[1]), f[2].abs_diff(r[2]), 255]
            }
            RefMode::Highlight => highlight(r, f, blend.tolerance),
            RefMode::Wipe if x < wipe => [r[0], r[1], r[2], 255],
            RefMode::Wipe => [f[0], f[1], f[2], 255],
        };
        o.copy_from_slice(&px);
    }
    out
}

/// Identical: the pixel as grey at a quarter of its brightness; within `tolerance`: yellow;
/// beyond: red, brighter the larger the worst channel error (as `compare --diff`).
fn highlight(r: &[u8], f: &[u8], tolerance: u8) -> [u8; 4] {
    let worst = r[0].abs_diff(f[0]).max(r[1].abs_diff(f[1])).max(r[2].abs_diff(f[2]));
    if worst == 0 {
        let luma = (299 * r[0] as u32 + 587 * r[1] as u32 + 114 * r[2] as u32) / 1000;
        let g = (luma / 4) as u8;
        [g, g, g, 255]
    } else if worst <= tolerance {
        WITHIN.0
    } else {
        [128 + (worst as u32 * 127 / 255) as u8, 0, 0, 255]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair() -> (RgbaImage, RgbaImage) {
        // Frame: black, white, (100,100,100), (10,20,30). Reference: white, white,
        // (104,100,100), (200,20,30) and alpha 0 (uncovered) in the fifth.
        let px = |v: [u8; 4]| Rgba(v);
        let frame = RgbaImage::from_fn(5, 1, |x, _| {
            [
                px([0, 0, 0, 255]),
                px([255; 4]),
                px([100, 100, 100, 255]),
                px([10, 20, 30, 255]),
                px([9, 9, 9, 255]),
            ][x as usize]
        });
        let placed = RgbaImage::from_fn(5, 1, |x, _| {
            [
                px([255; 4]),
                px([255; 4]),
                px([104, 100, 100, 255]),
                px([200, 20, 30, 255]),
                px([0; 4]),
            ][x as usize]
        });
        (frame, placed)
    }

    fn row(img: &RgbaImage) -> Vec<[u8; 4]> {
        img.pixels().map(|p| p.0).collect()
    }

    #[test]
    fn overlay_blends_by_opacity() {
        let (f, r) = pair();
        let blend = |opacity| Blend { mode: RefMode::Overlay, opacity, ..Blend::default() };
        let half = compose(&f, &r, &blend(0.5));
        assert_eq!(half.get_pixel(0, 0).0, [128, 128, 128, 255]);
        assert_eq!(half.get_pixel(3, 0).0, [105, 20, 30, 255]);
        assert_eq!(half.get_pixel(4, 0).0, [9, 9, 9, 255], "uncovered shows the frame");
        let none = compose(&f, &r, &blend(0.0));
        assert_eq!(row(&none)[..4], row(&f)[..4]);
        let full = compose(&f, &r, &blend(1.0));
        assert_eq!(full.get_pixel(0, 0).0, [255; 4]);
        assert_eq!(full.get_pixel(2, 0).0, [104, 100, 100, 255]);
    }

    #[test]
    fn difference_and_highlight() {
        let (f, r) = pair();
        let d = compose(&f, &r, &Blend { mode: RefMode::Difference, ..Blend::default() });
        assert_eq!(
            row(&d),
            vec![
                [255, 255, 255, 255],
                [0, 0, 0, 255],
                [4, 0, 0, 255],
                [190, 0, 0, 255],
                UNCOVERED.0
            ]
        );
        let h = compose(&f, &r, &Blend { mode: RefMode::Highlight, ..Blend::default() });
        // White identical -> grey 63; 4 off -> yellow (tolerance 8); 255 and 190 off -> red.
        assert_eq!(
            row(&h),
            vec![
                [255, 0, 0, 255],
                [63, 63, 63, 255],
                [255, 255, 0, 255],
                [222, 0, 0, 255],
                UNCOVERED.0
            ]
        );
    }

    #[test]
    fn wipe_splits_at_the_divider() {
        let (f, r) = pair();
        let w = |wipe| compose(&f, &r, &Blend { mode: RefMode::Wipe, wipe, ..Blend::default() });
        // 0.4 of 5 columns: 2 columns of reference.
        assert_eq!(wipe_column(0.4, 5), 2);
        let img = w(0.4);
        assert_eq!(img.get_pixel(0, 0).0, [255; 4]);
        assert_eq!(img.get_pixel(1, 0).0, [255; 4]);
        assert_eq!(img.get_pixel(2, 0).0, [100, 100, 100, 255]);
        assert_eq!(img.get_pixel(3, 0).0, [10, 20, 30, 255]);
        assert_eq!(row(&w(0.0))[..4], row(&f)[..4]);
        // All the way right: the reference everywhere it lies, the frame elsewhere.
        assert_eq!(w(1.0).get_pixel(3, 0).0, [200, 20, 30, 255]);
        assert_eq!(w(1.0).get_pixel(4, 0).0, [9, 9, 9, 255]);
        assert_eq!(RefMode::Wipe.next(), RefMode::Overlay);
    }
}
