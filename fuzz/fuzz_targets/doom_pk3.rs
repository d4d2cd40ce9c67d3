//! Doom: a PK3 package (zip) loaded over a minimal IWAD holding only a palette and colour
//! maps, then every map in the stack built, as `mapscope IWAD FILE.pk3` does: the zip's
//! directory and members, map WADs in `maps/`, namespaces, TEXTURES, PNG pictures.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::doom::archive::pk3::read_package;
use mapscope_formats::formats::doom::{build_scene, Wad, WadStack};
// Also links the capped allocator.
use mapscope_fuzz::doom_base_iwad;

fuzz_target!(|data: &[u8]| {
    let Ok(wads) = read_package("fuzz.pk3", Cursor::new(data)) else { return };
    let base = Wad::from_bytes("base.wad", doom_base_iwad().to_vec()).expect("base IWAD parses");
    let stack = WadStack::new(std::iter::once(base).chain(wads).collect());
    for name in stack.map_names() {
        let _ = build_scene(&stack, &name);
    }
});
