//! The world shader module's render pipelines: what each draws (world triangles, their depth
//! pre-pass, sprites, lines, markers) and which surfaces and mode its fragment shader is
//! specialised for.

use std::collections::HashMap;

use super::packing::MetaLayout;
use super::{DEPTH_FORMAT, KEY_FORMAT};
use crate::scene::WorldVertex;

/// What a pipeline draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipelineKind {
    /// Masked world triangles: depth tested and written as they are drawn.
    World,
    /// Solid world triangles, depth only: the pre-pass that finds each pixel's nearest surface.
    Depth,
    /// Solid world triangles again, shaded only where they are the nearest (depth equal), so
    /// each pixel runs the family's fragment shader once however deep the level is behind it.
    Shade,
    /// [`PipelineKind::Shade`] for smooth walls and flats whose texture is bound as a GPU
    /// texture (bind group 1, see `smooth_textures`).
    SmoothShade,
    Sprite,
    Wire,
    Marker,
}

/// A pipeline: what it draws and what its fragment shader is specialised for (the
/// `SURFACE_KIND` and `SHADE_MODE` overrides of shaders/common.wgsl, 0 = not specialised;
/// `CONTRAST_USED`, false when no triangle it draws has a contrast byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    pub kind: PipelineKind,
    pub surface: u32,
    pub contrast: bool,
    pub mode: u32,
}

/// The world module's pipelines, made when first needed: a specialised pipeline costs a
/// shader compile, and a scene drawn in one mode needs only that mode's.
pub struct WorldPipelines {
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    /// The layout with the family's own bind group 1 (Doom's bound textures), for
    /// [`PipelineKind::SmoothShade`].
    family_layout: Option<wgpu::PipelineLayout>,
    /// Whether the scene pass has the key target (see `SceneRenderer`).
    keys: bool,
    /// The colour target's format.
    format: wgpu::TextureFormat,
    /// The scene's constants (the `FAMILY_*` and `POW2_TEXTURES` overrides).
    scene: MetaLayout,
    made: HashMap<PipelineKey, wgpu::RenderPipeline>,
}

