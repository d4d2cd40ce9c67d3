//! Builds the neutral [`Scene`] of a Saucerman level: one texture per texture definition,
//! world triangles from the static faces and placed models, billboards as sprites, entities,
//! cameras and unknown items as markers, the LUT shading tables, the spawn camera and the
//! texture animator.
//!
//! Native coordinates are kept as they are (Y up, right-handed: [`Axes::YUp`]).

use glam::{DVec3, Vec3};

use crate::scene::{
    vertex_flags, Axes, CameraPose, ClearColor, FrameState, Game, LevelFacts, Marker, Parts, Scene,
    Shading, ShadingFamily, Sprite, SpriteView, SurfaceKind, Texture, WorldVertex,
};

use super::animation::SaucerAnimator;
use super::geometry::{Face, FaceTexture, Origin, CELL};
use super::level::{terrain_sprite_part, SaucerLevel};
use super::lut::shading_tables;
use super::map_items::{GRID, TYPE_CAMERA, TYPE_ENTITY};
use super::texture_def::TextureDef;
use super::textures::cut_texture;

/// Billboards: world units per texel at scale 1.0 (not in the spec; a 64-texel sprite then
/// spans one cell).
pub const BILLBOARD_UNITS_PER_TEXEL: f32 = 4.0;
/// Eye height of the spawn camera above the ground.
pub const EYE_HEIGHT: f64 = 128.0;
/// LUT1 lighting parts (one light slot each).
const PARTS: u32 = 16;

pub fn build_scene(level: &SaucerLevel) -> Scene {
    let mut notes = level.notes.clone();
    let map_defs = level.map.texture_defs.len();
    let textures = scene_textures(level, &mut notes);
    let texture_index = |t: FaceTexture| match t {
        FaceTexture::Map(i) => i as u32,
        FaceTexture::Wad(i) => map_defs as u32 + i,
    };
    let def = |t: FaceTexture| match t {
        FaceTexture::Map(i) => level.map.texture_defs.get(i as usize),
        FaceTexture::Wad(i) => level.wad.textures.get(i as usize),
    };

    let mut world = Vec::new();
    let mut of_triangle = Vec::new();
    for face in level.geometry.faces.iter().chain(&level.model_faces) {
        if let Some(d) = def(face.texture) {
            let before = world.len();
            push_face(&mut world, face, d, texture_index(face.texture));
            let part = Origin::ALL.iter().position(|&o| o == face.origin).unwrap_or(0) as u32;
            of_triangle.extend(std::iter::repeat_n(part, (world.len() - before) / 3));
        }
    }
    let parts = Parts {
        names: Origin::ALL.iter().map(|o| o.name().to_string()).collect(),
        of_triangle,
        placed_objects: false,
    };

    let sprites = billboards(level);
    let markers = markers(level);
    let spawn = spawn_camera(level);
    let texture_count = textures.len();
    let initial = FrameState {
        light: (0..PARTS).collect(),
        texture_remap: (0..texture_count as u32).collect(),
        scroll: vec![[0.0, 0.0]],
        thing_frames: Vec::new(),
    };
    let (animator, dropped) = SaucerAnimator::new(initial, &level.map.animations, map_defs);
    if dropped > 0 {
        notes.push(format!(
            "{dropped} texture animations name texture definitions that do not exist; skipped"
        ));
    }
    let facts = facts(level, notes, &markers);
    let background = level.wad.header.background as usize;
    let clear_rgb = level.palette.rgb.get(background).copied().unwrap_or([0, 0, 0]);
    Scene {
        name: level.name.clone(),
        game: Game::Saucerman,
        axes: Axes::YUp,
        palette: level.palette.rgb.clone(),
        shading: Shading::Family {
            family: ShadingFamily::Saucer,
            tables: shading_tables(&level.wad),
        },
        clear: ClearColor { rgb: clear_rgb, index: (background & 0xFF) as u32 },
        near: 4.0,
        textures,
        world,
        parts,
        sprites,
        sky: None,
        markers,
        cells: None,
        spawn,
        animator: Box::new(animator),
        facts,
        records: Some(std::sync::Arc::new(super::records::SaucerRecords::new(level))),
        automap: None,
    }
}

