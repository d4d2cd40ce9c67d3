//! Every file of a track (or of a model's folder) parsed and registered by identifier, as the
//! game registers models, materials and pixelmaps before it resolves names.

use std::collections::{BTreeSet, HashMap};

use super::actors::{parse_actors, Hierarchy};
use super::materials::{parse_materials, Material};
use super::models::{parse_models, Model};
use super::pixelmaps::{parse_pixelmaps, Pixelmap};
use super::records::{file_type, FileType, Parsed};
use crate::formats::FormatError;

/// Whether a file holds BRender records, by its name; other files in a TWT (text, sounds)
/// are not read.
pub fn is_record_file(name: &str) -> bool {
    type_by_name(name).is_some()
}

/// The file type a name implies (the file info record decides when it is intact).
fn type_by_name(name: &str) -> Option<FileType> {
    let upper = name.to_ascii_uppercase();
    let ending = upper.rsplit('.').next()?;
    match ending {
        "ACT" => Some(FileType::Actors),
        "DAT" => Some(FileType::Models),
        "MAT" => Some(FileType::Materials),
        "PIX" | "P08" | "P16" | "PAL" => Some(FileType::Pixelmaps),
        _ => None,
    }
}

/// Objects by identifier, compared case-insensitively; the first of a name wins.
#[derive(Debug)]
pub struct Registry<T> {
    items: Vec<T>,
    by_name: HashMap<String, usize>,
}

impl<T> Default for Registry<T> {
    fn default() -> Self {
        Registry { items: Vec::new(), by_name: HashMap::new() }
    }
}

impl<T> Registry<T> {
    /// Adds `item`; returns false (and keeps the first) when the name is already taken.
    fn add(&mut self, name: &str, item: T) -> bool {
        let key = name.to_ascii_uppercase();
        if self.by_name.contains_key(&key) {
            return false;
        }
        self.by_name.insert(key, self.items.len());
        self.items.push(item);
        true
    }

