//! The windowed viewer under Xvfb, driven by xdotool: it opens Freedoom E1M1, F12 writes a
//! screenshot with the camera in its metadata, and held movement keys move that camera;
//! `--from-shot` reopens a shot's camera; the bookmark key (B) prints a `mapscope render`
//! command line that draws the same frame as an F12 shot; a file that fails to load, dropped
//! on the window or reached with N, leaves the viewer up on the level it showed.
//!
//! Needs `Xvfb` and `xdotool` (Debian: `xvfb`, `xdotool`), Mesa's Vulkan driver and Freedoom;
//! without them the test fails and says what to install.

use crate::support;
use crate::xdnd;

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use mapscope::shot::ShotMeta;
use support::{freedoom1, image_stats, mapscope, success, TempDir};

/// Longest wait for anything (X server, window, screenshot).
const TIMEOUT: Duration = Duration::from_secs(60);

/// A child process killed and reaped when dropped (also when the test fails).
pub(crate) struct Killed {
    name: &'static str,
    child: Child,
}

impl Killed {
    pub(crate) fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        // SIGTERM first so Xvfb removes its lock file and socket; SIGKILL if it lingers.
        if self.exited().is_none() {
            let _ = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .stderr(Stdio::null())
                .status();
            let deadline = Instant::now() + Duration::from_secs(3);
            while self.exited().is_none() && Instant::now() < deadline {
                sleep(Duration::from_millis(50));
            }
            if self.exited().is_none() {
                let _ = self.child.kill();
            }
        }
        let _ = self.child.wait();
        eprintln!("stopped {} (pid {})", self.name, self.child.id());
    }
}

fn require_tool(tool: &str, package: &str) {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false);
    assert!(found, "`{tool}` not found: install it (Debian: `apt-get install {package}`; CI does)");
}

/// Waits for `check` to give a value, polling every 100 ms, or panics after [`TIMEOUT`] with
/// `what` and whatever `context` says about the state then.
pub(crate) fn wait_for<T>(
    what: &str,
    mut check: impl FnMut() -> Option<T>,
    context: impl Fn() -> String,
) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check() {
            return v;
        }
        if start.elapsed() > TIMEOUT {
            panic!("timed out after {} s waiting for {what}\n{}", TIMEOUT.as_secs(), context());
        }
        sleep(Duration::from_millis(100));
    }
}

/// Starts `Xvfb` on a display it picks itself (`-displayfd`: the server binds the first free
/// number and writes it back), so tests running at once never share a server; returns the
/// guard and the display (":N").
fn start_xvfb(log: &Path) -> (Killed, String) {
    // -noreset: by default the server resets when its last client leaves, and the viewer,
    // connecting just after the readiness probe (xdotool) has left, would find it resetting.
    let mut child = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(File::create(log).unwrap())
        .spawn()
        .expect("starting Xvfb");
    let stdout = child.stdout.take().expect("Xvfb stdout");
    let mut xvfb = Killed { name: "Xvfb", child };
    // Read on a thread so a server that never answers times out instead of blocking the test;
    // the thread keeps the pipe open for as long as the server lives.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut reader = std::io::BufReader::new(stdout);
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut reader, &mut line);
        let _ = tx.send(line);
        let _ = std::io::copy(&mut reader, &mut std::io::sink());
    });
    let log_text = || std::fs::read_to_string(log).unwrap_or_default();
    let number = wait_for(
        "Xvfb to pick a display",
        || match rx.try_recv() {
            Ok(line) => Some(line),
            Err(_) if xvfb.exited().is_some() => Some(String::new()),
            Err(_) => None,
        },
        log_text,
    );
    let Ok(n) = number.trim().parse::<u32>() else {
        panic!("Xvfb gave no display number ({number:?}); its log:\n{}", log_text());
    };
    let display = format!(":{n}");
    wait_for(
        "Xvfb to accept clients",
        || {
            assert!(xvfb.exited().is_none(), "Xvfb exited; its log:\n{}", log_text());
            xdotool(&display, &["getdisplaygeometry"]).map(|_| ())
        },
        log_text,
    );
    (xvfb, display)
}

