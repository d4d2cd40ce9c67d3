//! The UDMF properties mapscope draws, seen in renders of a small UDMF room over Freedoom in
//! faithful mode (the CPU walk's canvas), faithful mode off vanilla's projection (the GPU with
//! COLORMAP tables) and smooth mode: per-part wall offsets shift the texture exactly as the
//! sidedef's own offsets do, part scales shrink the texels, floor/ceiling/wall light changes
//! only its surface, and flat rotation, panning and scale move the flat's grid.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::{build_scene, WadStack};
use mapscope::render::{render_headless, RenderMode, ViewSettings};
use support::doom_test_room::{add_check_textures, scene_over_freedoom2, shared_gpu};
use support::freedoom2;

/// A room 256 x 256 (floor 0, ceiling 128) whose walls show a 64 x 128 checker of 8-texel
/// squares and whose floor and ceiling show 32-texel stripes running north-south; the player
/// stands at (128, `eye_y`) facing north. `north` is added to the north wall's sidedef,
/// `sector` to the sector.
fn room(eye_y: i32, light: i32, north: &str, sector: &str) -> String {
    let wall =
        |extra: &str| format!("sidedef {{ sector = 0; texturemiddle = \"CHECKW\"; {extra} }}\n");
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (256, 0), (256, 256), (0, 256)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    // Clockwise, so each line's front (right) side faces the room.
    for (i, (v1, v2)) in [(0, 3), (3, 2), (2, 1), (1, 0)].into_iter().enumerate() {
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {i}; blocking = true; }}\n");
    }
    t += &wall("");
    t += &wall(north);
    t += &wall("");
    t += &wall("");
    t += &format!(
        "sector {{ heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
         textureceiling = \"STRIPES\"; lightlevel = {light}; {sector} }}\n"
    );
    t += &format!(
        "thing {{ x = 128.0; y = {eye_y}.0; angle = 90; type = 1; skill1 = true; skill2 = true; \
         skill3 = true; skill4 = true; skill5 = true; single = true; }}\n"
    );
    t
}

/// The PWAD: the map (no nodes: mapscope builds them), the wall patch and its TEXTURES entry,
/// and the flat.
fn pwad(textmap: &str) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    w.lump("TEXTMAP", textmap.as_bytes().to_vec());
    w.lump("ENDMAP", Vec::new());
    add_check_textures(&mut w);
    w.to_bytes()
}

/// The three ways a Doom frame is drawn.
const VIEWS: [(&str, RenderMode, f64); 3] = [
    ("faithful (canvas)", RenderMode::Faithful, 90.0),
    ("faithful (GPU)", RenderMode::Faithful, 100.0),
    ("smooth", RenderMode::Smooth, 90.0),
];

/// The map rendered at 320x200 in each of [`VIEWS`], things hidden.
fn renders(textmap: &str) -> Vec<RgbaImage> {
    let gpu = shared_gpu();
    let mut scene = scene_over_freedoom2("udmf.wad", pwad(textmap), "MAP01");
    let camera = scene.spawn;
    VIEWS
        .iter()
        .map(|&(_, mode, fov_deg)| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            let img = render_headless(gpu, &mut scene, &camera, &view, 0).unwrap();
            if let Some(dir) = support::renders_dir("udmf_props") {
                let tag: String =
                    textmap.bytes().fold(0u64, |h, b| h.wrapping_mul(31) ^ b as u64).to_string();
                let _ = img.save(dir.join(format!("{tag}-{}.png", fov_deg as u32 + mode as u32)));
            }
            img
        })
        .collect()
}

fn name(i: usize) -> &'static str {
    VIEWS[i].0
}

/// Which of the two colours a pixel shows: A is green, B blue in Freedoom's palette, whatever
/// the light, and smooth mode's filtering blends them only at the edges.
fn is_a(img: &RgbaImage, x: u32, y: u32) -> bool {
    let [_, g, b, _] = img.get_pixel(x, y).0;
    g > b
}

/// Changes between A and B along row `y` between columns `x0..x1`.
fn row_changes(img: &RgbaImage, y: u32, x0: u32, x1: u32) -> usize {
    (x0 + 1..x1).filter(|&x| is_a(img, x, y) != is_a(img, x - 1, y)).count()
}

