//! Carmageddon 2 (BRender 1.x datafiles): TWT archives, ACT actor hierarchies, DAT models,
//! MAT materials, PIX/P08/P16/PAL pixelmaps, and the track scene builder.
//!
//! Every file is a sequence of big-endian records ([`records`]); known records are decoded by
//! content, unknown ones skipped by their length word. Objects reference each other by
//! identifier (the name stored in the record, case-insensitive), never by file name.

pub mod actors;
pub mod build;
pub mod library;
pub mod materials;
pub mod models;
pub mod pixelmaps;
pub mod record_lookup;
pub mod records;
pub mod surfaces;
pub mod track_files;
pub mod transform;
pub mod twt;
pub mod walk;
#[cfg(any(test, feature = "writers"))]
pub mod writer;

pub use build::{build_scene, choose_palette, BuildReport, Palette, Subject};
pub use library::Library;
pub use track_files::{read_palette, Entry, TrackFiles};
