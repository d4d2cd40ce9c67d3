//! PIX-family files (PIX, P08, P16, PAL): BRender pixelmaps, several a file, an 8-bit one
//! optionally carrying its own palette (a nested type-7 pixelmap attached by record 0x22).

use super::records::{self, cstr, read_objects, Notes, ObjectReader, Parsed};
use crate::formats::{Reader, Result};

/// Pixel types (`BR_PMT_*`) Carmageddon 2 uses.
pub mod pixel_type {
    /// 8-bit palette index; index 0 is transparent.
    pub const INDEX_8: u8 = 3;
    /// 16-bit RGB 5:6:5.
    pub const RGB_565: u8 = 5;
    /// 32-bit `00 RR GG BB`: palettes.
    pub const RGBX_888: u8 = 7;
    /// 16-bit ARGB 4:4:4:4 ("translucent"); alpha 0 is transparent.
    pub const ARGB_4444: u8 = 0x12;

    /// Bytes per pixel of a type, if it is one of these.
    pub fn bytes_per_pixel(t: u8) -> Option<usize> {
        match t {
            INDEX_8 => Some(1),
            RGB_565 | ARGB_4444 => Some(2),
            RGBX_888 => Some(4),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pixelmap {
    pub name: String,
    /// The record it came from: 0x3D, or 0x03 for C1 files.
    pub record: u32,
    pub pixel_type: u8,
    pub row_bytes: u16,
    pub width: u16,
    pub height: u16,
    /// Has no effect on texturing.
    pub origin: [u16; 2],
    /// Absent from C1's 0x03 record.
    pub mip_offset: Option<u16>,
    /// Bytes per element as record 0x21 gives it (0 before the pixels are read).
    pub bytes_per_pixel: u32,
    /// Raw big-endian pixel bytes, `row_bytes` a row.
    pub pixels: Vec<u8>,
    /// Palette attached by record 0x22.
    pub palette: Option<Box<Pixelmap>>,
}

impl Pixelmap {
    /// The raw value of pixel (x, y): an index, or a big-endian 16/32-bit word.
    pub fn raw(&self, x: usize, y: usize) -> Option<u32> {
        let bpp = pixel_type::bytes_per_pixel(self.pixel_type)?;
        if x >= usize::from(self.width) || y >= usize::from(self.height) {
            return None;
        }
        let at = y * usize::from(self.row_bytes) + x * bpp;
        let b = self.pixels.get(at..at + bpp)?;
        Some(b.iter().fold(0u32, |v, &byte| (v << 8) | u32::from(byte)))
    }

    /// Checks that the header and the pixel data agree, so [`Pixelmap::raw`] finds every
    /// pixel.
    pub fn validate(&self) -> std::result::Result<(), String> {
        let bpp = pixel_type::bytes_per_pixel(self.pixel_type)
            .ok_or_else(|| format!("pixel type {} is not supported", self.pixel_type))?;
        if self.bytes_per_pixel as usize != bpp {
            return Err(format!(
                "{} bytes per pixel for pixel type {}, expected {bpp}",
                self.bytes_per_pixel, self.pixel_type
            ));
        }
        let (w, h, row) =
            (usize::from(self.width), usize::from(self.height), usize::from(self.row_bytes));
        if w == 0 || h == 0 {
            return Err(format!("empty pixelmap {w}x{h}"));
        }
        if row < w * bpp {
            return Err(format!("row_bytes {row} is less than width {w} x {bpp} bytes"));
        }
        let need = row * (h - 1) + w * bpp;
        if self.pixels.len() < need {
            return Err(format!(
                "{w}x{h} pixels need {need} bytes, the pixel record has {}",
                self.pixels.len()
            ));
        }
        Ok(())
    }

    /// The colours of a type-7 palette pixelmap, entry i = pixel i in row order.
    pub fn palette_entries(&self) -> std::result::Result<Vec<[u8; 3]>, String> {
        if self.pixel_type != pixel_type::RGBX_888 {
            return Err(format!("{} is not a palette (type {})", self.name, self.pixel_type));
        }
        self.validate()?;
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let mut out = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let v = self.raw(x, y).unwrap_or(0);
                out.push([(v >> 16) as u8, (v >> 8) as u8, v as u8]);
            }
        }
        Ok(out)
    }
}

/// Reads every pixelmap of a PIX-family file.
pub fn parse_pixelmaps(file: &str, data: &[u8]) -> Parsed<Pixelmap> {
    read_objects(file, data, PixelmapReader { file: file.to_string(), stack: Vec::new() })
}

struct PixelmapReader {
    file: String,
    stack: Vec<Pixelmap>,
}

impl ObjectReader for PixelmapReader {
    type Object = Pixelmap;

