//! Doom map and node formats: the community maps of ../shared/realmaps/doom (README there:
//! UDMF with XGL3 nodes in ZNODES, Hexen format with and without nodes, vanilla) and every
//! node format zdbsp and glbsp write for a Freedoom map open, pass the floor-area check and
//! render; the UDMF TEXTMAPs and Hexen records read as they should.

use crate::support;

use std::path::PathBuf;

use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::udmf_map::{textmap, udmf_records};
use mapscope::formats::doom::map::{MapData, MapFormat};
use mapscope::formats::doom::nodes::NodeFormat;
use mapscope::formats::doom::DoomLevel;
use mapscope::formats::doom::{build_scene, WadStack};
use mapscope::render::{render_headless, Gpu, ViewSettings};
use support::doom_areas::{check_areas, AreaReport};
use support::{freedoom1, freedoom2, image_stats, mapscope, realmap, success, TempDir};

#[test]
fn udmf_textmaps_of_real_maps_parse() {
    for (file, name) in [("vgpdm01.wad", "VGPDM01"), ("vgpdm02.wad", "VGPDM02")] {
        let stack = WadStack::open(&[freedoom2(), realmap(file)]).unwrap();
        assert!(stack.map_names().contains(&name.to_string()), "{:?}", stack.map_names());
        let lumps = stack.map(name).unwrap();
        assert!(lumps.get("ZNODES").is_some(), "{file}: ZNODES belongs to the map");
        let doc = textmap(&stack, &lumps).unwrap();
        let map = udmf_records(file, name, &doc).unwrap();
        assert_eq!(map.format, MapFormat::Udmf { namespace: "zdoom".into() });
        for (what, n) in [
            ("vertices", map.vertices.len()),
            ("linedefs", map.linedefs.len()),
            ("sidedefs", map.sidedefs.len()),
            ("sectors", map.sectors.len()),
            ("things", map.things.len()),
        ] {
            assert!(n > 0, "{file}: no {what}");
        }
        // Every sector is some sidedef's, and the map has a player start.
        let mut used = vec![false; map.sectors.len()];
        map.sidedefs.iter().for_each(|s| used[s.sector as usize] = true);
        assert!(used.iter().all(|&u| u), "{file}: sectors no sidedef faces");
        assert!(map.things.iter().any(|t| t.kind == 1), "{file}: no player 1 start");
        // Keys beyond the standard ones are kept.
        let extra = map.udmf.as_ref().unwrap();
        assert_eq!(extra.linedefs.len(), map.linedefs.len());
    }
}

#[test]
fn hexen_maps_with_nodes_open_and_build() {
    // (file, map, whether its lines carry action specials)
    for (file, name, specials) in
        [("lastermaul-map01.wad", "MAP01", true), ("lastermaul-testmap.wad", "MAP01", false)]
    {
        let stack = WadStack::open(&[freedoom2(), realmap(file)]).unwrap();
        let map = MapData::load(&stack, name).unwrap();
        assert_eq!(map.format, MapFormat::Hexen, "{file}");
        assert!(map.file.ends_with(file), "{}", map.file);
        assert!(map.things.iter().any(|t| t.kind == 1), "{file}: no player 1 start");
        assert!(
            map.linedefs.iter().any(|l| l.special != 0 || l.args != [0; 5]) == specials,
            "{file}: line specials read wrongly"
        );
        let scene = build_scene(&stack, name).unwrap();
        // At least a wall quad per line and a floor and ceiling per sector.
        let least = 2 * map.linedefs.len() + 2 * map.sectors.len();
        assert!(scene.triangle_count() > least, "{file}: {} triangles", scene.triangle_count());
        let detail = |k: &str| scene.facts.details.iter().find(|(n, _)| n == k).unwrap().1.clone();
        assert_eq!(detail("map format"), "Hexen", "{file}");
        assert_eq!(detail("node format"), "vanilla", "{file}");
    }
}

#[test]
fn list_names_map_and_node_formats() {
    let files = [freedoom2(), realmap("vgpdm01.wad"), realmap("lastermaul-map11.wad")];
    let mut args = vec![PathBuf::from("list")];
    args.extend(files);
    let out = success(&mapscope(&args), "mapscope list");
    let line = |name: &str| out.lines().find(|l| l.starts_with(&format!("{name}\t"))).unwrap();
    assert_eq!(line("VGPDM01"), "VGPDM01\tUDMF (namespace zdoom), nodes: ZDoom XGL3 in ZNODES");
    assert_eq!(line("MAP11"), "MAP11\tHexen, nodes: none");
    assert_eq!(line("MAP02"), "MAP02\tDoom, nodes: vanilla");
}

