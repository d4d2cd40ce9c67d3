//! Attack of the Saucerman benchmarks on the shared fixtures: unzip + parse + build time per
//! level, and headless frame time at 1280x720 looking across TESTA (its translucent blend
//! row in view, so the per-pixel fragment lists are exercised).
//!
//! `cargo bench --bench saucer` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 10), `--frames N` (default 60), `--write DIR` (also save the largest level
//! the format holds, writer-built, as DIR/LEVELS/BIG.wad and DIR/maps/BIG.map).

#[path = "harness/mod.rs"]
mod harness;

use std::path::PathBuf;
use std::time::Instant;

use glam::DVec3;
use mapscope::formats::saucer::{build_scene, large, Pak, SaucerLevel};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
use mapscope::scene::CameraPose;

use harness::{median, ms, Args};

fn main() {
    let args = Args::parse((10, 60), None);
    let (runs, frames) = (args.runs, args.frames);
    // The largest level the format holds, for `mapscope bench` (as LEVELS/ and maps/).
    let (big_wad, big_map) = large::large_level();
    harness::write_level(&args, "LEVELS/BIG.wad", &big_wad);
    harness::write_level(&args, "maps/BIG.map", &big_map);
    let big = SaucerLevel::load("BIG", "BIG.wad", &big_wad, "BIG.map", &big_map).expect("BIG");
    println!("writer-built BIG: {} triangles", build_scene(&big).triangle_count());
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
    let stats = harness::frame_times(&gpu, &mut renderer, &mut scene, &view, frames, camera);
    println!();
    println!(
        "headless 1280x720 faithful on {}: TESTA, {} triangles, {frames} frames; upload {:.1} ms; \
         median {:.2} ms ({:.1} fps), mean {:.2} ms, min {:.2} ms, max {:.2} ms",
        gpu.adapter_name(),
        scene.triangle_count(),
        ms(upload),
        ms(stats.median),
        1000.0 / ms(stats.median),
        ms(stats.mean),
        ms(stats.min),
        ms(stats.max),
    );
}