    fn record(&mut self, kind: u32, body: &mut Reader, notes: &mut Notes) -> Result<bool> {
        let at = body.pos().saturating_sub(8);
        match kind {
            records::PIXELMAP | records::OLD_PIXELMAP => {
                let pixel_type = body.u8()?;
                let row_bytes = body.u16_be()?;
                let width = body.u16_be()?;
                let height = body.u16_be()?;
                let origin = [body.u16_be()?, body.u16_be()?];
                let mip_offset =
                    if kind == records::PIXELMAP { Some(body.u16_be()?) } else { None };
                let name = cstr(body, "pixelmap name")?;
                self.stack.push(Pixelmap {
                    name,
                    record: kind,
                    pixel_type,
                    row_bytes,
                    width,
                    height,
                    origin,
                    mip_offset,
                    bytes_per_pixel: 0,
                    pixels: Vec::new(),
                    palette: None,
                });
            }
            records::PIXELS => {
                let n = body.u32_be()? as usize;
                let bpp_at = body.pos();
                let bpp = body.u32_be()?;
                if bpp == 0 {
                    return Err(body.error_at(bpp_at, "bytes per pixel 0 invalid"));
                }
                if body.check_count(n, bpp as usize, "pixels").is_err() {
                    return Err(body.error_at(
                        bpp_at - 4,
                        format!(
                            "pixel count {n} x {bpp} bytes runs past end ({} left)",
                            body.remaining()
                        ),
                    ));
                }
                let pixels = body.bytes(n * bpp as usize)?.to_vec();
                match self.stack.last_mut() {
                    Some(p) => {
                        p.bytes_per_pixel = bpp;
                        p.pixels = pixels;
                    }
                    None => notes
                        .push(format!("{}: pixels at {at} without a pixelmap; ignored", self.file)),
                }
            }
            records::ADD_MAP => {
                if self.stack.len() < 2 {
                    notes.push(format!(
                        "{}: 0x22 (add map) needs two pixelmaps on the stack (record at {at}); \
                         ignored",
                        self.file
                    ));
                } else if let Some(map) = self.stack.pop() {
                    if let Some(p) = self.stack.last_mut() {
                        p.palette = Some(Box::new(map));
                    }
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn end(&mut self, notes: &mut Notes) -> Option<Pixelmap> {
        let top = self.stack.pop();
        if !self.stack.is_empty() {
            let names: Vec<_> = self.stack.drain(..).map(|p| p.name).collect();
            notes.push(format!(
                "{}: pixelmaps {} left on the stack at the end record; dropped",
                self.file,
                names.join(", ")
            ));
        }
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::writer::write_pixelmaps;

    fn pixelmap(name: &str, pixel_type: u8, w: u16, h: u16, pixels: Vec<u8>) -> Pixelmap {
        let bpp = pixel_type::bytes_per_pixel(pixel_type).unwrap();
        Pixelmap {
            name: name.into(),
            record: records::PIXELMAP,
            pixel_type,
            row_bytes: w * bpp as u16,
            width: w,
            height: h,
            origin: [0, 0],
            mip_offset: Some(0),
            bytes_per_pixel: bpp as u32,
            pixels,
            palette: None,
        }
    }

    #[test]
    fn pixelmaps_with_embedded_palettes_round_trip() {
        let pal = pixelmap("PAL", pixel_type::RGBX_888, 1, 2, vec![0, 1, 2, 3, 0, 4, 5, 6]);
        let mut img = pixelmap("IMG.PIX", pixel_type::INDEX_8, 2, 1, vec![0, 1]);
        img.palette = Some(Box::new(pal.clone()));
        let mut old = pixelmap("OLD", pixel_type::RGB_565, 1, 1, vec![0xe1, 0x9e]);
        old.record = records::OLD_PIXELMAP;
        old.mip_offset = None;
        let maps = vec![img, old];
        let p = parse_pixelmaps("t.pix", &write_pixelmaps(&maps));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects, maps);
        assert_eq!(pal.palette_entries().unwrap(), vec![[1, 2, 3], [4, 5, 6]]);
        assert_eq!(p.objects[1].raw(0, 0), Some(0xe19e));
    }

    #[test]
    fn headers_that_disagree_with_the_pixels_are_refused() {
        let mut p = pixelmap("BIG", pixel_type::RGB_565, 4, 4, vec![0; 8]);
        assert!(p.validate().unwrap_err().contains("need 32 bytes"));
        p.pixel_type = 9;
        assert!(p.validate().unwrap_err().contains("not supported"));
    }
}
