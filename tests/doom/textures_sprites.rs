//! TEXTURES `Sprite` and `Graphic` definitions, seen in renders of a small UDMF room over
//! Freedoom: a `Sprite` named like a sprite lump (`COL1A0`, the tall green pillar's frame)
//! replaces Freedoom's frame, drawn at its `Offset` in faithful mode (vanilla's canvas and
//! the GPU) and smooth mode; a `Graphic` no wall texture shares a name with draws on the wall
//! naming it, and a wall texture or a `Graphic` no flat shares a name with draws on the floor
//! naming it, as do a flat or a sprite on a wall and a sprite on the floor (GZDoom's fallback
//! to a texture of any use).

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::{patch_lump, WadWriter};
use mapscope::render::{render_headless, ViewSettings};
use support::doom_test_room::{
    add_checker_and_solid_walls, scene_over_freedoom2, shared_gpu, R, THREE_WAYS,
};

/// A room 256 x 256 (floor 0, ceiling 128) of checker walls, the north one showing `north`,
/// its floor `floor`, with a tall green pillar (type 30) at its middle and the player at
/// (128, 32) facing it.
fn room(north: &str, floor: &str) -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (256, 0), (256, 256), (0, 256)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    for (i, (v1, v2)) in [(0, 3), (3, 2), (2, 1), (1, 0)].into_iter().enumerate() {
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {i}; blocking = true; }}\n");
    }
    for middle in ["CHECKW", north, "CHECKW", "CHECKW"] {
        t += &format!("sidedef {{ sector = 0; texturemiddle = \"{middle}\"; }}\n");
    }
    t += &format!(
        "sector {{ heightfloor = 0; heightceiling = 128; texturefloor = \"{floor}\"; \
         textureceiling = \"FLOOR0_1\"; lightlevel = 255; }}\n"
    );
    let every = "skill1 = true; skill2 = true; skill3 = true; skill4 = true; skill5 = true; \
                 single = true;";
    t += &format!("thing {{ x = 128.0; y = 32.0; angle = 90; type = 1; {every} }}\n");
    t += &format!("thing {{ x = 128.0; y = 160.0; angle = 90; type = 30; {every} }}\n");
    t
}

/// The room's PWAD with a second TEXTURES lump holding `textures` (each is read), a red flat
/// `REDFLT` and a checker flat `CHKFLT` after it, and a red sprite lump `REDSA0` (the solid
/// wall's 64 x 128 patch).
fn pwad(north: &str, floor: &str, textures: &str) -> Vec<u8> {
    pwad_with(north, floor, textures, "")
}

/// [`pwad`] with an `ANIMDEFS` lump holding `animdefs`.
fn pwad_with(north: &str, floor: &str, textures: &str, animdefs: &str) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    w.lump("TEXTMAP", room(north, floor).into_bytes());
    w.lump("ENDMAP", Vec::new());
    add_checker_and_solid_walls(&mut w);
    w.lump("TEXTURES", textures.as_bytes().to_vec());
    w.marker("FF_START");
    w.lump("REDFLT", vec![R; 4096]);
    w.lump("CHKFLT", (0..4096).map(|i| if (i / 64 + i % 64) % 2 == 0 { R } else { 0 }).collect());
    w.marker("FF_END");
    w.lump("ANIMDEFS", animdefs.as_bytes().to_vec());
    w.marker("SS_START");
    w.lump("REDSA0", patch_lump(64, 128, 0, 0, &[Some(R); 64 * 128]));
    w.marker("SS_END");
    w.to_bytes()
}

/// The room rendered each of the three ways, things shown (kept for looking at under
/// `MAPSCOPE_TEST_RENDERS`).
fn renders(tag: &str, north: &str, textures: &str) -> Vec<RgbaImage> {
    renders_on(tag, north, "FLOOR0_1", textures)
}

/// [`renders`] with the floor `floor`.
fn renders_on(tag: &str, north: &str, floor: &str, textures: &str) -> Vec<RgbaImage> {
    let mut scene = scene_over_freedoom2("sprites.wad", pwad(north, floor, textures), "MAP01");
    let camera = scene.spawn;
    THREE_WAYS
        .iter()
        .enumerate()
        .map(|(i, &(_, mode, fov_deg))| {
            let view = ViewSettings { mode, fov_deg, show_sprites: true, ..Default::default() };
            let img = render_headless(shared_gpu(), &mut scene, &camera, &view, 0).unwrap();
            if let Some(dir) = support::renders_dir("textures_sprites") {
                let _ = img.save(dir.join(format!("{tag}-{i}.png")));
            }
            img
        })
        .collect()
}

