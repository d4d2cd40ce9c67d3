//! `mapscope film --walk` on a Doom room built for it: a walker heading into a one-sided wall
//! stops its half-width (16) from it, climbs a 24-unit step but not a 25-unit one, falls off a
//! ledge to the floor below with gravity, keeps its eye 41 above the floor, and is stopped by a
//! barrel (radius 10).

use std::path::Path;

use serde_json::Value;

use crate::support::doom_test_room::udmf_room_pwad;
use crate::support::{self, mapscope, success, TempDir};

/// Three sectors in a row along x, each 128 deep (y 0..128): floor 0 (x 0..256), 24 (a step
/// the player climbs, x 256..384) and 49 (25 above that: too high, x 384..512); a barrel at
/// (160, 100).
fn steps_room() -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    let xs = [0, 256, 384, 512];
    // v0..v3 along y = 0, v4..v7 back along y = 128 (v4 at x 512, v7 at x 0).
    for x in xs {
        t += &format!("vertex {{ x = {x}.0; y = 0.0; }}\n");
    }
    for x in xs.iter().rev() {
        t += &format!("vertex {{ x = {x}.0; y = 128.0; }}\n");
    }
    // (v1, v2, front sector, back sector): each front (right) side faces its sector.
    let lines: [(u32, u32, u32, Option<u32>); 10] = [
        (1, 0, 0, None),
        (2, 1, 1, None),
        (3, 2, 2, None),
        (7, 6, 0, None),
        (6, 5, 1, None),
        (5, 4, 2, None),
        (0, 7, 0, None),
        (4, 3, 2, None),
        (1, 6, 1, Some(0)),
        (2, 5, 2, Some(1)),
    ];
    let mut sides = String::new();
    let mut side = |sector: u32, n: &mut u32| {
        sides += &format!("sidedef {{ sector = {sector}; texturemiddle = \"CHECKW\"; }}\n");
        *n += 1;
        *n - 1
    };
    let mut n = 0;
    for (v1, v2, front, back) in lines {
        let f = side(front, &mut n);
        match back {
            None => {
                t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {f}; }}\n");
            }
            Some(back) => {
                let b = side(back, &mut n);
                t += &format!(
                    "linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {f}; sideback = {b}; \
                     twosided = true; }}\n"
                );
            }
        }
    }
    t += &sides;
    for floor in [0, 24, 49] {
        t += &format!(
            "sector {{ heightfloor = {floor}; heightceiling = 200; texturefloor = \"STRIPES\"; \
             textureceiling = \"STRIPES\"; lightlevel = 192; }}\n"
        );
    }
    t += "thing { x = 160.0; y = 100.0; type = 2035; skill1 = true; skill2 = true; \
          skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    t
}

/// The eye of every frame of a walk from `from` to `to` (x, y) over `secs` seconds, as
/// `--poses` writes them.
fn walk(dir: &TempDir, from: [f64; 2], to: [f64; 2], secs: f64) -> Vec<[f64; 3]> {
    walk_map(dir, steps_room(), from, to, secs)
}

/// The same walk over the UDMF map `textmap` (a PWAD over freedoom2).
pub(crate) fn walk_map(
    dir: &TempDir,
    textmap: String,
    from: [f64; 2],
    to: [f64; 2],
    secs: f64,
) -> Vec<[f64; 3]> {
    let wad = dir.join("steps.wad");
    std::fs::write(&wad, udmf_room_pwad(textmap).to_bytes()).unwrap();
    let iwad = support::freedoom2();
    let keys = [(0.0, [from[0], from[1], 41.0]), (secs, [to[0], to[1], 41.0])];
    walked_eyes(dir, &[&iwad, &wad], &keys, &[])
}

