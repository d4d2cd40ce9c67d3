//! Builds the neutral [`Scene`] of a level: floors and ceilings of the convex polygons at
//! their initial heights, wall panels of every side type, liquid surfaces, landscapes,
//! billboards for monsters, scenery and items, markers for the other objects, the spawn
//! camera and the animator. Geometry stays in native map units (1024 to the world unit); only
//! the axes are swapped into the viewer's ([`Axes::ZUpLeftHanded`]).
//!
//! Winding: each triangle is turned to face into its polygon (walls), up (floors, liquid top)
//! or down (ceilings, liquid underside), so back-face culling shows each surface from the
//! side the engine draws it.

use std::collections::HashMap;

use glam::{DVec3, Vec3};

use super::animator::{MarathonAnimator, ScrollKind};
use super::automap;
use super::cells::{cell_map, Cover};
use super::definitions::{self, transfer, Descriptor};
use super::level::Level;
use super::lights::LightSim;
use super::map::{object_kind, Point, OBJECT_HANGS_FROM_CEILING};
use super::panels::{side_panels, Panel, SideHeights};
use super::shapes::ShapesFile;
use super::summary::LevelSummary;
use super::textures::TextureSet;
use crate::limits::marathon::MAX_JOINT_HEIGHTS;
use crate::scene::{
    vertex_flags, Axes, CameraPose, ClearColor, Game, LevelFacts, Marker, Parts, Scene, Shading,
    ShadingFamily, Sprite, SpriteView, SurfaceKind, WorldVertex,
};

/// Eye height above the floor (0.8 world units, about where the engine puts the camera).
pub const EYE_HEIGHT: f64 = 819.0;
/// Facing units in a full turn.
const FACING_UNITS: f64 = 512.0;
const AXES: Axes = Axes::ZUpLeftHanded;

/// Builds level `level` with textures from `shapes` (flat colours when None).
pub fn build_scene(level: &Level, shapes: Option<&ShapesFile>, notes: &[String]) -> Scene {
    let mut b = Builder {
        level,
        lights_at_start: level.light_sim(),
        textures: TextureSet::new(shapes),
        anim: MarathonAnimator::new(level),
        world: Vec::new(),
        part_of_triangle: Vec::new(),
        cover: Cover::default(),
    };
    for p in 0..level.polygons.len() {
        b.polygon_surfaces(p);
    }
    let sides: Vec<Option<SideGeometry>> =
        (0..level.sides.len()).map(|s| b.side_geometry(s)).collect();
    let joints = panel_joints(&sides);
    // Cuts add triangles: at most as many again as the uncut panels have, whatever a file
    // stacks at one endpoint.
    let panels: usize = sides.iter().flatten().map(|g| g.panels.len()).sum();
    let mut extra_triangles = 2 * panels;
    for (s, g) in sides.into_iter().enumerate() {
        if let Some(g) = g {
            b.side_walls(s, g, &joints, &mut extra_triangles);
        }
    }
    let (sprites, markers, sprite_rgb) = b.objects();
    let spawn = spawn(level);

    let mut facts = facts(level);
    facts.notes.extend(notes.iter().cloned());
    facts.notes.extend(level.notes.iter().cloned());
    facts.notes.extend(start_less_note(level));
    facts.notes.extend(b.textures.notes.iter().cloned());
    let cells = cell_map(level, &b.cover);
    // A camera that can see one of these draws every polygon (render/cell_visibility.rs).
    let open = cells.cells.iter().filter(|c| c.leaks || c.edges.iter().any(|e| e.leaks));
    facts.counts.push(("polygons_open_to_the_void".into(), open.count() as u64));
    let mut automap = automap::marathon_automap(level, &b.lights_at_start);
    automap.sprite_rgb = sprite_rgb;
    let Builder { textures, mut anim, world, part_of_triangle, .. } = b;
    anim.set_texture_count(textures.textures.len());
    let tables = textures.tables();
    Scene {
        name: level.name.clone(),
        game: Game::Marathon,
        axes: AXES,
        palette: textures.palette,
        shading: Shading::Family { family: ShadingFamily::Marathon, tables },
        clear: ClearColor::default(),
        near: 16.0,
        textures: textures.textures,
        world,
        parts: Parts {
            names: (0..level.polygons.len()).map(|p| format!("polygon {p}")).collect(),
            of_triangle: part_of_triangle,
            placed_objects: false,
        },
        sprites,
        sky: None,
        markers,
        cells: Some(cells),
        spawn,
        animator: Box::new(anim),
        facts,
        records: Some(std::sync::Arc::new(super::records::MarathonRecords::new(level))),
        automap: Some(automap),
    }
}

