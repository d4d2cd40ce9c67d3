//! The viewer's settings file, kept as GZDoom keeps its ini and noclip.website its local
//! storage: speed, field of view, mode, toggles, overlay, window size and the recent file
//! sets, in one JSON object at `CONFIG/mapscope/settings.json` (CONFIG: `$XDG_CONFIG_HOME`,
//! else `~/.config`, on Linux and the BSDs; `~/Library/Application Support` on macOS;
//! `%APPDATA%` on Windows).
//!
//! What the file says is read once, at the start; options given on the command line win
//! for that run. When the viewer writes (at most once a second while settings change, and
//! at exit) it reads the file again and changes only the keys whose settings changed in the
//! viewer, so keys it does not know, values it could not read and anything another viewer
//! wrote meanwhile stay as they are; the recent list is the file's with this run's levels
//! put in front. It writes a temporary file beside it and renames it over it, so the file
//! is never half-written. A file that is not a JSON object (hand-broken) gives a warning and
//! the defaults, and is kept as `settings.json.broken` (or `.broken.2`, ...) when the
//! viewer next writes, never overwritten. `--no-config` neither reads nor writes it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

use crate::loader::OpenOptions;
use crate::render::RenderMode;

/// The file's name in mapscope's config folder.
pub const FILE_NAME: &str = "settings.json";

/// How many recent file sets are kept.
pub const RECENT_MAX: usize = 10;

/// Least time between two writes while settings keep changing (a window being resized).
const WRITE_INTERVAL: Duration = Duration::from_secs(1);

/// The smallest and largest window, in logical pixels, taken from the file.
const WINDOW_RANGE: std::ops::RangeInclusive<u32> = 64..=16384;

/// What the settings file holds (defaults where it holds nothing).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// The fly speed as a factor over each level's own speed (the mouse wheel's: 1.25 a
    /// notch), so that it means the same in Doom units, Marathon's and metres.
    pub speed: f64,
    /// Horizontal field of view in degrees (outside game resolution).
    pub fov: f64,
    pub mode: RenderMode,
    pub things: bool,
    pub sky: bool,
    pub wireframe: bool,
    pub markers: bool,
    pub game_res: bool,
    /// The overlay is shown (F1).
    pub overlay: bool,
    /// The overlay panel is open, not collapsed to its title bar.
    pub overlay_open: bool,
    /// The window's inner size in logical pixels.
    pub window: [u32; 2],
    /// The file sets opened last, newest first.
    pub recent: Vec<Recent>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            speed: 1.0,
            fov: 90.0,
            mode: RenderMode::Faithful,
            things: true,
            sky: true,
            wireframe: false,
            markers: true,
            game_res: false,
            overlay: true,
            overlay_open: true,
            window: [1280, 720],
            recent: Vec::new(),
        }
    }
}

/// A file set opened in the viewer, with the map shown last and how it was opened.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recent {
    pub files: Vec<PathBuf>,
    pub map: String,
    pub shapes: Option<PathBuf>,
    pub palette: Option<PathBuf>,
    pub vanilla: bool,
}

impl Recent {
    /// `files` at `map`, opened with `options`; paths made absolute (where the current folder
    /// is known), so that the entry reopens from anywhere.
    pub fn new(files: &[PathBuf], map: &str, options: &OpenOptions) -> Recent {
        Recent {
            files: files.iter().map(|f| absolute(f)).collect(),
            map: map.to_string(),
            shapes: options.shapes.as_deref().map(absolute),
            palette: options.palette.as_deref().map(absolute),
            vanilla: options.vanilla,
        }
    }

    pub fn options(&self) -> OpenOptions {
        OpenOptions {
            shapes: self.shapes.clone(),
            palette: self.palette.clone(),
            vanilla: self.vanilla,
        }
    }

    /// The same file set opened the same way (whatever the map).
    fn same_set(&self, other: &Recent) -> bool {
        (&self.files, &self.shapes, &self.palette, self.vanilla)
            == (&other.files, &other.shapes, &other.palette, other.vanilla)
    }

    /// "freedoom2.wad + mymap.wad", as the picker names the set.
    pub fn label(&self) -> String {
        let names: Vec<String> = self
            .files
            .iter()
            .map(|f| f.file_name().unwrap_or(f.as_os_str()).to_string_lossy().into_owned())
            .collect();
        names.join(" + ")
    }

