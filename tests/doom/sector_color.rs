//! ZDoom's sector light and fade colours in a small room over Freedoom: UDMF `lightcolor` /
//! `fadecolor` and Hexen's `Static_Init` (190, Init_Color) tint smooth mode's walls and flats
//! by the light colour and fade them to the fade colour as they darken; faithful frames stay
//! vanilla's COLORMAP, pixel for pixel, and `info` says so.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{
    line_flags, Linedef, MapData, MapFormat, Sector, Sidedef, Vertex,
};
use mapscope::render::{render_headless, RenderMode, ViewSettings};
use mapscope::scene::Scene;
use support::doom_test_room::{
    add_check_textures, hexen_player_start, scene_over_freedoom2, shared_gpu, udmf_room_pwad,
};

/// The 256 x 256 room's lines, clockwise (fronts face in).
const LINES: [(u32, u32); 4] = [(0, 3), (3, 2), (2, 1), (1, 0)];

fn udmf(light: i32, sector_keys: &str) -> Vec<u8> {
    udmf_with(light, sector_keys, "")
}

/// [`udmf`] with the blocks `extra` (things) added.
fn udmf_with(light: i32, sector_keys: &str, extra: &str) -> Vec<u8> {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (256, 0), (256, 256), (0, 256)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    for (i, (v1, v2)) in LINES.iter().enumerate() {
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {i}; blocking = true; }}\n");
        t += "sidedef { sector = 0; texturemiddle = \"CHECKW\"; }\n";
    }
    t += &format!(
        "sector {{ heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
         textureceiling = \"STRIPES\"; lightlevel = {light}; {sector_keys} }}\n"
    );
    t += extra;
    udmf_room_pwad(t).to_bytes()
}

/// The same room in Hexen format, its west wall a `Static_Init(1, Init_Color)` line naming
/// `upper` and `lower` as colours for the room (tag 1).
fn hexen(light: i16, upper: &str, lower: &str) -> Vec<u8> {
    let v = Vertex::units;
    let mut sidedefs = Vec::new();
    let mut linedefs = Vec::new();
    for (i, &(v1, v2)) in LINES.iter().enumerate() {
        let first = i == 0;
        sidedefs.push(Sidedef {
            upper: if first { upper.into() } else { "-".into() },
            lower: if first { lower.into() } else { "-".into() },
            middle: "CHECKW".into(),
            sector: 0,
            ..Default::default()
        });
        linedefs.push(Linedef {
            v1,
            v2,
            flags: line_flags::IMPASSABLE,
            special: if first { 190 } else { 0 },
            args: if first { [1, 1, 0, 0, 0] } else { [0; 5] },
            sides: [Some(i as u32), None],
            ..Default::default()
        });
    }
    let map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Hexen,
        things: vec![hexen_player_start()],
        linedefs,
        sidedefs,
        vertices: vec![v(0, 0), v(256, 0), v(256, 256), v(0, 256)],
        sectors: vec![Sector {
            floor: 0,
            ceiling: 128,
            floor_flat: "STRIPES".into(),
            ceiling_flat: "STRIPES".into(),
            light,
            tag: 1,
            ..Default::default()
        }],
        ..Default::default()
    };
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map);
    add_check_textures(&mut w);
    w.to_bytes()
}

fn scene(pwad: Vec<u8>) -> Scene {
    scene_over_freedoom2("color.wad", pwad, "MAP01")
}

/// Faithful at vanilla's projection (the canvas), faithful at 100° (the GPU), smooth.
const VIEWS: [(RenderMode, f64); 3] =
    [(RenderMode::Faithful, 90.0), (RenderMode::Faithful, 100.0), (RenderMode::Smooth, 90.0)];

fn renders(pwad: Vec<u8>, name: &str) -> Vec<RgbaImage> {
    let mut scene = scene(pwad);
    let camera = scene.spawn;
    VIEWS
        .iter()
        .enumerate()
        .map(|(i, &(mode, fov_deg))| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            let img = render_headless(shared_gpu(), &mut scene, &camera, &view, 0).unwrap();
            if let Some(dir) = support::renders_dir("sector_color") {
                let _ = img.save(dir.join(format!("{name}-{i}.png")));
            }
            img
        })
        .collect()
}

