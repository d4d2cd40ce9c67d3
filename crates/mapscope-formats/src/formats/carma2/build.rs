//! The scene of a track (an ACT hierarchy with its models, materials and pixelmaps) or of a
//! model file, in BRender's native coordinates (Y up, right-handed: the viewer's own space).

use std::collections::{BTreeMap, BTreeSet};

use glam::{DVec3, Vec3};

use super::actors::{actor_type, Hierarchy, RENDER_STYLE_NONE};
use super::library::Library;
use super::materials::{flags, Material};
use super::models::Model;
use super::surfaces::{SurfaceLook, Surfaces};
use super::track_files::PALETTE_NAME;
use super::transform::{Bounds, Matrix34};
use crate::formats::{FormatError, Result};
use crate::scene::{
    Axes, CameraPose, ClearColor, FrameState, Game, LevelFacts, Marker, Parts, Scene, Shading,
    ShadingFamily, StaticAnimator, WorldVertex,
};

/// The colours 8-bit pixelmaps are shown through, and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    pub entries: Vec<[u8; 3]>,
    pub source: String,
}

/// The palette the game would use: the one given, else the pixelmap `DRRENDER.PAL`, else the
/// first palette pixelmap (type 7) loaded.
pub fn choose_palette(lib: &Library, given: Option<Palette>) -> Option<Palette> {
    if given.is_some() {
        return given;
    }
    let named = lib.pixelmaps.get(PALETTE_NAME).into_iter();
    named.chain(lib.pixelmaps.items()).find_map(|p| {
        p.palette_entries().ok().map(|entries| Palette { entries, source: p.name.clone() })
    })
}

/// What to show.
#[derive(Clone, Copy, Debug)]
pub enum Subject<'a> {
    /// Every hierarchy of this ACT file.
    Track(&'a str),
    /// Every model of this DAT file, side by side along +X.
    Models(&'a str),
}

/// Facts the build finds on its way (the scene's `info` counts come from these).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    pub actors: usize,
    pub max_depth: u32,
    pub model_instances: usize,
    /// Faces of every placed model, hidden ones included.
    pub faces: usize,
    /// Faces drawn: those whose material's colour flag byte is 0xFF.
    pub faces_visible: usize,
    pub faces_per_material: BTreeMap<String, usize>,
    pub bounds_all: Option<Bounds>,
    pub bounds_visible: Option<Bounds>,
    pub models_used: BTreeSet<String>,
    /// Model, material and pixelmap names referenced anywhere that name nothing loaded.
    pub unresolved: BTreeSet<String>,
}

/// A model placed in the world.
struct Instance<'a> {
    label: String,
    model: &'a Model,
    matrix: Matrix34,
    /// Material for faces without one (the actor's, inherited down the tree).
    material: Option<&'a str>,
}

/// Builds the scene of `subject` from everything in `lib`.
pub fn build_scene(
    lib: &Library,
    subject: Subject,
    palette: Option<Palette>,
) -> Result<(Scene, BuildReport)> {
    let mut report = BuildReport::default();
    let mut notes = Vec::new();
    let palette = choose_palette(lib, palette);
    let (name, instances, markers) = match subject {
        Subject::Track(act) => {
            let hierarchies: Vec<&Hierarchy> = lib
                .hierarchies
                .iter()
                .filter(|(f, _)| f.eq_ignore_ascii_case(act))
                .map(|(_, h)| h)
                .collect();
            if hierarchies.is_empty() {
                return Err(match lib.file(act).and_then(|f| f.error.clone()) {
                    Some(e) => e,
                    None => FormatError::missing(act, "actor hierarchy", "none loaded"),
                });
            }
            let (instances, markers) = place_actors(lib, &hierarchies, &mut report);
            (act.to_string(), instances, markers)
        }
        Subject::Models(dat) => {
            let file = lib
                .file(dat)
                .ok_or_else(|| FormatError::missing(dat, "model file", "not loaded"))?;
            let models: Vec<&Model> =
                file.objects.iter().filter_map(|n| lib.models.get(n)).collect();
            if models.is_empty() {
                return Err(match file.error.clone() {
                    Some(e) => e,
                    None => FormatError::missing(dat, "models", "no models"),
                });
            }
            (dat.to_string(), place_in_a_row(&models), Vec::new())
        }
    };
    let surfaces = Surfaces::new(lib, palette.as_ref());
    let mut b = Builder {
        lib,
        surfaces,
        world: Vec::new(),
        parts: Parts { placed_objects: true, ..Parts::default() },
        records: super::record_lookup::Carma2Records::default(),
    };
    for inst in &instances {
        b.add_instance(inst, &mut report);
    }
    report.unresolved = lib.unresolved_names();

    match &palette {
        Some(p) => notes.push(format!("palette: {}", p.source)),
        None => notes.push(
            "no palette pixelmap found: 8-bit pixelmaps use their own palette, else grey".into(),
        ),
    }
    if !report.unresolved.is_empty() {
        let names: Vec<&str> = report.unresolved.iter().map(String::as_str).collect();
        notes.push(format!("unresolved names: {}", names.join(", ")));
    }
    notes.extend(b.surfaces.notes.iter().cloned());
    notes.extend(lib.notes.iter().cloned());

    let bounds = report.bounds_visible.or(report.bounds_all);
    let (spawn, near) = default_view(bounds);
    let facts = LevelFacts {
        counts: counts(lib, &report),
        details: Vec::new(),
        textures_used: b.surfaces.pixelmaps_used(),
        notes,
    };
    let Builder { surfaces, world, parts, records, .. } = b;
    let (palette_entries, textures) = surfaces.finish(palette);
    let scene = Scene {
        name,
        game: Game::Carmageddon2,
        axes: Axes::YUp,
        palette: palette_entries,
        shading: Shading::Family { family: ShadingFamily::Carma2, tables: Vec::new() },
        clear: ClearColor::default(),
        near,
        textures,
        world,
        parts,
        sprites: Vec::new(),
        sky: None,
        markers,
        cells: None,
        spawn,
        animator: Box::new(StaticAnimator { state: FrameState::default() }),
        facts,
        records: Some(std::sync::Arc::new(records)),
        automap: None,
    };
    Ok((scene, report))
}

