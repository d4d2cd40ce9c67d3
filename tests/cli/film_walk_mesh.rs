//! `mapscope film --walk` in the games walked on their triangles (Saturn Quake and
//! Carmageddon 2 levels written here with the formats' writers, Attack of the Saucerman's
//! fixture): a walker heading into a wall stops its radius from it, climbs a step of the
//! game's step height but not a higher one (Saturn Quake, Carmageddon 2), falls off a ledge
//! with gravity to the floor below, and keeps its eye at the game's eye height over the floor;
//! Saucerman's translucent blocks do not stop it.

use std::path::Path;

use mapscope::formats::carma2::actors::{actor_type, Actor, Hierarchy};
use mapscope::formats::carma2::models::{Face, Model};
use mapscope::formats::carma2::transform::Matrix34;
use mapscope::formats::carma2::writer::{write_actors, write_materials, write_models, write_twt};
use mapscope::formats::saturn::writer::{word, LevBuilder, QuadSpec};

use crate::film_walk::walked_eyes;
use crate::support::carma2_track::material;
use crate::support::{self, mapscope, TempDir};

/// A level along x, `depth` deep either side of z = 0: a wall across x = `wall`, then floors
/// one after another, each `(x0, x1, height)`, with a riser between each and the next.
struct Terraces {
    wall: f64,
    floors: Vec<(f64, f64, f64)>,
    depth: f64,
    /// How high the wall stands.
    top: f64,
}

impl Terraces {
    /// Quads as four corners each (x, y up, z), any winding.
    fn quads(&self) -> Vec<[[f64; 3]; 4]> {
        let d = self.depth;
        let across = |x: f64, y0: f64, y1: f64| [[x, y0, -d], [x, y0, d], [x, y1, d], [x, y1, -d]];
        let mut quads = vec![across(self.wall, 0.0, self.top)];
        let mut before = None;
        for &(x0, x1, h) in &self.floors {
            quads.push([[x0, h, -d], [x1, h, -d], [x1, h, d], [x0, h, d]]);
            if let Some(b) = before {
                if b != h {
                    quads.push(across(x0, f64::min(b, h), f64::max(b, h)));
                }
            }
            before = Some(h);
        }
        quads
    }
}

