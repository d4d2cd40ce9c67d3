//! Attack of the Saucerman against the shared spec-derived fixtures
//! (`../shared/fixtures/saucer/`): every probe of `expected.json` rendered headless at its
//! camera and checked at its pixels, the CLI on the package, the loose files and the game
//! folder, and every corrupt package loading cleanly or failing with file, structure and
//! offset.

use crate::support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mapscope::scene::Scene;
use serde_json::Value;
use support::probes::{colour_matches, probe_pixel, render_native};
use support::{mapscope, success, TempDir};

fn fixtures() -> PathBuf {
    support::fixture("saucer")
}

fn expected() -> &'static Value {
    static EXPECTED: OnceLock<Value> = OnceLock::new();
    EXPECTED.get_or_init(|| {
        let p = fixtures().join("expected.json");
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        serde_json::from_slice(&bytes).expect("expected.json parses")
    })
}

fn probe_file(p: &Value) -> PathBuf {
    match p["file"].as_str().expect("probe file") {
        "." => fixtures(),
        f => fixtures().join(f),
    }
}

fn vec3(v: &Value) -> glam::DVec3 {
    let a: Vec<f64> =
        v.as_array().expect("xyz").iter().map(|x| x.as_f64().expect("number")).collect();
    glam::DVec3::new(a[0], a[1], a[2])
}

fn build(file: &Path, map: &str) -> Scene {
    let source = mapscope::loader::open(&[file.to_path_buf()], &Default::default())
        .unwrap_or_else(|e| panic!("{}: {e:#}", file.display()));
    source.build(Some(map)).unwrap_or_else(|e| panic!("{} {map}: {e:#}", file.display()))
}

