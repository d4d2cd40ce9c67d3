//! Carmageddon 2's part of the renderer: its faithful frames' shading on the CPU triangle
//! canvas (`triangle_shader`, as shaders/carma2.wgsl shades on the GPU), and the blending by
//! alpha its translucent materials use there.

mod triangle_shader;

pub(super) use triangle_shader::blend_by_alpha;
pub(super) use triangle_shader::Carma2Shader;
