//! `mapscope render --automap`: the level from above in the game's own map style. Doom's
//! lines in vanilla's PLAYPAL colours at linedefs classed here from the map's own records
//! (one-sided, floor change, ceiling change, secret, teleporter, never-seen and two-sided
//! lines with `--automap-all`); the camera's arrow at the centre, turned by `--angle`; the
//! whole level with `--automap-fit`; Marathon's overhead map colours; the plain style of
//! Saturn Quake, Attack of the Saucerman and Carmageddon 2; bad combinations refused.

use crate::support;

use std::path::{Path, PathBuf};

use glam::DVec2;
use image::RgbaImage;
use mapscope::formats::doom::graphics::palette::load_palette;
use mapscope::formats::doom::{MapData, WadStack};
use support::{freedoom1, freedoom2, mapscope, success, TempDir};

/// am_map.c's palette indices.
const WALL: usize = 176;
const TELEPORTER: usize = 184;
const FLOOR_CHANGE: usize = 64;
const CEILING_CHANGE: usize = 231;
const NO_CHANGE: usize = 96;
const PLAYER: usize = 209;

/// Scale of the Doom renders: two map units a pixel.
const SCALE: f64 = 0.5;
const SIZE: (u32, u32) = (320, 200);

/// Renders `args` (after `render FILES --automap`) to a PNG in `dir` and reads it back; a
/// copy goes to `MAPSCOPE_TEST_RENDERS` for a person to look at.
fn automap(dir: &TempDir, name: &str, files: &[PathBuf], args: &[&str]) -> RgbaImage {
    let out = dir.join(&format!("{name}.png"));
    let mut all: Vec<String> = vec!["render".into()];
    all.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
    all.push("--automap".into());
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(["-o".into(), out.to_str().unwrap().into()]);
    success(&mapscope(&all), &format!("render --automap ({name})"));
    if let Some(keep) = support::renders_dir("automap") {
        let _ = std::fs::copy(&out, keep.join(format!("{name}.png")));
    }
    image::open(&out).unwrap().to_rgba8()
}

fn rgb(image: &RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = image.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

/// What vanilla's automap makes of a linedef, classed here from the map's records as
/// am_map.c's `AM_drawWalls` does: (palette index, drawn without IDDT).
fn vanilla_colour(map: &MapData, line: usize) -> (usize, bool) {
    let l = &map.linedefs[line];
    let hidden = l.flags & 0x80 != 0;
    let sector = |s: Option<u32>| s.map(|s| &map.sectors[map.sidedefs[s as usize].sector as usize]);
    let (front, back) = (sector(l.sides[0]).unwrap(), sector(l.sides[1]));
    let Some(back) = back else { return (WALL, !hidden) };
    if l.special == 39 {
        (TELEPORTER, !hidden)
    } else if l.flags & 0x20 != 0 {
        (WALL, !hidden)
    } else if back.floor != front.floor {
        (FLOOR_CHANGE, !hidden)
    } else if back.ceiling != front.ceiling {
        (CEILING_CHANGE, !hidden)
    } else {
        (NO_CHANGE, false)
    }
}

fn ends(map: &MapData, line: usize) -> (DVec2, DVec2) {
    let l = &map.linedefs[line];
    (map.vertices[l.v1 as usize].to_dvec2(), map.vertices[l.v2 as usize].to_dvec2())
}

/// Where a map point lands in a `SIZE` render centred on `camera` at `SCALE`.
fn pixel(camera: DVec2, p: DVec2) -> DVec2 {
    DVec2::new(
        SIZE.0 as f64 / 2.0 + (p.x - camera.x) * SCALE,
        SIZE.1 as f64 / 2.0 - (p.y - camera.y) * SCALE,
    )
}

fn distance_to_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let d = b - a;
    let t = if d.length_squared() > 0.0 { (p - a).dot(d) / d.length_squared() } else { 0.0 };
    p.distance(a + d * t.clamp(0.0, 1.0))
}

