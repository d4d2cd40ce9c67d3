//! A camera path: keyframes in the game's own coordinates (the numbers of `--camera`,
//! `--angle` and `--pitch`) at times in seconds, played with smooth interpolation.
//!
//! The file is `{"keyframes": [{"t": S, "camera": [X, Y, Z], "angle": DEG, "pitch": DEG}]}`
//! (pitch may be left out: level). Between keyframes the position, the facing and the pitch
//! follow a cubic Hermite curve through every keyframe (Catmull-Rom tangents for uneven
//! times; at the first and last keyframe the camera starts and stops gently); the facing
//! turns the short way round between two keyframes. At a keyframe's time the camera is
//! exactly that keyframe's.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use crate::scene::{NativePose, MAX_PITCH_DEG};

/// One keyframe: where the camera is at `t` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keyframe {
    pub t: f64,
    pub pose: NativePose,
}

/// Keyframes in time order, no two at the same time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CameraPath {
    keyframes: Vec<Keyframe>,
}

impl CameraPath {
    pub fn keyframes(&self) -> &[Keyframe] {
        &self.keyframes
    }

    pub fn is_empty(&self) -> bool {
        self.keyframes.is_empty()
    }

    /// The time of the last keyframe (0 for none).
    pub fn duration(&self) -> f64 {
        self.keyframes.last().map_or(0.0, |k| k.t)
    }

    /// Adds `pose` at `t`, replacing a keyframe already at that time.
    pub fn insert(&mut self, t: f64, pose: NativePose) {
        let at = self.keyframes.partition_point(|k| k.t < t);
        match self.keyframes.get_mut(at) {
            Some(k) if k.t == t => k.pose = pose,
            _ => self.keyframes.insert(at, Keyframe { t, pose }),
        }
    }

    /// Removes keyframe `i` (nothing when there is none).
    pub fn remove(&mut self, i: usize) {
        if i < self.keyframes.len() {
            self.keyframes.remove(i);
        }
    }

    /// The keyframe nearest `t` in time.
    pub fn nearest(&self, t: f64) -> Option<usize> {
        (0..self.keyframes.len()).min_by(|&a, &b| {
            (self.keyframes[a].t - t).abs().total_cmp(&(self.keyframes[b].t - t).abs())
        })
    }

    /// The camera at `t` seconds; before the first keyframe, the first, after the last, the
    /// last. `None` for an empty path.
    pub fn at(&self, t: f64) -> Option<NativePose> {
        let keys = &self.keyframes;
        let first = keys.first()?;
        let last = keys.last()?;
        if t <= first.t {
            return Some(first.pose);
        }
        if t >= last.t {
            return Some(last.pose);
        }
        // The segment k..k+1 holding t (keys[k].t <= t < keys[k + 1].t).
        let k = keys.partition_point(|key| key.t <= t) - 1;
        if keys[k].t == t {
            return Some(keys[k].pose);
        }
        let angles = unwrapped_angles(keys);
        let value = |i: usize, c: usize| -> f64 {
            let p = &keys[i].pose;
            match c {
                0..=2 => p.position[c],
                3 => angles[i],
                _ => p.pitch,
            }
        };
        // Catmull-Rom tangent (per second) at keyframe i; none at the ends.
        let tangent = |i: usize, c: usize| -> f64 {
            if i == 0 || i + 1 == keys.len() {
                return 0.0;
            }
            (value(i + 1, c) - value(i - 1, c)) / (keys[i + 1].t - keys[i - 1].t)
        };
        let h = keys[k + 1].t - keys[k].t;
        let u = (t - keys[k].t) / h;
        let (u2, u3) = (u * u, u * u * u);
        let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
        let h10 = u3 - 2.0 * u2 + u;
        let h01 = -2.0 * u3 + 3.0 * u2;
        let h11 = u3 - u2;
        let curve = |c: usize| {
            h00 * value(k, c)
                + h10 * h * tangent(k, c)
                + h01 * value(k + 1, c)
                + h11 * h * tangent(k + 1, c)
        };
        Some(NativePose {
            position: [curve(0), curve(1), curve(2)],
            angle: curve(3).rem_euclid(360.0),
            pitch: curve(4).clamp(-MAX_PITCH_DEG, MAX_PITCH_DEG),
        })
    }

