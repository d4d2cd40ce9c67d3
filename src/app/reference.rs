//! A screenshot of the game laid over the rendered view: where the reference lies on the
//! frame (scaled with the right aspect), the pictures the viewer shows (overlay, difference,
//! highlighted differences, wipe) and the live comparison figures. Pure functions on
//! `RgbaImage`s; the viewer uploads what they return.
//!
//! Geometry. mapscope's frame and the games' frame buffers both use one focal length for
//! rows and columns (in buffer pixels) and are matched by their horizontal field of view. So
//! a reference is scaled uniformly in *buffer* pixels: its width to the frame's width, its
//! height by the same factor, centred vertically (cropped or with uncovered bands when the
//! aspects differ). A reference saved at the game's display aspect when the game's buffer
//! has another one (a Doom 320x200 frame saved as 320x240 or 640x480, stretched to 4:3) is
//! first taken back to the buffer's aspect. Showing the frame at the game's display aspect
//! (Doom's 4:3) is the viewer's business (game resolution mode), not this module's.

use image::{Rgba, RgbaImage};

use crate::compare::{self, CompareError, CompareOptions, CompareReport};
use crate::scene::GameScreen;

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

/// The aspect (width, height) of the frame buffer a reference of `width` x `height` shows:
/// its own, unless it has the game's display aspect while the game's buffer has another
/// (then it is a stretched capture, and the buffer's aspect is returned).
pub fn buffer_aspect(width: u32, height: u32, game: Option<&GameScreen>) -> (u32, u32) {
    let own = width as f64 / height.max(1) as f64;
    if let Some(g) = game {
        let close = |a: f64, b: f64| (a / b - 1.0).abs() < 0.01;
        if close(own, g.display_aspect) && !close(g.buffer_aspect(), g.display_aspect) {
            return (g.width, g.height);
        }
    }
    (width, height)
}

/// Where a reference lies on the frame: frame x = reference x · `scale_x` + `offset_x`
/// (continuous pixel coordinates, pixel centres at +0.5), likewise for y.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub reference: (u32, u32),
    pub frame: (u32, u32),
    pub scale_x: f64,
    pub scale_y: f64,
    pub offset_x: f64,
    pub offset_y: f64,
}

impl Placement {
    /// The reference's width fills the frame's; its height follows from `aspect` (the
    /// buffer aspect it shows, see [`buffer_aspect`]); centred vertically.
    pub fn new(reference: (u32, u32), frame: (u32, u32), aspect: (u32, u32)) -> Placement {
        let (rw, rh) = (reference.0.max(1) as f64, reference.1.max(1) as f64);
        let (fw, fh) = (frame.0.max(1) as f64, frame.1.max(1) as f64);
        // Exact in the common cases (multiples): one division at the end.
        let shown_h = fw * aspect.1.max(1) as f64 / aspect.0.max(1) as f64;
        Placement {
            reference,
            frame,
            scale_x: fw / rw,
            scale_y: shown_h / rh,
            offset_x: 0.0,
            offset_y: (fh - shown_h) / 2.0,
        }
    }

    /// The reference column under the centre of frame column `x`, if any.
    pub fn reference_column(&self, x: u32) -> Option<u32> {
        let rx = ((x as f64 + 0.5 - self.offset_x) / self.scale_x).floor();
        (rx >= 0.0 && rx < self.reference.0 as f64).then_some(rx as u32)
    }

    /// The reference row under the centre of frame row `y`, if any.
    pub fn reference_row(&self, y: u32) -> Option<u32> {
        let ry = ((y as f64 + 0.5 - self.offset_y) / self.scale_y).floor();
        (ry >= 0.0 && ry < self.reference.1 as f64).then_some(ry as u32)
    }

    /// The reference pixel under the centre of frame pixel (x, y), if any.
    pub fn reference_pixel(&self, x: u32, y: u32) -> Option<(u32, u32)> {
        Some((self.reference_column(x)?, self.reference_row(y)?))
    }