/// A line of `map` that `wanted` picks (by its index), at least 32 units long, with no other
/// line within 6 units of its middle; and a camera 100 units off that middle, square to the
/// line, so that its arrow (at most 11 pixels from its centre here) is clear of it.
fn lone_line(map: &MapData, wanted: impl Fn(usize) -> bool) -> Option<(usize, DVec2, DVec2)> {
    (0..map.linedefs.len()).filter(|&i| wanted(i)).find_map(|i| {
        let (a, b) = ends(map, i);
        if a.distance(b) < 32.0 {
            return None;
        }
        let middle = (a + b) * 0.5;
        let crowded = (0..map.linedefs.len()).any(|j| {
            let (c, d) = ends(map, j);
            j != i && distance_to_segment(middle, c, d) < 6.0
        });
        let away = (b - a).perp().normalize() * 100.0;
        (!crowded).then_some((i, middle, middle + away))
    })
}

struct DoomMap {
    wad: PathBuf,
    name: &'static str,
    map: MapData,
    palette: Vec<[u8; 3]>,
}

fn doom_map(wad: PathBuf, name: &'static str) -> DoomMap {
    let stack = WadStack::open(std::slice::from_ref(&wad)).unwrap();
    let map = MapData::load(&stack, name).unwrap();
    let palette = load_palette(&stack).unwrap();
    DoomMap { wad, name, map, palette }
}

impl DoomMap {
    /// The automap centred on `camera` at `scale` pixels a unit, things left out, with
    /// `extra` arguments.
    fn render(
        &self,
        dir: &TempDir,
        tag: &str,
        camera: DVec2,
        scale: f64,
        extra: &[&str],
    ) -> RgbaImage {
        let at = format!("--camera={},{},41", camera.x, camera.y);
        let scale = scale.to_string();
        let mut args = vec!["--map", self.name, &at, "--no-things", "--automap-scale", &scale];
        args.extend(["--size", "320x200"]);
        args.extend_from_slice(extra);
        automap(dir, &format!("{}-{tag}", self.name), std::slice::from_ref(&self.wad), &args)
    }
}

/// Which linedefs of a map a case wants.
type Wanted = dyn Fn(&MapData, usize) -> bool;

#[test]
fn doom_lines_take_vanilla_automap_colours_from_playpal() {
    let dir = TempDir::new("automap-doom");
    let e1m1 = doom_map(freedoom1(), "E1M1");
    let map01 = doom_map(freedoom2(), "MAP01");
    let e3m2 = doom_map(freedoom1(), "E3M2");
    // (map, what, palette index, which linedefs)
    let one_sided = |m: &MapData, i: usize| m.linedefs[i].sides[1].is_none();
    let cases: [(&DoomMap, &str, usize, &Wanted); 5] = [
        (&e1m1, "one-sided", WALL, &one_sided),
        (&e1m1, "floor change", FLOOR_CHANGE, &|m, i| vanilla_colour(m, i) == (FLOOR_CHANGE, true)),
        (&e1m1, "ceiling change", CEILING_CHANGE, &|m, i| {
            vanilla_colour(m, i) == (CEILING_CHANGE, true)
        }),
        // A secret door is drawn as a wall, though its floor or ceiling changes.
        (&map01, "secret", WALL, &|m, i| {
            let l = &m.linedefs[i];
            l.flags & 0x20 != 0 && l.flags & 0x80 == 0 && l.sides[1].is_some() && l.special != 39
        }),
        (&e3m2, "teleporter", TELEPORTER, &|m, i| {
            m.linedefs[i].special == 39 && m.linedefs[i].sides[1].is_some()
        }),
    ];
    for (doom, what, index, wanted) in cases {
        let (line, middle, camera) = lone_line(&doom.map, |i| wanted(&doom.map, i))
            .unwrap_or_else(|| panic!("{}: no {what} line clear of others", doom.name));
        let image = doom.render(&dir, what, camera, SCALE, &[]);
        let p = pixel(camera, middle);
        let got = rgb(&image, p.x as u32, p.y as u32);
        assert_eq!(
            got, doom.palette[index],
            "{} linedef {line} ({what}) at pixel {p}: expected PLAYPAL {index}",
            doom.name
        );
        // The ground is PLAYPAL 0.
        assert_eq!(rgb(&image, 0, 0), doom.palette[0], "{} {what}: background", doom.name);
    }
}

