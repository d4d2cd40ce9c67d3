//! Doom: a PK7 package (7z) loaded over a minimal IWAD holding only a palette and colour
//! maps, then every map in the stack built, as `mapscope IWAD FILE.pk7` does: the start
//! header, the header walk that bounds what the decoder is given (plain or LZMA-compressed
//! header, coders, dictionaries, counts), the folders decoded, then what PK3s share (map
//! WADs in `maps/`, namespaces, TEXTURES, PNG pictures).
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::doom::archive::pk7::read_package;
use mapscope_formats::formats::doom::{build_scene, Wad, WadStack};
// Also links the capped allocator.
use mapscope_fuzz::doom_base_iwad;

fuzz_target!(|data: &[u8]| {
    let Ok(wads) = read_package("fuzz.pk7", Cursor::new(data)) else { return };
    let base = Wad::from_bytes("base.wad", doom_base_iwad().to_vec()).expect("base IWAD parses");
    let stack = WadStack::new(std::iter::once(base).chain(wads).collect());
    for name in stack.map_names() {
        let _ = build_scene(&stack, &name);
    }
});
