//! How a frame is drawn, apart from the camera: size, field of view, faithful or smooth
//! mode, and what is shown (sky, things, markers, wireframe); and the camera asked for in
//! native terms, resolved against a scene.

use anyhow::{bail, Result};
use glam::DVec3;

use crate::scene::{CameraPose, Scene, MAX_PITCH_DEG};

/// How the scene is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderMode {
    /// The game's own tables: integer texel fetches, light tables, palette.
    Faithful,
    /// True colour with filtering and continuous light.
    Smooth,
}

impl std::str::FromStr for RenderMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "faithful" => Ok(RenderMode::Faithful),
            "smooth" => Ok(RenderMode::Smooth),
            _ => Err(format!("unknown mode '{s}' (faithful or smooth)")),
        }
    }
}

/// Everything about a frame that is not the scene or the camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewSettings {
    pub width: u32,
    pub height: u32,
    /// Horizontal field of view in degrees; the vertical focal length equals the horizontal.
    pub fov_deg: f64,
    pub mode: RenderMode,
    pub show_sprites: bool,
    pub show_sky: bool,
    pub wireframe: bool,
    /// Draw the scene's markers (entities, cameras, unknown records).
    pub show_markers: bool,
}

impl Default for ViewSettings {
    fn default() -> Self {
        ViewSettings {
            width: 320,
            height: 200,
            fov_deg: 90.0,
            mode: RenderMode::Faithful,
            show_sprites: true,
            show_sky: true,
            wireframe: false,
            show_markers: false,
        }
    }
}

impl ViewSettings {
    /// Horizontal focal length in pixels.
    pub fn focal(&self) -> f64 {
        self.width as f64 / 2.0 / (self.fov_deg.to_radians() / 2.0).tan()
    }
}

/// A camera asked for in the level's native coordinates and degrees (from the command line or
/// a shot's metadata); what is left out keeps the scene's spawn camera.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CameraRequest {
    /// Native position.
    pub position: Option<DVec3>,
    /// Native facing in degrees.
    pub angle: Option<f64>,
    /// Pitch in degrees, positive looks up (within `MAX_PITCH_DEG` either way).
    pub pitch: Option<f64>,
    /// A native point to look at; overrides `angle` and `pitch`.
    pub look_at: Option<DVec3>,
}

impl CameraRequest {
    /// The camera in `scene`'s viewer space.
    pub fn resolve(&self, scene: &Scene) -> Result<CameraPose> {
        let mut pose = scene.spawn;
        if let Some(native) = self.position {
            pose.pos = scene.axes.to_viewer_f64(native);
        }
        if let Some(a) = self.angle {
            pose.yaw = scene.axes.yaw_to_viewer(a);
        }
        if let Some(p) = self.pitch {
            if CameraPose::clamp_pitch_deg(p) != p {
                bail!("--pitch {p} is out of range (-{MAX_PITCH_DEG}..{MAX_PITCH_DEG})");
            }
            pose.pitch = p.to_radians();
        }
        if let Some(native) = self.look_at {
            let target = scene.axes.to_viewer_f64(native);
            if (target - pose.pos).length() < 1e-9 {
                bail!("--look-at is the camera position itself");
            }
            let look = CameraPose::looking_at(pose.pos, target);
            pose.yaw = look.yaw;
            pose.pitch = look.pitch;
        }
        Ok(pose)
    }
}
