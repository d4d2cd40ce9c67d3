//! Binary glTF 2.0 (.glb): one buffer holding vertex data, indices and PNG textures.
//!
//! Materials are unlit (KHR_materials_unlit): retro games draw texels as they are, with
//! light baked into vertex colours when asked; samplers are nearest-neighbour and repeat.

use anyhow::Result;
use serde_json::{json, Value};

use super::images;
use super::mesh::{AlphaMode, ExportMesh};
use crate::scene::Scene;

const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_INT: u32 = 5125;
const NEAREST: u32 = 9728;
const REPEAT: u32 = 10497;

#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    fn view(&mut self, bytes: &[u8], target: Option<u32>) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut v = json!({ "buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len() });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        self.bin.extend_from_slice(bytes);
        self.views.push(v);
        self.views.len() - 1
    }

    fn floats<const N: usize>(&mut self, data: &[[f32; N]], kind: &str, bounds: bool) -> usize {
        let bytes: Vec<u8> = data.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(ARRAY_BUFFER));
        let mut a = json!({
            "bufferView": view, "componentType": FLOAT, "count": data.len(), "type": kind,
        });
        if bounds {
            let mut lo = [f32::INFINITY; N];
            let mut hi = [f32::NEG_INFINITY; N];
            for v in data {
                for c in 0..N {
                    lo[c] = lo[c].min(v[c]);
                    hi[c] = hi[c].max(v[c]);
                }
            }
            a["min"] = json!(lo.to_vec());
            a["max"] = json!(hi.to_vec());
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    fn indices(&mut self, data: &[u32]) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes, Some(ELEMENT_ARRAY_BUFFER));
        self.accessors.push(json!({
            "bufferView": view, "componentType": UNSIGNED_INT, "count": data.len(),
            "type": "SCALAR",
        }));
        self.accessors.len() - 1
    }
}

/// The .glb file for `mesh` (textures taken from `scene`).
pub fn write_glb(scene: &Scene, mesh: &ExportMesh) -> Result<Vec<u8>> {
    let mut b = Builder::default();
    let mut meshes = Vec::new();
    let mut nodes = Vec::new();
    for node in &mesh.nodes {
        let mut primitives = Vec::new();
        for p in &node.primitives {
            let mut attributes = json!({
                "POSITION": b.floats(&p.positions, "VEC3", true),
                "TEXCOORD_0": b.floats(&p.uvs, "VEC2", false),
            });
            if !p.colors.is_empty() {
                attributes["COLOR_0"] = json!(b.floats(&p.colors, "VEC4", false));
            }
            primitives.push(json!({
                "attributes": attributes,
                "indices": b.indices(&p.indices),
                "material": p.material,
                "mode": 4,
            }));
        }
        meshes.push(json!({ "name": node.name, "primitives": primitives }));
        nodes.push(json!({ "name": node.name, "mesh": meshes.len() - 1 }));
    }

    let mut images_json = Vec::new();
    let mut textures = Vec::new();
    let mut materials = Vec::new();
    let mut texture_slot = std::collections::HashMap::new();
    for m in &mesh.materials {
        let slot = match texture_slot.get(&m.texture) {
            Some(&s) => s,
            None => {
                let view = b.view(&images::png(scene, m.texture)?, None);
                let name = scene.textures.get(m.texture as usize).map(|t| t.name.as_str());
                images_json.push(json!({
                    "name": name.unwrap_or("missing"), "bufferView": view, "mimeType": "image/png",
                }));
                textures.push(json!({ "sampler": 0, "source": images_json.len() - 1 }));
                texture_slot.insert(m.texture, textures.len() - 1);
                textures.len() - 1
            }
        };
        let name = scene.textures.get(m.texture as usize).map(|t| t.name.clone());
        let mut mat = json!({
            "name": name.unwrap_or_else(|| format!("texture {}", m.texture)),
            "pbrMetallicRoughness": {
                "baseColorTexture": { "index": slot },
                "metallicFactor": 0.0,
                "roughnessFactor": 1.0,
            },
            "extensions": { "KHR_materials_unlit": {} },
        });
        match m.alpha {
            AlphaMode::Opaque => {}
            AlphaMode::Mask => {
                mat["alphaMode"] = json!("MASK");
                mat["alphaCutoff"] = json!(0.5);
            }
            AlphaMode::Blend => mat["alphaMode"] = json!("BLEND"),
        }
        if m.double_sided {
            mat["doubleSided"] = json!(true);
        }
        materials.push(mat);
    }
    while b.bin.len() % 4 != 0 {
        b.bin.push(0);
    }

    let children: Vec<usize> = (0..nodes.len()).collect();
    nodes.push(json!({ "name": mesh.name, "children": children }));
    let mut doc = json!({
        "asset": { "version": "2.0", "generator": concat!("mapscope ", env!("CARGO_PKG_VERSION")) },
        "extensionsUsed": ["KHR_materials_unlit"],
        "scene": 0,
        "scenes": [{ "name": mesh.name, "nodes": [nodes.len() - 1] }],
        "nodes": nodes,
        "buffers": [{ "byteLength": b.bin.len() }],
    });
    let parts = [
        ("meshes", meshes),
        ("materials", materials),
        ("textures", textures),
        ("images", images_json),
        ("bufferViews", b.views),
        ("accessors", b.accessors),
    ];
    for (key, list) in parts {
        if !list.is_empty() {
            doc[key] = Value::Array(list);
        }
    }
    if doc.get("materials").is_none() {
        doc.as_object_mut().map(|o| o.remove("extensionsUsed"));
    }
    if doc.get("samplers").is_none() && doc.get("textures").is_some() {
        doc["samplers"] = json!([{ "magFilter": NEAREST, "minFilter": NEAREST, "wrapS": REPEAT, "wrapT": REPEAT }]);
    }
    if b.bin.is_empty() {
        doc.as_object_mut().map(|o| o.remove("buffers"));
    }

    let mut text = serde_json::to_vec(&doc)?;
    while text.len() % 4 != 0 {
        text.push(b' ');
    }
    let total = 12 + 8 + text.len() + if b.bin.is_empty() { 0 } else { 8 + b.bin.len() };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    if !b.bin.is_empty() {
        out.extend_from_slice(&(b.bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&b.bin);
    }
    Ok(out)
}
