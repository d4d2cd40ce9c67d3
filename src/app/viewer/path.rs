//! The camera path keys and panel (F5) wired to the viewer: keyframes from the fly camera,
//! and the camera put on the path while it plays or is scrubbed.

use std::time::Instant;

use winit::keyboard::KeyCode;

use super::App;
use crate::app::path_panel::PathAction;

impl App {
    /// A camera path key (F5, Insert, Delete, Home, End, Page Up, Page Down).
    pub(super) fn path_key(&mut self, code: KeyCode) {
        let p = &mut self.path;
        match code {
            KeyCode::F5 => p.open = !p.open,
            KeyCode::Insert => self.path_action(PathAction::AddKey),
            KeyCode::Delete => {
                p.remove_nearest();
                self.path_action(PathAction::ShowPlayhead);
            }
            KeyCode::Home => p.toggle_play(Instant::now()),
            KeyCode::End => p.toggle_loop(),
            KeyCode::PageUp | KeyCode::PageDown => {
                p.step_key(if code == KeyCode::PageUp { -1 } else { 1 });
                self.path_action(PathAction::ShowPlayhead);
            }
            _ => return,
        }
        if code != KeyCode::F5 {
            self.message = self.path.note.clone();
        }
    }

    pub(super) fn path_action(&mut self, action: PathAction) {
        match action {
            PathAction::AddKey => self.path.add(self.fly.pose.native(self.scene.axes)),
            PathAction::ShowPlayhead => {
                if let Some(pose) = self.path.at_playhead() {
                    self.fly.pose = pose.to_viewer(self.scene.axes);
                }
            }
        }
    }

    /// While the path plays, the camera follows it.
    pub(super) fn follow_path(&mut self, now: Instant) {
        if let Some(pose) = self.path.advance(now) {
            self.fly.pose = pose.to_viewer(self.scene.axes);
        }
    }
}
