//! Doom's flats by visplane spans: after the scene pass has written each flat pixel's plane
//! key, a compute pass finds where each row's run of equal keys starts (R_MakeSpans) and a
//! full-screen pass redraws those pixels stepping from the span start as R_MapPlane does.
//! The texel a far flat pixel gets depends on where its span starts, so this is what lines
//! flats up with vanilla frames.

use super::SCENE_FORMAT;

pub const KEY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;

pub struct SpanPass {
    compute: wgpu::ComputePipeline,
    draw: wgpu::RenderPipeline,
    compute_layout: wgpu::BindGroupLayout,
    draw_layout: wgpu::BindGroupLayout,
    /// Bind groups for the current key target: (compute, draw, size).
    bound: Option<(wgpu::BindGroup, wgpu::BindGroup, (u32, u32))>,
}

fn key_texture_entry(binding: u32, visibility: wgpu::ShaderStages) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Uint,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

fn storage_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    read_only: bool,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl SpanPass {
    /// `world_module` is the Doom family's module (it holds `fs_flat_spans`), `scene_layout`
    /// the scene's bind group layout (group 0 of the draw).
    pub fn new(
        device: &wgpu::Device,
        world_module: &wgpu::ShaderModule,
        scene_layout: &wgpu::BindGroupLayout,
    ) -> SpanPass {
        let cs = wgpu::ShaderStages::COMPUTE;
        let fs = wgpu::ShaderStages::FRAGMENT;
        let compute_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("span starts"),
            entries: &[key_texture_entry(0, cs), storage_entry(1, cs, false)],
        });
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("span draw"),
            entries: &[key_texture_entry(0, fs), storage_entry(1, fs, true)],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("spans"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/spans.wgsl").into()),
        });
        let compute = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("span starts"),
            layout: Some(&device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("span starts"),
                bind_group_layouts: &[Some(&compute_layout)],
                immediate_size: 0,
            })),
            module: &module,
            entry_point: Some("find_span_starts"),
            compilation_options: Default::default(),
            cache: None,
        });
        let draw = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("flat spans"),
            layout: Some(&device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("flat spans"),
                bind_group_layouts: &[Some(scene_layout), Some(&draw_layout)],
                immediate_size: 0,
            })),
            vertex: wgpu::VertexState {
                module: world_module,
                entry_point: Some("vs_fullscreen"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: world_module,
                entry_point: Some("fs_flat_spans"),
                compilation_options: Default::default(),
                targets: &[Some(SCENE_FORMAT.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        SpanPass { compute, draw, compute_layout, draw_layout, bound: None }
    }

    /// Records the two passes: span starts from `keys`, then the flats redrawn into `color`.
    pub fn record(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        scene_bind_group: &wgpu::BindGroup,
        keys: &wgpu::TextureView,
        color: &wgpu::TextureView,
        size: (u32, u32),
    ) {
        if self.bound.as_ref().is_none_or(|b| b.2 != size) {
            let starts = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("span starts"),
                size: (size.0 as u64 * size.1 as u64 * 4).max(4),
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            });
            let group = |layout| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("spans"),
                    layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(keys),
                        },
                        wgpu::BindGroupEntry { binding: 1, resource: starts.as_entire_binding() },
                    ],
                })
            };
            self.bound = Some((group(&self.compute_layout), group(&self.draw_layout), size));
        }
        let Some((compute_group, draw_group, _)) = &self.bound else { return };
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.compute);
            pass.set_bind_group(0, compute_group, &[]);
            pass.dispatch_workgroups(size.1.div_ceil(64), 1, 1);
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("flat spans"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: color,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            ..Default::default()
        });
        pass.set_pipeline(&self.draw);
        pass.set_bind_group(0, scene_bind_group, &[]);
        pass.set_bind_group(1, draw_group, &[]);
        pass.draw(0..3, 0..1);
    }

    /// Call when the key target is recreated.
    pub fn invalidate(&mut self) {
        self.bound = None;
    }
}
