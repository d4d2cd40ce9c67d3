//! Doom's text lumps: arbitrary bytes (after a first byte that picks MAPINFO, ZMAPINFO,
//! UMAPINFO or ANIMDEFS) as that lump of a file, read for MAP01's skies and for animations as
//! building a level reads them; the same bytes are also the lump `INCLUDED`, so `include`
//! directives recurse.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::doom::archive::wad::{Wad, WadStack};
use mapscope_formats::formats::doom::archive::writer::WadWriter;
use mapscope_formats::formats::doom::map::map_info::map_skies;
use mapscope_formats::formats::doom::specials::animdefs::animdefs;
// Links the capped allocator.
use mapscope_fuzz as _;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, text)) = data.split_first() else { return };
    let name = ["MAPINFO", "ZMAPINFO", "UMAPINFO", "ANIMDEFS"][pick as usize % 4];
    let mut w = WadWriter::pwad();
    w.lump(name, text.to_vec());
    w.lump("INCLUDED", text.to_vec());
    let Ok(wad) = Wad::from_bytes("fuzz.wad", w.to_bytes()) else { return };
    let stack = WadStack::new(vec![wad]);
    let _ = map_skies(&stack, "MAP01", &mut Vec::new());
    let _ = animdefs(&stack, &mut Vec::new());
});
