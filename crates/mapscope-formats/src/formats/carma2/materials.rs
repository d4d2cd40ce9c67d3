//! MAT files: BRender materials (record 0x3C, or C1's 0x04) with their pixelmap and shade
//! table names.

use super::records::{self, cstr, floats, read_objects, Notes, ObjectReader, Parsed};
use super::transform::Matrix23;
use crate::formats::{Reader, Result};

/// Material flag bits (`BR_MATF_*`).
pub mod flags {
    pub const LIT: u32 = 0x1;
    pub const PRELIT: u32 = 0x2;
    pub const SMOOTH: u32 = 0x4;
    pub const PERSPECTIVE: u32 = 0x20;
    pub const DECAL: u32 = 0x40;
    pub const TWO_SIDED: u32 = 0x1000;
    /// Texels with index 0 / alpha 0 are not drawn.
    pub const Z_TRANSPARENCY: u32 = 0x20_0000;

    /// Names of the flags set in `f`, for `info`.
    pub fn names(f: u32) -> Vec<&'static str> {
        [
            (LIT, "lit"),
            (PRELIT, "prelit"),
            (SMOOTH, "smooth"),
            (PERSPECTIVE, "perspective"),
            (DECAL, "decal"),
            (TWO_SIDED, "two_sided"),
            (Z_TRANSPARENCY, "z_transparency"),
        ]
        .iter()
        .filter(|(bit, _)| f & bit != 0)
        .map(|&(_, name)| name)
        .collect()
    }
}

/// Fog fields of record 0x3C (absent from C1's 0x04).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Fog {
    pub min: f32,
    pub max: f32,
    pub colour: [u8; 3],
    pub subdivide_tolerance: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    /// The record it came from: 0x3C, or 0x04 for C1 files.
    pub record: u32,
    pub colour: [u8; 3],
    /// The colour's fourth byte; faces are not drawn when it is not 0xFF.
    pub opacity: u8,
    pub ka: f32,
    pub kd: f32,
    pub ks: f32,
    pub power: f32,
    pub flags: u32,
    pub uv_matrix: Matrix23,
    pub index_base: u8,
    pub index_range: u8,
    pub fog: Option<Fog>,
    /// Pixelmap identifier (record 0x1C).
    pub image: Option<String>,
    /// Shade table identifier (record 0x1F).
    pub shade_table: Option<String>,
}

impl Material {
    pub fn visible(&self) -> bool {
        self.opacity == 0xFF
    }

    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

/// Reads every material of a MAT file.
pub fn parse_materials(file: &str, data: &[u8]) -> Parsed<Material> {
    read_objects(file, data, MaterialReader { file: file.to_string(), material: None })
}

struct MaterialReader {
    file: String,
    material: Option<Material>,
}

impl ObjectReader for MaterialReader {
    type Object = Material;

    fn record(&mut self, kind: u32, body: &mut Reader, notes: &mut Notes) -> Result<bool> {
        let at = body.pos().saturating_sub(8);
        match kind {
            records::MATERIAL | records::OLD_MATERIAL => {
                let m = read_material(kind, body)?;
                if let Some(old) = self.material.replace(m) {
                    notes.push(format!("{}: material {} has no end record", self.file, old.name));
                }
            }
            records::COLOUR_MAP_REF | records::INDEX_SHADE_REF => {
                let name = cstr(body, "table name")?;
                match self.material.as_mut() {
                    Some(m) if kind == records::COLOUR_MAP_REF => m.image = Some(name),
                    Some(m) => m.shade_table = Some(name),
                    None => notes.push(format!(
                        "{}: record 0x{kind:x} at {at} outside a material; ignored",
                        self.file
                    )),
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn end(&mut self, _notes: &mut Notes) -> Option<Material> {
        self.material.take()
    }
}

fn read_material(kind: u32, r: &mut Reader) -> Result<Material> {
    let c = r.bytes(4)?;
    let (colour, opacity) = ([c[0], c[1], c[2]], c[3]);
    let [ka, kd, ks, power] = floats(r)?;
    let flags = if kind == records::OLD_MATERIAL { u32::from(r.u16_be()?) } else { r.u32_be()? };
    let uv_matrix = Matrix23::from_floats(floats(r)?);
    let index_base = r.u8()?;
    let index_range = r.u8()?;
    let fog = if kind == records::MATERIAL {
        let [min, max] = floats(r)?;
        let c = r.bytes(3)?;
        Some(Fog { min, max, colour: [c[0], c[1], c[2]], subdivide_tolerance: r.i32_be()? })
    } else {
        None
    };
    let name = cstr(r, "material name")?;
    Ok(Material {
        name,
        record: kind,
        colour,
        opacity,
        ka,
        kd,
        ks,
        power,
        flags,
        uv_matrix,
        index_base,
        index_range,
        fog,
        image: None,
        shade_table: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::writer::write_materials;

    fn sample(name: &str, record: u32) -> Material {
        Material {
            name: name.into(),
            record,
            colour: [10, 20, 30],
            opacity: 0xFF,
            ka: 0.1,
            kd: 0.7,
            ks: 0.0,
            power: 20.0,
            flags: flags::TWO_SIDED | flags::DECAL,
            uv_matrix: Matrix23::from_floats([0.5, 0.0, 0.0, 1.0, 0.25, 0.0]),
            index_base: 10,
            index_range: 31,
            fog: (record == records::MATERIAL).then_some(Fog {
                min: 1.0,
                max: 2.0,
                colour: [1, 2, 3],
                subdivide_tolerance: -4,
            }),
            image: Some("TEX".into()),
            shade_table: (record == records::OLD_MATERIAL).then(|| "DRRENDER.TAB".into()),
        }
    }

    #[test]
    fn both_material_records_round_trip() {
        let mats = vec![sample("NEW", records::MATERIAL), sample("OLD.MAT", records::OLD_MATERIAL)];
        let p = parse_materials("t.mat", &write_materials(&mats));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects, mats);
        assert_eq!(flags::names(p.objects[0].flags), vec!["decal", "two_sided"]);
    }
}
