//! Marathon fixtures (../shared/fixtures/marathon): every fact of expected.json checked
//! through the library, every probe rendered headless through the binary, every corrupt file
//! refused cleanly or loaded in part, and the writer-built fixtures.

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mapscope::formats::marathon::lights::LightSim;
use mapscope::formats::marathon::map::SideType;
use mapscope::formats::marathon::summary::LevelSummary;
use mapscope::formats::marathon::{level_names, Level, ShapesFile, Wad};
use mapscope::formats::FormatError;
use serde_json::Value;
use support::probes::{colour_matches, probe_pixel};

fn fixtures() -> PathBuf {
    support::fixture("marathon")
}

fn expected() -> Value {
    let text = std::fs::read_to_string(fixtures().join("expected.json")).expect("expected.json");
    serde_json::from_str(&text).expect("expected.json parses")
}

fn read(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn hex(v: u64, digits: usize) -> String {
    format!("0x{v:0digits$X}")
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

fn fixed(v: i32) -> f64 {
    v as f64 / 65536.0
}

fn close(a: f64, b: &Value, what: &str) {
    let b = b.as_f64().unwrap_or_else(|| panic!("{what}: not a number: {b}"));
    assert!((a - b).abs() < 1e-4, "{what}: {a} != {b}");
}

fn histogram<K: ToString>(m: &BTreeMap<K, usize>, key: impl Fn(&K) -> String) -> Value {
    Value::Object(m.iter().map(|(k, v)| (key(k), Value::from(*v as u64))).collect())
}

fn check_wad(name: &str, facts: &Value) {
    let bytes = read(name);
    let wad = Wad::parse(name, &bytes).expect("wad parses");
    let h = &wad.header;
    assert_eq!(wad.fork.container.name(), facts["container"], "{name} container");
    if let Some(same) = facts["same_wad_as"].as_str() {
        assert_eq!(wad.fork.offset as i64, int(&facts["data_fork_offset"]));
        assert_eq!(wad.fork.length as i64, int(&facts["data_fork_length"]));
        if let Some(r) = facts.get("resource_fork_length") {
            assert_eq!(wad.fork.resource_length as i64, int(r));
        }
        assert_eq!(wad.data(), read(same).as_slice(), "{name}: same wad as {same}");
        return;
    }
    assert_eq!(h.version as i64, int(&facts["wad_version"]));
    assert_eq!(h.data_version as i64, int(&facts["data_version"]));
    assert_eq!(h.name, facts["wad_file_name"]);
    assert_eq!(wad.entries.len() as i64, int(&facts["level_count"]));
    assert_eq!(h.application_data_size as i64, int(&facts["application_data_size"]));
    assert_eq!(h.entry_header_size as i64, int(&facts["entry_header_size"]));
    assert_eq!(h.directory_entry_base_size as i64, int(&facts["directory_entry_base_size"]));
    assert_eq!(h.directory_offset as i64, int(&facts["directory_offset"]));
    assert_eq!(hex(h.checksum as u64, 8), facts["checksum"]);
    assert_eq!(wad.checksum_matches(), Some(true), "{name}: fixture checksums are correct");
    let names: Vec<Value> = level_names(&wad).into_iter().map(Value::from).collect();
    assert_eq!(Value::from(names), facts["level_names"]);
    for lf in facts["levels"].as_array().unwrap() {
        let i = int(&lf["index"]) as usize;
        let level = Level::load(&wad, i).expect("level loads");
        check_level(&level, lf);
    }
}

fn check_level(level: &Level, f: &Value) {
    let what = format!("level {}", level.name);
    assert_eq!(level.name, f["name"], "{what}");
    let tags: Vec<Value> = level.chunk_tags.iter().map(|t| Value::from(t.as_str())).collect();
    assert_eq!(Value::from(tags), f["chunk_tags"], "{what} chunk tags");
    let info = level.info.as_ref().expect("Minf");
    assert_eq!(info.environment_code as i64, int(&f["environment_code"]));
    assert_eq!(info.landscape_or_song as i64, int(&f["landscape_or_song_index"]));
    assert_eq!(info.mission_flags as i64, int(&f["mission_flags"]));
    assert_eq!(info.environment_flags as i64, int(&f["environment_flags"]));
    assert_eq!(info.entry_point_flags as i64, int(&f["entry_point_flags"]));

    let c = &f["counts"];
    assert_eq!(level.endpoints.len() as i64, int(&c["endpoints"]), "{what} endpoints");
    assert_eq!(level.lines.len() as i64, int(&c["lines"]));
    assert_eq!(level.sides.len() as i64, int(&c["sides"]));
    assert_eq!(level.polygons.len() as i64, int(&c["polygons"]));
    assert_eq!(level.lights.len() as i64, int(&c["lights"]));
    assert_eq!(level.objects.len() as i64, int(&c["objects"]));
    assert_eq!(level.platforms.len() as i64, int(&c["platforms"]));
    assert_eq!(level.media.len() as i64, int(&c["media"]));
    assert_eq!(level.annotations.len() as i64, int(&c["annotations"]));

    let s = LevelSummary::of(level);
    assert_eq!(histogram(&s.polygon_vertex_counts, |k| k.to_string()), f["polygon_vertex_counts"]);
    let names = ["full", "high", "low", "composite", "split"];
    for (k, n) in names.iter().zip(s.side_types) {
        assert_eq!(n as i64, int(&f["side_types"][k]), "{what} {k} sides");
    }
    assert_eq!(s.sides_with_transparent_texture as i64, int(&f["sides_with_transparent_texture"]));
    assert_eq!(s.solid_lines as i64, int(&f["solid_lines"]));
    assert_eq!(s.transparent_lines as i64, int(&f["transparent_lines"]));
    let b = s.bounds.expect("bounds");
    for (axis, k) in ["x", "y", "z"].iter().enumerate() {
        assert_eq!(b[axis][0] as i64, int(&f["bounds"][k][0]), "{what} bounds {k}");
        assert_eq!(b[axis][1] as i64, int(&f["bounds"][k][1]), "{what} bounds {k}");
    }
    let tex = |k: &u16| hex(*k as u64, 4);
    assert_eq!(histogram(&s.wall_panels_by_texture, tex), f["wall_panels_by_texture"], "{what}");
    assert_eq!(histogram(&s.floor_polygons_by_texture, tex), f["floor_polygons_by_texture"]);
    assert_eq!(histogram(&s.ceiling_polygons_by_texture, tex), f["ceiling_polygons_by_texture"]);
    let sky: Vec<Value> = s.landscape_polygons.iter().map(|&p| Value::from(p as u64)).collect();
    assert_eq!(Value::from(sky), f["landscape_polygons"]);

    for (i, p) in level.polygons.iter().enumerate() {
        let e = &f["polygons"][i];
        assert_eq!(int(&e["index"]) as usize, i);
        assert_eq!(p.vertex_count as i64, int(&e["vertex_count"]), "{what} polygon {i}");
        assert_eq!(p.kind as i64, int(&e["type"]));
        assert_eq!(p.floor_height as i64, int(&e["floor"]));
        assert_eq!(p.ceiling_height as i64, int(&e["ceiling"]));
        assert_eq!(hex(p.floor_texture as u64, 4), e["floor_texture"]);
        assert_eq!(hex(p.ceiling_texture as u64, 4), e["ceiling_texture"]);
        assert_eq!(p.floor_transfer_mode as i64, int(&e["floor_transfer_mode"]));
        assert_eq!(p.ceiling_transfer_mode as i64, int(&e["ceiling_transfer_mode"]));
        assert_eq!(p.floor_light as i64, int(&e["floor_light"]));
        assert_eq!(p.ceiling_light as i64, int(&e["ceiling_light"]));
        assert_eq!(p.media as i64, int(&e["media"]), "{what} polygon {i} media");
        assert_eq!(p.area as i64, int(&e["area"]));
        assert_eq!(
            [p.center.x as i64, p.center.y as i64],
            [int(&e["center"][0]), int(&e["center"][1])]
        );
    }
    for (i, p) in level.endpoints.iter().enumerate() {
        assert_eq!(
            [p.x as i64, p.y as i64],
            [int(&f["endpoints"][i][0]), int(&f["endpoints"][i][1])]
        );
    }
    for (i, l) in level.lines.iter().enumerate() {
        let e = &f["lines"][i];
        assert_eq!(
            [l.endpoints[0] as i64, l.endpoints[1] as i64],
            [int(&e["endpoints"][0]), int(&e["endpoints"][1])]
        );
        assert_eq!(hex(l.flags as u64, 4), e["flags"], "{what} line {i}");
        assert_eq!(l.length as i64, int(&e["length"]));
        assert_eq!(l.highest_adjacent_floor as i64, int(&e["highest_adjacent_floor"]));
        assert_eq!(l.lowest_adjacent_ceiling as i64, int(&e["lowest_adjacent_ceiling"]));
        assert_eq!(l.clockwise_polygon as i64, int(&e["clockwise_polygon"]));
        assert_eq!(l.counterclockwise_polygon as i64, int(&e["counterclockwise_polygon"]));
        assert_eq!(l.clockwise_side as i64, int(&e["clockwise_side"]));
        assert_eq!(l.counterclockwise_side as i64, int(&e["counterclockwise_side"]));
    }
    for (i, side) in level.sides.iter().enumerate() {
        let e = &f["sides"][i];
        let kind = SideType::from_u16(side.kind).map(|k| k.name()).unwrap_or("?");
        assert_eq!(kind, e["type"], "{what} side {i}");
        let (p, l) = level.side_owners[i].expect("side owned by a line");
        assert_eq!((p as i64, l as i64), (int(&e["polygon"]), int(&e["line"])), "{what} side {i}");
        let lights = level.side_lights[i];
        for (k, (key, t)) in [
            ("primary", side.primary),
            ("secondary", side.secondary),
            ("transparent", side.transparent),
        ]
        .into_iter()
        .enumerate()
        {
            let v = &e[key];
            assert_eq!(hex(t.texture as u64, 4), v[0], "{what} side {i} {key}");
            assert_eq!(t.x0 as i64, int(&v[1]));
            assert_eq!(t.y0 as i64, int(&v[2]));
            assert_eq!(side.transfer_modes[k] as i64, int(&v[3]), "{what} side {i} {key} transfer");
            assert_eq!(lights[k] as i64, int(&v[4]), "{what} side {i} {key} light");
        }
        close(fixed(side.ambient_delta), &e["ambient_delta"], "ambient delta");
    }
    let sim = level.light_sim();
    for (i, e) in f["lights"].as_array().unwrap().iter().enumerate() {
        let light = &level.lights[i];
        let constant = light.constant_intensity();
        assert_eq!(constant.is_some(), e["constant"].as_bool().unwrap(), "{what} light {i}");
        if let Some(c) = constant {
            close(fixed(c), &e["intensity"], "light intensity");
            close(fixed(sim.intensity(i as i16)), &e["intensity"], "light at tick 0");
        }
        if let Some(old) = level.old_lights.get(i) {
            assert_eq!(old.kind as i64, int(&e["old_type"]));
            assert_eq!(old.mode as i64, int(&e["mode"]));
            assert_eq!(old.period as i64, int(&e["period"]));
            close(fixed(old.minimum_intensity), &e["min"], "old light min");
            close(fixed(old.maximum_intensity), &e["max"], "old light max");
        } else {
            assert_eq!(light.kind as i64, int(&e["type"]));
            assert_eq!(light.flags as i64, int(&e["flags"]));
            assert_eq!(light.phase as i64, int(&e["phase"]));
            for (k, func) in light.functions.iter().enumerate() {
                let ef = &e["functions"][k];
                assert_eq!(func.function as i64, int(&ef["function"]), "{what} light {i} fn {k}");
                assert_eq!(func.period as i64, int(&ef["period"]));
                assert_eq!(func.delta_period as i64, int(&ef["delta_period"]));
                close(fixed(func.intensity), &ef["intensity"], "function intensity");
                close(fixed(func.delta_intensity), &ef["delta_intensity"], "function delta");
            }
        }
    }
    for (i, e) in f["media"].as_array().unwrap().iter().enumerate() {
        let m = &level.media[i];
        assert_eq!(m.kind as i64, int(&e["type"]));
        assert_eq!(m.light as i64, int(&e["light"]));
        assert_eq!(m.low as i64, int(&e["low"]));
        assert_eq!(m.high as i64, int(&e["high"]));
        assert_eq!(hex(m.texture as u64, 4), e["texture"]);
        assert_eq!(level.media_height(m, &sim) as i64, int(&e["height"]), "{what} media height");
    }
    for (i, e) in f["platforms"].as_array().unwrap().iter().enumerate() {
        let p = &level.platforms[i];
        let poly = p.polygon as usize;
        assert_eq!(p.polygon as i64, int(&e["polygon"]));
        assert_eq!(p.kind as i64, int(&e["type"]));
        assert_eq!(hex(p.static_flags as u64, 8), e["static_flags"]);
        assert_eq!(p.minimum_height as i64, int(&e["minimum_height"]));
        assert_eq!(p.maximum_height as i64, int(&e["maximum_height"]));
        assert_eq!(level.floor[poly] as i64, int(&e["initial_floor"]), "{what} platform floor");
        assert_eq!(level.ceiling[poly] as i64, int(&e["initial_ceiling"]), "{what} ceiling");
    }
    for (i, e) in f["objects"].as_array().unwrap().iter().enumerate() {
        let o = &level.objects[i];
        let got = [o.kind as i64, o.index as i64, o.facing as i64, o.polygon as i64];
        let want = [int(&e["type"]), int(&e["index"]), int(&e["facing"]), int(&e["polygon"])];
        assert_eq!(got, want, "{what} object {i}");
        assert_eq!(
            [o.x as i64, o.y as i64, o.z as i64],
            [int(&e["x"]), int(&e["y"]), int(&e["z"])]
        );
    }
    let notes: Vec<Value> =
        level.annotations.iter().map(|a| Value::from(a.text.as_str())).collect();
    assert_eq!(Value::from(notes), f["annotations"]);
    assert!(level.notes.is_empty(), "{what}: {:?}", level.notes);
}

#[test]
fn wad_and_level_facts() {
    let e = expected();
    let facts = e["facts"].as_object().unwrap();
    let mut checked = 0;
    for (name, f) in facts {
        if f.get("container").is_some() {
            check_wad(name, f);
            checked += 1;
        }
    }
    assert_eq!(checked, 5);
}

#[test]
fn shapes_facts() {
    let e = expected();
    let f = &e["facts"]["Shapes.shpA"];
    let bytes = read("Shapes.shpA");
    let shapes = ShapesFile::parse("Shapes.shpA", &bytes).expect("shapes parse");
    assert_eq!(shapes.present().len() as i64, int(&f["collection_count"]));
    for (key, cf) in f["collections"].as_object().unwrap() {
        let i: usize = key.parse().unwrap();
        let h = shapes.headers[i];
        assert_eq!(h.offset as i64, int(&cf["offset"]));
        assert_eq!(h.length as i64, int(&cf["length"]));
        let c = shapes.collection(i).expect("collection parses").expect("present");
        assert_eq!(c.kind as i64, int(&cf["type"]), "collection {i}");
        assert_eq!(c.version as i64, int(&cf["version"]));
        assert_eq!(c.color_tables.len() as i64, int(&cf["color_tables"]));
        assert_eq!(c.colors_per_table as i64, int(&cf["colors_per_table"]));
        assert_eq!(c.sequences.len() as i64, int(&cf["sequences"]));
        assert_eq!(c.frames.len() as i64, int(&cf["frames"]));
        assert_eq!(c.bitmap_count() as i64, int(&cf["bitmaps"]));
        assert_eq!(c.pixels_to_world as i64, int(&cf["pixels_to_world"]));
        let fb: Vec<i64> = c.frames.iter().map(|fr| fr.bitmap as i64).collect();
        let want: Vec<i64> = cf["frame_bitmap_index"].as_array().unwrap().iter().map(int).collect();
        assert_eq!(fb, want);
        for b in cf["bitmap_list"].as_array().unwrap() {
            let bh = c.bitmap_header(int(&b["index"]) as usize).expect("bitmap header");
            assert_eq!(bh.width as i64, int(&b["width"]));
            assert_eq!(bh.height as i64, int(&b["height"]));
            assert_eq!(bh.bytes_per_row as i64, int(&b["bytes_per_row"]));
            assert_eq!(hex(bh.flags as u64, 4), b["flags"]);
            assert_eq!(bh.column_order(), b["column_order"].as_bool().unwrap());
            assert_eq!(bh.is_rle(), b["rle"].as_bool().unwrap());
        }
        for ce in cf["color_entries"].as_array().unwrap() {
            let entry = c.color_tables[int(&ce["table"]) as usize][int(&ce["index"]) as usize];
            assert_eq!(hex(entry.flags as u64, 2), ce["flags"]);
            assert_eq!(entry.value as i64, int(&ce["value"]));
            let rgb16: Vec<i64> = entry.rgb16.iter().map(|&v| v as i64).collect();
            let want16: Vec<i64> = ce["rgb16"].as_array().unwrap().iter().map(int).collect();
            assert_eq!(rgb16, want16);
            let rgb8: Vec<i64> = entry.rgb8().iter().map(|&v| v as i64).collect();
            let want8: Vec<i64> = ce["rgb8"].as_array().unwrap().iter().map(int).collect();
            assert_eq!(rgb8, want8);
        }
        for t in cf["texels"].as_array().unwrap() {
            let bm = c.bitmap(int(&t["bitmap"]) as usize).expect("bitmap decodes");
            let px = bm.pixel_xy(int(&t["x"]) as usize, int(&t["y"]) as usize);
            match t["rgb8"].is_null() {
                true => assert_eq!(px, None, "collection {i} texel {t}"),
                false => {
                    let v = px.expect("opaque texel");
                    assert_eq!(v as i64, int(&t["color_index"]), "collection {i} texel {t}");
                    let entry = c.color_tables[0].iter().find(|e| e.value == v).unwrap();
                    let want: Vec<i64> = t["rgb8"].as_array().unwrap().iter().map(int).collect();
                    assert_eq!(entry.rgb8().map(|x| x as i64).to_vec(), want);
                }
            }
        }
        for rle in cf["rle"].as_array().unwrap() {
            let bm = c.bitmap(int(&rle["bitmap"]) as usize).expect("RLE bitmap decodes");
            let opaque = bm.opaque.iter().filter(|&&o| o).count();
            assert_eq!(opaque as i64, int(&rle["opaque_pixels"]));
            for (line, span) in rle["spans_of_lines"].as_object().unwrap() {
                let l: usize = line.parse().unwrap();
                let drawn: Vec<usize> =
                    (0..bm.line_length).filter(|&p| bm.opaque[p * bm.lines + l]).collect();
                let (first, last) = (int(&span[0]) as usize, int(&span[1]) as usize);
                assert_eq!(drawn, (first..last).collect::<Vec<_>>(), "bitmap line {l}");
            }
        }
    }
}

#[test]
fn level_1_door_starts_closed_and_tick_zero_lights_match() {
    let bytes = read("M2Map.sceA");
    let wad = Wad::parse("M2Map.sceA", &bytes).unwrap();
    let level = Level::load(&wad, 1).unwrap();
    let sim: LightSim = level.light_sim();
    assert_eq!(sim.intensity(0), 65536);
    assert_eq!((level.floor[4], level.ceiling[4]), (0, 0));
    assert_eq!(level.polygons[4].ceiling_height, 3072);
}

/// What loading a corrupt file reported: a parse error, or a note kept by a level that
/// loaded in part (notes name the structure, and an offset where the library gives one; the
/// file is the one being loaded).
enum Problem {
    Error(FormatError),
    Note { level: usize, text: String },
}

/// Loads everything a corrupt file offers; returns the errors and notes met and how many
/// levels or bitmaps still loaded.
fn load_all(name: &str, bytes: &[u8]) -> (Vec<Problem>, usize) {
    let mut problems = Vec::new();
    let mut loaded = 0;
    if name.ends_with(".shpA") {
        match ShapesFile::parse(name, bytes) {
            Err(e) => problems.push(Problem::Error(e)),
            Ok(shapes) => {
                for i in shapes.present() {
                    match shapes.collection(i) {
                        Err(e) => problems.push(Problem::Error(e)),
                        Ok(None) => {}
                        Ok(Some(c)) => {
                            for b in 0..c.bitmap_count() {
                                match c.bitmap(b) {
                                    Ok(_) => loaded += 1,
                                    Err(e) => problems.push(Problem::Error(e)),
                                }
                            }
                        }
                    }
                }
            }
        }
        return (problems, loaded);
    }
    match Wad::parse(name, bytes) {
        Err(e) => problems.push(Problem::Error(e)),
        Ok(wad) => {
            let _ = level_names(&wad);
            for i in 0..wad.entries.len() {
                match Level::load(&wad, i) {
                    Ok(level) => {
                        loaded += 1;
                        // Loaded in part: what was skipped is reported as notes.
                        problems.extend(
                            level.notes.iter().map(|n| Problem::Note { level: i, text: n.clone() }),
                        );
                    }
                    Err(e) => problems.push(Problem::Error(e)),
                }
            }
        }
    }
    (problems, loaded)
}

/// Checks one problem reported for corrupt file `name` (`size` bytes) and returns its text.
fn check_problem(path: &str, name: &str, size: usize, p: &Problem) -> String {
    match p {
        Problem::Error(e) => {
            let text = e.to_string();
            assert_eq!(e.file, name, "{path}: error naming another file: {text}");
            assert!(!e.structure.is_empty(), "{path}: error without structure: {text}");
            let head = format!("{name}: {} at offset {} ", e.structure, e.offset);
            assert!(text.starts_with(&head), "{path}: error text without {head:?}: {text}");
            assert!(!e.message.is_empty(), "{path}: error without message: {text}");
            text
        }
        Problem::Note { level, text } => {
            // "<structure>: <what was skipped>", the structure naming where.
            let (structure, what) = text.split_once(": ").unwrap_or(("", ""));
            assert!(
                !structure.trim().is_empty() && !what.trim().is_empty(),
                "{path} level {level}: note without structure: {text:?}"
            );
            if let Some(rest) = structure.split(" at offset ").nth(1) {
                let offset: u64 = rest
                    .split_whitespace()
                    .next()
                    .and_then(|o| o.parse().ok())
                    .unwrap_or_else(|| panic!("{path}: note offset not a number: {text:?}"));
                assert!(
                    offset <= size as u64,
                    "{path} level {level}: note offset {offset} past the {size}-byte file: {text:?}"
                );
            }
            format!("{name}: level {level}: {text}")
        }
    }
}

#[test]
fn corrupt_files_fail_cleanly_or_load_in_part() {
    let e = expected();
    let list = e["corrupt"].as_array().unwrap();
    assert_eq!(list.len(), 15);
    for c in list {
        let path = c["path"].as_str().unwrap();
        let name = Path::new(path).file_name().unwrap().to_str().unwrap();
        let bytes = read(path);
        let (problems, loaded) = load_all(name, &bytes);
        assert!(!problems.is_empty(), "{path} ({}): no error reported", c["breaks"]);
        let texts: Vec<String> =
            problems.iter().map(|p| check_problem(path, name, bytes.len(), p)).collect();
        eprintln!("{path}: {loaded} parts loaded; {}", texts.join(" | "));
    }
}

fn arg3(v: &Value) -> String {
    let a = v.as_array().unwrap();
    a.iter().map(|x| x.as_f64().unwrap().to_string()).collect::<Vec<_>>().join(",")
}

/// Where probe renders are kept for looking at.
fn probe_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/marathon-probes");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Renders `probe` headless through the binary and returns the image.
fn render_probe(probe: &Value, out: &Path) -> image::RgbaImage {
    let file = fixtures().join(probe["file"].as_str().unwrap());
    let shapes = fixtures().join("Shapes.shpA");
    let size = format!("{}x{}", int(&probe["size"][0]), int(&probe["size"][1]));
    let o = support::mapscope([
        "render".as_ref(),
        file.as_os_str(),
        "--shapes".as_ref(),
        shapes.as_os_str(),
        "--map".as_ref(),
        probe["map"].as_str().unwrap().as_ref(),
        "--camera".as_ref(),
        arg3(&probe["camera"]).as_ref(),
        "--look-at".as_ref(),
        arg3(&probe["look_at"]).as_ref(),
        "--fov".as_ref(),
        probe["fov"].to_string().as_ref(),
        "--size".as_ref(),
        size.as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    support::success(&o, &format!("render {}", probe["name"]));
    image::open(out).expect("render PNG").to_rgba8()
}

/// Checks every sample of a probe; returns the failures as text.
fn check_probe(probe: &Value, img: &image::RgbaImage) -> Vec<String> {
    let mut failures = Vec::new();
    for px in probe["pixels"].as_array().unwrap() {
        let (fx, fy) = (px["at"][0].as_f64().unwrap(), px["at"][1].as_f64().unwrap());
        let (i, j) = probe_pixel([fx, fy], img.width(), img.height());
        let got = img.get_pixel(i, j).0;
        let tol = int(&px["tolerance"]);
        if !colour_matches([got[0], got[1], got[2]], &px["rgb_any_of"], tol) {
            failures.push(format!(
                "{} at ({fx}, {fy}) = pixel ({i}, {j}): got {:?}, want one of {} (tolerance {tol})",
                probe["name"],
                &got[..3],
                px["rgb_any_of"]
            ));
        }
    }
    failures
}

#[test]
fn every_probe_renders_its_expected_pixels() {
    let e = expected();
    let probes = e["probes"].as_array().unwrap();
    support::assert_at_least(
        probes.len(),
        15,
        "marathon expected.json: probes",
        support::SHARED_HINT,
    );
    let dir = probe_dir();
    let mut failures = Vec::new();
    let mut samples = 0;
    for probe in probes {
        // The probe's level is the one at its directory index.
        let bytes = read(probe["file"].as_str().unwrap());
        let names = level_names(&Wad::parse("probe", &bytes).unwrap());
        assert_eq!(names[int(&probe["map_index"]) as usize], probe["map"]);
        let out = dir.join(format!("{}.png", probe["name"].as_str().unwrap()));
        let img = render_probe(probe, &out);
        samples += probe["pixels"].as_array().unwrap().len();
        failures.extend(check_probe(probe, &img));
    }
    assert!(
        failures.is_empty(),
        "{} of {samples} probe samples failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn info_json(args: &[&std::ffi::OsStr]) -> Value {
    let mut all: Vec<&std::ffi::OsStr> = vec!["info".as_ref(), "--json".as_ref()];
    all.extend_from_slice(args);
    let out = support::success(&support::mapscope(all), "info --json");
    serde_json::from_str(&out).expect("info --json prints JSON")
}

#[test]
fn info_lists_levels_and_counts_through_the_binary() {
    let e = expected();
    for name in ["M2Map.sceA", "M2Map.sceA.bin", "M2Map.sceA.as", "M1Map.scen", "M1Map.scen.bin"] {
        let facts = &e["facts"][name];
        let source = facts["same_wad_as"].as_str().unwrap_or(name);
        let levels = &e["facts"][source];
        let path = fixtures().join(name);
        for level in levels["levels"].as_array().unwrap() {
            // Levels are picked by name and by directory index.
            for pick in [level["name"].as_str().unwrap().to_string(), level["index"].to_string()] {
                let info = info_json(&[path.as_os_str(), "--map".as_ref(), pick.as_ref()]);
                assert_eq!(info["format"], "Marathon");
                assert_eq!(info["maps"], levels["level_names"], "{name}");
                assert_eq!(info["map"], level["name"], "{name} --map {pick}");
                for (k, v) in level["counts"].as_object().unwrap() {
                    assert_eq!(info["counts"][k], *v, "{name} {k}");
                }
            }
        }
    }
}

#[test]
fn unknown_level_is_a_clear_error() {
    let path = fixtures().join("M2Map.sceA");
    let o = support::mapscope([
        "info".as_ref(),
        path.as_os_str(),
        "--map".as_ref(),
        "Nowhere".as_ref(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no level \"Nowhere\"") && err.contains("1 Heptagon Annex"), "{err}");
}

#[test]
fn corrupt_files_through_the_binary_give_one_line_errors_not_panics() {
    let e = expected();
    let good_map = fixtures().join("M2Map.sceA");
    let corrupt = e["corrupt"].as_array().unwrap();
    support::assert_at_least(
        corrupt.len(),
        15,
        "marathon expected.json: corrupt files",
        support::SHARED_HINT,
    );
    for c in corrupt {
        let path = fixtures().join(c["path"].as_str().unwrap());
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let o = if name.ends_with(".shpA") {
            support::mapscope([
                "info".as_ref(),
                good_map.as_os_str(),
                "--shapes".as_ref(),
                path.as_os_str(),
            ])
        } else {
            support::mapscope(["info".as_ref(), path.as_os_str()])
        };
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{name}: {err}");
        if o.status.success() {
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(
                out.contains("note:"),
                "{name} loaded without reporting what it skipped: {out}"
            );
        } else {
            assert!(err.contains(&name) && err.contains(" at offset "), "{name}: {err}");
        }
    }
}

/// Small deterministic generator for the mutation test.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

#[test]
fn mutated_fixtures_never_panic_through_parse_and_build() {
    let shapes_bytes = read("Shapes.shpA");
    let mut rng = Lcg(7);
    for name in ["M2Map.sceA", "M1Map.scen.bin", "M2Map.sceA.as", "Shapes.shpA"] {
        let original = read(name);
        for _ in 0..400 {
            let mut bytes = original.clone();
            for _ in 0..1 + rng.next(8) {
                let at = rng.next(bytes.len());
                bytes[at] = rng.next(256) as u8;
            }
            let (map, shapes) = if name.ends_with(".shpA") {
                (read("M2Map.sceA"), bytes)
            } else {
                (bytes, shapes_bytes.clone())
            };
            let Ok(wad) = Wad::parse(name, &map) else { continue };
            let shapes = ShapesFile::parse("Shapes.shpA", &shapes).ok();
            let _ = level_names(&wad);
            for i in 0..wad.entries.len() {
                if let Ok(level) = Level::load(&wad, i) {
                    let _ = LevelSummary::of(&level);
                    let scene = mapscope::formats::marathon::build::build_scene(
                        &level,
                        shapes.as_ref(),
                        &[],
                    );
                    assert!(scene.world.len().is_multiple_of(3));
                }
            }
        }
    }
}
