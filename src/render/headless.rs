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
    render_set_up(gpu, scene, camera, view, tic, |_| {})
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
    render_set_up(gpu, scene, camera, view, tic, |r| r.set_renderer(choice, gpu))
}

/// One frame by a renderer that `set_up` prepares first.
fn render_set_up(
    gpu: &Gpu,
    scene: &mut Scene,
    camera: &CameraPose,
    view: &ViewSettings,
    tic: u32,
    set_up: impl FnOnce(&mut SceneRenderer),
) -> Result<image::RgbaImage> {
    let mut renderer = SceneRenderer::new(gpu, scene)?;
    set_up(&mut renderer);
    let mut state = scene.animator.initial();
    scene.animator.state_at(tic, &mut state);
    renderer.set_state(&state);
    renderer.render(gpu, camera, view);
    renderer.read_image(gpu)
}
