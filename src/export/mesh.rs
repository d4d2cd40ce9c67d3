//! A scene regrouped for interchange formats: nodes (the scene's parts) holding one
//! primitive per material, with de-duplicated vertices in glTF's Y-up metres.

use std::collections::HashMap;

use glam::Vec3;

use super::{ExportOptions, LightMode, SpriteMode};
use crate::scene::{vertex_flags, Scene, SurfaceKind, Texels, Texture};

/// How a material treats alpha.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AlphaMode {
    Opaque,
    /// Texels are either drawn or not (masked textures, sprites).
    Mask,
    /// Translucent surfaces.
    Blend,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MaterialKey {
    pub texture: u32,
    pub alpha: AlphaMode,
    pub double_sided: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Primitive {
    pub material: usize,
    pub positions: Vec<[f32; 3]>,
    pub uvs: Vec<[f32; 2]>,
    /// Baked light per vertex (grey, 0..1), when light is baked.
    pub colors: Vec<[f32; 4]>,
    pub indices: Vec<u32>,
    lookup: HashMap<[u32; 7], u32>,
}

impl Primitive {
    fn push(&mut self, pos: [f32; 3], uv: [f32; 2], light: Option<f32>) {
        let l = light.unwrap_or(1.0);
        let key = [
            pos[0].to_bits(),
            pos[1].to_bits(),
            pos[2].to_bits(),
            uv[0].to_bits(),
            uv[1].to_bits(),
            l.to_bits(),
            light.is_some() as u32,
        ];
        let next = self.positions.len() as u32;
        let i = *self.lookup.entry(key).or_insert(next);
        if i == next {
            self.positions.push(pos);
            self.uvs.push(uv);
            if light.is_some() {
                self.colors.push([l, l, l, 1.0]);
            }
        }
        self.indices.push(i);
    }
}

#[derive(Clone, Debug)]
pub struct Node {
    pub name: String,
    pub primitives: Vec<Primitive>,
}

pub struct ExportMesh {
    pub name: String,
    pub materials: Vec<MaterialKey>,
    pub nodes: Vec<Node>,
}

fn texture_has_holes(t: &Texture) -> bool {
    match &t.texels {
        Texels::Indexed { opaque, .. } => opaque.iter().any(|&o| !o),
        Texels::Rgba(px) => px.iter().any(|p| p[3] < 255),
    }
}

/// Regroups `scene` by part and material.
pub fn build(scene: &Scene, opts: &ExportOptions) -> ExportMesh {
    let scale = 1.0 / scene.game.units_per_metre() as f32;
    let initial = scene.animator.initial();
    let shown = |t: u32| {
        let to = initial.texture_remap.get(t as usize).copied().unwrap_or(t);
        if (to as usize) < scene.textures.len() {
            to
        } else {
            t
        }
    };
    let light_of = |slot: u32| match opts.light {
        LightMode::Baked => {
            let value = initial.light.get(slot as usize).copied().unwrap_or(255);
            scene.game.light_scale().factor(value)
        }
        LightMode::Unlit => None,
    };
    let size = |t: u32| {
        scene.textures.get(t as usize).map(|t| (t.width.max(1), t.height.max(1))).unwrap_or((1, 1))
    };

    let mut materials: Vec<MaterialKey> = Vec::new();
    let mut material_index: HashMap<MaterialKey, usize> = HashMap::new();
    let mut material_of = |key: MaterialKey| {
        *material_index.entry(key).or_insert_with(|| {
            materials.push(key);
            materials.len() - 1
        })
    };
    let part_count = scene.parts.names.len().max(1);
    let mut nodes: Vec<Node> = (0..part_count)
        .map(|i| Node {
            name: scene.parts.names.get(i).cloned().unwrap_or_else(|| "world".into()),
            primitives: Vec::new(),
        })
        .collect();
    let mut prim_of: HashMap<(usize, usize), usize> = HashMap::new();

    for (i, tri) in scene.world.chunks_exact(3).enumerate() {
        let flags = tri[0].flags;
        if flags & vertex_flags::KIND_MASK == SurfaceKind::Sky as u32 {
            continue;
        }
        let texture = shown(tri[0].texture);
        let holes = scene.textures.get(texture as usize).is_some_and(texture_has_holes);
        let alpha = if flags & vertex_flags::TRANSLUCENT != 0 {
            AlphaMode::Blend
        } else if flags & vertex_flags::MASKED != 0 && holes {
            AlphaMode::Mask
        } else {
            AlphaMode::Opaque
        };
        let material = material_of(MaterialKey { texture, alpha, double_sided: false });
        let part = scene.parts.of_triangle.get(i).map(|&p| p as usize).unwrap_or(0);
        let node = part.min(part_count - 1);
        let slot = *prim_of.entry((node, material)).or_insert_with(|| {
            nodes[node].primitives.push(Primitive { material, ..Default::default() });
            nodes[node].primitives.len() - 1
        });
        let (w, h) = size(texture);
        let prim = &mut nodes[node].primitives[slot];
        for v in tri {
            let p = Vec3::from(v.pos) * scale;
            prim.push(p.to_array(), [v.uv[0] / w as f32, v.uv[1] / h as f32], light_of(v.light));
        }
    }

    if opts.sprites == SpriteMode::Quads && !scene.sprites.is_empty() {
        let mut node = Node { name: "sprites".into(), primitives: Vec::new() };
        let mut prim_of: HashMap<usize, usize> = HashMap::new();
        for s in &scene.sprites {
            let Some(view) = s.views.first() else { continue };
            let texture = shown(view.texture);
            let Some(t) = scene.textures.get(texture as usize) else { continue };
            let material =
                material_of(MaterialKey { texture, alpha: AlphaMode::Mask, double_sided: true });
            let slot = *prim_of.entry(material).or_insert_with(|| {
                node.primitives.push(Primitive { material, ..Default::default() });
                node.primitives.len() - 1
            });
            // A quad across the sprite's facing, as its front view is seen.
            let right = Vec3::new(s.facing.sin(), 0.0, s.facing.cos());
            let (w, h) = (t.width as f32, t.height as f32);
            let corner = |cx: f32, cy: f32| {
                let across = (cx * w - t.origin.0 as f32) * s.scale[0];
                let up = (t.origin.1 as f32 - cy * h) * s.scale[1];
                ((s.pos + right * across + Vec3::Y * up) * scale).to_array()
            };
            let u = |cx: f32| if view.mirrored { 1.0 - cx } else { cx };
            let light =
                if s.fullbright { light_of(u32::MAX).map(|_| 1.0) } else { light_of(s.light) };
            let prim = &mut node.primitives[slot];
            for (cx, cy) in [(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
            {
                prim.push(corner(cx, cy), [u(cx), cy], light);
            }
        }
        nodes.push(node);
    }
    nodes.retain(|n| !n.primitives.is_empty());
    ExportMesh { name: scene.name.clone(), materials, nodes }
}
