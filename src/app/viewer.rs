//! The interactive viewer: a winit window and its wgpu surface, the level opened from the
//! command line (or dropped on the window), the fly camera, key bindings, screenshots with
//! their metadata, bookmarks, and the reference overlay that lays a game screenshot over
//! the frame.

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

use super::bookmark::{self, Bookmark};
use super::compare_view::ReferenceView;
use super::game_view;
use super::overlay::{self, Controls, OverlayInfo};
use super::reference;
use super::window_surface::{self, WindowSurface, WindowTarget};
use super::{FlyCamera, MoveKeys};
use crate::loader::{self, LevelSource, OpenOptions};
use crate::render::{self, CameraRequest, Gpu, Presenter, RenderMode, SceneRenderer, ViewSettings};
use crate::scene::{FrameState, GameScreen, Scene};
use crate::shot::{self, ShotMeta};

/// Where the viewer starts and how it draws: plain values the command line resolves.
#[derive(Clone, Debug, Default)]
pub struct ViewerOptions {
    /// Map to open (by `Game::pick_map`'s rule); default: the first.
    pub map: Option<String>,
    /// The camera asked for; what it leaves out is the level's spawn camera.
    pub camera: CameraRequest,
    /// Animation clock at the start, in game tics.
    pub tic: u32,
    /// How to draw (the size is the window's).
    pub view: ViewSettings,
    /// Folder for F12 screenshots (default: the current folder).
    pub shot_dir: Option<PathBuf>,
    /// A screenshot of the game to lay over the view.
    pub reference: Option<PathBuf>,
    /// Start at the game's own resolution and field of view.
    pub game_res: bool,
    /// Start with the animation clock stopped at `--tic`.
    pub freeze: bool,
}

/// Opens the viewer window on `files` and runs until it is closed.
pub fn run_viewer(files: Vec<PathBuf>, options: OpenOptions, extra: ViewerOptions) -> Result<()> {
    let mut app = App::new(files, options, extra)?;
    let event_loop = EventLoop::new().context("opening the window system (is DISPLAY set?)")?;
    event_loop.run_app(&mut app).context("running the window")?;
    match app.fatal {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Opens `files` and builds `map`.
fn open_level(
    files: &[PathBuf],
    options: &OpenOptions,
    map: Option<&str>,
) -> Result<(Box<dyn LevelSource>, Scene)> {
    catching_panics(files, || {
        let source = loader::open(files, options)?;
        let scene = source.build(map)?;
        Ok((source, scene))
    })
}

fn build_map(source: &dyn LevelSource, files: &[PathBuf], name: &str) -> Result<Scene> {
    catching_panics(files, || source.build(Some(name)))
}

/// Runs `load`, turning a panic in it (a bug, but one a hostile file might still reach) into
/// an error naming `files`, so a bad file never takes the viewer down.
fn catching_panics<T>(files: &[PathBuf], load: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(load))
        .unwrap_or_else(|panic| Err(panic_error(files, panic)))
}

fn panic_error(files: &[PathBuf], panic: Box<dyn std::any::Any + Send>) -> anyhow::Error {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    anyhow::anyhow!("internal error while loading {}: {what}", names.join(", "))
}

fn level_size(scene: &Scene) -> f64 {
    scene.bounds().map(|(lo, hi)| (hi - lo).length() as f64).unwrap_or(1000.0)
}

struct WindowState {
    window: Arc<Window>,
    target: WindowTarget,
    gpu: Gpu,
    renderer: SceneRenderer,
    presenter: Presenter,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    frame_state: FrameState,
    /// The composed frame (view and reference) shown when a reference is visible.
    composite: Option<(wgpu::Texture, wgpu::TextureView, (u32, u32))>,
}

impl WindowState {
    /// Uploads `image` into the composite texture (recreated when the size changes).
    fn upload_composite(&mut self, image: &image::RgbaImage) {
        let size = image.dimensions();
        if self.composite.as_ref().is_some_and(|c| c.2 != size) {
            self.composite = None;
        }
        let device = &self.gpu.device;
        let (texture, _, _) = self.composite.get_or_insert_with(|| {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("reference composite"),
                size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: crate::render::SCENE_FORMAT,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            (texture, view, size)
        });
        self.gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            image.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * size.0),
                rows_per_image: Some(size.1),
            },
            wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        );
    }
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
    /// When the camera last moved (keys and frames both move it).
    moved_at: Instant,
    frame_ms: f64,
    start_tic: u32,
    /// The animation clock is stopped at `start_tic`.
    frozen: bool,
    /// The field of view asked for (used outside game resolution).
    user_fov: f64,
    /// Render at the game's own resolution and field of view (where known).
    game_res: bool,
    reference: Option<ReferenceView>,
    /// Pointer position in window pixels.
    cursor: (f64, f64),
    /// The wipe divider follows the pointer.
    dragging_wipe: bool,
    /// Where the frame was last shown in the window: x, y, width, height in pixels.
    display_rect: [f32; 4],
    shot_dir: PathBuf,
    message: Option<String>,
    error: Option<String>,
    win: Option<WindowState>,
    fatal: Option<anyhow::Error>,
    show_overlay: bool,
}

