//! Walk mode in the viewer (Z): the camera rides a body that the game's rules move (gravity,
//! eye height, steps, walls, solid things; see [`crate::scene::Walker`]). WASD push it along
//! the floor in the direction the camera faces; the mouse still looks. Fly stays the default.

use crate::scene::Walker;

use super::App;

/// The walker the camera rides and the game time not yet run as tics.
pub(super) struct WalkMode {
    walker: Box<dyn Walker>,
    pending: f64,
}

impl WalkMode {
    /// The body's running speed a second at `tic_rate` tics a second (the overlay shows it in
    /// place of the flying speed, which walking does not use).
    pub(super) fn speed_a_second(&self, tic_rate: f64) -> f64 {
        self.walker.speed() * tic_rate
    }
}

impl App {
    /// Z: into walk mode where the level's game has walk rules, back to flying otherwise.
    pub(super) fn toggle_walk(&mut self) {
        if self.walk.take().is_some() {
            self.message = Some("fly mode".to_string());
            return;
        }
        let Some(mut walker) = self.scene.records.as_ref().and_then(|r| r.walker(&self.scene))
        else {
            self.message = Some(format!("walk mode: no walk rules for {}", self.scene.game.name()));
            return;
        };
        walker.place(self.fly.pose.pos.to_array());
        if !walker.has_floor() {
            self.message =
                Some("walk mode: no floor under the camera; fly over the level first".into());
            return;
        }
        self.walk = Some(WalkMode { walker, pending: 0.0 });
        self.message = Some("walk mode (Z: fly)".to_string());
        self.ride_walker();
    }

    /// Runs the game tics in `dt` seconds with the movement keys held, then puts the camera
    /// at the walker's eye.
    pub(super) fn walk_camera(&mut self, dt: f64) {
        let rate = self.scene.game.tic_rate();
        let pose = self.fly.pose;
        let keys = self.keys;
        let Some(walk) = &mut self.walk else { return };
        let eye = walk.walker.eye();
        if (eye[0] - pose.pos.x).hypot(eye[2] - pose.pos.z) > 1e-6 * (1.0 + pose.pos.length()) {
            // Something else moved the camera (find, a bookmark, a path key): the body follows.
            walk.walker.place(pose.pos.to_array());
        }
        walk.pending += dt;
        let axis = |p: bool, n: bool| (p as i32 - n as i32) as f64;
        let (ahead, aside) = (axis(keys.forward, keys.back), axis(keys.right, keys.left));
        // Along the floor in viewer space (x, z), the same for every game's handedness.
        let forward = glam::DVec2::new(pose.yaw.cos(), -pose.yaw.sin());
        let right = glam::DVec2::new(pose.right().x, pose.right().z);
        let mut wish = (forward * ahead + right * aside).to_array();
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
        self.fly.pose.pos = walk.walker.eye().into();
    }
}
