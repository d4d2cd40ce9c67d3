//! `mapscope locate`: where in a level a screenshot was taken, with no guess. Cameras at eye
//! height over the whole walkable floor, several facings each, are rendered small and scored
//! by blurred error; the best few, each far from the others, are refined as `compare
//! --align` refines a guess; the winner's tic is then searched as align searches it.

use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{bail, Result};
use glam::DVec3;
use image::RgbaImage;

use super::align::{refine, refine_again, set_tic, settle_tic, tidy, AlignOptions, Found, PHASES};
use super::judge::{shrunk, Judge, Phase, Score};
use crate::render::{Gpu, ViewSettings};
use crate::scene::{NativePose, Scene};

#[derive(Clone, Copy, Debug)]
pub struct LocateOptions {
    /// Distance between candidate positions, in metres (widened on a level whose floor
    /// would give more than [`MAX_POSITIONS`]).
    pub spacing_metres: f64,
    /// Facings tried at each position, evenly round.
    pub facings: u32,
    /// Width of the small renders the candidates are scored by.
    pub coarse_width: u32,
    /// Candidates refined at full size.
    pub refined: usize,
    /// Renders each refinement may make.
    pub renders_each: u32,
    /// The tic the candidates are drawn at, and the tic search after (see [`AlignOptions`]).
    pub tic: u32,
    pub max_tic: Option<u32>,
}

impl Default for LocateOptions {
    fn default() -> Self {
        LocateOptions {
            spacing_metres: 1.5,
            facings: 24,
            coarse_width: 80,
            refined: 8,
            renders_each: 1000,
            tic: 0,
            max_tic: Some(super::align::DEFAULT_MAX_TIC),
        }
    }
}

/// A thread's candidates with their scores, and the renders it made.
type Share = (Vec<(Score, NativePose)>, u32);

/// Candidate positions at most: a larger floor is sampled more sparsely.
pub const MAX_POSITIONS: usize = 6000;

pub struct LocateResult {
    pub best: NativePose,
    pub report: super::CompareReport,
    pub tic: u32,
    /// Candidate cameras scored (positions times facings), and renders made in all.
    pub candidates: usize,
    pub renders: u32,
    /// The spacing used, in native units.
    pub spacing: f64,
}

