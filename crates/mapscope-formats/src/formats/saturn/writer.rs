//! Writes `.LEV` files from structures, following the same reading of the spec as the parser
//! (offset-code chunk order, 128-byte unknown records, tile records in either layout). Tests
//! use it to build levels the shared fixtures do not cover.

use super::level::{Entity, Node, Plane, Quad, Vertex};
use super::sky::{tiled_byte, SKY_FRAMES, SKY_FRAME_SIZE};
use super::tail::TABLE2_FIXED_BYTES;
use super::textures::LevTexture;
use super::tiles::{TileLayout, TileRecord};
use crate::formats::ByteWriter;

/// Everything a written level holds.
#[derive(Clone, Debug)]
pub struct LevSpec {
    pub sky_palette: [u16; 16],
    /// Untiled sky indices: frame after frame, 64 rows of 64.
    pub sky_indices: Vec<u8>,
    pub nodes: Vec<Node>,
    pub planes: Vec<Plane>,
    pub tiles: Vec<TileRecord>,
    pub tile_layout: TileLayout,
    pub vertices: Vec<Vertex>,
    pub quads: Vec<Quad>,
    pub entities: Vec<Entity>,
    pub entity_data: Vec<u8>,
    pub tile_texture_data: Vec<u8>,
    pub tile_color_data: Vec<u8>,
    pub textures: Vec<LevTexture>,
    /// (type, data) chunks after Table Data 2's fixed blocks.
    pub table2_chunks: Vec<(i16, Vec<u8>)>,
}

impl Default for LevSpec {
    fn default() -> Self {
        LevSpec {
            sky_palette: [0x8000; 16],
            sky_indices: vec![0; SKY_FRAMES * SKY_FRAME_SIZE * SKY_FRAME_SIZE],
            nodes: Vec::new(),
            planes: Vec::new(),
            tiles: Vec::new(),
            tile_layout: TileLayout::Seed,
            vertices: Vec::new(),
            quads: Vec::new(),
            entities: Vec::new(),
            entity_data: Vec::new(),
            tile_texture_data: Vec::new(),
            tile_color_data: Vec::new(),
            textures: Vec::new(),
            table2_chunks: Vec::new(),
        }
    }
}

pub fn write_lev(spec: &LevSpec) -> Vec<u8> {
    let mut o = ByteWriter::big_endian();
    o.u16s(&spec.sky_palette);
    let mut image = vec![0u8; SKY_FRAMES * SKY_FRAME_SIZE * SKY_FRAME_SIZE / 2];
    for (i, &v) in
        spec.sky_indices.iter().enumerate().take(SKY_FRAMES * SKY_FRAME_SIZE * SKY_FRAME_SIZE)
    {
        let (f, y, x) = (i / 4096, (i / 64) % 64, i % 64);
        let b = &mut image[tiled_byte(f, x, y)];
        *b |= if x.is_multiple_of(2) { (v & 15) << 4 } else { v & 15 };
    }
    o.bytes(&image);

    let level_start = o.len();
    o.u32(0);
    let level_size = o.reserve_u32();
    o.u32s(&[
        spec.nodes.len() as u32,
        spec.planes.len() as u32,
        spec.vertices.len() as u32,
        spec.quads.len() as u32,
        spec.tile_texture_data.len() as u32,
        spec.tiles.len() as u32,
        spec.tile_color_data.len() as u32,
        spec.entities.len() as u32,
        spec.entity_data.len() as u32,
    ]);
    o.zeros(16);
    for n in &spec.nodes {
        o.u32(0).i16s(&n.pos).i16(n.distance).u16(n.first_plane).u16(n.last_plane).zeros(12);
    }
    for p in &spec.planes {
        o.u16s(&p.vert_indices);
        o.u16s(&[p.node_index, p.flags, p.collision_flags, p.tile_index, p.unknown_index]);
        o.u16s(&[p.quad_start, p.quad_end, p.vert_start, p.vert_end]);
        o.i16s(&p.plane).i16(p.angle).u32(0);
    }
    for t in &spec.tiles {
        o.u16(t.texture_data_ofs).u8(t.width).u8(t.height).u16(t.color_data_ofs);
        if spec.tile_layout == TileLayout::UnknownFirst {
            o.u16(t.unknown);
        }
        o.i32s(&t.horz).i32s(&t.vert).i32s(&t.base);
        if spec.tile_layout == TileLayout::Seed {
            o.u16(t.unknown);
        }
    }
    for v in &spec.vertices {
        o.i16s(&v.pos).u16(v.color);
    }
    for q in &spec.quads {
        o.bytes(&q.indices).u8(q.texture);
    }
    for e in &spec.entities {
        o.u16(e.kind).u16(e.data_offset);
    }
    o.bytes(&spec.entity_data).bytes(&spec.tile_texture_data).bytes(&spec.tile_color_data);
    let size = (o.len() - level_start) as u32;
    o.patch_u32(level_size, size);

    // Table Data 1 (empty), global palette (a grey ramp).
    o.i32(0).i32(0).i32(1024);
    for i in 0..512u16 {
        let v = i % 32;
        o.u16(0x8000 | v << 10 | v << 5 | v);
    }
    o.i32(spec.textures.len() as i32);
    for t in &spec.textures {
        o.u8(t.flags).u8(t.kind).u16s(&t.palette);
        for pair in t.indices.chunks(2) {
            o.u8((pair[0] << 4) | pair.get(1).copied().unwrap_or(0));
        }
    }
    for k in 0..3u16 {
        o.u16(0x34).u16(k).zeros(1024);
    }
    debug_assert_eq!(TABLE2_FIXED_BYTES, 3 * 1028);
    for (kind, data) in &spec.table2_chunks {
        o.i16(*kind).i32(data.len() as i32).bytes(data);
    }
    // Embedded resources: empty first part, empty resource block; empty visibility.
    o.i32(0).zeros(12).zeros(60).i32(0);
    o.into_bytes()
}

