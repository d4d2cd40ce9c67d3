//! The camera tour `mapscope bench` renders: deterministic for a level, the same in every
//! format, and walked the way a player looks around a level.
//!
//! - Eye height: the spawn camera's height above the floor beneath it (the highest upward
//!   facing world triangle under the spawn; none found: a standing person's, 1.6 m in the
//!   game's units).
//! - Waypoints: the spawn, then up to [`MAX_WAYPOINTS`] - 1 things, each the nearest not
//!   yet visited to the previous waypoint (ties: the first in the scene), raised to eye
//!   height above the thing's origin. Things are the scene's sprites, and where it has
//!   fewer than that its markers too: the objects a format records without a picture to
//!   draw (Marathon's objects without their Shapes, Saturn Quake's entities, Carmageddon 2's
//!   lights and cameras, Doom's player starts), and where it still has fewer, the objects it
//!   draws as world triangles (Carmageddon 2's model actors: the middle of each one's box at
//!   its lowest point).
//! - The camera moves along the polyline through the waypoints at constant speed, one
//!   frame's worth of the whole length per frame, level (pitch 0, or the pitch `bench
//!   --pitch` gives, as a player looking up or down with the mouse), looking along the
//!   segment it is on. A level with no things (or all at the spawn) is toured by turning
//!   once round at the spawn instead.

use glam::DVec3;

use crate::scene::{vertex_flags, CameraPose, Scene, SurfaceKind};

/// Waypoints of a tour, the spawn included.
pub const MAX_WAYPOINTS: usize = 16;

/// A tour of a level: the camera of each frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    pub waypoints: Vec<DVec3>,
    spin_from: CameraPose,
    /// Every frame's pitch (radians, positive looks up).
    pitch: f64,
}

impl Tour {
    pub fn new(scene: &Scene) -> Tour {
        let spawn = scene.spawn;
        let eye = eye_height(scene, spawn.pos);
        let mut waypoints = vec![spawn.pos];
        let mut things: Vec<DVec3> = scene.sprites.iter().map(|s| s.pos.as_dvec3()).collect();
        if things.len() < MAX_WAYPOINTS - 1 {
            things.extend(scene.markers.iter().map(|m| m.pos.as_dvec3()));
        }
        if things.len() < MAX_WAYPOINTS - 1 && scene.parts.placed_objects {
            things.extend(object_feet(scene));
        }
        let mut left: Vec<DVec3> = things.into_iter().map(|p| p + DVec3::Y * eye).collect();
        while waypoints.len() < MAX_WAYPOINTS && !left.is_empty() {
            let from = *waypoints.last().unwrap_or(&spawn.pos);
            let mut best = 0;
            for (i, p) in left.iter().enumerate() {
                if p.distance_squared(from) < left[best].distance_squared(from) {
                    best = i;
                }
            }
            let next = left.remove(best);
            if next.distance(from) > 1e-6 {
                waypoints.push(next);
            }
        }
        Tour { waypoints, spin_from: spawn, pitch: 0.0 }
    }

    /// Every frame's pitch (radians).
    pub fn pitch(&self) -> f64 {
        self.pitch
    }

    /// The same tour looking up (`pitch` radians, positive) or down.
    pub fn pitched(self, pitch: f64) -> Tour {
        Tour { pitch, ..self }
    }

    /// Length of the walk (0: the tour turns at the spawn).
    pub fn length(&self) -> f64 {
        self.waypoints.windows(2).fold(0.0, |sum, w| sum + w[0].distance(w[1]))
    }

    /// The camera of frame `i` of `frames`.
    pub fn camera(&self, i: usize, frames: usize) -> CameraPose {
        let t = i as f64 / frames.max(1) as f64;
        let length = self.length();
        if length < 1e-6 {
            let yaw = self.spin_from.yaw + t * std::f64::consts::TAU;
            return CameraPose { yaw, pitch: self.pitch, ..self.spin_from };
        }
        let mut along = t * length;
        for w in self.waypoints.windows(2) {
            let d = w[0].distance(w[1]);
            if along <= d || std::ptr::eq(w, self.waypoints.windows(2).last().unwrap_or(w)) {
                let pos = w[0] + (w[1] - w[0]) * (along / d).min(1.0);
                let dir = w[1] - w[0];
                let yaw = if dir.x.abs() + dir.z.abs() > 1e-9 {
                    (-dir.z).atan2(dir.x)
                } else {
                    self.spin_from.yaw
                };
                return CameraPose { pos, yaw, pitch: self.pitch };
            }
            along -= d;
        }
        CameraPose { pitch: self.pitch, ..self.spin_from }
    }
}