/// Finds the camera of `scene` from which `view` (the reference's size) renders
/// `reference` best. `progress` hears (done, total) as the candidates are scored.
pub fn locate(
    gpu: &Gpu,
    scene: &mut Scene,
    view: &ViewSettings,
    reference: &RgbaImage,
    opts: &LocateOptions,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<LocateResult> {
    let units = scene.game.units_per_metre();
    let eye = crate::bench::tour::eye_height(scene, scene.spawn.pos);
    let (positions, spacing) = floor_positions(scene, opts.spacing_metres * units, eye);
    if positions.is_empty() {
        bail!("{}: no floor to stand on, so no camera to try", scene.name);
    }
    // Small renders first: every candidate scored by the blurred error against the
    // reference shrunk to their size.
    let w = opts.coarse_width.clamp(16, view.width.max(16));
    let h = ((u64::from(view.height) * u64::from(w)) / u64::from(view.width.max(1))).max(8) as u32;
    let small_view = ViewSettings { width: w, height: h, ..*view };
    let small_reference = shrunk(reference, w, h);
    let mut state = scene.animator.initial();
    scene.animator.state_at(opts.tic, &mut state);
    let total = positions.len() * opts.facings as usize;
    // On every core, a share of the positions each with a renderer of its own.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 8);
    let share = positions.len().div_ceil(threads);
    let done = AtomicUsize::new(0);
    let axes = scene.axes;
    let score_share = |mut coarse: Judge, share: &[DVec3]| -> Result<Share> {
        coarse.set_state(&state);
        let mut scored = Vec::with_capacity(share.len() * opts.facings as usize);
        for p in share {
            let native = axes.to_native_f64(*p);
            for f in 0..opts.facings {
                let pose = NativePose {
                    position: native.into(),
                    angle: 360.0 * f64::from(f) / f64::from(opts.facings),
                    pitch: 0.0,
                };
                let (s, _) = coarse.score(&pose, Phase::Blurred(1))?;
                scored.push((s, pose));
            }
            done.fetch_add(opts.facings as usize, Ordering::Relaxed);
        }
        Ok((scored, coarse.renders()))
    };
    // Scenes are not shared between threads (their animators need not be): each share's
    // renderer is made here and moved to its thread.
    let mut judges = Vec::new();
    for chunk in positions.chunks(share.max(1)) {
        judges.push((Judge::new(gpu, scene, small_view, small_reference.clone())?, chunk));
    }
    let shares: Vec<Result<Share>> = std::thread::scope(|s| {
        let handles: Vec<_> = judges
            .into_iter()
            .map(|(judge, chunk)| s.spawn(|| score_share(judge, chunk)))
            .collect();
        while !handles.iter().all(|h| h.is_finished()) {
            progress(done.load(Ordering::Relaxed), total);
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| bail!("a scoring thread failed")))
            .collect()
    });
    progress(total, total);
    let (mut scored, mut coarse_renders) = (Vec::with_capacity(total), 0);
    for share in shares {
        let (part, renders) = share?;
        scored.extend(part);
        coarse_renders += renders;
    }
    scored.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
    let step_angle = 360.0 / f64::from(opts.facings.max(1));
    let picked = apart(&scored, opts.refined, 2.0 * spacing, 2.0 * step_angle);
    // Each pick refined at full size from half the sampling steps.
    let mut judge = Judge::new(gpu, scene, *view, reference.clone())?;
    set_tic(&mut judge, scene.animator.as_mut(), opts.tic);
    let align = AlignOptions {
        pos_step: spacing / 4.0,
        angle_step: step_angle / 4.0,
        max_tic: opts.max_tic,
        ..AlignOptions::for_units(units)
    };
    let mut best: Option<Found> = None;
    for pose in picked {
        let found = refine(&mut judge, pose, &align, &PHASES, opts.renders_each)?;
        if best.as_ref().is_none_or(|b| found.score < b.score) {
            best = Some(found);
        }
    }
    let Some(found) = best else { bail!("{}: no candidate camera", scene.name) };
    let found = refine_again(&mut judge, found, &align)?;
    let found = tidy(&mut judge, found)?;
    let (found, tic) = settle_tic(&mut judge, scene.animator.as_mut(), found, opts.tic, &align)?;
    let mut pose = found.pose;
    pose.angle = pose.angle.rem_euclid(360.0);
    Ok(LocateResult {
        best: pose,
        report: found.report,
        tic,
        candidates: total,
        renders: coarse_renders + judge.renders(),
        spacing,
    })
}

/// The best-scored of `scored` (best first), at most `n`, each at least `distance` (native)
/// or `angle` degrees from every one taken before: the next best of one spot says little
/// the first did not.
fn apart(scored: &[(Score, NativePose)], n: usize, distance: f64, angle: f64) -> Vec<NativePose> {
    let mut picked: Vec<NativePose> = Vec::new();
    for (_, pose) in scored {
        if picked.len() >= n {
            break;
        }
        let near = picked.iter().any(|p| {
            let d = DVec3::from(p.position).distance(DVec3::from(pose.position));
            let turn = (p.angle - pose.angle).rem_euclid(360.0);
            d < distance && turn.min(360.0 - turn) < angle
        });
        if !near {
            picked.push(*pose);
        }
    }
    picked
}