    pub fn get(&self, name: &str) -> Option<&T> {
        self.index(name).and_then(|i| self.items.get(i))
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_uppercase()).copied()
    }

    /// The object of a name with its index (the order objects were registered in).
    pub fn entry(&self, name: &str) -> Option<(usize, &T)> {
        let i = self.index(name)?;
        self.items.get(i).map(|item| (i, item))
    }

    pub fn items(&self) -> &[T] {
        &self.items
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// What one file held, for `info` and for choosing what to show.
#[derive(Clone, Debug)]
pub struct FileReport {
    /// Name as given to [`Library::add_file`] (a TWT entry name or a path).
    pub name: String,
    pub file_type: Option<FileType>,
    /// Identifiers of the objects it defined, in file order.
    pub objects: Vec<String>,
    /// Record types in the order they first appear.
    pub record_types: Vec<u32>,
    /// The error that stopped reading it, if any (objects before it are kept).
    pub error: Option<FormatError>,
}

/// The parsed files of a track.
#[derive(Debug, Default)]
pub struct Library {
    /// Actor hierarchies with the name of the ACT file they came from.
    pub hierarchies: Vec<(String, Hierarchy)>,
    pub models: Registry<Model>,
    pub materials: Registry<Material>,
    pub pixelmaps: Registry<Pixelmap>,
    pub files: Vec<FileReport>,
    pub notes: Vec<String>,
    /// Known records whose length word disagrees with their content, over all files.
    pub length_mismatches: u32,
}

impl Library {
    /// Parses one file and registers what it defines. Files that are not BRender record
    /// files by name are ignored; a file that fails part way keeps what it read before, and
    /// one whose first record is damaged is read as its name says.
    pub fn add_file(&mut self, name: &str, data: &[u8]) {
        let Some(by_name) = type_by_name(name) else { return };
        let kind = file_type(name, data).unwrap_or_else(|e| {
            self.notes.push(format!("{e}; read as {by_name:?} by its name"));
            by_name
        });
        let (objects, record_types, error) = match kind {
            FileType::Actors => {
                let p = parse_actors(name, data);
                let objects =
                    p.objects.iter().filter_map(|h| h.actors.first()).map(|a| a.name.clone());
                let objects = objects.collect();
                let (types, error) = self.take_report(&p);
                for h in p.objects {
                    self.hierarchies.push((name.to_string(), h));
                }
                (objects, types, error)
            }
            FileType::Models => {
                let p = parse_models(name, data);
                let (types, error) = self.take_report(&p);
                let names =
                    register(&mut self.models, &mut self.notes, name, p.objects, |m| &m.name);
                (names, types, error)
            }
            FileType::Materials => {
                let p = parse_materials(name, data);
                let (types, error) = self.take_report(&p);
                let names =
                    register(&mut self.materials, &mut self.notes, name, p.objects, |m| &m.name);
                (names, types, error)
            }
            FileType::Pixelmaps => {
                let p = parse_pixelmaps(name, data);
                let (types, error) = self.take_report(&p);
                let names =
                    register(&mut self.pixelmaps, &mut self.notes, name, p.objects, |m| &m.name);
                (names, types, error)
            }
        };
        self.files.push(FileReport {
            name: name.to_string(),
            file_type: Some(kind),
            objects,
            record_types,
            error,
        });
    }

    fn take_report<T>(&mut self, p: &Parsed<T>) -> (Vec<u32>, Option<FormatError>) {
        self.notes.extend(p.notes.iter().cloned());
        self.length_mismatches += p.length_mismatches;
        if let Some(e) = &p.error {
            self.notes.push(format!("partial: {e}"));
        }
        (p.record_types.clone(), p.error.clone())
    }

    /// The names of the ACT files that hold hierarchies, in load order.
    pub fn act_files(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (file, _) in &self.hierarchies {
            if !out.contains(file) {
                out.push(file.clone());
            }
        }
        out
    }

    /// Every model, material and pixelmap name referenced by a loaded actor, model or
    /// material that names nothing loaded.
    pub fn unresolved_names(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut check = |name: &str, found: bool| {
            if !found {
                out.insert(name.to_string());
            }
        };
        for a in self.hierarchies.iter().flat_map(|(_, h)| &h.actors) {
            if let Some(m) = &a.model {
                check(m, self.models.get(m).is_some());
            }
            if let Some(m) = &a.material {
                check(m, self.materials.get(m).is_some());
            }
        }
        for n in self.models.items().iter().flat_map(|m| &m.material_names) {
            check(n, self.materials.get(n).is_some());
        }
        for i in self.materials.items().iter().filter_map(|m| m.image.as_deref()) {
            check(i, self.pixelmaps.get(i).is_some());
        }
        out
    }

    /// The report of a file by name (case-insensitive).
    pub fn file(&self, name: &str) -> Option<&FileReport> {
        self.files.iter().find(|f| f.name.eq_ignore_ascii_case(name))
    }
}

fn register<T>(
    registry: &mut Registry<T>,
    notes: &mut Vec<String>,
    file: &str,
    objects: Vec<T>,
    name: impl Fn(&T) -> &String,
) -> Vec<String> {
    let mut names = Vec::with_capacity(objects.len());
    for obj in objects {
        let id = name(&obj).clone();
        if !registry.add(&id, obj) {
            notes.push(format!("{file}: {id} already defined; the first one is used"));
        }
        names.push(id);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::models::{Face, Model};
    use crate::formats::carma2::writer::write_models;

    fn model(name: &str) -> Model {
        Model {
            name: name.into(),
            flags: 0,
            vertices: vec![[0.0; 3]; 3],
            uvs: Vec::new(),
            faces: vec![Face { vertices: [0, 1, 2], smoothing: 1, flags: 0, material: 0 }],
            material_names: Vec::new(),
        }
    }

    #[test]
    fn identifiers_are_case_insensitive_and_first_wins() {
        let mut lib = Library::default();
        lib.add_file("a.dat", &write_models(&[model("Box"), model("BOX")]));
        lib.add_file("notes.txt", b"not a record file");
        lib.add_file("bad.dat", b"RIFF....");
        assert_eq!(lib.models.len(), 1);
        assert!(lib.models.get("box").is_some());
        assert!(lib.notes.iter().any(|n| n.contains("already defined")), "{:?}", lib.notes);
        assert_eq!(lib.files.len(), 2);
        // A damaged first record is skipped; the rest of the file is too short to be one.
        assert!(lib.file("BAD.DAT").unwrap().error.is_some());
        assert!(lib.notes.iter().any(|n| n.contains("by its name")), "{:?}", lib.notes);
    }
}
