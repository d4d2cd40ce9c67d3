//! Saturn Quake's, Marathon's, Attack of the Saucerman's and Carmageddon 2's faithful frames
//! draw their solid world, masked surfaces and sprites on the CPU canvas (render/soft): the
//! picture must be the one the GPU's passes draw, translucent surfaces over it included, from
//! every side of the level, pitched, and up close to each sprite; smooth frames stay on the
//! GPU.

use crate::support;

use std::path::PathBuf;

use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::loader::{self, OpenOptions};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

fn fixture(rel: &str) -> PathBuf {
    support::fixture(rel)
}

fn open(rel: &str) -> Scene {
    let source = loader::open(&[fixture(rel)], &OpenOptions::default())
        .unwrap_or_else(|e| panic!("{rel}: {e:#}"));
    source.build(None).unwrap_or_else(|e| panic!("{rel}: {e:#}"))
}

/// The share of pixels (0..1) that are the same in both images.
fn identical(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    identical_within(a, b, 0)
}

/// The share of pixels (0..1) whose channels differ by at most `tolerance`.
fn identical_within(a: &image::RgbaImage, b: &image::RgbaImage, tolerance: u8) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let close = |p: &image::Rgba<u8>, q: &image::Rgba<u8>| {
        p.0.iter().zip(q.0).all(|(x, y)| x.abs_diff(y) <= tolerance)
    };
    let same = a.pixels().zip(b.pixels()).filter(|(p, q)| close(p, q)).count();
    same as f64 / (a.width() * a.height()) as f64
}

/// Renders `scene` faithfully from its spawn at eight headings and three pitches with the
/// CPU canvas and with the GPU's passes; every pair must be at least `floor` identical.
fn canvas_matches_gpu(name: &str, scene: &Scene, floor: f64) {
    canvas_matches_gpu_within(name, scene, floor, 0);
}

/// [`canvas_matches_gpu`], pixels counting as the same when no channel differs by more than
/// `tolerance`.
fn canvas_matches_gpu_within(name: &str, scene: &Scene, floor: f64, tolerance: u8) {
    let spawn = scene.spawn;
    let cameras = (0..8).flat_map(|turn| {
        [0.0, -0.35, 0.3].map(|pitch| {
            let yaw = spawn.yaw + turn as f64 * std::f64::consts::FRAC_PI_4 + 0.05;
            CameraPose { yaw, pitch, ..spawn }
        })
    });
    canvas_matches_gpu_from(name, scene, cameras, (floor, tolerance));
}

/// Renders `scene` faithfully from each of `cameras` with the CPU canvas and with the GPU's
/// passes; every pair must be at least `floor` identical (within `tolerance` a channel).
fn canvas_matches_gpu_from(
    name: &str,
    scene: &Scene,
    cameras: impl IntoIterator<Item = CameraPose>,
    (floor, tolerance): (f64, u8),
) {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let view = ViewSettings { width: 320, height: 200, ..Default::default() };
    let mut canvas = SceneRenderer::new(&gpu, scene).expect("upload");
    let mut shaded = SceneRenderer::new(&gpu, scene).expect("upload");
    shaded.set_cpu_canvas(false);
    let mut worst = 1.0f64;
    for (i, camera) in cameras.into_iter().enumerate() {
        canvas.render(&gpu, &camera, &view);
        shaded.render(&gpu, &camera, &view);
        assert!(canvas.used_cpu_canvas(), "{name}: faithful frames draw on the CPU canvas");
        assert!(!shaded.used_cpu_canvas(), "{name}: switched off, the GPU shades");
        let a = canvas.read_image(&gpu).expect("read back");
        let b = shaded.read_image(&gpu).expect("read back");
        let share = identical_within(&a, &b, tolerance);
        if share < floor {
            let out = std::env::temp_dir().join(format!("soft_canvas_{name}_{i}.png"));
            let _ = a.save(&out);
            let _ = b.save(std::env::temp_dir().join(format!("soft_canvas_{name}_{i}_gpu.png")));
            panic!("{name} view {i} ({camera:?}): {:.3}% identical ({out:?})", share * 100.0);
        }
        worst = worst.min(share);
    }
    eprintln!("{name}: the worst view is {:.3}% identical", worst * 100.0);
}

/// Cameras around `centre` at distance `radius`, eight headings at two heights each, looking
/// at it.
fn orbit(centre: glam::DVec3, radius: f64, heights: [f64; 2]) -> Vec<CameraPose> {
    (0..8)
        .flat_map(|turn| {
            let a = turn as f64 * std::f64::consts::FRAC_PI_4 + 0.1;
            heights.map(|h| {
                let eye = centre + glam::DVec3::new(a.cos() * radius, h, a.sin() * radius);
                CameraPose::looking_at(eye, centre)
            })
        })
        .collect()
}

