//! Saturn Quake: a `.LEV` file parsed and built.
#![no_main]

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope_formats::formats::saturn::{build_scene, LevFile};
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    if let Ok(lev) = LevFile::parse("FUZZ.LEV", data) {
        let _ = build_scene(&lev, "FUZZ");
    }
});
