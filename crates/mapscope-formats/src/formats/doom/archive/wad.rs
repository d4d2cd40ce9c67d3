//! WAD files (IWAD/PWAD header and directory) and the stack of them the game loads.
//!
//! Lookups follow vanilla `w_wad.c`: all directories are concatenated in load order and a
//! name lookup returns the *last* lump with that name, so a PWAD replaces IWAD lumps.
//! Flats and sprites are found by namespace (`F_START`..`F_END`, `S_START`..`S_END`, and the
//! `FF_`/`SS_` forms PWADs use); their lists are merged so that a PWAD lump replaces the IWAD
//! lump of the same name *in place* (keeping its number, which flat animations depend on) and
//! new names are appended.
//!
//! A package (a PK3, [`super::pk3`]; a PK7; a mod folder, [`super::folder`]) joins the stack
//! as a WAD assembled from its members, with each lump remembering which member it came from
//! so errors name `package.pk3:path` (`folder/path`) and the offset within that member. Lumps between `TX_START` and `TX_END` (ZDoom's stand-alone
//! textures, a package's `textures/`) and a package's flats and sprites are namespaced as in
//! GZDoom: a plain name lookup never finds them, so a replacement texture cannot stand in for
//! a patch of the same name.

use std::collections::HashMap;
use std::path::Path;

use crate::formats::{FormatError, Reader, Result};

/// Size of one directory entry: offset, size, 8-byte name.
const DIR_ENTRY_SIZE: usize = 16;

/// The lumps that may follow a map marker, in vanilla order (`ML_THINGS`..`ML_BLOCKMAP`),
/// plus `BEHAVIOR` so Hexen-format maps are recognised (and then refused by the map parser).
pub const MAP_LUMP_NAMES: [&str; 11] = [
    "THINGS", "LINEDEFS", "SIDEDEFS", "VERTEXES", "SEGS", "SSECTORS", "NODES", "SECTORS", "REJECT",
    "BLOCKMAP", "BEHAVIOR",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WadKind {
    Iwad,
    Pwad,
}

/// One directory entry, validated against the file size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LumpInfo {
    /// Upper-cased name (vanilla compares names case-insensitively).
    pub name: String,
    pub offset: u32,
    pub size: u32,
    /// File offset of this entry in the directory, for error messages about the entry.
    pub dir_offset: u64,
}

/// Where a stretch of an assembled WAD's bytes came from: a package member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// `package.pk3:path/in/package`, as error messages name it.
    pub file: String,
    /// Offset of the member's first byte in the assembled data.
    pub start: u32,
}

/// One WAD file held in memory, or a package assembled into one.
pub struct Wad {
    name: String,
    kind: WadKind,
    data: Vec<u8>,
    lumps: Vec<LumpInfo>,
    /// For an assembled package: the members its data is made of, by `start`.
    origins: Vec<Origin>,
    /// For an assembled package: lumps by their member path, upper-cased.
    paths: HashMap<String, usize>,
    is_package: bool,
    /// What reading the file skipped or changed (a package's unread folders, say).
    notes: Vec<String>,
}

impl Wad {
    /// Reads and validates a WAD file.
    pub fn open(path: &Path) -> Result<Wad> {
        let data = std::fs::read(path).map_err(|e| FormatError::io(path, "cannot read", &e))?;
        Wad::from_bytes(&path.display().to_string(), data)
    }

