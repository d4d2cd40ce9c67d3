//! TEXTURES `XScale` / `YScale` in renders: the same checker patch as a texture scaled 2
//! shows twice as many squares across a wall, in every way a frame is drawn.

mod support;

use image::RgbaImage;
use mapscope::formats::doom::writer::WadWriter;
use mapscope::render::{render_headless, RenderMode, ViewSettings};
use support::doom_test_room::{add_check_textures, scene_over_freedoom2, shared_gpu};

/// A 256 x 256 UDMF room whose walls show `wall`, the player at (128, 32) facing north.
fn pwad(wall: &str) -> Vec<u8> {
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
    t += "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
          textureceiling = \"STRIPES\"; lightlevel = 255; }\n";
    t += "thing { x = 128.0; y = 32.0; angle = 90; type = 1; skill1 = true; skill2 = true; \
          skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    w.lump("TEXTMAP", t.into_bytes());
    w.lump("ENDMAP", Vec::new());
    add_check_textures(&mut w);
    w.lump(
        "TEXTURES",
        b"WallTexture \"CHECKS\", 64, 128 { XScale 2 YScale 2 Patch \"CHECKP\", 0, 0 }\n".to_vec(),
    );
    w.to_bytes()
}

/// How often the checker turns from blue to green or back along row `y` between columns 70
/// and 250 (the north wall); blended pixels count by their stronger channel.
fn changes(img: &RgbaImage, y: u32) -> usize {
    let blue = |x: u32| {
        let [_, g, b, _] = img.get_pixel(x, y).0;
        b > g
    };
    (71..250).filter(|&x| blue(x) != blue(x - 1)).count()
}

#[test]
fn scaled_textures_show_more_squares() {
    let views = [
        ("faithful", RenderMode::Faithful, 90.0),
        ("faithful 100°", RenderMode::Faithful, 100.0),
        ("smooth", RenderMode::Smooth, 90.0),
    ];
    let mut plain = scene_over_freedoom2("plain.wad", pwad("CHECKW"), "MAP01");
    let mut scaled = scene_over_freedoom2("scaled.wad", pwad("CHECKS"), "MAP01");
    let note = scaled.facts.notes.iter().find(|n| n.starts_with("TEXTURES scales"));
    assert!(note.is_some_and(|n| n.contains("4 wall parts")), "{:?}", scaled.facts.notes);
    for (what, mode, fov_deg) in views {
        let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
        let camera = plain.spawn;
        let a = render_headless(shared_gpu(), &mut plain, &camera, &view, 0).unwrap();
        let b = render_headless(shared_gpu(), &mut scaled, &camera, &view, 0).unwrap();
        if let Ok(dir) = std::env::var("MAPSCOPE_SCALE_DUMP") {
            let _ = a.save(format!("{dir}/plain-{what}.png"));
            let _ = b.save(format!("{dir}/scaled-{what}.png"));
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
    }
}