const SMOOTH: usize = 2;

#[test]
fn light_colour_tints_smooth_mode_and_leaves_faithful_frames_alone() {
    // At light 255 smooth mode's light is 1 everywhere: each channel is the plain room's
    // times the colour's.
    let plain = renders(udmf(255, ""), "plain");
    let tinted = renders(udmf(255, "lightcolor = 0xFF8040;"), "tinted");
    let tint = [1.0, 128.0 / 255.0, 64.0 / 255.0];
    let (p, t) = (&plain[SMOOTH], &tinted[SMOOTH]);
    let mut differ = 0;
    for (x, y, got) in t.enumerate_pixels() {
        let want = p.get_pixel(x, y).0;
        for c in 0..3 {
            let w = want[c] as f64 * tint[c];
            assert!((got.0[c] as f64 - w).abs() <= 2.0, "({x}, {y}): {got:?} for {want:?}");
        }
        differ += (got.0 != want) as usize;
    }
    assert!(differ > 320 * 150, "{differ} pixels tinted");
    // Vanilla's tables have no colour: faithful frames are the plain room's.
    assert_eq!(tinted[0], plain[0]);
    assert_eq!(tinted[1], plain[1]);
    let notes = scene(udmf(255, "lightcolor = 0xFF8040;")).facts.notes;
    assert!(
        notes.iter().any(|n| n.contains("1 sectors with a ZDoom light or fade colour")
            && n.contains("faithful mode draws vanilla's COLORMAP")),
        "{notes:?}"
    );
    assert!(!notes.iter().any(|n| n.contains("lightcolor (")), "kept-but-not-drawn: {notes:?}");
}

#[test]
fn dark_sectors_fade_to_the_fade_colour() {
    // Light 0: the room's walls are at smooth mode's darkest (1/32 of the texel); with a blue
    // fade the remaining 31/32 goes to blue, red and green as dark as before.
    let plain = renders(udmf(0, ""), "dark");
    let faded = renders(udmf(0, "fadecolor = 0x0000FF;"), "faded");
    let (p, f) = (&plain[SMOOTH], &faded[SMOOTH]);
    for (x, y, got) in f.enumerate_pixels() {
        let want = p.get_pixel(x, y).0;
        for (g, w) in got.0.iter().zip(want).take(2) {
            assert!((*g as i32 - w as i32).abs() <= 2, "({x}, {y}): {got:?}");
        }
        assert!(got.0[2] >= want[2], "({x}, {y}): {got:?} for {want:?}");
    }
    // The wall across the room (rows near the horizon) is almost all fade.
    for x in 0..320 {
        assert!(f.get_pixel(x, 100).0[2] >= 240, "({x}, 100): {:?}", f.get_pixel(x, 100));
    }
    assert_eq!(faded[0], plain[0]);
}

#[test]
fn hexen_static_init_colours_its_tagged_sector() {
    let udmf_look = renders(udmf(160, "lightcolor = 0xFF8040; fadecolor = 0x0000FF;"), "udmf");
    let hexen_look = renders(hexen(160, "FF8040", "0000FF"), "hexen");
    assert_eq!(hexen_look[SMOOTH], udmf_look[SMOOTH]);
    let plain = renders(udmf(160, ""), "plain160");
    assert_ne!(hexen_look[SMOOTH], plain[SMOOTH]);
    // The colour names are no textures: nothing reports them missing.
    let notes = scene(hexen(160, "FF8040", "0000FF")).facts.notes;
    assert!(!notes.iter().any(|n| n.contains("FF8040")), "{notes:?}");
    // A name that is no colour leaves the room plain.
    assert_eq!(renders(hexen(160, "-", "-"), "hexen-plain")[SMOOTH], plain[SMOOTH]);
}

