//! Doom: a WAD (IWAD or PWAD) loaded over a minimal IWAD holding only a palette and colour
//! maps, then every map in the stack built (map lumps, BSP subsector polygons, textures,
//! patches, flats, sprites; TEXTURES lumps and PNG pictures too), as `mapscope FILE` does.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mapscope_formats::formats::doom::{build_scene, Wad, WadStack};
// Also links the capped allocator.
use mapscope_fuzz::doom_base_iwad;

fuzz_target!(|data: &[u8]| {
    let Ok(wad) = Wad::from_bytes("fuzz.wad", data.to_vec()) else { return };
    let base = Wad::from_bytes("base.wad", doom_base_iwad().to_vec()).expect("base IWAD parses");
    let stack = WadStack::new(vec![base, wad]);
    for name in stack.map_names() {
        let _ = build_scene(&stack, &name);
    }
});