/// Eye positions (viewer space) `eye` above the walkable floor of `scene`: the points of a
/// square grid of `spacing` (viewer units) that lie on an upward-facing world triangle no
/// steeper than 45° (of any surface kind: Saturn Quake's and Carmageddon 2's floors are
/// faces like their walls), one per grid point and floor height. The spacing is widened where the
/// floor would give more than [`MAX_POSITIONS`]; returns the positions and the spacing used.
pub fn floor_positions(scene: &Scene, spacing: f64, eye: f64) -> (Vec<DVec3>, f64) {
    let floors: Vec<[DVec3; 3]> = scene
        .world
        .chunks_exact(3)
        .map(|t| [t[0].pos, t[1].pos, t[2].pos].map(|p| DVec3::from(p.map(f64::from))))
        .filter(|[a, b, c]| {
            let n = (*b - *a).cross(*c - *a);
            n.y > 0.0 && n.y >= n.length() * std::f64::consts::FRAC_1_SQRT_2
        })
        .collect();
    let area: f64 = floors.iter().map(|[a, b, c]| (*b - *a).cross(*c - *a).y / 2.0).sum();
    let mut spacing = spacing.max(1e-6);
    if area / (spacing * spacing) > MAX_POSITIONS as f64 {
        spacing = (area / MAX_POSITIONS as f64).sqrt();
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for [a, b, c] in &floors {
        let n = (*b - *a).cross(*c - *a);
        let lo = a.min(*b).min(*c);
        let hi = a.max(*b).max(*c);
        let (i0, i1) = ((lo.x / spacing).ceil() as i64, (hi.x / spacing).floor() as i64);
        let (k0, k1) = ((lo.z / spacing).ceil() as i64, (hi.z / spacing).floor() as i64);
        for i in i0..=i1 {
            for k in k0..=k1 {
                let (x, z) = (i as f64 * spacing, k as f64 * spacing);
                if !inside_xz([*a, *b, *c], x, z) {
                    continue;
                }
                let y = a.y - (n.x * (x - a.x) + n.z * (z - a.z)) / n.y;
                // A grid point on an edge two triangles of one floor share is one position.
                if seen.insert((i, k, (y * 8.0).round() as i64)) {
                    out.push(DVec3::new(x, y + eye, z));
                }
                if out.len() >= 4 * MAX_POSITIONS {
                    return (out, spacing);
                }
            }
        }
    }
    (out, spacing)
}

/// Whether (x, z) lies in the triangle seen from above (either winding, edges included).
fn inside_xz([a, b, c]: [DVec3; 3], x: f64, z: f64) -> bool {
    let side = |p: DVec3, q: DVec3| (q.x - p.x) * (z - p.z) - (q.z - p.z) * (x - p.x);
    let (s0, s1, s2) = (side(a, b), side(b, c), side(c, a));
    (s0 >= 0.0 && s1 >= 0.0 && s2 >= 0.0) || (s0 <= 0.0 && s1 <= 0.0 && s2 <= 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, angle: f64) -> NativePose {
        NativePose { position: [x, 0.0, 0.0], angle, pitch: 0.0 }
    }

    #[test]
    fn picks_keep_apart_in_place_or_facing() {
        let s = |v: f64| Score(v, 0.0);
        let scored = [
            (s(1.0), pose(0.0, 0.0)),
            (s(2.0), pose(10.0, 15.0)), // near the first in both: dropped
            (s(3.0), pose(10.0, 90.0)), // near in place, another facing: kept
            (s(4.0), pose(500.0, 0.0)), // far: kept
            (s(5.0), pose(0.0, 350.0)), // 10° from the first across 0°: dropped
        ];
        let picked = apart(&scored, 8, 64.0, 30.0);
        let xs: Vec<(f64, f64)> = picked.iter().map(|p| (p.position[0], p.angle)).collect();
        assert_eq!(xs, [(0.0, 0.0), (10.0, 90.0), (500.0, 0.0)]);
        assert_eq!(apart(&scored, 2, 64.0, 30.0).len(), 2);
    }

    #[test]
    fn grid_points_inside_either_winding() {
        let t = [DVec3::ZERO, DVec3::new(10.0, 0.0, 0.0), DVec3::new(0.0, 0.0, 10.0)];
        assert!(inside_xz(t, 2.0, 2.0));
        assert!(inside_xz([t[0], t[2], t[1]], 2.0, 2.0));
        assert!(!inside_xz(t, 8.0, 8.0));
        assert!(inside_xz(t, 5.0, 5.0), "edges count");
    }
}
