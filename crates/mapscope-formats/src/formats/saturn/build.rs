//! Builds the neutral [`Scene`] of a parsed level: faces as double-sided triangle pairs with
//! per-corner light, textures with their own 16-colour palettes, the animated sky, entity
//! markers, the player start, and the facts `info` prints.
//!
//! Light travels two ways so the shader can do the hardware's arithmetic: `shade` holds each
//! vertex's (r, g, b) offsets + 16 (interpolated across the triangle, used by smooth mode),
//! and `surface` holds the face's four corner light indices and flip bits, so faithful mode
//! interpolates the indices' offsets bilinearly across the quad as the VDP1 does (edge to
//! edge, then along the span) and rounds to whole 5-bit steps.

use glam::DVec3;

use crate::scene::{
    vertex_flags, Animator, Axes, CameraPose, ClearColor, FrameState, Game, LevelFacts, Marker,
    Parts, Scene, Shading, ShadingFamily, Sky, SurfaceKind, Texels, Texture, WorldVertex,
    MAX_PALETTE,
};

use super::colour::{Rgb555, LIGHT_OFFSETS};
use super::entities::{entity_views, PLAYER_START_TYPE};
use super::file::LevFile;
use super::geometry::{build_geometry, Face, FaceSource, FaceTexture, LevelGeometry};
use super::junctions::{edge_points, EdgePoint};
use super::level::MOVER_TYPE;
use super::sky::{SKY_FRAMES, SKY_FRAME_SIZE};
use super::textures::TEXTURE_SIZE;
use super::tiles::{FLIP_H, FLIP_V};

/// Tics each sky frame shows (the rate is not in the file: 15 frames a second).
pub const TICS_PER_SKY_FRAME: u32 = 2;

/// Bits of `WorldVertex::surface` (read by shaders/saturn.wgsl).
pub mod surface_bits {
    /// Corner k's light index sits at bits 5k..5k+5.
    pub const LIGHT_BITS: u32 = 5;
    pub const FLIP_H: u32 = 1 << 20;
    pub const FLIP_V: u32 = 1 << 21;
}

/// Textures with their own palettes that fit the scene palette beside the sky's and the
/// placeholder's (16 entries each).
const MAX_LEVEL_TEXTURES: usize = MAX_PALETTE / 16 - 2;

/// Plane flag that marks poly-object (mover) planes.
const MOVER_PLANE_FLAG: u16 = 0x0008;

pub fn build_scene(file: &LevFile, map_name: &str) -> Scene {
    let geometry = build_geometry(file);
    let axes = Axes::YUpLeftHanded;
    let level_textures = file.textures.len().min(MAX_LEVEL_TEXTURES);
    let sky_base = level_textures;
    let placeholder = sky_base + SKY_FRAMES;

    let (textures, palette) = textures_and_palette(file);
    let masked: Vec<bool> = textures
        .iter()
        .map(|t| matches!(&t.texels, Texels::Indexed { opaque, .. } if !opaque.is_empty()))
        .collect();

    let mut world = Vec::with_capacity(geometry.faces.len() * 12);
    let mut parts = Parts {
        names: Vec::new(),
        of_triangle: Vec::with_capacity(geometry.faces.len() * 4),
        placed_objects: false,
    };
    parts.names = (0..file.level.planes.len()).map(|i| format!("plane {i}")).collect();
    let junctions = edge_points(&geometry.faces);
    for (face, junctions) in geometry.faces.iter().zip(&junctions) {
        let texture = match face.texture {
            FaceTexture::Level(i) if i < level_textures => i,
            FaceTexture::Level(_) | FaceTexture::Missing(_) => placeholder,
            FaceTexture::Sky => sky_base,
        };
        let before = world.len();
        emit_face(
            &mut world,
            face,
            junctions,
            texture as u32,
            masked.get(texture).copied().unwrap_or(false),
            axes,
        );
        parts
            .of_triangle
            .extend(std::iter::repeat_n(face.plane as u32, (world.len() - before) / 3));
    }

    let entities = entity_views(&file.level);
    let mover_centre = mover_planes_centre(file, &geometry);
    let mut markers = Vec::new();
    for e in &entities {
        let pos = match e.position {
            Some(p) => Some(DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64)),
            None if e.kind == MOVER_TYPE => mover_centre,
            None => None,
        };
        if let Some(p) = pos {
            markers.push(Marker { pos: axes.to_viewer(p.as_vec3()), label: e.label() });
        }
    }

    let bounds = native_bounds(&geometry);
    let start = entities
        .iter()
        .find(|e| e.kind == PLAYER_START_TYPE)
        .and_then(|e| e.position)
        .map(|p| DVec3::new(p[0] as f64, p[1] as f64, p[2] as f64));
    let spawn_native = start.or(bounds.map(|(lo, hi)| (lo + hi) / 2.0)).unwrap_or(DVec3::ZERO);
    let spawn = CameraPose { pos: axes.to_viewer_f64(spawn_native), yaw: 0.0, pitch: 0.0 };

    let facts = level_facts(file, &geometry, &entities, &textures);
    let remap: Vec<u32> = (0..textures.len() as u32).collect();
    let animator = SkyAnimator {
        sky_texture: sky_base as u32,
        base: FrameState {
            light: vec![0],
            texture_remap: remap,
            scroll: vec![[0.0, 0.0]],
            thing_frames: Vec::new(),
        },
    };
    Scene {
        name: map_name.to_string(),
        game: Game::SaturnQuake,
        axes,
        palette,
        shading: Shading::Family { family: ShadingFamily::Saturn, tables: light_table() },
        clear: ClearColor { rgb: [0, 0, 0], index: 0 },
        near: 1.0,
        textures,
        world,
        parts,
        sprites: Vec::new(),
        sky: Some(Sky { texture: sky_base as u32 }),
        markers,
        cells: None,
        spawn,
        animator: Box::new(animator),
        facts,
        records: Some(std::sync::Arc::new(super::records::SaturnRecords::new(file))),
        automap: None,
    }
}