/// Runs `xdotool` on `display`; returns stdout, or `None` when it fails.
fn xdotool(display: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("xdotool").args(args).env("DISPLAY", display).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

pub(crate) fn xdotool_ok(display: &str, args: &[&str]) {
    let out = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", display)
        .output()
        .expect("running xdotool");
    assert!(
        out.status.success(),
        "xdotool {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn pngs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|it| {
            it.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "png"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A running viewer on its own Xvfb display, with its settings in TMP/config (its
/// `XDG_CONFIG_HOME`). Dropping it stops the viewer, then Xvfb.
pub(crate) struct Viewer {
    pub(crate) viewer: Killed,
    _xvfb: Killed,
    pub(crate) display: String,
    pub(crate) window: String,
    shots: PathBuf,
    pub(crate) logs: (PathBuf, PathBuf),
}

/// What the viewer printed so far, for failure messages.
fn viewer_output(logs: &(PathBuf, PathBuf)) -> String {
    format!(
        "viewer stdout:\n{}\nviewer stderr:\n{}",
        std::fs::read_to_string(&logs.0).unwrap_or_default(),
        std::fs::read_to_string(&logs.1).unwrap_or_default()
    )
}

impl Viewer {
    /// Starts Xvfb and `mapscope ARGS --shot-dir TMP/shots`, waits for the window and focuses
    /// it.
    pub(crate) fn start(tmp: &TempDir, args: &[OsString]) -> Viewer {
        Viewer::start_with(tmp, args, &[])
    }

    /// [`Viewer::start`] with extra environment variables.
    pub(crate) fn start_with(tmp: &TempDir, args: &[OsString], env: &[(&str, &str)]) -> Viewer {
        require_tool("Xvfb", "xvfb");
        require_tool("xdotool", "xdotool");
        let shots = tmp.join("shots");
        std::fs::create_dir_all(&shots).unwrap();
        let (xvfb, display) = start_xvfb(&tmp.join("xvfb.log"));
        let logs = (tmp.join("viewer.out"), tmp.join("viewer.err"));
        let child = Command::new(env!("CARGO_BIN_EXE_mapscope"))
            .args(args)
            .arg("--shot-dir")
            .arg(&shots)
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env("RUST_LOG", "info")
            .env("XDG_CONFIG_HOME", tmp.join("config"))
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(File::create(&logs.0).unwrap())
            .stderr(File::create(&logs.1).unwrap())
            .spawn()
            .expect("starting the viewer");
        let mut viewer = Killed { name: "mapscope viewer", child };

        // The window appears (its title starts with "mapscope").
        let mut exited = None;
        let id = wait_for(
            "the viewer window (xdotool search --name mapscope)",
            || {
                if let Some(st) = viewer.exited() {
                    exited = Some(st);
                    return Some(None);
                }
                let out = xdotool(&display, &["search", "--onlyvisible", "--name", "^mapscope"])?;
                out.lines().next().map(|l| Some(l.trim().to_string()))
            },
            || viewer_output(&logs),
        );
        let window = id.unwrap_or_else(|| {
            panic!(
                "the viewer exited ({exited:?}) before showing a window\n{}",
                viewer_output(&logs)
            )
        });
        // No window manager runs: give the window the input focus directly.
        xdotool_ok(&display, &["windowfocus", "--sync", &window]);
        xdotool_ok(&display, &["mousemove", "--window", &window, "640", "360"]);
        // Let it draw a first frame.
        sleep(Duration::from_millis(500));
        Viewer { viewer, _xvfb: xvfb, display, window, shots, logs }
    }

    pub(crate) fn viewer_output(&self) -> String {
        viewer_output(&self.logs)
    }

    pub(crate) fn assert_running(&mut self) {
        if let Some(status) = self.viewer.exited() {
            panic!("the viewer exited ({status})\n{}", self.viewer_output());
        }
    }

    /// Taps `key` in the viewer window.
    pub(crate) fn key(&mut self, key: &str) {
        self.assert_running();
        xdotool_ok(&self.display, &["key", "--window", &self.window, key]);
    }

    /// Presses F12 and returns the new screenshot and its metadata.
    pub(crate) fn screenshot(&mut self) -> (PathBuf, ShotMeta) {
        let before = pngs(&self.shots);
        self.key("F12");
        let shots = &self.shots;
        let logs = self.logs.clone();
        let viewer = &mut self.viewer;
        let mut exited = None;
        let found = wait_for(
            "the F12 screenshot",
            || {
                if let Some(s) = viewer.exited() {
                    exited = Some(s);
                    return Some(None);
                }
                // The PNG may still be being written: wait until it reads back whole.
                let path = pngs(shots).into_iter().find(|p| !before.contains(p))?;
                let meta = ShotMeta::read(&path).ok()?;
                image::open(&path).ok()?;
                Some(Some((path, meta)))
            },
            || format!("shots so far: {:?}\n{}", pngs(shots), viewer_output(&logs)),
        );
        match found {
            Some(f) => f,
            None => panic!("the viewer exited ({exited:?})\n{}", self.viewer_output()),
        }
    }

    /// Presses B and returns the command line it printed.
    pub(crate) fn bookmark(&mut self) -> String {
        let path = self.logs.0.clone();
        let stdout = || std::fs::read_to_string(&path).unwrap_or_default();
        let lines = |s: String| -> Vec<String> {
            s.lines().filter(|l| l.starts_with("mapscope render ")).map(String::from).collect()
        };
        let before = lines(stdout()).len();
        self.key("b");
        wait_for(
            "the bookmark command line on stdout",
            || lines(stdout()).get(before).cloned(),
            || self.viewer_output(),
        )
    }

    /// Drops `path` on the window (X11 drag and drop); returns once the viewer handled it.
    fn drop_file(&mut self, path: &Path) {
        self.assert_running();
        let window: u32 = self.window.parse().expect("xdotool window ids are decimal");
        if let Err(e) = xdnd::drop_files(&self.display, window, &[path]) {
            panic!("dropping {} on the viewer: {e}\n{}", path.display(), self.viewer_output());
        }
    }

    /// Waits for a line on stderr that holds every one of `words`; returns it.
    pub(crate) fn wait_for_log(&self, words: &[&str]) -> String {
        let stderr = self.logs.1.clone();
        wait_for(
            &format!("a line on stderr with {words:?}"),
            || {
                let log = std::fs::read_to_string(&stderr).unwrap_or_default();
                log.lines().find(|l| words.iter().all(|w| l.contains(w))).map(String::from)
            },
            || self.viewer_output(),
        )
    }

    pub(crate) fn hold(&mut self, key: &str, time: Duration) {
        self.assert_running();
        xdotool_ok(&self.display, &["keydown", "--window", &self.window, key]);
        sleep(time);
        xdotool_ok(&self.display, &["keyup", "--window", &self.window, key]);
        // Let the viewer draw a frame with the key released before the next screenshot.
        sleep(Duration::from_millis(300));
    }
}

pub(crate) fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// The viewer tests run one at a time: three software-rendered windows at once on a small
/// machine slow frames down until a short key press can fall between two frames.
pub(crate) fn one_viewer_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static VIEWER: std::sync::Mutex<()> = std::sync::Mutex::new(());
    VIEWER.lock().unwrap_or_else(|e| e.into_inner())
}

#[test]
fn viewer_screenshots_follow_the_camera_under_xvfb() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer");
    let mut args = vec![wad.into_os_string()];
    args.extend(os(&["--map", "E1M1"]));
    let mut session = Viewer::start(&tmp, &args);
    let (display, window) = (session.display.clone(), session.window.clone());
    let title = xdotool(&display, &["getwindowname", &window]).unwrap_or_default();
    assert!(title.contains("E1M1") && title.contains("freedoom1.wad"), "window title {title:?}");

    let (first, a) = session.screenshot();
    assert_eq!(a.map, "E1M1");
    assert!(a.file.ends_with("freedoom1.wad"), "{}", a.file);
    // Nothing moved yet: the camera is the player 1 start at eye height, facing east.
    assert_eq!(a.pose.position, [-160.0, 304.0, 41.0], "first shot camera");
    assert!(
        a.pose.angle.abs() < 1e-9 || (a.pose.angle - 360.0).abs() < 1e-9,
        "angle {}",
        a.pose.angle
    );
    let img = image::open(&first).unwrap().to_rgba8();
    let stats = image_stats(&img);
    assert!(img.width() >= 320 && img.height() >= 200, "shot size {:?}", img.dimensions());
    assert!(stats.looks_rendered(), "first screenshot looks blank: {stats:?}");

    // Forward (W) for a second: east, so x grows and y, z stay.
    session.hold("w", Duration::from_secs(1));
    let (_, b) = session.screenshot();
    let (dx, dy, dz) = (
        b.pose.position[0] - a.pose.position[0],
        b.pose.position[1] - a.pose.position[1],
        b.pose.position[2] - a.pose.position[2],
    );
    assert!(dx > 32.0, "W should move east (x up): {:?} -> {:?}", a.pose.position, b.pose.position);
    assert!(
        dy.abs() < 0.05 * dx && dz.abs() < 0.05 * dx,
        "W moved off the facing: {:?} -> {:?}",
        a.pose.position,
        b.pose.position
    );
    assert!(
        (b.pose.angle - a.pose.angle).abs() < 1e-9,
        "the facing changed: {} -> {}",
        a.pose.angle,
        b.pose.angle
    );

    // Strafe right (D): facing east, right is south, so y falls.
    session.hold("d", Duration::from_millis(500));
    let (_, c) = session.screenshot();
    let (dx, dy) =
        (c.pose.position[0] - b.pose.position[0], c.pose.position[1] - b.pose.position[1]);
    assert!(
        dy < -16.0 && dx.abs() < 0.05 * -dy,
        "D should move south (y down): {:?} -> {:?}",
        b.pose.position,
        c.pose.position
    );

    // R returns to the spawn point.
    session.key("r");
    sleep(Duration::from_millis(300));
    let (_, d) = session.screenshot();
    assert_eq!(d.pose.position, a.pose.position, "R should return to the spawn point");
    eprintln!(
        "cameras: start {:?}, after W {:?}, after D {:?}, after R {:?}",
        a.pose.position, b.pose.position, c.pose.position, d.pose.position
    );
    session.assert_running();
    // The guard stops the viewer, then Xvfb.
}

/// `mapscope --from-shot` opens at the camera, level and view of a `render` PNG, and
/// `render --from-shot` draws an F12 shot again.
#[test]
fn from_shot_reopens_the_camera_of_a_render() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer-from-shot");
    let shot = tmp.join("render.png");
    let mut args = vec![OsString::from("render"), wad.into_os_string()];
    args.extend(os(&["--map", "E1M1", "--camera", "-96.5,352.25,60", "--angle", "37.25"]));
    args.extend(os(&["--pitch", "-7.5", "--fov", "75", "--tic", "20", "--no-things", "-o"]));
    args.push(shot.clone().into_os_string());
    let out = mapscope(&args);
    success(&out, "mapscope render");
    let rendered = ShotMeta::read(&shot).unwrap();

    // No level file on the command line: it comes from the shot.
    let mut args = vec![OsString::from("--from-shot"), shot.clone().into_os_string()];
    args.push("--freeze".into());
    let mut session = Viewer::start(&tmp, &args);
    let (f12, m) = session.screenshot();
    assert_eq!(m.file, rendered.file);
    assert_eq!(m.map, "E1M1");
    for i in 0..3 {
        assert!(
            (m.pose.position[i] - rendered.pose.position[i]).abs() < 1e-9,
            "{:?} vs {:?}",
            m.pose.position,
            rendered.pose.position
        );
    }
    assert!((m.pose.angle - 37.25).abs() < 1e-9, "angle {}", m.pose.angle);
    assert!((m.pose.pitch + 7.5).abs() < 1e-9, "pitch {}", m.pose.pitch);
    assert_eq!((m.fov, m.mode.as_str(), m.tic), (75.0, "faithful", 20));
    assert_eq!((m.things, m.sky, m.wireframe), (false, true, false), "toggles");
    drop(session);

    // And `render --from-shot` of the F12 shot draws the same picture at the shot's size.
    let again = tmp.join("again.png");
    let out = mapscope([
        OsString::from("render"),
        "--from-shot".into(),
        f12.clone().into_os_string(),
        "-o".into(),
        again.clone().into_os_string(),
    ]);
    success(&out, "mapscope render --from-shot");
    let (a, b) = (image::open(&f12).unwrap().to_rgba8(), image::open(&again).unwrap().to_rgba8());
    assert_eq!(a.dimensions(), b.dimensions());
    assert_identical(&a, &b, "render --from-shot of the F12 shot");
}

/// Splits a command line printed by the bookmark key (words, single-quoted where needed).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if !quoted => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}

fn assert_identical(a: &image::RgbaImage, b: &image::RgbaImage, what: &str) {
    let report = mapscope::compare::compare_images(a, b, &Default::default()).unwrap();
    assert_eq!(report.identical_share, 1.0, "{what}: not the same picture\n{report}");
}

/// Runs a bookmark line (with its output redirected to `out`) and returns the image.
fn run_bookmark(line: &str, out: &Path) -> image::RgbaImage {
    let mut words = shell_words(line);
    assert_eq!(&words[..2], ["mapscope", "render"], "{line}");
    let o = words.iter().position(|w| w == "-o").expect("-o in the bookmark");
    words[o + 1] = out.display().to_string();
    let result = mapscope(&words[1..]);
    success(&result, line);
    image::open(out).unwrap().to_rgba8()
}

/// B prints a `mapscope render` line that draws exactly the F12 shot of the same view, at
/// the game's resolution (with a reference laid over the window, which F12 leaves out) and
/// at the window's size.
#[test]
fn bookmark_renders_the_same_frame_as_f12() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    let tmp = TempDir::new("viewer-bookmark");
    let reference = support::test_data("doom-reference/freedoom1_e1m1_start.png");
    let mut args = vec![wad.into_os_string()];
    args.extend(os(&["--map", "E1M1", "--tic", "100", "--freeze", "--reference"]));
    args.push(reference.into_os_string());
    let mut session = Viewer::start(&tmp, &args);
    session.hold("w", Duration::from_millis(400));
    session.hold("a", Duration::from_millis(300));

    // A 320x200 reference of a Doom frame switches the view to Doom's 320x200 at 90 degrees.
    let line = session.bookmark();
    let (f12, meta) = session.screenshot();
    eprintln!("bookmark: {line}");
    assert!(line.contains(" --size 320x200 ") && line.contains(" --fov 90 "), "{line}");
    assert!(line.contains(" --tic 100 ") && line.contains(" --map E1M1 "), "{line}");
    let c = meta.pose.position;
    assert!(line.contains(&format!(" --camera {},{},{} ", c[0], c[1], c[2])), "{line} vs {c:?}");
    let shot = image::open(&f12).unwrap().to_rgba8();
    assert_eq!(shot.dimensions(), (320, 200));
    assert_identical(&shot, &run_bookmark(&line, &tmp.join("bookmark-game.png")), "game res");

    // The difference view is on screen now; F12 still saves the 3D view alone. F2 goes back
    // to the window's size.
    session.key("v");
    session.key("F2");
    sleep(Duration::from_millis(500));
    let line = session.bookmark();
    let (f12, _) = session.screenshot();
    let shot = image::open(&f12).unwrap().to_rgba8();
    assert!(shot.width() > 320, "window-sized shot expected: {:?}", shot.dimensions());
    let size = format!(" --size {}x{} ", shot.width(), shot.height());
    assert!(line.contains(&size), "{line}");
    assert_identical(&shot, &run_bookmark(&line, &tmp.join("bookmark-window.png")), "window");
    session.assert_running();
}

