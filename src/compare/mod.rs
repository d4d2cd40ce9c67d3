//! Pixel comparison of two frames: the engine behind `mapscope compare`.
//!
//! Image A is the *reference* (for instance a Chocolate Doom frame), image B the *candidate*
//! (a mapscope render). The figures are symmetric in A and B; only [`diff_image`] uses A as
//! the backdrop. Only the RGB channels are compared: the alpha of A and B is ignored.
//!
//! A mask (same size as the images) selects the pixels to compare: a black (RGB 0,0,0) or
//! fully transparent (alpha 0) mask pixel excludes that pixel, anything else includes it.
//!
//! Figures, over the compared pixels only:
//! - `identical_share`: share of pixels whose three channels are equal;
//! - `within_tolerance_share`: share whose largest channel difference is at most
//!   `tolerance` (identical pixels included);
//! - `mean_abs_error`: mean absolute difference per RGB channel, 0..255;
//! - `psnr_db`: `10·log10(255² / MSE)` with the MSE over RGB channels; infinite when the
//!   compared pixels are identical;
//! - `max_channel_error`: the largest single channel difference.
//!
//! Everything that sets a render beside a screenshot of the game lives under this module,
//! because each part feeds or reads these figures: [`screenshot`] takes a screenshot as
//! people keep it back to the game's frame buffer, [`placement`] lays a reference on a frame
//! of another size (the viewer's reference view and its live figures), [`align`] searches
//! for the camera and tic whose render matches a screenshot best (`compare --align`) and
//! [`locate`] for the camera with no guess (`mapscope locate`), both scoring renders with a
//! [`judge::Judge`].

pub mod align;
pub mod judge;
pub mod locate;
pub mod placement;
pub mod screenshot;

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use image::{ImageFormat, ImageReader, Rgba, RgbaImage};
use serde_json::json;

use crate::limits::compare::{MAX_PNG_ALLOC, MAX_PNG_DIMENSION};

/// Default tolerance: largest channel difference (0..255) that still counts as "close".
pub const DEFAULT_TOLERANCE: u8 = 8;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

// Colours of the diff image.
const DIFF_MASKED: Rgba<u8> = Rgba([0, 0, 96, 255]);
const DIFF_WITHIN: Rgba<u8> = Rgba([255, 255, 0, 255]);

/// Why a comparison (or loading an image for one) failed. Every message is one line that
/// names the file or both sizes involved. The underlying error is part of the message, not a
/// `source`: shown with its chain (`{:#}`), it would repeat.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("{}: {reason}", path.display())]
    Io { path: PathBuf, reason: std::io::Error },
    #[error("{}: not a PNG file (no PNG signature)", path.display())]
    NotPng { path: PathBuf },
    #[error("{}: not a PNG or JPEG file", path.display())]
    NotPicture { path: PathBuf },
    #[error("{}: cannot decode JPEG: {reason}", path.display())]
    DecodeJpeg { path: PathBuf, reason: image::ImageError },
    #[error("{}: cannot decode PNG: {reason}", path.display())]
    Decode { path: PathBuf, reason: image::ImageError },
    #[error("image sizes differ: A is {}x{}, B is {}x{}", a.0, a.1, b.0, b.1)]
    SizeMismatch { a: (u32, u32), b: (u32, u32) },
    #[error("mask size {}x{} differs from image size {}x{}", mask.0, mask.1, image.0, image.1)]
    MaskSizeMismatch { mask: (u32, u32), image: (u32, u32) },
    #[error("nothing to compare: the mask excludes every pixel of the {}x{} images", size.0, size.1)]
    NothingCompared { size: (u32, u32) },
}

/// How to compare.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// Largest channel difference (0..255) counted as "within tolerance". Default 8.
    pub tolerance: u8,
    /// Pixels where the mask is black (RGB 0,0,0) or has alpha 0 are not compared.
    pub mask: Option<RgbaImage>,
}

impl Default for CompareOptions {
    fn default() -> Self {
        CompareOptions { tolerance: DEFAULT_TOLERANCE, mask: None }
    }
}

