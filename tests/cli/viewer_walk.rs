//! Walk mode in the viewer under Xvfb, driven as `viewer_window` drives it: Z, then the
//! forward key held on freedoom2 MAP01. Flying keeps the eye's height; walking takes it down
//! the steps ahead of the start, keeps it 41 units over the floor under it, and stops where
//! something blocks it, however long the key is held; the same on Saturn Quake's test room,
//! walked on its triangles, with D strafing right in its left-handed axes.

use std::time::Duration;

use mapscope::shot::ShotMeta;
use serde_json::Value;

use crate::support::{freedoom2, mapscope, success, TempDir};
use crate::viewer_window::{one_viewer_at_a_time, os, Viewer};

/// The floor's height straight under a camera, as `pick` finds it looking down.
fn floor_under(wad: &str, at: [f64; 3]) -> f64 {
    let camera = format!("--camera={},{},{}", at[0], at[1], at[2]);
    let out = mapscope(["pick", wad, "--map", "MAP01", &camera, "--pitch=-89.9", "--json"]);
    let v: Value = serde_json::from_str(&success(&out, "pick")).unwrap();
    assert_eq!(v["kind"], "floor", "{v}");
    v["point"][2].as_f64().unwrap()
}

fn position(meta: &ShotMeta) -> [f64; 3] {
    meta.pose.position
}

#[test]
fn walk_mode_follows_the_floor_and_stops_where_it_is_blocked() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom2();
    let w = wad.to_str().unwrap().to_string();
    let tmp = TempDir::new("viewer-walk");
    let mut args = vec![wad.into_os_string()];
    args.extend(os(&["--map", "MAP01", "--no-config"]));
    let mut v = Viewer::start(&tmp, &args);
    let (_, start) = v.screenshot();
    assert_eq!(position(&start)[2], 41.0, "the start's eye height");

    v.key("z");
    v.hold("Up", Duration::from_millis(4000));
    let (_, walked) = v.screenshot();
    let p = position(&walked);
    assert!(p[0] > position(&start)[0] + 200.0, "the walker did not go ahead: {p:?}");
    // Down the steps: the eye is no longer at the start's height, but 41 over the floor.
    assert!(p[2] < 41.0 - 1.0, "the eye stayed at the start's height: {p:?}");
    let floor = floor_under(&w, p);
    assert!((p[2] - floor - 41.0).abs() < 1e-6, "eye {} over a floor at {floor}", p[2]);

    // Once blocked, more of the key goes nowhere.
    v.hold("Up", Duration::from_millis(1500));
    let (_, pushed) = v.screenshot();
    let q = position(&pushed);
    assert!((q[0] - p[0]).abs() < 1.0 && (q[1] - p[1]).abs() < 1.0, "{p:?} then {q:?}");
}

/// Saturn Quake's test room, a left-handed level walked on its triangles: Z puts the eye 46
/// over the floor (at 16), the forward key takes it along +x until a wall stops it, and D
/// strafes it to the camera's right, which in the room's left-handed axes is towards -z.
#[test]
fn walk_mode_on_saturn_quake_keeps_quakes_eye_and_strafes_to_the_right() {
    let _one_at_a_time = one_viewer_at_a_time();
    let tmp = TempDir::new("viewer-walk-saturn");
    let lev = crate::support::fixture("saturn/test_room.lev");
    let mut args = vec![lev.into_os_string()];
    args.extend(os(&["--no-config"]));
    let mut v = Viewer::start(&tmp, &args);
    let (_, start) = v.screenshot();
    let s = position(&start);
    assert_eq!(s[1], 16.0 + 24.0, "the player start's height");

    v.key("z");
    v.hold("Up", Duration::from_millis(3000));
    let (_, walked) = v.screenshot();
    let p = position(&walked);
    assert!(p[0] > s[0] + 100.0, "the walker did not go ahead: {p:?}");
    assert!((p[1] - (16.0 + 46.0)).abs() < 1e-6, "eye at {p:?}");
    v.hold("Up", Duration::from_millis(1000));
    let (_, pushed) = v.screenshot();
    let q = position(&pushed);
    assert!((q[0] - p[0]).abs() < 1e-3, "not blocked: {p:?} then {q:?}");

    v.hold("d", Duration::from_millis(500));
    let (_, strafed) = v.screenshot();
    let r = position(&strafed);
    assert!(r[2] < q[2] - 20.0 && (r[0] - q[0]).abs() < 1.0, "{q:?} then {r:?}");
}
