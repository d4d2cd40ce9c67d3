//! The viewer's state without a window: bad files and maps keep the level, errors reach
//! the overlay.

use super::*;
use crate::app::overlay::{self, OverlayInfo};
use crate::formats::doom::archive::writer::{things_lump, WadWriter};
use std::time::Duration;
use winit::keyboard::KeyCode;

/// A scratch folder removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("mapscope-viewer-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The viewer's state on `files`, without a window.
fn app(files: Vec<PathBuf>) -> App {
    App::new(files, OpenOptions::default(), Default::default()).unwrap()
}

/// A PWAD adding MAP02, a map marker with only THINGS: listed, but it cannot be built.
fn broken_map_pwad() -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.marker("MAP02").lump("THINGS", things_lump(&[]));
    w.to_bytes()
}

#[test]
fn a_dropped_file_that_fails_keeps_the_level_and_shows_why() {
    let tmp = Scratch::new("drop");
    let demo = crate::demo::demo_wad_path().unwrap();
    let mut app = app(vec![demo.clone()]);
    let (name, triangles) = (app.scene.name.clone(), app.scene.world.len());
    app.fly.pose.pos += glam::DVec3::X;
    let pose = app.fly.pose;

    for (file, bytes) in [
        ("junk.wad", &b"PWAD\xff\xff\xff\x7f\x0c\0\0\0"[..]),
        ("empty.lev", &b""[..]),
        ("truncated.png", &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..]),
    ] {
        let path = tmp.file(file, bytes);
        app.open_dropped(path.clone());
        let error = app.error.clone().unwrap_or_else(|| panic!("{file}: no error shown"));
        assert!(error.contains(file), "{file}: the error should name the file: {error}");
        assert_eq!((app.scene.name.as_str(), app.scene.world.len()), (name.as_str(), triangles));
        assert_eq!(app.files, vec![demo.clone()], "{file}: the level's files changed");
        assert_eq!(app.fly.pose, pose, "{file}: the camera moved");
        assert!(app.reference.is_none(), "{file}: a reference was set");
    }

    // A good file replaces the level and clears the error.
    let good = tmp.file("good.wad", &std::fs::read(&demo).unwrap());
    app.open_dropped(good.clone());
    assert_eq!(app.error, None);
    assert_eq!(app.files, vec![good]);
    assert_eq!(app.fly.pose, app.scene.spawn);
}

#[test]
fn a_mod_folder_dropped_on_an_iwads_level_opens_over_that_iwad() {
    let tmp = Scratch::new("drop-folder");
    let demo = crate::demo::demo_wad_path().unwrap();
    let mut app = app(vec![demo.clone()]);
    // The mod: the demo's first map again as maps/MOD01.wad.
    let iwad = crate::formats::doom::archive::wad::Wad::open(&demo).unwrap();
    let first = &app.maps[0];
    let at = iwad.lumps().iter().position(|l| l.name == *first).unwrap();
    let mut w = WadWriter::pwad();
    w.marker(first);
    for (i, info) in iwad.lumps().iter().enumerate().skip(at + 1).take(10) {
        w.lump(&info.name, iwad.lump(i).unwrap().data.to_vec());
    }
    std::fs::create_dir_all(tmp.0.join("mymod/maps")).unwrap();
    tmp.file("mymod/maps/MOD01.wad", &w.to_bytes());
    let folder = tmp.0.join("mymod");

    app.open_dropped(folder.clone());
    assert_eq!(app.error, None);
    assert_eq!(app.files, vec![demo.clone(), folder.clone()], "stacked on the IWAD");
    assert!(app.maps.iter().any(|m| m == "MOD01"), "{:?}", app.maps);

    // A folder that is no mod is a level of its own, and fails as one, naming the folder.
    let junk = tmp.0.join("junk");
    std::fs::create_dir_all(&junk).unwrap();
    app.open_dropped(junk.clone());
    let error = app.error.clone().expect("an error shown");
    assert!(error.contains("junk/: a folder, but neither a GZDoom mod"), "{error}");
    assert_eq!(app.files, vec![demo, folder]);
}

#[test]
fn a_map_that_fails_to_build_keeps_the_current_one() {
    let tmp = Scratch::new("cycle");
    let demo = crate::demo::demo_wad_path().unwrap();
    let pwad = tmp.file("broken.wad", &broken_map_pwad());
    let mut app = app(vec![demo, pwad]);
    assert_eq!(app.maps, ["MAP01", "MAP02"]);
    assert_eq!(app.scene.name, "MAP01");

    for step in [1, -1] {
        app.cycle_map(step);
        let error = app.error.clone().expect("an error shown");
        assert!(error.starts_with("MAP02: "), "{error}");
        assert_eq!((app.scene.name.as_str(), app.map_index), ("MAP01", 0));
    }
}

