//! DAT files: models (vertices, per-vertex UVs, faces, material names, face materials).

use super::records::{self, count, cstr, floats, read_objects, Notes, ObjectReader, Parsed};
use super::transform::Bounds;
use crate::formats::{Reader, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    pub vertices: [u16; 3],
    /// Smoothing-group bit mask.
    pub smoothing: u16,
    /// BRender face flags (coplanar edges, quad-mapping hints); no effect on flat rendering.
    pub flags: u8,
    /// 1-based index into [`Model::material_names`]; 0 = the actor's material.
    pub material: u16,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub name: String,
    /// BRender model flags.
    pub flags: u16,
    pub vertices: Vec<[f32; 3]>,
    /// One (u, v) per vertex; may be shorter than `vertices` (missing ones read as 0, 0).
    pub uvs: Vec<[f32; 2]>,
    /// Faces whose vertex indices are in range (others are dropped with a note).
    pub faces: Vec<Face>,
    pub material_names: Vec<String>,
}

impl Model {
    pub fn bounds(&self) -> Option<Bounds> {
        Bounds::around(self.vertices.iter().copied())
    }

    /// The material name of a face, if it has one.
    pub fn face_material(&self, face: &Face) -> Option<&str> {
        let i = usize::from(face.material).checked_sub(1)?;
        self.material_names.get(i).map(String::as_str)
    }

    pub fn uv(&self, vertex: u16) -> [f32; 2] {
        self.uvs.get(usize::from(vertex)).copied().unwrap_or([0.0, 0.0])
    }
}

/// Reads every model of a DAT file.
pub fn parse_models(file: &str, data: &[u8]) -> Parsed<Model> {
    read_objects(file, data, ModelReader { file: file.to_string(), model: None })
}

struct ModelReader {
    file: String,
    model: Option<Model>,
}

impl ModelReader {
    fn current(&mut self, kind: u32, at: usize, notes: &mut Notes) -> Option<&mut Model> {
        if self.model.is_none() {
            notes
                .push(format!("{}: record 0x{kind:x} at {at} outside a model; ignored", self.file));
        }
        self.model.as_mut()
    }
}

impl ObjectReader for ModelReader {
    type Object = Model;

