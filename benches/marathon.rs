//! Marathon benchmarks: parse + build time per level of the shared fixtures and of a large
//! writer-built grid level (1600 polygons), and headless frame time at 1280x720.
//!
//! `cargo bench --bench marathon` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 20), `--frames N` (default 100), `--quick` (3 runs, 20 frames).

use std::path::Path;
use std::time::{Duration, Instant};

use mapscope::formats::marathon::map::{MapObject, Point};
use mapscope::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon, SideSpec};
use mapscope::formats::marathon::{build, level_names, Level, ShapesFile, Wad};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
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
}

fn args() -> Args {
    let mut a = Args { runs: 20, frames: 100 };
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
                a.runs = 3;
                a.frames = 20;
            }
            _ => {}
        }
    }
    a
}

/// A 40x40 grid of 512-unit rooms with stepped floors, so most edges carry low sides.
fn grid_wad() -> Vec<u8> {
    const N: i16 = 40;
    const S: i16 = 512;
    let mut low = SideSpec::full(0x1501, 0);
    low.kind = 2;
    let mut rooms = Vec::new();
    for j in 0..N {
        for i in 0..N {
            let (x0, y0) = (-N / 2 * S + i * S, -N / 2 * S + j * S);
            let vertices = [(x0, y0), (x0 + S, y0), (x0 + S, y0 + S), (x0, y0 + S)]
                .map(|(x, y)| Point { x, y })
                .to_vec();
            let edge = i == 0 || j == 0 || i == N - 1 || j == N - 1;
            rooms.push(RoomPolygon {
                vertices,
                floor: ((i + j) % 3) * 256,
                ceiling: 3072,
                floor_texture: 0x1508,
                ceiling_texture: 0x1509,
                floor_light: 0,
                ceiling_light: 1,
                floor_transfer_mode: 0,
                ceiling_transfer_mode: if (i * j) % 7 == 0 { 15 } else { 0 },
                kind: 0,
                media: -1,
                sides: vec![Some(if edge { SideSpec::full(0x1509, 0) } else { low }); 4],
            });
        }
    }
    let r = Room::build(&rooms);
    let player =
        MapObject { kind: 3, index: 0, facing: 64, polygon: 0, x: -9984, y: -9984, z: 0, flags: 0 };
    let level = LevelChunks {
        name: "Grid".into(),
        chunks: vec![
            (*b"PNTS", writer::pnts(&r.endpoints)),
            (*b"LINS", writer::lins(&r.lines)),
            (*b"SIDS", writer::sids(&r.sides)),
            (*b"POLY", writer::poly(&r.polygons)),
            (*b"LITE", writer::lite(&[writer::constant_light(1.0), writer::constant_light(0.6)])),
            (*b"OBJS", writer::objs(&[player])),
            (*b"Minf", writer::minf("Grid", 0)),
        ],
    };
    writer::wad(4, 1, "Grid", &[level])
}

/// Median parse and build time of every level of `bytes`; returns the last scene built.
fn parse_and_build(label: &str, bytes: &[u8], shapes: &ShapesFile, runs: usize) -> Vec<Scene> {
    let wad = Wad::parse(label, bytes).expect("wad");
    let mut scenes = Vec::new();
    for (i, name) in level_names(&wad).iter().enumerate() {
        let (mut parse, mut build_t) = (Vec::new(), Vec::new());
        let mut last = None;
        for _ in 0..runs {
            let t = Instant::now();
            let wad = Wad::parse(label, bytes).expect("wad");
            let level = Level::load(&wad, i).expect("level");
            parse.push(t.elapsed());
            let t = Instant::now();
            last = Some(build::build_scene(&level, Some(shapes), &[]));
            build_t.push(t.elapsed());
        }
        let scene = last.expect("one run");
        let (p, b) = (median(parse), median(build_t));
        println!(
            "{:<28} {:>9.3} {:>9.3} {:>9.3} {:>9} {:>8} {:>8}",
            format!("{label} / {name}"),
            ms(p),
            ms(b),
            ms(p + b),
            scene.triangle_count(),
            scene.sprites.len(),
            scene.textures.len()
        );
        scenes.push(scene);
    }
    scenes
}

fn frame_time(gpu: &Gpu, scene: &mut Scene, frames: usize) -> (Duration, Duration, Duration) {
    let mut renderer = SceneRenderer::new(gpu, scene).expect("uploading the scene");
    let view = ViewSettings { width: 1280, height: 720, ..Default::default() };
    let spawn = scene.spawn;
    let forward = spawn.forward();
    // 32 map units (1/32 WU) a frame along the spawn facing.
    let camera = |i: usize| CameraPose { pos: spawn.pos + forward * (32.0 * i as f64), ..spawn };
    let mut state = scene.animator.initial();
    for i in 0..5 {
        renderer.render(gpu, &camera(i), &view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
    }
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let t = Instant::now();
        scene.animator.state_at(i as u32, &mut state);
        renderer.set_state(&state);
        renderer.render(gpu, &camera(i), &view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>() / frames as u32;
    times.sort();
    (times[frames / 2], mean, times[(frames * 95 / 100).min(frames - 1)])
}

fn main() {
    let a = args();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/marathon");
    let shapes_bytes = std::fs::read(dir.join("Shapes.shpA")).expect("fixture Shapes.shpA");
    let shapes = ShapesFile::parse("Shapes.shpA", &shapes_bytes).expect("shapes");
    println!("mapscope Marathon benchmark: parse/build median of {} runs per level", a.runs);
    println!(
        "{:<28} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8}",
        "level", "parse ms", "build ms", "total ms", "triangles", "sprites", "textures"
    );
    let mut scenes = Vec::new();
    for name in ["M2Map.sceA", "M1Map.scen"] {
        let bytes = std::fs::read(dir.join(name)).expect("fixture map");
        scenes.extend(parse_and_build(name, &bytes, &shapes, a.runs));
    }
    let grid = grid_wad();
    scenes.extend(parse_and_build("grid (writer)", &grid, &shapes, a.runs));

    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    println!();
    println!(
        "headless frames at 1280x720 on {}, {} frames from the spawn:",
        gpu.adapter_name(),
        a.frames
    );
    println!("{:<28} {:>9} {:>9} {:>9} {:>7}", "level", "median ms", "mean ms", "p95 ms", "fps");
    let first = scenes.remove(0);
    let last = scenes.pop().expect("grid scene");
    for (label, mut scene) in [("Probe Octagon", first), ("grid (1600 polygons)", last)] {
        let (median, mean, p95) = frame_time(&gpu, &mut scene, a.frames);
        println!(
            "{label:<28} {:>9.2} {:>9.2} {:>9.2} {:>7.1}",
            ms(median),
            ms(mean),
            ms(p95),
            1000.0 / ms(median)
        );
    }
}