/// Renders a probe's view; the PNG goes to target/saucer-probes/ for looking at.
fn render_probe(scene: &mut Scene, p: &Value) -> image::RgbaImage {
    let size: Vec<u32> =
        p["size"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let fov = p["fov"].as_f64().expect("fov");
    let img =
        render_native(scene, vec3(&p["camera"]), vec3(&p["look_at"]), fov, [size[0], size[1]]);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/saucer-probes");
    let _ = std::fs::create_dir_all(&dir);
    let _ = img.save(dir.join(format!("{}.png", p["name"].as_str().unwrap_or("probe"))));
    img
}

/// The mismatching samples of a probe, as text.
fn check_pixels(img: &image::RgbaImage, p: &Value) -> Vec<String> {
    let mut bad = Vec::new();
    for px in p["pixels"].as_array().expect("pixels") {
        let at: Vec<f64> =
            px["at"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let (x, y) = probe_pixel([at[0], at[1]], img.width(), img.height());
        let got = img.get_pixel(x, y).0;
        let tol = px["tolerance"].as_i64().unwrap_or(0);
        if !colour_matches([got[0], got[1], got[2]], &px["rgb_any_of"], tol) {
            bad.push(format!(
                "at {at:?} got {:?}, expected {} {}",
                &got[..3],
                px["colours"],
                px["rgb_any_of"]
            ));
        }
    }
    bad
}

#[test]
fn every_probe_matches() {
    let probes = expected()["probes"].as_array().expect("probes");
    assert!(probes.len() >= 60, "only {} probes", probes.len());
    let mut scenes: HashMap<(PathBuf, String), Scene> = HashMap::new();
    let mut failures = Vec::new();
    for p in probes {
        let file = probe_file(p);
        let map = p["map"].as_str().expect("map").to_string();
        let scene = scenes.entry((file.clone(), map.clone())).or_insert_with(|| build(&file, &map));
        let img = render_probe(scene, p);
        let bad = check_pixels(&img, p);
        if !bad.is_empty() {
            failures.push(format!("{}: {}", p["name"], bad.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} probes fail:\n{}",
        failures.len(),
        probes.len(),
        failures.join("\n")
    );
}

/// What each corrupt package must give for level TESTA: `Err(structure)` — a clean error
/// naming the file, that structure and an offset — or `Ok(note)` — the valid part loads and a
/// note mentions what was skipped.
fn corrupt_outcome(file: &str) -> Result<&'static str, &'static str> {
    match file {
        "corrupt/pak_truncated.pak" => Ok("zip central directory unreadable"),
        "corrupt/wad_truncated_in_lut2.pak" => Err("LUT2"),
        "corrupt/wad_truncated_in_packed_block.pak" => Ok("packed block at offset"),
        "corrupt/wad_bad_version.pak" => Err("WAD header"),
        "corrupt/wad_huge_bitmap_count.pak" => Err("bitmap table"),
        "corrupt/wad_bitmap_out_of_range.pak" => Ok("bitmap 0 skipped"),
        "corrupt/wad_model_bad_pointers.pak" => Ok("model SLAB skipped"),
        "corrupt/wad_unknown_data_underflow.pak" => Err("trailing unknown data"),
        "corrupt/wad_language_huge_counts.pak" => Err("language tables"),
        "corrupt/map_bad_signature.pak" => Err("map header"),
        "corrupt/map_truncated_in_terrain.pak" => Ok("cut off"),
        "corrupt/map_huge_counts.pak" => Err("block definitions"),
        "corrupt/map_unterminated_name_list.pak" => Err("model names"),
        "corrupt/map_bad_indices.pak" => Ok("block definition that does not exist"),
        "corrupt/map_unknown_item_type.pak" => Ok("unknown type 0x80"),
        other => panic!("no expectation for {other}"),
    }
}

#[test]
fn corrupt_packages_fail_cleanly_or_load_what_is_valid() {
    let corrupt = expected()["corrupt"].as_array().expect("corrupt list");
    assert_eq!(corrupt.len(), 15);
    for c in corrupt {
        let rel = c["path"].as_str().unwrap();
        let level = c["level"].as_str().unwrap();
        let path = fixtures().join(rel);
        let out = mapscope([
            "info".as_ref(),
            "--json".as_ref(),
            path.as_os_str(),
            "--map".as_ref(),
            level.as_ref(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{rel}: {stderr}");
        match corrupt_outcome(rel) {
            Ok(note) => {
                assert!(out.status.success(), "{rel} should load what is valid: {stderr}");
                let v: Value = serde_json::from_str(&stdout).expect("info json");
                let notes = v["notes"].to_string();
                assert!(notes.contains(note), "{rel}: notes {notes} lack '{note}'");
                assert!(v["triangles"].as_u64().unwrap() > 0, "{rel}: nothing to draw");
            }
            Err(structure) => {
                assert!(!out.status.success(), "{rel} should fail");
                let name = Path::new(rel).file_name().unwrap().to_str().unwrap();
                for part in [name, structure, " at offset "] {
                    assert!(stderr.contains(part), "{rel}: error lacks '{part}': {stderr}");
                }
            }
        }
    }
}

#[test]
fn broken_test_a_leaves_test_b_loadable() {
    for rel in ["corrupt/wad_bad_version.pak", "corrupt/map_bad_signature.pak"] {
        let mut scene = build(&fixtures().join(rel), "TESTB");
        let probe = expected()["probes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "TESTB_side_r0_view_from_N")
            .expect("probe");
        let img = render_probe(&mut scene, probe);
        assert!(check_pixels(&img, probe).is_empty(), "{rel}: TESTB renders wrong");
    }
}

#[test]
fn cli_lists_and_describes_the_package() {
    let pak = fixtures().join("Saucerdata.pak");
    let out = success(&mapscope(["list".as_ref(), pak.as_os_str()]), "list");
    assert_eq!(out.lines().collect::<Vec<_>>(), ["TESTA", "TESTB"]);
    let facts = &expected()["facts"]["maps/TESTA.map"];
    let out = success(&mapscope(["info".as_ref(), "--json".as_ref(), pak.as_os_str()]), "info");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["map"], "TESTA", "the first level opens by default");
    assert_eq!(v["counts"]["map items"], facts["map_item_count"]);
    assert_eq!(v["counts"]["terrain tiles visible"], facts["terrain_visible_tiles"]);
    assert_eq!(v["counts"]["block instances"], facts["block_instance_count"]);
    assert_eq!(v["counts"]["static faces"], facts["static_face_count"]);
    assert_eq!(v["counts"]["model instances resolved"], facts["model_instances_resolved"]);
    assert_eq!(v["counts"]["entities"], facts["entity_count"]);
    assert_eq!(v["counts"]["items of type 0x800"], facts["item_counts_by_type"]["0x800"]);
    assert_eq!(v["counts"]["fog far"], expected()["facts"]["LEVELS/TESTA.wad"]["fog_far"]);
    assert!(v["notes"].to_string().contains("GHOST"), "the dropped instance is reported");
    assert_eq!(v["textures_used"], serde_json::json!(["MODELS01", "SPRITE01", "WORLD01"]));
    // Native bounds include the models; the static geometry bounds are inside them.
    let lo = &v["bounds"]["min"];
    assert_eq!(lo[0], 0.0);
    assert_eq!(v["bounds"]["max"][1], 768.0);
    // The player entity's cell gives the spawn.
    let spawn = &v["spawn"]["position"];
    assert!(spawn[1].as_f64().unwrap() > 0.0);
}

#[test]
fn every_way_to_name_a_level_loads_the_same_one() {
    let dir = fixtures();
    let renamed = TempDir::new("saucer-renamed");
    let copy = renamed.join("game-data.bin");
    std::fs::copy(dir.join("Saucerdata.pak"), &copy).expect("copy");
    let ways: Vec<Vec<std::ffi::OsString>> = vec![
        vec![dir.join("Saucerdata.pak").into(), "--map".into(), "testb".into()],
        vec![dir.join("Saucerdata.pak").into(), "--map".into(), "2".into()],
        vec![copy.into(), "--map".into(), "TESTB".into()],
        vec![dir.clone().into(), "--map".into(), "TESTB".into()],
        vec![dir.join("LEVELS/TESTB.wad").into()],
        vec![dir.join("maps/TESTB.map").into()],
    ];
    for args in ways {
        let mut full: Vec<std::ffi::OsString> = vec!["info".into(), "--json".into()];
        full.extend(args.iter().cloned());
        let out = success(&mapscope(&full), "info");
        let v: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["map"], "TESTB", "{args:?}");
        assert_eq!(
            v["counts"]["map items"],
            expected()["facts"]["maps/TESTB.map"]["map_item_count"],
            "{args:?}"
        );
    }
    let out = mapscope([
        "info".as_ref(),
        dir.join("Saucerdata.pak").as_os_str(),
        "--map".as_ref(),
        "NOPE".as_ref(),
    ]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1 TESTA, 2 TESTB"),
        "the error lists the levels"
    );
}

#[test]
fn cli_render_matches_a_blend_probe() {
    let probe = expected()["probes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "TESTA_blend_flags2_mode3F")
        .expect("probe");
    let tmp = TempDir::new("saucer-render");
    let png = tmp.join("probe.png");
    let xyz = |v: &Value| {
        v.as_array().unwrap().iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
    };
    let size = format!("{}x{}", probe["size"][0], probe["size"][1]);
    let args: Vec<std::ffi::OsString> = vec![
        "render".into(),
        fixtures().join("Saucerdata.pak").into(),
        "--map".into(),
        "TESTA".into(),
        "--camera".into(),
        xyz(&probe["camera"]).into(),
        "--look-at".into(),
        xyz(&probe["look_at"]).into(),
        "--fov".into(),
        probe["fov"].to_string().into(),
        "--size".into(),
        size.into(),
        "-o".into(),
        png.clone().into(),
    ];
    success(&mapscope(&args), "render");
    let img = image::open(&png).expect("png").to_rgba8();
    let bad = check_pixels(&img, probe);
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn renamed_package_is_found_when_its_levels_come_after_a_megabyte_of_other_data() {
    use std::io::{Read, Write};
    // Real packages put bitmaps and sounds first: the level names are past the first MiB of
    // local headers, only the central directory at the end lists them early.
    let dir = TempDir::new("saucer-big-renamed");
    let path = dir.join("game-data.bin");
    let mut source =
        zip::ZipArchive::new(std::fs::File::open(fixtures().join("Saucerdata.pak")).unwrap())
            .unwrap();
    let mut out = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    out.start_file("Bitmaps/FILLER.bin", stored).unwrap();
    let mut x = 0x1234_5678u32;
    let filler: Vec<u8> = (0..(3 << 19))
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    out.write_all(&filler).unwrap();
    for i in 0..source.len() {
        let mut member = source.by_index(i).unwrap();
        if member.is_dir() {
            continue;
        }
        let name = member.name().to_string();
        let mut bytes = Vec::new();
        member.read_to_end(&mut bytes).unwrap();
        out.start_file(name, stored).unwrap();
        out.write_all(&bytes).unwrap();
    }
    out.finish().unwrap();
    let v: Value = serde_json::from_str(&success(
        &mapscope(["info".as_ref(), "--json".as_ref(), path.as_os_str()]),
        "info",
    ))
    .unwrap();
    assert_eq!(v["map"], "TESTA");
}
