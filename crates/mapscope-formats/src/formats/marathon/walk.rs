//! Marathon's player body for walk mode, by Aleph One's movement rules (`physics.cpp`
//! `physics_update` and `instantiate_physics_variables`; `map.cpp`
//! `keep_line_segment_out_of_walls` and `find_new_object_polygon`; `map_constructors.cpp`
//! `find_intersecting_endpoints_and_lines`, which lists the walls near each polygon), read for
//! the rules, written anew.
//!
//! Everything is in map units (1024 to the world unit, as the scene is built); the engine's
//! fixed-point values (65536 to the world unit) are divided by 64. The body is the running
//! player of the scenario's physics model (the level's `PHys` chunk where it has one, else the
//! engine's built-in model).
//!
//! The level stays as it starts: platforms and doors stand at their initial heights, liquids
//! at their initial height, nothing else moves. Monsters and scenery do not block (the engine's
//! `legal_player_move` is not followed). The body moves straight where it is told, at most
//! the running speed a tic, without the engine's acceleration ramp; in the air it keeps the
//! move it left the ground with, as the engine lets no one steer while airborne.

use std::collections::VecDeque;

use glam::DVec2;

use crate::scene::NativeWalker;

use super::level::Level;
use super::map::line_flags;
use super::platforms::POLYGON_IS_PLATFORM;

/// `FIXED_ONE` / `WORLD_ONE`: the engine's fixed-point units in one map unit.
const FIXED_PER_UNIT: f64 = 64.0;
/// `MINIMUM_SEPARATION_FROM_WALL` (map.h, `WORLD_ONE / 4`): how far walls keep the body's
/// middle; also the reach within which walls are listed for a polygon.
pub const WALL_SEPARATION: f64 = 256.0;
/// `WORLD_ONE / 3`, the `maximum_delta_height` that `instantiate_physics_variables` hands
/// `keep_line_segment_out_of_walls`: the highest floor rise the body steps onto.
pub const STEP_HEIGHT: f64 = 341.0;
/// `CLOSE_ENOUGH_TO_FLOOR` (physics.cpp, `WORLD_ONE / 16`): nearer the floor than this and
/// slow, the body settles onto it.
const CLOSE_ENOUGH_TO_FLOOR: f64 = 64.0;
/// `COEFFICIENT_OF_ABSORBTION` (physics.cpp): landing bounces back at half the speed.
const ABSORPTION: f64 = 2.0;
/// `_environment_low_gravity` (map.h): the level's gravity is halved.
const LOW_GRAVITY: u16 = 0x0008;
/// Bytes of one `physics_constants` record (26 fixed-point values).
const PHYSICS_RECORD: usize = 104;
/// Polygons a wall list floods through at most (`MAXIMUM_INTERSECTING_INDEXES`).
const MAX_FLOOD: usize = 64;

/// What walking needs of one physics model, in fixed point (65536 to the world unit), as
/// `physics_models.h` and the `PHys` chunk hold them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerPhysics {
    pub maximum_forward_velocity: i32,
    pub gravitational_acceleration: i32,
    pub climbing_acceleration: i32,
    pub terminal_velocity: i32,
    pub radius: i32,
    pub height: i32,
    /// How far under the top of the body the eye is.
    pub camera_height: i32,
}

impl PlayerPhysics {
    /// The engine's built-in running model (`original_physics_models[_model_game_running]`):
    /// top speed FIXED_ONE/8 a tic, gravity FIXED_ONE/400 a tic per tic, climbing
    /// acceleration FIXED_ONE/200, terminal velocity FIXED_ONE/7, radius FIXED_ONE/4,
    /// height 4/5 and camera height 1/5 of FIXED_ONE.
    pub const RUNNING: PlayerPhysics = PlayerPhysics {
        maximum_forward_velocity: 65536 / 8,
        gravitational_acceleration: 65536 / 400,
        climbing_acceleration: 65536 / 200,
        terminal_velocity: 65536 / 7,
        radius: 65536 / 4,
        height: 4 * 65536 / 5,
        camera_height: 65536 / 5,
    };

    /// The running model (the second record) of a `PHys` chunk, or None when the chunk is too
    /// short to hold it.
    pub fn from_chunk(data: &[u8]) -> Option<PlayerPhysics> {
        let record = data.get(PHYSICS_RECORD..2 * PHYSICS_RECORD)?;
        let field = |i: usize| {
            let b = &record[4 * i..4 * i + 4];
            i32::from_be_bytes([b[0], b[1], b[2], b[3]])
        };
        // Field order of `unpack_physics_constants`.
        Some(PlayerPhysics {
            maximum_forward_velocity: field(0),
            gravitational_acceleration: field(6),
            climbing_acceleration: field(7),
            terminal_velocity: field(8),
            radius: field(20),
            height: field(21),
            camera_height: field(23),
        })
    }

