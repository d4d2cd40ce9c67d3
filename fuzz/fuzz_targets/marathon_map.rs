//! Marathon: a scenario wad (plain, MacBinary II or AppleSingle), every level loaded and
//! built with the fixture Shapes file.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::marathon::{build::build_scene, level_names, Level, ShapesFile, Wad};
use mapscope_fuzz::fixture;

fuzz_target!(|data: &[u8]| {
    static SHAPES: OnceLock<Vec<u8>> = OnceLock::new();
    let shapes_bytes = SHAPES.get_or_init(|| fixture("marathon/Shapes.shpA"));
    let shapes = ShapesFile::parse("Shapes.shpA", shapes_bytes).ok();
    let Ok(wad) = Wad::parse("fuzz.sceA", data) else { return };
    for index in 0..level_names(&wad).len() {
        if let Ok(level) = Level::load(&wad, index) {
            let _ = build_scene(&level, shapes.as_ref(), &[]);
        }
    }
});
