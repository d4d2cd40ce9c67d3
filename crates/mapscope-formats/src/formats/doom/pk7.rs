//! PK7 packages: 7z archives GZDoom loads as it loads PK3s (same folders, same lump names;
//! see [`super::pk3`]). Read with the pure-Rust `sevenz-rust2` decoder (LZMA, LZMA2, BCJ,
//! delta, deflate, copy; no encryption).
//!
//! Bounded like PK3s: the start header must place the archive's header inside the file and
//! that header is at most [`MAX_HEADER`] bytes; at most [`super::pk3::MAX_ENTRIES`] members;
//! each member read to at most [`zip_member::MAX_MEMBER`] bytes whatever its header claims,
//! and all of them to at most [`super::pk3::MAX_PACKAGE_BYTES`]. Members of folders mapscope
//! does not read are decoded (a solid block is one stream) but not kept.

use std::collections::HashMap;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use sevenz_rust2::{ArchiveReader, Password};

use crate::formats::zip_member::MAX_MEMBER;
use crate::formats::{FormatError, Result};

use super::pk3::{assemble_package, wanted_members, MAX_ENTRIES, MAX_PACKAGE_BYTES};
use super::wad::Wad;

/// The 7z signature.
const SIGNATURE: &[u8] = b"7z\xBC\xAF\x27\x1C";
/// Size of the start header (signature, version, CRC, next header offset, size and CRC).
const START_HEADER: u64 = 32;
/// Most bytes the archive's header (its member list) may take.
pub const MAX_HEADER: u64 = 64 << 20;

/// Whether `head` starts like a 7z archive.
pub fn is_7z(head: &[u8]) -> bool {
    head.starts_with(SIGNATURE)
}

/// Whether the file at `path` is a 7z archive (by its first bytes).
pub fn is_7z_file(path: &Path) -> Result<bool> {
    let mut head = [0u8; 6];
    let mut f = std::fs::File::open(path).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    let n = f.read(&mut head).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    Ok(is_7z(&head[..n]))
}

/// Opens the package at `path`: the package's WAD, then the WADs at its root.
pub fn open_package(path: &Path) -> Result<Vec<Wad>> {
    let file = std::fs::File::open(path).map_err(|e| FormatError::io(path, "cannot read", &e))?;
    read_package(&path.display().to_string(), BufReader::new(file))
}

