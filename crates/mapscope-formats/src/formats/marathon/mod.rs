//! Marathon 1, 2 and Infinity: scenario wads (plain, MacBinary II or AppleSingle), their
//! levels, the Shapes file, and the scene builder. Their text is Mac Roman ([`mac_roman`]).
//!
//! Entry points: [`Wad::parse`], [`Level::load`], [`level_names`], [`ShapesFile::parse`].

pub mod animator;
pub mod automap;
pub mod build;
pub mod cells;
pub mod container;
pub mod definitions;
pub mod level;
pub mod lights;
pub mod mac_roman;
pub mod map;
pub mod panels;
pub mod platforms;
pub mod records;
pub mod shapes;
#[cfg(any(test, feature = "writers"))]
pub mod station;
pub mod summary;
pub mod textures;
pub mod wad;
pub mod walk;
#[cfg(any(test, feature = "writers"))]
pub mod writer;

pub use level::{level_names, Level};
pub use shapes::ShapesFile;
pub use wad::Wad;

/// One world unit in map units (distances and heights).
pub const WORLD_ONE: i32 = 1024;

#[cfg(test)]
mod tests;
