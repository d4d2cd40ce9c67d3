//! Draws one scene from one camera: the frame uniform and per-frame state, culling (frustum,
//! occlusion map), and the GPU passes (depth pre-pass, solid, masked, sprites, overlays,
//! translucent resolve) with pipelines specialised per surface kind and mode. What a shading
//! family does in its frames beyond these passes (Doom's walk and CPU canvas) comes through
//! `family.rs`. `bench` and the profiler time its steps.

use std::cell::Cell;

use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};
use wgpu::util::DeviceExt;

use super::canvas_markers::{draw_markers, MarkerCanvas};
use super::cell_visibility::CellVisibility;
use super::family::{
    family_frames, FamilyFrames, FamilyInputs, FrameInput, FramePlan, SceneStage, SolidWorld,
};
use super::frame::projection;
use super::frustum_cull::FrustumCull;
use super::indexed_vertices::index_vertices;
use super::occlusion::OcclusionMap;
use super::packing::{pack_scene, pack_state, MetaLayout, StateLayout};
use super::profiler::{CpuSteps, FrameProfile, PassTimer, StepTime};
use super::soft::{CanvasDraws, SoftView};
use super::translucent_pass::{self, OpaqueTargets, TranslucentPass};
use super::world_batches::{batch_world, Group};
use super::world_pipelines::{
    scene_overrides, world_vertex_layout, PipelineKey, PipelineKind, WorldPipelines,
};
use super::{shaders, Gpu, RenderMode, ViewSettings, DEPTH_FORMAT, KEY_FORMAT, SCENE_FORMAT};
use super::{CanvasPolicy, RendererChoice};
use crate::scene::{CameraPose, FrameState, Scene, SurfaceKind, WorldVertex};

// The renderer's impl in three parts, each a step of its life; they share this file's imports
// and items (`use super::*`).
mod frame_loop;
mod set_up;
mod uploads;

use uploads::read_texture;

/// Mirrors `Frame` in shaders/common.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct FrameUniform {
    view_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    cam_pos: [f32; 4],
    cam_right: [f32; 4],
    screen: [f32; 4],
    center: [f32; 4],
    // As shaders/common.wgsl's `Frame`, which says what each holds.
    palette_at: u32,
    tables_at: u32,
    textures_at: u32,
    texture_count: u32,
    lights_at: u32,
    remap_at: u32,
    scrolls_at: u32,
    light_count: u32,
    flags: u32,
    canvas_depths_at: u32,
    sprite_views_at: u32,
    canvas_indices_at: u32,
    clear_index: u32,
    list_entries: u32,
    thing_frames_at: u32,
    sprite_frames_at: u32,
}

const FLAG_FAITHFUL: u32 = 1;
const FLAG_CANVAS: u32 = 2;
const FLAG_SKY: u32 = 4;
/// `thing_frames_at` when the sprites take no frames from the state (shaders/world.wgsl `vs_sprite`).
const NO_THING_FRAMES: u32 = u32::MAX;
/// `KIND_SPRITE` in shaders/common.wgsl.
const KIND_SPRITE: u32 = 3;
/// Frames drawn without the occlusion map after a frame where it hid under an eighth of the
/// solid triangles in view, before it is tried again.
const OCCLUSION_PAUSE_FRAMES: u32 = 8;

/// `SHADE_MODE` (shaders/common.wgsl) of smooth frames, faithful frames and frames over a
/// family's CPU canvas.
const MODE_SMOOTH: u32 = 1;
const MODE_FAITHFUL: u32 = 2;
const MODE_CANVAS: u32 = 3;

struct Targets {
    width: u32,
    height: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    /// The per-pixel keys, for families whose translucent surfaces blend by palette index.
    keys_view: Option<wgpu::TextureView>,
}

