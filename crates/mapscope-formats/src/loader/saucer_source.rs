//! Attack of the Saucerman levels as a [`LevelSource`]: the `Saucerdata.pak` package (also
//! renamed), the unpacked game folder (`LEVELS/` + `maps/`, which the game falls back to
//! without the package), or a single `LEVELS/<x>.wad` or `maps/<x>.map` with its partner.

use std::fs;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::saucer::pak::{pair_levels, LevelFiles};
use crate::formats::saucer::wad::{LUT1_SIZE, LUT2_SIZE, WAD_VERSION};
use crate::formats::saucer::{build_scene, Pak, SaucerLevel};
use crate::scene::{Game, Scene};

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// How much of a zip's start and end to search for the game's `LEVELS/` folder when the name
/// does not say: member names sit in the local headers (start) and in the central directory
/// (end), so a package whose first megabyte is bitmaps and sounds is still found by its end.
const ZIP_SNIFF: u64 = 1 << 20;

pub fn detect(path: &Path, head: &[u8]) -> bool {
    if path.is_dir() {
        return game_folder(path).is_some() || game_package(path).is_some();
    }
    if head.starts_with(b"SUCK") {
        return true;
    }
    if head.starts_with(ZIP_MAGIC) || has_ext(path, "pak") {
        return has_ext(path, "pak") || holds_levels(path);
    }
    has_ext(path, "wad")
        && !head.starts_with(b"IWAD")
        && !head.starts_with(b"PWAD")
        && wad_version_byte(path) == Some(WAD_VERSION)
}

pub fn open(paths: &[PathBuf], _opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let Some(path) = paths.first() else { bail!("no level file given") };
    if path.is_dir() {
        if let Some((levels_dir, maps_dir)) = game_folder(path) {
            return Ok(Box::new(FolderSource::new(path, &levels_dir, &maps_dir)?));
        }
        let Some(pak) = game_package(path) else {
            bail!("{}: no LEVELS/ and maps/ folders and no .pak package", path.display());
        };
        return Ok(Box::new(PakSource::open(&pak)?));
    }
    let head = sniff(path, 16)?;
    if head.starts_with(ZIP_MAGIC) {
        return Ok(Box::new(PakSource::open(path)?));
    }
    Ok(Box::new(FolderSource::single(path, head.starts_with(b"SUCK"))?))
}

/// Picks a level by [`Game::pick_map`]'s rule; the first level by default.
fn choose<'a>(levels: &'a [LevelFiles], map: Option<&str>, origin: &str) -> Result<&'a LevelFiles> {
    match map {
        None => levels
            .first()
            .with_context(|| format!("{origin}: no levels (LEVELS/<x>.wad with maps/<x>.map)")),
        Some(m) => {
            let names: Vec<String> = levels.iter().map(|l| l.name.clone()).collect();
            match Game::Saucerman.pick_map(&names, m) {
                Ok(i) => levels.get(i).with_context(|| format!("{origin}: no level {m}")),
                Err(e) => bail!("{origin}: {e}"),
            }
        }
    }
}

fn load_scene(
    level: &LevelFiles,
    origin: &str,
    wad: &[u8],
    map: &[u8],
    notes: &[String],
) -> Result<Scene> {
    let wad_name = format!("{origin}:{}", level.wad);
    let map_name = format!("{origin}:{}", level.map);
    let parsed = SaucerLevel::load(&level.name, &wad_name, wad, &map_name, map)?;
    let mut scene = build_scene(&parsed);
    scene.facts.notes.splice(0..0, notes.iter().cloned());
    Ok(scene)
}

pub struct PakSource {
    origin: String,
    pak: Pak,
    levels: Vec<LevelFiles>,
}

impl PakSource {
    fn open(path: &Path) -> Result<PakSource> {
        let origin = path.display().to_string();
        let data = fs::read(path).with_context(|| format!("reading {origin}"))?;
        let pak = Pak::parse(&origin, data)?;
        let levels = pak.levels();
        Ok(PakSource { origin, pak, levels })
    }
}

impl LevelSource for PakSource {
    fn game(&self) -> Game {
        Game::Saucerman
    }

    fn maps(&self) -> Vec<String> {
        self.levels.iter().map(|l| l.name.clone()).collect()
    }

    fn build(&self, map: Option<&str>) -> Result<Scene> {
        let level = choose(&self.levels, map, &self.origin)?;
        let wad = self.pak.read(&level.wad)?;
        let map_bytes = self.pak.read(&level.map)?;
        load_scene(level, &self.origin, &wad, &map_bytes, &self.pak.notes)
    }
}

/// Loose files: a game folder, or one WAD/map pair found from either file.
pub struct FolderSource {
    root: PathBuf,
    levels: Vec<LevelFiles>,
}

