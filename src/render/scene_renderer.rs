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
    meta_offs: [u32; 4],
    state_offs: [u32; 4],
    draw: [u32; 4],
    misc: [u32; 4],
}

const FLAG_FAITHFUL: u32 = 1;
const FLAG_CANVAS: u32 = 2;
const FLAG_SKY: u32 = 4;
/// `misc.z` when the sprites take no frames from the state (shaders/world.wgsl `vs_sprite`).
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

    /// A renderer whose image has `format`: [`SCENE_FORMAT`] or the BGRA order of it (see
    /// `render::scene_format_for`).
    pub fn with_format(
        gpu: &Gpu,
        scene: &Scene,
        format: wgpu::TextureFormat,
    ) -> Result<SceneRenderer> {
        let bgra = format == wgpu::TextureFormat::Bgra8Unorm;
        let format = if bgra { format } else { SCENE_FORMAT };
        let device = &gpu.device;
        let packed = pack_scene(scene);
        let storage = |label: &str, words: &[u32]| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(words),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            })
        };
        let meta = storage("scene meta", &packed.meta);
        let texels = storage("texels", &packed.texels);
        let sprites = storage("sprites", &packed.sprites);
        let mut state_words = Vec::new();
        let state_layout =
            pack_state(&scene.animator.initial(), packed.layout.texture_count, &mut state_words);
        let state = storage("frame state", &state_words);

        let batches = batch_world(&scene.world, true);
        let world = &batches.vertices;
        let solid_indexed = index_vertices(&batches.solid_reversed);
        let solid_reversed = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("solid world vertices, reversed"),
            contents: bytemuck::cast_slice(&solid_indexed.vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let solid_indices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("solid world indices, reversed"),
            contents: bytemuck::cast_slice(&solid_indexed.indices),
            usage: wgpu::BufferUsages::INDEX,
        });
        let translucent_count = batches.translucent_count;
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("world vertices"),
            contents: bytemuck::cast_slice(world),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let wire_vertices = wire_edges(world);
        let wire = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("wireframe vertices"),
            contents: bytemuck::cast_slice(&wire_vertices),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });

        let layout = bind_group_layout(device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("world"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let source = shaders::world_source(&scene.shading);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("world"),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let mut marker_positions: Vec<[f32; 3]> =
            scene.markers.iter().map(|m| m.pos.to_array()).collect();
        let marker_count = marker_positions.len() as u32;
        if marker_positions.is_empty() {
            marker_positions.push([0.0; 3]);
        }
        let markers = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("markers"),
            contents: bytemuck::cast_slice(&marker_positions),
            usage: wgpu::BufferUsages::VERTEX,
        });

        let fragment_storage = gpu
            .adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::FRAGMENT_WRITABLE_STORAGE);
        if translucent_count > 0 && !fragment_storage {
            log::warn!(
                "this graphics adapter cannot blend translucent surfaces; they are not drawn"
            );
        }
        let translucent = (translucent_count > 0 && fragment_storage).then(|| {
            let family = scene_overrides(&packed.layout);
            TranslucentPass::new(device, &module, &layout, world_vertex_layout(), format, &family)
        });
        let [r, g, b] = scene.clear.rgb.map(|c| c as f64 / 255.0);
        let mut pipelines =
            WorldPipelines::new(module, pipeline_layout, translucent.is_some(), format);
        pipelines.set_scene(packed.layout);
        let (meta_layout, sprite_count, sprite_views, sprite_frames) =
            (packed.layout, packed.sprite_count, packed.sprite_views, packed.sprite_frames);
        let solid = &batches.solid_reversed[..batches.solid_count as usize];
        let masked_first = batches.solid_count;
        let masked = &batches.vertices[masked_first as usize..batches.opaque_count as usize];
        let translucent_world = &batches.vertices[batches.opaque_count as usize..]
            [..batches.translucent_count as usize];
        let inputs = FamilyInputs {
            scene,
            packed,
            solid,
            masked,
            masked_first,
            translucent: translucent_world,
            bgra,
        };
        let family = family_frames(gpu, inputs);
        if let Some(own) = family.bind_group_layout() {
            pipelines.set_family_layout(device.create_pipeline_layout(
                &wgpu::PipelineLayoutDescriptor {
                    label: Some("family world"),
                    bind_group_layouts: &[Some(&layout), Some(own)],
                    immediate_size: 0,
                },
            ));
        }
        Ok(SceneRenderer {
            pipelines,
            solid_reversed,
            solid_indices,
            solid_cull: FrustumCull::new(&batches.solid_reversed, &batches.solid, true),
            masked_cull: FrustumCull::new(&batches.vertices, &batches.masked, false),
            occlusion: None,
            occlusion_pause: 0,
            occlusion_on: true,
            last_occlusion: (0, 0),
            solid_groups: batches.solid,
            masked_groups: batches.masked,
            family,
            plan: FramePlan::default(),
            screen: None,
            timer: None,
            cpu_steps: Vec::new(),
            markers,
            marker_count,
            layout,
            uniform,
            meta,
            texels,
            state,
            sprites,
            bind_group: None,
            vertices,
            vertex_count: batches.opaque_count,
            translucent_count,
            translucent,
            wire,
            wire_count: wire_vertices.len() as u32,
            sprite_count,
            sprite_views,
            sprite_frames,
            meta_layout,
            state_layout,
            state_words,
            last_draws: 0,
            image_pending: Cell::new(false),
            targets: None,
            clear: wgpu::Color { r, g, b, a: 1.0 },
            clear_index: scene.clear.index,
            near: scene.near,
            format,
            policy: CanvasPolicy::ALL,
            marker_positions: scene.markers.iter().map(|m| m.pos.to_array()).collect(),
            cpu_markers: true,
            markers_on_canvas: false,
        })
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

    /// Draws the scene from `camera` into the offscreen image.
    pub fn render(&mut self, gpu: &Gpu, camera: &CameraPose, view: &ViewSettings) {
        let mut cpu = CpuSteps::start();
        let (w, h) = (view.width.max(1), view.height.max(1));
        self.ensure_targets(gpu, w, h);
        let focal = view.focal();
        if self.screen != Some((w, h, focal.to_bits())) {
            self.family.set_screen(w, h, focal);
            self.screen = Some((w, h, focal.to_bits()));
        }
        cpu.mark("targets");
        let input =
            FrameInput { camera, view, state: &self.state_words, state_layout: &self.state_layout };
        self.plan = self.family.begin_frame(gpu, &input, &mut cpu);
        // Doom's walk drew the whole opaque scene itself; a canvas drawn from the culled
        // triangles holds only the solid world.
        let walk_canvas = self.plan.solid == SolidWorld::Canvas;
        let canvas = self.plan.solid.on_canvas();
        let uniform = self.frame_uniform(camera, view, focal);
        if !walk_canvas {
            let view_proj = Mat4::from_cols_array_2d(&uniform.view_proj);
            let mut map = None;
            let pause = &mut self.occlusion_pause;
            if self.plan.occlusion && self.occlusion_on && *pause == 0 {
                let fresh = || OcclusionMap::new(view_proj, w, h, self.near);
                let m = self.occlusion.get_or_insert_with(fresh);
                m.reset(view_proj, w, h, self.near);
                map = Some(m);
            }
            *pause = pause.saturating_sub(1);
            let (in_view, hidden) = self.solid_cull.update(view_proj, map.as_deref_mut());
            self.masked_cull.update(view_proj, map);
            self.last_occlusion = (in_view, hidden.unwrap_or(0));
            // The map costs a few milliseconds where large triangles cross it; where it hides
            // little (open terrain) the next frames go without it.
            if hidden.is_some_and(|hidden| hidden * 8 < in_view) {
                self.occlusion_pause = OCCLUSION_PAUSE_FRAMES;
            }
            cpu.mark("frustum culling");
        }
        if self.plan.solid == SolidWorld::CulledCanvas {
            let soft_view =
                soft_view(&uniform, view, self.near, &self.state_words, &self.state_layout);
            let (solid, masked) = (&self.solid_cull, &self.masked_cull);
            let mut solid =
                (0..self.solid_groups.len()).flat_map(|i| solid.ranges(i).iter().cloned());
            let mut masked =
                (0..self.masked_groups.len()).flat_map(|i| masked.ranges(i).iter().cloned());
            let draws = CanvasDraws { solid: &mut solid, masked: &mut masked };
            self.family.draw_canvas(&soft_view, draws);
            cpu.mark("CPU canvas");
        }
        self.markers_on_canvas = false;
        let gpu_over = view.wireframe || self.gpu_translucent();
        if canvas && self.cpu_markers && !gpu_over && view.show_markers && self.marker_count > 0 {
            let view_proj = Mat4::from_cols_array_2d(&uniform.view_proj);
            let bgra = self.is_bgra();
            if let Some(c) = self.family.canvas_mut() {
                let (width, height) = (w as usize, h as usize);
                let out = MarkerCanvas { colors: c.colors, depths: c.depths, width, height, bgra };
                draw_markers(out, view_proj, &self.marker_positions);
                self.markers_on_canvas = true;
                cpu.mark("markers");
            }
        }
        let over_canvas = canvas && self.draws_over_canvas(view);
        self.upload_state(gpu, over_canvas);
        self.image_pending.set(canvas && !over_canvas);
        gpu.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        cpu.mark("state upload");
        if self.bind_group.is_none() {
            self.bind_group = Some(self.make_bind_group(&gpu.device));
        }
        let mode = self.shade_mode(view);
        self.prepare_pipelines(&gpu.device, view, mode);
        if let Some(timer) = &mut self.timer {
            timer.begin_frame();
        }
        let (Some(targets), Some(bind_group)) = (&self.targets, &self.bind_group) else {
            return;
        };

        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let mut draws = 0;
        // One render pass for the opaque scene; when profiling, one per stage so that each
        // can be timed (a tiled rasteriser draws a pass tile by tile, not draw by draw).
        // A canvas frame's walls, flats, sky, masked surfaces and sprites are already in the
        // colour target.
        let solid: &[SceneStage] =
            if canvas { &[] } else { &[SceneStage::DepthPrePass, SceneStage::Solid] };
        // The canvas has the masked surfaces and the sprites too.
        let rest: &[SceneStage] = if canvas {
            &[SceneStage::Overlays]
        } else {
            &[SceneStage::Masked, SceneStage::Sprites, SceneStage::Overlays]
        };
        let mut stages: Vec<SceneStage> = solid.iter().chain(rest).copied().collect();
        // Nothing draws over a canvas frame: no pass at all (its depth clear alone is a
        // full-screen write on a software rasteriser). Profiled frames keep their passes.
        if canvas && !over_canvas && self.timer.is_none() {
            stages.clear();
        }
        // Taken out while the passes borrow the renderer; put back below.
        let mut timer = self.timer.take();
        let split = timer.is_some();
        for (n, group) in stages.chunks(if split { 1 } else { stages.len().max(1) }).enumerate() {
            let load = n > 0;
            let color_ops = |clear| wgpu::Operations {
                load: if load || canvas { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(clear) },
                store: wgpu::StoreOp::Store,
            };
            let key_ops = |clear| wgpu::Operations {
                load: if load { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(clear) },
                store: wgpu::StoreOp::Store,
            };
            let timestamp_writes = timer.as_mut().and_then(|t| t.pass(group[0].name()));
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("scene"),
                color_attachments: &[
                    Some(wgpu::RenderPassColorAttachment {
                        view: &targets.color_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: color_ops(self.clear),
                    }),
                    targets.keys_view.as_ref().map(|view| wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: key_ops(wgpu::Color::TRANSPARENT),
                    }),
                ],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: if load { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(0.0) },
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, bind_group, &[]);
            for &stage in group {
                draws += self.record_stage(&mut pass, stage, view, mode);
                draws += self.family.record(&mut pass, stage, &self.pipelines, mode);
            }
        }
        let translucent = self.translucent.as_mut().filter(|_| !self.plan.translucent);
        if let (Some(pass), Some(keys_view)) = (translucent, &targets.keys_view) {
            let opaque_bytes = self.vertex_count as u64 * std::mem::size_of::<WorldVertex>() as u64;
            pass.record(
                &gpu.device,
                &mut encoder,
                bind_group,
                OpaqueTargets {
                    color: &targets.color,
                    color_view: &targets.color_view,
                    keys_view,
                    depth_view: &targets.depth_view,
                    size: (targets.width, targets.height),
                },
                self.vertices.slice(opaque_bytes..),
                self.translucent_count,
                timer.as_mut(),
            );
            draws += 2;
        }
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        self.timer = timer;
        self.last_draws = draws;
        let commands = encoder.finish();
        cpu.mark("encode");
        gpu.queue.submit([commands]);
        cpu.mark("submit");
        self.cpu_steps = cpu.finish();
    }

    /// Records one stage of the opaque scene into `pass`; returns the draws it issued.
    fn record_stage(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        stage: SceneStage,
        view: &ViewSettings,
        mode: u32,
    ) -> u32 {
        let pipeline = |kind, surface, contrast| {
            self.pipelines.get(PipelineKey { kind, surface, contrast, mode })
        };
        let mut draws = 0;
        let mut draw = |pass: &mut wgpu::RenderPass<'_>, kind, surface, vertices, instances| {
            if let Some(p) = pipeline(kind, surface, true) {
                pass.set_pipeline(p);
                pass.draw(vertices, instances);
                draws += 1;
            }
        };
        let draw_solid = |pass: &mut wgpu::RenderPass<'_>, kind, g: &Group, indices| {
            if let Some(p) = pipeline(kind, g.surface, g.contrast) {
                pass.set_pipeline(p);
                pass.draw_indexed(indices, 0, 0..1);
                1
            } else {
                0
            }
        };
        match stage {
            SceneStage::DepthPrePass if self.plan.solid != SolidWorld::Shaded => {}
            SceneStage::DepthPrePass => {
                // Depths do not depend on the order triangles are drawn in.
                pass.set_vertex_buffer(0, self.solid_reversed.slice(..));
                pass.set_index_buffer(self.solid_indices.slice(..), wgpu::IndexFormat::Uint32);
                // One pipeline for every group: the pre-pass reads no contrast.
                let any = Group { surface: 0, contrast: true, vertices: 0..0 };
                for i in 0..self.solid_groups.len() {
                    for r in self.solid_cull.ranges(i) {
                        draws += draw_solid(pass, PipelineKind::Depth, &any, r.clone());
                    }
                }
            }
            SceneStage::Solid => {
                // The family draws all but the sky's groups itself, or none.
                let sky_only = self.plan.solid == SolidWorld::FamilyExceptSky;
                let kind = if sky_only { PipelineKind::World } else { PipelineKind::Shade };
                pass.set_vertex_buffer(0, self.solid_reversed.slice(..));
                pass.set_index_buffer(self.solid_indices.slice(..), wgpu::IndexFormat::Uint32);
                for (i, g) in self.solid_groups.iter().enumerate() {
                    if !sky_only || is_sky(g) {
                        for r in self.solid_cull.ranges(i) {
                            draws += draw_solid(pass, kind, g, r.clone());
                        }
                    }
                }
            }
            SceneStage::Masked => {
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                for (i, g) in self.masked_groups.iter().enumerate() {
                    for r in self.masked_cull.ranges(i) {
                        draw(pass, PipelineKind::World, g.surface, r.clone(), 0..1);
                    }
                }
            }
            SceneStage::Sprites => {
                if view.show_sprites && self.sprite_count > 0 {
                    let surface = self.sprite_surface();
                    draw(pass, PipelineKind::Sprite, surface, 0..6, 0..self.sprite_count);
                }
            }
            SceneStage::Overlays => {
                if self.gpu_markers(view) {
                    pass.set_vertex_buffer(0, self.markers.slice(..));
                    draw(pass, PipelineKind::Marker, 0, 0..6, 0..self.marker_count);
                }
                if view.wireframe {
                    pass.set_vertex_buffer(0, self.wire.slice(..));
                    draw(pass, PipelineKind::Wire, 0, 0..self.wire_count, 0..1);
                }
            }
        }
        draws
    }

    fn sprite_surface(&self) -> u32 {
        KIND_SPRITE + 1
    }

    /// Times each pass on the GPU (where the adapter has timestamp queries) and each CPU step
    /// of [`SceneRenderer::render`] from the next frame on; the opaque scene is then drawn in
    /// one pass per stage. See [`SceneRenderer::last_profile`].
    pub fn set_profiling(&mut self, gpu: &Gpu, on: bool) {
        self.timer = if on { PassTimer::new(&gpu.device, &gpu.queue, 16) } else { None };
    }

    /// Lets frames drop what the occlusion map shows hidden (the default), or not: the
    /// picture is the same either way, only the time differs.
    pub fn set_occlusion(&mut self, on: bool) {
        self.occlusion_on = on;
    }

    /// Solid triangles in the last frame's frustum, and how many of them the occlusion map
    /// showed hidden and were not drawn.
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

    /// The image of the last `render` as the CPU drew it (one colour a pixel in the image's
    /// byte order, row by row) when it is that and nothing else: a canvas frame over which
    /// the GPU drew nothing (no overlay, no translucent surface). A window presented from
    /// the CPU then takes the pixels without reading the GPU's image back.
    pub fn cpu_image(&self) -> Option<&[u32]> {
        let t = self.targets.as_ref()?;
        let canvas = self.family.canvas().filter(|_| self.last_draws == 0)?;
        (canvas.colors.len() == (t.width * t.height) as usize).then_some(canvas.colors)
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

    /// Whether the GPU draws anything over this frame's canvas (markers, wireframe or
    /// translucent surfaces), which then needs the canvas depths.
    fn draws_over_canvas(&self, view: &ViewSettings) -> bool {
        self.gpu_markers(view) || view.wireframe || self.gpu_translucent()
    }

    /// Whether the GPU draws this frame's markers (not already in its canvas).
    fn gpu_markers(&self, view: &ViewSettings) -> bool {
        view.show_markers && self.marker_count > 0 && !self.markers_on_canvas
    }

    /// Lets canvas frames get their markers on the CPU (the default) or not (the GPU's
    /// marker pass draws them over the canvas, for comparing the two).
    pub fn set_cpu_markers(&mut self, on: bool) {
        self.cpu_markers = on;
    }

    /// Whether the GPU's translucent pass blends this frame's translucent surfaces (the scene
    /// has some, and the family's canvas has not blended them).
    fn gpu_translucent(&self) -> bool {
        self.translucent.is_some() && !self.plan.translucent
    }

    /// Writes the animation state into the state buffer and, when `depths` (the GPU draws
    /// over the canvas), the canvas depths after the state and its colours into the scene's
    /// colour target; otherwise both stay on the CPU (4 bytes a pixel copied twice each for
    /// nothing), the colours until the GPU's image is asked for.
    fn upload_state(&mut self, gpu: &Gpu, depths: bool) {
        let canvas = self.family.canvas();
        let depths = canvas.as_ref().filter(|_| depths).map(|c| c.depths).unwrap_or(&[]);
        // The palette indices only for translucent surfaces to blend with, after the depths.
        let keys = canvas.as_ref().filter(|_| self.gpu_translucent() && !depths.is_empty());
        let keys = keys.map(|c| c.keys).unwrap_or(&[]);
        let size = ((self.state_words.len() + depths.len() + keys.len().div_ceil(4)) * 4) as u64;
        if size > self.state.size() {
            self.state = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("frame state"),
                size,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.bind_group = None;
        }
        gpu.queue.write_buffer(&self.state, 0, bytemuck::cast_slice(&self.state_words));
        // Nothing drawn over the canvas: its colours wait for `upload_image`.
        let Some(t) = &self.targets else { return };
        if depths.len() != (t.width * t.height) as usize {
            return;
        }
        let at = (self.state_words.len() * 4) as u64;
        gpu.queue.write_buffer(&self.state, at, bytemuck::cast_slice(depths));
        // Four indices a word; the copy must be whole words.
        let at = at + depths.len() as u64 * 4;
        let whole = keys.len() / 4 * 4;
        gpu.queue.write_buffer(&self.state, at, &keys[..whole]);
        if whole < keys.len() {
            let mut tail = [0u8; 4];
            tail[..keys.len() - whole].copy_from_slice(&keys[whole..]);
            gpu.queue.write_buffer(&self.state, at + whole as u64, &tail);
        }
        self.write_canvas_colors(gpu);
    }

    /// Writes the last canvas frame's colours into the colour target if they are not there.
    fn upload_image(&self, gpu: &Gpu) {
        if self.image_pending.replace(false) {
            self.write_canvas_colors(gpu);
        }
    }

    fn write_canvas_colors(&self, gpu: &Gpu) {
        let (Some(canvas), Some(t)) = (self.family.canvas(), &self.targets) else { return };
        if canvas.colors.len() != (t.width * t.height) as usize {
            return;
        }
        gpu.queue.write_texture(
            t.color.as_image_copy(),
            bytemuck::cast_slice(canvas.colors),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(t.width * 4),
                rows_per_image: Some(t.height),
            },
            wgpu::Extent3d { width: t.width, height: t.height, depth_or_array_layers: 1 },
        );
    }

    fn ensure_targets(&mut self, gpu: &Gpu, w: u32, h: u32) {
        if self.targets.as_ref().is_some_and(|t| t.width == w && t.height == h) {
            return;
        }
        let make = |format, usage, label| {
            gpu.device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let color = make(
            self.format,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene colour",
        );
        let depth = make(
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene depth",
        );
        // Only the translucent pass reads the keys: without it, a scene pass writes no key
        // target (16 bytes a pixel cleared, written and stored each frame).
        let keys = self.translucent.is_some().then(|| {
            make(
                KEY_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
                "pixel keys",
            )
        });
        self.targets = Some(Targets {
            keys_view: keys.map(|k| k.create_view(&Default::default())),
            width: w,
            height: h,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
        });
    }

    fn frame_uniform(&self, camera: &CameraPose, view: &ViewSettings, focal: f64) -> FrameUniform {
        let faithful = view.mode == RenderMode::Faithful;
        let mut p = projection(view.width.max(1), view.height.max(1), focal, faithful);
        p.near = self.near as f64;
        let view_m = camera.view_matrix();
        let proj = p.matrix();
        let canvas = self.plan.solid.on_canvas();
        let mut flags = 0;
        if faithful {
            flags |= FLAG_FAITHFUL;
        }
        if canvas {
            flags |= FLAG_CANVAS;
        }
        if view.show_sky {
            flags |= FLAG_SKY;
        }
        // The canvas depths follow the animation state in the state buffer, and its palette
        // indices (four a word) the depths, where translucent surfaces blend with them.
        let depths = if canvas { self.state_words.len() as u32 } else { 0 };
        let keys = self.plan.keys && self.gpu_translucent();
        let keys = if keys { depths + (p.width * p.height) as u32 } else { 0 };
        let right = camera.right();
        // The sprites take their frames from the state's thing words where it has one for
        // each (Doom's things, instance i being thing i); otherwise their spawn views.
        let layout = &self.state_layout;
        let thing_words = if layout.thing_count >= self.sprite_count && self.sprite_count > 0 {
            layout.things
        } else {
            NO_THING_FRAMES
        };
        FrameUniform {
            view_proj: (proj * view_m).to_cols_array_2d(),
            view: view_m.to_cols_array_2d(),
            cam_pos: camera.pos.as_vec3().extend(1.0).to_array(),
            cam_right: [right.x as f32, right.y as f32, right.z as f32, 0.0],
            screen: [
                p.width as f32,
                p.height as f32,
                focal as f32,
                (focal * 320.0 / p.width) as f32,
            ],
            center: [p.cx as f32, p.cy as f32, camera.yaw as f32, camera.pitch as f32],
            meta_offs: [
                self.meta_layout.palette,
                self.meta_layout.colormap,
                self.meta_layout.texinfo,
                self.meta_layout.texture_count,
            ],
            state_offs: [
                self.state_layout.light,
                self.state_layout.remap,
                self.state_layout.scroll,
                self.state_layout.light_count,
            ],
            draw: [flags, depths, self.sprite_views, keys],
            misc: [self.clear_index, translucent_pass::LAYERS, thing_words, self.sprite_frames],
        }
    }

    /// The `SHADE_MODE` this frame's pipelines are specialised for (shaders/common.wgsl).
    fn shade_mode(&self, view: &ViewSettings) -> u32 {
        match (view.mode, self.plan.solid) {
            (RenderMode::Smooth, _) => MODE_SMOOTH,
            (RenderMode::Faithful, solid) if solid.on_canvas() => MODE_CANVAS,
            (RenderMode::Faithful, _) => MODE_FAITHFUL,
        }
    }

    /// Makes the pipelines this frame draws with that do not exist yet.
    fn prepare_pipelines(&mut self, device: &wgpu::Device, view: &ViewSettings, mode: u32) {
        let mut keys = Vec::new();
        match self.plan.solid {
            SolidWorld::Shaded => {
                keys.push((PipelineKind::Depth, 0, true));
                let shade =
                    self.solid_groups.iter().map(|g| (PipelineKind::Shade, g.surface, g.contrast));
                keys.extend(shade);
            }
            // Drawn as `record_stage` asks for them: with the group's contrast use.
            SolidWorld::FamilyExceptSky => keys.extend(
                self.solid_groups
                    .iter()
                    .filter(|g| is_sky(g))
                    .map(|g| (PipelineKind::World, g.surface, g.contrast)),
            ),
            SolidWorld::Canvas | SolidWorld::CulledCanvas => {}
        }
        if !self.plan.solid.on_canvas() {
            keys.extend(self.masked_groups.iter().map(|g| (PipelineKind::World, g.surface, true)));
            if view.show_sprites && self.sprite_count > 0 {
                keys.push((PipelineKind::Sprite, self.sprite_surface(), true));
            }
        }
        if self.gpu_markers(view) {
            keys.push((PipelineKind::Marker, 0, true));
        }
        if view.wireframe {
            keys.push((PipelineKind::Wire, 0, true));
        }
        let mut keys: Vec<PipelineKey> = keys
            .into_iter()
            .map(|(kind, surface, contrast)| PipelineKey { kind, surface, contrast, mode })
            .collect();
        self.family.pipeline_keys(mode, &mut keys);
        for key in keys {
            self.pipelines.prepare(device, key);
        }
    }

    fn make_bind_group(&self, device: &wgpu::Device) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry> =
            [&self.uniform, &self.meta, &self.texels, &self.state, &self.sprites]
                .iter()
                .enumerate()
                .map(|(i, b)| wgpu::BindGroupEntry {
                    binding: i as u32,
                    resource: b.as_entire_binding(),
                })
                .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene"),
            layout: &self.layout,
            entries: &entries,
        })
    }
}

fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let vis = wgpu::ShaderStages::VERTEX | wgpu::ShaderStages::FRAGMENT;
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: vis,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }];
    for binding in 1..=4 {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding,
            visibility: vis,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        });
    }
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("scene"),
        entries: &entries,
    })
}

/// What a family's CPU canvas needs of a frame: the uniform's view and the state words.
fn soft_view<'a>(
    uniform: &FrameUniform,
    view: &ViewSettings,
    near: f32,
    words: &'a [u32],
    l: &StateLayout,
) -> SoftView<'a> {
    let part = |from: u32, to: usize| words.get(from as usize..to.min(words.len())).unwrap_or(&[]);
    SoftView {
        view_proj: Mat4::from_cols_array_2d(&uniform.view_proj),
        width: uniform.screen[0] as u32,
        height: uniform.screen[1] as u32,
        near,
        centre: uniform.center,
        focal: uniform.screen[2],
        show_sky: view.show_sky,
        show_sprites: view.show_sprites,
        cam_pos: Vec3::from_slice(&uniform.cam_pos[..3]),
        cam_right: Vec3::from_slice(&uniform.cam_right[..3]),
        light: part(l.light, (l.light + l.light_count) as usize),
        remap: part(l.remap, l.scroll as usize),
        scroll: part(l.scroll, words.len()),
    }
}

/// Whether a solid group holds sky surfaces.
fn is_sky(g: &Group) -> bool {
    g.surface == SurfaceKind::Sky as u32 + 1
}

/// Each triangle's three edges as a line list.
fn wire_edges(world: &[WorldVertex]) -> Vec<WorldVertex> {
    world.chunks_exact(3).flat_map(|t| [t[0], t[1], t[1], t[2], t[2], t[0]]).collect()
}

/// Copies a texture to the CPU as an RGBA image.
pub(super) fn read_texture(
    gpu: &Gpu,
    texture: &wgpu::Texture,
    width: u32,
    height: u32,
) -> Result<image::RgbaImage> {
    let row = width * 4;
    let padded =
        row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let buffer = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read back"),
        size: (padded * height) as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
    );
    gpu.queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    let (tx, rx) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
    rx.recv()??;
    let data = slice.get_mapped_range()?;
    let mut pixels = Vec::with_capacity((row * height) as usize);
    for y in 0..height as usize {
        let start = y * padded as usize;
        pixels.extend_from_slice(&data[start..start + row as usize]);
    }
    drop(data);
    buffer.unmap();
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| anyhow::anyhow!("read-back size mismatch"))
}