/// Pixels of `img` inside `x0..x1` x `y0..y1` showing palette colour [`R`] as Freedoom's
/// palette gives it at full light (within a small tolerance for smooth mode's filtering).
fn red_pixels(img: &RgbaImage, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> usize {
    let red = red_rgb();
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| {
            let p = img.get_pixel(x, y).0;
            (0..3).all(|c| (p[c] as i32 - red[c] as i32).abs() <= 12)
        })
        .count()
}

/// Freedoom's colour [`R`].
fn red_rgb() -> [u8; 3] {
    let wad = std::fs::read(support::freedoom2()).unwrap();
    let stack =
        mapscope::formats::doom::WadStack::new(vec![mapscope::formats::doom::Wad::from_bytes(
            "freedoom2.wad",
            wad,
        )
        .unwrap()]);
    let palette = mapscope::formats::doom::graphics::palette::load_palette(&stack).unwrap();
    palette[R as usize]
}

#[test]
fn a_textures_sprite_replaces_the_frame_of_its_name() {
    // A 24 x 48 block of the solid red patch, its bottom middle on the thing (Offset 12, 48).
    let sprite = "Sprite \"COL1A0\", 24, 48 { Offset 12, 48 Patch \"SOLIDP\", 0, 0 }\n";
    let plain = renders("pillar", "CHECKW", "");
    let defined = renders("sprite", "CHECKW", sprite);
    for (i, (before, after)) in plain.iter().zip(&defined).enumerate() {
        let (w, h) = (after.width(), after.height());
        // The pillar stands at the middle of the view, its foot below the horizon.
        let middle = (w / 2 - w / 8, w / 2 + w / 8);
        let red = red_pixels(after, middle, (0, h));
        assert!(red > 60, "{}: {red} red pixels where the sprite stands", THREE_WAYS[i].0);
        assert!(
            red_pixels(before, middle, (0, h)) < red / 10,
            "{}: Freedoom's pillar is as red",
            THREE_WAYS[i].0
        );
        // Placed by its offsets: centred on the thing, not hanging right of it.
        let left = red_pixels(after, (0, w / 2), (0, h));
        let right = red_pixels(after, (w / 2, w), (0, h));
        assert!(
            left.abs_diff(right) * 4 < red,
            "{}: {left} red pixels left of the middle, {right} right",
            THREE_WAYS[i].0
        );
        // Its bottom on the floor: the lowest red row is below the horizon.
        let lowest = (0..h).rev().find(|&y| red_pixels(after, middle, (y, y + 1)) > 0).unwrap();
        assert!(lowest > h / 2, "{}: sprite ends at row {lowest}", THREE_WAYS[i].0);
    }
}

#[test]
fn a_textures_graphic_draws_on_the_wall_naming_it() {
    let graphic = "Graphic \"REDGRAPH\", 64, 128 { Patch \"SOLIDP\", 0, 0 }\n";
    let without = renders("no-graphic", "REDGRAPH", "");
    let with = renders("graphic", "REDGRAPH", graphic);
    for (i, (before, after)) in without.iter().zip(&with).enumerate() {
        let (w, h) = (after.width(), after.height());
        // The north wall fills the middle third of the view above the pillar's top.
        let wall = ((w / 2 - w / 6, w / 2 + w / 6), (h / 4, h / 2 - h / 10));
        let red = red_pixels(after, wall.0, wall.1);
        let area = ((wall.0 .1 - wall.0 .0) * (wall.1 .1 - wall.1 .0)) as usize;
        assert!(red * 10 > area * 9, "{}: {red} of {area} wall pixels red", THREE_WAYS[i].0);
        // Without it, the missing texture's placeholder: half red, half black.
        let before = red_pixels(before, wall.0, wall.1);
        assert!(before * 10 < area * 7, "{}: {before} of {area} red", THREE_WAYS[i].0);
    }
}

