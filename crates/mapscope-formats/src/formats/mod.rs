//! Pure parsers: bytes in, each game's own structures out. No GPU, no rendering decisions.

#[cfg(any(test, feature = "writers"))]
mod byte_writer;
pub mod carma2;
pub mod doom;
mod error;
pub mod marathon;
mod reader;
pub mod saturn;
pub mod saucer;
pub mod zip_member;

#[cfg(test)]
mod writer_identity_tests;

#[cfg(any(test, feature = "writers"))]
pub use byte_writer::{layout_hash, ByteWriter, Endian, Slot};
pub use error::{ErrorKind, FormatError, Result};
pub use reader::Reader;