/// The figures of one comparison (see the module documentation for their definitions).
#[derive(Debug, Clone, PartialEq)]
pub struct CompareReport {
    pub width: u32,
    pub height: u32,
    /// The tolerance the within-tolerance figures were computed with.
    pub tolerance: u8,
    /// Pixels compared (all pixels less those the mask excludes); never 0.
    pub compared_pixels: u64,
    /// Compared pixels whose RGB are equal.
    pub identical_pixels: u64,
    /// Compared pixels whose largest channel difference is at most `tolerance`.
    pub within_tolerance_pixels: u64,
    /// `identical_pixels / compared_pixels`, 0..=1.
    pub identical_share: f64,
    /// `within_tolerance_pixels / compared_pixels`, 0..=1.
    pub within_tolerance_share: f64,
    /// Mean absolute difference per RGB channel, 0..=255.
    pub mean_abs_error: f64,
    /// Peak signal-to-noise ratio in dB; `f64::INFINITY` when the compared pixels are equal.
    pub psnr_db: f64,
    /// Largest difference of any one channel of any compared pixel.
    pub max_channel_error: u8,
}

impl CompareReport {
    /// Total pixels of the images (compared or not).
    pub fn total_pixels(&self) -> u64 {
        self.width as u64 * self.height as u64
    }

    /// The report as one JSON object. JSON has no infinity: an infinite `psnr_db` is written
    /// as `null` (and `"identical": true` says why).
    pub fn to_json(&self) -> serde_json::Value {
        let number = |v: f64| if v.is_finite() { json!(v) } else { serde_json::Value::Null };
        json!({
            "width": self.width,
            "height": self.height,
            "tolerance": self.tolerance,
            "total_pixels": self.total_pixels(),
            "compared_pixels": self.compared_pixels,
            "identical_pixels": self.identical_pixels,
            "within_tolerance_pixels": self.within_tolerance_pixels,
            "identical": self.identical_pixels == self.compared_pixels,
            "identical_share": number(self.identical_share),
            "within_tolerance_share": number(self.within_tolerance_share),
            "mean_abs_error": number(self.mean_abs_error),
            "psnr_db": number(self.psnr_db),
            "max_channel_error": self.max_channel_error,
        })
    }
}

impl fmt::Display for CompareReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "size:              {}x{}", self.width, self.height)?;
        writeln!(f, "compared pixels:   {} of {}", self.compared_pixels, self.total_pixels())?;
        writeln!(
            f,
            "identical:         {:.4}% ({} pixels)",
            self.identical_share * 100.0,
            self.identical_pixels
        )?;
        writeln!(
            f,
            "within tolerance:  {:.4}% ({} pixels, tolerance {})",
            self.within_tolerance_share * 100.0,
            self.within_tolerance_pixels,
            self.tolerance
        )?;
        writeln!(f, "mean abs error:    {:.4} (per RGB channel, 0..255)", self.mean_abs_error)?;
        if self.psnr_db.is_infinite() {
            writeln!(f, "PSNR:              inf dB")?;
        } else {
            writeln!(f, "PSNR:              {:.2} dB", self.psnr_db)?;
        }
        write!(f, "max channel error: {}", self.max_channel_error)
    }
}

/// Pass/fail limits on a report; `None` means "not checked". Shares are fractions 0..=1
/// (like `identical_share`), not percentages.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thresholds {
    pub min_identical: Option<f64>,
    pub min_within: Option<f64>,
    pub max_mae: Option<f64>,
    pub min_psnr: Option<f64>,
}

impl Thresholds {
    /// Rejects limits that can never be meant: shares outside 0..=1, a negative or NaN
    /// mean-error limit, a NaN PSNR limit. The message names the option.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in
            [("--min-identical", self.min_identical), ("--min-within", self.min_within)]
        {
            if let Some(v) = v {
                if !(0.0..=1.0).contains(&v) {
                    return Err(format!("{name} {v}: must be a fraction between 0 and 1"));
                }
            }
        }
        if let Some(v) = self.max_mae {
            if v.is_nan() || v < 0.0 {
                return Err(format!("--max-mae {v}: must be 0 or more"));
            }
        }
        if let Some(v) = self.min_psnr {
            if v.is_nan() {
                return Err(format!("--min-psnr {v}: must be a number of dB"));
            }
        }
        Ok(())
    }

    /// One line per threshold the report fails; empty when all pass. NaN fails every check.
    pub fn check(&self, report: &CompareReport) -> Vec<String> {
        let mut failed = Vec::new();
        if let Some(min) = self.min_identical {
            if !at_least(report.identical_share, min) {
                failed.push(format!(
                    "identical share {:.6} is below the minimum {}",
                    report.identical_share, min
                ));
            }
        }
        if let Some(min) = self.min_within {
            if !at_least(report.within_tolerance_share, min) {
                failed.push(format!(
                    "within-tolerance share {:.6} (tolerance {}) is below the minimum {}",
                    report.within_tolerance_share, report.tolerance, min
                ));
            }
        }
        if let Some(max) = self.max_mae {
            if !at_least(max, report.mean_abs_error) {
                failed.push(format!(
                    "mean absolute error {:.6} is above the maximum {}",
                    report.mean_abs_error, max
                ));
            }
        }
        if let Some(min) = self.min_psnr {
            if !at_least(report.psnr_db, min) {
                failed
                    .push(format!("PSNR {:.3} dB is below the minimum {} dB", report.psnr_db, min));
            }
        }
        failed
    }
}

