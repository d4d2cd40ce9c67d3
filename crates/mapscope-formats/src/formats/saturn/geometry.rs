//! The faces a viewer draws, in native coordinates: each plane's explicit quads, then its tile
//! set, and the outline of planes with neither (sky planes).
//!
//! Repairs the Saturn did not need but a depth-buffered renderer does:
//! - Tile grid points are projected onto the plane (its high-precision frame from the outline
//!   vertices) and welded to the plane's outline and quad vertices and edges within
//!   [`WELD_DISTANCE`], so the 16.16 tile vectors leave no cracks against plane edges. Grid
//!   points are computed once per set, so neighbouring tiles share corners exactly.
//! - Overlapping coplanar faces are layered (see [`super::coplanar`]).
//! - Corners lying inside other faces' edges are inserted into them when the scene is built
//!   (see [`super::junctions`]).

use glam::DVec3;

use super::colour::clamp_light;
use super::coplanar::{layer_coplanar, COPLANAR_OFFSET};
use super::file::LevFile;
use super::level::Vertex;
use super::tiles::PlaneFrame;

/// Tile grid points this close (native units) to a plane's vertex or edge are moved onto it.
pub const WELD_DISTANCE: f64 = 2.0;
/// Most faces one level may produce (a hostile file can make tile sets share streams).
pub const FACE_BUDGET: usize = 1 << 22;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceSource {
    Quad(usize),
    Tile { set: usize, x: usize, y: usize },
    SkyPlane,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceTexture {
    Level(usize),
    /// The texture index is past the texture list.
    Missing(usize),
    Sky,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Face {
    pub plane: usize,
    pub source: FaceSource,
    /// Corners 0..3: UV (0,0), (1,0), (1,1), (0,1) before flips.
    pub corners: [DVec3; 4],
    /// Light index per corner, 0..=17.
    pub lights: [u8; 4],
    pub texture: FaceTexture,
    /// Tile flag byte (0x10 mirror u, 0x20 mirror v); 0 for quads.
    pub flags: u8,
    /// Unit normal of the owning plane (the side it faces).
    pub normal: DVec3,
    /// Coplanar layer: pushed `layer * COPLANAR_OFFSET` along `normal`.
    pub layer: u32,
}

impl Face {
    /// Corners with the coplanar push applied.
    pub fn placed_corners(&self) -> [DVec3; 4] {
        let push = self.normal * (self.layer as f64 * COPLANAR_OFFSET);
        self.corners.map(|c| c + push)
    }
}

#[derive(Clone, Debug, Default)]
pub struct LevelGeometry {
    pub faces: Vec<Face>,
    pub explicit_quads: usize,
    pub tile_quads: usize,
    pub sky_planes: usize,
    /// Explicit quads wound against their plane's normal (drawn double-sided anyway).
    pub reversed_quads: usize,
    /// Tile grid points moved onto a plane vertex or edge.
    pub welded_points: usize,
    /// Faces pushed off a coplanar face they overlap.
    pub layered_faces: usize,
    /// What was skipped or repaired, with where.
    pub notes: Vec<String>,
}

pub fn build_geometry(file: &LevFile) -> LevelGeometry {
    let mut g = LevelGeometry::default();
    let level = &file.level;
    let mut bad_lights = 0usize;
    for (pi, plane) in level.planes.iter().enumerate() {
        if g.faces.len() >= FACE_BUDGET {
            g.notes.push(format!(
                "face budget of {FACE_BUDGET} reached at plane {pi}; the rest is not drawn"
            ));
            break;
        }
        let frame = PlaneFrame::from_plane(plane, &level.vertices);
        let stored =
            DVec3::new(plane.plane[0] as f64, plane.plane[1] as f64, plane.plane[2] as f64);
        let normal = frame.map(|f| f.normal).unwrap_or_else(|| stored.normalize_or_zero());
        let mut anchors = Anchors::default();
        let outline: Vec<DVec3> = plane
            .vert_indices
            .iter()
            .filter_map(|&i| level.vertices.get(i as usize))
            .map(native)
            .collect();
        anchors.add_polygon(&outline);

        if let Some(range) = plane.quad_range() {
            let (first, last) = (*range.start(), *range.end());
            if last >= level.quads.len() {
                g.notes.push(format!(
                    "plane {pi}: quads {first}..={last} run past the {} quads; only those that exist are drawn",
                    level.quads.len()
                ));
            }
            for qi in first..=last.min(level.quads.len().saturating_sub(1)) {
                let Some(quad) = level.quads.get(qi) else { break };
                let ids = quad.indices.map(|i| plane.vert_start as usize + i as usize);
                let Some(verts) = lookup(&level.vertices, ids) else {
                    g.notes.push(format!(
                        "plane {pi} quad {qi}: vertex indices {ids:?} past the {} vertices; skipped",
                        level.vertices.len()
                    ));
                    continue;
                };
                let corners = verts.map(native);
                let lights = verts.map(|v| v.light_index());
                bad_lights += lights.iter().filter(|&&l| clamp_light(l) != l).count();
                let reversed =
                    (corners[1] - corners[0]).cross(corners[3] - corners[0]).dot(stored) < 0.0;
                g.reversed_quads += reversed as usize;
                anchors.add_polygon(&corners);
                g.faces.push(Face {
                    plane: pi,
                    source: FaceSource::Quad(qi),
                    corners,
                    lights: lights.map(clamp_light),
                    texture: texture_ref(quad.texture as usize, file.textures.len()),
                    flags: 0,
                    normal,
                    layer: 0,
                });
                g.explicit_quads += 1;
            }
        }

        if let Some(set) = plane.tile_set() {
            match file.tiles.get(set) {
                None => g.notes.push(format!(
                    "plane {pi}: tile set {set} does not exist ({} tile records); skipped",
                    file.tiles.len()
                )),
                Some(rec) => match rec
                    .check_streams(&level.tile_texture_data, &level.tile_color_data)
                {
                    Err(why) => g.notes.push(format!("plane {pi} tile set {set}: {why}; skipped")),
                    Ok(()) => {
                        let (w, h) = (rec.width as usize, rec.height as usize);
                        let mut grid = Vec::with_capacity((w + 1) * (h + 1));
                        for gy in 0..=h {
                            for gx in 0..=w {
                                let p = rec.grid_point(gx, gy);
                                let p = frame.map_or(p, |f| f.project(p));
                                grid.push(match anchors.weld(p) {
                                    Some(q) => {
                                        g.welded_points += 1;
                                        q
                                    }
                                    None => p,
                                });
                            }
                        }
                        let at = |x: usize, y: usize| grid[y * (w + 1) + x];
                        for ty in 0..h {
                            for tx in 0..w {
                                let Some(cell) = rec.cell(
                                    tx,
                                    ty,
                                    &level.tile_texture_data,
                                    &level.tile_color_data,
                                ) else {
                                    continue;
                                };
                                bad_lights +=
                                    cell.lights.iter().filter(|&&l| clamp_light(l) != l).count();
                                g.faces.push(Face {
                                    plane: pi,
                                    source: FaceSource::Tile { set, x: tx, y: ty },
                                    corners: [
                                        at(tx, ty),
                                        at(tx + 1, ty),
                                        at(tx + 1, ty + 1),
                                        at(tx, ty + 1),
                                    ],
                                    lights: cell.lights.map(clamp_light),
                                    texture: texture_ref(
                                        cell.texture as usize,
                                        file.textures.len(),
                                    ),
                                    flags: cell.flags,
                                    normal,
                                    layer: 0,
                                });
                                g.tile_quads += 1;
                            }
                        }
                    }
                },
            }
        }

        // A plane with neither quads nor tiles only bounds the sky (the Saturn draws the sky
        // as a background scroll behind it).
        if plane.tile_set().is_none() && plane.quad_range().is_none() {
            if let Ok(corners) = <[DVec3; 4]>::try_from(outline) {
                g.faces.push(Face {
                    plane: pi,
                    source: FaceSource::SkyPlane,
                    corners,
                    lights: [17; 4],
                    texture: FaceTexture::Sky,
                    flags: 0,
                    normal,
                    layer: 0,
                });
                g.sky_planes += 1;
            }
        }
    }
    if bad_lights > 0 {
        g.notes.push(format!("{bad_lights} light indices past 17 were drawn as 17 (unlit)"));
    }
    let missing: Vec<usize> = g
        .faces
        .iter()
        .filter_map(|f| match f.texture {
            FaceTexture::Missing(i) => Some(i),
            _ => None,
        })
        .collect();
    if let Some(first) = missing.first() {
        g.notes.push(format!(
            "{} faces name textures past the {} in the list (first: {first}); drawn with a placeholder",
            missing.len(),
            file.textures.len()
        ));
    }
    g.layered_faces = layer_coplanar(&mut g.faces);
    g
}

fn native(v: &Vertex) -> DVec3 {
    DVec3::new(v.pos[0] as f64, v.pos[1] as f64, v.pos[2] as f64)
}

fn lookup(vertices: &[Vertex], ids: [usize; 4]) -> Option<[&Vertex; 4]> {
    Some([
        vertices.get(ids[0])?,
        vertices.get(ids[1])?,
        vertices.get(ids[2])?,
        vertices.get(ids[3])?,
    ])
}

fn texture_ref(index: usize, count: usize) -> FaceTexture {
    if index < count {
        FaceTexture::Level(index)
    } else {
        FaceTexture::Missing(index)
    }
}

/// Points and edges of one plane that tile grid points weld to.
#[derive(Default)]
struct Anchors {
    points: Vec<DVec3>,
    edges: Vec<(DVec3, DVec3)>,
}

impl Anchors {
    fn add_polygon(&mut self, pts: &[DVec3]) {
        for (i, &a) in pts.iter().enumerate() {
            self.points.push(a);
            if let Some(&b) = pts.get((i + 1) % pts.len()) {
                if a != b {
                    self.edges.push((a, b));
                }
            }
        }
    }

    /// The nearest anchor point within the weld distance, else the nearest point on an edge.
    fn weld(&self, p: DVec3) -> Option<DVec3> {
        let nearest = |it: &mut dyn Iterator<Item = DVec3>| {
            it.map(|q| (q.distance(p), q))
                .filter(|(d, _)| *d <= WELD_DISTANCE && *d > 0.0)
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, q)| q)
        };
        if self.points.contains(&p) {
            return None;
        }
        nearest(&mut self.points.iter().copied()).or_else(|| {
            nearest(&mut self.edges.iter().map(|&(a, b)| {
                let ab = b - a;
                let t = ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0);
                a + ab * t
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welding_prefers_points_then_edges() {
        let mut a = Anchors::default();
        a.add_polygon(&[DVec3::ZERO, DVec3::new(100.0, 0.0, 0.0), DVec3::new(100.0, 100.0, 0.0)]);
        assert_eq!(a.weld(DVec3::new(1.0, 1.0, 0.0)), Some(DVec3::ZERO));
        assert_eq!(a.weld(DVec3::new(50.0, -1.5, 0.0)), Some(DVec3::new(50.0, 0.0, 0.0)));
        assert_eq!(a.weld(DVec3::new(50.0, -3.0, 0.0)), None);
    }
}
