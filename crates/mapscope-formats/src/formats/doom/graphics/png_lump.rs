//! PNG pictures in WADs and packages (patches, flats, sprites, textures), read as GZDoom
//! reads them: any lump starting with the PNG signature is a PNG whatever its name or
//! namespace. Colours become palette indices by [`PaletteMatcher`]'s rule; a texel with alpha
//! below [`ALPHA_OPAQUE`] is transparent. The `grAb` chunk (SLADE and ZDoom's extension: two
//! big-endian signed 32-bit numbers) gives the picture's left and top offsets, as a Doom
//! picture's header does.
//!
//! Bounded: the chunk walk checks every length against the lump, the size is checked against
//! [`MAX_PICTURE_TEXELS`] before any pixel is decoded, and the decoder's own allocations are
//! capped.

use std::io::Cursor;

use crate::formats::{FormatError, Result};

use super::palette_match::{PaletteMatcher, ALPHA_OPAQUE};
use super::picture::Picture;
use crate::formats::doom::archive::wad::Lump;
use crate::limits::doom::{MAX_PICTURE_TEXELS, MAX_PNG_SIDE};

pub const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// Whether a lump holds a PNG.
pub fn is_png(data: &[u8]) -> bool {
    data.starts_with(&PNG_SIGNATURE)
}

/// What the chunks say about the picture, before its pixels are decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PngHeader {
    pub width: u32,
    pub height: u32,
    /// `grAb` offsets (left, top), if present.
    pub grab: Option<(i32, i32)>,
}

/// Walks the chunks (signature, then length, type, data, CRC each) up to IEND or the end of
/// the lump: the size from IHDR, which must come first, and the offsets from `grAb`.
pub fn read_header(lump: &Lump<'_>) -> Result<PngHeader> {
    let mut r = lump.reader("PNG chunk");
    if r.bytes(8)? != PNG_SIGNATURE {
        return Err(r.error_at(0, format!("{} is not a PNG (bad signature)", lump.name)));
    }
    let mut header: Option<PngHeader> = None;
    // Each pass consumes at least the 12 bytes of a chunk's frame, so the walk ends.
    while r.remaining() > 0 {
        let at = r.pos();
        let len = r.u32_be()? as usize;
        let kind = r.bytes(4)?;
        let name = String::from_utf8_lossy(kind).into_owned();
        if len > r.remaining() {
            return Err(r.error_at(
                at,
                format!("chunk {name} of {len} bytes runs past the end of {}", lump.name),
            ));
        }
        let body = r.bytes(len)?;
        r.skip(4)?;
        match (kind, &mut header) {
            (b"IHDR", None) => {
                let be = |i: usize| {
                    body.get(i..i + 4).map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
                };
                let (width, height) = (be(0), be(4));
                if len != 13 || width == 0 || height == 0 {
                    return Err(r.error_at(
                        at,
                        format!("bad IHDR in {}: {len} bytes, {width}x{height}", lump.name),
                    ));
                }
                let texels = width as u64 * height as u64;
                if width > MAX_PNG_SIDE
                    || height > MAX_PNG_SIDE
                    || texels > MAX_PICTURE_TEXELS as u64
                {
                    return Err(r.error_at(
                        at,
                        format!("{} is {width}x{height}, larger than accepted", lump.name),
                    ));
                }
                header = Some(PngHeader { width, height, grab: None });
            }
            (_, None) => {
                return Err(r.error_at(at, format!("{} starts with {name}, not IHDR", lump.name)))
            }
            (b"grAb", Some(h)) => {
                if body.len() != 8 {
                    return Err(r.error_at(
                        at,
                        format!("grAb chunk of {} has {len} bytes, not 8", lump.name),
                    ));
                }
                let be = |b: &[u8]| i32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                h.grab = Some((be(&body[..4]), be(&body[4..])));
            }
            (b"IEND", Some(_)) => break,
            _ => {}
        }
    }
    header.ok_or_else(|| r.error_at(8, format!("{} has no IHDR chunk", lump.name)))
}

/// Decodes the pixels, handing each to `each` as 8-bit RGBA in row-major order (no second
/// copy of the image is made).
pub fn decode_pixels(lump: &Lump<'_>, mut each: impl FnMut([u8; 4])) -> Result<PngHeader> {
    let header = read_header(lump)?;
    let error = |msg: String| {
        FormatError::new(lump.file, "PNG image data", lump.offset, format!("{}: {msg}", lump.name))
    };
    // Room for the 16-bit RGBA image of the largest accepted picture and the decoder's rows.
    let limits = png::Limits { bytes: 8 * MAX_PICTURE_TEXELS + (16 << 20) };
    let mut decoder = png::Decoder::new_with_limits(Cursor::new(lump.data), limits);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| error(e.to_string()))?;
    let size = reader.output_buffer_size().ok_or_else(|| error("image too large".into()))?;
    let mut buf = vec![0u8; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| error(e.to_string()))?;
    let (w, h) = (header.width as usize, header.height as usize);
    let channels = match frame.color_type {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        // EXPAND turns indexed images into RGB(A).
        png::ColorType::Indexed => return Err(error("indexed colour was not expanded".into())),
    };
    let line = frame.line_size;
    if frame.bit_depth != png::BitDepth::Eight || line < w * channels || buf.len() < line * h {
        return Err(error("unexpected decoded layout".into()));
    }
    for row in buf.chunks_exact(line).take(h) {
        for px in row[..w * channels].chunks_exact(channels) {
            each(match *px {
                [v] => [v, v, v, 255],
                [v, a] => [v, v, v, a],
                [r, g, b] => [r, g, b, 255],
                [r, g, b, a] => [r, g, b, a],
                _ => [0, 0, 0, 0],
            });
        }
    }
    Ok(header)
}