#[test]
fn saturn_canvas_frames_match_the_gpu_passes() {
    canvas_matches_gpu("saturn_test_room", &open("saturn/test_room.lev"), 0.995);
}

#[test]
fn saturn_closed_rooms_match_the_gpu_passes() {
    // Floors seen at a grazing angle cross texel edges on nearly every pixel: a few rows of
    // them fall on the other side of an edge here than on the GPU.
    let data = support::saturn_rooms::closed_rooms(3);
    let lev = LevFile::parse("rooms.lev", &data).unwrap_or_else(|e| panic!("{e}"));
    canvas_matches_gpu("saturn_rooms", &build_scene(&lev, "rooms.lev"), 0.98);
}

#[test]
fn marathon_canvas_frames_match_the_gpu_passes() {
    // M2Map.sceA with the Shapes file beside it: shapes through the shading tables, objects
    // drawn by the GPU over the canvas.
    canvas_matches_gpu("marathon_m2", &open("marathon/M2Map.sceA"), 0.995);
}

#[test]
fn marathon_flat_colours_match_the_gpu_passes() {
    // M2Map.sceA alone: flat colours times the surface light and the headlight. The light
    // varies with depth, so rounding to 8 bits falls one step apart on some pixels.
    let dir = support::TempDir::new("soft-canvas-marathon-flat");
    let map = dir.join("M2Map.sceA");
    std::fs::copy(fixture("marathon/M2Map.sceA"), &map).unwrap();
    let source = loader::open(&[map], &OpenOptions::default()).unwrap_or_else(|e| panic!("{e:#}"));
    let scene = source.build(None).unwrap_or_else(|e| panic!("{e:#}"));
    canvas_matches_gpu_within("marathon_m2_flat", &scene, 0.995, 1);
}

#[test]
fn saucerman_canvas_frames_match_the_gpu_passes() {
    // TESTA: fogged tiles through LUT1, billboards over the canvas, and translucent
    // surfaces blended through LUT2 with the palette index the canvas keeps a pixel. The
    // floor's far rows at the horizon are triangles a pixel high or less, whose coverage
    // and fog steps differ there in a few pixels of a row.
    canvas_matches_gpu("saucer_testa", &open("saucer/Saucerdata.pak"), 0.99);
}

/// Renders each sprite of `scene` from `distance` away, a little above it and from two sides:
/// the canvas must draw it as the GPU's sprite pass does, and leave nothing to the GPU but
/// the translucent surfaces (`gpu_free`: the scene has none).
fn sprites_match_gpu(name: &str, scene: &Scene, distance: f64, gpu_free: bool, floor: f64) {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let view = ViewSettings { width: 320, height: 200, ..Default::default() };
    let hidden = ViewSettings { show_sprites: false, ..view };
    let mut canvas = SceneRenderer::new(&gpu, scene).expect("upload");
    let mut shaded = SceneRenderer::new(&gpu, scene).expect("upload");
    shaded.set_cpu_canvas(false);
    assert!(!scene.sprites.is_empty(), "{name} has sprites");
    for (i, s) in scene.sprites.iter().enumerate() {
        for yaw in [0.3f64, 2.2] {
            // Back from the sprite along the view, a little above its foot.
            let look = glam::DVec3::new(yaw.cos(), 0.0, -yaw.sin());
            let pos = s.pos.as_dvec3() - look * distance + glam::DVec3::Y * distance * 0.2;
            let camera = CameraPose { pos, yaw, pitch: -0.1 };
            canvas.render(&gpu, &camera, &hidden);
            let without = canvas.read_image(&gpu).expect("read back");
            canvas.render(&gpu, &camera, &view);
            assert!(canvas.used_cpu_canvas(), "{name}: on the CPU");
            assert!(!gpu_free || canvas.draw_calls() == 0, "{name}: nothing drawn on the GPU");
            shaded.render(&gpu, &camera, &view);
            let a = canvas.read_image(&gpu).expect("read back");
            let b = shaded.read_image(&gpu).expect("read back");
            let drawn = 1.0 - identical(&a, &without);
            assert!(drawn > 0.01, "{name} sprite {i}: {:.2}% of the frame", drawn * 100.0);
            let share = identical(&a, &b);
            assert!(share >= floor, "{name} sprite {i}: {:.3}% identical", share * 100.0);
        }
    }
}

