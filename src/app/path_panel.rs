//! The viewer's camera path panel (F5): keyframes added from the camera (Insert) and removed
//! (Delete), played (Home) once or looped (End), scrubbed with a slider or keyframe by
//! keyframe (Page Up, Page Down), saved and loaded as the file `mapscope film --path` reads.

use std::path::PathBuf;
use std::time::Instant;

use crate::film::CameraPath;
use crate::scene::NativePose;

/// Seconds between a new keyframe and the last one, unless the panel says otherwise.
const DEFAULT_GAP: f64 = 2.0;

/// The panel's state, kept across levels (a path is in the game's coordinates, so it can be
/// tried on another map of the same game).
pub struct PathPanel {
    pub open: bool,
    pub path: CameraPath,
    /// Where on the path the camera is (seconds): the playhead.
    pub time: f64,
    /// While playing: when the playhead was at `time`.
    playing_since: Option<Instant>,
    pub looping: bool,
    /// Seconds after the last keyframe that a new one goes.
    gap: f64,
    /// The path file's name, as typed.
    file: String,
    /// What the panel last did or failed to do.
    pub note: Option<String>,
}

impl Default for PathPanel {
    fn default() -> Self {
        PathPanel {
            open: false,
            path: CameraPath::default(),
            time: 0.0,
            playing_since: None,
            looping: false,
            gap: DEFAULT_GAP,
            file: "camera-path.json".to_string(),
            note: None,
        }
    }
}

/// What the panel asks of the viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathAction {
    /// Add the camera as a keyframe.
    AddKey,
    /// Put the camera on the path at the playhead.
    ShowPlayhead,
}

impl PathPanel {
    pub fn is_playing(&self) -> bool {
        self.playing_since.is_some()
    }

    /// Adds `pose` as a keyframe: the gap after the last keyframe, or at the playhead where
    /// it was moved back before the last (replacing a keyframe at that very time).
    pub fn add(&mut self, pose: NativePose) {
        let t = if self.path.is_empty() {
            0.0
        } else if self.time < self.path.duration() {
            self.time
        } else {
            self.path.duration() + self.gap
        };
        self.path.insert(t, pose);
        self.time = t;
        self.note = Some(format!("keyframe at {t:.2} s ({} in all)", self.path.keyframes().len()));
    }

    /// Removes the keyframe nearest the playhead.
    pub fn remove_nearest(&mut self) {
        match self.path.nearest(self.time) {
            Some(i) => {
                let t = self.path.keyframes()[i].t;
                self.path.remove(i);
                self.note = Some(format!(
                    "keyframe at {t:.2} s removed ({} left)",
                    self.path.keyframes().len()
                ));
            }
            None => self.note = Some("no keyframes to remove".to_string()),
        }
    }

    /// Starts or stops playing; from the start when the playhead is at the end.
    pub fn toggle_play(&mut self, now: Instant) {
        if self.playing_since.take().is_some() {
            self.note = Some(format!("paused at {:.2} s", self.time));
            return;
        }
        if self.path.keyframes().len() < 2 {
            self.note = Some("add two keyframes or more to play (Insert)".to_string());
            return;
        }
        if self.time >= self.path.duration() {
            self.time = 0.0;
        }
        self.playing_since = Some(now);
        self.note = Some(if self.looping { "playing, looped" } else { "playing" }.to_string());
    }

    pub fn toggle_loop(&mut self) {
        self.looping = !self.looping;
        self.note = Some(format!("loop {}", if self.looping { "on" } else { "off" }));
    }

    /// Moves the playhead to the keyframe before (`step` < 0) or after it.
    pub fn step_key(&mut self, step: i32) {
        self.playing_since = None;
        let keys = self.path.keyframes();
        let next = if step < 0 {
            keys.iter().rev().find(|k| k.t < self.time).or(keys.first())
        } else {
            keys.iter().find(|k| k.t > self.time).or(keys.last())
        };
        if let Some(k) = next {
            self.time = k.t;
            let i = keys.iter().position(|x| x.t == k.t).unwrap_or(0);
            self.note = Some(format!("keyframe {} of {} at {:.2} s", i + 1, keys.len(), k.t));
        }
    }

    /// The camera at the playhead, moving it on while playing (`now`); `None` when the path
    /// is not playing.
    pub fn advance(&mut self, now: Instant) -> Option<NativePose> {
        let since = self.playing_since?;
        let end = self.path.duration();
        let mut t = self.time + now.saturating_duration_since(since).as_secs_f64();
        if t >= end {
            if self.looping && end > 0.0 {
                t %= end;
            } else {
                t = end;
                self.playing_since = None;
                self.note = Some("played to the end".to_string());
            }
        }
        if self.playing_since.is_some() {
            self.playing_since = Some(now);
        }
        self.time = t;
        self.path.at(t)
    }

    /// The camera at the playhead.
    pub fn at_playhead(&self) -> Option<NativePose> {
        self.path.at(self.time)
    }

    fn save(&mut self) {
        if self.path.is_empty() {
            self.note = Some("no keyframes to save (Insert adds one)".to_string());
            return;
        }
        let file = PathBuf::from(self.file.trim());
        self.note = Some(match self.path.save(&file) {
            Ok(()) => format!("saved {}", file.display()),
            Err(e) => format!("{e:#}"),
        });
    }

