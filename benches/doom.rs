//! Doom benchmarks on Freedoom: parse and build time of every map of both IWADs, and headless
//! frame time at 1280x720 along a fixed camera path.
//!
//! `cargo bench --bench doom` (release). Options after `--`: `--runs N` (parse/build repeats,
//! default 5), `--frames N` (default 100), `--quick` (1 run, 20 frames; for a smoke test).

#[path = "harness/mod.rs"]
mod harness;
#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use glam::DVec3;
use mapscope::formats::doom::{build_level_scene, BuildOptions, DoomLevel, WadStack};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

use harness::{ms, Args, FrameStats};

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
        let (scene, p, b) = harness::parse_and_build(
            runs,
            || DoomLevel::load(&stack, name).expect("parsing the map"),
            |level| build_level_scene(&stack, level, &opts).expect("building the scene"),
        );
        parse_total += p;
        build_total += b;
        harness::print_scene_row(name, 6, 2, p, b, &scene);
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

/// Frame times moving along the spawn facing, 4 map units a frame, the way a player walks in
/// from the start (the path may leave the level: what matters is that every run draws the
/// same frames).
fn frame_times(
    gpu: &Gpu,
    scene: &mut Scene,
    renderer: &mut SceneRenderer,
    view: &ViewSettings,
    frames: usize,
) -> FrameStats {
    let spawn = scene.spawn;
    let forward = spawn.forward();
    let camera = |i: usize| CameraPose { pos: spawn.pos + forward * (4.0 * i as f64), ..spawn };
    harness::frame_times(gpu, renderer, scene, view, frames, camera)
}

fn main() {
    let a = Args::parse((5, 100), Some((1, 20)));
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
        let stats = frame_times(&gpu, &mut scene, &mut renderer, &view, a.frames);
        // As the renderer counts them; the CPU walk of vanilla's BSP runs in faithful mode.
        let draws = renderer.draw_calls() as usize;
        let dispatches = renderer.used_cpu_canvas() as usize;
        let tris = triangles + if view.show_sprites { 2 * sprites } else { 0 };
        rows.push((label, stats, draws, dispatches, tris));
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
    for (label, s, draws, dispatches, tris) in rows {
        println!(
            "{:<24} {:>6} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>7.1} {:>6} {:>10} {:>9}",
            label,
            a.frames,
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