impl App {
    fn new(files: Vec<PathBuf>, options: OpenOptions, extra: ViewerOptions) -> Result<App> {
        let (source, scene) = open_level(&files, &options, extra.map.as_deref())?;
        let maps = source.maps();
        let pose = extra.camera.resolve(&scene)?;
        let map_index = maps.iter().position(|m| *m == scene.name).unwrap_or(0);
        let fly = FlyCamera::new(pose, level_size(&scene));
        let settings = extra.view;
        let reference = extra.reference.as_deref().map(ReferenceView::load).transpose()?;
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
            moved_at: Instant::now(),
            frame_ms: 0.0,
            start_tic: extra.tic,
            frozen: extra.freeze,
            user_fov: settings.fov_deg,
            game_res: extra.game_res,
            reference: None,
            cursor: (0.0, 0.0),
            dragging_wipe: false,
            display_rect: [0.0, 0.0, 1.0, 1.0],
            shot_dir: extra.shot_dir.unwrap_or_else(|| PathBuf::from(".")),
            message: None,
            error: None,
            win: None,
            fatal: None,
            show_overlay: true,
        };
        if let Some(r) = reference {
            app.set_reference(r);
        }
        Ok(app)
    }

    /// Shows `error` in the overlay and logs it (once while it stays the same), for a user
    /// watching the terminal rather than the window.
    fn show_error(&mut self, error: String) {
        if self.error.as_deref() != Some(error.as_str()) {
            log::error!("{error}");
        }
        self.error = Some(error);
    }

    fn title(&self) -> String {
        let file = self
            .files
            .first()
            .and_then(|f| f.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("mapscope — {file} {} ({})", self.scene.name, self.scene.game.name())
    }

    fn create_window(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let attrs = Window::default_attributes()
            .with_title(self.title())
            .with_inner_size(winit::dpi::LogicalSize::new(1280.0, 720.0));
        let WindowSurface { window, target, gpu } = window_surface::open(event_loop, attrs)?;
        let format = target.format();
        let mut renderer =
            SceneRenderer::with_format(&gpu, &self.scene, render::scene_format_for(format))?;
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
        log::info!("viewer on {}, presenting through the {}", gpu.adapter_name(), target.way());
        self.win = Some(WindowState {
            window,
            target,
            gpu,
            renderer,
            presenter,
            egui_ctx,
            egui_state,
            egui_renderer,
            frame_state,
            composite: None,
        });
        Ok(())
    }

    /// Replaces the level; on failure the current one stays and the error is shown.
    fn load(&mut self, files: Vec<PathBuf>, map: Option<String>) {
        match open_level(&files, &self.options, map.as_deref()) {
            Ok((source, scene)) => {
                let maps = source.maps();
                if self.set_scene(scene) {
                    self.map_index = maps.iter().position(|m| *m == self.scene.name).unwrap_or(0);
                    self.maps = maps;
                    self.files = files;
                    self.source = source;
                }
            }
            Err(e) => self.show_error(format!("{e:#}")),
        }
    }

    /// A file dropped on the window: a PNG is a reference screenshot, anything else a level.
    fn open_dropped(&mut self, path: PathBuf) {
        if is_png(&path) {
            self.load_reference(&path);
        } else {
            self.load(vec![path], None);
        }
    }

    /// Shows `scene` in place of the current one; returns false (the current one stays, the
    /// error is shown) when the GPU cannot take it.
    fn set_scene(&mut self, scene: Scene) -> bool {
        if let Some(w) = &mut self.win {
            let format = render::scene_format_for(w.target.format());
            match SceneRenderer::with_format(&w.gpu, &scene, format) {
                Ok(r) => {
                    w.renderer = r;
                    w.frame_state = scene.animator.initial();
                }
                Err(e) => {
                    self.show_error(format!("{}: {e:#}", scene.name));
                    return false;
                }
            }
        }
        self.fly = FlyCamera::new(scene.spawn, level_size(&scene));
        self.scene = scene;
        self.error = None;
        self.start = Instant::now();
        let title = self.title();
        if let Some(w) = &self.win {
            w.window.set_title(&title);
        }
        true
    }

    fn cycle_map(&mut self, step: isize) {
        if self.maps.is_empty() {
            return;
        }
        let n = self.maps.len() as isize;
        let next = ((self.map_index as isize + step) % n + n) % n;
        let name = self.maps[next as usize].clone();
        match build_map(self.source.as_ref(), &self.files, &name) {
            Ok(scene) => {
                if self.set_scene(scene) {
                    self.map_index = next as usize;
                }
            }
            Err(e) => self.show_error(format!("{name}: {e:#}")),
        }
    }

    fn tic(&self) -> u32 {
        if self.frozen {
            return self.start_tic;
        }
        let rate = self.scene.game.tic_rate();
        self.start_tic + (self.start.elapsed().as_secs_f64() * rate) as u32
    }

    /// Stops or restarts the animation clock where it is.
    fn set_frozen(&mut self, on: bool) {
        if on != self.frozen {
            self.start_tic = self.tic();
            self.start = Instant::now();
            self.frozen = on;
        }
    }

    /// The game's screen for the current level.
    fn game(&self) -> Option<GameScreen> {
        self.scene.game.screen()
    }

    /// Frame size, field of view and where the frame goes in a `width` x `height` window:
    /// the game's screen (shown at its display aspect) in game resolution mode, else the
    /// window itself.
    fn layout(&self, width: u32, height: u32) -> ((u32, u32), f64, [f32; 4]) {
        match self.game().filter(|_| self.game_res) {
            Some(g) => (
                (g.width, g.height),
                g.fov_deg,
                game_view::fit_rect(width, height, g.display_aspect),
            ),
            None => ((width, height), self.user_fov, [0.0, 0.0, width as f32, height as f32]),
        }
    }

    fn set_reference(&mut self, r: ReferenceView) {
        let (w, h) = r.size();
        let mut message = format!("reference {} ({w}x{h})", r.path.display());
        if let Some(g) = self.game().filter(|g| r.matches_game(g)) {
            if !self.game_res {
                self.game_res = true;
                message.push_str(&format!("; game resolution {}x{} on", g.width, g.height));
            }
        }
        self.message = Some(message);
        self.reference = Some(r);
    }

    fn load_reference(&mut self, path: &std::path::Path) {
        match ReferenceView::load(path) {
            Ok(r) => self.set_reference(r),
            Err(e) => self.show_error(format!("reference: {e:#}")),
        }
    }

    /// Prints (and copies, where a clipboard tool exists) the `mapscope render` command line
    /// for the current view.
    fn bookmark(&mut self) {
        let pose = self.fly.pose.native(self.scene.axes);
        let name = format!("mapscope-{}-bookmark.png", sanitize(&self.scene.name));
        let line = Bookmark {
            files: &self.files,
            options: &self.options,
            map: &self.scene.name,
            camera: pose.position,
            angle: pose.angle,
            pitch: pose.pitch,
            view: &self.view,
            tic: self.tic(),
        }
        .command_line(&name);
        crate::output::print_line_or_log(format_args!("{line}"));
        self.message = Some(match bookmark::copy_to_clipboard(&line) {
            Some(tool) => format!("bookmark printed and copied ({tool})"),
            None => "bookmark printed to stdout (no clipboard tool found)".to_string(),
        });
    }

    /// The wipe divider's x in window pixels, when the wipe view is on.
    fn wipe_x(&self) -> Option<f64> {
        let r = self.reference.as_ref().filter(|r| r.is_wipe())?;
        let [x, _, w, _] = self.display_rect;
        let col = reference::wipe_column(r.blend.wipe, self.view.width.max(1));
        Some(x as f64 + col as f64 * w as f64 / self.view.width.max(1) as f64)
    }

    fn drag_wipe_to(&mut self, x: f64) {
        let [rx, _, rw, _] = self.display_rect;
        if let Some(r) = &mut self.reference {
            r.blend.wipe = (((x - rx as f64) / rw.max(1.0) as f64) as f32).clamp(0.0, 1.0);
        }
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
            let pose = self.fly.pose.native(self.scene.axes);
            let (files, options, view) = (&self.files, &self.options, &self.view);
            let meta = ShotMeta::for_view(files, options, &self.scene.name, pose, view, self.tic());
            let name = format!("mapscope-{}-{}.png", sanitize(&self.scene.name), timestamp());
            let path = self.shot_dir.join(name);
            shot::save_png(&path, &image, Some(&meta))?;
            Ok(path)
        })();
        match result {
            Ok(path) => {
                crate::output::print_line_or_log(format_args!("{}", path.display()));
                self.message = Some(format!("saved {}", path.display()));
            }
            Err(e) => self.show_error(format!("screenshot failed: {e:#}")),
        }
    }

    /// Moves the camera for the time since it last moved, with the keys held over that time.
    /// Called on every movement key change as well as every frame, so a key held for less
    /// than a frame (a slow software renderer) still moves the camera for as long as it was
    /// down.
    fn move_camera(&mut self, now: Instant) {
        // A stall with a key held (a window drag, a slow load) moves at most a second's worth:
        // more than a slow frame, so slow frames do not slow the camera down.
        let dt = now.saturating_duration_since(self.moved_at).as_secs_f64().min(1.0);
        self.moved_at = now;
        self.fly.update(self.keys, dt);
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode, pressed: bool) {
        self.move_key(code, pressed, Instant::now());
        if !pressed {
            return;
        }
        self.command_key(event_loop, code);
    }

    /// A movement key pressed or released at `at`: the camera first moves for the time the
    /// previous keys were held.
    fn move_key(&mut self, code: KeyCode, pressed: bool, at: Instant) {
        self.move_camera(at);
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
    }

    fn command_key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode) {
        match code {
            KeyCode::Escape if self.captured => self.set_captured(false),
            KeyCode::Escape => event_loop.exit(),
            KeyCode::F12 => self.screenshot(),
            KeyCode::KeyT => self.view.show_sprites = !self.view.show_sprites,
            KeyCode::KeyK => self.view.show_sky = !self.view.show_sky,
            KeyCode::KeyG => self.view.wireframe = !self.view.wireframe,
            KeyCode::KeyX => self.view.show_markers = !self.view.show_markers,
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
            KeyCode::KeyB => self.bookmark(),
            KeyCode::F2 => {
                self.game_res = !self.game_res;
                if self.game_res && self.game().is_none() {
                    self.message =
                        Some(format!("no game resolution known for {}", self.scene.game.name()));
                }
            }
            KeyCode::KeyF => self.set_frozen(!self.frozen),
            _ => {}
        }
        let fine = self.keys.fast;
        let Some(r) = &mut self.reference else { return };
        match code {
            KeyCode::KeyV => {
                r.visible = true;
                r.cycle_mode();
                self.message = Some(format!("reference view: {}", r.mode_label()));
            }
            KeyCode::KeyH => {
                r.visible = !r.visible;
                self.message = Some(format!("reference view: {}", r.mode_label()));
            }
            KeyCode::BracketLeft => r.nudge_opacity(-0.1),
            KeyCode::BracketRight => r.nudge_opacity(0.1),
            // Shift: one frame column at a time.
            KeyCode::Comma | KeyCode::Period => {
                let sign = if code == KeyCode::Comma { -1.0 } else { 1.0 };
                let step = if fine { 1.0 / self.view.width.max(1) as f32 } else { 1.0 / 32.0 };
                r.nudge_wipe(sign * step);
            }
            _ => {}
        }
    }

    fn redraw(&mut self) -> Result<()> {
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f64().min(0.25);
        self.last = now;
        self.frame_ms = self.frame_ms * 0.9 + dt * 1000.0 * 0.1;
        self.move_camera(now);
        let tic = self.tic();
        let pose = self.fly.pose.native(self.scene.axes);
        let Some((cw, ch)) = self.win.as_ref().map(|w| w.target.size()) else {
            return Ok(());
        };
        let ((fw, fh), fov, rect) = self.layout(cw, ch);
        let game = self.game();
        self.view.width = fw;
        self.view.height = fh;
        self.view.fov_deg = fov;
        self.display_rect = rect;
        let wipe_x = self.wipe_x();
        let Some(w) = &mut self.win else { return Ok(()) };
        self.scene.animator.state_at(tic, &mut w.frame_state);
        w.renderer.set_state(&w.frame_state);
        w.renderer.render(&w.gpu, &self.fly.pose, &self.view);
        // With a reference shown, the frame is read back and composed on the CPU.
        let mut composed = false;
        if let Some(r) = self.reference.as_mut().filter(|r| r.visible) {
            let image = w.renderer.read_image(&w.gpu)?;
            let picture = r.process(&image, game.as_ref());
            w.upload_composite(&picture);
            composed = true;
        }

        let Some(frame) = w.target.next_frame(&w.gpu) else {
            return Ok(());
        };
        let target = frame.texture().create_view(&Default::default());

        let title = format!("{} ({})", self.scene.name, self.scene.game.name());
        let info = OverlayInfo {
            title: &title,
            frame_ms: self.frame_ms,
            position: pose.position,
            angle: pose.angle,
            pitch: pose.pitch,
            speed: self.fly.speed,
            tic,
            captured: self.captured,
            message: self.message.as_deref(),
            error: self.error.as_deref(),
            game_screen: game.map(|g| {
                let aspect = if (g.display_aspect - 4.0 / 3.0).abs() < 1e-9 {
                    "4:3".to_string()
                } else {
                    format!("{:.3}", g.display_aspect)
                };
                format!("{}x{} at {}°, shown {aspect}", g.width, g.height, g.fov_deg)
            }),
            frame_size: (fw, fh),
        };
        let raw = w.egui_state.take_egui_input(&w.window);
        let mut actions = overlay::Actions::default();
        let show = self.show_overlay;
        let mut frozen = self.frozen;
        let (view, game_res, reference) = (&mut self.view, &mut self.game_res, &mut self.reference);
        let output = w.egui_ctx.run_pass(raw, |ctx| {
            if let Some(x) = wipe_x {
                let ppp = ctx.pixels_per_point();
                let x = x as f32 / ppp;
                let (top, bottom) = (rect[1] / ppp, (rect[1] + rect[3]) / ppp);
                let painter = ctx.layer_painter(egui::LayerId::background());
                let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 255, 255));
                painter.line_segment([egui::pos2(x, top), egui::pos2(x, bottom)], stroke);
            }
            if show {
                let controls = Controls {
                    view: &mut *view,
                    game_res: &mut *game_res,
                    frozen: &mut frozen,
                    reference: reference.as_mut(),
                };
                actions = overlay::draw(ctx, &info, controls);
            }
        });
        w.egui_state.handle_platform_output(&w.window, output.platform_output);
        let ppp = output.pixels_per_point;
        let jobs = w.egui_ctx.tessellate(output.shapes, ppp);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: {
                let (w, h) = w.target.size();
                [w, h]
            },
            pixels_per_point: ppp,
        };
        let mut textures_delta = output.textures_delta;
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                w.egui_renderer.update_texture(&w.gpu.device, &w.gpu.queue, *id, delta);
            }
        }
        // A frame the CPU drew whole, with nothing over it (the overlay and markers hidden),
        // goes to the window as it is when the window is presented from the CPU.
        let direct = match w.renderer.cpu_image().filter(|_| jobs.is_empty() && !composed) {
            Some(pixels) => {
                let size = w.renderer.target_size().unwrap_or_default();
                let bgra = w.renderer.is_bgra();
                w.target.present_pixels(&w.gpu, &w.window, size, pixels, bgra)?
            }
            None => false,
        };
        if !direct {
            let mut encoder = w.gpu.device.create_command_encoder(&Default::default());
            let extra = w.egui_renderer.update_buffers(
                &w.gpu.device,
                &w.gpu.queue,
                &mut encoder,
                &jobs,
                &screen,
            );
            // A frame that fills the window is copied in; the overlay is drawn over it.
            let copied = !composed && w.renderer.copy_to(&mut encoder, frame.texture());
            {
                let mut pass =
                    render::present_pass(&mut encoder, &target, copied).forget_lifetime();
                let source = match (&w.composite, composed) {
                    (Some((_, view, size)), true) => Some((view, *size)),
                    _ if copied => None,
                    _ => w.renderer.color_view().zip(w.renderer.target_size()),
                };
                if let Some((src, size)) = source {
                    w.presenter.draw(&w.gpu.device, &w.gpu.queue, &mut pass, src, size, rect);
                }
                w.egui_renderer.render(&mut pass, &jobs, &screen);
            }
            w.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
            w.target.present(&w.gpu, &w.window, frame)?;
        }
        for id in &textures_delta.free {
            w.egui_renderer.free_texture(id);
        }
        // Applied above; egui insists deltas are consumed explicitly.
        textures_delta.clear();
        self.set_frozen(frozen);
        if actions.next_map {
            self.cycle_map(1);
        }
        if actions.bookmark {
            self.bookmark();
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
                w.target.resize(&w.gpu, size.width, size.height);
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor = (position.x, position.y);
                if self.dragging_wipe {
                    self.drag_wipe_to(position.x);
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Released,
                button: MouseButton::Left,
                ..
            } => self.dragging_wipe = false,
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } if !egui_used && !self.captured && !w.egui_ctx.egui_wants_pointer_input() => {
                // Near the wipe divider a click drags it; elsewhere it captures the mouse.
                match self.wipe_x() {
                    Some(x) if (self.cursor.0 - x).abs() <= 12.0 => {
                        self.dragging_wipe = true;
                        self.drag_wipe_to(self.cursor.0);
                    }
                    _ => self.set_captured(true),
                }
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
            WindowEvent::DroppedFile(path) => self.open_dropped(path),
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw() {
                    self.show_error(format!("{e:#}"));
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

/// Whether `path` is a PNG file (by its signature).
fn is_png(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && head == *b"\x89PNG\r\n\x1a\n"
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

#[cfg(test)]
#[path = "viewer_tests.rs"]
mod tests;
