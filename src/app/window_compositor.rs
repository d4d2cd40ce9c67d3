//! What the viewer and `bench --window` put in the window each frame: the renderer's image
//! (or the viewer's reference composite) in its rectangle, the overlay over it, then the
//! present. One code path for both, so `bench --window --overlay` times what the viewer
//! shows.
//!
//! The overlay is drawn one of two ways, chosen once per window:
//! - on a window presented from the CPU (a software adapter), its meshes are painted on the
//!   CPU into a layer of their own where they changed (`overlay_layer`, `overlay_paint`), laid
//!   over the window's pixels on their way to the screen; a frame the CPU drew whole goes
//!   there without touching the GPU at all;
//! - on a swapchain (a GPU), egui-wgpu draws them in the present pass.
//!
//! `MAPSCOPE_OVERLAY=gpu` keeps egui-wgpu on a CPU-presented window too, to compare the two.

use std::time::{Duration, Instant};

use anyhow::Result;
use egui::epaint::ClippedPrimitive;
use winit::window::Window;

use super::overlay_layer::OverlayLayer;
use super::window_surface::WindowTarget;
use crate::render::{self, Gpu, Presenter, SceneRenderer};

/// egui's output for one frame, tessellated.
pub struct OverlayFrame {
    pub primitives: Vec<ClippedPrimitive>,
    pub textures: egui::TexturesDelta,
    pub pixels_per_point: f32,
}

impl OverlayFrame {
    /// Nothing to draw (the overlay hidden).
    pub fn none() -> OverlayFrame {
        OverlayFrame { primitives: Vec::new(), textures: Default::default(), pixels_per_point: 1.0 }
    }
}

enum OverlayWay {
    Cpu(Box<OverlayLayer>),
    Gpu(Box<egui_wgpu::Renderer>),
}

/// The window's per-frame composition (see the module doc).
pub struct WindowCompositor {
    presenter: Presenter,
    overlay: OverlayWay,
    /// The CPU time the last frame's overlay took here (the layer's update, or egui-wgpu's
    /// recording); the GPU's own work is not in it.
    overlay_time: Duration,
    /// The overlay last given, drawn again while it is unchanged.
    last: Vec<ClippedPrimitive>,
    last_ppp: f32,
}

/// The window a frame goes to: the device, the window and its images.
pub struct Destination<'a> {
    pub gpu: &'a Gpu,
    pub window: &'a Window,
    pub target: &'a mut WindowTarget,
}

/// The overlay as tessellated for a frame: its meshes at `.1` pixels a point.
type Meshes<'a> = (&'a [ClippedPrimitive], f32);

