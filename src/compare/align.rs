//! Finding the camera and the moment a reference screenshot was taken from: a pattern search
//! over small position and angle offsets around a rough camera, scoring each render against
//! the reference by identical share (ties: lower mean error), then a search over the
//! animation's distinct states at that camera, since a person rarely knows the tic.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use anyhow::Result;

use super::judge::{Judge, Phase, Score};
use super::CompareReport;
use crate::render::{Gpu, ViewSettings};
use crate::scene::{Animator, CameraPose, FrameState, NativePose, Scene};

#[derive(Clone, Copy, Debug)]
pub struct AlignOptions {
    /// First position step (native units) and the step at which the search stops.
    pub pos_step: f64,
    pub min_pos_step: f64,
    /// First angle step (degrees, facing and pitch) and where the search stops.
    pub angle_step: f64,
    pub min_angle_step: f64,
    /// Most renders the camera search may make.
    pub max_renders: u32,
    /// Search the tics 0..=this for the animation state (lights, animated textures, thing
    /// frames) once the camera is found; `None` keeps the guess's tic.
    pub max_tic: Option<u32>,
}

/// Tics searched by default: a minute of Doom's 35 a second.
pub const DEFAULT_MAX_TIC: u32 = 35 * 60;

/// Searches made again from where one ended, while they improve.
const RESTARTS: usize = 2;

/// Distinct animation states the tic search renders at most.
const MAX_STATES: usize = 4096;

impl AlignOptions {
    /// Steps for a format with `units_per_metre` native units to the metre: 25 cm and 2°
    /// down to 1 cm and 0.05°; tics searched up to [`DEFAULT_MAX_TIC`].
    pub fn for_units(units_per_metre: f64) -> AlignOptions {
        AlignOptions {
            pos_step: 0.25 * units_per_metre,
            min_pos_step: 0.01 * units_per_metre,
            angle_step: 2.0,
            min_angle_step: 0.05,
            max_renders: 2000,
            max_tic: Some(DEFAULT_MAX_TIC),
        }
    }
}

pub struct AlignResult {
    pub start: NativePose,
    pub start_report: CompareReport,
    pub best: NativePose,
    pub best_report: CompareReport,
    /// The tic whose animation state matched best (the guess's where none did better).
    pub tic: u32,
    pub renders: u32,
}

/// A camera a search found, with its score and figures.
pub struct Found {
    pub pose: NativePose,
    pub score: Score,
    pub report: CompareReport,
}

/// Coarse to fine: heavily blurred images give a smooth error that leads in from far off,
/// lightly blurred ones sharpen it, identical pixels only line up at the exact camera. Each
/// phase's steps are the options' times its factor.
pub const PHASES: [(Phase, f64); 3] =
    [(Phase::Blurred(6), 1.0), (Phase::Blurred(2), 0.25), (Phase::Exact, 1.0 / 16.0)];

/// Searches around `start` for the camera (and, with `opts.max_tic`, the tic) whose render of
/// `scene` (with `view`, the guess at `tic`) matches `reference` best. `view`'s size must be
/// the reference's.
pub fn align(
    gpu: &Gpu,
    scene: &mut Scene,
    view: &ViewSettings,
    tic: u32,
    reference: &image::RgbaImage,
    start: NativePose,
    opts: &AlignOptions,
) -> Result<AlignResult> {
    let mut judge = Judge::new(gpu, scene, *view, reference.clone())?;
    set_tic(&mut judge, scene.animator.as_mut(), tic);
    let (_, start_report) = judge.score(&start, Phase::Exact)?;
    let found = refine(&mut judge, start, opts, &PHASES, opts.max_renders)?;
    let found = refine_again(&mut judge, found, opts)?;
    let found = tidy(&mut judge, found)?;
    let (found, tic) = settle_tic(&mut judge, scene.animator.as_mut(), found, tic, opts)?;
    let mut best = found.pose;
    best.angle = best.angle.rem_euclid(360.0);
    Ok(AlignResult {
        start,
        start_report,
        best,
        best_report: found.report,
        tic,
        renders: judge.renders(),
    })
}

/// Shows the animation state of `tic` in the judge's renders.
pub fn set_tic(judge: &mut Judge, animator: &mut dyn Animator, tic: u32) {
    let mut state = animator.initial();
    animator.state_at(tic, &mut state);
    judge.set_state(&state);
}

/// With `opts.max_tic`: the tic whose state scores best at `found`'s camera (`tic` kept
/// unless another does strictly better), then the camera searched again at that tic, as
/// the right lights can move the exact optimum. Without: `found` and `tic` as they are.
pub fn settle_tic(
    judge: &mut Judge,
    animator: &mut dyn Animator,
    found: Found,
    tic: u32,
    opts: &AlignOptions,
) -> Result<(Found, u32)> {
    let Some(max_tic) = opts.max_tic else { return Ok((found, tic)) };
    let (mut best_tic, mut best) = (tic, found);
    let mut state = animator.initial();
    let (score, _) = judge.score(&best.pose, Phase::Exact)?;
    let mut best_score = score;
    for t in distinct_tics(animator, max_tic, MAX_STATES) {
        animator.state_at(t, &mut state);
        judge.set_state(&state);
        let (s, report) = judge.score(&best.pose, Phase::Exact)?;
        if s < best_score {
            (best_tic, best_score) = (t, s);
            best = Found { pose: best.pose, score: s, report };
        }
    }
    set_tic(judge, animator, best_tic);
    if best_tic != tic {
        let fine = [(Phase::Exact, 1.0 / 16.0)];
        best = refine(judge, best.pose, opts, &fine, opts.max_renders / 2)?;
        best = tidy(judge, best)?;
    }
    Ok((best, best_tic))
}

