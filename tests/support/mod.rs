//! Helpers shared by the integration tests (and the Doom bench): finding Freedoom, temporary
//! folders, running the binary, judging rendered images.

#![allow(dead_code)]

pub mod alloc_count;
pub mod carma2_track;
pub mod doom_areas;
pub mod doom_test_room;
pub mod probes;
pub mod saturn_rooms;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

/// Where Debian's `freedoom` package puts the IWADs.
pub const FREEDOOM_DIR: &str = "/usr/share/games/doom";

/// Path of a Freedoom IWAD (`freedoom1.wad` or `freedoom2.wad`). Panics with an install hint
/// when it is missing: these tests are meant to run, not to be skipped silently.
pub fn freedoom(file: &str) -> PathBuf {
    let path = Path::new(FREEDOOM_DIR).join(file);
    assert!(
        path.is_file(),
        "{} not found: install Freedoom (Debian/Ubuntu: `apt-get install freedoom`; CI installs \
         it) — these tests need both freedoom1.wad and freedoom2.wad",
        path.display()
    );
    path
}

pub fn freedoom1() -> PathBuf {
    freedoom("freedoom1.wad")
}

pub fn freedoom2() -> PathBuf {
    freedoom("freedoom2.wad")
}

/// A folder under the system temp dir, removed (with its contents) when dropped.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("mapscope-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs the mapscope binary with `args` (no display, quiet logging) and waits for it.
pub fn mapscope<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mapscope"));
    cmd.args(args).env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY").env("RUST_LOG", "warn");
    cmd.output().expect("running target mapscope binary")
}

/// `mapscope render` of Freedoom's E1M1 at 320x200 into `out`, from `camera` ("X,Y,Z") facing
/// `angle` degrees, with `extra` arguments (pitch, tic, ...); panics when it fails.
pub fn render_e1m1(out: &Path, camera: &str, angle: &str, extra: &[&str]) {
    let wad = freedoom1();
    let camera = format!("--camera={camera}");
    let mut args = vec!["render", wad.to_str().unwrap(), "--map", "E1M1", &camera];
    args.extend(["--angle", angle, "--size", "320x200", "-o", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    success(&mapscope(args), "render");
}

/// Stdout of a run that must succeed; panics with both streams otherwise.
pub fn success(out: &Output, what: &str) -> String {
    assert!(
        out.status.success(),
        "{what} failed ({}):\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// How much of an image carries information: distinct RGB colours and the share of pixels that
/// are pure black (nothing drawn, or the clear colour).
#[derive(Clone, Copy, Debug)]
pub struct ImageStats {
    pub distinct_colours: usize,
    pub black_fraction: f64,
}

pub fn image_stats(img: &image::RgbaImage) -> ImageStats {
    let mut colours = HashSet::new();
    let mut black = 0usize;
    for p in img.pixels() {
        let [r, g, b, _] = p.0;
        colours.insert([r, g, b]);
        if r == 0 && g == 0 && b == 0 {
            black += 1;
        }
    }
    let total = (img.width() as usize * img.height() as usize).max(1);
    ImageStats { distinct_colours: colours.len(), black_fraction: black as f64 / total as f64 }
}

impl ImageStats {
    /// At least 8 colours and under half of the pixels pure black.
    pub fn looks_rendered(&self) -> bool {
        self.distinct_colours >= 8 && self.black_fraction < 0.5
    }
}
