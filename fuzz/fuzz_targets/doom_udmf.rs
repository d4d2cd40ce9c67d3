//! Doom UDMF: arbitrary bytes parsed as a TEXTMAP (the grammar), then mapped onto map records
//! with every cross-reference checked, as loading a UDMF map does before its nodes, and the
//! sectors' slopes (plane equations, vertex heights, Plane_Align) read from them.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::doom::map::udmf;
use mapscope_formats::formats::doom::map::udmf_map::udmf_records;
use mapscope_formats::formats::doom::specials::slopes::{SectorSlopes, CEILING, FLOOR};
// Links the capped allocator.
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    let _ = udmf::namespace_of("fuzz.wad", data, 0);
    let Ok(doc) = udmf::parse("fuzz.wad", data, 0) else { return };
    let Ok(map) = udmf_records("fuzz.wad", "MAP01", &doc) else { return };
    let slopes = SectorSlopes::read(&map, &mut Vec::new());
    // Every sloped plane has a finite height at every vertex (what the scene builder asks).
    for s in 0..map.sectors.len() {
        for which in [FLOOR, CEILING] {
            let Some(plane) = slopes.plane(s, which) else { continue };
            for v in map.vertices.iter().take(256) {
                let p = v.to_dvec2();
                assert!(plane.z_at(p.x, p.y).is_finite());
            }
        }
    }
});
