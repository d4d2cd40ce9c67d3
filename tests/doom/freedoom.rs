//! Real data: every map of Freedoom Phase 1 and 2 loads, builds and renders headless; the
//! subsector polygons add up to the sectors' areas; the CLI works on Freedoom and fails
//! cleanly on bad input; PWADs override the IWAD.
//!
//! Needs Debian's `freedoom` package (CI installs it). Without it these tests fail and say so.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use mapscope::formats::doom::archive::writer::{self, WadWriter};
use mapscope::formats::doom::{DoomLevel, MapData, WadStack, VIEW_HEIGHT};
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::shot::ShotMeta;
use serde_json::Value;
use support::doom_areas::{check_areas, AreaReport};
use support::{freedoom1, freedoom2, image_stats, mapscope, success, TempDir};

/// One headless device for every render in this test binary.
fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)")
    })
}

// ---------------------------------------------------------------------------------------------
// Every map renders.

fn render_every_map(wad: PathBuf, expect_first: &str, expect_count: usize) {
    let started = Instant::now();
    let source = mapscope::loader::open(std::slice::from_ref(&wad), &Default::default())
        .unwrap_or_else(|e| panic!("{}: {e:#}", wad.display()));
    let maps = source.maps();
    assert_eq!(maps.first().map(String::as_str), Some(expect_first), "{maps:?}");
    assert!(maps.len() >= expect_count, "{}: only {} maps: {maps:?}", wad.display(), maps.len());
    let view = ViewSettings { width: 160, height: 100, ..Default::default() };
    let mut failures = Vec::new();
    for map in &maps {
        let mut scene = match source.build(Some(map)) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{map}: build failed: {e:#}"));
                continue;
            }
        };
        if scene.triangle_count() == 0 || scene.sprites.is_empty() {
            failures.push(format!(
                "{map}: {} triangles, {} sprites",
                scene.triangle_count(),
                scene.sprites.len()
            ));
        }
        let camera = scene.spawn;
        let img = match render_headless(gpu(), &mut scene, &camera, &view, 0) {
            Ok(i) => i,
            Err(e) => {
                failures.push(format!("{map}: render failed: {e:#}"));
                continue;
            }
        };
        assert_eq!(img.dimensions(), (view.width, view.height));
        let stats = image_stats(&img);
        if !stats.looks_rendered() {
            failures.push(format!(
                "{map}: looks blank from the player start: {} colours, {:.0}% black",
                stats.distinct_colours,
                stats.black_fraction * 100.0
            ));
        }
    }
    eprintln!(
        "{}: {} maps built and rendered at {}x{} in {:.1} s",
        wad.display(),
        maps.len(),
        view.width,
        view.height,
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}:\n{}", wad.display(), failures.join("\n"));
}

#[test]
fn every_freedoom1_map_builds_and_renders() {
    render_every_map(freedoom1(), "E1M1", 36);
}

#[test]
fn every_freedoom2_map_builds_and_renders() {
    render_every_map(freedoom2(), "MAP01", 32);
}

// ---------------------------------------------------------------------------------------------
// Floors: the subsector polygons of a sector add up to its area (within 1%).

fn floor_areas_match(wad: PathBuf) {
    let stack = WadStack::open(std::slice::from_ref(&wad)).expect("opening Freedoom");
    let mut r = AreaReport::default();
    let names = stack.map_names();
    support::assert_at_least(
        names.len(),
        32,
        format!("{}: maps", wad.display()),
        support::FREEDOOM_HINT,
    );
    for name in names {
        let level = DoomLevel::load(&stack, &name)
            .unwrap_or_else(|e| panic!("{}: loading {name}: {e}", wad.display()));
        check_areas(&level, &mut r);
    }
    let skipped = r.skipped_outline + r.skipped_open_leaf + r.skipped_slivers;
    eprintln!(
        "{}: {} sectors; {} matched within 1%; skipped {skipped}: {} (outline unclosed, \
         self-referencing or sharing a subsector), {} (leaf left open by the node builder), {} \
         (partition slivers); {} mismatched; {} degenerate and {} unreached subsectors ({} empty \
         polygons inside matching sectors)",
        wad.display(),
        r.sectors,
        r.sectors - skipped - r.mismatched.len(),
        r.skipped_outline,
        r.skipped_open_leaf,
        r.skipped_slivers,
        r.mismatched.len(),
        r.degenerate_subsectors,
        r.unreached_subsectors,
        r.empty_in_matched,
    );
    assert!(
        r.mismatched.is_empty(),
        "sectors whose floors do not add up:\n{}",
        r.mismatched.join("\n")
    );
    assert!(skipped * 50 < r.sectors, "too many sectors skipped ({skipped} of {})", r.sectors);
    assert_eq!(r.unreached_subsectors, 0, "subsectors the node tree never reaches");
}