    /// Parses a WAD held in memory; `name` is used in error messages.
    pub fn from_bytes(name: &str, data: Vec<u8>) -> Result<Wad> {
        let mut r = Reader::new(name, "WAD header", &data);
        let ident = r.bytes(4)?;
        let kind = match ident {
            b"IWAD" => WadKind::Iwad,
            b"PWAD" => WadKind::Pwad,
            _ => return Err(r.error_at(0, "not a WAD file (expected IWAD or PWAD)")),
        };
        let count = r.i32_le()?;
        let dir_pos = r.i32_le()?;
        if count < 0 {
            return Err(r.error_at(4, format!("negative lump count {count}")));
        }
        if dir_pos < 0 || dir_pos as usize > data.len() {
            return Err(r.error_at(
                8,
                format!("directory offset {dir_pos} outside the file of {} bytes", data.len()),
            ));
        }
        let mut d = Reader::new(name, "WAD directory", &data);
        d.seek(dir_pos as usize)?;
        d.check_count(count as usize, DIR_ENTRY_SIZE, "directory entries")?;
        let mut lumps = Vec::with_capacity(count as usize);
        for i in 0..count as usize {
            let dir_offset = d.pos() as u64;
            let offset = d.i32_le()?;
            let size = d.i32_le()?;
            let lump_name = d.name(8)?.to_ascii_uppercase();
            // Zero-size entries (markers) are never read, so their offsets do not matter;
            // many tools write garbage there.
            if size != 0 {
                let end = (offset as i64) + (size as i64);
                if offset < 0 || size < 0 || end > data.len() as i64 {
                    return Err(FormatError::new(
                        name,
                        "WAD directory",
                        dir_offset,
                        format!(
                            "entry {i} ({lump_name}) spans {offset}..{end}, outside the file \
                             of {} bytes",
                            data.len()
                        ),
                    ));
                }
            }
            lumps.push(LumpInfo {
                name: lump_name,
                offset: offset.max(0) as u32,
                size: size.max(0) as u32,
                dir_offset,
            });
        }
        Ok(Wad {
            name: name.to_string(),
            kind,
            data,
            lumps,
            origins: Vec::new(),
            paths: HashMap::new(),
            is_package: false,
            notes: Vec::new(),
        })
    }

    /// A package's members joined into one WAD: `data` holds the members back to back
    /// (`origins` says where each starts, in increasing order), `lumps` point into it, and
    /// `paths` gives each lump's member path (upper-cased).
    pub(crate) fn assembled(
        name: &str,
        data: Vec<u8>,
        lumps: Vec<LumpInfo>,
        origins: Vec<Origin>,
        paths: HashMap<String, usize>,
    ) -> Wad {
        Wad {
            name: name.to_string(),
            kind: WadKind::Pwad,
            data,
            lumps,
            origins,
            paths,
            is_package: true,
            notes: Vec::new(),
        }
    }

    pub(crate) fn add_notes(&mut self, notes: Vec<String>) {
        self.notes.extend(notes);
    }

    /// What reading the file skipped or changed.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Whether this is a package (PK3) assembled into a WAD.
    pub fn is_package(&self) -> bool {
        self.is_package
    }

    /// The file a byte of the data belongs to and its offset in that file.
    fn locate(&self, offset: u32) -> (&str, u64) {
        let i = self.origins.partition_point(|o| o.start <= offset);
        match i.checked_sub(1).and_then(|i| self.origins.get(i)) {
            Some(o) => (o.file.as_str(), (offset - o.start) as u64),
            None => (self.name.as_str(), offset as u64),
        }
    }

    /// The file lump `index` comes from (a package member, or this WAD).
    pub fn lump_file(&self, index: usize) -> &str {
        self.lumps.get(index).map_or(self.name.as_str(), |l| self.locate(l.offset).0)
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn kind(&self) -> WadKind {
        self.kind
    }

    pub fn lumps(&self) -> &[LumpInfo] {
        &self.lumps
    }

    /// A lump's bytes and position; `None` if `index` is out of range.
    pub fn lump(&self, index: usize) -> Option<Lump<'_>> {
        let info = self.lumps.get(index)?;
        let start = info.offset as usize;
        // Checked at load for non-empty lumps; empty lumps get an empty slice.
        let data = if info.size == 0 {
            &[][..]
        } else {
            self.data.get(start..start + info.size as usize)?
        };
        let (file, offset) = self.locate(info.offset);
        Some(Lump { name: &info.name, data, file, offset })
    }
}

/// A lump's bytes with enough context for error messages.
#[derive(Clone, Copy, Debug)]
pub struct Lump<'a> {
    pub name: &'a str,
    pub data: &'a [u8],
    /// The WAD file the lump comes from.
    pub file: &'a str,
    /// Offset of the lump's first byte within its file.
    pub offset: u64,
}

impl<'a> Lump<'a> {
    /// A bounds-checked reader over the lump whose errors give file offsets.
    pub fn reader(&self, structure: &'a str) -> Reader<'a> {
        Reader::with_base(self.file, structure, self.data, self.offset)
    }
}

/// A lump's position in the stack's concatenated directory.
pub type LumpNum = usize;

#[derive(Clone, Copy, Debug)]
struct DirRef {
    wad: usize,
    index: usize,
    space: Space,
}

/// The marker range a lump lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    Global,
    Flats,
    Sprites,
    /// `TX_START`..`TX_END`: whole pictures used as textures (ZDoom).
    Textures,
    /// `HI_START`..`HI_END`: high-resolution replacements (ZDoom; a package's `hires/`).
    Hires,
}

