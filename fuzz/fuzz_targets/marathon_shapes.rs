//! Marathon: a Shapes file, used to build the fixture level's textures.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::marathon::{build::build_scene, Level, ShapesFile, Wad};
use mapscope_fuzz::fixture;

fuzz_target!(|data: &[u8]| {
    static MAP: OnceLock<Vec<u8>> = OnceLock::new();
    let Ok(shapes) = ShapesFile::parse("fuzz.shpA", data) else { return };
    let map = MAP.get_or_init(|| fixture("marathon/M2Map.sceA"));
    let Ok(wad) = Wad::parse("M2Map.sceA", map) else { return };
    if let Ok(level) = Level::load(&wad, 0) {
        let _ = build_scene(&level, Some(&shapes), &[]);
    }
});
