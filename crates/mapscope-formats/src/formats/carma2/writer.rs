//! Writes BRender record files (ACT, DAT, MAT, PIX) and TWT archives from the structures the
//! parsers return: the inverse of the parsers, used by tests to build fixtures the shared ones
//! do not cover.

use super::actors::Hierarchy;
use super::materials::Material;
use super::models::Model;
use super::pixelmaps::Pixelmap;
use super::records::{self, FileType};
use crate::formats::ByteWriter;

/// A BRender file under construction: the file info record, then records, each a big-endian
/// (kind, length) pair and its body.
pub struct RecordWriter {
    out: ByteWriter,
}

impl RecordWriter {
    pub fn new(file_type: FileType) -> RecordWriter {
        let mut w = RecordWriter { out: ByteWriter::big_endian() };
        w.record(records::FILE_INFO, body().u32(file_type.code()).u32(2));
        w
    }

    /// A record with its true length word.
    pub fn record(&mut self, kind: u32, body: &ByteWriter) -> &mut Self {
        self.record_with_length(kind, body.len() as u32, body)
    }

    /// A record with any length word (files written by tools that got it wrong).
    pub fn record_with_length(&mut self, kind: u32, length: u32, body: &ByteWriter) -> &mut Self {
        self.out.u32(kind).u32(length).bytes(body.as_bytes());
        self
    }

    /// A record with no content (0x25, 0x29, 0x2A, 0x22, the end record).
    pub fn empty(&mut self, kind: u32) -> &mut Self {
        self.record(kind, &body())
    }

    pub fn finish(self) -> Vec<u8> {
        self.out.into_bytes()
    }
}

/// An empty record body: BRender files are big-endian.
pub fn body() -> ByteWriter {
    ByteWriter::big_endian()
}

fn named(s: &str) -> ByteWriter {
    let mut b = body();
    b.cstr(s);
    b
}

/// An ACT file of one or more hierarchies: each actor's records in file order, closed with
/// 0x2A once its children are written (the top actor never is).
pub fn write_actors(hierarchies: &[Hierarchy]) -> Vec<u8> {
    let mut w = RecordWriter::new(FileType::Actors);
    for h in hierarchies {
        let mut open: Vec<usize> = Vec::new();
        for (i, a) in h.actors.iter().enumerate() {
            while open.len() > 1 && open.last().copied() != a.parent {
                open.pop();
                w.empty(records::ACTOR_ADD_CHILD);
            }
            let mut b = body();
            b.u8(a.actor_type).u8(a.render_style).cstr(&a.name);
            w.record(records::ACTOR, &b);
            let mut m = body();
            m.f32s(&a.transform.0.concat());
            w.record(records::TRANSFORM_MATRIX34, &m).empty(records::ACTOR_TRANSFORM);
            if let Some(bounds) = &a.bounds {
                let mut b = body();
                b.f32s(&bounds.min).f32s(&bounds.max);
                w.record(records::BOUNDS, &b).empty(records::ACTOR_BOUNDS);
            }
            if let Some(mat) = &a.material {
                w.record(records::ACTOR_MATERIAL, &named(mat));
            }
            if let Some(model) = &a.model {
                w.record(records::ACTOR_MODEL, &named(model));
            }
            open.push(i);
        }
        for _ in 1..open.len() {
            w.empty(records::ACTOR_ADD_CHILD);
        }
        w.empty(records::END);
    }
    w.finish()
}

