//! Bungie wad container (versions 0..4): header, directory, and the tagged chunks of each
//! entry. Offsets are relative to the data fork; a chunk's next offset is relative to the
//! start of its entry.

use super::container::{self, DataFork};
use super::mac_roman;
use crate::formats::{Reader, Result};

pub const HEADER_SIZE: usize = 128;
/// Highest wad version the engine knows (Infinity).
pub const MAX_WAD_VERSION: u16 = 4;
/// Data versions: 0 Marathon 1, 1 Marathon 2, 2 Infinity.
pub const MAX_DATA_VERSION: u16 = 2;
pub const DATA_VERSION_M1: u16 = 0;

/// Size of the per-entry application data the engine reads its level list from.
const LEVEL_APP_DATA: usize = 74;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WadHeader {
    pub version: u16,
    pub data_version: u16,
    pub name: String,
    pub checksum: u32,
    pub directory_offset: u32,
    pub entry_count: u16,
    pub application_data_size: u16,
    /// Chunk header size in effect (12 for versions 0 and 1).
    pub entry_header_size: u16,
    /// Directory entry size before the application data (8 for versions 0 and 1).
    pub directory_entry_base_size: u16,
    pub parent_checksum: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectoryEntry {
    /// Offset of the entry's chunks within the data fork; checked against the data only when
    /// the entry is read, so one bad entry leaves the others loadable.
    pub offset: usize,
    pub length: usize,
    /// Entry index (level number); the position in the directory for versions 0 and 1.
    pub index: u16,
    /// Level name from the 74-byte application data, when present.
    pub app_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk<'a> {
    pub tag: [u8; 4],
    /// Offset of the chunk data within the data fork (for error messages).
    pub offset: usize,
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// The tag as text; bytes outside ASCII keep their code point (0x8C stays \u{8c}): a tag
    /// is four bytes of identifier, shown as the shared fixtures record it, not Mac Roman text.
    pub fn tag_text(&self) -> String {
        tag_text(self.tag)
    }
}

pub fn tag_text(tag: [u8; 4]) -> String {
    tag.iter().map(|&b| b as char).collect()
}

/// A parsed wad: header and directory over the data fork bytes.
pub struct Wad<'a> {
    pub file: &'a str,
    pub fork: DataFork,
    pub header: WadHeader,
    pub entries: Vec<DirectoryEntry>,
    data: &'a [u8],
}

impl<'a> Wad<'a> {
    /// Parses the wrapper (if any), header and directory of `file_bytes`.
    pub fn parse(file: &'a str, file_bytes: &'a [u8]) -> Result<Wad<'a>> {
        let fork = container::locate(file, file_bytes)?;
        let data = fork.slice(file_bytes);
        let base = fork.offset as u64;
        let header = parse_header(&Reader::with_base(file, "wad header", data, base))?;
        let entries = parse_directory(file, data, base, &header)?;
        Ok(Wad { file, fork, header, entries, data })
    }

    /// The data fork bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The chunks of entry `i` in file order. Errors on chunk chains that leave the entry, run
    /// backwards (loops) or claim more bytes than the entry holds.
    pub fn chunks(&self, i: usize) -> Result<Vec<Chunk<'a>>> {
        let Some(entry) = self.entries.get(i) else {
            return Err(self.reader("wad directory").error(format!("no entry {i}")));
        };
        let entry_data = self.entry_bytes(entry)?;
        let hsize = self.header.entry_header_size as usize;
        let base = (self.fork.offset + entry.offset) as u64;
        let mut r = Reader::with_base(self.file, "wad chunk header", entry_data, base);
        let mut chunks = Vec::new();
        let mut pos = 0usize;
        // Each step moves forward by at least a header, so this ends within the entry.
        while pos + hsize <= entry_data.len() {
            r.seek(pos)?;
            let tag: [u8; 4] = r.bytes(4)?.try_into().unwrap_or([0; 4]);
            let next = r.u32_be()? as usize;
            let length = r.u32_be()? as usize;
            let start = pos + hsize;
            if length > entry_data.len() - start {
                return Err(r.error_at(
                    pos + 8,
                    format!(
                        "chunk '{}' claims {length} bytes but its entry has {} left",
                        tag_text(tag),
                        entry_data.len() - start
                    ),
                ));
            }
            chunks.push(Chunk {
                tag,
                offset: entry.offset + start,
                data: &entry_data[start..start + length],
            });
            if next == 0 {
                break;
            }
            if next < start {
                return Err(r.error_at(
                    pos + 4,
                    format!(
                        "chunk '{}' links back to offset {next} (chunk chain loops)",
                        tag_text(tag)
                    ),
                ));
            }
            pos = next;
        }
        Ok(chunks)
    }

    /// Whether the stored checksum is the CRC-32 of the data fork with the field zeroed; None
    /// when no checksum is stored. Real Marathon 1 files do not match, so this is only shown.
    pub fn checksum_matches(&self) -> Option<bool> {
        if self.header.checksum == 0 {
            return None;
        }
        let mut copy = self.data.to_vec();
        copy[68..72].fill(0);
        Some(container::crc32(&copy) == self.header.checksum)
    }

    fn entry_bytes(&self, entry: &DirectoryEntry) -> Result<&'a [u8]> {
        let r = Reader::with_base(self.file, "wad entry", self.data, self.fork.offset as u64);
        r.slice_at(entry.offset, entry.length)
    }

    fn reader(&self, structure: &'a str) -> Reader<'a> {
        Reader::with_base(self.file, structure, self.data, self.fork.offset as u64)
    }
}

