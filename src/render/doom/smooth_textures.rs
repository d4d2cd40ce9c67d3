//! Smooth mode's solid walls and flats with their textures bound as GPU textures and filtered
//! by the sampler (Doom). The shader-side bilinear filter (`shade_smooth`) reads four texels
//! and four palette entries a pixel from storage buffers, which a software rasteriser gathers
//! lane by lane; its texture unit filters an RGBA8 texture in one vectorised fetch. The
//! triangles are drawn in runs of one texture each, the texture bound per run.

use std::ops::Range;

use wgpu::util::DeviceExt;

use crate::scene::{vertex_flags, Scene, Shading, SurfaceKind, Texels, WorldVertex};

/// A run of solid triangles with one texture (before animation) and surface kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub texture: u32,
    /// The `SURFACE_KIND` override the run is drawn with (kind + 1).
    pub surface: u32,
    pub vertices: Range<u32>,
}

pub struct SmoothTextures {
    pub layout: wgpu::BindGroupLayout,
    /// One bind group a scene texture: its texture and the filtering sampler.
    groups: Vec<wgpu::BindGroup>,
    /// The texture bound in each one's place: a flat's full-size picture for its 64x64
    /// texture (the shader samples at normalised coordinates, the same for both).
    twins: std::collections::HashMap<u32, u32>,
    /// The solid walls and flats, by kind then texture.
    pub vertices: wgpu::Buffer,
    pub runs: Vec<Run>,
}

/// The solid triangles of `solid` that smooth mode draws with a bound texture (walls and
/// flats; the sky keeps its own mapping), ordered by kind and texture, keeping the order of
/// `solid` within a run.
pub fn runs(solid: &[WorldVertex]) -> (Vec<WorldVertex>, Vec<Run>) {
    let kind = |t: &[WorldVertex]| t[0].flags & vertex_flags::KIND_MASK;
    let textured = [SurfaceKind::Wall as u32, SurfaceKind::Flat as u32];
    let mut tris: Vec<&[WorldVertex]> =
        solid.chunks_exact(3).filter(|t| textured.contains(&kind(t))).collect();
    tris.sort_by_key(|t| (kind(t), t[0].texture));
    let mut runs: Vec<Run> = Vec::new();
    for (i, t) in tris.iter().enumerate() {
        let at = 3 * i as u32;
        match runs.last_mut() {
            Some(r) if r.texture == t[0].texture && r.surface == kind(t) + 1 => {
                r.vertices.end = at + 3
            }
            _ => {
                runs.push(Run { texture: t[0].texture, surface: kind(t) + 1, vertices: at..at + 3 })
            }
        }
    }
    (tris.iter().flat_map(|t| t.iter().copied()).collect(), runs)
}

/// A texture's texels as RGBA8: indexed ones through the palette (transparent texels clear).
fn rgba(scene: &Scene, t: usize) -> (u32, u32, Vec<u8>) {
    let tex = &scene.textures[t];
    let (w, h) = (tex.width.max(1), tex.height.max(1));
    let n = (w * h) as usize;
    let mut out = Vec::with_capacity(n * 4);
    match &tex.texels {
        Texels::Indexed { index, opaque } => {
            for i in 0..n {
                let p = index.get(i).copied().unwrap_or(0) as usize + tex.palette as usize;
                let [r, g, b] = scene.palette.get(p).copied().unwrap_or([0, 0, 0]);
                let a = if opaque.get(i).copied().unwrap_or(true) { 255 } else { 0 };
                out.extend([r, g, b, a]);
            }
        }
        Texels::Rgba(texels) => {
            out.extend((0..n).flat_map(|i| texels.get(i).copied().unwrap_or([0; 4])));
        }
    }
    (w, h, out)
}

impl SmoothTextures {
    /// Uploads every texture of `scene` and the smooth runs `runs` of the triangle list
    /// `triangles` (as [`runs`] makes them).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        scene: &Scene,
        triangles: &[WorldVertex],
        runs: Vec<Run>,
    ) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("smooth texture"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        // Wrapping and bilinear, as `fetch_index_quad` and `shade_smooth` filter by hand.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("smooth"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let groups = (0..scene.textures.len().max(1))
            .map(|t| {
                let (w, h, texels) = if scene.textures.is_empty() {
                    (1, 1, vec![0, 0, 0, 255])
                } else {
                    rgba(scene, t)
                };
                let texture = device.create_texture_with_data(
                    queue,
                    &wgpu::TextureDescriptor {
                        label: Some("smooth texture"),
                        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: wgpu::TextureFormat::Rgba8Unorm,
                        usage: wgpu::TextureUsages::TEXTURE_BINDING,
                        view_formats: &[],
                    },
                    wgpu::util::TextureDataOrder::LayerMajor,
                    &texels,
                );
                let view = texture.create_view(&Default::default());
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("smooth texture"),
                    layout: &layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(&view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Sampler(&sampler),
                        },
                    ],
                })
            })
            .collect();
        let zero = [bytemuck::Zeroable::zeroed()];
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("smooth runs"),
            contents: bytemuck::cast_slice(if triangles.is_empty() { &zero } else { triangles }),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let twins = match &scene.shading {
            Shading::DoomColormap { smooth_flats, .. } => {
                smooth_flats.iter().map(|&[fitted, full]| (fitted, full)).collect()
            }
            _ => Default::default(),
        };
        SmoothTextures { layout, groups, twins, vertices, runs }
    }

    /// The bind group of scene texture `texture` (after animation), or of the texture drawn
    /// in its place.
    pub fn group(&self, texture: u32) -> Option<&wgpu::BindGroup> {
        let shown = self.twins.get(&texture).copied().unwrap_or(texture);
        self.groups.get(shown as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(kind: SurfaceKind, texture: u32) -> [WorldVertex; 3] {
        let v = WorldVertex {
            texture,
            flags: vertex_flags::pack(kind, false, 0, 0),
            ..bytemuck::Zeroable::zeroed()
        };
        [v; 3]
    }

    #[test]
    fn runs_group_walls_and_flats_by_texture_and_leave_the_sky() {
        let solid: Vec<WorldVertex> = [
            tri(SurfaceKind::Wall, 5),
            tri(SurfaceKind::Flat, 2),
            tri(SurfaceKind::Sky, 0),
            tri(SurfaceKind::Wall, 3),
            tri(SurfaceKind::Wall, 5),
        ]
        .concat();
        let (vertices, runs) = runs(&solid);
        assert_eq!(vertices.len(), 12);
        let wall = SurfaceKind::Wall as u32 + 1;
        let flat = SurfaceKind::Flat as u32 + 1;
        assert_eq!(
            runs,
            vec![
                Run { texture: 3, surface: wall, vertices: 0..3 },
                Run { texture: 5, surface: wall, vertices: 3..9 },
                Run { texture: 2, surface: flat, vertices: 9..12 },
            ]
        );
    }
}