/// What the window shows under the overlay.
pub enum Picture<'a> {
    /// The renderer's last frame.
    Frame(&'a SceneRenderer),
    /// An image of the frame size (the viewer's frame composed with a reference).
    Composite(&'a wgpu::TextureView, (u32, u32)),
}

impl WindowCompositor {
    pub fn new(gpu: &Gpu, target: &WindowTarget) -> WindowCompositor {
        let format = target.format();
        let forced_gpu = std::env::var("MAPSCOPE_OVERLAY").is_ok_and(|v| v == "gpu");
        let overlay = if target.presents_from_cpu() && !forced_gpu {
            OverlayWay::Cpu(Box::default())
        } else {
            OverlayWay::Gpu(Box::new(egui_wgpu::Renderer::new(
                &gpu.device,
                format,
                Default::default(),
            )))
        };
        let presenter = Presenter::new(&gpu.device, format);
        let overlay_time = Duration::ZERO;
        WindowCompositor { presenter, overlay, overlay_time, last: Vec::new(), last_ppp: 1.0 }
    }

    /// The CPU time the last [`Self::show`] spent on the overlay (see the field).
    pub fn overlay_time(&self) -> Duration {
        self.overlay_time
    }

    /// Where the overlay is drawn, for logs and reports: "CPU" or "GPU".
    pub fn overlay_way(&self) -> &'static str {
        match self.overlay {
            OverlayWay::Cpu(_) => "CPU",
            OverlayWay::Gpu(_) => "GPU",
        }
    }

    /// Shows `picture` in `rect` (x, y, w, h in window pixels) with `overlay` over it, or
    /// with `None` the overlay last given (unchanged: nothing of it is redrawn on the CPU).
    /// Returns false when the window had no image ready (the frame is skipped).
    pub fn show(
        &mut self,
        to: Destination<'_>,
        picture: Picture<'_>,
        rect: [f32; 4],
        overlay: Option<OverlayFrame>,
    ) -> Result<bool> {
        let Some(OverlayFrame { primitives, mut textures, pixels_per_point: ppp }) = overlay else {
            let (primitives, ppp) = (std::mem::take(&mut self.last), self.last_ppp);
            let mut recorded = Duration::ZERO;
            let shown = self.compose(to, picture, rect, (&primitives, ppp), &mut recorded);
            self.overlay_time = recorded;
            self.last = primitives;
            return shown;
        };
        let started = Instant::now();
        match &mut self.overlay {
            OverlayWay::Cpu(layer) => {
                layer.set_textures(&textures);
                let (width, height) = to.target.size();
                layer.update(&primitives, ppp, (width as usize, height as usize));
            }
            OverlayWay::Gpu(egui) => {
                for (id, deltas) in &textures.set {
                    for delta in deltas {
                        egui.update_texture(&to.gpu.device, &to.gpu.queue, *id, delta);
                    }
                }
            }
        }
        let before = started.elapsed();
        let mut recorded = Duration::ZERO;
        let shown = self.compose(to, picture, rect, (&primitives, ppp), &mut recorded);
        self.overlay_time = before + recorded;
        match &mut self.overlay {
            OverlayWay::Cpu(layer) => layer.free_textures(&textures),
            OverlayWay::Gpu(egui) => textures.free.iter().for_each(|id| egui.free_texture(id)),
        }
        // Applied above; egui insists deltas are consumed explicitly.
        textures.clear();
        (self.last, self.last_ppp) = (primitives, ppp);
        shown
    }

    /// Puts `picture` and the overlay's meshes in the window and presents; egui-wgpu's
    /// recording time, when it draws the overlay, is added to `recorded`.
    fn compose(
        &mut self,
        to: Destination<'_>,
        picture: Picture<'_>,
        rect: [f32; 4],
        (primitives, ppp): Meshes<'_>,
        recorded: &mut Duration,
    ) -> Result<bool> {
        let Destination { gpu, window, target } = to;
        let layer = match &self.overlay {
            OverlayWay::Cpu(layer) => Some(&**layer),
            OverlayWay::Gpu(_) => None,
        };
        let overlay = layer.filter(|_| !primitives.is_empty());
        // A frame the CPU drew whole, with nothing the GPU must draw over it, goes to a
        // CPU-presented window as it is.
        if let Picture::Frame(renderer) = &picture {
            let size = renderer.target_size().unwrap_or_default();
            let bare = primitives.is_empty() || layer.is_some();
            if let Some(pixels) = renderer.cpu_image().filter(|_| bare) {
                let bgra = renderer.is_bgra();
                if target.present_pixels(gpu, window, size, pixels, bgra, overlay)? {
                    return Ok(true);
                }
            }
        }
        let Some(frame) = target.next_frame(gpu) else { return Ok(false) };
        let view = frame.texture().create_view(&Default::default());
        let (width, height) = target.size();
        let screen =
            egui_wgpu::ScreenDescriptor { size_in_pixels: [width, height], pixels_per_point: ppp };
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let mut extra = Vec::new();
        if let OverlayWay::Gpu(egui) = &mut self.overlay {
            let t = Instant::now();
            extra = egui.update_buffers(&gpu.device, &gpu.queue, &mut encoder, primitives, &screen);
            *recorded += t.elapsed();
        }
        // A frame that fills the window is copied in; the overlay is drawn over it.
        let copied = match &picture {
            Picture::Frame(r) => r.copy_to(gpu, &mut encoder, frame.texture()),
            Picture::Composite(..) => false,
        };
        {
            let mut pass = render::present_pass(&mut encoder, &view, copied).forget_lifetime();
            let source = match picture {
                Picture::Composite(view, size) => Some((view, size)),
                Picture::Frame(_) if copied => None,
                Picture::Frame(r) => r.color_view(gpu).zip(r.target_size()),
            };
            if let Some((src, size)) = source {
                self.presenter.draw(&gpu.device, &gpu.queue, &mut pass, src, size, rect);
            }
            if let OverlayWay::Gpu(egui) = &self.overlay {
                let t = Instant::now();
                egui.render(&mut pass, primitives, &screen);
                *recorded += t.elapsed();
            }
        }
        gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        let layer = match &self.overlay {
            OverlayWay::Cpu(layer) => Some(&**layer),
            OverlayWay::Gpu(_) => None,
        };
        target.present(gpu, window, frame, layer.filter(|_| !primitives.is_empty()))?;
        Ok(true)
    }
}