/// Level textures (palette base 16*k), the 64 sky frames, then a placeholder for texture
/// indices past the list. Index 0 is the Saturn's transparent code, so texels using it are
/// marked see-through.
fn textures_and_palette(file: &LevFile) -> (Vec<Texture>, Vec<[u8; 3]>) {
    let mut palette = Vec::new();
    let mut textures = Vec::new();
    for (k, t) in file.textures.iter().take(MAX_LEVEL_TEXTURES).enumerate() {
        let base = palette.len() as u32;
        palette.extend(t.palette.iter().map(|&w| Rgb555::from_word(w).to_rgb8()));
        let opaque = if t.indices.contains(&0) {
            t.indices.iter().map(|&i| i != 0).collect()
        } else {
            Vec::new()
        };
        textures.push(Texture {
            name: format!("texture {k}"),
            width: TEXTURE_SIZE as u32,
            height: TEXTURE_SIZE as u32,
            origin: (0, 0),
            texels: Texels::Indexed { index: t.indices.clone(), opaque },
            palette: base,
        });
    }
    let sky_base = palette.len() as u32;
    palette.extend(file.sky.palette.iter().map(|&w| Rgb555::from_word(w).to_rgb8()));
    for f in 0..SKY_FRAMES {
        textures.push(Texture {
            name: format!("sky frame {f}"),
            width: SKY_FRAME_SIZE as u32,
            height: SKY_FRAME_SIZE as u32,
            origin: (0, 0),
            texels: Texels::Indexed { index: file.sky.frame(f).to_vec(), opaque: Vec::new() },
            palette: sky_base,
        });
    }
    let mut missing = Texture::placeholder("missing texture", 1, 2);
    missing.palette = palette.len() as u32;
    palette.extend([[0, 0, 0], [255, 0, 255], [24, 24, 24]]);
    palette.resize(palette.len().max(256), [0, 0, 0]);
    textures.push(missing);
    (textures, palette)
}

/// The 18 offsets, one word each: (r + 16) | (g + 16) << 8 | (b + 16) << 16.
fn light_table() -> Vec<u32> {
    LIGHT_OFFSETS
        .iter()
        .map(|o| o.iter().enumerate().map(|(k, &d)| ((d as i32 + 16) as u32) << (8 * k)).sum())
        .collect()
}

