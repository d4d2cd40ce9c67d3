//! Attack of the Saucerman (Windows, 1999): the `Saucerdata.pak` zip, level WADs (lookup
//! tables, bitmaps, models, sounds), level maps (a 64x64 terrain grid, block definitions and
//! instances, extra tiles, billboards, model instances, entities) and the scene builder.
//!
//! Entry points: [`Pak::parse`] and [`pak::pair_levels`] to find levels, [`SaucerLevel::load`]
//! for a WAD + map pair, [`build_scene`] for the [`crate::scene::Scene`].

pub mod animation;
pub mod build;
pub mod geometry;
#[cfg(any(test, feature = "writers"))]
pub mod large;
pub mod level;
pub mod lut;
pub mod map;
pub mod map_items;
pub mod model;
pub mod model_placement;
pub mod packed;
pub mod pak;
pub mod pcx;
pub mod records;
pub mod sound;
pub mod texture_def;
pub mod textures;
pub mod wad;
pub mod walk;
#[cfg(any(test, feature = "writers"))]
pub mod writer;

#[cfg(test)]
mod fixture_tests;

pub use build::build_scene;
pub use level::SaucerLevel;
pub use pak::Pak;
