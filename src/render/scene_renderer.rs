use anyhow::Result;
use bytemuck::{Pod, Zeroable};
use glam::DVec3;
use wgpu::util::DeviceExt;

use super::frame::projection;
use super::packing::{pack_scene, pack_state, MetaLayout, StateLayout};
use super::span_pass::{SpanPass, KEY_FORMAT};
use super::translucent_pass::{self, OpaqueTargets, TranslucentPass};
use super::vanilla_bsp::{self, VanillaView, WalkResult};
use super::vanilla_tables::{self, fixed_div, FRACUNIT};
use super::vanilla_walls::WallSetup;
use super::{shaders, Gpu, RenderMode, ViewSettings, DEPTH_FORMAT, SCENE_FORMAT};
use crate::scene::vanilla_doom::VanillaMap;
use crate::scene::{
    vertex_flags, Axes, CameraPose, FrameState, Scene, Shading, VanillaSeg, WorldVertex,
};

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
    fixed_view: [i32; 4],
    fixed_step: [i32; 4],
    meta_offs: [u32; 4],
    state_offs: [u32; 4],
    table_offs: [u32; 4],
    table_offs2: [u32; 4],
    extra_offs: [u32; 4],
    walk_offs: [u32; 4],
    misc: [u32; 4],
}

const FLAG_FAITHFUL: i32 = 1;
const FLAG_VANILLA_EXACT: i32 = 2;
const FLAG_SKY: i32 = 4;

/// Offsets into the viewport tables buffer.
#[derive(Clone, Copy, Default, PartialEq)]
struct TableLayout {
    sine: u32,
    tangent: u32,
    xtoviewangle: u32,
    yslope: u32,
    distscale: u32,
    zlight: u32,
    scalelight: u32,
}

struct Targets {
    width: u32,
    height: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    keys_view: wgpu::TextureView,
}

/// A scene uploaded to the GPU, ready to draw from any camera.
pub struct SceneRenderer {
    world_pipeline: wgpu::RenderPipeline,
    sprite_pipeline: wgpu::RenderPipeline,
    wire_pipeline: wgpu::RenderPipeline,
    /// Entities, cameras and unknown records: fixed-size diamonds at their positions.
    marker_pipeline: wgpu::RenderPipeline,
    markers: wgpu::Buffer,
    marker_count: u32,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    meta: wgpu::Buffer,
    texels: wgpu::Buffer,
    state: wgpu::Buffer,
    tables: Option<(wgpu::Buffer, TableLayout, (u32, u32, u64))>,
    sprites: wgpu::Buffer,
    bind_group: Option<wgpu::BindGroup>,
    vertices: wgpu::Buffer,
    vertex_count: u32,
    wire: wgpu::Buffer,
    wire_count: u32,
    sprite_count: u32,
    sprite_views: u32,
    meta_layout: MetaLayout,
    state_layout: StateLayout,
    state_words: Vec<u32>,
    sky_texture: u32,
    axes: Axes,
    segs: Vec<VanillaSeg>,
    wall_setup: WallSetup,
    /// Doom only: flats redrawn by visplane spans.
    spans: Option<SpanPass>,
    /// Doom only: the map for vanilla's BSP walk, and the walk's view at the current size
    /// (present when the view is vanilla's 90° projection).
    vanilla_map: Option<Box<VanillaMap>>,
    vanilla_view: Option<VanillaView>,
    /// This frame's walk (vanilla-exact frames only).
    walk: Option<WalkResult>,
    /// Span start per pixel, widened for upload.
    span_words: Vec<u32>,
    /// Draw calls the last `render` issued.
    last_draws: u32,
    /// `state_words` followed by this frame's wall set-up; what the state buffer holds.
    upload: Vec<u32>,
    targets: Option<Targets>,
    clear: wgpu::Color,
    /// Palette index blending sees where nothing opaque was drawn.
    clear_index: u32,
    near: f32,
    /// Translucent triangles follow the `vertex_count` opaque ones in `vertices`.
    translucent_count: u32,
    translucent: Option<TranslucentPass>,
}

