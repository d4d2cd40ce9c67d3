//! `mapscope film`: a camera path (or `bench`'s tour) rendered headless frame by frame, to an
//! animated GIF or a numbered PNG sequence, with the camera of every frame on request.
//!
//! Frame `f` is at `f / fps` seconds: its camera is the path's at that time, its animation
//! state the game's tic `floor(f / fps * tic rate)` (Doom: 35 tics a second). Nothing else
//! goes in, so the same input gives the same bytes.

pub mod gif;
pub mod path;
pub mod progress;
pub mod video;

use anyhow::{bail, Result};
use serde_json::json;

pub use path::{CameraPath, Keyframe};

use crate::bench::Tour;
use crate::render::{Gpu, RendererChoice, SceneRenderer, ViewSettings};
use crate::scene::{Axes, CameraPose, NativePose, Scene, Walker};

/// Where the camera goes.
#[derive(Clone, Debug)]
pub enum Camerawork {
    /// Keyframes, played from 0 seconds.
    Path(CameraPath),
    /// `bench`'s tour, spread over the film's frames as `bench` spreads it over its own.
    Tour(Tour),
}

/// The frames of a film.
#[derive(Clone, Debug)]
pub struct Film {
    pub camerawork: Camerawork,
    pub frames: usize,
    pub fps: f64,
    /// Walk the path instead of flying it: a body heads for the path's point each game tic
    /// and the game's rules say where it gets to ([`crate::scene::Walker`]).
    pub walk: bool,
}

/// The camera of one frame, in the game's terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePose {
    pub frame: usize,
    pub pose: NativePose,
}

impl FramePose {
    /// The pose as one line of `--poses`, its fields in the documented order.
    pub fn to_json_line(&self) -> String {
        let p = &self.pose;
        format!(
            "{{\"frame\": {}, \"camera\": {}, \"angle\": {}, \"pitch\": {}}}",
            self.frame,
            json_xyz(p.position),
            json!(p.angle),
            json!(p.pitch)
        )
    }
}

/// `[X, Y, Z]` as JSON, spaced as the documentation writes it.
pub fn json_xyz(p: [f64; 3]) -> String {
    format!("[{}, {}, {}]", json!(p[0]), json!(p[1]), json!(p[2]))
}

/// `lines` (JSON values) as a JSON list, one a line, as people read and diff it.
pub fn json_list(lines: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = lines.into_iter().map(|l| format!("  {l}")).collect();
    if items.is_empty() {
        return "[]".to_string();
    }
    format!("[\n{}\n]", items.join(",\n"))
}

impl Film {
    /// The frames that play `path` at `fps` through its last keyframe.
    pub fn frames_for(path: &CameraPath, fps: f64) -> usize {
        (path.duration() * fps + 1e-9).floor() as usize + 1
    }

    /// Frame `f`'s time in seconds.
    pub fn time(&self, f: usize) -> f64 {
        f as f64 / self.fps
    }

    /// Frame `f`'s animation tic at `tic_rate` tics a second.
    pub fn tic(&self, f: usize, tic_rate: f64) -> u32 {
        (self.time(f) * tic_rate).floor().min(f64::from(u32::MAX)) as u32
    }

    /// Frame `f`'s camera: in viewer space, and as the game names it.
    pub fn camera(&self, f: usize, axes: Axes) -> (CameraPose, NativePose) {
        match &self.camerawork {
            Camerawork::Path(path) => {
                let native = path.at(self.time(f)).unwrap_or_default();
                (native.to_viewer(axes), native)
            }
            Camerawork::Tour(tour) => {
                let pose = tour.camera(f, self.frames);
                (pose, pose.native(axes))
            }
        }
    }

    /// Renders every frame of `scene` in order, handing each to `take` with its camera.
    pub fn render(
        &self,
        gpu: &Gpu,
        scene: &mut Scene,
        view: &ViewSettings,
        renderer_choice: RendererChoice,
        mut take: impl FnMut(FramePose, u32, image::RgbaImage) -> Result<()>,
    ) -> Result<()> {
        let mut renderer = SceneRenderer::new(gpu, scene)?;
        renderer.set_renderer(renderer_choice, gpu);
        let mut state = scene.animator.initial();
        let rate = scene.game.tic_rate();
        let mut walk = if self.walk { Some(self.start_walk(scene)?) } else { None };
        for f in 0..self.frames {
            let tic = self.tic(f, rate);
            let (camera, pose) = match &mut walk {
                Some(walk) => self.walked_camera(walk, tic, rate, scene.axes),
                None => self.camera(f, scene.axes),
            };
            scene.animator.state_at(tic, &mut state);
            renderer.set_state(&state);
            renderer.render(gpu, &camera, view);
            let image = renderer.read_image(gpu)?;
            take(FramePose { frame: f, pose }, tic, image)?;
        }
        Ok(())
    }
}

/// A walker on its way along a path: the tics it has run so far.
struct Walking {
    walker: Box<dyn Walker>,
    tics: u32,
}

impl Film {
    /// The scene's walker, standing at the path's start.
    fn start_walk(&self, scene: &Scene) -> Result<Walking> {
        let Camerawork::Path(path) = &self.camerawork else {
            bail!("--walk walks a camera path (--path), not the tour");
        };
        let Some(mut walker) = scene.records.as_ref().and_then(|r| r.walker(scene)) else {
            bail!("--walk: no walk rules for {} levels", scene.game.name());
        };
        let start = path.at(0.0).unwrap_or_default().position;
        walker.place(scene.axes.to_viewer_f64(start.into()).to_array());
        if !walker.has_floor() {
            bail!(
                "--walk: no floor under the path's first keyframe ({}, {}, {}): start the path \
                 over the level",
                start[0],
                start[1],
                start[2]
            );
        }
        Ok(Walking { walker, tics: 0 })
    }

    /// The walker's camera at `tic`: each tic it heads for the path's point at that time, at
    /// most its speed, and looks the path's way.
    fn walked_camera(
        &self,
        walk: &mut Walking,
        tic: u32,
        rate: f64,
        axes: Axes,
    ) -> (CameraPose, NativePose) {
        let Camerawork::Path(path) = &self.camerawork else { unreachable!("start_walk") };
        while walk.tics < tic {
            walk.tics += 1;
            let goal = path.at(f64::from(walk.tics) / rate).unwrap_or_default().position;
            let goal = axes.to_viewer_f64(goal.into());
            let feet = walk.walker.feet();
            let mut wish = glam::DVec2::new(goal.x - feet[0], goal.z - feet[2]);
            let speed = walk.walker.speed();
            if wish.length() > speed {
                wish = wish.normalize() * speed;
            }
            walk.walker.tic(wish.into());
        }
        let look = path.at(f64::from(tic) / rate).unwrap_or_default();
        let eye = axes.to_native_f64(walk.walker.eye().into()).to_array();
        let native = NativePose { position: eye, ..look };
        (native.to_viewer(axes), native)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_reach_the_last_keyframe_and_tics_follow_the_clock() {
        let mut path = CameraPath::default();
        path.insert(0.0, NativePose::default());
        path.insert(2.0, NativePose { angle: 90.0, ..NativePose::default() });
        assert_eq!(Film::frames_for(&path, 35.0), 71);
        let film = Film { camerawork: Camerawork::Path(path), frames: 71, fps: 35.0, walk: false };
        assert_eq!(film.tic(35, 35.0), 35);
        assert_eq!(film.tic(70, 30.0), 60);
        let film = Film { fps: 10.0, ..film };
        // 0.3 s is tic 10.5 at 35 a second.
        assert_eq!(film.tic(3, 35.0), 10);
    }
}
