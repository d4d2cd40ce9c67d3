//! A mod's folder as a package: what GZDoom loads from a directory given with `-file` (its
//! directory resource reader). The folder is walked to the bottom and each file named by its
//! path below the folder with '/' separators; those paths then follow a PK3's rules exactly
//! (the same [`assemble_package`]): namespaces, lump names, `maps/NAME.wad`, `TEXTURES.*`
//! and `ANIMDEFS.*` variants as their lumps, WADs at the top loaded after the package.
//!
//! What the walk leaves out, as GZDoom does: hidden entries (names starting with '.', such as
//! `.git`; GZDoom skips hidden files and folders so that a checkout's bookkeeping stays out)
//! and backup files (names holding `.orig`, `.bak` or `.cache`). Links are followed, as
//! GZDoom's `stat` follows them, with one difference: a link back to a folder the walk is
//! inside is not followed. GZDoom has no such check and walks round the cycle until the system
//! refuses the path (some 40 links deep), loading every file again on each turn; here a note
//! names the link. Pipes, sockets and devices are skipped with a note, since reading a pipe
//! would wait for ever; so are entries that cannot be read (a broken link).
//!
//! Bounded like a PK3: at most [`MAX_PACKAGE_ENTRIES`] entries walked and
//! [`MAX_FOLDER_DEPTH`] folders deep; a member is refused when its size passes
//! [`MAX_MEMBER`] before it is opened, and read to that cap anyway (a file may grow); all the
//! members read pass no more than the package cap. Errors name the folder and the member.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use crate::formats::zip_member::read_bounded;
use crate::formats::{ErrorKind, FormatError, Result};
use crate::limits::doom::{MAX_FOLDER_DEPTH, MAX_PACKAGE_ENTRIES};
use crate::limits::MAX_MEMBER;

use super::pk3::{assemble_package, looks_like_doom_package};
use super::wad::Wad;

/// What a folder is named in messages: its path as given, ending in a separator, so that a
/// member's name (this followed by its path) is a file one can open.
pub fn folder_name(path: &Path) -> String {
    let mut name = path.display().to_string();
    if !name.ends_with('/') && !name.ends_with(std::path::MAIN_SEPARATOR) {
        name.push('/');
    }
    name
}

/// Whether the folder at `path` is a GZDoom mod rather than another game's folder or any
/// folder: what [`looks_like_doom_package`] looks for among its top entries and the files of
/// its `maps/` (a Saucerman game folder, `LEVELS/` and `maps/*.map`, is not one).
pub fn looks_like_doom_folder(path: &Path) -> bool {
    let names = top_names(path);
    looks_like_doom_package(names.iter().map(String::as_str))
}

/// The folder's top entries as package paths (a folder as `name/`), with `maps/`'s files.
fn top_names(path: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for (name, full) in listing(path).into_iter().take(MAX_PACKAGE_ENTRIES) {
        if !full.is_dir() {
            names.push(name);
        } else if name.eq_ignore_ascii_case("maps") {
            let files = listing(&full).into_iter().take(MAX_PACKAGE_ENTRIES);
            names.extend(files.map(|(file, _)| format!("{name}/{file}")));
        } else {
            names.push(format!("{name}/"));
        }
    }
    names
}

/// The entries of `dir` that are not hidden, by name; empty when it cannot be listed.
fn listing(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.'))
        .collect()
}

/// Opens the mod folder at `path`: the package's WAD, then the WADs at its top.
pub fn open_folder(path: &Path) -> Result<Vec<Wad>> {
    let name = folder_name(path);
    if !fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(FormatError::io(path, "cannot read", &std::io::ErrorKind::NotFound.into()));
    }
    if !looks_like_doom_folder(path) {
        return Err(not_a_mod(path, &name));
    }
    let mut walk = Walk::new(&name);
    walk.folder(path, "", 0)?;
    let Walk { members, skipped, .. } = walk;
    let names = members.iter().enumerate().map(|(i, m)| (i, m.path.clone())).collect();
    let mut wads =
        assemble_package(&name, &name, names, |w| read_member(&name, &members[w.index]))?;
    let notes = skipped.into_iter().map(|(why, paths)| skipped_note(&name, why, &paths)).collect();
    wads[0].add_notes(notes);
    Ok(wads)
}