/// A map that cannot be built (N moves to it) leaves the viewer up on the level it showed:
/// the error is reported, the next F12 shot is still of the old map from the same camera,
/// and the viewer goes on taking keys.
#[test]
fn a_map_that_fails_to_build_keeps_the_viewer_on_its_level() {
    use mapscope::formats::doom::archive::writer::{things_lump, WadWriter};
    let _one_at_a_time = one_viewer_at_a_time();
    let tmp = TempDir::new("viewer-bad-map");
    // MAP02: a map marker with THINGS and nothing else, listed but unbuildable.
    let mut w = WadWriter::pwad();
    w.marker("MAP02").lump("THINGS", things_lump(&[]));
    let broken = tmp.join("broken.wad");
    std::fs::write(&broken, w.to_bytes()).unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.wad");
    let args = vec![demo.into_os_string(), broken.into_os_string()];
    let mut session = Viewer::start(&tmp, &args);
    session.hold("w", Duration::from_millis(400));
    let (_, before) = session.screenshot();
    assert_eq!(before.map, "MAP01");

    session.key("n");
    eprintln!("reported: {}", session.wait_for_log(&["ERROR", "MAP02"]));
    let (shot, after) = session.screenshot();
    assert_eq!(after.map, "MAP01", "the viewer left MAP01 for a map it could not build");
    assert_eq!(after.pose.position, before.pose.position, "the camera moved with the failed map");
    let stats = image_stats(&image::open(&shot).unwrap().to_rgba8());
    assert!(stats.looks_rendered(), "the shot after the error looks blank: {stats:?}");

    // It still flies.
    session.hold("w", Duration::from_millis(400));
    let (_, moved) = session.screenshot();
    assert_eq!(moved.map, "MAP01");
    assert_ne!(
        moved.pose.position, after.pose.position,
        "W did not move the camera after the error"
    );
    session.assert_running();
}

