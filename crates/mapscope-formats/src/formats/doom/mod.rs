//! Doom (vanilla 1.9 / Chocolate Doom behaviour): WAD files, maps, pictures, textures, flats,
//! sprites, thing types, BSP geometry, animation and light specials, and the scene builder.
//!
//! Entry points: [`WadStack::open`] (IWAD then PWADs and PK3 packages), [`WadStack::map_names`],
//! [`build_scene`] / [`build_scene_with`], and [`DoomLevel`] for `info`.
//!
//! Folders: `actors` (a mod's DECORATE and ZScript things), `archive` (WADs, packages,
//! writers), `map` (the map's records, UDMF, MAPINFO, thing types), `nodes` (node formats,
//! the node builder, subsector polygons), `graphics` (pictures, palettes, flats, sprites,
//! textures), `specials` (animation, lights, Boom, 3D
//! floors, slopes, polyobjects), and `build` (the scene builder); `script_tokens` is the
//! lexer the text lumps of several folders share.

pub mod actors;
pub mod archive;
pub mod build;
pub mod graphics;
pub mod map;
pub mod nodes;
pub mod records;
pub mod script_tokens;
pub mod specials;
pub mod walk;

#[cfg(test)]
mod node_test_support;
#[cfg(test)]
mod testwad;

pub use archive::wad::{Wad, WadKind, WadStack};
pub use build::{
    build_level_scene, build_scene, build_scene_with, player_start, sky_texture_name, BuildOptions,
    DoomLevel, PlayerStart, VIEW_HEIGHT,
};
pub use map::MapData;
