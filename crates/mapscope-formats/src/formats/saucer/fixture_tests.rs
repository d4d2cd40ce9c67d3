//! Parser and geometry facts against the shared spec-derived fixtures and their
//! `expected.json` (`../shared/fixtures/saucer/`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{json, Value};

use super::geometry::block_heights;
use super::map::{MapFile, MAP_SIGNATURE};
use super::map_items::{rotation, GRID};
use super::model::read_model;
use super::pak::Pak;
use super::pcx;
use super::SaucerLevel;

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/fixtures/saucer")
}

fn read(rel: &str) -> Vec<u8> {
    let p = fixture_dir().join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn expected() -> Value {
    serde_json::from_slice(&read("expected.json")).expect("expected.json parses")
}

fn level(name: &str) -> SaucerLevel {
    let wad = format!("LEVELS/{name}.wad");
    let map = format!("maps/{name}.map");
    SaucerLevel::load(name, &wad, &read(&wad), &map, &read(&map))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

const LEVELS: [&str; 2] = ["TESTA", "TESTB"];

/// (model name, cell) of each model instance the map facts list as not resolved.
fn unresolved_instances(map_facts: &Value) -> Vec<(String, [u64; 2])> {
    map_facts["model_instances"]
        .as_array()
        .expect("model_instances")
        .iter()
        .filter(|i| !i["resolved"].as_bool().expect("resolved"))
        .map(|i| {
            let model = i["model"].as_str().expect("model name").to_string();
            (model, [i["cell"][0].as_u64().unwrap(), i["cell"][1].as_u64().unwrap()])
        })
        .collect()
}

#[test]
fn package_members_levels_and_loading_screen() {
    let e = &expected()["facts"]["Saucerdata.pak"];
    let pak = Pak::parse("Saucerdata.pak", read("Saucerdata.pak")).expect("pak");
    assert_eq!(json!(pak.names()), e["members"]);
    let levels: Vec<String> = pak.levels().into_iter().map(|l| l.name).collect();
    assert_eq!(json!(levels), e["levels"]);
    let pcx_path = e["pcx"]["path"].as_str().unwrap();
    let header = pcx::read_header(pcx_path, &pak.read(pcx_path).unwrap()).unwrap();
    assert_eq!(
        (header.width, header.height),
        (e["pcx"]["width"].as_u64().unwrap() as u32, e["pcx"]["height"].as_u64().unwrap() as u32)
    );
    // The pak members are the loose files byte for byte.
    for l in pak.levels() {
        assert_eq!(pak.read(&l.wad).unwrap(), read(&l.wad));
        assert_eq!(pak.read(&l.map).unwrap(), read(&l.map));
    }
}

#[test]
fn wad_header_blocks_and_tables() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("LEVELS/{name}.wad")];
        let l = level(name);
        let w = &l.wad;
        assert_eq!(json!(w.header.version), e["version"], "{name}");
        assert_eq!(json!(w.header.packed_size), e["packed_size"]);
        assert_eq!(json!(w.header.background), e["background_index"]);
        assert_eq!(json!(l.palette.rgb[w.header.background as usize]), e["background_rgb"]);
        assert_eq!(json!(w.header.fog_near), e["fog_near"]);
        assert_eq!(json!(w.header.fog_far), e["fog_far"]);
        assert_eq!(json!(w.block1_size), e["block1_size"]);
        assert_eq!(json!(w.block2_size), e["block2_size"]);
        assert_eq!(json!(w.block3_size), e["block3_size"]);
        assert_eq!(json!(w.block4_count), e["block4_count"]);
        assert_eq!(json!(w.language_counts()), e["language_counts"]);
        let entries: u32 = w.language_counts().iter().map(|&c| c as u32).sum();
        assert_eq!(json!(entries), e["language_table_entries"]);
        assert_eq!(json!(w.language_data_size), e["language_data_size"]);
        let bitmaps: Vec<Value> = w
            .bitmaps
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let name = &w.exported_textures[i].1;
                json!({"index": i, "name": name, "offset": b.offset, "width": b.width, "height": b.height})
            })
            .collect();
        assert_eq!(json!(bitmaps), e["bitmaps"]);
        let exported: Vec<Value> = w.exported_textures.iter().map(|(i, n)| json!([i, n])).collect();
        assert_eq!(json!(exported), e["exported_textures"]);
        assert_eq!(json!(w.textures.len()), e["texture_count"]);
        let textures: Vec<Value> = w
            .textures
            .iter()
            .enumerate()
            .map(|(i, t)| {
                json!({"index": i, "bitmap": t.bitmap, "uv": t.uv, "blend": t.blend_mode, "flags": t.flags,
                       "masked": t.masked(), "blend_table": t.blend_table()})
            })
            .collect();
        assert_eq!(json!(textures), e["textures"]);
        assert_eq!(json!(w.unknown_assets.len()), e["unknown_asset_count"]);
        assert_eq!(json!(w.palette_table), e["palette_table"]);
        let named: Vec<Value> = w
            .named_textures
            .iter()
            .map(|n| json!({"name": n.name, "texture_index": n.texture_index()}))
            .collect();
        assert_eq!(json!(named), e["named_textures"]);
        assert_eq!(json!(w.unknown_names.len()), e["unknown_name_count"]);
        assert_eq!(json!(w.unknown_data_values), e["unknown_data_value_count"]);
        assert_eq!(json!(w.bytes_after_packed), e["bytes_after_packed_block"]);
        // Each model instance expected.json leaves unresolved (its model is not in the WAD)
        // is dropped with a note naming its model and cell; nothing else is amiss.
        let unresolved = unresolved_instances(&all["facts"][format!("maps/{name}.map")]);
        assert_eq!(l.notes.len(), unresolved.len(), "{name}: {:?} vs {unresolved:?}", l.notes);
        for (model, cell) in &unresolved {
            let at = format!("at [{}, {}]", cell[0], cell[1]);
            assert!(
                l.notes.iter().any(|n| n.contains(&format!("model {model} ")) && n.contains(&at)),
                "{name}: no note for {model} {at}: {:?}",
                l.notes
            );
        }
    }
}

