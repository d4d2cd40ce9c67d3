//! `mapscope pick` answers what the frame drew at a pixel, checked against a ray cast of the
//! test's own: through the map's linedefs and sectors (not the scene's triangles), the way a
//! Doom player's eye line runs — a one-sided line stops it, a two-sided one where its opening
//! does not reach the ray's height, a sector's floor or ceiling where the ray falls or rises
//! through it. Pixels where the ray cast's answer changes within two pixels (edges) are left
//! out; on every other one the ids must agree, in faithful and in smooth frames.

use crate::support;

use mapscope::formats::doom::map::MapData;
use mapscope::formats::doom::WadStack;
use serde_json::Value;
use support::{freedoom1, freedoom2, mapscope, success};

/// What the test's ray cast meets.
#[derive(Clone, Debug, PartialEq)]
enum Seen {
    /// linedef, sidedef, part
    Wall(usize, usize, &'static str),
    Floor(usize),
    Ceiling(usize),
    /// Something the simple cast cannot judge (a masked middle, sky over sky, the void).
    Unsure,
}

struct Map {
    data: MapData,
}

impl Map {
    fn load(wad: std::path::PathBuf, name: &str) -> Map {
        let stack = WadStack::open(&[wad]).unwrap();
        Map { data: MapData::load(&stack, name).unwrap() }
    }

    fn vertex(&self, v: u32) -> (f64, f64) {
        let p = self.data.vertex(v).unwrap().to_dvec2();
        (p.x, p.y)
    }

    fn sector(&self, line: usize, side: usize) -> Option<usize> {
        let l = &self.data.linedefs[line];
        self.data.line_sector(l, side)
    }

