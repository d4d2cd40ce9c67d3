//! `mapscope bench --window`: the bench tour in a real window, each frame drawn, shown as the
//! viewer shows it (`window_surface`: the swapchain, or shared memory on a software adapter;
//! `window_compositor`: the frame and the overlay), and presented; the time between presents
//! is the presented frame rate. With `--overlay` the viewer's overlay is drawn over every
//! frame as the viewer draws it as it opens, its figures (frame time, position, tic) new
//! each frame.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

use super::overlay::{self, OverlayInfo, OverlayRefresh};
use super::window_compositor::{Destination, OverlayFrame, Picture, WindowCompositor};
use super::window_surface::{self, WindowSurface, WindowTarget};
use crate::bench::{Drawing, Tour, WARM_UP_FRAMES};
use crate::render::{self, Gpu, SceneRenderer, ViewSettings};
use crate::scene::{FrameState, Scene};

/// Intervals between presents of the timed frames, and the adapter.
pub struct PresentedFrames {
    pub intervals: Vec<Duration>,
    pub adapter: String,
    /// How the images reached the screen (`WindowTarget::way`).
    pub way: &'static str,
    /// Where the overlay was drawn ("CPU" or "GPU"); `None` without `--overlay`.
    pub overlay: Option<&'static str>,
    /// The processor time each timed frame's overlay took: egui's pass and tessellation,
    /// and its drawing (`WindowCompositor::overlay_time`); empty without `--overlay`.
    pub overlay_times: Vec<Duration>,
    /// The same for the frames that drew the overlay anew (`OverlayRefresh`).
    pub redraw_times: Vec<Duration>,
}

/// How the bench window draws: the renderer, and whether the overlay is shown.
pub struct WindowOptions {
    pub drawing: Drawing,
    pub overlay: bool,
}

/// Shows the bench tour of `scene` at the size of `view` in a window, `frames` frames after
/// a warm-up.
pub fn run(
    scene: Scene,
    tour: Tour,
    view: ViewSettings,
    frames: usize,
    options: WindowOptions,
) -> Result<PresentedFrames> {
    let event_loop = EventLoop::new().context("opening the window system (is DISPLAY set?)")?;
    let state = scene.animator.initial();
    let mut app = BenchWindow {
        scene,
        tour,
        state,
        view,
        options,
        frames: frames.max(1),
        done: 0,
        last_present: None,
        intervals: Vec::new(),
        win: None,
        error: None,
        egui: egui::Context::default(),
        started: Instant::now(),
        frame_ms: 0.0,
        refresh: OverlayRefresh::default(),
        overlay_times: Vec::new(),
        redraw_times: Vec::new(),
    };
    event_loop.run_app(&mut app).context("running the window")?;
    if let Some(e) = app.error {
        return Err(e);
    }
    let adapter = app.win.as_ref().map(|w| w.gpu.adapter_name()).unwrap_or_default();
    let way = app.win.as_ref().map_or("", |w| w.target.way());
    let overlay = app.win.as_ref().map(|w| w.compositor.overlay_way());
    let overlay = overlay.filter(|_| app.options.overlay);
    if app.intervals.is_empty() {
        return Err(anyhow!("the window closed before any frame was timed"));
    }
    let (overlay_times, redraw_times) = (app.overlay_times, app.redraw_times);
    let intervals = app.intervals;
    Ok(PresentedFrames { intervals, adapter, way, overlay, overlay_times, redraw_times })
}

struct Win {
    window: Arc<Window>,
    target: WindowTarget,
    gpu: Gpu,
    renderer: SceneRenderer,
    compositor: WindowCompositor,
}

