//! ZDoom slopes seen in renders of small UDMF rooms over Freedoom: a floor or ceiling tilted
//! by a plane equation meets the far wall at a height that changes across the screen, a
//! triangle's vertex height lifts its floor, and a `Plane_Align` line turns a step into a
//! ramp; a SetFloorSlope thing and a Plane_Copy line tilt floors too. Faithful frames of sloped
//! maps are the triangle canvas's (COLORMAP light, ordinary rasterisation), said in `info`; vgpdm02's Plane_Align crates tilt into the lava.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::{build_scene, WadStack};
use mapscope::render::{render_headless, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::{vertex_flags, CameraPose, Scene, SurfaceKind};
use support::doom_test_room::{add_check_textures, scene_over_freedoom2, shared_gpu};
use support::{freedoom2, realmap};

/// Freedoom palette indices: pure red (the floor) and pale yellow (the ceiling).
const RED: u8 = 176;
const YELLOW: u8 = 160;

/// A UDMF map: `vertices` (x, y, extra keys), `lines` (v1, v2, front sector, back sector,
/// extra keys; each line gets its own sidedefs showing the checker wall), `sectors`
/// (floor, ceiling, extra keys), with the player at (128, 32) facing north.
fn textmap(
    vertices: &[(i32, i32, &str)],
    lines: &[(u32, u32, u32, Option<u32>, &str)],
    sectors: &[(i32, i32, &str)],
) -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y, extra) in vertices {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; {extra} }}\n");
    }
    let mut sides = String::new();
    let mut n = 0;
    for (v1, v2, front, back, extra) in lines {
        let wall = |s: u32| {
            format!(
                "sidedef {{ sector = {s}; texturemiddle = \"{}\"; texturebottom = \"CHECKW\"; \
                 texturetop = \"CHECKW\"; }}\n",
                if back.is_some() { "-" } else { "CHECKW" }
            )
        };
        sides += &wall(*front);
        let mut l = format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {n}; {extra} ");
        n += 1;
        if let Some(b) = back {
            sides += &wall(*b);
            l += &format!("sideback = {n}; twosided = true; ");
            n += 1;
        } else {
            l += "blocking = true; ";
        }
        t += &l;
        t += "}\n";
    }
    t += &sides;
    for (floor, ceiling, extra) in sectors {
        t += &format!(
            "sector {{ heightfloor = {floor}; heightceiling = {ceiling}; texturefloor = \"REDFLAT\"; \
             textureceiling = \"YELFLAT\"; lightlevel = 255; {extra} }}\n"
        );
    }
    t += "thing { x = 128.0; y = 32.0; angle = 90; type = 1; skill1 = true; skill2 = true; \
          skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    t
}

/// The 256 x 256 room (clockwise, so each line's front faces in) with `sector` added to its
/// sector and `vertex0` to its south-west corner.
fn room(sector: &str, vertex0: &str) -> String {
    textmap(
        &[(0, 0, vertex0), (256, 0, ""), (256, 256, ""), (0, 256, "")],
        &[(0, 3, 0, None, ""), (3, 2, 0, None, ""), (2, 1, 0, None, ""), (1, 0, 0, None, "")],
        &[(0, 128, sector)],
    )
}

/// A UDMF plane equation for `which` ("floor" or "ceiling") at height `z = slope x + h`,
/// with a unit normal as editors write it (GZDoom keeps d as given).
fn plane(which: &str, slope: f64, h: f64) -> String {
    let len = (1.0 + slope * slope).sqrt();
    let (a, c, d) = if which == "floor" { (-slope, 1.0, -h) } else { (slope, -1.0, h) };
    format!(
        "{which}plane_a = {}; {which}plane_b = 0.0; {which}plane_c = {}; {which}plane_d = {};",
        a / len,
        c / len,
        d / len
    )
}

fn pwad(textmap: &str) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    w.lump("TEXTMAP", textmap.as_bytes().to_vec());
    w.lump("ENDMAP", Vec::new());
    add_check_textures(&mut w);
    w.marker("FF_START");
    w.lump("REDFLAT", vec![RED; 4096]);
    w.lump("YELFLAT", vec![YELLOW; 4096]);
    w.marker("FF_END");
    w.to_bytes()
}

