//! Writer-built Marathon fixtures for what the shared ones leave out: every side type, the
//! animated transfer modes (slide, static, landscape), item billboards, wad versions 0..4,
//! MacBinary II and AppleSingle wrappers, finding the Shapes file beside the map, and flat
//! colours without one. Renders go through the binary and are checked at pixels.

use crate::support;

use std::path::{Path, PathBuf};

use mapscope::formats::marathon::lights::{OldLight, StaticLight, FIXED_ONE};
use mapscope::formats::marathon::map::{MapObject, Point, SideTexture};
use mapscope::formats::marathon::writer::{self, *};
use mapscope::formats::marathon::{level_names, mac_roman, Level, Wad};
use mapscope::shot::ShotMeta;
use support::TempDir;

const RED: [u8; 3] = [255, 0, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const BLUE: [u8; 3] = [0, 0, 255];
const YELLOW: [u8; 3] = [255, 255, 0];
const CYAN: [u8; 3] = [0, 255, 255];
const MAGENTA: [u8; 3] = [255, 0, 255];
const GREY: [u8; 3] = [128, 128, 128];
const ORANGE: [u8; 3] = [255, 128, 0];
const WHITE: [u8; 3] = [255, 255, 255];
const SKY: [u8; 3] = [96, 160, 255];
const PURPLE: [u8; 3] = [160, 32, 240];

/// Wall textures: frame k of collection 17 (walls 1).
mod tex {
    pub const RED: u16 = 0x1100;
    pub const GREEN: u16 = 0x1101;
    pub const BLUE: u16 = 0x1102;
    pub const YELLOW: u16 = 0x1103;
    pub const STRIPES: u16 = 0x1104;
    pub const GREY: u16 = 0x1105;
    pub const ORANGE: u16 = 0x1106;
    pub const WHITE: u16 = 0x1107;
    pub const LANDSCAPE: u16 = 0x1B00;
}

fn shapes_file() -> Vec<u8> {
    let colours = [
        [0, 0, 0],
        WHITE,
        [0, 0, 0],
        RED,
        GREEN,
        BLUE,
        YELLOW,
        CYAN,
        MAGENTA,
        GREY,
        ORANGE,
        PURPLE,
    ];
    let wall = |v| BitmapSpec::uniform(128, 128, v);
    let mut stripes = BitmapSpec::uniform(128, 128, 7);
    for y in 0..128 {
        for x in 64..128 {
            stripes.pixels[y * 128 + x] = 8;
        }
    }
    let mut diamond = BitmapSpec::uniform(32, 32, 0);
    for y in 0..32i32 {
        for x in 0..32i32 {
            if (x - 16).abs() + (y - 16).abs() < 14 {
                diamond.pixels[(y * 32 + x) as usize] = 11;
            }
        }
    }
    diamond.rle = true;
    // The fighter (monster 9 stands in sequence 7 of collection 9, colour table 1): the same
    // diamond, whose colour 11 is orange in table 1.
    let fighter = diamond.clone();
    let mut fighter_clut_1 = colours;
    fighter_clut_1[11] = ORANGE;
    writer::shapes(&[
        CollectionSpec {
            index: 7,
            kind: 2,
            tables: vec![color_table(&colours, &[11])],
            bitmaps: vec![diamond],
            sequences: vec![0],
            pixels_to_world: 16,
        },
        CollectionSpec {
            index: 9,
            kind: 2,
            tables: vec![color_table(&colours, &[]), color_table(&fighter_clut_1, &[])],
            bitmaps: vec![fighter],
            sequences: vec![0; 8],
            pixels_to_world: 16,
        },
        CollectionSpec {
            index: 17,
            kind: 1,
            tables: vec![color_table(&colours, &[])],
            bitmaps: vec![wall(3), wall(4), wall(5), wall(6), stripes, wall(9), wall(10), wall(1)],
            sequences: vec![],
            pixels_to_world: 0,
        },
        CollectionSpec {
            index: 27,
            kind: 1,
            tables: vec![color_table(&[[0, 0, 0], WHITE, [0, 0, 0], SKY], &[])],
            bitmaps: vec![BitmapSpec::uniform(64, 128, 3)],
            sequences: vec![],
            pixels_to_world: 0,
        },
    ])
}

fn p(x: i16, y: i16) -> Point {
    Point { x, y }
}

fn square(x0: i16, y0: i16, x1: i16, y1: i16) -> Vec<Point> {
    vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
}

fn room(
    vertices: Vec<Point>,
    floor: i16,
    ceiling: i16,
    sides: Vec<Option<SideSpec>>,
) -> RoomPolygon {
    RoomPolygon {
        vertices,
        floor,
        ceiling,
        floor_texture: tex::ORANGE,
        ceiling_texture: tex::WHITE,
        floor_light: 0,
        ceiling_light: 0,
        floor_transfer_mode: 0,
        ceiling_transfer_mode: 0,
        kind: 0,
        media: -1,
        sides,
    }
}

/// Room A (0..4096 square, floor 0, ceiling 4096) with a split side east, a high side south,
/// a low side west and a sliding full wall north; its ceiling is static.
fn rooms() -> Vec<RoomPolygon> {
    let wall = |t| Some(SideSpec::full(t, 0));
    let mut split = SideSpec::full(tex::RED, 0);
    split.kind = 4;
    split.secondary = SideTexture { x0: 0, y0: 0, texture: tex::BLUE };
    let mut high = SideSpec::full(tex::YELLOW, 0);
    high.kind = 1;
    let mut low = SideSpec::full(tex::GREEN, 0);
    low.kind = 2;
    let mut slide = SideSpec::full(tex::STRIPES, 0);
    slide.transfer_modes[0] = 15;
    let mut landscape = SideSpec::full(tex::LANDSCAPE, 0);
    landscape.transfer_modes[0] = 9;
    let mut composite = SideSpec::full(tex::GREY, 0);
    composite.kind = 3;
    let mut a = room(
        square(0, 0, 4096, 4096),
        0,
        4096,
        vec![Some(slide), Some(split), Some(high), Some(low)],
    );
    a.ceiling_transfer_mode = 7;
    // A dim floor light: the item standing on it keeps its self-luminescent colour.
    a.floor_light = 1;
    vec![
        a,
        room(
            square(4096, 0, 6144, 4096),
            1024,
            3072,
            vec![wall(tex::GREY), wall(tex::GREEN), wall(tex::GREY), None],
        ),
        room(
            square(0, 4096, 4096, 6144),
            0,
            3072,
            vec![None, wall(tex::GREY), Some(composite), wall(tex::GREY)],
        ),
        room(
            square(-2048, 0, 0, 4096),
            1024,
            4096,
            vec![wall(tex::GREY), None, wall(tex::GREY), Some(landscape)],
        ),
    ]
}

const LEVEL_NAME: &str = "Writer Room";

/// The level's chunks for data version 1 (Marathon 2) or 0 (Marathon 1 records).
fn level(data_version: u16) -> LevelChunks {
    named_level(data_version, LEVEL_NAME)
}

/// [`level`] under another name (written in Mac Roman, as the games did).
fn named_level(data_version: u16, name: &str) -> LevelChunks {
    let r = Room::build(&rooms());
    let mut polygons = r.polygons.clone();
    let item =
        MapObject { kind: 2, index: 1, facing: 0, polygon: 0, x: 1024, y: 2048, z: 0, flags: 0 };
    let player =
        MapObject { kind: 3, index: 0, facing: 0, polygon: 0, x: 2048, y: 2048, z: 0, flags: 0 };
    let fighter =
        MapObject { kind: 0, index: 9, facing: 0, polygon: 0, x: 3072, y: 2048, z: 0, flags: 0 };
    let objects = objs(&[player, item, fighter]);
    let mut chunks = if data_version == 0 {
        for poly in &mut polygons {
            poly.media = 0;
            poly.media_light = 0;
        }
        let old = OldLight {
            flags: 0,
            kind: 0,
            mode: 1,
            phase: 0,
            minimum_intensity: FIXED_ONE,
            maximum_intensity: FIXED_ONE,
            period: 60,
        };
        let dim =
            OldLight { minimum_intensity: FIXED_ONE / 4, maximum_intensity: FIXED_ONE / 4, ..old };
        vec![(*b"EPNT", epnt(&r.endpoints)), (*b"LINS", lins(&r.lines))]
            .into_iter()
            .chain([(*b"SIDS", sids(&r.sides)), (*b"POLY", poly(&polygons))])
            .chain([(*b"NAME", {
                let mut n = mac_roman::encode(name);
                n.resize(64, 0);
                n
            })])
            .chain([(*b"LITE", old_lite(&[old, dim])), (*b"OBJS", objects)])
            .collect::<Vec<_>>()
    } else {
        vec![
            (*b"PNTS", pnts(&r.endpoints)),
            (*b"LINS", lins(&r.lines)),
            (*b"SIDS", sids(&r.sides)),
            (*b"POLY", poly(&polygons)),
            (*b"LITE", lite(&[constant_light(1.0), constant_light(0.25)])),
            (*b"OBJS", objects),
            (*b"Minf", minf(name, 0)),
        ]
    };
    if data_version == 0 {
        chunks.push((*b"p\x8cth", Vec::new()));
    }
    LevelChunks { name: name.into(), chunks }
}

struct Files {
    _dir: TempDir,
    map: PathBuf,
    shapes: PathBuf,
}

/// Writes the map (in `wrap`: "plain", "macbinary" or "applesingle") and Shapes to a folder.
fn write_files(version: u16, data_version: u16, wrap: &str, shapes_name: &str) -> Files {
    let dir = TempDir::new("marathon-writer");
    let w = wad(version, data_version, "Writer", &[level(data_version)]);
    let bytes = match wrap {
        "macbinary" => macbinary("Map", b"sce2", &w),
        "applesingle" => applesingle("Map", &w),
        _ => w,
    };
    let map = dir.join("Map.sceA");
    std::fs::write(&map, bytes).unwrap();
    let shapes = dir.join(shapes_name);
    std::fs::write(&shapes, shapes_file()).unwrap();
    Files { _dir: dir, map, shapes }
}

/// `bytes` written as `file` in a scratch folder `tag`, with the test Shapes file beside it.
fn map_with_shapes(tag: &str, file: &str, bytes: &[u8]) -> (TempDir, PathBuf, PathBuf) {
    let dir = TempDir::new(tag);
    let map = dir.join(file);
    std::fs::write(&map, bytes).unwrap();
    let shapes = dir.join("Shapes.shpA");
    std::fs::write(&shapes, shapes_file()).unwrap();
    (dir, map, shapes)
}

fn render(
    map: &Path,
    shapes: Option<&Path>,
    camera: &str,
    look_at: &str,
    tic: u32,
    name: &str,
) -> image::RgbaImage {
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/marathon-probes");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join(format!("writer_{name}.png"));
    let mut args: Vec<String> = vec!["render".into(), map.display().to_string()];
    if let Some(s) = shapes {
        args.extend(["--shapes".into(), s.display().to_string()]);
    }
    args.extend(
        ["--camera", camera, "--look-at", look_at, "--fov", "90", "--size", "320x240", "--tic"]
            .map(String::from),
    );
    args.extend([tic.to_string(), "-o".into(), out.display().to_string()]);
    support::success(&support::mapscope(&args), &format!("render {name}"));
    image::open(&out).unwrap().to_rgba8()
}

fn rgb(img: &image::RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = img.get_pixel(x, y).0;
    [p[0], p[1], p[2]]
}

const EYE: &str = "2048,2048,2048";

/// Checks the side-type views of the room; `label` names the variant. `lower` is the channel
/// value of the panels lit by the floor light (Marathon 1 guesses that light for low sides
/// and the lower panel of split sides; its 0.25 with the headlight 2 WU away gives 96).
fn check_sides(map: &Path, shapes: Option<&Path>, label: &str, lower: u8) {
    // East: split side, primary above the opening, secondary below, the far wall between.
    let img = render(map, shapes, EYE, "4096,2048,2048", 0, &format!("{label}_split"));
    assert_eq!(rgb(&img, 160, 20), RED, "{label}: split upper panel");
    assert_eq!(rgb(&img, 160, 220), [0, 0, lower], "{label}: split lower panel");
    assert_eq!(rgb(&img, 160, 120), GREEN, "{label}: far wall through the split opening");
    // South: high side over an opening onto a composite (drawn as full) wall.
    let img = render(map, shapes, EYE, "2048,4096,2048", 0, &format!("{label}_high"));
    assert_eq!(rgb(&img, 160, 20), YELLOW, "{label}: high side");
    assert_eq!(rgb(&img, 160, 120), GREY, "{label}: composite far wall");
    // West: low side under an opening onto a landscape wall.
    let img = render(map, shapes, EYE, "0,2048,2048", 0, &format!("{label}_low"));
    assert_eq!(rgb(&img, 160, 220), [0, lower, 0], "{label}: low side");
    assert_eq!(rgb(&img, 160, 100), SKY, "{label}: landscape wall at full brightness");
}

#[test]
fn side_types_render_their_panels() {
    let f = write_files(4, 1, "plain", "Shapes.shpA");
    check_sides(&f.map, Some(&f.shapes), "v4", 255);
}

#[test]
fn horizontal_slide_moves_half_a_texture_in_128_ticks() {
    let f = write_files(4, 1, "plain", "Shapes.shpA");
    // The wall point 2304 units along the wall: u = 256 at tic 0 (cyan half), 768 at 128.
    let at0 = render(&f.map, Some(&f.shapes), EYE, "2304,0,2048", 0, "slide_0");
    let at128 = render(&f.map, Some(&f.shapes), EYE, "2304,0,2048", 128, "slide_128");
    assert_eq!(rgb(&at0, 160, 120), CYAN);
    assert_eq!(rgb(&at128, 160, 120), MAGENTA);
}

#[test]
fn static_ceiling_is_noise_that_changes_every_tick() {
    let f = write_files(4, 1, "plain", "Shapes.shpA");
    let a = render(&f.map, Some(&f.shapes), EYE, "2048,1900,4096", 0, "static_0");
    let b = render(&f.map, Some(&f.shapes), EYE, "2048,1900,4096", 1, "static_1");
    let block: Vec<[u8; 3]> = (150..170)
        .flat_map(|x| (110..130).map(move |y| (x, y)))
        .map(|(x, y)| rgb(&a, x, y))
        .collect();
    let distinct: std::collections::HashSet<_> = block.iter().collect();
    assert!(distinct.len() >= 8, "static shows {} colours", distinct.len());
    let changed = (150..170).filter(|&x| rgb(&a, x, 120) != rgb(&b, x, 120)).count();
    assert!(changed >= 10, "only {changed} of 20 static pixels changed between ticks");
}

#[test]
fn item_billboard_uses_its_sequence_and_self_luminescent_colour() {
    let f = write_files(4, 1, "plain", "Shapes.shpA");
    // The item stands at (1024, 2048); its diamond is 32 texels at 16 units each, origin at
    // its bottom centre, so its middle is 256 units up.
    let img = render(&f.map, Some(&f.shapes), "2048,2048,256", "1024,2048,256", 0, "item");
    assert_eq!(rgb(&img, 160, 120), PURPLE);
}

#[test]
fn monster_billboard_uses_its_colour_table() {
    let f = write_files(4, 1, "plain", "Shapes.shpA");
    // Monster 9 (major fighter) at (3072, 2048): its standing sequence in colour table 1. The
    // dim floor light and the headlight 1 WU away give (0.375 + 0.125) = table 128 of 255.
    let img = render(&f.map, Some(&f.shapes), "2048,2048,256", "3072,2048,256", 0, "monster");
    assert_eq!(rgb(&img, 160, 120), [128, 64, 0]);
}

#[test]
fn every_wad_version_and_wrapper_loads_the_same_level() {
    for (version, data_version) in [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2)] {
        for wrap in ["plain", "macbinary", "applesingle"] {
            let f = write_files(version, data_version, wrap, "Shapes.shpA");
            let bytes = std::fs::read(&f.map).unwrap();
            let wad = Wad::parse("Map.sceA", &bytes).expect("writer wad parses");
            assert_eq!(wad.fork.container.name(), wrap);
            assert_eq!(wad.checksum_matches(), Some(true));
            assert_eq!(level_names(&wad), vec![LEVEL_NAME.to_string()], "v{version} {wrap}");
            let level = Level::load(&wad, 0).unwrap();
            assert_eq!(level.polygons.len(), 4);
            assert!(level.notes.is_empty(), "{:?}", level.notes);
            assert!(level.polygons.iter().all(|p| p.media == -1), "v{version}: no media");
            let list =
                support::success(&support::mapscope(["list".as_ref(), f.map.as_os_str()]), "list");
            assert_eq!(list.trim(), LEVEL_NAME);
            let img = render(
                &f.map,
                Some(&f.shapes),
                EYE,
                "4096,2048,2048",
                0,
                &format!("v{version}_{wrap}"),
            );
            assert_eq!(rgb(&img, 160, 20), RED, "v{version} {wrap}");
            assert_eq!(rgb(&img, 160, 120), GREEN, "v{version} {wrap}");
        }
    }
}