/// What a mod folder holds at its top, for messages about folders that are not one.
pub const MOD_FOLDER_SIGNS: &str = "maps/*.wad, a textures/, flats/, sprites/, patches/ or \
                                    graphics/ folder, a WAD or a lump GZDoom reads (TEXTURES, \
                                    MAPINFO ...) at its top";

/// The folders just inside `path` that are mod folders, for a hint when `path` is not one
/// (the folder above a mod is an easy slip): "; mod folders inside it: ...", or nothing.
pub fn mods_inside_hint(path: &Path) -> String {
    let name = folder_name(path);
    let mut inside: Vec<String> = listing(path)
        .into_iter()
        .filter(|(_, full)| full.is_dir() && looks_like_doom_folder(full))
        .map(|(sub, _)| format!("{name}{sub}/"))
        .collect();
    inside.sort();
    match inside.len() {
        0 => String::new(),
        n if n <= 3 => format!("; mod folders inside it: {}", inside.join(", ")),
        n => format!("; mod folders inside it: {} and {} more", inside[..3].join(", "), n - 3),
    }
}

/// The error for a folder that holds nothing of a mod.
fn not_a_mod(path: &Path, name: &str) -> FormatError {
    let hint = mods_inside_hint(path);
    folder_error(name, "", format!("not a GZDoom mod folder (none of {MOD_FOLDER_SIGNS}){hint}"))
}

/// An error about `member` (a path below the folder; empty for the folder itself).
fn folder_error(folder: &str, member: &str, message: String) -> FormatError {
    let message = if member.is_empty() { message } else { format!("{member}: {message}") };
    FormatError { kind: ErrorKind::Io, ..FormatError::new(folder, "folder", 0, message) }
}

/// A file the package may read.
struct Member {
    /// Below the folder, '/'-separated.
    path: String,
    file: PathBuf,
    size: u64,
}

/// Why the walk left an entry out; each reason gives one note.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Skipped {
    Cycle,
    Unreadable,
    Special,
    Backup,
}

/// The folder's walk so far.
struct Walk<'a> {
    name: &'a str,
    members: Vec<Member>,
    /// Entries met, hidden ones included (each costs a look-up).
    entries: usize,
    /// The folders the walk is inside, from the top: each with what identifies it on disk and
    /// its path.
    inside: Vec<(DirId, String)>,
    skipped: BTreeMap<Skipped, Vec<String>>,
}

impl<'a> Walk<'a> {
    fn new(name: &'a str) -> Walk<'a> {
        Walk { name, members: Vec::new(), entries: 0, inside: Vec::new(), skipped: BTreeMap::new() }
    }

    /// Walks the folder `dir`, at `rel` below the top (empty for the top), `depth` deep.
    fn folder(&mut self, dir: &Path, rel: &str, depth: usize) -> Result<()> {
        let listed = match fs::read_dir(dir) {
            Ok(listed) => listed,
            Err(e) if rel.is_empty() => return Err(FormatError::io(dir, "cannot list", &e)),
            Err(_) => {
                // GZDoom reports the folder and goes on with the rest.
                self.skipped.entry(Skipped::Unreadable).or_default().push(format!("{rel}/"));
                return Ok(());
            }
        };
        if rel.is_empty() {
            if let Ok(meta) = fs::metadata(dir) {
                self.inside.push((dir_id(&meta, dir), String::new()));
            }
        }
        let mut entries = Vec::new();
        for entry in listed {
            self.entries += 1;
            if self.entries > MAX_PACKAGE_ENTRIES {
                return Err(folder_error(
                    self.name,
                    rel,
                    format!("more than the {MAX_PACKAGE_ENTRIES} entries a package may hold"),
                ));
            }
            match entry {
                Ok(e) => entries.push((e.file_name().to_string_lossy().into_owned(), e.path())),
                Err(_) => {
                    let at = if rel.is_empty() { "./".into() } else { format!("{rel}/") };
                    self.skipped.entry(Skipped::Unreadable).or_default().push(at);
                }
            }
        }
        // Any order would do (the package sorts its members); this one keeps notes stable.
        entries.sort();
        for (name, full) in entries {
            if name.starts_with('.') {
                continue;
            }
            let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            self.entry(&name, full, path, depth)?;
        }
        Ok(())
    }

    fn entry(&mut self, name: &str, full: PathBuf, path: String, depth: usize) -> Result<()> {
        // `metadata` follows links, as GZDoom's `stat` does.
        let Ok(meta) = fs::metadata(&full) else {
            self.skipped.entry(Skipped::Unreadable).or_default().push(path);
            return Ok(());
        };
        if meta.is_dir() {
            let id = dir_id(&meta, &full);
            if let Some((_, at)) = self.inside.iter().find(|(known, _)| *known == id) {
                let target =
                    if at.is_empty() { "the folder itself".into() } else { format!("{at}/") };
                self.skipped.entry(Skipped::Cycle).or_default().push(format!("{path} ({target})"));
                return Ok(());
            }
            if depth + 1 > MAX_FOLDER_DEPTH {
                return Err(folder_error(
                    self.name,
                    &format!("{path}/"),
                    format!("folders nested more than {MAX_FOLDER_DEPTH} deep"),
                ));
            }
            self.inside.push((id, path.clone()));
            self.folder(&full, &path, depth + 1)?;
            self.inside.pop();
        } else if !meta.is_file() {
            self.skipped.entry(Skipped::Special).or_default().push(path);
        } else if is_backup(name) {
            self.skipped.entry(Skipped::Backup).or_default().push(path);
        } else {
            self.members.push(Member { path, file: full, size: meta.len() });
        }
        Ok(())
    }
}

/// GZDoom leaves out backup files: names holding `.orig`, `.bak` or `.cache` in any case.
fn is_backup(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".orig", ".bak", ".cache"].iter().any(|b| lower.contains(b))
}

