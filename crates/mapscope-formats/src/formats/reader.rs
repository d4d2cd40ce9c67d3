//! A bounds-checked cursor over a file's bytes, the only way parsers read: every read names
//! the structure it reads, fails with a `FormatError` at its offset instead of panicking, and
//! counts claimed by the file are checked against the bytes that remain before anything is
//! allocated for them (`MAX_ALLOC` caps any single allocation).

use super::{FormatError, Result};
use crate::limits::MAX_ALLOC;

/// A bounds-checked cursor over a byte slice. Every read names the structure it belongs to so
/// errors say what was being read and where.
#[derive(Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute offset of `data[0]` within the file, for error messages.
    base: u64,
    file: &'a str,
    structure: &'a str,
}

impl<'a> Reader<'a> {
    pub fn new(file: &'a str, structure: &'a str, data: &'a [u8]) -> Self {
        Reader { data, pos: 0, base: 0, file, structure }
    }

    /// A reader over `data` that reports offsets relative to `base` in the file.
    pub fn with_base(file: &'a str, structure: &'a str, data: &'a [u8], base: u64) -> Self {
        Reader { data, pos: 0, base, file, structure }
    }

    /// The same bytes, read as another structure.
    pub fn structure(&self, structure: &'a str) -> Self {
        Reader { structure, ..self.clone() }
    }

    pub fn error(&self, message: impl Into<String>) -> FormatError {
        self.error_at(self.pos, message)
    }

    pub fn error_at(&self, pos: usize, message: impl Into<String>) -> FormatError {
        FormatError::new(self.file, self.structure, self.base + pos as u64, message)
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn seek(&mut self, pos: usize) -> Result<()> {
        if pos > self.data.len() {
            return Err(
                self.error_at(pos, format!("offset past end of data ({} bytes)", self.data.len()))
            );
        }
        self.pos = pos;
        Ok(())
    }

    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.error(format!("needs {n} bytes, only {} remain", self.remaining())));
        }
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// A sub-slice at an absolute position without moving the cursor.
    pub fn slice_at(&self, pos: usize, n: usize) -> Result<&'a [u8]> {
        match pos.checked_add(n) {
            Some(end) if end <= self.data.len() => Ok(&self.data[pos..end]),
            _ => Err(self.error_at(
                pos,
                format!("{n} bytes at {pos} exceed data of {} bytes", self.data.len()),
            )),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let b = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(b);
        Ok(a)
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }
    pub fn i8(&mut self) -> Result<i8> {
        Ok(self.u8()? as i8)
    }
    pub fn u16_le(&mut self) -> Result<u16> {
        self.array().map(u16::from_le_bytes)
    }
    pub fn i16_le(&mut self) -> Result<i16> {
        self.array().map(i16::from_le_bytes)
    }
    pub fn u32_le(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }
    pub fn i32_le(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }
    pub fn u16_be(&mut self) -> Result<u16> {
        self.array().map(u16::from_be_bytes)
    }
    pub fn i16_be(&mut self) -> Result<i16> {
        self.array().map(i16::from_be_bytes)
    }
    pub fn u32_be(&mut self) -> Result<u32> {
        self.array().map(u32::from_be_bytes)
    }
    pub fn i32_be(&mut self) -> Result<i32> {
        self.array().map(i32::from_be_bytes)
    }
    pub fn f32_le(&mut self) -> Result<f32> {
        self.array().map(f32::from_le_bytes)
    }
    pub fn f32_be(&mut self) -> Result<f32> {
        self.array().map(f32::from_be_bytes)
    }

    /// A fixed-size name field: bytes up to the first NUL, as (lossy) text.
    pub fn name(&mut self, n: usize) -> Result<String> {
        let b = self.bytes(n)?;
        let end = b.iter().position(|&c| c == 0).unwrap_or(n);
        Ok(String::from_utf8_lossy(&b[..end]).into_owned())
    }

    /// Checks that `count` records of `record_size` bytes fit in what remains and under the
    /// allocation cap, before the caller allocates for them.
    pub fn check_count(&self, count: usize, record_size: usize, what: &str) -> Result<()> {
        let need = count.checked_mul(record_size.max(1));
        match need {
            Some(n) if n <= self.remaining() && n <= MAX_ALLOC => Ok(()),
            _ => Err(self.error(format!(
                "{count} {what} of {record_size} bytes do not fit in the {} bytes that remain",
                self.remaining()
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_end_are_errors_with_offsets() {
        let data = [1u8, 2, 3];
        let mut r = Reader::with_base("f.wad", "header", &data, 100);
        assert_eq!(r.u16_le().unwrap(), 0x0201);
        let e = r.u32_le().unwrap_err();
        assert_eq!(e.offset, 102);
        assert_eq!(e.structure, "header");
        assert!(e.to_string().contains("f.wad"));
    }

    #[test]
    fn count_checks_refuse_huge_counts() {
        let data = [0u8; 16];
        let r = Reader::new("f", "dir", &data);
        assert!(r.check_count(1, 16, "entries").is_ok());
        assert!(r.check_count(2, 16, "entries").is_err());
        assert!(r.check_count(usize::MAX, 16, "entries").is_err());
    }
}
