//! A camera in render space: position, yaw and pitch, and the view matrix built from them.

use glam::{DVec3, Mat4, Vec3};

use super::Axes;

/// A camera in viewer space: position, yaw (0 = +X, counter-clockwise from above) and pitch
/// (positive looks up), both in radians. Kept in f64 so native positions round-trip exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraPose {
    pub pos: DVec3,
    pub yaw: f64,
    pub pitch: f64,
}

/// The steepest a camera looks up or down, in degrees: short of straight up or down, where
/// the yaw would stop meaning anything. One limit for `--pitch`, the viewer's mouse look and
/// align's search.
pub const MAX_PITCH_DEG: f64 = 89.9;

impl CameraPose {
    /// `deg` held within [`MAX_PITCH_DEG`] either way.
    pub fn clamp_pitch_deg(deg: f64) -> f64 {
        deg.clamp(-MAX_PITCH_DEG, MAX_PITCH_DEG)
    }

    /// Unit vector the camera looks along.
    pub fn forward(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        // Yaw 0 looks along +X; counter-clockwise from above turns towards -Z.
        DVec3::new(cy * cp, sp, -sy * cp)
    }

    /// Unit vector to the camera's right, horizontal.
    pub fn right(&self) -> DVec3 {
        let (sy, cy) = self.yaw.sin_cos();
        DVec3::new(sy, 0.0, cy)
    }

    /// World-to-view matrix (view space: X right, Y up, looking down -Z).
    pub fn view_matrix(&self) -> Mat4 {
        let eye = self.pos.as_vec3();
        Mat4::look_to_rh(eye, self.forward().as_vec3(), Vec3::Y)
    }

    /// The pose as the game names it (what shots, bookmarks and the overlay show).
    pub fn native(&self, axes: Axes) -> NativePose {
        NativePose {
            position: axes.to_native_f64(self.pos).to_array(),
            angle: axes.yaw_to_native(self.yaw),
            pitch: self.pitch.to_degrees(),
        }
    }

    /// Camera looking from `pos` at `target`.
    pub fn looking_at(pos: DVec3, target: DVec3) -> CameraPose {
        let d = target - pos;
        let horiz = (d.x * d.x + d.z * d.z).sqrt();
        CameraPose { pos, yaw: (-d.z).atan2(d.x), pitch: d.y.atan2(horiz) }
    }
}

/// A camera in the game's own terms: native position, native facing in degrees, pitch in
/// degrees (positive looks up).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NativePose {
    pub position: [f64; 3],
    pub angle: f64,
    pub pitch: f64,
}

impl NativePose {
    /// The pose in viewer space (the inverse of [`CameraPose::native`]), its pitch held
    /// within [`MAX_PITCH_DEG`].
    pub fn to_viewer(&self, axes: Axes) -> CameraPose {
        CameraPose {
            pos: axes.to_viewer_f64(self.position.into()),
            yaw: axes.yaw_to_viewer(self.angle),
            pitch: CameraPose::clamp_pitch_deg(self.pitch).to_radians(),
        }
    }
}
