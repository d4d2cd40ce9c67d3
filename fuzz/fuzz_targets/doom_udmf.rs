//! Doom UDMF: arbitrary bytes parsed as a TEXTMAP (the grammar), then mapped onto map records
//! with every cross-reference checked, as loading a UDMF map does before its nodes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mapscope::formats::doom::udmf;
use mapscope::formats::doom::udmf_map::udmf_records;
// Links the capped allocator.
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    let _ = udmf::namespace_of("fuzz.wad", data, 0);
    let Ok(doc) = udmf::parse("fuzz.wad", data, 0) else { return };
    let _ = udmf_records("fuzz.wad", "MAP01", &doc);
});
