//! Marathon benchmarks: parse + build time per level of the shared fixtures and of a large
//! writer-built grid level (1600 polygons), and headless frame time at 1280x720.
//!
//! `cargo bench --bench marathon` (release). Options after `--`: `--runs N` (parse/build
//! repeats, default 20), `--frames N` (default 100), `--quick` (3 runs, 20 frames), `--write DIR`
//! (also save the grid level and the fixture shapes there, for `mapscope bench`).

#[path = "harness/mod.rs"]
mod harness;

use std::path::Path;

use mapscope::formats::marathon::map::{MapObject, Point};
use mapscope::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon, SideSpec};
use mapscope::formats::marathon::{build, level_names, station, Level, ShapesFile, Wad};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

use harness::{ms, Args, FrameStats};

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
    let lights = [writer::constant_light(1.0), writer::constant_light(0.6)];
    let level = LevelChunks::of_room("Grid", &r, &lights, &[player]);
    writer::wad(4, 1, "Grid", &[level])
}

/// Median parse and build time of every level of `bytes`; returns the last scene built.
fn parse_and_build(label: &str, bytes: &[u8], shapes: &ShapesFile, runs: usize) -> Vec<Scene> {
    let wad = Wad::parse(label, bytes).expect("wad");
    let mut scenes = Vec::new();
    for (i, name) in level_names(&wad).iter().enumerate() {
        let (scene, p, b) = harness::parse_and_build(
            runs,
            || {
                let wad = Wad::parse(label, bytes).expect("wad");
                let level = Level::load(&wad, i).expect("level");
                (wad, level)
            },
            |(_, level)| build::build_scene(level, Some(shapes), &[]),
        );
        harness::print_scene_row(&format!("{label} / {name}"), 28, 3, p, b, &scene);
        scenes.push(scene);
    }
    scenes
}

/// Frame times at 1280x720 from the spawn, 32 map units (1/32 WU) a frame along its facing.
fn frame_time(gpu: &Gpu, scene: &mut Scene, frames: usize) -> FrameStats {
    let mut renderer = SceneRenderer::new(gpu, scene).expect("uploading the scene");
    let view = ViewSettings { width: 1280, height: 720, ..Default::default() };
    let spawn = scene.spawn;
    let forward = spawn.forward();
    let camera = |i: usize| CameraPose { pos: spawn.pos + forward * (32.0 * i as f64), ..spawn };
    harness::frame_times(gpu, &mut renderer, scene, &view, frames, camera)
}

fn main() {
    let a = Args::parse((20, 100), Some((3, 20)));
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
    // The map needs a shapes file beside it to open in mapscope.
    harness::write_level(&a, "Grid.sceA", &grid);
    harness::write_level(&a, "Shapes.shpA", &shapes_bytes);
    scenes.extend(parse_and_build("grid (writer)", &grid, &shapes, a.runs));
    let (station, _) = station::station_wad();
    harness::write_level(&a, "Station.sceA", &station);
    scenes.extend(parse_and_build("station (writer)", &station, &shapes, a.runs));

    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    println!();
    println!(
        "headless frames at 1280x720 on {}, {} frames from the spawn:",
        gpu.adapter_name(),
        a.frames
    );
    println!("{:<28} {:>9} {:>9} {:>9} {:>7}", "level", "median ms", "mean ms", "p95 ms", "fps");
    let first = scenes.remove(0);
    let station = scenes.pop().expect("station scene");
    let grid = scenes.pop().expect("grid scene");
    for (label, mut scene) in
        [("Probe Octagon", first), ("grid (1600 polygons)", grid), ("station", station)]
    {
        let s = frame_time(&gpu, &mut scene, a.frames);
        println!(
            "{label:<28} {:>9.2} {:>9.2} {:>9.2} {:>7.1}",
            ms(s.median),
            ms(s.mean),
            ms(s.p95),
            1000.0 / ms(s.median)
        );
    }
}
