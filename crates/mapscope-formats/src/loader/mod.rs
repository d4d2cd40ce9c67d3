//! Opens level files of any supported format: detects the format from the files given and
//! hands back a source that lists maps and builds scenes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::scene::{Game, HudPicture, Scene};

mod carma2_source;
mod doom_source;
mod marathon_source;
mod saturn_source;
mod saucer_source;

/// Facts about one map for `info`, in the format's native terms.
#[derive(Clone, Debug, Default)]
pub struct MapInfo {
    pub map: String,
    pub format: String,
    pub counts: Vec<(String, u64)>,
    /// Descriptions such as ("map format", "Hexen").
    pub details: Vec<(String, String)>,
    pub triangles: u64,
    pub textures_used: Vec<String>,
    /// Native bounds (min, max).
    pub bounds: Option<([f64; 3], [f64; 3])>,
    /// Native spawn position and facing (degrees).
    pub spawn: Option<([f64; 3], f64)>,
    pub notes: Vec<String>,
}

/// A file (or set of files) holding one or more maps.
pub trait LevelSource {
    /// The game the files are from.
    fn game(&self) -> Game;
    /// Format name shown to users.
    fn format(&self) -> &'static str {
        self.game().name()
    }
    /// Map names in file order.
    fn maps(&self) -> Vec<String>;
    /// What `list` prints after a map's name (its format, say); `None` for nothing.
    fn map_summary(&self, _map: &str) -> Option<String> {
        None
    }
    /// Builds the scene of `map` (default: the first map), picked by [`Game::pick_map`]'s
    /// rule.
    fn build(&self, map: Option<&str>) -> Result<Scene>;
}

/// The picture `game` draws below its view (Doom's status bar), from the level's `paths`, when
/// the game has one and the files hold it.
pub fn hud_picture(game: Game, paths: &[PathBuf]) -> Result<Option<HudPicture>> {
    match game {
        Game::Doom => Ok(crate::formats::doom::graphics::status_bar::status_bar(paths)?),
        _ => Ok(None),
    }
}

/// Files beside the level that some formats need, from the command line.
#[derive(Clone, Debug, Default)]
pub struct OpenOptions {
    /// Marathon: the Shapes file (default: one found beside the map).
    pub shapes: Option<PathBuf>,
    /// Carmageddon 2: the palette pixelmap (default: one found beside the files).
    pub palette: Option<PathBuf>,
    /// Doom: vanilla's rules, as Chocolate Doom draws: Boom's and MBF's line specials (light
    /// transfers, scrollers, fake flats, translucency, sky transfers) are ignored.
    pub vanilla: bool,
}

type Detect = fn(&Path, &[u8]) -> bool;
type Open = fn(&[PathBuf], &OpenOptions) -> Result<Box<dyn LevelSource>>;

/// Formats in the order they are asked; `head` is the first 16 bytes of the first path
/// (empty for a folder).
const DETECTORS: &[(&str, Detect, Open)] = &[
    ("Doom IWAD/PWAD/PK3/PK7/mod folder", doom_source::detect, doom_source::open),
    ("Marathon scenario wad", marathon_source::detect, marathon_source::open),
    ("Carmageddon 2 TWT/ACT/DAT", carma2_source::detect, carma2_source::open),
    ("Saturn Quake .LEV", saturn_source::detect, saturn_source::open),
    ("Saucerman pak/wad/map/game folder", saucer_source::detect, saucer_source::open),
];

/// Opens `paths` (the first decides the format; Doom takes extra PWADs and PK3s after the
/// IWAD).
pub fn open(paths: &[PathBuf], opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let Some(first) = paths.first() else {
        bail!("no level file given");
    };
    let head = if first.is_dir() { Vec::new() } else { read_head(first)? };
    for (_, detect, open) in DETECTORS {
        if detect(first, &head) {
            return open(paths, opts);
        }
    }
    if first.is_dir() {
        use crate::formats::doom::archive::folder;
        bail!(
            "{}: a folder, but neither a GZDoom mod (none of {}) nor a Saucerman game folder \
             (LEVELS/ and maps/, or its .pak){}",
            folder::folder_name(first),
            folder::MOD_FOLDER_SIGNS,
            folder::mods_inside_hint(first)
        );
    }
    let names: Vec<&str> = DETECTORS.iter().map(|d| d.0).collect();
    bail!("{}: unrecognised file format (supported: {})", first.display(), names.join(", "))
}

/// The files to open when `dropped` is dropped on a level opened from `current`: a Doom
/// add-on (a PWAD, a PK3 or PK7, a mod folder) dropped on a level whose first file is an IWAD
/// opens over that IWAD, as GZDoom loads `-file` over `-iwad`; `None` when `dropped` is a
/// level of its own.
pub fn stack_dropped(current: &[PathBuf], dropped: &Path) -> Option<Vec<PathBuf>> {
    let iwad = current.first().filter(|f| doom_source::is_iwad(f))?;
    doom_source::is_addon(dropped).then(|| vec![iwad.clone(), dropped.to_path_buf()])
}

fn read_head(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut head = vec![0u8; 16];
    let n = f.read(&mut head).with_context(|| format!("reading {}", path.display()))?;
    head.truncate(n);
    Ok(head)
}

/// Summarises a built scene for `info`.
pub fn map_info(scene: &Scene) -> MapInfo {
    let bounds = scene.bounds().map(|(lo, hi)| {
        let a = scene.axes.to_native(lo);
        let b = scene.axes.to_native(hi);
        let mn = a.min(b);
        let mx = a.max(b);
        ([mn.x as f64, mn.y as f64, mn.z as f64], [mx.x as f64, mx.y as f64, mx.z as f64])
    });
    let p = scene.axes.to_native_f64(scene.spawn.pos);
    MapInfo {
        map: scene.name.clone(),
        format: scene.game.name().to_string(),
        counts: scene.facts.counts.clone(),
        details: scene.facts.details.clone(),
        triangles: scene.triangle_count() as u64,
        textures_used: scene.facts.textures_used.clone(),
        bounds,
        spawn: Some(([p.x, p.y, p.z], scene.axes.yaw_to_native(scene.spawn.yaw))),
        notes: scene.facts.notes.clone(),
    }
}
