//! Carmageddon 2: every fact and probe of `../shared/fixtures/carma2/expected.json` (parsed
//! files, the built track, headless renders at the probes' cameras), the corrupt variants
//! (clean errors or partial loads, bounded allocation), and the CLI on the fixture track.
//! Writer-built fixtures for what the shared ones leave out live in `carma2_writer.rs`.

use crate::support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use glam::DVec3;
use mapscope::formats::carma2::actors::{parse_actors, Pp01};
use mapscope::formats::carma2::materials::{flags, parse_materials};
use mapscope::formats::carma2::models::parse_models;
use mapscope::formats::carma2::pixelmaps::{parse_pixelmaps, Pixelmap};
use mapscope::formats::carma2::surfaces::rgba_of;
use mapscope::formats::carma2::twt::Twt;
use mapscope::formats::carma2::{build_scene, BuildReport, Entry, Subject, TrackFiles};
use mapscope::loader::{self, OpenOptions};
use mapscope::scene::Scene;
use serde_json::Value;
use support::alloc_count::peak_allocation;
use support::probes::{colour_matches, probe_pixel, render_native};
use support::{mapscope, success, TempDir};

// ---------------------------------------------------------------------------------------------
// Fixture access.

fn fixtures() -> PathBuf {
    support::fixture("carma2")
}

fn expected() -> &'static Value {
    static EXPECTED: OnceLock<Value> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let path = fixtures().join("expected.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (the shared fixtures)", path.display()));
        serde_json::from_str(&text).expect("expected.json parses")
    })
}

fn facts(key: &str) -> &'static Value {
    &expected()["facts"][key]
}

fn read(rel: &str) -> Vec<u8> {
    let path = fixtures().join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The loose file of `name` (folders as on the CD).
fn loose(name: &str) -> Vec<u8> {
    let folder = match name.rsplit('.').next() {
        Some("ACT") => "ACTORS",
        Some("DAT") => "MODELS",
        Some("MAT") => "MATERIAL",
        Some("PAL") => "REG/PALETTES",
        _ => "PIXELMAP",
    };
    read(&format!("{folder}/{name}"))
}

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array().expect("array").iter().map(|x| x.as_f64().expect("number") as f32).collect()
}

fn close(a: &[f32], b: &[f32], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: {a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-4 * (1.0 + y.abs()), "{what}: {a:?} vs {b:?}");
    }
}

fn opt_str(v: &Value) -> Option<&str> {
    v.as_str()
}

fn track(rel: &str) -> TrackFiles {
    let path = fixtures().join(rel);
    let entry = if rel.ends_with(".ACT") { Entry::Actors } else { Entry::Archive };
    TrackFiles::open(&path, entry).unwrap_or_else(|e| panic!("{rel}: {e:#}"))
}

fn build(files: &TrackFiles) -> (Scene, BuildReport) {
    let map = files.maps().first().cloned().expect("a map");
    build_scene(&files.library, Subject::Track(&map), None).expect("track builds")
}

// ---------------------------------------------------------------------------------------------
// Facts about each file.

#[test]
fn twt_directory_matches() {
    let f = facts("TRACK.TWT");
    let twt = Twt::from_bytes("TRACK.TWT", read("TRACK.TWT")).expect("TRACK.TWT opens");
    let want = f["entries"].as_array().unwrap();
    assert_eq!(twt.entries().len() as u64, f["entry_count"].as_u64().unwrap());
    for (e, w) in twt.entries().iter().zip(want) {
        assert_eq!(e.name, w["name"].as_str().unwrap());
        assert_eq!(e.size as u64, w["size"].as_u64().unwrap());
        // The archive holds the same bytes as the loose files.
        assert_eq!(twt.data(e), &loose(&e.name)[..], "{}", e.name);
    }
    assert!(twt.notes().is_empty(), "{:?}", twt.notes());
}

