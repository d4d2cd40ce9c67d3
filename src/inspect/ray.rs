//! The ray through a pixel's centre, as the renderer projects (`render::projection`), and
//! everything of a scene it meets: world triangles facing it (the renderer culls back faces)
//! and sprites' camera-facing quads (as `soft::billboards` and `vs_sprite` stand them).

use glam::{DMat4, DVec3, Vec3};

use crate::render::{projection, RenderMode, ViewSettings};
use crate::scene::{vertex_flags, CameraPose, FrameState, Scene, SurfaceKind};

/// A ray from the eye through one pixel centre, in viewer space.
#[derive(Clone, Copy, Debug)]
pub struct Ray {
    pub origin: DVec3,
    /// Unit direction.
    pub dir: DVec3,
    /// The camera's view axis: depths are measured along it.
    pub forward: DVec3,
}

impl Ray {
    /// The ray through the centre of pixel (x, y) of a frame drawn as `view` says.
    pub fn through_pixel(camera: &CameraPose, view: &ViewSettings, x: f64, y: f64) -> Ray {
        let faithful = view.mode == RenderMode::Faithful;
        let p = projection(view.width.max(1), view.height.max(1), view.focal(), faithful);
        let in_view = DVec3::new((x - p.cx) / p.focal, -(y - p.cy) / p.focal, -1.0);
        let to_world = DMat4::look_to_rh(camera.pos, camera.forward(), DVec3::Y).inverse();
        let dir = to_world.transform_vector3(in_view).normalize();
        Ray { origin: camera.pos, dir, forward: camera.forward() }
    }

    /// Distance of `p` from the eye along the view axis (what the canvas's depths hold).
    pub fn depth_of(&self, p: DVec3) -> f64 {
        (p - self.origin).dot(self.forward)
    }
}

/// What a ray met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// World triangle `i` (vertices 3i..3i+3).
    Triangle(usize),
    /// Sprite `i` of the scene.
    Sprite(usize),
}

/// One meeting of the ray with a surface.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub target: Target,
    /// Distance from the eye along the ray.
    pub distance: f64,
    pub point: DVec3,
    /// Unit normal towards the eye (viewer space).
    pub normal: DVec3,
}

impl Hit {
    pub fn kind(&self, scene: &Scene) -> Option<SurfaceKind> {
        let Target::Triangle(t) = self.target else { return None };
        let flags = scene.world[t * 3].flags & vertex_flags::KIND_MASK;
        Some(match flags {
            0 => SurfaceKind::Wall,
            1 => SurfaceKind::Flat,
            _ => SurfaceKind::Sky,
        })
    }

    pub fn translucent(&self, scene: &Scene) -> bool {
        matches!(self.target, Target::Triangle(t) if scene.world[t * 3].flags & vertex_flags::TRANSLUCENT != 0)
    }
}

/// Every surface `ray` meets, nearest first: front-facing world triangles, and the sprites'
/// quads when `sprites` (their transparent texels included: the canvas's depth tells what was
/// drawn).
pub fn hits(scene: &Scene, state: &FrameState, ray: &Ray, sprites: bool) -> Vec<Hit> {
    let mut out = Vec::new();
    for (i, t) in scene.world.chunks_exact(3).enumerate() {
        let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(|p| Vec3::from(p).as_dvec3());
        if let Some((distance, normal)) = triangle_hit(ray, a, b, c) {
            let point = ray.origin + ray.dir * distance;
            out.push(Hit { target: Target::Triangle(i), distance, point, normal });
        }
    }
    if sprites {
        for (i, s) in scene.sprites.iter().enumerate() {
            if let Some(distance) = sprite_hit(scene, state, ray, i) {
                let point = ray.origin + ray.dir * distance;
                let normal = -horizontal(ray.forward);
                out.push(Hit { target: Target::Sprite(i), distance, point, normal });
            }
            let _ = s;
        }
    }
    out.sort_by(|a, b| a.distance.total_cmp(&b.distance));
    out
}

/// How far the ray runs before any world triangle, whichever way it faces (what stands
/// between two points).
pub fn nearest_either_side(scene: &Scene, ray: &Ray) -> Option<f64> {
    let flipped = Ray { dir: ray.dir, ..*ray };
    scene
        .world
        .chunks_exact(3)
        .filter_map(|t| {
            let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(|p| Vec3::from(p).as_dvec3());
            triangle_hit(&flipped, a, b, c).or_else(|| triangle_hit(&flipped, a, c, b)).map(|h| h.0)
        })
        .min_by(f64::total_cmp)
}

