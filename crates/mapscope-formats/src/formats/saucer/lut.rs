//! The lookup tables as the shader reads them, and the same arithmetic on the CPU.
//!
//! `tables` layout (u32 words): [background index, fog near, fog far, LUT1 word offset,
//! LUT2 word offset, 0, 0, 0], then LUT1 and LUT2 packed four bytes a word (little-endian).
//! LUT1 byte `part*16384 + level*256 + colour`, LUT2 byte `table*65536 + src*256 + dst`.

use super::wad::{Wad, LUT1_SIZE, LUT2_SIZE};

pub const HEADER_WORDS: usize = 8;
/// Fog levels in LUT1.
pub const FOG_LEVELS: i64 = 64;

pub fn shading_tables(wad: &Wad) -> Vec<u32> {
    let lut1_words = LUT1_SIZE / 4;
    let mut t = Vec::with_capacity(HEADER_WORDS + (LUT1_SIZE + LUT2_SIZE) / 4);
    t.extend([
        wad.header.background & 0xFF,
        wad.header.fog_near,
        wad.header.fog_far,
        HEADER_WORDS as u32,
        (HEADER_WORDS + lut1_words) as u32,
        0,
        0,
        0,
    ]);
    t.extend(wad.lut1.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    t.extend(wad.lut2.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    t
}

/// Fog level for a view depth: 64 steps linear from `near` to `far`, clamped. A header with
/// `far <= near` fogs everything from `far` on fully.
pub fn fog_level(depth: f64, near: u32, far: u32) -> u32 {
    let (near, far) = (near as f64, far as f64);
    if far <= near {
        return if depth >= far { 63 } else { 0 };
    }
    let level = ((depth - near) * FOG_LEVELS as f64 / (far - near)).floor();
    level.clamp(0.0, 63.0) as u32
}
