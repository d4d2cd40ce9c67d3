//! The viewer's on-screen overlay (egui): what is shown (level, camera, frame time, notes) and
//! the controls (mode, sky, markers, reference image), returned as actions for the viewer to
//! apply, so the overlay itself changes no state.

use std::time::{Duration, Instant};

use super::compare_view::ReferenceView;
use super::reference::RefMode;
use crate::render::{RenderMode, ViewSettings};
use crate::scene::GameScreen;

/// When the overlay is drawn anew: at once after input or when egui asks (a widget
/// animating), else its figures (frame time, position, tic) at most [`Self::INTERVAL`] apart,
/// as a game's counters refresh, so that a frame without news only lays the overlay drawn
/// before over the view (`window_compositor`).
#[derive(Default)]
pub struct OverlayRefresh {
    /// When the overlay was last drawn.
    drawn: Option<Instant>,
    /// When egui asked to be run again.
    asked: Option<Instant>,
    /// Something the overlay shows changed (input, a message, a resize): draw at once.
    dirty: bool,
}

impl OverlayRefresh {
    /// The longest the figures go unchanged: 10 refreshes a second, as readable as figures
    /// that change get, and a redraw in one frame of 40 at 400 frames a second.
    pub const INTERVAL: Duration = Duration::from_millis(100);

    /// Something the overlay shows changed: the next frame draws it anew.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Whether the overlay is to be drawn anew at `now`.
    pub fn due(&self, now: Instant) -> bool {
        self.dirty
            || self.drawn.is_none_or(|t| now.duration_since(t) >= Self::INTERVAL)
            || self.asked.is_some_and(|t| now >= t)
    }

    /// The overlay was drawn at `now`; egui wants to run again after `repaint_delay`.
    pub fn drawn(&mut self, now: Instant, repaint_delay: Duration) {
        self.drawn = Some(now);
        self.dirty = false;
        self.asked = (repaint_delay < Self::INTERVAL).then(|| now + repaint_delay);
    }
}

/// What the overlay shows this frame.
pub struct OverlayInfo<'a> {
    pub title: &'a str,
    pub frame_ms: f64,
    pub position: [f64; 3],
    pub angle: f64,
    pub pitch: f64,
    pub speed: f64,
    /// Walk mode (Z) is on: the camera rides the game's body.
    pub walking: bool,
    pub tic: u32,
    pub captured: bool,
    pub message: Option<&'a str>,
    pub error: Option<&'a str>,
    /// The game's screen for this format, e.g. "320x200 at 90°, shown 4:3"; `None` when
    /// the format has no known screen.
    pub game_screen: Option<String>,
    /// Size of the rendered frame.
    pub frame_size: (u32, u32),
    /// While the automap is up, its help line.
    pub automap: Option<&'a str>,
}

/// The game's screen as the overlay names it, e.g. "320x200 at 90°, shown 4:3".
pub fn game_screen_label(g: &GameScreen) -> String {
    let aspect = if (g.display_aspect - 4.0 / 3.0).abs() < 1e-9 {
        "4:3".to_string()
    } else {
        format!("{:.3}", g.display_aspect)
    };
    format!("{}x{} at {}°, shown {aspect}", g.width, g.height, g.fov_deg)
}

/// What the overlay lets the user change.
pub struct Controls<'a> {
    pub view: &'a mut ViewSettings,
    pub game_res: &'a mut bool,
    pub frozen: &'a mut bool,
    pub reference: Option<&'a mut ReferenceView>,
}

/// Buttons pressed this frame.
#[derive(Default)]
pub struct Actions {
    pub next_map: bool,
    pub bookmark: bool,
}

/// The panel's width in points.
const PANEL_WIDTH: f32 = 380.0;

/// The panel's egui id (the settings file keeps whether it is open or folded).
pub fn panel_id() -> egui::Id {
    egui::Id::unique("mapscope overlay panel")
}

