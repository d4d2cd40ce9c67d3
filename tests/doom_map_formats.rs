//! Doom map formats on community maps (../shared/realmaps/doom, README there): UDMF maps
//! (namespace zdoom, XGL3 nodes in ZNODES) are listed and their TEXTMAPs read; Hexen-format
//! maps with vanilla nodes open and build; maps whose nodes cannot be read yet fail naming
//! the map, its format, the file and what is missing.

mod support;

use std::path::PathBuf;

use mapscope::formats::doom::map::{MapData, MapFormat};
use mapscope::formats::doom::udmf_map::{textmap, udmf_records};
use mapscope::formats::doom::{build_scene, WadStack};
use support::{freedoom2, mapscope, success};

fn realmap(file: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/realmaps/doom").join(file);
    assert!(path.is_file(), "{} not found (the shared community maps)", path.display());
    path
}

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

        // Until the node readers are in, loading names what is missing, never "no map".
        let e = MapData::load(&stack, name).unwrap_err().to_string();
        assert!(e.contains(&format!("UDMF map {name} (namespace zdoom) in ")), "{e}");
        assert!(e.contains(file), "{e}");
        assert!(e.contains("ZNODES (XGL3)"), "{e}");
        assert!(!e.contains("no map"), "{e}");
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
fn hexen_map_without_nodes_says_so() {
    let stack = WadStack::open(&[freedoom2(), realmap("lastermaul-map11.wad")]).unwrap();
    let e = MapData::load(&stack, "MAP11").unwrap_err().to_string();
    assert!(e.contains("Hexen map MAP11 in ") && e.contains("lastermaul-map11.wad"), "{e}");
    assert!(e.contains("no nodes"), "{e}");
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
