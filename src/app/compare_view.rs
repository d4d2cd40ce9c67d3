//! The reference screenshot loaded in the viewer: its image, how it is shown, and the live
//! comparison figures (throttled so that comparing never dominates the frame time).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use image::RgbaImage;

use super::reference::{self, Blend, RefMode};
use crate::compare::placement::{buffer_aspect, compare_live, place_reference, Placement};
use crate::compare::{self, CompareReport};
use crate::scene::{GameScreen, HudPicture};

/// How closely a screenshot's rows below the view must follow the status bar's picture (the
/// correlation of their brightness) to be taken for the bar. Chocolate Doom's bar, with the
/// numbers, face and arms panel drawn over the picture, correlates 0.6 (also 2x, 4:3 and as
/// JPEG); the views of the 36 full-screen reference frames at most 0.12.
const BAR_CORRELATION: f64 = 0.35;

/// Least time between two comparisons.
const MIN_INTERVAL: Duration = Duration::from_millis(200);

pub struct ReferenceView {
    pub path: PathBuf,
    pub image: RgbaImage,
    pub blend: Blend,
    /// Shown at all (H toggles).
    pub visible: bool,
    /// The last figures, or why there are none.
    pub report: Option<Result<CompareReport, String>>,
    /// Milliseconds the last comparison took.
    pub compare_ms: f64,
    last_compare: Option<Instant>,
    /// The reference placed on the frame, for the placement it was made for.
    placed: Option<(Placement, RgbaImage)>,
    /// The screenshot carries the game's status bar or interface below a smaller view
    /// (U toggles): only the view above it is laid over the frame and compared.
    pub hud: bool,
    /// The view part of the image when it is not all of it: its rows and pixels.
    view_part: Option<(u32, RgbaImage)>,
    /// The size of the reference pixels the last frame was compared at.
    pub compared_size: (u32, u32),
}

impl ReferenceView {
    pub fn load(path: &Path) -> Result<ReferenceView> {
        let image = compare::load_picture(path)?;
        Ok(ReferenceView {
            path: path.to_path_buf(),
            image,
            blend: Blend::default(),
            visible: true,
            report: None,
            compare_ms: 0.0,
            last_compare: None,
            placed: None,
            hud: false,
            view_part: None,
            compared_size: (0, 0),
        })
    }

    pub fn size(&self) -> (u32, u32) {
        self.image.dimensions()
    }

    /// The share of the image's height the 3D view fills, when the reference carries the
    /// game's status bar or interface below it.
    fn hud_view_share(&self, game: Option<&GameScreen>) -> Option<f64> {
        let g = game.filter(|g| self.hud && self.matches_game(g))?;
        Some(g.hud_view_height? as f64 / g.height.max(1) as f64)
    }

    /// Rows of the image that show the 3D view: those wholly above the status bar or
    /// interface when the reference has one, else all of them.
    pub fn view_rows(&self, game: Option<&GameScreen>) -> u32 {
        let h = self.image.height();
        self.hud_view_share(game).map_or(h, |share| (h as f64 * share + 1e-9).floor() as u32)
    }

    /// The image's view part ([`ReferenceView::view_rows`]).
    fn view_image(&mut self, game: Option<&GameScreen>) -> &RgbaImage {
        let rows = self.view_rows(game);
        if rows >= self.image.height() {
            return &self.image;
        }
        if self.view_part.as_ref().is_none_or(|(r, _)| *r != rows) {
            let part = image::imageops::crop_imm(&self.image, 0, 0, self.image.width(), rows);
            self.view_part = Some((rows, part.to_image()));
        }
        self.view_part.as_ref().map_or(&self.image, |(_, img)| img)
    }

