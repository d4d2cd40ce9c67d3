//! A level as parsed from its WAD and map: the decoded assets, the static geometry and the
//! placed models, with everything that had to be skipped written down as notes.

use std::collections::BTreeMap;

use crate::formats::Result;

use super::geometry::{build_static, Face, FaceTexture, StaticGeometry};
use super::map::MapFile;
use super::map_items::{sprite_brightness, ModelInstance};
use super::model::{read_model, Model};
use super::model_placement::model_faces;
use super::packed::{Bitmap, Palette};
use super::sound::{wave_format, WaveFormat};
use super::wad::Wad;

/// How a model instance's model was found: its index through the map's name list, then the
/// name in the WAD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedInstance {
    pub instance: ModelInstance,
    pub name: Option<String>,
    /// Index into the WAD's model table.
    pub wad_model: Option<usize>,
}

pub struct SaucerLevel {
    pub name: String,
    pub wad: Wad,
    pub map: MapFile,
    pub palette: Palette,
    /// Decoded bitmaps by bitmap table index (`None` where the entry is broken).
    pub bitmaps: Vec<Option<Bitmap>>,
    /// Decoded models by WAD model index.
    pub models: Vec<Option<Model>>,
    pub sounds: Vec<Option<WaveFormat>>,
    pub geometry: StaticGeometry,
    pub instances: Vec<ResolvedInstance>,
    /// Faces of the placed models.
    pub model_faces: Vec<Face>,
    pub notes: Vec<String>,
}

impl SaucerLevel {
    pub fn load(
        name: &str,
        wad_file: &str,
        wad_bytes: &[u8],
        map_file: &str,
        map_bytes: &[u8],
    ) -> Result<SaucerLevel> {
        let wad = Wad::parse(wad_file, wad_bytes)?;
        let map = MapFile::parse(map_file, map_bytes)?;
        let mut notes = wad.notes.clone();
        notes.extend(map.notes.iter().cloned());

        let palette = match wad.packed.palette() {
            Ok(p) => p,
            Err(e) => {
                notes.push(format!("{e}; a grey ramp stands in"));
                Palette { rgb: (0..=255u8).map(|i| [i, i, i]).collect(), flags: vec![0; 256] }
            }
        };
        let bitmaps = wad
            .bitmaps
            .iter()
            .enumerate()
            .map(|(i, b)| keep(wad.packed.bitmap(b), &format!("bitmap {i}"), &mut notes))
            .collect();
        let models = wad
            .models
            .iter()
            .map(|m| keep(read_model(&wad.packed, m), &format!("model {}", m.name), &mut notes))
            .collect::<Vec<_>>();
        for m in models.iter().flatten().filter(|m| m.bad_faces > 0) {
            notes.push(format!(
                "model {}: {} faces with bad vertex indices or types skipped",
                m.name, m.bad_faces
            ));
        }
        let sounds = wad
            .sounds
            .iter()
            .map(|s| keep(wave_format(&wad.packed, s), &format!("sound {}", s.name), &mut notes))
            .collect();

        let geometry = build_static(&map);
        if geometry.bad_block_defs > 0 {
            notes.push(format!(
                "{} map items name a block definition that does not exist; skipped",
                geometry.bad_block_defs
            ));
        }
        if geometry.bad_textures > 0 {
            notes.push(format!(
                "{} faces name a texture definition that does not exist; skipped",
                geometry.bad_textures
            ));
        }

        let instances: Vec<ResolvedInstance> = map
            .items
            .models
            .iter()
            .map(|inst| {
                let name = map.model_name(inst.model).map(str::to_string);
                let wad_model = name.as_deref().and_then(|n| wad.model_index(n));
                ResolvedInstance { instance: *inst, name, wad_model }
            })
            .collect();
        let mut model_faces_out = Vec::new();
        for r in &instances {
            let Some(model) = r.wad_model.and_then(|i| models.get(i)).and_then(Option::as_ref)
            else {
                notes.push(match &r.name {
                    Some(n) => format!(
                        "model instance at {:?}: model {n} is not in the WAD; dropped",
                        r.instance.cell
                    ),
                    None => format!(
                        "model instance at {:?}: model index {} is not in the map's list; dropped",
                        r.instance.cell, r.instance.model
                    ),
                });
                continue;
            };
            let part = terrain_sprite_part(&map, r.instance.cell);
            for f in model_faces(model, &r.instance, part) {
                match f.texture {
                    FaceTexture::Wad(t) if (t as usize) < wad.textures.len() => {
                        model_faces_out.push(f)
                    }
                    _ => notes.push(format!(
                        "model {}: face with texture {:?} outside the WAD table skipped",
                        model.name, f.texture
                    )),
                }
            }
        }
        Ok(SaucerLevel {
            name: name.to_string(),
            wad,
            map,
            palette,
            bitmaps,
            models,
            sounds,
            geometry,
            instances,
            model_faces: model_faces_out,
            notes,
        })
    }

    /// Faces per map texture definition over terrain, extra tiles and blocks.
    pub fn faces_per_map_texture(&self) -> BTreeMap<u16, usize> {
        let mut out: BTreeMap<u16, usize> =
            (0..self.map.texture_defs.len() as u16).map(|t| (t, 0)).collect();
        for f in &self.geometry.faces {
            if let FaceTexture::Map(t) = f.texture {
                *out.entry(t).or_insert(0) += 1;
            }
        }
        out
    }

    /// Native (min, max) over the static faces.
    pub fn static_bounds(&self) -> Option<([f64; 3], [f64; 3])> {
        bounds(self.geometry.faces.iter())
    }

    /// Native (min, max) of the placed faces of model instance `i`.
    pub fn instance_bounds(&self, i: usize) -> Option<([f64; 3], [f64; 3])> {
        let r = self.instances.get(i)?;
        let model = r.wad_model.and_then(|m| self.models.get(m)).and_then(Option::as_ref)?;
        bounds(model_faces(model, &r.instance, 0).iter())
    }
}

/// LUT1 part for objects standing on a cell: the terrain tile's sprite brightness.
pub fn terrain_sprite_part(map: &MapFile, cell: [u16; 2]) -> u8 {
    map.items
        .terrain_at(cell[0] as usize, cell[1] as usize)
        .map_or(0, |t| sprite_brightness(t.flags))
}

fn bounds<'a>(faces: impl Iterator<Item = &'a Face>) -> Option<([f64; 3], [f64; 3])> {
    let mut it = faces.flat_map(|f| f.points.iter().copied());
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| {
        (
            [lo[0].min(p[0]), lo[1].min(p[1]), lo[2].min(p[2])],
            [hi[0].max(p[0]), hi[1].max(p[1]), hi[2].max(p[2])],
        )
    }))
}

/// The value, or `None` with the error kept as a note.
fn keep<T>(r: Result<T>, what: &str, notes: &mut Vec<String>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            notes.push(format!("{what} skipped: {e}"));
            None
        }
    }
}