impl FolderSource {
    fn new(root: &Path, levels_dir: &str, maps_dir: &str) -> Result<FolderSource> {
        let mut names = Vec::new();
        for dir in [levels_dir, maps_dir] {
            let entries = fs::read_dir(root.join(dir))
                .with_context(|| format!("listing {}", root.join(dir).display()))?;
            let mut files: Vec<String> = entries
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .collect();
            files.sort();
            names.extend(files.into_iter().map(|f| format!("{dir}/{f}")));
        }
        Ok(FolderSource { root: root.to_path_buf(), levels: pair_levels(&names) })
    }

    /// The folder above a `LEVELS/x.wad` or `maps/x.map`, restricted to that one level.
    fn single(path: &Path, is_map: bool) -> Result<FolderSource> {
        let base = path
            .file_stem()
            .and_then(|s| s.to_str())
            .context("level file name is not valid text")?;
        // Made absolute, so that the folder above `maps` is found for `maps/x.map` or `x.map`
        // given from inside it too.
        let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let dir = full.parent().unwrap_or(Path::new("."));
        let root = dir.parent().unwrap_or(Path::new("."));
        let (partner_dir, ext) = if is_map { ("levels", "wad") } else { ("maps", "map") };
        let partner = find_child(root, |p| file_name_is(p, partner_dir))
            .and_then(|d| find_child(&d, |p| stem_is(p, base) && has_ext(p, ext)))
            .with_context(|| {
                format!("{}: no partner {partner_dir}/{base}.{ext} next to it (a level needs both files)", path.display())
            })?;
        let (wad, map) = if is_map { (partner, full.clone()) } else { (full.clone(), partner) };
        let rel = |p: &Path| p.strip_prefix(root).unwrap_or(p).to_string_lossy().into_owned();
        let level = LevelFiles { name: base.to_string(), wad: rel(&wad), map: rel(&map) };
        Ok(FolderSource { root: root.to_path_buf(), levels: vec![level] })
    }
}

impl LevelSource for FolderSource {
    fn game(&self) -> Game {
        Game::Saucerman
    }

    fn maps(&self) -> Vec<String> {
        self.levels.iter().map(|l| l.name.clone()).collect()
    }

    fn build(&self, map: Option<&str>) -> Result<Scene> {
        let origin = self.root.display().to_string();
        let level = choose(&self.levels, map, &origin)?;
        let read = |rel: &str| {
            let p = self.root.join(rel);
            fs::read(&p).with_context(|| format!("reading {}", p.display()))
        };
        load_scene(level, &origin, &read(&level.wad)?, &read(&level.map)?, &[])
    }
}

/// The names of the `LEVELS` and `maps` folders (any case) inside `dir`, when both exist.
fn game_folder(dir: &Path) -> Option<(String, String)> {
    let name_of = |want: &str| {
        find_child(dir, |p| p.is_dir() && file_name_is(p, want))
            .and_then(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_string))
    };
    Some((name_of("levels")?, name_of("maps")?))
}

/// A zip in `dir` that holds the game's `LEVELS/` folder (`Saucerdata.pak`).
fn game_package(dir: &Path) -> Option<PathBuf> {
    find_child(dir, |p| p.is_file() && has_ext(p, "pak") && holds_levels(p))
}

/// A zip that names the game's `LEVELS/` folder (any case) in its first or last megabyte.
fn holds_levels(path: &Path) -> bool {
    let names_levels = |b: &[u8]| contains(&b.to_ascii_uppercase(), b"LEVELS/");
    sniff(path, ZIP_SNIFF).is_ok_and(|b| b.starts_with(ZIP_MAGIC) && names_levels(&b))
        || sniff_tail(path, ZIP_SNIFF).is_ok_and(|b| names_levels(&b))
}

fn sniff_tail(path: &Path, n: u64) -> Result<Vec<u8>> {
    let mut f = fs::File::open(path)?;
    let len = f.metadata()?.len();
    f.seek(SeekFrom::Start(len.saturating_sub(n)))?;
    let mut out = Vec::new();
    f.take(n).read_to_end(&mut out)?;
    Ok(out)
}

fn find_child(dir: &Path, pred: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| pred(p))
        .collect();
    found.sort();
    found.into_iter().next()
}

fn file_name_is(p: &Path, name: &str) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(name))
}

fn stem_is(p: &Path, stem: &str) -> bool {
    p.file_stem().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(stem))
}

fn has_ext(p: &Path, ext: &str) -> bool {
    p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

fn sniff(path: &Path, n: u64) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    fs::File::open(path)?.take(n).read_to_end(&mut out)?;
    Ok(out)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// The WAD header's version byte, which follows the two lookup tables.
fn wad_version_byte(path: &Path) -> Option<u8> {
    let mut f = fs::File::open(path).ok()?;
    f.seek(SeekFrom::Start((LUT1_SIZE + LUT2_SIZE + 3) as u64)).ok()?;
    let mut b = [0u8; 1];
    f.read_exact(&mut b).ok()?;
    Some(b[0])
}