fn size_of(img: &RgbaImage) -> (u32, u32) {
    img.dimensions()
}

fn check_sizes(a: &RgbaImage, b: &RgbaImage, opts: &CompareOptions) -> Result<(), CompareError> {
    if a.dimensions() != b.dimensions() {
        return Err(CompareError::SizeMismatch { a: size_of(a), b: size_of(b) });
    }
    if let Some(mask) = &opts.mask {
        if mask.dimensions() != a.dimensions() {
            return Err(CompareError::MaskSizeMismatch { mask: size_of(mask), image: size_of(a) });
        }
    }
    Ok(())
}

/// Whether a mask pixel selects its pixel for comparison.
fn mask_includes(m: &Rgba<u8>) -> bool {
    m[3] != 0 && (m[0] | m[1] | m[2]) != 0
}

fn is_compared(opts: &CompareOptions, x: u32, y: u32) -> bool {
    opts.mask.as_ref().is_none_or(|m| mask_includes(m.get_pixel(x, y)))
}

/// Absolute RGB channel differences of two pixels.
fn channel_errors(pa: &Rgba<u8>, pb: &Rgba<u8>) -> [u8; 3] {
    [pa[0].abs_diff(pb[0]), pa[1].abs_diff(pb[1]), pa[2].abs_diff(pb[2])]
}

/// Compares the RGB of `a` (reference) and `b` (candidate) over the pixels the mask selects.
pub fn compare_images(
    a: &RgbaImage,
    b: &RgbaImage,
    opts: &CompareOptions,
) -> Result<CompareReport, CompareError> {
    check_sizes(a, b, opts)?;
    let (width, height) = a.dimensions();
    let mut compared = 0u64;
    let mut identical = 0u64;
    let mut within = 0u64;
    let mut sum_abs = 0u64;
    let mut sum_sq = 0u64;
    let mut max_err = 0u8;
    for (x, y, pa) in a.enumerate_pixels() {
        if !is_compared(opts, x, y) {
            continue;
        }
        let e = channel_errors(pa, b.get_pixel(x, y));
        let worst = e[0].max(e[1]).max(e[2]);
        compared += 1;
        if worst == 0 {
            identical += 1;
        }
        if worst <= opts.tolerance {
            within += 1;
        }
        max_err = max_err.max(worst);
        for c in e {
            sum_abs += c as u64;
            sum_sq += c as u64 * c as u64;
        }
    }
    if compared == 0 {
        return Err(CompareError::NothingCompared { size: (width, height) });
    }
    let n = compared as f64;
    let channels = 3.0 * n;
    let mse = sum_sq as f64 / channels;
    let psnr_db = if sum_sq == 0 { f64::INFINITY } else { 10.0 * (255.0f64 * 255.0 / mse).log10() };
    Ok(CompareReport {
        width,
        height,
        tolerance: opts.tolerance,
        compared_pixels: compared,
        identical_pixels: identical,
        within_tolerance_pixels: within,
        identical_share: identical as f64 / n,
        within_tolerance_share: within as f64 / n,
        mean_abs_error: sum_abs as f64 / channels,
        psnr_db,
        max_channel_error: max_err,
    })
}

