//! Animated GIFs of rendered frames. Doom's faithful frames are already palette images: their
//! pixels are all colours of the level's palette, so such frames go out as indices into one
//! global palette, exactly. A frame with other colours (smooth mode, other games' true
//! colour) gets its own palette by NeuQuant, which is deterministic: the same frames give the
//! same bytes.

use std::collections::HashMap;
use std::io::Write;

use anyhow::{bail, Context, Result};

/// NeuQuant's sampling (1 best, 30 fastest); 10 is the gif crate's own compromise.
const QUANTISE_SPEED: i32 = 10;

/// Entries of the colour cache: 2^12, indexed by the top 12 bits of a 32-bit hash.
const CACHE_SIZE: usize = 1 << 12;

/// Writes frames of one size to an animated GIF that loops.
pub struct GifWriter<W: Write> {
    encoder: gif::Encoder<W>,
    width: u16,
    height: u16,
    /// The global palette's index of each of its colours (the first where one repeats).
    palette_index: HashMap<[u8; 3], u8>,
    fps: f64,
    frames: u64,
}

impl<W: Write> GifWriter<W> {
    /// A GIF of `width` x `height` frames shown at `fps`, with `palette` (at most 256
    /// colours; may be empty) as its global palette.
    pub fn new(out: W, width: u32, height: u32, palette: &[[u8; 3]], fps: f64) -> Result<Self> {
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            bail!("a GIF is at most 65535 pixels each way, not {width}x{height}");
        };
        let palette = if palette.len() <= 256 { palette } else { &[] };
        let flat: Vec<u8> = palette.iter().flatten().copied().collect();
        let mut encoder = gif::Encoder::new(out, w, h, &flat).context("starting the GIF")?;
        encoder.set_repeat(gif::Repeat::Infinite).context("writing the GIF")?;
        let mut palette_index = HashMap::new();
        for (i, c) in palette.iter().enumerate() {
            palette_index.entry(*c).or_insert(i as u8);
        }
        Ok(GifWriter { encoder, width: w, height: h, palette_index, fps, frames: 0 })
    }

    /// Adds the next frame.
    pub fn add(&mut self, image: &image::RgbaImage) -> Result<()> {
        if image.dimensions() != (u32::from(self.width), u32::from(self.height)) {
            bail!(
                "a frame of {:?}, not the GIF's {}x{}",
                image.dimensions(),
                self.width,
                self.height
            );
        }
        // A frame uses few colours many times over: a small direct-mapped cache in front of
        // the map keeps the look-up off the hasher for nearly every pixel.
        let mut cache = vec![(u32::MAX, 0u8); CACHE_SIZE];
        let indices: Option<Vec<u8>> = image
            .pixels()
            .map(|p| {
                let rgb = u32::from_le_bytes([p[0], p[1], p[2], 0]);
                let slot = &mut cache[(rgb.wrapping_mul(0x9E37_79B1) >> 20) as usize];
                if slot.0 == rgb {
                    return Some(slot.1);
                }
                let i = self.palette_index.get(&[p[0], p[1], p[2]]).copied()?;
                *slot = (rgb, i);
                Some(i)
            })
            .collect();
        let mut frame = match indices {
            Some(indices) => {
                gif::Frame::from_indexed_pixels(self.width, self.height, indices, None)
            }
            None => {
                let mut rgba = image.as_raw().clone();
                // GIF has no partial transparency and the frames are opaque.
                rgba.chunks_exact_mut(4).for_each(|p| p[3] = 255);
                gif::Frame::from_rgba_speed(self.width, self.height, &mut rgba, QUANTISE_SPEED)
            }
        };
        frame.delay = self.delay_of(self.frames);
        self.encoder.write_frame(&frame).context("writing a GIF frame")?;
        self.frames += 1;
        Ok(())
    }

    /// Ends the file.
    pub fn finish(self) -> Result<W> {
        self.encoder.into_inner().context("ending the GIF")
    }

    /// How long frame `i` shows, in the GIF's hundredths of a second: the whole hundredths
    /// between where it starts and where the next does, so that the film keeps its rate over
    /// many frames (35 fps: 3, 3, 3, 3, 2, ... hundredths).
    fn delay_of(&self, i: u64) -> u16 {
        let at = |n: u64| (n as f64 * 100.0 / self.fps).round();
        (at(i + 1) - at(i)).clamp(1.0, f64::from(u16::MAX)) as u16
    }
}
