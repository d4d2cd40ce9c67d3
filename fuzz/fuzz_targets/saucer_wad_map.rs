//! Saucerman: a level WAD + map pair, loaded and built. The input is split in two
//! (`split2`); the first part is the WAD after its two fixed-size lookup tables (which the
//! target supplies as zeros, so the fuzzer does not spend its time on 1.3 MB of tables),
//! the second the map.
#![no_main]

use std::sync::Mutex;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::saucer::wad::{LUT1_SIZE, LUT2_SIZE};
use mapscope_formats::formats::saucer::{build_scene, SaucerLevel};
use mapscope_fuzz::split2;

fuzz_target!(|data: &[u8]| {
    // One buffer for every input: the zero tables stay in place (nothing writes them) and
    // only the fuzzed tail is copied after them.
    static WAD: Mutex<Vec<u8>> = Mutex::new(Vec::new());
    let (wad_tail, map) = split2(data);
    let mut wad = WAD.lock().unwrap_or_else(|e| e.into_inner());
    wad.resize(LUT1_SIZE + LUT2_SIZE, 0);
    wad.extend_from_slice(wad_tail);
    if let Ok(l) = SaucerLevel::load("FUZZ", "LEVELS/FUZZ.wad", &wad, "maps/FUZZ.map", map) {
        let _ = build_scene(&l);
    }
});