/// A picture of where A and B differ, the size of the images:
/// - identical pixels: the reference A as grey at a quarter of its brightness (context);
/// - within tolerance but not identical: yellow;
/// - beyond tolerance: red, brighter the larger the worst channel error (128..255);
/// - excluded by the mask: dark blue.
///
/// Fails (instead of guessing) on the same size mismatches as [`compare_images`].
pub fn diff_image(
    a: &RgbaImage,
    b: &RgbaImage,
    opts: &CompareOptions,
) -> Result<RgbaImage, CompareError> {
    check_sizes(a, b, opts)?;
    let (width, height) = a.dimensions();
    let mut out = RgbaImage::new(width, height);
    for (x, y, pa) in a.enumerate_pixels() {
        let px = if !is_compared(opts, x, y) {
            DIFF_MASKED
        } else {
            let e = channel_errors(pa, b.get_pixel(x, y));
            let worst = e[0].max(e[1]).max(e[2]);
            if worst == 0 {
                // Rec. 601 luma, integer; then a quarter of it.
                let luma = (299 * pa[0] as u32 + 587 * pa[1] as u32 + 114 * pa[2] as u32) / 1000;
                let g = (luma / 4) as u8;
                Rgba([g, g, g, 255])
            } else if worst <= opts.tolerance {
                DIFF_WITHIN
            } else {
                let r = 128 + (worst as u32 * 127 / 255) as u8;
                Rgba([r, 0, 0, 255])
            }
        };
        out.put_pixel(x, y, px);
    }
    Ok(out)
}

/// The decoding limits [`load_png`] uses.
pub fn png_limits() -> image::Limits {
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_PNG_DIMENSION);
    limits.max_image_height = Some(MAX_PNG_DIMENSION);
    limits.max_alloc = Some(MAX_PNG_ALLOC);
    limits
}

/// Loads a PNG file as RGBA8 (any PNG colour type and depth; 16-bit is reduced to 8).
/// Errors (missing file, not a PNG, truncated or corrupt data, dimensions over
/// [`MAX_PNG_DIMENSION`], more than [`MAX_PNG_ALLOC`] bytes to decode) name the file.
pub fn load_png(path: impl AsRef<Path>) -> Result<RgbaImage, CompareError> {
    let path = path.as_ref();
    let io_err = |reason| CompareError::Io { path: path.to_path_buf(), reason };
    let file = File::open(path).map_err(io_err)?;
    let mut reader = BufReader::new(file);
    let mut signature = [0u8; 8];
    // A file shorter than the signature is "not a PNG" too.
    let mut got = 0;
    while got < signature.len() {
        match reader.read(&mut signature[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io_err(e)),
        }
    }
    if got < signature.len() || signature != PNG_SIGNATURE {
        return Err(CompareError::NotPng { path: path.to_path_buf() });
    }
    // Decode from the start again.
    reader.seek(std::io::SeekFrom::Start(0)).map_err(io_err)?;
    let mut decoder = ImageReader::with_format(reader, ImageFormat::Png);
    decoder.limits(png_limits());
    let image = decoder
        .decode()
        .map_err(|reason| CompareError::Decode { path: path.to_path_buf(), reason })?;
    Ok(image.into_rgba8())
}

/// Whether the file at `path` starts like a JPEG (lossy colours).
pub fn is_jpeg(path: impl AsRef<Path>) -> bool {
    let mut head = [0u8; 3];
    File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && head == [0xFF, 0xD8, 0xFF]
}

/// Loads a screenshot as RGBA8: a PNG (as [`load_png`]) or a JPEG, told apart by their
/// signatures, with the same size and allocation limits.
pub fn load_picture(path: impl AsRef<Path>) -> Result<RgbaImage, CompareError> {
    let path = path.as_ref();
    let io_err = |reason| CompareError::Io { path: path.to_path_buf(), reason };
    let mut head = [0u8; 3];
    let mut file = File::open(path).map_err(io_err)?;
    let got = file.read(&mut head).map_err(io_err)?;
    if got == 3 && head == [0xFF, 0xD8, 0xFF] {
        file.seek(std::io::SeekFrom::Start(0)).map_err(io_err)?;
        let reader = BufReader::new(file);
        let mut decoder = ImageReader::with_format(reader, ImageFormat::Jpeg);
        decoder.limits(png_limits());
        let image = decoder
            .decode()
            .map_err(|reason| CompareError::DecodeJpeg { path: path.to_path_buf(), reason })?;
        return Ok(image.into_rgba8());
    }
    load_png(path).map_err(|e| match e {
        CompareError::NotPng { path } => CompareError::NotPicture { path },
        e => e,
    })
}