/// A search that ends short of every pixel can be caught where small steps no longer pay:
/// a new search from there, with its steps large again, often gets out. Searches again
/// while that improves, at most [`RESTARTS`] times.
pub fn refine_again(judge: &mut Judge, mut found: Found, opts: &AlignOptions) -> Result<Found> {
    for _ in 0..RESTARTS {
        if found.report.identical_share >= 1.0 {
            break;
        }
        let again = refine(judge, found.pose, opts, &PHASES, opts.max_renders)?;
        if again.score >= found.score {
            break;
        }
        found = again;
    }
    Ok(found)
}

/// `found` (scored exactly) moved to rounder numbers where they score no worse: whole units
/// and degrees, as cameras placed by hand and many captures are, else the same to a
/// millionth (the search's sums of steps leave tails such as 2e-16).
pub fn tidy(judge: &mut Judge, found: Found) -> Result<Found> {
    // Whole units either side on each axis (a search that stopped half a unit off rounds
    // the wrong way as often as not), the angles to the nearest degree.
    let p = found.pose;
    let mut best: Option<Found> = None;
    for corner in 0..8 {
        let whole = |axis: usize| {
            let c = p.position[axis];
            if corner >> axis & 1 == 0 {
                c.floor()
            } else {
                c.ceil()
            }
        };
        let pose = NativePose {
            position: [whole(0), whole(1), whole(2)],
            angle: p.angle.round(),
            pitch: p.pitch.round(),
        };
        if pose == p || best.as_ref().is_some_and(|b| b.pose == pose) {
            continue;
        }
        let (score, report) = judge.score(&pose, Phase::Exact)?;
        if score <= found.score && best.as_ref().is_none_or(|b| score < b.score) {
            best = Some(Found { pose, score, report });
        }
    }
    if let Some(b) = best {
        return Ok(b);
    }
    let pose = NativePose {
        position: p.position.map(|c| (c * 1e6).round() / 1e6),
        angle: (p.angle * 1e6).round() / 1e6,
        pitch: (p.pitch * 1e6).round() / 1e6,
    };
    if pose == p {
        return Ok(found);
    }
    let (score, report) = judge.score(&pose, Phase::Exact)?;
    Ok(if score <= found.score { Found { pose, score, report } } else { found })
}

/// The tics 0..=`max_tic` whose animation state no earlier tic showed, at most `limit`: a
/// state shown twice renders the same frame twice. States are told apart by a 64-bit hash
/// of their values.
pub fn distinct_tics(animator: &mut dyn Animator, max_tic: u32, limit: usize) -> Vec<u32> {
    let mut seen = HashSet::new();
    let mut tics = Vec::new();
    let mut state = animator.initial();
    for t in 0..=max_tic {
        animator.state_at(t, &mut state);
        if seen.insert(state_hash(&state)) {
            tics.push(t);
            if tics.len() >= limit {
                break;
            }
        }
    }
    tics
}

fn state_hash(s: &FrameState) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.light.hash(&mut h);
    s.texture_remap.hash(&mut h);
    s.scroll.iter().for_each(|[u, v]| (u.to_bits(), v.to_bits()).hash(&mut h));
    s.thing_frames.hash(&mut h);
    h.finish()
}

/// How two axes move together: both alike, and one at half the other's step, each way. A
/// valley along which two axes trade off (sideways against facing) is followed only by a
/// move near its slope; with one slope the search stalls across it.
const PAIRS: [(f64, f64); 6] =
    [(1.0, 1.0), (1.0, -1.0), (1.0, 0.5), (1.0, -0.5), (0.5, 1.0), (0.5, -1.0)];

/// Pattern search from `start` through `phases` (each with its step factor), at most
/// `max_renders` renders in all: moves along each axis and along each pair of axes
/// (position and angle trade off: height against pitch, sideways against facing), going on
/// in a direction while it pays, the steps halved when no move does.
pub fn refine(
    judge: &mut Judge,
    start: NativePose,
    opts: &AlignOptions,
    phases: &[(Phase, f64)],
    max_renders: u32,
) -> Result<Found> {
    let budget_end = judge.renders().saturating_add(max_renders);
    let mut moves: Vec<[f64; 5]> = Vec::new();
    for i in 0..5 {
        let mut m = [0.0; 5];
        m[i] = 1.0;
        moves.push(m);
        for j in i + 1..5 {
            for (a, b) in PAIRS {
                let mut m = [0.0; 5];
                m[i] = a;
                m[j] = b;
                moves.push(m);
            }
        }
    }
    let mut best = start;
    let (mut best_score, mut best_report) = judge.score(&best, Phase::Exact)?;
    'phases: for &(phase, scale) in phases {
        (best_score, best_report) = judge.score(&best, phase)?;
        let (mut pos_step, mut angle_step) = (opts.pos_step * scale, opts.angle_step * scale);
        while pos_step >= opts.min_pos_step || angle_step >= opts.min_angle_step {
            let mut improved = false;
            for m in &moves {
                for dir in [1.0, -1.0] {
                    loop {
                        if judge.renders() >= budget_end {
                            break 'phases;
                        }
                        let mut cand = best;
                        for (axis, c) in cand.position.iter_mut().enumerate() {
                            *c += dir * m[axis] * pos_step;
                        }
                        cand.angle += dir * m[3] * angle_step;
                        cand.pitch =
                            CameraPose::clamp_pitch_deg(cand.pitch + dir * m[4] * angle_step);
                        let (s, r) = judge.score(&cand, phase)?;
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
    // The score of the last phase run; the exact one when the search ended early in another.
    if !matches!(phases.last(), Some((Phase::Exact, _))) || judge.renders() >= budget_end {
        (best_score, best_report) = judge.score(&best, Phase::Exact)?;
    }
    Ok(Found { pose: best, score: best_score, report: best_report })
}