/// Files dropped on the window (through X11 drag and drop, as from a file manager): a file
/// that is no level is reported and the level stays; a level opens; a PNG becomes the
/// reference screenshot.
#[test]
fn dropped_files_open_levels_and_bad_ones_keep_the_level() {
    let _one_at_a_time = one_viewer_at_a_time();
    let tmp = TempDir::new("viewer-drop");
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/demo.wad");
    let mut session = Viewer::start(&tmp, &[demo.clone().into_os_string()]);
    session.hold("w", Duration::from_millis(400));
    let (_, before) = session.screenshot();

    // A WAD whose directory lies past its end.
    let junk = tmp.join("junk.wad");
    std::fs::write(&junk, b"PWAD\x05\0\0\0\0\0\x10\0").unwrap();
    session.drop_file(&junk);
    eprintln!("reported: {}", session.wait_for_log(&["ERROR", "junk.wad"]));
    let (shot, after) = session.screenshot();
    assert_eq!((after.file.as_str(), after.map.as_str()), (before.file.as_str(), "MAP01"));
    assert_eq!(after.pose.position, before.pose.position, "the camera moved with the failed drop");
    let stats = image_stats(&image::open(&shot).unwrap().to_rgba8());
    assert!(stats.looks_rendered(), "the shot after the error looks blank: {stats:?}");

    // A level opens at its start.
    let level = tmp.join("dropped.wad");
    std::fs::copy(&demo, &level).unwrap();
    session.drop_file(&level);
    let (_, opened) = session.screenshot();
    assert_eq!(opened.file, level.display().to_string());
    assert_ne!(
        opened.pose.position, before.pose.position,
        "a dropped level should open at its start"
    );

    // A Doom-sized PNG is a reference: the view switches to the game's 320x200.
    let reference = support::test_data("doom-reference/freedoom1_e1m1_start.png");
    session.drop_file(&reference);
    let (shot, with_reference) = session.screenshot();
    assert_eq!(with_reference.file, opened.file, "a dropped PNG replaced the level");
    assert_eq!(
        image::open(&shot).unwrap().to_rgba8().dimensions(),
        (320, 200),
        "no game resolution"
    );
    session.assert_running();
}

