//! What a map's specials and extensions make of a static level: animated textures and
//! flats (ANIMATED, ANIMDEFS), light specials, Boom's and MBF's line specials (transfers,
//! scrollers, 242 views, translucency), ZDoom's 3D floors, slopes, polyobjects, line styles
//! and sector colours. Grouped because each reads linedef or sector specials and gives the
//! scene builder and the animator what they change.

pub mod animation;
pub mod animdefs;
pub mod boom;
pub(in crate::formats::doom) mod boom_build;
pub mod boom_views;
pub mod floors_3d;
pub mod lights;
pub mod line_styles;
pub mod polyobjects;
pub mod sector_colors;
pub mod slope_things;
pub mod slopes;