/// Changes between A and B down column `x` between rows `y0..y1`.
fn column_changes(img: &RgbaImage, x: u32, y0: u32, y1: u32) -> usize {
    (y0 + 1..y1).filter(|&y| is_a(img, x, y) != is_a(img, x, y - 1)).count()
}

/// Rows `y0..y1` that are equal in both images.
fn rows_equal(a: &RgbaImage, b: &RgbaImage, y0: u32, y1: u32) -> bool {
    (y0..y1).all(|y| (0..a.width()).all(|x| a.get_pixel(x, y) == b.get_pixel(x, y)))
}

#[test]
fn part_offsets_add_to_the_sidedef_offsets() {
    let base = renders(&room(32, 255, "", ""));
    for (part, whole) in [
        ("offsetx_mid = 4.0;", "offsetx = 4;"),
        ("offsety_mid = 4.0;", "offsety = 4;"),
        ("offsetx = 2; offsetx_mid = 3.0; offsety_mid = -5.0;", "offsetx = 5; offsety = -5;"),
    ] {
        let by_part = renders(&room(32, 255, part, ""));
        let by_side = renders(&room(32, 255, whole, ""));
        // Offsets of other parts do not move the middle texture.
        let other = renders(&room(32, 255, &part.replace("_mid", "_top"), ""));
        for i in 0..VIEWS.len() {
            assert!(by_part[i] == by_side[i], "{}: {part} is not drawn as {whole}", name(i));
            assert!(by_part[i] != base[i], "{}: {part} moved nothing", name(i));
            assert!(
                other[i] == base[i] || part.contains("offsetx = 2"),
                "{}: top moved mid",
                name(i)
            );
        }
    }
}

#[test]
fn part_scales_shrink_the_texels() {
    // Close to the north wall, so it fills the view and each checker square spans pixels.
    let base = renders(&room(192, 255, "", ""));
    let wide = renders(&room(192, 255, "scalex_mid = 2.0;", ""));
    let tall = renders(&room(192, 255, "scaley_mid = 2.0;", ""));
    for i in 0..VIEWS.len() {
        let across =
            |img: &RgbaImage| (90..110).map(|y| row_changes(img, y, 40, 280)).sum::<usize>();
        let down =
            |img: &RgbaImage| (140..180).map(|x| column_changes(img, x, 20, 180)).sum::<usize>();
        let (a0, a1) = (across(&base[i]) as f64, across(&wide[i]) as f64);
        assert!((1.7..2.3).contains(&(a1 / a0)), "{}: x scale 2: {a0} -> {a1} changes", name(i));
        let (d0, d1) = (down(&base[i]) as f64, down(&tall[i]) as f64);
        assert!((1.7..2.3).contains(&(d1 / d0)), "{}: y scale 2: {d0} -> {d1} changes", name(i));
        // The other direction keeps its texel size.
        let d = down(&wide[i]) as f64;
        assert!((0.8..1.25).contains(&(d / d0)), "{}: x scale changed rows: {d0} -> {d}", name(i));
    }
}

#[test]
fn floor_ceiling_and_wall_light_change_only_their_surface() {
    // Rows 0..60 show only ceiling and wall, rows 140.. only floor and wall (the north wall
    // spans rows 71..129 from y = 32), so compare bands.
    let base = renders(&room(32, 160, "", ""));
    let floor = renders(&room(32, 160, "", "lightfloor = 64;"));
    let floor_abs = renders(&room(32, 160, "", "lightfloor = 160; lightfloorabsolute = true;"));
    let ceiling = renders(&room(32, 160, "", "lightceiling = -96;"));
    let wall = renders(&room(32, 160, "light = -64;", ""));
    let wall_abs = renders(&room(32, 160, "light = 160; lightabsolute = true;", ""));
    let no_contrast = renders(&room(32, 160, "nofakecontrast = true;", ""));
    for i in 0..VIEWS.len() {
        let n = name(i);
        assert!(rows_equal(&floor[i], &base[i], 0, 60), "{n}: lightfloor lit the ceiling");
        assert!(!rows_equal(&floor[i], &base[i], 150, 200), "{n}: lightfloor not drawn");
        assert!(floor_abs[i] == base[i], "{n}: absolute 160 in a sector lit 160 changed");
        assert!(rows_equal(&ceiling[i], &base[i], 150, 200), "{n}: lightceiling lit the floor");
        assert!(!rows_equal(&ceiling[i], &base[i], 0, 40), "{n}: lightceiling not drawn");
        // The wall's own light: its rows change, the flats' do not.
        assert!(!rows_equal(&wall[i], &base[i], 75, 125), "{n}: sidedef light not drawn");
        assert!(wall_abs[i] == base[i], "{n}: absolute 160 wall light in a sector lit 160");
        assert!(!rows_equal(&no_contrast[i], &base[i], 75, 125), "{n}: nofakecontrast not drawn");
        // Darker, not just different: the light level went down by 64.
        let sum = |img: &RgbaImage| -> u64 {
            (75..125)
                .flat_map(|y| (150..170).map(move |x| (x, y)))
                .map(|(x, y)| img.get_pixel(x, y).0[..3].iter().map(|&c| c as u64).sum::<u64>())
                .sum()
        };
        assert!(sum(&wall[i]) < sum(&base[i]), "{n}: light = -64 did not darken the wall");
    }
}

