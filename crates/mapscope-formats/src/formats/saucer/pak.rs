//! `Saucerdata.pak`: a plain zip holding the game folder (`Bitmaps/`, `Demos/`, `LEVELS/`,
//! `maps/`). Read through its central directory; when that is missing or unreadable (a cut
//! file, headers other tools reject), the local headers are walked from the start instead and
//! every complete member is kept.

use std::cell::RefCell;
use std::io::Cursor;
use std::sync::Arc;

use zip::ZipArchive;

use crate::formats::zip_member::{read_bounded, size_hint as member_size_hint};
use crate::formats::{FormatError, Result};
use crate::limits::saucer::MAX_WALKED;

/// A level in a game folder: the WAD in `LEVELS/` and the map in `maps/` with the same base
/// name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelFiles {
    pub name: String,
    pub wad: String,
    pub map: String,
}

enum Members {
    /// Read on demand through the central directory.
    Central(ZipArchive<Cursor<Arc<[u8]>>>),
    /// Members recovered by walking local headers, already inflated.
    Walked(Vec<(String, Vec<u8>)>),
}

pub struct Pak {
    file: String,
    names: Vec<String>,
    members: RefCell<Members>,
    pub notes: Vec<String>,
}

impl Pak {
    pub fn parse(file: &str, data: Vec<u8>) -> Result<Pak> {
        let data: Arc<[u8]> = data.into();
        match ZipArchive::new(Cursor::new(Arc::clone(&data))) {
            Ok(archive) => {
                let names = (0..archive.len())
                    .filter_map(|i| archive.name_for_index(i).map(str::to_string))
                    .collect();
                Ok(Pak {
                    file: file.to_string(),
                    names,
                    members: RefCell::new(Members::Central(archive)),
                    notes: Vec::new(),
                })
            }
            Err(e) => {
                let (found, stop) = walk_local_headers(file, &data);
                if found.is_empty() {
                    return Err(FormatError::new(
                        file,
                        "zip central directory",
                        data.len() as u64,
                        format!("not a readable zip ({e}), and no member could be recovered"),
                    ));
                }
                let mut notes =
                    vec![format!("{file}: zip central directory unreadable ({e}); members read from local headers")];
                notes.extend(stop);
                Ok(Pak {
                    file: file.to_string(),
                    names: found.iter().map(|(n, _)| n.clone()).collect(),
                    members: RefCell::new(Members::Walked(found)),
                    notes,
                })
            }
        }
    }

    /// Member names in archive order (directories end in '/').
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The bytes of the member called `name` (exact path, or case-insensitive).
    pub fn read(&self, name: &str) -> Result<Vec<u8>> {
        let Some(index) = find_name(&self.names, name) else {
            return Err(FormatError::new(&self.file, "zip member", 0, format!("no member {name}")));
        };
        match &mut *self.members.borrow_mut() {
            Members::Walked(found) => {
                Ok(found.get(index).map(|(_, b)| b.clone()).unwrap_or_default())
            }
            Members::Central(archive) => {
                let mut member = archive.by_index(index).map_err(|e| {
                    FormatError::new(&self.file, "zip member", 0, format!("{name}: {e}"))
                })?;
                let at = member.header_start();
                let hint = member_size_hint(member.size(), member.compressed_size());
                read_bounded(&mut member, hint).map_err(|e| {
                    FormatError::new(&self.file, "zip member", at, format!("{name}: {e}"))
                })
            }
        }
    }

    /// The levels this package holds, in the order of their WADs.
    pub fn levels(&self) -> Vec<LevelFiles> {
        pair_levels(&self.names)
    }
}

fn find_name(names: &[String], name: &str) -> Option<usize> {
    names
        .iter()
        .position(|n| n == name)
        .or_else(|| names.iter().position(|n| n.eq_ignore_ascii_case(name)))
}

/// Reads members one local header after another until the central directory, the end of the
/// data or a broken entry; returns what was complete and a note on why the walk stopped.
fn walk_local_headers(file: &str, data: &[u8]) -> (Vec<(String, Vec<u8>)>, Option<String>) {
    let mut cursor = Cursor::new(data);
    let mut found = Vec::new();
    // Each member consumes at least its 30-byte header, so the walk ends.
    let mut walked = 0usize;
    loop {
        let at = cursor.position();
        let entry = match zip::read::read_zipfile_from_stream(&mut cursor) {
            Ok(Some(entry)) => entry,
            Ok(None) => return (found, None),
            Err(e) => {
                return (
                    found,
                    Some(format!(
                        "{file}: zip local header at offset {at}: {e}; later members lost"
                    )),
                )
            }
        };
        let name = entry.name().to_string();
        let hint = member_size_hint(entry.size(), entry.compressed_size());
        let mut entry = entry;
        match read_bounded(&mut entry, hint) {
            Ok(bytes) if walked + bytes.len() > MAX_WALKED => {
                return (
                    found,
                    Some(format!(
                        "{file}: zip member {name} at offset {at}: members total more than \
                         {} MiB; later members lost",
                        MAX_WALKED >> 20
                    )),
                )
            }
            Ok(bytes) => {
                walked += bytes.len();
                found.push((name, bytes))
            }
            Err(e) => {
                return (
                    found,
                    Some(format!(
                        "{file}: zip member {name} at offset {at}: {e}; later members lost"
                    )),
                )
            }
        }
    }
}

/// Pairs `LEVELS/<x>.wad` with `maps/<x>.map` (case-insensitive), in WAD order.
pub fn pair_levels(names: &[String]) -> Vec<LevelFiles> {
    let split = |n: &str, dir: &str, ext: &str| -> Option<String> {
        let (d, rest) = n.split_once('/')?;
        let (base, e) = rest.rsplit_once('.')?;
        (d.eq_ignore_ascii_case(dir)
            && e.eq_ignore_ascii_case(ext)
            && !base.is_empty()
            && !base.contains('/'))
        .then(|| base.to_string())
    };
    names
        .iter()
        .filter_map(|wad| {
            let base = split(wad, "LEVELS", "wad")?;
            let map = names
                .iter()
                .find(|m| split(m, "maps", "map").is_some_and(|b| b.eq_ignore_ascii_case(&base)))?;
            Some(LevelFiles { name: base, wad: wad.clone(), map: map.clone() })
        })
        .collect()
}
