//! The generated demo level: the committed `data/demo.wad` matches the generator, the map
//! loads and builds through the normal Doom path, its node tree is exact (one rectangular
//! subsector per cell), and a render from the spawn shows a lit, textured scene.

use std::collections::HashSet;
use std::path::PathBuf;

use mapscope::demo_level::{self, layout};
use mapscope::formats::doom::map::MapData;
use mapscope::formats::doom::nodes::bsp::{area, point_in_subsector};
use mapscope::formats::doom::nodes::BspChild;
use mapscope::formats::doom::{DoomLevel, WadStack};
use mapscope::render::{render_headless, Gpu, ViewSettings};

fn demo_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(demo_level::DEFAULT_OUTPUT)
}

fn load_level() -> (WadStack, DoomLevel) {
    let stack = WadStack::open(&[demo_path()]).expect("data/demo.wad opens");
    let level = DoomLevel::load(&stack, demo_level::MAP_NAME).expect("MAP01 loads");
    (stack, level)
}

#[test]
fn committed_wad_matches_the_generator() {
    let generated = demo_level::wad_bytes().expect("generator runs");
    let committed = std::fs::read(demo_path()).expect("data/demo.wad exists");
    assert!(
        generated == committed,
        "data/demo.wad is stale: run `cargo run --bin make-demo` ({} bytes generated, {} committed)",
        generated.len(),
        committed.len()
    );
    assert_eq!(mapscope::demo::DEMO_WAD, &generated[..], "embedded demo differs: rebuild");
    assert!(generated.len() < 300 * 1024, "demo WAD is {} bytes", generated.len());
    assert_eq!(&generated[..4], b"IWAD");
}

#[test]
fn loads_and_builds_through_the_loader() {
    let source =
        mapscope::loader::open(&[demo_path()], &Default::default()).expect("loader opens the demo");
    assert_eq!(source.maps(), vec![demo_level::MAP_NAME.to_string()]);
    let scene = source.build(None).expect("scene builds");
    assert!(scene.facts.notes.is_empty(), "notes: {:?}", scene.facts.notes);
    let count = |name: &str| {
        scene.facts.counts.iter().find(|(k, _)| k == name).map(|(_, v)| *v).unwrap_or(0)
    };
    assert_eq!(count("sectors") as usize, layout::cells().len());
    assert_eq!(count("subsectors"), count("sectors"));
    assert_eq!(count("degenerate_subsectors"), 0);
    assert_eq!(count("scrolling_lines"), 1);
    assert_eq!(count("animated_cycles"), 1, "NUKAGE1..3 animate");
    assert_eq!(count("light_thinkers"), 7, "5 glowing pool cells, a strobe and a blink");
    assert_eq!(count("things_spawned") as usize, layout::things().len() - 1);
    assert!(!scene.sprites.is_empty());
    // The trooper has 8 views, two of each mirrored pair drawn flipped.
    let trooper = scene.sprites.iter().find(|s| s.label == "3004").expect("a trooper");
    assert_eq!(trooper.views.len(), 8);
    assert_eq!(trooper.views.iter().filter(|v| v.mirrored).count(), 3);
}