/// The range each lump of one file lies in. Markers themselves are global.
fn lump_spaces(lumps: &[LumpInfo]) -> Vec<Space> {
    let mut current = Space::Global;
    lumps
        .iter()
        .map(|info| {
            let (space, next) = match info.name.as_str() {
                "F_START" | "FF_START" => (Space::Global, Space::Flats),
                "S_START" | "SS_START" => (Space::Global, Space::Sprites),
                "TX_START" => (Space::Global, Space::Textures),
                "HI_START" => (Space::Global, Space::Hires),
                "F_END" | "FF_END" | "S_END" | "SS_END" | "TX_END" | "HI_END" => {
                    (Space::Global, Space::Global)
                }
                _ => (current, current),
            };
            current = next;
            space
        })
        .collect()
}

/// One entry of a namespace list (flats or sprites).
#[derive(Clone, Debug)]
pub struct NamespaceEntry {
    pub name: String,
    pub lump: LumpNum,
    /// Inner markers such as `F1_START`: counted in flat numbers, never drawn.
    pub is_marker: bool,
}

/// The lumps between a namespace's start and end markers, merged across the stack.
#[derive(Clone, Debug, Default)]
pub struct Namespace {
    entries: Vec<NamespaceEntry>,
    by_name: HashMap<String, usize>,
}

impl Namespace {
    pub fn entries(&self) -> &[NamespaceEntry] {
        &self.entries
    }

    /// Position of `name` in the list (vanilla flat number), ignoring markers.
    pub fn number(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_uppercase()).copied()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn add(&mut self, name: &str, lump: LumpNum, is_marker: bool, first_file: bool) {
        if is_marker {
            // Inner markers count in flat numbers only as the first file lays them out;
            // a PWAD's markers must not shift the numbers of the lumps it replaces.
            if first_file {
                self.entries.push(NamespaceEntry { name: name.to_string(), lump, is_marker });
            }
            return;
        }
        match self.by_name.get(name) {
            Some(&i) => self.entries[i].lump = lump,
            None => {
                self.by_name.insert(name.to_string(), self.entries.len());
                self.entries.push(NamespaceEntry { name: name.to_string(), lump, is_marker });
            }
        }
    }
}

/// Where a map's lumps are.
#[derive(Clone, Debug)]
pub struct MapLumps {
    pub name: String,
    /// The WAD file holding the map (for error messages).
    pub file: String,
    /// Directory-entry offset of the marker in that file.
    pub marker_dir_offset: u64,
    /// The lumps that follow the marker, by name (`THINGS`, `LINEDEFS`, ...).
    pub lumps: Vec<(String, LumpNum)>,
}

impl MapLumps {
    pub fn get(&self, name: &str) -> Option<LumpNum> {
        self.lumps.iter().find(|(n, _)| n == name).map(|&(_, l)| l)
    }
}

/// An IWAD plus PWADs, looked up the way the game does.
pub struct WadStack {
    wads: Vec<Wad>,
    dir: Vec<DirRef>,
    by_name: HashMap<String, LumpNum>,
    /// Package members by full path (upper-cased), last package winning.
    by_path: HashMap<String, LumpNum>,
    flats: Namespace,
    sprites: Namespace,
    /// Map names in directory order of first appearance, each with its last definition.
    maps: Vec<(String, LumpNum)>,
}

impl WadStack {
    /// Opens the files in load order (IWAD first); each is a WAD, a PK3 or a PK7 package, told
    /// apart by content, or a mod's folder. A package may add more than one WAD (the WADs at
    /// its root follow it).
    pub fn open<P: AsRef<Path>>(paths: &[P]) -> Result<WadStack> {
        let mut wads = Vec::new();
        for p in paths {
            let p = p.as_ref();
            if p.is_dir() {
                wads.extend(super::folder::open_folder(p)?);
            } else if super::pk3::is_zip_file(p)? {
                wads.extend(super::pk3::open_package(p)?);
            } else if super::pk7::is_7z_file(p)? {
                wads.extend(super::pk7::open_package(p)?);
            } else {
                wads.push(Wad::open(p)?);
            }
        }
        Ok(WadStack::new(wads))
    }

