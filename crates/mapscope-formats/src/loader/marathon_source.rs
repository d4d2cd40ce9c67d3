//! Marathon scenario wads (plain, MacBinary II, AppleSingle) with their Shapes file as a
//! [`LevelSource`].

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::marathon::container::{self, Container};
use crate::formats::marathon::wad::{HEADER_SIZE, MAX_DATA_VERSION, MAX_WAD_VERSION};
use crate::formats::marathon::{build, level_names, Level, ShapesFile, Wad};
use crate::scene::{Game, Scene};

pub struct MarathonSource {
    name: String,
    bytes: Vec<u8>,
    shapes: Option<(String, Vec<u8>)>,
    /// Why the level has flat colours, when it does.
    shapes_note: Option<String>,
}

/// A wad header (after any MacBinary/AppleSingle wrapper): a non-empty NUL-terminated text
/// name, chunk and entry sizes the engine knows, at least one entry. Versions and offsets are
/// left to the parser, so a damaged wad gets its own error rather than "unrecognised".
pub fn detect(path: &Path, head: &[u8]) -> bool {
    if head.len() < 6 || head.starts_with(b"IWAD") || head.starts_with(b"PWAD") {
        return false;
    }
    let Ok(start) = read_start(path, 4096) else {
        return false;
    };
    // Only the start of the file is read: the wrapper's fork length is checked on open.
    let (container, offset) = container::peek(&start.bytes);
    let Some(h) = start.bytes.get(offset..offset.saturating_add(HEADER_SIZE)) else {
        // Too short for a header: still claim what looks like one, so the error says why.
        return container == Container::Plain && looks_like_truncated_header(head);
    };
    let name = &h[4..68];
    let name_ok = name[0].is_ascii_graphic()
        && name.iter().position(|&b| b == 0).is_some_and(|end| {
            name[..end].iter().all(|&b| b.is_ascii_graphic() || b == b' ' || b >= 0x80)
        });
    let version = u16::from_be_bytes([h[0], h[1]]);
    let count = u16::from_be_bytes([h[76], h[77]]);
    let sizes_ok = version < 2
        || (matches!(u16::from_be_bytes([h[80], h[81]]), 0 | 16)
            && matches!(u16::from_be_bytes([h[82], h[83]]), 0 | 10));
    name_ok && count > 0 && sizes_ok
}

/// Known wad and data versions followed by the start of a text name.
fn looks_like_truncated_header(head: &[u8]) -> bool {
    head.len() >= 6
        && head[0] == 0
        && head[1] as u16 <= MAX_WAD_VERSION
        && head[2] == 0
        && head[3] as u16 <= MAX_DATA_VERSION
        && head[4].is_ascii_graphic()
        && head[4..].iter().all(|&b| b == 0 || b.is_ascii_graphic() || b == b' ')
}

struct Start {
    bytes: Vec<u8>,
}

fn read_start(path: &Path, n: u64) -> std::io::Result<Start> {
    let f = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    f.take(n).read_to_end(&mut bytes)?;
    Ok(Start { bytes })
}

pub fn open(paths: &[PathBuf], opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let Some(map) = paths.first() else {
        bail!("no Marathon map given");
    };
    let bytes = std::fs::read(map).with_context(|| format!("reading {}", map.display()))?;
    let name =
        map.file_name().map_or_else(|| map.display().to_string(), |n| n.to_string_lossy().into());
    Wad::parse(&name, &bytes)?;
    let (shapes, shapes_note) = match &opts.shapes {
        Some(p) => {
            let b = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            let n = p.display().to_string();
            ShapesFile::parse(&n, &b)?;
            (Some((n, b)), None)
        }
        None => match find_shapes_beside(map) {
            Some((n, b)) => {
                let note = format!("Shapes file found beside the map: {n}");
                (Some((n, b)), Some(note))
            }
            None => (
                None,
                Some("no Shapes file given (--shapes) or found beside the map: flat colours per texture".into()),
            ),
        },
    };
    if shapes.is_none() {
        log::warn!("{name}: no Shapes file; drawing flat colours per texture");
    }
    Ok(Box::new(MarathonSource { name, bytes, shapes, shapes_note }))
}

/// A file named like "Shapes…" in the map's folder that parses as a Shapes file.
fn find_shapes_beside(map: &Path) -> Option<(String, Vec<u8>)> {
    let dir = map.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut candidates: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.file_name()
                    .map(|n| n.to_string_lossy().to_ascii_lowercase().starts_with("shapes"))
                    .unwrap_or(false)
        })
        .collect();
    candidates.sort();
    candidates.into_iter().find_map(|p| {
        let b = std::fs::read(&p).ok()?;
        let n = p.display().to_string();
        ShapesFile::parse(&n, &b).ok()?;
        Some((n, b))
    })
}

impl LevelSource for MarathonSource {
    fn game(&self) -> Game {
        Game::Marathon
    }

    fn maps(&self) -> Vec<String> {
        Wad::parse(&self.name, &self.bytes).map(|w| level_names(&w)).unwrap_or_default()
    }

    fn build(&self, map: Option<&str>) -> Result<Scene> {
        let wad = Wad::parse(&self.name, &self.bytes)?;
        let names = level_names(&wad);
        let index = match map {
            None if names.is_empty() => bail!("{}: no levels in this file", self.name),
            None => 0,
            Some(m) => Game::Marathon
                .pick_map(&names, m)
                .map_err(|e| anyhow::anyhow!("{}: {e}", self.name))?,
        };
        let level = Level::load(&wad, index)?;
        let shapes = match &self.shapes {
            Some((n, b)) => Some(ShapesFile::parse(n, b)?),
            None => None,
        };
        let notes: Vec<String> = self.shapes_note.iter().cloned().collect();
        Ok(build::build_scene(&level, shapes.as_ref(), &notes))
    }
}
