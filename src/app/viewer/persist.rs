//! What the viewer keeps across runs (the settings file, `crate::app::settings`) and the
//! map picker (L, `crate::app::map_picker`) that opens the open files' maps and the recent
//! file sets: the settings the viewer shows, read each frame and written when they change;
//! the level shown put first in the recent list; what a click in the picker asks for.

use std::path::PathBuf;
use std::time::Instant;

use super::{build_map, App};
use crate::app::map_picker::{MapPicker, Picked};
use crate::app::settings::{Recent, Settings, Store};

/// A level as the recent list tells levels apart: files, map, Shapes file, palette, vanilla.
type LevelKey = (Vec<PathBuf>, String, Option<PathBuf>, Option<PathBuf>, bool);

/// The settings file, the picker, and what the viewer last saw of the window.
pub(super) struct Keep {
    pub(super) store: Store,
    pub(super) picker: MapPicker,
    /// The level last put in the recent list: files, map and how they were opened.
    level: Option<LevelKey>,
    /// The window's inner size in logical pixels, as last seen (or to open at).
    pub(super) window: [u32; 2],
    /// The overlay panel is open (not collapsed), as last seen (or to open with).
    overlay_open: bool,
}

impl Keep {
    pub(super) fn new(store: Store) -> Keep {
        let picker = MapPicker::new(store.path());
        let (window, overlay_open) = (store.file.window, store.file.overlay_open);
        Keep { store, picker, level: None, window, overlay_open }
    }
}

/// egui's id for the open or folded state of the overlay panel (an `egui::Window` keeps it
/// at its id `.with("collapsing")`).
fn panel_state_id() -> egui::Id {
    crate::app::overlay::panel_id().with("collapsing")
}

impl App {
    /// What the viewer shows now, as the settings file keeps it (the recent list aside).
    pub(super) fn settings_now(&self) -> Settings {
        let v = &self.view;
        Settings {
            speed: self.fly.scale,
            fov: self.user_fov,
            mode: v.mode,
            things: v.show_sprites,
            sky: v.show_sky,
            wireframe: v.wireframe,
            markers: v.show_markers,
            game_res: self.game_res,
            overlay: self.show_overlay,
            overlay_open: self.keep.overlay_open,
            window: self.keep.window,
            recent: Vec::new(),
        }
    }

    /// The viewer is set up: what it shows now is what it started with (not written unless
    /// changed); what could not be read in the settings file is shown in the overlay too.
    pub(super) fn begin_settings(&mut self) {
        let start = self.settings_now();
        self.keep.store.begin(&start);
        if let Some(w) = self.keep.store.warnings.first() {
            let more = self.keep.store.warnings.len() - 1;
            let more =
                if more > 0 { format!(" (and {more} more in the log)") } else { String::new() };
            let said = self.message.take().map(|m| format!("\n{m}")).unwrap_or_default();
            self.message = Some(format!("{w}{more}{said}"));
        }
    }

    /// Opens the overlay panel as it was left (once egui is set up).
    pub(super) fn restore_panel(&self, ctx: &egui::Context) {
        let open = self.keep.overlay_open;
        egui::collapsing_header::CollapsingState::load_with_default_open(
            ctx,
            panel_state_id(),
            open,
        )
        .store(ctx);
    }

    /// Each frame: notes the window's size and the panel's state, puts the level shown first
    /// in the recent list, and writes the settings file when something changed.
    pub(super) fn keep_settings(&mut self, now: Instant) {
        if let Some(w) = &self.win {
            let (width, height) = w.target.size();
            let scale = w.window.scale_factor();
            let size =
                [(width as f64 / scale).round() as u32, (height as f64 / scale).round() as u32];
            // A minimised window has no size worth keeping.
            if size.iter().all(|&n| n >= 64) {
                self.keep.window = size;
            }
            let state =
                egui::collapsing_header::CollapsingState::load(&w.egui_ctx, panel_state_id());
            if let Some(state) = state {
                self.keep.overlay_open = state.is_open();
            }
        }
        // Compared in place: this runs every frame, and the key is cloned only when it changed.
        let o = &self.options;
        let same =
            self.keep.level.as_ref().is_some_and(|(files, name, shapes, palette, vanilla)| {
                *files == self.files
                    && *name == self.scene.name
                    && *shapes == o.shapes
                    && *palette == o.palette
                    && *vanilla == o.vanilla
            });
        if !same {
            let level: LevelKey = (
                self.files.clone(),
                self.scene.name.clone(),
                o.shapes.clone(),
                o.palette.clone(),
                o.vanilla,
            );
            self.keep.store.opened(Recent::new(&self.files, &self.scene.name, &self.options));
            self.keep.level = Some(level);
        }
        let settings = self.settings_now();
        self.keep.store.tick(now, &settings);
    }

    /// Writes what changed (at exit).
    pub(super) fn save_settings(&mut self) {
        let settings = self.settings_now();
        self.keep.store.save(&settings);
    }

    /// Opens what was clicked in the map picker.
    pub(super) fn picked(&mut self, picked: Picked) {
        match picked {
            Picked::Map(index) => self.open_map(index),
            Picked::Recent(index) => {
                let Some(r) = self.keep.store.recent().get(index).cloned() else { return };
                let before = std::mem::replace(&mut self.options, r.options());
                let map = Some(r.map.clone()).filter(|m| !m.is_empty());
                self.load(r.files.clone(), map);
                if self.error.is_some() {
                    // The level shown stays, opened as it was.
                    self.options = before;
                }
            }
        }
    }

    /// Opens the map at `index` of the open files' maps.
    fn open_map(&mut self, index: usize) {
        let Some(name) = self.maps.get(index).cloned() else { return };
        match build_map(self.source.as_ref(), &self.files, &name) {
            Ok(scene) => {
                if self.set_scene(scene) {
                    self.map_index = index;
                }
            }
            Err(e) => self.show_error(format!("{name}: {e:#}")),
        }
    }
}
