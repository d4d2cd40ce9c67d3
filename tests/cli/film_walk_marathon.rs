//! `mapscope film --walk` on Marathon levels built for it, by Aleph One's rules (map units,
//! 1024 to the world unit): a walker heading into a wall stops a quarter world unit (256) from
//! it, climbs a step of a third of a world unit (341) but not one of 342, falls off a ledge to
//! the floor below, keeps its eye 614 over the floor (the running model's height less its
//! camera height, or what the level's `PHys` chunk says), and is stopped by a solid line
//! between two open polygons.

use mapscope::formats::marathon::map::{line_flags, MapObject};
use mapscope::formats::marathon::walk::PlayerPhysics;
use mapscope::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon};

use crate::film_walk::walked_eyes;
use crate::support::TempDir;

/// The engine's eye over the feet: (4/5 - 1/5 of FIXED_ONE) >> 6.
const EYE: f64 = 614.0;

/// A polygon `x0..x1` by `0..2048` (clockwise with +y down), walled all round.
fn block(x0: i16, x1: i16, floor: i16, ceiling: i16) -> RoomPolygon {
    RoomPolygon::walled_rect([x0, 0, x1, 2048], floor, ceiling, 0x1100)
}

/// Three polygons in a row along x, ceilings at 2048: floor 342 (x -2048..0: a step too
/// high from the middle), 0 (x 0..2048) and 341 (x 2048..4096: a step the player climbs).
fn steps() -> Room {
    Room::build(&[
        block(-2048, 0, 342, 2048),
        block(0, 2048, 0, 2048),
        block(2048, 4096, 341, 2048),
    ])
}

/// Two polygons of the same heights side by side, the line between them solid.
fn fenced() -> Room {
    let mut room = Room::build(&[block(0, 2048, 0, 2048), block(2048, 4096, 0, 2048)]);
    for line in &mut room.lines {
        if line.clockwise_polygon >= 0 && line.counterclockwise_polygon >= 0 {
            line.flags |= line_flags::SOLID;
        }
    }
    room
}

/// A Marathon 2 scenario of `room`, with `extra` chunks in its level.
fn scenario(room: &Room, extra: Vec<([u8; 4], Vec<u8>)>) -> Vec<u8> {
    let start =
        MapObject { kind: 3, index: 0, facing: 0, polygon: 0, x: 1024, y: 1024, z: 0, flags: 0 };
    let mut level = LevelChunks::of_room("Walk", room, &[writer::constant_light(1.0)], &[start]);
    level.chunks.extend(extra);
    writer::wad(4, 1, "Walk", &[level])
}

/// The eye of every frame of a walk from `from` to `to` (x, y) over `secs` seconds in the
/// scenario `map`, as `--poses` writes them.
fn walk(dir: &TempDir, map: &[u8], from: [f64; 2], to: [f64; 2], secs: f64) -> Vec<[f64; 3]> {
    walk_path(dir, map, &[(0.0, from), (secs, to)])
}

/// [`walk`] along keyframes (time, x, y).
fn walk_path(dir: &TempDir, map: &[u8], keys: &[(f64, [f64; 2])]) -> Vec<[f64; 3]> {
    let file = dir.join("walk.sceA");
    std::fs::write(&file, map).unwrap();
    let keys: Vec<(f64, [f64; 3])> = keys.iter().map(|&(t, p)| (t, [p[0], p[1], EYE])).collect();
    // A frame a tic.
    walked_eyes(dir, &[&file], &keys, &["--fps", "30"])
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 0.01
}

#[test]
fn a_marathon_walker_stops_a_quarter_unit_from_a_wall_eye_614_over_the_floor() {
    let dir = TempDir::new("mwalk-wall");
    let map = scenario(&steps(), Vec::new());
    let eyes = walk(&dir, &map, [1024.0, 1024.0], [1024.0, -1000.0], 2.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 1024.0) && near(last[1], 256.0), "stopped at {last:?}");
    assert!(eyes.iter().all(|e| near(e[2], EYE)), "eye heights {eyes:?}");
}

