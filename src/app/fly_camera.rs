//! The viewer's free-flying camera: position and yaw/pitch moved by held keys and the mouse,
//! in the scene's render space, at a speed scaled to the level's size so small rooms and
//! large tracks are both crossed in a few seconds.

use glam::DVec3;

use crate::scene::CameraPose;

/// Which movement keys are held.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveKeys {
    pub forward: bool,
    pub back: bool,
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
    pub fast: bool,
}

/// A free-flying camera: mouse look, keys move along the view direction.
#[derive(Clone, Debug)]
pub struct FlyCamera {
    pub pose: CameraPose,
    /// Units per second at normal speed.
    pub speed: f64,
    /// `speed` over the level's own speed: what the mouse wheel chose, kept from level to
    /// level and in the settings file.
    pub scale: f64,
    /// Radians per pixel of mouse motion.
    pub sensitivity: f64,
}

impl FlyCamera {
    pub fn new(pose: CameraPose, level_size: f64) -> FlyCamera {
        // About a tenth of the level per second, within sensible bounds.
        let speed = (level_size / 10.0).clamp(64.0, 2048.0);
        FlyCamera { pose, speed, scale: 1.0, sensitivity: 0.0025 }
    }

    /// This camera at `scale` times the level's own speed.
    pub fn scaled(mut self, scale: f64) -> FlyCamera {
        let base = self.speed / self.scale;
        let speed = base * scale;
        self.speed = speed.clamp(1.0, 100_000.0);
        self.scale = if self.speed == speed { scale } else { self.speed / base };
        self
    }

    pub fn look(&mut self, dx: f64, dy: f64) {
        self.pose.yaw -= dx * self.sensitivity;
        self.pose.yaw = self.pose.yaw.rem_euclid(std::f64::consts::TAU);
        let limit = crate::scene::MAX_PITCH_DEG.to_radians();
        self.pose.pitch = (self.pose.pitch - dy * self.sensitivity).clamp(-limit, limit);
    }

    /// Scroll wheel: each notch changes speed by a quarter.
    pub fn scroll(&mut self, notches: f64) {
        let speed = (self.speed * 1.25f64.powf(notches)).clamp(1.0, 100_000.0);
        self.scale *= speed / self.speed;
        self.speed = speed;
    }

    pub fn update(&mut self, keys: MoveKeys, dt: f64) {
        let forward = self.pose.forward();
        let right = self.pose.right();
        let mut dir = DVec3::ZERO;
        let axis = |p: bool, n: bool| (p as i32 - n as i32) as f64;
        dir += forward * axis(keys.forward, keys.back);
        dir += right * axis(keys.right, keys.left);
        dir += DVec3::Y * axis(keys.up, keys.down);
        if dir.length_squared() > 0.0 {
            let speed = if keys.fast { self.speed * 4.0 } else { self.speed };
            self.pose.pos += dir.normalize() * speed * dt;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cam() -> FlyCamera {
        FlyCamera::new(CameraPose { pos: DVec3::ZERO, yaw: 0.0, pitch: 0.0 }, 1000.0)
    }

    #[test]
    fn forward_moves_along_yaw() {
        let mut c = cam();
        c.update(MoveKeys { forward: true, ..Default::default() }, 1.0);
        assert!((c.pose.pos.x - c.speed).abs() < 1e-9 && c.pose.pos.z.abs() < 1e-9);
        // Turning left (counter-clockwise from above) then strafing right moves along +X again.
        let mut c = cam();
        c.pose.yaw = std::f64::consts::FRAC_PI_2;
        c.update(MoveKeys { right: true, ..Default::default() }, 1.0);
        assert!((c.pose.pos.x - c.speed).abs() < 1e-9, "{:?}", c.pose.pos);
    }

    #[test]
    fn pitch_is_clamped_and_speed_scrolls() {
        let mut c = cam();
        c.look(0.0, -100000.0);
        assert!(c.pose.pitch <= crate::scene::MAX_PITCH_DEG.to_radians() + 1e-9);
        let s = c.speed;
        c.scroll(1.0);
        assert!(c.speed > s);
        assert!((c.scale - 1.25).abs() < 1e-12);
        // The scale carries to another level, of another size.
        let other = FlyCamera::new(c.pose, 20_000.0).scaled(c.scale);
        assert!((other.speed - 2000.0 * 1.25).abs() < 1e-9, "{}", other.speed);
        assert!((other.scale - 1.25).abs() < 1e-12);
    }
}
