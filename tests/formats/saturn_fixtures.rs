//! The shared Saturn Quake fixtures (`../shared/fixtures/saturn/`): every fact and probe of
//! `expected.json` (the optional non-seed file's too, since both tile layouts are read), the
//! reference images, every corrupt file, and the CLI.

use crate::support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use glam::DVec3;
use mapscope::formats::saturn::colour::Rgb555;
use mapscope::formats::saturn::geometry::{build_geometry, FaceSource};
use mapscope::formats::saturn::level::{Chunk, HEADER_FIELD_NAMES, MOVER_TYPE};
use mapscope::formats::saturn::sky::{SKY_FRAMES, SKY_FRAME_SIZE};
use mapscope::formats::saturn::tiles::TileLayout;
use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::scene::Scene;
use serde_json::Value;
use support::alloc_count::peak_allocation;
use support::probes::{colour_matches, probe_pixel, render_native};
use support::{mapscope, success};

// ---------------------------------------------------------------------------------------------
// Fixture access.

fn dir() -> PathBuf {
    support::fixture("saturn")
}

fn expected() -> &'static Value {
    static E: OnceLock<Value> = OnceLock::new();
    E.get_or_init(|| {
        let text = std::fs::read_to_string(dir().join("expected.json")).expect("expected.json");
        serde_json::from_str(&text).expect("expected.json parses")
    })
}