/// The face as triangles over its corners and the T-junction points on its edges, once per
/// winding (the Saturn draws both sides; some quads are wound backwards to mirror their
/// texture). Without junction points that is the quad's two triangles.
fn emit_face(
    world: &mut Vec<WorldVertex>,
    face: &Face,
    junctions: &[EdgePoint],
    texture: u32,
    masked: bool,
    axes: Axes,
) {
    let corners = face.placed_corners();
    let flip_h = face.flags & FLIP_H != 0;
    let flip_v = face.flags & FLIP_V != 0;
    let size = TEXTURE_SIZE as f64;
    let corner_uv = |k: usize| {
        let (u, v) = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)][k % 4];
        let u = if flip_h { 1.0 - u } else { u };
        let v = if flip_v { 1.0 - v } else { v };
        [u * size, v * size]
    };
    let offsets = |k: usize| LIGHT_OFFSETS[face.lights[k % 4] as usize].map(|d| (d + 16) as f64);
    let lerp = |a: DVec3, b: DVec3, t: f64| a + (b - a) * t;

    // (position, uv, light offsets + 16) around the polygon; corner k at ring[corner_at[k]].
    let mut ring: Vec<(DVec3, DVec3, DVec3)> = Vec::with_capacity(5 + junctions.len());
    let mut corner_at = [0usize; 4];
    for k in 0..4 {
        corner_at[k] = ring.len();
        let (uv, next_uv) = (corner_uv(k), corner_uv(k + 1));
        let (uv, next_uv) =
            (DVec3::new(uv[0], uv[1], 0.0), DVec3::new(next_uv[0], next_uv[1], 0.0));
        let (o, next_o) = (DVec3::from(offsets(k)), DVec3::from(offsets(k + 1)));
        ring.push((corners[k], uv, o));
        for j in junctions.iter().filter(|j| j.edge == k) {
            let p = lerp(corners[k], corners[(k + 1) % 4], j.t);
            ring.push((p, lerp(uv, next_uv, j.t), lerp(o, next_o, j.t)));
        }
    }
    // Fan from a corner whose two edges have no junction points (a fan cannot split its
    // apex's own edges); failing that, from the quad's bilinear centre.
    let n = ring.len();
    let apex = (0..4).find(|&k| !junctions.iter().any(|j| j.edge == k || j.edge == (k + 3) % 4));
    let triangles: Vec<[usize; 3]> = match apex {
        Some(k) => {
            let a = corner_at[k];
            (1..n - 1).map(|i| [a, (a + i) % n, (a + i + 1) % n]).collect()
        }
        None => {
            let mean = |f: fn(&(DVec3, DVec3, DVec3)) -> DVec3| {
                corner_at.iter().map(|&i| f(&ring[i])).sum::<DVec3>() / 4.0
            };
            ring.push((mean(|r| r.0), mean(|r| r.1), mean(|r| r.2)));
            (0..n).map(|i| [n, i, (i + 1) % n]).collect()
        }
    };

    let kind = if face.texture == FaceTexture::Sky { SurfaceKind::Sky } else { SurfaceKind::Wall };
    let flags = vertex_flags::pack(kind, masked, 0, 0);
    let mut surface = 0u32;
    for (k, &l) in face.lights.iter().enumerate() {
        surface |= (l as u32) << (surface_bits::LIGHT_BITS * k as u32);
    }
    surface |= if flip_h { surface_bits::FLIP_H } else { 0 }
        | if flip_v { surface_bits::FLIP_V } else { 0 };
    let vertex = |i: usize| {
        let (pos, uv, shade) = ring[i];
        WorldVertex {
            pos: axes.to_viewer(pos.as_vec3()).to_array(),
            uv: [uv.x as f32, uv.y as f32],
            texture,
            light: 0,
            flags,
            surface,
            shade: [shade.x.round() as u8, shade.y.round() as u8, shade.z.round() as u8, 0],
        }
    };
    for [a, b, c] in triangles {
        // Junction points next to the apex make zero-area triangles.
        if (ring[b].0 - ring[a].0).cross(ring[c].0 - ring[a].0).length_squared() < 1e-12 {
            continue;
        }
        world.extend([a, b, c].map(vertex));
        world.extend([a, c, b].map(vertex));
    }
}

/// Movers carry no position; they are shown at the centre of the planes flagged as
/// poly-object planes, the geometry they move.
fn mover_planes_centre(file: &LevFile, g: &LevelGeometry) -> Option<DVec3> {
    let corners: Vec<DVec3> = g
        .faces
        .iter()
        .filter(|f| file.level.planes.get(f.plane).is_some_and(|p| p.flags & MOVER_PLANE_FLAG != 0))
        .flat_map(|f| f.corners)
        .collect();
    (!corners.is_empty()).then(|| corners.iter().sum::<DVec3>() / corners.len() as f64)
}

fn native_bounds(g: &LevelGeometry) -> Option<(DVec3, DVec3)> {
    let mut it = g.faces.iter().flat_map(|f| f.corners);
    let first = it.next()?;
    Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
}