#[test]
fn freedoom1_floor_polygons_cover_their_sectors() {
    floor_areas_match(freedoom1());
}

#[test]
fn freedoom2_floor_polygons_cover_their_sectors() {
    floor_areas_match(freedoom2());
}

// ---------------------------------------------------------------------------------------------
// The command line on Freedoom.

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn list_prints_the_maps_in_order() {
    let out =
        success(&mapscope(["list".to_string(), s(&freedoom1())]), "mapscope list freedoom1.wad");
    // Each line: the name, a tab, the map's format and node format.
    assert!(out.lines().all(|l| l.ends_with("\tDoom, nodes: vanilla")), "{out}");
    let maps: Vec<&str> = out.lines().filter_map(|l| l.split('\t').next()).collect();
    assert_eq!(
        &maps[..9],
        ["E1M1", "E1M2", "E1M3", "E1M4", "E1M5", "E1M6", "E1M7", "E1M8", "E1M9"]
    );
    assert!(maps.len() >= 36 && maps.contains(&"E4M9"), "{maps:?}");
    let out =
        success(&mapscope(["list".to_string(), s(&freedoom2())]), "mapscope list freedoom2.wad");
    let maps: Vec<&str> = out.lines().filter_map(|l| l.split('\t').next()).collect();
    let expected: Vec<String> = (1..=32).map(|n| format!("MAP{n:02}")).collect();
    assert_eq!(maps, expected);
}

/// Player 1's eye and facing in E1M1, from the library.
fn e1m1_start() -> ([f64; 3], f64) {
    let stack = WadStack::open(&[freedoom1()]).unwrap();
    let level = DoomLevel::load(&stack, "E1M1").unwrap();
    let p = level.player_start.expect("E1M1 has a player 1 start");
    (p.eye().to_array(), p.angle)
}

#[test]
fn info_json_has_counts_and_spawn() {
    let out = success(
        &mapscope([
            "info".to_string(),
            s(&freedoom1()),
            "--map".into(),
            "e1m1".into(),
            "--json".into(),
        ]),
        "mapscope info --json",
    );
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("info --json: {e}\n{out}"));
    assert_eq!(v["format"], "Doom");
    assert_eq!(v["details"]["map format"], "Doom");
    assert_eq!(v["details"]["node format"], "vanilla");
    assert_eq!(v["map"], "E1M1");
    assert!(v["maps"].as_array().unwrap().iter().any(|m| m == "E1M9"));
    for key in
        ["vertices", "linedefs", "sidedefs", "sectors", "subsectors", "segs", "nodes", "things"]
    {
        assert!(v["counts"][key].as_u64().is_some_and(|n| n > 0), "counts.{key} in {v}");
    }
    assert!(v["triangles"].as_u64().is_some_and(|n| n > 100), "{v}");
    assert!(!v["textures_used"].as_array().unwrap().is_empty());
    let pos: Vec<f64> = v["spawn"]["position"]
        .as_array()
        .expect("spawn.position")
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let (eye, angle) = e1m1_start();
    assert_eq!(pos, eye, "spawn position: the player 1 start at eye height");
    assert_eq!(v["spawn"]["angle"].as_f64(), Some(angle));
    let floor = eye[2] - VIEW_HEIGHT;
    assert!(v["bounds"]["min"][2].as_f64().unwrap() <= floor, "{v}");
    assert!(v["bounds"]["max"][2].as_f64().unwrap() > floor, "{v}");
    let lo = v["bounds"]["min"].as_array().unwrap();
    let hi = v["bounds"]["max"].as_array().unwrap();
    for i in 0..2 {
        let (lo, hi) = (lo[i].as_f64().unwrap(), hi[i].as_f64().unwrap());
        assert!(lo < eye[i] && eye[i] < hi, "spawn outside the bounds: {v}");
    }
}