/// Decodes a PNG lump into a picture in the palette (see the module notes).
pub fn decode_png(lump: &Lump<'_>, colours: &mut PaletteMatcher) -> Result<Picture> {
    let size = read_header(lump)?;
    let texels = size.width as usize * size.height as usize;
    let mut index = Vec::with_capacity(texels);
    let mut opaque = Vec::with_capacity(texels);
    let header = decode_pixels(lump, |px| {
        let shown = px[3] >= ALPHA_OPAQUE;
        index.push(if shown { colours.nearest([px[0], px[1], px[2]]) } else { 0 });
        opaque.push(shown);
    })?;
    let (left, top) = header.grab.unwrap_or((0, 0));
    let clamp = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    Ok(Picture {
        width: header.width as u16,
        height: header.height as u16,
        left: clamp(left),
        top: clamp(top),
        index,
        opaque,
        clipped: 0,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn png_bytes(w: u32, h: u32, rgba: &[u8], grab: Option<(i32, i32)>) -> Vec<u8> {
        crate::formats::doom::archive::writer::png_lump(w, h, rgba, grab).unwrap()
    }

    fn lump(data: &[u8]) -> Lump<'_> {
        Lump { name: "PIC", data, file: "t.pk3:patches/pic.png", offset: 0 }
    }

    #[test]
    fn grab_offsets_are_read() {
        let b = png_bytes(2, 1, &[0; 8], Some((-5, 77)));
        let h = read_header(&lump(&b)).unwrap();
        assert_eq!((h.width, h.height, h.grab), (2, 1, Some((-5, 77))));
        let b = png_bytes(2, 1, &[0; 8], None);
        assert_eq!(read_header(&lump(&b)).unwrap().grab, None);
    }

    #[test]
    fn colours_map_to_the_palette_and_alpha_to_transparency() {
        let pal = [[0, 0, 0], [250, 0, 0], [0, 0, 250], [255, 255, 255]];
        let mut m = PaletteMatcher::new(&pal);
        // red, near-blue, transparent white, half-opaque white
        let px = [255, 0, 0, 255, 10, 10, 240, 255, 255, 255, 255, 0, 255, 255, 255, 128];
        let b = png_bytes(2, 2, &px, Some((3, 4)));
        let p = decode_png(&lump(&b), &mut m).unwrap();
        assert_eq!((p.width, p.height, p.left, p.top), (2, 2, 3, 4));
        assert_eq!(p.index, vec![1, 2, 0, 3]);
        assert_eq!(p.opaque, vec![true, true, false, true]);
    }

    #[test]
    fn corrupt_pngs_are_errors_with_offsets() {
        let good = png_bytes(2, 2, &[9; 16], Some((1, 1)));
        // Cut in the middle of a chunk.
        let cut = &good[..good.len() - 20];
        let e = decode_pixels(&lump(cut), |_| {}).unwrap_err();
        assert_eq!(e.file, "t.pk3:patches/pic.png");
        // A grAb of the wrong length.
        let mut bad = good[..33].to_vec();
        bad.extend(4u32.to_be_bytes());
        bad.extend(b"grAb\0\0\0\0\0\0\0\0");
        let e = read_header(&lump(&bad)).unwrap_err();
        assert_eq!((e.structure.as_str(), e.offset), ("PNG chunk", 33));
        assert!(e.message.contains("grAb"), "{e}");
        // A chunk length past the end.
        let mut long = good[..33].to_vec();
        long.extend(0x7fff_ffffu32.to_be_bytes());
        long.extend(b"IDAT");
        let e = read_header(&lump(&long)).unwrap_err();
        assert_eq!(e.offset, 33);
        // A huge declared size is refused before decoding.
        let mut huge = good.clone();
        huge[16..20].copy_from_slice(&30000u32.to_be_bytes());
        huge[20..24].copy_from_slice(&30000u32.to_be_bytes());
        let e = read_header(&lump(&huge)).unwrap_err();
        assert!(e.message.contains("larger than accepted"), "{e}");
        // Damaged image data: the decoder's error, naming the lump.
        let mut damaged = good.clone();
        let idat = damaged.windows(4).position(|w| w == b"IDAT").unwrap();
        damaged[idat + 6] ^= 0xFF;
        let e = decode_pixels(&lump(&damaged), |_| {}).unwrap_err();
        assert_eq!(e.structure, "PNG image data");
        assert!(e.message.starts_with("PIC: "), "{e}");
    }
}
