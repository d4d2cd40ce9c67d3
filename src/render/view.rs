//! How a frame is drawn, apart from the camera: size, field of view, faithful or smooth
//! mode, and what is shown (sky, things, markers, wireframe).

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