#[test]
fn marathon_sprites_match_the_gpu_up_close() {
    sprites_match_gpu("marathon_m2", &open("marathon/M2Map.sceA"), 400.0, true, 0.995);
}

#[test]
fn saucerman_sprites_match_the_gpu_up_close() {
    sprites_match_gpu("saucer_testa", &open("saucer/Saucerdata.pak"), 200.0, true, 0.99);
}

/// Renders up to `views` of `scene`'s translucent triangles from `distance` in front of each:
/// the canvas must blend them as the GPU's translucent pass does, with nothing on the GPU.
fn translucent_matches_gpu(name: &str, scene: &Scene, distance: f32, views: usize, floor: f64) {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let view = ViewSettings { width: 320, height: 200, ..Default::default() };
    let mut canvas = SceneRenderer::new(&gpu, scene).expect("upload");
    let mut shaded = SceneRenderer::new(&gpu, scene).expect("upload");
    shaded.set_cpu_canvas(false);
    let translucent = scene
        .world
        .chunks_exact(3)
        .filter(|t| t[0].flags & mapscope::scene::vertex_flags::TRANSLUCENT != 0);
    let mut seen = 0;
    for t in translucent.step_by(7).take(views) {
        let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(glam::Vec3::from);
        let normal = (b - a).cross(c - a).normalize();
        let centre = (a + b + c) / 3.0;
        // Its front: the GPU culls the back faces of translucent triangles.
        let eye = centre + normal * distance;
        let look = -normal.as_dvec3();
        let camera = CameraPose {
            pos: eye.as_dvec3(),
            yaw: (-look.z).atan2(look.x),
            pitch: look.y.clamp(-1.0, 1.0).asin(),
        };
        canvas.render(&gpu, &camera, &view);
        shaded.render(&gpu, &camera, &view);
        assert!(canvas.used_cpu_canvas(), "{name}: on the CPU");
        assert_eq!(canvas.draw_calls(), 0, "{name}: nothing drawn on the GPU");
        let (a, b) =
            (canvas.read_image(&gpu).expect("read"), shaded.read_image(&gpu).expect("read"));
        let share = identical(&a, &b);
        if share < floor {
            let out = std::env::temp_dir().join(format!("soft_canvas_{name}_glass{seen}.png"));
            let _ = a.save(&out);
            let _ = b
                .save(std::env::temp_dir().join(format!("soft_canvas_{name}_glass{seen}_gpu.png")));
            panic!("{name} triangle view {seen}: {:.3}% identical ({out:?})", share * 100.0);
        }
        eprintln!("{name} triangle view {seen}: {:.3}% identical", share * 100.0);
        seen += 1;
    }
    assert!(seen > 0, "{name} has translucent triangles");
}

#[test]
fn saucerman_translucent_surfaces_match_the_gpu_up_close() {
    // TESTA's translucent tiles blend through LUT2 with the palette index the canvas keeps.
    translucent_matches_gpu("saucer_testa", &open("saucer/Saucerdata.pak"), 150.0, 4, 0.998);
}

