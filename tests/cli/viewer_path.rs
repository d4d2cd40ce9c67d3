//! The viewer's camera path keys under Xvfb, driven as `viewer_window` drives the viewer:
//! Insert adds the camera as a keyframe, Page Up goes back to a keyframe, Home plays the path
//! to its end, Delete removes the keyframe nearest the playhead; each checked by the camera an
//! F12 screenshot records.

use std::thread::sleep;
use std::time::Duration;

use mapscope::shot::ShotMeta;

use crate::support::{freedoom2, TempDir};
use crate::viewer_window::{one_viewer_at_a_time, os, xdotool_ok, Viewer};

fn same_camera(a: &ShotMeta, b: &ShotMeta) -> bool {
    let near = |x: f64, y: f64| (x - y).abs() < 1e-6;
    a.pose.position.iter().zip(&b.pose.position).all(|(x, y)| near(*x, *y))
        && near(a.pose.angle, b.pose.angle)
        && near(a.pose.pitch, b.pose.pitch)
}

#[test]
fn path_keys_add_step_play_and_remove_keyframes() {
    let _one_at_a_time = one_viewer_at_a_time();
    let wad = freedoom2();
    let tmp = TempDir::new("viewer-path");
    let mut args = vec![wad.into_os_string()];
    args.extend(os(&["--map", "MAP01", "--no-config"]));
    let mut v = Viewer::start(&tmp, &args);
    v.key("F5");
    let (_, start) = v.screenshot();
    v.key("Insert");
    // Walk forward for a moment, then the second keyframe.
    xdotool_ok(&v.display, &["keydown", "--window", &v.window, "Up"]);
    sleep(Duration::from_millis(600));
    xdotool_ok(&v.display, &["keyup", "--window", &v.window, "Up"]);
    sleep(Duration::from_millis(300));
    let (_, moved) = v.screenshot();
    assert!(!same_camera(&start, &moved), "the camera did not move: {:?}", moved.pose);
    v.key("Insert");

    v.key("Prior");
    sleep(Duration::from_millis(300));
    let (_, back) = v.screenshot();
    assert!(
        same_camera(&back, &start),
        "Page Up: {:?}, first keyframe {:?}",
        back.pose,
        start.pose
    );

    // The keyframes are 2 s apart: played, the camera ends on the second.
    v.key("Home");
    sleep(Duration::from_millis(3000));
    let (_, played) = v.screenshot();
    assert!(
        same_camera(&played, &moved),
        "played: {:?}, last keyframe {:?}",
        played.pose,
        moved.pose
    );

    // Delete takes the keyframe at the playhead (the end); Page Down then finds only the first.
    v.key("Delete");
    v.key("Next");
    sleep(Duration::from_millis(300));
    let (_, left) = v.screenshot();
    assert!(same_camera(&left, &start), "after Delete: {:?}", left.pose);
}
