//! The wall texture and flat the Doom room tests draw with (`tests/doom_boom.rs`,
//! `tests/doom_udmf_props.rs`): a 64x128 checker of two palette colours as patch `CHECKP` and
//! `TEXTURES` entry `CHECKW`, and a flat `STRIPES` of 32-texel vertical stripes, so that a
//! texture's offset, scale, rotation or scroll shows as a change of one colour for the other;
//! and the player start the rooms share.

use mapscope::formats::doom::map::Thing;
use mapscope::formats::doom::writer::{patch_lump, WadWriter};

/// Two palette indices far apart in Freedoom's palette (A green, B blue).
pub const A: u8 = 112;
pub const B: u8 = 200;

/// Adds the patch, its `TEXTURES` entry and the flat to `w`.
pub fn add_check_textures(w: &mut WadWriter) {
    let checker: Vec<Option<u8>> = (0..64 * 128)
        .map(|i| Some(if (i % 64 / 8 + i / 64 / 8) % 2 == 0 { A } else { B }))
        .collect();
    w.marker("P_START");
    w.lump("CHECKP", patch_lump(64, 128, 0, 0, &checker));
    w.marker("P_END");
    w.lump("TEXTURES", b"WallTexture \"CHECKW\", 64, 128 { Patch \"CHECKP\", 0, 0 }\n".to_vec());
    w.marker("FF_START");
    w.lump("STRIPES", (0..4096).map(|i| if i % 64 < 32 { A } else { B }).collect());
    w.marker("FF_END");
}

/// Player 1's start at (128, 32) facing north, on every skill: where the room tests' maps
/// put their viewer.
pub fn player_start() -> Thing {
    Thing { x: 128 << 16, y: 32 << 16, angle: 90, kind: 1, flags: 7, ..Default::default() }
}