/// A scene uploaded to the GPU, ready to draw from any camera.
pub struct SceneRenderer {
    pipelines: WorldPipelines,
    /// The solid triangles in reverse order, for the shading pass: with an equal depth test
    /// the last triangle drawn wins a tie, so reversing keeps the first one as a plain
    /// `Greater` test would.
    solid_reversed: wgpu::Buffer,
    /// `solid_reversed` holds each distinct vertex once; this lists the triangles' corners.
    solid_indices: wgpu::Buffer,
    solid_groups: Vec<Group>,
    masked_groups: Vec<Group>,
    /// What of `solid_groups` (in `solid_reversed`) and `masked_groups` (in `vertices`) this
    /// frame's view can see.
    solid_cull: FrustumCull,
    masked_cull: FrustumCull,
    /// The level's cells, where the scene has them: which the camera can see into.
    cells: Option<CellVisibility>,
    /// What the solid triangles drawn this frame hide, kept between frames for its memory.
    occlusion: Option<OcclusionMap>,
    /// Frames to go without the occlusion map after one where it hid little.
    occlusion_pause: u32,
    /// Whether frames may use the occlusion map at all, and what the last one hid: solid
    /// triangles in the frustum, and those the map dropped.
    occlusion_on: bool,
    last_occlusion: (usize, usize),
    /// What the scene's shading family does in its frames beyond the generic passes.
    family: Box<dyn FamilyFrames>,
    /// What it does in this frame.
    plan: FramePlan,
    /// The screen the family was last told of: width, height, focal length's bits.
    screen: Option<(u32, u32, u64)>,
    /// GPU pass timestamps, when profiling.
    timer: Option<PassTimer>,
    /// The last frame's CPU steps.
    cpu_steps: Vec<StepTime>,
    /// Entities, cameras and unknown records: fixed-size diamonds at their positions.
    markers: wgpu::Buffer,
    marker_count: u32,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    meta: wgpu::Buffer,
    texels: wgpu::Buffer,
    state: wgpu::Buffer,
    sprites: wgpu::Buffer,
    bind_group: Option<wgpu::BindGroup>,
    vertices: wgpu::Buffer,
    vertex_count: u32,
    wire: wgpu::Buffer,
    wire_count: u32,
    sprite_count: u32,
    sprite_views: u32,
    /// Doom's sprite frame table in the sprites buffer (see `PackedScene::sprite_frames`).
    sprite_frames: u32,
    meta_layout: MetaLayout,
    state_layout: StateLayout,
    state_words: Vec<u32>,
    /// Draw calls the last `render` issued.
    last_draws: u32,
    /// The last frame was a canvas that nothing on the GPU drew over, and its colours are not
    /// in the colour target yet: a window presented from the CPU never needs them there, so
    /// they are uploaded only when the GPU's image is asked for (`upload_image`).
    image_pending: Cell<bool>,
    targets: Option<Targets>,
    clear: wgpu::Color,
    /// Palette index blending sees where nothing opaque was drawn.
    clear_index: u32,
    near: f32,
    /// The colour target's format: [`SCENE_FORMAT`] or its BGRA order.
    format: wgpu::TextureFormat,
    /// Translucent triangles follow the `vertex_count` opaque ones in `vertices`.
    translucent_count: u32,
    translucent: Option<TranslucentPass>,
    /// Which frames may draw on the CPU canvases.
    policy: CanvasPolicy,
    /// The markers' positions, for drawing them into a canvas frame on the CPU.
    marker_positions: Vec<[f32; 3]>,
    /// Canvas frames get their markers on the CPU (`canvas_markers`), not the GPU's pass.
    cpu_markers: bool,
    /// This frame's markers went into its canvas.
    markers_on_canvas: bool,
}

impl SceneRenderer {
    /// A renderer whose image is [`SCENE_FORMAT`] (RGBA).
    pub fn new(gpu: &Gpu, scene: &Scene) -> Result<SceneRenderer> {
        SceneRenderer::with_format(gpu, scene, SCENE_FORMAT)
    }