/// A DAT file. Face materials are written when the model names any material.
pub fn write_models(models: &[Model]) -> Vec<u8> {
    let mut w = RecordWriter::new(FileType::Models);
    for m in models {
        let mut b = body();
        b.u16(m.flags).cstr(&m.name);
        w.record(records::MODEL, &b);
        let mut b = body();
        b.u32(m.vertices.len() as u32).f32s(&m.vertices.concat());
        w.record(records::VERTICES, &b);
        if !m.uvs.is_empty() {
            let mut b = body();
            b.u32(m.uvs.len() as u32).f32s(&m.uvs.concat());
            w.record(records::VERTEX_UV, &b);
        }
        let mut b = body();
        b.u32(m.faces.len() as u32);
        for f in &m.faces {
            b.u16(f.vertices[0]).u16(f.vertices[1]).u16(f.vertices[2]).u16(f.smoothing).u8(f.flags);
        }
        w.record(records::FACES, &b);
        if !m.material_names.is_empty() {
            let mut b = body();
            b.u32(m.material_names.len() as u32);
            for n in &m.material_names {
                b.cstr(n);
            }
            w.record(records::MATERIAL_INDEX, &b);
            let mut b = body();
            b.u32(m.faces.len() as u32).u32(2);
            for f in &m.faces {
                b.u16(f.material);
            }
            w.record(records::FACE_MATERIAL, &b);
        }
        w.empty(records::END);
    }
    w.finish()
}

/// A MAT file; each material is written with the record it names (0x3C or C1's 0x04).
pub fn write_materials(materials: &[Material]) -> Vec<u8> {
    let mut w = RecordWriter::new(FileType::Materials);
    for m in materials {
        let mut b = body();
        b.bytes(&m.colour).u8(m.opacity).f32s(&[m.ka, m.kd, m.ks, m.power]);
        if m.record == records::OLD_MATERIAL {
            b.u16(m.flags as u16);
        } else {
            b.u32(m.flags);
        }
        b.f32s(&m.uv_matrix.to_floats()).u8(m.index_base).u8(m.index_range);
        // Record 0x3C always has the fog fields; C1's 0x04 never.
        if m.record == records::MATERIAL {
            let fog = m.fog.unwrap_or_default();
            b.f32s(&[fog.min, fog.max]).bytes(&fog.colour).i32(fog.subdivide_tolerance);
        }
        b.cstr(&m.name);
        w.record(m.record, &b);
        if let Some(image) = &m.image {
            w.record(records::COLOUR_MAP_REF, &named(image));
        }
        if let Some(table) = &m.shade_table {
            w.record(records::INDEX_SHADE_REF, &named(table));
        }
        w.empty(records::END);
    }
    w.finish()
}

/// A PIX-family file; a pixelmap's palette is nested before its pixels and attached with 0x22.
pub fn write_pixelmaps(maps: &[Pixelmap]) -> Vec<u8> {
    let mut w = RecordWriter::new(FileType::Pixelmaps);
    for p in maps {
        write_pixelmap_header(&mut w, p);
        if let Some(pal) = &p.palette {
            write_pixelmap_header(&mut w, pal);
            write_pixels(&mut w, pal);
            w.empty(records::ADD_MAP);
        }
        write_pixels(&mut w, p);
        w.empty(records::END);
    }
    w.finish()
}

fn write_pixelmap_header(w: &mut RecordWriter, p: &Pixelmap) {
    let mut b = body();
    b.u8(p.pixel_type).u16(p.row_bytes).u16(p.width).u16(p.height);
    b.u16(p.origin[0]).u16(p.origin[1]);
    if let Some(mip) = p.mip_offset {
        b.u16(mip);
    }
    b.cstr(&p.name);
    w.record(p.record, &b);
}

fn write_pixels(w: &mut RecordWriter, p: &Pixelmap) {
    let bpp = p.bytes_per_pixel.max(1);
    let mut b = body();
    b.u32(p.pixels.len() as u32 / bpp).u32(bpp).bytes(&p.pixels);
    w.record(records::PIXELS, &b);
}

/// A TWT archive: little-endian directory of 56-byte entries (a 52-byte name field filled
/// with 0xCD after its NUL, as the game's tool left it), data padded to 4 bytes with 0xCD.
pub fn write_twt(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = ByteWriter::little_endian();
    let size = w.reserve_u32();
    w.u32(entries.len() as u32);
    for (name, d) in entries {
        w.u32(d.len() as u32).terminated_name(name.as_bytes(), 52, 0xCD);
    }
    for (_, d) in entries {
        w.bytes(d).align(4, 0xCD);
    }
    let total = w.len() as u32;
    w.patch_u32(size, total);
    w.into_bytes()
}