#[test]
fn gzdoom_floor_ceiling_and_wall_colours_tint_smooth_mode() {
    // At light 255 each surface's channels are the plain room's times its colour's: the floor
    // red, the ceiling blue, the walls (one colour top to bottom) green.
    let keys = "color_floor = 0xFF0000; color_ceiling = 0x0000FF; color_walltop = 0x00FF00; \
                color_wallbottom = 0x00FF00;";
    let plain = renders(udmf(255, ""), "plain-colours");
    let tinted = renders(udmf(255, keys), "colours");
    let (p, t) = (&plain[SMOOTH], &tinted[SMOOTH]);
    let (w, h) = t.dimensions();
    // Bottom rows: floor; top rows: ceiling; the horizon: the far wall.
    for (rows, keep) in [(h - 10..h, 0), (0..10, 2), (h / 2 - 2..h / 2 + 2, 1)] {
        for y in rows {
            // The middle third: the side walls reach the top and bottom rows at the edges.
            for x in w / 3..w * 2 / 3 {
                let (got, want) = (t.get_pixel(x, y).0, p.get_pixel(x, y).0);
                for c in 0..3 {
                    let w = if c == keep { want[c] } else { 0 };
                    assert!(
                        got[c].abs_diff(w) <= 2,
                        "({x}, {y}) channel {c}: {got:?} for {want:?}"
                    );
                }
            }
        }
    }
    assert_eq!(tinted[0], plain[0], "faithful frames stay vanilla's");
    // A gradient from top to bottom is not drawn, and says so.
    let notes = scene(udmf(255, "color_walltop = 0xFF0000;")).facts.notes;
    assert!(
        notes.iter().any(|n| n.contains("from color_walltop to color_wallbottom")),
        "{notes:?}"
    );
}

#[test]
fn things_take_their_sector_s_colours_and_color_sprites() {
    // A tall green pillar (type 30) before the player; `color_sprites` red tints it alone.
    let pillar = "thing { x = 128.0; y = 160.0; angle = 90; type = 30; skill1 = true; \
                  skill2 = true; skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    let with_keys = |keys: &str| {
        let mut scene = scene(udmf_with(255, keys, pillar));
        let camera = scene.spawn;
        VIEWS
            .iter()
            .map(|&(mode, fov_deg)| {
                let view = ViewSettings { mode, fov_deg, show_sprites: true, ..Default::default() };
                render_headless(shared_gpu(), &mut scene, &camera, &view, 0).unwrap()
            })
            .collect::<Vec<_>>()
    };
    let (plain, red) = (with_keys(""), with_keys("color_sprites = 0xFF0000;"));
    let (p, r) = (&plain[SMOOTH], &red[SMOOTH]);
    let mut tinted = 0;
    for (x, y, got) in r.enumerate_pixels() {
        let want = p.get_pixel(x, y).0;
        if got.0 == want {
            continue;
        }
        tinted += 1;
        assert!(got.0[0].abs_diff(want[0]) <= 2, "({x}, {y}): red kept, {got:?} for {want:?}");
        assert!(got.0[1] <= 2 && got.0[2] <= 2, "({x}, {y}): green and blue gone, {got:?}");
    }
    assert!(tinted > 300, "{tinted} sprite pixels tinted");
    assert_eq!(red[0], plain[0], "faithful frames stay vanilla's");
    // The GPU's passes tint it too (vs_sprite reads the pair from the instance).
    let gpu = shared_gpu();
    let s = scene(udmf_with(255, "color_sprites = 0xFF0000;", pillar));
    let mut shaded = mapscope::render::SceneRenderer::new(gpu, &s).expect("upload");
    shaded.set_cpu_canvas(false);
    let view = ViewSettings { mode: RenderMode::Smooth, show_sprites: true, ..Default::default() };
    shaded.render(gpu, &s.spawn, &view);
    let g = shaded.read_image(gpu).expect("read back");
    // Of the pixels the tint changed on the canvas, the GPU's are as red (green and blue
    // gone) but for a few on the sprite's edges.
    let changed: Vec<(u32, u32)> = r
        .enumerate_pixels()
        .filter(|(x, y, q)| q.0 != p.get_pixel(*x, *y).0)
        .map(|(x, y, _)| (x, y))
        .collect();
    let red_on_gpu = changed.iter().filter(|&&(x, y)| {
        let q = g.get_pixel(x, y).0;
        q[1] <= 4 && q[2] <= 4
    });
    let share = red_on_gpu.count() as f64 / changed.len() as f64;
    assert!(share > 0.95, "GPU: {:.1}% of the sprite's pixels tinted", share * 100.0);
}
