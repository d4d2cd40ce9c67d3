//! Finding a track's files on disk: a TWT archive read in place, or the loose layout of the
//! original CD (`ACTORS/`, `MODELS/`, `MATERIAL/`, `PIXELMAP/` beside each other, the palette
//! in `REG/PALETTES/` here or in a folder above), with case-insensitive names.

use std::path::{Path, PathBuf};

use super::build::Palette;
use super::library::{is_record_file, Library};
use super::pixelmaps::parse_pixelmaps;
use super::twt::Twt;
use crate::formats::{FormatError, Result};

/// The folders beside `ACTORS/` whose files a track uses.
const TRACK_FOLDERS: [&str; 3] = ["MODELS", "MATERIAL", "PIXELMAP"];
/// How many folders up from the track to look for `REG/PALETTES/DRRENDER.PAL` (the CD keeps
/// it in `DATA/REG`, tracks in `DATA/RACES/<TRACK>/`).
const PALETTE_SEARCH_DEPTH: usize = 4;

/// The game's palette: file name and pixelmap identifier.
pub const PALETTE_NAME: &str = "DRRENDER.PAL";

/// What a path opens as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A TWT archive: its ACT files are the maps.
    Archive,
    /// A loose ACT file: the track it names.
    Actors,
    /// A loose DAT file: its models.
    Models,
}

/// An opened path: everything loaded, and the map names it offers.
pub struct TrackFiles {
    pub entry: Entry,
    pub library: Library,
    /// File name of the path given: the archive, or the loose file as the library knows it.
    pub main: String,
}

impl TrackFiles {
    pub fn open(path: &Path, entry: Entry) -> Result<TrackFiles> {
        let mut library = Library::default();
        let main = file_name(path);
        match entry {
            Entry::Archive => {
                let mut files = TrackFiles::from_archive_bytes(&main, read(path)?)?;
                let dir = path.parent().unwrap_or(Path::new("."));
                add_palette_beside(&mut files.library, dir)?;
                return Ok(files);
            }
            Entry::Actors | Entry::Models => {
                library.add_file(&main, &read(path)?);
                let dir = path.parent().unwrap_or(Path::new("."));
                let root = match dir.file_name() {
                    Some(n) if ["ACTORS", "MODELS"].iter().any(|f| n.eq_ignore_ascii_case(f)) => {
                        dir.parent().unwrap_or(Path::new("."))
                    }
                    _ => dir,
                };
                for folder in TRACK_FOLDERS {
                    if let Some(sub) = child(root, folder) {
                        add_folder(&mut library, &sub, path)?;
                    }
                }
                add_palette_beside(&mut library, root)?;
            }
        }
        Ok(TrackFiles { entry, library, main })
    }

    /// A TWT archive held in memory (`name` is used in messages); no palette is looked for
    /// beside it.
    pub fn from_archive_bytes(name: &str, data: Vec<u8>) -> Result<TrackFiles> {
        let mut library = Library::default();
        let twt = Twt::from_bytes(name, data)?;
        library.notes.extend(twt.notes().iter().cloned());
        for (file, bytes) in twt.files() {
            library.add_file(file, bytes);
        }
        Ok(TrackFiles { entry: Entry::Archive, library, main: name.to_string() })
    }

    /// Map names: the ACT files of an archive, or the file given.
    pub fn maps(&self) -> Vec<String> {
        match self.entry {
            Entry::Archive => self.library.act_files(),
            Entry::Actors | Entry::Models => vec![self.main.clone()],
        }
    }
}

/// The palette in a file given with `--palette`: its first palette pixelmap.
pub fn read_palette(path: &Path) -> Result<Palette> {
    let name = file_name(path);
    let parsed = parse_pixelmaps(&name, &read(path)?);
    let found = parsed.objects.iter().find_map(|p| p.palette_entries().ok());
    match (found, parsed.error) {
        (Some(entries), _) => Ok(Palette { entries, source: name }),
        (None, Some(e)) => Err(e),
        (None, None) => Err(FormatError::missing(
            &name,
            "pixelmaps",
            "no palette pixelmap (type 7) in this file",
        )),
    }
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| FormatError::io(path, "cannot read", &e))
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

/// The entry of `dir` named `name`, ignoring case (the CD's names are upper case, copies on
/// case-sensitive file systems often are not).
fn child(dir: &Path, name: &str) -> Option<PathBuf> {
    let entries = std::fs::read_dir(dir).ok()?;
    entries
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
        .map(|e| e.path())
}

/// Every record file of `dir` in name order, except `skip` (already loaded).
fn add_folder(library: &mut Library, dir: &Path, skip: &Path) -> Result<()> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| FormatError::io(dir, "cannot list", &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && is_record_file(&file_name(p)) && p != skip)
        .collect();
    files.sort();
    for f in files {
        library.add_file(&file_name(&f), &read(&f)?);
    }
    Ok(())
}

/// Loads `REG/PALETTES/DRRENDER.PAL` from `dir` or the nearest folder above that has one,
/// unless the files loaded so far define that palette.
fn add_palette_beside(library: &mut Library, dir: &Path) -> Result<()> {
    if library.pixelmaps.get(PALETTE_NAME).is_some() {
        return Ok(());
    }
    for folder in dir.ancestors().take(PALETTE_SEARCH_DEPTH) {
        let found = child(folder, "REG")
            .and_then(|reg| child(&reg, "PALETTES"))
            .and_then(|pals| child(&pals, PALETTE_NAME));
        if let Some(path) = found {
            library.add_file(&file_name(&path), &read(&path)?);
            return Ok(());
        }
    }
    Ok(())
}
