//! Finding the camera a reference screenshot was taken from: a pattern search over small
//! position and angle offsets around a rough camera, scoring each render against the
//! reference by identical share (ties: lower mean error, which still moves when identical
//! pixels are rare far from the answer).

use anyhow::Result;

use super::{compare_images, CompareOptions, CompareReport};
use crate::render::{Gpu, SceneRenderer, ViewSettings};
use crate::scene::{CameraPose, NativePose, Scene};

#[derive(Clone, Copy, Debug)]
pub struct AlignOptions {
    /// First position step (native units) and the step at which the search stops.
    pub pos_step: f64,
    pub min_pos_step: f64,
    /// First angle step (degrees, facing and pitch) and where the search stops.
    pub angle_step: f64,
    pub min_angle_step: f64,
    /// Most renders the search may make.
    pub max_renders: u32,
}

impl AlignOptions {
    /// Steps for a format with `units_per_metre` native units to the metre: 25 cm and 2°
    /// down to 1 cm and 0.05°.
    pub fn for_units(units_per_metre: f64) -> AlignOptions {
        AlignOptions {
            pos_step: 0.25 * units_per_metre,
            min_pos_step: 0.01 * units_per_metre,
            angle_step: 2.0,
            min_angle_step: 0.05,
            max_renders: 2000,
        }
    }
}

pub struct AlignResult {
    pub start: NativePose,
    pub start_report: CompareReport,
    pub best: NativePose,
    pub best_report: CompareReport,
    pub renders: u32,
}

#[derive(Clone, Copy)]
enum Phase<'a> {
    /// Mean error of images box-blurred with this radius (the reference's given).
    Blurred(i64, &'a [[f32; 3]]),
    /// Identical pixels, then mean error.
    Exact,
}

/// How a candidate render scores; lower is better.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Score(f64, f64);

/// Box-blurs the RGB of `img` (radius `r`, clamped at the edges), as floats.
fn blurred(img: &image::RgbaImage, r: i64) -> Vec<[f32; 3]> {
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

/// Searches around `start` for the camera whose render of `scene` (with `view`, at `tic`)
/// matches `reference` best. `view`'s size must be the reference's.
pub fn align(
    gpu: &Gpu,
    scene: &mut Scene,
    view: &ViewSettings,
    tic: u32,
    reference: &image::RgbaImage,
    start: NativePose,
    opts: &AlignOptions,
) -> Result<AlignResult> {
    let mut renderer = SceneRenderer::new(gpu, scene)?;
    let mut state = scene.animator.initial();
    scene.animator.state_at(tic, &mut state);
    renderer.set_state(&state);
    let compare_opts = CompareOptions { tolerance: 8, mask: None };
    let renders = std::cell::Cell::new(0u32);
    let mut score = |cam: &NativePose, phase: Phase| -> Result<(Score, CompareReport)> {
        renders.set(renders.get() + 1);
        renderer.render(gpu, &cam.to_viewer(scene.axes), view);
        let img = renderer.read_image(gpu)?;
        let report = compare_images(&img, reference, &compare_opts)?;
        let s = match phase {
            Phase::Blurred(r, reference_blurred) => {
                Score(blurred_error(&blurred(&img, r), reference_blurred), 0.0)
            }
            Phase::Exact => Score(-(report.identical_pixels as f64), report.mean_abs_error),
        };
        Ok((s, report))
    };

    let (_, start_report) = score(&start, Phase::Exact)?;
    let mut best = start;
    let mut best_report = start_report.clone();
    // Coarse to fine: heavily blurred images give a smooth error that leads in from far off,
    // lightly blurred ones sharpen it, identical pixels only line up at the exact camera.
    let (wide, narrow) = (blurred(reference, 6), blurred(reference, 2));
    let phases = [
        (Phase::Blurred(6, &wide), 1.0),
        (Phase::Blurred(2, &narrow), 0.25),
        (Phase::Exact, 1.0 / 16.0),
    ];
    // Moves along each axis and along each pair of axes (position and angle trade off:
    // height against pitch, sideways against facing).
    let mut moves: Vec<[f64; 5]> = Vec::new();
    for i in 0..5 {
        let mut m = [0.0; 5];
        m[i] = 1.0;
        moves.push(m);
        for j in i + 1..5 {
            for (a, b) in [(1.0, 1.0), (1.0, -1.0)] {
                let mut m = [0.0; 5];
                m[i] = a;
                m[j] = b;
                moves.push(m);
            }
        }
    }
    'phases: for (phase, scale) in phases {
        let (mut best_score, report) = score(&best, phase)?;
        best_report = report;
        let (mut pos_step, mut angle_step) = (opts.pos_step * scale, opts.angle_step * scale);
        while pos_step >= opts.min_pos_step || angle_step >= opts.min_angle_step {
            let mut improved = false;
            for m in &moves {
                for dir in [1.0, -1.0] {
                    // Keep going in a direction while it pays.
                    loop {
                        if renders.get() >= opts.max_renders {
                            break 'phases;
                        }
                        let mut cand = best;
                        for (axis, c) in cand.position.iter_mut().enumerate() {
                            *c += dir * m[axis] * pos_step;
                        }
                        cand.angle += dir * m[3] * angle_step;
                        cand.pitch =
                            CameraPose::clamp_pitch_deg(cand.pitch + dir * m[4] * angle_step);
                        let (s, r) = score(&cand, phase)?;
                        if s < best_score {
                            (best, best_score, best_report) = (cand, s, r);
                            improved = true;
                        } else {
                            break;
                        }
                    }
                }
            }
            if !improved {
                pos_step /= 2.0;
                angle_step /= 2.0;
            }
        }
    }
    best.angle = best.angle.rem_euclid(360.0);
    Ok(AlignResult { start, start_report, best, best_report, renders: renders.get() })
}