/// Map definitions first (their index is the map's texture number), then the WAD's.
fn scene_textures(level: &SaucerLevel, notes: &mut Vec<String>) -> Vec<Texture> {
    let bitmap_name = |b: u16| {
        level
            .wad
            .exported_textures
            .iter()
            .find(|(i, _)| *i == b as u32)
            .map_or_else(|| format!("BITMAP{b}"), |(_, n)| n.clone())
    };
    let mut out = Vec::new();
    let mut missing = 0;
    let defs = level
        .map
        .texture_defs
        .iter()
        .map(|d| ("MAP", d))
        .chain(level.wad.textures.iter().map(|d| ("WAD", d)));
    for (i, (source, d)) in defs.enumerate() {
        let name = format!("{source}{i}:{}", bitmap_name(d.bitmap));
        let bitmap = level.bitmaps.get(d.bitmap as usize).and_then(Option::as_ref);
        out.push(cut_texture(name.clone(), d, bitmap).unwrap_or_else(|| {
            missing += 1;
            Texture::placeholder(&name, 0xFF, 0x01)
        }));
    }
    if missing > 0 {
        notes.push(format!(
            "{missing} texture definitions point outside their bitmap; placeholders drawn"
        ));
    }
    out
}

fn push_face(world: &mut Vec<WorldVertex>, face: &Face, def: &TextureDef, texture: u32) {
    let kind = if face.horizontal { SurfaceKind::Flat } else { SurfaceKind::Wall };
    // The blend table travels in the family byte (table + 1, 0 = opaque).
    let table = def.blend_table();
    let mut flags = vertex_flags::pack(kind, def.masked(), table.map_or(0, |t| t as i8 + 1), 0);
    if table.is_some() {
        flags |= vertex_flags::TRANSLUCENT;
    }
    let vertex = |k: usize| {
        let p = face.points[k];
        WorldVertex {
            pos: [p[0] as f32, p[1] as f32, p[2] as f32],
            uv: def.corner_uv(face.texture_corners[k]),
            texture,
            light: face.lut_part as u32,
            flags,
            surface: 0,
            shade: [0; 4],
        }
    };
    // A fan from corner 0; slivers from collapsed edges (ramps) are left out.
    for k in 1..face.points.len().saturating_sub(1) {
        if triangle_area2(face.points[0], face.points[k], face.points[k + 1]) > 1e-6 {
            world.extend([vertex(0), vertex(k), vertex(k + 1)]);
            if face.double_sided {
                world.extend([vertex(0), vertex(k + 1), vertex(k)]);
            }
        }
    }
}