/// Saturn Quake (Quake units): a wall at x -256; floors 0, 18 (a step of Quake's 18), 37
/// (19 more: too high) and 101 (a ledge 64 over that).
fn saturn_level() -> Vec<u8> {
    let terraces = Terraces {
        wall: -256.0,
        floors: vec![
            (-256.0, 256.0, 0.0),
            (256.0, 512.0, 18.0),
            (512.0, 768.0, 37.0),
            (768.0, 1024.0, 101.0),
        ],
        depth: 128.0,
        top: 256.0,
    };
    let mut b = LevBuilder::default();
    let mut palette = [word(20, 20, 20); 16];
    palette[0] = 0;
    let texture = b.texture(palette, vec![1; 4096]);
    for q in terraces.quads() {
        let corners = q.map(|c| c.map(|v| v as i16));
        let (e1, e2) = (sub(q[1], q[0]), sub(q[2], q[0]));
        let n = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let quad = QuadSpec { corners, lights: [8; 4], texture };
        b.plane(corners, n.map(|c| c / len), &[quad], None);
    }
    b.finish()
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Carmageddon 2 (metres): a wall at x -5; floors 0, 0.4 (the pedestrian's step), 0.81 (0.41
/// more: too high) and 2.81 (a ledge 2 m over that).
fn carma2_track() -> Vec<u8> {
    let terraces = Terraces {
        wall: -5.0,
        floors: vec![(-5.0, 5.0, 0.0), (5.0, 10.0, 0.4), (10.0, 15.0, 0.81), (15.0, 20.0, 2.81)],
        depth: 3.0,
        top: 5.0,
    };
    let mut vertices = Vec::new();
    let mut faces = Vec::new();
    for q in terraces.quads() {
        let base = vertices.len() as u16;
        vertices.extend(q.map(|c| c.map(|v| v as f32)));
        for v in [[0, 1, 2], [0, 2, 3]] {
            faces.push(Face { vertices: v.map(|k| base + k), smoothing: 1, flags: 0, material: 1 });
        }
    }
    let uvs = vec![[0.0, 0.0]; vertices.len()];
    let model = Model {
        name: "TERRACES".into(),
        flags: 0,
        vertices,
        uvs,
        faces,
        material_names: vec!["M_GREY".into()],
    };
    let actor = |name: &str, model: Option<&str>| Actor {
        name: name.into(),
        actor_type: if model.is_some() { actor_type::MODEL } else { actor_type::NONE },
        render_style: if model.is_some() { 4 } else { 0 },
        transform: Matrix34::IDENTITY,
        bounds: None,
        model: model.map(String::from),
        material: None,
        parent: model.map(|_| 0),
        depth: u32::from(model.is_some()),
    };
    let hierarchy =
        Hierarchy { actors: vec![actor("ROOT", None), actor("TERRACES", Some("TERRACES"))] };
    let mut grey = material("M_GREY", None, 0);
    grey.colour = [128, 128, 128];
    write_twt(&[
        ("TRACK.ACT", &write_actors(&[hierarchy])),
        ("TRACK.DAT", &write_models(&[model])),
        ("TRACK.MAT", &write_materials(&[grey])),
    ])
}

/// The native eye of every frame of a walk along a path from `from` to `to` (native x, y, z
/// of the camera) over `secs` seconds, as `--poses` writes them.
fn walk(dir: &TempDir, level: &Path, from: [f64; 3], to: [f64; 3], secs: f64) -> Vec<[f64; 3]> {
    walked_eyes(dir, &[level], &[(0.0, from), (secs, to)], &[])
}

fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() < tolerance
}

fn saturn_walk(tag: &str, from: [f64; 3], to: [f64; 3], secs: f64) -> Vec<[f64; 3]> {
    let dir = TempDir::new(tag);
    let lev = dir.join("terraces.lev");
    std::fs::write(&lev, saturn_level()).unwrap();
    walk(&dir, &lev, from, to, secs)
}

fn carma2_walk(tag: &str, from: [f64; 3], to: [f64; 3], secs: f64) -> Vec<[f64; 3]> {
    let dir = TempDir::new(tag);
    let twt = dir.join("TERRACES.TWT");
    std::fs::write(&twt, carma2_track()).unwrap();
    walk(&dir, &twt, from, to, secs)
}

/// Quake's eye: 22 over the origin, which is 24 over the feet.
const QUAKE_EYE: f64 = 46.0;

#[test]
fn saturn_quake_stops_16_from_a_wall_eye_46_over_the_floor() {
    let eyes = saturn_walk("walk-sq-wall", [0.0, 60.0, 0.0], [-600.0, 60.0, 0.0], 2.5);
    let last = eyes.last().unwrap();
    assert!(near(last[0], -256.0 + 16.0, 0.01) && near(last[2], 0.0, 0.01), "at {last:?}");
    assert!(eyes.iter().all(|e| near(e[1], QUAKE_EYE, 1e-6)), "eye heights {eyes:?}");
}

#[test]
fn saturn_quake_climbs_an_18_unit_step_but_not_a_19_unit_one() {
    let eyes = saturn_walk("walk-sq-steps", [0.0, 60.0, 0.0], [1000.0, 60.0, 0.0], 4.0);
    let last = eyes.last().unwrap();
    // On the 18 floor, against the 19-unit riser at x 512.
    assert!(near(last[0], 512.0 - 16.0, 0.01), "at {last:?}");
    assert!(near(last[1], 18.0 + QUAKE_EYE, 1e-6), "eye at {last:?}");
}

#[test]
fn saturn_quake_falls_off_a_ledge_with_gravity_to_the_floor_below() {
    let eyes = saturn_walk("walk-sq-fall", [900.0, 160.0, 0.0], [100.0, 160.0, 0.0], 4.0);
    assert!(near(eyes[0][1], 101.0 + QUAKE_EYE, 1e-6), "starts on the ledge: {:?}", eyes[0]);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 100.0, 0.01) && near(last[1], QUAKE_EYE, 1e-6), "ends at {last:?}");
    let floors = [0.0, 18.0, 37.0, 101.0].map(|f| f + QUAKE_EYE);
    let between = eyes.iter().filter(|e| !floors.iter().any(|&h| near(e[1], h, 1e-6)));
    assert!(between.count() >= 4, "no fall: {eyes:?}");
    assert!(eyes.windows(2).all(|w| w[1][1] <= w[0][1] + 1e-9), "went up: {eyes:?}");
    // The first tic over the drop falls sv_gravity / 30² (0.89 units), not all the way.
    let first = eyes.iter().map(|e| e[1]).find(|&y| y < floors[3] - 1e-6).unwrap();
    assert!(first > floors[2], "fell at once to {first}");
}

/// The pedestrian's eye, 1.65 m.
const PED_EYE: f64 = 1.65;

#[test]
fn carmageddon_2_stops_0_3_from_a_wall_eye_1_65_over_the_floor() {
    let eyes = carma2_walk("walk-c2-wall", [0.0, 2.0, 0.0], [-8.0, 2.0, 0.0], 2.5);
    let last = eyes.last().unwrap();
    assert!(near(last[0], -5.0 + 0.3, 1e-3) && near(last[2], 0.0, 1e-3), "at {last:?}");
    assert!(eyes.iter().all(|e| near(e[1], PED_EYE, 1e-6)), "eye heights {eyes:?}");
}

#[test]
fn carmageddon_2_climbs_a_0_4_step_but_not_a_0_41_one() {
    let eyes = carma2_walk("walk-c2-steps", [0.0, 2.0, 0.0], [19.0, 2.0, 0.0], 4.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 10.0 - 0.3, 1e-3), "at {last:?}");
    assert!(near(last[1], 0.4 + PED_EYE, 1e-5), "eye at {last:?}");
}

