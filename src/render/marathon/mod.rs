//! Marathon's part of the renderer: its faithful frames' shading on the CPU triangle canvas
//! (`triangle_shader`, as shaders/marathon.wgsl shades on the GPU).

mod packing;
mod triangle_shader;

pub(super) use packing::MarathonPacking;
pub(super) use triangle_shader::MarathonShader;