    /// Builds the stack from already parsed files in load order.
    pub fn new(wads: Vec<Wad>) -> WadStack {
        let mut stack = WadStack {
            wads,
            dir: Vec::new(),
            by_name: HashMap::new(),
            by_path: HashMap::new(),
            flats: Namespace::default(),
            sprites: Namespace::default(),
            maps: Vec::new(),
        };
        let mut first_flat_file = true;
        let mut first_sprite_file = true;
        for w in 0..stack.wads.len() {
            let base = stack.dir.len();
            let wad = &stack.wads[w];
            let lumps = &wad.lumps;
            for (i, (info, space)) in lumps.iter().zip(lump_spaces(lumps)).enumerate() {
                stack.dir.push(DirRef { wad: w, index: i, space });
                // Namespaced lumps are found through their namespace only (GZDoom); vanilla
                // WADs keep flats and sprites global, as vanilla does.
                let namespaced = match space {
                    Space::Global => false,
                    Space::Textures | Space::Hires => true,
                    Space::Flats | Space::Sprites => wad.is_package,
                };
                if !namespaced {
                    stack.by_name.insert(info.name.clone(), base + i);
                }
            }
            for (path, &i) in &wad.paths {
                stack.by_path.insert(path.clone(), base + i);
            }
            if collect_namespace(
                &mut stack.flats,
                lumps,
                base,
                &["F_START", "FF_START"],
                &["F_END", "FF_END"],
                first_flat_file,
            ) {
                first_flat_file = false;
            }
            if collect_namespace(
                &mut stack.sprites,
                lumps,
                base,
                &["S_START", "SS_START"],
                &["S_END", "SS_END"],
                first_sprite_file,
            ) {
                first_sprite_file = false;
            }
            for (i, info) in lumps.iter().enumerate() {
                if is_map_marker(lumps, i) {
                    match stack.maps.iter_mut().find(|(n, _)| *n == info.name) {
                        Some(entry) => entry.1 = base + i,
                        None => stack.maps.push((info.name.clone(), base + i)),
                    }
                }
            }
        }
        stack
    }

    pub fn wads(&self) -> &[Wad] {
        &self.wads
    }

    /// The lump with this number in the concatenated directory.
    pub fn lump_at(&self, num: LumpNum) -> Option<Lump<'_>> {
        let r = self.dir.get(num)?;
        self.wads[r.wad].lump(r.index)
    }

    /// The last lump with this name (case-insensitive), as `W_CheckNumForName`.
    pub fn lump_num(&self, name: &str) -> Option<LumpNum> {
        self.by_name.get(&name.to_ascii_uppercase()).copied()
    }

    /// The last lump with this name.
    pub fn lump(&self, name: &str) -> Option<Lump<'_>> {
        self.lump_num(name).and_then(|n| self.lump_at(n))
    }

    /// The last package member with this full path (case-insensitive), such as
    /// `textures/walls/brick.png`: how TEXTURES and GZDoom name lumps longer than 8 letters.
    pub fn lump_num_by_path(&self, path: &str) -> Option<LumpNum> {
        self.by_path.get(&path.to_ascii_uppercase()).copied()
    }

    /// Which file (position in [`WadStack::wads`]) lump `num` comes from.
    pub fn file_of(&self, num: LumpNum) -> Option<usize> {
        self.dir.get(num).map(|r| r.wad)
    }

    /// Every lump named `name` outside namespace ranges, in load order, with its file.
    pub fn global_lumps_named(&self, name: &str) -> Vec<(usize, LumpNum)> {
        let upper = name.to_ascii_uppercase();
        self.dir
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                r.space == Space::Global && self.wads[r.wad].lumps[r.index].name == upper
            })
            .map(|(n, r)| (r.wad, n))
            .collect()
    }

    /// Lumps between `TX_START` and `TX_END` (a package's `textures/`), in load order, with
    /// their file: pictures GZDoom uses whole as textures and flats.
    pub fn loose_textures(&self) -> Vec<(usize, LumpNum)> {
        self.dir
            .iter()
            .enumerate()
            .filter(|(_, r)| r.space == Space::Textures)
            .map(|(n, r)| (r.wad, n))
            .collect()
    }

    /// Lumps between `HI_START` and `HI_END` (a package's `hires/`), in load order, with
    /// their file: pictures replacing the textures and flats of their names at those
    /// textures' world size.
    pub fn hires_pictures(&self) -> Vec<(usize, LumpNum)> {
        self.dir
            .iter()
            .enumerate()
            .filter(|(_, r)| r.space == Space::Hires)
            .map(|(n, r)| (r.wad, n))
            .collect()
    }

    /// Flats between `F_START`/`FF_START` and `F_END`/`FF_END`, numbered from the first lump
    /// after `F_START` with inner markers included.
    pub fn flats(&self) -> &Namespace {
        &self.flats
    }

    /// Sprite lumps between `S_START`/`SS_START` and `S_END`/`SS_END`.
    pub fn sprites(&self) -> &Namespace {
        &self.sprites
    }

    /// Map names in directory order (a map redefined by a later file keeps its place).
    pub fn map_names(&self) -> Vec<String> {
        self.maps.iter().map(|(n, _)| n.clone()).collect()
    }

    /// The lumps of `name` from the last file that defines it.
    pub fn map(&self, name: &str) -> Result<MapLumps> {
        let upper = name.to_ascii_uppercase();
        let Some(&(_, marker)) = self.maps.iter().find(|(n, _)| *n == upper) else {
            let file = self.wads.last().map(|w| w.name.as_str()).unwrap_or("(no WAD)");
            let known = self.map_names();
            let shown = if known.len() > 12 {
                format!("{} ... {}", known[..6].join(" "), known[known.len() - 3..].join(" "))
            } else {
                known.join(" ")
            };
            return Err(FormatError::new(
                file,
                "WAD directory",
                0,
                format!("no map named {upper} (maps here: {shown})"),
            ));
        };
        let r = self.dir[marker];
        let wad = &self.wads[r.wad];
        let mut lumps: Vec<(String, LumpNum)> = Vec::new();
        for k in map_extent(&wad.lumps, r.index) {
            let name = &wad.lumps[k].name;
            if name != "ENDMAP" && !lumps.iter().any(|(n, _)| n == name) {
                lumps.push((name.clone(), marker + (k - r.index)));
            }
        }
        Ok(MapLumps {
            name: upper,
            file: wad.lump_file(r.index).to_string(),
            marker_dir_offset: wad.lumps[r.index].dir_offset,
            lumps,
        })
    }
}