#[test]
fn a_wall_texture_or_graphic_no_flat_names_draws_on_the_floor() {
    let graphic = "Graphic \"REDGRAPH\", 64, 128 { Patch \"SOLIDP\", 0, 0 }\n";
    // SOLIDW: the room's solid red wall texture; REDGRAPH: a graphic of the same patch.
    for (floor, textures) in [("SOLIDW", ""), ("REDGRAPH", graphic)] {
        let placeholder = renders_on("no-floor", "CHECKW", "NOSUCHFL", textures);
        let with = renders_on(&format!("floor-{floor}"), "CHECKW", floor, textures);
        for (i, (before, after)) in placeholder.iter().zip(&with).enumerate() {
            let (w, h) = (after.width(), after.height());
            // The floor fills the bottom of the view either side of the pillar's foot.
            let floor_area = ((0, w / 3), (h - h / 6, h));
            let red = red_pixels(after, floor_area.0, floor_area.1);
            let area = ((floor_area.0 .1 - floor_area.0 .0) * (floor_area.1 .1 - floor_area.1 .0))
                as usize;
            let way = THREE_WAYS[i].0;
            assert!(red * 10 > area * 9, "{floor} {way}: {red} of {area} floor pixels red");
            // A name nothing has: the placeholder, half red, half black.
            let before = red_pixels(before, floor_area.0, floor_area.1);
            assert!(before * 10 < area * 7, "{floor} {way}: placeholder {before} of {area} red");
        }
    }
}

#[test]
fn a_flat_or_sprite_no_wall_texture_names_draws_on_the_wall_and_a_sprite_on_the_floor() {
    let sprite = "Sprite \"REDSPR\", 64, 128 { Patch \"SOLIDP\", 0, 0 }\n";
    let placeholder = renders("no-wall", "NOSUCHTX", sprite);
    // REDFLT: a flat; REDSA0: a sprite lump; REDSPR: a TEXTURES sprite.
    for north in ["REDFLT", "REDSA0", "REDSPR"] {
        let with = renders(&format!("wall-{north}"), north, sprite);
        for (i, (before, after)) in placeholder.iter().zip(&with).enumerate() {
            let (w, h) = (after.width(), after.height());
            let wall = ((w / 2 - w / 6, w / 2 + w / 6), (h / 4, h / 2 - h / 10));
            let area = ((wall.0 .1 - wall.0 .0) * (wall.1 .1 - wall.1 .0)) as usize;
            let way = THREE_WAYS[i].0;
            let red = red_pixels(after, wall.0, wall.1);
            assert!(red * 10 > area * 9, "{north} {way}: {red} of {area} wall pixels red");
            let before = red_pixels(before, wall.0, wall.1);
            assert!(before * 10 < area * 7, "{north} {way}: placeholder {before} of {area} red");
        }
    }
    let with = renders_on("floor-sprite", "CHECKW", "REDSA0", "");
    for (i, after) in with.iter().enumerate() {
        let (w, h) = (after.width(), after.height());
        let floor_area = ((0, w / 3), (h - h / 6, h));
        let area =
            ((floor_area.0 .1 - floor_area.0 .0) * (floor_area.1 .1 - floor_area.1 .0)) as usize;
        let red = red_pixels(after, floor_area.0, floor_area.1);
        assert!(red * 10 > area * 9, "{}: {red} of {area} floor pixels red", THREE_WAYS[i].0);
    }
}

#[test]
fn an_animdefs_range_animates_the_floor() {
    let animdefs = "flat REDFLT range CHKFLT tics 4\n";
    let mut scene =
        scene_over_freedoom2("anim.wad", pwad_with("CHECKW", "REDFLT", "", animdefs), "MAP01");
    let camera = scene.spawn;
    for &(way, mode, fov_deg) in &THREE_WAYS {
        let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
        // Tics 1-4 show REDFLT, 5-8 CHKFLT (half its texels black), 9 REDFLT again.
        let red_at = |scene: &mut mapscope::scene::Scene, tic| {
            let img = render_headless(shared_gpu(), scene, &camera, &view, tic).unwrap();
            let (w, h) = img.dimensions();
            let floor = ((0, w / 3), (h - h / 6, h));
            let area = ((floor.0 .1 - floor.0 .0) * (floor.1 .1 - floor.1 .0)) as f64;
            red_pixels(&img, floor.0, floor.1) as f64 / area
        };
        let (first, second, again) =
            (red_at(&mut scene, 2), red_at(&mut scene, 6), red_at(&mut scene, 10));
        assert!(first > 0.9 && again > 0.9, "{way}: red floor at tics 2 and 10 ({first}, {again})");
        assert!(second < 0.7, "{way}: the checker flat at tic 6 ({second})");
    }
    assert!(scene.facts.notes.iter().any(|n| n.contains("ANIMDEFS: 1 animations")));
}