#[test]
fn wad_models_and_sounds() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("LEVELS/{name}.wad")];
        let l = level(name);
        let models: Vec<Value> = l
            .wad
            .models
            .iter()
            .map(|entry| {
                let m = read_model(&l.wad.packed, entry).expect("model");
                let quads = m.faces.iter().filter(|f| f.quad).count();
                let mut per_texture = serde_json::Map::new();
                for f in &m.faces {
                    let n = per_texture.entry(f.texture.to_string()).or_insert(json!(0));
                    *n = json!(n.as_u64().unwrap() + 1);
                }
                json!({"name": m.name, "vertex_count": m.vertices.len(), "face_count": m.faces.len(),
                       "quads": quads, "triangles": m.faces.len() - quads, "matrix": m.matrix,
                       "faces_per_texture": per_texture})
            })
            .collect();
        assert_eq!(json!(models), e["models"], "{name}");
        let sounds: Vec<Value> = l
            .wad
            .sounds
            .iter()
            .zip(&l.sounds)
            .map(|(s, f)| {
                let f = f.expect("sound format");
                json!({"name": s.name, "channels": f.channels, "sample_rate": f.sample_rate,
                       "bits_per_sample": f.bits_per_sample, "data_size": s.data_size})
            })
            .collect();
        assert_eq!(json!(sounds), e["sounds"], "{name}");
    }
}

#[test]
fn palette_texels_and_lookup_tables() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("LEVELS/{name}.wad")];
        let l = level(name);
        assert_eq!(json!(l.palette.rgb), e["palette"], "{name}");
        assert!(l.palette.flags.iter().all(|&f| json!(f) == e["palette_flag_byte"]));
        for (colour, c) in e["colours"].as_object().unwrap() {
            let i = c["index"].as_u64().unwrap() as usize;
            assert_eq!(json!(l.palette.rgb[i]), c["rgb"], "{name} {colour}");
        }
        for s in e["texel_samples"].as_array().unwrap() {
            let b = l.bitmaps[s["bitmap"].as_u64().unwrap() as usize].as_ref().unwrap();
            let t =
                b.texel(s["x"].as_u64().unwrap() as u32, s["y"].as_u64().unwrap() as u32).unwrap();
            assert_eq!(json!(t), s["index"], "{name} {s}");
            assert_eq!(json!(l.palette.rgb[t as usize]), s["rgb"]);
        }
        for s in e["lut1_samples"].as_array().unwrap() {
            let u = |k: &str| s[k].as_u64().unwrap() as usize;
            assert_eq!(
                json!(l.wad.lut1(u("part"), u("level"), u("colour") as u8)),
                s["value"],
                "{name} {s}"
            );
        }
        for s in e["lut2_samples"].as_array().unwrap() {
            let u = |k: &str| s[k].as_u64().unwrap() as usize;
            assert_eq!(
                json!(l.wad.lut2(u("table"), u("a") as u8, u("b") as u8)),
                s["value"],
                "{name} {s}"
            );
        }
    }
}