#[test]
fn marathon_1_records_render_every_side_type() {
    let f = write_files(0, 0, "plain", "Shapes.shpA");
    check_sides(&f.map, Some(&f.shapes), "v0", 96);
}

#[test]
fn marathon_1_side_lights_follow_the_polygons_not_the_stored_line_heights() {
    // The engine works each line's opening out again from its polygons when it loads a
    // Marathon 1 level, and guesses the split side's lower light from that: here the file's
    // line heights are zero (an opening of 0, which would pick the ceiling light), while the
    // polygons leave 2 WU open, so the lower panel takes the floor light.
    let mut level = level(0);
    let mut r = Room::build(&rooms());
    for l in &mut r.lines {
        (l.highest_adjacent_floor, l.lowest_adjacent_ceiling) = (0, 0);
    }
    for (tag, data) in &mut level.chunks {
        if tag == b"LINS" {
            *data = lins(&r.lines);
        }
    }
    let bytes = wad(0, 0, "Writer", &[level]);
    let (_dir, map, shapes) = map_with_shapes("marathon-m1-stale-lines", "Map.scen", &bytes);
    check_sides(&map, Some(&shapes), "v0_stale_lines", 96);
}

#[test]
fn shapes_beside_the_map_are_found_and_missing_shapes_give_flat_colours() {
    let f = write_files(4, 1, "plain", "Shapes");
    let img = render(&f.map, None, EYE, "4096,2048,2048", 0, "beside");
    assert_eq!(rgb(&img, 160, 20), RED, "Shapes beside the map");
    std::fs::remove_file(&f.shapes).unwrap();
    let info = support::success(
        &support::mapscope(["info".as_ref(), "--json".as_ref(), f.map.as_os_str()]),
        "info",
    );
    assert!(info.contains("flat colours"), "{info}");
    let img = render(&f.map, None, EYE, "4096,2048,2048", 0, "flat");
    let (upper, far) = (rgb(&img, 160, 20), rgb(&img, 160, 120));
    assert_ne!(upper, far, "different textures get different flat colours");
    assert_ne!(upper, [0, 0, 0]);
}

