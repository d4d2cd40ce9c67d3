//! Saturn Quake `.LEV` levels (SlaveDriver engine, big-endian): the sky, level data (nodes,
//! planes, quads, tile sets, vertices, entities), the texture list and the segments after it,
//! walked to end of file; the scene build with subtractive rgb555 vertex light.
//!
//! Entry points: [`LevFile::parse`], [`build_scene`], and `writer` for test files (with the `writers` feature).

pub mod build;
pub mod colour;
pub mod coplanar;
pub mod entities;
pub mod file;
pub mod geometry;
pub mod junctions;
pub mod level;
pub mod records;
pub mod sky;
pub mod tail;
pub mod textures;
pub mod tiles;
pub mod walk;
#[cfg(any(test, feature = "writers"))]
pub mod writer;

pub use build::build_scene;
pub use file::{LevFile, SegmentOffsets};
