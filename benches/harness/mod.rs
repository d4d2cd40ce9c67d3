//! Helpers shared by the benchmark binaries (`harness = false`): option parsing, durations in
//! milliseconds, medians, the parse/build timing loop and the headless frame-timing loop.
//!
//! Included from each bench with `#[path = "harness/mod.rs"] mod harness;` (a folder, so that
//! cargo does not take it for a bench target of its own).

#![allow(dead_code)]

use std::time::{Duration, Instant};

use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

/// Milliseconds, for printing.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Sorts `v` and returns its middle element (the upper one for an even length); zero if empty.
pub fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

/// Times `runs` runs (at least one) of `parse()`, then `build` on what it returned; returns the
/// last run's build result and the median parse and build times. What a run parsed, and the
/// previous run's result, are dropped outside the timed spans.
pub fn parse_and_build<P, S>(
    runs: usize,
    mut parse: impl FnMut() -> P,
    mut build: impl FnMut(&P) -> S,
) -> (S, Duration, Duration) {
    let (mut parse_times, mut build_times) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let parsed = parse();
        parse_times.push(t.elapsed());
        let t = Instant::now();
        let built = build(&parsed);
        build_times.push(t.elapsed());
        last = Some(built);
    }
    let last = last.expect("at least one run");
    (last, median(&mut parse_times), median(&mut build_times))
}

/// Prints a parse/build table row: `label` left-aligned in `width`, the parse, build and total
/// milliseconds to `decimals` places, then the scene's triangles, sprites and textures.
pub fn print_scene_row(
    label: &str,
    width: usize,
    decimals: usize,
    parse: Duration,
    build: Duration,
    scene: &Scene,
) {
    println!(
        "{label:<width$} {:>9.decimals$} {:>9.decimals$} {:>9.decimals$} {:>9} {:>8} {:>8}",
        ms(parse),
        ms(build),
        ms(parse + build),
        scene.triangle_count(),
        scene.sprites.len(),
        scene.textures.len()
    );
}

/// The options after `--`: `--runs N` (parse/build repeats), `--frames N` (frames timed) and,
/// where the bench has one, `--quick` (a smoke test). Other arguments (`cargo bench` passes
/// `--bench`; filters are not supported) are kept for [`Args::number`].
pub struct Args {
    pub runs: usize,
    pub frames: usize,
    rest: Vec<String>,
}

impl Args {
    /// Parses the process arguments. `defaults` and `quick` are `(runs, frames)`; with `quick`
    /// `None`, `--quick` is ignored like any unknown argument.
    pub fn parse(defaults: (usize, usize), quick: Option<(usize, usize)>) -> Args {
        let (mut runs, mut frames) = defaults;
        let mut rest = Vec::new();
        let mut it = std::env::args().skip(1);
        while let Some(arg) = it.next() {
            match (arg.as_str(), quick) {
                ("--runs", _) => runs = number_after(&mut it, "--runs").max(1),
                ("--frames", _) => frames = number_after(&mut it, "--frames").max(1),
                ("--quick", Some(q)) => (runs, frames) = q,
                _ => rest.push(arg),
            }
        }
        Args { runs, frames, rest }
    }

    /// The value of a bench's own `flag N` option (the last one given), if present.
    pub fn number(&self, flag: &str) -> Option<usize> {
        let mut value = None;
        let mut it = self.rest.iter().cloned();
        while let Some(arg) = it.next() {
            if arg == flag {
                value = Some(number_after(&mut it, flag));
            }
        }
        value
    }
}

impl Args {
    /// The value of a bench's own `flag PATH` option (the last one given), if present.
    pub fn path(&self, flag: &str) -> Option<std::path::PathBuf> {
        let at = self.rest.iter().rposition(|a| a == flag)?;
        let value = self.rest.get(at + 1).unwrap_or_else(|| panic!("{flag} needs a path"));
        Some(value.into())
    }
}

/// Writes a bench's generated level to `dir/name` for `mapscope bench` and the viewer, when
/// `--write DIR` was given.
pub fn write_level(args: &Args, name: &str, bytes: &[u8]) {
    if let Some(dir) = args.path("--write") {
        std::fs::create_dir_all(&dir).expect("creating the --write folder");
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("creating the --write folder");
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!("wrote {}", path.display());
    }
}

fn number_after(it: &mut impl Iterator<Item = String>, flag: &str) -> usize {
    it.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{flag} needs a number"))
}

/// Frame times of one [`frame_times`] run.
pub struct FrameStats {
    pub median: Duration,
    pub mean: Duration,
    pub p95: Duration,
    pub min: Duration,
    pub max: Duration,
}

/// Renders 5 warm-up frames (pipelines, view tables, bind group, driver caches), then times
/// `frames` frames, each waited for on the GPU. As the viewer does each frame: animation state
/// for tic `i`, then the scene from `camera(i)`.
pub fn frame_times(
    gpu: &Gpu,
    renderer: &mut SceneRenderer,
    scene: &mut Scene,
    view: &ViewSettings,
    frames: usize,
    camera: impl Fn(usize) -> CameraPose,
) -> FrameStats {
    let mut state = scene.animator.initial();
    for i in 0..5 {
        renderer.render(gpu, &camera(i), view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
    }
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let t = Instant::now();
        scene.animator.state_at(i as u32, &mut state);
        renderer.set_state(&state);
        renderer.render(gpu, &camera(i), view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>() / frames as u32;
    times.sort();
    FrameStats {
        median: times[frames / 2],
        mean,
        p95: times[(frames * 95 / 100).min(frames - 1)],
        min: times[0],
        max: times[frames - 1],
    }
}
