//! Find and go: a camera that looks at a numbered record (a Doom sector, linedef or thing, a
//! Marathon polygon, line or object), for the viewer's find panel and `--go KIND:N`.
//!
//! A sector or polygon is entered: the camera stands at eye height at its spot, facing as it
//! did. A line or a thing is looked at from a few metres back, on the side the camera came
//! from, nearer where a wall stands between (the same ray cast `pick` uses).

use anyhow::{bail, Context, Result};
use glam::DVec3;

use super::ray::{self, Ray};
use crate::scene::{CameraPose, Scene};

/// How far back a looked-at record is seen from.
const STANDOFF_METRES: f64 = 3.0;

/// A record asked for: its kind as the format names it and its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub kind: String,
    pub number: u64,
}

impl std::str::FromStr for Goal {
    type Err = String;
    fn from_str(s: &str) -> Result<Goal, String> {
        let (kind, n) = s
            .split_once(':')
            .ok_or_else(|| format!("'{s}': expected KIND:NUMBER, e.g. sector:12"))?;
        let number =
            n.trim().parse().map_err(|_| format!("'{s}': '{n}' is not a record number"))?;
        Ok(Goal { kind: kind.trim().to_ascii_lowercase(), number })
    }
}

/// The kinds `--go` and the find panel take for `scene`: its format's records', then the
/// scene's parts (Saturn Quake's planes, Carmageddon 2's actors) where those are not among them.
pub fn kinds(scene: &Scene) -> Vec<String> {
    let mut kinds: Vec<String> = scene
        .records
        .as_ref()
        .map(|r| r.kinds().iter().map(|k| k.to_string()).collect())
        .unwrap_or_default();
    if let Some(k) = part_kind(scene) {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds
}

/// What the scene's parts are called: the word of names such as "plane 5"; "actor" for
/// placed objects named otherwise (Carmageddon 2's), counted in their order.
fn part_kind(scene: &Scene) -> Option<String> {
    let first = scene.parts.names.first()?;
    match first.rsplit_once(' ') {
        Some((word, n)) if n.parse::<u64>().is_ok() && !word.contains(' ') => Some(word.into()),
        _ if scene.parts.placed_objects => Some("actor".into()),
        _ => None,
    }
}

/// The camera that shows `goal`, starting from `from`.
pub fn camera_for(scene: &Scene, goal: &Goal, from: &CameraPose) -> Result<CameraPose> {
    let kinds = kinds(scene);
    if !kinds.contains(&goal.kind) {
        if kinds.is_empty() {
            bail!("{}: {} levels have no numbered records to go to", scene.name, scene.game.name());
        }
        bail!(
            "{}: no record kind '{}' (this level has: {})",
            scene.name,
            goal.kind,
            kinds.join(", ")
        );
    }
    let known = scene.records.as_ref().filter(|r| r.kinds().contains(&goal.kind.as_str()));
    let Some(records) = known else { return camera_for_part(scene, goal, from) };
    let located = records
        .locate(&goal.kind, goal.number)
        .with_context(|| format!("{}: there is no {} {}", scene.name, goal.kind, goal.number))?;
    let native = DVec3::from_array(located.point);
    let spot = scene.axes.to_viewer_f64(native);
    if matches!(goal.kind.as_str(), "sector" | "polygon") {
        return Ok(CameraPose { pos: spot, yaw: from.yaw, pitch: 0.0 });
    }
    let target = sprite_middle(scene, goal).unwrap_or(spot);
    let seen_from = located
        .seen_from
        .map(|[x, y]| scene.axes.to_viewer_f64(native + DVec3::new(x, y, 0.0)) - spot);
    Ok(look_from_back(scene, spot, target, seen_from, from))
}

/// The camera that looks at one of the scene's parts from a few metres back (or, for a large
/// one, far enough back to see it whole).
fn camera_for_part(scene: &Scene, goal: &Goal, from: &CameraPose) -> Result<CameraPose> {
    let numbered = format!("{} {}", goal.kind, goal.number);
    let part = match scene.parts.names.iter().position(|n| *n == numbered) {
        Some(p) => p,
        None if usize::try_from(goal.number).is_ok_and(|n| n < scene.parts.names.len())
            && !scene.parts.names[0].ends_with(char::is_numeric) =>
        {
            goal.number as usize
        }
        None => bail!("{}: there is no {} {}", scene.name, goal.kind, goal.number),
    };
    let (mut lo, mut hi) = (DVec3::splat(f64::MAX), DVec3::splat(f64::MIN));
    for (t, _) in scene.parts.of_triangle.iter().enumerate().filter(|(_, &p)| p as usize == part) {
        for v in &scene.world[t * 3..t * 3 + 3] {
            let p = glam::Vec3::from(v.pos).as_dvec3();
            (lo, hi) = (lo.min(p), hi.max(p));
        }
    }
    if lo.x > hi.x {
        bail!("{}: {} {} has no surfaces", scene.name, goal.kind, goal.number);
    }
    let middle = (lo + hi) / 2.0;
    let radius = (hi - lo).length() / 2.0;
    let mut away = DVec3::new(from.pos.x - middle.x, 0.0, from.pos.z - middle.z);
    if away.length_squared() < 1e-6 {
        away = -from.forward();
    }
    let back = (STANDOFF_METRES * scene.game.units_per_metre()).max(radius * 1.5);
    let pos = middle + away.normalize_or(DVec3::X) * back + DVec3::new(0.0, radius * 0.5, 0.0);
    Ok(CameraPose::looking_at(pos, middle))
}

/// The camera that looks at sprite `i` of the scene (any game's: the find panel's list).
pub fn camera_for_sprite(scene: &Scene, i: usize, from: &CameraPose) -> Option<CameraPose> {
    let s = scene.sprites.get(i)?;
    let target = middle_of(scene, s).unwrap_or(s.pos.as_dvec3());
    // Eye height over the sprite's feet: the spawn's height over the floor it stands on.
    let eye = crate::bench::tour::eye_height(scene, scene.spawn.pos);
    let spot = s.pos.as_dvec3() + DVec3::new(0.0, eye, 0.0);
    Some(look_from_back(scene, spot, target, None, from))
}

/// A camera a few metres back from `spot` (towards `seen_from`, else towards `from`), nearer
/// where a wall stands between, looking at `target`.
fn look_from_back(
    scene: &Scene,
    spot: DVec3,
    target: DVec3,
    seen_from: Option<DVec3>,
    from: &CameraPose,
) -> CameraPose {
    let mut away = seen_from.unwrap_or(DVec3::new(from.pos.x - spot.x, 0.0, from.pos.z - spot.z));
    away.y = 0.0;
    if away.length_squared() < 1e-6 {
        away = -DVec3::new(from.forward().x, 0.0, from.forward().z);
    }
    let standoff = STANDOFF_METRES * scene.game.units_per_metre();
    // The way asked for first, then the eight compass ways: the first with room to stand
    // back, else the roomiest (a thing against a wall is seen from the open side).
    let preferred = away.normalize_or(DVec3::X);
    let ways = std::iter::once(preferred).chain((0..8).map(|i| {
        let a = i as f64 * std::f64::consts::FRAC_PI_4;
        DVec3::new(a.cos(), 0.0, a.sin())
    }));
    let mut best = (preferred, 0.0);
    for way in ways {
        let look_back = Ray { origin: spot, dir: way, forward: way };
        let room =
            ray::nearest_either_side(scene, &look_back).map_or(standoff, |d| standoff.min(d * 0.8));
        if room > best.1 {
            best = (way, room);
        }
        if room >= standoff {
            break;
        }
    }
    let (away, back) = best;
    CameraPose::looking_at(spot + away * back, target)
}

/// Where a thing or object's sprite shows its middle, in viewer space.
fn sprite_middle(scene: &Scene, goal: &Goal) -> Option<DVec3> {
    if !matches!(goal.kind.as_str(), "thing" | "object") {
        return None;
    }
    let s = scene.sprites.iter().find(|s| s.source as u64 == goal.number)?;
    middle_of(scene, s)
}

fn middle_of(scene: &Scene, s: &crate::scene::Sprite) -> Option<DVec3> {
    let tex = scene.textures.get(s.views.first()?.texture as usize)?;
    let up = (tex.origin.1 as f64 - tex.height as f64 / 2.0) * s.scale[1] as f64;
    Some(s.pos.as_dvec3() + DVec3::new(0.0, up, 0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goals_read_kind_and_number() {
        assert_eq!("Sector:12".parse::<Goal>(), Ok(Goal { kind: "sector".into(), number: 12 }));
        assert!("sector".parse::<Goal>().is_err());
        assert!("thing:x".parse::<Goal>().is_err());
    }
}