/// `v >= min`, false when either is NaN.
fn at_least(v: f64, min: f64) -> bool {
    matches!(v.partial_cmp(&min), Some(std::cmp::Ordering::Greater | std::cmp::Ordering::Equal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A small image with a different colour in every pixel.
    fn gradient(w: u32, h: u32) -> RgbaImage {
        RgbaImage::from_fn(w, h, |x, y| {
            Rgba([(x * 37 % 256) as u8, (y * 53 % 256) as u8, ((x + y) * 11 % 256) as u8, 255])
        })
    }

    /// A fresh path in the temp directory (removed by `TempFile`'s drop).
    struct TempFile(PathBuf);
    impl TempFile {
        fn new(name: &str) -> TempFile {
            static N: AtomicU32 = AtomicU32::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            TempFile(std::env::temp_dir().join(format!(
                "mapscope-compare-{}-{}-{}",
                std::process::id(),
                n,
                name
            )))
        }
        fn write(name: &str, bytes: &[u8]) -> TempFile {
            let t = TempFile::new(name);
            std::fs::write(&t.0, bytes).unwrap();
            t
        }
    }
    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn png_bytes(img: &RgbaImage) -> Vec<u8> {
        crate::shot::png_bytes(img).unwrap()
    }

    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xffff_ffffu32;
        for &b in bytes {
            crc ^= b as u32;
            for _ in 0..8 {
                crc = if crc & 1 != 0 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    /// A valid PNG whose IHDR claims `w`x`h` (CRC fixed up), with a tiny IDAT.
    fn png_claiming(w: u32, h: u32) -> Vec<u8> {
        let mut bytes = png_bytes(&gradient(1, 1));
        // signature(8) + length(4) + "IHDR"(4) + data(13) + crc(4)
        assert_eq!(&bytes[12..16], b"IHDR");
        bytes[16..20].copy_from_slice(&w.to_be_bytes());
        bytes[20..24].copy_from_slice(&h.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    #[test]
    fn identical_images() {
        let a = gradient(7, 5);
        let r = compare_images(&a, &a.clone(), &CompareOptions::default()).unwrap();
        assert_eq!((r.width, r.height, r.compared_pixels), (7, 5, 35));
        assert_eq!(r.identical_share, 1.0);
        assert_eq!(r.within_tolerance_share, 1.0);
        assert_eq!(r.mean_abs_error, 0.0);
        assert!(r.psnr_db.is_infinite() && r.psnr_db > 0.0);
        assert_eq!(r.max_channel_error, 0);
        let text = r.to_string();
        assert!(text.contains("inf dB"), "{text}");
        assert_eq!(text.lines().count(), 7);
        let json = r.to_json();
        assert!(json["psnr_db"].is_null(), "{json}");
        assert_eq!(json["identical"], true, "{json}");
        assert_eq!(json["identical_share"], 1.0, "{json}");
    }

    #[test]
    fn alpha_is_ignored() {
        let a = gradient(4, 4);
        let mut b = a.clone();
        for p in b.pixels_mut() {
            p[3] = 0;
        }
        let r = compare_images(&a, &b, &CompareOptions::default()).unwrap();
        assert_eq!(r.identical_share, 1.0);
    }

    #[test]
    fn one_channel_off_by_five_is_within_tolerance() {
        let a = gradient(4, 4);
        let mut b = a.clone();
        let p = b.get_pixel_mut(2, 1);
        p[1] += 5; // green (y*53)%256 = 53 → 58
        assert_eq!(a.get_pixel(2, 1)[1].abs_diff(b.get_pixel(2, 1)[1]), 5);
        let r = compare_images(&a, &b, &CompareOptions::default()).unwrap();
        assert_eq!(r.identical_pixels, 15);
        assert_eq!(r.identical_share, 15.0 / 16.0);
        assert_eq!(r.within_tolerance_pixels, 16);
        assert_eq!(r.within_tolerance_share, 1.0);
        assert_eq!(r.max_channel_error, 5);
        assert!((r.mean_abs_error - 5.0 / 48.0).abs() < 1e-12);
        let mse = 25.0 / 48.0;
        assert!((r.psnr_db - 10.0 * (65025.0f64 / mse).log10()).abs() < 1e-9);
        assert!(r.psnr_db.is_finite());
        assert!(!r.to_json().to_string().contains("null"));

        // With tolerance 4 the same pixel is out of tolerance.
        let strict = CompareOptions { tolerance: 4, mask: None };
        let r = compare_images(&a, &b, &strict).unwrap();
        assert_eq!(r.within_tolerance_pixels, 15);

        // Diff: that pixel yellow, the rest dark grey, none red.
        let d = diff_image(&a, &b, &CompareOptions::default()).unwrap();
        assert_eq!(*d.get_pixel(2, 1), DIFF_WITHIN);
        let g = d.get_pixel(0, 0);
        assert!(g[0] == g[1] && g[1] == g[2] && g[0] <= 64);
        let d = diff_image(&a, &b, &strict).unwrap();
        let red = d.get_pixel(2, 1);
        assert!(red[0] >= 128 && red[1] == 0 && red[2] == 0, "{red:?}");
    }

    #[test]
    fn mask_excludes_pixels() {
        let a = gradient(4, 2);
        let mut b = a.clone();
        b.put_pixel(0, 0, Rgba([255, 255, 255, 255]));
        b.put_pixel(1, 0, Rgba([0, 0, 0, 255]));
        b.put_pixel(3, 1, Rgba([a.get_pixel(3, 1)[0] ^ 0x80, 0, 0, 255]));
        let unmasked = compare_images(&a, &b, &CompareOptions::default()).unwrap();
        assert_eq!(unmasked.identical_pixels, 5);

        // Black excludes (0,0), alpha 0 excludes (1,0); (3,1) stays compared.
        let mut mask = RgbaImage::from_pixel(4, 2, Rgba([255, 255, 255, 255]));
        mask.put_pixel(0, 0, Rgba([0, 0, 0, 255]));
        mask.put_pixel(1, 0, Rgba([255, 255, 255, 0]));
        mask.put_pixel(2, 0, Rgba([1, 0, 0, 255])); // not black: compared
        let opts = CompareOptions { tolerance: 8, mask: Some(mask) };
        let r = compare_images(&a, &b, &opts).unwrap();
        assert_eq!(r.compared_pixels, 6);
        assert_eq!(r.identical_pixels, 5);
        assert_eq!(r.within_tolerance_pixels, 5);
        assert_eq!(
            r.max_channel_error,
            a.get_pixel(3, 1)[0]
                .abs_diff(a.get_pixel(3, 1)[0] ^ 0x80)
                .max(a.get_pixel(3, 1)[1].max(a.get_pixel(3, 1)[2]))
        );
        assert!(r.to_string().contains("6 of 8"));

        let d = diff_image(&a, &b, &opts).unwrap();
        assert_eq!(*d.get_pixel(0, 0), DIFF_MASKED);
        assert_eq!(*d.get_pixel(1, 0), DIFF_MASKED);
        assert!(d.get_pixel(3, 1)[0] >= 128);

        // A mask that excludes everything is an error, not a vacuous pass.
        let all = CompareOptions { tolerance: 8, mask: Some(RgbaImage::new(4, 2)) };
        let e = compare_images(&a, &b, &all).unwrap_err();
        assert!(matches!(e, CompareError::NothingCompared { .. }), "{e}");
    }

    #[test]
    fn size_mismatch_is_an_error_naming_both_sizes() {
        let a = gradient(320, 200);
        let b = gradient(640, 400);
        let e = compare_images(&a, &b, &CompareOptions::default()).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("320x200") && msg.contains("640x400"), "{msg}");
        assert!(diff_image(&a, &b, &CompareOptions::default()).is_err());

        let opts = CompareOptions { tolerance: 8, mask: Some(gradient(10, 10)) };
        let e = compare_images(&a, &a, &opts).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, CompareError::MaskSizeMismatch { .. }));
        assert!(msg.contains("10x10") && msg.contains("320x200"), "{msg}");
    }

    #[test]
    fn png_round_trip() {
        let a = gradient(9, 4);
        let f = TempFile::new("ok.png");
        crate::shot::save_png(&f.0, &a, None).unwrap();
        assert_eq!(load_png(&f.0).unwrap(), a);
    }

    #[test]
    fn truncated_png_is_an_error_naming_the_file() {
        let bytes = png_bytes(&gradient(64, 64));
        for cut in [bytes.len() / 2, bytes.len() - 13, 40, 20, 8, 3, 0] {
            let f = TempFile::write("truncated.png", &bytes[..cut]);
            let e = load_png(&f.0).unwrap_err();
            assert!(e.to_string().contains(&*f.0.to_string_lossy()), "cut {cut}: {e}");
        }
    }

    #[test]
    fn bad_files_are_errors() {
        let f = TempFile::write("text.png", b"this is not a PNG file at all\n");
        let e = load_png(&f.0).unwrap_err();
        assert!(matches!(e, CompareError::NotPng { .. }), "{e}");
        assert!(e.to_string().contains("text.png"));

        let missing = TempFile::new("missing.png");
        let e = load_png(&missing.0).unwrap_err();
        assert!(matches!(e, CompareError::Io { .. }), "{e}");
        assert!(e.to_string().contains("missing.png"));

        // Corrupt pixel data with intact chunk framing.
        let mut bytes = png_bytes(&gradient(16, 16));
        let n = bytes.len();
        for b in &mut bytes[n - 30..n - 16] {
            *b ^= 0x5a;
        }
        let f = TempFile::write("corrupt.png", &bytes);
        let e = anyhow::Error::from(load_png(&f.0).unwrap_err());
        // Shown with its chain, as the command line does, the reason appears once.
        let shown = format!("{e:#}");
        let reason = shown.split("cannot decode PNG: ").nth(1).expect("the reason");
        let first = reason.split(": ").next().expect("a first part");
        assert_eq!(shown.matches(first).count(), 1, "{shown}");
        let e = anyhow::Error::from(load_png(&missing.0).unwrap_err());
        assert_eq!(format!("{e:#}").matches("No such file").count(), 1, "{e:#}");
    }

    #[test]
    fn huge_dimensions_are_refused() {
        for (w, h) in [(20000, 1), (1, 1 << 30), (16384, 16384), (0x7fff_ffff, 0x7fff_ffff)] {
            let f = TempFile::write("huge.png", &png_claiming(w, h));
            let e = load_png(&f.0).unwrap_err();
            assert!(matches!(e, CompareError::Decode { .. }), "{w}x{h}: {e}");
            assert!(e.to_string().contains("huge.png"), "{e}");
        }
    }

    #[test]
    fn thresholds() {
        let a = gradient(10, 10);
        let mut b = a.clone();
        b.put_pixel(0, 0, Rgba([a.get_pixel(0, 0)[0].wrapping_add(100), 0, 0, 255]));
        b.put_pixel(
            1,
            0,
            Rgba([a.get_pixel(1, 0)[0] ^ 1, a.get_pixel(1, 0)[1], a.get_pixel(1, 0)[2], 9]),
        );
        let r = compare_images(&a, &b, &CompareOptions::default()).unwrap();
        assert_eq!(r.identical_pixels, 98);
        assert_eq!(r.within_tolerance_pixels, 99);

        assert!(Thresholds::default().check(&r).is_empty());
        let pass = Thresholds {
            min_identical: Some(0.98),
            min_within: Some(0.99),
            max_mae: Some(r.mean_abs_error),
            min_psnr: Some(r.psnr_db - 0.01),
        };
        assert!(pass.check(&r).is_empty(), "{:?}", pass.check(&r));
        let fail = Thresholds {
            min_identical: Some(0.99),
            min_within: Some(1.0),
            max_mae: Some(r.mean_abs_error / 2.0),
            min_psnr: Some(r.psnr_db + 1.0),
        };
        let failures = fail.check(&r);
        assert_eq!(failures.len(), 4, "{failures:?}");
        assert!(failures[0].contains("identical"));
        assert!(failures[3].contains("PSNR"));

        // Identical images pass any PSNR minimum.
        let same = compare_images(&a, &a, &CompareOptions::default()).unwrap();
        let t = Thresholds { min_psnr: Some(1e9), ..Default::default() };
        assert!(t.check(&same).is_empty());

        assert!(pass.validate().is_ok());
        assert!(Thresholds { min_identical: Some(99.5), ..Default::default() }.validate().is_err());
        assert!(Thresholds { max_mae: Some(-1.0), ..Default::default() }.validate().is_err());
        assert!(Thresholds { min_psnr: Some(f64::NAN), ..Default::default() }.validate().is_err());
    }
}
