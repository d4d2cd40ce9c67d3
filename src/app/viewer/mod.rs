//! The interactive viewer's state: the level opened from the command line (or dropped on the
//! window, or reached with N/P), the fly camera and animation clock, the game-resolution
//! layout and the reference screenshot laid over the frame. Its concerns live beside it:
//! `window` (window and GPU set-up, drawing a frame), `input` (events and key bindings),
//! `capture` (screenshots and bookmarks), `persist` (the settings file and the map picker),
//! `inspect` (the inspector and find and go) and `automap` (Tab: the level from above).

mod automap;
mod capture;
mod input;
mod inspect;
mod path;
mod persist;
mod walk;
mod window;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use winit::event_loop::EventLoop;

use super::compare_view::ReferenceView;
use super::game_view;
use super::overlay::OverlayRefresh;
use super::reference;
use super::{FlyCamera, MoveKeys};
use crate::loader::{self, LevelSource, OpenOptions};
use crate::render::{self, CameraRequest, RendererChoice, SceneRenderer, ViewSettings};
use crate::scene::{GameScreen, Scene};
use window::WindowState;

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
    /// The reference shows the game's status bar or interface below a smaller view.
    pub reference_hud: bool,
    /// Start at the game's own resolution and field of view.
    pub game_res: bool,
    /// Start with the animation clock stopped at `--tic`.
    pub freeze: bool,
    /// Which way draws the frames.
    pub renderer: RendererChoice,
    /// The settings file: speed, overlay, window size and recent files come from it (the
    /// view's settings above are already the file's where the command line said nothing).
    pub settings: crate::app::settings::Store,
}

/// Opens the viewer window on `files` and runs until it is closed.
pub fn run_viewer(files: Vec<PathBuf>, options: OpenOptions, extra: ViewerOptions) -> Result<()> {
    let mut app = App::new(files, options, extra)?;
    let event_loop = EventLoop::new().context("opening the window system (is DISPLAY set?)")?;
    event_loop.run_app(&mut app).context("running the window")?;
    app.save_settings();
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

struct App {
    files: Vec<PathBuf>,
    /// Kept for levels dropped on the window.
    options: OpenOptions,
    source: Box<dyn LevelSource>,
    maps: Vec<String>,
    map_index: usize,
    scene: Scene,
    fly: FlyCamera,
    /// Walk mode's body, when on (Z).
    walk: Option<walk::WalkMode>,
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
    /// When the overlay is drawn anew (input, its figures' interval).
    overlay_refresh: OverlayRefresh,
    renderer: RendererChoice,
    /// A pick asked for (I, a right click): the frame pixel, taken after the next render.
    pick_at: Option<[u32; 2]>,
    /// The inspector's last pick.
    inspected: Option<crate::app::inspector::Inspected>,
    /// The find panel (J) and its list of the level's things.
    find: crate::app::find_panel::FindPanel,
    /// The settings file and the map picker.
    keep: persist::Keep,
    /// The automap (Tab) and its view.
    automap: automap::AutomapState,
    /// The camera path panel (F5) and its keyframes.
    path: crate::app::path_panel::PathPanel,
}

impl App {
    fn new(files: Vec<PathBuf>, options: OpenOptions, extra: ViewerOptions) -> Result<App> {
        let (source, scene) = open_level(&files, &options, extra.map.as_deref())?;
        let maps = source.maps();
        let pose = extra.camera.resolve(&scene)?;
        let map_index = maps.iter().position(|m| *m == scene.name).unwrap_or(0);
        let keep = persist::Keep::new(extra.settings);
        let fly = FlyCamera::new(pose, level_size(&scene)).scaled(keep.store.file.speed);
        let settings = extra.view;
        let mut reference = extra.reference.as_deref().map(ReferenceView::load).transpose()?;
        if let Some(r) = &mut reference {
            r.hud = extra.reference_hud;
        }
        let mut app = App {
            files,
            options,
            source,
            maps,
            map_index,
            scene,
            fly,
            walk: None,
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
            overlay_refresh: OverlayRefresh::default(),
            renderer: extra.renderer,
            fatal: None,
            show_overlay: keep.store.file.overlay,
            pick_at: None,
            inspected: None,
            find: crate::app::find_panel::FindPanel::default(),
            automap: automap::AutomapState::new(),
            keep,
            path: Default::default(),
        };
        app.find = crate::app::find_panel::FindPanel::for_scene(&app.scene, false);
        if let Some(r) = reference {
            app.set_reference(r);
        }
        app.begin_settings();
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

    /// A file or folder dropped on the window: a PNG is a reference screenshot, a Doom add-on
    /// (PWAD, PK3, mod folder) opens over the current level's IWAD, anything else is a level.
    fn open_dropped(&mut self, path: PathBuf) {
        if is_png(&path) {
            self.load_reference(&path);
        } else if let Some(files) = loader::stack_dropped(&self.files, &path) {
            self.load(files, None);
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
                Ok(mut r) => {
                    r.set_renderer(self.renderer, &w.gpu);
                    w.renderer = r;
                    w.frame_state = scene.animator.initial();
                }
                Err(e) => {
                    self.show_error(format!("{}: {e:#}", scene.name));
                    return false;
                }
            }
        }
        self.fly = FlyCamera::new(scene.spawn, level_size(&scene)).scaled(self.fly.scale);
        self.walk = None;
        self.find = crate::app::find_panel::FindPanel::for_scene(&scene, self.find.open);
        self.inspected = None;
        self.scene = scene;
        self.automap.level_changed();
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

    fn set_reference(&mut self, mut r: ReferenceView) {
        let (w, h) = r.size();
        let mut message = format!("reference {} ({w}x{h})", r.path.display());
        if !r.hud {
            let found = self.game().zip(self.status_bar());
            if found.is_some_and(|(g, bar)| r.shows_status_bar(&g, &bar)) {
                r.hud = true;
                message.push_str("; status bar found below the view (U)");
            }
        }
        if let Some(g) = self.game().filter(|g| r.matches_game(g)) {
            if !self.game_res {
                self.game_res = true;
                message.push_str(&format!("; game resolution {}x{} on", g.width, g.height));
            }
        }
        self.message = Some(message);
        self.reference = Some(r);
    }

    /// The game's status bar or interface picture from the level's files, which a reference
    /// screenshot may show below a smaller view.
    fn status_bar(&self) -> Option<crate::scene::HudPicture> {
        crate::loader::hud_picture(self.scene.game, &self.files).ok().flatten()
    }

    fn load_reference(&mut self, path: &std::path::Path) {
        match ReferenceView::load(path) {
            Ok(r) => self.set_reference(r),
            Err(e) => self.show_error(format!("reference: {e:#}")),
        }
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
}

/// Whether `path` is a PNG file (by its signature).
fn is_png(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && head == *b"\x89PNG\r\n\x1a\n"
}

#[cfg(test)]
mod tests;
