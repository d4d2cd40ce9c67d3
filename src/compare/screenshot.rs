//! Screenshots as people keep them, taken back to the game's frame buffer before a
//! comparison: saved at an integer scale (2x, 3x), stretched to the display's 4:3 (Doom's
//! 320x200 buffer shown as 320x240, 640x480, 1280x960), lossy (JPEG), with a status bar below
//! a smaller view.
//!
//! The figures of a comparison are honest only at the game's own resolution: one frame-buffer
//! pixel, one sample. So the screenshot is resampled to the render's size rather than the
//! render blown up to the screenshot's (which would weigh every pixel by the scale and count
//! the scaler's blending as the renderer's error). Each buffer pixel becomes the mean of the
//! screenshot pixels that lie wholly inside it: with a nearest-neighbour scaler (the games'
//! and Chocolate Doom's integer scaling, row doubling for 4:3) those are copies of that one
//! pixel, so an exact screenshot comes back exactly; a smoothed or JPEG screenshot loses its
//! blended edges and averages its noise away.

use image::{Rgba, RgbaImage};

use crate::scene::GameScreen;

/// How much taller than the buffer a 4:3-corrected screenshot is (200 rows shown as 240).
const ASPECT_STRETCH: (u32, u32) = (6, 5);

/// A screenshot taken back to a render's frame.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The render's size: the part of the screenshot's buffer the render shows.
    pub image: RgbaImage,
    /// How the screenshot was read, for the report ("640x480: 2x, 4:3-corrected").
    pub how: String,
}

/// Why a screenshot does not fit a frame.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error(
    "the reference is {}x{}, which is not the {}x{} frame, an integer scale of it, its 4:3 \
     stretch, or a frame with a game's status bar or interface below a view of that size",
    shot.0, shot.1, frame.0, frame.1
)]
pub struct FitError {
    pub shot: (u32, u32),
    pub frame: (u32, u32),
}

/// How a screenshot's pixels map onto a frame buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    /// Screenshot pixels per buffer column (an integer) and per buffer row (a fraction).
    scale: u32,
    stretched: bool,
    /// The screenshot's buffer height (the frame's, or more with a status bar below).
    buffer_height: u32,
}

/// Finds how a `shot`-sized screenshot shows a `frame`-sized render: the same size; an integer
/// scale (the same factor across and down); that scale stretched to 4:3 (rows 6/5 as many);
/// or any of these of a buffer whose view is the frame with Doom's status bar below it
/// (a 320x200 buffer with a 320x168 view) or Marathon's interface (640x480 with 640x320).
fn layout(shot: (u32, u32), frame: (u32, u32)) -> Result<Layout, FitError> {
    let err = FitError { shot, frame };
    let (w, h) = shot;
    let (fw, fh) = (frame.0.max(1), frame.1.max(1));
    if w % fw != 0 || w == 0 {
        return Err(err);
    }
    let scale = w / fw;
    let (sn, sd) = ASPECT_STRETCH;
    let candidates = [
        (h % scale == 0).then(|| (h / scale, false)),
        ((h * sd) % (scale * sn) == 0).then(|| (h * sd / (scale * sn), true)),
    ];
    let fits = |(bh, stretched): (u32, bool)| {
        let view = bh == fh;
        // The bar scales with the buffer: Doom's is 32 of every 200 rows.
        let bar = bh > fh && GameScreen::hud_views().any(|(v, b)| fh * b == bh * v);
        // A buffer the display stretches is one whose aspect is not already 4:3.
        let plausible = !stretched || fw * 3 != bh * 4;
        ((view || bar) && plausible).then_some(Layout { scale, stretched, buffer_height: bh })
    };
    candidates.into_iter().flatten().find_map(fits).ok_or(err)
}

