//! A Marathon scene's surfaces and objects in the map's own records (as Weland and Forge
//! number them, from 0): a surface's polygon with its lights, platform and media; a wall's
//! line and side; an object's entry. Type names follow Aleph One's `map.h`.

use crate::scene::{flag_names, Fact, Facts, LevelRecords, Located, Sprite, SurfaceHit};

use super::level::Level;
use super::map::{line_flags, Line, NONE};

/// Polygon types, in `map.h`'s order.
const POLYGON_TYPES: &[&str] = &[
    "normal",
    "item impassable",
    "monster impassable",
    "hill",
    "base",
    "platform",
    "light on trigger",
    "platform on trigger",
    "light off trigger",
    "platform off trigger",
    "teleporter",
    "zone border",
    "goal",
    "visible monster trigger",
    "invisible monster trigger",
    "dual monster trigger",
    "item trigger",
    "must be explored",
    "automatic exit",
    "minor ouch",
    "major ouch",
    "glue",
    "glue trigger",
    "superglue",
];

const LINE_FLAGS: &[(u32, &str)] = &[
    (line_flags::SOLID as u32, "solid"),
    (line_flags::TRANSPARENT as u32, "transparent"),
    (line_flags::LANDSCAPE as u32, "landscape"),
    (0x0800, "elevation"),
    (0x0400, "variable-elevation"),
    (0x0200, "has-transparent-side"),
];

/// Side types, in `map.h`'s order.
const SIDE_TYPES: &[&str] = &["full", "high", "low", "composite", "split"];

const SIDE_FLAGS: &[(u32, &str)] = &[
    (0x01, "control-panel-on"),
    (0x02, "control-panel"),
    (0x04, "repair-switch"),
    (0x08, "destructive-switch"),
    (0x10, "lighted-switch"),
    (0x20, "switch-can-be-destroyed"),
    (0x40, "projectiles-only"),
];

const MEDIA_TYPES: &[&str] = &["water", "lava", "goo", "sewage", "jjaro"];

pub struct MarathonRecords {
    level: Level,
}

impl MarathonRecords {
    pub fn new(level: &Level) -> MarathonRecords {
        MarathonRecords { level: level.clone() }
    }

    fn polygon_facts(&self, facts: &mut Facts, p: usize) {
        let Some(poly) = self.level.polygons.get(p) else { return };
        facts.push(("polygon".into(), Fact::Int(p as i64)));
        let kind = POLYGON_TYPES
            .get(poly.kind as usize)
            .map_or(format!("type {}", poly.kind), |s| s.to_string());
        facts.push(("polygon_type".into(), Fact::Text(kind)));
        facts.push(("floor_height".into(), Fact::Int(poly.floor_height as i64)));
        facts.push(("ceiling_height".into(), Fact::Int(poly.ceiling_height as i64)));
        facts.push(("floor_texture".into(), Fact::Text(format!("0x{:04X}", poly.floor_texture))));
        facts.push((
            "ceiling_texture".into(),
            Fact::Text(format!("0x{:04X}", poly.ceiling_texture)),
        ));
        facts.push(("floor_light".into(), Fact::Int(poly.floor_light as i64)));
        facts.push(("ceiling_light".into(), Fact::Int(poly.ceiling_light as i64)));
        if let Some(i) = self.level.platforms.iter().position(|pl| pl.polygon as usize == p) {
            let pl = &self.level.platforms[i];
            facts.push(("platform".into(), Fact::Int(i as i64)));
            facts.push((
                "platform_heights".into(),
                Fact::Ints(vec![pl.minimum_height as i64, pl.maximum_height as i64]),
            ));
        }
        if poly.media != NONE {
            facts.push(("media".into(), Fact::Int(poly.media as i64)));
            if let Some(m) = self.level.media.get(poly.media as usize) {
                let kind = MEDIA_TYPES
                    .get(m.kind as usize)
                    .map_or(format!("type {}", m.kind), |s| s.to_string());
                facts.push(("media_type".into(), Fact::Text(kind)));
                facts.push(("media_heights".into(), Fact::Ints(vec![m.low as i64, m.high as i64])));
            }
        }
    }

    /// The line of polygon `p` nearest the point (x, y): the wall the ray met.
    fn nearest_line(&self, p: usize, x: f64, y: f64) -> Option<(usize, usize)> {
        let poly = self.level.polygons.get(p)?;
        let n = (poly.vertex_count as usize).min(8);
        let mut best: Option<(f64, usize, usize)> = None;
        for k in 0..n {
            let li = poly.lines[k];
            let Some(line) = usize::try_from(li).ok().and_then(|i| self.level.lines.get(i)) else {
                continue;
            };
            let d = self.distance_to(line, x, y)?;
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, li as usize, k));
            }
        }
        best.map(|(_, line, k)| (line, k))
    }

    fn distance_to(&self, line: &Line, x: f64, y: f64) -> Option<f64> {
        let end = |i: i16| usize::try_from(i).ok().and_then(|i| self.level.endpoints.get(i));
        let (a, b) = (end(line.endpoints[0])?, end(line.endpoints[1])?);
        let (ax, ay, bx, by) = (a.x as f64, a.y as f64, b.x as f64, b.y as f64);
        let (ex, ey) = (bx - ax, by - ay);
        let len2 = (ex * ex + ey * ey).max(1e-9);
        let t = (((x - ax) * ex + (y - ay) * ey) / len2).clamp(0.0, 1.0);
        Some((x - ax - t * ex).hypot(y - ay - t * ey))
    }
}

