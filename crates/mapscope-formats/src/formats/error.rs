//! The one error type of every parser: which file, which structure, at which byte offset,
//! and what was wrong, so that a bad file is reported where it is bad, never by a panic.
//! A file that cannot be read, or that lacks a part a caller asked for, is reported the
//! same way without an offset.

use std::fmt;
use std::path::Path;

/// A parse failure naming the file, the structure being read and the byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    pub file: String,
    pub structure: String,
    /// Where the bad bytes are (0 unless `kind` is [`ErrorKind::Bytes`]).
    pub offset: u64,
    pub message: String,
    pub kind: ErrorKind,
}

/// What a [`FormatError`] is about, which decides how it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Bytes at `offset` break `structure`.
    Bytes,
    /// The file holds no `structure` that was asked for (no offset to point at).
    Missing,
    /// The file could not be read or listed.
    Io,
}

impl FormatError {
    pub fn new(file: &str, structure: &str, offset: u64, message: impl Into<String>) -> Self {
        FormatError {
            file: file.to_string(),
            structure: structure.to_string(),
            offset,
            message: message.into(),
            kind: ErrorKind::Bytes,
        }
    }

    /// `file` has no `structure` that could be used.
    pub fn missing(file: &str, structure: &str, message: impl Into<String>) -> Self {
        FormatError { kind: ErrorKind::Missing, ..FormatError::new(file, structure, 0, message) }
    }

    /// `path` could not be read (`action`: "cannot read", "cannot list").
    pub fn io(path: &Path, action: &str, error: &std::io::Error) -> Self {
        let file = path.display().to_string();
        FormatError {
            kind: ErrorKind::Io,
            ..FormatError::new(&file, "file", 0, format!("{action}: {error}"))
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::Bytes => write!(
                f,
                "{}: {} at offset {} (0x{:x}): {}",
                self.file, self.structure, self.offset, self.offset, self.message
            ),
            ErrorKind::Missing => write!(f, "{}: {}: {}", self.file, self.structure, self.message),
            ErrorKind::Io => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for FormatError {}

pub type Result<T> = std::result::Result<T, FormatError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_names_the_file_and_what_is_wrong() {
        let bytes = FormatError::new("a.wad", "header", 16, "bad");
        assert_eq!(bytes.to_string(), "a.wad: header at offset 16 (0x10): bad");
        let missing = FormatError::missing("T.ACT", "actor hierarchy", "none loaded");
        assert_eq!(missing.to_string(), "T.ACT: actor hierarchy: none loaded");
        let e = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let io = FormatError::io(Path::new("/x/b.wad"), "cannot read", &e);
        assert_eq!(io.to_string(), "/x/b.wad: cannot read: gone");
        assert_eq!(io.kind, ErrorKind::Io);
    }
}