#[test]
fn render_stores_the_requested_camera() {
    let dir = TempDir::new("render-camera");
    let out_png = dir.join("cam.png");
    let (eye, _) = e1m1_start();
    let camera = [eye[0] + 16.5, eye[1] - 8.25, eye[2] + 10.0];
    let arg = format!("{},{},{}", camera[0], camera[1], camera[2]);
    let out = mapscope([
        "render".to_string(),
        s(&freedoom1()),
        "--map".into(),
        "E1M1".into(),
        "--camera".into(),
        arg,
        "--angle".into(),
        "-45".into(),
        "--pitch".into(),
        "5".into(),
        "--size".into(),
        "160x100".into(),
        "-o".into(),
        s(&out_png),
    ]);
    success(&out, "mapscope render --camera");
    let meta = ShotMeta::read(&out_png).unwrap();
    assert_eq!(meta.pose.position, camera);
    assert_eq!(meta.map, "E1M1");
    assert!((meta.pose.angle - 315.0).abs() < 1e-9, "angle {}", meta.pose.angle);
    assert!((meta.pose.pitch - 5.0).abs() < 1e-9, "pitch {}", meta.pose.pitch);
    assert_eq!(meta.fov, 90.0);
    assert_eq!(meta.mode, "faithful");
    assert!(meta.file.ends_with("freedoom1.wad"), "{}", meta.file);
    let img = image::open(&out_png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (160, 100));
    let stats = image_stats(&img);
    assert!(stats.looks_rendered(), "{stats:?}");
}

