//! PK3 packages: zip files GZDoom loads like WADs. A member's folder gives its namespace and
//! its file name, without the extension, upper-cased and cut to 8 letters, its lump name:
//!
//! - the root: global lumps (`TEXTURES.txt` is TEXTURES, `PLAYPAL.lmp` is PLAYPAL); a `.wad`
//!   at the root is loaded as a PWAD right after the package;
//! - `maps/NAME.wad`: a WAD whose first map is map NAME, whatever its marker says (GZDoom's
//!   `P_OpenMapData`); the WAD's other lumps are not loaded;
//! - `flats/`, `sprites/`, `textures/`: namespaced like `FF_START`, `SS_START` and `TX_START`
//!   ranges (a sprite's `^` stands for `\`, which zip names cannot hold);
//! - `patches/`, `graphics/`: global lumps, found by name as patches are;
//! - `hires/`: high-resolution replacements, namespaced like `HI_START`;
//! - text members of other folders (`actors/trees.txt`, `zscript/monsters.zs`: extensions
//!   `txt`, `dec`, `zs`, `zsc`, `zc`, or none) are read as lumps found only by their full
//!   path, as GZDoom keeps members outside its namespaces, for DECORATE's and ZScript's
//!   `#include`; the rest of those folders (`sounds/`, `music/`, `filter/` ...) is not read,
//!   and a note says so.
//!
//! Members are taken in path order compared case-insensitively, as GZDoom sorts them, so of
//! two members with the same lump name the later path wins. The package becomes one WAD
//! assembled from its members (see `Wad::assembled`).
//!
//! Bounded: at most [`MAX_PACKAGE_ENTRIES`] members, each inflated to at most
//! [`MAX_MEMBER`](crate::limits::MAX_MEMBER) bytes and all the members read to at most
//! [`MAX_PACKAGE_BYTES`]; encrypted members and compression methods other than store and
//! deflate are errors naming the member.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use zip::ZipArchive;

use crate::formats::zip_member::{self, read_bounded};
use crate::formats::{FormatError, Result};
use crate::limits::doom::{MAX_PACKAGE_BYTES, MAX_PACKAGE_ENTRIES};

use super::wad::{is_map_marker, map_extent, LumpInfo, Origin, Wad};

/// Whether `head` starts like a zip: a local file header, or the end record of an empty zip.
pub fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// Whether the file at `path` is a zip (by its first bytes).
pub fn is_zip_file(path: &Path) -> Result<bool> {
    let mut head = [0u8; 4];
    let mut f = std::fs::File::open(path).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    let n = f.read(&mut head).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    Ok(is_zip(&head[..n]))
}

/// Whether a zip with these member names is a GZDoom package rather than another game's zip
/// (Saucerman's `Saucerdata.pak` also has a `maps/` folder, of `.map` files): it has a map WAD
/// in `maps/`, a member in a folder only GZDoom uses, a WAD at its root, or a root lump GZDoom
/// reads.
pub fn looks_like_doom_package<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    const ROOT_LUMPS: &[&str] = &[
        "MAPINFO", "ZMAPINFO", "UMAPINFO", "EMAPINFO", "DECORATE", "ZSCRIPT", "TEXTURES",
        "PLAYPAL", "COLORMAP", "TEXTURE1", "TEXTURE2", "PNAMES", "ANIMATED", "SWITCHES",
        "ANIMDEFS", "GAMEINFO", "SNDINFO", "GLDEFS", "DEHACKED", "LANGUAGE", "KEYCONF", "SBARINFO",
        "CVARINFO", "MENUDEF", "LOCKDEFS", "TERRAIN", "DECALDEF", "FONTDEFS",
    ];
    const FOLDERS: &[&str] = &[
        "flats",
        "textures",
        "patches",
        "sprites",
        "graphics",
        "hires",
        "acs",
        "voxels",
        "colormaps",
        "filter",
        "zscript",
        "models",
        "voices",
    ];
    let mut saucer_levels = false;
    let mut doom = false;
    for name in names {
        let path = name.replace('\\', "/");
        match path.split_once('/') {
            Some((folder, rest)) => {
                if folder.eq_ignore_ascii_case("LEVELS") {
                    saucer_levels = true;
                }
                let map_wad = folder.eq_ignore_ascii_case("maps") && has_ext(rest, "wad");
                if map_wad || FOLDERS.iter().any(|f| folder.eq_ignore_ascii_case(f)) {
                    doom = true;
                }
            }
            None => {
                if has_ext(&path, "wad") || ROOT_LUMPS.contains(&short_name(&path).as_str()) {
                    doom = true;
                }
            }
        }
    }
    doom && !saucer_levels
}