#[test]
fn a_marathon_walker_climbs_a_341_step() {
    let dir = TempDir::new("mwalk-step-up");
    let map = scenario(&steps(), Vec::new());
    let eyes = walk(&dir, &map, [1024.0, 1024.0], [3072.0, 1024.0], 2.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 3072.0) && near(last[2], 341.0 + EYE), "ends at {last:?}");
    // The climb takes tics: eyes between the two floors' eye heights.
    assert!(eyes.iter().filter(|e| e[2] > EYE + 1.0 && e[2] < 341.0 + EYE - 1.0).count() >= 2);
}

#[test]
fn a_marathon_walker_does_not_climb_a_342_step() {
    let dir = TempDir::new("mwalk-step-high");
    let map = scenario(&steps(), Vec::new());
    let eyes = walk(&dir, &map, [1024.0, 1024.0], [-1024.0, 1024.0], 2.0);
    let last = eyes.last().unwrap();
    // A quarter unit short of the riser at x 0, on the floor.
    assert!(near(last[0], 256.0) && near(last[2], EYE), "stopped at {last:?}");
    assert!(eyes.iter().all(|e| near(e[2], EYE)), "eye heights {eyes:?}");
}

#[test]
fn a_marathon_walker_falls_off_a_ledge_to_the_floor_below() {
    let dir = TempDir::new("mwalk-fall");
    let map = scenario(&steps(), Vec::new());
    let eyes = walk(&dir, &map, [-1024.0, 1024.0], [1024.0, 1024.0], 2.0);
    assert!(near(eyes[0][2], 342.0 + EYE), "starts on the 342 floor: {:?}", eyes[0]);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 1024.0) && near(last[2], EYE), "ends at {last:?}");
    // The floor holds it up until a quarter unit past the ledge at x 0.
    let over = eyes.iter().filter(|e| e[0] > 0.5 && e[0] < 255.5);
    assert!(over.clone().count() >= 1 && over.clone().all(|e| near(e[2], 342.0 + EYE)));
    // Dropping 342 takes tics under gravity.
    let between = eyes.iter().filter(|e| e[2] > EYE + 1.0 && e[2] < 342.0 + EYE - 1.0);
    assert!(between.count() >= 4, "no fall: {eyes:?}");
}

#[test]
fn a_marathon_walker_is_stopped_by_a_solid_line_between_open_polygons() {
    let dir = TempDir::new("mwalk-solid");
    let map = scenario(&fenced(), Vec::new());
    let eyes = walk(&dir, &map, [1024.0, 1024.0], [3072.0, 1024.0], 2.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 2048.0 - 256.0) && near(last[2], EYE), "stopped at {last:?}");
}

#[test]
fn a_marathon_levels_phys_chunk_sets_the_eye_and_the_speed() {
    let dir = TempDir::new("mwalk-phys");
    let mut physics = PlayerPhysics::RUNNING;
    // The eye at the top of the body (819 over the floor), half the speed (64 a tic).
    physics.camera_height = 0;
    physics.maximum_forward_velocity /= 2;
    let map = scenario(&steps(), vec![(*b"PHys", writer::phys(&physics))]);
    // The goal leaps to x 1700 at once; the engine's 128 a tic would get there in 11 tics, at
    // 64 a tic the 15 tics of half a second end at 300 + 15 * 64.
    let keys = [(0.0, [300.0, 1024.0]), (0.05, [1700.0, 1024.0]), (0.5, [1700.0, 1024.0])];
    let eyes = walk_path(&dir, &map, &keys);
    assert!(eyes.iter().all(|e| near(e[2], 819.0)), "eye heights {eyes:?}");
    let last = eyes.last().unwrap();
    assert!(near(last[0], 300.0 + 15.0 * 64.0), "{last:?}");
}
