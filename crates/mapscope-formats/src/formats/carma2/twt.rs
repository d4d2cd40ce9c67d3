//! TWT archives: a little-endian directory of 56-byte entries (u32 size, NUL-terminated name),
//! then the files in directory order, each padded to a multiple of 4 bytes. Read in place.

use crate::formats::{Reader, Result};

const ENTRY_SIZE: usize = 56;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TwtEntry {
    pub name: String,
    /// Unpadded size.
    pub size: usize,
    /// Offset of the data in the archive.
    pub offset: usize,
}

/// A TWT archive held in memory; entries are slices of it.
pub struct Twt {
    name: String,
    data: Vec<u8>,
    entries: Vec<TwtEntry>,
    notes: Vec<String>,
}

impl Twt {
    /// Parses the directory and checks every entry against the bytes that exist.
    pub fn from_bytes(name: &str, data: Vec<u8>) -> Result<Twt> {
        let mut r = Reader::new(name, "TWT header", &data);
        let total = r.u32_le()? as usize;
        let count = r.u32_le()? as usize;
        let mut notes = Vec::new();
        if total != data.len() {
            notes
                .push(format!("{name}: header size {total} differs from file size {}", data.len()));
        }
        let mut d = r.structure("TWT directory");
        if d.check_count(count, ENTRY_SIZE, "entries").is_err() {
            return Err(d.error_at(
                4,
                format!("TWT entry count {count} does not fit in {} bytes", data.len()),
            ));
        }
        let mut entries = Vec::with_capacity(count);
        let mut offset = 8 + count * ENTRY_SIZE;
        for _ in 0..count {
            let dir_at = d.pos();
            let size = d.u32_le()? as usize;
            let entry_name = d.name(ENTRY_SIZE - 4)?;
            let end = offset.checked_add(size).filter(|&e| e <= data.len());
            let Some(end) = end else {
                return Err(d.error_at(
                    dir_at,
                    format!(
                        "TWT entry {entry_name} (size {size} at {offset}) runs past end of file \
                         ({})",
                        data.len()
                    ),
                ));
            };
            entries.push(TwtEntry { name: entry_name, size, offset });
            offset = end.next_multiple_of(4);
        }
        Ok(Twt { name: name.to_string(), data, entries, notes })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn entries(&self) -> &[TwtEntry] {
        &self.entries
    }

    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The bytes of an entry (checked against the archive when it was opened).
    pub fn data(&self, entry: &TwtEntry) -> &[u8] {
        self.data.get(entry.offset..entry.offset + entry.size).unwrap_or_default()
    }

    /// Entries with their bytes, in directory order.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.entries.iter().map(|e| (e.name.as_str(), self.data(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::writer::write_twt;

    #[test]
    fn entries_are_padded_to_four_bytes() {
        let bytes = write_twt(&[("A.DAT", b"12345"), ("B.MAT", b"xyz"), ("C.PIX", b"abcd")]);
        assert_eq!(bytes.len(), 8 + 3 * 56 + 8 + 4 + 4);
        let twt = Twt::from_bytes("t.twt", bytes).unwrap();
        let files: Vec<_> = twt.files().collect();
        assert_eq!(files[0], ("A.DAT", &b"12345"[..]));
        assert_eq!(files[1], ("B.MAT", &b"xyz"[..]));
        assert_eq!(files[2], ("C.PIX", &b"abcd"[..]));
        assert!(twt.notes().is_empty());
    }

    #[test]
    fn huge_counts_and_sizes_are_errors() {
        let mut bytes = write_twt(&[("A.DAT", b"12345")]);
        bytes[4..8].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
        let e = Twt::from_bytes("t.twt", bytes.clone()).err().unwrap();
        assert!(e.message.contains("entry count 2147483647 does not fit"), "{e}");
        bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
        bytes[8..12].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        let e = Twt::from_bytes("t.twt", bytes).err().unwrap();
        assert!(e.message.contains("runs past end of file"), "{e}");
        assert_eq!(e.offset, 8);
    }
}
