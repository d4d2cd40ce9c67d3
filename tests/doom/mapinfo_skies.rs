//! MAPINFO's skies over Freedoom: a 256 x 256 room open to the sky, split in a south and a
//! north half, MAP01 (whose game sky is SKY1). A ZMAPINFO's `sky1` replaces the level's sky in
//! every mode (not under vanilla's rules); in a Hexen-format map a Hexen-syntax MAPINFO's
//! `sky2` shows over the half whose special is Sky2 (200).

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{MapData, MapFormat, Sector, Vertex};
use mapscope::formats::doom::{build_scene_with, BuildOptions, WadStack};
use mapscope::scene::{vertex_flags, Scene, SurfaceKind};
use support::doom_test_room::{
    add_check_textures, add_line, hexen_player_start, player_start, renders_three_ways,
    scene_over_freedoom2, THREE_WAYS,
};

/// The south half's sector special and the map format.
fn map(format: MapFormat, north_special: u16) -> MapData {
    let v = Vertex::units;
    let start = if format == MapFormat::Hexen { hexen_player_start() } else { player_start() };
    let mut map = MapData {
        name: "MAP01".into(),
        format,
        things: vec![start],
        vertices: vec![v(0, 0), v(256, 0), v(256, 256), v(0, 256), v(0, 128), v(256, 128)],
        ..Default::default()
    };
    // Each half clockwise (fronts face in); the divider's front faces the south half.
    let one_sided = [(0, 4, 0), (5, 1, 0), (1, 0, 0), (4, 3, 1), (3, 2, 1), (2, 5, 1)];
    for (v1, v2, sector) in one_sided {
        add_line(&mut map, (v1, v2), (sector, "CHECKW"), None, (0, [0; 5]));
    }
    add_line(&mut map, (4, 5), (0, "-"), Some((1, "-")), (0, [0; 5]));
    let sector = |special| Sector {
        floor: 0,
        ceiling: 128,
        floor_flat: "FLOOR0_1".into(),
        ceiling_flat: "F_SKY1".into(),
        light: 255,
        special,
        ..Default::default()
    };
    map.sectors = vec![sector(0), sector(north_special)];
    map
}

fn pwad(map: &MapData, lumps: &[(&str, &str)]) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.map("MAP01", map);
    add_check_textures(&mut w);
    for (name, text) in lumps {
        w.lump(name, text.as_bytes().to_vec());
    }
    w.to_bytes()
}

/// The names of the textures the sky triangles over each half (south, north) show.
fn sky_names(scene: &Scene) -> [Vec<String>; 2] {
    let mut names: [Vec<String>; 2] = Default::default();
    for t in scene.world.chunks_exact(3) {
        if t[0].flags & vertex_flags::KIND_MASK != SurfaceKind::Sky as u32 {
            continue;
        }
        // Viewer z is minus map y.
        let half = usize::from(t.iter().all(|v| -v.pos[2] >= 128.0));
        let name = scene.textures[t[0].texture as usize].name.clone();
        if !names[half].contains(&name) {
            names[half].push(name);
        }
    }
    names
}

fn renders(scene: Scene, name: &str) -> Vec<RgbaImage> {
    renders_three_ways(&mut { scene }, "skies", name)
}

/// The share of the top tenth of the frame (the sky over the room) that differs.
fn top_changed(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let (w, h) = a.dimensions();
    let rows = h / 10;
    let differ = (0..rows)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y))
        .count();
    differ as f64 / (w * rows) as f64
}

const ZMAPINFO: &str = "map MAP01 \"Sky test\" { sky1 = \"SKY3\", 0.0 }";

#[test]
fn zmapinfo_sky1_replaces_the_level_s_sky_but_not_under_vanilla_rules() {
    let plain = scene_over_freedoom2("sky.wad", pwad(&map(MapFormat::Doom, 0), &[]), "MAP01");
    let bytes = pwad(&map(MapFormat::Doom, 0), &[("ZMAPINFO", ZMAPINFO)]);
    let sky3 = scene_over_freedoom2("sky.wad", bytes.clone(), "MAP01");
    assert_eq!(sky_names(&plain), [vec!["SKY1".to_string()], vec!["SKY1".to_string()]]);
    assert_eq!(sky_names(&sky3), [vec!["SKY3".to_string()], vec!["SKY3".to_string()]]);
    assert!(sky3.facts.notes.iter().any(|n| n.contains("MAPINFO (sky.wad ZMAPINFO): sky1 SKY3")));
    // The vanilla canvas's sky too.
    let (a, b) = (renders(plain, "plain"), renders(sky3, "sky3"));
    for (i, (view, _, _)) in THREE_WAYS.iter().enumerate() {
        assert!(top_changed(&a[i], &b[i]) > 0.5, "{view}: the sky changed");
    }
    // Vanilla's rules read no MAPINFO.
    let iwad = Wad::open(&support::freedoom2()).unwrap();
    let stack = WadStack::new(vec![iwad, Wad::from_bytes("sky.wad", bytes).unwrap()]);
    let vanilla = BuildOptions { vanilla: true, ..Default::default() };
    let s = build_scene_with(&stack, "MAP01", &vanilla).unwrap();
    assert_eq!(sky_names(&s)[0], vec!["SKY1".to_string()]);
}

#[test]
fn mapinfo_sky2_shows_over_sky2_sectors_of_hexen_maps() {
    let mapinfo = "map MAP01 \"Sky test\"\nsky1 SKY1 0\nsky2 SKY3 0\nmusic D_RUNNIN\n";
    let with = |special| {
        let bytes = pwad(&map(MapFormat::Hexen, special), &[("MAPINFO", mapinfo)]);
        scene_over_freedoom2("sky2.wad", bytes, "MAP01")
    };
    let (sky2, plain) = (with(200), with(0));
    assert_eq!(sky_names(&sky2), [vec!["SKY1".to_string()], vec!["SKY3".to_string()]]);
    assert_eq!(sky_names(&plain), [vec!["SKY1".to_string()], vec!["SKY1".to_string()]]);
    assert!(sky2.facts.notes.iter().any(|n| n.contains("sky2 SKY3 (1 sectors")), "{:?}", {
        &sky2.facts.notes
    });
    // The north half's sky is seen at the top of the frame.
    let (a, b) = (renders(plain, "sky2-plain"), renders(sky2, "sky2"));
    for (i, (view, _, _)) in THREE_WAYS.iter().enumerate() {
        assert!(top_changed(&a[i], &b[i]) > 0.3, "{view}: the sky over the north half changed");
    }
}