    /// Uploads the animation state for the next frames.
    pub fn set_state(&mut self, state: &FrameState) {
        self.state_layout =
            pack_state(state, self.meta_layout.texture_count, &mut self.state_words);
    }

    /// Draw calls the last `render` issued (batched by pipeline: a handful whatever the map).
    pub fn draw_calls(&self) -> u32 {
        self.last_draws
    }

    /// Whether the last `render`'s solid world was drawn on the CPU (Doom's vanilla canvas
    /// or triangle canvas, the other families' faithful frames).
    pub fn used_cpu_canvas(&self) -> bool {
        self.plan.solid.on_canvas()
    }

    /// Whether the last frame was drawn whole by the family's own canvas rather than from
    /// the renderer's culled triangles (Doom: vanilla's walk and canvas, not the triangle
    /// canvas).
    pub fn used_family_canvas(&self) -> bool {
        self.plan.solid == SolidWorld::Canvas
    }

    /// Lets the frames the triangle canvas draws (faithful frames of the families drawn on a
    /// CPU canvas, Doom's other frames) draw their solid world on it (the default), or not:
    /// the GPU's passes then shade them, for comparing the two. Doom's exact frames keep
    /// vanilla's canvas as [`Self::set_renderer`] left it.
    pub fn set_cpu_canvas(&mut self, on: bool) {
        self.set_canvas_policy(CanvasPolicy { triangles: on, ..self.policy });
    }

    /// Draws the frames as `choice` says for `gpu`'s adapter (see [`RendererChoice`]).
    pub fn set_renderer(&mut self, choice: RendererChoice, gpu: &Gpu) {
        self.set_canvas_policy(choice.policy(gpu.adapter.get_info().device_type));
    }

    /// Which frames may draw on the CPU canvases (all of them until told otherwise).
    pub fn set_canvas_policy(&mut self, policy: CanvasPolicy) {
        self.policy = policy;
        self.family.set_canvas_policy(policy);
    }

    /// The canvases frames may draw on.
    pub fn canvas_policy(&self) -> CanvasPolicy {
        self.policy
    }

    /// The image of the last `render`, at the view's size.
    pub fn color_view(&self, gpu: &Gpu) -> Option<&wgpu::TextureView> {
        self.upload_image(gpu);
        self.targets.as_ref().map(|t| &t.color_view)
    }

    pub fn target_size(&self) -> Option<(u32, u32)> {
        self.targets.as_ref().map(|t| (t.width, t.height))
    }

    /// Times each pass on the GPU (where the adapter has timestamp queries) and each CPU step
    /// of [`SceneRenderer::render`] from the next frame on; the opaque scene is then drawn in
    /// one pass per stage. See [`SceneRenderer::last_profile`].
    pub fn set_profiling(&mut self, gpu: &Gpu, on: bool) {
        self.timer = if on { PassTimer::new(&gpu.device, &gpu.queue, 16) } else { None };
    }

    /// Lets frames drop what the occlusion map shows hidden and the cells the camera cannot
    /// see into (the default), or not: the picture is the same either way, only the time
    /// differs.
    pub fn set_occlusion(&mut self, on: bool) {
        self.occlusion_on = on;
    }

    /// Solid triangles in the last frame's frustum, and how many of them were not drawn as
    /// hidden (by the occlusion map, or in cells out of sight).
    pub fn last_occlusion(&self) -> (usize, usize) {
        self.last_occlusion
    }

    /// The breakdown of the last frame (waits for it): CPU steps always, GPU passes when
    /// profiling with timestamp queries.
    pub fn last_profile(&self, gpu: &Gpu) -> Result<FrameProfile> {
        let gpu_times = match &self.timer {
            Some(t) => t.read(&gpu.device)?,
            None => Vec::new(),
        };
        Ok(FrameProfile { cpu: self.cpu_steps.clone(), gpu: gpu_times })
    }