#[test]
fn never_seen_and_plain_two_sided_lines_show_only_with_automap_all() {
    let dir = TempDir::new("automap-all");
    let map01 = doom_map(freedoom2(), "MAP01");
    let m = &map01.map;
    let cases = [
        (
            "never-seen",
            FLOOR_CHANGE,
            lone_line(m, |i| {
                m.linedefs[i].flags & 0x80 != 0 && vanilla_colour(m, i).0 == FLOOR_CHANGE
            }),
        ),
        (
            "two-sided",
            NO_CHANGE,
            lone_line(m, |i| {
                vanilla_colour(m, i) == (NO_CHANGE, false) && m.linedefs[i].flags & 0x80 == 0
            }),
        ),
    ];
    for (what, index, found) in cases {
        let (line, middle, camera) = found.unwrap_or_else(|| panic!("MAP01: no {what} line"));
        let p = pixel(camera, middle);
        let shown = map01.render(&dir, &format!("{what}-shown"), camera, SCALE, &[]);
        assert_eq!(
            rgb(&shown, p.x as u32, p.y as u32),
            map01.palette[0],
            "MAP01 linedef {line} ({what}) is not on vanilla's automap"
        );
        let all = map01.render(&dir, &format!("{what}-all"), camera, SCALE, &["--automap-all"]);
        assert_eq!(
            rgb(&all, p.x as u32, p.y as u32),
            map01.palette[index],
            "MAP01 linedef {line} ({what}) with --automap-all: PLAYPAL {index}"
        );
    }
}

/// The arrow's pixels (PLAYPAL 209) in `image`, as offsets from the centre with +y up.
fn arrow(image: &RgbaImage, colour: [u8; 3]) -> Vec<DVec2> {
    let (cx, cy) = (image.width() as f64 / 2.0, image.height() as f64 / 2.0);
    image
        .enumerate_pixels()
        .filter(|(_, _, p)| [p.0[0], p.0[1], p.0[2]] == colour)
        .map(|(x, y, _)| DVec2::new(x as f64 + 0.5 - cx, cy - (y as f64 + 0.5)))
        .collect()
}

#[test]
fn the_camera_is_an_arrow_at_the_centre_turned_to_its_angle() {
    let dir = TempDir::new("automap-arrow");
    let e1m1 = doom_map(freedoom1(), "E1M1");
    // Out in the void beside the level, where nothing else is drawn, close in: the arrow is
    // 8/7 of the player's radius (16) each way from its centre, 2 pixels a unit.
    let lo = e1m1.map.vertices.iter().fold(DVec2::splat(f64::MAX), |lo, v| lo.min(v.to_dvec2()));
    let camera = lo - DVec2::splat(1000.0);
    let r = 8.0 * 16.0 / 7.0 * 2.0;
    let white = e1m1.palette[PLAYER];
    let mut east = Vec::new();
    for angle in [0.0f64, 90.0, 135.0, 270.0] {
        let a = angle.to_string();
        let args = ["--angle", a.as_str()];
        let image = e1m1.render(&dir, &format!("arrow-{angle}"), camera, 2.0, &args);
        let px = arrow(&image, white);
        assert!(px.len() >= 40, "angle {angle}: {} arrow pixels", px.len());
        // Nothing else is drawn out here.
        let other = image.pixels().filter(|p| {
            let c = [p.0[0], p.0[1], p.0[2]];
            c != white && c != e1m1.palette[0]
        });
        assert_eq!(other.count(), 0, "angle {angle}");
        // The shaft runs through the centre.
        assert_eq!(rgb(&image, SIZE.0 / 2, SIZE.1 / 2), white, "angle {angle}: centre");
        // The head reaches R the way the camera faces (angle 0 east, counter-clockwise,
        // north up), the fletchings 9/8 R behind.
        let facing = DVec2::from_angle(angle.to_radians());
        let ahead = px.iter().map(|p| p.dot(facing)).fold(f64::MIN, f64::max);
        let behind = -px.iter().map(|p| p.dot(facing)).fold(f64::MAX, f64::min);
        assert!((ahead - r).abs() < 2.0, "angle {angle}: head at {ahead:.1}, not {r:.1}");
        assert!((behind - 1.125 * r).abs() < 2.0, "angle {angle}: tail at {behind:.1}");
        // The same arrow, turned.
        if angle == 0.0 {
            east = px.clone();
        }
        let turn = DVec2::from_angle(angle.to_radians());
        for p in &east {
            let q = turn.rotate(*p);
            assert!(
                px.iter().any(|t| t.distance(q) <= 1.6),
                "angle {angle}: nothing where the east arrow's {p} turns to ({q})"
            );
        }
    }
}