struct Builder<'l, 's> {
    level: &'l Level,
    /// Light intensities at tick 0 (liquid heights follow their control light).
    lights_at_start: LightSim,
    textures: TextureSet<'s>,
    anim: MarathonAnimator,
    world: Vec<WorldVertex>,
    part_of_triangle: Vec<u32>,
    /// What hides what is behind it, for the cells.
    cover: Cover,
}

/// The heights at which the panels of `sides` end at each endpoint position, so that a
/// panel's edge is cut where a neighbour's ends (see [`Builder::side_walls`]).
fn panel_joints(sides: &[Option<SideGeometry>]) -> HashMap<(i16, i16), Vec<i16>> {
    let mut joints: HashMap<(i16, i16), Vec<i16>> = HashMap::new();
    for g in sides.iter().flatten() {
        for q in [g.a, g.b] {
            let heights = joints.entry((q.x, q.y)).or_default();
            heights.extend(g.panels.iter().flat_map(|panel| [panel.bottom, panel.top]));
        }
    }
    for heights in joints.values_mut() {
        heights.sort_unstable();
        heights.dedup();
        // Real endpoints hold a few heights; one that holds more is left uncut.
        if heights.len() > MAX_JOINT_HEIGHTS {
            heights.clear();
        }
    }
    joints
}

/// An uncut panel edge: its bottom and top.
fn edge_ends(panel: &Panel) -> Vec<i16> {
    vec![panel.bottom, panel.top]
}

/// Where a side stands and what it draws (see [`Builder::side_geometry`]).
struct SideGeometry {
    polygon: usize,
    line: usize,
    a: Point,
    b: Point,
    panels: Vec<Panel>,
}

/// What one surface is drawn with.
#[derive(Clone, Copy)]
struct Look {
    texture: u32,
    light: u32,
    flags: u32,
}

fn viewer(x: f64, y: f64, z: f64) -> [f32; 3] {
    AXES.to_viewer(Vec3::new(x as f32, y as f32, z as f32)).to_array()
}

impl Builder<'_, '_> {
    /// Light slot, kind and flags of a surface with `mode`; landscapes are full bright.
    fn look(&mut self, d: Descriptor, mode: u16, light: i16, delta: i32, horizontal: bool) -> Look {
        let texture = self.textures.surface(d);
        let landscape = transfer::is_landscape(mode);
        let kind = if landscape {
            SurfaceKind::Sky
        } else if horizontal {
            SurfaceKind::Flat
        } else {
            SurfaceKind::Wall
        };
        let light = if landscape { 0 } else { self.anim.light_slot(light, delta) };
        let scroll = self
            .anim
            .scroll_slot(mode, if horizontal { ScrollKind::Flat } else { ScrollKind::Wall });
        let masked = self.textures.masked.get(texture as usize).copied().unwrap_or(false);
        let param = i8::try_from(mode).unwrap_or(0);
        Look { texture, light, flags: vertex_flags::pack(kind, masked, param, scroll) }
    }

    fn push_triangle(
        &mut self,
        part: usize,
        tri: [([f32; 3], [f32; 2]); 3],
        look: Look,
        facing: Vec3,
    ) {
        let [a, b, c] = tri.map(|(p, _)| Vec3::from(p));
        let tri =
            if (b - a).cross(c - a).dot(facing) < 0.0 { [tri[0], tri[2], tri[1]] } else { tri };
        for (pos, uv) in tri {
            self.world.push(WorldVertex {
                pos,
                uv,
                texture: look.texture,
                light: look.light,
                flags: look.flags,
                surface: part as u32 + 1,
                shade: [0; 4],
            });
        }
        self.part_of_triangle.push(part as u32);
    }

