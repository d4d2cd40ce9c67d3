//! Doom's flats by visplane spans: after the scene pass has written each flat pixel's plane
//! key, a full-screen pass redraws those pixels with the texel R_MapPlane gives them, stepping
//! from their span's start column: the CPU walk of vanilla's BSP (`vanilla_bsp`) finds the
//! spans and `vanilla_flats` steps them, one word a pixel. The texel a far flat pixel gets
//! depends on where its span starts, so this is what lines flats up with vanilla frames.

use super::vanilla_flats::MAX_WORD_PLANES;
use super::SCENE_FORMAT;

pub const KEY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;

pub struct SpanPass {
    draw: wgpu::RenderPipeline,
    draw_layout: wgpu::BindGroupLayout,
    /// For the current key target: span start buffer, bind group, size.
    bound: Option<(wgpu::Buffer, wgpu::BindGroup, (u32, u32))>,
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
        let fs = wgpu::ShaderStages::FRAGMENT;
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("span draw"),
            entries: &[key_texture_entry(0, fs), storage_entry(1, fs, true)],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("flat spans"),
            bind_group_layouts: &[Some(scene_layout), Some(&draw_layout)],
            immediate_size: 0,
        });
        // Specialised as the scene's flats in vanilla-exact frames (see common.wgsl).
        let constants = [("SURFACE_KIND", 2.0), ("SHADE_MODE", 3.0)];
        let pipeline = |entry: &'static str| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(entry),
                layout: Some(&layout),
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
                    entry_point: Some(entry),
                    compilation_options: wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        ..Default::default()
                    },
                    targets: &[Some(SCENE_FORMAT.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let draw = pipeline("fs_flat_spans");
        SpanPass { draw, draw_layout, bound: None }
    }

    /// Uploads this frame's flat words (`vanilla_flats::flat_words`) and records the redraw
    /// of the flat pixels into `color`.
    #[allow(clippy::too_many_arguments)]
    pub fn record(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        scene_bind_group: &wgpu::BindGroup,
        keys: &wgpu::TextureView,
        color: &wgpu::TextureView,
        size: (u32, u32),
        words: &[u32],
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        if self.bound.as_ref().is_none_or(|b| b.2 != size) {
            let pixels = size.0 as u64 * size.1 as u64;
            let starts = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flat words"),
                size: (pixels + MAX_WORD_PLANES as u64) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("spans"),
                layout: &self.draw_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(keys),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: starts.as_entire_binding() },
                ],
            });
            self.bound = Some((starts, group, size));
        }
        let Some((starts, group, _)) = &self.bound else { return };
        if words.len() as u64 * 4 <= starts.size() {
            queue.write_buffer(starts, 0, bytemuck::cast_slice(words));
        }
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("flat spans"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: color,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            timestamp_writes,
            ..Default::default()
        });
        pass.set_bind_group(0, scene_bind_group, &[]);
        pass.set_bind_group(1, group, &[]);
        pass.set_pipeline(&self.draw);
        pass.draw(0..3, 0..1);
    }

    /// Call when the key target is recreated.
    pub fn invalidate(&mut self) {
        self.bound = None;
    }
}