    pub fn file_name(&self) -> String {
        self.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// Where the reference (its view part) lies on a frame of `frame` size for a scene of
    /// `game`. A view above a status bar is placed as the game draws it: across the full
    /// width at the same field of view, centred on its own middle row.
    pub fn placement(&self, frame: (u32, u32), game: Option<&GameScreen>) -> Placement {
        let (w, h) = self.size();
        let mut p = Placement::new((w, h), frame, buffer_aspect(w, h, game));
        if let Some(share) = self.hud_view_share(game) {
            p.reference.1 = self.view_rows(game);
            p.offset_y = (frame.1 as f64 - h as f64 * share * p.scale_y) / 2.0;
        }
        p
    }

    /// Whether the reference shows `bar` in the rows below `game`'s view: taken back to the
    /// game's buffer (its scale and 4:3 stretch undone), their brightness follows the bar's.
    pub fn shows_status_bar(&self, game: &GameScreen, bar: &HudPicture) -> bool {
        bar_correlation(&self.image, game, bar) >= BAR_CORRELATION
    }

    /// Whether the reference looks like a capture of `game`'s own screen (its buffer aspect
    /// is the game's): then the viewer switches to the game's resolution when it loads.
    pub fn matches_game(&self, game: &GameScreen) -> bool {
        let (w, h) = self.size();
        let (bw, bh) = buffer_aspect(w, h, Some(game));
        bw as u64 * game.height as u64 == bh as u64 * game.width as u64
    }

    pub fn cycle_mode(&mut self) {
        self.blend.mode = self.blend.mode.next();
    }

    pub fn nudge_opacity(&mut self, step: f32) {
        self.blend.opacity = (self.blend.opacity + step).clamp(0.0, 1.0);
    }

    pub fn nudge_wipe(&mut self, step: f32) {
        self.blend.wipe = (self.blend.wipe + step).clamp(0.0, 1.0);
    }

    /// What to show for this frame (`frame` is the rendered image); updates the figures
    /// when they are due.
    pub fn process(&mut self, frame: &RgbaImage, game: Option<&GameScreen>) -> RgbaImage {
        let placement = self.placement(frame.dimensions(), game);
        let due =
            self.last_compare.is_none_or(|t| t.elapsed() >= MIN_INTERVAL.max(self.throttle()));
        let tolerance = self.blend.tolerance;
        self.compared_size = placement.reference;
        if due {
            let start = Instant::now();
            let view = self.view_image(game);
            let result = compare_live(view, frame, &placement, tolerance);
            self.report = Some(result.map_err(|e| e.to_string()));
            self.compare_ms = start.elapsed().as_secs_f64() * 1000.0;
            self.last_compare = Some(Instant::now());
        }
        if self.placed.as_ref().is_some_and(|(p, _)| *p != placement) {
            self.placed = None;
        }
        if self.placed.is_none() {
            let placed = place_reference(self.view_image(game), &placement);
            self.placed = Some((placement, placed));
        }
        match &self.placed {
            Some((_, placed)) => reference::compose(frame, placed, &self.blend),
            None => frame.clone(),
        }
    }

    /// Slow comparisons (large references on a software rasteriser) run at most a tenth of
    /// the time.
    fn throttle(&self) -> Duration {
        Duration::from_secs_f64(self.compare_ms * 10.0 / 1000.0)
    }

    /// One line of figures for the overlay.
    pub fn figures(&self) -> String {
        match &self.report {
            None => "comparing…".into(),
            Some(Err(e)) => e.clone(),
            Some(Ok(r)) => {
                let psnr = if r.psnr_db.is_infinite() {
                    "inf".to_string()
                } else {
                    format!("{:.2}", r.psnr_db)
                };
                format!(
                    "identical {:.2}%  within {} {:.2}%  PSNR {psnr} dB",
                    r.identical_share * 100.0,
                    r.tolerance,
                    r.within_tolerance_share * 100.0
                )
            }
        }
    }

    /// The mode as the overlay names it.
    pub fn mode_label(&self) -> &'static str {
        if self.visible {
            self.blend.mode.label()
        } else {
            "hidden"
        }
    }

    pub fn is_wipe(&self) -> bool {
        self.visible && self.blend.mode == RefMode::Wipe
    }
}