#[test]
fn carmageddon_2_falls_off_a_ledge_to_the_floor_below() {
    let eyes = carma2_walk("walk-c2-fall", [17.5, 5.0, 0.0], [2.0, 5.0, 0.0], 4.0);
    assert!(near(eyes[0][1], 2.81 + PED_EYE, 1e-5), "starts on the ledge: {:?}", eyes[0]);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 2.0, 1e-3) && near(last[1], PED_EYE, 1e-5), "ends at {last:?}");
    let floors = [0.0, 0.4, 0.81, 2.81].map(|f| f + PED_EYE);
    let between = eyes.iter().filter(|e| !floors.iter().any(|&h| near(e[1], h, 1e-5)));
    assert!(between.count() >= 4, "no fall: {eyes:?}");
}

#[test]
fn saturn_quakes_test_room_walks_on_its_floor() {
    // The fixture's floor is at y 16; its player start stands over it.
    let dir = TempDir::new("walk-sq-room");
    let lev = support::fixture("saturn/test_room.lev");
    let eyes = walk(&dir, &lev, [40.0, 40.0, -24.0], [100.0, 40.0, -24.0], 0.5);
    assert!(eyes.iter().all(|e| near(e[1], 16.0 + QUAKE_EYE, 1e-6)), "eyes {eyes:?}");
}

fn saucer_walk(tag: &str, from: [f64; 3], to: [f64; 3], secs: f64) -> Vec<[f64; 3]> {
    let dir = TempDir::new(tag);
    walk(&dir, &support::fixture("saucer/Saucerdata.pak"), from, to, secs)
}

/// Saucerman's eye over the ground, the spawn camera's.
const SAUCER_EYE: f64 = 128.0;

#[test]
fn saucerman_stands_its_eye_128_over_the_ground_where_the_spawn_camera_does() {
    // The fixture's spawn camera is 128 over the ground of the player's cell (15744, 14208).
    let from = [15744.0, 400.0, 14208.0];
    let eyes = saucer_walk("walk-su-spawn", from, from, 0.3);
    assert!(eyes.iter().all(|e| near(e[1], SAUCER_EYE, 1e-3)), "eyes {eyes:?}");
}

#[test]
fn saucerman_stops_32_from_a_block() {
    // TESTA's block at cell (56, 16): its front face at z 17 * 256.
    let eyes =
        saucer_walk("walk-su-block", [14464.0, 300.0, 4652.0], [14464.0, 300.0, 4000.0], 3.0);
    let last = eyes.last().unwrap();
    assert!(
        near(last[2], 17.0 * 256.0 + 32.0, 0.01) && near(last[0], 14464.0, 0.01),
        "at {last:?}"
    );
    assert!(eyes.iter().all(|e| near(e[1], SAUCER_EYE, 1e-3)), "eyes {eyes:?}");
}

#[test]
fn saucerman_walks_through_a_translucent_block() {
    // The blend row's block at cell (10, 52) (x 2560..2816) is drawn through a blend table.
    let eyes =
        saucer_walk("walk-su-glass", [2350.0, 300.0, 13440.0], [3000.0, 300.0, 13440.0], 3.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 3000.0, 0.01), "at {last:?}");
}

#[test]
fn saucerman_falls_off_a_floating_block_to_the_ground() {
    // TESTA's block raised 512 at cell (38, 40): its top at 768.
    let eyes =
        saucer_walk("walk-su-fall", [9856.0, 1000.0, 10368.0], [10300.0, 1000.0, 10368.0], 3.0);
    assert!(near(eyes[0][1], 768.0 + SAUCER_EYE, 1e-3), "starts on top: {:?}", eyes[0]);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 10300.0, 0.01) && near(last[1], SAUCER_EYE, 1e-3), "at {last:?}");
    let between = eyes.iter().filter(|e| e[1] < 768.0 + SAUCER_EYE - 1e-3 && e[1] > SAUCER_EYE);
    assert!(between.count() >= 4, "no fall: {eyes:?}");
}

#[test]
fn a_walk_starting_over_nothing_is_refused_naming_the_keyframe() {
    let dir = TempDir::new("walk-over-nothing");
    let path = dir.join("path.json");
    std::fs::write(
        &path,
        r#"{"keyframes": [{"t": 0, "camera": [90000, 5, 90000], "angle": 0, "pitch": 0}]}"#,
    )
    .unwrap();
    let track = support::fixture("carma2/TRACK.TWT");
    let out = mapscope([
        "film",
        track.to_str().unwrap(),
        "--path",
        path.to_str().unwrap(),
        "--walk",
        "-o",
        dir.join("frames").to_str().unwrap(),
    ]);
    assert!(!out.status.success(), "walked over nothing");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no floor under the path's first keyframe (90000, 5, 90000)"), "{err}");
}
