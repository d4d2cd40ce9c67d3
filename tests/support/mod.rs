//! Helpers shared by the integration tests (and the benches): finding Freedoom, `../shared`
//! and `tests/data` (with a hint on how to get each when it is missing), asserting that loops
//! over test data met enough of it, temporary folders, running the binary, judging rendered
//! images. Each test binary's `main.rs` includes it with `#[path = "../support/mod.rs"] mod
//! support;`; a helper some binaries leave unused is fine (`allow(dead_code)` below).

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

/// How to get Freedoom, for the messages of tests that need it.
pub const FREEDOOM_HINT: &str = "install Freedoom (Debian/Ubuntu: `apt-get install freedoom`, \
     which puts freedoom1.wad and freedoom2.wad in /usr/share/games/doom; elsewhere put the \
     WADs of the zip from https://freedoom.github.io/ there; CI installs the package)";

/// How to get `../shared`, for the messages of tests that need it.
pub const SHARED_HINT: &str = "these tests read the shared test data kept beside this \
     checkout, not in it: the spec-derived fixtures in ../shared/fixtures/<format>/ and the \
     community Doom maps in ../shared/realmaps/doom/; put that checkout at ../shared (README.md, \
     `../shared`; docs/testing.md, Test data)";

/// How to get `tests/data`, for the messages of tests that need it.
pub const TEST_DATA_HINT: &str =
    "tests/data/ is part of this repository: restore it from git (`git checkout -- tests/data`)";

/// Path of a Freedoom IWAD (`freedoom1.wad` or `freedoom2.wad`). Panics with an install hint
/// when it is missing: these tests are meant to run, not to be skipped silently.
pub fn freedoom(file: &str) -> PathBuf {
    let path = Path::new(FREEDOOM_DIR).join(file);
    assert!(
        path.is_file(),
        "{} not found: {FREEDOOM_HINT} — these tests need both freedoom1.wad and freedoom2.wad",
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

/// `../shared/<rel>` (beside this checkout): panics with a hint when it is missing.
pub fn shared(rel: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared").join(rel);
    assert!(path.exists(), "{} not found: {SHARED_HINT}", path.display());
    path
}

/// `../shared/fixtures/<rel>`: a format's fixture folder (`saturn`) or a file in it
/// (`saturn/test_room.lev`); panics with a hint when it is missing.
pub fn fixture(rel: &str) -> PathBuf {
    shared(&format!("fixtures/{rel}"))
}

/// `../shared/realmaps/doom/<file>`: a community Doom map (`vgpdm01.wad`); panics with a hint
/// when it is missing.
pub fn realmap(file: &str) -> PathBuf {
    shared(&format!("realmaps/doom/{file}"))
}

/// `tests/data/<rel>`: panics with a hint when it is missing.
pub fn test_data(rel: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel);
    assert!(path.exists(), "{} not found: {TEST_DATA_HINT}", path.display());
    path
}

/// Asserts that a loop over test data met at least `min` items (files, maps, probes), so that
/// data gone missing or emptied fails the test instead of letting it pass without checking
/// anything. `what` names the data and where it lives; `hint` says how to get it (one of the
/// `*_HINT`s).
pub fn assert_at_least(found: usize, min: usize, what: impl std::fmt::Display, hint: &str) {
    assert!(found >= min, "{what}: found {found}, expected at least {min}: {hint}");
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

/// The folder `MAPSCOPE_TEST_RENDERS` names, with `area` below it (created), where tests
/// write the renders they check for a person to look at (docs/testing.md); `None` when the
/// variable is not set.
pub fn renders_dir(area: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("MAPSCOPE_TEST_RENDERS")?).join(area);
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir)
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
