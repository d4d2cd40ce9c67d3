//! Saturn Quake's part of the renderer: its faithful frames' shading on the CPU triangle
//! canvas (`triangle_shader`, as shaders/saturn.wgsl shades on the GPU).

mod packing;
mod triangle_shader;

pub(super) use packing::SaturnPacking;
pub(super) use triangle_shader::SaturnShader;
