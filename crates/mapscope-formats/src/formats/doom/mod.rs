//! Doom (vanilla 1.9 / Chocolate Doom behaviour): WAD files, maps, pictures, textures, flats,
//! sprites, thing types, BSP geometry, animation and light specials, and the scene builder.
//!
//! Entry points: [`WadStack::open`] (IWAD then PWADs and PK3 packages), [`WadStack::map_names`],
//! [`build_scene`] / [`build_scene_with`], and [`DoomLevel`] for `info`.

pub mod animation;
pub mod animdefs;
pub mod boom;
mod boom_build;
pub mod boom_views;
pub mod bsp;
pub mod build;
pub mod flats;
pub mod floors_3d;
pub mod glbsp_nodes;
pub mod lights;
pub mod line_styles;
pub mod map;
pub mod map_info;
pub mod node_builder;
pub mod nodes;
pub mod palette;
pub mod palette_match;
pub mod picture;
pub mod pk3;
pub mod pk7;
pub mod pk7_header;
#[cfg(any(test, feature = "writers"))]
pub mod pk7_writer;
pub mod png_lump;
pub mod polyobjects;
pub mod script_tokens;
pub mod sector_colors;
pub mod slope_things;
pub mod slopes;
pub mod sprite_memory;
pub mod sprites;
pub mod status_bar;
pub mod texture_memory;
pub mod texture_scale;
pub mod textures;
pub mod textures_lump;
pub mod things;
pub mod udmf;
pub mod udmf_map;
pub mod udmf_props;
pub mod vanilla_map;
pub mod wad;
#[cfg(any(test, feature = "writers"))]
pub mod writer;
pub mod zdoom_nodes;

#[cfg(test)]
mod node_test_support;
#[cfg(test)]
mod testwad;

pub use build::{
    build_level_scene, build_scene, build_scene_with, player_start, sky_texture_name, BuildOptions,
    DoomLevel, PlayerStart, VIEW_HEIGHT,
};
pub use map::MapData;
pub use wad::{Wad, WadKind, WadStack};
