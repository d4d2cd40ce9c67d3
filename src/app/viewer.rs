use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use winit::application::ApplicationHandler;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, Window, WindowId};

use super::overlay::{self, OverlayInfo};
use super::{FlyCamera, MoveKeys};
use crate::cli::{CameraArgs, ViewArgs};
use crate::loader::{self, LevelSource, OpenOptions};
use crate::render::{Gpu, Presenter, RenderMode, SceneRenderer, ViewSettings};
use crate::scene::{FrameState, Scene};
use crate::shot::{self, ShotMeta};

/// Opens the viewer window on `files` and runs until it is closed.
pub fn run_viewer(
    files: Vec<PathBuf>,
    options: OpenOptions,
    camera: CameraArgs,
    view: ViewArgs,
    shot_dir: Option<PathBuf>,
) -> Result<()> {
    let source = loader::open(&files, &options)?;
    let maps = source.maps();
    let scene = source.build(camera.map.as_deref())?;
    let pose = camera.resolve(&scene)?;
    let map_index = maps.iter().position(|m| *m == scene.name).unwrap_or(0);
    let fly = FlyCamera::new(pose, level_size(&scene));
    let settings = view.settings(1280, 720)?;
    let event_loop = EventLoop::new().context("opening the window system (is DISPLAY set?)")?;
    let mut app = App {
        files,
        options,
        source,
        maps,
        map_index,
        scene,
        fly,
        view: settings,
        keys: MoveKeys::default(),
        captured: false,
        start: Instant::now(),
        last: Instant::now(),
        frame_ms: 0.0,
        start_tic: camera.tic,
        shot_dir: shot_dir.unwrap_or_else(|| PathBuf::from(".")),
        message: None,
        error: None,
        win: None,
        fatal: None,
        show_overlay: true,
    };
    event_loop.run_app(&mut app).context("running the window")?;
    match app.fatal {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn level_size(scene: &Scene) -> f64 {
    scene.bounds().map(|(lo, hi)| (hi - lo).length() as f64).unwrap_or(1000.0)
}

struct WindowState {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    renderer: SceneRenderer,
    presenter: Presenter,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    frame_state: FrameState,
}

struct App {
    files: Vec<PathBuf>,
    /// Kept for levels dropped on the window.
    options: OpenOptions,
    source: Box<dyn LevelSource>,
    maps: Vec<String>,
    map_index: usize,
    scene: Scene,
    fly: FlyCamera,
    view: ViewSettings,
    keys: MoveKeys,
    captured: bool,
    start: Instant,
    last: Instant,
    frame_ms: f64,
    start_tic: u32,
    shot_dir: PathBuf,
    message: Option<String>,
    error: Option<String>,
    win: Option<WindowState>,
    fatal: Option<anyhow::Error>,
    show_overlay: bool,
}

impl App {
    fn title(&self) -> String {
        let file = self
            .files
            .first()
            .and_then(|f| f.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("mapscope — {file} {} ({})", self.scene.name, self.scene.format)
    }

    fn create_window(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let attrs = Window::default_attributes()
            .with_title(self.title())
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 720.0));
        let window = Arc::new(event_loop.create_window(attrs).context("creating the window")?);
        let instance = Gpu::new_instance();
        let surface =
            instance.create_surface(window.clone()).context("creating the window surface")?;
        let gpu = Gpu::from_instance(instance, Some(&surface))?;
        let caps = surface.get_capabilities(&gpu.adapter);
        // Prefer a plain (non-sRGB) format so palette colours pass through unchanged.
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb())
            .or_else(|| caps.formats.first().copied())
            .context("the window surface supports no format")?;
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
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
        let mut renderer = SceneRenderer::new(&gpu, &self.scene)?;
        let frame_state = self.scene.animator.initial();
        renderer.set_state(&frame_state);
        let presenter = Presenter::new(&gpu.device, format);
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, format, Default::default());
        log::info!("viewer on {}", gpu.adapter_name());
        self.win = Some(WindowState {
            window,
            surface,
            config,
            gpu,
            renderer,
            presenter,
            egui_ctx,
            egui_state,
            egui_renderer,
            frame_state,
        });
        Ok(())
    }

    /// Replaces the level; on failure the current one stays and the error is shown.
    fn load(&mut self, files: Vec<PathBuf>, map: Option<String>) {
        let result = (|| -> Result<(Box<dyn LevelSource>, Scene)> {
            let source = loader::open(&files, &self.options)?;
            let scene = source.build(map.as_deref())?;
            Ok((source, scene))
        })();
        match result {
            Ok((source, scene)) => {
                self.files = files;
                self.maps = source.maps();
                self.map_index = self.maps.iter().position(|m| *m == scene.name).unwrap_or(0);
                self.source = source;
                self.set_scene(scene);
            }
            Err(e) => self.error = Some(format!("{e:#}")),
        }
    }

    fn set_scene(&mut self, scene: Scene) {
        self.fly = FlyCamera::new(scene.spawn, level_size(&scene));
        self.scene = scene;
        self.error = None;
        self.start = Instant::now();
        let title = self.title();
        if let Some(w) = &mut self.win {
            match SceneRenderer::new(&w.gpu, &self.scene) {
                Ok(r) => {
                    w.renderer = r;
                    w.frame_state = self.scene.animator.initial();
                }
                Err(e) => self.error = Some(format!("{e:#}")),
            }
            w.window.set_title(&title);
        }
    }

    fn cycle_map(&mut self, step: isize) {
        if self.maps.is_empty() {
            return;
        }
        let n = self.maps.len() as isize;
        let next = ((self.map_index as isize + step) % n + n) % n;
        let name = self.maps[next as usize].clone();
        match self.source.build(Some(&name)) {
            Ok(scene) => {
                self.map_index = next as usize;
                self.set_scene(scene);
            }
            Err(e) => self.error = Some(format!("{name}: {e:#}")),
        }
    }

    fn tic(&self) -> u32 {
        let rate = self.scene.animator.tic_rate();
        self.start_tic + (self.start.elapsed().as_secs_f64() * rate) as u32
    }

    fn set_captured(&mut self, on: bool) {
        let Some(w) = &self.win else { return };
        if on {
            let grabbed = w
                .window
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| w.window.set_cursor_grab(CursorGrabMode::Confined));
            if grabbed.is_err() {
                log::warn!("could not capture the mouse pointer");
            }
            w.window.set_cursor_visible(false);
        } else {
            let _ = w.window.set_cursor_grab(CursorGrabMode::None);
            w.window.set_cursor_visible(true);
        }
        self.captured = on;
    }

    fn screenshot(&mut self) {
        let Some(w) = &self.win else { return };
        let result = (|| -> Result<PathBuf> {
            let image = w.renderer.read_image(&w.gpu)?;
            let native = self.scene.axes.to_native_f64(self.fly.pose.pos);
            let meta = ShotMeta {
                file: self
                    .files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(";"),
                map: self.scene.name.clone(),
                camera: native.to_array(),
                angle: self.scene.axes.yaw_to_native(self.fly.pose.yaw),
                pitch: self.fly.pose.pitch.to_degrees(),
                fov: self.view.fov_deg,
                mode: format!("{:?}", self.view.mode).to_lowercase(),
                tic: self.tic(),
            };
            let name = format!("mapscope-{}-{}.png", sanitize(&self.scene.name), timestamp());
            let path = self.shot_dir.join(name);
            shot::save_png(&path, &image, Some(&meta))?;
            Ok(path)
        })();
        match result {
            Ok(path) => {
                println!("{}", path.display());
                self.message = Some(format!("saved {}", path.display()));
            }
            Err(e) => self.error = Some(format!("screenshot failed: {e:#}")),
        }
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode, pressed: bool) {
        let k = &mut self.keys;
        match code {
            KeyCode::KeyW | KeyCode::ArrowUp => k.forward = pressed,
            KeyCode::KeyS | KeyCode::ArrowDown => k.back = pressed,
            KeyCode::KeyA | KeyCode::ArrowLeft => k.left = pressed,
            KeyCode::KeyD | KeyCode::ArrowRight => k.right = pressed,
            KeyCode::Space | KeyCode::KeyE => k.up = pressed,
            KeyCode::KeyC | KeyCode::KeyQ => k.down = pressed,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => k.fast = pressed,
            _ => {}
        }
        if !pressed {
            return;
        }
        match code {
            KeyCode::Escape if self.captured => self.set_captured(false),
            KeyCode::Escape => event_loop.exit(),
            KeyCode::F12 => self.screenshot(),
            KeyCode::KeyT => self.view.show_sprites = !self.view.show_sprites,
            KeyCode::KeyK => self.view.show_sky = !self.view.show_sky,
            KeyCode::KeyG => self.view.wireframe = !self.view.wireframe,
            KeyCode::KeyM => {
                self.view.mode = match self.view.mode {
                    RenderMode::Faithful => RenderMode::Smooth,
                    RenderMode::Smooth => RenderMode::Faithful,
                }
            }
            KeyCode::KeyN => self.cycle_map(1),
            KeyCode::KeyP => self.cycle_map(-1),
            KeyCode::KeyR => self.fly.pose = self.scene.spawn,
            KeyCode::F1 => self.show_overlay = !self.show_overlay,
            _ => {}
        }
    }

    fn redraw(&mut self) -> Result<()> {
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f64().min(0.25);
        self.last = now;
        self.frame_ms = self.frame_ms * 0.9 + dt * 1000.0 * 0.1;
        self.fly.update(self.keys, dt);
        let tic = self.tic();
        let native = self.scene.axes.to_native_f64(self.fly.pose.pos);
        let Some(w) = &mut self.win else { return Ok(()) };
        self.scene.animator.state_at(tic, &mut w.frame_state);
        w.renderer.set_state(&w.frame_state);
        self.view.width = w.config.width;
        self.view.height = w.config.height;
        w.renderer.render(&w.gpu, &self.fly.pose, &self.view);

        let frame = match w.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(f)
            | wgpu::CurrentSurfaceTexture::Suboptimal(f) => f,
            other => {
                log::debug!("surface not ready: {other:?}");
                w.surface.configure(&w.gpu.device, &w.config);
                return Ok(());
            }
        };
        let target = frame.texture.create_view(&Default::default());

        let title = format!("{} ({})", self.scene.name, self.scene.format);
        let info = OverlayInfo {
            title: &title,
            frame_ms: self.frame_ms,
            position: native.to_array(),
            angle: self.scene.axes.yaw_to_native(self.fly.pose.yaw),
            pitch: self.fly.pose.pitch.to_degrees(),
            speed: self.fly.speed,
            tic,
            captured: self.captured,
            message: self.message.as_deref(),
            error: self.error.as_deref(),
        };
        let raw = w.egui_state.take_egui_input(&w.window);
        let mut next_map = false;
        let show = self.show_overlay;
        let view = &mut self.view;
        let output = w.egui_ctx.run_pass(raw, |ctx| {
            if show {
                next_map |= overlay::draw(ctx, &info, view);
            }
        });
        w.egui_state.handle_platform_output(&w.window, output.platform_output);
        let ppp = output.pixels_per_point;
        let jobs = w.egui_ctx.tessellate(output.shapes, ppp);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [w.config.width, w.config.height],
            pixels_per_point: ppp,
        };
        let mut textures_delta = output.textures_delta;
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                w.egui_renderer.update_texture(&w.gpu.device, &w.gpu.queue, *id, delta);
            }
        }
        let mut encoder = w.gpu.device.create_command_encoder(&Default::default());
        let extra = w.egui_renderer.update_buffers(
            &w.gpu.device,
            &w.gpu.queue,
            &mut encoder,
            &jobs,
            &screen,
        );
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("present"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &target,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            if let (Some(src), Some(size)) = (w.renderer.color_view(), w.renderer.target_size()) {
                let rect = [0.0, 0.0, w.config.width as f32, w.config.height as f32];
                w.presenter.draw(&w.gpu.device, &w.gpu.queue, &mut pass, src, size, rect);
            }
            w.egui_renderer.render(&mut pass, &jobs, &screen);
        }
        w.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        w.window.pre_present_notify();
        w.gpu.queue.present(frame);
        for id in &textures_delta.free {
            w.egui_renderer.free_texture(id);
        }
        // Applied above; egui insists deltas are consumed explicitly.
        textures_delta.clear();
        if next_map {
            self.cycle_map(1);
        }
        Ok(())
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.win.is_none() {
            if let Err(e) = self.create_window(event_loop) {
                self.fatal = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(w) = &mut self.win else { return };
        let egui_used = if self.captured {
            false
        } else {
            w.egui_state.on_window_event(&w.window, &event).consumed
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                w.config.width = size.width.max(1);
                w.config.height = size.height.max(1);
                w.surface.configure(&w.gpu.device, &w.config);
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } if !egui_used && !self.captured && !w.egui_ctx.egui_wants_pointer_input() => {
                self.set_captured(true);
            }
            WindowEvent::MouseWheel { delta, .. } if !egui_used => {
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y as f64,
                    MouseScrollDelta::PixelDelta(p) => p.y / 40.0,
                };
                self.fly.scroll(notches);
            }
            WindowEvent::KeyboardInput { event, .. } if !egui_used || self.captured => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    if !event.repeat || event.state == ElementState::Released {
                        self.key(event_loop, code, event.state == ElementState::Pressed);
                    }
                }
            }
            WindowEvent::Focused(false) => {
                self.keys = MoveKeys::default();
                self.set_captured(false);
            }
            WindowEvent::DroppedFile(path) => self.load(vec![path], None),
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw() {
                    self.error = Some(format!("{e:#}"));
                }
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _el: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta } = event {
            if self.captured {
                self.fly.look(delta.0, delta.1);
            }
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.win {
            w.window.request_redraw();
        }
    }
}

fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}

/// UTC time as YYYYMMDD-HHMMSS-mmm, for screenshot names.
fn timestamp() -> String {
    let now =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{:03}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        now.subsec_millis()
    )
}
