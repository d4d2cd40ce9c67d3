//! Walk mode in the viewer under Xvfb on a Marathon level (map units, left-handed: facing
//! angles run from +x towards +y, +y down the map): Z puts the eye 614 over the floor, W takes
//! the walker the way it faces and D to its right, A to its left, as the game's sidestep keys
//! do (`physics.cpp`: a sidestep right moves along (-sin, cos) of the facing).

use std::time::Duration;

use mapscope::formats::marathon::map::MapObject;
use mapscope::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon};

use crate::support::TempDir;
use crate::viewer_window::{one_viewer_at_a_time, os, Viewer};

/// One square room 0..8192 each way, floor 0, ceiling 2048; the player starts in its middle
/// facing +y (a quarter turn: 128 of the 512 facing units), south on the map.
fn big_room() -> Vec<u8> {
    let room = Room::build(&[RoomPolygon::walled_rect([0, 0, 8192, 8192], 0, 2048, 0x1100)]);
    let start =
        MapObject { kind: 3, index: 0, facing: 128, polygon: 0, x: 4096, y: 4096, z: 0, flags: 0 };
    let level = LevelChunks::of_room("Big Room", &room, &[writer::constant_light(1.0)], &[start]);
    writer::wad(4, 1, "Big Room", &[level])
}

#[test]
fn marathon_walk_keys_go_forward_right_and_left_of_the_facing() {
    let _one_at_a_time = one_viewer_at_a_time();
    let tmp = TempDir::new("viewer-walk-marathon");
    let map = tmp.join("big.sceA");
    std::fs::write(&map, big_room()).unwrap();
    let mut args = vec![map.into_os_string()];
    args.extend(os(&["--no-config"]));
    let mut v = Viewer::start(&tmp, &args);
    let (_, start) = v.screenshot();
    let s = start.pose.position;
    assert!((start.pose.angle - 90.0).abs() < 1e-6, "facing {}", start.pose.angle);

    v.key("z");
    let (_, standing) = v.screenshot();
    assert_eq!(standing.pose.position[2], 614.0, "the walker's eye over the floor");

    v.hold("w", Duration::from_millis(400));
    let (_, ahead) = v.screenshot();
    let a = ahead.pose.position;
    assert!(a[1] > s[1] + 300.0 && (a[0] - s[0]).abs() < 1.0, "forward went {s:?} to {a:?}");

    // Facing south on the map, its right is west (-x).
    v.hold("d", Duration::from_millis(400));
    let (_, right) = v.screenshot();
    let r = right.pose.position;
    assert!(r[0] < a[0] - 300.0 && (r[1] - a[1]).abs() < 1.0, "right went {a:?} to {r:?}");

    v.hold("a", Duration::from_millis(400));
    let (_, left) = v.screenshot();
    let l = left.pose.position;
    assert!(l[0] > r[0] + 300.0 && (l[1] - r[1]).abs() < 1.0, "left went {r:?} to {l:?}");
}