// ---------------------------------------------------------------------------------------------
// Text: Mac Roman level names, and shots of them in folders named in any script.

/// Level names and the Mac Roman bytes the games hold them as: two of Marathon 1's own, and
/// one with more of the set's high half (™, curly quotes, Ω, em dash, Ç, å).
const MAC_ROMAN_NAMES: [(&str, &[u8]); 3] = [
    ("Shake Before Using…", b"Shake Before Using\xC9"),
    ("Ain’t Got Time Pfhor This…", b"Ain\xD5t Got Time Pfhor This\xC9"),
    ("Pfhor™ “Ωmega” — Ça påth", b"Pfhor\xAA \xD2\xBDmega\xD3 \xD1 \x82a p\x8Cth"),
];

/// A wad of the three named levels; checks the names went in as Mac Roman bytes, so the
/// reading side is tested against the encoding itself, not against the writer.
fn named_wad(version: u16, data_version: u16, names: &[&str]) -> Vec<u8> {
    let levels: Vec<_> = names.iter().map(|n| named_level(data_version, n)).collect();
    let w = wad(version, data_version, "Writer", &levels);
    for (name, bytes) in MAC_ROMAN_NAMES {
        if names.contains(&name) {
            assert!(w.windows(bytes.len()).any(|b| b == bytes), "{name:?} in Mac Roman");
        }
    }
    w
}