/// Whether the zip at `path` is a GZDoom package: named like one (`.pk3`, `.ipk3`, `.pke`),
/// or holding what [`looks_like_doom_package`] looks for. Reads only the central directory.
pub fn is_doom_package_file(path: &Path) -> bool {
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["pk3", "ipk3", "pke"].iter().any(|k| e.eq_ignore_ascii_case(k)));
    named
        || std::fs::File::open(path)
            .ok()
            .and_then(|f| ZipArchive::new(BufReader::new(f)).ok())
            .is_some_and(|a| looks_like_doom_package(a.file_names()))
}

fn has_ext(path: &str, ext: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, e)| e.eq_ignore_ascii_case(ext))
}

/// GZDoom's short name for a member: the file name without its extension, upper-cased and
/// cut to 8 characters.
pub fn short_name(path: &str) -> String {
    let base = path.rsplit('/').next().unwrap_or(path);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    stem.chars().take(8).collect::<String>().to_ascii_uppercase()
}

/// What a member is to the game, decided by its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemberRole {
    /// A lump in the global namespace (root files, `patches/`, `graphics/`).
    Global(Group),
    Flat,
    Sprite,
    /// A picture used whole as a texture and flat (`textures/`).
    Texture,
    /// A high-resolution replacement (`hires/`).
    Hires,
    /// `maps/NAME.wad`: a WAD holding map NAME.
    MapWad,
    /// A WAD at the root, loaded as a PWAD after the package.
    RootWad,
    /// A text member outside the namespaces (`actors/trees.txt`): a lump found only by its
    /// full path.
    PathOnly,
    /// In a folder mapscope does not read (the folder, lower-cased).
    Unread(String),
    /// A folder entry or a name with no file name.
    Nothing,
}

/// Where a global lump goes among the package's lumps: when names collide, patches win over
/// root lumps and root lumps over graphics, as a patch lookup should find the patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Graphics,
    Root,
    Patches,
}

/// The role of the member at `path` ('/'-separated).
pub fn member_role(path: &str) -> MemberRole {
    if path.ends_with('/') || short_name(path).is_empty() {
        return MemberRole::Nothing;
    }
    let Some((folder, rest)) = path.split_once('/') else {
        return if has_ext(path, "wad") {
            MemberRole::RootWad
        } else {
            MemberRole::Global(Group::Root)
        };
    };
    match folder.to_ascii_lowercase().as_str() {
        "flats" => MemberRole::Flat,
        "sprites" => MemberRole::Sprite,
        "textures" => MemberRole::Texture,
        "hires" => MemberRole::Hires,
        "patches" => MemberRole::Global(Group::Patches),
        "graphics" => MemberRole::Global(Group::Graphics),
        "maps" if has_ext(rest, "wad") => MemberRole::MapWad,
        "maps" => MemberRole::Unread("maps".into()),
        _ if is_text_member(rest) => MemberRole::PathOnly,
        other => MemberRole::Unread(other.to_string()),
    }
}

/// Whether a member outside the namespaces may be a script another lump includes: GZDoom
/// reads every member, but mapscope keeps only the text ones, not sounds or music.
fn is_text_member(path: &str) -> bool {
    let base = path.rsplit('/').next().unwrap_or(path);
    match base.rsplit_once('.') {
        None => true,
        Some((_, ext)) => {
            ["txt", "dec", "zs", "zsc", "zc"].iter().any(|e| ext.eq_ignore_ascii_case(e))
        }
    }
}

