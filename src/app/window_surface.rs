//! A window and the device that draws for it, set up the one way mapscope presents (the
//! viewer and `bench --window`): a plain (non-sRGB) format so palette colours pass through
//! unchanged, and one of two ways to put each image on the screen ([`WindowTarget`]):
//!
//! - the window's swapchain (vsync, two frames of latency), on hardware adapters;
//! - on a software adapter (lavapipe), the image read back to the CPU and handed to the window
//!   system through shared memory (softbuffer: MIT-SHM on X11). lavapipe's own swapchain
//!   presents with `xcb_put_image`, which pushes every image through the X socket: 4-5 ms of
//!   mapscope's CPU and as much of the X server's a 1280x720 frame, on the cores that draw
//!   the next one. `MAPSCOPE_PRESENT=swapchain` or `=cpu` overrides the choice.

use std::num::NonZeroU32;
use std::sync::Arc;

use anyhow::{anyhow, Context, Result};
use winit::event_loop::ActiveEventLoop;
use winit::window::{Window, WindowAttributes};

use super::overlay_layer::OverlayLayer;
use crate::render::{FrameReadback, Gpu};

pub struct WindowSurface {
    pub window: Arc<Window>,
    pub target: WindowTarget,
    pub gpu: Gpu,
}

/// Where the window's images are drawn and how they reach the screen.
pub struct WindowTarget {
    way: Way,
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
}

enum Way {
    Swapchain {
        surface: wgpu::Surface<'static>,
        config: wgpu::SurfaceConfiguration,
    },
    SharedMemory {
        surface: softbuffer::Surface<Arc<Window>, Arc<Window>>,
        /// The window's image, drawn as a swapchain image would be, then read back.
        image: wgpu::Texture,
        readback: FrameReadback,
    },
}

/// One image of the window, to draw into and then hand to [`WindowTarget::present`].
pub struct WindowFrame {
    texture: wgpu::Texture,
    surface_texture: Option<wgpu::SurfaceTexture>,
}

impl WindowFrame {
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }
}

/// Opens a window with `attrs`, a device able to draw for it, and its target.
pub fn open(event_loop: &ActiveEventLoop, attrs: WindowAttributes) -> Result<WindowSurface> {
    let window = Arc::new(event_loop.create_window(attrs).context("creating the window")?);
    let instance = Gpu::new_instance();
    let surface = instance.create_surface(window.clone()).context("creating the window surface")?;
    let gpu = Gpu::from_instance(instance, Some(&surface))?;
    let size = window.inner_size();
    let (width, height) = (size.width.max(1), size.height.max(1));
    let software = gpu.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
    let wanted = std::env::var("MAPSCOPE_PRESENT").unwrap_or_default();
    let shared = match wanted.as_str() {
        "swapchain" => false,
        "cpu" => true,
        _ => software,
    };
    if shared {
        match shared_memory(&window, &gpu, width, height) {
            Ok(target) => {
                log::info!("presenting through shared memory (software adapter)");
                return Ok(WindowSurface { window, target, gpu });
            }
            Err(e) => log::warn!("presenting through the swapchain: {e:#}"),
        }
    }
    let target = swapchain(surface, &gpu, width, height)?;
    Ok(WindowSurface { window, target, gpu })
}

fn swapchain(
    surface: wgpu::Surface<'static>,
    gpu: &Gpu,
    width: u32,
    height: u32,
) -> Result<WindowTarget> {
    let caps = surface.get_capabilities(&gpu.adapter);
    let format = caps
        .formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .or_else(|| caps.formats.first().copied())
        .context("the window surface supports no format")?;
    // A frame of the window's size is copied in (SceneRenderer::copy_to) rather than drawn by
    // a shader pass, which costs a software rasteriser as much as a scene pass.
    let copy = caps.usages & wgpu::TextureUsages::COPY_DST;
    let config = wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | copy,
        format,
        color_space: wgpu::SurfaceColorSpace::Auto,
        width,
        height,
        present_mode: wgpu::PresentMode::AutoVsync,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps.alpha_modes.first().copied().unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: vec![],
    };
    surface.configure(&gpu.device, &config);
    Ok(WindowTarget { way: Way::Swapchain { surface, config }, format, width, height })
}

/// BGRA: read back as little-endian words, each pixel is the window system's 0x00RRGGBB once
/// its alpha byte is cleared.
const SHARED_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

fn shared_memory(window: &Arc<Window>, gpu: &Gpu, width: u32, height: u32) -> Result<WindowTarget> {
    let context = softbuffer::Context::new(window.clone())
        .map_err(|e| anyhow!("no shared-memory presentation here: {e}"))?;
    let surface = softbuffer::Surface::new(&context, window.clone())
        .map_err(|e| anyhow!("no shared-memory surface for the window: {e}"))?;
    let (image, readback) = shared_image(gpu, width, height);
    let way = Way::SharedMemory { surface, image, readback };
    let mut target = WindowTarget { way, format: SHARED_FORMAT, width, height };
    target.resize(gpu, width, height);
    Ok(target)
}

fn shared_image(gpu: &Gpu, width: u32, height: u32) -> (wgpu::Texture, FrameReadback) {
    let image = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("window image"),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: SHARED_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    (image, FrameReadback::new(&gpu.device, width, height))
}

impl WindowTarget {
    /// The format of the images drawn into.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Whether the window's images reach the screen from the CPU (shared memory), so what
    /// is drawn over them is best laid into their pixels on the CPU ([`Self::present_pixels`]'s
    /// and [`Self::present`]'s `overlay`).
    pub fn presents_from_cpu(&self) -> bool {
        matches!(self.way, Way::SharedMemory { .. })
    }

