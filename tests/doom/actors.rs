//! A mod's own things: a package of DECORATE and ZScript actors (with MAPINFO's DoomEdNums)
//! and PNG sprites, stacked on freedoom2 and a 256 x 256 UDMF room whose things use the
//! mod's editor numbers. Each actor is placed 128 units before the player and must be counted
//! in `info` and drawn in its red in each of the three ways a Doom frame is drawn; scale,
//! inheritance from vanilla's classes, `replaces`, translucency, a broken script and hostile
//! ones are checked the same way.

use crate::support;

use std::io::Write;
use std::path::PathBuf;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::png_lump;
use mapscope::render::{render_headless, ViewSettings};
use mapscope::scene::Scene;
use support::doom_test_room::{shared_gpu, udmf_room_pwad, THREE_WAYS};
use support::{freedoom2, mapscope, success, TempDir};

const RED: [u8; 4] = [230, 20, 20, 255];
const YELLOW: [u8; 4] = [240, 230, 10, 255];

/// Where the room's things stand: 128 units north of the player, who faces north.
const AHEAD: (i32, i32) = (128, 160);

/// The room (light 255, checkered walls) with things of `types` at `AHEAD`, spread 40 units
/// apart across.
fn room(types: &[u16]) -> Vec<u8> {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for (x, y) in [(0, 0), (0, 256), (256, 256), (256, 0)] {
        t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    }
    for i in 0..4 {
        t += &format!(
            "linedef {{ v1 = {i}; v2 = {}; sidefront = {i}; blocking = true; }}\n",
            (i + 1) % 4
        );
        t += "sidedef { sector = 0; texturemiddle = \"CHECKW\"; }\n";
    }
    t += "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"STRIPES\"; \
          textureceiling = \"STRIPES\"; lightlevel = 255; }\n";
    let first = AHEAD.0 - 20 * (types.len() as i32 - 1);
    for (i, kind) in types.iter().enumerate() {
        let x = first + 40 * i as i32;
        t += &format!(
            "thing {{ x = {x}.0; y = {}.0; angle = 270; type = {kind}; skill1 = true; \
             skill2 = true; skill3 = true; skill4 = true; skill5 = true; single = true; }}\n",
            AHEAD.1
        );
    }
    udmf_room_pwad(t).to_bytes()
}

