//! Carmageddon 2: a TWT archive, every file in it parsed and every ACT built as a track.
#![no_main]

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope_formats::formats::carma2::{build_scene, Subject, TrackFiles};
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    let Ok(files) = TrackFiles::from_archive_bytes("FUZZ.TWT", data.to_vec()) else { return };
    for act in files.maps() {
        let _ = build_scene(&files.library, Subject::Track(&act), None);
    }
});
