//! A body for games whose levels are triangle soups rather than 2.5D maps (Saturn Quake,
//! Attack of the Saucerman, Carmageddon 2): an upright cylinder against the level's solid
//! triangles, with gravity, stepping up and down, an eye height and sliding along walls.
//!
//! Why a cylinder: Quake's own body is an upright box, and neither game without published
//! rules says otherwise. An upright cylinder of the box's half-width stops at the same
//! distance from a wall whatever way the wall runs (the triangles' walls run every way, a box
//! would stop nearer diagonal walls than square ones), and its flat bottom makes a step
//! exactly climbable or not (a capsule's round bottom would ride up edges a little higher
//! than the step). The cylinder's side, from the step height up to the top of its head, is
//! what walls block; its foot, a disk the cylinder's width, stands on the highest floor under
//! it that is no more than a step above the feet (Quake's box also stands on a ledge while any
//! part of it is over the ledge).
//!
//! Where nothing at all lies under its foot (past the edge of the level), it does not go.
//! The level stays as it starts: nothing moves. The body moves straight where it is told (no
//! momentum), at most the game's running speed a tic; no jumping, swimming or crouching.

use glam::{DVec2, DVec3, Vec3};

use super::triangle_grid::TriangleGrid;
use super::{Scene, Walker, WorldVertex};

/// A game's player body, in its native units (which the viewer's units are) and seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// Half the width of the body.
    pub radius: f64,
    /// Feet to the top of the head: the opening it needs.
    pub height: f64,
    /// The most a floor may rise under it and still be stepped onto.
    pub step: f64,
    /// The eye above the feet.
    pub eye: f64,
    /// Downward acceleration, units a second per second.
    pub gravity: f64,
    /// Running speed, units a second.
    pub speed: f64,
}

/// How finely a blocked move is cut to find where the body meets what blocks it.
const CONTACT_STEPS: u32 = 14;
/// A blocked move slides along what blocked it at most this many times a piece.
const SLIDES: usize = 3;

/// A body in a triangle-mesh level. See the module notes for its rules.
pub struct MeshWalker {
    grid: TriangleGrid,
    body: Body,
    /// Seconds a tic.
    dt: f64,
    /// Viewer-space feet.
    feet: DVec3,
    /// Upward speed, units a second (negative while falling).
    rise: f64,
    /// Standing on a floor (else falling, or hanging over nothing at all).
    grounded: bool,
    /// How far the body reaches into the walls where it is now: 0 unless it was placed inside
    /// something, in which case it may move only where that gets no deeper.
    depth: f64,
    /// Lengths that count as nothing (a small fraction of the body's width).
    tol: f64,
}

/// Where a move would leave the body.
#[derive(Clone, Copy, Debug)]
struct Spot {
    feet: DVec3,
    grounded: bool,
    depth: f64,
}

impl MeshWalker {
    /// A body among `solid` (viewer-space triangles; leave out what does not block, such as
    /// water) at `tic_rate` tics a second.
    pub fn new(solid: Vec<[Vec3; 3]>, body: Body, tic_rate: f64) -> MeshWalker {
        let radius = body.radius.max(1e-6);
        MeshWalker {
            grid: TriangleGrid::new(solid, 2.0 * radius),
            body: Body { radius, ..body },
            dt: 1.0 / tic_rate.max(1.0),
            feet: DVec3::ZERO,
            rise: 0.0,
            grounded: false,
            depth: 0.0,
            tol: radius * 1e-4,
        }
    }

    /// A body among the triangles of `scene` for which `solid` (given the triangle's number
    /// and its three corners) says yes, at the scene's game's tic rate.
    pub fn from_scene(
        scene: &Scene,
        body: Body,
        solid: impl Fn(usize, &[WorldVertex]) -> bool,
    ) -> MeshWalker {
        let triangles = scene
            .world
            .chunks_exact(3)
            .enumerate()
            .filter(|(i, t)| solid(*i, t))
            .map(|(_, t)| [0, 1, 2].map(|k| Vec3::from(t[k].pos)))
            .collect();
        MeshWalker::new(triangles, body, scene.game.tic_rate())
    }