#[test]
fn bench_window_presents_the_tour_under_xvfb() {
    let _one_at_a_time = one_viewer_at_a_time();
    require_tool("Xvfb", "xvfb");
    let tmp = TempDir::new("bench-window");
    let (_xvfb, display) = start_xvfb(&tmp.path().join("xvfb.log"));
    let wad = freedoom1();
    let out = Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["bench", wad.to_str().unwrap(), "--map", "E1M1"])
        .args(["--size", "320x200", "--frames", "8", "--window", "--json"])
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("running mapscope bench --window");
    assert!(
        out.status.success(),
        "bench --window failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let presented = &v["presented"];
    assert_eq!(presented["frames"], 8, "{v}");
    let median = presented["median_ms"].as_f64().unwrap();
    assert!(median > 0.0 && median <= presented["p95_ms"].as_f64().unwrap(), "{v}");
    assert!((presented["fps"].as_f64().unwrap() - 1000.0 / median).abs() < 1e-6);
    assert_eq!(presented["overlay"], serde_json::Value::Null, "{v}");

    // --overlay: the viewer's overlay over every frame, drawn on the CPU on this software
    // adapter, and timed. It is drawn anew ten times a second: the eight timed frames (a few
    // milliseconds) may hold none of those redraws, the warm-up's first frame having made it.
    let out = Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["bench", wad.to_str().unwrap(), "--map", "E1M1"])
        .args(["--size", "320x200", "--frames", "8", "--window", "--overlay", "--json"])
        .env("DISPLAY", &display)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("MAPSCOPE_OVERLAY")
        .output()
        .expect("running mapscope bench --window --overlay");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let presented = &v["presented"];
    assert_eq!(presented["overlay"], "CPU", "{v}");
    assert!(presented["overlay_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{v}");
    let redraws = presented["overlay_redraws"].as_u64().expect("a count");
    assert!(redraws <= 8, "{v}");
    assert_eq!(presented["overlay_redraw_ms"].is_number(), redraws > 0, "{v}");
    // --overlay needs the window.
    let out = Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["bench", wad.to_str().unwrap(), "--overlay"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "--overlay without --window is refused");
}