impl LevelRecords for MarathonRecords {
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts {
        let mut facts = Facts::new();
        let Some(p) = hit.part.map(|p| p as usize) else { return facts };
        let upright = hit.normal[2].abs() > 0.7;
        if upright {
            let part = if hit.normal[2] > 0.0 { "floor" } else { "ceiling" };
            facts.push(("part".into(), Fact::Text(part.into())));
            self.polygon_facts(&mut facts, p);
            return facts;
        }
        facts.push(("part".into(), Fact::Text("wall".into())));
        self.polygon_facts(&mut facts, p);
        let Some((li, k)) = self.nearest_line(p, hit.point[0], hit.point[1]) else { return facts };
        let line = &self.level.lines[li];
        facts.push(("line".into(), Fact::Int(li as i64)));
        facts.push(("line_flags".into(), Fact::Text(flag_names(line.flags as u32, LINE_FLAGS))));
        facts.push((
            "endpoints".into(),
            Fact::Ints(line.endpoints.iter().map(|&e| e as i64).collect()),
        ));
        let other = if line.clockwise_polygon as usize == p {
            line.counterclockwise_polygon
        } else {
            line.clockwise_polygon
        };
        if other != NONE {
            facts.push(("adjacent_polygon".into(), Fact::Int(other as i64)));
        }
        let side = self.level.polygons[p].sides[k];
        if let Some(s) = usize::try_from(side).ok().and_then(|i| self.level.sides.get(i)) {
            facts.push(("side".into(), Fact::Int(side as i64)));
            let kind = SIDE_TYPES
                .get(s.kind as usize)
                .map_or(format!("type {}", s.kind), |t| t.to_string());
            facts.push(("side_type".into(), Fact::Text(kind)));
            facts.push(("side_flags".into(), Fact::Text(flag_names(s.flags as u32, SIDE_FLAGS))));
            let tex = |t: u16| if t == 0xFFFF { "none".to_string() } else { format!("0x{t:04X}") };
            facts.push(("primary_texture".into(), Fact::Text(tex(s.primary.texture))));
            facts.push(("secondary_texture".into(), Fact::Text(tex(s.secondary.texture))));
            facts.push(("transparent_texture".into(), Fact::Text(tex(s.transparent.texture))));
            facts.push((
                "side_lights".into(),
                Fact::Ints(s.lights.iter().map(|&l| l as i64).collect()),
            ));
        }
        facts
    }

    fn sprite(&self, sprite: &Sprite) -> Facts {
        let mut facts = Facts::new();
        let i = sprite.source as usize;
        let Some(o) = self.level.objects.get(i) else { return facts };
        facts.push(("object".into(), Fact::Int(i as i64)));
        let kind = match o.kind {
            0 => "monster",
            1 => "scenery",
            2 => "item",
            3 => "player start",
            4 => "goal",
            5 => "sound source",
            _ => "object",
        };
        facts.push(("object_type".into(), Fact::Text(kind.into())));
        facts.push(("object_index".into(), Fact::Int(o.index as i64)));
        facts.push(("polygon".into(), Fact::Int(o.polygon as i64)));
        facts.push(("facing".into(), Fact::Int(o.facing as i64)));
        facts.push(("object_flags".into(), Fact::Text(format!("0x{:04X}", o.flags))));
        facts
    }

    fn locate(&self, kind: &str, number: u64) -> Option<Located> {
        let n = usize::try_from(number).ok()?;
        let eye = super::build::EYE_HEIGHT;
        let floor = |p: i16| {
            usize::try_from(p)
                .ok()
                .and_then(|p| self.level.polygons.get(p))
                .map_or(0.0, |p| p.floor_height as f64)
        };
        let at = |point: [f64; 3]| Some(Located { point, seen_from: None });
        match kind {
            "polygon" => {
                let p = self.level.polygons.get(n)?;
                at([p.center.x as f64, p.center.y as f64, p.floor_height as f64 + eye])
            }
            "object" => {
                let o = self.level.objects.get(n)?;
                at([o.x as f64, o.y as f64, floor(o.polygon) + eye])
            }
            "line" => {
                let l = self.level.lines.get(n)?;
                let end =
                    |i: i16| usize::try_from(i).ok().and_then(|i| self.level.endpoints.get(i));
                let (a, b) = (end(l.endpoints[0])?, end(l.endpoints[1])?);
                let p = if l.clockwise_polygon != NONE {
                    l.clockwise_polygon
                } else {
                    l.counterclockwise_polygon
                };
                let m = ((a.x as f64 + b.x as f64) / 2.0, (a.y as f64 + b.y as f64) / 2.0);
                // Seen from inside the polygon it bounds.
                let poly = usize::try_from(p).ok().and_then(|p| self.level.polygons.get(p));
                let seen_from = poly.map(|q| {
                    let (dx, dy) = (q.center.x as f64 - m.0, q.center.y as f64 - m.1);
                    let len = dx.hypot(dy).max(1e-9);
                    [dx / len, dy / len]
                });
                Some(Located { point: [m.0, m.1, floor(p) + eye], seen_from })
            }
            _ => None,
        }
    }

    fn kinds(&self) -> &'static [&'static str] {
        &["polygon", "line", "object"]
    }

    fn walker(&self, scene: &crate::scene::Scene) -> Option<Box<dyn crate::scene::Walker>> {
        let walker = super::walk::MarathonWalker::new(&self.level);
        Some(Box::new(crate::scene::InViewer::new(walker, scene.axes)))
    }
}