/// Opens the package at `path`: the package's WAD, then the WADs at its root.
pub fn open_package(path: &Path) -> Result<Vec<Wad>> {
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    read_package(&path.display().to_string(), BufReader::new(file))
}

/// One member that will be read.
pub(super) struct Wanted {
    pub index: usize,
    pub path: String,
    pub role: MemberRole,
}

/// Reads a package (`name` is used in messages): its WAD, then the WADs at its root.
pub fn read_package<R: Read + Seek>(name: &str, reader: R) -> Result<Vec<Wad>> {
    let mut archive = ZipArchive::new(reader).map_err(|e| {
        FormatError::new(name, "zip central directory", 0, format!("not a readable zip: {e}"))
    })?;
    if archive.len() > MAX_PACKAGE_ENTRIES {
        return Err(FormatError::new(
            name,
            "zip central directory",
            archive.central_directory_start(),
            format!("{} members, more than the {MAX_PACKAGE_ENTRIES} accepted", archive.len()),
        ));
    }
    let names: Vec<(usize, String)> = (0..archive.len())
        .filter_map(|i| archive.name_for_index(i).map(|raw| (i, raw.to_string())))
        .collect();
    let members = format!("{name}:");
    assemble_package(name, &members, names, |w| read_member(name, &mut archive, w))
}

/// The members of `names` (index in the archive, path) a package reads, and a note on the
/// folders it does not.
pub(super) fn wanted_members(names: Vec<(usize, String)>) -> (Vec<Wanted>, Option<String>) {
    let mut wanted = Vec::new();
    let mut unread: BTreeMap<String, usize> = BTreeMap::new();
    for (index, raw) in names {
        let path = raw.replace('\\', "/");
        match member_role(&path) {
            MemberRole::Nothing => {}
            MemberRole::Unread(folder) => *unread.entry(folder).or_default() += 1,
            role => wanted.push(Wanted { index, path, role }),
        }
    }
    // In the order the package's WAD lists them: namespaced ranges first, then maps, then
    // global lumps in the order that makes patches win name collisions (see `Group`); by
    // path within each. Members are read one at a time and appended, so the package is held
    // once.
    wanted.sort_by_cached_key(|w| (assembly_rank(&w.role), w.path.to_ascii_lowercase()));
    let note = (!unread.is_empty()).then(|| {
        let list: Vec<String> =
            unread.iter().map(|(folder, n)| format!("{folder}/ ({n})")).collect();
        format!("members not used by mapscope: {}", list.join(", "))
    });
    (wanted, note)
}

/// Assembles a package (`name` is used in messages) from its members (index in the archive,
/// path), reading each wanted one with `read`: its WAD, then the WADs at its root. A member
/// is named `members` followed by its path (`t.pk3:` for an archive's, the folder's own path
/// for a folder's, so that the name is a file one can open).
pub(super) fn assemble_package(
    name: &str,
    members: &str,
    names: Vec<(usize, String)>,
    mut read: impl FnMut(&Wanted) -> Result<Vec<u8>>,
) -> Result<Vec<Wad>> {
    let (wanted, unread) = wanted_members(names);
    let mut pkg = Assembler::new(name, members);
    if let Some(note) = unread {
        pkg.notes.push(format!("{name}: {note}"));
    }
    let mut total = 0usize;
    let mut open_range: Option<&str> = None;
    let mut root_wads = Vec::new();
    for w in wanted {
        let bytes = read(&w)?;
        total += bytes.len();
        if total > MAX_PACKAGE_BYTES {
            return Err(FormatError::missing(
                name,
                "package",
                format!("{}: the members read pass {} MiB in all", w.path, MAX_PACKAGE_BYTES >> 20),
            ));
        }
        let range = match w.role {
            MemberRole::Flat => Some(("FF_START", "FF_END")),
            MemberRole::Sprite => Some(("SS_START", "SS_END")),
            MemberRole::Texture => Some(("TX_START", "TX_END")),
            MemberRole::Hires => Some(("HI_START", "HI_END")),
            _ => None,
        };
        if open_range != range.map(|r| r.1) {
            if let Some(end) = open_range {
                pkg.marker(end);
            }
            if let Some((start, _)) = range {
                pkg.marker(start);
            }
            open_range = range.map(|r| r.1);
        }
        match w.role {
            MemberRole::MapWad => pkg.map_wad(&w.path, &bytes)?,
            MemberRole::RootWad => root_wads.push((w.path, bytes)),
            // '^' stands for '\', a sprite frame character zip names cannot hold.
            MemberRole::Sprite => {
                pkg.member_lump(&short_name(&w.path).replace('^', "\\"), &w.path, &bytes)
            }
            // Named by its path, which no lump name lookup (8 letters, no '/') meets.
            MemberRole::PathOnly => pkg.member_lump(&w.path.to_ascii_uppercase(), &w.path, &bytes),
            _ => pkg.member_lump(&short_name(&w.path), &w.path, &bytes),
        }
    }
    if let Some(end) = open_range {
        pkg.marker(end);
    }
    let mut wads = vec![pkg.finish()];
    for (path, bytes) in root_wads {
        wads.push(Wad::from_bytes(&format!("{members}{path}"), bytes)?);
    }
    Ok(wads)
}