#[test]
fn actor_hierarchy_matches() {
    let f = facts("TRACK.ACT");
    let p = parse_actors("TRACK.ACT", &loose("TRACK.ACT"));
    assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
    let types: Vec<u64> = p.record_types.iter().map(|&t| u64::from(t)).collect();
    let want: Vec<u64> = f["record_types_in_order_first_seen"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(types, want);
    assert_eq!(p.objects.len() as u64, f["top_level_hierarchies"].as_u64().unwrap());
    let h = &p.objects[0];
    assert_eq!(h.actors.len() as u64, f["actor_count"].as_u64().unwrap());
    assert_eq!(h.actors[0].name, f["root_name"].as_str().unwrap());
    let pp = Pp01::parse(&h.actors[0].name).expect("PP01 name");
    let w = &f["root_pp01"];
    assert_eq!(u64::from(pp.x_columns), w["x_columns"].as_u64().unwrap());
    assert_eq!(u64::from(pp.z_columns), w["z_columns"].as_u64().unwrap());
    assert_eq!(f64::from(pp.extra_room), w["extra_room"].as_f64().unwrap());
    assert_eq!(i64::from(pp.noncars), w["noncars"].as_i64().unwrap());
    assert_eq!(u64::from(h.max_depth()), f["max_depth"].as_u64().unwrap());
    let model_actors = h.actors.iter().filter(|a| a.model.is_some()).count();
    assert_eq!(model_actors as u64, f["model_actors"].as_u64().unwrap());

    let world = h.world_matrices();
    for (i, w) in f["actors"].as_array().unwrap().iter().enumerate() {
        let a = &h.actors[i];
        let what = &a.name;
        assert_eq!(a.name, w["name"].as_str().unwrap());
        let parent = a.parent.map(|p| h.actors[p].name.as_str());
        assert_eq!(parent, opt_str(&w["parent"]), "{what}");
        assert_eq!(u64::from(a.depth), w["depth"].as_u64().unwrap(), "{what}");
        assert_eq!(u64::from(a.actor_type), w["type"].as_u64().unwrap(), "{what}");
        assert_eq!(u64::from(a.render_style), w["render_style"].as_u64().unwrap(), "{what}");
        assert_eq!(a.model.as_deref(), opt_str(&w["model"]), "{what}");
        assert_eq!(a.material.as_deref(), opt_str(&w["material"]), "{what}");
        let rows: Vec<f32> = w["world_matrix"].as_array().unwrap().iter().flat_map(f32s).collect();
        close(&world[i].0.concat(), &rows, what);
    }
}

#[test]
fn models_match() {
    for file in ["TRACK.DAT", "SIGN.DAT"] {
        let f = facts(file);
        let p = parse_models(file, &loose(file));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects.len() as u64, f["model_count"].as_u64().unwrap(), "{file}");
        for (m, w) in p.objects.iter().zip(f["models"].as_array().unwrap()) {
            let what = format!("{file} {}", m.name);
            assert_eq!(m.name, w["name"].as_str().unwrap());
            assert_eq!(u64::from(m.flags), w["flags"].as_u64().unwrap(), "{what}");
            assert_eq!(m.vertices.len() as u64, w["vertices"].as_u64().unwrap(), "{what}");
            assert_eq!(m.uvs.len() as u64, w["uvs"].as_u64().unwrap(), "{what}");
            assert_eq!(m.faces.len() as u64, w["faces"].as_u64().unwrap(), "{what}");
            let names: Vec<&str> = w["material_names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            assert_eq!(m.material_names, names, "{what}");
            for (mat, n) in w["faces_per_material"].as_object().unwrap() {
                let got = m.faces.iter().filter(|f| m.face_material(f) == Some(mat)).count();
                assert_eq!(got as u64, n.as_u64().unwrap(), "{what} {mat}");
            }
            let sf = w["face0_smoothing_and_flags"].as_array().unwrap();
            assert_eq!(u64::from(m.faces[0].smoothing), sf[0].as_u64().unwrap(), "{what}");
            assert_eq!(u64::from(m.faces[0].flags), sf[1].as_u64().unwrap(), "{what}");
            let b = m.bounds().unwrap();
            close(&b.min, &f32s(&w["bounds_min"]), &what);
            close(&b.max, &f32s(&w["bounds_max"]), &what);
        }
    }
}

#[test]
fn materials_match() {
    for file in ["TRACK.MAT", "PROBES.MAT"] {
        let f = facts(file);
        let p = parse_materials(file, &loose(file));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects.len() as u64, f["material_count"].as_u64().unwrap(), "{file}");
        for (m, w) in p.objects.iter().zip(f["materials"].as_array().unwrap()) {
            let what = &m.name;
            assert_eq!(m.name, w["name"].as_str().unwrap());
            let rgb: Vec<u64> = m.colour.iter().map(|&c| u64::from(c)).collect();
            let want: Vec<u64> =
                w["rgb"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(rgb, want, "{what}");
            assert_eq!(u64::from(m.opacity), w["opacity_byte"].as_u64().unwrap(), "{what}");
            assert_eq!(u64::from(m.flags), w["flags"].as_u64().unwrap(), "{what}");
            let decoded: Vec<&str> = w["flags_decoded"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            let mut got = flags::names(m.flags);
            got.sort();
            let mut decoded_sorted = decoded.clone();
            decoded_sorted.sort();
            assert_eq!(got, decoded_sorted, "{what}");
            close(&m.uv_matrix.to_floats(), &f32s(&w["uv_matrix"]), what);
            assert_eq!(m.image.as_deref(), opt_str(&w["image"]), "{what}");
            close(
                &[m.ka, m.kd, m.ks, m.power],
                &f32s(&serde_json::json!([w["ka"], w["kd"], w["ks"], w["power"]])),
                what,
            );
            assert_eq!(u64::from(m.index_base), w["index_base"].as_u64().unwrap(), "{what}");
            assert_eq!(u64::from(m.index_range), w["index_range"].as_u64().unwrap(), "{what}");
        }
    }
}

fn check_pixelmap(p: &Pixelmap, w: &Value, what: &str) {
    assert_eq!(p.name, w["name"].as_str().unwrap(), "{what}");
    assert_eq!(u64::from(p.pixel_type), w["type"].as_u64().unwrap(), "{what}");
    assert_eq!(u64::from(p.width), w["width"].as_u64().unwrap(), "{what}");
    assert_eq!(u64::from(p.height), w["height"].as_u64().unwrap(), "{what}");
    if !w["row_bytes"].is_null() {
        assert_eq!(u64::from(p.row_bytes), w["row_bytes"].as_u64().unwrap(), "{what}");
        assert_eq!(u64::from(p.bytes_per_pixel), w["bytes_per_pixel"].as_u64().unwrap(), "{what}");
        let origin = [w["origin"][0].as_u64().unwrap(), w["origin"][1].as_u64().unwrap()];
        assert_eq!(p.origin.map(u64::from), origin, "{what}");
        assert_eq!(p.palette.is_some(), w["has_embedded_palette"].as_bool().unwrap(), "{what}");
    }
    p.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
}

#[test]
fn pixelmaps_match() {
    for file in [
        "PROBE8.PIX",
        "PROBE565.PIX",
        "PROBE4444.PIX",
        "FENCE8.PIX",
        "TRACK.P08",
        "TRACK.P16",
        "DRRENDER.PAL",
    ] {
        let f = facts(file);
        let p = parse_pixelmaps(file, &loose(file));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects.len() as u64, f["pixelmap_count"].as_u64().unwrap(), "{file}");
        for (pm, w) in p.objects.iter().zip(f["pixelmaps"].as_array().unwrap()) {
            check_pixelmap(pm, w, file);
        }
        if let Some(pal) = f.get("embedded_palette") {
            check_pixelmap(p.objects[0].palette.as_deref().expect("embedded palette"), pal, file);
        }
    }
    let pal = parse_pixelmaps("DRRENDER.PAL", &loose("DRRENDER.PAL")).objects[0]
        .palette_entries()
        .unwrap();
    assert_eq!(pal.len(), 256);
    for (i, rgb) in facts("DRRENDER.PAL")["entries"].as_object().unwrap() {
        let i: usize = i.parse().unwrap();
        let want: Vec<u8> =
            rgb.as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u8).collect();
        assert_eq!(pal[i].to_vec(), want, "palette entry {i}");
    }
}