fn scene(textmap: &str) -> Scene {
    scene_over_freedoom2("slopes.wad", pwad(textmap), "MAP01")
}

/// The ways a Doom frame is drawn: at vanilla's projection (the canvas for level maps, the
/// GPU for sloped ones), faithful at another field of view (the GPU), and smooth.
const VIEWS: [(&str, RenderMode, f64); 3] = [
    ("faithful 90°", RenderMode::Faithful, 90.0),
    ("faithful 100°", RenderMode::Faithful, 100.0),
    ("smooth", RenderMode::Smooth, 90.0),
];

/// The scene rendered at 320x200 in each of [`VIEWS`], things hidden, from the player start.
fn renders(scene: &mut Scene) -> Vec<RgbaImage> {
    let camera = scene.spawn;
    VIEWS
        .iter()
        .enumerate()
        .map(|(i, &(_, mode, fov_deg))| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            let img = render_headless(shared_gpu(), scene, &camera, &view, 0).unwrap();
            if let Some(dir) = support::renders_dir("slopes") {
                let _ = img.save(dir.join(format!("{}-{i}.png", scene.name)));
            }
            img
        })
        .collect()
}

fn rendered(textmap: &str, name: &str) -> Vec<RgbaImage> {
    let mut s = scene(textmap);
    s.name = name.into();
    renders(&mut s)
}

fn is_floor(img: &RgbaImage, x: u32, y: u32) -> bool {
    let [r, g, b, _] = img.get_pixel(x, y).0;
    r as u32 > 2 * g as u32 + 8 && r as u32 > 2 * b as u32 + 8
}

fn is_ceiling(img: &RgbaImage, x: u32, y: u32) -> bool {
    let [r, g, b, _] = img.get_pixel(x, y).0;
    let (r, g, b) = (r as u32, g as u32, b as u32);
    r > 2 * b + 8 && g > 2 * b + 8 && 2 * r > g && 2 * g > r + r / 2
}

/// The highest row of the floor run that starts at the bottom of column `x`.
fn floor_top(img: &RgbaImage, x: u32) -> u32 {
    let mut y = img.height() - 1;
    while y > 0 && is_floor(img, x, y - 1) {
        y -= 1;
    }
    y
}

/// The lowest row of the ceiling run that starts at the top of column `x`.
fn ceiling_bottom(img: &RgbaImage, x: u32) -> u32 {
    let mut y = 0;
    while y + 1 < img.height() && is_ceiling(img, x, y + 1) {
        y += 1;
    }
    y
}

/// How many separate runs of floor column `x` shows.
fn floor_runs(img: &RgbaImage, x: u32) -> usize {
    (0..img.height())
        .filter(|&y| is_floor(img, x, y) && (y == 0 || !is_floor(img, x, y - 1)))
        .count()
}

/// Whether a faithful frame at vanilla's projection from `camera` is vanilla's canvas's
/// (vanilla's walk and spans) rather than the triangle canvas's, which draws the frames
/// they cannot.
fn drawn_by_canvas(scene: &mut Scene, camera: &CameraPose) -> bool {
    let gpu = shared_gpu();
    let mut renderer = SceneRenderer::new(gpu, scene).unwrap();
    let state = scene.animator.initial();
    renderer.set_state(&state);
    let view = ViewSettings { show_sprites: false, ..Default::default() };
    renderer.render(gpu, camera, &view);
    renderer.used_family_canvas()
}

/// The scene's spawn camera turned to face the other way.
fn turned(scene: &Scene) -> CameraPose {
    CameraPose { yaw: scene.spawn.yaw + std::f64::consts::PI, ..scene.spawn }
}

