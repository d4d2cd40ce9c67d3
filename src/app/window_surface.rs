//! A window with a wgpu surface and the device that presents to it, set up the one way
//! mapscope presents (the viewer and `bench --window`): a plain (non-sRGB) format so palette
//! colours pass through unchanged, vsync, two frames of latency.

use std::sync::Arc;

use anyhow::{Context, Result};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowAttributes};

use crate::render::Gpu;

pub struct WindowSurface {
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub gpu: Gpu,
}

/// Opens a window with `attrs`, a device able to present to it and its configured surface.
pub fn open(event_loop: &ActiveEventLoop, attrs: WindowAttributes) -> Result<WindowSurface> {
    let window = Arc::new(event_loop.create_window(attrs).context("creating the window")?);
    let instance = Gpu::new_instance();
    let surface = instance.create_surface(window.clone()).context("creating the window surface")?;
    let gpu = Gpu::from_instance(instance, Some(&surface))?;
    let caps = surface.get_capabilities(&gpu.adapter);
    let format = caps
        .formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .or_else(|| caps.formats.first().copied())
        .context("the window surface supports no format")?;
    let size = window.inner_size();
    // A frame of the window's size is copied in (SceneRenderer::copy_to) rather than drawn by
    // a shader pass, which costs a software rasteriser as much as a scene pass.
    let copy = caps.usages & wgpu::TextureUsages::COPY_DST;
    let config = wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | copy,
        format,
        color_space: wgpu::SurfaceColorSpace::Auto,
        width: size.width.max(1),
        height: size.height.max(1),
        present_mode: wgpu::PresentMode::AutoVsync,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: vec![],
    };
    surface.configure(&gpu.device, &config);
    Ok(WindowSurface { window, surface, config, gpu })
}

/// The surface's next image; `None` (after reconfiguring the surface) while it is not ready,
/// for instance during a resize: skip the frame.
pub fn next_frame(
    surface: &wgpu::Surface<'static>,
    gpu: &Gpu,
    config: &wgpu::SurfaceConfiguration,
) -> Option<wgpu::SurfaceTexture> {
    match surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(f) | wgpu::CurrentSurfaceTexture::Suboptimal(f) => {
            Some(f)
        }
        other => {
            log::debug!("surface not ready: {other:?}");
            surface.configure(&gpu.device, config);
            None
        }
    }
}