    /// The eye above the feet in map units: the engine puts the camera at
    /// `location.z + FIXED_TO_WORLD(height - camera_height)` (no walking bob here).
    pub fn eye_height(&self) -> f64 {
        f64::from(self.height.saturating_sub(self.camera_height) >> 6)
    }

    fn units(v: i32) -> f64 {
        f64::from(v) / FIXED_PER_UNIT
    }
}

/// One line as the body meets it.
#[derive(Clone, Copy, Debug)]
struct WalkLine {
    /// False for a line with an endpoint missing: it lists no zone and leads nowhere.
    valid: bool,
    a: usize,
    b: usize,
    solid: bool,
    /// The polygon on whose side the line runs a to b (clockwise), and the other one.
    clockwise: Option<usize>,
    counterclockwise: Option<usize>,
}

/// One polygon as the body meets it.
#[derive(Clone, Debug)]
struct WalkPolygon {
    floor: f64,
    ceiling: f64,
    /// Endpoints and lines in the stored (clockwise) order; edge k runs from vertex k to k+1
    /// along line k.
    vertices: Vec<usize>,
    lines: Vec<usize>,
    center: DVec2,
    platform: bool,
    /// The liquid's surface at the start, if the polygon has one.
    media: Option<f64>,
}

/// Heights round an endpoint (`endpoint_data::recalculate_redundant_data`).
#[derive(Clone, Copy, Debug)]
struct EndpointHeights {
    highest_floor: f64,
    lowest_ceiling: f64,
    solid: bool,
}

/// The walls and corners near a polygon that can stop or lift a body in it (its exclusion
/// zones): lines with the side that faces the polygon (true: the line's clockwise side), and
/// endpoints.
#[derive(Clone, Debug, Default)]
struct Zones {
    lines: Vec<(usize, bool)>,
    endpoints: Vec<usize>,
}

/// How a pass over the walls went (`keep_line_segment_out_of_walls`' states).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pass {
    First,
    Second,
    SecondMadeContact,
    Aborted,
}

/// Where a move ends after the walls had their say, and the floor and ceiling there.
#[derive(Clone, Copy, Debug)]
struct Clipped {
    at: DVec2,
    floor: f64,
    ceiling: f64,
}

/// The player's body in a Marathon level.
pub struct MarathonWalker {
    points: Vec<DVec2>,
    lines: Vec<WalkLine>,
    polygons: Vec<Option<WalkPolygon>>,
    endpoint_heights: Vec<EndpointHeights>,
    zones: Vec<Zones>,
    physics: PlayerPhysics,
    low_gravity: bool,
    /// The polygon the body is in (None: outside the map, where it does not move).
    polygon: Option<usize>,
    at: DVec2,
    z: f64,
    /// Vertical velocity (map units a tic) and the move it keeps while airborne.
    vz: f64,
    velocity: DVec2,
    below_ground: bool,
    /// Floor and ceiling where the body stands, as the last tic's wall check found them.
    floor: f64,
    ceiling: f64,
}

impl MarathonWalker {
    pub fn new(level: &Level) -> MarathonWalker {
        let points: Vec<DVec2> =
            level.endpoints.iter().map(|p| DVec2::new(p.x as f64, p.y as f64)).collect();
        let polygon_index = |p: i16| {
            usize::try_from(p).ok().filter(|&p| level.polygon_ok.get(p).copied().unwrap_or(false))
        };
        let point_index = |e: i16| usize::try_from(e).ok().filter(|&e| e < points.len());
        // Lines with a missing endpoint stay as placeholders so indices keep.
        let lines: Vec<WalkLine> = level
            .lines
            .iter()
            .map(|l| match (point_index(l.endpoints[0]), point_index(l.endpoints[1])) {
                (Some(a), Some(b)) => WalkLine {
                    valid: true,
                    a,
                    b,
                    solid: l.flags & line_flags::SOLID != 0,
                    clockwise: polygon_index(l.clockwise_polygon),
                    counterclockwise: polygon_index(l.counterclockwise_polygon),
                },
                _ => WalkLine {
                    valid: false,
                    a: 0,
                    b: 0,
                    solid: false,
                    clockwise: None,
                    counterclockwise: None,
                },
            })
            .collect();
        let sim = level.light_sim();
        let polygons: Vec<Option<WalkPolygon>> = (0..level.polygons.len())
            .map(|p| {
                // Checked: 3 to 8 vertices, every endpoint index in range.
                let n = level.polygon_vertices(p)?.len();
                let poly = &level.polygons[p];
                let vertices: Vec<usize> =
                    poly.endpoints[..n].iter().map(|&e| e as usize).collect();
                let lines: Vec<usize> = poly.lines[..n]
                    .iter()
                    .map(|&l| usize::try_from(l).ok().filter(|&l| l < lines.len()))
                    .collect::<Option<_>>()?;
                let center = vertices.iter().map(|&v| points[v]).sum::<DVec2>() / n as f64;
                Some(WalkPolygon {
                    floor: level.floor[p] as f64,
                    ceiling: level.ceiling[p] as f64,
                    vertices,
                    lines,
                    center,
                    platform: poly.kind == POLYGON_IS_PLATFORM,
                    media: level.polygon_media(p).map(|m| level.media_height(m, &sim) as f64),
                })
            })
            .collect();
        let mut walker = MarathonWalker {
            endpoint_heights: Vec::new(),
            zones: Vec::new(),
            physics: level.physics.unwrap_or(PlayerPhysics::RUNNING),
            low_gravity: level
                .info
                .as_ref()
                .is_some_and(|i| i.environment_flags & LOW_GRAVITY != 0),
            polygon: None,
            at: DVec2::ZERO,
            z: 0.0,
            vz: 0.0,
            velocity: DVec2::ZERO,
            below_ground: false,
            floor: 0.0,
            ceiling: 0.0,
            points,
            lines,
            polygons,
        };
        walker.endpoint_heights = walker.endpoint_heights();
        walker.zones = (0..walker.polygons.len()).map(|p| walker.zones_of(p)).collect();
        walker
    }

