//! Saturn Quake benchmarks: parse and build time of the shared fixtures and of a large
//! writer-built level, and headless frame time at 1280x720.
//!
//! `cargo bench --bench saturn` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 5), `--frames N` (default 100), `--rooms N` (rooms a side of the large
//! level, default 11: the most whose vertices a level's 16-bit indices reach), `--quick` (1 run, 20 frames), `--write DIR`
//! (also save the large level there, for `mapscope bench` and the viewer).

#[path = "harness/mod.rs"]
mod harness;
#[path = "../tests/support/mod.rs"]
mod support;

use std::path::PathBuf;

use glam::DVec3;
use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

use harness::{ms, Args, FrameStats};

/// Frame times from the spawn, 4 units a frame along x, turning slowly, so every frame differs.
fn frame_times(gpu: &Gpu, scene: &mut Scene, view: &ViewSettings, frames: usize) -> FrameStats {
    let mut renderer = SceneRenderer::new(gpu, scene).expect("uploading the scene");
    let spawn = scene.spawn;
    let camera = |i: usize| CameraPose {
        pos: spawn.pos + DVec3::new(4.0 * i as f64, 0.0, 0.0),
        yaw: spawn.yaw + 0.01 * i as f64,
        pitch: 0.0,
    };
    harness::frame_times(gpu, &mut renderer, scene, view, frames, camera)
}

fn main() {
    let a = Args::parse((5, 100), Some((1, 20)));
    let rooms = a.number("--rooms").map_or(11, |n| n.clamp(1, 11) as i16);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/saturn");
    let mut levels: Vec<(String, Vec<u8>)> =
        ["test_room.lev", "small.lev", "amb_unknown_records.lev", "amb_poly_link_blocks.lev"]
            .iter()
            .map(|n| {
                (n.to_string(), std::fs::read(dir.join(n)).unwrap_or_else(|e| panic!("{n}: {e}")))
            })
            .collect();
    let large = support::saturn_rooms::closed_rooms(rooms);
    harness::write_level(&a, &format!("LARGE{rooms}.LEV"), &large);
    levels.push((format!("large {0}x{0} rooms (writer)", rooms), large));

    println!("mapscope Saturn Quake benchmark: parse/build median of {} runs", a.runs);
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "level", "bytes", "parse ms", "build ms", "total ms", "triangles"
    );
    let mut scenes = Vec::new();
    for (name, data) in &levels {
        let (scene, p, b) = harness::parse_and_build(
            a.runs,
            || LevFile::parse(name, data).expect("parsing"),
            |lev| build_scene(lev, name),
        );
        println!(
            "{:<34} {:>9} {:>9.2} {:>9.2} {:>9.2} {:>10}",
            name,
            data.len(),
            ms(p),
            ms(b),
            ms(p + b),
            scene.triangle_count()
        );
        scenes.push(scene);
    }

    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    println!();
    println!(
        "headless frames on {}: {} frames from the spawn, 1280x720",
        gpu.adapter_name(),
        a.frames
    );
    println!(
        "{:<34} {:<10} {:>9} {:>9} {:>9} {:>7}",
        "level", "mode", "median ms", "mean ms", "p95 ms", "fps"
    );
    let base = ViewSettings { width: 1280, height: 720, fov_deg: 90.0, ..Default::default() };
    let last = scenes.len() - 1;
    for i in [0, last] {
        for (mode, view) in
            [("faithful", base), ("smooth", ViewSettings { mode: RenderMode::Smooth, ..base })]
        {
            let s = frame_times(&gpu, &mut scenes[i], &view, a.frames);
            println!(
                "{:<34} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>7.1}",
                levels[i].0,
                mode,
                ms(s.median),
                ms(s.mean),
                ms(s.p95),
                1000.0 / ms(s.median)
            );
        }
    }
}
