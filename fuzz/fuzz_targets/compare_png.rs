//! PNG input: `compare`'s `load_png` with its decoding limits (also how the viewer reads a
//! reference screenshot), and the camera metadata `--from-shot` reads from a shot, on a file
//! in /dev/shm (both take a path).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope::compare::load_png;
use mapscope::shot::ShotMeta;
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    let path = PATH.get_or_init(|| {
        let dir = if std::path::Path::new("/dev/shm").is_dir() {
            PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        dir.join(format!("mapscope-fuzz-{}.png", std::process::id()))
    });
    if std::fs::write(path, data).is_ok() {
        let _ = load_png(path);
        let _ = ShotMeta::read(path);
    }
});