    fn polygon(&self, p: usize) -> Option<&WalkPolygon> {
        self.polygons.get(p).and_then(Option::as_ref)
    }

    /// The line's polygons that exist.
    fn line_polygons(&self, line: &WalkLine) -> impl Iterator<Item = &WalkPolygon> {
        [line.clockwise, line.counterclockwise]
            .into_iter()
            .flatten()
            .filter_map(|p| self.polygon(p))
    }

    /// Highest floor and lowest ceiling either side of a line (`line_data`'s
    /// `highest_adjacent_floor`, `lowest_adjacent_ceiling`).
    fn line_heights(&self, line: &WalkLine) -> (f64, f64) {
        let mut polys = self.line_polygons(line).peekable();
        if polys.peek().is_none() {
            return (0.0, 0.0);
        }
        polys.fold((f64::MIN, f64::MAX), |(f, c), p| (f.max(p.floor), c.min(p.ceiling)))
    }

    /// Per endpoint: the highest floor and lowest ceiling of the polygons of its lines, and
    /// whether a solid line meets there.
    fn endpoint_heights(&self) -> Vec<EndpointHeights> {
        let mut heights =
            vec![
                EndpointHeights { highest_floor: f64::MIN, lowest_ceiling: f64::MAX, solid: false };
                self.points.len()
            ];
        for line in &self.lines {
            if line.clockwise.is_none() && line.counterclockwise.is_none() && !line.solid {
                continue;
            }
            for e in [line.a, line.b] {
                let h = &mut heights[e];
                h.solid |= line.solid;
                for p in self.line_polygons(line) {
                    h.highest_floor = h.highest_floor.max(p.floor);
                    h.lowest_ceiling = h.lowest_ceiling.min(p.ceiling);
                }
            }
        }
        for h in &mut heights {
            if h.highest_floor == f64::MIN {
                *h = EndpointHeights { highest_floor: 0.0, lowest_ceiling: 0.0, solid: h.solid };
            }
        }
        heights
    }

    /// Polygon `p`'s exclusion zones, as `find_intersecting_endpoints_and_lines` floods them:
    /// through the polygons that overlap it in height, the lines that are solid, next to a
    /// platform or change height against it, within reach of one of its corners, and the
    /// endpoints within reach of one of its lines.
    fn zones_of(&self, p: usize) -> Zones {
        let mut zones = Zones::default();
        let Some(original) = self.polygon(p) else { return zones };
        let reach2 = WALL_SEPARATION * WALL_SEPARATION;
        let corners: Vec<DVec2> = original.vertices.iter().map(|&v| self.points[v]).collect();
        let edges: Vec<(DVec2, DVec2)> = original
            .lines
            .iter()
            .map(|&l| (self.points[self.lines[l].a], self.points[self.lines[l].b]))
            .collect();
        // A short list, not a flag per polygon: this runs for every polygon of the level.
        let mut visited = vec![p];
        let mut queue = VecDeque::from([p]);
        while let Some(s) = queue.pop_front() {
            let Some(poly) = self.polygon(s) else { continue };
            let mut near = s == p;
            if poly.floor <= original.ceiling && poly.ceiling >= original.floor {
                for (&li, &e) in poly.lines.iter().zip(&poly.vertices) {
                    if zones.lines.iter().any(|&(l, _)| l == li) {
                        near = true;
                    } else if self.lines[li].valid && self.line_matters(li, original) {
                        let line = &self.lines[li];
                        let (a, b) = (self.points[line.a], self.points[line.b]);
                        if corners.iter().any(|&c| segment_distance2(c, a, b) < reach2) {
                            // The face the polygon's middle is on.
                            let clockwise = (b - a).perp_dot(original.center - b) > 0.0;
                            zones.lines.push((li, clockwise));
                            near = true;
                        }
                    }
                    if zones.endpoints.contains(&e) {
                        near = true;
                    } else if edges
                        .iter()
                        .any(|&(a, b)| segment_distance2(self.points[e], a, b) < reach2)
                    {
                        zones.endpoints.push(e);
                    }
                }
            }
            if near {
                for &li in &poly.lines {
                    let line = &self.lines[li];
                    for q in [line.clockwise, line.counterclockwise].into_iter().flatten() {
                        if !visited.contains(&q) && visited.len() < MAX_FLOOD {
                            visited.push(q);
                            queue.push_back(q);
                        }
                    }
                }
            }
        }
        zones
    }