#[test]
fn plane_equations_tilt_floor_and_ceiling() {
    let level = rendered(&room("", ""), "level");
    // The floor rises 1 unit in 4 eastwards, the ceiling falls as much.
    let mut tilted_scene = scene(&room(&plane("floor", 0.25, 0.0), ""));
    // The player stands on the slope: floor 32 at x = 128, eye 41 above it.
    let eye = tilted_scene.spawn.pos;
    assert!((eye.y - 73.0).abs() < 1e-3, "eye height {eye}");
    let spawn = tilted_scene.spawn;
    assert!(!drawn_by_canvas(&mut tilted_scene, &spawn), "a frame on a slope is not vanilla's");
    let note = tilted_scene.facts.notes.iter().find(|n| n.starts_with("slopes (")).unwrap();
    assert!(note.contains("1 UDMF plane equations") && note.contains("COLORMAP"), "{note}");
    let kept = tilted_scene.facts.notes.iter().find(|n| n.starts_with("UDMF properties kept"));
    assert!(kept.is_none_or(|k| !k.contains("floorplane")), "{kept:?}");
    tilted_scene.name = "floor".into();
    let floor = renders(&mut tilted_scene);
    let ceiling = rendered(&room(&plane("ceiling", -0.25, 128.0), ""), "ceiling");
    for (i, (view, _, _)) in VIEWS.iter().enumerate() {
        // Level: the north wall meets floor and ceiling at one row across the screen.
        let (l, r) = (floor_top(&level[i], 90), floor_top(&level[i], 230));
        assert!(l.abs_diff(r) <= 1, "{view}: level floor edge {l} vs {r}");
        let (l, r) = (ceiling_bottom(&level[i], 90), ceiling_bottom(&level[i], 230));
        assert!(l.abs_diff(r) <= 1, "{view}: level ceiling edge {l} vs {r}");
        // Tilted: the floor's edge is far higher on the right (east) than on the left.
        let (l, r) = (floor_top(&floor[i], 90), floor_top(&floor[i], 230));
        assert!(l > r + 20, "{view}: floor edge {l} (left) vs {r} (right)");
        // The ceiling's edge comes down towards the east.
        let (l, r) = (ceiling_bottom(&ceiling[i], 90), ceiling_bottom(&ceiling[i], 230));
        assert!(r > l + 20, "{view}: ceiling edge {l} (left) vs {r} (right)");
        // The edge moves steadily across the wall (a plane, not a step).
        let rows: Vec<u32> = (100..=220).step_by(30).map(|x| floor_top(&floor[i], x)).collect();
        assert!(rows.windows(2).all(|w| w[0] > w[1]), "{view}: floor edge rows {rows:?}");
    }
}

#[test]
fn vertex_height_lifts_a_triangle() {
    // A triangle with its apex north of the player; zfloor 64 at the apex.
    let tri = |apex: &str| {
        textmap(
            &[(0, 0, ""), (128, 256, apex), (256, 0, "")],
            &[(0, 1, 0, None, ""), (1, 2, 0, None, ""), (2, 0, 0, None, "")],
            &[(0, 128, "")],
        )
    };
    let level = rendered(&tri(""), "tri-level");
    let mut lifted_scene = scene(&tri("zfloor = 64.0;"));
    let spawn = lifted_scene.spawn;
    assert!(!drawn_by_canvas(&mut lifted_scene, &spawn));
    lifted_scene.name = "lifted".into();
    let lifted = renders(&mut lifted_scene);
    for (i, (view, _, _)) in VIEWS.iter().enumerate() {
        // Towards the apex the floor climbs: its far edge sits higher on the screen (the
        // eye rose only 8 units with the floor under the player).
        let (a, b) = (floor_top(&level[i], 160), floor_top(&lifted[i], 160));
        assert!(a > b + 10, "{view}: floor edge under the apex {a} level, {b} lifted");
    }
    // A four-sided sector ignores vertex heights, as ZDoom does.
    let quad = rendered(&room("", "zfloor = 64.0;"), "quad");
    let flat = rendered(&room("", ""), "quad-level");
    assert!(quad == flat, "zfloor changed a four-sided sector");
}

/// The room split at y = 128: south (floor 0) in front of the dividing line, north (floor 32)
/// behind it, its front sidedef's lower texture the step's riser; `special` on that line.
fn split_room(special: &str) -> String {
    textmap(
        &[(0, 0, ""), (256, 0, ""), (256, 128, ""), (256, 256, ""), (0, 256, ""), (0, 128, "")],
        &[
            (0, 5, 0, None, ""),
            (5, 4, 1, None, ""),
            (4, 3, 1, None, ""),
            (3, 2, 1, None, ""),
            (2, 1, 0, None, ""),
            (1, 0, 0, None, ""),
            (5, 2, 0, Some(1), special),
        ],
        &[(0, 128, ""), (32, 128, "")],
    )
}

