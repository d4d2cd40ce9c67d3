//! `mapscope pick`: what one pixel of a frame shows, in the game's own records.

use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::camera_args::parse_size;
use super::PickArgs;
use crate::inspect;
use crate::loader;
use crate::outln;
use crate::render::{Gpu, RendererChoice, SceneRenderer};

pub fn pick(a: PickArgs) -> Result<ExitCode> {
    let (w, h) = parse_size(&a.size)?;
    let view = a.view.settings(w, h)?;
    let mut pixels = a.at.iter().map(|at| parse_at(at)).collect::<Result<Vec<_>>>()?;
    if pixels.is_empty() {
        pixels.push([w / 2, h / 2]);
    }
    if let Some([x, y]) = pixels.iter().find(|[x, y]| *x >= w || *y >= h) {
        bail!("--at {x},{y} is outside the {w}x{h} frame");
    }
    let source = loader::open(&a.files, &a.load.options())?;
    let mut scene = source.build(a.camera.map.as_deref())?;
    let camera = a.camera.resolve(&scene)?;
    let gpu = Gpu::headless()?;
    // The canvas keeps each pixel's depth, which tells the surface drawn there.
    let mut renderer = SceneRenderer::new(&gpu, &scene)?;
    renderer.set_renderer(RendererChoice::Cpu, &gpu);
    let mut state = scene.animator.initial();
    scene.animator.state_at(a.camera.tic, &mut state);
    renderer.set_state(&state);
    renderer.render(&gpu, &camera, &view);
    for (i, &pixel) in pixels.iter().enumerate() {
        let found = inspect::pick(&scene, &state, &renderer, &camera, &view, pixel);
        if a.json {
            outln!("{}", found.to_json());
        } else {
            if i > 0 {
                outln!("");
            }
            outln!("{}", found.to_text().trim_end());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `X,Y` of `--at`, pixels from the top left.
fn parse_at(s: &str) -> Result<[u32; 2]> {
    let (x, y) = s.split_once(',').with_context(|| format!("--at '{s}' must be X,Y"))?;
    let x = x.trim().parse().with_context(|| format!("--at x '{x}'"))?;
    let y = y.trim().parse().with_context(|| format!("--at y '{y}'"))?;
    Ok([x, y])
}
