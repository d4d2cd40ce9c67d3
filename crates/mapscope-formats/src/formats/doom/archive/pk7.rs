//! PK7 packages: 7z archives GZDoom loads as it loads PK3s (same folders, same lump names;
//! see [`super::pk3`]). Read with the pure-Rust `sevenz-rust2` decoder (LZMA, LZMA2, BCJ,
//! delta, deflate, copy; no encryption), once [`super::pk7_header`] has walked the header
//! and found it within bounds (dictionaries, counts, coder chains).
//!
//! Bounded like PK3s: the start header must place the archive's header inside the file and
//! that header is at most [`MAX_PK7_HEADER`] bytes; at most [`MAX_PACKAGE_ENTRIES`] members;
//! each member read to at most [`MAX_MEMBER`] bytes whatever its header claims,
//! and all of them to at most [`MAX_PACKAGE_BYTES`]. Only folders holding a member
//! mapscope reads are decoded, each up to its last such member (a solid folder is one
//! stream), and what that decodes is at most [`MAX_PK7_DECODED`] bytes; LZMA2 is decoded on one
//! thread, so one dictionary is reserved at a time.

use std::collections::HashMap;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use sevenz_rust2::{Archive, BlockDecoder, Password};

use crate::formats::{FormatError, Result};
use crate::limits::doom::{
    MAX_PACKAGE_BYTES, MAX_PACKAGE_ENTRIES, MAX_PK7_DECODED, MAX_PK7_HEADER,
};
use crate::limits::MAX_MEMBER;

use super::pk3::{assemble_package, wanted_members};
use super::pk7_header::{check_archive, START_HEADER};
use super::wad::Wad;

/// The 7z signature.
const SIGNATURE: &[u8] = b"7z\xBC\xAF\x27\x1C";

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
    if end.is_none_or(|e| e > len) || size > MAX_PK7_HEADER {
        return Err(error(
            12,
            "7z start header",
            format!(
                "header of {size} bytes at {offset} past the start header lies outside the \
                 {len}-byte file or passes {MAX_PK7_HEADER} bytes"
            ),
        ));
    }
    check_archive(name, &mut reader, len, &start)?;
    let password = Password::empty();
    let archive = Archive::read(&mut reader, &password)
        .map_err(|e| error(0, "7z header", format!("not a readable 7z archive: {e}")))?;
    let entries = &archive.files;
    if entries.len() > MAX_PACKAGE_ENTRIES {
        return Err(error(
            0,
            "7z header",
            format!("{} members, more than the {MAX_PACKAGE_ENTRIES} accepted", entries.len()),
        ));
    }
    let names: Vec<(usize, String)> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| !e.is_directory())
        .map(|(i, e)| (i, e.name().to_string()))
        .collect();
    let (wanted, _) = wanted_members(names.clone());
    let wanted: HashMap<usize, String> = wanted.into_iter().map(|w| (w.index, w.path)).collect();

    let plan =
        decode_plan(&archive, &mut reader, &wanted).map_err(|msg| error(0, "7z folders", msg))?;
    let mut kept: HashMap<String, Vec<u8>> = HashMap::new();
    let mut total = 0usize;
    let mut failure: Option<FormatError> = None;
    for (block, mut left) in plan {
        let decoder = BlockDecoder::new(1, block, &archive, &password, &mut reader);
        let first = archive.stream_map.block_first_file_index.get(block).copied().unwrap_or(0);
        let mut index = first;
        let decoded = decoder.for_each_entries(&mut |entry, data| {
            let this = index;
            index += 1;
            let Some(path) = wanted.get(&this) else {
                // The crate does not skip what is left unread: the next member would start
                // inside this one.
                std::io::copy(data, &mut std::io::sink())?;
                return Ok(true);
            };
            left -= 1;
            let fail = |msg: String| Some(error(0, "7z member", format!("{path}: {msg}")));
            if entry.size() > MAX_MEMBER as u64 {
                failure =
                    fail(format!("{} bytes, more than the {MAX_MEMBER} accepted", entry.size()));
                return Ok(false);
            }
            let mut bytes = Vec::with_capacity(entry.size() as usize);
            data.take(MAX_MEMBER as u64 + 1).read_to_end(&mut bytes)?;
            total += bytes.len();
            if bytes.len() > MAX_MEMBER || total > MAX_PACKAGE_BYTES {
                failure = fail(format!("members past {} MiB", MAX_PACKAGE_BYTES >> 20));
                return Ok(false);
            }
            kept.insert(path.clone(), bytes);
            Ok(left > 0)
        });
        if let Some(e) = failure {
            return Err(e);
        }
        decoded.map_err(|e| error(0, "7z member", format!("cannot decode folder {block}: {e}")))?;
    }
    assemble_package(name, &format!("{name}:"), names, |w| {
        kept.remove(&w.path)
            .ok_or_else(|| error(0, "7z member", format!("{}: not decoded", w.path)))
    })
}