// ---------------------------------------------------------------------------------------------
// Every map opens, its floors add up and it renders.

/// Loads `map` from `files`, checks the floor areas (no sector off by more than 1%, at most
/// one in twenty skipped for outlines that do not close, no subsector the tree misses) and
/// renders it from its player start; returns the level and the picture.
fn open_check_render(files: &[PathBuf], map: &str) -> (DoomLevel, image::RgbaImage) {
    let what = format!("{map} of {}", files.last().unwrap().display());
    let stack = WadStack::open(files).unwrap();
    let level = DoomLevel::load(&stack, map).unwrap_or_else(|e| panic!("{what}: {e}"));
    let mut r = AreaReport::default();
    check_areas(&level, &mut r);
    let skipped = r.skipped_outline + r.skipped_open_leaf + r.skipped_slivers;
    assert!(r.mismatched.is_empty(), "{what}: floors do not add up:\n{}", r.mismatched.join("\n"));
    assert!(skipped * 20 <= r.sectors, "{what}: {skipped} of {} sectors skipped", r.sectors);
    assert_eq!(r.unreached_subsectors, 0, "{what}: subsectors the tree never reaches");

    static GPU: std::sync::OnceLock<Gpu> = std::sync::OnceLock::new();
    let gpu = GPU.get_or_init(|| Gpu::headless().expect("a Vulkan or GL adapter"));
    let source = mapscope::loader::open(files, &Default::default()).unwrap();
    let mut scene = source.build(Some(map)).unwrap_or_else(|e| panic!("{what}: {e:#}"));
    let camera = scene.spawn;
    let view = ViewSettings { width: 320, height: 200, ..Default::default() };
    let img = render_headless(gpu, &mut scene, &camera, &view, 0).unwrap();
    let stats = image_stats(&img);
    // Textures a community map brings in its own resources show as a two-colour placeholder.
    let drawn =
        stats.looks_rendered() || (stats.distinct_colours >= 2 && stats.black_fraction < 0.9);
    assert!(drawn, "{what}: looks blank: {stats:?}");
    (level, img)
}

#[test]
fn community_maps_open_pass_the_area_check_and_render() {
    let udmf = |ns: &str| MapFormat::Udmf { namespace: ns.into() };
    let gl3 = NodeFormat::ZdoomGl { version: 3, compressed: false };
    for (iwad, file, map, format, nodes) in [
        (freedoom2(), "vgpdm01.wad", "VGPDM01", udmf("zdoom"), gl3),
        (freedoom2(), "vgpdm02.wad", "VGPDM02", udmf("zdoom"), gl3),
        (freedoom2(), "lastermaul-map01.wad", "MAP01", MapFormat::Hexen, NodeFormat::Vanilla),
        (freedoom2(), "lastermaul-testmap.wad", "MAP01", MapFormat::Hexen, NodeFormat::Vanilla),
        // Saved by an editor without nodes: mapscope builds them.
        (freedoom2(), "lastermaul-map11.wad", "MAP11", MapFormat::Hexen, NodeFormat::Built),
        (freedoom1(), "si-c1m3.wad", "E1M3", MapFormat::Doom, NodeFormat::Vanilla),
        (freedoom1(), "si-c4m1.wad", "E4M1", MapFormat::Doom, NodeFormat::Vanilla),
    ] {
        let (level, _) = open_check_render(&[iwad, realmap(file)], map);
        assert_eq!(level.map.format, format, "{file}");
        assert_eq!(level.map.bsp.format, nodes, "{file}");
        if let MapFormat::Udmf { .. } = format {
            // What is kept but not drawn is said, never dropped silently.
            let said = level.map.notes.iter().find(|n| n.starts_with("UDMF properties kept"));
            let said = said.unwrap_or_else(|| panic!("{file}: {:?}", level.map.notes));
            assert!(said.contains("sidedef: ") || said.contains("sector: "), "{said}");
        }
    }
}