/// `shot` taken back to a `frame`-sized render (see the module notes).
pub fn fit_to_frame(shot: &RgbaImage, frame: (u32, u32)) -> Result<Fitted, FitError> {
    let l = layout(shot.dimensions(), frame)?;
    let (fw, fh) = frame;
    let mut how = format!("{}x{}", shot.width(), shot.height());
    let mut parts = Vec::new();
    if l.scale > 1 {
        parts.push(format!("{}x", l.scale));
    }
    if l.stretched {
        parts.push("4:3-stretched".to_string());
    }
    if l.buffer_height > fh {
        parts.push(format!("view above a {}-row status bar or interface", l.buffer_height - fh));
    }
    if parts.is_empty() {
        parts.push("as rendered".to_string());
    }
    how += &format!(" ({})", parts.join(", "));
    if l.scale == 1 && !l.stretched && l.buffer_height == fh {
        return Ok(Fitted { image: shot.clone(), how });
    }
    // Screenshot rows per buffer row.
    let (sn, sd) = ASPECT_STRETCH;
    let sy = if l.stretched { l.scale as f64 * sn as f64 / sd as f64 } else { l.scale as f64 };
    let cols = |x: u32| inner(x, l.scale as f64, shot.width());
    let rows = |y: u32| inner(y, sy, shot.height());
    let mut image = RgbaImage::new(fw, fh);
    for y in 0..fh {
        let ys = rows(y);
        for x in 0..fw {
            let xs = cols(x);
            let mut sum = [0u32; 4];
            let mut n = 0;
            for sy in ys.clone() {
                for sx in xs.clone() {
                    let p = shot.get_pixel(sx, sy).0;
                    for (s, c) in sum.iter_mut().zip(p) {
                        *s += c as u32;
                    }
                    n += 1;
                }
            }
            let mean = sum.map(|s| ((s + n / 2) / n.max(1)) as u8);
            image.put_pixel(x, y, Rgba(mean));
        }
    }
    Ok(Fitted { image, how })
}

/// The screenshot pixels (one axis) that lie inside buffer pixel `i` when each buffer pixel
/// spans `scale` screenshot pixels: those whose centres are at least half a pixel inside its
/// span (fewer when the span is under two pixels wide, never none).
fn inner(i: u32, scale: f64, len: u32) -> std::ops::Range<u32> {
    let margin = ((scale - 1.0) / 2.0).clamp(0.0, 0.5);
    let (lo, hi) = (i as f64 * scale + margin, (i + 1) as f64 * scale - margin);
    // Centres c + 0.5 with lo <= c + 0.5 <= hi.
    let first = (lo - 0.5).ceil().max(0.0) as u32;
    let last = ((hi - 0.5).floor() as u32).min(len.saturating_sub(1));
    if first > last {
        let centre = ((i as f64 + 0.5) * scale).floor() as u32;
        let c = centre.min(len.saturating_sub(1));
        return c..c + 1;
    }
    first..last + 1
}