    /// Whether a line can stop or lift a body in `original`: solid, next to a platform, or
    /// with a floor above or a ceiling below the polygon's.
    fn line_matters(&self, li: usize, original: &WalkPolygon) -> bool {
        let line = &self.lines[li];
        if line.solid {
            return true;
        }
        let platform = self.line_polygons(line).any(|q| q.platform);
        let (floor, ceiling) = self.line_heights(line);
        platform || ceiling < original.ceiling || floor > original.floor
    }
}

impl MarathonWalker {
    /// The polygon holding `p`: the first one (in map order) whose edges all have it on their
    /// inner side.
    fn polygon_at(&self, p: DVec2) -> Option<usize> {
        (0..self.polygons.len()).find(|&i| {
            self.polygon(i).is_some_and(|poly| {
                let n = poly.vertices.len();
                (0..n).all(|k| {
                    let a = self.points[poly.vertices[k]];
                    let b = self.points[poly.vertices[(k + 1) % n]];
                    (b - a).perp_dot(p - a) >= 0.0
                })
            })
        })
    }

    /// `keep_line_segment_out_of_walls` for a body in polygon `p` moving from `from` to `to`
    /// with its feet at `z`: a wall it may not pass pushes it back to [`WALL_SEPARATION`] from
    /// the wall (a second wall in the way on a second look stops the move), then corners push
    /// it out of their circle; walls and corners it may pass lift the floor under it.
    fn keep_out_of_walls(&self, p: usize, from: DVec2, to: DVec2, z: f64) -> Clipped {
        let Some(poly) = self.polygon(p) else {
            return Clipped { at: from, floor: self.floor, ceiling: self.ceiling };
        };
        let height = PlayerPhysics::units(self.physics.height);
        let mut out = Clipped { at: to, floor: poly.floor, ceiling: poly.ceiling };
        let zones = &self.zones[p];
        let mut hit = vec![false; zones.lines.len()];
        let mut pass = Pass::First;
        loop {
            for (k, &(li, clockwise)) in zones.lines.iter().enumerate() {
                if pass == Pass::Aborted {
                    break;
                }
                let line = &self.lines[li];
                let (e0, e1, across) = if clockwise {
                    (self.points[line.a], self.points[line.b], line.counterclockwise)
                } else {
                    (self.points[line.b], self.points[line.a], line.clockwise)
                };
                let Some(zone) = ExclusionZone::new(e0, e1) else { continue };
                if !zone.holds(out.at) {
                    continue;
                }
                let passable = across.and_then(|q| self.polygon(q)).filter(|adj| {
                    !line.solid
                        && adj.floor - z <= STEP_HEIGHT
                        && adj.ceiling - z >= height
                        && adj.ceiling.min(poly.ceiling) - adj.floor.max(poly.floor) >= height
                });
                if let Some(adj) = passable {
                    out.floor = out.floor.max(adj.floor);
                    out.ceiling = out.ceiling.max(adj.ceiling);
                    continue;
                }
                match pass {
                    Pass::First => {
                        hit[k] = true;
                        out.at = zone.onto_edge(out.at);
                    }
                    Pass::Second if hit[k] => {
                        out.at = zone.onto_edge(out.at);
                        pass = Pass::SecondMadeContact;
                    }
                    _ => pass = Pass::Aborted,
                }
            }
            match pass {
                Pass::First => pass = Pass::Second,
                _ => break,
            }
        }
        if pass == Pass::Aborted {
            out.at = from;
            return out;
        }
        for &e in &zones.endpoints {
            let corner = self.points[e];
            let offset = out.at - corner;
            if offset.length_squared() >= WALL_SEPARATION * WALL_SEPARATION {
                continue;
            }
            let h = &self.endpoint_heights[e];
            if h.highest_floor - z > STEP_HEIGHT || h.lowest_ceiling - z < height || h.solid {
                // `closest_point_on_circle`; from the very corner, back the way it came.
                let away = offset.try_normalize().or((from - corner).try_normalize());
                out.at = away.map_or(from, |d| corner + d * WALL_SEPARATION);
            } else {
                out.floor = out.floor.max(h.highest_floor);
                out.ceiling = out.ceiling.max(h.lowest_ceiling);
            }
        }
        out
    }

