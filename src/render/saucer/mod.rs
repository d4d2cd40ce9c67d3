//! Attack of the Saucerman's part of the renderer: its faithful frames' shading on the CPU
//! triangle canvas (`triangle_shader`, as shaders/saucer.wgsl shades on the GPU).

mod packing;
mod triangle_shader;

pub(super) use packing::SaucerPacking;
pub(super) use triangle_shader::SaucerShader;
