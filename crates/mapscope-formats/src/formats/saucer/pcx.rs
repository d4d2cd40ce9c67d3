//! Loading-screen pictures (`Bitmaps/*.pcx`): only the header is read, for `info`; nothing
//! in a level depends on them.

use crate::formats::{Reader, Result};

const PCX_MANUFACTURER: u8 = 0x0A;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PcxHeader {
    pub version: u8,
    pub bits_per_pixel: u8,
    pub width: u32,
    pub height: u32,
}

pub fn read_header(file: &str, data: &[u8]) -> Result<PcxHeader> {
    let mut r = Reader::new(file, "PCX header", data);
    if r.u8()? != PCX_MANUFACTURER {
        return Err(r.error_at(0, "not a PCX picture (first byte is not 0x0A)"));
    }
    let version = r.u8()?;
    // Encoding byte (1 = run-length); only the header matters here.
    r.skip(1)?;
    let bits_per_pixel = r.u8()?;
    let (x0, y0, x1, y1) = (r.u16_le()?, r.u16_le()?, r.u16_le()?, r.u16_le()?);
    if x1 < x0 || y1 < y0 {
        return Err(r.error_at(4, format!("window {x0},{y0}..{x1},{y1} is empty")));
    }
    Ok(PcxHeader {
        version,
        bits_per_pixel,
        width: (x1 - x0) as u32 + 1,
        height: (y1 - y0) as u32 + 1,
    })
}