    fn to_json(&self) -> Value {
        let mut v = json!({
            "files": self.files.iter().map(|f| f.to_string_lossy()).collect::<Vec<_>>(),
            "map": self.map,
        });
        if let Some(s) = &self.shapes {
            v["shapes"] = json!(s.to_string_lossy());
        }
        if let Some(p) = &self.palette {
            v["palette"] = json!(p.to_string_lossy());
        }
        if self.vanilla {
            v["vanilla"] = json!(true);
        }
        v
    }

    fn from_json(v: &Value) -> Option<Recent> {
        let files: Vec<PathBuf> = v
            .get("files")?
            .as_array()?
            .iter()
            .map(|f| f.as_str().filter(|s| !s.is_empty()).map(PathBuf::from))
            .collect::<Option<_>>()?;
        if files.is_empty() {
            return None;
        }
        let path = |key: &str| match v.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(p) => p.as_str().map(|s| Some(PathBuf::from(s))),
        };
        Some(Recent {
            files,
            map: match v.get("map") {
                None => String::new(),
                Some(m) => m.as_str()?.to_string(),
            },
            shapes: path("shapes")?,
            palette: path("palette")?,
            vanilla: match v.get("vanilla") {
                None => false,
                Some(b) => b.as_bool()?,
            },
        })
    }
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `entry` put first in `list` (an older entry of the same file set leaves), at most
/// [`RECENT_MAX`] kept.
pub fn push_recent(list: &mut Vec<Recent>, entry: Recent) {
    list.retain(|r| !r.same_set(&entry));
    list.insert(0, entry);
    list.truncate(RECENT_MAX);
}

/// One key of the file: its name and the value the settings give it.
type Key = (&'static str, fn(&Settings) -> Value);

/// The keys written (serde_json keeps an object's keys sorted); `recent` is merged on its own.
const KEYS: &[Key] = &[
    ("speed", |s| json!(s.speed)),
    ("fov", |s| json!(s.fov)),
    ("mode", |s| json!(mode_name(s.mode))),
    ("things", |s| json!(s.things)),
    ("sky", |s| json!(s.sky)),
    ("wireframe", |s| json!(s.wireframe)),
    ("markers", |s| json!(s.markers)),
    ("game_res", |s| json!(s.game_res)),
    ("overlay", |s| json!(s.overlay)),
    ("overlay_open", |s| json!(s.overlay_open)),
    ("window", |s| json!(s.window)),
];

fn mode_name(mode: RenderMode) -> &'static str {
    match mode {
        RenderMode::Faithful => "faithful",
        RenderMode::Smooth => "smooth",
    }
}

impl Settings {
    /// The settings a JSON object gives, with a warning for each value that cannot be read
    /// (that setting keeps its default); keys it does not know are left alone.
    pub fn from_json(object: &Map<String, Value>) -> (Settings, Vec<String>) {
        let mut s = Settings::default();
        let mut warnings = Vec::new();
        for (key, value) in object {
            let bad = |what: &str| format!("\"{key}\": {value} is not {what}");
            let flag = |target: &mut bool, warnings: &mut Vec<String>| match value.as_bool() {
                Some(b) => *target = b,
                None => warnings.push(bad("true or false")),
            };
            match key.as_str() {
                "speed" => match value.as_f64().filter(|v| *v > 0.0 && v.is_finite()) {
                    Some(v) => s.speed = v,
                    None => warnings.push(bad("a speed factor above 0")),
                },
                "fov" => match value.as_f64().filter(|v| *v > 1.0 && *v < 179.0) {
                    Some(v) => s.fov = v,
                    None => warnings.push(bad("a field of view (1..179 degrees)")),
                },
                "mode" => match value.as_str().and_then(|m| m.parse().ok()) {
                    Some(m) => s.mode = m,
                    None => warnings.push(bad("a mode (\"faithful\" or \"smooth\")")),
                },
                "things" => flag(&mut s.things, &mut warnings),
                "sky" => flag(&mut s.sky, &mut warnings),
                "wireframe" => flag(&mut s.wireframe, &mut warnings),
                "markers" => flag(&mut s.markers, &mut warnings),
                "game_res" => flag(&mut s.game_res, &mut warnings),
                "overlay" => flag(&mut s.overlay, &mut warnings),
                "overlay_open" => flag(&mut s.overlay_open, &mut warnings),
                "window" => match window_size(value) {
                    Some(size) => s.window = size,
                    None => warnings.push(bad("a window size [WIDTH, HEIGHT] (64..16384 each)")),
                },
                "recent" => match value.as_array() {
                    Some(list) => {
                        for (i, v) in list.iter().enumerate() {
                            match Recent::from_json(v) {
                                Some(r) if s.recent.len() < RECENT_MAX => s.recent.push(r),
                                Some(_) => {}
                                None => warnings.push(format!(
                                    "\"recent\" entry {}: {v} is not {{\"files\": [...], \"map\": ...}}",
                                    i + 1
                                )),
                            }
                        }
                    }
                    None => warnings.push(bad("a list")),
                },
                _ => {}
            }
        }
        (s, warnings)
    }