    /// A horizontal convex polygon at height `z`, facing up or down; texture coordinates in
    /// world units: storage line from y, position in the line from x.
    fn plane(&mut self, part: usize, ring: &[Point], z: i16, origin: Point, look: Look, up: bool) {
        let corner = |p: &Point| {
            let uv = [(p.y as f32) + origin.y as f32, (p.x as f32) + origin.x as f32];
            (viewer(p.x as f64, p.y as f64, z as f64), uv)
        };
        let facing = if up { Vec3::Y } else { Vec3::NEG_Y };
        for k in 1..ring.len().saturating_sub(1) {
            self.push_triangle(
                part,
                [corner(&ring[0]), corner(&ring[k]), corner(&ring[k + 1])],
                look,
                facing,
            );
        }
    }

    fn polygon_surfaces(&mut self, p: usize) {
        let level = self.level;
        let Some(ring) = level.polygon_vertices(p) else { return };
        let poly = &level.polygons[p];
        let (floor, ceiling) = (level.floor[p], level.ceiling[p]);
        if ceiling > floor {
            let look = self.look(
                Descriptor(poly.floor_texture),
                poly.floor_transfer_mode,
                poly.floor_light,
                0,
                true,
            );
            let mut see_through = look.flags & vertex_flags::MASKED != 0;
            self.plane(p, &ring, floor, poly.floor_origin, look, true);
            let look = self.look(
                Descriptor(poly.ceiling_texture),
                poly.ceiling_transfer_mode,
                poly.ceiling_light,
                0,
                true,
            );
            see_through |= look.flags & vertex_flags::MASKED != 0;
            self.plane(p, &ring, ceiling, poly.ceiling_origin, look, false);
            if see_through {
                self.cover.see_through.push(p);
            }
        }
        if let Some(m) = level.polygon_media(p) {
            let height = level.media_height(m, &self.lights_at_start);
            if height > floor {
                let d = definitions::media_texture(m.kind).unwrap_or(Descriptor(m.texture));
                let look = self.look(d, m.transfer_mode, poly.media_light, 0, true);
                let top = height.min(ceiling);
                self.plane(p, &ring, top, m.origin, look, true);
                self.plane(p, &ring, top, m.origin, look, false);
            }
        }
    }

    /// Where side `s` stands and the panels it draws: its polygon and line, its ends as seen
    /// from the polygon (left, right) and the panels' heights.
    fn side_geometry(&self, s: usize) -> Option<SideGeometry> {
        let level = self.level;
        let (p, l) = level.side_owners[s]?;
        // Sides of polygons that are not drawn are not drawn either.
        if !level.polygon_ok[p] {
            return None;
        }
        let line = &level.lines[l];
        let (e0, e1) = (level.endpoint(line.endpoints[0])?, level.endpoint(line.endpoints[1])?);
        let forward = line.clockwise_polygon as usize == p;
        let (a, b) = if forward { (e0, e1) } else { (e1, e0) };
        let other = if forward { line.counterclockwise_polygon } else { line.clockwise_polygon };
        let (floor, ceiling) = (level.floor[p], level.ceiling[p]);
        let (adjacent_floor, adjacent_ceiling) =
            match usize::try_from(other).ok().filter(|&o| o < level.polygons.len()) {
                Some(o) => (floor.max(level.floor[o]), ceiling.min(level.ceiling[o])),
                None => (floor, ceiling),
            };
        let h = SideHeights { floor, ceiling, adjacent_floor, adjacent_ceiling };
        Some(SideGeometry { polygon: p, line: l, a, b, panels: side_panels(&level.sides[s], h) })
    }

