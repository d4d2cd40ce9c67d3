//! `mapscope export`: binary glTF that the Khronos validator accepts and whose contents match
//! the level, and OBJ + MTL + PNG.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use support::{freedoom1, mapscope, success, TempDir};

/// The Khronos glTF validator, installed by .ci/run (`npm ci` in tools/gltf-validator).
fn validator() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gltf-validator");
    assert!(
        dir.join("node_modules/gltf-validator").is_dir(),
        "the glTF validator is not installed: run `npm ci --prefix tools/gltf-validator` \
         (bash .ci/run does) — it needs Node.js (Debian: nodejs, npm)"
    );
    dir.join("validate.js")
}

/// Runs the validator; returns its summary (errors, warnings) and fails on errors.
fn validate(glb: &Path) -> Value {
    let out = Command::new("node").arg(validator()).arg(glb).output().expect("running node");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "validator found errors in {}:\n{text}", glb.display());
    serde_json::from_str(text.trim()).expect("validator summary")
}

/// The JSON chunk of a .glb, after checking the container.
fn glb_json(bytes: &[u8]) -> Value {
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize, bytes.len());
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

fn export(args: &[&str]) -> String {
    success(&mapscope(args), "mapscope export")
}

#[test]
fn freedoom_e1m1_exports_as_valid_glb_in_metres_with_sector_nodes() {
    let dir = TempDir::new("export-glb");
    let wad = freedoom1();
    let out = dir.join("e1m1.glb");
    export(&["export", wad.to_str().unwrap(), "--map", "E1M1", "-o", out.to_str().unwrap()]);
    let summary = validate(&out);
    assert_eq!(summary["errors"], 0, "{summary}");

    let doc = glb_json(&std::fs::read(&out).unwrap());
    // Node names come from the sectors; the root is named after the map.
    let names: Vec<&str> =
        doc["nodes"].as_array().unwrap().iter().filter_map(|n| n["name"].as_str()).collect();
    assert!(names.contains(&"E1M1"));
    assert!(names.contains(&"sector 0"));
    assert!(names.contains(&"sprites"));
    assert!(names.iter().filter(|n| n.starts_with("sector ")).count() > 50);

    // Bounds: native map units / 32 in glTF's Y-up axes (x, z, -y).
    let info: Value = serde_json::from_str(&success(
        &mapscope(["info", "--json", "--map", "E1M1", wad.to_str().unwrap()]),
        "info",
    ))
    .unwrap();
    let (lo, hi) = (&info["bounds"]["min"], &info["bounds"]["max"]);
    let (mut min, mut max) = ([f64::MAX; 3], [f64::MIN; 3]);
    let meshes = doc["meshes"].as_array().unwrap();
    for (n, node) in doc["nodes"].as_array().unwrap().iter().enumerate() {
        let Some(m) = node["mesh"].as_u64() else { continue };
        if node["name"] == "sprites" {
            continue;
        }
        for p in meshes[m as usize]["primitives"].as_array().unwrap() {
            let a = &doc["accessors"][p["attributes"]["POSITION"].as_u64().unwrap() as usize];
            for c in 0..3 {
                min[c] = min[c].min(a["min"][c].as_f64().unwrap());
                max[c] = max[c].max(a["max"][c].as_f64().unwrap());
            }
            assert!(p["attributes"]["COLOR_0"].is_number(), "light is baked by default ({n})");
        }
    }
    let native = |v: &Value, i: usize| v[i].as_f64().unwrap() / 32.0;
    let want_min = [native(lo, 0), native(lo, 2), -native(hi, 1)];
    let want_max = [native(hi, 0), native(hi, 2), -native(lo, 1)];
    for c in 0..3 {
        assert!((min[c] - want_min[c]).abs() < 1e-3, "min {min:?} want {want_min:?}");
        assert!((max[c] - want_max[c]).abs() < 1e-3, "max {max:?} want {want_max:?}");
    }

    // Textures are PNGs; masked ones (sprites, grates) keep transparency as alpha.
    let materials = doc["materials"].as_array().unwrap();
    assert!(materials.iter().any(|m| m["alphaMode"] == "MASK"));
    assert!(materials.iter().all(|m| m["extensions"]["KHR_materials_unlit"].is_object()));
    assert!(doc["images"].as_array().unwrap().iter().all(|i| i["mimeType"] == "image/png"));
}