fn info_json(map: &Path, wanted: &str) -> serde_json::Value {
    let out = support::mapscope(["info", "--json", "--map", wanted, map.to_str().unwrap()]);
    serde_json::from_str(&support::success(&out, &format!("info --map {wanted:?}"))).unwrap()
}

#[test]
fn mac_roman_level_names_show_in_list_and_info_and_pick_the_level() {
    let dir = TempDir::new("marathon-names");
    let names = MAC_ROMAN_NAMES.map(|(n, _)| n);
    // Marathon 1 (NAME chunk) and Infinity (Minf, directory application data).
    for (version, data_version) in [(0, 0), (4, 2)] {
        let map = dir.join(&format!("Map{version}.sceA"));
        std::fs::write(&map, named_wad(version, data_version, &names)).unwrap();
        let list = support::success(&support::mapscope(["list".as_ref(), map.as_os_str()]), "list");
        assert_eq!(list.lines().collect::<Vec<_>>(), names, "v{version} list");
        for (i, name) in names.iter().enumerate() {
            for wanted in
                [name.to_string(), name.to_uppercase(), format!(" {name} "), i.to_string()]
            {
                let info = info_json(&map, &wanted);
                assert_eq!(info["map"], *name, "v{version} --map {wanted:?}");
                assert_eq!(info["maps"], serde_json::json!(names), "v{version}");
            }
        }
        let out = support::mapscope(["info".as_ref(), map.as_os_str()]);
        let info = support::success(&out, "info");
        assert!(info.contains(&format!("map: {}", names[0])), "{info}");
    }
}