/// The overlay as the viewer opens with it: drawn over the frame whichever way it is drawn
/// (on the CPU into the window's pixels, the default on a software adapter, or by egui-wgpu
/// on the GPU), covering the panel's corner of the window and nothing else.
#[test]
fn the_overlay_panel_is_laid_over_the_frame_either_way() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    for (overlay, log) in [("cpu", "overlay drawn on the CPU"), ("gpu", "overlay drawn on the GPU")]
    {
        let tmp = TempDir::new("viewer-overlay");
        let mut args = vec![wad.clone().into_os_string()];
        args.extend(os(&["--map", "E1M1", "--no-markers"]));
        let env = [("MAPSCOPE_PRESENT", "cpu"), ("MAPSCOPE_OVERLAY", overlay)];
        let mut session = Viewer::start_with(&tmp, &args, &env);
        session.wait_for_log(&["presenting through", log]);
        session.key("f");
        sleep(Duration::from_millis(700));
        let (shot, _) = session.screenshot();
        let shot = image::open(&shot).unwrap().to_rgba8();
        let shown = grab_window(&session.display, &session.window);
        assert_eq!(shown.dimensions(), shot.dimensions(), "{overlay}: sizes");
        let (w, h) = shown.dimensions();
        // Where the window differs from the frame: the panel, at the top left.
        let differs: Vec<(u32, u32)> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| shown.get_pixel(x, y) != shot.get_pixel(x, y))
            .collect();
        let right = differs.iter().map(|p| p.0).max().unwrap_or(0);
        let bottom = differs.iter().map(|p| p.1).max().unwrap_or(0);
        assert!(differs.len() > 20_000, "{overlay}: the panel covers {} pixels", differs.len());
        assert!(right < w * 3 / 4 && bottom < h, "{overlay}: differences reach {right},{bottom}");
        // egui's dark panel fill (27, 27, 27) under the text.
        let fill = differs.iter().filter(|&&(x, y)| shown.get_pixel(x, y).0[..3] == [27; 3]);
        assert!(fill.count() > 10_000, "{overlay}: the panel's fill");
        session.assert_running();
    }
}