    /// The path file's text: a keyframe a line, its fields in the documented order, for
    /// reading and changing by hand.
    pub fn to_json_text(&self) -> String {
        let lines = self.keyframes.iter().map(|k| {
            format!(
                "{{\"t\": {}, \"camera\": {}, \"angle\": {}, \"pitch\": {}}}",
                json!(k.t),
                super::json_xyz(k.pose.position),
                json!(k.pose.angle),
                json!(k.pose.pitch)
            )
        });
        format!("{{\"keyframes\": {}}}\n", super::json_list(lines))
    }

    /// Writes the path file.
    pub fn save(&self, file: &Path) -> Result<()> {
        let text = self.to_json_text();
        std::fs::write(file, text).with_context(|| format!("writing {}", file.display()))
    }

    /// Reads a path file; errors name the file and the place in it.
    pub fn load(file: &Path) -> Result<CameraPath> {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        CameraPath::parse(&text).with_context(|| format!("camera path {}", file.display()))
    }

    /// A path from its file's text; errors say where in it.
    pub fn parse(text: &str) -> Result<CameraPath> {
        // serde_json's message ends with the line and column.
        let root: Value =
            serde_json::from_str(text).map_err(|e| anyhow::anyhow!("not JSON: {e}"))?;
        let list = root
            .get("keyframes")
            .context("no \"keyframes\": expected {\"keyframes\": [...]}")?
            .as_array()
            .context("\"keyframes\" is not a list")?;
        if list.is_empty() {
            bail!("\"keyframes\" is empty: a path needs one keyframe or more");
        }
        let mut keyframes: Vec<Keyframe> = Vec::with_capacity(list.len());
        for (i, entry) in list.iter().enumerate() {
            let key = keyframe(entry).with_context(|| format!("keyframes[{i}]"))?;
            if let Some(before) = keyframes.last() {
                if key.t <= before.t {
                    bail!(
                        "keyframes[{i}]: \"t\" {} is not after keyframes[{}]'s {}: keyframes \
                         go in time order, one at a time",
                        key.t,
                        i - 1,
                        before.t
                    );
                }
            }
            keyframes.push(key);
        }
        Ok(CameraPath { keyframes })
    }
}

/// One keyframe of the file.
fn keyframe(v: &Value) -> Result<Keyframe> {
    if !v.is_object() {
        bail!("not an object {{\"t\", \"camera\", \"angle\", \"pitch\"}}");
    }
    let number = |name: &str| -> Result<Option<f64>> {
        match v.get(name) {
            None => Ok(None),
            Some(x) => match x.as_f64() {
                Some(n) if n.is_finite() => Ok(Some(n)),
                _ => bail!("\"{name}\" is {x}, not a number"),
            },
        }
    };
    let t = number("t")?.context("no \"t\" (seconds)")?;
    if t < 0.0 {
        bail!("\"t\" {t} is before 0 seconds");
    }
    let camera = v.get("camera").context("no \"camera\" [X, Y, Z]")?;
    let xyz: Vec<f64> = camera
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
        .filter(|a| a.iter().all(|n| n.is_finite()))
        .with_context(|| format!("\"camera\" is {camera}, not three numbers [X, Y, Z]"))?;
    let angle = number("angle")?.context("no \"angle\" (degrees)")?;
    let pitch = number("pitch")?.unwrap_or(0.0);
    if pitch.abs() > MAX_PITCH_DEG {
        bail!("\"pitch\" {pitch} is out of range (-{MAX_PITCH_DEG}..{MAX_PITCH_DEG})");
    }
    Ok(Keyframe { t, pose: NativePose { position: [xyz[0], xyz[1], xyz[2]], angle, pitch } })
}

