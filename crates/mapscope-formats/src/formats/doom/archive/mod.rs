//! The files a Doom stack is made of: WAD files and the stack of them (`wad`), PK3 and PK7
//! packages and mod folders read as WADs (`pk3`, `pk7`, with the 7z header walked first in
//! `pk7_header`, `folder`), and
//! the writers the tests and tools build WADs and 7z archives with. Grouped because they hold
//! lumps without knowing what the lumps mean.

pub mod folder;
pub mod pk3;
pub mod pk7;
pub mod pk7_header;
#[cfg(any(test, feature = "writers"))]
pub mod pk7_writer;
pub mod wad;
#[cfg(any(test, feature = "writers"))]
pub mod writer;