/// Whether entry `i` is a map marker: a binary map's marker is followed by THINGS, a UDMF
/// map's by TEXTMAP.
pub(crate) fn is_map_marker(lumps: &[LumpInfo], i: usize) -> bool {
    let next = lumps.get(i + 1).map(|n| n.name.as_str());
    let name = lumps.get(i).map_or("", |l| l.name.as_str());
    matches!(next, Some("THINGS") | Some("TEXTMAP"))
        && !MAP_LUMP_NAMES.contains(&name)
        && name != "TEXTMAP"
}

/// The directory entries after map marker `marker` that belong to its map: for UDMF
/// everything up to and including ENDMAP (ZNODES, BEHAVIOR, DIALOGUE, ...); for binary maps
/// the run of map lump names, ending at the first other name or the first repeated one.
pub(crate) fn map_extent(lumps: &[LumpInfo], marker: usize) -> std::ops::Range<usize> {
    let first = marker + 1;
    let udmf = lumps.get(first).is_some_and(|l| l.name == "TEXTMAP");
    let mut end = first;
    while let Some(info) = lumps.get(end) {
        if udmf {
            end += 1;
            if info.name == "ENDMAP" {
                break;
            }
            continue;
        }
        let seen = lumps[first..end].iter().any(|l| l.name == info.name);
        if !MAP_LUMP_NAMES.contains(&info.name.as_str()) || seen {
            break;
        }
        end += 1;
    }
    first..end
}

