//! The viewer's map picker (L): an egui window listing every map of the open files with its
//! name and format, as `mapscope list` words them, where a click opens one; below it the
//! recent file sets (the settings file's, [`super::settings`]), where a click reopens one at
//! the map it showed last. Like the overlay it changes no state: it returns what was picked.

use std::path::{Path, PathBuf};

use super::settings::Recent;
use crate::loader::LevelSource;

/// One map of the open files: its name and what `list` prints after it (the map's format
/// and nodes, or the files' format where `list` prints nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct MapRow {
    pub name: String,
    pub format: String,
}

/// What a click in the picker asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picked {
    /// The map at this index of the open files' maps.
    Map(usize),
    /// The recent file set at this index.
    Recent(usize),
}

/// The picker's state: shown or not, the map list of the open files (made when first
/// shown for them) and where the settings are kept (named at its foot).
#[derive(Default)]
pub struct MapPicker {
    pub open: bool,
    rows: Option<(Vec<PathBuf>, Vec<MapRow>)>,
    /// Where the settings file is, or why there is none.
    pub settings_note: String,
    /// Where the rows were last shown, as logged (debug) for a test to click them.
    logged: Vec<(String, [i32; 2])>,
}

impl MapPicker {
    pub fn new(settings: Option<&Path>) -> MapPicker {
        let settings_note = match settings {
            Some(p) => format!("settings and recent files: {}", p.display()),
            None => "settings are not kept (--no-config)".to_string(),
        };
        MapPicker { settings_note, ..MapPicker::default() }
    }

    pub fn toggle(&mut self) {
        self.open = !self.open;
    }

    /// Makes the map list of `files` (opened as `source`) unless it is made already.
    pub fn prepare(&mut self, files: &[PathBuf], source: &dyn LevelSource) {
        if self.rows.as_ref().is_some_and(|(f, _)| f == files) {
            return;
        }
        self.rows = Some((files.to_vec(), map_rows(source)));
    }
}

/// Every map of `source`, with `list`'s words for it.
pub fn map_rows(source: &dyn LevelSource) -> Vec<MapRow> {
    source
        .maps()
        .into_iter()
        .map(|name| {
            // A summary reads the map's lumps: a bad file must not take the viewer down.
            let summary = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                source.map_summary(&name)
            }));
            let format = summary.ok().flatten().unwrap_or_else(|| source.format().to_string());
            MapRow { name, format }
        })
        .collect()
}

/// Draws the picker when it is open; `current` is the index of the map shown.
pub fn draw(
    ctx: &egui::Context,
    picker: &mut MapPicker,
    current: usize,
    recent: &[Recent],
) -> Option<Picked> {
    let mut picked = None;
    let MapPicker { open, rows, settings_note, logged } = picker;
    if !*open {
        return None;
    }
    let rows = rows.as_ref().map(|(_, r)| r.as_slice()).unwrap_or_default();
    let mut shown: Vec<(String, egui::Rect)> = Vec::new();
    let height = (ctx.content_rect().height() - 120.0).max(120.0);
    egui::Window::new("maps (L)")
        .open(open)
        .fade_in(false)
        .fade_out(false)
        .default_pos([400.0, 8.0])
        .default_width(380.0)
        .resizable(false)
        .collapsible(false)
        .show(ctx, |ui| {
            ui.label(format!("{} in the open files: click to open", count(rows.len(), "map")));
            egui::ScrollArea::vertical().id_salt("maps").max_height(height * 0.6).show(ui, |ui| {
                egui::Grid::new("map rows").num_columns(2).striped(true).show(ui, |ui| {
                    for (i, row) in rows.iter().enumerate() {
                        let name = ui.selectable_label(i == current, &row.name);
                        let format = ui.add(
                            egui::Label::new(egui::RichText::new(&row.format).weak())
                                .sense(egui::Sense::click()),
                        );
                        if name.clicked() || format.clicked() {
                            picked = Some(Picked::Map(i));
                        }
                        shown.push((format!("map {}", row.name), name.rect));
                        ui.end_row();
                    }
                });
            });
            ui.separator();
            ui.label(format!("recent ({}): click to reopen", recent.len()));
            egui::ScrollArea::vertical().id_salt("recent").max_height(height * 0.4).show(
                ui,
                |ui| {
                    for (i, r) in recent.iter().enumerate() {
                        let text = format!("{}  {}", r.label(), r.map);
                        let paths: Vec<String> =
                            r.files.iter().map(|f| f.display().to_string()).collect();
                        let response =
                            ui.selectable_label(false, text).on_hover_text(paths.join("\n"));
                        if response.clicked() {
                            picked = Some(Picked::Recent(i));
                        }
                        shown.push((format!("recent {}", i + 1), response.rect));
                    }
                },
            );
            ui.separator();
            ui.label(egui::RichText::new(settings_note.as_str()).small().weak());
        });
    log_positions(ctx, logged, shown);
    picked
}

