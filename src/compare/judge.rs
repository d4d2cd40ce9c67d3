//! Renders a scene from candidate cameras and scores each render against a reference: what
//! `compare --align` and `locate` search with.

use anyhow::Result;
use image::RgbaImage;

use super::{compare_images, CompareOptions, CompareReport};
use crate::render::{Gpu, SceneRenderer, ViewSettings};
use crate::scene::{Axes, FrameState, NativePose, Scene};

/// How a candidate render scores; lower is better.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Score(pub f64, pub f64);

impl Score {
    pub const WORST: Score = Score(f64::INFINITY, f64::INFINITY);
}

/// How renders are scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Mean error of images box-blurred with this radius: smooth far from the answer, so a
    /// search can follow it in from there.
    Blurred(i64),
    /// Identical pixels, then mean error (which still moves when identical pixels are rare).
    Exact,
}

/// A scene's renderer at one view size with the reference at that size.
pub struct Judge<'a> {
    gpu: &'a Gpu,
    renderer: SceneRenderer,
    axes: Axes,
    view: ViewSettings,
    reference: RgbaImage,
    /// The reference blurred at each radius asked for so far.
    blurred_reference: Vec<(i64, Vec<[f32; 3]>)>,
    renders: u32,
}

impl<'a> Judge<'a> {
    /// `reference` must have `view`'s size.
    pub fn new(
        gpu: &'a Gpu,
        scene: &Scene,
        view: ViewSettings,
        reference: RgbaImage,
    ) -> Result<Judge<'a>> {
        anyhow::ensure!(
            reference.dimensions() == (view.width, view.height),
            "the reference is {}x{}, the renders {}x{}",
            reference.width(),
            reference.height(),
            view.width,
            view.height
        );
        Ok(Judge {
            gpu,
            renderer: SceneRenderer::new(gpu, scene)?,
            axes: scene.axes,
            view,
            reference,
            blurred_reference: Vec::new(),
            renders: 0,
        })
    }

    /// Renders made so far.
    pub fn renders(&self) -> u32 {
        self.renders
    }

    /// The animation state the renders show.
    pub fn set_state(&mut self, state: &FrameState) {
        self.renderer.set_state(state);
    }

    /// The render from `pose`.
    pub fn render(&mut self, pose: &NativePose) -> Result<RgbaImage> {
        self.renders += 1;
        self.renderer.render(self.gpu, &pose.to_viewer(self.axes), &self.view);
        self.renderer.image(self.gpu)
    }

    /// The render from `pose` scored by `phase`, with the figures of the exact comparison.
    pub fn score(&mut self, pose: &NativePose, phase: Phase) -> Result<(Score, CompareReport)> {
        let img = self.render(pose)?;
        let opts = CompareOptions { tolerance: 8, mask: None };
        let report = compare_images(&img, &self.reference, &opts)?;
        let score = match phase {
            Phase::Blurred(r) => Score(blurred_error(&blurred(&img, r), self.reference_at(r)), 0.0),
            Phase::Exact => Score(-(report.identical_pixels as f64), report.mean_abs_error),
        };
        Ok((score, report))
    }

    fn reference_at(&mut self, r: i64) -> &[[f32; 3]] {
        let at = match self.blurred_reference.iter().position(|(radius, _)| *radius == r) {
            Some(at) => at,
            None => {
                self.blurred_reference.push((r, blurred(&self.reference, r)));
                self.blurred_reference.len() - 1
            }
        };
        &self.blurred_reference[at].1
    }
}

/// Box-blurs the RGB of `img` (radius `r`, clamped at the edges), as floats.
pub fn blurred(img: &RgbaImage, r: i64) -> Vec<[f32; 3]> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let at =
        |v: &[[f32; 3]], x: i64, y: i64| v[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize];
    let src: Vec<[f32; 3]> =
        img.pixels().map(|p| [p[0] as f32, p[1] as f32, p[2] as f32]).collect();
    let pass = |v: &[[f32; 3]], dx: i64, dy: i64| -> Vec<[f32; 3]> {
        let n = (2 * r + 1) as f32;
        (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let mut acc = [0f32; 3];
                for k in -r..=r {
                    let p = at(v, x + k * dx, y + k * dy);
                    for c in 0..3 {
                        acc[c] += p[c] / n;
                    }
                }
                acc
            })
            .collect()
    };
    pass(&pass(&src, 1, 0), 0, 1)
}

fn blurred_error(a: &[[f32; 3]], b: &[[f32; 3]]) -> f64 {
    let sum: f64 =
        a.iter().zip(b).map(|(p, q)| (0..3).map(|c| (p[c] - q[c]).abs() as f64).sum::<f64>()).sum();
    sum / (a.len().max(1) * 3) as f64
}

/// `img` shrunk to `w` x `h` by averaging the pixels each new pixel covers (the reference as
/// a small render would show it, near enough once both are blurred).
pub fn shrunk(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = (img.width().max(1), img.height().max(1));
    RgbaImage::from_fn(w, h, |x, y| {
        let (x0, x1) = (x * sw / w, ((x + 1) * sw / w).max(x * sw / w + 1).min(sw));
        let (y0, y1) = (y * sh / h, ((y + 1) * sh / h).max(y * sh / h + 1).min(sh));
        let mut acc = [0u32; 3];
        for yy in y0..y1 {
            for xx in x0..x1 {
                let p = img.get_pixel(xx, yy);
                for c in 0..3 {
                    acc[c] += u32::from(p[c]);
                }
            }
        }
        let n = ((x1 - x0) * (y1 - y0)).max(1);
        image::Rgba([(acc[0] / n) as u8, (acc[1] / n) as u8, (acc[2] / n) as u8, 255])
    })
}
