//! Saturn Quake benchmarks: parse and build time of the shared fixtures and of a large
//! writer-built level, and headless frame time at 1280x720.
//!
//! `cargo bench --bench saturn` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 5), `--frames N` (default 100), `--rooms N` (rooms a side of the large
//! level, default 12), `--quick` (1 run, 20 frames).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use glam::DVec3;
use mapscope::formats::saturn::writer::{word, LevBuilder, QuadSpec, TileSetSpec};
use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

struct Args {
    runs: usize,
    frames: usize,
    rooms: i16,
}

fn args() -> Args {
    let mut a = Args { runs: 5, frames: 100, rooms: 12 };
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
            "--rooms" => a.rooms = num("--rooms").clamp(1, 40) as i16,
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

fn parse_and_build(name: &str, data: &[u8], runs: usize) -> (Scene, Duration, Duration) {
    let (mut parse, mut build) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let lev = LevFile::parse(name, data).expect("parsing");
        parse.push(t.elapsed());
        let t = Instant::now();
        let scene = build_scene(&lev, name);
        build.push(t.elapsed());
        last = Some(scene);
    }
    (last.expect("at least one run"), median(parse), median(build))
}

fn frame_times(
    gpu: &Gpu,
    scene: &mut Scene,
    view: &ViewSettings,
    frames: usize,
) -> (Duration, Duration, Duration) {
    let mut renderer = SceneRenderer::new(gpu, scene).expect("uploading the scene");
    let spawn = scene.spawn;
    // 4 units a frame along the spawn facing, turning slowly, so every frame differs.
    let camera = |i: usize| CameraPose {
        pos: spawn.pos + DVec3::new(4.0 * i as f64, 0.0, 0.0),
        yaw: spawn.yaw + 0.01 * i as f64,
        pitch: 0.0,
    };
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
    (times[frames / 2], mean, times[(frames * 95 / 100).min(frames - 1)])
}

fn main() {
    let a = args();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/saturn");
    let mut levels: Vec<(String, Vec<u8>)> =
        ["test_room.lev", "small.lev", "amb_unknown_records.lev", "amb_poly_link_blocks.lev"]
            .iter()
            .map(|n| {
                (n.to_string(), std::fs::read(dir.join(n)).unwrap_or_else(|e| panic!("{n}: {e}")))
            })
            .collect();
    levels.push((format!("large {0}x{0} rooms (writer)", a.rooms), large_level(a.rooms)));

    println!("mapscope Saturn Quake benchmark: parse/build median of {} runs", a.runs);
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9} {:>10}",
        "level", "bytes", "parse ms", "build ms", "total ms", "triangles"
    );
    let mut scenes = Vec::new();
    for (name, data) in &levels {
        let (scene, p, b) = parse_and_build(name, data, a.runs);
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
            let (median, mean, p95) = frame_times(&gpu, &mut scenes[i], &view, a.frames);
            println!(
                "{:<34} {:<10} {:>9.2} {:>9.2} {:>9.2} {:>7.1}",
                levels[i].0,
                mode,
                ms(median),
                ms(mean),
                ms(p95),
                1000.0 / ms(median)
            );
        }
    }
}