    /// The solid triangles it walks among.
    pub fn triangle_count(&self) -> usize {
        self.grid.len()
    }

    fn near(&self, p: DVec2, f: impl FnMut(&[DVec3; 3])) {
        let reach = DVec2::splat(self.body.radius * 1.01 + self.tol);
        self.grid.near(p - reach, p + reach, f);
    }

    /// How far the body's side reaches into the walls with its feet at `feet`, and which way
    /// out (on the floor plane; zero where no way is known).
    fn walls(&self, feet: DVec3) -> (f64, DVec2) {
        let p = DVec2::new(feet.x, feet.z);
        let (lo, hi) = (feet.y + self.body.step + self.tol, feet.y + self.body.height);
        let mut deepest = (0.0, DVec2::ZERO);
        self.near(p, |t| {
            let Some((distance, away)) = side_reach(t, p, lo, hi) else { return };
            let depth = self.body.radius - distance;
            if depth > deepest.0 {
                deepest = (depth, away);
            }
        });
        deepest
    }

    /// The highest floor under the body's foot at `p` no higher than `top`.
    fn ground(&self, p: DVec2, top: f64) -> Option<f64> {
        let mut best: Option<f64> = None;
        self.near(p, |t| {
            if let Some(y) = highest_under_disk(t, p, self.body.radius, top) {
                best = Some(best.map_or(y, |b| b.max(y)));
            }
        });
        best
    }

    /// Where the body would stand after moving to `p`, or which way out of what blocks it.
    fn spot(&self, p: DVec2) -> Result<Spot, DVec2> {
        // Never deeper than it already is (a touch of slack for contact found by halving).
        let allowed = self.depth.max(self.tol);
        let here = DVec3::new(p.x, self.feet.y, p.y);
        let (depth, away) = self.walls(here);
        if depth > allowed {
            return Err(away);
        }
        let stay = Spot { feet: here, grounded: false, depth };
        if !self.grounded {
            return Ok(stay);
        }
        // (The tolerance lets a step of the exact height count when stored in single floats.)
        let top = self.feet.y + self.body.step + self.tol;
        let Some(floor) = self.ground(p, top) else {
            // Nothing below at all: the edge of the level holds it in.
            return Err(DVec2::ZERO);
        };
        if floor < self.feet.y - self.body.step {
            // Off a ledge: it falls from here.
            return Ok(stay);
        }
        let feet = DVec3::new(p.x, floor, p.y);
        let (depth, away) = if floor == self.feet.y { (depth, away) } else { self.walls(feet) };
        if depth > allowed {
            // No room for the head where it would step up or down to.
            return Err(away);
        }
        Ok(Spot { feet, grounded: true, depth })
    }

    fn go(&mut self, spot: Spot) {
        self.feet = spot.feet;
        self.grounded = spot.grounded;
        self.depth = spot.depth;
    }

    /// A move short enough not to pass through anything; when blocked, up to what blocks,
    /// then along it with what is left.
    fn move_piece(&mut self, step: DVec2) {
        let mut left = step;
        for _ in 0..SLIDES {
            if left.length() <= self.tol {
                return;
            }
            let start = DVec2::new(self.feet.x, self.feet.z);
            let away = match self.spot(start + left) {
                Ok(spot) => return self.go(spot),
                Err(away) => away,
            };
            let (mut ok, mut bad) = (0.0, 1.0);
            let mut contact = away;
            for _ in 0..CONTACT_STEPS {
                let mid = (ok + bad) / 2.0;
                match self.spot(start + left * mid) {
                    Ok(_) => ok = mid,
                    Err(a) => {
                        bad = mid;
                        contact = a;
                    }
                }
            }
            if ok > 0.0 {
                if let Ok(spot) = self.spot(start + left * ok) {
                    self.go(spot);
                }
            }
            let rest = left * (1.0 - ok);
            let normal = contact.normalize_or_zero();
            if normal == DVec2::ZERO {
                return;
            }
            left = rest - normal * rest.dot(normal).min(0.0);
        }
    }