/// Where a member's lump goes in the package's WAD (see [`read_package`]).
fn assembly_rank(role: &MemberRole) -> u8 {
    match role {
        MemberRole::Flat => 0,
        MemberRole::Sprite => 1,
        MemberRole::Texture => 2,
        MemberRole::Hires => 3,
        MemberRole::MapWad => 4,
        MemberRole::Global(Group::Graphics) => 5,
        MemberRole::Global(Group::Root) => 6,
        MemberRole::Global(Group::Patches) => 7,
        MemberRole::PathOnly => 8,
        MemberRole::RootWad | MemberRole::Unread(_) | MemberRole::Nothing => 9,
    }
}

fn read_member<R: Read + Seek>(
    name: &str,
    archive: &mut ZipArchive<R>,
    w: &Wanted,
) -> Result<Vec<u8>> {
    let error = |at: u64, msg: String| {
        FormatError::new(name, "zip member", at, format!("{}: {msg}", w.path))
    };
    let mut member = archive.by_index(w.index).map_err(|e| error(0, e.to_string()))?;
    let at = member.header_start();
    if member.encrypted() {
        return Err(error(at, "encrypted members are not supported".into()));
    }
    let hint = zip_member::size_hint(member.size(), member.compressed_size());
    read_bounded(&mut member, hint).map_err(|e| error(at, e.to_string()))
}

/// Builds the WAD a package becomes.
struct Assembler {
    name: String,
    /// What a member's path follows in its name (see [`assemble_package`]).
    members: String,
    data: Vec<u8>,
    lumps: Vec<LumpInfo>,
    origins: Vec<Origin>,
    paths: HashMap<String, usize>,
    notes: Vec<String>,
}

impl Assembler {
    fn new(name: &str, members: &str) -> Assembler {
        Assembler {
            name: name.to_string(),
            members: members.to_string(),
            data: Vec::new(),
            lumps: Vec::new(),
            origins: Vec::new(),
            paths: HashMap::new(),
            notes: Vec::new(),
        }
    }

    /// Appends a member's bytes; returns where they start.
    fn member(&mut self, path: &str, bytes: &[u8]) -> u32 {
        // The package cap (256 MiB) keeps every offset within u32.
        let start = self.data.len() as u32;
        self.data.extend_from_slice(bytes);
        self.origins.push(Origin { file: format!("{}{path}", self.members), start });
        start
    }

    fn member_lump(&mut self, lump: &str, path: &str, bytes: &[u8]) {
        let start = self.member(path, bytes);
        self.paths.insert(path.to_ascii_uppercase(), self.lumps.len());
        self.lumps.push(LumpInfo {
            name: lump.to_string(),
            offset: start,
            size: bytes.len() as u32,
            dir_offset: 0,
        });
    }

    fn marker(&mut self, name: &str) {
        let offset = self.data.len() as u32;
        self.lumps.push(LumpInfo { name: name.to_string(), offset, size: 0, dir_offset: 0 });
    }