#[test]
fn texels_decode_as_listed() {
    let pal = parse_pixelmaps("DRRENDER.PAL", &loose("DRRENDER.PAL")).objects[0]
        .palette_entries()
        .unwrap();
    for t in facts("texels").as_array().unwrap() {
        let file = t["file"].as_str().unwrap();
        let maps = parse_pixelmaps(file, &loose(file)).objects;
        let p = maps.iter().find(|p| p.name == t["pixelmap"].as_str().unwrap()).unwrap();
        let (x, y) = (t["x"].as_u64().unwrap() as usize, t["y"].as_u64().unwrap() as usize);
        let raw = p.raw(x, y).unwrap();
        let what = format!("{file} {} ({x},{y})", p.name);
        assert_eq!(u64::from(raw), t["raw"].as_u64().unwrap(), "{what}");
        let bytes = |v: &Value| -> Vec<u8> {
            v.as_array().unwrap().iter().map(|c| c.as_u64().unwrap() as u8).collect()
        };
        if let Some(index) = t["index"].as_u64() {
            assert_eq!(u64::from(raw), index, "{what}");
            assert_eq!(raw == 0, t["transparent"].as_bool().unwrap(), "{what}");
            if !t["rgb"].is_null() {
                assert_eq!(pal[raw as usize].to_vec(), bytes(&t["rgb"]), "{what}");
            }
        } else if !t["rgba_replicate"].is_null() {
            assert_eq!(rgba_of(p.pixel_type, raw).to_vec(), bytes(&t["rgba_replicate"]), "{what}");
        } else {
            assert_eq!(
                rgba_of(p.pixel_type, raw)[..3].to_vec(),
                bytes(&t["rgb_replicate"]),
                "{what}"
            );
        }
    }
}