#[test]
fn map_header_lists_and_items() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("maps/{name}.map")];
        let l = level(name);
        let m = &l.map;
        let h = &m.header;
        // The header struct keeps no signature (the parser refuses any other): the file's
        // first four bytes are the one the parser accepts, and with one byte changed the
        // parser refuses it naming the signature.
        let signature = e["signature"].as_str().expect("signature");
        assert_eq!(json!(std::str::from_utf8(MAP_SIGNATURE).unwrap()), e["signature"]);
        let bytes = read(&format!("maps/{name}.map"));
        assert_eq!(&bytes[..4], signature.as_bytes(), "{name}");
        let mut wrong = bytes.clone();
        wrong[3] ^= 0x20;
        let err = MapFile::parse("wrong.map", &wrong).err().expect("wrong signature refused");
        assert!(err.message.contains("signature") && err.offset == 0, "{err}");
        assert_eq!(json!(h.version), e["version"]);
        assert_eq!(json!(h.texture_defs), e["texture_def_count"], "{name}");
        assert_eq!(json!(h.block_defs), e["block_def_count"]);
        assert_eq!(json!(h.unknown_records), e["unknown_record_count"]);
        assert_eq!(json!(m.unknown_records), e["unknown_records"]);
        assert_eq!(json!(h.items), e["map_item_count"]);
        assert_eq!(json!(m.items.total()), e["map_item_count"]);
        assert_eq!(json!(h.animations), e["texture_animation_count"]);
        let names = |list: &[super::map::IndexedName]| {
            json!(list.iter().map(|n| json!([n.index, n.name])).collect::<Vec<_>>())
        };
        assert_eq!(names(&m.imported_textures), e["imported_textures"]);
        assert_eq!(names(&m.strat_names), e["strat_names"]);
        assert_eq!(names(&m.model_names), e["model_names"]);
        assert_eq!(json!(h.entities), e["entity_count"]);
        assert_eq!(json!(h.model_instances), e["model_instance_count"]);
        let by_type: BTreeMap<String, u32> =
            m.items.counts_by_type.iter().map(|(k, v)| (format!("0x{k:x}"), *v)).collect();
        assert_eq!(json!(by_type), e["item_counts_by_type"]);
        let animations: Vec<Value> = m
            .animations
            .iter()
            .map(|a| json!({"target": a.target, "frames": a.frames, "delay": a.delay, "flags": a.flags}))
            .collect();
        assert_eq!(json!(animations), e["texture_animations"]);
        for d in e["texture_defs"].as_array().unwrap() {
            let t = &m.texture_defs[d["index"].as_u64().unwrap() as usize];
            let got = json!({"bitmap": t.bitmap, "uv": t.uv, "blend": t.blend_mode, "flags": t.flags, "blend_table": t.blend_table()});
            for k in ["bitmap", "uv", "blend", "flags", "blend_table"] {
                assert_eq!(got[k], d[k], "{name} texture def {} {k}", d["index"]);
            }
        }
    }
}

#[test]
fn terrain_statistics_and_corner_heights() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("maps/{name}.map")];
        let l = level(name);
        let terrain = &l.map.items.terrain;
        assert_eq!(terrain.len(), GRID * GRID);
        assert_eq!(json!(l.geometry.visible_tiles), e["terrain_visible_tiles"], "{name}");
        assert_eq!(json!(l.geometry.invisible_tiles), e["terrain_invisible_tiles"]);
        assert_eq!(
            json!(terrain.iter().filter(|t| t.offset != 0).count()),
            e["terrain_tiles_with_height_offset"]
        );
        let mut hist = BTreeMap::new();
        for t in terrain {
            *hist.entry(rotation(t.flags).to_string()).or_insert(0) += 1;
        }
        assert_eq!(json!(hist), e["terrain_rotation_histogram"]);
        for c in e["terrain_corner_heights"].as_array().unwrap() {
            let (col, row) = (
                c["corner"][0].as_u64().unwrap() as usize,
                c["corner"][1].as_u64().unwrap() as usize,
            );
            let y = l.map.items.terrain_at(col, row).map_or(0, |t| -(t.offset as i64));
            assert_eq!(json!(y), c["y"], "{name} corner {col},{row}");
            // The same corner on the built terrain faces that share it.
            let at = [col as f64 * 256.0, y as f64, row as f64 * 256.0];
            let shared = l
                .geometry
                .faces
                .iter()
                .flat_map(|f| &f.points)
                .filter(|p| p[0] == at[0] && p[2] == at[2]);
            assert!(shared.clone().any(|p| p[1] == at[1]), "{name}: no face corner at {at:?}");
        }
    }
}

