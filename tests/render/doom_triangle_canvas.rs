//! Doom's frames that vanilla's canvas cannot draw (smooth frames; faithful frames from a
//! pitched camera or at another field of view) are drawn on the CPU triangle canvas
//! (render/doom/triangle_shader.rs): the picture must be the one the GPU's passes draw, sky, things,
//! masked and translucent middles and sector colours included. Smooth frames' filtered
//! texels go through the GPU's texture unit there, whose fixed-point weights the canvas's
//! float weights differ from by a step of a channel.

use crate::support;

use mapscope::loader::{self, OpenOptions};
use mapscope::render::{RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

fn freedoom2_map(map: &str) -> Scene {
    let source = loader::open(&[support::freedoom2()], &OpenOptions::default())
        .unwrap_or_else(|e| panic!("freedoom2: {e:#}"));
    source.build(Some(map)).unwrap_or_else(|e| panic!("{map}: {e:#}"))
}

/// Per pixel, the largest channel difference of `a` and `b`.
fn differences(a: &image::RgbaImage, b: &image::RgbaImage) -> Vec<u8> {
    assert_eq!(a.dimensions(), b.dimensions());
    a.pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|k| p.0[k].abs_diff(q.0[k])).max().unwrap_or(0))
        .collect()
}

/// Renders `scene` as `view` says from `cameras` with the CPU canvas and with the GPU's
/// passes: in each pair at least `close` of the pixels must be within two steps of a channel
/// and at least `exact` identical.
fn canvas_matches_gpu(
    name: &str,
    scene: &Scene,
    view: &ViewSettings,
    cameras: &[CameraPose],
    (close, exact): (f64, f64),
) {
    let gpu = support::doom_test_room::shared_gpu();
    let mut canvas = SceneRenderer::new(gpu, scene).expect("upload");
    let mut shaded = SceneRenderer::new(gpu, scene).expect("upload");
    shaded.set_cpu_canvas(false);
    for (i, camera) in cameras.iter().enumerate() {
        canvas.render(gpu, camera, view);
        shaded.render(gpu, camera, view);
        assert!(canvas.used_cpu_canvas(), "{name}: the frame draws on the canvas");
        assert!(!shaded.used_cpu_canvas(), "{name}: switched off, the GPU draws");
        let a = canvas.read_image(gpu).expect("read back");
        let b = shaded.read_image(gpu).expect("read back");
        let d = differences(&a, &b);
        let n = d.len() as f64;
        let near = d.iter().filter(|&&d| d <= 2).count() as f64 / n;
        let same = d.iter().filter(|&&d| d == 0).count() as f64 / n;
        eprintln!("{name} view {i}: {:.3}% within 2, {:.3}% identical", near * 100.0, same * 100.0);
        if let Some(dir) = support::renders_dir("doom_triangle_canvas") {
            let _ = a.save(dir.join(format!("{name}-{i}.png")));
            let _ = b.save(dir.join(format!("{name}-{i}-gpu.png")));
        }
        if near < close || same < exact {
            let out = std::env::temp_dir().join(format!("doom_canvas_{name}_{i}.png"));
            let _ = a.save(&out);
            let _ = b.save(std::env::temp_dir().join(format!("doom_canvas_{name}_{i}_gpu.png")));
            panic!("{name} view {i} ({camera:?}): {:.3}% within 2 ({out:?})", near * 100.0);
        }
    }
}

/// The spawn at eight headings, at `pitch`.
fn headings(scene: &Scene, pitch: f64) -> Vec<CameraPose> {
    let spawn = scene.spawn;
    (0..8)
        .map(|turn| {
            let yaw = spawn.yaw + turn as f64 * std::f64::consts::FRAC_PI_4 + 0.05;
            CameraPose { yaw, pitch, ..spawn }
        })
        .collect()
}

fn view(mode: RenderMode, fov_deg: f64) -> ViewSettings {
    ViewSettings { width: 320, height: 200, mode, fov_deg, ..Default::default() }
}

#[test]
fn freedoom2_map02_smooth_canvas_matches_the_gpu() {
    let scene = freedoom2_map("MAP02");
    let smooth = view(RenderMode::Smooth, 90.0);
    // Level: what the walk reached; looking up and down: every triangle in view.
    canvas_matches_gpu("map02", &scene, &smooth, &headings(&scene, 0.0), (0.99, 0.5));
    canvas_matches_gpu("map02_up", &scene, &smooth, &headings(&scene, 0.4), (0.99, 0.5));
    canvas_matches_gpu("map02_down", &scene, &smooth, &headings(&scene, -0.5), (0.99, 0.5));
}