/// Model actors as instances, lights and cameras as markers.
fn place_actors<'a>(
    lib: &'a Library,
    hierarchies: &[&'a Hierarchy],
    report: &mut BuildReport,
) -> (Vec<Instance<'a>>, Vec<Marker>) {
    let mut instances = Vec::new();
    let mut markers = Vec::new();
    for h in hierarchies {
        report.actors += h.actors.len();
        report.max_depth = report.max_depth.max(h.max_depth());
        let world = h.world_matrices();
        let materials = h.inherited_materials();
        for ((a, m), mat) in h.actors.iter().zip(&world).zip(materials) {
            let pos = Vec3::from(m.0[3]);
            match a.actor_type {
                actor_type::LIGHT => {
                    markers.push(Marker { pos, label: format!("light {}", a.name) })
                }
                actor_type::CAMERA => {
                    markers.push(Marker { pos, label: format!("camera {}", a.name) })
                }
                _ => {}
            }
            let Some(model_name) = &a.model else { continue };
            if a.actor_type != actor_type::MODEL || a.render_style == RENDER_STYLE_NONE {
                continue;
            }
            report.model_instances += 1;
            if let Some(model) = lib.models.get(model_name) {
                instances.push(Instance {
                    label: a.name.clone(),
                    model,
                    matrix: *m,
                    material: mat,
                });
            }
        }
    }
    (instances, markers)
}

/// Each model at the origin of its own slot along +X, a tenth of the widest model apart.
fn place_in_a_row<'a>(models: &[&'a Model]) -> Vec<Instance<'a>> {
    let widths: Vec<(f32, f32)> =
        models.iter().map(|m| m.bounds().map_or((0.0, 0.0), |b| (b.min[0], b.max[0]))).collect();
    let gap = widths.iter().map(|(lo, hi)| hi - lo).fold(0.0f32, f32::max) * 0.1;
    let mut x = 0.0f32;
    let mut out = Vec::with_capacity(models.len());
    for (i, (m, (lo, hi))) in models.iter().zip(widths).enumerate() {
        if i > 0 {
            x -= lo;
        }
        let mut matrix = Matrix34::IDENTITY;
        matrix.0[3][0] = x;
        out.push(Instance { label: m.name.clone(), model: m, matrix, material: None });
        x += hi + gap;
    }
    out
}

/// The faces of one placed model that share a material index.
struct Slot<'a> {
    name: Option<&'a str>,
    /// The material and its registry index, when the name resolves.
    material: Option<(usize, &'a Material)>,
    faces: usize,
}

struct Builder<'a> {
    lib: &'a Library,
    surfaces: Surfaces<'a>,
    world: Vec<WorldVertex>,
    parts: Parts,
    /// Each triangle's model, face and material, for the inspector.
    records: super::record_lookup::Carma2Records,
}

