//! The camera and view options shared by `render`, `view`, `bench` and `export`, and their
//! conversion from the command line's native coordinates and degrees into a scene camera
//! and `ViewSettings`.

use anyhow::{bail, Context, Result};
use clap::Args;
use glam::DVec3;

use crate::render::{CameraRequest, RenderMode, RendererChoice, ViewSettings};
use crate::scene::{CameraPose, Scene};

/// Where the camera is, in the level's native coordinates.
#[derive(Args, Debug, Default, Clone)]
pub struct CameraArgs {
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
    #[arg(long)]
    pub map: Option<String>,
    /// Camera position X,Y,Z in native coordinates (default: the player start at eye height).
    #[arg(long, allow_hyphen_values = true, value_parser = |s: &str| parse_vec3(s, "--camera"))]
    pub camera: Option<DVec3>,
    /// Facing in degrees (Doom: 0 = east, counter-clockwise).
    #[arg(long, allow_hyphen_values = true)]
    pub angle: Option<f64>,
    /// Pitch in degrees, positive looks up.
    #[arg(long, allow_hyphen_values = true)]
    pub pitch: Option<f64>,
    /// Look at X,Y,Z (overrides --angle/--pitch).
    #[arg(long, allow_hyphen_values = true, value_parser = |s: &str| parse_vec3(s, "--look-at"))]
    pub look_at: Option<DVec3>,
    /// Animation clock in game tics (Doom: 35 a second).
    #[arg(long, default_value_t = 0)]
    pub tic: u32,
    /// Go to a record by number, KIND:N: enter a sector or polygon, look at a linedef, line,
    /// thing or object from a few metres back (Doom: sector, linedef, thing; Marathon:
    /// polygon, line, object); from the camera the other options give.
    #[arg(long)]
    pub go: Option<crate::inspect::go::Goal>,
}

/// Which way draws the frames.
#[derive(Args, Debug, Clone, Default)]
pub struct RendererArgs {
    /// auto: the CPU canvases on a software adapter (no GPU), the GPU's passes on a graphics
    /// card, Doom's exact frames (faithful, 90°, level camera) on vanilla's canvas either way;
    /// cpu: every frame a canvas can draw on the CPU; gpu: every frame by the GPU's passes.
    #[arg(long, default_value = "auto", value_parser = renderer_names())]
    pub renderer: RendererChoice,
}

/// The renderer's names, listed in `--help`.
fn renderer_names() -> impl clap::builder::TypedValueParser<Value = RendererChoice> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(RendererChoice::NAMES)
        .map(|s| s.parse::<RendererChoice>().unwrap_or_default())
}

/// How to draw.
#[derive(Args, Debug, Clone, Default)]
pub struct ViewArgs {
    /// Horizontal field of view in degrees [default: 90; the viewer: its settings file's].
    #[arg(long)]
    pub fov: Option<f64>,
    /// faithful (the game's tables) or smooth (filtered true colour) [default: faithful; the
    /// viewer: its settings file's].
    #[arg(long)]
    pub mode: Option<RenderMode>,
    /// Hide things/sprites.
    #[arg(long)]
    pub no_things: bool,
    /// Draw sky surfaces as their flat instead of the sky.
    #[arg(long)]
    pub no_sky: bool,
    /// Overlay the triangle edges.
    #[arg(long)]
    pub wireframe: bool,
    /// Show entities, cameras and other records as markers (the viewer shows them unless
    /// --no-markers or its settings file says otherwise).
    #[arg(long, conflicts_with = "no_markers")]
    pub markers: bool,
    /// Viewer: start with markers hidden.
    #[arg(long)]
    pub no_markers: bool,
}

impl ViewArgs {
    pub fn settings(&self, width: u32, height: u32) -> Result<ViewSettings> {
        let fov = self.fov.unwrap_or(90.0);
        if !(fov > 1.0 && fov < 179.0) {
            bail!("--fov {fov} is out of range (1..179 degrees)");
        }
        Ok(ViewSettings {
            width,
            height,
            fov_deg: fov,
            mode: self.mode.unwrap_or(RenderMode::Faithful),
            show_sprites: !self.no_things,
            show_sky: !self.no_sky,
            wireframe: self.wireframe,
            show_markers: self.markers,
        })
    }
}

pub fn parse_vec3(s: &str, what: &str) -> Result<DVec3> {
    let parts: Vec<f64> = s
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("{what} '{s}' must be X,Y,Z numbers"))?;
    if parts.len() != 3 {
        bail!("{what} '{s}' must have three numbers X,Y,Z");
    }
    Ok(DVec3::new(parts[0], parts[1], parts[2]))
}

pub fn parse_size(s: &str) -> Result<(u32, u32)> {
    let (w, h) =
        s.split_once(['x', 'X']).with_context(|| format!("--size '{s}' must be WIDTHxHEIGHT"))?;
    let w: u32 = w.trim().parse().with_context(|| format!("--size width '{w}'"))?;
    let h: u32 = h.trim().parse().with_context(|| format!("--size height '{h}'"))?;
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        bail!("--size {w}x{h} is out of range (1..8192 each way)");
    }
    Ok((w, h))
}

impl CameraArgs {
    /// The camera these arguments ask for, parsed into native values.
    pub fn request(&self) -> Result<CameraRequest> {
        Ok(CameraRequest {
            position: self.camera,
            angle: self.angle,
            pitch: self.pitch,
            look_at: self.look_at,
        })
    }

    /// The camera these arguments describe for `scene` (viewer space).
    pub fn resolve(&self, scene: &Scene) -> Result<CameraPose> {
        let pose = self.request()?.resolve(scene)?;
        match &self.go {
            Some(goal) => crate::inspect::go::camera_for(scene, goal, &pose),
            None => Ok(pose),
        }
    }
}