/// A colour word from 5-bit channels (MSB set).
pub fn word(r: u8, g: u8, b: u8) -> u16 {
    0x8000 | ((b as u16 & 31) << 10) | ((g as u16 & 31) << 5) | (r as u16 & 31)
}

/// 16.16 fixed point of a native vector.
pub fn fixed(v: [f64; 3]) -> [i32; 3] {
    v.map(|c| (c * 65536.0).round() as i32)
}

/// An explicit quad: corners in UV order (0,0), (1,0), (1,1), (0,1) and a light index each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadSpec {
    pub corners: [[i16; 3]; 4],
    pub lights: [u8; 4],
    pub texture: u8,
}

/// A tile set in native floats (stored as 16.16), with a (flags, texture) pair per tile in
/// row order and `(width + 1) * (height + 1)` light indices.
#[derive(Clone, Debug, PartialEq)]
pub struct TileSetSpec {
    pub base: [f64; 3],
    pub horz: [f64; 3],
    pub vert: [f64; 3],
    pub width: u8,
    pub height: u8,
    pub cells: Vec<(u8, u8)>,
    pub lights: Vec<u8>,
}

/// Builds a [`LevSpec`] plane by plane: each plane gets its outline vertices, then one vertex
/// per quad corner (plane-relative indices are bytes, so at most 63 quads a plane), and its
/// tile streams appended; one node covers every plane.
#[derive(Clone, Debug, Default)]
pub struct LevBuilder {
    pub spec: LevSpec,
}

impl LevBuilder {
    pub fn texture(&mut self, palette: [u16; 16], indices: Vec<u8>) -> u8 {
        self.spec.textures.push(LevTexture { flags: 0, kind: 130, palette, indices });
        (self.spec.textures.len() - 1) as u8
    }

    /// Adds a plane facing `normal` (unit vector) and returns its index.
    pub fn plane(
        &mut self,
        outline: [[i16; 3]; 4],
        normal: [f64; 3],
        quads: &[QuadSpec],
        tiles: Option<&TileSetSpec>,
    ) -> usize {
        assert!(quads.len() <= 63, "at most 63 quads a plane (byte vertex indices)");
        let s = &mut self.spec;
        // Planes index their vertices with 16-bit numbers: a level of more vertices would
        // have its later planes' quads drawn with earlier planes' vertices.
        let vertices = s.vertices.len() + 4 * (1 + quads.len());
        assert!(vertices <= 1 << 16, "at most 65536 vertices a level (16-bit plane indices)");
        let vert_start = s.vertices.len() as u16;
        s.vertices.extend(outline.iter().map(|&pos| Vertex { pos, color: 17 << 8 }));
        for q in quads {
            s.vertices.extend(
                q.corners
                    .iter()
                    .zip(q.lights)
                    .map(|(&pos, l)| Vertex { pos, color: (l as u16) << 8 }),
            );
        }
        let first_quad = s.quads.len() as u16;
        for (k, q) in quads.iter().enumerate() {
            let b = (4 + 4 * k) as u8;
            s.quads.push(Quad { indices: [b, b + 1, b + 2, b + 3], texture: q.texture });
        }
        let tile_index = match tiles {
            None => 0xFFFF,
            Some(t) => {
                let texture_data_ofs = s.tile_texture_data.len() as u16;
                s.tile_texture_data.extend(t.cells.iter().flat_map(|&(f, tex)| [f, tex]));
                let color_data_ofs = s.tile_color_data.len() as u16;
                s.tile_color_data.extend(&t.lights);
                s.tiles.push(TileRecord {
                    texture_data_ofs,
                    width: t.width,
                    height: t.height,
                    color_data_ofs,
                    horz: fixed(t.horz),
                    vert: fixed(t.vert),
                    base: fixed(t.base),
                    unknown: 0,
                });
                (s.tiles.len() - 1) as u16
            }
        };
        let n = normal.map(|c| (c * 16384.0).round() as i16);
        let p0 = outline[0].map(|c| c as f64);
        let d = (normal[0] * p0[0] + normal[1] * p0[1] + normal[2] * p0[2]).round() as i16;
        let (quad_start, quad_end) = if quads.is_empty() {
            (0xFFFF, 0)
        } else {
            (first_quad, first_quad + quads.len() as u16 - 1)
        };
        s.planes.push(Plane {
            vert_indices: [0, 1, 2, 3].map(|k| vert_start + k),
            node_index: 0,
            flags: 0x100,
            collision_flags: 0,
            tile_index,
            unknown_index: 0xFFFF,
            quad_start,
            quad_end,
            vert_start,
            vert_end: s.vertices.len() as u16 - 1,
            plane: [n[0], n[1], n[2], d],
            angle: 0,
        });
        s.planes.len() - 1
    }

    pub fn entity(&mut self, kind: u16, data: &[u8]) {
        let s = &mut self.spec;
        s.entities.push(Entity { kind, data_offset: s.entity_data.len() as u16 });
        s.entity_data.extend(data);
    }

    pub fn finish(mut self) -> Vec<u8> {
        let planes = self.spec.planes.len() as u16;
        self.spec.nodes = vec![Node {
            pos: [0; 3],
            distance: 0,
            first_plane: 0,
            last_plane: planes.saturating_sub(1),
        }];
        write_lev(&self.spec)
    }
}