/// The folders to decode, each with how many wanted members it holds: those holding one,
/// refused when reaching their last wanted member decodes more than [`MAX_PK7_DECODED`] bytes.
/// A folder's members are the files the crate walks for it: its sub-stream count of them
/// from its first.
fn decode_plan<R: Read + Seek>(
    archive: &Archive,
    reader: &mut R,
    wanted: &HashMap<usize, String>,
) -> std::result::Result<Vec<(usize, usize)>, String> {
    let password = Password::empty();
    let mut plan: Vec<(usize, usize)> = Vec::new();
    let mut work = 0u64;
    for (block, &first) in archive.stream_map.block_first_file_index.iter().enumerate() {
        let decoder = BlockDecoder::new(1, block, archive, &password, reader);
        let (mut skipped, mut wanted_here, mut reach) = (0u64, 0usize, 0u64);
        for (i, f) in decoder.entries().iter().enumerate() {
            skipped = skipped.saturating_add(f.size());
            if wanted.contains_key(&(first + i)) {
                wanted_here += 1;
                reach = skipped;
            }
        }
        if wanted_here > 0 {
            work = work.saturating_add(reach);
            if work > MAX_PK7_DECODED {
                return Err(format!(
                    "reaching the members read means decoding {work} bytes or more, past the \
                     {MAX_PK7_DECODED} accepted"
                ));
            }
            plan.push((block, wanted_here));
        }
    }
    Ok(plan)
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
        let opened =
            crate::formats::doom::archive::wad::WadStack::open(&[&path]).map(|s| s.map_names());
        let _ = std::fs::remove_file(&path);
        assert_eq!(opened.map_err(|e| e.to_string()), Ok(vec!["E1M9".to_string()]));
        let wads = match read_package("t.pk7", Cursor::new(data)) {
            Ok(w) => w,
            Err(e) => panic!("{e}"),
        };
        let stack = crate::formats::doom::archive::wad::WadStack::new(wads);
        assert_eq!(stack.map_names(), ["E1M9"]);
        assert!(stack.lump("TEXTURES").is_some());
        assert!(stack.flats().number("ZZ").is_some());
        let notes: Vec<String> = stack.wads().iter().flat_map(|w| w.notes().to_vec()).collect();
        assert!(notes.iter().any(|n| n.contains("sounds/ (1)")), "{notes:?}");
    }

    fn message(bytes: Vec<u8>) -> FormatError {
        match read_package("t.pk7", Cursor::new(bytes)) {
            Ok(_) => panic!("read"),
            Err(e) => e,
        }
    }

    #[test]
    fn hand_written_archives_open_with_either_header() {
        use crate::formats::doom::archive::pk7_writer::{seven_zip, SevenZipLayout};
        let map = crate::formats::doom::node_test_support::tiny_map();
        let big: Vec<u8> = (0..200_000u32).map(|i| (i * 7) as u8).collect();
        for encoded in [None, Some(16)] {
            let layout = SevenZipLayout { encoded_header: encoded, ..SevenZipLayout::default() };
            let members: [(&str, &[u8]); 3] = [
                ("music/d_runnin.ogg", &big),
                ("maps/MAP07.wad", &map),
                ("flats/ZZ.lmp", &[7; 4096]),
            ];
            let wads = match read_package("t.pk7", Cursor::new(seven_zip(&members, &layout))) {
                Ok(w) => w,
                Err(e) => panic!("{encoded:?}: {e}"),
            };
            let stack = crate::formats::doom::archive::wad::WadStack::new(wads);
            assert_eq!(stack.map_names(), ["MAP07"]);
            assert!(stack.flats().number("ZZ").is_some());
        }
    }

    #[test]
    fn dictionaries_past_the_cap_are_refused_before_decoding() {
        use crate::formats::doom::archive::pk7_writer::{seven_zip, SevenZipLayout};
        use crate::limits::doom::PK7_DICTIONARY_FLOOR;
        let members: [(&str, &[u8]); 1] = [("maps/MAP01.wad", b"PWAD")];
        // LZMA2 code 40 declares 4 GiB - 1; 28 is 64 MiB, the floor; 29 is 96 MiB, more than
        // twice the 4 bytes it unpacks.
        for (code, encoded) in [(40, None), (40, Some(16)), (29, Some(16)), (29, None)] {
            let layout = SevenZipLayout {
                encoded_header: encoded,
                ..SevenZipLayout::lzma2_dictionary(code)
            };
            let e = message(seven_zip(&members, &layout));
            assert!(e.message.contains("LZMA2 dictionary of"), "{code}: {e}");
            let want = if encoded.is_some() { "7z header (decoded)" } else { "7z header" };
            assert_eq!(e.structure, want);
            assert!(e.offset > 0, "{e}");
        }
        let ok = seven_zip(&members, &SevenZipLayout::lzma2_dictionary(28));
        assert_eq!(1u64 << 26, PK7_DICTIONARY_FLOOR);
        // It passes the header check (then fails as a package: a bare "PWAD" is no WAD).
        assert!(!message(ok).message.contains("dictionary"));
        // The header's own folder declaring 4 GiB.
        let layout = SevenZipLayout { encoded_header: Some(40), ..SevenZipLayout::default() };
        let e = message(seven_zip(&members, &layout));
        assert!(e.message.contains("LZMA2 dictionary of 4294967295 bytes"), "{e}");
        assert_eq!(e.structure, "7z header");
        // LZMA declaring 4 GiB, and LZMA with too few property bytes (the crate would panic).
        let lzma = |props: Vec<u8>| SevenZipLayout {
            data_method: vec![3, 1, 1],
            data_props: props,
            encoded_header: None,
        };
        let e = message(seven_zip(&members, &lzma(vec![0x5D, 0xFF, 0xFF, 0xFF, 0xFF])));
        assert!(e.message.contains("LZMA dictionary of 4294967295 bytes"), "{e}");
        let e = message(seven_zip(&members, &lzma(vec![0x5D])));
        assert!(e.message.contains("LZMA properties of 1 bytes"), "{e}");
    }

    #[test]
    fn counts_past_the_bytes_left_are_refused() {
        use crate::formats::doom::archive::pk7_writer::{seven_zip, SevenZipLayout};
        let layout = SevenZipLayout { encoded_header: None, ..SevenZipLayout::default() };
        let mut bytes = seven_zip(&[("a.txt", b"xyz")], &layout);
        // The files count sits after the files property id (0x05) near the header's end:
        // make it 2^32 (a 7z number with five extra bytes), then fix the header CRC.
        let header_at = 32 + u64::from_le_bytes(bytes[12..20].try_into().unwrap()) as usize;
        let files_at =
            header_at + bytes[header_at..].windows(2).rposition(|w| w == [0x05, 0x01]).unwrap() + 1;
        bytes.splice(files_at..files_at + 1, [0xF8, 0, 0, 0, 0, 1]);
        let header_len = bytes.len() - header_at;
        bytes[20..28].copy_from_slice(&(header_len as u64).to_le_bytes());
        let mut c = flate2::Crc::new();
        c.update(&bytes[header_at..]);
        bytes[28..32].copy_from_slice(&c.sum().to_le_bytes());
        let mut c = flate2::Crc::new();
        c.update(&bytes[12..32]);
        bytes[8..12].copy_from_slice(&c.sum().to_le_bytes());
        let e = message(bytes);
        assert!(e.message.contains("4294967296 files"), "{e}");
        assert_eq!(e.offset as usize, files_at, "{e}");
    }

    #[test]
    fn an_archive_without_a_header_is_refused() {
        // The crate would look for a header at every byte of the last MiB.
        let mut bytes = SIGNATURE.to_vec();
        bytes.extend([0, 4]);
        bytes.extend([0; 24]);
        bytes.extend(vec![0x17; 4096]);
        assert!(message(bytes).message.contains("names no header"));
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