/// A level source with a bug.
struct Panics;

impl LevelSource for Panics {
    fn game(&self) -> crate::scene::Game {
        crate::scene::Game::Doom
    }
    fn maps(&self) -> Vec<String> {
        vec!["MAP01".into()]
    }
    fn build(&self, _map: Option<&str>) -> Result<Scene> {
        panic!("index out of bounds")
    }
}

#[test]
fn a_level_that_panics_while_loading_is_an_error() {
    let files = [PathBuf::from("x.wad")];
    let Err(err) = build_map(&Panics, &files, "MAP01") else { panic!("built") };
    assert_eq!(format!("{err}"), "internal error while loading x.wad: index out of bounds");
    let files = [PathBuf::from("a.wad"), PathBuf::from("b.wad")];
    let err = panic_error(&files, Box::new(String::from("overflow")));
    assert_eq!(format!("{err}"), "internal error while loading a.wad, b.wad: overflow");
}

#[test]
fn the_overlay_shows_the_error() {
    let ctx = egui::Context::default();
    let info = OverlayInfo {
        title: "MAP01 (Doom)",
        frame_ms: 16.0,
        position: [0.0; 3],
        angle: 0.0,
        pitch: 0.0,
        speed: 1.0,
        walking: false,
        tic: 0,
        captured: false,
        message: None,
        error: Some("bad.wad: WAD header: directory at offset 12 past the end"),
        game_screen: None,
        frame_size: (320, 200),
        automap: None,
    };
    let (shapes, mut textures) = overlay::opened(&ctx, &info, Default::default());
    textures.clear();
    let texts: Vec<String> = shapes
        .iter()
        .filter_map(|s| match &s.shape {
            egui::Shape::Text(t) => Some(t.galley.text().to_string()),
            _ => None,
        })
        .collect();
    assert!(
        texts.iter().any(|t| t.contains("directory at offset 12 past the end")),
        "overlay texts: {texts:?}"
    );
}

#[test]
fn a_key_tap_between_frames_moves_the_camera_for_as_long_as_it_was_held() {
    let demo = crate::demo::demo_wad_path().unwrap();
    let mut app = app(vec![demo]);
    let t0 = Instant::now();
    app.moved_at = t0;
    let (start, right) = (app.fly.pose.pos, app.fly.pose.right());
    // D down and up half a second later, both before the next frame.
    app.move_key(KeyCode::KeyD, true, t0);
    app.move_key(KeyCode::KeyD, false, t0 + Duration::from_millis(500));
    let moved = app.fly.pose.pos - start;
    let expected = right * app.fly.speed * 0.5;
    assert!((moved - expected).length() < 1e-6, "moved {moved}, expected {expected}");
    // The next frame, with no key held, moves nothing more.
    app.move_camera(t0 + Duration::from_millis(700));
    assert!((app.fly.pose.pos - start - expected).length() < 1e-6);
}

#[test]
fn a_reference_opened_with_its_status_bar_is_compared_above_it() {
    let demo = crate::demo::demo_wad_path().unwrap();
    let shot = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/doom-reference/freedoom1_e1m1_start.png");
    let extra = ViewerOptions { reference: Some(shot), reference_hud: true, ..Default::default() };
    let app = App::new(vec![demo], OpenOptions::default(), extra).unwrap();
    let r = app.reference.as_ref().unwrap();
    assert!(r.hud);
    // A Doom capture: game resolution on, and the view is the 168 rows above the bar.
    assert!(app.game_res);
    assert_eq!(r.view_rows(app.game().as_ref()), 168);
}

#[test]
fn a_doom_screenshot_with_its_status_bar_is_found_when_it_loads() {
    let wad = PathBuf::from("/usr/share/games/doom/freedoom1.wad");
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (shot, bar) in [
        ("doom-statusbar/freedoom1_e1m1_start.png", true),
        ("doom-reference/freedoom1_e1m1_start.png", false),
    ] {
        let extra = ViewerOptions { reference: Some(data.join(shot)), ..Default::default() };
        let app = App::new(vec![wad.clone()], OpenOptions::default(), extra).unwrap_or_else(|e| {
            panic!("{}: {e:#} (install the Debian package freedoom)", wad.display())
        });
        let r = app.reference.as_ref().unwrap();
        assert_eq!(r.hud, bar, "{shot}");
        let said = app.message.clone().unwrap_or_default();
        assert_eq!(said.contains("status bar found"), bar, "{shot}: {said}");
    }
}