/// The box round the pixels that are not `background`.
fn drawn_box(image: &RgbaImage, background: [u8; 3]) -> Option<(u32, u32, u32, u32)> {
    image.enumerate_pixels().filter(|(_, _, p)| [p.0[0], p.0[1], p.0[2]] != background).fold(
        None,
        |b, (x, y, _)| match b {
            None => Some((x, y, x, y)),
            Some((x0, y0, x1, y1)) => Some((x0.min(x), y0.min(y), x1.max(x), y1.max(y))),
        },
    )
}

#[test]
fn automap_fit_shows_the_whole_level_and_the_default_centres_on_the_camera() {
    let dir = TempDir::new("automap-fit");
    let wad = freedoom1();
    let e1m1 = doom_map(wad.clone(), "E1M1");
    let files = [wad];
    let args = ["--map", "E1M1", "--no-things", "--size", "400x300", "--automap-fit"];
    let image = automap(&dir, "E1M1-fit", &files, &args);
    let (x0, y0, x1, y1) = drawn_box(&image, e1m1.palette[0]).expect("something drawn");
    // Inside the image on every side, and filling it one way or the other.
    assert!(x0 > 0 && y0 > 0 && x1 < 399 && y1 < 299, "drawn box {x0},{y0}..{x1},{y1}");
    assert!(x1 - x0 > 360 || y1 - y0 > 270, "drawn box {x0},{y0}..{x1},{y1}");
    // The level's lines are all there: its leftmost, rightmost, lowest and highest vertices
    // set the box, whose proportions are the level's.
    let v = e1m1.map.vertices.iter().map(|v| v.to_dvec2());
    let (lo, hi) = v.fold((DVec2::splat(f64::MAX), DVec2::splat(f64::MIN)), |(lo, hi), p| {
        (lo.min(p), hi.max(p))
    });
    let level = (hi.x - lo.x) / (hi.y - lo.y);
    let drawn = (x1 - x0) as f64 / (y1 - y0) as f64;
    assert!((level / drawn - 1.0).abs() < 0.05, "level {level:.3}, drawn {drawn:.3}");

    // Without --automap-fit the opening zoom is closer, centred on the player start.
    let args = ["--map", "E1M1", "--no-things", "--size", "400x300"];
    let image = automap(&dir, "E1M1-start", &files, &args);
    assert_eq!(rgb(&image, 200, 150), e1m1.palette[PLAYER], "the arrow at the centre");
    let (x0, y0, x1, y1) = drawn_box(&image, e1m1.palette[0]).unwrap();
    assert!(x0 == 0 || y0 == 0 || x1 == 399 || y1 == 299, "the level runs off the image");
}

