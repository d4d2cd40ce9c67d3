//! The viewer's inspector: the game's records of what was last picked (I, or a right click
//! where the pointer is free), as `mapscope pick` prints them, in a panel of its own with a
//! copy button; the crosshair the pick is taken at while flying.

use crate::inspect::Pick;

/// What the panel's buttons asked for this frame.
#[derive(Default)]
pub struct InspectorActions {
    pub copy: bool,
    pub close: bool,
}

/// The last pick, as shown.
pub struct Inspected {
    pub text: String,
    /// The pick's kind and what names it best, for the panel's title.
    pub title: String,
}

impl Inspected {
    pub fn new(pick: &Pick) -> Inspected {
        // The most particular record first: a wall's line before its sector or polygon.
        const FIRST: [&str; 10] = [
            "thing",
            "object",
            "billboard",
            "linedef",
            "line",
            "sector",
            "polygon",
            "plane",
            "actor",
            "cell",
        ];
        let id = FIRST.iter().find_map(|k| {
            pick.facts.iter().find(|(name, _)| name == k).map(|(n, v)| format!("{n} {v}"))
        });
        let title = match id {
            Some(id) => format!("{}: {id}", pick.kind.name()),
            None => pick.kind.name().to_string(),
        };
        Inspected { text: pick.to_text(), title }
    }
}

/// Draws the inspector panel at the window's right.
pub fn draw(ctx: &egui::Context, inspected: &Inspected) -> InspectorActions {
    let mut actions = InspectorActions::default();
    let frame = egui::Frame::window(&ctx.global_style()).shadow(egui::Shadow::NONE);
    egui::Window::new("inspector")
        .frame(frame)
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(300.0)
        .resizable(false)
        .collapsible(true)
        .show(ctx, |ui| {
            ui.strong(&inspected.title);
            egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                ui.add(
                    egui::Label::new(egui::RichText::new(&inspected.text).monospace())
                        .selectable(true),
                );
            });
            ui.horizontal(|ui| {
                actions.copy = ui.button("copy").clicked();
                actions.close = ui.button("close").clicked();
            });
        });
    actions
}

/// A small cross at the middle of the view (`rect`: x, y, width, height in window pixels),
/// where I picks while the mouse is captured.
pub fn crosshair(ctx: &egui::Context, rect: [f32; 4]) {
    let ppp = ctx.pixels_per_point();
    let (x, y) = ((rect[0] + rect[2] / 2.0) / ppp, (rect[1] + rect[3] / 2.0) / ppp);
    let painter = ctx.layer_painter(egui::LayerId::background());
    let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 255, 255));
    painter.line_segment([egui::pos2(x - 5.0, y), egui::pos2(x + 5.0, y)], stroke);
    painter.line_segment([egui::pos2(x, y - 5.0), egui::pos2(x, y + 5.0)], stroke);
}