fn triangle_area2(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> f64 {
    let (a, b, c) = (DVec3::from(a), DVec3::from(b), DVec3::from(c));
    (b - a).cross(c - a).length()
}

/// Billboards: the definition's texture standing on the item's point, lit by the LUT1 part
/// of the tile under it. The spec gives offsets and scale but not their reference; the
/// offsets are taken from the cell's corner like model offsets.
fn billboards(level: &SaucerLevel) -> Vec<Sprite> {
    level
        .map
        .items
        .billboards
        .iter()
        .enumerate()
        .filter(|(_, b)| (b.texture as usize) < level.map.texture_defs.len())
        .map(|(i, b)| Sprite {
            tint: 0,
            pos: Vec3::new(
                (b.cell[0] as f64 * CELL + b.x_offset as f64) as f32,
                -(b.vertical_offset as f32),
                (b.cell[1] as f64 * CELL + b.y_offset as f64) as f32,
            ),
            views: vec![SpriteView { texture: b.texture, mirrored: false }],
            facing: 0.0,
            scale: [b.scale as f32 / 256.0 * BILLBOARD_UNITS_PER_TEXEL; 2],
            light: terrain_sprite_part(&level.map, b.cell) as u32,
            fullbright: false,
            label: format!("billboard texture {}", b.texture),
            source: i as u32,
        })
        .collect()
}

/// Ground height at a cell's top-left grid point.
fn ground(level: &SaucerLevel, cell: [u16; 2]) -> f64 {
    level
        .map
        .items
        .terrain_at(cell[0] as usize, cell[1] as usize)
        .map_or(0.0, |t| -(t.offset as f64))
}

fn cell_centre(level: &SaucerLevel, cell: [u16; 2], above: f64) -> DVec3 {
    DVec3::new(
        (cell[0] as f64 + 0.5) * CELL,
        ground(level, cell) + above,
        (cell[1] as f64 + 0.5) * CELL,
    )
}

fn markers(level: &SaucerLevel) -> Vec<Marker> {
    let items = &level.map.items;
    let mut out: Vec<Marker> = items
        .opaque
        .iter()
        .map(|it| {
            let label = match (it.kind, it.strat) {
                (TYPE_ENTITY, Some(s)) => match level.map.strat_name(s) {
                    Some(n) => format!("entity {n}"),
                    None => format!("entity strat {s}"),
                },
                (TYPE_CAMERA, _) => "camera".to_string(),
                (k, _) => format!("unknown item 0x{k:x}"),
            };
            Marker { pos: cell_centre(level, it.cell, 0.0).as_vec3(), label }
        })
        .collect();
    for r in level.instances.iter().filter(|r| r.wad_model.is_none()) {
        out.push(Marker {
            pos: cell_centre(level, r.instance.cell, 0.0).as_vec3(),
            label: format!("missing model {}", r.name.as_deref().unwrap_or("?")),
        });
    }
    out
}

/// The player entity's cell (a strat named like "PLAYER"), looking towards the map centre;
/// otherwise above the map centre looking across it.
fn spawn_camera(level: &SaucerLevel) -> CameraPose {
    let centre = DVec3::new(GRID as f64 * CELL / 2.0, 0.0, GRID as f64 * CELL / 2.0);
    let player = level.map.items.opaque.iter().find(|it| {
        it.kind == TYPE_ENTITY
            && it
                .strat
                .and_then(|s| level.map.strat_name(s))
                .is_some_and(|n| n.to_ascii_uppercase().contains("PLAYER"))
    });
    match player {
        Some(p) => {
            let eye = cell_centre(level, p.cell, EYE_HEIGHT);
            let mut target = DVec3::new(centre.x, eye.y, centre.z);
            if (target - eye).length() < 1.0 {
                target.x += CELL;
            }
            CameraPose::looking_at(eye, target)
        }
        None => {
            let eye = centre + DVec3::new(0.0, 6.0 * CELL, 0.0);
            CameraPose::looking_at(eye, centre + DVec3::new(16.0 * CELL, 0.0, 0.0))
        }
    }
}

fn facts(level: &SaucerLevel, notes: Vec<String>, markers: &[Marker]) -> LevelFacts {
    let items = &level.map.items;
    let count_kind = |k: u16| items.opaque.iter().filter(|i| i.kind == k).count() as u64;
    let mut counts = vec![
        ("map items".to_string(), items.total() as u64),
        ("terrain tiles visible".to_string(), level.geometry.visible_tiles as u64),
        ("terrain tiles invisible".to_string(), level.geometry.invisible_tiles as u64),
        ("extra tiles".to_string(), items.extra_tiles.len() as u64),
        ("block instances".to_string(), items.blocks.len() as u64),
        ("billboards".to_string(), items.billboards.len() as u64),
        ("model instances".to_string(), level.instances.len() as u64),
        (
            "model instances resolved".to_string(),
            level.instances.iter().filter(|r| r.wad_model.is_some()).count() as u64,
        ),
        ("entities".to_string(), count_kind(TYPE_ENTITY)),
        ("cameras".to_string(), count_kind(TYPE_CAMERA)),
        (
            "unknown items".to_string(),
            items.opaque.iter().filter(|i| i.kind != TYPE_ENTITY && i.kind != TYPE_CAMERA).count()
                as u64,
        ),
        ("unknown records".to_string(), level.map.unknown_records.len() as u64),
        ("static faces".to_string(), level.geometry.faces.len() as u64),
        ("model faces".to_string(), level.model_faces.len() as u64),
        ("map texture definitions".to_string(), level.map.texture_defs.len() as u64),
        ("block definitions".to_string(), level.map.block_defs.len() as u64),
        ("texture animations".to_string(), level.map.animations.len() as u64),
        ("wad textures".to_string(), level.wad.textures.len() as u64),
        ("bitmaps".to_string(), level.wad.bitmaps.len() as u64),
        ("models".to_string(), level.wad.models.len() as u64),
        ("sounds".to_string(), level.wad.sounds.len() as u64),
        ("fog near".to_string(), level.wad.header.fog_near as u64),
        ("fog far".to_string(), level.wad.header.fog_far as u64),
        ("background index".to_string(), level.wad.header.background as u64),
    ];
    for (kind, n) in &items.counts_by_type {
        counts.push((format!("items of type 0x{kind:x}"), *n as u64));
    }
    let mut notes = notes;
    for (i, r) in level.map.unknown_records.iter().enumerate() {
        notes.push(format!("unknown record {i}: {r:?}"));
    }
    // Markers are listed too, so nothing in the file goes unmentioned.
    for m in markers {
        notes.push(format!("marker {} at ({}, {}, {})", m.label, m.pos.x, m.pos.y, m.pos.z));
    }
    let mut textures_used: Vec<String> =
        level.wad.exported_textures.iter().map(|(_, n)| n.clone()).collect();
    textures_used.sort();
    textures_used.dedup();
    LevelFacts { counts, details: Vec::new(), textures_used, notes }
}