/// Möller-Trumbore against the triangle's front face (counter-clockwise seen from the front).
fn triangle_hit(ray: &Ray, a: DVec3, b: DVec3, c: DVec3) -> Option<(f64, DVec3)> {
    let (e1, e2) = (b - a, c - a);
    let n = e1.cross(e2);
    if n.dot(ray.dir) >= 0.0 {
        return None;
    }
    let p = ray.dir.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = ray.origin - a;
    let u = s.dot(p) * inv;
    if !(-1e-9..=1.0 + 1e-9).contains(&u) {
        return None;
    }
    let q = s.cross(e1);
    let v = ray.dir.dot(q) * inv;
    if v < -1e-9 || u + v > 1.0 + 1e-9 {
        return None;
    }
    let t = e2.dot(q) * inv;
    (t > 1e-6).then(|| (t, n.normalize()))
}

fn horizontal(v: DVec3) -> DVec3 {
    let h = DVec3::new(v.x, 0.0, v.z);
    if h.length_squared() > 1e-12 {
        h.normalize()
    } else {
        DVec3::X
    }
}

/// Where the ray meets sprite `i`'s quad: upright, across the camera's right, its texture's
/// origin at the sprite's position, as the canvas and `vs_sprite` stand it.
fn sprite_hit(scene: &Scene, state: &FrameState, ray: &Ray, i: usize) -> Option<f64> {
    let s = &scene.sprites[i];
    let view = s.views.first()?;
    let shown = state.texture_remap.get(view.texture as usize).copied().unwrap_or(view.texture);
    let tex = scene.textures.get(shown as usize)?;
    let pos = s.pos.as_dvec3();
    let facing = horizontal(ray.forward);
    let right = DVec3::new(-facing.z, 0.0, facing.x);
    let denom = ray.dir.dot(facing);
    if denom.abs() < 1e-12 {
        return None;
    }
    let t = (pos - ray.origin).dot(facing) / denom;
    if t <= 1e-6 {
        return None;
    }
    let p = ray.origin + ray.dir * t;
    let across = (p - pos).dot(right) / s.scale[0].max(1e-6) as f64 + tex.origin.0 as f64;
    let up = tex.origin.1 as f64 - (p.y - pos.y) / s.scale[1].max(1e-6) as f64;
    let inside =
        (0.0..=tex.width as f64).contains(&across) && (0.0..=tex.height as f64).contains(&up);
    inside.then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ray(origin: DVec3, dir: DVec3) -> Ray {
        Ray { origin, dir: dir.normalize(), forward: dir.normalize() }
    }

    #[test]
    fn a_triangle_is_met_from_its_front_only() {
        // Counter-clockwise seen from +z.
        let (a, b, c) =
            (DVec3::new(-1.0, -1.0, 0.0), DVec3::new(1.0, -1.0, 0.0), DVec3::new(0.0, 1.0, 0.0));
        let front = ray(DVec3::new(0.0, 0.0, 5.0), DVec3::new(0.0, 0.0, -1.0));
        let (t, n) = triangle_hit(&front, a, b, c).unwrap();
        assert!((t - 5.0).abs() < 1e-9);
        assert!((n - DVec3::Z).length() < 1e-9);
        let back = ray(DVec3::new(0.0, 0.0, -5.0), DVec3::new(0.0, 0.0, 1.0));
        assert!(triangle_hit(&back, a, b, c).is_none());
        let beside = ray(DVec3::new(3.0, 0.0, 5.0), DVec3::new(0.0, 0.0, -1.0));
        assert!(triangle_hit(&beside, a, b, c).is_none());
    }

    #[test]
    fn the_centre_ray_runs_along_the_view_axis() {
        let camera = CameraPose { pos: DVec3::new(1.0, 2.0, 3.0), yaw: 0.7, pitch: 0.2 };
        let view = ViewSettings {
            width: 320,
            height: 200,
            mode: RenderMode::Smooth,
            ..Default::default()
        };
        let r = Ray::through_pixel(&camera, &view, 160.0, 100.0);
        assert!((r.dir - camera.forward()).length() < 1e-9);
        // A pixel to the right turns the ray to the camera's right.
        let right = Ray::through_pixel(&camera, &view, 300.0, 100.0);
        assert!(right.dir.dot(camera.right()) > 0.5);
    }
}