    /// Adds the first map of the WAD `maps/NAME.wad` as map NAME, with its glBSP nodes.
    fn map_wad(&mut self, path: &str, bytes: &[u8]) -> Result<()> {
        let file = format!("{}{path}", self.members);
        let wad = Wad::from_bytes(&file, bytes.to_vec())?;
        let map = short_name(path);
        let lumps = wad.lumps();
        let markers: Vec<usize> = (0..lumps.len()).filter(|&i| is_map_marker(lumps, i)).collect();
        let Some(&marker) = markers.first() else {
            self.notes.push(format!("{file} holds no map; not loaded"));
            return Ok(());
        };
        if markers.len() > 1 {
            let others: Vec<&str> = markers[1..].iter().map(|&i| lumps[i].name.as_str()).collect();
            self.notes.push(format!(
                "{file}: only its first map ({}) is loaded, as {map}, as GZDoom does; not {}",
                lumps[marker].name,
                others.join(" ")
            ));
        }
        let original = lumps[marker].name.clone();
        let start = self.member(path, bytes);
        let copy = |this: &mut Assembler, k: usize, rename: Option<&str>| {
            let info = &lumps[k];
            // Markers' offsets are often garbage; only non-empty lumps were checked.
            let offset = if info.size == 0 { start } else { start + info.offset };
            this.lumps.push(LumpInfo {
                name: rename.unwrap_or(&info.name).to_string(),
                offset,
                size: info.size,
                dir_offset: info.dir_offset,
            });
        };
        copy(self, marker, Some(&map));
        for k in map_extent(lumps, marker) {
            copy(self, k, None);
        }
        // glBSP's nodes: a GL_<map> marker (renamed with the map) or GL_LEVEL, whose text
        // names the map, then its GL_ lumps.
        let gl_lumps = ["GL_VERT", "GL_SEGS", "GL_SSECT", "GL_NODES", "GL_PVS"];
        let own_marker = format!("GL_{original}");
        if let Some(g) = lumps.iter().position(|l| l.name == own_marker || l.name == "GL_LEVEL") {
            let rename = if map == original {
                Some(lumps[g].name.clone())
            } else if map.len() <= 5 && lumps[g].name == own_marker {
                Some(format!("GL_{map}"))
            } else {
                None
            };
            match rename {
                Some(name) => {
                    copy(self, g, Some(&name));
                    let run = lumps[g + 1..]
                        .iter()
                        .take_while(|l| gl_lumps.contains(&l.name.as_str()))
                        .count();
                    for k in g + 1..g + 1 + run {
                        copy(self, k, None);
                    }
                }
                None => self.notes.push(format!(
                    "{file}: glBSP nodes of {original} not used (the map is renamed {map})"
                )),
            }
        }
        Ok(())
    }

    fn finish(self) -> Wad {
        let mut wad = Wad::assembled(&self.name, self.data, self.lumps, self.origins, self.paths);
        wad.add_notes(self.notes);
        wad
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::WadStack;
    use crate::formats::doom::archive::writer::WadWriter;
    use std::io::{Cursor, Write};

    fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in members {
            if name.ends_with('/') {
                w.add_directory(*name, opts).unwrap();
            } else {
                w.start_file(*name, opts).unwrap();
                w.write_all(data).unwrap();
            }
        }
        w.finish().unwrap().into_inner()
    }

    fn map_wad(marker: &str) -> Vec<u8> {
        let mut w = WadWriter::pwad();
        w.marker(marker).lump("THINGS", vec![1; 10]).lump("LINEDEFS", vec![2; 14]);
        w.to_bytes()
    }

    #[test]
    fn short_names_follow_gzdoom() {
        assert_eq!(short_name("textures/walls/brick01.png"), "BRICK01");
        assert_eq!(short_name("TEXTURES.txt"), "TEXTURES");
        assert_eq!(short_name("graphics/verylongname.png"), "VERYLONG");
        assert_eq!(short_name("maps/map01.wad"), "MAP01");
        assert_eq!(short_name("noext"), "NOEXT");
    }

