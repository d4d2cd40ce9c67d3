//! Where a reference screenshot lies on a rendered frame, and the frame measured against it
//! there: the geometry the viewer's reference view and its live figures share. Kept with the
//! rest of the comparison (rather than with the viewer's drawing in `app/reference.rs`)
//! because it decides which pixels are compared; the viewer only shows what it places.
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
}