    fn record(&mut self, kind: u32, body: &mut Reader, notes: &mut Notes) -> Result<bool> {
        let at = body.pos().saturating_sub(8);
        match kind {
            records::MODEL => {
                let flags = body.u16_be()?;
                let name = cstr(body, "model name")?;
                if let Some(old) = self.model.take() {
                    notes.push(format!("{}: model {} has no end record", self.file, old.name));
                }
                self.model = Some(Model {
                    name,
                    flags,
                    vertices: Vec::new(),
                    uvs: Vec::new(),
                    faces: Vec::new(),
                    material_names: Vec::new(),
                });
            }
            records::VERTICES => {
                let n = count(body, 12, "vertex")?;
                let mut v = Vec::with_capacity(n);
                for _ in 0..n {
                    v.push(floats::<3>(body)?);
                }
                if let Some(m) = self.current(kind, at, notes) {
                    m.vertices = v;
                }
            }
            records::VERTEX_UV => {
                let n = count(body, 8, "texture coordinate")?;
                let mut uv = Vec::with_capacity(n);
                for _ in 0..n {
                    uv.push(floats::<2>(body)?);
                }
                if let Some(m) = self.current(kind, at, notes) {
                    m.uvs = uv;
                }
            }
            records::FACES => {
                let n = count(body, 9, "face")?;
                let mut faces = Vec::with_capacity(n);
                for _ in 0..n {
                    let vertices = [body.u16_be()?, body.u16_be()?, body.u16_be()?];
                    let smoothing = body.u16_be()?;
                    let flags = body.u8()?;
                    faces.push(Face { vertices, smoothing, flags, material: 0 });
                }
                if let Some(m) = self.current(kind, at, notes) {
                    m.faces = faces;
                }
            }
            records::MATERIAL_INDEX => {
                let n = count(body, 1, "material name")?;
                let mut names = Vec::with_capacity(n);
                for _ in 0..n {
                    names.push(cstr(body, "material name")?);
                }
                if let Some(m) = self.current(kind, at, notes) {
                    m.material_names = names;
                }
            }
            records::FACE_MATERIAL => {
                let n = body.u32_be()? as usize;
                let size_at = body.pos();
                let size = body.u32_be()?;
                if size != 2 {
                    return Err(body.error_at(
                        size_at,
                        format!("face material element size {size}, expected 2"),
                    ));
                }
                body.check_count(n, 2, "face materials")?;
                let mut indices = Vec::with_capacity(n);
                for _ in 0..n {
                    indices.push(body.u16_be()?);
                }
                let file = self.file.clone();
                if let Some(m) = self.current(kind, at, notes) {
                    assign_face_materials(&file, m, &indices, notes);
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn end(&mut self, notes: &mut Notes) -> Option<Model> {
        let mut model = self.model.take()?;
        drop_bad_faces(&self.file, &mut model, notes);
        if !model.uvs.is_empty() && model.uvs.len() != model.vertices.len() {
            notes.push(format!(
                "{}: model {} has {} texture coordinates for {} vertices",
                self.file,
                model.name,
                model.uvs.len(),
                model.vertices.len()
            ));
        }
        Some(model)
    }
}

fn assign_face_materials(file: &str, m: &mut Model, indices: &[u16], notes: &mut Notes) {
    if indices.len() != m.faces.len() {
        notes.push(format!(
            "{file}: model {} has {} face materials for {} faces",
            m.name,
            indices.len(),
            m.faces.len()
        ));
    }
    let names = m.material_names.len();
    for (face, &index) in m.faces.iter_mut().zip(indices) {
        if usize::from(index) > names {
            notes.push(format!(
                "{file}: face material index {index} out of range ({names} names) -> none"
            ));
            face.material = 0;
        } else {
            face.material = index;
        }
    }
}

fn drop_bad_faces(file: &str, m: &mut Model, notes: &mut Notes) {
    let n = m.vertices.len();
    let name = m.name.clone();
    let mut index = 0usize;
    m.faces.retain(|f| {
        let ok = f.vertices.iter().all(|&v| usize::from(v) < n);
        if !ok {
            let [a, b, c] = f.vertices;
            notes.push(format!(
                "{file}: face {index} of {name} uses vertex index out of range ({a},{b},{c}; {n} \
                 vertices); dropped"
            ));
        }
        index += 1;
        ok
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::writer::write_models;

    fn quad(name: &str) -> Model {
        Model {
            name: name.into(),
            flags: 1,
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
            uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
            faces: vec![
                Face { vertices: [0, 1, 2], smoothing: 1, flags: 0, material: 1 },
                Face { vertices: [0, 2, 3], smoothing: 2, flags: 4, material: 2 },
            ],
            material_names: vec!["A".into(), "B".into()],
        }
    }

    #[test]
    fn models_round_trip_through_the_writer() {
        let models = vec![quad("ONE"), quad("TWO")];
        let p = parse_models("t.dat", &write_models(&models));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects, models);
        assert_eq!(p.objects[0].face_material(&p.objects[0].faces[1]), Some("B"));
        let b = p.objects[0].bounds().unwrap();
        assert_eq!((b.min, b.max), ([0.0; 3], [1.0, 1.0, 0.0]));
    }

    #[test]
    fn bad_face_indices_are_dropped_and_bad_materials_cleared() {
        let mut m = quad("BAD");
        m.faces[0].vertices = [0, 65535, 2];
        m.faces[1].material = 300;
        let p = parse_models("t.dat", &write_models(&[m]));
        let got = &p.objects[0];
        assert_eq!(got.faces.len(), 1);
        assert_eq!(got.faces[0].material, 0);
        assert!(p.notes.iter().any(|n| n.contains("face 0 of BAD")), "{:?}", p.notes);
        assert!(p.notes.iter().any(|n| n.contains("index 300 out of range")), "{:?}", p.notes);
    }
}