/// Each keyframe's angle moved by whole turns so that each differs from the one before by
/// at most half a turn: the curve through them turns the short way.
fn unwrapped_angles(keys: &[Keyframe]) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::with_capacity(keys.len());
    for k in keys {
        let a = match out.last() {
            None => k.pose.angle,
            Some(&before) => before + (k.pose.angle - before + 180.0).rem_euclid(360.0) - 180.0,
        };
        out.push(a);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, angle: f64) -> NativePose {
        NativePose { position: [x, 2.0 * x, 41.0], angle, pitch: 0.0 }
    }

    fn path(keys: &[(f64, NativePose)]) -> CameraPath {
        let mut p = CameraPath::default();
        for &(t, pose) in keys {
            p.insert(t, pose);
        }
        p
    }

    #[test]
    fn keyframe_times_give_the_keyframes_exactly_and_the_ends_hold() {
        let p = path(&[(0.0, pose(0.0, 350.0)), (1.5, pose(100.0, 10.0)), (3.0, pose(40.0, 90.0))]);
        for k in p.keyframes() {
            assert_eq!(p.at(k.t), Some(k.pose));
        }
        assert_eq!(p.at(-1.0), Some(pose(0.0, 350.0)));
        assert_eq!(p.at(9.0), Some(pose(40.0, 90.0)));
        assert_eq!(CameraPath::default().at(0.0), None);
    }

    #[test]
    fn the_facing_turns_the_short_way_and_the_position_moves_smoothly() {
        let p = path(&[(0.0, pose(0.0, 350.0)), (1.0, pose(100.0, 10.0))]);
        let mid = p.at(0.5).unwrap();
        // Half way from 350 to 10 through 0, not through 180.
        assert!(mid.angle.abs() < 1e-9 || (mid.angle - 360.0).abs() < 1e-9, "{mid:?}");
        assert!((mid.position[0] - 50.0).abs() < 1e-9);
        // Eased: slow near the ends, so a quarter of the time covers less than a quarter.
        let quarter = p.at(0.25).unwrap();
        assert!(quarter.position[0] > 0.0 && quarter.position[0] < 25.0, "{quarter:?}");
        // Through a middle keyframe the curve keeps moving (no stop there).
        let p = path(&[(0.0, pose(0.0, 0.0)), (1.0, pose(100.0, 0.0)), (2.0, pose(200.0, 0.0))]);
        let (a, b) = (p.at(0.99).unwrap().position[0], p.at(1.01).unwrap().position[0]);
        assert!((b - a - 2.0).abs() < 0.05, "{a} {b}");
    }

    #[test]
    fn a_file_round_trips_and_insert_keeps_time_order() {
        let p = path(&[(2.0, pose(5.0, 45.0)), (0.0, pose(1.0, 0.0)), (2.0, pose(6.0, 46.0))]);
        assert_eq!(p.keyframes().iter().map(|k| k.t).collect::<Vec<_>>(), [0.0, 2.0]);
        assert_eq!(p.keyframes()[1].pose, pose(6.0, 46.0));
        let back = CameraPath::parse(&p.to_json_text()).unwrap();
        assert_eq!(back, p);
        assert_eq!(p.nearest(1.4), Some(1));
    }

    #[test]
    fn bad_files_say_where() {
        let err = |text: &str| format!("{:#}", CameraPath::parse(text).unwrap_err());
        assert!(err("{\"keyframes\": [\n  {\"t\": 0,}\n]}").contains("line 2"));
        assert!(err("{}").contains("no \"keyframes\""));
        let e = err(r#"{"keyframes": [{"t": 0, "camera": [0, 0, 0], "angle": 0},
                                       {"t": 1, "camera": [0, "x", 0], "angle": 0}]}"#);
        assert!(e.contains("keyframes[1]") && e.contains("\"camera\""), "{e}");
        let e = err(r#"{"keyframes": [{"t": 1, "camera": [0, 0, 0], "angle": 0},
                                       {"t": 1, "camera": [0, 0, 0], "angle": 0}]}"#);
        assert!(e.contains("keyframes[1]") && e.contains("time order"), "{e}");
        let e = err(r#"{"keyframes": [{"t": 0, "camera": [0, 0, 0], "angle": 0, "pitch": 95}]}"#);
        assert!(e.contains("keyframes[0]") && e.contains("pitch"), "{e}");
    }
}
