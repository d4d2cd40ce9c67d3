//! Doom: a WAD (IWAD or PWAD) loaded over a minimal IWAD holding only a palette and colour
//! maps, then every map in the stack built (map lumps, BSP subsector polygons, textures,
//! patches, flats, sprites), as `mapscope FILE` does.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
// Links the capped allocator.
use mapscope::formats::doom::writer::{playpal_lump, WadWriter};
use mapscope::formats::doom::{build_scene, Wad, WadStack};
use mapscope_fuzz as _;

fn base_iwad() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut pal = [[0u8; 3]; 256];
        for (i, c) in pal.iter_mut().enumerate() {
            *c = [i as u8, (i * 7) as u8, (255 - i) as u8];
        }
        let colormap: Vec<u8> = (0..34 * 256).map(|i| (i % 256) as u8).collect();
        let mut w = WadWriter::iwad();
        w.lump("PLAYPAL", playpal_lump(&pal, 14)).lump("COLORMAP", colormap);
        w.to_bytes()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(wad) = Wad::from_bytes("fuzz.wad", data.to_vec()) else { return };
    let base = Wad::from_bytes("base.wad", base_iwad().to_vec()).expect("base IWAD parses");
    let stack = WadStack::new(vec![base, wad]);
    for name in stack.map_names() {
        let _ = build_scene(&stack, &name);
    }
});
