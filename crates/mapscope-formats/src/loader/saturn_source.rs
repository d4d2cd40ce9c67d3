//! Saturn Quake `.LEV` files as a [`LevelSource`]: one level per file, named after the file.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::saturn::{build_scene, LevFile};
use crate::scene::{Game, Scene};

/// The format has no magic number: `.LEV` files are recognised by name and refused later,
/// with the segment named, if their sizes do not add up.
pub fn detect(path: &Path, _head: &[u8]) -> bool {
    path.is_file() && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("lev"))
}

pub fn open(paths: &[PathBuf], _opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let [path] = paths else {
        bail!("Saturn Quake levels are single files; {} were given", paths.len());
    };
    let data = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let file_name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let lev = LevFile::parse(&file_name, &data)?;
    let map = path
        .file_stem()
        .map_or_else(|| "LEVEL".to_string(), |s| s.to_string_lossy().to_uppercase());
    Ok(Box::new(SaturnSource { lev, map }))
}

pub struct SaturnSource {
    lev: LevFile,
    map: String,
}

impl LevelSource for SaturnSource {
    fn game(&self) -> Game {
        Game::SaturnQuake
    }

    fn maps(&self) -> Vec<String> {
        vec![self.map.clone()]
    }

    fn build(&self, map: Option<&str>) -> Result<Scene> {
        if let Some(m) = map {
            if let Err(e) = Game::SaturnQuake.pick_map(&self.maps(), m) {
                bail!("{}: {e} (a .LEV file holds one level)", self.lev.name);
            }
        }
        Ok(build_scene(&self.lev, &self.map))
    }
}