/// Where each placed object of `scene` stands: the middle of its triangles' box across, its
/// lowest point in height, as a thing's origin is its feet.
fn object_feet(scene: &Scene) -> Vec<DVec3> {
    let mut boxes = vec![(DVec3::INFINITY, DVec3::NEG_INFINITY); scene.parts.names.len()];
    for (t, &part) in scene.world.chunks_exact(3).zip(&scene.parts.of_triangle) {
        let Some((lo, hi)) = boxes.get_mut(part as usize) else { continue };
        for v in t {
            let p = DVec3::from(v.pos.map(f64::from));
            (*lo, *hi) = (lo.min(p), hi.max(p));
        }
    }
    boxes
        .into_iter()
        .filter(|(lo, hi)| lo.x <= hi.x)
        .map(|(lo, hi)| DVec3::new((lo.x + hi.x) / 2.0, lo.y, (lo.z + hi.z) / 2.0))
        .collect()
}

/// Height of `pos` above the highest upward-facing floor triangle under it, 0 if none.
pub fn eye_height(scene: &Scene, pos: DVec3) -> f64 {
    let mut best: Option<f64> = None;
    for t in scene.world.chunks_exact(3) {
        if t[0].flags & vertex_flags::KIND_MASK != SurfaceKind::Flat as u32 {
            continue;
        }
        let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(|p| DVec3::from(p.map(f64::from)));
        let n = (b - a).cross(c - a);
        if n.y.abs() < 1e-9 {
            continue;
        }
        // Barycentric test in the horizontal plane, either winding.
        let area =
            |p: DVec3, q: DVec3, r: DVec3| (q.x - p.x) * (r.z - p.z) - (q.z - p.z) * (r.x - p.x);
        let (w0, w1, w2) = (area(b, c, pos), area(c, a, pos), area(a, b, pos));
        let inside = (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) || (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
        if !inside {
            continue;
        }
        // The plane's height at pos.
        let y = a.y - (n.x * (pos.x - a.x) + n.z * (pos.z - a.z)) / n.y;
        if y <= pos.y + 1e-6 && best.is_none_or(|b| y > b) {
            best = Some(y);
        }
    }
    // A camera over no floor (Carmageddon 2's, which looks at the whole track from outside
    // it) says nothing of a player's eye: the tour takes a standing person's, where at 0 it
    // would skim along the ground with every triangle edge-on.
    best.map_or(STANDING_EYE_METRES * scene.game.units_per_metre(), |y| pos.y - y)
}

/// A standing person's eye height, for a tour whose spawn is over no floor.
const STANDING_EYE_METRES: f64 = 1.6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walk_visits_the_waypoints_in_order_at_constant_speed() {
        let tour = Tour {
            waypoints: vec![
                DVec3::ZERO,
                DVec3::new(100.0, 0.0, 0.0),
                DVec3::new(100.0, 0.0, -100.0),
            ],
            spin_from: CameraPose { pos: DVec3::ZERO, yaw: 0.0, pitch: 0.0 },
            pitch: 0.0,
        };
        assert_eq!(tour.length(), 200.0);
        let c = tour.camera(1, 4);
        assert!((c.pos - DVec3::new(50.0, 0.0, 0.0)).length() < 1e-9);
        assert!(c.yaw.abs() < 1e-9);
        let c = tour.camera(3, 4);
        assert!((c.pos - DVec3::new(100.0, 0.0, -50.0)).length() < 1e-9);
        // Along -Z is yaw 90 degrees.
        assert!((c.yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-9);
    }

    #[test]
    fn no_things_turns_once_round_at_the_spawn() {
        let spawn = CameraPose { pos: DVec3::new(1.0, 2.0, 3.0), yaw: 0.5, pitch: 0.2 };
        let tour = Tour { waypoints: vec![spawn.pos], spin_from: spawn, pitch: 0.0 };
        let c = tour.camera(2, 4);
        assert_eq!(c.pos, spawn.pos);
        assert!((c.yaw - (0.5 + std::f64::consts::PI)).abs() < 1e-9);
        assert_eq!(c.pitch, 0.0);
        // Pitched, every frame looks up by the same angle.
        let c = tour.pitched(0.25).camera(2, 4);
        assert_eq!((c.pos, c.pitch), (spawn.pos, 0.25));
    }
}