fn level_facts(
    file: &LevFile,
    g: &LevelGeometry,
    entities: &[super::entities::EntityView],
    textures: &[Texture],
) -> LevelFacts {
    let level = &file.level;
    let movers = entities.iter().filter(|e| e.kind == MOVER_TYPE).count();
    let counts = [
        ("nodes", level.nodes.len()),
        ("planes", level.planes.len()),
        ("vertices", level.vertices.len()),
        ("explicit_quads", g.explicit_quads),
        ("tile_sets", file.tiles.len()),
        ("tile_quads", g.tile_quads),
        ("rendered_quads", g.explicit_quads + g.tile_quads),
        ("reversed_explicit_quads", g.reversed_quads),
        ("sky_planes", g.sky_planes),
        ("textures", file.textures.len()),
        ("sky_frames", SKY_FRAMES),
        ("entities", entities.len()),
        ("movers", movers),
        ("table_data_1_elements", file.table1.elements.len()),
        ("table_data_2_chunks", file.tail.as_ref().map_or(0, |t| t.table2_chunks.len())),
        ("welded_tile_points", g.welded_points),
        ("layered_coplanar_faces", g.layered_faces),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v as u64))
    .collect();

    let mut used: Vec<usize> = g
        .faces
        .iter()
        .filter_map(|f| match f.texture {
            FaceTexture::Level(i) if i < MAX_LEVEL_TEXTURES => Some(i),
            _ => None,
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    let textures_used =
        used.iter().filter_map(|&i| textures.get(i)).map(|t| t.name.clone()).collect();

    let mut notes = Vec::new();
    if file.textures.len() > MAX_LEVEL_TEXTURES {
        notes.push(format!(
            "{} textures; only the first {MAX_LEVEL_TEXTURES} fit the scene palette, the rest draw as a placeholder",
            file.textures.len()
        ));
    }
    let [seed, alt] = file.layout_fits;
    notes.push(format!(
        "tile layout: {} (tile origins on their planes: seed {}/{}, unknown-first {}/{})",
        file.tile_layout.describe(),
        seed.on_plane,
        seed.measured,
        alt.on_plane,
        alt.measured
    ));
    let s = &file.segments;
    let opt = |v: Option<u64>| v.map_or("unreached".to_string(), |v| v.to_string());
    notes.push(format!(
        "segments: level_data {} table_data_1 {} global_palette {} texture_data {} table_data_2 {} embedded_resources {} visibility {} eof {}",
        s.level_data,
        s.table_data_1,
        s.global_palette,
        s.texture_data,
        opt(s.table_data_2),
        opt(s.embedded_resources),
        opt(s.visibility),
        s.eof
    ));
    for e in entities {
        let at =
            e.position.map_or(String::new(), |p| format!(" at ({}, {}, {})", p[0], p[1], p[2]));
        notes.push(format!(
            "{}, data offset {} ({} bytes){at}",
            e.label(),
            e.data_offset,
            e.data.len()
        ));
    }
    for (i, n) in level.nodes.iter().enumerate() {
        if n.first_plane as usize >= level.planes.len()
            || n.last_plane as usize >= level.planes.len()
        {
            notes.push(format!(
                "node {i}: planes {}..={} past the {} planes (nodes are not needed to draw)",
                n.first_plane,
                n.last_plane,
                level.planes.len()
            ));
        }
    }
    notes.extend(file.warnings.iter().map(|w| format!("warning: {w}")));
    notes.extend(g.notes.iter().cloned());
    if let Some(face) = g.faces.iter().find(|f| matches!(f.source, FaceSource::SkyPlane)) {
        notes.push(format!(
            "sky planes (no quads, no tiles) show the animated sky; first: plane {}",
            face.plane
        ));
    }
    LevelFacts { counts, details: Vec::new(), textures_used, notes }
}

/// Sky frames advance with time; nothing else in a level animates without its entities.
struct SkyAnimator {
    sky_texture: u32,
    base: FrameState,
}

impl Animator for SkyAnimator {
    fn state_at(&mut self, tic: u32, out: &mut FrameState) {
        out.clone_from(&self.base);
        let frame = (tic / TICS_PER_SKY_FRAME) % SKY_FRAMES as u32;
        if let Some(slot) = out.texture_remap.get_mut(self.sky_texture as usize) {
            *slot = self.sky_texture + frame;
        }
    }

    fn initial(&self) -> FrameState {
        self.base.clone()
    }
}