    /// Reads the last rendered image back (blocking).
    pub fn read_image(&self, gpu: &Gpu) -> Result<image::RgbaImage> {
        self.upload_image(gpu);
        let t = self.targets.as_ref().ok_or_else(|| anyhow::anyhow!("nothing rendered yet"))?;
        let mut image = read_texture(gpu, &t.color, t.width, t.height)?;
        if self.format == wgpu::TextureFormat::Bgra8Unorm {
            image.pixels_mut().for_each(|p| p.0.swap(0, 2));
        }
        Ok(image)
    }

    /// The image of the last `render`: taken from the CPU canvas where the frame is that
    /// alone, without the round trip through the GPU that [`Self::read_image`] makes (searches
    /// that render thousands of small frames spend most of their time there otherwise).
    pub fn image(&self, gpu: &Gpu) -> Result<image::RgbaImage> {
        if let (Some(words), Some(t)) = (self.cpu_image(), self.targets.as_ref()) {
            let bgra = self.is_bgra();
            let bytes = words
                .iter()
                .flat_map(|w| {
                    let [a, b, c, d] = w.to_le_bytes();
                    if bgra {
                        [c, b, a, d]
                    } else {
                        [a, b, c, d]
                    }
                })
                .collect();
            return image::RgbaImage::from_raw(t.width, t.height, bytes)
                .ok_or_else(|| anyhow::anyhow!("the canvas does not fill the image"));
        }
        self.read_image(gpu)
    }

    /// The image of the last `render` as the CPU drew it (one colour a pixel in the image's
    /// byte order, row by row) when it is that and nothing else: a canvas frame over which
    /// the GPU drew nothing (no overlay, no translucent surface). A window presented from
    /// the CPU then takes the pixels without reading the GPU's image back.
    pub fn cpu_image(&self) -> Option<&[u32]> {
        let t = self.targets.as_ref()?;
        let canvas = self.family.canvas().filter(|_| self.last_draws == 0)?;
        (canvas.colors.len() == (t.width * t.height) as usize).then_some(canvas.colors)
    }

    /// The depth the last `render` left at pixel (x, y) on the CPU canvas: `near / distance`
    /// along the view axis, 0 where nothing solid was drawn (vanilla's sky, the void);
    /// `None` when the frame was not drawn on the canvas (the GPU's passes), or off the frame.
    /// This is how `pick` knows which surface a pixel shows.
    pub fn canvas_depth(&self, x: u32, y: u32) -> Option<f32> {
        let t = self.targets.as_ref()?;
        if x >= t.width || y >= t.height || !self.plan.solid.on_canvas() {
            return None;
        }
        let canvas = self.family.canvas()?;
        canvas.depths.get((y * t.width + x) as usize).copied()
    }

    /// The near distance depths are measured against (`near / distance`).
    pub fn near(&self) -> f32 {
        self.near
    }

    /// Whether the image's byte order is BGRA (else RGBA).
    pub fn is_bgra(&self) -> bool {
        self.format == wgpu::TextureFormat::Bgra8Unorm
    }

    /// Copies the image of the last `render` into `texture` (a window's next image) when it
    /// has the image's size and format, without a shader pass; returns whether it did.
    pub fn copy_to(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) -> bool {
        let Some(t) = &self.targets else { return false };
        let same_size = texture.width() == t.width && texture.height() == t.height;
        if !same_size || texture.format() != self.format {
            return false;
        }
        if !texture.usage().contains(wgpu::TextureUsages::COPY_DST) {
            return false;
        }
        self.upload_image(gpu);
        encoder.copy_texture_to_texture(
            t.color.as_image_copy(),
            texture.as_image_copy(),
            wgpu::Extent3d { width: t.width, height: t.height, depth_or_array_layers: 1 },
        );
        true
    }

    /// Lets canvas frames get their markers on the CPU (the default) or not (the GPU's
    /// marker pass draws them over the canvas, for comparing the two).
    pub fn set_cpu_markers(&mut self, on: bool) {
        self.cpu_markers = on;
    }
}