#[test]
fn extra_tiles_billboards_and_blocks() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("maps/{name}.map")];
        let l = level(name);
        let items = &l.map.items;
        let extra: Vec<Value> = items
            .extra_tiles
            .iter()
            .map(|t| {
                let texture = l.map.block_defs[t.block_def as usize].terrain_texture();
                json!({"cell": t.cell, "block_def": t.block_def, "texture": texture, "y": t.y.map(|y| -(y as i32))})
            })
            .collect();
        assert_eq!(json!(extra), e["extra_tiles"], "{name}");
        let billboards: Vec<Value> = items
            .billboards
            .iter()
            .map(|b| {
                json!({"cell": b.cell, "texture": b.texture, "x_offset": b.x_offset, "y_offset": b.y_offset,
                       "vertical_offset": b.vertical_offset, "scale": b.scale})
            })
            .collect();
        assert_eq!(json!(billboards), e["billboards"]);
        assert_eq!(json!(items.blocks.len()), e["block_instance_count"]);
        for s in e["block_vertex_samples"].as_array().unwrap() {
            let cell =
                [s["cell"][0].as_u64().unwrap() as u16, s["cell"][1].as_u64().unwrap() as u16];
            let def_index = s["block_def"].as_u64().unwrap() as u32;
            let b = items
                .blocks
                .iter()
                .find(|b| b.cell == cell && b.block_def == def_index)
                .expect("sampled block");
            assert_eq!(json!(b.flags), s["flags"]);
            assert_eq!(json!(rotation(b.flags)), s["rotation"]);
            assert_eq!(json!(b.overall), s["overall_y"]);
            assert_eq!(json!(b.displacement), s["displacements"]);
            let (bottom, top) = block_heights(&l.map.block_defs[def_index as usize], b);
            assert_eq!(json!(bottom.map(|y| y as i64)), s["bottom_y"], "{name} {cell:?}");
            assert_eq!(json!(top.map(|y| y as i64)), s["top_y"], "{name} {cell:?}");
        }
    }
}

#[test]
fn model_instances_resolve_through_the_map_list() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("maps/{name}.map")];
        let l = level(name);
        let instances: Vec<Value> = l
            .instances
            .iter()
            .map(|r| {
                let i = &r.instance;
                json!({"cell": i.cell, "model_index": i.model, "model": r.name, "resolved": r.wad_model.is_some(),
                       "x_offset": i.x_offset, "y_offset": i.y_offset, "vertical_offset": i.vertical_offset,
                       "rotation": i.rotation, "scale": i.scale})
            })
            .collect();
        assert_eq!(json!(instances), e["model_instances"], "{name}");
        assert_eq!(
            json!(l.instances.iter().filter(|r| r.wad_model.is_some()).count()),
            e["model_instances_resolved"]
        );
        let slab = l
            .instances
            .iter()
            .position(|r| r.name.as_deref() == Some("SLAB"))
            .expect("SLAB instance");
        let (lo, hi) = l.instance_bounds(slab).expect("SLAB placed");
        let want = &e["slab_instance_bounds"];
        for k in 0..3 {
            assert!(
                (lo[k] - want["min"][k].as_f64().unwrap()).abs() < 1e-6,
                "{name} min {lo:?} vs {want}"
            );
            assert!(
                (hi[k] - want["max"][k].as_f64().unwrap()).abs() < 1e-6,
                "{name} max {hi:?} vs {want}"
            );
        }
    }
}

#[test]
fn static_faces_per_texture_and_bounds() {
    let all = expected();
    for name in LEVELS {
        let e = &all["facts"][format!("maps/{name}.map")];
        let l = level(name);
        let per: BTreeMap<String, usize> =
            l.faces_per_map_texture().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        assert_eq!(json!(per), e["faces_per_texture"], "{name}");
        assert_eq!(json!(l.geometry.faces.len()), e["static_face_count"]);
        let (lo, hi) = l.static_bounds().expect("geometry");
        assert_eq!(json!(lo.map(|v| v as i64)), e["static_geometry_bounds"]["min"]);
        assert_eq!(json!(hi.map(|v| v as i64)), e["static_geometry_bounds"]["max"]);
    }
}

#[test]
fn a_package_without_its_central_directory_is_read_from_local_headers() {
    let whole = read("Saucerdata.pak");
    let central = Pak::parse("Saucerdata.pak", whole.clone()).expect("pak");
    // Cut the file just before the central directory: every local entry is still complete.
    let cd_start = whole.windows(4).position(|w| w == b"PK\x01\x02").expect("central directory");
    let walked = Pak::parse("cut.pak", whole[..cd_start].to_vec()).expect("recovered");
    assert_eq!(walked.names(), central.names());
    assert!(walked.notes[0].contains("central directory unreadable"), "{:?}", walked.notes);
    for name in central.names() {
        assert_eq!(walked.read(name).unwrap(), central.read(name).unwrap(), "{name}");
    }
    // Nothing recoverable at all: a clean error naming the file.
    let e = Pak::parse("junk.pak", b"PK\x03\x04 not really".to_vec()).err().expect("error");
    assert_eq!(e.file, "junk.pak");
}
