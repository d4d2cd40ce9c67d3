//! The one error type of every parser: which file, which structure, at which byte offset,
//! and what was wrong, so that a bad file is reported where it is bad, never by a panic.

use std::fmt;

/// A parse failure naming the file, the structure being read and the byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    pub file: String,
    pub structure: String,
    pub offset: u64,
    pub message: String,
}

impl FormatError {
    pub fn new(file: &str, structure: &str, offset: u64, message: impl Into<String>) -> Self {
        FormatError {
            file: file.to_string(),
            structure: structure.to_string(),
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} at offset {} (0x{:x}): {}",
            self.file, self.structure, self.offset, self.offset, self.message
        )
    }
}

impl std::error::Error for FormatError {}

pub type Result<T> = std::result::Result<T, FormatError>;