impl SceneRenderer {
    pub fn new(gpu: &Gpu, scene: &Scene) -> Result<SceneRenderer> {
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

        // Opaque triangles first, translucent ones after: one buffer, two ranges.
        let (opaque, translucent): (Vec<&[WorldVertex]>, Vec<&[WorldVertex]>) =
            scene.world.chunks_exact(3).partition(|t| t[0].flags & vertex_flags::TRANSLUCENT == 0);
        let mut world: Vec<WorldVertex> =
            opaque.iter().chain(&translucent).flat_map(|t| t.iter().copied()).collect();
        let opaque_count = (opaque.len() * 3) as u32;
        let translucent_count = (translucent.len() * 3) as u32;
        if world.is_empty() {
            world.push(WorldVertex::zeroed());
        }
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("world vertices"),
            contents: bytemuck::cast_slice(&world),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let wire_vertices = wire_edges(&world);
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
        let world_pipeline = make_pipeline(device, &pipeline_layout, &module, PipelineKind::World);
        let sprite_pipeline =
            make_pipeline(device, &pipeline_layout, &module, PipelineKind::Sprite);
        let wire_pipeline = make_pipeline(device, &pipeline_layout, &module, PipelineKind::Wire);
        let marker_pipeline =
            make_pipeline(device, &pipeline_layout, &module, PipelineKind::Marker);
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

        let spans = matches!(scene.shading, Shading::DoomColormap { .. })
            .then(|| SpanPass::new(device, &module, &layout));
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
        let translucent = (translucent_count > 0 && fragment_storage)
            .then(|| TranslucentPass::new(device, &module, &layout, world_vertex_layout()));
        let [r, g, b] = scene.clear.rgb.map(|c| c as f64 / 255.0);
        Ok(SceneRenderer {
            world_pipeline,
            sprite_pipeline,
            wire_pipeline,
            marker_pipeline,
            markers,
            marker_count,
            layout,
            uniform,
            meta,
            texels,
            state,
            tables: None,
            sprites,
            bind_group: None,
            vertices,
            vertex_count: opaque_count,
            translucent_count,
            translucent,
            wire,
            wire_count: wire_vertices.len() as u32,
            sprite_count: packed.sprite_count,
            sprite_views: packed.sprite_views,
            meta_layout: packed.layout,
            state_layout,
            state_words,
            sky_texture: scene.sky.as_ref().map(|s| s.texture).unwrap_or(0),
            axes: scene.axes,
            segs: match &scene.shading {
                Shading::DoomColormap { segs, .. } => segs.clone(),
                _ => Vec::new(),
            },
            vanilla_map: match &scene.shading {
                Shading::DoomColormap { map, .. } => map.clone(),
                _ => None,
            },
            vanilla_view: None,
            walk: None,
            span_words: Vec::new(),
            last_draws: 0,
            wall_setup: WallSetup::new(),
            upload: Vec::new(),
            spans,
            targets: None,
            clear: wgpu::Color { r, g, b, a: 1.0 },
            clear_index: scene.clear.index,
            near: scene.near,
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

    /// Whether the last `render` repeated vanilla's BSP walk (faithful, 90°, level camera).
    pub fn used_vanilla_walk(&self) -> bool {
        self.walk.is_some()
    }

    /// The image of the last `render`, at the view's size.
    pub fn color_view(&self) -> Option<&wgpu::TextureView> {
        self.targets.as_ref().map(|t| &t.color_view)
    }

    pub fn target_size(&self) -> Option<(u32, u32)> {
        self.targets.as_ref().map(|t| (t.width, t.height))
    }

    /// Draws the scene from `camera` into the offscreen image.
    pub fn render(&mut self, gpu: &Gpu, camera: &CameraPose, view: &ViewSettings) {
        let (w, h) = (view.width.max(1), view.height.max(1));
        self.ensure_targets(gpu, w, h);
        let faithful = view.mode == RenderMode::Faithful;
        let focal = view.focal();
        self.ensure_tables(gpu, w, h, focal, faithful);
        self.run_walk(camera, view);
        let uniform = self.frame_uniform(camera, view, focal);
        gpu.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        self.upload_state(gpu, &uniform);
        if self.bind_group.is_none() {
            self.bind_group = Some(self.make_bind_group(&gpu.device));
        }
        let (Some(targets), Some(bind_group)) = (&self.targets, &self.bind_group) else {
            return;
        };

        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let mut draws = 1;
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("scene"),
                color_attachments: &[
                    Some(wgpu::RenderPassColorAttachment {
                        view: &targets.color_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(self.clear),
                            store: wgpu::StoreOp::Store,
                        },
                    }),
                    Some(wgpu::RenderPassColorAttachment {
                        view: &targets.keys_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                            store: wgpu::StoreOp::Store,
                        },
                    }),
                ],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, bind_group, &[]);
            pass.set_pipeline(&self.world_pipeline);
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.draw(0..self.vertex_count, 0..1);
            if view.show_sprites && self.sprite_count > 0 {
                pass.set_pipeline(&self.sprite_pipeline);
                pass.draw(0..6, 0..self.sprite_count);
                draws += 1;
            }
            if view.show_markers && self.marker_count > 0 {
                pass.set_pipeline(&self.marker_pipeline);
                pass.set_vertex_buffer(0, self.markers.slice(..));
                pass.draw(0..6, 0..self.marker_count);
                draws += 1;
            }
            if view.wireframe {
                pass.set_pipeline(&self.wire_pipeline);
                pass.set_vertex_buffer(0, self.wire.slice(..));
                pass.draw(0..self.wire_count, 0..1);
                draws += 1;
            }
        }
        if let Some(pass) = self.translucent.as_mut() {
            let opaque_bytes = self.vertex_count as u64 * std::mem::size_of::<WorldVertex>() as u64;
            pass.record(
                &gpu.device,
                &mut encoder,
                bind_group,
                OpaqueTargets {
                    color: &targets.color,
                    color_view: &targets.color_view,
                    keys_view: &targets.keys_view,
                    depth_view: &targets.depth_view,
                    size: (targets.width, targets.height),
                },
                self.vertices.slice(opaque_bytes..),
                self.translucent_count,
            );
            draws += 2;
        }
        if let (Some(spans), Some(walk)) = (self.spans.as_mut(), &self.walk) {
            self.span_words.clear();
            self.span_words.extend(walk.span_start.iter().map(|&x| x as u32));
            spans.record(
                &gpu.device,
                &gpu.queue,
                &mut encoder,
                bind_group,
                &targets.keys_view,
                &targets.color_view,
                (targets.width, targets.height),
                &self.span_words,
            );
            draws += 1;
        }
        self.last_draws = draws;
        gpu.queue.submit([encoder.finish()]);
    }

    /// Reads the last rendered image back (blocking).
    pub fn read_image(&self, gpu: &Gpu) -> Result<image::RgbaImage> {
        let t = self.targets.as_ref().ok_or_else(|| anyhow::anyhow!("nothing rendered yet"))?;
        read_texture(gpu, &t.color, t.width, t.height)
    }

    /// Repeats vanilla's BSP walk for this view when it is vanilla's projection (faithful,
    /// 90°, level, Doom): span starts for the flats and wall ranges for the wall scales.
    fn run_walk(&mut self, camera: &CameraPose, view: &ViewSettings) {
        self.walk = None;
        let exact = view.mode == RenderMode::Faithful
            && camera.pitch == 0.0
            && self.axes == Axes::ZUpRightHanded;
        let (Some(map), Some(vview)) = (&self.vanilla_map, &mut self.vanilla_view) else {
            return;
        };
        if !exact {
            return;
        }
        let (x, y, z, angle) = fixed_camera(self.axes, camera);
        vview.set_camera(x, y, z, angle);
        let l = &self.state_layout;
        let light = &self.state_words[l.light as usize..(l.light + l.light_count) as usize];
        self.walk = Some(vanilla_bsp::walk(map, light, vview));
    }

    /// Writes the animation state, this view's wall set-up and the walk's wall ranges into the
    /// state buffer (layout in `frame_uniform`).
    fn upload_state(&mut self, gpu: &Gpu, uniform: &FrameUniform) {
        self.upload.clear();
        self.upload.extend_from_slice(&self.state_words);
        let [vx, vy, _, angle] = uniform.fixed_view;
        self.wall_setup.compute(&self.segs, vx, vy, angle as u32, &mut self.upload);
        if let Some(walk) = &self.walk {
            self.upload.extend_from_slice(walk.seg_first());
            self.upload.extend_from_slice(walk.seg_drawsegs());
            for d in &walk.drawsegs {
                self.upload.extend([d.x1 as u32, d.x2 as u32, d.scale1 as u32, d.scalestep as u32]);
            }
        }
        let size = (self.upload.len() * 4) as u64;
        if size > self.state.size() {
            self.state = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("frame state"),
                size,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.bind_group = None;
        }
        gpu.queue.write_buffer(&self.state, 0, bytemuck::cast_slice(&self.upload));
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
            SCENE_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene colour",
        );
        let depth = make(
            DEPTH_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            "scene depth",
        );
        let keys = make(
            KEY_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            "plane keys",
        );
        if let Some(spans) = &mut self.spans {
            spans.invalidate();
        }
        self.targets = Some(Targets {
            keys_view: keys.create_view(&Default::default()),
            width: w,
            height: h,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
        });
    }

    fn ensure_tables(&mut self, gpu: &Gpu, w: u32, h: u32, focal: f64, faithful: bool) {
        let key = (w, h, focal.to_bits() ^ faithful as u64);
        if self.tables.as_ref().is_some_and(|t| t.2 == key) {
            return;
        }
        let p = projection(w, h, focal, faithful);
        // Vanilla's centre column/row in its own integer coordinates.
        let centerx = (p.cx - 0.5).floor() as i32;
        let centery = (p.cy - 0.5).floor() as i32;
        let mut v = vanilla_tables::view_tables(w, h, focal, centerx, centery);
        // At vanilla's own projection (90° across the width) take the walk's tables, which
        // are built exactly as R_InitTextureMapping builds them.
        self.vanilla_view = None;
        if faithful && self.vanilla_map.is_some() && (focal - (w / 2) as f64).abs() < 1e-9 {
            let vv = VanillaView::new(w, h);
            v.xtoviewangle = vv.xtoviewangle().to_vec();
            v.yslope = vv.yslope().to_vec();
            v.distscale = vv.distscale().to_vec();
            self.vanilla_view = Some(vv);
        }
        let mut words: Vec<i32> = Vec::new();
        let at = |words: &mut Vec<i32>, part: &[i32]| {
            let o = words.len() as u32;
            words.extend_from_slice(part);
            o
        };
        let sine = at(&mut words, &vanilla_tables::finesine());
        let tangent = at(&mut words, &vanilla_tables::finetangent());
        let xtoviewangle =
            at(&mut words, &v.xtoviewangle.iter().map(|&a| a as i32).collect::<Vec<_>>());
        let yslope = at(&mut words, &v.yslope);
        let distscale = at(&mut words, &v.distscale);
        let zlight =
            at(&mut words, &vanilla_tables::zlight().iter().map(|&m| m as i32).collect::<Vec<_>>());
        let scalelight = at(
            &mut words,
            &vanilla_tables::scalelight().iter().map(|&m| m as i32).collect::<Vec<_>>(),
        );
        let buffer = gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("view tables"),
            contents: bytemuck::cast_slice(&words),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let layout =
            TableLayout { sine, tangent, xtoviewangle, yslope, distscale, zlight, scalelight };
        self.tables = Some((buffer, layout, key));
        self.bind_group = None;
    }

    fn frame_uniform(&self, camera: &CameraPose, view: &ViewSettings, focal: f64) -> FrameUniform {
        let faithful = view.mode == RenderMode::Faithful;
        let mut p = projection(view.width.max(1), view.height.max(1), focal, faithful);
        p.near = self.near as f64;
        let view_m = camera.view_matrix();
        let proj = p.matrix();
        let (fx, fy, fz, bam) = fixed_camera(self.axes, camera);
        let fixed = |v: f64| (v * FRACUNIT as f64).round() as i32;
        let sine = vanilla_tables::finesine();
        let fine = (bam.wrapping_sub(vanilla_tables::ANG90) >> 19) as usize;
        let centerxfrac = fixed(focal);
        let basexscale = fixed_div(sine[fine + 2048], centerxfrac);
        let baseyscale = -fixed_div(sine[fine], centerxfrac);
        let mut flags = 0;
        if faithful {
            flags |= FLAG_FAITHFUL;
            if self.walk.is_some() {
                flags |= FLAG_VANILLA_EXACT;
            }
        }
        if view.show_sky {
            flags |= FLAG_SKY;
        }
        let t = self.tables.as_ref().map(|t| t.1).unwrap_or_default();
        let right = camera.right();
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
            fixed_view: [fx, fy, fz, bam as i32],
            fixed_step: [basexscale, baseyscale, flags, centerxfrac],
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
            table_offs: [t.sine, t.xtoviewangle, t.yslope, t.distscale],
            table_offs2: [t.zlight, t.scalelight, self.sprite_views, self.sky_texture],
            extra_offs: [
                self.state_words.len() as u32,
                self.segs.len() as u32,
                t.tangent,
                (p.cy - 0.5).floor() as u32,
            ],
            walk_offs: self.walk_offsets(),
            misc: [self.clear_index, translucent_pass::LAYERS, 0, 0],
        }
    }

    /// Word offsets in the state buffer of the walk's seg_first, seg_drawsegs and drawseg
    /// data, and whether there is a walk.
    fn walk_offsets(&self) -> [u32; 4] {
        let Some(walk) = &self.walk else { return [0; 4] };
        let first = (self.state_words.len() + self.segs.len() * 4) as u32;
        let order = first + walk.seg_first().len() as u32;
        let data = order + walk.seg_drawsegs().len() as u32;
        [first, order, data, 1]
    }

    fn make_bind_group(&self, device: &wgpu::Device) -> wgpu::BindGroup {
        let tables = self.tables.as_ref().map(|t| &t.0).unwrap_or(&self.meta);
        let entries: Vec<wgpu::BindGroupEntry> =
            [&self.uniform, &self.meta, &self.texels, &self.state, tables, &self.sprites]
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
    for binding in 1..=5 {
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

#[derive(PartialEq)]
enum PipelineKind {
    World,
    Sprite,
    Wire,
    Marker,
}

fn make_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    kind: PipelineKind,
) -> wgpu::RenderPipeline {
    let world_layout = world_vertex_layout();
    let (vs, fs, buffers, topology) = match kind {
        PipelineKind::World => (
            "vs_world",
            "fs_world",
            vec![Some(world_layout)],
            wgpu::PrimitiveTopology::TriangleList,
        ),
        PipelineKind::Sprite => {
            ("vs_sprite", "fs_sprite", vec![], wgpu::PrimitiveTopology::TriangleList)
        }
        PipelineKind::Wire => {
            ("vs_world", "fs_wire", vec![Some(world_layout)], wgpu::PrimitiveTopology::LineList)
        }
        PipelineKind::Marker => (
            "vs_marker",
            "fs_marker",
            vec![Some(wgpu::VertexBufferLayout {
                array_stride: 12,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &MARKER_ATTRS,
            })],
            wgpu::PrimitiveTopology::TriangleList,
        ),
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(vs),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vs),
            compilation_options: Default::default(),
            buffers: &buffers,
        },
        // World triangles wind counter-clockwise seen from the side they face: culling the
        // back faces draws each wall from its front side only, as vanilla draws segs facing
        // the viewer (a two-sided line with a middle texture on both sides has two quads in
        // one plane). Sprites and lines face the camera either way.
        primitive: wgpu::PrimitiveState {
            topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: (kind == PipelineKind::World).then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(kind == PipelineKind::World || kind == PipelineKind::Sprite),
            depth_compare: Some(if matches!(kind, PipelineKind::Wire | PipelineKind::Marker) {
                wgpu::CompareFunction::GreaterEqual
            } else {
                wgpu::CompareFunction::Greater
            }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fs),
            compilation_options: Default::default(),
            targets: &[Some(SCENE_FORMAT.into()), Some(KEY_FORMAT.into())],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Marker instances: a viewer-space position each.
const MARKER_ATTRS: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x3];

/// `WorldVertex` as the world vertex shader reads it.
fn world_vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 7] = wgpu::vertex_attr_array![
        0 => Float32x3, 1 => Float32x2, 2 => Uint32, 3 => Uint32, 4 => Uint32, 5 => Uint32,
        6 => Unorm8x4
    ];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<WorldVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
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

/// The camera in Doom's fixed point: viewx, viewy, viewz (16.16, native) and the view angle.
fn fixed_camera(axes: Axes, camera: &CameraPose) -> (i32, i32, i32, u32) {
    let n: DVec3 = axes.to_native_f64(camera.pos);
    let fixed = |v: f64| (v * FRACUNIT as f64).round() as i32;
    let yaw_deg = axes.yaw_to_native(camera.yaw);
    let bam = ((yaw_deg / 360.0).rem_euclid(1.0) * 4294967296.0).round() as u64 as u32;
    (fixed(n.x), fixed(n.y), fixed(n.z), bam)
}