    /// Gravity: falls while nothing is under the feet, lands on the first floor met.
    fn fall(&mut self) {
        if self.grounded {
            return;
        }
        let p = DVec2::new(self.feet.x, self.feet.z);
        let Some(floor) = self.ground(p, self.feet.y + self.tol) else {
            // Nothing below at all (outside the level): it stays where it is.
            self.rise = 0.0;
            return;
        };
        self.rise -= self.body.gravity * self.dt;
        let next = self.feet.y + self.rise * self.dt;
        if next <= floor {
            self.feet.y = floor;
            self.rise = 0.0;
            self.grounded = true;
        } else {
            self.feet.y = next;
        }
    }
}

impl Walker for MeshWalker {
    fn place(&mut self, at: [f64; 3]) {
        let p = DVec2::new(at[0], at[2]);
        self.rise = 0.0;
        match self.ground(p, at[1]) {
            Some(floor) => {
                self.feet = DVec3::new(p.x, floor, p.y);
                self.grounded = true;
            }
            None => {
                // No floor under the point: the eye stays where it was.
                self.feet = DVec3::new(p.x, at[1] - self.body.eye, p.y);
                self.grounded = false;
            }
        }
        self.depth = self.walls(self.feet).0;
    }

    fn tic(&mut self, wish: [f64; 2]) {
        let wish = DVec2::from(wish);
        if wish.is_finite() && wish.length() > self.tol {
            let pieces = (wish.length() / (self.body.radius / 2.0)).ceil().clamp(1.0, 64.0);
            for _ in 0..pieces as u32 {
                self.move_piece(wish / pieces);
            }
        }
        self.fall();
    }

    fn feet(&self) -> [f64; 3] {
        self.feet.to_array()
    }

    fn eye(&self) -> [f64; 3] {
        (self.feet + DVec3::Y * self.body.eye).to_array()
    }

    fn speed(&self) -> f64 {
        self.body.speed * self.dt
    }

    fn has_floor(&self) -> bool {
        self.grounded || self.ground(DVec2::new(self.feet.x, self.feet.z), self.feet.y).is_some()
    }
}

/// A convex polygon of at most five corners: a triangle clipped by two planes.
#[derive(Clone, Copy, Debug)]
struct Poly {
    corners: [DVec3; 5],
    len: usize,
}

impl Poly {
    fn of(t: &[DVec3; 3]) -> Poly {
        Poly { corners: [t[0], t[1], t[2], DVec3::ZERO, DVec3::ZERO], len: 3 }
    }

    fn corners(&self) -> &[DVec3] {
        &self.corners[..self.len]
    }

    /// The part where `inside` (a signed height above a level plane) is not negative.
    fn clip(&self, inside: impl Fn(DVec3) -> f64) -> Poly {
        let mut out = Poly { corners: [DVec3::ZERO; 5], len: 0 };
        let mut push = |p: DVec3| {
            if out.len < out.corners.len() {
                out.corners[out.len] = p;
                out.len += 1;
            }
        };
        let c = self.corners();
        for (i, &a) in c.iter().enumerate() {
            let b = c[(i + 1) % c.len()];
            let (da, db) = (inside(a), inside(b));
            if da >= 0.0 {
                push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                push(a + (b - a) * (da / (da - db)));
            }
        }
        out
    }