#[test]
fn flat_rotation_panning_and_scale_move_the_grid() {
    // From y = 32 the floor shows in rows 130..200; its middle columns see only floor.
    let floor_rows = 140..200u32;
    let uniform_rows = |img: &RgbaImage| {
        floor_rows.clone().filter(|&y| row_changes(img, y, 110, 210) == 0).count()
    };
    let changes =
        |img: &RgbaImage| floor_rows.clone().map(|y| row_changes(img, y, 110, 210)).sum::<usize>();
    let base = renders(&room(32, 255, "", ""));
    let turned = renders(&room(32, 255, "", "rotationfloor = 90.0;"));
    let panned = renders(&room(32, 255, "", "xpanningfloor = 16.0;"));
    let scaled = renders(&room(32, 255, "", "xscalefloor = 2.0;"));
    let ceiling_turned = renders(&room(32, 255, "", "rotationceiling = 90.0;"));
    for i in 0..VIEWS.len() {
        let n = name(i);
        // North-south stripes cross every floor row; turned 90 degrees they run east-west and
        // fill whole rows.
        assert_eq!(uniform_rows(&base[i]), 0, "{n}: stripes should cross the rows");
        let u = uniform_rows(&turned[i]);
        assert!(u * 10 >= floor_rows.len() * 8, "{n}: turned stripes fill only {u} rows");
        // Panning by half a stripe period moves the stripes, not how many there are.
        assert!(panned[i] != base[i], "{n}: panning moved nothing");
        let (c0, cp) = (changes(&base[i]) as f64, changes(&panned[i]) as f64);
        assert!((0.8..1.25).contains(&(cp / c0)), "{n}: panning changed stripe count {c0} -> {cp}");
        // Scale 2 halves the stripes' width: twice the changes.
        let cs = changes(&scaled[i]) as f64;
        assert!((1.7..2.3).contains(&(cs / c0)), "{n}: xscalefloor 2: {c0} -> {cs} changes");
        // The ceiling's rotation leaves the floor alone.
        assert!(rows_equal(&ceiling_turned[i], &base[i], 140, 200), "{n}: ceiling moved floor");
        assert!(!rows_equal(&ceiling_turned[i], &base[i], 0, 40), "{n}: ceiling not turned");
    }
}

#[test]
fn drawn_keys_leave_the_not_drawn_note() {
    let text = room(
        32,
        160,
        "offsetx_mid = 1.0; scalex_top = 2.0; light = 8; alpha = 0.5;",
        "lightfloor = 8; rotationfloor = 45.0; gravity = 0.5;",
    );
    let iwad = Wad::open(&freedoom2()).unwrap();
    let stack = WadStack::new(vec![iwad, Wad::from_bytes("udmf.wad", pwad(&text)).unwrap()]);
    let scene = build_scene(&stack, "MAP01").unwrap();
    let notes = &scene.facts.notes;
    let kept = notes.iter().find(|n| n.starts_with("UDMF properties kept")).unwrap();
    for drawn in ["offsetx_mid", "scalex_top", "light ", "lightfloor", "rotationfloor"] {
        assert!(!kept.contains(drawn), "{drawn} still listed: {kept}");
    }
    assert!(kept.contains("alpha") && kept.contains("gravity"), "{kept}");
    assert!(notes.iter().any(|n| n.contains("faithful mode draws them")), "{notes:?}");
}