#[test]
fn the_baseline_and_avx2_canvas_loops_draw_the_same_bytes() {
    // The canvas's pixel loops are compiled twice and picked at run time; on a CPU without
    // AVX2 both runs take the baseline loops and the test is trivially true.
    let out = std::env::temp_dir().join(format!("soft_canvas_simd_{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temp dir");
    for (level, angle) in [
        ("saturn/test_room.lev", "30"),
        ("marathon/M2Map.sceA", "200"),
        ("saucer/Saucerdata.pak", "90"),
        ("carma2/TRACK.TWT", "0"),
    ] {
        let render = |simd: &str| {
            let png = out.join(format!("{}_{simd}.png", level.replace('/', "_")));
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_mapscope"))
                .args(["render", fixture(level).to_str().expect("path"), "--angle", angle])
                .args(["--size", "320x200", "-o", png.to_str().expect("path")])
                .env("MAPSCOPE_CANVAS_SIMD", simd)
                .env("XDG_RUNTIME_DIR", std::env::temp_dir())
                .status()
                .expect("mapscope runs");
            assert!(status.success(), "{level}: render with {simd}");
            std::fs::read(&png).expect("the render")
        };
        assert!(render("sse2") == render("auto"), "{level}: the two canvas loops differ");
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn carma2_fixture_frames_match_the_gpu_passes() {
    // The shared track: 8-bit, RGB565 and ARGB4444 pixelmaps, lit and prelit faces, a
    // Z-transparency fence, seen from its default view and from around it.
    let scene = open("carma2/TRACK.TWT");
    let centre = scene.spawn.pos + scene.spawn.forward() * 40.0;
    let mut cameras = vec![scene.spawn];
    cameras.extend(orbit(centre, 30.0, [3.0, 15.0]));
    canvas_matches_gpu_from("carma2_track", &scene, cameras, (0.999, 0));
}

/// The writer-built Carmageddon 2 track (tests/support/carma2_track.rs).
fn carma2_written() -> Scene {
    let dir = support::TempDir::new("soft-canvas-carma2");
    let path = dir.path().join("WRITTEN.TWT");
    std::fs::write(&path, support::carma2_track::track()).expect("write the track");
    let source = loader::open(&[path], &OpenOptions::default()).expect("open the track");
    source.build(None).expect("build the track")
}

#[test]
fn carma2_written_track_frames_match_the_gpu_passes() {
    // Lit faces of every brightness over indexed and direct-colour texels, a masked fence and
    // screen, and glass whose alpha ramps from clear to opaque blended over them.
    let scene = carma2_written();
    let centre = glam::DVec3::new(60.0, 3.0, 60.0);
    let mut cameras = orbit(centre, 45.0, [6.0, 30.0]);
    cameras.extend(orbit(centre, 12.0, [2.0, 8.0]));
    canvas_matches_gpu_from("carma2_written", &scene, cameras, (0.997, 0));
}

#[test]
fn carma2_translucent_glass_matches_the_gpu_up_close() {
    translucent_matches_gpu("carma2_written", &carma2_written(), 7.7, 4, 0.998);
}

#[test]
fn smooth_frames_stay_on_the_gpu() {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let scene = open("saturn/test_room.lev");
    let mut renderer = SceneRenderer::new(&gpu, &scene).expect("upload");
    let smooth = ViewSettings { mode: RenderMode::Smooth, ..Default::default() };
    renderer.render(&gpu, &scene.spawn, &smooth);
    assert!(!renderer.used_cpu_canvas());
    renderer.render(&gpu, &scene.spawn, &ViewSettings::default());
    assert!(renderer.used_cpu_canvas());
}

/// Markers on a canvas frame are drawn on the CPU into the canvas (the viewer shows them
/// as it opens, and drawing them on the GPU over a canvas costs a full pass and the canvas's
/// upload): the picture must be the one the GPU's marker pass draws. Doom's vanilla canvas
/// (freedoom2 MAP01, its player starts near the spawn) and the triangle canvas (the Saturn
/// room, its entities), at every heading from the spawn.
#[test]
fn markers_drawn_into_the_canvas_are_the_gpus_marker_pass() {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let doom = loader::open(&[support::freedoom("freedoom2.wad")], &OpenOptions::default())
        .and_then(|s| s.build(Some("MAP01")))
        .expect("freedoom2 MAP01");
    for (name, scene) in
        [("freedoom2 MAP01", doom), ("saturn test room", open("saturn/test_room.lev"))]
    {
        assert!(!scene.markers.is_empty(), "{name} has markers");
        let view =
            ViewSettings { width: 320, height: 200, show_markers: true, ..Default::default() };
        let bare = ViewSettings { show_markers: false, ..view };
        let mut cpu = SceneRenderer::new(&gpu, &scene).expect("upload");
        let mut gpu_pass = SceneRenderer::new(&gpu, &scene).expect("upload");
        gpu_pass.set_cpu_markers(false);
        let mut marked = 0;
        for turn in 0..8 {
            let yaw = scene.spawn.yaw + turn as f64 * std::f64::consts::FRAC_PI_4;
            let camera = CameraPose { yaw, ..scene.spawn };
            cpu.render(&gpu, &camera, &view);
            // Nothing but the canvas: the window takes it as it is.
            assert!(cpu.cpu_image().is_some(), "{name}: the frame stays the CPU's");
            let a = cpu.read_image(&gpu).unwrap();
            gpu_pass.render(&gpu, &camera, &view);
            assert!(gpu_pass.cpu_image().is_none(), "{name}: the GPU drew over the canvas");
            let b = gpu_pass.read_image(&gpu).unwrap();
            assert!(identical(&a, &b) >= 0.9999, "{name}, turn {turn}: {}", identical(&a, &b));
            cpu.render(&gpu, &camera, &bare);
            let c = cpu.read_image(&gpu).unwrap();
            marked += a.pixels().zip(c.pixels()).filter(|(p, q)| p != q).count();
        }
        // A diamond of radius 5 covers about 50 pixels.
        assert!(marked >= 40, "{name}: markers were in view ({marked} pixels)");
    }
}
