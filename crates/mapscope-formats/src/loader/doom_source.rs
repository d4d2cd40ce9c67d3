//! Doom stacks of IWAD, PWADs, PK3 and PK7 packages and mod folders as a [`LevelSource`].

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::doom::archive::{folder, pk3, pk7};
use crate::formats::doom::{self, WadStack};
use crate::scene::{Game, Scene};

pub struct DoomSource {
    stack: WadStack,
    /// The paths given, as given, for messages.
    given: String,
    /// Build maps by vanilla's rules (`OpenOptions::vanilla`).
    vanilla: bool,
}

/// A WAD by its magic; a zip when it is a GZDoom package (other games' zips, such as
/// Saucerman's `Saucerdata.pak`, are told apart by their members); a 7z (PK7); a folder
/// holding a mod (Saucerman's game folder is told apart the same way).
pub fn detect(path: &Path, head: &[u8]) -> bool {
    if path.is_dir() {
        return folder::looks_like_doom_folder(path);
    }
    head.starts_with(b"IWAD")
        || head.starts_with(b"PWAD")
        || (pk3::is_zip(head) && pk3::is_doom_package_file(path))
        || pk7::is_7z(head)
}

/// Whether `path` is what GZDoom loads over an IWAD with `-file`: a PWAD, a Doom package or
/// a mod folder.
pub fn is_addon(path: &Path) -> bool {
    if path.is_dir() {
        return folder::looks_like_doom_folder(path);
    }
    let head = super::read_head(path).unwrap_or_default();
    head.starts_with(b"PWAD")
        || (pk3::is_zip(&head) && pk3::is_doom_package_file(path))
        || pk7::is_7z(&head)
}

/// Whether `path` is an IWAD.
pub fn is_iwad(path: &Path) -> bool {
    !path.is_dir() && super::read_head(path).is_ok_and(|h| h.starts_with(b"IWAD"))
}

pub fn open(paths: &[PathBuf], opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let given = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ");
    Ok(Box::new(DoomSource { stack: WadStack::open(paths)?, given, vanilla: opts.vanilla }))
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
        let built = doom::build_scene_with(&self.stack, &name, &opts);
        // A mod given alone lacks the game's palette; say how to give the game too.
        if built.is_err() && self.stack.lump("PLAYPAL").is_none() {
            let given = &self.given;
            return Err(anyhow::Error::new(built.err().unwrap()).context(format!(
                "{given}: no IWAD with these files: give the IWAD first, then the mod \
                 (freedoom2.wad {given}), as GZDoom takes -iwad and -file"
            )));
        }
        Ok(built?)
    }
}