    /// Side `s`'s panels. A panel's vertical edges get a corner at every height where another
    /// panel at that endpoint ends: two panels beside each other whose edges share only part
    /// of a line would otherwise leave pixels on that line to neither (a T-junction), and the
    /// view would show through the crack.
    fn side_walls(
        &mut self,
        s: usize,
        geometry: SideGeometry,
        joints: &HashMap<(i16, i16), Vec<i16>>,
        extra_triangles: &mut usize,
    ) {
        let level = self.level;
        let SideGeometry { polygon: p, line: l, a, b, panels } = geometry;
        let side = &level.sides[s];
        let centre = polygon_centre(level, p);
        let length = ((b.x as f64 - a.x as f64).hypot(b.y as f64 - a.y as f64)) as f32;
        for panel in panels {
            let t = panel.texture(side);
            let slot = panel.slot as usize;
            let look = self.look(
                Descriptor(t.texture),
                side.transfer_modes[slot],
                level.side_lights[s][slot],
                side.ambient_delta,
                false,
            );
            if look.flags & vertex_flags::MASKED == 0 {
                self.cover.panels.entry((p, l)).or_default().push((panel.bottom, panel.top));
            }
            let corner = |q: &Point, s_along: f32, z: i16| {
                let u = s_along + t.x0 as f32;
                let v = (panel.top as f32 + t.y0 as f32) - z as f32;
                (viewer(q.x as f64, q.y as f64, z as f64), [u, v])
            };
            let edge = |q: &Point| {
                let inner = joints.get(&(q.x, q.y)).map_or(&[][..], |h| &h[..]);
                let inner = inner.iter().copied().filter(|&z| z > panel.bottom && z < panel.top);
                std::iter::once(panel.bottom).chain(inner).chain([panel.top]).collect::<Vec<_>>()
            };
            let (mut left, mut right) = (edge(&a), edge(&b));
            let extra = left.len() + right.len() - 4;
            match extra_triangles.checked_sub(extra) {
                Some(rest) => *extra_triangles = rest,
                None => (left, right) = (edge_ends(&panel), edge_ends(&panel)),
            }
            let mid = Vec3::from(viewer(
                (a.x as f64 + b.x as f64) / 2.0,
                (a.y as f64 + b.y as f64) / 2.0,
                panel.bottom as f64,
            ));
            let inward = Vec3::new(centre[0], mid.y, centre[2]) - mid;
            // Up both edges at once, each triangle taking the lower next corner (an uncut
            // panel is the two triangles a0 b0 b1 and a0 b1 a1).
            let (mut i, mut j) = (0, 0);
            while i + 1 < left.len() || j + 1 < right.len() {
                let (ai, bj) = (corner(&a, 0.0, left[i]), corner(&b, length, right[j]));
                let up_right =
                    j + 1 < right.len() && (i + 1 == left.len() || right[j + 1] <= left[i + 1]);
                if up_right {
                    self.push_triangle(p, [ai, bj, corner(&b, length, right[j + 1])], look, inward);
                    j += 1;
                } else {
                    self.push_triangle(p, [ai, bj, corner(&a, 0.0, left[i + 1])], look, inward);
                    i += 1;
                }
            }
        }
    }

    /// The objects' billboards and markers, and each billboard's colour on the overhead map.
    fn objects(&mut self) -> (Vec<Sprite>, Vec<Marker>, Vec<[u8; 3]>) {
        let level = self.level;
        let mut sprites = Vec::new();
        let mut markers = Vec::new();
        let mut sprite_rgb = Vec::new();
        for (i, o) in level.objects.iter().enumerate() {
            let poly = usize::try_from(o.polygon).ok().filter(|&p| p < level.polygons.len());
            let z = match poly {
                // In i32: a height and an offset at the ends of the i16 range overflow it.
                Some(p) if o.flags & OBJECT_HANGS_FROM_CEILING != 0 => {
                    i32::from(level.ceiling[p]) - i32::from(o.z)
                }
                Some(p) => i32::from(level.floor[p]) + i32::from(o.z),
                None => i32::from(o.z),
            };
            let pos = Vec3::from(viewer(o.x as f64, o.y as f64, z as f64));
            let sequence = match o.kind {
                object_kind::SCENERY => definitions::scenery_sequence(o.index).map(|d| (d, 1.0)),
                object_kind::ITEM => definitions::item_sequence(o.index).map(|d| (d, 1.0)),
                object_kind::MONSTER => definitions::monster_sequence(o.index),
                _ => None,
            };
            let label = object_label(o.kind, o.index);
            let shape = sequence.and_then(|(d, size)| Some((self.textures.sprite(d)?, size)));
            match shape {
                Some((shape, size)) => {
                    sprite_rgb.push(automap::object_rgb(o.kind, o.index));
                    let light =
                        poly.map_or(0, |p| self.anim.light_slot(level.polygons[p].floor_light, 0));
                    sprites.push(Sprite {
                        tint: 0,
                        pos,
                        views: vec![SpriteView {
                            texture: shape.texture,
                            mirrored: shape.mirrored,
                        }],
                        facing: AXES.yaw_to_viewer(o.facing as f64 * 360.0 / FACING_UNITS) as f32,
                        scale: [shape.scale * size; 2],
                        light,
                        fullbright: false,
                        label,
                        source: i as u32,
                    });
                }
                None => markers.push(Marker { pos, label: format!("object {i}: {label}") }),
            }
        }
        (sprites, markers, sprite_rgb)
    }
}