/// Takes a lossy screenshot's colours back to the game's palette: each pixel becomes the
/// palette colour nearest it (largest channel difference) when that one is within
/// `max_error`, else stays as it is. A palette game's frame holds palette colours only, so
/// this undoes JPEG noise without looking at the render being judged. Returns the pixels
/// changed.
pub fn snap_to_palette(image: &mut RgbaImage, palette: &[[u8; 3]], max_error: u8) -> usize {
    let mut nearest = std::collections::HashMap::new();
    let mut changed = 0;
    for p in image.pixels_mut() {
        let rgb = [p[0], p[1], p[2]];
        let snapped = *nearest.entry(rgb).or_insert_with(|| {
            let distance = |c: &[u8; 3]| (0..3).map(|i| c[i].abs_diff(rgb[i])).max().unwrap_or(0);
            palette
                .iter()
                .min_by_key(|c| distance(c))
                .filter(|c| distance(c) <= max_error)
                .copied()
                .unwrap_or(rgb)
        });
        if snapped != rgb {
            p.0[..3].copy_from_slice(&snapped);
            changed += 1;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 320x200 buffer of distinct colours, scaled as a port scales it: each column `scale`
    /// times, each row so that screenshot row r shows buffer row floor((r + 0.5) / sy).
    fn buffer() -> RgbaImage {
        RgbaImage::from_fn(320, 200, |x, y| Rgba([x as u8, y as u8, (x * 7 + y * 13) as u8, 255]))
    }

    fn scaled(b: &RgbaImage, scale: u32, stretched: bool) -> RgbaImage {
        let sy = if stretched { scale as f64 * 1.2 } else { scale as f64 };
        let h = (b.height() as f64 * sy).round() as u32;
        RgbaImage::from_fn(b.width() * scale, h, |x, y| {
            *b.get_pixel(x / scale, ((y as f64 + 0.5) / sy).floor() as u32)
        })
    }

    #[test]
    fn nearest_scaled_screenshots_come_back_exactly() {
        let b = buffer();
        for (scale, stretched, size) in [
            (1, false, (320, 200)),
            (2, false, (640, 400)),
            (3, false, (960, 600)),
            (1, true, (320, 240)),
            (2, true, (640, 480)),
            (4, true, (1280, 960)),
        ] {
            let shot = scaled(&b, scale, stretched);
            assert_eq!(shot.dimensions(), size);
            let f = fit_to_frame(&shot, (320, 200)).unwrap();
            assert_eq!(f.image, b, "{size:?}: {}", f.how);
        }
    }

    #[test]
    fn a_status_bar_below_a_smaller_view_is_left_out() {
        let b = buffer();
        let shot = scaled(&b, 2, true);
        let f = fit_to_frame(&shot, (320, 168)).unwrap();
        assert!(f.how.contains("32-row status bar"), "{}", f.how);
        let view = image::imageops::crop_imm(&b, 0, 0, 320, 168).to_image();
        assert_eq!(f.image, view);
    }

    #[test]
    fn marathons_interface_below_its_view_is_left_out() {
        let b = RgbaImage::from_fn(640, 480, |x, y| Rgba([x as u8, y as u8, (x ^ y) as u8, 255]));
        for scale in [1, 2] {
            let f = fit_to_frame(&scaled(&b, scale, false), (640, 320)).unwrap();
            assert!(f.how.contains("160-row status bar or interface"), "{}", f.how);
            assert_eq!(f.image, image::imageops::crop_imm(&b, 0, 0, 640, 320).to_image());
        }
    }

    #[test]
    fn other_sizes_are_refused_with_both_sizes() {
        let e = fit_to_frame(&RgbaImage::new(333, 200), (320, 200)).unwrap_err();
        assert_eq!(e, FitError { shot: (333, 200), frame: (320, 200) });
        assert!(e.to_string().contains("333x200") && e.to_string().contains("320x200"));
        // Scaled across only.
        assert!(fit_to_frame(&RgbaImage::new(640, 200), (320, 200)).is_err());
    }

    #[test]
    fn snapping_takes_noisy_colours_to_the_nearest_palette_entry_within_reach() {
        let palette = [[0, 0, 0], [100, 50, 25], [200, 200, 200]];
        let mut image = RgbaImage::from_vec(
            3,
            1,
            vec![103, 48, 27, 255, 190, 210, 200, 255, 150, 150, 150, 255],
        )
        .unwrap();
        assert_eq!(snap_to_palette(&mut image, &palette, 12), 2);
        assert_eq!(image.get_pixel(0, 0).0, [100, 50, 25, 255]);
        assert_eq!(image.get_pixel(1, 0).0, [200, 200, 200, 255]);
        // Nothing within 12 of it: left alone.
        assert_eq!(image.get_pixel(2, 0).0, [150, 150, 150, 255]);
    }

    #[test]
    fn smoothed_edges_are_left_out_of_the_mean() {
        // A 2x-stretched row pair whose boundary rows the scaler blended: only the inner
        // rows of each buffer row count.
        assert_eq!(inner(0, 2.4, 480), 0..2);
        assert_eq!(inner(1, 2.4, 480), 3..4);
        assert_eq!(inner(0, 1.2, 240), 0..1);
        assert_eq!(inner(4, 1.2, 240), 5..6);
    }
}
