//! The viewer's settings file and map picker, driven as `viewer_window` drives the viewer
//! (Xvfb, xdotool), each viewer with its own `XDG_CONFIG_HOME`: keys change settings, Esc
//! quits and the file holds them; the next viewer opens with them (its bookmark line says
//! so); keys the viewer does not know and values it cannot read stay in the file; a
//! hand-broken file gives a warning and the defaults and is kept beside the new one;
//! `--no-config` neither reads nor writes it; the picker (L) opens a map and a recent set.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::thread::sleep;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::{freedoom1, TempDir};
use crate::viewer_window::{one_viewer_at_a_time, os, wait_for, xdotool_ok, Viewer};

impl Viewer {
    /// Presses Esc (the mouse is not captured: the viewer quits) and waits for a clean exit.
    fn quit(mut self) {
        self.key("Escape");
        let logs = self.logs.clone();
        let viewer = &mut self.viewer;
        let status = wait_for(
            "the viewer to quit on Esc",
            || viewer.exited(),
            || std::fs::read_to_string(&logs.1).unwrap_or_default(),
        );
        assert!(status.success(), "the viewer quit with {status}\n{}", self.viewer_output());
    }

    /// Moves the pointer to `x`, `y` in the window and clicks there, as a person does: the
    /// overlay sees the pointer over it before the button goes down (a click with no pass of
    /// egui between would capture the mouse for looking around instead).
    fn click(&mut self, x: i32, y: i32) {
        self.assert_running();
        let (x, y) = (x.to_string(), y.to_string());
        xdotool_ok(&self.display, &["mousemove", "--window", &self.window, &x, &y]);
        sleep(Duration::from_millis(300));
        xdotool_ok(&self.display, &["click", "1"]);
        sleep(Duration::from_millis(500));
    }

    /// Where the map picker last showed the row `what` ("map E1M3", "recent 2"), in window
    /// pixels, from its debug log.
    fn picker_row(&self, what: &str) -> (i32, i32) {
        let prefix = format!("map picker: {what} at ");
        let stderr = self.logs.1.clone();
        let last = || {
            let log = std::fs::read_to_string(&stderr).unwrap_or_default();
            log.lines().rev().find_map(|l| Some(l[l.find(&prefix)? + prefix.len()..].to_string()))
        };
        wait_for(&format!("the picker's row {what:?} in the log"), last, || self.viewer_output());
        // The window is laid out unseen first: the last position logged is where it stays.
        sleep(Duration::from_millis(500));
        let at = last().unwrap();
        let (x, y) = at.trim().split_once(',').expect("X,Y");
        (x.parse().unwrap(), y.parse().unwrap())
    }

    /// The window's size as the X server has it.
    fn window_size(&self) -> String {
        let out = std::process::Command::new("xdotool")
            .args(["getwindowgeometry", &self.window])
            .env("DISPLAY", &self.display)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = text.lines().find(|l| l.contains("Geometry:")).unwrap_or_default();
        line.trim().trim_start_matches("Geometry:").trim().to_string()
    }
}

/// The settings file of viewers started with `tmp` (`viewer_window::Viewer`'s config folder).
fn settings_file(tmp: &TempDir) -> PathBuf {
    tmp.join("config").join("mapscope").join("settings.json")
}

fn read_json(path: &Path) -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match serde_json::from_str(&text) {
        Ok(Value::Object(o)) => o,
        other => panic!("{}: not a JSON object: {other:?}\n{text}", path.display()),
    }
}

fn has(line: &str, arg: &str) -> bool {
    line.contains(&format!(" {arg} "))
}

/// Keys change settings; Esc quits and the file holds them (and the level opened, in the
/// recent list); the next viewer opens with them, and with the window size written into the
/// file by hand; `--no-config` opens with the defaults and leaves the file as it was.
#[test]
fn settings_are_kept_across_runs_and_no_config_ignores_them() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer-settings");
    let file = settings_file(&tmp);
    let mut args = vec![wad.clone().into_os_string()];
    args.extend(os(&["--map", "E1M1"]));

    // Smooth (M), things off (T), markers off (X), the overlay panel folded (its title bar's
    // triangle) and hidden (F1).
    let mut session = Viewer::start(&tmp, &args);
    let line = session.bookmark();
    assert!(has(&line, "--mode faithful") && has(&line, "--fov 90"), "defaults: {line}");
    session.click(24, 24);
    for key in ["m", "t", "x", "F1"] {
        session.key(key);
    }
    sleep(Duration::from_millis(300));
    session.quit();
    let o = read_json(&file);
    eprintln!("written: {o:?}");
    assert_eq!(o["mode"], json!("smooth"));
    assert_eq!((o["things"].clone(), o["markers"].clone()), (json!(false), json!(false)));
    assert_eq!((o["overlay"].clone(), o["overlay_open"].clone()), (json!(false), json!(false)));
    assert!(!o.contains_key("fov") && !o.contains_key("sky"), "unchanged settings written: {o:?}");
    let wad_path = std::path::absolute(&wad).unwrap();
    assert_eq!(o["recent"], json!([{"files": [wad_path.to_str().unwrap()], "map": "E1M1"}]));

    // By hand: a field of view, a window size and a key of the user's own.
    let mut edited = o.clone();
    edited.insert("fov".into(), json!(100));
    edited.insert("window".into(), json!([1000, 600]));
    edited.insert("my_note".into(), json!("the viewer keeps this"));
    std::fs::write(&file, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let mut session = Viewer::start(&tmp, &[wad.clone().into_os_string()]);
    assert_eq!(session.window_size(), "1000x600", "the window opens at the file's size");
    let line = session.bookmark();
    eprintln!("with the file's settings: {line}");
    assert!(has(&line, "--mode smooth") && has(&line, "--fov 100"), "{line}");
    assert!(has(&line, "--no-things") && has(&line, "--size 1000x600"), "{line}");
    assert!(!line.contains("--markers"), "{line}");
    // The command line wins, for this run only.
    drop(session);
    let mut with_args = vec![wad.clone().into_os_string()];
    // Outside the overlay slider's 30..150 and between its steps: left as given.
    with_args.extend(os(&["--fov", "20.5", "--mode", "faithful"]));
    let mut session = Viewer::start(&tmp, &with_args);
    let line = session.bookmark();
    assert!(has(&line, "--mode faithful") && has(&line, "--fov 20.5"), "{line}");
    assert!(has(&line, "--no-things"), "{line}");
    session.key("k");
    sleep(Duration::from_millis(300));
    session.quit();
    let o = read_json(&file);
    assert_eq!((o["fov"].clone(), o["mode"].clone()), (json!(100), json!("smooth")), "{o:?}");
    assert_eq!(o["sky"], json!(false), "K's change is saved: {o:?}");
    assert_eq!(o["my_note"], json!("the viewer keeps this"));

    // --no-config: the defaults, and the file left alone.
    let before = std::fs::read(&file).unwrap();
    let mut no_config = args.clone();
    no_config.push("--no-config".into());
    let mut session = Viewer::start(&tmp, &no_config);
    let line = session.bookmark();
    assert!(has(&line, "--mode faithful") && has(&line, "--fov 90"), "{line}");
    assert!(has(&line, "--markers") && !line.contains("--no-things"), "{line}");
    assert!(has(&line, "--size 1280x720"), "{line}");
    session.key("g");
    sleep(Duration::from_millis(300));
    session.quit();
    assert!(std::fs::read(&file).unwrap() == before, "--no-config wrote the settings file");
}