/// The overrides of shaders/common.wgsl that hold for the whole scene: its family constants
/// (`FAMILY_*`) and whether every texture's sides are powers of two (`POW2_TEXTURES`).
pub fn scene_overrides(scene: &MetaLayout) -> [(&'static str, f64); 9] {
    const NAMES: [&str; 8] = [
        "FAMILY_0", "FAMILY_1", "FAMILY_2", "FAMILY_3", "FAMILY_4", "FAMILY_5", "FAMILY_6",
        "FAMILY_7",
    ];
    let pow2 = ("POW2_TEXTURES", f64::from(u8::from(scene.pow2_textures)));
    std::array::from_fn(|i| if i < 8 { (NAMES[i], f64::from(scene.family[i])) } else { pow2 })
}

impl WorldPipelines {
    pub fn new(
        module: wgpu::ShaderModule,
        layout: wgpu::PipelineLayout,
        keys: bool,
        format: wgpu::TextureFormat,
    ) -> WorldPipelines {
        let made = HashMap::new();
        WorldPipelines {
            module,
            layout,
            family_layout: None,
            keys,
            format,
            scene: MetaLayout::default(),
            made,
        }
    }

    /// Sets the scene whose constants the pipelines made from now on are specialised for.
    pub fn set_scene(&mut self, scene: MetaLayout) {
        self.scene = scene;
    }

    /// Lets [`PipelineKind::SmoothShade`] pipelines be made, with `layout`.
    pub fn set_family_layout(&mut self, layout: wgpu::PipelineLayout) {
        self.family_layout = Some(layout);
    }

    /// Makes the pipeline for `key` unless it exists.
    pub fn prepare(&mut self, device: &wgpu::Device, key: PipelineKey) {
        if self.made.contains_key(&key) {
            return;
        }
        let layout = match key.kind {
            PipelineKind::SmoothShade => match &self.family_layout {
                Some(l) => l,
                None => return,
            },
            _ => &self.layout,
        };
        let pipeline = make_pipeline(device, layout, &self.module, key, self);
        self.made.insert(key, pipeline);
    }

    /// The pipeline for `key`; [`WorldPipelines::prepare`] must have made it.
    pub fn get(&self, key: PipelineKey) -> Option<&wgpu::RenderPipeline> {
        self.made.get(&key)
    }
}

fn make_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    key: PipelineKey,
    made_by: &WorldPipelines,
) -> wgpu::RenderPipeline {
    let (keys, format) = (made_by.keys, made_by.format);
    let kind = key.kind;
    // Shade pipelines draw the solid groups only: no texel of theirs is discarded.
    let solid_only = matches!(kind, PipelineKind::Shade | PipelineKind::SmoothShade);
    let mut constants = vec![
        ("SURFACE_KIND", key.surface as f64),
        ("SHADE_MODE", key.mode as f64),
        ("CONTRAST_USED", f64::from(u8::from(key.contrast))),
        ("SOLID_ONLY", f64::from(u8::from(solid_only))),
    ];
    constants.extend(scene_overrides(&made_by.scene));
    let compilation_options =
        wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() };
    let world_layout = world_vertex_layout();
    let (vs, fs, buffers, topology) = match kind {
        PipelineKind::Depth => (
            "vs_depth",
            "fs_depth_only",
            vec![Some(position_only_layout())],
            wgpu::PrimitiveTopology::TriangleList,
        ),
        PipelineKind::World | PipelineKind::Shade | PipelineKind::SmoothShade => (
            "vs_world",
            match kind {
                PipelineKind::SmoothShade => "fs_smooth",
                _ => "fs_world",
            },
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
    // The pre-pass leaves colour and keys alone.
    let (color_writes, key_writes) = match kind {
        PipelineKind::Depth => (wgpu::ColorWrites::empty(), wgpu::ColorWrites::empty()),
        _ => (wgpu::ColorWrites::ALL, wgpu::ColorWrites::ALL),
    };
    // Without the key target the shader's key output goes nowhere.
    let targets = [(format, color_writes, true), (KEY_FORMAT, key_writes, keys)].map(
        |(format, write_mask, used)| {
            used.then_some(wgpu::ColorTargetState { format, blend: None, write_mask })
        },
    );
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(vs),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vs),
            compilation_options: compilation_options.clone(),
            buffers: &buffers,
        },
        // World triangles wind counter-clockwise seen from the side they face: culling the
        // back faces draws each wall from its front side only, as vanilla draws segs facing
        // the viewer (a two-sided line with a middle texture on both sides has two quads in
        // one plane). Sprites and lines face the camera either way.
        primitive: wgpu::PrimitiveState {
            topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: matches!(
                kind,
                PipelineKind::World
                    | PipelineKind::Depth
                    | PipelineKind::Shade
                    | PipelineKind::SmoothShade
            )
            .then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(matches!(
                kind,
                PipelineKind::World | PipelineKind::Depth | PipelineKind::Sprite
            )),
            depth_compare: Some(match kind {
                PipelineKind::Wire | PipelineKind::Marker => wgpu::CompareFunction::GreaterEqual,
                PipelineKind::Shade | PipelineKind::SmoothShade => wgpu::CompareFunction::Equal,
                _ => wgpu::CompareFunction::Greater,
            }),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fs),
            compilation_options,
            targets: &targets,
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Marker instances: a viewer-space position each.
const MARKER_ATTRS: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x3];

/// `WorldVertex` as the world vertex shader reads it.
pub fn world_vertex_layout() -> wgpu::VertexBufferLayout<'static> {
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

/// `WorldVertex` as the depth pre-pass reads it: the position only.
fn position_only_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x3];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<WorldVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}
