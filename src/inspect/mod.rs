//! What one pixel of a frame shows, in the game's own records: `mapscope pick` and the
//! viewer's inspector.
//!
//! The answer is the surface that was drawn there. The frame is drawn on the CPU canvas
//! (faithful Doom frames by vanilla's column and span renderer), which keeps each pixel's
//! depth; the ray through the pixel's centre meets some surfaces (`ray`), and the one whose
//! depth is the pixel's is the one drawn. So a pixel on the edge of a wall tells the wall
//! vanilla drew there even where the exact ray passes just above it, a masked texture's
//! holes tell what shows through them, and a sprite's transparent texels are not it. Where a
//! frame was drawn by the GPU's passes (no canvas depth), the nearest surface is taken.

pub mod go;
pub mod ray;

use glam::DVec3;
use serde_json::{json, Map, Value};

use crate::render::{SceneRenderer, ViewSettings};
use crate::scene::{CameraPose, Fact, Facts, FrameState, Scene, SurfaceHit, SurfaceKind};
use ray::{Hit, Ray, Target};

/// What a pixel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickKind {
    Wall,
    Floor,
    Ceiling,
    Sky,
    Thing,
    None,
}

impl PickKind {
    pub fn name(self) -> &'static str {
        match self {
            PickKind::Wall => "wall",
            PickKind::Floor => "floor",
            PickKind::Ceiling => "ceiling",
            PickKind::Sky => "sky",
            PickKind::Thing => "thing",
            PickKind::None => "none",
        }
    }
}

/// How the drawn surface was told from the others the ray met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    /// The canvas's depth at the pixel matched this surface's.
    CanvasDepth,
    /// No canvas depth (a GPU frame): the nearest surface.
    Nearest,
}

/// The answer for one pixel.
#[derive(Clone, Debug)]
pub struct Pick {
    pub pixel: [u32; 2],
    pub kind: PickKind,
    /// Where the ray met it, native coordinates.
    pub point: Option<[f64; 3]>,
    /// From the eye, in native units.
    pub distance: Option<f64>,
    /// The texture drawn (after animation), where it is a surface or a sprite.
    pub texture: Option<String>,
    /// The scene's part it belongs to ("sector 12", "polygon 3"), and the game's records.
    pub facts: Facts,
    pub evidence: Evidence,
}

/// A pick is taken at most this far (relatively) from the canvas's depth.
const DEPTH_TOLERANCE: f64 = 0.03;

/// What pixel (x, y) of the frame `renderer` last drew of `scene` from `camera` shows.
pub fn pick(
    scene: &Scene,
    state: &FrameState,
    renderer: &SceneRenderer,
    camera: &CameraPose,
    view: &ViewSettings,
    [x, y]: [u32; 2],
) -> Pick {
    let ray = Ray::through_pixel(camera, view, x as f64 + 0.5, y as f64 + 0.5);
    let hits = ray::hits(scene, state, &ray, view.show_sprites);
    let depth = renderer.canvas_depth(x, y);
    let (chosen, evidence) = match depth {
        Some(d) => (drawn(scene, &ray, &hits, d, renderer.near()), Evidence::CanvasDepth),
        None => (hits.first().copied(), Evidence::Nearest),
    };
    let mut pick = Pick {
        pixel: [x, y],
        kind: PickKind::None,
        point: None,
        distance: None,
        texture: None,
        facts: Facts::new(),
        evidence,
    };
    if let Some(hit) = chosen {
        describe(scene, state, camera, &hit, &mut pick);
    }
    pick
}

/// The hit the canvas drew: the one at the pixel's depth; with no depth there (vanilla's sky,
/// the void) a sky surface if the ray meets one first.
fn drawn(scene: &Scene, ray: &Ray, hits: &[Hit], depth: f32, near: f32) -> Option<Hit> {
    let opaque = |h: &&Hit| !h.translucent(scene);
    if depth <= 0.0 {
        let first = hits.iter().find(opaque)?;
        return (first.kind(scene) == Some(SurfaceKind::Sky)).then_some(*first);
    }
    let drawn = near as f64 / depth as f64;
    let off = |h: &Hit| (ray.depth_of(h.point) - drawn).abs();
    let best = hits.iter().filter(opaque).min_by(|a, b| off(a).total_cmp(&off(b)))?;
    if off(best) > DEPTH_TOLERANCE * drawn + 1.0 {
        // Nothing the ray meets lies where the canvas drew: the nearest is the best guess.
        return hits.iter().find(opaque).copied();
    }
    // A translucent surface in front of it was blended over it: that is what shows.
    let front = hits.iter().find(|h| h.translucent(scene) && h.distance < best.distance);
    Some(*front.unwrap_or(best))
}

