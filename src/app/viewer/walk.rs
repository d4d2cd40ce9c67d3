//! Walk mode in the viewer (Z): the camera rides a body that the game's rules move (gravity,
//! eye height, steps, walls, solid things; see [`crate::scene::Walker`]). WASD push it along
//! the floor in the direction the camera faces; the mouse still looks. Fly stays the default.

use crate::scene::{Axes, Walker};

use super::App;

/// The walker the camera rides and the game time not yet run as tics.
pub(super) struct WalkMode {
    walker: Box<dyn Walker>,
    pending: f64,
}

impl App {
    /// Z: into walk mode where the level's game has walk rules, back to flying otherwise.
    pub(super) fn toggle_walk(&mut self) {
        if self.walk.take().is_some() {
            self.message = Some("fly mode".to_string());
            return;
        }
        let Some(mut walker) = self.scene.records.as_ref().and_then(|r| r.walker()) else {
            self.message = Some("walk mode: Doom and Marathon only so far".to_string());
            return;
        };
        let at = self.fly.pose.native(self.scene.axes).position;
        walker.place([at[0], at[1]]);
        self.walk = Some(WalkMode { walker, pending: 0.0 });
        self.message = Some("walk mode (Z: fly)".to_string());
        self.ride_walker();
    }

    /// Runs the game tics in `dt` seconds with the movement keys held, then puts the camera
    /// at the walker's eye.
    pub(super) fn walk_camera(&mut self, dt: f64) {
        let rate = self.scene.game.tic_rate();
        let native = self.fly.pose.native(self.scene.axes);
        let keys = self.keys;
        let Some(walk) = &mut self.walk else { return };
        let eye = walk.walker.eye();
        if (eye[0] - native.position[0]).hypot(eye[1] - native.position[1]) > 1.0 {
            // Something else moved the camera (find, a bookmark, a path key): the body follows.
            walk.walker.place([native.position[0], native.position[1]]);
        }
        walk.pending += dt;
        let (sin, cos) = native.angle.to_radians().sin_cos();
        let axis = |p: bool, n: bool| (p as i32 - n as i32) as f64;
        let (ahead, aside) = (axis(keys.forward, keys.back), axis(keys.right, keys.left));
        // Facing (cos, sin); its right is (sin, -cos) where angles count counter-clockwise
        // seen from above, (-sin, cos) where they count clockwise (Marathon's left-handed map).
        let hand = if self.scene.axes == Axes::ZUpLeftHanded { -1.0 } else { 1.0 };
        let mut wish = [ahead * cos + hand * aside * sin, ahead * sin - hand * aside * cos];
        let len = wish[0].hypot(wish[1]);
        let speed = walk.walker.speed();
        if len > 0.0 {
            wish = [wish[0] / len * speed, wish[1] / len * speed];
        }
        while walk.pending >= 1.0 / rate {
            walk.pending -= 1.0 / rate;
            walk.walker.tic(wish);
        }
        self.ride_walker();
    }

    /// The camera at the walker's eye, looking where it looked.
    fn ride_walker(&mut self) {
        let Some(walk) = &self.walk else { return };
        let mut native = self.fly.pose.native(self.scene.axes);
        native.position = walk.walker.eye();
        self.fly.pose = native.to_viewer(self.scene.axes);
    }
}