    #[test]
    fn roles_come_from_the_first_folder() {
        assert_eq!(member_role("flats/a/b.png"), MemberRole::Flat);
        assert_eq!(member_role("Sprites/TROOA1.png"), MemberRole::Sprite);
        assert_eq!(member_role("textures/x.png"), MemberRole::Texture);
        assert_eq!(member_role("hires/Flats/FLOOR1.png"), MemberRole::Hires);
        assert_eq!(member_role("patches/x.lmp"), MemberRole::Global(Group::Patches));
        assert_eq!(member_role("maps/MAP01.wad"), MemberRole::MapWad);
        assert_eq!(member_role("maps/readme.txt"), MemberRole::Unread("maps".into()));
        assert_eq!(member_role("sounds/dspistol.ogg"), MemberRole::Unread("sounds".into()));
        assert_eq!(member_role("actors/trees.txt"), MemberRole::PathOnly);
        assert_eq!(member_role("zscript/Monsters/imp.ZS"), MemberRole::PathOnly);
        assert_eq!(member_role("decorate/weapons"), MemberRole::PathOnly);
        assert_eq!(member_role("extra.wad"), MemberRole::RootWad);
        assert_eq!(member_role("MAPINFO.txt"), MemberRole::Global(Group::Root));
        assert_eq!(member_role("textures/"), MemberRole::Nothing);
    }

    #[test]
    fn doom_packages_are_told_from_other_zips() {
        assert!(looks_like_doom_package(["maps/MAP01.wad"]));
        assert!(looks_like_doom_package(["textures.txt", "readme.txt"]));
        assert!(looks_like_doom_package(["flats/", "flats/x.png"]));
        // Saucerman's package: LEVELS/*.wad and maps/*.map.
        assert!(!looks_like_doom_package(["LEVELS/l1.wad", "maps/l1.map", "Bitmaps/a.bmp"]));
        assert!(!looks_like_doom_package(["readme.txt", "maps/x.map"]));
    }

    #[test]
    fn maps_namespaces_and_globals_are_assembled() {
        let data = zip(&[
            ("maps/", b""),
            ("maps/MAP07.wad", &map_wad("MAP01")),
            ("flats/FLOOR9.raw", &[5; 4096]),
            ("textures/BRICK.png", b"fake"),
            ("sprites/TROOA^.lmp", b"spr"),
            ("PLAYPAL.lmp", &[7; 768]),
            ("patches/PLAYPAL.lmp", &[8; 768]),
            ("sounds/x.ogg", b"o"),
            ("actors/Trees.txt", b"actor Tree1 20555 {}"),
        ]);
        let wads = read_package("t.pk3", Cursor::new(data)).unwrap();
        assert_eq!(wads.len(), 1);
        let notes = wads[0].notes();
        assert!(notes.iter().any(|n| n.contains("sounds/ (1)")), "{notes:?}");
        assert!(!notes.iter().any(|n| n.contains("actors/")), "{notes:?}");
        let stack = WadStack::new(wads);
        assert_eq!(stack.map_names(), vec!["MAP07"]);
        let m = stack.map("MAP07").unwrap();
        assert_eq!(m.file, "t.pk3:maps/MAP07.wad");
        assert_eq!(
            m.lumps.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            ["THINGS", "LINEDEFS"]
        );
        let things = stack.lump_at(m.get("THINGS").unwrap()).unwrap();
        assert_eq!((things.data, things.file), (&[1u8; 10][..], "t.pk3:maps/MAP07.wad"));
        assert_eq!(things.offset, 12, "offset within the embedded WAD");
        // The patch wins the name collision with the root lump.
        let pal = stack.lump("PLAYPAL").unwrap();
        assert_eq!((pal.data[0], pal.file, pal.offset), (8, "t.pk3:patches/PLAYPAL.lmp", 0));
        assert_eq!(stack.flats().number("FLOOR9"), Some(0));
        // Namespaced lumps stay out of plain lookups.
        assert!(stack.lump("FLOOR9").is_none() && stack.lump("BRICK").is_none());
        assert_eq!(stack.loose_textures().len(), 1);
        assert!(stack.lump_num_by_path("TEXTURES/brick.PNG").is_some());
        assert_eq!(stack.sprites().entries()[0].name, "TROOA\\");
        // A text member outside the namespaces: by its path only.
        let trees = stack.lump_at(stack.lump_num_by_path("ACTORS/trees.TXT").unwrap()).unwrap();
        assert_eq!(
            (trees.data, trees.file),
            (&b"actor Tree1 20555 {}"[..], "t.pk3:actors/Trees.txt")
        );
        assert!(stack.lump("TREES").is_none());
    }