    /// The whole settings as a JSON object.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut object: Map<String, Value> =
            KEYS.iter().map(|(key, get)| (key.to_string(), get(self))).collect();
        object.insert("recent".into(), recent_json(&self.recent));
        object
    }
}

fn window_size(value: &Value) -> Option<[u32; 2]> {
    let a = value.as_array().filter(|a| a.len() == 2)?;
    let side = |v: &Value| v.as_u64().and_then(|n| u32::try_from(n).ok());
    let size = [side(&a[0])?, side(&a[1])?];
    size.iter().all(|n| WINDOW_RANGE.contains(n)).then_some(size)
}

fn recent_json(list: &[Recent]) -> Value {
    Value::Array(list.iter().map(Recent::to_json).collect())
}

/// The folder mapscope keeps its settings in: `mapscope` in the platform's config folder.
pub fn config_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("mapscope"))
}

/// What reading the file found.
enum Read {
    /// No file: the defaults, and the file is created when written.
    Missing,
    Object(Map<String, Value>),
    /// Not readable or not a JSON object: the reason.
    Broken(String),
}

fn read(path: &Path) -> Read {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Broken(e.to_string()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(object)) => Read::Object(object),
        Ok(other) => Read::Broken(format!("{} is not a JSON object", kind(&other))),
        Err(e) => Read::Broken(format!("not valid JSON ({e})")),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The viewer's settings file: what it said at the start, what the viewer showed then, and
/// writing back what changed.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// `None`: nothing is read or written (`--no-config`, or no config folder known).
    path: Option<PathBuf>,
    /// What the file said (defaults where it said nothing usable).
    pub file: Settings,
    /// What could not be read in it, as logged (the viewer shows them too).
    pub warnings: Vec<String>,
    /// The settings the viewer started with (the file's, with the command line's over them):
    /// a setting still at its value is not written.
    start: Settings,
    /// Keys written by this run: written again whatever their value.
    touched: Vec<&'static str>,
    /// The file sets this run opened, newest first (each set once, with its last map).
    opened: Vec<Recent>,
    /// The recent list shown: the file's with this run's put first.
    recent: Vec<Recent>,
    /// The settings and opened sets last written (or found at the start).
    written: Option<(Settings, Vec<Recent>)>,
    last_write: Option<Instant>,
}

impl Store {
    /// No settings file: defaults, nothing written (`--no-config`).
    pub fn disabled() -> Store {
        Store::default()
    }

    /// The settings file in the platform's config folder; problems are logged as warnings.
    pub fn open() -> Store {
        match config_dir() {
            Some(dir) => Store::at(dir.join(FILE_NAME)),
            None => {
                log::warn!("no config folder known (is HOME set?): settings are not kept");
                Store::disabled()
            }
        }
    }

    /// The settings file at `path`; problems are logged as warnings.
    pub fn at(path: PathBuf) -> Store {
        let (file, warnings) = match read(&path) {
            Read::Missing => (Settings::default(), Vec::new()),
            Read::Object(object) => Settings::from_json(&object),
            Read::Broken(why) => (
                Settings::default(),
                vec![format!(
                    "{why}; using the default settings (the viewer keeps this file as \
                     {FILE_NAME}.broken and writes a new one)"
                )],
            ),
        };
        let warnings: Vec<String> =
            warnings.iter().map(|w| format!("settings file {}: {w}", path.display())).collect();
        for w in &warnings {
            log::warn!("{w}");
        }
        log::info!("settings file {}", path.display());
        let recent = file.recent.clone();
        let start = file.clone();
        Store { path: Some(path), start, file, warnings, recent, ..Store::default() }
    }

    /// Where the file is; `None` when settings are not kept.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The recent file sets, newest first.
    pub fn recent(&self) -> &[Recent] {
        &self.recent
    }

