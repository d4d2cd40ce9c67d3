//! Carmageddon 2 tracks (TWT archives, loose ACT files) and model files (DAT) as a
//! [`LevelSource`].

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};

use super::{LevelSource, OpenOptions};
use crate::formats::carma2::library::FileReport;
use crate::formats::carma2::{build_scene, read_palette, Entry, Palette, Subject, TrackFiles};
use crate::formats::FormatError;
use crate::scene::{Game, Scene};

/// The file info record every BRender file starts with: type 0x12, length 8.
const FILE_INFO_HEAD: [u8; 8] = [0, 0, 0, 0x12, 0, 0, 0, 8];

pub struct Carma2Source {
    files: TrackFiles,
    palette: Option<Palette>,
}

pub fn detect(path: &Path, head: &[u8]) -> bool {
    entry_of(path, head).is_some()
}

/// ACT and DAT files by their file info record, TWT archives by name or by their header.
fn entry_of(path: &Path, head: &[u8]) -> Option<Entry> {
    if head.starts_with(&FILE_INFO_HEAD) {
        return match head.get(8..12).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]])) {
            Some(1) => Some(Entry::Actors),
            Some(0xFACE) => Some(Entry::Models),
            _ => None,
        };
    }
    let named_twt = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("twt"));
    let size = std::fs::metadata(path).map(|m| m.len()).ok()?;
    // Renamed archives: the size word is the file size, and the directory and the first
    // entry fit in it.
    let word = |at: usize| {
        head.get(at..at + 4).map(|b| u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
    };
    let sized_twt = match (word(0), word(4), word(8)) {
        (Some(total), Some(count), Some(first)) => {
            total == size && count > 0 && 8 + count * 56 + first <= size
        }
        _ => false,
    };
    (path.is_file() && (named_twt || sized_twt)).then_some(Entry::Archive)
}

pub fn open(paths: &[PathBuf], opts: &OpenOptions) -> Result<Box<dyn LevelSource>> {
    let Some(path) = paths.first() else { bail!("no level file given") };
    let head = read_head(path)?;
    let Some(entry) = entry_of(path, &head) else {
        bail!("{}: not a Carmageddon 2 TWT, ACT or DAT file", path.display())
    };
    let palette = opts.palette.as_deref().map(read_palette).transpose()?;
    Ok(Box::new(Carma2Source { files: TrackFiles::open(path, entry)?, palette }))
}

/// Why an ACT file loaded nothing, if it failed.
fn act_error(f: &FileReport) -> Option<FormatError> {
    f.error.clone().filter(|_| f.name.to_ascii_uppercase().ends_with(".ACT"))
}

fn read_head(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(16);
    std::fs::File::open(path)?.take(16).read_to_end(&mut head)?;
    Ok(head)
}

impl LevelSource for Carma2Source {
    fn game(&self) -> Game {
        Game::Carmageddon2
    }

    fn maps(&self) -> Vec<String> {
        self.files.maps()
    }

    /// `map` is an ACT name or its number ([`Game::pick_map`]).
    fn build(&self, map: Option<&str>) -> Result<Scene> {
        let maps = self.maps();
        let name = match map {
            None => maps.first(),
            Some(m) => match Game::Carmageddon2.pick_map(&maps, m) {
                Ok(i) => maps.get(i),
                Err(e) => bail!("{}: {e}", self.files.main),
            },
        };
        let Some(name) = name else {
            match self.files.library.files.iter().find_map(act_error) {
                Some(e) => return Err(e.into()),
                None => bail!("{}: no actor file (ACT) loaded", self.files.main),
            }
        };
        let subject = match self.files.entry {
            Entry::Models => Subject::Models(name),
            Entry::Archive | Entry::Actors => Subject::Track(name),
        };
        let (scene, _) = build_scene(&self.files.library, subject, self.palette.clone())?;
        Ok(scene)
    }
}