    /// Follows the ray from `o` along `d` (native, d not normalised) through the lines.
    fn cast(&self, o: [f64; 3], d: [f64; 3]) -> Seen {
        // Every line crossing: (t, line, the side the ray comes from).
        let mut crossings = Vec::new();
        for (i, l) in self.data.linedefs.iter().enumerate() {
            let (a, b) = (self.vertex(l.v1), self.vertex(l.v2));
            let e = (b.0 - a.0, b.1 - a.1);
            let denom = d[0] * e.1 - d[1] * e.0;
            if denom.abs() < 1e-12 {
                continue;
            }
            let w = (a.0 - o[0], a.1 - o[1]);
            let t = (w.0 * e.1 - w.1 * e.0) / denom;
            let u = (w.0 * d[1] - w.1 * d[0]) / denom;
            if t > 1e-9 && (0.0..=1.0).contains(&u) {
                let cross = e.0 * (o[1] - a.1) - e.1 * (o[0] - a.0);
                crossings.push((t, i, if cross < 0.0 { 0 } else { 1 }));
            }
        }
        crossings.sort_by(|a, b| a.0.total_cmp(&b.0));
        let Some(&(_, first, side)) = crossings.first() else { return Seen::Unsure };
        let Some(mut current) = self.sector(first, side) else { return Seen::Unsure };
        let mut t_prev = 0.0;
        for &(t, line, side) in &crossings {
            let s = &self.data.sectors[current];
            // Through this sector's floor or ceiling before the line?
            if d[2] < 0.0 {
                let tf = (s.floor as f64 - o[2]) / d[2];
                if tf >= t_prev && tf <= t {
                    return Seen::Floor(current);
                }
            } else if d[2] > 0.0 {
                let tc = (s.ceiling as f64 - o[2]) / d[2];
                if tc >= t_prev && tc <= t {
                    return if s.ceiling_flat == "F_SKY1" {
                        Seen::Unsure
                    } else {
                        Seen::Ceiling(current)
                    };
                }
            }
            let z = o[2] + d[2] * t;
            let l = &self.data.linedefs[line];
            let Some(sidedef) = l.sides[side] else { return Seen::Unsure };
            if self.sector(line, side) != Some(current) {
                return Seen::Unsure;
            }
            let Some(back) = self.sector(line, side ^ 1) else {
                return Seen::Wall(line, sidedef as usize, "middle");
            };
            let (f, b) = (&self.data.sectors[current], &self.data.sectors[back]);
            if b.ceiling < f.ceiling && z >= b.ceiling as f64 {
                let sky = f.ceiling_flat == "F_SKY1" && b.ceiling_flat == "F_SKY1";
                return if sky {
                    Seen::Unsure
                } else {
                    Seen::Wall(line, sidedef as usize, "upper")
                };
            }
            if b.floor > f.floor && z <= b.floor as f64 {
                return Seen::Wall(line, sidedef as usize, "lower");
            }
            if z >= b.ceiling as f64 || z <= b.floor as f64 {
                // Closed (a door): the ray meets the back sector's edge.
                return Seen::Unsure;
            }
            if self.data.sidedefs[sidedef as usize].middle != "-" {
                return Seen::Unsure;
            }
            current = back;
            t_prev = t;
        }
        Seen::Unsure
    }
}

/// The ray cast's answer for pixel (px, py) of a 320x200 frame at 90 degrees from `eye`
/// facing `angle` (pitch 0): a pixel's centre, the projection's centre in the frame's middle.
fn seen_at(map: &Map, eye: [f64; 3], angle: f64, px: f64, py: f64) -> Seen {
    let (w, h, focal) = (320.0, 200.0, 160.0);
    let (fx, fy) = (angle.to_radians().cos(), angle.to_radians().sin());
    let (rx, ry) = (fy, -fx);
    let across = (px + 0.5 - w / 2.0) / focal;
    let up = -(py + 0.5 - h / 2.0) / focal;
    map.cast(eye, [fx + rx * across, fy + ry * across, up])
}

/// What `pick` printed for one pixel, in the ray cast's terms.
fn picked(v: &Value) -> Seen {
    let int = |k: &str| v[k].as_u64().map(|n| n as usize);
    match v["kind"].as_str().unwrap() {
        "wall" => {
            let part = match v["part"].as_str() {
                Some("upper") => "upper",
                Some("lower") => "lower",
                _ => "middle",
            };
            Seen::Wall(int("linedef").unwrap(), int("sidedef").unwrap(), part)
        }
        "floor" => Seen::Floor(int("sector").unwrap()),
        "ceiling" => Seen::Ceiling(int("sector").unwrap()),
        _ => Seen::Unsure,
    }
}

/// Picks a grid of pixels from each camera and compares every clear one with the ray cast.
fn agrees_with_the_ray_cast(
    wad: std::path::PathBuf,
    map_name: &str,
    cameras: &[([f64; 3], f64)],
    mode: &str,
) {
    let map = Map::load(wad.clone(), map_name);
    let mut checked = 0;
    let mut kinds = std::collections::BTreeSet::new();
    for &(eye, angle) in cameras {
        let mut pixels = Vec::new();
        for py in (6..200).step_by(11) {
            for px in (6..320).step_by(13) {
                let at =
                    |dx: f64, dy: f64| seen_at(&map, eye, angle, px as f64 + dx, py as f64 + dy);
                let seen = at(0.0, 0.0);
                let clear = seen != Seen::Unsure
                    && [(-2.0, 0.0), (2.0, 0.0), (0.0, -2.0), (0.0, 2.0)]
                        .iter()
                        .all(|&(dx, dy)| at(dx, dy) == seen);
                if clear {
                    pixels.push((px, py, seen));
                }
            }
        }
        println!("{map_name} {mode} from {eye:?} at {angle}: {} clear pixels", pixels.len());
        let wad_s = wad.to_str().unwrap();
        let camera = format!("--camera={},{},{}", eye[0], eye[1], eye[2]);
        let angle_s = format!("--angle={angle}");
        let mut args = vec![
            "pick",
            wad_s,
            "--map",
            map_name,
            &camera,
            &angle_s,
            "--no-things",
            "--json",
            "--mode",
            mode,
        ];
        let ats: Vec<String> = pixels.iter().map(|(x, y, _)| format!("{x},{y}")).collect();
        for a in &ats {
            args.push("--at");
            args.push(a);
        }
        let out = success(&mapscope(&args), "pick");
        let answers: Vec<Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(answers.len(), pixels.len());
        for ((px, py, seen), answer) in pixels.iter().zip(&answers) {
            assert_eq!(
                &picked(answer),
                seen,
                "{map_name} {mode} from {eye:?} at {angle}: pixel {px},{py}: {answer}"
            );
            kinds.insert(answer["kind"].as_str().unwrap().to_string());
            checked += 1;
        }
    }
    support::assert_at_least(
        checked,
        150,
        "pixels checked against the ray cast",
        "the cameras look at too little",
    );
    for k in ["wall", "floor", "ceiling"] {
        assert!(kinds.contains(k), "no {k} was checked: {kinds:?}");
    }
}

#[test]
fn pick_agrees_with_a_ray_cast_through_the_map_faithful_and_smooth() {
    let cameras = [
        ([-160.0, -160.0, 41.0], 0.0),
        ([576.0, -160.0, -23.0], 180.0),
        ([-192.0, -40.0, 41.0], 90.0),
        ([357.0, -160.0, -23.0], 270.0),
    ];
    for mode in ["faithful", "smooth"] {
        agrees_with_the_ray_cast(freedoom2(), "MAP01", &cameras, mode);
    }
    let e1m1 = [([-160.0, 304.0, 41.0], 0.0), ([2200.0, 1300.0, 81.0], 180.0)];
    agrees_with_the_ray_cast(freedoom1(), "E1M1", &e1m1, "faithful");
}

#[test]
fn pick_names_a_thing_and_its_type_and_the_sky() {
    // A view of MAP01 with health bonuses on the floor ahead.
    let wad = freedoom2();
    let w = wad.to_str().unwrap();
    let mut ats = Vec::new();
    for x in (0..320).step_by(4) {
        for y in [160, 170, 180] {
            ats.push(format!("{x},{y}"));
        }
    }
    let mut args =
        vec!["pick", w, "--map", "MAP01", "--camera=200,300,41", "--angle=270", "--json"];
    for a in &ats {
        args.push("--at");
        args.push(a);
    }
    let out = success(&mapscope(&args), "pick");
    let things: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["kind"] == "thing")
        .collect();
    assert!(!things.is_empty(), "no thing picked:\n{out}");
    let stack = WadStack::open(std::slice::from_ref(&wad)).unwrap();
    let map = MapData::load(&stack, "MAP01").unwrap();
    for t in &things {
        let n = t["thing"].as_u64().expect("a thing number");
        assert!(t["thing_type"].as_u64().is_some(), "{t}");
        // The sprite stands where its THINGS entry says.
        let th = map.things[n as usize];
        let p = &t["point"];
        let dx = p[0].as_f64().unwrap() - th.x as f64 / 65536.0;
        let dy = p[1].as_f64().unwrap() - th.y as f64 / 65536.0;
        assert!(dx.hypot(dy) < 64.0, "thing {n} picked {dx},{dy} from where it stands: {t}");
        assert_eq!(t["thing_type"].as_u64(), Some(th.kind as u64));
    }
    // Looking up out of the start room of E1M1 (its courtyard has sky).
    let w1 = freedoom1();
    let out = mapscope([
        "pick",
        w1.to_str().unwrap(),
        "--map",
        "E1M1",
        "--camera=2200,1300,81",
        "--angle=180",
        "--pitch=40",
        "--at",
        "160,10",
        "--json",
    ]);
    let sky: Value = serde_json::from_str(&success(&out, "pick")).unwrap();
    assert_eq!(sky["kind"], "sky", "{sky}");
}

