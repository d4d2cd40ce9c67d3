//! Setting a scene up on the GPU once: its packed tables and textures, the world's vertex
//! batches, the pipelines' layout and the shading family's frame machinery.

use super::*;

impl SceneRenderer {
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
        let cells = scene.cells.as_ref().map(CellVisibility::new);
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
            solid_cull: FrustumCull::new(
                &batches.solid_reversed,
                &batches.solid,
                true,
                cells.as_ref(),
            ),
            masked_cull: FrustumCull::new(
                &batches.vertices,
                &batches.masked,
                false,
                cells.as_ref(),
            ),
            cells,
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

/// Each triangle's three edges as a line list.
fn wire_edges(world: &[WorldVertex]) -> Vec<WorldVertex> {
    world.chunks_exact(3).flat_map(|t| [t[0], t[1], t[1], t[2], t[2], t[0]]).collect()
}