    /// `find_new_object_polygon`: from polygon `p`, across each line the move from `from` to
    /// `to` leaves through, to the polygon where it ends (None: it leaves the map).
    fn polygon_after_move(&self, p: usize, from: DVec2, to: DVec2) -> Option<usize> {
        let mut current = p;
        let mut previous = None;
        for _ in 0..self.polygons.len().min(MAX_FLOOD) {
            let poly = self.polygon(current)?;
            let Some(li) = self.line_left_through(poly, from, to) else { return Some(current) };
            let line = &self.lines[li];
            let next = if line.clockwise == Some(current) {
                line.counterclockwise
            } else {
                line.clockwise
            }?;
            if Some(next) == previous {
                // Numerically on the line between the two: where it was.
                return Some(current);
            }
            previous = Some(current);
            current = next;
        }
        None
    }

    /// The edge of `poly` the move from `from` to `to` leaves through: the first the move
    /// crosses going out, or None when it ends inside.
    fn line_left_through(&self, poly: &WalkPolygon, from: DVec2, to: DVec2) -> Option<usize> {
        let n = poly.vertices.len();
        let d = to - from;
        let mut best: Option<(f64, usize)> = None;
        for k in 0..n {
            let a = self.points[poly.vertices[k]];
            let b = self.points[poly.vertices[(k + 1) % n]];
            let edge = b - a;
            if edge.perp_dot(to - a) >= 0.0 {
                continue;
            }
            // Where the move meets the edge's line, along the move (t) and the edge (u).
            let denom = d.perp_dot(edge);
            if denom.abs() < 1e-12 {
                continue;
            }
            let t = (a - from).perp_dot(edge) / denom;
            let u = (a - from).perp_dot(d) / denom;
            if (-1e-9..=1.0 + 1e-9).contains(&u) && best.is_none_or(|(bt, _)| t < bt) {
                best = Some((t, poly.lines[k]));
            }
        }
        best.map(|(_, li)| li)
    }

    /// `physics_update`'s vertical part: climbs towards a floor above the feet, falls towards
    /// one below them (at half gravity in low gravity and again with the feet in liquid),
    /// bounces off the ceiling and the floor, and settles when close and slow.
    fn vertical(&mut self) {
        let physics = self.physics;
        let climb = PlayerPhysics::units(physics.climbing_acceleration);
        let height = PlayerPhysics::units(physics.height);
        let delta_z = self.z - self.floor;
        let mut terminal = PlayerPhysics::units(physics.terminal_velocity);
        if delta_z < 0.0 {
            self.vz = (self.vz + climb).min(terminal);
        }
        if delta_z > 0.0 {
            let mut gravity = PlayerPhysics::units(physics.gravitational_acceleration);
            if self.low_gravity {
                gravity /= 2.0;
            }
            if self.feet_in_liquid() {
                gravity /= 2.0;
                terminal /= 2.0;
            }
            self.vz = (self.vz - gravity).max(-terminal);
        }
        let was_below = self.below_ground;
        self.below_ground = self.z < self.floor;
        let above = self.z > self.floor;
        if self.vz > 0.0 && was_below && !self.below_ground {
            self.vz /= 2.0 * ABSORPTION;
        }
        if self.vz > 0.0 && self.z + height >= self.ceiling {
            self.vz /= -ABSORPTION;
            self.z = self.ceiling - height;
        }
        if self.vz < 0.0 && !was_below && !above {
            self.vz /= -ABSORPTION;
        }
        if self.vz.abs() < climb && (self.floor - self.z).abs() < CLOSE_ENOUGH_TO_FLOOR {
            self.vz = 0.0;
            self.z = self.floor;
            self.below_ground = false;
        }
        self.z += self.vz;
    }

    /// The liquid's surface in the body's polygon (below everything where there is none).
    fn liquid(&self) -> f64 {
        self.polygon.and_then(|p| self.polygon(p)).and_then(|p| p.media).unwrap_or(f64::MIN)
    }

    fn feet_in_liquid(&self) -> bool {
        self.z < self.liquid()
    }

    fn head_in_liquid(&self) -> bool {
        self.z + self.physics.eye_height() < self.liquid()
    }
}