    /// Corners on the floor plane (x, z).
    fn flat(&self) -> impl Iterator<Item = DVec2> + '_ {
        self.corners().iter().map(|p| DVec2::new(p.x, p.z))
    }

    /// Whether `p` lies inside the polygon seen from above (never for one seen edge-on).
    fn covers(&self, p: DVec2) -> bool {
        if self.len < 3 {
            return false;
        }
        let c: Vec<DVec2> = self.flat().collect();
        let area: f64 = (0..c.len()).map(|i| c[i].perp_dot(c[(i + 1) % c.len()])).sum();
        let scale = c.iter().map(|q| (*q - c[0]).length_squared()).fold(0.0, f64::max);
        if area.abs() <= scale * 1e-9 {
            return false;
        }
        (0..c.len()).all(|i| {
            let (a, b) = (c[i], c[(i + 1) % c.len()]);
            (b - a).perp_dot(p - a) * area.signum() >= -1e-9 * scale
        })
    }
}

/// How near the part of triangle `t` between heights lo and hi comes to `p` on the floor
/// plane, and the way from it to `p` (zero when unknown); `None` when no part is there.
fn side_reach(t: &[DVec3; 3], p: DVec2, lo: f64, hi: f64) -> Option<(f64, DVec2)> {
    let slab = Poly::of(t).clip(|q| q.y - lo).clip(|q| hi - q.y);
    if slab.len == 0 {
        return None;
    }
    if slab.covers(p) {
        // Over or under it: the way out is its slope's, else unknown.
        let n = (t[1] - t[0]).cross(t[2] - t[0]);
        let mut away = DVec2::new(n.x, n.z);
        let middle = slab.flat().sum::<DVec2>() / slab.len as f64;
        if away.dot(p - middle) < 0.0 {
            away = -away;
        }
        return Some((0.0, away));
    }
    let c: Vec<DVec2> = slab.flat().collect();
    let mut best = (f64::INFINITY, DVec2::ZERO);
    for i in 0..c.len() {
        let q = closest_on_segment(c[i], c[(i + 1) % c.len()], p);
        let d = p.distance(q);
        if d < best.0 {
            best = (d, p - q);
        }
    }
    Some(best)
}

fn closest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// The highest point of triangle `t` over the disk of `radius` round `p` (floor plane) that
/// is no higher than `top`; walls (triangles seen edge-on from above) hold nothing up.
fn highest_under_disk(t: &[DVec3; 3], p: DVec2, radius: f64, top: f64) -> Option<f64> {
    let n = (t[1] - t[0]).cross(t[2] - t[0]);
    if n.y.abs() <= n.length() * 1e-3 {
        return None;
    }
    let below = Poly::of(t).clip(|q| top - q.y);
    if below.len == 0 {
        return None;
    }
    // The plane's height over the floor plane, and which way it climbs fastest.
    let height = |q: DVec2| t[0].y - (n.x * (q.x - t[0].x) + n.z * (q.y - t[0].z)) / n.y;
    let climb = DVec2::new(-n.x / n.y, -n.z / n.y);
    let r2 = radius * radius;
    let mut best: Option<f64> = None;
    let mut take = |y: f64| best = Some(best.map_or(y, |b: f64| b.max(y)));
    // A linear height over the convex meeting of polygon and disk peaks at one of: a corner
    // inside the disk, an edge crossing the circle, the disk's uphill edge, or (flat) its
    // middle.
    for q in below.corners() {
        if DVec2::new(q.x, q.z).distance_squared(p) <= r2 {
            take(q.y);
        }
    }
    let c: Vec<DVec2> = below.flat().collect();
    for i in 0..c.len() {
        for q in circle_crossings(c[i], c[(i + 1) % c.len()], p, radius) {
            take(height(q));
        }
    }
    let uphill = p + climb.normalize_or_zero() * radius;
    for q in [uphill, p] {
        if below.covers(q) {
            take(height(q));
        }
    }
    best.map(|y| y.min(top))
}