#[test]
fn render_look_at_aims_the_camera() {
    let dir = TempDir::new("render-look-at");
    let (eye, _) = e1m1_start();
    // North-west and 45 degrees down from the default (spawn) camera.
    let cases = [
        ([eye[0] - 100.0, eye[1] + 100.0, eye[2]], 135.0, 0.0),
        ([eye[0], eye[1] + 100.0, eye[2] - 100.0], 90.0, -45.0),
    ];
    for (i, (target, angle, pitch)) in cases.into_iter().enumerate() {
        let out_png = dir.join(&format!("look{i}.png"));
        let out = mapscope([
            "render".to_string(),
            s(&freedoom1()),
            "--look-at".into(),
            format!("{},{},{}", target[0], target[1], target[2]),
            "--size".into(),
            "160x100".into(),
            "--no-things".into(),
            "-o".into(),
            s(&out_png),
        ]);
        success(&out, "mapscope render --look-at");
        let meta = ShotMeta::read(&out_png).unwrap();
        assert_eq!(meta.pose.position, eye, "--look-at keeps the spawn position");
        assert!((meta.pose.angle - angle).abs() < 1e-9, "angle {} want {angle}", meta.pose.angle);
        assert!((meta.pose.pitch - pitch).abs() < 1e-9, "pitch {} want {pitch}", meta.pose.pitch);
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input: a non-zero exit and one line naming the file, never a panic.

fn expect_clean_failure(args: &[String], names: &str) {
    let out = mapscope(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let what = format!("mapscope {}", args.join(" "));
    assert!(
        !out.status.success(),
        "{what} succeeded; stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.status.code().is_some(), "{what} was killed by a signal: {}", out.status);
    assert!(!stderr.contains("panicked"), "{what} panicked:\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "{what}: want one error line, got:\n{stderr}");
    assert!(lines[0].contains(names), "{what}: the error does not name {names}:\n{stderr}");
}

/// A small valid PWAD: one lump.
fn tiny_pwad() -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.lump("DEMOLUMP", vec![7u8; 64]);
    w.to_bytes()
}

#[test]
fn bad_input_fails_with_one_line_naming_the_file() {
    let dir = TempDir::new("bad-input");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let mut cases: Vec<(PathBuf, &str)> = Vec::new();

    // Freedoom cut to its first megabyte: the directory lies past the end.
    let head = {
        use std::io::Read;
        let mut b = vec![0u8; 1 << 20];
        std::fs::File::open(freedoom1()).unwrap().read_exact(&mut b).unwrap();
        b
    };
    cases.push((write("cut.wad", &head), "cut.wad"));
    // A header cut short.
    cases.push((write("short.wad", &head[..6]), "short.wad"));
    // A directory entry whose lump reaches past the end of the file.
    let mut bytes = tiny_pwad();
    let dir_pos = i32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    bytes[dir_pos + 4..dir_pos + 8].copy_from_slice(&100_000i32.to_le_bytes());
    cases.push((write("past-eof.wad", &bytes), "past-eof.wad"));
    // A lump count far beyond what the file holds.
    let mut bytes = tiny_pwad();
    bytes[4..8].copy_from_slice(&i32::MAX.to_le_bytes());
    cases.push((write("count.wad", &bytes), "count.wad"));
    // Not a WAD at all, and an empty file.
    cases.push((write("notes.txt", b"this is not a level file\n"), "notes.txt"));
    cases.push((write("empty.wad", b""), "empty.wad"));
    // A file that does not exist.
    cases.push((dir.join("missing.wad"), "missing.wad"));

    for (path, name) in &cases {
        expect_clean_failure(&["info".into(), s(path)], name);
        expect_clean_failure(&["list".into(), s(path)], name);
    }
    let (cut, name) = &cases[0];
    let out_png = dir.join("never.png");
    expect_clean_failure(&["render".into(), s(cut), "-o".into(), s(&out_png)], name);
    assert!(!out_png.exists());
    // A PWAD after a good IWAD is named when it is the broken one.
    let (bad, name) = &cases[2];
    expect_clean_failure(&["info".into(), s(&freedoom2()), s(bad)], name);
}

#[test]
fn broken_map_in_a_pwad_is_reported_against_that_pwad() {
    let dir = TempDir::new("bad-map");
    let stack = WadStack::open(&[freedoom2()]).unwrap();
    let map = MapData::load(&stack, "MAP01").unwrap();
    // A linedef referencing a vertex that does not exist.
    let mut lines = map.linedefs.clone();
    lines[3].v2 = 60_000;
    let mut w = WadWriter::pwad();
    w.marker("MAP01");
    for (name, data) in writer::map_lumps(&map) {
        let data = if name == "LINEDEFS" { writer::linedefs_lump(&lines) } else { data };
        w.lump(name, data);
    }
    let pwad = dir.join("badlines.wad");
    std::fs::write(&pwad, w.to_bytes()).unwrap();
    let args = |cmd: &str| {
        vec![cmd.to_string(), s(&freedoom2()), s(&pwad), "--map".into(), "MAP01".into()]
    };
    expect_clean_failure(&args("info"), "badlines.wad");
    let mut render = args("render");
    render.extend(["-o".into(), s(&dir.join("x.png"))]);
    expect_clean_failure(&render, "badlines.wad");
}

/// An unknown `--map` is reported like any other bad input: one line naming the file.
#[test]
fn unknown_map_fails_cleanly() {
    let dir = TempDir::new("nope");
    expect_clean_failure(
        &["info".into(), s(&freedoom2()), "--map".into(), "NOPE".into()],
        "freedoom2.wad",
    );
    let png = dir.join("n.png");
    expect_clean_failure(
        &["render".into(), s(&freedoom1()), "--map".into(), "NOPE".into(), "-o".into(), s(&png)],
        "freedoom1.wad",
    );
    assert!(!png.exists());
}

// ---------------------------------------------------------------------------------------------
// PWADs override the IWAD.

#[test]
fn pwad_overrides_things_and_flats() {
    let dir = TempDir::new("pwad");
    let iwad = freedoom2();
    let stack = WadStack::open(std::slice::from_ref(&iwad)).unwrap();
    let original = DoomLevel::load(&stack, "MAP01").unwrap();
    let start = original.player_start.expect("MAP01 player 1 start");

    // Move player 1 to where player 2 starts (somewhere else in the level) and turn it.
    let mut map = original.map.clone();
    let p1 = map.things.iter().rposition(|t| t.kind == 1).unwrap();
    let p2 = map
        .things
        .iter()
        .find(|t| t.kind == 2 && (t.x as f64 / 65536.0, t.y as f64 / 65536.0) != (start.x, start.y))
        .or_else(|| {
            map.things.iter().find(|t| {
                t.kind >= 2000 && (t.x as f64 / 65536.0, t.y as f64 / 65536.0) != (start.x, start.y)
            })
        })
        .copied()
        .expect("another thing to move the start to");
    map.things[p1].x = p2.x;
    map.things[p1].y = p2.y;
    map.things[p1].angle = 270;
    // Replace the floor flat under the start with a solid one (palette index 176, red).
    let floor_flat = original.map.sectors[start.sector.unwrap()].floor_flat.clone();
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map);
    w.marker("FF_START").lump(&floor_flat, vec![176u8; 64 * 64]).marker("FF_END");
    let pwad = dir.join("tiny.wad");
    std::fs::write(&pwad, w.to_bytes()).unwrap();

    // The spawn moves (library and CLI agree).
    let both = WadStack::open(&[iwad.clone(), pwad.clone()]).unwrap();
    assert_eq!(both.map_names().first().map(String::as_str), Some("MAP01"));
    let moved = DoomLevel::load(&both, "MAP01").unwrap().player_start.unwrap();
    assert_eq!(
        (moved.x, moved.y, moved.angle),
        (p2.x as f64 / 65536.0, p2.y as f64 / 65536.0, 270.0)
    );
    let out = success(
        &mapscope([
            "info".to_string(),
            s(&iwad),
            s(&pwad),
            "--map".into(),
            "MAP01".into(),
            "--json".into(),
        ]),
        "mapscope info with a PWAD",
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    let pos: Vec<f64> =
        v["spawn"]["position"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(pos, moved.eye().to_array().to_vec());
    assert_eq!(v["spawn"]["angle"].as_f64(), Some(270.0));
    let out = success(
        &mapscope(["info".to_string(), s(&iwad), "--map".into(), "MAP01".into(), "--json".into()]),
        "mapscope info without the PWAD",
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["spawn"]["position"][0].as_f64(), Some(start.x));
    assert_eq!(v["spawn"]["position"][1].as_f64(), Some(start.y));

    // The flat is replaced: from the original start looking down, the floor changes.
    let render = |files: &[&Path], name: &str| {
        let png = dir.join(name);
        let mut args: Vec<String> = vec!["render".into()];
        args.extend(files.iter().map(|f| s(f)));
        let cam = format!("{},{},{}", start.x, start.y, start.floor + VIEW_HEIGHT);
        args.extend(
            [
                "--map",
                "MAP01",
                "--camera",
                &cam,
                "--pitch",
                "-80",
                "--no-things",
                "--size",
                "80x50",
                "-o",
            ]
            .map(String::from),
        );
        args.push(s(&png));
        success(&mapscope(&args), "mapscope render with a PWAD");
        image::open(&png).unwrap().to_rgba8()
    };
    let before = render(&[&iwad], "before.png");
    let after = render(&[&iwad, &pwad], "after.png");
    let changed = before.pixels().zip(after.pixels()).filter(|(a, b)| a != b).count();
    let total = (before.width() * before.height()) as usize;
    assert!(changed * 4 > total, "only {changed} of {total} pixels changed with the flat replaced");
}
