//! Saucerman: a level WAD + map pair, loaded and built. The input is split in two
//! (`split2`); the first part is the WAD after its two fixed-size lookup tables (which the
//! target supplies as zeros, so the fuzzer does not spend its time on 1.3 MB of tables),
//! the second the map.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mapscope::formats::saucer::wad::{LUT1_SIZE, LUT2_SIZE};
use mapscope::formats::saucer::{build_scene, SaucerLevel};
use mapscope_fuzz::split2;

fuzz_target!(|data: &[u8]| {
    static LUTS: OnceLock<Vec<u8>> = OnceLock::new();
    let (wad_tail, map) = split2(data);
    let mut wad = LUTS.get_or_init(|| vec![0u8; LUT1_SIZE + LUT2_SIZE]).clone();
    wad.extend_from_slice(wad_tail);
    if let Ok(l) = SaucerLevel::load("FUZZ", "LEVELS/FUZZ.wad", &wad, "maps/FUZZ.map", map) {
        let _ = build_scene(&l);
    }
});