#[test]
fn unlit_export_without_sprites_drops_colours_and_the_sprite_node() {
    let dir = TempDir::new("export-unlit");
    let wad = freedoom1();
    let out = dir.join("e1m1.glb");
    let o = out.to_str().unwrap();
    let w = wad.to_str().unwrap();
    export(&["export", w, "--map", "E1M1", "--light", "unlit", "--sprites", "skip", "-o", o]);
    validate(&out);
    let doc = glb_json(&std::fs::read(&out).unwrap());
    let nodes = doc["nodes"].as_array().unwrap();
    assert!(nodes.iter().all(|n| n["name"] != "sprites"));
    for m in doc["meshes"].as_array().unwrap() {
        for p in m["primitives"].as_array().unwrap() {
            assert!(p["attributes"].get("COLOR_0").is_none());
        }
    }
}

#[test]
fn obj_export_writes_mtl_and_textures_that_it_references() {
    let dir = TempDir::new("export-obj");
    let wad = freedoom1();
    let out = dir.join("e1m1.obj");
    let printed =
        export(&["export", wad.to_str().unwrap(), "--map", "E1M1", "-o", out.to_str().unwrap()]);
    let obj = std::fs::read_to_string(&out).unwrap();
    let mtl = std::fs::read_to_string(dir.join("e1m1.mtl")).unwrap();
    assert!(obj.contains("mtllib e1m1.mtl"));
    let faces = obj.lines().filter(|l| l.starts_with("f ")).count();
    let vertices = obj.lines().filter(|l| l.starts_with("v ")).count();
    assert!(faces > 1000, "{faces} faces");
    // Every face index is in range (OBJ counts from 1).
    for l in obj.lines().filter(|l| l.starts_with("f ")) {
        for corner in l[2..].split(' ') {
            let v: usize = corner.split('/').next().unwrap().parse().unwrap();
            assert!((1..=vertices).contains(&v), "{l}");
        }
    }
    for l in mtl.lines().filter(|l| l.starts_with("map_Kd ")) {
        let png = dir.join(&l[7..]);
        let img = image::open(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
        assert!(img.width() > 0);
        assert!(printed.contains(&l[7..]));
    }
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    // As `mapscope list x | head -0`: the reader is gone before anything is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["list", freedoom1().to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
}

/// A level of every other format: the shared fixtures export as valid glTF with node names
/// from the source.
#[test]
fn one_level_of_every_format_exports_as_valid_glb() {
    let fixtures = support::shared("fixtures");
    let f = |p: &str| fixtures.join(p).to_str().unwrap().to_string();
    let cases: [(&str, Vec<String>, &str); 4] = [
        ("saucer", vec![f("saucer/Saucerdata.pak"), "--map".into(), "TESTA".into()], "terrain"),
        ("saturn", vec![f("saturn/test_room.lev")], "plane 0"),
        (
            "marathon",
            vec![f("marathon/M2Map.sceA"), "--shapes".into(), f("marathon/Shapes.shpA")],
            "polygon 0",
        ),
        ("carma2", vec![f("carma2/TRACK.TWT")], "WALL8"),
    ];
    let dir = TempDir::new("export-formats");
    for (name, args, node) in cases {
        let out = dir.join(&format!("{name}.glb"));
        let mut all = vec!["export".to_string()];
        all.extend(args);
        all.extend(["-o".to_string(), out.to_str().unwrap().to_string()]);
        success(&mapscope(&all), &format!("export {name}"));
        let summary = validate(&out);
        assert_eq!(summary["errors"], 0, "{name}: {summary}");
        let doc = glb_json(&std::fs::read(&out).unwrap());
        let names: Vec<&str> =
            doc["nodes"].as_array().unwrap().iter().filter_map(|n| n["name"].as_str()).collect();
        assert!(
            names.iter().any(|n| n.contains(node)),
            "{name}: no node like {node:?} in {names:?}"
        );
        assert!(doc["images"].as_array().is_some_and(|i| !i.is_empty()), "{name}: no textures");
    }
}
