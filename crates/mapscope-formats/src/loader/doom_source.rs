//! Doom stacks of IWAD, PWADs and PK3 packages as a [`LevelSource`].

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::doom::archive::{pk3, pk7};
use crate::formats::doom::{self, WadStack};
use crate::scene::{Game, Scene};

pub struct DoomSource {
    stack: WadStack,
    /// Build maps by vanilla's rules (`OpenOptions::vanilla`).
    vanilla: bool,
}

/// A WAD by its magic; a zip when it is a GZDoom package (other games' zips, such as
/// Saucerman's `Saucerdata.pak`, are told apart by their members); a 7z (PK7).
pub fn detect(path: &Path, head: &[u8]) -> bool {
    head.starts_with(b"IWAD")
        || head.starts_with(b"PWAD")
        || (pk3::is_zip(head) && pk3::is_doom_package_file(path))
        || pk7::is_7z(head)
}

pub fn open(paths: &[PathBuf], opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    Ok(Box::new(DoomSource { stack: WadStack::open(paths)?, vanilla: opts.vanilla }))
}

impl LevelSource for DoomSource {
    fn game(&self) -> Game {
        Game::Doom
    }

    fn maps(&self) -> Vec<String> {
        self.stack.map_names()
    }

    fn map_summary(&self, map: &str) -> Option<String> {
        Some(match crate::formats::doom::map::map_summary(&self.stack, map) {
            Ok(s) => s,
            Err(e) => format!("unreadable: {}", e.message),
        })
    }

    fn build(&self, map: Option<&str>) -> Result<Scene> {
        let maps = self.maps();
        let files = || {
            self.stack.wads().iter().map(|w| w.name().to_string()).collect::<Vec<_>>().join(", ")
        };
        let name = match map {
            Some(m) => match Game::Doom.pick_map(&maps, m).map(|i| maps.get(i)) {
                Ok(Some(n)) => n.clone(),
                Ok(None) => bail!("{}: no map {m}", files()),
                Err(e) => bail!("{}: {e}", files()),
            },
            None => match maps.first() {
                Some(n) => n.clone(),
                None => bail!("{}: no maps in these files", files()),
            },
        };
        let opts = doom::BuildOptions { vanilla: self.vanilla, ..Default::default() };
        Ok(doom::build_scene_with(&self.stack, &name, &opts)?)
    }
}