fn describe(scene: &Scene, state: &FrameState, camera: &CameraPose, hit: &Hit, pick: &mut Pick) {
    let axes = scene.axes;
    let point = axes.to_native_f64(hit.point);
    let eye = axes.to_native_f64(camera.pos);
    pick.point = Some(point.to_array());
    pick.distance = Some((point - eye).length());
    let normal = (axes.to_native_f64(hit.point + hit.normal) - point).normalize_or_zero();
    match hit.target {
        Target::Triangle(t) => {
            let v = &scene.world[t * 3];
            pick.kind = match hit.kind(scene) {
                Some(SurfaceKind::Sky) => PickKind::Sky,
                _ if hit.normal.y > 0.7 => PickKind::Floor,
                _ if hit.normal.y < -0.7 => PickKind::Ceiling,
                _ => PickKind::Wall,
            };
            pick.texture = texture_name(scene, state, v.texture);
            let part = scene.parts.of_triangle.get(t).copied();
            let mut facts = Facts::new();
            if let Some(records) = &scene.records {
                let asked = SurfaceHit {
                    triangle: t,
                    vertex: v,
                    part,
                    point: point.to_array(),
                    normal: normal.to_array(),
                };
                facts = records.surface(&asked);
            }
            // Without the format's records, the scene's part names what the surface belongs to.
            if facts.is_empty() {
                if let Some(name) = part.and_then(|p| scene.parts.names.get(p as usize)) {
                    facts.push(part_fact(name));
                }
            }
            pick.facts.extend(facts);
        }
        Target::Sprite(i) => {
            let s = &scene.sprites[i];
            pick.kind = PickKind::Thing;
            pick.texture = s.views.first().and_then(|v| texture_name(scene, state, v.texture));
            pick.facts.push(("sprite".into(), Fact::Int(i as i64)));
            pick.facts.push(("label".into(), Fact::Text(s.label.clone())));
            if let Some(records) = &scene.records {
                pick.facts.extend(records.sprite(s));
            }
        }
    }
    dedupe(&mut pick.facts);
}

/// "sector 12" as ("sector", 12); a name without a number as ("part", name).
fn part_fact(name: &str) -> (String, Fact) {
    match name.rsplit_once(' ') {
        Some((kind, n)) if !kind.is_empty() && n.parse::<i64>().is_ok() => {
            (kind.replace(' ', "_"), Fact::Int(n.parse().unwrap_or(0)))
        }
        _ => ("object".into(), Fact::Text(name.to_string())),
    }
}

/// Keeps one of facts that share a name: the last (the records come after the generic facts).
fn dedupe(facts: &mut Facts) {
    let mut seen = std::collections::HashSet::new();
    // The records come after the part name; where both name a key, the records' is right.
    let mut kept: Facts = Vec::new();
    for (k, v) in facts.drain(..).rev() {
        if seen.insert(k.clone()) {
            kept.push((k, v));
        }
    }
    kept.reverse();
    *facts = kept;
}

fn texture_name(scene: &Scene, state: &FrameState, texture: u32) -> Option<String> {
    let shown = state.texture_remap.get(texture as usize).copied().unwrap_or(texture);
    scene.textures.get(shown as usize).map(|t| t.name.clone())
}

impl Pick {
    /// The pick as one JSON object: pixel, kind, point, distance, texture, then the records.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("pixel".into(), json!(self.pixel));
        m.insert("kind".into(), json!(self.kind.name()));
        m.insert("point".into(), json!(self.point.map(|p| p.map(round3))));
        m.insert("distance".into(), json!(self.distance.map(round3)));
        m.insert("texture".into(), json!(self.texture));
        for (k, v) in &self.facts {
            m.insert(k.clone(), fact_json(v));
        }
        let by = match self.evidence {
            Evidence::CanvasDepth => "canvas depth",
            Evidence::Nearest => "nearest surface",
        };
        m.insert("found_by".into(), json!(by));
        Value::Object(m)
    }

    /// The pick as lines of `name: value`, as the inspector shows and copies it.
    pub fn to_text(&self) -> String {
        let mut out =
            format!("pixel: {}, {}\nkind: {}\n", self.pixel[0], self.pixel[1], self.kind.name());
        if let (Some(p), Some(d)) = (self.point, self.distance) {
            let p = p.map(round3);
            out += &format!("point: {}, {}, {}\ndistance: {}\n", p[0], p[1], p[2], round3(d));
        }
        if let Some(t) = &self.texture {
            out += &format!("texture: {t}\n");
        }
        for (k, v) in &self.facts {
            out += &format!("{k}: {v}\n");
        }
        out
    }
}

fn fact_json(f: &Fact) -> Value {
    match f {
        Fact::Int(n) => json!(n),
        Fact::Num(x) => json!(round3(*x)),
        Fact::Text(s) => json!(s),
        Fact::Ints(v) => json!(v),
    }
}

fn round3(x: f64) -> f64 {
    // Adding 0 turns -0 into 0.
    (x * 1000.0).round() / 1000.0 + 0.0
}

/// The point a pick reports, in viewer space (for tests and the viewer's marker).
pub fn viewer_point(scene: &Scene, pick: &Pick) -> Option<DVec3> {
    pick.point.map(|p| scene.axes.to_viewer_f64(DVec3::from_array(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_names_become_ids() {
        assert_eq!(part_fact("sector 12"), ("sector".into(), Fact::Int(12)));
        assert_eq!(part_fact("polygon 3"), ("polygon".into(), Fact::Int(3)));
        assert_eq!(part_fact("terrain"), ("object".into(), Fact::Text("terrain".into())));
    }

    #[test]
    fn the_records_win_over_the_part_name() {
        let mut f: Facts = vec![
            ("sector".into(), Fact::Int(1)),
            ("linedef".into(), Fact::Int(4)),
            ("sector".into(), Fact::Int(2)),
        ];
        dedupe(&mut f);
        assert_eq!(f, vec![("linedef".into(), Fact::Int(4)), ("sector".into(), Fact::Int(2))]);
    }
}
