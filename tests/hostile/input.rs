//! Hostile input: every corrupt file (the shared fixtures' `corrupt/` folders and the
//! project's own corpus in `tests/data/hostile/`, which holds the inputs fuzzing found) goes
//! through the loader and the build of every map, and must give a clean error naming the file
//! or load what is valid; well-formed but hostile levels (cyclic BSP trees, self-referencing
//! actors, NaN and infinite floats, zero-area and 65535-vertex polygons, indices out of
//! range) must build without panicking.

use crate::support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use mapscope::formats::carma2::actors::{Actor, Hierarchy};
use mapscope::formats::carma2::models::{Face, Model};
use mapscope::formats::carma2::transform::Matrix34;
use mapscope::formats::carma2::{self, Library, Subject, TrackFiles};
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::nodes::{BspChild, BspNode};
use mapscope::formats::doom::{self, MapData, Wad, WadStack};
use mapscope::formats::marathon::{self, Level};
use mapscope::formats::saturn::{self, file::LevFile};
use mapscope::formats::saucer;
use mapscope::formats::saucer::level::SaucerLevel;
use mapscope::formats::saucer::map::MapFile;
use mapscope::formats::saucer::writer::{write_map, MapContents};
use mapscope::formats::FormatError;
use mapscope::loader::{self, OpenOptions};
use support::alloc_count::peak_allocation;
use support::mapscope;

fn shared_fixtures() -> PathBuf {
    support::shared("fixtures")
}

fn own_corpus() -> PathBuf {
    support::test_data("hostile")
}

/// The folders of corrupt files, each with the fewest files it must hold: the shared
/// fixtures' `corrupt/` folder of each format and the project's own corpus.
fn hostile_folders() -> Vec<(PathBuf, usize)> {
    let shared = shared_fixtures();
    vec![
        (shared.join("carma2/corrupt"), 15),
        (shared.join("marathon/corrupt"), 15),
        (shared.join("saturn/corrupt"), 15),
        (shared.join("saucer/corrupt"), 8),
        (own_corpus(), 5),
    ]
}

/// The files of `dir` (READMEs left out), sorted.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "md"))
        .collect();
    files.sort();
    files
}

/// Opens `path` and builds every map: the maps built, or the first error. A Shapes file is
/// opened as the shapes of the Marathon fixture's map; a PNG (the corpus's `compare`
/// inputs) as `compare` reads it.
fn load_all(path: &Path) -> anyhow::Result<usize> {
    let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase()).unwrap_or_default();
    if ext == "png" {
        mapscope::compare::load_png(path)?;
        return Ok(1);
    }
    let (files, options) = if ext == "shpa" {
        let map = shared_fixtures().join("marathon/M2Map.sceA");
        (vec![map], OpenOptions { shapes: Some(path.to_path_buf()), ..OpenOptions::default() })
    } else {
        (vec![path.to_path_buf()], OpenOptions::default())
    };
    let source = loader::open(&files, &options)?;
    let maps = source.maps();
    if maps.is_empty() {
        // Formats that list nothing still report why on a default build.
        source.build(None)?;
        return Ok(1);
    }
    let mut built = 0;
    let mut first_error = None;
    for m in &maps {
        match source.build(Some(m)) {
            Ok(_) => built += 1,
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    match (built, first_error) {
        (0, Some(e)) => Err(e),
        _ => Ok(built),
    }
}

/// What is wrong with `path`'s error `e`, if anything: it must name the file (Saucerman:
/// the package or folder it is in) and, from a parser, the structure it was reading (the
/// offset is where that structure is, or claims to be: it may lie past the end).
fn error_problem(path: &Path, e: &anyhow::Error) -> Option<String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let parent = path.parent().unwrap().display().to_string();
    let text = format!("{e:#}");
    if !text.contains(&name) && !text.contains(&parent) {
        return Some(format!("error does not name the file: {text}"));
    }
    let is_png = path.extension().is_some_and(|x| x.eq_ignore_ascii_case("png"));
    match e.chain().find_map(|c| c.downcast_ref::<FormatError>()) {
        Some(f) if f.structure.trim().is_empty() => Some(format!("no structure named: {f}")),
        Some(_) => None,
        // `compare`'s PNG errors come from the image decoder, not a parser of ours.
        None if is_png => None,
        None => Some(format!("not a parser error naming a structure: {text}")),
    }
}