fn load(rel: &str) -> LevFile {
    let data = std::fs::read(dir().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    LevFile::parse(rel, &data).unwrap_or_else(|e| panic!("{e}"))
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not an unsigned number: {v}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn vec3(v: &Value) -> DVec3 {
    DVec3::new(f(&v[0]), f(&v[1]), f(&v[2]))
}

fn close(a: DVec3, b: DVec3, tol: f64) -> bool {
    (a - b).abs().max_element() <= tol
}

/// Collects mismatches instead of stopping at the first, so one run shows them all.
#[derive(Default)]
struct Check {
    failures: Vec<String>,
    passed: usize,
}

impl Check {
    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, got: T, want: T) {
        if got == want {
            self.passed += 1;
        } else {
            self.failures.push(format!("{what}: got {got:?}, want {want:?}"));
        }
    }
    fn ok(&mut self, what: &str, cond: bool, detail: String) {
        if cond {
            self.passed += 1;
        } else {
            self.failures.push(format!("{what}: {detail}"));
        }
    }
    fn finish(self, label: &str) {
        assert!(
            self.failures.is_empty(),
            "{label}: {} checks failed:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
        assert!(self.passed > 0, "{label}: nothing checked");
        eprintln!("{label}: {} checks passed", self.passed);
    }
}

// ---------------------------------------------------------------------------------------------
// Facts.

fn check_facts(rel: &str, facts: &Value, c: &mut Check) {
    let lev = load(rel);
    let level = &lev.level;
    let t = |k: &str| format!("{rel} {k}");

    c.eq(&t("file_size"), lev.segments.eof, u(&facts["file_size"]));
    let seg = &facts["segment_offsets"];
    let s = &lev.segments;
    for (name, got) in [
        ("level_data", Some(s.level_data)),
        ("table_data_1", Some(s.table_data_1)),
        ("global_palette", Some(s.global_palette)),
        ("texture_data", Some(s.texture_data)),
        ("table_data_2", s.table_data_2),
        ("embedded_resources", s.embedded_resources),
        ("visibility", s.visibility),
        ("eof", Some(s.eof)),
    ] {
        c.eq(&t(&format!("segment {name}")), got, Some(u(&seg[name])));
    }
    assert!(lev.warnings.is_empty(), "{rel}: {:?}", lev.warnings);

    for (name, got) in HEADER_FIELD_NAMES.iter().zip(level.header.fields()) {
        c.eq(&t(name), got as u64, u(&facts["level_header"][name]));
    }
    let offsets = facts["level_chunk_offsets"].as_object().expect("chunk offsets");
    for (key, want) in offsets {
        let name = key.split('(').next().unwrap_or(key);
        let got = if name == "RemainingData" {
            level.layout.end
        } else {
            let chunk =
                Chunk::ALL.iter().find(|ch| ch.name().ends_with(&format!(": {name}"))).expect(name);
            level.layout.start(*chunk)
        };
        c.eq(&t(&format!("offset {key}")), got, u(want));
    }

    c.eq(&t("node_count"), level.nodes.len() as u64, u(&facts["node_count"]));
    let ranges: Vec<[u64; 2]> =
        level.nodes.iter().map(|n| [n.first_plane as u64, n.last_plane as u64]).collect();
    let want: Vec<[u64; 2]> = facts["node_plane_ranges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| [u(&r[0]), u(&r[1])])
        .collect();
    c.eq(&t("node_plane_ranges"), ranges, want);
    c.eq(&t("plane_count"), level.planes.len() as u64, u(&facts["plane_count"]));
    let mut kinds = BTreeMap::new();
    for p in &level.planes {
        let k = match (p.quad_range().is_some(), p.tile_set().is_some()) {
            (true, false) => "quads_only",
            (false, true) => "tiles_only",
            (true, true) => "quads_and_tiles",
            (false, false) => "empty",
        };
        *kinds.entry(k.to_string()).or_insert(0u64) += 1;
    }
    for (k, v) in facts["plane_kinds"].as_object().unwrap() {
        c.eq(&t(&format!("plane_kinds {k}")), kinds.get(k).copied().unwrap_or(0), u(v));
    }
    let flags: Vec<u64> = level.planes.iter().map(|p| p.flags as u64).collect();
    c.eq(
        &t("plane_flags"),
        flags,
        facts["plane_flags"].as_array().unwrap().iter().map(u).collect(),
    );
    let normals: Vec<[i64; 3]> =
        level.planes.iter().map(|p| p.normal_fixed().map(|v| v as i64)).collect();
    let want: Vec<[i64; 3]> = facts["plane_normals_fixed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| [0, 1, 2].map(|k| n[k].as_i64().unwrap()))
        .collect();
    c.eq(&t("plane_normals_fixed"), normals, want);

    let g = build_geometry(&lev);
    c.eq(&t("vertex_count"), level.vertices.len() as u64, u(&facts["vertex_count"]));
    c.eq(&t("explicit_quad_count"), g.explicit_quads as u64, u(&facts["explicit_quad_count"]));
    c.eq(&t("tile_set_count"), lev.tiles.len() as u64, u(&facts["tile_set_count"]));
    c.eq(&t("tile_quad_count"), g.tile_quads as u64, u(&facts["tile_quad_count"]));
    c.eq(
        &t("rendered_quad_count"),
        (g.explicit_quads + g.tile_quads) as u64,
        u(&facts["rendered_quad_count"]),
    );
    c.eq(
        &t("reversed_explicit_quads"),
        g.reversed_quads as u64,
        u(&facts["reversed_explicit_quads"]),
    );
    let mut per_tex: BTreeMap<String, u64> = BTreeMap::new();
    for face in &g.faces {
        if let mapscope::formats::saturn::geometry::FaceTexture::Level(i) = face.texture {
            *per_tex.entry(i.to_string()).or_default() += 1;
        }
    }
    let want: BTreeMap<String, u64> = facts["quads_per_texture"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), u(v)))
        .collect();
    c.eq(&t("quads_per_texture"), per_tex, want);
    c.ok(&t("no geometry notes"), g.notes.is_empty(), format!("{:?}", g.notes));

    // Tile sets, in record order, with the plane that owns each.
    for (i, want) in facts["tile_sets"].as_array().unwrap().iter().enumerate() {
        let rec = &lev.tiles[i];
        let owner = level.planes.iter().position(|p| p.tile_set() == Some(i));
        let ts = |k: &str| t(&format!("tile set {i} {k}"));
        c.eq(&ts("plane"), owner.map(|p| p as u64), Some(u(&want["plane"])));
        c.eq(&ts("width"), rec.width as u64, u(&want["width"]));
        c.eq(&ts("height"), rec.height as u64, u(&want["height"]));
        c.eq(&ts("color_points"), rec.point_count() as u64, u(&want["color_points"]));
        c.eq(&ts("horz"), rec.horz_f64(), vec3(&want["horz"]));
        c.eq(&ts("vert"), rec.vert_f64(), vec3(&want["vert"]));
        c.eq(&ts("base"), rec.base_f64(), vec3(&want["base"]));
        c.eq(
            &ts("texture_data_offset"),
            rec.texture_data_ofs as u64,
            u(&want["texture_data_offset"]),
        );
        c.eq(&ts("color_data_offset"), rec.color_data_ofs as u64, u(&want["color_data_offset"]));
        let mut hist: BTreeMap<String, u64> = BTreeMap::new();
        for ty in 0..rec.height as usize {
            for tx in 0..rec.width as usize {
                let cell =
                    rec.cell(tx, ty, &level.tile_texture_data, &level.tile_color_data).unwrap();
                *hist.entry(format!("0x{:02x}", cell.flags)).or_default() += 1;
            }
        }
        let want_hist: BTreeMap<String, u64> = want["flags_counts"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), u(v)))
            .collect();
        c.eq(&ts("flags_counts"), hist, want_hist);
    }
    for sample in facts["tile_corner_samples"].as_array().unwrap() {
        let set = u(&sample["tile_set"]) as usize;
        let (tx, ty) = (u(&sample["tile"][0]) as usize, u(&sample["tile"][1]) as usize);
        let rec = &lev.tiles[set];
        let corners = [
            rec.grid_point(tx, ty),
            rec.grid_point(tx + 1, ty),
            rec.grid_point(tx + 1, ty + 1),
            rec.grid_point(tx, ty + 1),
        ];
        let ts = |k: &str| t(&format!("tile set {set} tile ({tx},{ty}) {k}"));
        for (k, want) in sample["corners"].as_array().unwrap().iter().enumerate() {
            c.ok(
                &ts(&format!("corner {k}")),
                close(corners[k], vec3(want), 1e-9),
                format!("{} vs {want}", corners[k]),
            );
        }
        let cell = rec.cell(tx, ty, &level.tile_texture_data, &level.tile_color_data).unwrap();
        c.eq(&ts("texture"), cell.texture as u64, u(&sample["texture"]));
        c.eq(&ts("flags"), cell.flags as u64, u(&sample["flags"]));
        c.eq(
            &ts("color_indices"),
            cell.lights.map(|l| l as u64).to_vec(),
            sample["color_indices"].as_array().unwrap().iter().map(u).collect(),
        );
        // The drawn tile is the record's tile, re-projected and welded by at most the weld distance.
        let face = g
            .faces
            .iter()
            .find(|fc| fc.source == FaceSource::Tile { set, x: tx, y: ty })
            .expect("tile drawn");
        for (k, (drawn, want)) in face.corners.iter().zip(corners).enumerate() {
            c.ok(
                &ts(&format!("drawn corner {k}")),
                close(*drawn, want, 2.0),
                format!("{drawn} vs {want}"),
            );
        }
    }

    let drawn = g.faces.iter().flat_map(|fc| fc.corners);
    let (lo, hi) = drawn.fold((DVec3::MAX, DVec3::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
    let rb = &facts["render_bounds"];
    c.ok(&t("render_bounds min"), close(lo, vec3(&rb["min"]), 1e-6), format!("{lo}"));
    c.ok(&t("render_bounds max"), close(hi, vec3(&rb["max"]), 1e-6), format!("{hi}"));
    let vb = &facts["vertex_bounds"];
    let vpos = level
        .vertices
        .iter()
        .map(|v| DVec3::new(v.pos[0] as f64, v.pos[1] as f64, v.pos[2] as f64));
    let (vlo, vhi) = vpos.fold((DVec3::MAX, DVec3::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
    c.eq(&t("vertex_bounds"), (vlo, vhi), (vec3(&vb["min"]), vec3(&vb["max"])));

    let mut quad_lights = BTreeSet::new();
    let mut tile_lights = BTreeSet::new();
    for face in &g.faces {
        match face.source {
            FaceSource::Quad(_) => quad_lights.extend(face.lights.map(|l| l as u64)),
            FaceSource::Tile { .. } => tile_lights.extend(face.lights.map(|l| l as u64)),
            FaceSource::SkyPlane => {}
        }
    }
    let set_of = |k: &str| facts[k].as_array().unwrap().iter().map(u).collect::<BTreeSet<_>>();
    c.eq(&t("quad_vertex_color_indices"), quad_lights, set_of("quad_vertex_color_indices"));
    c.eq(&t("tile_point_color_indices"), tile_lights, set_of("tile_point_color_indices"));

    c.eq(&t("texture_count"), lev.textures.len() as u64, u(&facts["texture_count"]));
    for (k, pal) in facts["texture_palettes_rgb8"].as_object().unwrap() {
        let tex = &lev.textures[k.parse::<usize>().unwrap()];
        for (i, want) in pal.as_array().unwrap().iter().enumerate() {
            let rgb = Rgb555::from_word(tex.palette[i]).to_rgb8().map(|v| v as u64);
            c.eq(
                &t(&format!("texture {k} palette {i}")),
                rgb.to_vec(),
                want.as_array().unwrap().iter().map(u).collect(),
            );
        }
    }
    for s in facts["texel_samples"].as_array().unwrap() {
        let tex = &lev.textures[u(&s["texture"]) as usize];
        let (x, y) = (u(&s["x"]) as usize, u(&s["y"]) as usize);
        let index = tex.index(x, y).unwrap();
        c.eq(&t(&format!("texel {s}")), index as u64, u(&s["index"]));
        let rgb = Rgb555::from_word(tex.palette[index as usize]).to_rgb8().map(|v| v as u64);
        c.eq(
            &t(&format!("texel rgb {s}")),
            rgb.to_vec(),
            s["rgb8"].as_array().unwrap().iter().map(u).collect(),
        );
    }

    for (i, want) in facts["sky_palette_rgb8"].as_array().unwrap().iter().enumerate() {
        let col = Rgb555::from_word(lev.sky.palette[i]);
        c.eq(
            &t(&format!("sky palette {i}")),
            col.to_rgb8().map(|v| v as u64).to_vec(),
            want.as_array().unwrap().iter().map(u).collect(),
        );
        c.eq(&t(&format!("sky msb {i}")), col.msb as u64, u(&facts["sky_palette_msb"][i]));
    }
    // The frames the parser untiled: whole 64x64 frames filling its index buffer.
    let frame_len = SKY_FRAME_SIZE * SKY_FRAME_SIZE;
    let frames = (0..).take_while(|&f| !lev.sky.frame(f).is_empty()).count();
    c.eq(&t("sky untiled index count"), lev.sky.indices.len(), frames * frame_len);
    c.eq(&t("sky_frame_count"), frames as u64, u(&facts["sky_frame_count"]));
    for s in facts["sky_pixel_samples"].as_array().unwrap() {
        let px = lev.sky.pixel(u(&s["frame"]) as usize, u(&s["x"]) as usize, u(&s["y"]) as usize);
        c.eq(&t(&format!("sky pixel {s}")), px.map(|v| v as u64), Some(u(&s["index"])));
    }
    for s in facts["global_palette_samples"].as_array().unwrap() {
        let word = lev.global_palette[u(&s["index"]) as usize];
        let col = Rgb555::from_word(word);
        c.eq(&t(&format!("global palette {s}")), word as u64, u(&s["raw"]));
        c.eq(
            &t(&format!("global rgb5 {s}")),
            col.channels().map(|v| v as u64).to_vec(),
            s["rgb5"].as_array().unwrap().iter().map(u).collect(),
        );
        c.eq(
            &t(&format!("global rgb8 {s}")),
            col.to_rgb8().map(|v| v as u64).to_vec(),
            s["rgb8"].as_array().unwrap().iter().map(u).collect(),
        );
        c.eq(&t(&format!("global msb {s}")), col.msb as u64, u(&s["msb"]));
    }

    c.eq(&t("entity_count"), level.entities.len() as u64, u(&facts["entity_count"]));
    for (i, want) in facts["entities"].as_array().unwrap().iter().enumerate() {
        let e = level.entities[i];
        c.eq(
            &t(&format!("entity {i}")),
            (e.kind as u64, e.data_offset as u64),
            (u(&want["type"]), u(&want["data_offset"])),
        );
    }
    let movers: Vec<usize> =
        (0..level.entities.len()).filter(|&i| level.entities[i].kind == MOVER_TYPE).collect();
    c.eq(&t("mover_count"), movers.len() as u64, u(&facts["mover_count"]));
    let hex: Vec<String> = movers
        .iter()
        .map(|&i| level.entity_bytes(i).unwrap().iter().map(|b| format!("{b:02x}")).collect())
        .collect();
    c.eq(
        &t("mover_data_hex"),
        hex,
        facts["mover_data_hex"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect(),
    );
    c.eq(
        &t("table_data_1_element_count"),
        lev.table1.elements.len() as u64,
        u(&facts["table_data_1_element_count"]),
    );
    c.eq(
        &t("table_data_2_chunk_count"),
        lev.tail.as_ref().map(|tl| tl.table2_chunks.len() as u64),
        Some(u(&facts["table_data_2_chunk_count"])),
    );
}

#[test]
fn every_fact_of_expected_json_holds() {
    let mut c = Check::default();
    let files = expected()["facts"].as_object().unwrap();
    support::assert_at_least(
        files.len(),
        4,
        "saturn expected.json: files with facts",
        support::SHARED_HINT,
    );
    for (rel, facts) in files {
        check_facts(rel, facts, &mut c);
    }
    c.finish("facts");
}

#[test]
fn optional_unknown_first_tile_layout_is_detected_and_its_facts_hold() {
    let mut c = Check::default();
    let optional = expected()["optional_facts"].as_object().unwrap();
    support::assert_at_least(
        optional.len(),
        1,
        "saturn expected.json: optional files",
        support::SHARED_HINT,
    );
    for (rel, facts) in optional {
        check_facts(rel, facts, &mut c);
        c.eq(&format!("{rel} layout"), load(rel).tile_layout, TileLayout::UnknownFirst);
    }
    for file in expected()["files"].as_array().unwrap() {
        let rel = file["path"].as_str().unwrap();
        if rel.ends_with(".lev") {
            c.eq(&format!("{rel} layout"), load(rel).tile_layout, TileLayout::Seed);
        }
    }
    c.finish("optional facts");
}

// ---------------------------------------------------------------------------------------------
// Reference images.

fn reference_png(name: &str) -> image::RgbaImage {
    image::open(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}")).to_rgba8()
}

#[test]
fn sky_frames_match_the_reference_image() {
    let lev = load("test_room.lev");
    let img = reference_png("sky_frames_expected.png");
    let mut wrong = 0;
    for frame in 0..SKY_FRAMES {
        for y in 0..64 {
            for x in 0..64 {
                let index = lev.sky.pixel(frame, x, y).unwrap();
                let rgb = Rgb555::from_word(lev.sky.palette[index as usize]).to_rgb8();
                let p = img.get_pixel(((frame % 8) * 64 + x) as u32, ((frame / 8) * 64 + y) as u32);
                wrong += (p.0[..3] != rgb) as usize;
            }
        }
    }
    assert_eq!(wrong, 0, "sky pixels differing from sky_frames_expected.png");
}

#[test]
fn textures_match_the_reference_image() {
    let lev = load("test_room.lev");
    let img = reference_png("textures_expected.png");
    let mut wrong = 0;
    for (k, tex) in lev.textures.iter().enumerate() {
        for y in 0..64 {
            for x in 0..64 {
                let rgb =
                    Rgb555::from_word(tex.palette[tex.index(x, y).unwrap() as usize]).to_rgb8();
                wrong += (img.get_pixel((k * 64 + x) as u32, y as u32).0[..3] != rgb) as usize;
            }
        }
    }
    assert_eq!(wrong, 0, "texels differing from textures_expected.png");
}

// ---------------------------------------------------------------------------------------------
// Probes: headless renders at each probe's camera, checked at its pixels.

fn scene_of(rel: &str) -> Scene {
    let lev = load(rel);
    build_scene(&lev, rel)
}

/// Renders a probe's view; saves it under target/saturn-probes/ for eyeballing.
fn render_probe(scene: &mut Scene, probe: &Value) -> image::RgbaImage {
    let size = [u(&probe["size"][0]) as u32, u(&probe["size"][1]) as u32];
    let img = render_native(
        scene,
        vec3(&probe["camera"]),
        vec3(&probe["look_at"]),
        f(&probe["fov"]),
        size,
    );
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/saturn-probes");
    let _ = std::fs::create_dir_all(&out);
    let _ = img.save(out.join(format!("{}.png", probe["name"].as_str().unwrap())));
    img
}

fn check_probes(list: &Value) -> (usize, Vec<String>) {
    let scenes: Mutex<HashMap<String, Scene>> = Mutex::new(HashMap::new());
    let mut passed = 0;
    let mut failures = Vec::new();
    let list = list.as_array().unwrap();
    support::assert_at_least(list.len(), 3, "saturn expected.json: probes", support::SHARED_HINT);
    for probe in list {
        let rel = probe["file"].as_str().unwrap();
        let mut scenes = scenes.lock().unwrap();
        let scene = scenes.entry(rel.to_string()).or_insert_with(|| scene_of(rel));
        let img = render_probe(scene, probe);
        let (w, h) = (img.width(), img.height());
        for px in probe["pixels"].as_array().unwrap() {
            let (x, y) = probe_pixel([f(&px["at"][0]), f(&px["at"][1])], w, h);
            let got = img.get_pixel(x, y).0;
            let tol = u(&px["tolerance"]) as i64;
            if colour_matches([got[0], got[1], got[2]], &px["rgb_any_of"], tol) {
                passed += 1;
            } else {
                failures.push(format!(
                    "{} ({rel}) at ({x},{y}): got {:?}, want one of {}",
                    probe["name"],
                    &got[..3],
                    px["rgb_any_of"]
                ));
            }
        }
    }
    (passed, failures)
}

#[test]
fn every_probe_of_expected_json_renders_its_colours() {
    let (passed, failures) = check_probes(&expected()["probes"]);
    assert!(
        failures.is_empty(),
        "{} probe pixels failed ({passed} passed):\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("probes: {passed} pixels passed");
}

#[test]
fn optional_probes_pass_with_the_unknown_first_layout() {
    let (passed, failures) = check_probes(&expected()["optional_probes"]);
    assert!(
        failures.is_empty(),
        "{} optional probe pixels failed ({passed} passed):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Corrupt files: a clean error naming file, structure and offset, or a level with its
// problems noted; never a panic, and memory bounded by ten times the file size.

#[test]
fn corrupt_files_fail_cleanly_or_load_what_is_valid() {
    let mut report = Vec::new();
    let corrupt = expected()["corrupt"].as_array().unwrap();
    support::assert_at_least(
        corrupt.len(),
        15,
        "saturn expected.json: corrupt files",
        support::SHARED_HINT,
    );
    for entry in corrupt {
        let rel = entry["path"].as_str().unwrap();
        let data = std::fs::read(dir().join(rel)).unwrap();
        let name = rel.rsplit('/').next().unwrap();
        let (outcome, peak) = peak_allocation(|| {
            std::panic::catch_unwind(|| match LevFile::parse(name, &data) {
                Err(e) => Err(e),
                Ok(lev) => {
                    let scene = build_scene(&lev, name);
                    Ok(scene.facts.notes)
                }
            })
        });
        let outcome = outcome.unwrap_or_else(|_| panic!("{rel}: panicked"));
        assert!(
            peak <= 10 * data.len() + (1 << 20),
            "{rel}: allocated {peak} bytes for a {}-byte file",
            data.len()
        );
        match outcome {
            Err(e) => {
                assert_eq!(e.file, name, "{rel}: {e}");
                assert!(!e.structure.is_empty(), "{rel}: error without structure: {e}");
                // The offset lies within the file or at its end.
                assert!(
                    e.offset <= data.len() as u64,
                    "{rel}: error offset {} past the {}-byte file: {e}",
                    e.offset,
                    data.len()
                );
                report.push(format!("{rel}: error: {e}"));
            }
            Ok(notes) => {
                let problems: Vec<&String> = notes
                    .iter()
                    .filter(|n| {
                        n.starts_with("warning") || n.contains("skipped") || n.contains("past")
                    })
                    .collect();
                assert!(
                    !problems.is_empty(),
                    "{rel}: loaded without noting what is broken: {notes:#?}"
                );
                report.push(format!("{rel}: loaded; {problems:?}"));
            }
        }
    }
    eprintln!("{}", report.join("\n"));
}

/// What each corrupt file must say: the structure named in the error, or the note kept when
/// the rest loads.
#[test]
fn corrupt_files_name_the_broken_structure() {
    let expect: [(&str, &str); 15] = [
        ("c01_truncated_in_sky.lev", "sky segment"),
        ("c02_truncated_in_header.lev", "level data header"),
        ("c03_truncated_in_vertices.lev", "level data: Verts"),
        ("c04_truncated_in_texture.lev", "2 entries claimed, only 1"),
        ("c05_not_a_lev.lev", "sky segment"),
        ("c06_huge_plane_count.lev", "level data: Planes"),
        ("c07_vertex_count_wraps.lev", "level data: Verts"),
        ("c08_huge_texture_count.lev", "2147483647 entries claimed"),
        ("c09_bad_plane_and_node_refs.lev", "node 0: planes 5..=65535 past the 2 planes"),
        ("c10_bad_quad_refs.lev", "past the"),
        ("c11_bad_tile_refs.lev", "TileTextureData"),
        ("c12_huge_table1_count.lev", "table data 1"),
        ("c13_table2_chunk_loops.lev", "table data 2"),
        ("c14_entity_data_size_huge.lev", "level data: EntityData"),
        ("c15_embedded_size_past_eof.lev", "table data 2"),
    ];
    for (file, needle) in expect {
        let data = std::fs::read(dir().join("corrupt").join(file)).unwrap();
        let text = match LevFile::parse(file, &data) {
            Err(e) => e.to_string(),
            Ok(lev) => build_scene(&lev, file).facts.notes.join("\n"),
        };
        assert!(text.contains(needle), "{file}: expected {needle:?} in:\n{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// The CLI.

#[test]
fn cli_info_reports_counts_layout_entities_and_segments() {
    let path = dir().join("test_room.lev");
    let out = mapscope(["info", "--json", path.to_str().unwrap()]);
    let json: Value = serde_json::from_str(&success(&out, "info --json")).unwrap();
    let facts = &expected()["facts"]["test_room.lev"];
    assert_eq!(json["format"], "Saturn Quake");
    assert_eq!(json["counts"]["planes"], facts["plane_count"]);
    assert_eq!(json["counts"]["rendered_quads"], facts["rendered_quad_count"]);
    assert_eq!(json["counts"]["entities"], facts["entity_count"]);
    assert_eq!(json["counts"]["movers"], facts["mover_count"]);
    assert_eq!(json["counts"]["table_data_2_chunks"], facts["table_data_2_chunk_count"]);
    assert_eq!(json["bounds"]["min"], facts["render_bounds"]["min"]);
    assert_eq!(json["bounds"]["max"], facts["render_bounds"]["max"]);
    let notes: Vec<&str> =
        json["notes"].as_array().unwrap().iter().filter_map(|n| n.as_str()).collect();
    assert!(notes.iter().any(|n| n.starts_with("tile layout: seed")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("type 0x92 misc_polymover")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("visibility 165329 eof 165381")), "{notes:?}");

    let alt = dir().join("optional/nonseed_tile_unknown_first.lev");
    let out = mapscope(["info", "--json", alt.to_str().unwrap()]);
    let json: Value = serde_json::from_str(&success(&out, "info --json (optional)")).unwrap();
    let notes = json["notes"].to_string();
    assert!(notes.contains("tile layout: unknown-first"), "{notes}");
}

#[test]
fn cli_render_writes_the_probe_view_and_errors_are_one_line() {
    let tmp = support::TempDir::new("saturn-cli");
    let png = tmp.join("probe.png");
    let path = dir().join("small.lev");
    let probe = expected()["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "small_quad")
        .unwrap();
    let coord = |v: &Value| format!("{},{},{}", f(&v[0]), f(&v[1]), f(&v[2]));
    let out = mapscope([
        "render",
        path.to_str().unwrap(),
        "--camera",
        &coord(&probe["camera"]),
        "--look-at",
        &coord(&probe["look_at"]),
        "--fov",
        "60",
        "--size",
        "160x120",
        "-o",
        png.to_str().unwrap(),
    ]);
    success(&out, "render");
    let img = image::open(&png).unwrap().to_rgba8();
    let want = &probe["pixels"][0]["rgb_any_of"][0];
    let got = img.get_pixel(80, 60).0;
    assert!(
        (0..3).all(|k| (got[k] as i64 - want[k].as_i64().unwrap()).abs() <= 1),
        "{got:?} vs {want}"
    );

    let bad = dir().join("corrupt/c06_huge_plane_count.lev");
    let out = mapscope(["info", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("c06_huge_plane_count.lev")
            && err.contains("level data: Planes")
            && err.contains("offset"),
        "{err}"
    );
}