#[test]
fn freedoom2_map02_faithful_frames_beyond_vanilla_match_the_gpu() {
    // COLORMAP rows by depth, texel by texel: the same bytes but where a pixel centre lies
    // on the exact edge of a texel or a triangle.
    let scene = freedoom2_map("MAP02");
    let pitched = view(RenderMode::Faithful, 90.0);
    canvas_matches_gpu("map02_f_up", &scene, &pitched, &headings(&scene, 0.4), (0.995, 0.99));
    canvas_matches_gpu("map02_f_down", &scene, &pitched, &headings(&scene, -0.5), (0.995, 0.99));
    let wide = view(RenderMode::Faithful, 110.0);
    canvas_matches_gpu("map02_f_110", &scene, &wide, &headings(&scene, 0.0), (0.995, 0.99));
}

/// A UDMF room (over freedoom2) split in two by a line whose middle texture is translucent
/// (`split_keys`); the far half under the sky, lit 160 and coloured by ZDoom's light and fade
/// colours; things between the viewer and the split (an item, a monster, a fullbright lamp).
fn feature_room(split_keys: &str) -> Scene {
    let corners = [(0, 0), (256, 0), (256, 256), (0, 256), (0, 128), (256, 128)];
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in corners {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    // (v1, v2, front sector, back sector): fronts face in.
    let lines = [(0, 4, 0, None), (4, 3, 1, None), (3, 2, 1, None), (2, 5, 1, None)];
    let lines = lines.into_iter().chain([(5, 1, 0, None), (1, 0, 0, None), (4, 5, 0, Some(1))]);
    let (mut sides, mut n) = (String::new(), 0);
    for (v1, v2, front, back) in lines {
        sides += &format!("sidedef {{ sector = {front}; texturemiddle = \"CHECKW\"; }}\n");
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {n}; ");
        n += 1;
        match back {
            Some(b) => {
                sides += &format!("sidedef {{ sector = {b}; }}\n");
                t += &format!("sideback = {n}; twosided = true; {split_keys} }}\n");
                n += 1;
            }
            None => t += "blocking = true; }\n",
        }
    }
    t += &sides;
    t += "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
          textureceiling = \"CEIL1_1\"; lightlevel = 200; }\n";
    t += "sector { heightfloor = 0; heightceiling = 160; texturefloor = \"FLOOR0_1\"; \
          textureceiling = \"F_SKY1\"; lightlevel = 160; lightcolor = 0xFF8040; \
          fadecolor = 0x102030; }\n";
    let every_skill = "skill1 = true; skill2 = true; skill3 = true; skill4 = true; \
                       skill5 = true; single = true;";
    for (x, y, kind) in [(100, 80, 2011), (150, 96, 3004), (128, 112, 2028)] {
        t += &format!(
            "thing {{ x = {x}.0; y = {y}.0; angle = 270; type = {kind}; {every_skill} }}\n"
        );
    }
    let pwad = support::doom_test_room::udmf_room_pwad(t).to_bytes();
    support::doom_test_room::scene_over_freedoom2("feature_room.wad", pwad, "MAP01")
}

/// From the start, looking across the room and at each side, at two heights.
fn room_cameras(scene: &Scene) -> Vec<CameraPose> {
    let spawn = scene.spawn;
    [-0.6, -0.25, 0.0, 0.3, 0.7]
        .iter()
        .flat_map(|turn| {
            [0.0, 24.0].map(|up| {
                let mut pos = spawn.pos;
                pos.y += up;
                CameraPose { yaw: spawn.yaw + turn, pitch: 0.0, pos }
            })
        })
        .collect()
}

#[test]
fn translucent_middles_sprites_sky_and_sector_colours_match_the_gpu() {
    for (name, keys) in [
        ("alpha", "alpha = 0.5;"),
        ("additive", "alpha = 0.75; renderstyle = \"add\";"),
        ("boom", ""),
    ] {
        let scene = feature_room(keys);
        let cameras = room_cameras(&scene);
        canvas_matches_gpu(name, &scene, &view(RenderMode::Smooth, 90.0), &cameras, (0.99, 0.5));
        let pitched: Vec<_> = cameras.iter().map(|c| CameraPose { pitch: 0.3, ..*c }).collect();
        // Looking straight at the checker, texel edges fall on pixel centres of whole
        // columns (0.6% of one view).
        let faithful = view(RenderMode::Faithful, 90.0);
        canvas_matches_gpu(&format!("{name}_f"), &scene, &faithful, &pitched, (0.99, 0.98));
    }
}