impl NativeWalker for MarathonWalker {
    fn place(&mut self, at: [f64; 2]) {
        self.at = DVec2::from(at);
        self.polygon = self.polygon_at(self.at);
        self.vz = 0.0;
        self.velocity = DVec2::ZERO;
        self.below_ground = false;
        let Some(p) = self.polygon else { return };
        let (floor, ceiling) = self.polygon(p).map_or((0.0, 0.0), |q| (q.floor, q.ceiling));
        // Stand on whatever the walls nearby lift the floor to, as the engine's first
        // instantiate does.
        self.z = floor;
        self.floor = floor;
        self.ceiling = ceiling;
        let here = self.keep_out_of_walls(p, self.at, self.at, floor);
        self.floor = here.floor;
        self.ceiling = here.ceiling;
        self.z = here.floor;
    }

    fn tic(&mut self, wish: [f64; 2]) {
        let Some(p) = self.polygon else { return };
        let wish = DVec2::from(wish);
        // On the ground (or swimming) the body goes where it is told; airborne it keeps going.
        if self.z <= self.floor || self.head_in_liquid() {
            self.velocity = if wish.is_finite() { wish } else { DVec2::ZERO };
        }
        self.vertical();
        let to = self.at + self.velocity;
        let clipped = self.keep_out_of_walls(p, self.at, to, self.z);
        match self.polygon_after_move(p, self.at, clipped.at) {
            Some(q) => {
                self.at = clipped.at;
                self.polygon = Some(q);
                self.floor = clipped.floor;
                self.ceiling = clipped.ceiling;
            }
            None => {
                let here = self.keep_out_of_walls(p, self.at, self.at, self.z);
                self.floor = here.floor;
                self.ceiling = here.ceiling;
            }
        }
    }

    fn feet(&self) -> [f64; 3] {
        [self.at.x, self.at.y, self.z]
    }

    fn eye(&self) -> [f64; 3] {
        [self.at.x, self.at.y, self.z + self.physics.eye_height()]
    }

    fn speed(&self) -> f64 {
        PlayerPhysics::units(self.physics.maximum_forward_velocity)
    }

    fn has_floor(&self) -> bool {
        self.polygon.is_some()
    }
}

/// A side's exclusion zone (`recalculate_redundant_side_data`): the strip across a wall's
/// length, from [`WALL_SEPARATION`] in front of it (its pushed-out copy e0-e1) through it and
/// beyond; e2-e3 is the wall itself.
struct ExclusionZone {
    e0: DVec2,
    e1: DVec2,
    e2: DVec2,
    e3: DVec2,
}

impl ExclusionZone {
    /// The zone in front of the wall from `a` to `b` (the polygon on its left going a to b,
    /// +y pointing down the map); None for a wall of no length.
    fn new(a: DVec2, b: DVec2) -> Option<ExclusionZone> {
        let along = (b - a).try_normalize()?;
        // `push_out_line`: (-dy, dx), into the polygon.
        let out = DVec2::new(-along.y, along.x) * WALL_SEPARATION;
        Some(ExclusionZone { e0: a + out, e1: b + out, e2: a, e3: b })
    }

    /// Strictly inside: nearer the wall than the pushed-out line, and between the zone's ends.
    /// A point just put on the pushed-out line is not inside (the engine's integers make that
    /// exact; here a hair of tolerance does).
    fn holds(&self, p: DVec2) -> bool {
        const HAIR: f64 = 1e-6;
        let len = (self.e1 - self.e0).length();
        (p - self.e0).perp_dot(self.e1 - self.e0) > HAIR * len
            && (p - self.e2).perp_dot(self.e0 - self.e2) > HAIR * WALL_SEPARATION
            && (p - self.e1).perp_dot(self.e3 - self.e1) > HAIR * WALL_SEPARATION
    }

    /// `closest_point_on_line` of the pushed-out line.
    fn onto_edge(&self, p: DVec2) -> DVec2 {
        let d = self.e1 - self.e0;
        self.e0 + d * ((p - self.e0).dot(d) / d.length_squared())
    }
}

