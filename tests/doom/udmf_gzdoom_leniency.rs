//! UDMF maps that stray from the spec as GZDoom lets them: a linedef without `sidefront`
//! (GZDoom gives it sidedef 0) and a number where a key is expected (GZDoom reads it as a key
//! named by its text). `mapscope info` opens such a map with a note on each, and `mapscope
//! render` draws its room.

use crate::support;

use support::doom_test_room::udmf_room_pwad;
use support::{freedoom2, image_stats, mapscope, success, TempDir};

/// The room tests' 256 x 256 room (walls of the checker `CHECKW`, floor and ceiling of
/// `STRIPES`), with a two-sided line behind the player start (128, 32) that has only a
/// `sideback`, and a linedef holding the key `1`, as some editors' maps do.
fn textmap() -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (256, 0), (256, 256), (0, 256), (64, 8), (192, 8)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    // Clockwise, so each line's front (right) side faces the room.
    for (i, (v1, v2)) in [(0, 3), (3, 2), (2, 1), (1, 0)].into_iter().enumerate() {
        let key = if i == 1 { " 1 = 1;" } else { "" };
        t += &format!(
            "linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {i}; blocking = true;{key} }}\n"
        );
    }
    t += "linedef { v1 = 4; v2 = 5; sideback = 4; twosided = true; }\n";
    for _ in 0..4 {
        t += "sidedef { sector = 0; texturemiddle = \"CHECKW\"; }\n";
    }
    t += "sidedef { sector = 0; }\n";
    t += "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
          textureceiling = \"STRIPES\"; lightlevel = 192; }\n";
    t
}

#[test]
fn a_map_gzdoom_opens_with_a_sideless_line_and_a_number_key_opens_and_renders() {
    let dir = TempDir::new("udmf-leniency");
    let pwad = dir.join("leniency.wad");
    std::fs::write(&pwad, udmf_room_pwad(textmap()).to_bytes()).unwrap();
    let iwad = freedoom2();
    let files = [iwad.to_str().unwrap(), pwad.to_str().unwrap()];

    let out = mapscope(["info", files[0], files[1], "--map", "MAP01", "--json"]);
    let info: serde_json::Value = serde_json::from_str(&success(&out, "info")).unwrap();
    let notes = info["notes"].to_string();
    assert!(
        notes.contains("1 linedefs without sidefront (the first: linedef 4) given sidedef 0"),
        "{notes}"
    );
    assert!(notes.contains("1 TEXTMAP keys written as a number"), "{notes}");
    assert!(notes.contains("the first: 1 on line"), "{notes}");
    // The line is kept, not dropped.
    assert_eq!(info["counts"]["linedefs"], 5, "{info}");

    let png = dir.join("room.png");
    let args = ["render", files[0], files[1], "--map", "MAP01", "--size", "320x200", "-o"];
    success(&mapscope(args.into_iter().chain([png.to_str().unwrap()])), "render");
    let img = image::open(&png).unwrap().to_rgba8();
    if let Some(out) = support::renders_dir("udmf_gzdoom_leniency") {
        let _ = img.save(out.join("room.png"));
    }
    assert!(image_stats(&img).looks_rendered(), "{:?}", image_stats(&img));
    // The north wall's checker fills the middle of the view: green (A) and blue (B) squares
    // alternating along the horizon.
    let is_a = |x: u32, y: u32| {
        let [_, g, b, _] = img.get_pixel(x, y).0;
        g > b
    };
    let changes = (101..220).filter(|&x| is_a(x, 100) != is_a(x - 1, 100)).count();
    assert!(changes >= 4, "{changes} changes of colour along the horizon");
}