/// A hand-broken file: a warning, the defaults, and the file kept as settings.json.broken
/// when the viewer writes a new one. A file with a value it cannot read: a warning, the
/// default for that setting, the rest read; the bad value and unknown keys stay in the file.
#[test]
fn a_broken_settings_file_gives_a_warning_and_the_defaults_and_is_kept() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer-settings-broken");
    let file = settings_file(&tmp);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let broken = "{\n  \"mode\": \"smooth\",\n  \"things\": nope\n}\n";
    std::fs::write(&file, broken).unwrap();
    let mut session = Viewer::start(&tmp, &[wad.clone().into_os_string()]);
    let warning = session.wait_for_log(&["WARN", "settings.json", "not valid JSON", "line 3"]);
    eprintln!("warned: {warning}");
    let line = session.bookmark();
    assert!(has(&line, "--mode faithful") && !line.contains("--no-things"), "{line}");
    session.key("g");
    sleep(Duration::from_millis(300));
    session.quit();
    let kept = file.with_file_name("settings.json.broken");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), broken, "the broken file is kept");
    let o = read_json(&file);
    assert_eq!(o["wireframe"], json!(true), "{o:?}");
    assert!(o["recent"].as_array().is_some_and(|r| r.len() == 1), "{o:?}");

    let half = r#"{"mode": "sepia", "things": false, "window": "big", "note": [1]}"#;
    std::fs::write(&file, half).unwrap();
    let mut session = Viewer::start(&tmp, &[wad.into_os_string()]);
    session.wait_for_log(&["WARN", "\"mode\": \"sepia\" is not a mode"]);
    session.wait_for_log(&["WARN", "\"window\": \"big\" is not a window size"]);
    let line = session.bookmark();
    assert!(has(&line, "--mode faithful") && has(&line, "--no-things"), "{line}");
    session.key("g");
    sleep(Duration::from_millis(300));
    session.quit();
    let o = read_json(&file);
    assert_eq!((o["mode"].clone(), o["window"].clone()), (json!("sepia"), json!("big")));
    assert_eq!((o["note"].clone(), o["wireframe"].clone()), (json!([1]), json!(true)));
    assert!(
        !file.with_file_name("settings.json.broken.2").exists(),
        "a readable file is not moved"
    );
}

/// L shows the open files' maps: a click opens one. A later viewer's picker lists that
/// file set under recent: a click reopens it at the map it showed.
#[test]
fn the_map_picker_opens_a_map_and_reopens_a_recent_file_set() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer-picker");
    let debug = [("RUST_LOG", "info,mapscope::app::map_picker=debug")];
    let mut args = vec![wad.clone().into_os_string()];
    args.extend(os(&["--map", "E1M1"]));
    let mut session = Viewer::start_with(&tmp, &args, &debug);
    session.key("l");
    let (x, y) = session.picker_row("map E1M3");
    session.click(x, y);
    let (_, meta) = session.screenshot();
    assert_eq!(meta.map, "E1M3", "a click on E1M3 in the picker");
    // Esc closes the picker, then quits.
    session.key("Escape");
    session.quit();

    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.wad");
    let mut session = Viewer::start_with(&tmp, &[OsString::from(&demo)], &debug);
    let (_, meta) = session.screenshot();
    assert_eq!(meta.map, "MAP01");
    session.key("l");
    // Recent 1 is the demo level shown now; 2 is Freedoom, at E1M3.
    let (x, y) = session.picker_row("recent 2");
    session.click(x, y);
    let (_, meta) = session.screenshot();
    assert!(meta.file.ends_with("freedoom1.wad"), "{}", meta.file);
    assert_eq!(meta.map, "E1M3");
    session.assert_running();
}
