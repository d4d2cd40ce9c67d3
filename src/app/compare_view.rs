//! The reference screenshot loaded in the viewer: its image, how it is shown, and the live
//! comparison figures (throttled so that comparing never dominates the frame time).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Result;
use image::RgbaImage;

use super::reference::{self, Blend, Placement, RefMode};
use crate::compare::{self, CompareReport};
use crate::scene::GameScreen;

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
        })
    }

    pub fn size(&self) -> (u32, u32) {
        self.image.dimensions()
    }

    pub fn file_name(&self) -> String {
        self.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// Where the reference lies on a frame of `frame` size for a scene of `game`.
    pub fn placement(&self, frame: (u32, u32), game: Option<&GameScreen>) -> Placement {
        let (w, h) = self.size();
        Placement::new((w, h), frame, reference::buffer_aspect(w, h, game))
    }

    /// Whether the reference looks like a capture of `game`'s own screen (its buffer aspect
    /// is the game's): then the viewer switches to the game's resolution when it loads.
    pub fn matches_game(&self, game: &GameScreen) -> bool {
        let (w, h) = self.size();
        let (bw, bh) = reference::buffer_aspect(w, h, Some(game));
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
        if due {
            let start = Instant::now();
            let result =
                reference::compare_live(&self.image, frame, &placement, self.blend.tolerance);
            self.report = Some(result.map_err(|e| e.to_string()));
            self.compare_ms = start.elapsed().as_secs_f64() * 1000.0;
            self.last_compare = Some(Instant::now());
        }
        if self.placed.as_ref().is_some_and(|(p, _)| *p != placement) {
            self.placed = None;
        }
        let image = &self.image;
        let (_, placed) = self
            .placed
            .get_or_insert_with(|| (placement, reference::place_reference(image, &placement)));
        reference::compose(frame, placed, &self.blend)
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
            let want = reference::compose(
                &frame,
                &reference::place_reference(&reference, &placement),
                &v.blend,
            );
            assert_eq!(v.process(&frame, None), want, "{size:?}");
            assert!(v.report.is_some(), "the first frame is compared");
        }
    }
}
