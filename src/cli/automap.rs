//! `render --automap`: the level from above in the game's own map style, drawn on the CPU by
//! `render::automap` (the viewer's Tab draws the same picture).

use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::Args;

use super::RenderArgs;
use crate::loader;
use crate::outln;
use crate::render::automap::{self, Layers, MapView};
use crate::scene::Axes;

/// The automap options of `render`.
#[derive(Args, Debug, Default, Clone)]
pub struct AutomapArgs {
    /// Draw the automap instead of the 3D view: the level from above in the game's own map
    /// style (Doom's vanilla automap colours, Marathon's overhead map, a plain style for the
    /// others), centred on the camera at the game's opening zoom, the camera as an arrow
    /// turned to --angle.
    #[arg(long, conflicts_with_all = ["fov", "mode", "wireframe", "no_sky", "renderer"])]
    pub automap: bool,
    /// With --automap: the whole level, not centred on the camera.
    #[arg(long, requires = "automap")]
    pub automap_fit: bool,
    /// With --automap: image pixels a native unit spans (default: the game's opening zoom;
    /// Doom: the level fits 1/0.7 times over, as vanilla's automap opens).
    #[arg(long, requires = "automap", conflicts_with = "automap_fit")]
    pub automap_scale: Option<f64>,
    /// With --automap: every line, as Doom's IDDT cheat shows them (two-sided lines with no
    /// change in height, and lines marked never to be shown).
    #[arg(long, requires = "automap")]
    pub automap_all: bool,
}

/// Draws the automap `a` asks for at `size` and writes it.
pub fn render(a: &RenderArgs, size: (u32, u32)) -> Result<ExitCode> {
    let opts = &a.automap;
    if let Some(s) = opts.automap_scale {
        if !(s.is_finite() && s > 0.0 && s <= 1e6) {
            bail!("--automap-scale {s} must be a number of pixels a unit above 0 (at most 1e6)");
        }
    }
    let source = loader::open(&a.files, &a.load.options())?;
    let scene = source.build(a.camera.map.as_deref())?;
    let camera = a.camera.resolve(&scene)?;
    let map = scene.automap();
    let view = if opts.automap_fit {
        MapView::whole_level(&map, &scene, size)
    } else {
        let center = Axes::plan_f64(camera.pos);
        match opts.automap_scale {
            Some(px_per_unit) => MapView { center, px_per_unit },
            None => MapView::opening(&map, &scene, center, size),
        }
    };
    let layers =
        Layers { every_line: opts.automap_all, things: !a.view.no_things, markers: a.view.markers };
    let image = automap::draw(&map, &scene, &camera, &view, size, layers);
    crate::shot::save_png(&a.output, &image, None)?;
    outln!("{}", a.output.display());
    Ok(ExitCode::SUCCESS)
}