/// Adds the lumps of one file's namespace ranges to `ns`; returns whether the file had one.
fn collect_namespace(
    ns: &mut Namespace,
    lumps: &[LumpInfo],
    base: LumpNum,
    starts: &[&str],
    ends: &[&str],
    first_file: bool,
) -> bool {
    let mut inside = false;
    let mut found = false;
    for (i, info) in lumps.iter().enumerate() {
        let name = info.name.as_str();
        if starts.contains(&name) {
            inside = true;
            found = true;
        } else if ends.contains(&name) {
            inside = false;
        } else if inside {
            let is_marker = info.size == 0 && (name.ends_with("_START") || name.ends_with("_END"));
            ns.add(name, base + i, is_marker, first_file);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::writer::WadWriter;

    fn wad(name: &str, w: &WadWriter) -> Wad {
        Wad::from_bytes(name, w.to_bytes()).expect("test wad parses")
    }

    #[test]
    fn later_files_override_by_name_and_namespaces_merge_in_place() {
        let mut iwad = WadWriter::iwad();
        iwad.lump("PLAYPAL", vec![1; 4])
            .marker("F_START")
            .marker("F1_START")
            .lump("AAA", vec![0; 4096])
            .lump("BBB", vec![0; 4096])
            .marker("F1_END")
            .marker("F_END");
        let mut pwad = WadWriter::pwad();
        pwad.lump("PLAYPAL", vec![2; 4])
            .marker("FF_START")
            .lump("BBB", vec![9; 4096])
            .lump("CCC", vec![0; 4096])
            .marker("FF_END");
        let stack = WadStack::new(vec![wad("i.wad", &iwad), wad("p.wad", &pwad)]);
        assert_eq!(stack.lump("playpal").unwrap().data, &[2, 2, 2, 2]);
        let f = stack.flats();
        // F1_START, AAA, BBB, F1_END, CCC
        assert_eq!(f.len(), 5);
        assert_eq!(f.number("AAA"), Some(1));
        assert_eq!(f.number("BBB"), Some(2));
        assert_eq!(f.number("CCC"), Some(4));
        assert_eq!(f.number("F1_START"), None);
        let bbb = stack.lump_at(f.entries()[2].lump).unwrap();
        assert_eq!(bbb.data[0], 9);
        assert_eq!(bbb.file, "p.wad");
    }

    #[test]
    fn maps_listed_in_order_last_file_wins() {
        let mut iwad = WadWriter::iwad();
        for m in ["MAP01", "MAP02"] {
            iwad.marker(m);
            for l in &MAP_LUMP_NAMES[..10] {
                iwad.lump(l, vec![0; 4]);
            }
        }
        let mut pwad = WadWriter::pwad();
        pwad.marker("MAP03").lump("THINGS", vec![]).marker("MAP01").lump("THINGS", vec![1; 10]);
        let stack = WadStack::new(vec![wad("i.wad", &iwad), wad("p.wad", &pwad)]);
        assert_eq!(stack.map_names(), vec!["MAP01", "MAP02", "MAP03"]);
        let m1 = stack.map("map01").unwrap();
        assert_eq!(m1.file, "p.wad");
        assert_eq!(m1.lumps.len(), 1);
        let m2 = stack.map("MAP02").unwrap();
        assert_eq!(m2.lumps.len(), 10);
        let e = stack.map("MAP09").unwrap_err();
        assert!(e.message.contains("no map named MAP09"), "{e}");
    }

    #[test]
    fn truncated_and_corrupt_headers_are_errors() {
        let e = Wad::from_bytes("t.wad", b"IWAD\x01\x00".to_vec()).err().unwrap();
        assert_eq!(e.file, "t.wad");
        assert_eq!(e.structure, "WAD header");
        assert_eq!(e.offset, 4);

        let e = Wad::from_bytes("t.wad", b"JUNKJUNKJUNK".to_vec()).err().unwrap();
        assert!(e.message.contains("not a WAD"));

        // Huge count: directory would need far more bytes than exist.
        let mut b = b"PWAD".to_vec();
        b.extend(0x7fff_ffffi32.to_le_bytes());
        b.extend(12i32.to_le_bytes());
        let e = Wad::from_bytes("h.wad", b).err().unwrap();
        assert_eq!(e.structure, "WAD directory");
        assert_eq!(e.offset, 12);

        // Directory past the end of the file.
        let mut b = b"PWAD".to_vec();
        b.extend(1i32.to_le_bytes());
        b.extend(1000i32.to_le_bytes());
        let e = Wad::from_bytes("d.wad", b).err().unwrap();
        assert_eq!(e.offset, 8);
    }

    #[test]
    fn entry_past_end_of_file_is_an_error_naming_the_entry() {
        let mut w = WadWriter::pwad();
        w.lump("GOOD", vec![1; 8]).lump("BAD", vec![1; 8]);
        let mut b = w.to_bytes();
        // Second directory entry: grow its size past the end of the file.
        let dir = i32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
        let size_at = dir + DIR_ENTRY_SIZE + 4;
        b[size_at..size_at + 4].copy_from_slice(&100_000i32.to_le_bytes());
        let e = Wad::from_bytes("x.wad", b).err().unwrap();
        assert_eq!(e.structure, "WAD directory");
        assert_eq!(e.offset, (dir + DIR_ENTRY_SIZE) as u64);
        assert!(e.message.contains("BAD"), "{e}");
    }
}