/// A 32 x 64 sprite of one colour standing on its origin.
fn sprite(rgba: [u8; 4]) -> Vec<u8> {
    png_lump(32, 64, &rgba.repeat(32 * 64), Some((16, 64))).expect("a PNG")
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// `room.wad` with `types` and `actors.pk3` of `members` plus the red (`RPSTA0`) and yellow
/// (`RPSTB0`) sprites, in `dir`: the files to stack on freedoom2.
fn files(dir: &TempDir, types: &[u16], members: &[(&str, &[u8])]) -> [PathBuf; 3] {
    let (red, yellow) = (sprite(RED), sprite(YELLOW));
    let mut all: Vec<(&str, &[u8])> =
        vec![("sprites/RPSTA0.png", &red), ("sprites/RPSTB0.png", &yellow)];
    all.extend_from_slice(members);
    let room_path = dir.join("room.wad");
    std::fs::write(&room_path, room(types)).unwrap();
    let pk3 = dir.join("actors.pk3");
    std::fs::write(&pk3, zip(&all)).unwrap();
    [freedoom2(), room_path, pk3]
}

fn build(files: &[PathBuf]) -> Scene {
    let source = mapscope::loader::open(files, &Default::default()).unwrap();
    source.build(Some("MAP01")).unwrap_or_else(|e| panic!("{e:#}"))
}

fn count(scene: &Scene, key: &str) -> u64 {
    scene.facts.counts.iter().find(|(k, _)| k == key).map_or(0, |(_, v)| *v)
}

fn has_note(scene: &Scene, part: &str) -> bool {
    scene.facts.notes.iter().any(|n| n.contains(part))
}

/// The scene from its player start in each of the three ways, things shown; with
/// `MAPSCOPE_TEST_RENDERS` set, written to `actors/NAME-N.png` for looking at.
fn renders(scene: &mut Scene, name: &str) -> Vec<RgbaImage> {
    let camera = scene.spawn;
    THREE_WAYS
        .iter()
        .enumerate()
        .map(|(i, &(_, mode, fov_deg))| {
            let view = ViewSettings { mode, fov_deg, ..Default::default() };
            let img = render_headless(shared_gpu(), scene, &camera, &view, 0).unwrap();
            if let Some(dir) = support::renders_dir("actors") {
                let _ = img.save(dir.join(format!("{name}-{i}.png")));
            }
            img
        })
        .collect()
}

/// Pixels whose red clearly dominates (the walls and flats are green and blue).
fn red(img: &RgbaImage) -> usize {
    img.pixels()
        .filter(|p| p[0] as i32 > p[1] as i32 + 60 && p[0] as i32 > p[2] as i32 + 60)
        .count()
}

/// Pixels that are yellow (red and green, less blue).
fn yellow(img: &RgbaImage) -> usize {
    img.pixels().filter(|p| p[0] > 150 && p[1] > 150 && (p[2] as i32) < p[0] as i32 - 60).count()
}

fn reds(imgs: &[RgbaImage]) -> Vec<usize> {
    imgs.iter().map(red).collect()
}

const POSTS: &str = "// The mod's posts.\nactor RedPost 20001\n{\n  Radius 16\n  Height 64\n  \
                     States\n  {\n  Spawn:\n    RPST A -1\n    Stop\n  }\n}\n";

#[test]
fn a_decorate_actor_from_a_package_is_placed_and_drawn() {
    let dir = TempDir::new("actors-decorate");
    let decorate = "#include \"actors/posts.txt\"\n";
    let with = files(
        &dir,
        &[20001],
        &[("DECORATE.txt", decorate.as_bytes()), ("actors/posts.txt", POSTS.as_bytes())],
    );
    let mut scene = build(&with);
    assert_eq!(count(&scene, "things_spawned"), 1, "{:#?}", scene.facts.notes);
    assert_eq!(count(&scene, "actor_classes"), 1);
    assert!(!has_note(&scene, "unknown thing types"), "{:#?}", scene.facts.notes);
    assert!(!has_note(&scene, "actors/"), "the member is read: {:#?}", scene.facts.notes);
    let drawn = reds(&renders(&mut scene, "decorate"));

    // Without the package the number is unknown and nothing red is drawn.
    let mut plain = build(&with[..2]);
    assert_eq!(count(&plain, "things_spawned"), 0);
    assert!(has_note(&plain, "unknown thing types skipped: 20001"), "{:#?}", plain.facts.notes);
    let none = reds(&renders(&mut plain, "decorate-without"));
    eprintln!("red pixels: {drawn:?} with the package, {none:?} without");
    for (i, (&d, &n)) in drawn.iter().zip(&none).enumerate() {
        assert!(d > 1500 && n < 20, "{}: {d} red pixels with, {n} without", THREE_WAYS[i].0);
    }

    // The command line says so too.
    let args: Vec<String> = with.iter().map(|p| p.display().to_string()).collect();
    let out = success(&mapscope(["info", &args[0], &args[1], &args[2], "--map", "MAP01"]), "info");
    assert!(out.contains("things_spawned: 1") && out.contains("actor_classes: 1"), "{out}");
}

#[test]
fn a_zscript_class_with_a_doomednum_draws_at_its_scale() {
    let dir = TempDir::new("actors-zscript");
    let zscript =
        "version \"4.10\"\nclass BigPost : Actor\n{\n  Default { Height 64; Scale 2.0; }\n  \
                   States { Spawn: RPST A -1; Stop; }\n}\n";
    let mapinfo = "DoomEdNums\n{\n  20002 = BigPost\n}\n";
    let decorate = format!("{POSTS}actor WidePost : RedPost 20008 {{ XScale 2 YScale 0.5 }}\n");
    let members: [(&str, &[u8]); 3] = [
        ("zscript.zs", zscript.as_bytes()),
        ("MAPINFO.txt", mapinfo.as_bytes()),
        ("DECORATE", decorate.as_bytes()),
    ];
    // Each post's red area in the three ways and in the GPU's own passes (`--renderer gpu`:
    // the billboards of shaders/world.wgsl): its pixels, width and height.
    let measure = |kind: u16, name: &str| -> Vec<(usize, u32, u32)> {
        let stack = files(&dir, &[kind], &members);
        let mut scene = build(&stack);
        assert_eq!(count(&scene, "things_spawned"), 1, "{:#?}", scene.facts.notes);
        let mut imgs = renders(&mut scene, name);
        imgs.push(cli_render(&dir, name, &stack));
        imgs.iter().map(|img| (red(img), red_box(img).0, red_box(img).1)).collect()
    };
    let one = measure(20001, "scale1");
    let big = measure(20002, "scale2");
    let wide = measure(20008, "wide");
    eprintln!("red (pixels, width, height): scale 1 {one:?}, 2 {big:?}, 2 x 0.5 {wide:?}");
    let ways = THREE_WAYS.iter().map(|w| w.0).chain(["the GPU's passes"]);
    for (i, way) in ways.enumerate() {
        let ratio = |a: u32, b: u32| a as f64 / b.max(1) as f64;
        let pixels = big[i].0 as f64 / one[i].0.max(1) as f64;
        assert!(one[i].0 > 1500 && (3.3..4.7).contains(&pixels), "{way}: scale 2 {pixels}x");
        let (w, h) = (ratio(wide[i].1, one[i].1), ratio(wide[i].2, one[i].2));
        assert!((1.8..2.2).contains(&w) && (0.4..0.6).contains(&h), "{way}: {w} x {h}");
    }
}

/// The red pixels' bounding box: width and height.
fn red_box(img: &RgbaImage) -> (u32, u32) {
    let is_red =
        |p: &image::Rgba<u8>| p[0] as i32 > p[1] as i32 + 60 && p[0] as i32 > p[2] as i32 + 60;
    let pts: Vec<(u32, u32)> =
        img.enumerate_pixels().filter(|(_, _, p)| is_red(p)).map(|(x, y, _)| (x, y)).collect();
    let span = |f: fn(&(u32, u32)) -> u32| {
        let (lo, hi) = (pts.iter().map(f).min(), pts.iter().map(f).max());
        lo.zip(hi).map_or(0, |(lo, hi)| hi - lo + 1)
    };
    (span(|p| p.0), span(|p| p.1))
}

/// `mapscope render FILES --renderer gpu` at 320x200.
fn cli_render(dir: &TempDir, name: &str, files: &[PathBuf]) -> RgbaImage {
    let out = dir.join(&format!("{name}-gpu.png"));
    let mut args: Vec<String> = vec!["render".into()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    args.extend(
        ["--map", "MAP01", "--size", "320x200", "--renderer", "gpu", "-o"].map(String::from),
    );
    args.push(out.display().to_string());
    success(&mapscope(&args), "render --renderer gpu");
    let img = image::open(&out).unwrap().to_rgba8();
    if let Some(dir) = support::renders_dir("actors") {
        let _ = img.save(dir.join(format!("{name}-gpu.png")));
    }
    img
}

#[test]
fn inheritance_from_vanilla_and_replaces_change_what_spawns() {
    let dir = TempDir::new("actors-inherit");
    let decorate = format!(
        "{POSTS}\n// A barrel twice the size, with the barrel's frames.\n\
         actor BigBarrel : ExplosiveBarrel 20003 {{ Scale 2 }}\n\
         // The floor lamp (2028) spawns the post now.\n\
         actor LampPost : RedPost replaces Column {{ }}\n\
         // Red, then yellow, and again.\n\
         actor Blinker 20004 {{ States {{ Spawn:\n RPST A 4\n RPST B 4\n Loop }} }}\n"
    );
    let with = files(&dir, &[20003, 2028, 20004], &[("DECORATE", decorate.as_bytes())]);
    let scene = build(&with);
    assert_eq!(count(&scene, "things_spawned"), 3, "{:#?}", scene.facts.notes);
    let texture =
        |i: usize| scene.textures[scene.sprites[i].views[0].texture as usize].name.clone();
    assert_eq!((texture(0), scene.sprites[0].scale), ("BAR1A0".to_string(), [2.0, 2.0]));
    assert_eq!(texture(1), "RPSTA0", "2028 spawns the replacement");
    assert_eq!(texture(2), "RPSTA0");
    // The barrel's and the blinker's frames change with time.
    assert_eq!(count(&scene, "things_animated"), 2);

    // The blinker shows red, then yellow: the animator's frames reach the pixels.
    let dir2 = TempDir::new("actors-blink");
    let mut blink = build(&files(&dir2, &[20004], &[("DECORATE", decorate.as_bytes())]));
    let camera = blink.spawn;
    let view = ViewSettings::default();
    let shown: Vec<(usize, usize)> = (0..16)
        .map(|tic| {
            let img = render_headless(shared_gpu(), &mut blink, &camera, &view, tic).unwrap();
            (red(&img), yellow(&img))
        })
        .collect();
    assert!(shown.iter().any(|&(r, y)| r > 1500 && y < 20), "{shown:?}");
    assert!(shown.iter().any(|&(r, y)| y > 1500 && r < 20), "{shown:?}");
}

#[test]
fn translucent_actors_blend_on_vanillas_canvas() {
    let dir = TempDir::new("actors-alpha");
    let decorate = format!(
        "{POSTS}\nactor GhostPost : RedPost 20005 {{ RenderStyle Translucent Alpha 0.5 }}\n"
    );
    let mut ghost = build(&files(&dir, &[20005], &[("DECORATE", decorate.as_bytes())]));
    assert!(
        has_note(&ghost, "translucent and additive actors (GhostPost)"),
        "{:#?}",
        ghost.facts.notes
    );
    let ghost_imgs = renders(&mut ghost, "translucent");
    let mut opaque = build(&files(&dir, &[20001], &[("DECORATE", decorate.as_bytes())]));
    let opaque_imgs = renders(&mut opaque, "opaque");
    let mut empty = build(&files(&dir, &[], &[("DECORATE", decorate.as_bytes())]));
    let behind = renders(&mut empty, "empty");
    // On vanilla's canvas the post's pixels are neither the post's red nor the wall behind.
    let changed =
        |a: &RgbaImage, b: &RgbaImage| a.pixels().zip(b.pixels()).filter(|(p, q)| p != q).count();
    let (blended, solid) =
        (changed(&ghost_imgs[0], &behind[0]), changed(&opaque_imgs[0], &behind[0]));
    eprintln!(
        "canvas: {blended} pixels changed translucent, {solid} opaque; red {}",
        red(&ghost_imgs[0])
    );
    assert!(blended * 10 > solid * 9 && red(&ghost_imgs[0]) * 10 < red(&opaque_imgs[0]));
    // The GPU's frames draw it opaque (said in the note).
    for i in 1..THREE_WAYS.len() {
        assert!(red(&ghost_imgs[i]) > 1500, "{}", THREE_WAYS[i].0);
    }
}

#[test]
fn a_broken_script_is_a_note_naming_file_and_line_and_the_rest_still_spawns() {
    let dir = TempDir::new("actors-broken");
    let posts = format!(
        "{POSTS}actor Broken 20006\n{{\n  States\n  {{\n  Spawn:\n    RPST A\n  }}\n}}\n\
         actor After : RedPost 20007 {{ }}\n"
    );
    let members: [(&str, &[u8]); 2] =
        [("DECORATE", b"#include \"actors/posts.txt\""), ("actors/posts.txt", posts.as_bytes())];
    let mut scene = build(&files(&dir, &[20001, 20006, 20007], &members));
    let note = scene.facts.notes.iter().find(|n| n.contains("posts.txt"));
    let note = note.unwrap_or_else(|| panic!("{:#?}", scene.facts.notes));
    assert!(
        note.contains("actors.pk3:actors/posts.txt: DECORATE at offset")
            && note.contains("line 19: expected the duration")
            && note.contains("resumes"),
        "{note}"
    );
    // RedPost before the error and After past it are placed; Broken is unknown.
    assert_eq!(count(&scene, "things_spawned"), 2, "{:#?}", scene.facts.notes);
    assert!(has_note(&scene, "unknown thing types skipped: 20006"));
    let drawn = reds(&renders(&mut scene, "broken"));
    assert!(drawn[0] > 3000, "two posts drawn: {drawn:?}");
}

#[test]
fn hostile_scripts_give_clear_notes_and_the_level_still_loads() {
    let dir = TempDir::new("actors-hostile");
    let deep = format!(
        "class Deep : Actor {{ void F() {} }}\nclass Fine : Actor {{ States {{ Spawn: RPST A -1; Stop; }} }}\n",
        "{".repeat(100_000)
    );
    let bomb = format!(
        "actor Bomb 20010 {{ States {{ Spawn: RPST {} 1 Loop }} }}\n",
        "A".repeat(1_100_000)
    );
    let decorate = format!(
        "#include \"DECORATE\"\n#include \"actors/inc0.txt\"\n{POSTS}\
         actor Huge 99999999999999999999 {{ }}\nactor Long 20011 {{ States {{ Spawn: RPST A 99999999999 Stop }} }}\n\
         actor Wide 20012 {{ Scale 100000000 States {{ Spawn: RPST A -1 Stop }} }}\n{bomb}"
    );
    let includes: Vec<(String, String)> = (0..20)
        .map(|i| (format!("actors/inc{i}.txt"), format!("#include \"actors/inc{}.txt\"\n", i + 1)))
        .collect();
    let mut members: Vec<(&str, &[u8])> = vec![
        ("DECORATE", decorate.as_bytes()),
        ("ZSCRIPT", deep.as_bytes()),
        ("MAPINFO", b"DoomEdNums { 20013 = Fine }"),
    ];
    members.extend(includes.iter().map(|(p, t)| (p.as_str(), t.as_bytes())));
    let started = std::time::Instant::now();
    let scene = build(&files(&dir, &[20001, 20012, 20013], &members));
    let notes = &scene.facts.notes;
    for part in [
        "includes itself (an include loop)",
        "includes nest more than 16 deep",
        "brackets nest more than 256 deep",
        "is not 1..32767",
        "out of range",
        "more than 1048576 states",
        "scale 100000000 drawn as 64",
    ] {
        assert!(notes.iter().any(|n| n.contains(part)), "no note with {part:?}: {notes:#?}");
    }
    // The good actors around the bad ones: the post, the wide one and ZScript's Fine.
    assert_eq!(count(&scene, "things_spawned"), 3, "{notes:#?}");
    assert!(started.elapsed().as_secs() < 30, "took {:?}", started.elapsed());
}
