//! wgpu rendering: upload a `Scene` once, draw it with its shading family's shaders into an
//! offscreen image that the window shows and screenshots read back.

pub mod automap;
mod canvas_bands;
mod canvas_markers;
mod carma2;
mod cell_visibility;
pub mod doom;
mod family;
mod frame;
mod frame_readback;
mod frustum_cull;
mod gpu;
mod headless;
mod indexed_vertices;
mod lit_tables;
mod marathon;
mod occlusion;
mod packing;
mod presenter;
mod profiler;
mod renderer_choice;
mod saturn;
mod saucer;
mod scene_renderer;
mod shaders;
mod soft;
mod translucent_pass;
mod view;
mod world_batches;
mod world_pipelines;

pub use frame::{projection, Projection};
pub use frame_readback::FrameReadback;
pub use gpu::Gpu;
pub use headless::{render_headless, render_headless_as};
pub use presenter::{present_pass, Presenter};
pub use profiler::{FrameProfile, StepTime};
pub use renderer_choice::{is_software, CanvasPolicy, RendererChoice};
pub use scene_renderer::SceneRenderer;
pub use soft::canvas_vectors;
pub use view::{CameraRequest, RenderMode, ViewSettings};

/// Format of the offscreen scene image: plain 8-bit RGBA so palette colours stay exact.
pub const SCENE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The scene image's format for a window whose surface has `surface` format: the surface's
/// own when it is plain 8-bit RGBA or BGRA, so a frame can be copied to the window without a
/// shader pass, else [`SCENE_FORMAT`].
pub fn scene_format_for(surface: wgpu::TextureFormat) -> wgpu::TextureFormat {
    match surface {
        wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Rgba8Unorm => surface,
        _ => SCENE_FORMAT,
    }
}
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Format of the per-pixel key target: what a family's translucent blending needs of the
/// opaque pixel (Saucerman: its palette index + 1, at most 256). Two bytes a pixel: the
/// opaque pass writes it for every pixel it shades.
pub const KEY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R16Uint;