/// The window's pixels as the X server holds them (RGBA, alpha 255).
fn grab_window(display: &str, window: &str) -> image::RgbaImage {
    use x11rb::connection::Connection as _;
    use x11rb::protocol::xproto::{ConnectionExt as _, ImageFormat};
    let (conn, _) = x11rb::connect(Some(display)).expect("connecting to Xvfb");
    let window: u32 = window.parse().expect("xdotool window ids are decimal");
    let geometry = conn.get_geometry(window).unwrap().reply().unwrap();
    let (w, h) = (geometry.width, geometry.height);
    let reply = conn
        .get_image(ImageFormat::Z_PIXMAP, window, 0, 0, w, h, !0)
        .unwrap()
        .reply()
        .expect("the window's image");
    let _ = conn.flush();
    // Depth 24 in 32-bit pixels, little-endian: B, G, R, unused.
    let pixels = reply.data.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], 255]).collect();
    image::RgbaImage::from_raw(w.into(), h.into(), pixels).expect("one word a pixel")
}

/// What the window shows is the frame F12 saves, pixel for pixel, whichever way the images
/// reach the screen: the swapchain, or shared memory (the default on a software adapter,
/// where the swapchain pushes each image through the X socket).
#[test]
fn the_window_shows_the_frame_through_either_way_of_presenting() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    for (way, log) in [("cpu", "shared memory"), ("swapchain", "the swapchain")] {
        let tmp = TempDir::new("viewer-present");
        let mut args = vec![wad.clone().into_os_string()];
        // Without markers nothing is drawn over a faithful frame's canvas.
        args.extend(os(&["--map", "E1M1", "--no-markers"]));
        let mut session = Viewer::start_with(&tmp, &args, &[("MAPSCOPE_PRESENT", way)]);
        session.wait_for_log(&["presenting through", log]);
        // F1 hides the overlay, so the window holds the frame alone; F stops the clock, so
        // the frame shown is the frame saved.
        session.key("F1");
        session.key("f");
        sleep(Duration::from_millis(700));
        // Faithful Doom frames are the CPU's canvas (shown as they are when presented from
        // the CPU); smooth ones are the GPU's (read back).
        for mode in ["faithful", "smooth"] {
            if mode == "smooth" {
                session.key("m");
                sleep(Duration::from_millis(700));
            }
            let (shot, meta) = session.screenshot();
            assert_eq!(meta.mode, mode, "{way}: the shot's mode");
            let shot = image::open(&shot).unwrap().to_rgba8();
            let shown = grab_window(&session.display, &session.window);
            let what = format!("{way}, {mode}: the window against the F12 shot");
            assert_eq!(shown.dimensions(), shot.dimensions(), "{what}: sizes");
            assert_identical(&shown, &shot, &what);
        }
        session.assert_running();
    }
}

