//! Attack of the Saucerman benchmarks on the shared fixtures: unzip + parse + build time per
//! level, and headless frame time at 1280x720 looking across TESTA (its translucent blend
//! row in view, so the per-pixel fragment lists are exercised).
//!
//! `cargo bench --bench saucer` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 10), `--frames N` (default 60).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use glam::DVec3;
use mapscope::formats::saucer::{build_scene, Pak, SaucerLevel};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
use mapscope::scene::CameraPose;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn args() -> (usize, usize) {
    let (mut runs, mut frames) = (10, 60);
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut num = |what: &str| -> usize {
            it.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{what} needs a number"))
        };
        match arg.as_str() {
            "--runs" => runs = num("--runs").max(1),
            "--frames" => frames = num("--frames").max(1),
            // `cargo bench` passes `--bench`.
            _ => {}
        }
    }
    (runs, frames)
}

fn main() {
    let (runs, frames) = args();
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/saucer/Saucerdata.pak");
    let bytes = std::fs::read(&path).expect("the shared Saucerman fixtures");
    let pak = Pak::parse("Saucerdata.pak", bytes.clone()).expect("pak");
    println!("mapscope Saucerman benchmark: median of {runs} runs per level ({})", path.display());
    println!(
        "{:<6} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "level", "unzip ms", "parse ms", "build ms", "total ms", "triangles"
    );
    for level in pak.levels() {
        let (mut unzip, mut parse, mut build) = (Vec::new(), Vec::new(), Vec::new());
        let mut triangles = 0;
        for _ in 0..runs {
            let t = Instant::now();
            let wad = pak.read(&level.wad).expect("wad");
            let map = pak.read(&level.map).expect("map");
            unzip.push(t.elapsed());
            let t = Instant::now();
            let parsed =
                SaucerLevel::load(&level.name, &level.wad, &wad, &level.map, &map).expect("level");
            parse.push(t.elapsed());
            let t = Instant::now();
            let scene = build_scene(&parsed);
            build.push(t.elapsed());
            triangles = scene.triangle_count();
        }
        let (u, p, b) = (median(&mut unzip), median(&mut parse), median(&mut build));
        println!(
            "{:<6} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>10}",
            level.name,
            ms(u),
            ms(p),
            ms(b),
            ms(u + p + b),
            triangles
        );
    }

    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let wad = pak.read("LEVELS/TESTA.wad").unwrap();
    let map = pak.read("maps/TESTA.map").unwrap();
    let mut scene =
        build_scene(&SaucerLevel::load("TESTA", "TESTA.wad", &wad, "TESTA.map", &map).unwrap());
    let t = Instant::now();
    let mut renderer = SceneRenderer::new(&gpu, &scene).expect("upload");
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let upload = t.elapsed();
    // From the south edge across the blend row (row 52) towards the map centre, sliding east.
    let camera = |i: usize| {
        let pos = DVec3::new(1024.0 + 16.0 * i as f64, 300.0, 14500.0);
        CameraPose::looking_at(pos, pos + DVec3::new(2000.0, -150.0, -3000.0))
    };
    let view = ViewSettings { width: 1280, height: 720, ..Default::default() };
    let mut state = scene.animator.initial();
    for i in 0..5 {
        renderer.render(&gpu, &camera(i), &view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    }
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let t = Instant::now();
        scene.animator.state_at(i as u32, &mut state);
        renderer.set_state(&state);
        renderer.render(&gpu, &camera(i), &view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>() / frames as u32;
    let med = median(&mut times);
    println!();
    println!(
        "headless 1280x720 faithful on {}: TESTA, {} triangles, {frames} frames; upload {:.1} ms; \
         median {:.2} ms ({:.1} fps), mean {:.2} ms, min {:.2} ms, max {:.2} ms",
        gpu.adapter_name(),
        scene.triangle_count(),
        ms(upload),
        ms(med),
        1000.0 / ms(med),
        ms(mean),
        ms(times[0]),
        ms(times[frames - 1]),
    );
}
