//! Carmageddon 2 benchmarks: read + parse and build time of the shared fixture tracks and of a large
//! track written here (a textured 128x128-quad ground instanced 16 times, 524288 faces), and
//! headless frame time at 1280x720 from each track's default camera.
//!
//! `cargo bench --bench carma2` (release). Options after `--`: `--runs N` (parse/build repeats,
//! default 5), `--frames N` (default 100), `--quick` (1 run, 20 frames; for a smoke test), `--write DIR` (also save
//! BIG.TWT there, for `mapscope bench`).

#[path = "harness/mod.rs"]
mod harness;
#[path = "../tests/support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mapscope::formats::carma2::actors::{actor_type, Actor, Hierarchy};
use mapscope::formats::carma2::materials::{flags, Fog, Material};
use mapscope::formats::carma2::models::{Face, Model};
use mapscope::formats::carma2::pixelmaps::{pixel_type, Pixelmap};
use mapscope::formats::carma2::records;
use mapscope::formats::carma2::transform::{Matrix23, Matrix34};
use mapscope::formats::carma2::writer::{
    write_actors, write_materials, write_models, write_pixelmaps, write_twt,
};
use mapscope::formats::carma2::{build_scene, Entry, Subject, TrackFiles};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

use harness::{ms, Args, FrameStats};

/// A ground of `n x n` quads, 10 units each, UVs repeating every quad.
fn grid(n: u16) -> Model {
    let side = n + 1;
    let mut vertices = Vec::new();
    let mut uvs = Vec::new();
    for z in 0..side {
        for x in 0..side {
            vertices.push([f32::from(x) * 10.0, 0.0, f32::from(z) * 10.0]);
            uvs.push([f32::from(x), f32::from(z)]);
        }
    }
    let mut faces = Vec::new();
    for z in 0..n {
        for x in 0..n {
            let i = z * side + x;
            let material = 1 + (x + z) % 2;
            // Counter-clockwise seen from above (+Y).
            for v in [[i, i + side, i + side + 1], [i, i + side + 1, i + 1]] {
                faces.push(Face { vertices: v, smoothing: 1, flags: 0, material });
            }
        }
    }
    let material_names = vec!["M_8".into(), "M_565".into()];
    Model { name: "GRID".into(), flags: 0, vertices, uvs, faces, material_names }
}

fn material(name: &str, image: &str) -> Material {
    Material {
        name: name.into(),
        record: records::MATERIAL,
        colour: [255; 3],
        opacity: 0xFF,
        ka: 0.1,
        kd: 0.7,
        ks: 0.0,
        power: 20.0,
        flags: flags::LIT | flags::PERSPECTIVE,
        uv_matrix: Matrix23::IDENTITY,
        index_base: 10,
        index_range: 31,
        fog: Some(Fog::default()),
        image: Some(image.into()),
        shade_table: None,
    }
}

fn pixelmap(name: &str, kind: u8, bpp: u16, pixels: Vec<u8>) -> Pixelmap {
    Pixelmap {
        name: name.into(),
        record: records::PIXELMAP,
        pixel_type: kind,
        row_bytes: 256 * bpp,
        width: 256,
        height: 256,
        origin: [0, 0],
        mip_offset: Some(0),
        bytes_per_pixel: u32::from(bpp),
        pixels,
        palette: None,
    }
}

/// The large track as a TWT in `dir`.
fn large_track(dir: &Path) -> PathBuf {
    let mut actors = vec![Actor {
        name: "PP01 4 4 0 0".into(),
        actor_type: actor_type::NONE,
        render_style: 0,
        transform: Matrix34::IDENTITY,
        bounds: None,
        model: None,
        material: None,
        parent: None,
        depth: 0,
    }];
    for i in 0..16u16 {
        let mut transform = Matrix34::IDENTITY;
        transform.0[3] = [f32::from(i % 4) * 1280.0, 0.0, f32::from(i / 4) * 1280.0];
        actors.push(Actor {
            name: format!("{} {}", i % 4, i / 4),
            actor_type: actor_type::MODEL,
            render_style: 4,
            transform,
            model: Some("GRID".into()),
            parent: Some(0),
            depth: 1,
            ..actors[0].clone()
        });
    }
    let texels8: Vec<u8> = (0..65536u32).map(|i| ((i % 256) ^ (i / 256)) as u8 | 1).collect();
    let texels565: Vec<u8> = (0..65536u32).flat_map(|i| ((i * 37) as u16).to_be_bytes()).collect();
    let palette = Pixelmap {
        name: "DRRENDER.PAL".into(),
        pixel_type: pixel_type::RGBX_888,
        row_bytes: 4,
        width: 1,
        height: 256,
        bytes_per_pixel: 4,
        pixels: (0..=255u8).flat_map(|i| [0, i, i / 2, 255 - i]).collect(),
        ..pixelmap("", 0, 1, Vec::new())
    };
    let twt = write_twt(&[
        ("BIG.ACT", &write_actors(&[Hierarchy { actors }])),
        ("BIG.DAT", &write_models(&[grid(128)])),
        ("BIG.MAT", &write_materials(&[material("M_8", "TEX8"), material("M_565", "TEX565")])),
        (
            "BIG.PIX",
            &write_pixelmaps(&[
                pixelmap("TEX8", pixel_type::INDEX_8, 1, texels8),
                pixelmap("TEX565", pixel_type::RGB_565, 2, texels565),
                palette,
            ]),
        ),
    ]);
    let path = dir.join("BIG.TWT");
    std::fs::write(&path, twt).expect("writing the large track");
    path
}