    /// How images reach the screen, for logs and reports.
    pub fn way(&self) -> &'static str {
        match self.way {
            Way::Swapchain { .. } => "swapchain",
            Way::SharedMemory { .. } => "shared memory",
        }
    }

    /// The window is now `width` x `height`.
    pub fn resize(&mut self, gpu: &Gpu, width: u32, height: u32) {
        let (width, height) = (width.max(1), height.max(1));
        (self.width, self.height) = (width, height);
        match &mut self.way {
            Way::Swapchain { surface, config } => {
                (config.width, config.height) = (width, height);
                surface.configure(&gpu.device, config);
            }
            Way::SharedMemory { surface, image, readback } => {
                if readback.size() != (width, height) {
                    (*image, *readback) = shared_image(gpu, width, height);
                }
                let (Some(w), Some(h)) = (NonZeroU32::new(width), NonZeroU32::new(height)) else {
                    return;
                };
                if let Err(e) = surface.resize(w, h) {
                    log::warn!("resizing the window's shared memory: {e}");
                }
            }
        }
    }

    /// The next image to draw into; `None` (after reconfiguring the swapchain) while it is not
    /// ready, for instance during a resize: skip the frame.
    pub fn next_frame(&mut self, gpu: &Gpu) -> Option<WindowFrame> {
        match &self.way {
            Way::Swapchain { surface, config } => match surface.get_current_texture() {
                wgpu::CurrentSurfaceTexture::Success(f)
                | wgpu::CurrentSurfaceTexture::Suboptimal(f) => {
                    Some(WindowFrame { texture: f.texture.clone(), surface_texture: Some(f) })
                }
                other => {
                    log::debug!("surface not ready: {other:?}");
                    surface.configure(&gpu.device, config);
                    None
                }
            },
            Way::SharedMemory { image, .. } => {
                Some(WindowFrame { texture: image.clone(), surface_texture: None })
            }
        }
    }

    /// Shows `pixels` (`width` x `height`, one colour a pixel, BGRA or RGBA byte order) as
    /// the window's next image, when the window is presented from the CPU and has that size:
    /// a frame the CPU drew whole skips the GPU's copy and read-back. `overlay` is laid over
    /// it on the way (its opaque runs taken instead of the frame's pixels under them).
    /// Returns whether it did.
    pub fn present_pixels(
        &mut self,
        gpu: &Gpu,
        window: &Window,
        (width, height): (u32, u32),
        pixels: &[u32],
        bgra: bool,
        overlay: Option<&OverlayLayer>,
    ) -> Result<bool> {
        let Way::SharedMemory { surface, .. } = &mut self.way else { return Ok(false) };
        if (width, height) != (self.width, self.height) || pixels.len() != (width * height) as usize
        {
            return Ok(false);
        }
        let mut buffer =
            surface.buffer_mut().map_err(|e| anyhow!("the window's shared memory: {e}"))?;
        if buffer.len() != pixels.len() {
            return Ok(false);
        }
        let width = width as usize;
        for (y, (out, row)) in
            buffer.chunks_exact_mut(width).zip(pixels.chunks_exact(width)).enumerate()
        {
            let convert = |from: usize, out: &mut [u32]| {
                for (d, &s) in out.iter_mut().zip(&row[from..]) {
                    *d = if bgra {
                        s & 0x00FF_FFFF
                    } else {
                        (s & 0xFF) << 16 | (s & 0xFF00) | (s >> 16) & 0xFF
                    };
                }
            };
            match overlay {
                Some(layer) => layer.write_row(y, out, convert),
                None => convert(0, out),
            }
        }
        // The frame's GPU work (uploads) is waited for, as a swapchain's image would be, so
        // frames cannot queue up ahead of the adapter.
        gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
        window.pre_present_notify();
        buffer.present().map_err(|e| anyhow!("presenting through shared memory: {e}"))?;
        Ok(true)
    }

    /// Shows `frame` (its drawing already submitted); when the window is presented from the
    /// CPU, `overlay` is laid over its pixels on the way (on a swapchain it is not used).
    pub fn present(
        &mut self,
        gpu: &Gpu,
        window: &Window,
        frame: WindowFrame,
        overlay: Option<&OverlayLayer>,
    ) -> Result<()> {
        window.pre_present_notify();
        match &mut self.way {
            Way::Swapchain { .. } => {
                if let Some(f) = frame.surface_texture {
                    gpu.queue.present(f);
                }
                Ok(())
            }
            Way::SharedMemory { surface, image, readback } => {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                readback.copy(&mut encoder, image);
                gpu.queue.submit([encoder.finish()]);
                let mut buffer =
                    surface.buffer_mut().map_err(|e| anyhow!("the window's shared memory: {e}"))?;
                let width = readback.size().0 as usize;
                readback.read(gpu, |y, row| {
                    let Some(out) = buffer.get_mut(y * width..(y + 1) * width) else { return };
                    let copy = |from: usize, out: &mut [u32]| {
                        for (d, s) in out.iter_mut().zip(&row[from..]) {
                            *d = s & 0x00FF_FFFF;
                        }
                    };
                    match overlay {
                        Some(layer) => layer.write_row(y, out, copy),
                        None => copy(0, out),
                    }
                })?;
                buffer.present().map_err(|e| anyhow!("presenting through shared memory: {e}"))
            }
        }
    }
}