    /// The frame pixel under the centre of reference pixel (x, y), if any.
    pub fn frame_pixel(&self, x: u32, y: u32) -> Option<(u32, u32)> {
        let fx = ((x as f64 + 0.5) * self.scale_x + self.offset_x).floor();
        let fy = ((y as f64 + 0.5) * self.scale_y + self.offset_y).floor();
        inside(fx, fy, self.frame)
    }
}

fn inside(x: f64, y: f64, size: (u32, u32)) -> Option<(u32, u32)> {
    (x >= 0.0 && y >= 0.0 && x < size.0 as f64 && y < size.1 as f64).then_some((x as u32, y as u32))
}

/// The reference resampled (nearest neighbour) onto the frame: frame-sized, alpha 255 where
/// the reference lies and 0 elsewhere.
pub fn place_reference(reference: &RgbaImage, placement: &Placement) -> RgbaImage {
    let (fw, fh) = placement.frame;
    // Rows and columns repeat: look each up once.
    let cols: Vec<Option<u32>> = (0..fw).map(|x| placement.reference_column(x)).collect();
    let mut out = RgbaImage::new(fw, fh);
    for y in 0..fh {
        let Some(ry) = placement.reference_row(y) else { continue };
        for (x, col) in cols.iter().enumerate() {
            if let Some(rx) = col {
                let p = reference.get_pixel(*rx, ry);
                out.put_pixel(x as u32, y, Rgba([p[0], p[1], p[2], 255]));
            }
        }
    }
    out
}

/// The frame resampled onto the reference's pixels, and a mask (white where the frame
/// covers the reference pixel, black elsewhere; `None` when it covers them all) for
/// [`compare::compare_images`].
pub fn frame_at_reference(
    frame: &RgbaImage,
    placement: &Placement,
) -> (RgbaImage, Option<RgbaImage>) {
    let (rw, rh) = placement.reference;
    let mut out = RgbaImage::new(rw, rh);
    let mut mask = RgbaImage::from_pixel(rw, rh, Rgba([255, 255, 255, 255]));
    let mut partial = false;
    for y in 0..rh {
        for x in 0..rw {
            match placement.frame_pixel(x, y) {
                Some((fx, fy)) => out.put_pixel(x, y, *frame.get_pixel(fx, fy)),
                None => {
                    partial = true;
                    mask.put_pixel(x, y, Rgba([0, 0, 0, 255]));
                }
            }
        }
    }
    (out, partial.then_some(mask))
}

/// `compare`'s figures for the frame against the reference, at the reference's size
/// (reference = A, the frame resampled onto it = B; reference pixels the frame does not
/// cover are left out).
pub fn compare_live(
    reference: &RgbaImage,
    frame: &RgbaImage,
    placement: &Placement,
    tolerance: u8,
) -> Result<CompareReport, CompareError> {
    let (candidate, mask) = frame_at_reference(frame, placement);
    let opts = CompareOptions { tolerance, mask };
    compare::compare_images(reference, &candidate, &opts)
}

/// Column where the wipe divider lies for a frame `width` wide: columns left of it show the
/// reference.
pub fn wipe_column(wipe: f32, width: u32) -> u32 {
    ((wipe.clamp(0.0, 1.0) as f64) * width as f64).round() as u32
}

