//! The viewer's on-screen overlay (egui): what is shown (level, camera, frame time, notes) and
//! the controls (mode, sky, markers, reference image), returned as actions for the viewer to
//! apply, so the overlay itself changes no state.

use super::compare_view::ReferenceView;
use super::reference::RefMode;
use crate::render::{RenderMode, ViewSettings};

/// What the overlay shows this frame.
pub struct OverlayInfo<'a> {
    pub title: &'a str,
    pub frame_ms: f64,
    pub position: [f64; 3],
    pub angle: f64,
    pub pitch: f64,
    pub speed: f64,
    pub tic: u32,
    pub captured: bool,
    pub message: Option<&'a str>,
    pub error: Option<&'a str>,
    /// The game's screen for this format, e.g. "320x200 at 90°, shown 4:3"; `None` when
    /// the format has no known screen.
    pub game_screen: Option<String>,
    /// Size of the rendered frame.
    pub frame_size: (u32, u32),
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

/// Draws the overlay panel; toggles edit `controls` in place.
pub fn draw(ctx: &egui::Context, info: &OverlayInfo<'_>, controls: Controls<'_>) -> Actions {
    let mut actions = Actions::default();
    let Controls { view, game_res, frozen, reference } = controls;
    egui::Window::new("mapscope").default_pos([8.0, 8.0]).resizable(false).collapsible(true).show(
        ctx,
        |ui| {
            ui.label(info.title);
            let fps = if info.frame_ms > 0.0 { 1000.0 / info.frame_ms } else { 0.0 };
            ui.label(format!("{fps:.0} fps  {:.2} ms", info.frame_ms));
            let p = info.position;
            ui.label(format!("pos {:.1}, {:.1}, {:.1}", p[0], p[1], p[2]));
            ui.label(format!("angle {:.1}°  pitch {:.1}°", info.angle, info.pitch));
            ui.label(format!("speed {:.0}/s  tic {}", info.speed, info.tic));
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
            ui.checkbox(game_res, game_label);
            ui.label(format!(
                "frame {}x{}  fov {}°",
                info.frame_size.0, info.frame_size.1, view.fov_deg
            ));
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
            if let Some(m) = info.message {
                ui.label(m);
            }
            if let Some(e) = info.error {
                ui.colored_label(egui::Color32::from_rgb(255, 96, 96), e);
            }
        },
    );
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