/// Draws the overlay panel; toggles edit `controls` in place.
pub fn draw(ctx: &egui::Context, info: &OverlayInfo<'_>, controls: Controls<'_>) -> Actions {
    let mut actions = Actions::default();
    let Controls { view, game_res, frozen, reference } = controls;
    // No drop shadow: over a 3D view it shows nothing, and on a window presented from the
    // CPU blending it costs more than the rest of the panel (`overlay_paint`).
    let frame = egui::Frame::window(&ctx.global_style()).shadow(egui::Shadow::NONE);
    // A width wider than its lines, so that figures growing or shrinking a digit leave the
    // panel's size, and so every pixel of it but theirs, as it was (`overlay_layer`).
    egui::Window::new("mapscope")
        .id(panel_id())
        .frame(frame)
        .min_width(PANEL_WIDTH)
        .default_width(PANEL_WIDTH)
        // Shown and hidden at once: a fade would repaint the whole panel, translucent, for
        // as many frames as it lasts.
        .fade_in(false)
        .fade_out(false)
        .default_pos([8.0, 8.0])
        .resizable(false)
        .collapsible(true)
        .show(ctx, |ui| {
            ui.label(info.title);
            let fps = if info.frame_ms > 0.0 { 1000.0 / info.frame_ms } else { 0.0 };
            ui.label(format!("{fps:.0} fps  {:.2} ms", info.frame_ms));
            let p = info.position;
            ui.label(format!("pos {:.1}, {:.1}, {:.1}", p[0], p[1], p[2]));
            ui.label(format!("angle {:.1}°  pitch {:.1}°", info.angle, info.pitch));
            ui.label(format!("speed {:.0}/s  tic {}", info.speed, info.tic));
            ui.label(if info.walking { "walk mode (Z: fly)" } else { "fly mode (Z: walk)" });
            ui.separator();
            ui.checkbox(&mut view.show_sprites, "things (T)");
            ui.checkbox(&mut view.show_sky, "sky (K)");
            ui.checkbox(&mut view.wireframe, "wireframe (G)");
            let mut faithful = view.mode == RenderMode::Faithful;
            if ui.checkbox(&mut faithful, "faithful (M)").changed() {
                view.mode = if faithful { RenderMode::Faithful } else { RenderMode::Smooth };
            }
            let game_label = match &info.game_screen {
                Some(s) => format!("game resolution (F2): {s}"),
                None => "game resolution (F2): unknown for this format".to_string(),
            };
            let game_fov = *game_res && info.game_screen.is_some();
            ui.checkbox(game_res, game_label);
            let (w, h) = info.frame_size;
            if game_fov {
                ui.label(format!("frame {w}x{h}  fov {}°", view.fov_deg));
            } else {
                // A field of view outside the slider's range (`--fov 20`) stays until moved.
                let fov = egui::Slider::new(&mut view.fov_deg, 30.0..=150.0)
                    .clamping(egui::SliderClamping::Edits)
                    .step_by(1.0)
                    .suffix("°");
                ui.horizontal(|ui| {
                    ui.label(format!("frame {w}x{h}  fov"));
                    ui.add(fov);
                });
            }
            ui.checkbox(frozen, "freeze animation (F)");
            ui.horizontal(|ui| {
                if ui.button("next map (N)").clicked() {
                    actions.next_map = true;
                }
                if ui.button("bookmark (B)").clicked() {
                    actions.bookmark = true;
                }
            });
            ui.separator();
            match reference {
                Some(r) => reference_section(ui, r),
                None => {
                    ui.label("no reference: drop a PNG on the window or use --reference");
                }
            }
            ui.separator();
            ui.label(if info.captured {
                "mouse captured: Esc releases"
            } else {
                "click the view to look around"
            });
            ui.label("WASD move, Space/E up, C/Q down, Shift fast, wheel speed, F12 shot");
            ui.label(info.automap.unwrap_or("Tab automap"));
            if let Some(m) = info.message {
                ui.label(m);
            }
            if let Some(e) = info.error {
                ui.colored_label(egui::Color32::from_rgb(255, 96, 96), e);
            }
        });
    actions
}

fn reference_section(ui: &mut egui::Ui, r: &mut ReferenceView) {
    let (w, h) = r.size();
    ui.label(format!("reference {} ({w}x{h})", r.file_name()));
    ui.checkbox(&mut r.visible, "show reference (H)");
    ui.horizontal(|ui| {
        ui.label("view (V):");
        for mode in RefMode::ALL {
            ui.radio_value(&mut r.blend.mode, mode, mode.label());
        }
    });
    ui.add(egui::Slider::new(&mut r.blend.opacity, 0.0..=1.0).text("opacity [ ]"));
    ui.add(egui::Slider::new(&mut r.blend.wipe, 0.0..=1.0).text("wipe , ."));
    ui.add(egui::Slider::new(&mut r.blend.tolerance, 0..=64).text("tolerance"));
    ui.checkbox(&mut r.hud, "status bar or interface below the view (U)");
    if r.visible {
        ui.label(r.figures());
        let (cw, ch) = r.compared_size;
        ui.label(format!("compared at {cw}x{ch} in {:.1} ms", r.compare_ms));
    } else {
        ui.label("figures paused while the reference is hidden");
    }
}

/// One egui pass of the overlay as it opens, showing `info` with `view`'s toggles and no
/// reference, from `raw`; what the controls change is dropped (nobody clicks here: the bench
/// window and tests).
pub fn untouched_pass(
    ctx: &egui::Context,
    info: &OverlayInfo<'_>,
    mut view: ViewSettings,
    raw: egui::RawInput,
) -> egui::FullOutput {
    let (mut game_res, mut frozen) = (false, false);
    ctx.run_pass(raw, |ctx| {
        let controls = Controls {
            view: &mut view,
            game_res: &mut game_res,
            frozen: &mut frozen,
            reference: None,
        };
        draw(ctx, info, controls);
    })
}

/// The overlay as it opens with `info` (default controls, no reference), from `raw`:
/// egui lays an auto-sized window out unseen in its first pass, so two passes are run; the
/// second's shapes, and both passes' textures.
#[cfg(test)]
pub fn opened(
    ctx: &egui::Context,
    info: &OverlayInfo<'_>,
    raw: egui::RawInput,
) -> (Vec<egui::epaint::ClippedShape>, egui::TexturesDelta) {
    let mut textures = egui::TexturesDelta::default();
    let mut shapes = Vec::new();
    for _ in 0..2 {
        let output = untouched_pass(ctx, info, ViewSettings::default(), raw.clone());
        textures.append(output.textures_delta);
        shapes = output.shapes;
    }
    (shapes, textures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_is_drawn_first_then_at_its_interval_or_on_news() {
        let mut r = OverlayRefresh::default();
        let t0 = Instant::now();
        assert!(r.due(t0), "the first frame draws it");
        r.drawn(t0, Duration::MAX);
        assert!(!r.due(t0 + Duration::from_millis(10)));
        assert!(!r.due(t0 + OverlayRefresh::INTERVAL - Duration::from_millis(1)));
        assert!(r.due(t0 + OverlayRefresh::INTERVAL), "the figures refresh");
        r.invalidate();
        assert!(r.due(t0 + Duration::from_millis(1)), "input draws it at once");
        r.drawn(t0, Duration::from_millis(5));
        assert!(!r.due(t0 + Duration::from_millis(4)));
        assert!(r.due(t0 + Duration::from_millis(5)), "egui asked to run again");
        r.drawn(t0, Duration::ZERO);
        assert!(r.due(t0), "egui asked to run at once");
    }
}