/// "1 map", "32 maps".
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Logs (at debug level) where each row is in window pixels when that changes: what the
/// viewer's tests click.
fn log_positions(
    ctx: &egui::Context,
    logged: &mut Vec<(String, [i32; 2])>,
    shown: Vec<(String, egui::Rect)>,
) {
    if !log::log_enabled!(log::Level::Debug) {
        return;
    }
    let ppp = ctx.pixels_per_point();
    let now: Vec<(String, [i32; 2])> = shown
        .into_iter()
        .map(|(what, r)| {
            let c = r.center() * ppp;
            (what, [c.x.round() as i32, c.y.round() as i32])
        })
        .collect();
    if now != *logged {
        for (what, [x, y]) in &now {
            log::debug!("map picker: {what} at {x},{y}");
        }
        *logged = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One pass of the picker; returns what was picked and the texts drawn.
    fn pass(
        ctx: &egui::Context,
        picker: &mut MapPicker,
        recent: &[Recent],
    ) -> (Option<Picked>, Vec<String>) {
        let mut picked = None;
        let size = egui::vec2(1280.0, 720.0);
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let mut out = ctx.run_pass(raw, |ctx| picked = draw(ctx, picker, 1, recent));
        out.textures_delta.clear();
        let texts = out
            .shapes
            .iter()
            .filter_map(|s| match &s.shape {
                egui::Shape::Text(t) => Some(t.galley.text().to_string()),
                _ => None,
            })
            .collect();
        (picked, texts)
    }

    #[test]
    fn the_picker_lists_maps_and_recent_sets_and_draws_nothing_when_closed() {
        let ctx = egui::Context::default();
        let mut picker = MapPicker::new(None);
        picker.rows = Some((
            vec![PathBuf::from("a.wad")],
            vec![
                MapRow { name: "MAP01".into(), format: "Doom, nodes: vanilla".into() },
                MapRow { name: "MAP02".into(), format: "UDMF (zdoom), nodes: none".into() },
            ],
        ));
        let recent = [Recent {
            files: vec!["/x/doom2.wad".into(), "/y/mod.pk3".into()],
            map: "MAP07".into(),
            ..Default::default()
        }];
        let (picked, texts) = pass(&ctx, &mut picker, &recent);
        assert_eq!((picked, texts.len()), (None, 0), "closed: {texts:?}");
        picker.toggle();
        let mut texts = Vec::new();
        // An auto-sized window is laid out unseen in its first pass.
        for _ in 0..2 {
            let (picked, t) = pass(&ctx, &mut picker, &recent);
            assert_eq!(picked, None, "nobody clicked");
            texts = t;
        }
        for want in [
            "maps (L)",
            "2 maps in the open files: click to open",
            "MAP01",
            "Doom, nodes: vanilla",
            "MAP02",
            "UDMF (zdoom), nodes: none",
            "recent (1): click to reopen",
            "doom2.wad + mod.pk3  MAP07",
            "settings are not kept (--no-config)",
        ] {
            assert!(texts.iter().any(|t| t == want), "{want:?} not in {texts:?}");
        }
        assert!(picker.open);
    }
}
