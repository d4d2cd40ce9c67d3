//! 3D models in the packed block: an 80-byte data record (vertex and face lists), a 60-byte
//! parameter record (a 3x4 placement matrix), vertices as three i16 (x right, y down, z away)
//! and 32-byte faces (WAD texture index, four vertex indices, quad or triangle).

use crate::formats::Result;

use super::packed::PackedBlock;
use super::wad::ModelEntry;

pub const MODEL_DATA_SIZE: usize = 80;
pub const MODEL_PARAMS_SIZE: usize = 60;
const VERTEX_SIZE: usize = 6;
const FACE_SIZE: usize = 32;
const FACE_QUAD: u16 = 0x8000;
const FACE_TRIANGLE: u16 = 0x1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelFace {
    /// Index into the WAD's texture table.
    pub texture: u32,
    /// Corners top-left, top-right, bottom-right, bottom-left (the last unused by triangles).
    pub vertices: [u16; 4],
    pub quad: bool,
}

impl ModelFace {
    pub fn corners(&self) -> &[u16] {
        if self.quad {
            &self.vertices
        } else {
            &self.vertices[..3]
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub name: String,
    pub vertices: Vec<[i16; 3]>,
    pub faces: Vec<ModelFace>,
    /// Column-major 3x4: three rotation columns (1.0 = 512) then the translation (game units).
    pub matrix: [i16; 12],
    /// Faces dropped for an unknown type or a vertex index out of range.
    pub bad_faces: usize,
}

impl Model {
    /// The placement matrix applied to a model-space vertex (game axes, y down).
    pub fn transform(&self, v: [f64; 3]) -> [f64; 3] {
        let m = self.matrix.map(|x| x as f64);
        let rot = |row: usize| (m[row] * v[0] + m[3 + row] * v[1] + m[6 + row] * v[2]) / 512.0;
        [rot(0) + m[9], rot(1) + m[10], rot(2) + m[11]]
    }
}

pub fn read_model(packed: &PackedBlock, entry: &ModelEntry) -> Result<Model> {
    let mut r = packed.reader("model data record");
    r.slice_at(entry.data as usize, MODEL_DATA_SIZE)?;
    // The first 40 bytes are zeros; the lists follow.
    r.seek(entry.data as usize + 40)?;
    let vertex_count = r.u32_le()? as usize;
    let vertex_ptr = r.u32_le()?;
    let face_count = r.u32_le()? as usize;
    let face_ptr = r.u32_le()?;

    let mut r = packed.reader_at("model parameters", entry.params)?;
    let mut matrix = [0i16; 12];
    for m in &mut matrix {
        *m = r.i16_le()?;
    }

    let mut r = packed.reader_at("model vertices", vertex_ptr)?;
    r.check_count(vertex_count, VERTEX_SIZE, "vertices")?;
    let vertices = (0..vertex_count)
        .map(|_| Ok([r.i16_le()?, r.i16_le()?, r.i16_le()?]))
        .collect::<Result<Vec<_>>>()?;

    let mut r = packed.reader_at("model faces", face_ptr)?;
    r.check_count(face_count, FACE_SIZE, "faces")?;
    let mut faces = Vec::with_capacity(face_count);
    let mut bad_faces = 0;
    for _ in 0..face_count {
        let texture = r.u32_le()?;
        let vertices = [r.u16_le()?, r.u16_le()?, r.u16_le()?, r.u16_le()?];
        let kind = r.u16_le()?;
        r.skip(FACE_SIZE - 14)?;
        let quad = match kind {
            FACE_QUAD => true,
            FACE_TRIANGLE => false,
            _ => {
                bad_faces += 1;
                continue;
            }
        };
        let face = ModelFace { texture, vertices, quad };
        if face.corners().iter().any(|&i| i as usize >= vertex_count) {
            bad_faces += 1;
            continue;
        }
        faces.push(face);
    }
    Ok(Model { name: entry.name.clone(), vertices, faces, matrix, bad_faces })
}