    #[test]
    fn every_textures_and_animdefs_variant_is_read_as_gzdoom_reads_them() {
        // GZDoom's lump name is the file name up to its last dot: TEXTURES.ench is a
        // TEXTURES lump, animdefs.diakatana an ANIMDEFS lump, and every one of a name is read.
        let data = zip(&[
            ("TEXTURES.ench", b"a"),
            ("textures.txt", b"b"),
            ("ANIMDEFS.outlaws", b"c"),
            ("animdefs.diakatana", b"d"),
            ("ANIMDEFS.ench", b"e"),
        ]);
        let stack = WadStack::new(read_package("v.pk3", Cursor::new(data)).unwrap());
        let texts = |name: &str| -> Vec<u8> {
            let lumps = stack.global_lumps_named(name);
            lumps.iter().map(|&(_, n)| stack.lump_at(n).unwrap().data[0]).collect()
        };
        // In path order, compared without case, as GZDoom sorts a package's members.
        assert_eq!(texts("TEXTURES"), b"ab");
        assert_eq!(texts("ANIMDEFS"), b"dec");
    }

    #[test]
    fn a_renamed_map_keeps_its_glbsp_nodes() {
        let mut w = WadWriter::pwad();
        w.marker("MAP01").lump("THINGS", vec![1; 10]).lump("LINEDEFS", vec![2; 14]);
        w.marker("GL_MAP01").lump("GL_VERT", b"gNd2".to_vec()).lump("GL_SEGS", vec![3; 10]);
        w.lump("OTHER", vec![9]);
        let data = zip(&[("maps/e1m4.wad", &w.to_bytes())]);
        let wads = read_package("g.pk3", Cursor::new(data)).unwrap();
        let names: Vec<&str> = wads[0].lumps().iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["E1M4", "THINGS", "LINEDEFS", "GL_E1M4", "GL_VERT", "GL_SEGS"]);
    }

    #[test]
    fn root_wads_follow_the_package() {
        let data = zip(&[("extra.wad", &map_wad("E1M1")), ("TEXTURES", b"")]);
        let wads = read_package("t.pk3", Cursor::new(data)).unwrap();
        assert_eq!(wads.iter().map(|w| w.name()).collect::<Vec<_>>(), ["t.pk3", "t.pk3:extra.wad"]);
        assert_eq!(WadStack::new(wads).map_names(), vec!["E1M1"]);
    }

    #[test]
    fn corrupt_packages_are_errors_naming_the_member() {
        let e =
            read_package("bad.pk3", Cursor::new(b"PK\x03\x04 not really".to_vec())).err().unwrap();
        assert_eq!((e.file.as_str(), e.structure.as_str()), ("bad.pk3", "zip central directory"));

        // A map WAD whose directory runs past its end: the error names the member.
        let mut broken = map_wad("MAP01");
        broken.truncate(broken.len() - 4);
        let data = zip(&[("maps/MAP01.wad", &broken)]);
        let e = read_package("p.pk3", Cursor::new(data)).err().unwrap();
        assert_eq!(e.file, "p.pk3:maps/MAP01.wad");
        assert_eq!(e.structure, "WAD directory");

        // A member whose bytes were damaged: the deflate stream or CRC check fails.
        let mut data = zip(&[("TEXTURES", &[b'x'; 5000])]);
        let at = data.windows(8).position(|w| w == b"TEXTURES").unwrap() + 8;
        for b in &mut data[at..at + 20] {
            *b ^= 0x5A;
        }
        let e = read_package("d.pk3", Cursor::new(data)).err().unwrap();
        assert_eq!(e.structure, "zip member");
        assert!(e.message.starts_with("TEXTURES: "), "{e}");
    }
}