fn object_label(kind: u16, index: i16) -> String {
    let what = match kind {
        object_kind::MONSTER => "monster",
        object_kind::SCENERY => "scenery",
        object_kind::ITEM => "item",
        object_kind::PLAYER => "player start",
        4 => "goal",
        5 => "sound source",
        _ => "object",
    };
    format!("{what} {index}")
}

/// The polygon with the largest area that has an outline (ties: the first).
fn largest_polygon(level: &Level) -> Option<usize> {
    (0..level.polygons.len())
        .filter(|&p| level.polygon_vertices(p).is_some())
        .max_by_key(|&p| (level.polygons[p].area, std::cmp::Reverse(p)))
}

/// What `info` says of a level with no player start.
fn start_less_note(level: &Level) -> Option<String> {
    if level.objects.iter().any(|o| o.kind == object_kind::PLAYER) {
        return None;
    }
    Some(match largest_polygon(level) {
        Some(p) => {
            format!("no player start: the camera opens at eye height in polygon {p}, the largest")
        }
        None => "no player start and no polygon with an outline: the camera opens at 0, 0".into(),
    })
}

fn polygon_centre(level: &Level, p: usize) -> [f32; 3] {
    let ring = level.polygon_vertices(p).unwrap_or_default();
    let n = ring.len().max(1) as f64;
    let x = ring.iter().map(|q| q.x as f64).sum::<f64>() / n;
    let y = ring.iter().map(|q| q.y as f64).sum::<f64>() / n;
    viewer(x, y, level.floor[p] as f64)
}

/// The first player start at eye height, facing its stored angle; else, inside the level,
/// the centre of its largest polygon (by the map's stored area; `start_less_note` says so).
fn spawn(level: &Level) -> CameraPose {
    let start = level.objects.iter().find(|o| o.kind == object_kind::PLAYER);
    let (x, y, floor, facing) = match start {
        Some(o) => {
            let floor = usize::try_from(o.polygon)
                .ok()
                .and_then(|p| level.floor.get(p))
                .copied()
                .unwrap_or(0);
            (o.x as f64, o.y as f64, floor as f64 + o.z as f64, o.facing as f64)
        }
        None => {
            let c = largest_polygon(level);
            match c {
                Some(p) => {
                    let v = polygon_centre(level, p);
                    (v[0] as f64, v[2] as f64, v[1] as f64, 0.0)
                }
                None => (0.0, 0.0, 0.0, 0.0),
            }
        }
    };
    CameraPose {
        pos: AXES.to_viewer_f64(DVec3::new(x, y, floor + EYE_HEIGHT)),
        yaw: AXES.yaw_to_viewer(facing * 360.0 / FACING_UNITS),
        pitch: 0.0,
    }
}

fn facts(level: &Level) -> LevelFacts {
    let s = LevelSummary::of(level);
    let n = |v: usize| v as u64;
    let mut counts = vec![
        ("endpoints".to_string(), n(level.endpoints.len())),
        ("lines".into(), n(level.lines.len())),
        ("sides".into(), n(level.sides.len())),
        ("polygons".into(), n(level.polygons.len())),
        ("lights".into(), n(level.lights.len())),
        ("objects".into(), n(level.objects.len())),
        ("platforms".into(), n(level.platforms.len())),
        ("media".into(), n(level.media.len())),
        ("annotations".into(), n(level.annotations.len())),
        ("solid_lines".into(), n(s.solid_lines)),
        ("transparent_lines".into(), n(s.transparent_lines)),
        ("landscape_polygons".into(), n(s.landscape_polygons.len())),
    ];
    for (name, k) in ["full", "high", "low", "composite", "split"].iter().zip(s.side_types) {
        counts.push((format!("{name}_sides"), n(k)));
    }
    let mut used: Vec<u16> = s
        .wall_panels_by_texture
        .keys()
        .chain(s.floor_polygons_by_texture.keys())
        .chain(s.ceiling_polygons_by_texture.keys())
        .copied()
        .collect();
    used.sort_unstable();
    used.dedup();
    LevelFacts {
        counts,
        details: Vec::new(),
        textures_used: used.iter().map(|d| format!("0x{d:04X}")).collect(),
        notes: vec![format!(
            "chunks: {}; data version {}",
            level.chunk_tags.join(" "),
            level.data_version
        )],
    }
}