#[test]
fn built_track_matches_the_level_facts() {
    for rel in ["TRACK.TWT", "ACTORS/TRACK.ACT"] {
        let files = track(rel);
        let (scene, r) = build(&files);
        let f = facts("level");
        assert_eq!(r.faces as u64, f["triangles"].as_u64().unwrap(), "{rel}");
        assert_eq!(r.faces_visible as u64, f["triangles_visible"].as_u64().unwrap(), "{rel}");
        assert_eq!(r.model_instances as u64, f["model_instances"].as_u64().unwrap(), "{rel}");
        for (mat, n) in f["triangles_per_material"].as_object().unwrap() {
            assert_eq!(
                r.faces_per_material.get(mat).copied(),
                Some(n.as_u64().unwrap() as usize),
                "{rel} {mat}"
            );
        }
        assert_eq!(
            r.faces_per_material.len(),
            f["triangles_per_material"].as_object().unwrap().len()
        );
        for (key, b) in
            [("world_bounds_all", r.bounds_all), ("world_bounds_visible", r.bounds_visible)]
        {
            let b = b.unwrap();
            close(&b.min, &f32s(&f[key][0]), key);
            close(&b.max, &f32s(&f[key][1]), key);
        }
        let models: Vec<&str> = f["distinct_models_used"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(r.models_used.iter().map(String::as_str).collect::<Vec<_>>(), models, "{rel}");
        assert!(r.unresolved.is_empty(), "{rel}: {:?}", r.unresolved);
        assert!(
            scene.facts.notes.iter().any(|n| n == "palette: DRRENDER.PAL"),
            "{:?}",
            scene.facts.notes
        );
        // Two-sided faces are drawn with both windings; hidden ones not at all.
        assert!(
            scene.triangle_count() >= r.faces_visible
                && scene.triangle_count() < 2 * r.faces_visible
        );
        assert_eq!(scene.parts.of_triangle.len(), scene.triangle_count());
    }
}

#[test]
fn quirk_archives_match() {
    let f = facts("quirks/C1STYLE.TWT");
    let files = track("quirks/C1STYLE.TWT");
    let lib = &files.library;
    let names: Vec<&str> = lib.files.iter().map(|r| r.name.as_str()).collect();
    let want: Vec<&str> =
        f["entries"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(names, want);
    let act = &f["C1TRACK.ACT"];
    let (_, h) = &lib.hierarchies[0];
    let root = &h.actors[0];
    assert_eq!(root.name, act["root"].as_str().unwrap());
    assert_eq!(u64::from(root.actor_type), act["root_type"].as_u64().unwrap());
    assert_eq!(root.material.as_deref(), opt_str(&act["root_material"]));
    assert_eq!(root.model.as_deref(), opt_str(&act["root_model"]));
    assert_eq!(h.actors.len(), 1 + act["children"].as_array().unwrap().len());
    let mut types = lib.file("C1TRACK.ACT").unwrap().record_types.clone();
    types.sort();
    let want: Vec<u32> = act["record_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(types, want);
    let model = lib.models.get("C1QUAD.DAT").unwrap();
    assert_eq!(model.vertices.len(), 4);
    assert_eq!(model.faces.len(), 2);
    assert!(model.material_names.is_empty());
    let mat = lib.materials.get("C1MAT.MAT").unwrap();
    let fm = &f["C1MAT.MAT"];
    assert_eq!(u64::from(mat.record), fm["record"].as_u64().unwrap());
    assert_eq!(u64::from(mat.flags), fm["flags"].as_u64().unwrap());
    assert_eq!(mat.image.as_deref(), opt_str(&fm["image"]));
    assert_eq!(u64::from(mat.index_base), fm["index_base"].as_u64().unwrap());
    assert_eq!(u64::from(mat.index_range), fm["index_range"].as_u64().unwrap());
    assert_eq!(mat.shade_table.as_deref(), opt_str(&fm["tables"]["0x1f"]));
    let pix = lib.pixelmaps.get("C1TEX.PIX").unwrap();
    assert_eq!(u64::from(pix.record), f["C1TEX.PIX"]["record"].as_u64().unwrap());
    assert_eq!(pix.mip_offset.is_some(), f["C1TEX.PIX"]["mip_offset_present"].as_bool().unwrap());
    check_pixelmap(pix, &f["C1TEX.PIX"], "C1TEX.PIX");
    assert_eq!(u64::from(lib.length_mismatches), f["length_word_mismatches"].as_u64().unwrap());

    let f = facts("quirks/BADLEN.TWT");
    let files = track("quirks/BADLEN.TWT");
    let lib = &files.library;
    let names: Vec<&str> = lib.files.iter().map(|r| r.name.as_str()).collect();
    let want: Vec<&str> =
        f["entries"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(names, want, "BADLEN entries");
    assert_eq!(u64::from(lib.length_mismatches), f["length_word_mismatches"].as_u64().unwrap());
    let act = &f["BADLEN.ACT"];
    let (_, h) = &lib.hierarchies[0];
    let root = &h.actors[0];
    assert_eq!(root.name, act["root"].as_str().unwrap());
    assert_eq!(u64::from(root.actor_type), act["root_type"].as_u64().unwrap(), "BADLEN root type");
    assert_eq!(root.material.as_deref(), opt_str(&act["root_material"]), "BADLEN root material");
    assert_eq!(root.model.as_deref(), opt_str(&act["root_model"]), "BADLEN root model");
    let children: Vec<&str> = h.actors[1..].iter().map(|a| a.name.as_str()).collect();
    let want: Vec<&str> =
        act["children"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(children, want);
    let mut types = lib.file("BADLEN.ACT").unwrap().record_types.clone();
    types.sort();
    let want: Vec<u32> = act["record_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(types, want, "BADLEN.ACT record types");
    let fd = &f["BADLEN.DAT"];
    let model = lib.models.get(fd["name"].as_str().unwrap()).unwrap();
    assert_eq!(model.vertices.len() as u64, fd["vertices"].as_u64().unwrap(), "BADLEN.DAT");
    assert_eq!(model.faces.len() as u64, fd["faces"].as_u64().unwrap(), "BADLEN.DAT");
    let want: Vec<String> = fd["material_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(model.material_names, want);
    let fm = &f["BADLEN.MAT"];
    let mat = lib.materials.get(fm["name"].as_str().unwrap()).unwrap();
    assert_eq!(u64::from(mat.record), fm["record"].as_u64().unwrap(), "BADLEN.MAT record");
    assert_eq!(u64::from(mat.flags), fm["flags"].as_u64().unwrap());
    assert_eq!(mat.image.as_deref(), opt_str(&fm["image"]));
    assert_eq!(u64::from(mat.index_base), fm["index_base"].as_u64().unwrap(), "BADLEN.MAT");
    assert_eq!(u64::from(mat.index_range), fm["index_range"].as_u64().unwrap(), "BADLEN.MAT");
    assert_eq!(mat.shade_table.as_deref(), opt_str(&fm["tables"]["0x1f"]));
    let fp = &f["PROBE565.PIX"];
    let pix = lib.pixelmaps.get(fp["name"].as_str().unwrap()).unwrap();
    assert_eq!(u64::from(pix.record), fp["record"].as_u64().unwrap(), "BADLEN PROBE565.PIX");
    assert_eq!(pix.mip_offset.is_some(), fp["mip_offset_present"].as_bool().unwrap());
    check_pixelmap(pix, fp, "BADLEN PROBE565.PIX");
}

// ---------------------------------------------------------------------------------------------
// Corrupt files.

/// Loads and builds a file through the loader as `mapscope` does; the error or the notes.
fn load(path: &Path) -> Result<Scene, String> {
    let source = loader::open(&[path.to_path_buf()], &OpenOptions::default())
        .map_err(|e| format!("{e:#}"))?;
    source.build(None).map_err(|e| format!("{e:#}"))
}

#[test]
fn corrupt_files_fail_cleanly_or_load_what_is_valid() {
    let corrupt = expected()["corrupt"].as_array().unwrap();
    support::assert_at_least(
        corrupt.len(),
        15,
        "carma2 expected.json: corrupt files",
        support::SHARED_HINT,
    );
    for c in corrupt {
        let rel = c["path"].as_str().unwrap();
        let path = fixtures().join(rel);
        let size = std::fs::metadata(&path).unwrap().len() as usize;
        let (result, peak) = peak_allocation(|| load(&path));
        // About ten times the file at most. The deep-nesting file packs an actor into 20 bytes
        // of records, and each parsed actor (name, matrix, bounds, names, parent) takes about
        // 170 bytes in a vector that doubles as it grows: there the bound is 32 times.
        let factor = if rel.contains("deep_nesting") { 32 } else { 10 };
        assert!(
            peak <= factor * size + (256 << 10),
            "{rel}: peak allocation {peak} for {size} bytes"
        );
        let reference = c["reference_reader_result"].as_str().unwrap();
        let (kind, message) = reference.split_once(": ").unwrap();
        // What the reference reader says, without its file prefix.
        let detail = message.split_once(": ").map_or(message, |(_, d)| d);
        match (kind, &result) {
            ("error", Err(e)) => {
                assert!(e.contains(message), "{rel}: {e}\n  expected: {message}");
                assert!(e.contains("offset"), "{rel}: error does not name the offset: {e}");
            }
            ("partial" | "warning", Ok(scene)) => {
                // Errors print their offset as "at offset N (0xN): message".
                let (what, offset) = match detail.split_once(" at offset ") {
                    Some((w, o)) => (w, Some(format!("offset {o} "))),
                    None => (detail, None),
                };
                let notes = scene.facts.notes.join("\n");
                let said = notes.lines().any(|n| {
                    n.contains(what) && offset.as_ref().is_none_or(|o| n.contains(o.as_str()))
                });
                assert!(said, "{rel}: notes do not say {detail:?}:\n{notes}");
                assert!(scene.triangle_count() > 0, "{rel}: nothing left to draw");
            }
            ("partial", Err(e)) => {
                assert!(
                    e.contains(detail) && e.contains("offset"),
                    "{rel}: {e}\n  expected: {detail}"
                );
            }
            ("loaded", Ok(scene)) => {
                let depth: u64 = detail.trim_start_matches("depth ").parse().unwrap();
                let got = scene.facts.counts.iter().find(|(k, _)| k == "max_depth").unwrap().1;
                assert_eq!(got, depth, "{rel}");
            }
            _ => panic!(
                "{rel}: got {:?}, reference reader: {reference}",
                result.as_ref().map(|s| s.facts.notes.clone())
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Probes: headless renders at each probe's camera.

fn probe_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/carma2-probes");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Renders `probe` and returns the pixels that miss, as messages.
fn run_probe(probe: &Value) -> Vec<String> {
    let name = probe["name"].as_str().unwrap();
    let file = probe["file"].as_str().unwrap();
    let path = if name.ends_with("__loose") {
        fixtures().join("ACTORS/TRACK.ACT")
    } else {
        fixtures().join(file)
    };
    let mut scene = load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let v = |key: &str| {
        let a = f32s(&probe[key]);
        DVec3::new(a[0].into(), a[1].into(), a[2].into())
    };
    let (w, h) =
        (probe["size"][0].as_u64().unwrap() as u32, probe["size"][1].as_u64().unwrap() as u32);
    let fov = probe["fov"].as_f64().unwrap();
    let img = render_native(&mut scene, v("camera"), v("look_at"), fov, [w, h]);
    img.save(probe_dir().join(format!("{name}.png"))).unwrap();
    let mut misses = Vec::new();
    for px in probe["pixels"].as_array().unwrap() {
        let (fx, fy) = (px["at"][0].as_f64().unwrap(), px["at"][1].as_f64().unwrap());
        let (x, y) = probe_pixel([fx, fy], w, h);
        let got = img.get_pixel(x, y).0;
        let tol = px["tolerance"].as_i64().unwrap();
        if !colour_matches([got[0], got[1], got[2]], &px["rgb_any_of"], tol) {
            misses.push(format!(
                "{name} at ({x},{y}): got {:?}, want any of {}",
                &got[..3],
                px["rgb_any_of"]
            ));
        }
    }
    misses
}

#[test]
fn every_probe_holds() {
    let mut misses = Vec::new();
    let probes = expected()["probes"].as_array().unwrap();
    support::assert_at_least(
        probes.len(),
        20,
        "carma2 expected.json: probes",
        support::SHARED_HINT,
    );
    for probe in probes {
        misses.extend(run_probe(probe));
    }
    assert!(misses.is_empty(), "{} probe pixels miss:\n{}", misses.len(), misses.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The command line on the fixture track.

#[test]
fn cli_info_list_and_render() {
    let twt = fixtures().join("TRACK.TWT");
    let out = success(&mapscope(["info".as_ref(), "--json".as_ref(), twt.as_os_str()]), "info");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["format"], "Carmageddon 2");
    assert_eq!(v["maps"], serde_json::json!(["TRACK.ACT"]));
    let level = facts("level");
    assert_eq!(v["counts"]["faces"], level["triangles"]);
    assert_eq!(v["counts"]["faces_visible"], level["triangles_visible"]);
    assert_eq!(v["counts"]["actors"], facts("TRACK.ACT")["actor_count"]);
    let lo = f32s(&v["bounds"]["min"]);
    close(&lo, &f32s(&level["world_bounds_visible"][0]), "info bounds");

    let out = success(&mapscope(["list".as_ref(), twt.as_os_str()]), "list");
    assert_eq!(out.trim(), "TRACK.ACT");

    let tmp = TempDir::new("carma2-cli");
    let png = tmp.join("probe.png");
    let loose = fixtures().join("ACTORS/TRACK.ACT");
    let args: Vec<std::ffi::OsString> = vec![
        "render".into(),
        loose.into(),
        "--camera".into(),
        "355,6,3".into(),
        "--look-at".into(),
        "355,6,-3".into(),
        "--fov".into(),
        "60".into(),
        "--size".into(),
        "320x240".into(),
        "--palette".into(),
        fixtures().join("REG/PALETTES/DRRENDER.PAL").into(),
        "-o".into(),
        png.clone().into(),
    ];
    success(&mapscope(&args), "render");
    let img = image::open(&png).unwrap().to_rgba8();
    // one_sided_front: VIOLET, palette entry 97.
    assert_eq!(&img.get_pixel(160, 120).0[..3], &[120, 40, 160]);

    let bad = fixtures().join("corrupt/twt_huge_count.TWT");
    let out = mapscope(["info".as_ref(), bad.as_os_str()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("does not fit") && err.contains("offset"), "{err}");
}
