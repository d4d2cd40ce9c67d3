//! A Carmageddon 2 scene's triangles in the track's own records: the actor a triangle belongs
//! to (the scene's part), its model, the face of the model and the material it is drawn with.

use std::collections::HashMap;

use crate::scene::{Fact, Facts, LevelRecords, Scene, Sprite, SurfaceHit, Walker};

/// Per triangle: its model face and material; per actor: its model.
#[derive(Default)]
pub struct Carma2Records {
    /// Name and model of each actor (the scene's parts, in order).
    actors: Vec<(String, String)>,
    /// Per scene triangle: (face index in its model, material number).
    triangles: Vec<(u32, u16)>,
    materials: Vec<String>,
    material_numbers: HashMap<String, u16>,
}

/// The material number of a face that names none.
const NO_MATERIAL: u16 = u16::MAX;

impl Carma2Records {
    pub(super) fn add_actor(&mut self, label: &str, model: &str) {
        self.actors.push((label.to_string(), model.to_string()));
    }

    /// The record of face `face` drawn with material `name`.
    pub(super) fn source(&mut self, face: usize, name: Option<&str>) -> (u32, u16) {
        let material = match name {
            Some(n) => match self.material_numbers.get(n) {
                Some(&m) => m,
                None if self.materials.len() < NO_MATERIAL as usize => {
                    let m = self.materials.len() as u16;
                    self.materials.push(n.to_string());
                    self.material_numbers.insert(n.to_string(), m);
                    m
                }
                None => NO_MATERIAL,
            },
            None => NO_MATERIAL,
        };
        (face as u32, material)
    }

    pub(super) fn push_triangle(&mut self, source: (u32, u16)) {
        self.triangles.push(source);
    }
}

impl LevelRecords for Carma2Records {
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts {
        let mut facts = Facts::new();
        if let Some((actor, model)) = hit.part.and_then(|p| self.actors.get(p as usize)) {
            facts.push(("actor".into(), Fact::Text(actor.clone())));
            facts.push(("model".into(), Fact::Text(model.clone())));
        }
        if let Some(&(face, material)) = self.triangles.get(hit.triangle) {
            facts.push(("face".into(), Fact::Int(face as i64)));
            let name = self.materials.get(material as usize).map_or("(none)", String::as_str);
            facts.push(("material".into(), Fact::Text(name.to_string())));
        }
        facts
    }

    fn sprite(&self, _sprite: &Sprite) -> Facts {
        Facts::new()
    }

    fn walker(&self, scene: &Scene) -> Option<Box<dyn Walker>> {
        Some(Box::new(super::walk::walker(scene)))
    }
}
