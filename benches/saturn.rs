//! Saturn Quake benchmarks: parse and build time of the shared fixtures and of a large
//! writer-built level, and headless frame time at 1280x720.
//!
//! `cargo bench --bench saturn` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 5), `--frames N` (default 100), `--rooms N` (rooms a side of the large
//! level, default 12), `--quick` (1 run, 20 frames), `--write DIR`
//! (also save the large level there, for `mapscope bench` and the viewer).

#[path = "harness/mod.rs"]
mod harness;

use std::path::PathBuf;

use glam::DVec3;
use mapscope::formats::saturn::writer::{word, LevBuilder, QuadSpec, TileSetSpec};
use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

use harness::{ms, Args, FrameStats};

/// `rooms` x `rooms` rooms of 512x512x256 units: floor and ceiling tile sets of 8x8 tiles with
/// graded light, four walls of 8x4 explicit quads each, a player start in the first room.
fn large_level(rooms: i16) -> Vec<u8> {
    let mut b = LevBuilder::default();
    let ramp: Vec<u16> = (0..15).map(|i| word(8 + i, 6 + i, 4 + 2 * i)).collect();
    let mut pal = [0u16; 16];
    pal[1..].copy_from_slice(&ramp);
    let textures: Vec<u8> = (0..8)
        .map(|t| {
            b.texture(pal, (0..4096).map(|i| 1 + ((i / 64 + i % 64 + t * 3) % 15) as u8).collect())
        })
        .collect();
    let lights = |n: usize| (0..n).map(|i| (6 + i % 12) as u8).collect::<Vec<u8>>();
    for rz in 0..rooms {
        for rx in 0..rooms {
            let (x0, z0) = (rx * 512 - 3000, rz * 512 - 3000);
            let (x1, z1) = (x0 + 512, z0 + 512);
            let tex = textures[((rx + rz) % 8) as usize];
            for (y, up) in [(0i16, 1.0), (256, -1.0)] {
                let tiles = TileSetSpec {
                    base: [x0 as f64, y as f64, z0 as f64],
                    horz: [64.0, 0.0, 0.0],
                    vert: [0.0, 0.0, 64.0],
                    width: 8,
                    height: 8,
                    cells: (0..64).map(|i| ((i % 4) as u8 * 0x10, tex)).collect(),
                    lights: lights(81),
                };
                let outline = [[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]];
                b.plane(outline, [0.0, up, 0.0], &[], Some(&tiles));
            }
            // Walls: along x at z0 and z1, along z at x0 and x1, 8 quads of 64 by 4 of 64.
            let walls: [([i16; 3], [i16; 3], [f64; 3]); 4] = [
                ([x0, 0, z0], [64, 0, 0], [0.0, 0.0, 1.0]),
                ([x1, 0, z1], [-64, 0, 0], [0.0, 0.0, -1.0]),
                ([x0, 0, z1], [0, 0, -64], [1.0, 0.0, 0.0]),
                ([x1, 0, z0], [0, 0, 64], [-1.0, 0.0, 0.0]),
            ];
            for (origin, step, normal) in walls {
                let at = |i: i16, j: i16| {
                    [origin[0] + step[0] * i, 256 - 64 * j, origin[2] + step[2] * i]
                };
                let quads: Vec<QuadSpec> = (0..32)
                    .map(|q| {
                        let (i, j) = (q % 8, q / 8);
                        QuadSpec {
                            corners: [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)],
                            lights: [(4 + q % 14) as u8, 17, 12, (3 + q % 10) as u8],
                            texture: textures[(q % 8) as usize],
                        }
                    })
                    .collect();
                b.plane([at(0, 0), at(8, 0), at(8, 4), at(0, 4)], normal, &quads, None);
            }
        }
    }
    let start: Vec<u8> = [0i16, -2744, 48, -2744].iter().flat_map(|v| v.to_be_bytes()).collect();
    b.entity(13, &start);
    b.finish()
}

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
    let rooms = a.number("--rooms").map_or(12, |n| n.clamp(1, 40) as i16);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/saturn");
    let mut levels: Vec<(String, Vec<u8>)> =
        ["test_room.lev", "small.lev", "amb_unknown_records.lev", "amb_poly_link_blocks.lev"]
            .iter()
            .map(|n| {
                (n.to_string(), std::fs::read(dir.join(n)).unwrap_or_else(|e| panic!("{n}: {e}")))
            })
            .collect();
    let large = large_level(rooms);
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