#[test]
fn pick_refuses_a_pixel_outside_the_frame() {
    let wad = freedoom2();
    let out = mapscope(["pick", wad.to_str().unwrap(), "--at", "320,10"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("outside the 320x200 frame"), "{err}");
}

#[test]
fn pick_names_marathon_polygons_lines_and_sides() {
    let map = support::fixture("marathon/M2Map.sceA");
    let shapes = support::fixture("marathon/Shapes.shpA");
    let files = [map.to_str().unwrap(), "--shapes", shapes.to_str().unwrap()];
    let answers = pick_answers(&files, &["--at", "160,100", "--at", "160,180"]);
    let (wall, floor) = (&answers[0], &answers[1]);
    assert_eq!(wall["kind"], "wall", "{wall}");
    assert!(wall["line"].as_u64().is_some() && wall["side"].as_u64().is_some(), "{wall}");
    // The texture drawn is the one the side's record names.
    assert_eq!(wall["primary_texture"], wall["texture"], "{wall}");
    assert_eq!(floor["kind"], "floor", "{floor}");
    assert_eq!(floor["floor_texture"], floor["texture"], "{floor}");
    assert_eq!(floor["point"][2].as_f64(), floor["floor_height"].as_f64(), "{floor}");
}

/// `pick FILES EXTRA... --json`: one answer a pixel asked for.
fn pick_answers(files: &[&str], extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["pick"];
    args.extend(files);
    args.extend(extra);
    args.push("--json");
    let out = success(&mapscope(&args), "pick");
    out.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The centre pixel's answer from the camera `--go GOAL` gives.
fn centre_after_go(files: &[&str], goal: &str) -> Value {
    pick_answers(files, &["--go", goal]).remove(0)
}

#[test]
fn go_looks_at_the_record_asked_for() {
    let wad = freedoom2();
    let files = [wad.to_str().unwrap(), "--map", "MAP01"];
    for n in [10, 50] {
        let seen = centre_after_go(&files, &format!("thing:{n}"));
        assert_eq!(
            (seen["kind"].as_str(), seen["thing"].as_u64()),
            (Some("thing"), Some(n)),
            "{seen}"
        );
    }
    let seen = centre_after_go(&files, "linedef:41");
    assert_eq!(seen["linedef"].as_u64(), Some(41), "{seen}");
    // Entering a sector: the camera stands in it at eye height.
    let out =
        mapscope(["render", files[0], "--map", "MAP01", "--go", "sector:9", "-o", "/dev/null"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let map = support::fixture("marathon/M2Map.sceA");
    let shapes = support::fixture("marathon/Shapes.shpA");
    let m = [map.to_str().unwrap(), "--shapes", shapes.to_str().unwrap()];
    let seen = centre_after_go(&m, "object:1");
    assert_eq!(
        (seen["kind"].as_str(), seen["object"].as_u64()),
        (Some("thing"), Some(1)),
        "{seen}"
    );
    assert_eq!(centre_after_go(&m, "line:3")["line"].as_u64(), Some(3));
    // The scene's parts where the format numbers nothing else: Saturn's planes, Carmageddon
    // 2's actors in their order.
    let lev = support::fixture("saturn/test_room.lev");
    assert_eq!(centre_after_go(&[lev.to_str().unwrap()], "plane:5")["plane"].as_u64(), Some(5));
    let twt = support::fixture("carma2/TRACK.TWT");
    let actor = centre_after_go(&[twt.to_str().unwrap()], "actor:1");
    assert!(actor["actor"].is_string(), "{actor}");
    // What is not there is refused by name.
    let out = mapscope(["pick", files[0], "--map", "MAP01", "--go", "thing:99999"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no thing 99999"));
    let out = mapscope(["pick", files[0], "--map", "MAP01", "--go", "polygon:1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("sector, linedef, thing"));
}

/// `pick --json` of one pixel of a level file.
fn pick_one(files: &[&str], at: &str) -> Value {
    pick_answers(files, &["--at", at]).remove(0)
}

#[test]
fn pick_names_saturn_saucerman_and_carmageddon_records() {
    // Saturn Quake: the floor's plane, its tile and a normal pointing up.
    let lev = support::fixture("saturn/test_room.lev");
    let floor = pick_one(&[lev.to_str().unwrap()], "160,180");
    assert_eq!(floor["kind"], "floor", "{floor}");
    assert!(floor["plane"].as_u64().is_some() && floor["tile"].as_u64().is_some(), "{floor}");
    assert!(floor["plane_normal"][1].as_i64().unwrap() > 8192, "{floor}");
    // Attack of the Saucerman: the grid cell under the point, and its terrain tile.
    let wad = support::fixture("saucer/LEVELS/TESTA.wad");
    let ground = pick_one(&[wad.to_str().unwrap()], "160,150");
    let cell = |i: usize| ground["cell"][i].as_u64().unwrap();
    let point = |i: usize| ground["point"][i].as_f64().unwrap();
    assert_eq!(
        (cell(0), cell(1)),
        ((point(0) / 256.0) as u64, (point(2) / 256.0) as u64),
        "{ground}"
    );
    assert_eq!(ground["tile"].as_u64(), Some(cell(1) * 64 + cell(0)), "{ground}");
    // Carmageddon 2: the actor, its model, the face and the face's material.
    let twt = support::fixture("carma2/TRACK.TWT");
    let track = pick_one(&[twt.to_str().unwrap()], "160,100");
    for key in ["actor", "model", "face", "material"] {
        assert!(!track[key].is_null(), "no {key}: {track}");
    }
}
