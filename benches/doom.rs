//! Doom benchmarks on Freedoom: parse and build time of every map of both IWADs, and headless
//! frame time at 1280x720 along a fixed camera path.
//!
//! `cargo bench --bench doom` (release). Options after `--`: `--runs N` (parse/build repeats,
//! default 5), `--frames N` (default 100), `--quick` (1 run, 20 frames; for a smoke test).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use glam::DVec3;
use mapscope::formats::doom::{build_level_scene, BuildOptions, DoomLevel, WadStack};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    if v.is_empty() {
        return Duration::ZERO;
    }
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Args {
    runs: usize,
    frames: usize,
}

fn args() -> Args {
    let mut a = Args { runs: 5, frames: 100 };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut num = |what: &str| -> usize {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match arg.as_str() {
            "--runs" => a.runs = num("--runs").max(1),
            "--frames" => a.frames = num("--frames").max(1),
            "--quick" => {
                a.runs = 1;
                a.frames = 20;
            }
            // `cargo bench` passes `--bench`; filters are not supported.
            _ => {}
        }
    }
    a
}

/// Median parse and build time per map; returns (maps, parse total, build total).
fn parse_and_build(wad: &std::path::Path, runs: usize) -> (usize, Duration, Duration) {
    let t = Instant::now();
    let stack = WadStack::open(&[wad]).expect("opening the IWAD");
    let open = t.elapsed();
    println!();
    println!("{} (WAD directory read in {:.1} ms)", wad.display(), ms(open));
    println!(
        "{:<6} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "map", "parse ms", "build ms", "total ms", "triangles", "sprites", "textures"
    );
    let opts = BuildOptions::default();
    let (mut parse_total, mut build_total) = (Duration::ZERO, Duration::ZERO);
    let maps = stack.map_names();
    for name in &maps {
        let (mut parse, mut build) = (Vec::new(), Vec::new());
        let mut last: Option<Scene> = None;
        for _ in 0..runs {
            let t = Instant::now();
            let level = DoomLevel::load(&stack, name).expect("parsing the map");
            parse.push(t.elapsed());
            let t = Instant::now();
            let scene = build_level_scene(&stack, &level, &opts).expect("building the scene");
            build.push(t.elapsed());
            last = Some(scene);
        }
        let (p, b) = (median(&mut parse), median(&mut build));
        parse_total += p;
        build_total += b;
        let scene = last.unwrap();
        println!(
            "{:<6} {:>9.2} {:>9.2} {:>9.2} {:>9} {:>8} {:>8}",
            name,
            ms(p),
            ms(b),
            ms(p + b),
            scene.triangle_count(),
            scene.sprites.len(),
            scene.textures.len()
        );
    }
    println!(
        "{:<6} {:>9.1} {:>9.1} {:>9.1}",
        "total",
        ms(parse_total),
        ms(build_total),
        ms(parse_total + build_total)
    );
    (maps.len(), parse_total, build_total)
}

struct FrameStats {
    label: String,
    frames: usize,
    median: Duration,
    mean: Duration,
    p95: Duration,
    min: Duration,
    max: Duration,
}

/// Renders `frames` frames moving along the spawn facing, each waited for on the GPU.
fn frame_times(
    gpu: &Gpu,
    scene: &mut Scene,
    renderer: &mut SceneRenderer,
    view: &ViewSettings,
    frames: usize,
    label: &str,
) -> FrameStats {
    let spawn = scene.spawn;
    let forward = spawn.forward();
    // 4 map units a frame, the way a player walks in from the start (the path may leave the
    // level: what matters is that every run draws the same frames).
    let camera = |i: usize| CameraPose { pos: spawn.pos + forward * (4.0 * i as f64), ..spawn };
    let mut state = scene.animator.initial();
    // Warm-up: pipelines, view tables, bind group, driver caches.
    for i in 0..5 {
        renderer.render(gpu, &camera(i), view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
    }
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let t = Instant::now();
        // As the viewer does each frame: animation state for this tic, then the scene.
        scene.animator.state_at(i as u32, &mut state);
        renderer.set_state(&state);
        renderer.render(gpu, &camera(i), view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>() / frames as u32;
    times.sort();
    FrameStats {
        label: label.to_string(),
        frames,
        median: times[frames / 2],
        mean,
        p95: times[(frames * 95 / 100).min(frames - 1)],
        min: times[0],
        max: times[frames - 1],
    }
}

fn main() {
    let a = args();
    let wads = [support::freedoom1(), support::freedoom2()];
    println!("mapscope Doom benchmark: parse/build median of {} runs per map", a.runs);
    let mut totals = Vec::new();
    for wad in &wads {
        totals.push(parse_and_build(wad, a.runs));
    }
    let all = totals.iter().fold(Duration::ZERO, |s, (_, p, b)| s + *p + *b);
    let maps: usize = totals.iter().map(|t| t.0).sum();
    println!();
    println!("parse+build, all {maps} maps of both IWADs: {:.0} ms", ms(all));

    // Frame time.
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let stack = WadStack::open(&[&wads[1]]).unwrap();
    let level = DoomLevel::load(&stack, "MAP01").unwrap();
    let mut scene = build_level_scene(&stack, &level, &BuildOptions::default()).unwrap();
    let t = Instant::now();
    let mut renderer = SceneRenderer::new(&gpu, &scene).expect("uploading the scene");
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let upload = t.elapsed();
    let p = scene.axes.to_native_f64(scene.spawn.pos);
    let dir = DVec3::new(scene.spawn.yaw.cos(), scene.spawn.yaw.sin(), 0.0);
    println!();
    println!(
        "headless frames on {}: freedoom2 MAP01, {} frames from the player start ({:.0}, {:.0}, {:.0}) \
         moving 4 units a frame towards ({:.2}, {:.2}); scene upload + pipelines {:.1} ms",
        gpu.adapter_name(),
        a.frames,
        p.x,
        p.y,
        p.z,
        dir.x,
        dir.y,
        ms(upload)
    );
    let base = ViewSettings { width: 1280, height: 720, ..Default::default() };
    let variants = [
        ("1280x720 faithful", base),
        ("1280x720 smooth", ViewSettings { mode: RenderMode::Smooth, ..base }),
        ("1280x720 faithful+wire", ViewSettings { wireframe: true, ..base }),
        ("320x200 faithful", ViewSettings { width: 320, height: 200, ..base }),
    ];
    let triangles = scene.triangle_count();
    let sprites = scene.sprites.len();
    let mut rows = Vec::new();
    for (label, view) in variants {
        let stats = frame_times(&gpu, &mut scene, &mut renderer, &view, a.frames, label);
        // As the renderer counts them; the CPU walk of vanilla's BSP runs in faithful mode.
        let draws = renderer.draw_calls() as usize;
        let dispatches = renderer.used_vanilla_walk() as usize;
        let tris = triangles + if view.show_sprites { 2 * sprites } else { 0 };
        rows.push((stats, draws, dispatches, tris));
    }
    println!(
        "{:<24} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>6} {:>10} {:>9}",
        "view",
        "frames",
        "median ms",
        "mean ms",
        "p95 ms",
        "min ms",
        "max ms",
        "fps",
        "draws",
        "cpu walk",
        "triangles"
    );
    for (s, draws, dispatches, tris) in rows {
        println!(
            "{:<24} {:>6} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>7.1} {:>6} {:>10} {:>9}",
            s.label,
            s.frames,
            ms(s.median),
            ms(s.mean),
            ms(s.p95),
            ms(s.min),
            ms(s.max),
            1000.0 / ms(s.median),
            draws,
            dispatches,
            tris
        );
    }
}
