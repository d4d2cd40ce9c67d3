//! The inspector's side of the viewer: where a pick is asked for (the crosshair while the
//! mouse is captured, else the pointer) and what becomes of the answer (the panel, stdout,
//! the clipboard).

use super::App;
use crate::app::bookmark;
use crate::app::find_panel::FindAction;
use crate::app::inspector::{Inspected, InspectorActions};
use crate::inspect::{self, go};

impl App {
    /// Asks for a pick at the crosshair (mouse captured) or under the pointer, taken once the
    /// next frame is drawn.
    pub(super) fn ask_pick(&mut self) {
        let (fw, fh) = (self.view.width.max(1), self.view.height.max(1));
        self.pick_at = Some(if self.captured {
            [fw / 2, fh / 2]
        } else {
            let [x, y, w, h] = self.display_rect;
            let fx = (self.cursor.0 - x as f64) / w.max(1.0) as f64 * fw as f64;
            let fy = (self.cursor.1 - y as f64) / h.max(1.0) as f64 * fh as f64;
            if !(0.0..fw as f64).contains(&fx) || !(0.0..fh as f64).contains(&fy) {
                self.message = Some("nothing to inspect outside the view".into());
                return;
            }
            [fx as u32, fy as u32]
        });
    }

    /// Takes the pick asked for, from the frame just drawn.
    pub(super) fn take_pick(&mut self) {
        let Some(pixel) = self.pick_at.take() else { return };
        let Some(w) = &self.win else { return };
        let found = inspect::pick(
            &self.scene,
            &w.frame_state,
            &w.renderer,
            &self.fly.pose,
            &self.view,
            pixel,
        );
        let shown = Inspected::new(&found);
        crate::output::print_line_or_log(format_args!("{}", shown.text.trim_end()));
        self.message = Some(format!("inspected {}", shown.title));
        self.inspected = Some(shown);
    }

    /// What the panel's buttons asked for.
    pub(super) fn inspector_actions(&mut self, actions: InspectorActions) {
        if actions.copy {
            if let Some(i) = &self.inspected {
                self.message = Some(match bookmark::copy_to_clipboard(&i.text) {
                    Some(tool) => format!("inspector copied ({tool})"),
                    None => {
                        "no clipboard tool found (wl-copy, xclip, xsel); printed to stdout".into()
                    }
                });
            }
        }
        if actions.close {
            self.inspected = None;
        }
    }

    /// Moves the camera to what the find panel asked for.
    pub(super) fn go(&mut self, action: FindAction) {
        let from = self.fly.pose;
        let (pose, what) = match action {
            FindAction::Record(kind, number) => {
                let goal = go::Goal { kind, number };
                let what = format!("{} {}", goal.kind, goal.number);
                match go::camera_for(&self.scene, &goal, &from) {
                    Ok(p) => (Some(p), what),
                    Err(e) => {
                        self.find.error = Some(format!("{e:#}"));
                        return;
                    }
                }
            }
            FindAction::Sprite(i) => {
                (go::camera_for_sprite(&self.scene, i, &from), format!("sprite {i}"))
            }
        };
        if let Some(p) = pose {
            self.find.error = None;
            self.fly.pose = p;
            self.message = Some(format!("went to {what}"));
        }
    }
}