    /// The viewer started with `settings` (its `recent` is not looked at): settings left at
    /// these values are not written.
    pub fn begin(&mut self, settings: &Settings) {
        self.start = settings.clone();
        self.written = Some((settings.clone(), Vec::new()));
    }

    /// `entry` was opened (or its map changed): it goes first in the recent list.
    pub fn opened(&mut self, entry: Recent) {
        if self.opened.first() == Some(&entry) {
            return;
        }
        push_recent(&mut self.opened, entry.clone());
        push_recent(&mut self.recent, entry);
    }

    /// Called every frame with what the viewer shows: writes the file when something
    /// changed, at most once every [`WRITE_INTERVAL`].
    pub fn tick(&mut self, now: Instant, settings: &Settings) {
        if self.path.is_none() || !self.changed(settings) {
            return;
        }
        if self.last_write.is_none_or(|t| now.duration_since(t) >= WRITE_INTERVAL) {
            self.save(settings);
            self.last_write = Some(now);
        }
    }

    fn changed(&self, settings: &Settings) -> bool {
        match &self.written {
            Some((s, opened)) => {
                !(s.without_recent() == settings.without_recent() && *opened == self.opened)
            }
            None => true,
        }
    }

    /// Writes what changed since the start, if anything changed since the last write (at
    /// exit, and from [`Self::tick`]). A failure is logged as a warning.
    pub fn save(&mut self, settings: &Settings) {
        let Some(path) = self.path.clone() else { return };
        if !self.changed(settings) {
            return;
        }
        if let Err(e) = self.write(&path, settings) {
            log::warn!("settings file {}: not saved: {e:#}", path.display());
        }
        // Written or not, not tried again until something changes.
        self.written = Some((settings.clone(), self.opened.clone()));
    }

    fn write(&mut self, path: &Path, settings: &Settings) -> anyhow::Result<()> {
        let mut object = match read(path) {
            Read::Missing => Map::new(),
            Read::Object(object) => object,
            Read::Broken(why) => {
                let kept = keep_broken(path)?;
                log::warn!(
                    "settings file {}: {why}; kept it as {} and wrote a new one",
                    path.display(),
                    kept.display()
                );
                Map::new()
            }
        };
        for (key, get) in KEYS {
            let now = get(settings);
            if now != get(&self.start) || self.touched.contains(key) {
                object.insert(key.to_string(), now);
                if !self.touched.contains(key) {
                    self.touched.push(key);
                }
            }
        }
        if !self.opened.is_empty() {
            let mut list = match object.get("recent") {
                Some(v) => {
                    let only = Map::from_iter([("recent".to_string(), v.clone())]);
                    Settings::from_json(&only).0.recent
                }
                None => Vec::new(),
            };
            for entry in self.opened.iter().rev() {
                push_recent(&mut list, entry.clone());
            }
            object.insert("recent".into(), recent_json(&list));
        }
        let text = serde_json::to_string_pretty(&Value::Object(object))?;
        write_atomically(path, &text)
    }
}

impl Settings {
    fn without_recent(&self) -> Settings {
        Settings { recent: Vec::new(), ..self.clone() }
    }
}

/// Renames the unreadable file at `path` to the first free `NAME.broken`, `NAME.broken.2`,
/// ...; returns the new name.
fn keep_broken(path: &Path) -> anyhow::Result<PathBuf> {
    use anyhow::Context;
    let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
    for n in 1..1000 {
        let suffix = if n == 1 { ".broken".to_string() } else { format!(".broken.{n}") };
        let kept = path.with_file_name(format!("{name}{suffix}"));
        if !kept.exists() {
            std::fs::rename(path, &kept)
                .with_context(|| format!("keeping the unreadable file as {}", kept.display()))?;
            return Ok(kept);
        }
    }
    anyhow::bail!("too many {name}.broken files beside it: the unreadable file is left alone")
}

/// Writes `text` to `path` through a temporary file beside it renamed over it, so that a
/// reader (another viewer) sees the old file or the new one, never half of one.
fn write_atomically(path: &Path, text: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let tmp = path.with_file_name(format!("{FILE_NAME}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, format!("{text}\n"))
        .with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| {
        let _ = std::fs::remove_file(&tmp);
        format!("renaming {} to {}", tmp.display(), path.display())
    })
}

#[cfg(test)]
mod tests;