/// The correlation of brightness between `bar`'s drawn pixels and what `image`, taken back to
/// `game`'s buffer, shows there below the game's view (0 when it is not a capture of that
/// buffer or the bar does not fit there).
fn bar_correlation(image: &RgbaImage, game: &GameScreen, bar: &HudPicture) -> f64 {
    let Some(view) = game.hud_view_height else { return 0.0 };
    if bar.height != game.height.saturating_sub(view) as usize || bar.width > game.width as usize {
        return 0.0;
    }
    let Ok(buffer) = compare::screenshot::fit_to_frame(image, (game.width, game.height)) else {
        return 0.0;
    };
    let brightness = |c: [u8; 3]| 0.299 * c[0] as f64 + 0.587 * c[1] as f64 + 0.114 * c[2] as f64;
    let pairs: Vec<(f64, f64)> = bar
        .rgb
        .iter()
        .enumerate()
        .filter_map(|(i, colour)| {
            let (x, y) = ((i % bar.width) as u32, view + (i / bar.width) as u32);
            let p = buffer.image.get_pixel(x, y).0;
            colour.map(|c| (brightness(c), brightness([p[0], p[1], p[2]])))
        })
        .collect();
    let n = pairs.len().max(1) as f64;
    let (ma, mb) = pairs.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in &pairs {
        ab += (x - ma) * (y - mb);
        aa += (x - ma) * (x - ma);
        bb += (y - mb) * (y - mb);
    }
    if aa <= 0.0 || bb <= 0.0 {
        return 0.0;
    }
    ab / (aa * bb).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(image: RgbaImage) -> ReferenceView {
        ReferenceView {
            path: PathBuf::from("ref.png"),
            image,
            blend: Blend::default(),
            visible: true,
            report: None,
            compare_ms: 0.0,
            last_compare: None,
            placed: None,
            hud: false,
            view_part: None,
            compared_size: (0, 0),
        }
    }

    /// The placed reference is made again whenever the frame's placement changes, and the
    /// frame shown is the reference composed over it at that placement.
    #[test]
    fn process_composes_the_reference_placed_for_each_frame_size() {
        let reference =
            RgbaImage::from_fn(32, 20, |x, y| image::Rgba([x as u8 * 8, y as u8 * 12, 7, 255]));
        let mut v = view(reference.clone());
        for size in [(64, 40), (64, 40), (100, 50), (32, 20)] {
            let frame = RgbaImage::from_fn(size.0, size.1, |x, y| {
                image::Rgba([y as u8, x as u8, 200, 255])
            });
            let placement = v.placement(size, None);
            let want =
                reference::compose(&frame, &place_reference(&reference, &placement), &v.blend);
            assert_eq!(v.process(&frame, None), want, "{size:?}");
            assert!(v.report.is_some(), "the first frame is compared");
        }
    }

    /// Doom's screen: a 320x200 buffer whose view is the 168 rows above a 32-row status bar.
    fn doom() -> GameScreen {
        crate::scene::Game::Doom.screen().unwrap_or_else(|| unreachable!())
    }

    /// A 320x200 frame of distinct rows and columns, and a game screenshot of the same camera
    /// with the status bar: the game's 168-row view is the frame's middle 168 rows (same
    /// focal length, centred on its own middle row), the bar a grey pattern below it.
    fn frame_and_barred_shot() -> (RgbaImage, RgbaImage) {
        let frame = RgbaImage::from_fn(320, 200, |x, y| {
            image::Rgba([(x * 7 % 256) as u8, y as u8, ((x + y) % 256) as u8, 255])
        });
        let shot = RgbaImage::from_fn(320, 200, |x, y| {
            if y < 168 {
                *frame.get_pixel(x, y + 16)
            } else {
                let grey = 60 + ((x / 4 + y / 4) % 2) as u8 * 40;
                image::Rgba([grey, grey, grey, 255])
            }
        });
        (frame, shot)
    }

    fn identical(v: &ReferenceView) -> (f64, u64) {
        match &v.report {
            Some(Ok(r)) => (r.identical_share, r.compared_pixels),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_view_above_a_status_bar_is_laid_over_and_compared_alone() {
        let (frame, shot) = frame_and_barred_shot();
        let doom = doom();
        let mut v = view(shot.clone());
        v.process(&frame, Some(&doom));
        let (whole, _) = identical(&v);
        assert!(whole < 0.5, "read as a whole screen, the view is 16 rows off: {whole}");
        v.hud = true;
        v.last_compare = None;
        let shown = v.process(&frame, Some(&doom));
        assert_eq!(identical(&v), (1.0, 320 * 168));
        assert_eq!(v.compared_size, (320, 168));
        // The bar is left out of the picture too: the frame shows where no view lies.
        let placement = v.placement((320, 200), Some(&doom));
        assert_eq!((placement.offset_y, placement.scale_y), (16.0, 1.0));
        assert_eq!(shown.get_pixel(5, 195), frame.get_pixel(5, 195));
        // Scenes of other games do not cut it.
        assert_eq!(v.view_rows(None), 200);
    }

    #[test]
    fn a_barred_screenshot_scaled_and_stretched_to_4_3_still_lines_up() {
        // Saved 2x and stretched to 640x480 as a port shows it: each of the 480 rows the
        // buffer row under its centre.
        let (frame, shot) = frame_and_barred_shot();
        let big = RgbaImage::from_fn(640, 480, |x, y| {
            *shot.get_pixel(x / 2, ((y as f64 + 0.5) / 2.4) as u32)
        });
        let doom = doom();
        let mut v = view(big);
        v.hud = true;
        v.process(&frame, Some(&doom));
        // 403 of the 480 rows lie wholly above the bar (168 x 2.4 = 403.2).
        assert_eq!(identical(&v), (1.0, 640 * 403));
    }

    #[test]
    fn a_doom_screenshot_with_its_status_bar_is_told_from_full_screen_ones() {
        let wad = "/usr/share/games/doom/freedoom1.wad";
        let bar = crate::formats::doom::graphics::status_bar::status_bar(&[wad])
            .unwrap_or_else(|e| panic!("{wad}: {e:#} (install the Debian package freedoom)"))
            .unwrap_or_else(|| panic!("{wad}: no STBAR"));
        let doom = doom();
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        // Chocolate Doom with its status bar (screenblocks 10), as captured and as a port
        // saves it: 2x, stretched to 4:3, JPEG.
        let captured = data.join("doom-statusbar/freedoom1_e1m1_start.png");
        let shot = compare::load_picture(&captured).unwrap();
        let big = RgbaImage::from_fn(640, 480, |x, y| {
            *shot.get_pixel(x / 2, ((y as f64 + 0.5) / 2.4) as u32)
        });
        let jpeg = std::env::temp_dir().join(format!("mapscope-bar-{}.jpg", std::process::id()));
        let rgb = image::DynamicImage::ImageRgba8(big).into_rgb8();
        let mut out = std::fs::File::create(&jpeg).unwrap();
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90);
        rgb.write_with_encoder(encoder).unwrap();
        for path in [captured, jpeg.clone()] {
            let v = ReferenceView::load(&path).unwrap();
            let share = bar_correlation(&v.image, &doom, &bar);
            eprintln!("{}: {share:.3}", path.display());
            assert!(v.shows_status_bar(&doom, &bar), "{}: {share}", path.display());
        }
        let _ = std::fs::remove_file(&jpeg);
        // The full-screen captures (screenblocks 11) show the view there.
        for entry in std::fs::read_dir(data.join("doom-reference")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) == Some("png") {
                let v = ReferenceView::load(&path).unwrap();
                let share = bar_correlation(&v.image, &doom, &bar);
                eprintln!("{}: {share:.3}", path.display());
                assert!(!v.shows_status_bar(&doom, &bar), "{}: {share}", path.display());
            }
        }
    }
}
