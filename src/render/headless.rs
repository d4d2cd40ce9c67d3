//! A frame rendered without a window and read back into an image: what `render`, the tests
//! and `compare --align` use to see the screen.

use anyhow::Result;

use super::{Gpu, RendererChoice, SceneRenderer, ViewSettings};
use crate::scene::{CameraPose, Scene};

/// Renders one frame of `scene` at animation tic `tic` without any window.
pub fn render_headless(
    gpu: &Gpu,
    scene: &mut Scene,
    camera: &CameraPose,
    view: &ViewSettings,
    tic: u32,
) -> Result<image::RgbaImage> {
    let mut renderer = SceneRenderer::new(gpu, scene)?;
    let mut state = scene.animator.initial();
    scene.animator.state_at(tic, &mut state);
    renderer.set_state(&state);
    renderer.render(gpu, camera, view);
    renderer.read_image(gpu)
}

/// [`render_headless`] drawn as `choice` says for `gpu`'s adapter (`render --renderer`).
pub fn render_headless_as(
    gpu: &Gpu,
    scene: &mut Scene,
    camera: &CameraPose,
    view: &ViewSettings,
    tic: u32,
    choice: RendererChoice,
) -> Result<image::RgbaImage> {
    let mut renderer = SceneRenderer::new(gpu, scene)?;
    renderer.set_renderer(choice, gpu);
    let mut state = scene.animator.initial();
    scene.animator.state_at(tic, &mut state);
    renderer.set_state(&state);
    renderer.render(gpu, camera, view);
    renderer.read_image(gpu)
}