#[test]
fn plane_align_turns_a_step_into_a_ramp() {
    let step = rendered(&split_room(""), "step");
    let mut ramp_scene = scene(&split_room("special = 181; arg0 = 2;"));
    let spawn = ramp_scene.spawn;
    assert!(!drawn_by_canvas(&mut ramp_scene, &spawn), "the ramp is in view");
    let note = ramp_scene.facts.notes.iter().find(|n| n.starts_with("slopes (")).unwrap();
    assert!(note.contains("1 Plane_Align lines"), "{note}");
    // No riser: the north floor starts at the south floor's height on the line.
    let risers = ramp_scene.world.chunks(3).filter(|t| {
        t[0].flags & vertex_flags::KIND_MASK == SurfaceKind::Wall as u32
            && t.iter().all(|v| (v.pos[2] + 128.0).abs() < 1e-3)
    });
    assert_eq!(risers.count(), 0, "a lower wall remains on the aligned line");
    ramp_scene.name = "ramp".into();
    let ramp = renders(&mut ramp_scene);
    for (i, (view, _, _)) in VIEWS.iter().enumerate() {
        // The step shows two floors with the riser between; the ramp one floor up to the
        // north wall, which it meets at the north floor's own height (32) as the step does.
        assert_eq!(floor_runs(&step[i], 160), 2, "{view}: the step");
        assert_eq!(floor_runs(&ramp[i], 160), 1, "{view}: the ramp");
        let (s, r) = (floor_top(&step[i], 160) as i32, floor_top(&ramp[i], 160) as i32);
        // The step's top run is the north floor; find its top.
        let north_top = (0..step[i].height()).find(|&y| is_floor(&step[i], 160, y)).unwrap();
        assert!(s > r, "{view}: the ramp's floor reaches higher ({s} vs {r})");
        assert!(
            (north_top as i32 - r).abs() <= 2,
            "{view}: the ramp meets the north wall at {r}, the north floor at {north_top}"
        );
    }
}

/// The room beside a separate square far east (sector 1, x 1000..1256, tagged 4, its floor
/// the plane equation rising 1 in 4 eastwards); `south_wall` added to the room's south line.
fn room_and_tagged_source(south_wall: &str) -> String {
    textmap(
        &[
            (0, 0, ""),
            (256, 0, ""),
            (256, 256, ""),
            (0, 256, ""),
            (1000, 0, ""),
            (1000, 256, ""),
            (1256, 256, ""),
            (1256, 0, ""),
        ],
        &[
            (0, 3, 0, None, ""),
            (3, 2, 0, None, ""),
            (2, 1, 0, None, ""),
            (1, 0, 0, None, south_wall),
            (4, 5, 1, None, ""),
            (5, 6, 1, None, ""),
            (6, 7, 1, None, ""),
            (7, 4, 1, None, ""),
        ],
        &[(0, 128, ""), (0, 128, &format!("{} id = 4;", plane("floor", 0.25, 0.0)))],
    )
}