struct BenchWindow {
    scene: Scene,
    tour: Tour,
    state: FrameState,
    view: ViewSettings,
    options: WindowOptions,
    frames: usize,
    /// Frames presented so far, warm-up included.
    done: usize,
    last_present: Option<Instant>,
    intervals: Vec<Duration>,
    win: Option<Win>,
    error: Option<anyhow::Error>,
    egui: egui::Context,
    started: Instant,
    /// The frame time the overlay shows, smoothed as the viewer smooths it.
    frame_ms: f64,
    refresh: OverlayRefresh,
    overlay_times: Vec<Duration>,
    redraw_times: Vec<Duration>,
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
        self.options.drawing.apply(&mut renderer, &gpu);
        let compositor = WindowCompositor::new(&gpu, &target);
        self.win = Some(Win { window, target, gpu, renderer, compositor });
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
        let camera = self.tour.camera(i, self.frames);
        w.renderer.render(&w.gpu, &camera, &self.view);
        let mut egui_time = Duration::ZERO;
        let now = Instant::now();
        let overlay = match self.options.overlay {
            true if self.refresh.due(now) => {
                let (width, height) = w.target.size();
                let native = camera.native(self.scene.axes);
                let screen = self.scene.game.screen();
                let title = format!("{} ({})", self.scene.name, self.scene.game.name());
                let info = OverlayInfo {
                    title: &title,
                    frame_ms: self.frame_ms,
                    position: native.position,
                    angle: native.angle,
                    pitch: native.pitch,
                    speed: 0.0,
                    walking: false,
                    tic: i as u32,
                    captured: false,
                    message: None,
                    error: None,
                    game_screen: screen.as_ref().map(overlay::game_screen_label),
                    frame_size: (self.view.width, self.view.height),
                    automap: None,
                };
                let (frame, delay) =
                    overlay_frame(&self.egui, &info, self.view, width, height, self.started);
                self.refresh.drawn(now, delay);
                egui_time = now.elapsed();
                Some(frame)
            }
            true => None,
            false => Some(OverlayFrame::none()),
        };
        let redrawn = overlay.is_some();
        let rect = {
            let (width, height) = w.target.size();
            [0.0, 0.0, width as f32, height as f32]
        };
        let picture = Picture::Frame(&w.renderer);
        let to = Destination { gpu: &w.gpu, window: &w.window, target: &mut w.target };
        if !w.compositor.show(to, picture, rect, overlay)? {
            return Ok(false);
        }
        let now = Instant::now();
        if self.done >= WARM_UP_FRAMES && self.options.overlay {
            self.overlay_times.push(egui_time + w.compositor.overlay_time());
            if redrawn {
                self.redraw_times.push(egui_time + w.compositor.overlay_time());
            }
        }
        if self.done >= WARM_UP_FRAMES {
            if let Some(last) = self.last_present {
                self.intervals.push(now - last);
            }
        }
        if let Some(last) = self.last_present {
            let dt = (now - last).as_secs_f64().min(0.25);
            self.frame_ms = self.frame_ms * 0.9 + dt * 1000.0 * 0.1;
        }
        self.last_present = Some(now);
        self.done += 1;
        // One interval per timed frame: the first timed present ends the warm-up's last one.
        Ok(self.intervals.len() >= self.frames)
    }
}

/// The viewer's overlay for one frame, as it opens: the panel with every control, no input;
/// and when egui asks to run again.
fn overlay_frame(
    ctx: &egui::Context,
    info: &OverlayInfo<'_>,
    view: ViewSettings,
    width: u32,
    height: u32,
    started: Instant,
) -> (OverlayFrame, Duration) {
    let size = egui::vec2(width as f32, height as f32);
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
        time: Some(started.elapsed().as_secs_f64()),
        ..Default::default()
    };
    let output = overlay::untouched_pass(ctx, info, view, raw);
    let ppp = output.pixels_per_point;
    let delay = output.viewport_output.get(&egui::ViewportId::ROOT);
    let delay = delay.map_or(Duration::MAX, |v| v.repaint_delay);
    let frame = OverlayFrame {
        primitives: ctx.tessellate(output.shapes, ppp),
        textures: output.textures_delta,
        pixels_per_point: ppp,
    };
    (frame, delay)
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