/// The automap (Tab) fills the window with what `render --automap` draws of the same camera
/// at the window's size, pixel for pixel, whichever way the window is presented; a click on
/// it moves the camera to that spot at eye height above the floor there, and F12 still saves
/// the 3D view, from there.
#[test]
fn the_automap_in_the_window_is_render_automap_and_a_click_moves_the_camera() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom1();
    for way in ["cpu", "swapchain"] {
        let tmp = TempDir::new("viewer-automap");
        let mut args = vec![wad.clone().into_os_string()];
        // The viewer shows markers unless told not to; `render --automap` only with --markers.
        args.extend(os(&["--map", "E1M1", "--no-markers"]));
        let mut session = Viewer::start_with(&tmp, &args, &[("MAPSCOPE_PRESENT", way)]);
        session.key("F1");
        session.key("Tab");
        sleep(Duration::from_millis(700));
        let shown = grab_window(&session.display, &session.window);
        let (w, h) = shown.dimensions();
        let out = tmp.join("automap.png");
        let size = format!("{w}x{h}");
        let render = [wad.to_str().unwrap(), "--map", "E1M1", "--automap", "--size", &size];
        let mut all = vec!["render"];
        all.extend(render);
        all.extend(["-o", out.to_str().unwrap()]);
        success(&mapscope(&all), "render --automap");
        let drawn = image::open(&out).unwrap().to_rgba8();
        assert_identical(&shown, &drawn, &format!("{way}: the window's automap"));
        if way == "swapchain" {
            continue;
        }
        // F12 on the automap saves the 3D view of the camera.
        let (_, start) = session.screenshot();
        assert_eq!(start.pose.position, [-160.0, 304.0, 41.0], "the player start");
        // A click 100 pixels right of the centre: east of the start, in its room.
        let (x, y) = ((w / 2 + 100).to_string(), (h / 2).to_string());
        let click = ["mousemove", "--window", &session.window, &x, &y, "click", "1"];
        xdotool_ok(&session.display, &click);
        sleep(Duration::from_millis(500));
        let (_, moved) = session.screenshot();
        let [mx, my, mz] = moved.pose.position;
        assert!(mx > -160.0 + 100.0, "moved east: {:?}", moved.pose.position);
        assert_eq!(my, 304.0, "a click level with the centre keeps y");
        let stack = mapscope::formats::doom::WadStack::open(std::slice::from_ref(&wad)).unwrap();
        let level = mapscope::formats::doom::DoomLevel::load(&stack, "E1M1").unwrap();
        let sector = level.sector_at(mx, my).expect("the click lands in a sector");
        let floor = level.map.sectors[sector].floor as f64;
        assert!((mz - (floor + 41.0)).abs() < 1e-6, "eye height: {mz} over floor {floor}");
        session.assert_running();
    }
}