/// The first chunk with `tag` (the engine's lookup).
pub fn find<'c, 'a>(chunks: &'c [Chunk<'a>], tag: &[u8; 4]) -> Option<&'c Chunk<'a>> {
    chunks.iter().find(|c| &c.tag == tag)
}

fn parse_header(r: &Reader) -> Result<WadHeader> {
    let mut r = r.clone();
    if r.len() < HEADER_SIZE {
        return Err(
            r.error(format!("file has {} bytes, the wad header needs {HEADER_SIZE}", r.len()))
        );
    }
    let version = r.u16_be()?;
    let data_version = r.u16_be()?;
    if version > MAX_WAD_VERSION {
        return Err(r.error_at(0, format!("unknown wad version {version} (known: 0..4)")));
    }
    if data_version > MAX_DATA_VERSION {
        return Err(r.error_at(2, format!("unknown data version {data_version} (known: 0..2)")));
    }
    let name = c_string(r.bytes(64)?);
    let checksum = r.u32_be()?;
    let directory_offset = r.u32_be()?;
    let entry_count = r.u16_be()?;
    let mut application_data_size = r.u16_be()?;
    let mut entry_header_size = r.u16_be()?;
    let mut directory_entry_base_size = r.u16_be()?;
    let parent_checksum = r.u32_be()?;
    if version < 2 {
        entry_header_size = 12;
        directory_entry_base_size = 8;
        if version == 0 {
            application_data_size = 0;
        }
    } else {
        if entry_header_size == 0 {
            entry_header_size = 16;
        }
        if directory_entry_base_size == 0 {
            directory_entry_base_size = 10;
        }
        if entry_header_size < 12 {
            return Err(r.error_at(80, format!("chunk header size {entry_header_size} < 12")));
        }
        if directory_entry_base_size < 10 {
            return Err(
                r.error_at(82, format!("directory entry size {directory_entry_base_size} < 10"))
            );
        }
    }
    Ok(WadHeader {
        version,
        data_version,
        name,
        checksum,
        directory_offset,
        entry_count,
        application_data_size,
        entry_header_size,
        directory_entry_base_size,
        parent_checksum,
    })
}

fn parse_directory(
    file: &str,
    data: &[u8],
    base: u64,
    h: &WadHeader,
) -> Result<Vec<DirectoryEntry>> {
    let mut r = Reader::with_base(file, "wad directory", data, base);
    r.seek(h.directory_offset as usize)?;
    let base_size = h.directory_entry_base_size as usize;
    let size = base_size + h.application_data_size as usize;
    r.check_count(h.entry_count as usize, size, "directory entries")?;
    let mut entries = Vec::with_capacity(h.entry_count as usize);
    for i in 0..h.entry_count {
        let start = r.pos();
        let offset = r.u32_be()? as usize;
        let length = r.u32_be()? as usize;
        let index = if h.version >= 2 { r.u16_be()? } else { i };
        r.seek(start + base_size)?;
        let app = r.bytes(h.application_data_size as usize)?;
        let app_name = (app.len() >= LEVEL_APP_DATA).then(|| c_string(&app[8..LEVEL_APP_DATA]));
        entries.push(DirectoryEntry { offset, length, index, app_name });
    }
    Ok(entries)
}

/// Mac Roman text up to the first NUL (real files carry garbage after it).
pub fn c_string(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    mac_roman::decode(&bytes[..end])
}
