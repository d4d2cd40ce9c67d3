//! Saucerman: the `Saucerdata.pak` zip, every level in it read, loaded and built.
#![no_main]

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope_formats::formats::saucer::{build_scene, Pak, SaucerLevel};
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    let Ok(pak) = Pak::parse("fuzz.pak", data.to_vec()) else { return };
    for level in pak.levels() {
        let (Ok(wad), Ok(map)) = (pak.read(&level.wad), pak.read(&level.map)) else { continue };
        if let Ok(l) = SaucerLevel::load(&level.name, &level.wad, &wad, &level.map, &map) {
            let _ = build_scene(&l);
        }
    }
});