#[test]
fn slope_things_and_plane_copy_tilt_floors() {
    let level = rendered(&room("", ""), "things-level");
    // SetFloorSlope (9502) in the middle of the room, facing west, tilted 76 degrees from
    // level: the floor rises about 1 in 4 eastwards through the thing.
    let set_slope =
        room("", "") + "thing { x = 128.0; y = 128.0; angle = 180; type = 9502; arg0 = 76; }\n";
    let mut thing_scene = scene(&set_slope);
    let note = thing_scene.facts.notes.iter().find(|n| n.starts_with("slopes (")).unwrap();
    assert!(note.contains("1 slope things"), "{note}");
    thing_scene.name = "set-slope".into();
    let thing = renders(&mut thing_scene);
    // Plane_Copy (118) on the south wall: the room's floor takes sector 4's sloped plane;
    // the same room without the special stays level.
    let uncopied = rendered(&room_and_tagged_source(""), "uncopied");
    let copied = rendered(&room_and_tagged_source("special = 118; arg0 = 4;"), "plane-copy");
    for (i, (view, _, _)) in VIEWS.iter().enumerate() {
        for (what, img) in [("level", &level[i]), ("uncopied", &uncopied[i])] {
            let (l, r) = (floor_top(img, 90), floor_top(img, 230));
            assert!(l.abs_diff(r) <= 1, "{view}: {what} floor edge {l} vs {r}");
        }
        for (what, img) in [("SetFloorSlope", &thing[i]), ("Plane_Copy", &copied[i])] {
            let (l, r) = (floor_top(img, 90), floor_top(img, 230));
            assert!(l > r + 20, "{view}: {what} floor edge {l} (left) vs {r} (right)");
        }
    }
}

#[test]
fn frames_away_from_slopes_stay_vanilla() {
    // The ramp room, the viewer in the south part facing south, away from the aligned line
    // and the ramp: the walk reaches no sloped sector, so the frame is the canvas's and the
    // same as the level step's; facing north it is the triangle canvas's.
    let split = |special: &str, light: i32| {
        split_room(special).replace("lightlevel = 255", &format!("lightlevel = {light}"))
    };
    // Light 144, so that light diminishing (which the canvas and the GPU compute apart)
    // shows in every column.
    let mut ramp = scene(&split("special = 181; arg0 = 2;", 144));
    let mut step = scene(&split("", 144));
    let south = turned(&ramp);
    assert!(drawn_by_canvas(&mut ramp, &south), "facing away from the ramp");
    let spawn = ramp.spawn;
    assert!(!drawn_by_canvas(&mut ramp, &spawn), "facing the ramp");
    let view = ViewSettings { show_sprites: false, ..Default::default() };
    let a = render_headless(shared_gpu(), &mut ramp, &south, &view, 0).unwrap();
    let b = render_headless(shared_gpu(), &mut step, &south, &view, 0).unwrap();
    assert!(a == b, "the south view changed with the ramp behind the viewer");
    // The ramp's own note says which frames are which.
    let note = ramp.facts.notes.iter().find(|n| n.starts_with("slopes (")).unwrap();
    assert!(note.contains("faithful frames that reach a sloped sector"), "{note}");
}

#[test]
fn level_udmf_maps_keep_the_vanilla_canvas() {
    let mut s = scene(&room("", ""));
    let spawn = s.spawn;
    assert!(drawn_by_canvas(&mut s, &spawn));
    assert!(!s.facts.notes.iter().any(|n| n.starts_with("slopes (")), "{:?}", s.facts.notes);
}

#[test]
fn vgpdm02_crates_tilt_into_the_lava() {
    // Four Plane_Align lines (arg0 2) tilt three crates' tops (sectors 37-39, floor -16)
    // down to the lava's floor (-24) along their lava sides.
    let stack = WadStack::open(&[freedoom2(), realmap("vgpdm02.wad")]).unwrap();
    let scene = build_scene(&stack, "VGPDM02").unwrap();
    let note = scene.facts.notes.iter().find(|n| n.starts_with("slopes (")).unwrap();
    assert!(note.contains("3 sloped floors") && note.contains("4 Plane_Align"), "{note}");
    for crate_sector in [37u32, 38, 39] {
        let heights: Vec<f32> = scene
            .world
            .chunks(3)
            .zip(&scene.parts.of_triangle)
            .filter(|(t, &s)| {
                s == crate_sector
                    && t[0].flags & vertex_flags::KIND_MASK == SurfaceKind::Flat as u32
            })
            .flat_map(|(t, _)| t.iter().map(|v| v.pos[1]))
            .filter(|&y| y < 0.0)
            .collect();
        let lo = heights.iter().copied().fold(f32::MAX, f32::min);
        let hi = heights.iter().copied().fold(f32::MIN, f32::max);
        assert!(
            (lo + 24.0).abs() < 0.01 && (hi + 16.0).abs() < 0.01,
            "sector {crate_sector}: {lo}..{hi}"
        );
    }
}