/// Median read + parse and build times of `path` over `runs`, printed; returns the last scene.
fn parse_and_build(label: &str, path: &Path, runs: usize) -> Scene {
    let entry = if label.contains("loose") { Entry::Actors } else { Entry::Archive };
    let (scene, p, b) = harness::parse_and_build(
        runs,
        || TrackFiles::open(path, entry).expect("opens"),
        |files| {
            let map = files.maps().first().cloned().expect("a map");
            build_scene(&files.library, Subject::Track(&map), None).expect("builds").0
        },
    );
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    println!(
        "{label:<28} {:>10} {:>9.2} {:>9.2} {:>9.2} {:>10} {:>9}",
        bytes,
        ms(p),
        ms(b),
        ms(p + b),
        scene.triangle_count(),
        scene.textures.len()
    );
    scene
}

/// Upload time and frame times at 1280x720, the camera turning slowly from the default view.
fn frame_times(gpu: &Gpu, scene: &mut Scene, frames: usize) -> (Duration, FrameStats) {
    let t = Instant::now();
    let mut renderer = SceneRenderer::new(gpu, scene).expect("uploading the scene");
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).expect("GPU poll");
    let upload = t.elapsed();
    let view = ViewSettings { width: 1280, height: 720, fov_deg: 60.0, ..Default::default() };
    let spawn = scene.spawn;
    let camera = |i: usize| CameraPose { yaw: spawn.yaw + 0.002 * i as f64, ..spawn };
    (upload, harness::frame_times(gpu, &mut renderer, scene, &view, frames, camera))
}

fn main() {
    let a = Args::parse((5, 100), Some((1, 20)));
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/carma2");
    let tmp = support::TempDir::new("carma2-bench");
    let big = large_track(tmp.path());
    harness::write_level(&a, "BIG.TWT", &std::fs::read(&big).expect("the large track"));
    println!("mapscope Carmageddon 2 benchmark: parse+build median of {} runs", a.runs);
    println!(
        "{:<28} {:>10} {:>9} {:>9} {:>9} {:>10} {:>9}",
        "track", "bytes", "parse ms", "build ms", "total ms", "triangles", "textures"
    );
    let mut scenes = Vec::new();
    for (label, path) in [
        ("TRACK.TWT", fixtures.join("TRACK.TWT")),
        ("ACTORS/TRACK.ACT (loose)", fixtures.join("ACTORS/TRACK.ACT")),
        ("quirks/C1STYLE.TWT", fixtures.join("quirks/C1STYLE.TWT")),
        ("BIG.TWT (written here)", big),
    ] {
        let scene = parse_and_build(label, &path, a.runs);
        if !label.starts_with("quirks") && !label.contains("loose") {
            scenes.push((label, scene));
        }
    }

    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    println!();
    println!(
        "headless frames on {}, 1280x720, {} frames from the default camera",
        gpu.adapter_name(),
        a.frames
    );
    println!(
        "{:<28} {:>10} {:>10} {:>10} {:>7}",
        "track", "upload ms", "median ms", "p95 ms", "fps"
    );
    for (label, mut scene) in scenes {
        let (upload, s) = frame_times(&gpu, &mut scene, a.frames);
        println!(
            "{label:<28} {:>10.1} {:>10.2} {:>10.2} {:>7.1}",
            ms(upload),
            ms(s.median),
            ms(s.p95),
            1000.0 / ms(s.median)
        );
    }
}
