//! Doom's part of the renderer, in one place:
//!
//! - `vanilla/`: vanilla's BSP walk and the CPU canvas that draws exact frames (faithful, 90°,
//!   level camera) column by column and span by span as r_*.c does;
//! - `frames.rs`: what each frame is drawn by (vanilla's canvas, the triangle canvas or the
//!   GPU's passes) and the walk's culling of smooth frames;
//! - `smooth_textures.rs`: smooth mode's walls and flats in runs of one bound texture;
//! - `triangle_shader.rs`: the frames vanilla's canvas cannot draw, shaded on the CPU triangle
//!   canvas as shaders/doom.wgsl shades them.

mod frames;
mod packing;
mod smooth_textures;
mod triangle_shader;
pub mod vanilla;

pub(super) use frames::DoomFrames;
pub(super) use packing::DoomPacking;
pub(super) use triangle_shader::DoomShader;