/// Reads a 7z package (`name` is used in messages).
pub fn read_package<R: Read + Seek>(name: &str, mut reader: R) -> Result<Vec<Wad>> {
    let error = |at: u64, what: &str, msg: String| FormatError::new(name, what, at, msg);
    let len = reader.seek(SeekFrom::End(0)).map_err(|e| error(0, "7z file", e.to_string()))?;
    let mut start = [0u8; START_HEADER as usize];
    reader
        .seek(SeekFrom::Start(0))
        .and_then(|_| reader.read_exact(&mut start))
        .map_err(|_| error(0, "7z start header", "file shorter than its start header".into()))?;
    if !is_7z(&start) {
        return Err(error(0, "7z start header", "not a 7z archive".into()));
    }
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&start[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let (offset, size) = (u64_at(12), u64_at(20));
    let end = START_HEADER.checked_add(offset).and_then(|e| e.checked_add(size));
    if end.is_none_or(|e| e > len) || size > MAX_HEADER {
        return Err(error(
            12,
            "7z start header",
            format!(
                "header of {size} bytes at {offset} past the start header lies outside the \
                 {len}-byte file or passes {MAX_HEADER} bytes"
            ),
        ));
    }
    reader.seek(SeekFrom::Start(0)).map_err(|e| error(0, "7z file", e.to_string()))?;
    let mut archive = ArchiveReader::new(reader, Password::empty())
        .map_err(|e| error(0, "7z header", format!("not a readable 7z archive: {e}")))?;
    let entries = &archive.archive().files;
    if entries.len() > MAX_ENTRIES {
        return Err(error(
            0,
            "7z header",
            format!("{} members, more than the {MAX_ENTRIES} accepted", entries.len()),
        ));
    }
    let names: Vec<(usize, String)> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.is_directory())
        .map(|(i, e)| (i, e.name().to_string()))
        .collect();
    let (wanted, _) = wanted_members(names.clone());
    let wanted: HashMap<String, ()> = wanted.into_iter().map(|w| (w.path, ())).collect();

    // Decode every member in archive order, keeping the wanted ones.
    let mut kept: HashMap<String, Vec<u8>> = HashMap::new();
    let mut total = 0usize;
    let mut failure: Option<FormatError> = None;
    let decoded = archive.for_each_entries(|entry, data| {
        let path = entry.name().replace('\\', "/");
        if entry.is_directory() || !wanted.contains_key(&path) {
            return Ok(true);
        }
        let fail = |msg: String| Some(error(0, "7z member", format!("{path}: {msg}")));
        if entry.size() > MAX_MEMBER as u64 {
            failure = fail(format!("{} bytes, more than the {MAX_MEMBER} accepted", entry.size()));
            return Ok(false);
        }
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        data.take(MAX_MEMBER as u64 + 1).read_to_end(&mut bytes)?;
        total += bytes.len();
        if bytes.len() > MAX_MEMBER || total > MAX_PACKAGE_BYTES {
            failure = fail(format!("members past {} MiB", MAX_PACKAGE_BYTES >> 20));
            return Ok(false);
        }
        kept.insert(path, bytes);
        Ok(true)
    });
    if let Some(e) = failure {
        return Err(e);
    }
    decoded.map_err(|e| error(0, "7z member", format!("cannot decode: {e}")))?;
    assemble_package(name, names, |w| {
        kept.remove(&w.path)
            .ok_or_else(|| error(0, "7z member", format!("{}: not decoded", w.path)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A 7z archive of `members` (path, bytes), LZMA2-compressed in one solid block.
    fn seven_zip(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = sevenz_rust2::ArchiveWriter::new(Cursor::new(Vec::new())).unwrap();
        for (path, bytes) in members {
            let entry = sevenz_rust2::ArchiveEntry::new_file(path);
            w.push_archive_entry(entry, Some(*bytes)).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn a_pk7_opens_like_a_pk3() {
        let map = crate::formats::doom::node_test_support::tiny_map();
        let data = seven_zip(&[
            ("maps/E1M9.wad", &map),
            ("sounds/dsbang.ogg", b"not read"),
            ("TEXTURES.txt", b"WallTexture X, 8, 8 { Patch P, 0, 0 }"),
            ("flats/ZZ.lmp", &[7; 4096]),
        ]);
        assert!(is_7z(&data));
        // Opened by path as any file of a stack is.
        let path = std::env::temp_dir().join(format!("mapscope-pk7-{}.pk7", std::process::id()));
        std::fs::write(&path, &data).unwrap();
        let opened = super::super::wad::WadStack::open(&[&path]).map(|s| s.map_names());
        let _ = std::fs::remove_file(&path);
        assert_eq!(opened.map_err(|e| e.to_string()), Ok(vec!["E1M9".to_string()]));
        let wads = match read_package("t.pk7", Cursor::new(data)) {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let stack = super::super::wad::WadStack::new(wads);
        assert_eq!(stack.map_names(), ["E1M9"]);
        assert!(stack.lump("TEXTURES").is_some());
        assert!(stack.flats().number("ZZ").is_some());
        let notes: Vec<String> = stack.wads().iter().flat_map(|w| w.notes().to_vec()).collect();
        assert!(notes.iter().any(|n| n.contains("sounds/ (1)")), "{notes:?}");
    }

    #[test]
    fn bad_archives_are_errors() {
        let err = |bytes: Vec<u8>| match read_package("t.pk7", Cursor::new(bytes)) {
            Ok(_) => panic!("read"),
            Err(e) => e.message,
        };
        assert!(err(b"7z".to_vec()).contains("shorter than its start header"));
        assert!(err(vec![0; 40]).contains("not a 7z archive"));
        // A header said to lie past the end of the file.
        let mut start = SIGNATURE.to_vec();
        start.extend([0, 4, 0, 0, 0, 0]);
        start.extend(1000u64.to_le_bytes());
        start.extend(10u64.to_le_bytes());
        start.extend([0; 4]);
        assert!(err(start.clone()).contains("outside the 32-byte file"), "{}", err(start));
    }
}
