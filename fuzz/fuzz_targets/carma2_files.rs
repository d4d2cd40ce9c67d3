//! Carmageddon 2: one loose ACT, DAT, MAT or PIX file (picked by the first input byte) added
//! to the fixture track's files, then the track (or, for a DAT, its models) built.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::carma2::{build_scene, Library, Subject};
use mapscope_fuzz::fixture;

const FIXTURE_FILES: [&str; 10] = [
    "REG/PALETTES/DRRENDER.PAL",
    "PIXELMAP/PROBE8.PIX",
    "PIXELMAP/PROBE4444.PIX",
    "PIXELMAP/PROBE565.PIX",
    "PIXELMAP/TRACK.P16",
    "PIXELMAP/FENCE8.PIX",
    "PIXELMAP/TRACK.P08",
    "MATERIAL/TRACK.MAT",
    "MATERIAL/PROBES.MAT",
    "MODELS/TRACK.DAT",
];

fuzz_target!(|data: &[u8]| {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let files = FILES.get_or_init(|| {
        let mut v: Vec<(String, Vec<u8>)> = FIXTURE_FILES
            .iter()
            .map(|f| (f.rsplit('/').next().unwrap().to_string(), fixture(&format!("carma2/{f}"))))
            .collect();
        v.push(("SIGN.DAT".into(), fixture("carma2/MODELS/SIGN.DAT")));
        v.push(("TRACK.ACT".into(), fixture("carma2/ACTORS/TRACK.ACT")));
        v
    });
    let Some((&kind, file)) = data.split_first() else { return };
    let name = ["FUZZ.ACT", "FUZZ.DAT", "FUZZ.MAT", "FUZZ.PIX"][usize::from(kind & 3)];
    let mut lib = Library::default();
    // The fuzzed file first, so its names win over the fixtures' where they clash.
    lib.add_file(name, file);
    for (n, b) in files {
        lib.add_file(n, b);
    }
    let _ = match kind & 3 {
        0 => build_scene(&lib, Subject::Track(name), None),
        1 => build_scene(&lib, Subject::Models(name), None),
        _ => build_scene(&lib, Subject::Track("TRACK.ACT"), None),
    };
});