impl<'a> Builder<'a> {
    fn add_instance(&mut self, inst: &Instance<'a>, report: &mut BuildReport) {
        let m = inst.model;
        report.models_used.insert(m.name.clone());
        let part = self.parts.names.len() as u32;
        self.parts.names.push(inst.label.clone());
        self.records.add_actor(&inst.label, &m.name);
        // BRender culls in model space, so a mirroring matrix turns the visible winding round.
        let mirrored = inst.matrix.determinant() < 0.0;
        let world: Vec<[f32; 3]> =
            m.vertices.iter().map(|&v| inst.matrix.transform_point(v)).collect();
        // Slot 0: faces without a material of their own (they take the actor's); slot i: the
        // model's material name i. Resolved once per instance, not per face.
        let mut slots: Vec<Slot> = std::iter::once(inst.material)
            .chain(m.material_names.iter().map(|n| Some(n.as_str())))
            .map(|name| Slot {
                name,
                material: name.and_then(|n| self.lib.materials.entry(n)),
                faces: 0,
            })
            .collect();
        for (face_index, face) in m.faces.iter().enumerate() {
            let [a, b, c] = face.vertices.map(usize::from);
            let (Some(&pa), Some(&pb), Some(&pc)) = (world.get(a), world.get(b), world.get(c))
            else {
                continue;
            };
            report.faces += 1;
            let face_bounds = Bounds { min: pa, max: pa }.with(pb).with(pc);
            report.bounds_all =
                Some(report.bounds_all.map_or(face_bounds, |b| b.union(face_bounds)));
            let Some(slot) = slots.get_mut(usize::from(face.material)) else { continue };
            slot.faces += 1;
            let resolved = slot.material;
            let material = resolved.map(|(_, x)| x);
            if material.is_some_and(|x| !x.visible()) {
                continue;
            }
            report.faces_visible += 1;
            report.bounds_visible =
                Some(report.bounds_visible.map_or(face_bounds, |b| b.union(face_bounds)));
            let look = self.surfaces.look(resolved);
            let shade = light_byte(material, [pa, pb, pc], mirrored);
            let [ua, ub, uc] = face.vertices.map(|v| look.uv(m.uv(v)));
            let mut corners = [(pa, ua), (pb, ub), (pc, uc)];
            if mirrored {
                corners.swap(1, 2);
            }
            let material_name = material.map(|x| x.name.as_str()).or(slot.name);
            let source = self.records.source(face_index, material_name);
            self.emit(&look, corners, shade, part, source);
            if material.is_some_and(|x| x.has(flags::TWO_SIDED)) {
                corners.swap(1, 2);
                self.emit(&look, corners, shade, part, source);
            }
        }
        for slot in slots.iter().filter(|s| s.faces > 0) {
            // Counted under the material's own name, or the name that resolved to nothing.
            let name = slot.material.map(|(_, x)| x.name.as_str()).or(slot.name);
            if let Some(name) = name {
                *report.faces_per_material.entry(name.to_string()).or_default() += slot.faces;
            }
        }
    }

    /// One triangle, counter-clockwise as seen from its visible side.
    fn emit(
        &mut self,
        look: &SurfaceLook,
        corners: [([f32; 3], [f32; 2]); 3],
        shade: u8,
        part: u32,
        source: (u32, u16),
    ) {
        for (pos, uv) in corners {
            self.world.push(WorldVertex {
                pos,
                uv,
                texture: look.texture,
                light: 0,
                flags: look.flags,
                surface: 0,
                shade: [shade, 0, 0, 0],
            });
        }
        self.parts.of_triangle.push(part);
        self.records.push_triangle(source);
    }
}

/// Brightness of a face as a byte (255 = the texel's own colour). Materials without the lit
/// flag are drawn as stored; lit ones get BRender's ambient + diffuse terms from one fixed
/// directional light, since a track file carries no lights of its own.
fn light_byte(material: Option<&Material>, p: [[f32; 3]; 3], mirrored: bool) -> u8 {
    // Prelit faces carry their light already; decal textures are applied as they are, not
    // modulated by light.
    let lit = |m: &&Material| {
        m.has(flags::LIT) && !m.has(flags::PRELIT) && !(m.has(flags::DECAL) && m.image.is_some())
    };
    let Some(m) = material.filter(lit) else { return 255 };
    let [a, b, c] = p.map(Vec3::from);
    let mut n = (b - a).cross(c - a).normalize_or_zero();
    if mirrored {
        n = -n;
    }
    let sun = Vec3::new(0.4, 1.0, 0.6).normalize();
    let diffuse = n.dot(sun).abs();
    ((m.ka + m.kd * diffuse).clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Above the bounds, looking across them from the +Z side, and a near plane to suit.
fn default_view(bounds: Option<Bounds>) -> (CameraPose, f32) {
    let Some(b) = bounds else {
        return (CameraPose { pos: DVec3::new(0.0, 10.0, 10.0), yaw: 0.0, pitch: 0.0 }, 0.01);
    };
    let min = Vec3::from(b.min).as_dvec3();
    let max = Vec3::from(b.max).as_dvec3();
    let centre = (min + max) * 0.5;
    let size = (max - min).length().max(1e-3);
    let pos = DVec3::new(centre.x, max.y + size * 0.25, max.z + size * 0.35);
    let near = (size * 1e-4).clamp(1e-3, 0.05) as f32;
    (CameraPose::looking_at(pos, centre), near)
}

fn counts(lib: &Library, r: &BuildReport) -> Vec<(String, u64)> {
    [
        ("actors", r.actors),
        ("max_depth", r.max_depth as usize),
        ("model_instances", r.model_instances),
        ("faces", r.faces),
        ("faces_visible", r.faces_visible),
        ("models", lib.models.len()),
        ("materials", lib.materials.len()),
        ("pixelmaps", lib.pixelmaps.len()),
        ("unresolved_names", r.unresolved.len()),
        ("length_word_mismatches", lib.length_mismatches as usize),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v as u64))
    .collect()
}