/// Squared distance from `p` to the segment a-b (`point_to_line_segment_distance_squared`).
fn segment_distance2(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    let t = if ab.length_squared() > 0.0 {
        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).length_squared()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::marathon::map::{Media, Point};
    use crate::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon};
    use crate::formats::marathon::Wad;

    /// A polygon `x0..x1` by `0..2048` (clockwise with +y down) with walls on every edge.
    fn block(x0: i16, x1: i16, floor: i16, ceiling: i16) -> RoomPolygon {
        RoomPolygon::walled_rect([x0, 0, x1, 2048], floor, ceiling, 0x1100)
    }

    /// The level of `polygons`, its lines changed by `edit`, with `extra` chunks.
    fn level(
        polygons: &[RoomPolygon],
        edit: impl FnOnce(&mut Room),
        extra: Vec<([u8; 4], Vec<u8>)>,
    ) -> Level {
        let mut room = Room::build(polygons);
        edit(&mut room);
        let mut chunks = LevelChunks::of_room("walk", &room, &[writer::constant_light(1.0)], &[]);
        chunks.chunks.extend(extra);
        let bytes = writer::wad(4, 1, "walk", &[chunks]);
        let wad = Wad::parse("walk", &bytes).unwrap();
        Level::load(&wad, 0).unwrap()
    }

    /// Walks from `from` towards `to` for `tics` tics at top speed (less on the last steps).
    fn walk(level: &Level, from: [f64; 2], to: [f64; 2], tics: u32) -> Vec<[f64; 3]> {
        let mut w = MarathonWalker::new(level);
        w.place(from);
        let mut feet = vec![w.feet()];
        for _ in 0..tics {
            let f = w.feet();
            let d = DVec2::new(to[0] - f[0], to[1] - f[1]);
            w.tic(d.clamp_length_max(w.speed()).into());
            feet.push(w.feet());
        }
        feet
    }

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn the_engines_running_player() {
        let p = PlayerPhysics::RUNNING;
        assert_eq!(PlayerPhysics::units(p.maximum_forward_velocity), 128.0);
        // (52428 - 13107) >> 6: 0.6 world units, truncated as FIXED_TO_WORLD truncates.
        assert_eq!(p.eye_height(), 614.0);
        assert!(near(PlayerPhysics::units(p.height), 819.1875));
        assert_eq!(STEP_HEIGHT, (1024 / 3) as f64);
    }

    #[test]
    fn a_phys_chunk_gives_its_running_model_and_a_short_one_none() {
        let mut p = PlayerPhysics::RUNNING;
        p.camera_height = 0;
        p.maximum_forward_velocity = 4096;
        let chunk = writer::phys(&p);
        assert_eq!(chunk.len(), 2 * PHYSICS_RECORD);
        assert_eq!(PlayerPhysics::from_chunk(&chunk), Some(p));
        assert_eq!(PlayerPhysics::from_chunk(&chunk[..150]), None);
        let l = level(&[block(0, 2048, 0, 2048)], |_| {}, vec![(*b"PHys", chunk)]);
        let mut w = MarathonWalker::new(&l);
        w.place([1024.0, 1024.0]);
        assert_eq!(w.eye()[2], (p.height >> 6) as f64);
        assert_eq!(w.speed(), 64.0);
    }

    #[test]
    fn a_wall_stops_the_body_a_quarter_world_unit_away() {
        let l = level(&[block(0, 4096, 0, 2048)], |_| {}, Vec::new());
        let feet = walk(&l, [2048.0, 1024.0], [-500.0, 1024.0], 40);
        let last = feet.last().unwrap();
        assert!(near(last[0], WALL_SEPARATION) && near(last[1], 1024.0), "{last:?}");
        // Into a corner, diagonally: a quarter unit from both walls.
        let feet = walk(&l, [2048.0, 1024.0], [-500.0, -500.0], 40);
        let last = feet.last().unwrap();
        assert!(near(last[0], WALL_SEPARATION) && near(last[1], WALL_SEPARATION), "{last:?}");
    }

    #[test]
    fn the_body_climbs_a_third_of_a_world_unit_but_not_more() {
        for (rise, climbs) in [(341, true), (342, false)] {
            let l = level(
                &[block(0, 2048, 0, 2048), block(2048, 4096, rise, 2048)],
                |_| {},
                Vec::new(),
            );
            let feet = walk(&l, [1024.0, 1024.0], [3072.0, 1024.0], 60);
            let last = feet.last().unwrap();
            if climbs {
                assert!(near(last[0], 3072.0) && near(last[2], rise as f64), "{rise}: {last:?}");
                // Climbing takes tics: the feet rise through heights between the floors.
                assert!(feet.iter().filter(|f| f[2] > 0.0 && f[2] < rise as f64).count() >= 3);
            } else {
                assert!(near(last[0], 2048.0 - WALL_SEPARATION) && near(last[2], 0.0), "{last:?}");
            }
        }
    }

    #[test]
    fn the_body_falls_to_a_lower_floor_and_settles_on_it() {
        let l =
            level(&[block(0, 2048, 0, 3072), block(2048, 4096, 1024, 3072)], |_| {}, Vec::new());
        let feet = walk(&l, [3072.0, 1024.0], [1024.0, 1024.0], 60);
        assert_eq!(feet[0][2], 1024.0);
        let last = feet.last().unwrap();
        assert!(near(last[0], 1024.0) && last[2] == 0.0, "{last:?}");
        // The floor lifts it until it is a quarter unit past the ledge.
        let over_ledge = feet.iter().filter(|f| f[0] < 2048.0 && f[0] > 2048.0 - 256.0);
        assert!(over_ledge.clone().count() > 0 && over_ledge.clone().all(|f| f[2] == 1024.0));
        // Then it falls, gathering speed.
        let falling: Vec<f64> =
            feet.iter().map(|f| f[2]).filter(|&z| z > 0.0 && z < 1024.0).collect();
        assert!(falling.len() >= 5, "{feet:?}");
        assert!(falling[0] - falling[1] < falling[1] - falling[2], "{falling:?}");
    }

    #[test]
    fn a_solid_line_between_open_polygons_stops_the_body() {
        let polys = [block(0, 2048, 0, 2048), block(2048, 4096, 0, 2048)];
        let open = level(&polys, |_| {}, Vec::new());
        let feet = walk(&open, [1024.0, 1024.0], [3072.0, 1024.0], 40);
        assert!(near(feet.last().unwrap()[0], 3072.0));
        let solid = level(
            &polys,
            |room| {
                // The line the two polygons share.
                for l in &mut room.lines {
                    if l.clockwise_polygon >= 0 && l.counterclockwise_polygon >= 0 {
                        l.flags |= line_flags::SOLID;
                    }
                }
            },
            Vec::new(),
        );
        let feet = walk(&solid, [1024.0, 1024.0], [3072.0, 1024.0], 40);
        assert!(near(feet.last().unwrap()[0], 2048.0 - WALL_SEPARATION), "{feet:?}");
    }

    #[test]
    fn liquid_halves_gravity_and_the_body_walks_its_floor() {
        // The lower polygon holds water up to 768 (its light is full on: the high mark).
        let water = Media {
            kind: 0,
            flags: 0,
            light: 0,
            direction: 0,
            magnitude: 0,
            low: 0,
            high: 768,
            origin: Point { x: 0, y: 0 },
            height: 768,
            minimum_light: 0,
            texture: 0xFFFF,
            transfer_mode: 0,
        };
        let fall_tics = |media: i16| {
            let mut low = block(0, 2048, 0, 3072);
            low.media = media;
            let chunks = vec![(*b"medi", writer::medi(&[water]))];
            let l = level(&[low, block(2048, 4096, 1024, 3072)], |_| {}, chunks);
            let feet = walk(&l, [3072.0, 1024.0], [1024.0, 1024.0], 80);
            let last = feet.last().unwrap();
            assert!(near(last[0], 1024.0) && last[2] == 0.0, "{last:?}");
            feet.iter().filter(|f| f[2] > 0.0 && f[2] < 1024.0).count()
        };
        let (dry, wet) = (fall_tics(-1), fall_tics(0));
        assert!(wet > dry + 3, "{dry} tics falling through air, {wet} into water");
    }

    #[test]
    fn a_ceiling_too_low_for_the_body_stops_it() {
        let l = level(&[block(0, 2048, 0, 2048), block(2048, 4096, 0, 800)], |_| {}, Vec::new());
        let feet = walk(&l, [1024.0, 1024.0], [3072.0, 1024.0], 40);
        assert!(near(feet.last().unwrap()[0], 2048.0 - WALL_SEPARATION));
    }

    #[test]
    fn a_body_walks_the_station_level_from_its_start_and_stays_in_it() {
        let (bytes, _) = crate::formats::marathon::station::station_wad();
        let wad = Wad::parse("station", &bytes).unwrap();
        let l = Level::load(&wad, 0).unwrap();
        let start = l.objects.iter().find(|o| o.kind == 3).unwrap();
        let mut w = MarathonWalker::new(&l);
        w.place([start.x as f64, start.y as f64]);
        let mut visited = std::collections::HashSet::new();
        for k in 0..600 {
            let a = k as f64 / 40.0;
            w.tic([128.0 * a.cos(), 128.0 * a.sin()]);
            let [x, y, z] = w.feet();
            let p = w.polygon.expect("in a polygon");
            visited.insert(p);
            let poly = w.polygon(p).unwrap();
            assert!(x.is_finite() && y.is_finite() && z.is_finite());
            // Never under the floor by more than a step's climb, never through the ceiling.
            assert!(z > poly.floor - STEP_HEIGHT - 1.0 && z < poly.ceiling, "{k}: {:?}", w.feet());
        }
        assert!(visited.len() > 3, "stuck in {visited:?}");
    }

    #[test]
    fn a_body_placed_outside_the_map_stays_put() {
        let l = level(&[block(0, 2048, 0, 2048)], |_| {}, Vec::new());
        let mut w = MarathonWalker::new(&l);
        w.place([5000.0, 5000.0]);
        w.tic([100.0, 0.0]);
        assert_eq!(w.feet()[..2], [5000.0, 5000.0]);
    }
}