/// The picture the viewer shows: `frame` combined with `placed` (from [`place_reference`],
/// same size) as `blend` says. Where no reference lies, overlay and wipe show the frame, and
/// difference and highlight show [`UNCOVERED`].
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
    use crate::scene::Game;

    /// Each pixel encodes its own coordinates: (x, y, 7).
    fn coords(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| Rgba([x as u8, y as u8, 7, 255]))
    }

    #[test]
    fn doom_captures_map_back_to_the_buffer_aspect() {
        let doom = Game::Doom.screen().unwrap();
        let saucer = Game::Saucerman.screen().unwrap();
        assert_eq!(buffer_aspect(320, 200, Some(&doom)), (320, 200));
        // Stretched to 4:3 when saved: the 320x200 buffer.
        assert_eq!(buffer_aspect(320, 240, Some(&doom)), (320, 200));
        assert_eq!(buffer_aspect(640, 480, Some(&doom)), (320, 200));
        // Square-pixel games and unknown formats keep the reference's own aspect.
        assert_eq!(buffer_aspect(320, 240, Some(&saucer)), (320, 240));
        assert_eq!(buffer_aspect(640, 480, None), (640, 480));
    }

    #[test]
    fn same_size_is_the_identity() {
        let r = coords(32, 20);
        let p = Placement::new((32, 20), (32, 20), (32, 20));
        assert_eq!(place_reference(&r, &p), r);
        let (at, mask) = frame_at_reference(&r, &p);
        assert_eq!(at, r);
        assert!(mask.is_none());
        let report = compare_live(&r, &r, &p, 8).unwrap();
        assert_eq!(report.identical_share, 1.0);
        assert!(report.psnr_db.is_infinite());
    }

    #[test]
    fn doom_shot_scales_uniformly_onto_a_wide_frame() {
        // 320x200 onto 1280x720: 4x each way (1280x800), 40 rows cropped top and bottom.
        let r = coords(320, 200);
        let p = Placement::new((320, 200), (1280, 720), (320, 200));
        assert_eq!((p.scale_x, p.scale_y, p.offset_y), (4.0, 4.0, -40.0));
        let placed = place_reference(&r, &p);
        assert_eq!(placed.dimensions(), (1280, 720));
        assert_eq!(*placed.get_pixel(0, 0), Rgba([0, 10, 7, 255]));
        assert_eq!(*placed.get_pixel(3, 3), Rgba([0, 10, 7, 255]));
        assert_eq!(*placed.get_pixel(4, 0), Rgba([1, 10, 7, 255]));
        assert_eq!(*placed.get_pixel(1279, 719), Rgba([(319 % 256) as u8, 189, 7, 255]));
        // Onto a taller frame the reference leaves bands uncovered.
        let p = Placement::new((320, 200), (640, 440), (320, 200));
        assert_eq!(p.offset_y, 20.0);
        let placed = place_reference(&r, &p);
        assert_eq!(placed.get_pixel(5, 19)[3], 0);
        assert_eq!(*placed.get_pixel(5, 20), Rgba([2, 0, 7, 255]));
        assert_eq!(*placed.get_pixel(5, 419), Rgba([2, 199, 7, 255]));
        assert_eq!(placed.get_pixel(5, 420)[3], 0);
    }

    #[test]
    fn stretched_capture_is_squeezed_back() {
        // A 320x240 capture of a Doom frame (nearest-neighbour rows, 6 for 5) onto the
        // 320x200 frame.
        let doom = Game::Doom.screen().unwrap();
        let buffer = coords(320, 200);
        let stretched =
            RgbaImage::from_fn(320, 240, |x, y| *buffer.get_pixel(x, (2 * y + 1) * 5 / 12));
        let p = Placement::new((320, 240), (320, 200), buffer_aspect(320, 240, Some(&doom)));
        assert_eq!(place_reference(&stretched, &p), buffer);
        let report = compare_live(&stretched, &buffer, &p, 0).unwrap();
        assert_eq!(report.identical_share, 1.0);
    }

    #[test]
    fn live_figures_follow_the_reference_pixels() {
        // A 2x2 reference against a frame drawn at 4x4 (each pixel twice each way).
        let r = coords(2, 2);
        let mut f = RgbaImage::from_fn(4, 4, |x, y| *r.get_pixel(x / 2, y / 2));
        let p = Placement::new((2, 2), (4, 4), (2, 2));
        assert_eq!(compare_live(&r, &f, &p, 8).unwrap().identical_share, 1.0);
        // Changing a pixel the reference samples (the centre of its 2x2 block) counts.
        f.put_pixel(3, 3, Rgba([255, 0, 0, 255]));
        let report = compare_live(&r, &f, &p, 8).unwrap();
        assert_eq!(report.identical_pixels, 3);
        assert_eq!(report.compared_pixels, 4);
        assert!(report.psnr_db.is_finite());
        // Frame smaller than the reference's shown height: uncovered rows are left out.
        let p = Placement::new((2, 2), (4, 2), (2, 2));
        let (_, mask) = frame_at_reference(&f, &p);
        assert!(mask.is_some());
        assert_eq!(compare_live(&r, &f, &p, 8).unwrap().compared_pixels, 2);
    }

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
