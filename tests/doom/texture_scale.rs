//! TEXTURES `XScale` / `YScale` in renders: the same checker patch as a texture scaled 2
//! shows twice as many squares across a wall, in every way a frame is drawn; a 128 x 128 PNG
//! flat spans 128 map units, as GZDoom draws it.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::png_lump;
use mapscope::render::{render_headless, RenderMode, ViewSettings};
use support::doom_test_room::{scene_over_freedoom2, shared_gpu, udmf_room_pwad};

/// A 256 x 256 UDMF room whose walls show `wall` and whose floor `floor`, the player at
/// (128, 32) facing north.
fn pwad(wall: &str, floor: &str) -> Vec<u8> {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (0, 256), (256, 256), (256, 0)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    for i in 0..4 {
        t += &format!(
            "linedef {{ v1 = {i}; v2 = {}; sidefront = {i}; blocking = true; }}\n",
            (i + 1) % 4
        );
        t += &format!("sidedef {{ sector = 0; texturemiddle = \"{wall}\"; }}\n");
    }
    t += &format!(
        "sector {{ heightfloor = 0; heightceiling = 128; texturefloor = \"{floor}\"; \
         textureceiling = \"STRIPES\"; lightlevel = 255; }}\n"
    );
    let mut w = udmf_room_pwad(t);
    w.lump(
        "TEXTURES",
        b"WallTexture \"CHECKS\", 64, 128 { XScale 2 YScale 2 Patch \"CHECKP\", 0, 0 }\n".to_vec(),
    );
    // 128 x 128, stripes 64 texels wide: blue then green.
    let rgba: Vec<u8> = (0..128 * 128)
        .flat_map(|i| if i % 128 < 64 { [0, 0, 255, 255] } else { [0, 255, 0, 255] })
        .collect();
    w.marker("FF_START");
    w.lump("BIGSTRP", png_lump(128, 128, &rgba, None).unwrap());
    w.marker("FF_END");
    w.to_bytes()
}

/// How often the picture turns from blue to green or back along row `y` between columns
/// `from` and `to`; blended pixels count by their stronger channel.
fn changes_between(img: &RgbaImage, y: u32, from: u32, to: u32) -> usize {
    let blue = |x: u32| {
        let [_, g, b, _] = img.get_pixel(x, y).0;
        b > g
    };
    (from + 1..to).filter(|&x| blue(x) != blue(x - 1)).count()
}

/// [`changes_between`] across the north wall.
fn changes(img: &RgbaImage, y: u32) -> usize {
    changes_between(img, y, 70, 250)
}

#[test]
fn scaled_textures_show_more_squares() {
    let views = [
        ("faithful", RenderMode::Faithful, 90.0),
        ("faithful 100°", RenderMode::Faithful, 100.0),
        ("smooth", RenderMode::Smooth, 90.0),
    ];
    let mut plain = scene_over_freedoom2("plain.wad", pwad("CHECKW", "STRIPES"), "MAP01");
    let mut scaled = scene_over_freedoom2("scaled.wad", pwad("CHECKS", "BIGSTRP"), "MAP01");
    let note = scaled.facts.notes.iter().find(|n| n.starts_with("TEXTURES scales"));
    // Four walls and the floor.
    assert!(note.is_some_and(|n| n.contains("5 wall parts")), "{:?}", scaled.facts.notes);
    for (what, mode, fov_deg) in views {
        let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
        let camera = plain.spawn;
        let a = render_headless(shared_gpu(), &mut plain, &camera, &view, 0).unwrap();
        let b = render_headless(shared_gpu(), &mut scaled, &camera, &view, 0).unwrap();
        if let Some(dir) = support::renders_dir("texture_scale") {
            let _ = a.save(dir.join(format!("plain-{what}.png")));
            let _ = b.save(dir.join(format!("scaled-{what}.png")));
        }
        // The horizon row and one above it cross the north wall.
        for y in [90, 100] {
            let (p, s) = (changes(&a, y), changes(&b, y));
            assert!(p >= 4, "{what}: the plain wall shows squares ({p} changes)");
            assert!(
                (s as f64) > 1.6 * p as f64 && (s as f64) < 2.4 * p as f64,
                "{what}, row {y}: {s} changes scaled against {p} plain"
            );
        }
        // Near the bottom of the screen the floor's stripes: 32 units wide on STRIPES, 64 on
        // the large PNG (cut to its top-left 64 x 64 texels it would be one colour).
        let (p, s) = (changes_between(&a, 190, 0, 320), changes_between(&b, 190, 0, 320));
        assert!(p >= 4 && s >= 2, "{what}: floor stripes {p} plain, {s} large");
        assert!(
            (s as f64) > 0.3 * p as f64 && (s as f64) < 0.7 * p as f64,
            "{what}: floor stripe changes {s} large against {p} plain"
        );
    }
}
