//! Translucent triangles, blended in exact depth order per pixel: a collect pass appends each
//! translucent fragment behind nothing opaque to its pixel's list, a resolve pass sorts every
//! list far to near and blends it over the opaque image (shaders/translucent.wgsl). Index
//! blending (Saucerman's LUT2) needs the palette index already on screen, which no
//! fixed-function blend state can give.

use super::profiler::PassTimer;
use super::DEPTH_FORMAT;

/// Fragments kept per pixel; deeper stacks drop the fragments that arrive last.
pub const LAYERS: u32 = 8;
const ENTRY_WORDS: u64 = 3;

pub struct TranslucentPass {
    collect: wgpu::RenderPipeline,
    resolve: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    /// For the current target size: counts, entries, opaque colour copy, bind group.
    bound: Option<Bound>,
}

struct Bound {
    size: (u32, u32),
    counts: wgpu::Buffer,
    _entries: wgpu::Buffer,
    color_copy: wgpu::Texture,
    group: wgpu::BindGroup,
}

/// The opaque pass's targets the resolve reads and writes.
pub struct OpaqueTargets<'a> {
    pub color: &'a wgpu::Texture,
    pub color_view: &'a wgpu::TextureView,
    pub keys_view: &'a wgpu::TextureView,
    pub depth_view: &'a wgpu::TextureView,
    pub size: (u32, u32),
}

impl TranslucentPass {
    pub fn new(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        scene_layout: &wgpu::BindGroupLayout,
        vertex_layout: wgpu::VertexBufferLayout,
        format: wgpu::TextureFormat,
        family: &[(&str, f64)],
    ) -> TranslucentPass {
        let options =
            || wgpu::PipelineCompilationOptions { constants: family, ..Default::default() };
        let fs = wgpu::ShaderStages::FRAGMENT;
        let storage = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: fs,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let texture = |binding, sample_type| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: fs,
            ty: wgpu::BindingType::Texture {
                sample_type,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("translucent lists"),
            entries: &[
                storage(0),
                storage(1),
                texture(2, wgpu::TextureSampleType::Float { filterable: false }),
                texture(3, wgpu::TextureSampleType::Uint),
                texture(4, wgpu::TextureSampleType::Depth),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("translucent"),
            bind_group_layouts: &[Some(scene_layout), Some(&layout)],
            immediate_size: 0,
        });
        // Both passes draw the translucent triangles as the opaque world does (each surface from
        // its front side), tested against the opaque depth without writing it.
        let pipeline = |label, fs, targets: &[Option<wgpu::ColorTargetState>]| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some("vs_world"),
                    compilation_options: options(),
                    buffers: &[Some(vertex_layout.clone())],
                },
                primitive: wgpu::PrimitiveState {
                    front_face: wgpu::FrontFace::Ccw,
                    cull_mode: Some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Greater),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some(fs),
                    compilation_options: options(),
                    targets,
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let collect = pipeline("translucent collect", "fs_translucent", &[]);
        // The resolve draws the triangles again, so it runs only on the pixels they cover (a
        // full-screen pass costs a software rasteriser the whole screen); each of a pixel's
        // fragments computes the same blend of its whole list over the opaque copy.
        let resolve = pipeline("translucent resolve", "fs_resolve", &[Some(format.into())]);
        TranslucentPass { collect, resolve, layout, bound: None }
    }

    /// Collects `vertices` (translucent triangles) and blends them into the colour target;
    /// `timer`, when profiling, times both passes.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        scene_group: &wgpu::BindGroup,
        targets: OpaqueTargets,
        vertices: wgpu::BufferSlice,
        vertex_count: u32,
        mut timer: Option<&mut PassTimer>,
    ) {
        if self.bound.as_ref().is_none_or(|b| b.size != targets.size) {
            self.bound = Some(self.bind(device, &targets));
        }
        let Some(b) = &self.bound else { return };
        let (w, h) = targets.size;
        encoder.clear_buffer(&b.counts, 0, None);
        encoder.copy_texture_to_texture(
            targets.color.as_image_copy(),
            b.color_copy.as_image_copy(),
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("translucent collect"),
                color_attachments: &[],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: targets.depth_view,
                    // Read-only: the shader reads the same depth as a texture.
                    depth_ops: None,
                    stencil_ops: None,
                }),
                timestamp_writes: timer.as_mut().and_then(|t| t.pass("translucent collect")),
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.collect);
            pass.set_bind_group(0, scene_group, &[]);
            pass.set_bind_group(1, &b.group, &[]);
            pass.set_vertex_buffer(0, vertices);
            pass.draw(0..vertex_count, 0..1);
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("translucent resolve"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: targets.color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: targets.depth_view,
                depth_ops: None,
                stencil_ops: None,
            }),
            timestamp_writes: timer.and_then(|t| t.pass("translucent resolve")),
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.resolve);
        pass.set_bind_group(0, scene_group, &[]);
        pass.set_bind_group(1, &b.group, &[]);
        pass.set_vertex_buffer(0, vertices);
        pass.draw(0..vertex_count, 0..1);
    }

    fn bind(&self, device: &wgpu::Device, targets: &OpaqueTargets) -> Bound {
        let (w, h) = targets.size;
        let pixels = w as u64 * h as u64;
        let buffer = |label, size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(16),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let counts = buffer("translucent counts", pixels * 4);
        let entries = buffer("translucent entries", pixels * LAYERS as u64 * ENTRY_WORDS * 4);
        let color_copy = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("opaque colour copy"),
            size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: targets.color.format(),
            usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let copy_view = color_copy.create_view(&Default::default());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("translucent lists"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: counts.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: entries.as_entire_binding() },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&copy_view),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(targets.keys_view),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(targets.depth_view),
                },
            ],
        });
        Bound { size: (w, h), counts, _entries: entries, color_copy, group }
    }
}
