//! The viewer's find panel (J): go to a record by number (the kinds the level's format
//! numbers: Doom sectors, linedefs and things, Marathon polygons, lines and objects), and a
//! list of the level's things to filter by name or type and go to, one after another.

use crate::scene::{Fact, Scene};

/// One thing of the list: its sprite and how it reads.
pub struct ThingEntry {
    pub sprite: usize,
    pub text: String,
}

/// The panel's state, kept while the level is open.
#[derive(Default)]
pub struct FindPanel {
    pub open: bool,
    kind: usize,
    number: String,
    filter: String,
    things: Vec<ThingEntry>,
    /// The entry last gone to (the "next" button goes on from it).
    last: Option<usize>,
    /// What the number field says is wrong.
    pub error: Option<String>,
}

/// Where the panel asks the camera to go.
pub enum FindAction {
    /// A record by kind and number.
    Record(String, u64),
    /// A sprite of the scene.
    Sprite(usize),
}

impl FindPanel {
    /// The panel for a newly opened level (the list read from its things).
    pub fn for_scene(scene: &Scene, open: bool) -> FindPanel {
        let things = scene
            .sprites
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let facts = scene.records.as_ref().map(|r| r.sprite(s)).unwrap_or_default();
                let text = match facts.first() {
                    Some((kind, n)) => {
                        let more: Vec<String> = facts
                            .iter()
                            .filter(|(k, _)| {
                                matches!(
                                    k.as_str(),
                                    "thing_type" | "thing_name" | "object_type" | "object_index"
                                )
                            })
                            .map(|(_, v)| match v {
                                Fact::Text(t) => t.clone(),
                                v => v.to_string(),
                            })
                            .collect();
                        format!("{kind} {n}: {}", more.join(" "))
                    }
                    None => format!("sprite {i}: {}", s.label),
                };
                ThingEntry { sprite: i, text }
            })
            .collect();
        FindPanel { open, things, ..FindPanel::default() }
    }

    fn matching(&self) -> impl Iterator<Item = (usize, &ThingEntry)> {
        let filter = self.filter.to_ascii_lowercase();
        self.things
            .iter()
            .enumerate()
            .filter(move |(_, t)| t.text.to_ascii_lowercase().contains(&filter))
    }

    /// Draws the panel; returns where to go, if anywhere.
    pub fn draw(&mut self, ctx: &egui::Context, kinds: &[String]) -> Option<FindAction> {
        let mut action = None;
        let frame = egui::Frame::window(&ctx.global_style()).shadow(egui::Shadow::NONE);
        let mut open = self.open;
        egui::Window::new("find")
            .frame(frame)
            .open(&mut open)
            .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0])
            .default_width(320.0)
            .resizable(false)
            .show(ctx, |ui| {
                if !kinds.is_empty() {
                    ui.horizontal(|ui| {
                        self.kind = self.kind.min(kinds.len() - 1);
                        egui::ComboBox::from_id_salt("find kind")
                            .selected_text(kinds[self.kind].as_str())
                            .show_ui(ui, |ui| {
                                for (i, k) in kinds.iter().enumerate() {
                                    ui.selectable_value(&mut self.kind, i, k.as_str());
                                }
                            });
                        let field = ui.add(
                            egui::TextEdit::singleline(&mut self.number)
                                .desired_width(80.0)
                                .hint_text("number"),
                        );
                        let entered =
                            field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if ui.button("go").clicked() || entered {
                            match self.number.trim().parse::<u64>() {
                                Ok(n) => {
                                    action =
                                        Some(FindAction::Record(kinds[self.kind].to_string(), n))
                                }
                                Err(_) => {
                                    self.error =
                                        Some(format!("'{}' is not a number", self.number.trim()))
                                }
                            }
                        }
                    });
                    if let Some(e) = &self.error {
                        ui.colored_label(egui::Color32::from_rgb(255, 96, 96), e);
                    }
                    ui.separator();
                }
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut self.filter)
                            .desired_width(180.0)
                            .hint_text("filter things"),
                    );
                    if ui.button("next").clicked() {
                        let after = self.last.map_or(0, |l| l + 1);
                        let found: Vec<usize> = self.matching().map(|(i, _)| i).collect();
                        let next = found.iter().find(|&&i| i >= after).or(found.first()).copied();
                        if let Some(i) = next {
                            self.last = Some(i);
                            action = Some(FindAction::Sprite(self.things[i].sprite));
                        }
                    }
                });
                let count = self.matching().count();
                ui.label(format!("{count} of {} things", self.things.len()));
                egui::ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
                    let rows: Vec<(usize, String, usize)> =
                        self.matching().map(|(i, t)| (i, t.text.clone(), t.sprite)).collect();
                    for (i, text, sprite) in rows {
                        if ui.selectable_label(self.last == Some(i), text).clicked() {
                            self.last = Some(i);
                            action = Some(FindAction::Sprite(sprite));
                        }
                    }
                });
            });
        self.open = open;
        action
    }
}