    fn load(&mut self) -> bool {
        let file = PathBuf::from(self.file.trim());
        match CameraPath::load(&file) {
            Ok(path) => {
                self.note = Some(format!(
                    "loaded {} ({} keyframes, {:.2} s)",
                    file.display(),
                    path.keyframes().len(),
                    path.duration()
                ));
                self.path = path;
                self.time = 0.0;
                self.playing_since = None;
                true
            }
            Err(e) => {
                self.note = Some(format!("{e:#}"));
                false
            }
        }
    }

    /// Draws the panel; returns what the viewer is to do.
    pub fn draw(&mut self, ctx: &egui::Context, now: Instant) -> Option<PathAction> {
        let mut action = None;
        let frame = egui::Frame::window(&ctx.global_style()).shadow(egui::Shadow::NONE);
        let mut open = self.open;
        egui::Window::new("camera path")
            .frame(frame)
            .open(&mut open)
            .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, -8.0])
            .default_width(300.0)
            .resizable(false)
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    if ui.button("add key (Ins)").clicked() {
                        action = Some(PathAction::AddKey);
                    }
                    if ui.button("remove (Del)").clicked() {
                        self.remove_nearest();
                        action = Some(PathAction::ShowPlayhead);
                    }
                    ui.label("gap");
                    ui.add(
                        egui::DragValue::new(&mut self.gap)
                            .range(0.1..=60.0)
                            .speed(0.1)
                            .suffix(" s"),
                    );
                });
                ui.horizontal(|ui| {
                    let play = if self.is_playing() { "pause (Home)" } else { "play (Home)" };
                    if ui.button(play).clicked() {
                        self.toggle_play(now);
                    }
                    let mut looping = self.looping;
                    if ui.checkbox(&mut looping, "loop (End)").changed() {
                        self.toggle_loop();
                    }
                    if ui.button("prev key (PgUp)").clicked() {
                        self.step_key(-1);
                        action = Some(PathAction::ShowPlayhead);
                    }
                    if ui.button("next key (PgDn)").clicked() {
                        self.step_key(1);
                        action = Some(PathAction::ShowPlayhead);
                    }
                });
                let end = self.path.duration();
                let mut time = self.time;
                // Shown to hundredths, not rounded to them: a slider that rounds its value reports a
                // change every frame and would stop the playing.
                let slider = egui::Slider::new(&mut time, 0.0..=end.max(0.01))
                    .custom_formatter(|v, _| format!("{v:.2}"))
                    .suffix(" s");
                if ui.add_enabled(!self.path.is_empty(), slider).changed() {
                    self.time = time;
                    self.playing_since = None;
                    action = Some(PathAction::ShowPlayhead);
                }
                ui.label(format!("{} keyframes, {end:.2} s", self.path.keyframes().len()));
                ui.horizontal(|ui| {
                    ui.add(egui::TextEdit::singleline(&mut self.file).desired_width(170.0));
                    if ui.button("save").clicked() {
                        self.save();
                    }
                    if ui.button("load").clicked() && self.load() {
                        action = Some(PathAction::ShowPlayhead);
                    }
                });
                if let Some(note) = &self.note {
                    ui.label(note);
                }
            });
        self.open = open;
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64) -> NativePose {
        NativePose { position: [x, 0.0, 0.0], angle: 0.0, pitch: 0.0 }
    }

    #[test]
    fn keys_go_a_gap_apart_and_playing_reaches_the_end_or_loops() {
        let mut p = PathPanel::default();
        p.add(pose(0.0));
        p.add(pose(100.0));
        let times: Vec<f64> = p.path.keyframes().iter().map(|k| k.t).collect();
        assert_eq!(times, [0.0, DEFAULT_GAP]);
        let start = Instant::now();
        p.toggle_play(start);
        assert_eq!(p.time, 0.0, "played from the start, the playhead being at the end");
        let later = start + std::time::Duration::from_secs_f64(DEFAULT_GAP + 0.5);
        assert_eq!(p.advance(later), Some(pose(100.0)));
        assert!(!p.is_playing());
        p.toggle_loop();
        p.toggle_play(later);
        let looped = later + std::time::Duration::from_secs_f64(DEFAULT_GAP + 0.5);
        let at = p.advance(looped).unwrap();
        assert!((p.time - 0.5).abs() < 1e-9 && at.position[0] > 0.0, "{} {at:?}", p.time);
        assert!(p.is_playing());
        // Page Up goes back to the first keyframe; Delete removes the nearest.
        p.step_key(-1);
        assert_eq!(p.time, 0.0);
        p.remove_nearest();
        assert_eq!(p.path.keyframes().len(), 1);
        // Moved back before the last keyframe, a new one goes at the playhead.
        p.add(pose(5.0));
        p.time = 1.0;
        p.add(pose(7.0));
        // At the end, a new one goes the gap after the last.
        p.step_key(1);
        p.step_key(1);
        p.add(pose(9.0));
        let times: Vec<f64> = p.path.keyframes().iter().map(|k| k.t).collect();
        assert_eq!(times, [0.0, 1.0, DEFAULT_GAP, DEFAULT_GAP * 2.0]);
    }
}
