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
}

/// Draws the overlay panel; toggles edit `view` in place. Returns true if the user asked to
/// cycle to the next map.
pub fn draw(ctx: &egui::Context, info: &OverlayInfo<'_>, view: &mut ViewSettings) -> bool {
    let mut next_map = false;
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
            if ui.button("next map (N)").clicked() {
                next_map = true;
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
    next_map
}
