//! `compare`'s PNG input: `load_png` with its decoding limits, on a file in /dev/shm (the
//! loader takes a path).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope::compare::load_png;
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
    }
});