/// The eye of every frame of `film FILES --walk` along a path through `keys` (seconds, native
/// camera x, y, z; facing angle 0, level), as `--poses` writes them; `extra` arguments added.
pub(crate) fn walked_eyes(
    dir: &TempDir,
    files: &[&Path],
    keys: &[(f64, [f64; 3])],
    extra: &[&str],
) -> Vec<[f64; 3]> {
    let path = dir.join("path.json");
    let key = |&(t, p): &(f64, [f64; 3])| {
        format!(r#"{{"t": {t}, "camera": [{}, {}, {}], "angle": 0, "pitch": 0}}"#, p[0], p[1], p[2])
    };
    let keys: Vec<String> = keys.iter().map(key).collect();
    std::fs::write(&path, format!(r#"{{"keyframes": [{}]}}"#, keys.join(", "))).unwrap();
    let poses = dir.join("poses.json");
    let mut args: Vec<&std::ffi::OsStr> = vec!["film".as_ref()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    let frames = dir.join("frames");
    for a in ["--path".as_ref(), path.as_os_str(), "--walk".as_ref(), "--size".as_ref()] {
        args.push(a);
    }
    for a in ["32x20".as_ref(), "--poses".as_ref(), poses.as_os_str(), "-o".as_ref()] {
        args.push(a);
    }
    args.push(frames.as_os_str());
    args.extend(extra.iter().map(|a| std::ffi::OsStr::new(*a)));
    success(&mapscope(args), "film --walk");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&poses).unwrap()).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let c = p["camera"].as_array().unwrap();
            [0, 1, 2].map(|i| c[i].as_f64().unwrap())
        })
        .collect()
}

pub(crate) fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

#[test]
fn a_walker_stops_its_half_width_from_a_one_sided_wall_eye_41_above_the_floor() {
    let dir = TempDir::new("walk-wall");
    let eyes = walk(&dir, [64.0, 32.0], [-200.0, 32.0], 2.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 16.0) && near(last[1], 32.0), "stopped at {last:?}");
    assert!(eyes.iter().all(|e| near(e[2], 41.0)), "eye heights {eyes:?}");
}

#[test]
fn a_walker_climbs_a_24_unit_step_but_not_a_25_unit_one() {
    let dir = TempDir::new("walk-steps");
    let eyes = walk(&dir, [64.0, 32.0], [500.0, 32.0], 3.0);
    let last = eyes.last().unwrap();
    // On the 24 floor, its box against the 25-unit riser at x 384.
    assert!(near(last[0], 384.0 - 16.0), "stopped at {last:?}");
    assert!(near(last[2], 24.0 + 41.0), "eye at {last:?}");
}

#[test]
fn a_walker_falls_off_ledges_with_gravity_to_the_floor_below() {
    let dir = TempDir::new("walk-fall");
    let eyes = walk(&dir, [480.0, 32.0], [100.0, 32.0], 3.0);
    assert!(near(eyes[0][2], 49.0 + 41.0), "starts on the 49 floor: {:?}", eyes[0]);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 100.0) && near(last[2], 41.0), "ends at {last:?}");
    // Falling takes tics: eyes between the floors' eye heights on the way down.
    let between = eyes.iter().filter(|e| ![41.0, 65.0, 90.0].iter().any(|&h| near(e[2], h)));
    assert!(between.count() >= 4, "no fall: {eyes:?}");
    // Never below the floor's eye height, never up again.
    assert!(eyes.windows(2).all(|w| w[1][2] <= w[0][2] + 1e-9 && w[1][2] >= 41.0 - 1e-9));
}

#[test]
fn a_walker_is_stopped_by_a_barrel_at_its_radius() {
    let dir = TempDir::new("walk-barrel");
    let eyes = walk(&dir, [64.0, 100.0], [250.0, 100.0], 2.0);
    let last = eyes.last().unwrap();
    // Barrel radius 10 plus the player's 16, in front of x 160.
    assert!(near(last[0], 160.0 - 26.0), "stopped at {last:?}");
}

#[test]
fn a_doom_walk_starting_outside_the_map_is_refused() {
    let dir = TempDir::new("walk-outside");
    let wad = dir.join("steps.wad");
    std::fs::write(&wad, udmf_room_pwad(steps_room()).to_bytes()).unwrap();
    let path = dir.join("path.json");
    std::fs::write(&path, r#"{"keyframes": [{"t": 0, "camera": [-500, 64, 41], "angle": 0}]}"#)
        .unwrap();
    let iwad = support::freedoom2();
    let out = mapscope([
        "film",
        iwad.to_str().unwrap(),
        wad.to_str().unwrap(),
        "--path",
        path.to_str().unwrap(),
        "--walk",
        "-o",
        dir.join("frames").to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "walked outside the map");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no floor under the path's first keyframe (-500, 64, 41)"), "{err}");
}