#[test]
fn every_cell_is_one_exact_subsector() {
    let (_, level) = load_level();
    let map = &level.map;
    let cells = layout::cells();
    assert_eq!(level.polygons.degenerate, 0);
    assert_eq!(level.polygons.unreached, 0);
    let mut seen = vec![false; cells.len()];
    for (ss, poly) in level.polygons.polygons.iter().enumerate() {
        let sector = map.subsector_sector(ss).expect("subsector has a sector");
        assert!(!std::mem::replace(&mut seen[sector], true), "sector {sector} has two leaves");
        let cell = &cells[sector];
        assert_eq!(area(poly), cell.area(), "cell {} (subsector {ss})", cell.name);
        for p in poly {
            assert!(
                (cell.x0 as f64..=cell.x1 as f64).contains(&p.x)
                    && (cell.y0 as f64..=cell.y1 as f64).contains(&p.y),
                "cell {}: polygon point {p} outside",
                cell.name
            );
        }
        // The walk from the root finds this subsector at the cell's centre.
        let (cx, cy) = ((cell.x0 + cell.x1) as f64 / 2.0, (cell.y0 + cell.y1) as f64 / 2.0);
        assert_eq!(point_in_subsector(map, cx, cy), ss, "cell {}", cell.name);
    }
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn segs_lie_on_their_linedefs() {
    let map = demo_level::map().unwrap();
    let v = |i: u32| map.vertex(i).unwrap().to_dvec2();
    for ssi in 0..map.bsp.subsectors.len() {
        let sector = map.subsector_sector(ssi).unwrap();
        let segs = map.subsector_segs(ssi);
        for (k, seg) in segs.iter().enumerate() {
            let ld = &map.linedefs[seg.linedef.unwrap() as usize];
            let (a, b) = (v(seg.v1), v(seg.v2));
            // On the linedef, running its way on the front and against it on the back.
            let (l1, l2) = if seg.side == 0 { (v(ld.v1), v(ld.v2)) } else { (v(ld.v2), v(ld.v1)) };
            let dir = (l2 - l1).normalize();
            assert!((a - l1).perp_dot(dir).abs() < 1e-9 && (b - l1).perp_dot(dir).abs() < 1e-9);
            assert!((b - a).normalize().dot(dir) > 0.999);
            assert_eq!(seg.offset as f64 / 65536.0, (a - l1).length(), "seg offset");
            let ang = ((b - a).y.atan2((b - a).x) / std::f64::consts::TAU * 65536.0).round();
            assert_eq!(
                (seg.angle >> 16) as i16 as f64,
                ((ang as i64 + 32768).rem_euclid(65536) - 32768) as f64
            );
            // The seg's side faces this subsector's sector; segs chain round the cell.
            assert_eq!(map.seg_sidedef(seg).unwrap().sector as usize, sector);
            assert_eq!(seg.v2, segs[(k + 1) % segs.len()].v1, "segs form a closed loop");
        }
    }
}

/// Bounding box (top, bottom, left, right) of every vertex used by a subtree's segs.
fn subtree_box(map: &MapData, child: BspChild) -> [i32; 4] {
    match child {
        BspChild::Subsector(s) => {
            let mut b = [i32::MIN, i32::MAX, i32::MAX, i32::MIN];
            for seg in map.subsector_segs(s as usize) {
                for vi in [seg.v1, seg.v2] {
                    let p = map.vertex(vi).unwrap();
                    b = [b[0].max(p.y), b[1].min(p.y), b[2].min(p.x), b[3].max(p.x)];
                }
            }
            b
        }
        BspChild::Node(n) => {
            let node = &map.bsp.nodes[n as usize];
            let (r, l) = (node.bbox[0], node.bbox[1]);
            [r[0].max(l[0]), r[1].min(l[1]), r[2].min(l[2]), r[3].max(l[3])]
        }
    }
}

#[test]
fn node_boxes_are_exact_and_partitions_separate() {
    let map = demo_level::map().unwrap();
    for node in &map.bsp.nodes {
        assert!(node.dx == 0 || node.dy == 0, "axis-aligned partition");
        for side in 0..2 {
            let b = node.bbox[side];
            assert_eq!(b, subtree_box(&map, node.children[side]));
            // Front (right) and back (left) lie on their sides of the line.
            let right = side == 0;
            if node.dx == 0 {
                let east = (node.dy > 0) == right;
                assert!(if east { b[2] >= node.x } else { b[3] <= node.x });
            } else {
                let south = (node.dx > 0) == right;
                assert!(if south { b[0] <= node.y } else { b[1] >= node.y });
            }
        }
    }
}

#[test]
fn spawn_render_is_lit_and_textured() {
    let source = mapscope::loader::open(&[demo_path()], &Default::default()).unwrap();
    let mut scene = source.build(None).unwrap();
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let camera = scene.spawn;
    let img = render_headless(&gpu, &mut scene, &camera, &ViewSettings::default(), 0).unwrap();
    let pixels: Vec<[u8; 3]> = img.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    let distinct: HashSet<[u8; 3]> = pixels.iter().copied().collect();
    assert!(distinct.len() >= 48, "only {} distinct colours", distinct.len());
    // Nothing is left unpainted: the clear colour (black) shows only through holes.
    let black = pixels.iter().filter(|p| **p == [0, 0, 0]).count();
    assert!(black * 200 < pixels.len(), "{black} black pixels");
    let dark = pixels.iter().filter(|p| p.iter().all(|&c| c < 24)).count();
    assert!(dark * 10 < pixels.len(), "{dark} near-black pixels");
    // The nukage pool (green) and the dusk sky (warm orange above the hall) are in view.
    let green = pixels.iter().filter(|p| p[1] as i32 > p[0] as i32 + 40 && p[1] > p[2]).count();
    assert!(green * 100 > pixels.len(), "{green} nukage pixels");
    let (w, h) = img.dimensions();
    let sky_rows = &pixels[(w * h / 10) as usize..(w * h / 4) as usize];
    assert!(sky_rows.iter().any(|p| p[0] > 150 && p[0] > p[2] + 60), "no dusk sky");
}
