//! `mapscope bench --window`: the bench tour in a real window, each frame drawn, shown as the
//! viewer shows it (`window_surface`: the swapchain, or shared memory on a software adapter),
//! and presented; the time between presents is the presented frame rate.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

use super::window_surface::{self, WindowSurface, WindowTarget};
use crate::bench::{Tour, WARM_UP_FRAMES};
use crate::render::{self, Gpu, Presenter, SceneRenderer, ViewSettings};
use crate::scene::{FrameState, Scene};

/// Intervals between presents of the timed frames, and the adapter.
pub struct PresentedFrames {
    pub intervals: Vec<Duration>,
    pub adapter: String,
    /// How the images reached the screen (`WindowTarget::way`).
    pub way: &'static str,
}

/// Shows the tour of `scene` at the size of `view` for `frames` frames after the warm-up.
/// Shows the bench tour of `scene` in a window, `frames` frames after a warm-up; `cpu_canvas`
/// as `SceneRenderer::set_cpu_canvas`.
pub fn run(
    scene: Scene,
    tour: Tour,
    view: ViewSettings,
    frames: usize,
    cpu_canvas: bool,
) -> Result<PresentedFrames> {
    let event_loop = EventLoop::new().context("opening the window system (is DISPLAY set?)")?;
    let state = scene.animator.initial();
    let mut app = BenchWindow {
        scene,
        tour,
        state,
        view,
        cpu_canvas,
        frames: frames.max(1),
        done: 0,
        last_present: None,
        intervals: Vec::new(),
        win: None,
        error: None,
    };
    event_loop.run_app(&mut app).context("running the window")?;
    if let Some(e) = app.error {
        return Err(e);
    }
    let adapter = app.win.as_ref().map(|w| w.gpu.adapter_name()).unwrap_or_default();
    let way = app.win.as_ref().map_or("", |w| w.target.way());
    if app.intervals.is_empty() {
        return Err(anyhow!("the window closed before any frame was timed"));
    }
    Ok(PresentedFrames { intervals: app.intervals, adapter, way })
}

struct Win {
    window: Arc<Window>,
    target: WindowTarget,
    gpu: Gpu,
    renderer: SceneRenderer,
    presenter: Presenter,
}

struct BenchWindow {
    scene: Scene,
    tour: Tour,
    state: FrameState,
    view: ViewSettings,
    cpu_canvas: bool,
    frames: usize,
    /// Frames presented so far, warm-up included.
    done: usize,
    last_present: Option<Instant>,
    intervals: Vec<Duration>,
    win: Option<Win>,
    error: Option<anyhow::Error>,
}

impl BenchWindow {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let size = winit::dpi::PhysicalSize::new(self.view.width, self.view.height);
        let attrs = Window::default_attributes()
            .with_title("mapscope bench")
            .with_inner_size(size)
            .with_resizable(false);
        let WindowSurface { window, target, gpu } = window_surface::open(event_loop, attrs)?;
        let format = target.format();
        let mut renderer =
            SceneRenderer::with_format(&gpu, &self.scene, render::scene_format_for(format))?;
        renderer.set_cpu_canvas(self.cpu_canvas);
        let presenter = Presenter::new(&gpu.device, format);
        self.win = Some(Win { window, target, gpu, renderer, presenter });
        Ok(())
    }

    /// Draws and presents the next frame; returns whether the run is over.
    fn frame(&mut self) -> Result<bool> {
        let Some(w) = &mut self.win else { return Ok(false) };
        let timed = self.done.saturating_sub(WARM_UP_FRAMES);
        let i = if self.done < WARM_UP_FRAMES {
            self.done * self.frames / WARM_UP_FRAMES
        } else {
            timed
        };
        self.scene.animator.state_at(i as u32, &mut self.state);
        w.renderer.set_state(&self.state);
        w.renderer.render(&w.gpu, &self.tour.camera(i, self.frames), &self.view);
        // A frame the CPU drew whole goes to the window as it is (the viewer does the same
        // when its overlay is hidden).
        let size = (self.view.width, self.view.height);
        let bgra = w.renderer.is_bgra();
        let direct = match w.renderer.cpu_image() {
            Some(pixels) => w.target.present_pixels(&w.gpu, &w.window, size, pixels, bgra)?,
            None => false,
        };
        if !direct && !Self::present_from_gpu(w)? {
            return Ok(false);
        }
        let now = Instant::now();
        if self.done >= WARM_UP_FRAMES {
            if let Some(last) = self.last_present {
                self.intervals.push(now - last);
            }
        }
        self.last_present = Some(now);
        self.done += 1;
        // One interval per timed frame: the first timed present ends the warm-up's last one.
        Ok(self.intervals.len() >= self.frames)
    }

    /// Shows the renderer's image through the window's next image, as the viewer does;
    /// returns false when the window had no image ready (the frame is skipped).
    fn present_from_gpu(w: &mut Win) -> Result<bool> {
        let Some(frame) = w.target.next_frame(&w.gpu) else {
            return Ok(false);
        };
        let target = frame.texture().create_view(&Default::default());
        let mut encoder = w.gpu.device.create_command_encoder(&Default::default());
        let copied = w.renderer.copy_to(&w.gpu, &mut encoder, frame.texture());
        let source =
            w.renderer.color_view(&w.gpu).zip(w.renderer.target_size()).filter(|_| !copied);
        if let Some((source, size)) = source {
            let mut pass = render::present_pass(&mut encoder, &target, false);
            let (width, height) = w.target.size();
            let rect = [0.0, 0.0, width as f32, height as f32];
            w.presenter.draw(&w.gpu.device, &w.gpu.queue, &mut pass, source, size, rect);
        }
        w.gpu.queue.submit([encoder.finish()]);
        w.target.present(&w.gpu, &w.window, frame)?;
        Ok(true)
    }
}

impl ApplicationHandler for BenchWindow {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.win.is_none() {
            if let Err(e) = self.open(event_loop) {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::RedrawRequested => match self.frame() {
                Ok(true) => event_loop.exit(),
                Ok(false) => {}
                Err(e) => {
                    self.error = Some(e);
                    event_loop.exit();
                }
            },
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.win {
            w.window.request_redraw();
        }
    }
}