/// Freedoom's MAP01 alone in a PWAD, with its nodes or without.
fn map01_pwad(keep_nodes: bool) -> WadWriter {
    let iwad = Wad::open(&freedoom2()).unwrap();
    let at = iwad.lumps().iter().position(|l| l.name == "MAP01").unwrap();
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    for (i, info) in iwad.lumps().iter().enumerate().skip(at + 1).take(10) {
        if keep_nodes || !["SEGS", "SSECTORS", "NODES"].contains(&info.name.as_str()) {
            w.lump(&info.name, iwad.lump(i).unwrap().data.to_vec());
        }
    }
    w
}

/// Runs a node builder on `input` and returns its output file; `strip` then removes the
/// normal nodes, so that the loader must read the GL lumps.
fn node_variant(dir: &TempDir, tag: &str, tool: &str, args: &[&str], strip: bool) -> PathBuf {
    let input = dir.path().join(format!("{tag}-in.wad"));
    std::fs::write(&input, map01_pwad(true).to_bytes()).unwrap();
    let output = dir.path().join(format!("{tag}.wad"));
    let mut cmd = std::process::Command::new(tool);
    cmd.args(args);
    if tool == "zdbsp" {
        cmd.arg("-o").arg(&output).arg(&input);
    } else {
        cmd.arg(&input).arg("-o").arg(&output);
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("running {tool} ({e}): install it (Debian: `apt-get install zdbsp glbsp`)")
    });
    assert!(out.status.success(), "{tool} {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    if strip {
        let built = Wad::open(&output).unwrap();
        let mut w = WadWriter::pwad();
        for (i, info) in built.lumps().iter().enumerate() {
            if !["SEGS", "SSECTORS", "NODES"].contains(&info.name.as_str()) {
                w.lump(&info.name, built.lump(i).unwrap().data.to_vec());
            }
        }
        std::fs::write(&output, w.to_bytes()).unwrap();
    }
    output
}

#[test]
fn every_node_format_of_a_freedoom_map_opens_and_draws_as_vanilla_nodes_do() {
    let dir = TempDir::new("node-formats");
    let (_, vanilla) = open_check_render(&[freedoom2()], "MAP01");
    let nodeless = dir.path().join("nodeless.wad");
    std::fs::write(&nodeless, map01_pwad(false).to_bytes()).unwrap();
    let gl = |version, compressed| NodeFormat::ZdoomGl { version, compressed };
    let cases = [
        (
            node_variant(&dir, "xnod", "zdbsp", &["-X"], false),
            NodeFormat::ZdoomExtended { compressed: false },
        ),
        (
            node_variant(&dir, "znod", "zdbsp", &["-z"], false),
            NodeFormat::ZdoomExtended { compressed: true },
        ),
        (node_variant(&dir, "xgln", "zdbsp", &["-g", "-X"], false), gl(1, false)),
        (node_variant(&dir, "zgln", "zdbsp", &["-g", "-z"], false), gl(1, true)),
        (node_variant(&dir, "zdbsp-gl", "zdbsp", &["-g"], true), NodeFormat::GlBsp { version: 2 }),
        (node_variant(&dir, "glbsp-v2", "glbsp", &["-v2"], true), NodeFormat::GlBsp { version: 2 }),
        (node_variant(&dir, "glbsp-v3", "glbsp", &["-v3"], true), NodeFormat::GlBsp { version: 3 }),
        (node_variant(&dir, "glbsp-v5", "glbsp", &["-v5"], true), NodeFormat::GlBsp { version: 5 }),
        (nodeless, NodeFormat::Built),
    ];
    for (file, format) in cases {
        let (level, img) = open_check_render(&[freedoom2(), file.clone()], "MAP01");
        assert_eq!(level.map.bsp.format, format, "{}", file.display());
        // The picture depends on the tree only through where builders split lines: split
        // vertices and seg offsets that vanilla's SEGS round to whole units are exact here,
        // which moves texture columns on some split walls by a fraction of a texel.
        let same = img.pixels().zip(vanilla.pixels()).filter(|(a, b)| a == b).count();
        let share = same as f64 / vanilla.pixels().len() as f64;
        eprintln!(
            "{}: {:?}, {:.3}% identical to vanilla nodes",
            file.display(),
            format,
            share * 100.0
        );
        assert!(share > 0.95, "{}: only {:.2}% identical", file.display(), share * 100.0);
    }
}