/// What tells one folder on disk from another whatever path reaches it: its device and inode
/// where the system has them, else its path with every link resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
enum DirId {
    #[cfg_attr(not(unix), allow(dead_code))]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

#[cfg(unix)]
fn dir_id(meta: &fs::Metadata, _path: &Path) -> DirId {
    use std::os::unix::fs::MetadataExt;
    DirId::Inode(meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn dir_id(_meta: &fs::Metadata, path: &Path) -> DirId {
    DirId::Path(fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
}

fn skipped_note(name: &str, why: Skipped, paths: &[String]) -> String {
    let what = match why {
        Skipped::Cycle => "links back to a folder they are in, not followed",
        Skipped::Unreadable => "entries that cannot be read (a broken link?), skipped",
        Skipped::Special => "entries neither files nor folders (pipes, sockets, devices), skipped",
        Skipped::Backup => "backup files (.orig, .bak, .cache) skipped, as GZDoom skips them",
    };
    let shown = paths.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    let more = paths.len().saturating_sub(5);
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!("{name}: {what}: {shown}{more}")
}

/// A member's bytes: refused by its size before it is opened, and read to the cap anyway.
fn read_member(name: &str, m: &Member) -> Result<Vec<u8>> {
    if m.size > MAX_MEMBER as u64 {
        return Err(folder_error(
            name,
            &m.path,
            format!("{} bytes, more than the {} MiB a member may have", m.size, MAX_MEMBER >> 20),
        ));
    }
    let error = |e: std::io::Error| folder_error(name, &m.path, format!("cannot read: {e}"));
    let mut file = fs::File::open(&m.file).map_err(error)?;
    read_bounded(&mut file, m.size as usize).map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::WadStack;
    use crate::formats::doom::archive::writer::WadWriter;

    /// A scratch folder removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("mapscope-folder-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn file(&self, rel: &str, bytes: &[u8]) {
            let path = self.0.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn map_wad(marker: &str) -> Vec<u8> {
        let mut w = WadWriter::pwad();
        w.marker(marker).lump("THINGS", vec![1; 10]).lump("LINEDEFS", vec![2; 14]);
        w.to_bytes()
    }

    #[test]
    fn a_folder_reads_as_a_pk3_of_the_same_paths() {
        let dir = Scratch::new("pk3-rules");
        dir.file("maps/MAP07.wad", &map_wad("MAP01"));
        dir.file("Flats/sub/FLOOR9.raw", &[5; 4096]);
        dir.file("textures/walls/Brick.png", b"fake");
        dir.file("TEXTURES.ench", b"// one");
        dir.file("textures.txt", b"// two");
        dir.file("sounds/x.ogg", b"o");
        dir.file("extra.wad", &map_wad("E1M1"));
        dir.file(".git/HEAD", b"ref");
        dir.file("TEXTURES.bak", b"old");
        let wads = open_folder(&dir.0).unwrap();
        let name = folder_name(&dir.0);
        assert_eq!(wads.len(), 2, "the package, then its top WAD");
        assert_eq!(wads[1].name(), format!("{name}extra.wad"));
        let notes = wads[0].notes();
        assert!(notes.iter().any(|n| n.contains("sounds/ (1)")), "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("backup") && n.contains("TEXTURES.bak")));
        let stack = WadStack::new(wads);
        assert_eq!(stack.map_names(), ["MAP07", "E1M1"]);
        assert_eq!(stack.map("MAP07").unwrap().file, format!("{name}maps/MAP07.wad"));
        assert_eq!(stack.flats().number("FLOOR9"), Some(0));
        assert!(stack.lump_num_by_path("textures/walls/brick.png").is_some());
        // Both TEXTURES variants are TEXTURES lumps, in path order; the hidden one is not.
        let textures: Vec<&str> = stack
            .global_lumps_named("TEXTURES")
            .iter()
            .map(|&(_, n)| stack.lump_at(n).unwrap().file)
            .collect();
        assert_eq!(textures, [format!("{name}TEXTURES.ench"), format!("{name}textures.txt")]);
        assert!(stack.lump("HEAD").is_none());
    }

    #[test]
    fn folders_that_are_not_mods_are_told_apart() {
        let dir = Scratch::new("detect");
        dir.file("saucer/LEVELS/l1.wad", b"x");
        dir.file("saucer/maps/l1.map", b"x");
        dir.file("notes/readme.txt", b"x");
        dir.file("mod/maps/MAP01.wad", &map_wad("MAP01"));
        assert!(!looks_like_doom_folder(&dir.0.join("saucer")));
        assert!(!looks_like_doom_folder(&dir.0.join("notes")));
        assert!(looks_like_doom_folder(&dir.0.join("mod")));
        let e = open_folder(&dir.0).err().unwrap().to_string();
        assert!(e.contains("not a GZDoom mod folder") && e.contains("mod/"), "{e}");
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_but_not_round_a_cycle() {
        let dir = Scratch::new("links");
        dir.file("shared/PLAYPAL.lmp", &[1; 768]);
        dir.file("mod/textures/a/x.png", b"x");
        dir.file("mod/TEXTURES", b"");
        let mod_dir = dir.0.join("mod");
        std::os::unix::fs::symlink(dir.0.join("shared"), mod_dir.join("patches")).unwrap();
        std::os::unix::fs::symlink("..", mod_dir.join("textures/a/up")).unwrap();
        std::os::unix::fs::symlink("nowhere", mod_dir.join("broken")).unwrap();
        let wads = open_folder(&mod_dir).unwrap();
        let notes = wads[0].notes();
        let cycle = notes.iter().find(|n| n.contains("links back")).expect("a note on the cycle");
        assert!(cycle.contains("textures/a/up (textures/)"), "{cycle}");
        assert!(notes.iter().any(|n| n.contains("cannot be read") && n.contains("broken")));
        let stack = WadStack::new(wads);
        assert_eq!(stack.lump("PLAYPAL").unwrap().data, &[1; 768][..], "through the link");
        assert_eq!(stack.loose_textures().len(), 1, "the picture once, not once per turn");
    }

    #[test]
    fn oversized_and_deep_folders_are_errors_naming_the_member() {
        let dir = Scratch::new("bounds");
        dir.file("TEXTURES", b"");
        let big = fs::File::create(dir.0.join("BIG.lmp")).unwrap();
        big.set_len(MAX_MEMBER as u64 + 1).unwrap();
        let e = open_folder(&dir.0).err().unwrap().to_string();
        assert!(e.contains("BIG.lmp: 67108865 bytes, more than the 64 MiB"), "{e}");
        fs::remove_file(dir.0.join("BIG.lmp")).unwrap();

        let deep: String = (0..=MAX_FOLDER_DEPTH).map(|i| format!("d{i}/")).collect();
        dir.file(&format!("graphics/{deep}x.png"), b"x");
        let e = open_folder(&dir.0).err().unwrap().to_string();
        assert!(e.contains("folders nested more than 32 deep"), "{e}");
    }
}