#[test]
fn every_corrupt_file_fails_cleanly_or_loads_what_is_valid() {
    let mut failures = Vec::new();
    let mut count = 0;
    for (dir, at_least) in hostile_folders() {
        let files = files_in(&dir);
        assert!(
            files.len() >= at_least,
            "{}: expected at least {at_least} corrupt files, found {}",
            dir.display(),
            files.len()
        );
        for path in &files {
            count += 1;
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let len = std::fs::metadata(path).unwrap().len() as usize;
            let (outcome, peak) =
                peak_allocation(|| catch_unwind(AssertUnwindSafe(|| load_all(path))));
            // Counts claimed by a file may not allocate beyond what its bytes can hold: a
            // level built from what is valid stays within a small multiple of the file.
            let cap = 64 * len + (32 << 20);
            if peak > cap {
                failures.push(format!("{name}: allocated {peak} bytes for {len} bytes"));
            }
            match outcome {
                Err(_) => failures.push(format!("{name}: panicked")),
                Ok(Ok(_)) => {}
                Ok(Err(e)) => {
                    if let Some(problem) = error_problem(path, &e) {
                        failures.push(format!("{name}: {problem}"));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {count} files:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn info_and_render_on_corrupt_files_exit_with_the_message() {
    let fx = shared_fixtures();
    let out_dir = support::TempDir::new("hostile-render");
    for rel in [
        "saturn/corrupt/c06_huge_plane_count.lev",
        "marathon/corrupt/m2_huge_wad_count.sceA",
        "carma2/corrupt/twt_huge_count.TWT",
        "saucer/corrupt/map_huge_counts.pak",
    ] {
        let path = fx.join(rel);
        assert!(path.is_file(), "missing shared fixture {}", path.display());
        let file = path.file_name().unwrap().to_string_lossy();
        let png = out_dir.join("out.png");
        for args in [
            vec!["info".as_ref(), path.as_os_str()],
            vec!["render".as_ref(), path.as_os_str(), "-o".as_ref(), png.as_os_str()],
        ] {
            let out = mapscope(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let command = args[0].to_string_lossy();
            assert!(!out.status.success(), "{command} {rel}: succeeded");
            assert!(!stderr.contains("panicked"), "{command} {rel}: panicked: {stderr}");
            assert!(stderr.contains(&*file), "{command} {rel}: message lacks the file: {stderr}");
        }
        assert!(!png.exists(), "render {rel} wrote an image");
    }
}

// ---- Doom: cyclic and out-of-range node trees ----

fn demo_wad() -> Wad {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/demo.wad");
    Wad::from_bytes("demo.wad", std::fs::read(path).unwrap()).unwrap()
}

/// Builds the demo level after `edit` changes its map data, written back as a PWAD over it.
fn build_edited_doom(edit: impl FnOnce(&mut MapData)) -> anyhow::Result<usize> {
    let base = WadStack::new(vec![demo_wad()]);
    let name = base.map_names().first().cloned().expect("demo.wad has a map");
    let mut map = MapData::load(&base, &name).unwrap();
    edit(&mut map);
    let mut w = WadWriter::pwad();
    w.map(&name, &map);
    let stack =
        WadStack::new(vec![demo_wad(), Wad::from_bytes("hostile.wad", w.to_bytes()).unwrap()]);
    let scene = doom::build_scene(&stack, &name)?;
    Ok(scene.triangle_count())
}

#[test]
fn doom_cyclic_node_trees_build() {
    // Every node points back at the root, and the root at itself.
    let r = build_edited_doom(|m| {
        let root = BspChild::Node((m.bsp.nodes.len() - 1) as u32);
        for n in m.bsp.nodes.iter_mut() {
            n.children = [root, root];
        }
    });
    // A clean error or a (mostly empty) level, never a hang or panic.
    if let Err(e) = r {
        assert!(e.to_string().contains("hostile.wad"), "{e:#}");
    }
    // A two-node cycle below the root.
    let r = build_edited_doom(|m| {
        let n = m.bsp.nodes.len();
        let node = |i: usize| BspChild::Node(i as u32);
        if n >= 3 {
            m.bsp.nodes[n - 1].children = [node(n - 2), node(n - 3)];
            m.bsp.nodes[n - 2].children = [node(n - 3), node(n - 1)];
            m.bsp.nodes[n - 3].children = [node(n - 2), BspChild::Subsector(0)];
        }
    });
    if let Err(e) = r {
        assert!(e.to_string().contains("hostile.wad"), "{e:#}");
    }
}

#[test]
fn doom_degenerate_partitions_and_out_of_range_children() {
    for edit in [
        // Zero-length partitions everywhere.
        (|m: &mut MapData| m.bsp.nodes.iter_mut().for_each(|n| (n.dx, n.dy) = (0, 0)))
            as fn(&mut MapData),
        // Extreme partitions.
        |m| {
            m.bsp.nodes.iter_mut().for_each(|n| {
                let (lo, hi) = ((i16::MIN as i32) << 16, (i16::MAX as i32) << 16);
                (n.x, n.y, n.dx, n.dy) = (lo, hi, hi, lo);
            })
        },
        // Children past the end of the node and subsector lists.
        |m| {
            m.bsp
                .nodes
                .iter_mut()
                .for_each(|n| n.children = [BspChild::Node(0x7FFF), BspChild::Subsector(0x7FFF)])
        },
        // All vertices on one point: every polygon has zero area.
        |m| m.vertices.iter_mut().for_each(|v| (v.x, v.y) = (0, 0)),
        // No nodes at all with many subsectors.
        |m| m.bsp.nodes.clear(),
        // A single node whose children are both itself.
        |m| m.bsp.nodes = vec![BspNode { children: [BspChild::Node(0); 2], ..m.bsp.nodes[0] }],
    ] {
        match build_edited_doom(edit) {
            Ok(_) => {}
            Err(e) => assert!(e.to_string().contains("hostile.wad"), "{e:#}"),
        }
    }
}

// ---- Carmageddon 2: self-referencing actors, NaN/inf floats, bad face indices ----

fn track_library() -> Library {
    let path = shared_fixtures().join("carma2/TRACK.TWT");
    TrackFiles::from_archive_bytes("TRACK.TWT", std::fs::read(path).unwrap()).unwrap().library
}

fn actor(name: &str, parent: Option<usize>, model: Option<&str>, transform: Matrix34) -> Actor {
    Actor {
        name: name.into(),
        actor_type: carma2::actors::actor_type::MODEL,
        render_style: 0,
        transform,
        bounds: None,
        model: model.map(str::to_string),
        material: None,
        parent,
        depth: parent.map_or(0, |_| 1),
    }
}

#[test]
fn carma2_self_referencing_actors_and_non_finite_floats_build() {
    let mut lib = track_library();
    let model = lib.models.items().first().map(|m| m.name.clone());
    let nan = Matrix34([[f32::NAN; 3], [f32::INFINITY; 3], [f32::NEG_INFINITY; 3], [f32::MAX; 3]]);
    let actors = vec![
        actor("SELF", Some(0), model.as_deref(), Matrix34::IDENTITY),
        actor("FORWARD", Some(5), model.as_deref(), Matrix34::IDENTITY),
        actor("NAN", Some(1), model.as_deref(), nan),
        actor("PAST_END", Some(usize::MAX), model.as_deref(), nan),
    ];
    lib.hierarchies.push(("HOSTILE.ACT".into(), Hierarchy { actors }));
    let r = catch_unwind(AssertUnwindSafe(|| {
        carma2::build_scene(&lib, Subject::Track("HOSTILE.ACT"), None)
            .map(|(s, _)| s.triangle_count())
    }));
    assert!(r.is_ok(), "build panicked on self-referencing actors");
}

#[test]
fn carma2_hostile_models_build() {
    let big = u16::MAX;
    let model = Model {
        name: "HOSTILE".into(),
        flags: 0,
        vertices: vec![
            [f32::NAN, 0.0, 0.0],
            [f32::INFINITY, f32::NEG_INFINITY, 0.0],
            [1e38, -1e38, 1e38],
            [0.0, 0.0, 0.0],
        ],
        uvs: vec![[f32::NAN, f32::INFINITY]],
        faces: vec![
            Face { vertices: [0, 1, 2], smoothing: 0, flags: 0, material: 1 },
            // Zero area: one vertex three times.
            Face { vertices: [3, 3, 3], smoothing: 0, flags: 0, material: big },
            Face { vertices: [0, big, 2], smoothing: 0, flags: 0, material: 0 },
        ],
        material_names: vec!["NO_SUCH_MATERIAL".into()],
    };
    let mut lib = track_library();
    lib.add_file("HOSTILE.DAT", &carma2::writer::write_models(&[model]));
    let nan = Matrix34([[f32::NAN; 3]; 4]);
    let actors = vec![
        actor("ROOT", None, Some("HOSTILE"), Matrix34::IDENTITY),
        actor("CHILD", Some(0), Some("HOSTILE"), nan),
    ];
    lib.add_file("HOSTILE.ACT", &carma2::writer::write_actors(&[Hierarchy { actors }]));
    for subject in [Subject::Track("HOSTILE.ACT"), Subject::Models("HOSTILE.DAT")] {
        let r = catch_unwind(AssertUnwindSafe(|| carma2::build_scene(&lib, subject, None).is_ok()));
        assert!(r.is_ok(), "build panicked on {subject:?}");
    }
}

// ---- Marathon: 65535-vertex, zero-area and out-of-range polygons ----

/// The M2 fixture with its polygons changed by `edit`, written back and loaded and built.
fn build_edited_marathon(edit: impl FnOnce(&mut Level)) -> Result<usize, String> {
    use mapscope::formats::marathon::writer::{self, LevelChunks};
    let bytes = std::fs::read(shared_fixtures().join("marathon/M2Map.sceA")).unwrap();
    let wad = marathon::Wad::parse("M2Map.sceA", &bytes).unwrap();
    let mut level = Level::load(&wad, 0).unwrap();
    edit(&mut level);
    let chunks = wad.chunks(0).unwrap();
    let level_chunks = LevelChunks {
        name: level.name.clone(),
        chunks: chunks
            .iter()
            .map(|c| {
                let data = match &c.tag {
                    b"POLY" => writer::poly(&level.polygons),
                    b"PNTS" => writer::pnts(&level.endpoints),
                    _ => c.data.to_vec(),
                };
                (c.tag, data)
            })
            .collect(),
    };
    let out = writer::wad(wad.header.version, wad.header.data_version, "hostile", &[level_chunks]);
    let wad = marathon::Wad::parse("hostile.sceA", &out).map_err(|e| e.to_string())?;
    let level = Level::load(&wad, 0).map_err(|e| e.to_string())?;
    let shapes_bytes = std::fs::read(shared_fixtures().join("marathon/Shapes.shpA")).unwrap();
    let shapes = marathon::ShapesFile::parse("Shapes.shpA", &shapes_bytes).ok();
    Ok(marathon::build::build_scene(&level, shapes.as_ref(), &[]).triangle_count())
}

#[test]
fn marathon_hostile_polygons_build_or_fail_cleanly() {
    for edit in [
        (|l: &mut Level| l.polygons.iter_mut().for_each(|p| p.vertex_count = u16::MAX))
            as fn(&mut Level),
        |l| l.polygons.iter_mut().for_each(|p| p.endpoints = [i16::MAX; 8]),
        |l| l.polygons.iter_mut().for_each(|p| p.endpoints = [-1; 8]),
        |l| l.polygons.iter_mut().for_each(|p| p.lines = [i16::MIN; 8]),
        |l| l.polygons.iter_mut().for_each(|p| p.sides = [i16::MAX; 8]),
        // Zero-area: every endpoint on one point.
        |l| l.endpoints.iter_mut().for_each(|e| (e.x, e.y) = (7, 7)),
        |l| {
            l.polygons.iter_mut().for_each(|p| {
                (p.floor_height, p.ceiling_height) = (i16::MAX, i16::MIN);
                (p.floor_texture, p.ceiling_texture) = (u16::MAX, u16::MAX);
                (p.floor_light, p.ceiling_light, p.media) = (i16::MAX, -1, i16::MAX);
            })
        },
    ] {
        let r = catch_unwind(AssertUnwindSafe(|| build_edited_marathon(edit)));
        match r {
            Err(_) => panic!("build panicked"),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => assert!(e.contains("hostile.sceA"), "{e}"),
        }
    }
}

/// One way to damage a parsed level.
type Edit<T> = Box<dyn FnOnce(&mut T)>;

// ---- Saucerman: grids whose indices, cells and heights are out of range ----

/// The TESTA fixture level with its map changed by `edit`, written back, loaded over the
/// fixture WAD and built.
fn build_edited_saucer(edit: impl FnOnce(&mut MapContents)) -> Result<usize, String> {
    let dir = shared_fixtures().join("saucer");
    let wad = std::fs::read(dir.join("LEVELS/TESTA.wad")).unwrap();
    let map =
        MapFile::parse("TESTA.map", &std::fs::read(dir.join("maps/TESTA.map")).unwrap()).unwrap();
    let mut contents = MapContents {
        imported_textures: map.imported_textures,
        block_defs: map.block_defs,
        texture_defs: map.texture_defs,
        animations: map.animations,
        strat_names: map.strat_names,
        model_names: map.model_names,
        terrain: map.items.terrain,
        extra_tiles: map.items.extra_tiles,
        billboards: map.items.billboards,
        blocks: map.items.blocks,
        models: map.items.models,
        opaque: map.items.opaque,
    };
    edit(&mut contents);
    let level = SaucerLevel::load("TESTA", "TESTA.wad", &wad, "hostile.map", &write_map(&contents))
        .map_err(|e| e.to_string())?;
    Ok(saucer::build::build_scene(&level).triangle_count())
}

#[test]
fn saucer_hostile_grids_build_or_fail_cleanly() {
    let far = [u16::MAX, u16::MAX];
    let edits: Vec<Edit<MapContents>> = vec![
        // Every reference to a block definition, texture or model dangling.
        Box::new(|m| {
            m.terrain.iter_mut().for_each(|t| t.block_def = u32::MAX);
            m.blocks.iter_mut().for_each(|b| b.block_def = u32::MAX);
            m.extra_tiles.iter_mut().for_each(|t| t.block_def = u32::MAX);
            m.billboards.iter_mut().for_each(|b| b.texture = u32::MAX);
            m.models.iter_mut().for_each(|i| i.model = u32::MAX);
        }),
        Box::new(|m| {
            m.block_defs.iter_mut().for_each(|d| d.textures = [u16::MAX; 12]);
            m.texture_defs.iter_mut().for_each(|t| t.bitmap = u16::MAX);
        }),
        Box::new(|m| {
            m.block_defs.clear();
            m.texture_defs.clear();
            m.model_names.clear();
        }),
        // Extreme heights: corners at both ends of i16, blocks pushed as far as they go.
        Box::new(|m| {
            for (k, t) in m.terrain.iter_mut().enumerate() {
                t.offset = if k % 2 == 0 { i16::MIN } else { i16::MAX };
                t.brightness = i16::MIN;
            }
            m.block_defs
                .iter_mut()
                .for_each(|d| d.y = [i16::MIN, i16::MAX, 0, -1, 1, 7, i16::MAX, i16::MIN]);
            m.blocks.iter_mut().for_each(|b| {
                (b.overall, b.displacement, b.brightness) = (i16::MIN, [i8::MIN; 8], i16::MAX)
            });
            m.extra_tiles.iter_mut().for_each(|t| t.y = [i16::MIN, i16::MAX, i16::MIN, i16::MAX]);
        }),
        // Items on cells far outside the 64x64 grid, with extreme placements.
        Box::new(move |m| {
            m.blocks.iter_mut().for_each(|b| b.cell = far);
            m.extra_tiles.iter_mut().for_each(|t| t.cell = far);
            m.billboards
                .iter_mut()
                .for_each(|b| (b.cell, b.scale, b.vertical_offset) = (far, u16::MAX, i16::MIN));
            m.models
                .iter_mut()
                .for_each(|i| (i.cell, i.scale, i.vertical_offset) = (far, u16::MAX, i16::MAX));
            m.opaque.iter_mut().for_each(|o| (o.cell, o.strat) = (far, o.strat.map(|_| u32::MAX)));
        }),
        // Zero-scale models; a thousand blocks stacked in one cell.
        Box::new(|m| {
            m.models.iter_mut().for_each(|i| i.scale = 0);
            if let Some(&b) = m.blocks.first() {
                m.blocks = vec![b; 1000];
            }
        }),
        // Animations that target and cycle through texture definitions that do not exist.
        Box::new(|m| {
            m.animations
                .iter_mut()
                .for_each(|a| (a.target, a.frames, a.delay) = (u16::MAX, vec![u16::MAX; 16], 0));
        }),
        // No terrain: the grid is cut off before its first tile.
        Box::new(|m| m.terrain.clear()),
    ];
    for (k, edit) in edits.into_iter().enumerate() {
        let r = catch_unwind(AssertUnwindSafe(|| build_edited_saucer(edit)));
        match r {
            Err(_) => panic!("edit {k}: build panicked"),
            Ok(Ok(_)) => {}
            Ok(Err(e)) => assert!(e.contains("hostile.map"), "edit {k}: {e}"),
        }
    }
}

// ---- Saturn: planes, quads and tiles whose indices and sizes are out of range ----

/// The `test_room` fixture with its parsed level changed by `edit`, then built.
fn build_edited_saturn(edit: impl FnOnce(&mut LevFile)) -> usize {
    let bytes = std::fs::read(shared_fixtures().join("saturn/test_room.lev")).unwrap();
    let mut file = LevFile::parse("test_room.lev", &bytes).unwrap();
    edit(&mut file);
    saturn::build::build_scene(&file, "test_room").triangle_count()
}

#[test]
fn saturn_hostile_planes_and_tiles_build() {
    let intact = build_edited_saturn(|_| {});
    assert!(intact > 0);
    let edits: Vec<Edit<LevFile>> = vec![
        Box::new(|f| f.level.planes.iter_mut().for_each(|p| p.vert_indices = [u16::MAX; 4])),
        Box::new(|f| {
            f.level.planes.iter_mut().for_each(|p| (p.quad_start, p.quad_end) = (0, u16::MAX))
        }),
        // Reversed and out-of-range quad and vertex ranges.
        Box::new(|f| {
            f.level.planes.iter_mut().for_each(|p| {
                (p.quad_start, p.quad_end) = (u16::MAX - 1, 1);
                (p.vert_start, p.vert_end) = (u16::MAX, 0);
            })
        }),
        Box::new(|f| {
            f.level.planes.iter_mut().for_each(|p| (p.vert_start, p.vert_end) = (0, u16::MAX))
        }),
        Box::new(|f| {
            f.level.quads.iter_mut().for_each(|q| (q.indices, q.texture) = ([u8::MAX; 4], u8::MAX))
        }),
        // Tile sets pointing past the tile list, or 255x255 cells reading past their data.
        Box::new(|f| f.level.planes.iter_mut().for_each(|p| p.tile_index = u16::MAX - 1)),
        Box::new(|f| {
            f.tiles.iter_mut().for_each(|t| {
                (t.width, t.height) = (u8::MAX, u8::MAX);
                (t.texture_data_ofs, t.color_data_ofs) = (u16::MAX, u16::MAX);
            })
        }),
        // Degenerate and extreme tile axes.
        Box::new(|f| f.tiles.iter_mut().for_each(|t| (t.horz, t.vert) = ([0; 3], [0; 3]))),
        Box::new(|f| {
            f.tiles.iter_mut().for_each(|t| {
                (t.horz, t.vert, t.base) = ([i32::MAX; 3], [i32::MIN; 3], [i32::MIN, 0, i32::MAX])
            })
        }),
        // Zero area: every vertex on one point; zero plane normals.
        Box::new(|f| f.level.vertices.iter_mut().for_each(|v| v.pos = [5, 5, 5])),
        Box::new(|f| f.level.planes.iter_mut().for_each(|p| p.plane = [0; 4])),
        Box::new(|f| {
            f.level
                .vertices
                .iter_mut()
                .for_each(|v| (v.pos, v.color) = ([i16::MIN, i16::MAX, i16::MIN], u16::MAX))
        }),
        // Nodes whose plane ranges run past the planes or backwards.
        Box::new(|f| {
            f.level.nodes.iter_mut().for_each(|n| (n.first_plane, n.last_plane) = (0, u16::MAX))
        }),
        Box::new(|f| {
            f.level.nodes.iter_mut().for_each(|n| (n.first_plane, n.last_plane) = (u16::MAX, 0))
        }),
        // Everything the planes refer to gone.
        Box::new(|f| {
            f.textures.clear();
            f.tiles.clear();
            f.level.vertices.clear();
            f.level.quads.clear();
        }),
    ];
    for (k, edit) in edits.into_iter().enumerate() {
        let r = catch_unwind(AssertUnwindSafe(|| build_edited_saturn(edit)));
        if r.is_err() {
            panic!("edit {k}: build panicked");
        }
    }
}

// ---- Saucerman: zip bombs ----

fn zip_with(members: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (name, data) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

#[test]
fn saucer_zip_bomb_members_are_refused() {
    use mapscope::formats::saucer::Pak;
    use mapscope::limits::MAX_MEMBER;
    // Found while fuzzing saucer_pak: a 300 KB package inflating a 300 MB member took 308 MB
    // of memory (members were capped only at MAX_ALLOC, and `read_to_end` may double its
    // buffer past that). Members are now capped at MAX_MEMBER, the buffer never grows past it.
    let zeros = vec![0u8; MAX_MEMBER + 1];
    let pak = zip_with(&[("LEVELS/BOMB.wad", &zeros), ("maps/BOMB.map", b"SUCK")]);
    drop(zeros);
    assert!(pak.len() < 1 << 20, "the bomb compresses well: {}", pak.len());
    let pak = Pak::parse("bomb.pak", pak).unwrap();
    let e = pak.read("LEVELS/BOMB.wad").unwrap_err().to_string();
    assert!(e.contains("bomb.pak") && e.contains("limit"), "{e}");
    assert_eq!(pak.read("maps/BOMB.map").unwrap(), b"SUCK");
}

#[test]
fn compare_refuses_pngs_whose_decode_exceeds_the_cap() {
    // Found by fuzzing compare_png: PNGs of a few dozen bytes claiming 11009 x 12288 and
    // 14336 x 14792 RGB made the decoder allocate 387 MiB and more (the limit was 1 GiB, and
    // the RGBA conversion allocates after it). Now 8192 pixels each way and 256 MiB.
    for name in ["compare_rgb_11009x12288_interlaced.png", "compare_huge_decode_2.png"] {
        let e = mapscope::compare::load_png(own_corpus().join(name)).unwrap_err();
        assert!(e.to_string().contains(name), "{e}");
    }
}