#[test]
fn marathon_draws_its_overhead_map_colours() {
    let dir = TempDir::new("automap-marathon");
    let files = [support::fixture("marathon/M2Map.sceA")];
    let image = automap(&dir, "marathon-start", &files, &["--map", "0", "--size", "640x480"]);
    // The player's triangle (team 0's slate) at the centre, on a plain polygon's dark green.
    assert_eq!(rgb(&image, 320, 240), [36, 95, 163]);
    assert_eq!(rgb(&image, 320, 240 + 30), [0, 46, 0]);
    let colours: std::collections::HashSet<[u8; 3]> =
        image.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    assert!(colours.contains(&[0, 255, 0]), "solid lines");
    let image = automap(&dir, "marathon-fit", &files, &["--map", "0", "--automap-fit"]);
    let colours: std::collections::HashSet<[u8; 3]> =
        image.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    for (what, c) in [("solid line", [0, 255, 0]), ("platform", [117, 0, 0]), ("ground", [0, 0, 0])]
    {
        assert!(colours.contains(&c), "{what} {c:?} in {colours:?}");
    }
}

#[test]
fn the_other_games_draw_plain_maps_with_their_markers() {
    let dir = TempDir::new("automap-plain");
    let f = |p: &str| support::fixture(p);
    const WALL: [u8; 3] = [215, 215, 215];
    const ARROW: [u8; 3] = [255, 255, 255];
    const MARKER: [u8; 3] = [255, 220, 0];
    // (game, level, whether it has markers: the Carmageddon 2 fixture has no lights or
    // cameras)
    for (name, file, has_markers) in [
        ("saturn", f("saturn/test_room.lev"), true),
        ("saucer", f("saucer/Saucerdata.pak"), true),
        ("carma2", f("carma2/TRACK.TWT"), false),
    ] {
        let files = [file];
        let image =
            automap(&dir, name, &files, &["--size", "640x480", "--automap-fit", "--markers"]);
        let count = |c: [u8; 3]| image.pixels().filter(|p| [p.0[0], p.0[1], p.0[2]] == c).count();
        assert!(count(WALL) > 50, "{name}: {} wall pixels", count(WALL));
        assert_eq!(count(MARKER) > 0, has_markers, "{name}: markers");
        assert!(count([0, 0, 0]) > 640 * 480 / 2, "{name}: mostly ground");
        let plain = automap(&dir, &format!("{name}-start"), &files, &["--size", "640x480"]);
        let near_centre = (319..=320).any(|x| (239..=240).any(|y| rgb(&plain, x, y) == ARROW));
        assert!(near_centre, "{name}: the arrow at the centre");
        let arrow = plain.pixels().filter(|p| [p.0[0], p.0[1], p.0[2]] == ARROW).count();
        assert!(arrow > 10, "{name}: {arrow} arrow pixels");
        // Carmageddon 2's camera looks at the track from outside it: the map opens far
        // enough out to show it.
        let walls = plain.pixels().filter(|p| [p.0[0], p.0[1], p.0[2]] == WALL).count();
        assert!(walls > 20, "{name}: {walls} wall pixels round the camera");
        let markers = plain.pixels().filter(|p| [p.0[0], p.0[1], p.0[2]] == MARKER).count();
        assert_eq!(markers, 0, "{name}: markers only with --markers");
    }
}

#[test]
fn bad_automap_options_are_refused_with_a_reason() {
    let dir = TempDir::new("automap-bad");
    let wad = freedoom1();
    let out = dir.join("bad.png");
    let run = |args: &[&str]| {
        let mut all = vec!["render", wad.to_str().unwrap(), "--map", "E1M1"];
        all.extend_from_slice(args);
        all.extend(["-o", out.to_str().unwrap()]);
        let o = mapscope(&all);
        assert!(!o.status.success(), "{args:?} was accepted");
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let err = run(&["--automap-fit"]);
    assert!(err.contains("--automap"), "{err}");
    let err = run(&["--automap", "--wireframe"]);
    assert!(err.contains("--wireframe") && err.contains("cannot be used with"), "{err}");
    let err = run(&["--automap", "--automap-fit", "--automap-scale", "2"]);
    assert!(err.contains("--automap-scale") && err.contains("--automap-fit"), "{err}");
    let err = run(&["--automap", "--automap-scale", "0"]);
    assert!(err.contains("--automap-scale 0"), "{err}");
    let err = run(&["--automap", "--renderer", "gpu"]);
    assert!(err.contains("--renderer"), "{err}");
    assert!(!Path::new(&out).exists());
}
