//! What the viewer writes out: F12 screenshots (a PNG with the camera in its metadata) and
//! bookmarks (the `mapscope render` command line of the current view).

use std::path::PathBuf;

use anyhow::Result;

use super::App;
use crate::app::bookmark::{self, Bookmark};
use crate::shot::{self, ShotMeta};

impl App {
    /// Prints (and copies, where a clipboard tool exists) the `mapscope render` command line
    /// for the current view.
    pub(super) fn bookmark(&mut self) {
        let pose = self.fly.pose.native(self.scene.axes);
        let name = format!("mapscope-{}-bookmark.png", sanitize(&self.scene.name));
        let line = Bookmark {
            files: &self.files,
            options: &self.options,
            map: &self.scene.name,
            camera: pose.position,
            angle: pose.angle,
            pitch: pose.pitch,
            view: &self.view,
            tic: self.tic(),
        }
        .command_line(&name);
        crate::output::print_line_or_log(format_args!("{line}"));
        self.message = Some(match bookmark::copy_to_clipboard(&line) {
            Some(tool) => format!("bookmark printed and copied ({tool})"),
            None => "bookmark printed to stdout (no clipboard tool found)".to_string(),
        });
    }

    pub(super) fn screenshot(&mut self) {
        let tic = self.tic();
        let Some(w) = &mut self.win else { return };
        if self.automap.on {
            // The 3D view is not drawn while the automap is up: drawn now for the shot.
            self.scene.animator.state_at(tic, &mut w.frame_state);
            w.renderer.set_state(&w.frame_state);
            w.renderer.render(&w.gpu, &self.fly.pose, &self.view);
        }
        let result = (|| -> Result<PathBuf> {
            let image = w.renderer.read_image(&w.gpu)?;
            let pose = self.fly.pose.native(self.scene.axes);
            let (files, options, view) = (&self.files, &self.options, &self.view);
            let meta = ShotMeta::for_view(files, options, &self.scene.name, pose, view, tic);
            let name = format!("mapscope-{}-{}.png", sanitize(&self.scene.name), timestamp());
            let path = self.shot_dir.join(name);
            shot::save_png(&path, &image, Some(&meta))?;
            Ok(path)
        })();
        match result {
            Ok(path) => {
                crate::output::print_line_or_log(format_args!("{}", path.display()));
                self.message = Some(format!("saved {}", path.display()));
            }
            Err(e) => self.show_error(format!("screenshot failed: {e:#}")),
        }
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}

/// UTC time as YYYYMMDD-HHMMSS-mmm, for screenshot names.
fn timestamp() -> String {
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{:03}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        now.subsec_millis()
    )
}
