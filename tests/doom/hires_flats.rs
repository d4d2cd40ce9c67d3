//! A flat larger than 64x64 over Freedoom: a 128x128 picture of one-texel stripes (even
//! columns colour A, odd ones B) on the floor of a 256 x 256 room. Faithful frames draw it
//! with vanilla's 64x64 texels (resampled from the even columns: all A); smooth frames draw
//! all of its texels, on the CPU canvas and on the GPU alike, so both stripes show.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::{patch_lump, WadWriter};
use mapscope::formats::doom::map::{MapData, MapFormat, Sector};
use mapscope::render::{render_headless, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{Scene, Shading};
use support::doom_test_room::{
    add_check_textures, add_line, player_start, room_and_control_vertices, scene_over_freedoom2,
    shared_gpu, A, B, THREE_WAYS,
};

const SIZE: u16 = 128;

fn scene() -> Scene {
    let mut map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Doom,
        things: vec![player_start()],
        vertices: room_and_control_vertices()[..4].to_vec(),
        ..Default::default()
    };
    for (v1, v2) in [(1, 0), (0, 3), (3, 2), (2, 1)] {
        add_line(&mut map, (v1, v2), (0, "CHECKW"), None, (0, [0; 5]));
    }
    map.sectors = vec![Sector {
        floor: 0,
        ceiling: 128,
        floor_flat: "FINE".into(),
        ceiling_flat: "CEIL1_1".into(),
        light: 255,
        ..Default::default()
    }];
    let n = SIZE as usize;
    let stripes: Vec<Option<u8>> =
        (0..n * n).map(|i| Some(if (i % n).is_multiple_of(2) { A } else { B })).collect();
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map);
    add_check_textures(&mut w);
    w.marker("FF_START");
    w.lump("FINE", patch_lump(SIZE, SIZE, 0, 0, &stripes));
    w.marker("FF_END");
    scene_over_freedoom2("fine.wad", w.to_bytes(), "MAP01")
}

/// Of the floor near the camera (the bottom fifth of the frame), the shares of pixels nearer
/// colour A and nearer colour B (by their green, where the two differ most).
fn stripe_shares(img: &RgbaImage, [a, b]: [[u8; 3]; 2]) -> [f64; 2] {
    let (w, h) = img.dimensions();
    let (mut near_a, mut near_b, mut n) = (0, 0, 0);
    for y in h * 4 / 5..h {
        for x in 0..w {
            let p = img.get_pixel(x, y).0;
            let d = |c: [u8; 3]| (0..3).map(|k| (p[k] as i32 - c[k] as i32).abs()).sum::<i32>();
            // Lit surfaces are darker than the palette colours: compare their directions.
            let (da, db) = (d(a), d(b));
            near_a += (da < db) as usize;
            near_b += (db < da) as usize;
            n += 1;
        }
    }
    [near_a as f64 / n as f64, near_b as f64 / n as f64]
}

#[test]
fn smooth_frames_draw_every_texel_of_a_large_flat_and_faithful_ones_vanilla_s_64() {
    let mut s = scene();
    let Shading::DoomColormap { smooth_flats, .. } = &s.shading else { panic!("Doom") };
    assert_eq!(smooth_flats.len(), 1);
    let [fitted, full] = smooth_flats[0].map(|t| &s.textures[t as usize]);
    assert_eq!((fitted.width, full.width, full.height), (64, 128, 128));
    assert_eq!(fitted.name, "FINE");
    let colours = [A, B].map(|i| s.palette[i as usize]);
    let camera = s.spawn;
    for (view_name, mode, fov_deg) in THREE_WAYS {
        let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
        let img = render_headless(shared_gpu(), &mut s, &camera, &view, 0).unwrap();
        if let Some(dir) = support::renders_dir("hires_flats") {
            let _ = img.save(dir.join(format!("fine-{view_name}.png")));
        }
        let [a, b] = stripe_shares(&img, colours);
        if mode == RenderMode::Smooth {
            assert!(a > 0.2 && b > 0.2, "{view_name}: both stripes show ({a:.3}, {b:.3})");
        } else {
            assert!(a > 0.95, "{view_name}: vanilla's 64 texels, all A ({a:.3}, {b:.3})");
        }
    }
    // The GPU's smooth passes bind the full-size picture too.
    let gpu = shared_gpu();
    let mut shaded = SceneRenderer::new(gpu, &s).expect("upload");
    shaded.set_cpu_canvas(false);
    let view = ViewSettings { mode: RenderMode::Smooth, show_sprites: false, ..Default::default() };
    shaded.render(gpu, &camera, &view);
    assert!(!shaded.used_cpu_canvas());
    let img = shaded.read_image(gpu).expect("read back");
    let [a, b] = stripe_shares(&img, colours);
    assert!(a > 0.2 && b > 0.2, "GPU smooth: both stripes show ({a:.3}, {b:.3})");
    assert!(
        s.facts.notes.iter().any(|n| n.contains("flat FINE is 128x128")),
        "{:?}",
        s.facts.notes
    );
}
