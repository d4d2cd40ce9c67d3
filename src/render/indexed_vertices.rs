//! A triangle list as an index list over its distinct vertices.
//!
//! A software rasteriser shades vertices on the thread that submits the draw; with an index
//! buffer it shades a vertex that neighbouring triangles share once instead of once per
//! triangle (lavapipe keeps the vertices of recent indices), and large levels are mostly
//! quads and grids whose corners are shared. Only byte-identical vertices merge, so every
//! triangle keeps its exact attributes and the draw order is unchanged: index `i` is corner
//! `i` of the list.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::scene::WorldVertex;

pub struct IndexedVertices {
    pub vertices: Vec<WorldVertex>,
    pub indices: Vec<u32>,
}

/// Indexes `list`; at least one vertex and one index, so both can back a GPU buffer.
pub fn index_vertices(list: &[WorldVertex]) -> IndexedVertices {
    let mut seen: HashMap<[u32; 10], u32, BuildHasherDefault<WordHasher>> =
        HashMap::with_capacity_and_hasher(list.len() / 2, Default::default());
    let mut vertices = Vec::with_capacity(list.len() / 2);
    let mut indices = Vec::with_capacity(list.len().max(1));
    for v in list {
        let key: [u32; 10] = bytemuck::cast(*v);
        let next = vertices.len() as u32;
        let index = *seen.entry(key).or_insert_with(|| {
            vertices.push(*v);
            next
        });
        indices.push(index);
    }
    if vertices.is_empty() {
        vertices.push(bytemuck::Zeroable::zeroed());
        indices.push(0);
    }
    IndexedVertices { vertices, indices }
}

/// A multiply-rotate hash of 32-bit words: the keys are vertex bytes, not input an attacker
/// chooses per hash, and SipHash would cost more than the vertices it saves on a large level.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u32(u32::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, w: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(w)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(x: f32, texture: u32) -> WorldVertex {
        WorldVertex { pos: [x, 0.0, 0.0], texture, ..bytemuck::Zeroable::zeroed() }
    }

    #[test]
    fn shared_corners_merge_and_every_corner_keeps_its_vertex() {
        // A quad as two triangles, then a triangle on the same corners with another texture.
        let list = [
            vertex(0.0, 1),
            vertex(1.0, 1),
            vertex(2.0, 1),
            vertex(0.0, 1),
            vertex(2.0, 1),
            vertex(3.0, 1),
            vertex(0.0, 2),
            vertex(1.0, 2),
            vertex(2.0, 2),
        ];
        let indexed = index_vertices(&list);
        assert_eq!(indexed.indices, [0, 1, 2, 0, 2, 3, 4, 5, 6]);
        assert_eq!(indexed.vertices.len(), 7);
        for (i, v) in list.iter().enumerate() {
            assert_eq!(indexed.vertices[indexed.indices[i] as usize], *v);
        }
        let empty = index_vertices(&[]);
        assert_eq!((empty.vertices.len(), empty.indices.len()), (1, 1));
    }
}