#[test]
fn a_level_name_two_levels_share_asks_for_the_index() {
    let dir = TempDir::new("marathon-names-twice");
    let map = dir.join("Map.sceA");
    let names = ["Shake Before Using…", "Arrival", "SHAKE BEFORE USING…"];
    std::fs::write(&map, named_wad(4, 2, &names)).unwrap();
    let out = support::mapscope(["info", "--map", "shake before using…", map.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2 levels are named") && err.contains("numbers 0, 2"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(info_json(&map, "2")["map"], names[2]);
    assert_eq!(info_json(&map, "arrival")["map"], names[1]);
}

/// Cyrillic, Greek, Japanese and emoji in the folder, file and shot names: none of it fits
/// PNG's Latin-1 tEXt chunks.
#[test]
fn shots_of_mac_roman_levels_in_folders_of_any_script_reopen_their_view() {
    let dir = TempDir::new("marathon-shot-text");
    let folder = dir.join("карты Ωμέγα 地図 🎮");
    std::fs::create_dir_all(&folder).unwrap();
    let map = folder.join("Карта™ マップ.sceA");
    let names = MAC_ROMAN_NAMES.map(|(n, _)| n);
    std::fs::write(&map, named_wad(4, 2, &names)).unwrap();
    std::fs::write(folder.join("Shapes"), shapes_file()).unwrap();
    for (i, name) in names.into_iter().enumerate() {
        let shot = folder.join(format!("снимок {i} 📸.png"));
        let args = [
            "render",
            map.to_str().unwrap(),
            "--map",
            &name.to_lowercase(),
            "--camera",
            EYE,
            "--look-at",
            "4096,2048,2048",
            "--size",
            "160x120",
            "-o",
            shot.to_str().unwrap(),
        ];
        support::success(&support::mapscope(args), &format!("render --map {name:?}"));
        let meta = ShotMeta::read(&shot).unwrap();
        assert_eq!(meta.map, name);
        assert_eq!(meta.file, map.to_str().unwrap());
        let img = image::open(&shot).unwrap().to_rgba8();
        assert_eq!(rgb(&img, 80, 10), RED, "{name}: the room, lit by its Shapes");

        let again = folder.join(format!("снова {i}.png"));
        let args = ["render", "--from-shot", shot.to_str().unwrap(), "-o", again.to_str().unwrap()];
        support::success(&support::mapscope(args), &format!("render --from-shot ({name:?})"));
        let reopened = ShotMeta::read(&again).unwrap();
        assert_eq!((&reopened.map, &reopened.file), (&meta.map, &meta.file));
        for (a, b) in reopened.pose.position.iter().zip(meta.pose.position) {
            assert!(
                (a - b).abs() < 1e-6,
                "{:?} vs {:?}",
                reopened.pose.position,
                meta.pose.position
            );
        }
        assert!((reopened.pose.angle - meta.pose.angle).abs() < 1e-6);
        assert_eq!(image::open(&again).unwrap().to_rgba8(), img, "{name}: the same view");
    }
}

// ---------------------------------------------------------------------------------------------
// Marathon 1 levels that rendered black from their start (issue 18, item 3). The level copies
// what Marathon 1's "Bigger Guns Nearby" holds at its start: a 0.5 WU start polygon whose floor
// light is a constant 1.0 and whose ceiling light is a constant 0.0, the level's ten Marathon 1
// light records (minimum > maximum in some), and side records whose light indices, ambient
// delta and transparent texture are all zero bytes, as Marathon 1 files hold them.

/// The ten Marathon 1 light records of "Bigger Guns Nearby" as (type, mode, minimum, maximum).
const BIGGER_GUNS_LIGHTS: [(u16, u16, f64, f64); 10] = [
    (0, 1, 1.0, 1.0),
    (0, 1, 0.83, 0.81),
    (0, 1, 0.45, 0.45),
    (6, 1, 0.54, 1.0),
    (0, 1, 0.0, 0.0),
    (0, 1, 0.12, 0.11),
    (6, 1, 0.0, 1.0),
    (2, 1, 0.49, 1.0),
    (1, 3, 0.0, 1.0),
    (6, 1, 0.52, 1.0),
];

/// Start polygon (0..512 square, floor 0, ceiling 1024, floor light 0, ceiling light 4) with a
/// step up (low side) west into a 4 WU corridor (floor 256, floor light 1, ceiling light 7)
/// that ends in a white wall; every side record carries zero bytes where Marathon 2 keeps
/// light indices, ambient delta and the transparent texture, except that the far wall's
/// ambient delta holds `far_wall_delta`. The player starts in the middle looking west.
fn bigger_guns_start(far_wall_delta: i32) -> Vec<u8> {
    let zero = SideTexture { x0: 0, y0: 0, texture: 0 };
    let wall = |t| {
        let mut s = SideSpec::full(t, 0);
        s.transparent = zero;
        Some(s)
    };
    let mut step = SideSpec::full(tex::GREY, 0);
    step.kind = 2;
    step.transparent = zero;
    let mut start = room(
        square(0, 0, 512, 512),
        0,
        1024,
        vec![wall(tex::RED), wall(tex::RED), wall(tex::RED), Some(step)],
    );
    start.floor_light = 0;
    start.ceiling_light = 4;
    let mut corridor = room(
        square(-4096, 0, 0, 512),
        256,
        1024,
        vec![wall(tex::GREEN), None, wall(tex::GREEN), wall(tex::WHITE)],
    );
    corridor.floor_light = 1;
    corridor.ceiling_light = 7;
    let mut r = Room::build(&[start, corridor]);
    let far = r.sides.iter().position(|s| s.primary.texture == tex::WHITE).unwrap();
    r.sides[far].ambient_delta = far_wall_delta;
    let mut polygons = r.polygons.clone();
    for poly in &mut polygons {
        poly.media = 0;
        poly.media_light = 0;
    }
    let fixed = |v: f64| (v * FIXED_ONE as f64).round() as i32;
    let lights: Vec<OldLight> = BIGGER_GUNS_LIGHTS
        .iter()
        .map(|&(kind, mode, min, max)| OldLight {
            flags: 0,
            kind,
            mode,
            phase: 0,
            minimum_intensity: fixed(min),
            maximum_intensity: fixed(max),
            period: 30,
        })
        .collect();
    let player =
        MapObject { kind: 3, index: 0, facing: 256, polygon: 0, x: 256, y: 256, z: 0, flags: 0 };
    let mut name = mac_roman::encode("Bigger Guns Nearby");
    name.resize(64, 0);
    let chunks = vec![
        (*b"EPNT", epnt(&r.endpoints)),
        (*b"LINS", lins(&r.lines)),
        (*b"SIDS", sids(&r.sides)),
        (*b"POLY", poly(&polygons)),
        (*b"NAME", name),
        (*b"LITE", old_lite(&lights)),
        (*b"OBJS", objs(&[player])),
    ];
    wad(0, 0, "Map", &[LevelChunks { name: "Bigger Guns Nearby".into(), chunks }])
}

/// Renders `map` from its spawn (no camera given), 320x240.
fn render_from_start(
    map: &Path,
    shapes: Option<&Path>,
    mode: &str,
    name: &str,
) -> image::RgbaImage {
    let out_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/marathon-probes");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = out_dir.join(format!("writer_{name}.png"));
    let mut args: Vec<String> = vec!["render".into(), map.display().to_string()];
    if let Some(s) = shapes {
        args.extend(["--shapes".into(), s.display().to_string()]);
    }
    args.extend(["--size", "320x240", "--mode", mode, "-o"].map(String::from));
    args.push(out.display().to_string());
    support::success(&support::mapscope(&args), &format!("render {name}"));
    image::open(&out).unwrap().to_rgba8()
}

#[test]
fn marathon_1_start_is_not_hidden_behind_zeroed_transparent_textures() {
    // Marathon 1 has no transparent side textures: the engine sets them to none on load. Read
    // as stored, texture 0x0000 puts a panel across every opening, lit here by the start
    // polygon's ceiling light (0.0): the whole view was black.
    let dir = TempDir::new("marathon-m1-start");
    let map = dir.join("Map.scen");
    std::fs::write(&map, bigger_guns_start(0)).unwrap();
    let shapes = dir.join("Shapes.shpA");
    std::fs::write(&shapes, shapes_file()).unwrap();
    for mode in ["faithful", "smooth"] {
        let img = render_from_start(&map, Some(&shapes), mode, &format!("m1_start_{mode}"));
        // The far wall, 4 WU down the corridor, in its ceiling light (fluorescent, 1.0).
        assert_eq!(rgb(&img, 160, 120), WHITE, "{mode}: far wall through the opening");
        let lit = img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
        assert!(lit > 320 * 240 / 2, "{mode}: only {lit} pixels are not black");
    }
    // Without a Shapes file (flat colours), as the level was first tried.
    let flat = dir.join("flat");
    std::fs::create_dir_all(&flat).unwrap();
    let lone = flat.join("Map.scen");
    std::fs::copy(&map, &lone).unwrap();
    let img = render_from_start(&lone, None, "faithful", "m1_start_flat");
    assert_ne!(rgb(&img, 160, 120), [0, 0, 0], "flat colours: far wall through the opening");
    // The corridor's floor (light 1: minimum 0.83 > maximum 0.81, so 0.81 when on) below it.
    let floor = rgb(&img, 160, 200);
    assert!(floor.iter().any(|&c| c > 40), "flat colours: corridor floor {floor:?}");
}

#[test]
fn marathon_1_side_ambient_delta_is_ignored() {
    // Marathon 1 sides have no ambient delta either (the engine zeroes it): a stray -1.0 there
    // must not darken the white far wall lit at 1.0.
    let bytes = bigger_guns_start(-FIXED_ONE);
    let (_dir, map, shapes) = map_with_shapes("marathon-m1-delta", "Map.scen", &bytes);
    let img = render(&map, Some(&shapes), "-2048,256,640", "-4096,256,640", 0, "m1_delta");
    assert_eq!(rgb(&img, 160, 120), WHITE, "far wall in light 1.0, ambient delta ignored");
}

#[test]
fn marathon_1_start_lights_convert_as_the_engine_converts_them() {
    let bytes = bigger_guns_start(0);
    let wad = Wad::parse("Map.scen", &bytes).unwrap();
    let level = Level::load(&wad, 0).unwrap();
    let sim = level.light_sim();
    let at = |i: i16| sim.intensity(i) as f64 / FIXED_ONE as f64;
    // Normal lights scale their functions into [minimum, maximum]: active ends at the maximum,
    // even below the minimum.
    assert!((at(0) - 1.0).abs() < 1e-4);
    assert!((at(1) - 0.81).abs() < 1e-4, "{}", at(1));
    assert_eq!(at(4), 0.0);
    // Fluorescent on: normal defaults, active at the maximum.
    assert!((at(7) - 1.0).abs() < 1e-4);
    // Rheostat off: inactive, at the minimum.
    assert_eq!(at(8), 0.0);
    // The start polygon's sides: no transparent texture, no ambient delta; lights guessed from
    // the polygon (full sides: ceiling light; the low side: floor light).
    for (s, side) in level.sides.iter().enumerate() {
        assert_eq!(side.transparent.texture, 0xFFFF, "side {s}");
        assert_eq!(side.ambient_delta, 0, "side {s}");
    }
    let step = level.sides.iter().position(|s| s.kind == 2).unwrap();
    assert_eq!(level.side_lights[step][0], 0);
}

// ---------------------------------------------------------------------------------------------
// The headlight: a level that starts in the dark.

/// A 2 WU room whose east side opens onto a corridor ending in a white wall 11 WU from the
/// player; every surface in `light`. The player starts in the middle of the room looking east.
fn corridor_start(light: StaticLight) -> Vec<u8> {
    let wall = |t| Some(SideSpec::full(t, 0));
    let start = room(
        square(0, 0, 2048, 2048),
        0,
        1024,
        vec![wall(tex::RED), None, wall(tex::RED), wall(tex::RED)],
    );
    let corridor = room(
        square(2048, 0, 12288, 2048),
        0,
        1024,
        vec![wall(tex::GREEN), wall(tex::WHITE), wall(tex::GREEN), None],
    );
    let r = Room::build(&[start, corridor]);
    let player =
        MapObject { kind: 3, index: 0, facing: 0, polygon: 0, x: 1024, y: 1024, z: 0, flags: 0 };
    let chunks = vec![
        (*b"PNTS", pnts(&r.endpoints)),
        (*b"LINS", lins(&r.lines)),
        (*b"SIDS", sids(&r.sides)),
        (*b"POLY", poly(&r.polygons)),
        (*b"LITE", lite(&[light])),
        (*b"OBJS", objs(&[player])),
        (*b"Minf", minf("Lights Out", 0)),
    ];
    wad(4, 1, "Map", &[LevelChunks { name: "Lights Out".into(), chunks }])
}

#[test]
fn a_level_that_starts_in_the_dark_shows_what_the_headlight_reaches() {
    // The engine lights every surface with the brighter of its light and the viewer's
    // headlight (0.5 at the eye, gone at 4 WU) plus half the other, in the software renderer's
    // shading tables and in Aleph One's OpenGL shaders alike. Smooth frames and flat colours
    // used the surface light alone, so a level starting in the dark rendered pure black.
    let bytes = corridor_start(constant_light(0.0));
    let (dir, map, shapes) = map_with_shapes("marathon-dark-start", "Map.sceA", &bytes);
    let flat = dir.join("flat");
    std::fs::create_dir_all(&flat).unwrap();
    let lone = flat.join("Map.sceA");
    std::fs::copy(&map, &lone).unwrap();
    let faithful = render_from_start(&map, Some(&shapes), "faithful", "dark_faithful");
    let smooth = render_from_start(&map, Some(&shapes), "smooth", "dark_smooth");
    let flat = render_from_start(&lone, None, "faithful", "dark_flat");
    // The floor 0.8 WU below the eye, about 1 WU ahead: headlight 0.5 - 1.3/8 = 0.34.
    let near = rgb(&faithful, 160, 230);
    assert!(near[0] > 60, "faithful: the floor near the player {near:?}");
    for (img, mode) in [(&smooth, "smooth"), (&flat, "flat colours")] {
        // Without a Shapes file the floor has a flat colour of its own, lit alike.
        let here = rgb(img, 160, 230);
        assert!(here.iter().any(|&c| c > 40), "{mode}: the floor near the player {here:?}");
        // Same light as the shading tables (which round to 1/256 steps and 5-bit colours).
        if mode == "smooth" {
            for c in 0..3 {
                assert!(here[c].abs_diff(near[c]) <= 6, "smooth {here:?} against {near:?}");
            }
        }
        // The far wall, 11 WU away, is beyond the headlight's reach.
        assert_eq!(rgb(img, 160, 120), [0, 0, 0], "{mode}: far wall");
        let lit = img.pixels().filter(|p| p.0[..3] != [0, 0, 0]).count();
        assert!(lit > 320 * 240 / 4, "{mode}: only {lit} pixels are not black");
    }
}

#[test]
fn a_light_state_of_period_zero_is_skipped() {
    // The engine skips a lighting function whose period is 0 (lightsource.cpp, "functions with
    // zero periods are skipped"): this light's primary state (intensity 0) never shows, and the
    // level is lit by its secondary state (1.0) from the start. Stretched to one tick, the
    // primary state made tick 0 black and flickered every second.
    let mut light = constant_light(1.0);
    light.functions[0].period = 0;
    light.functions[0].intensity = 0;
    let bytes = corridor_start(light);
    let (_dir, map, shapes) = map_with_shapes("marathon-zero-period", "Map.sceA", &bytes);
    let img = render_from_start(&map, Some(&shapes), "faithful", "zero_period");
    assert_eq!(rgb(&img, 160, 120), WHITE, "far wall in the secondary state's light");
    let wad = Wad::parse("Map.sceA", &bytes).unwrap();
    let mut sim = Level::load(&wad, 0).unwrap().light_sim();
    for tick in 0..100 {
        assert_eq!(sim.intensity(0), FIXED_ONE, "tick {tick}");
        sim.step();
    }
}

// ---------------------------------------------------------------------------------------------
// Platforms at level start.

/// The start room, a 0.5 WU platform polygon east of it (stored open: floor 0, ceiling 1024)
/// and the corridor to the white wall beyond; the start room's side onto the platform is a
/// split side, red above and blue below. `records` are the level's platform chunk (`plat`,
/// or the running records `PLAT` that Marathon 1 levels keep), if any.
fn platform_start(records: Option<([u8; 4], Vec<u8>)>) -> Vec<u8> {
    let wall = |t| Some(SideSpec::full(t, 0));
    let mut face = SideSpec::full(tex::RED, 0);
    face.kind = 4;
    face.secondary = SideTexture { x0: 0, y0: 0, texture: tex::BLUE };
    let start = room(
        square(0, 0, 2048, 2048),
        0,
        1024,
        vec![wall(tex::GREY), Some(face), wall(tex::GREY), wall(tex::GREY)],
    );
    let mut door = room(
        square(2048, 0, 2560, 2048),
        0,
        1024,
        vec![wall(tex::GREY), None, wall(tex::GREY), None],
    );
    door.kind = 5;
    let corridor = room(
        square(2560, 0, 12288, 2048),
        0,
        1024,
        vec![wall(tex::GREEN), wall(tex::WHITE), wall(tex::GREEN), None],
    );
    let r = Room::build(&[start, door, corridor]);
    let player =
        MapObject { kind: 3, index: 0, facing: 0, polygon: 0, x: 1024, y: 1024, z: 0, flags: 0 };
    let mut chunks = vec![
        (*b"PNTS", pnts(&r.endpoints)),
        (*b"LINS", lins(&r.lines)),
        (*b"SIDS", sids(&r.sides)),
        (*b"POLY", poly(&r.polygons)),
        (*b"LITE", lite(&[constant_light(1.0)])),
        (*b"OBJS", objs(&[player])),
        (*b"Minf", minf("Doors", 0)),
    ];
    chunks.extend(records);
    wad(4, 1, "Map", &[LevelChunks { name: "Doors".into(), chunks }])
}

/// Renders [`platform_start`] from its spawn; returns the pixel at eye height on the door's
/// line and one below it, with the door polygon's floor and ceiling.
fn door_view(records: Option<([u8; 4], Vec<u8>)>, name: &str) -> ([u8; 3], [u8; 3], (i16, i16)) {
    let bytes = platform_start(records);
    let (_dir, map, shapes) = map_with_shapes("marathon-platform-start", "Map.sceA", &bytes);
    let img = render_from_start(&map, Some(&shapes), "faithful", name);
    let level = Level::load(&Wad::parse("Map.sceA", &bytes).unwrap(), 0).unwrap();
    (rgb(&img, 160, 120), rgb(&img, 160, 200), (level.floor[1], level.ceiling[1]))
}

#[test]
fn platforms_start_where_the_engine_puts_them() {
    use mapscope::formats::marathon::map::{platform_flags as f, Platform, NONE};
    let record = |flags: u32| Platform {
        kind: 0,
        speed: 30,
        delay: 30,
        maximum_height: NONE,
        minimum_height: NONE,
        static_flags: flags,
        polygon: 1,
        tag: 0,
    };
    // A door from the ceiling, initially closed, with no stored extremes: it closes onto its
    // floor (its neighbours' lowest ceiling, its own floor counted as it reaches the
    // ceiling). The heights were kept as stored, so the door stood open.
    let door = record(f::COMES_FROM_CEILING | f::INITIALLY_EXTENDED | f::EXTENDS_FLOOR_TO_CEILING);
    let (eye, low, heights) = door_view(Some((*b"plat", plat(&[door]))), "door_closed");
    assert_eq!(heights, (0, 0));
    assert_eq!((eye, low), (RED, RED), "the closed door fills the opening");
    // Open (contracted): its ceiling at the highest around it.
    let (eye, _, heights) = door_view(
        Some((*b"plat", plat(&[record(f::COMES_FROM_CEILING | f::EXTENDS_FLOOR_TO_CEILING)]))),
        "door_open",
    );
    assert_eq!(heights, (0, 1024));
    assert_eq!(eye, WHITE, "through the open door");
    // A platform polygon without a record is the engine's split door, closed: both halves
    // meet half way between the lowest floor and the highest ceiling around.
    let (eye, low, heights) = door_view(None, "split_door");
    assert_eq!(heights, (512, 512));
    assert_eq!((eye, low), (RED, BLUE), "the split door's halves");
    // A record on a polygon that is not a platform is ignored.
    let mut elsewhere = door;
    elsewhere.polygon = 2;
    let (_, _, heights) =
        door_view(Some((*b"plat", plat(&[door, elsewhere]))), "door_record_elsewhere");
    assert_eq!(heights, (0, 0));
    // Levels that keep the running records (PLAT) are restored as stored.
    let (eye, _, heights) = door_view(Some((*b"PLAT", vec![0; 140])), "running_records");
    assert_eq!(heights, (0, 1024));
    assert_eq!(eye, WHITE);
}
