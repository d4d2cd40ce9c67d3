//! Sound effects: the WAD's sound table points at the WAVEFORMAT (the body of a WAVE file's
//! "fmt " chunk) and at the samples inside complete WAVE files in the packed block.

use crate::formats::Result;

use super::packed::PackedBlock;
use super::wad::SoundEntry;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveFormat {
    pub format_tag: u16,
    pub channels: u16,
    pub sample_rate: u32,
    pub bytes_per_second: u32,
    pub block_align: u16,
    pub bits_per_sample: u16,
}

/// Decodes the format of `sound` and checks that its samples lie in the packed block.
pub fn wave_format(packed: &PackedBlock, sound: &SoundEntry) -> Result<WaveFormat> {
    let mut r = packed.reader_at("sound format", sound.format)?;
    let format = WaveFormat {
        format_tag: r.u16_le()?,
        channels: r.u16_le()?,
        sample_rate: r.u32_le()?,
        bytes_per_second: r.u32_le()?,
        block_align: r.u16_le()?,
        bits_per_sample: r.u16_le()?,
    };
    packed.reader("sound samples").slice_at(sound.data as usize, sound.data_size as usize)?;
    Ok(format)
}