/// Where segment a-b crosses the circle of `radius` round `p`.
fn circle_crossings(a: DVec2, b: DVec2, p: DVec2, radius: f64) -> impl Iterator<Item = DVec2> {
    let d = b - a;
    let f = a - p;
    let (qa, qb, qc) = (d.dot(d), 2.0 * f.dot(d), f.dot(f) - radius * radius);
    let disc = qb * qb - 4.0 * qa * qc;
    let roots = if qa == 0.0 || disc < 0.0 {
        [None, None]
    } else {
        let s = disc.sqrt();
        [Some((-qb - s) / (2.0 * qa)), Some((-qb + s) / (2.0 * qa))]
    };
    roots.into_iter().flatten().filter(|t| (0.0..=1.0).contains(t)).map(move |t| a + d * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quake's numbers, in a level in viewer space.
    const QUAKE: Body =
        Body { radius: 16.0, height: 56.0, step: 18.0, eye: 46.0, gravity: 800.0, speed: 320.0 };

    /// A floor quad over x0..x1, z0..z1 at height y (two triangles).
    fn floor(x0: f32, x1: f32, z0: f32, z1: f32, y: f32) -> Vec<[Vec3; 3]> {
        let (a, b, c, d) = (
            Vec3::new(x0, y, z0),
            Vec3::new(x1, y, z0),
            Vec3::new(x1, y, z1),
            Vec3::new(x0, y, z1),
        );
        vec![[a, b, c], [a, c, d]]
    }

    /// A wall across x = x from z0 to z1, y0 to y1.
    fn wall_x(x: f32, z0: f32, z1: f32, y0: f32, y1: f32) -> Vec<[Vec3; 3]> {
        let (a, b, c, d) = (
            Vec3::new(x, y0, z0),
            Vec3::new(x, y0, z1),
            Vec3::new(x, y1, z1),
            Vec3::new(x, y1, z0),
        );
        vec![[a, b, c], [a, c, d]]
    }

    /// A box of height h standing on the floor over x0..x1 (its top and its face to -x).
    fn ledge(x0: f32, x1: f32, h: f32) -> Vec<[Vec3; 3]> {
        let mut t = floor(x0, x1, -500.0, 500.0, h);
        t.extend(wall_x(x0, -500.0, 500.0, 0.0, h));
        t
    }

    fn walk(w: &mut MeshWalker, wish: [f64; 2], tics: u32) {
        for _ in 0..tics {
            w.tic(wish);
        }
    }

    #[test]
    fn stops_its_radius_from_a_wall_and_slides_along_it() {
        let mut level = floor(-500.0, 500.0, -500.0, 500.0, 0.0);
        level.extend(wall_x(100.0, -500.0, 500.0, 0.0, 200.0));
        let mut w = MeshWalker::new(level, QUAKE, 30.0);
        w.place([0.0, 40.0, 0.0]);
        assert_eq!(w.feet(), [0.0, 0.0, 0.0]);
        walk(&mut w, [10.0, 0.0], 30);
        assert!((w.feet()[0] - 84.0).abs() < 0.01, "{:?}", w.feet());
        // Heading into the wall at an angle: it keeps the wall's share of the move.
        walk(&mut w, [10.0, 10.0], 3);
        assert!((w.feet()[0] - 84.0).abs() < 0.01 && (w.feet()[2] - 30.0).abs() < 0.01);
    }

    #[test]
    fn climbs_a_step_of_its_step_height_but_not_a_higher_one() {
        for (h, climbs) in [(18.0, true), (19.0, false)] {
            let mut level = floor(-500.0, 500.0, -500.0, 500.0, 0.0);
            level.extend(ledge(100.0, 300.0, h));
            let mut w = MeshWalker::new(level, QUAKE, 30.0);
            w.place([0.0, 40.0, 0.0]);
            walk(&mut w, [10.0, 0.0], 20);
            let feet = w.feet();
            if climbs {
                assert_eq!(feet[1], h as f64);
                assert!(feet[0] > 150.0);
            } else {
                assert_eq!(feet[1], 0.0);
                assert!((feet[0] - 84.0).abs() < 0.01, "{feet:?}");
            }
        }
    }

    #[test]
    fn falls_off_a_ledge_by_gravity_and_lands_on_the_floor_below() {
        let mut level = floor(-500.0, 500.0, -500.0, 500.0, 0.0);
        level.extend(ledge(-500.0, 0.0, 100.0));
        let mut w = MeshWalker::new(level, QUAKE, 30.0);
        w.place([-50.0, 200.0, 0.0]);
        assert_eq!(w.feet()[1], 100.0);
        // Still on the ledge while any of its foot is over it.
        walk(&mut w, [10.0, 0.0], 6);
        assert_eq!(w.feet(), [10.0, 100.0, 0.0]);
        w.tic([7.0, 0.0]);
        // Over the drop: one tic of gravity, 800 / 30 / 30 units down.
        assert!((w.feet()[1] - (100.0 - 800.0 / 900.0)).abs() < 1e-9, "{:?}", w.feet());
        walk(&mut w, [0.0, 0.0], 30);
        assert_eq!(w.feet()[1], 0.0);
        assert_eq!(w.eye()[1], 46.0);
    }

    #[test]
    fn stays_on_the_level_at_its_edge() {
        let mut w = MeshWalker::new(floor(-100.0, 100.0, -100.0, 100.0, 0.0), QUAKE, 30.0);
        w.place([0.0, 40.0, 0.0]);
        walk(&mut w, [10.0, 0.0], 30);
        // Its foot still touches the floor; a step further would leave nothing under it.
        assert!((w.feet()[0] - 116.0).abs() < 0.01 && w.feet()[1] == 0.0, "{:?}", w.feet());
    }

    #[test]
    fn walks_down_stairs_and_stays_under_a_low_ceiling() {
        let mut level = floor(-500.0, 500.0, -500.0, 500.0, 0.0);
        level.extend(ledge(-500.0, 0.0, 16.0));
        // A ceiling 50 over the floor from x = 200 on: too low for a body 56 tall.
        level.extend(floor(200.0, 500.0, -500.0, 500.0, 50.0));
        let mut w = MeshWalker::new(level, QUAKE, 30.0);
        w.place([-50.0, 60.0, 0.0]);
        walk(&mut w, [10.0, 0.0], 10);
        assert_eq!(w.feet()[1], 0.0);
        walk(&mut w, [10.0, 0.0], 30);
        assert!((w.feet()[0] - 184.0).abs() < 0.01, "{:?}", w.feet());
    }

    #[test]
    fn a_floor_piece_reaches_its_highest_point_under_the_disk() {
        // A ramp rising 1 in 2 along x.
        let ramp = [
            DVec3::new(0.0, 0.0, -100.0),
            DVec3::new(200.0, 100.0, -100.0),
            DVec3::new(0.0, 0.0, 100.0),
        ];
        let y = highest_under_disk(&ramp, DVec2::new(50.0, 0.0), 10.0, 1000.0).unwrap();
        assert!((y - 30.0).abs() < 1e-9, "{y}");
        // Held to the top given.
        let y = highest_under_disk(&ramp, DVec2::new(50.0, 0.0), 10.0, 26.0).unwrap();
        assert!((y - 26.0).abs() < 1e-9, "{y}");
        // A wall holds nothing up.
        let wall = [DVec3::ZERO, DVec3::new(0.0, 100.0, 0.0), DVec3::new(0.0, 0.0, 100.0)];
        assert_eq!(highest_under_disk(&wall, DVec2::new(1.0, 1.0), 10.0, 1000.0), None);
    }

    #[test]
    fn a_body_placed_in_a_wall_can_walk_out_but_not_further_in() {
        let mut level = floor(-500.0, 500.0, -500.0, 500.0, 0.0);
        level.extend(wall_x(100.0, -500.0, 500.0, 0.0, 200.0));
        let mut w = MeshWalker::new(level, QUAKE, 30.0);
        w.place([90.0, 40.0, 0.0]);
        w.tic([5.0, 0.0]);
        assert!((w.feet()[0] - 90.0).abs() < 0.01, "{:?}", w.feet());
        w.tic([-5.0, 0.0]);
        assert_eq!(w.feet()[0], 85.0);
    }
}
