//! ZDoom 3D floors (`Sector_Set3dFloor`, 160) in a small room over Freedoom, written in
//! Hexen format and in UDMF: a 64 x 64 sector in the middle of the room is tagged by a control
//! line whose control sector (far away) spans heights 16..32, so a red slab floats there with
//! a striped underside and red sides. The scene holds its faces at the control heights
//! inside the tagged sector only; renders in every mode show it solid, and blended over what
//! is behind it when its alpha is below 255.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{MapData, MapFormat, Sector, Vertex};
use mapscope::scene::{doom::shade, vertex_flags, Scene, SurfaceKind, WorldVertex};
use support::doom_test_room::{
    add_checker_and_solid_walls, add_line, hexen_player_start, renders_three_ways,
    scene_over_freedoom2, A, B, R, THREE_WAYS,
};

/// The control sector's floor and ceiling: the slab's bottom and top.
const BOTTOM: i32 = 16;
const TOP: i32 = 32;
/// The tagged sector: x 96..160, y 128..192.
const INNER: [i32; 4] = [96, 128, 160, 192];

fn vertices() -> Vec<Vertex> {
    let [x0, y0, x1, y1] = INNER;
    [
        (0, 0),
        (256, 0),
        (256, 256),
        (0, 256),
        (1000, 1000),
        (1064, 1000),
        (1064, 1064),
        (1000, 1064),
        (x0, y0),
        (x1, y0),
        (x1, y1),
        (x0, y1),
    ]
    .iter()
    .map(|&(x, y)| Vertex::units(x, y))
    .collect()
}

/// Lines (v1, v2, front sector, back sector): the room and the control room clockwise (fronts
/// face in), the tagged square counter-clockwise (fronts face the room).
const LINES: [(u32, u32, u32, Option<u32>); 12] = [
    (1, 0, 0, None),
    (0, 3, 0, None),
    (3, 2, 0, None),
    (2, 1, 0, None),
    (5, 4, 2, None),
    (4, 7, 2, None),
    (7, 6, 2, None),
    (6, 5, 2, None),
    (8, 9, 0, Some(1)),
    (9, 10, 0, Some(1)),
    (10, 11, 0, Some(1)),
    (11, 8, 0, Some(1)),
];
/// The control line (in the control room).
const CONTROL: usize = 4;
const TAG: i32 = 5;

/// (floor, ceiling, floor flat, ceiling flat, tag) of the room, the tagged sector and the
/// control sector (`sunk`: under the floor, where the slab is out of sight).
fn sectors(sunk: bool) -> [(i32, i32, &'static str, &'static str, i32); 3] {
    let control = if sunk { (-TOP, -BOTTOM) } else { (BOTTOM, TOP) };
    [
        (0, 128, "FLOOR0_1", "CEIL1_1", 0),
        (0, 128, "FLOOR0_1", "CEIL1_1", TAG),
        (control.0, control.1, "STRIPES", "REDFLAT", 0),
    ]
}

/// How the map is written, with the control line's args (none: no 3D floor).
#[derive(Clone, Copy)]
enum Format {
    Hexen(Option<[i32; 5]>),
    Udmf(Option<[i32; 5]>),
    /// Hexen, the solid slab sunk under the floor: no slab in sight, but the frames are
    /// drawn as those of maps with 3D floors are.
    Sunk,
    /// UDMF, a solid slab, with these keys on the sidedefs its sides are drawn from.
    UdmfDrawn(&'static str),
}

fn side_texture(i: usize, back: bool) -> &'static str {
    match (i, back) {
        (_, true) => "-",
        (CONTROL, _) => "SOLIDW",
        (8.., _) => "-",
        _ => "CHECKW",
    }
}

fn hexen_map(args: Option<[i32; 5]>, sunk: bool) -> MapData {
    let mut map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Hexen,
        things: vec![hexen_player_start()],
        vertices: vertices(),
        ..Default::default()
    };
    for (i, &(v1, v2, front, back)) in LINES.iter().enumerate() {
        let special = match (i, args) {
            (CONTROL, Some(a)) => (160, a),
            _ => (0, [0; 5]),
        };
        let front = (front, side_texture(i, false));
        let back = back.map(|b| (b, side_texture(i, true)));
        add_line(&mut map, (v1, v2), front, back, special);
    }
    let sectors = sectors(sunk)
        .iter()
        .map(|&(floor, ceiling, f, c, tag)| Sector {
            floor: floor as i16,
            ceiling: ceiling as i16,
            floor_flat: f.into(),
            ceiling_flat: c.into(),
            light: 255,
            tag: tag as u16,
            ..Default::default()
        })
        .collect();
    MapData { sectors, ..map }
}

/// The map in UDMF; `drawn` holds keys for the sidedefs facing the room on the tagged
/// square's lines (those the slab's sides are drawn from).
fn textmap(args: Option<[i32; 5]>, drawn: &str) -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for v in vertices() {
        t += &format!("vertex {{ x = {}.0; y = {}.0; }}\n", v.x >> 16, v.y >> 16);
    }
    let mut sides = String::new();
    let mut n = 0;
    for (i, &(v1, v2, front, back)) in LINES.iter().enumerate() {
        let middle = side_texture(i, false);
        let keys = if i >= 8 { drawn } else { "" };
        sides += &format!("sidedef {{ sector = {front}; texturemiddle = \"{middle}\"; {keys} }}\n");
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {n}; ");
        n += 1;
        if let Some(b) = back {
            sides += &format!("sidedef {{ sector = {b}; }}\n");
            t += &format!("sideback = {n}; twosided = true; ");
            n += 1;
        } else {
            t += "blocking = true; ";
        }
        if let (CONTROL, Some(a)) = (i, args) {
            t += &format!(
                "special = 160; arg0 = {}; arg1 = {}; arg2 = {}; arg3 = {}; arg4 = {}; ",
                a[0], a[1], a[2], a[3], a[4]
            );
        }
        t += "}\n";
    }
    t += &sides;
    for (floor, ceiling, f, c, tag) in sectors(false) {
        t += &format!(
            "sector {{ heightfloor = {floor}; heightceiling = {ceiling}; texturefloor = \"{f}\"; \
             textureceiling = \"{c}\"; lightlevel = 255; id = {tag}; }}\n"
        );
    }
    t += "thing { x = 128.0; y = 32.0; angle = 90; type = 1; skill1 = true; skill2 = true; \
          skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    t
}

fn pwad(format: Format) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    match format {
        Format::Hexen(args) => {
            w.map("MAP01", &hexen_map(args, false));
        }
        Format::Sunk => {
            w.map("MAP01", &hexen_map(Some(SOLID), true));
        }
        Format::Udmf(args) => {
            w.lump("MAP01", Vec::new());
            w.lump("TEXTMAP", textmap(args, "").into_bytes());
            w.lump("ENDMAP", Vec::new());
        }
        Format::UdmfDrawn(drawn) => {
            w.lump("MAP01", Vec::new());
            w.lump("TEXTMAP", textmap(Some(SOLID), drawn).into_bytes());
            w.lump("ENDMAP", Vec::new());
        }
    }
    add_checker_and_solid_walls(&mut w);
    w.marker("FF_START");
    w.lump("STRIPES", (0..4096).map(|i| if i % 64 < 32 { A } else { B }).collect());
    w.lump("REDFLAT", vec![R; 4096]);
    w.marker("FF_END");
    w.to_bytes()
}

fn scene(format: Format) -> Scene {
    scene_over_freedoom2("floors3d.wad", pwad(format), "MAP01")
}

/// Solid (type 1), opaque.
const SOLID: [i32; 5] = [TAG, 1, 0, 255, 0];

fn kind(v: &WorldVertex) -> u32 {
    v.flags & vertex_flags::KIND_MASK
}

/// The triangles in the room (not the control room), of kind `k`, whose corners all lie at
/// map height `z`, with their area and whether they face up.
fn flats_at(scene: &Scene, z: f32) -> Vec<(&[WorldVertex], f32, bool)> {
    scene
        .world
        .chunks_exact(3)
        .filter(|t| t.iter().all(|v| v.pos[0] < 500.0 && v.pos[1] == z))
        .filter(|t| kind(&t[0]) == SurfaceKind::Flat as u32)
        .map(|t| {
            let p: Vec<glam::Vec3> = t.iter().map(|v| glam::Vec3::from(v.pos)).collect();
            let n = (p[1] - p[0]).cross(p[2] - p[0]);
            (t, n.length() / 2.0, n.y > 0.0)
        })
        .collect()
}

/// Whether every corner lies in the tagged sector (map x, y).
fn in_inner(t: &[WorldVertex]) -> bool {
    let [x0, y0, x1, y1] = INNER.map(|c| c as f32);
    t.iter().all(|v| (x0..=x1).contains(&v.pos[0]) && (y0..=y1).contains(&-v.pos[2]))
}

/// The room's wall triangles spanning map heights BOTTOM..TOP.
fn slab_sides(scene: &Scene) -> Vec<&[WorldVertex]> {
    scene
        .world
        .chunks_exact(3)
        .filter(|t| kind(&t[0]) == SurfaceKind::Wall as u32 && t.iter().all(|v| v.pos[0] < 500.0))
        .filter(|t| {
            let ys: Vec<f32> = t.iter().map(|v| v.pos[1]).collect();
            ys.iter().all(|&y| y == BOTTOM as f32 || y == TOP as f32)
                && ys.contains(&(BOTTOM as f32))
                && ys.contains(&(TOP as f32))
        })
        .collect()
}

#[test]
fn slab_faces_lie_at_the_control_heights_inside_the_tagged_sector() {
    let area = 64.0 * 64.0;
    for format in [Format::Hexen(Some(SOLID)), Format::Udmf(Some(SOLID))] {
        let s = scene(format);
        let (top, bottom) = (flats_at(&s, TOP as f32), flats_at(&s, BOTTOM as f32));
        for (faces, up) in [(&top, true), (&bottom, false)] {
            assert!(!faces.is_empty());
            assert!(faces.iter().all(|(t, _, u)| in_inner(t) && *u == up));
            let sum: f32 = faces.iter().map(|f| f.1).sum();
            assert!((sum - area).abs() < 0.5, "{sum}");
        }
        // The top is the control ceiling's flat, the bottom its floor's; the top takes the
        // tagged sector's light, the bottom the control sector's.
        let name = |t: &[WorldVertex]| s.textures[t[0].texture as usize].name.clone();
        assert!(top.iter().all(|(t, _, _)| name(t) == "REDFLAT"));
        assert!(bottom.iter().all(|(t, _, _)| name(t) == "STRIPES"));
        assert!(top.iter().all(|(t, _, _)| t[0].light == 1));
        assert!(bottom.iter().all(|(t, _, _)| t[0].light != 1));
        // Four sides facing the room, drawn with the control line's middle texture.
        let sides = slab_sides(&s);
        assert_eq!(sides.len(), 8);
        assert!(sides.iter().all(|t| name(t) == "SOLIDW"));
        // Opaque: nothing translucent.
        assert!(s.world.iter().all(|v| v.flags & vertex_flags::TRANSLUCENT == 0));
        let notes = &s.facts.notes;
        assert!(notes.iter().any(|n| n.contains("1 3D floors (Sector_Set3dFloor) in 1 sectors")));
    }
    // Without the special nothing is there.
    let s = scene(Format::Hexen(None));
    assert!(flats_at(&s, TOP as f32).is_empty() && slab_sides(&s).is_empty());
    // Swimmable (type 2): both planes from both sides and the sides from inside too,
    // translucent at alpha 128.
    let s = scene(Format::Hexen(Some([TAG, 2, 0, 128, 0])));
    assert_eq!(flats_at(&s, TOP as f32).iter().filter(|f| !f.2).count() * 2, {
        flats_at(&s, TOP as f32).len()
    });
    assert_eq!(slab_sides(&s).len(), 16);
    let translucent = s.world.iter().filter(|v| v.flags & vertex_flags::TRANSLUCENT != 0);
    assert!(translucent.clone().count() > 0);
    assert!(translucent.clone().all(|v| v.shade == shade::line_style(128, false)));
    // A thin floor is one plane at the control ceiling, with no sides.
    let s = scene(Format::Hexen(Some([TAG, 1, 8, 255, 0])));
    assert!(flats_at(&s, BOTTOM as f32).is_empty() && slab_sides(&s).is_empty());
    assert_eq!(flats_at(&s, TOP as f32).iter().filter(|f| f.2).count() * 2, {
        flats_at(&s, TOP as f32).len()
    });
}

fn renders(format: Format, name: &str) -> Vec<RgbaImage> {
    renders_three_ways(&mut scene(format), "floors_3d", name)
}

fn reddish(p: &image::Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0.map(|c| c as i32);
    r > 60 && r > g + 40 && r > b + 40
}

/// The pixels that differ between two renders.
fn changed(a: &RgbaImage, b: &RgbaImage) -> Vec<(u32, u32)> {
    a.enumerate_pixels()
        .filter(|(x, y, p)| b.get_pixel(*x, *y) != *p)
        .map(|(x, y, _)| (x, y))
        .collect()
}

#[test]
fn renders_show_the_slab_solid_and_translucent() {
    // What lies behind the slab, drawn as frames with 3D floors are (on the GPU).
    let empty = renders(Format::Sunk, "empty");
    // Without any 3D floor the first view is the canvas's.
    let plain = renders(Format::Hexen(None), "plain");
    assert_ne!(plain[0], empty[0]);
    assert_eq!(plain[1..], empty[1..]);
    let solid = renders(Format::Hexen(Some(SOLID)), "solid");
    // UDMF gives the same frames.
    assert_eq!(renders(Format::Udmf(Some(SOLID)), "udmf-solid"), solid);
    let half = renders(Format::Hexen(Some([TAG, 1, 0, 128, 0])), "half");
    for (i, (view, _, _)) in THREE_WAYS.iter().enumerate() {
        assert_eq!(empty[i].pixels().filter(|p| reddish(p)).count(), 0, "{view}: red without");
        let slab = changed(&solid[i], &empty[i]);
        let red = slab.iter().filter(|&&(x, y)| reddish(solid[i].get_pixel(x, y))).count();
        assert!(slab.len() > 2000 && red * 10 > slab.len() * 8, "{view}: {} {red}", slab.len());
        // The slab lies in the middle of the screen, below the horizon.
        let (w, h) = solid[i].dimensions();
        assert!(slab.iter().all(|&(x, y)| y > h / 2 && x > w / 5 && x < w * 4 / 5), "{view}");
        // Alpha 128: each of its pixels blends the slab over what is behind it.
        let a = 128.0 / 255.0;
        let mut blended = 0;
        for &(x, y) in &slab {
            let (s, d, g) =
                (solid[i].get_pixel(x, y).0, empty[i].get_pixel(x, y).0, half[i].get_pixel(x, y).0);
            for c in 0..3 {
                let want = a * s[c] as f64 + (1.0 - a) * d[c] as f64;
                assert!(
                    (g[c] as f64 - want).abs() <= 2.5,
                    "{view} ({x}, {y}) channel {c}: {g:?} for {want} (slab {s:?}, behind {d:?})"
                );
            }
            blended += (g != s && g != d) as usize;
        }
        assert!(blended * 2 > slab.len(), "{view}: {blended} of {} blended", slab.len());
        assert!(changed(&half[i], &empty[i]).len() <= slab.len() + 50, "{view}");
    }
}

#[test]
fn slab_sides_take_the_drawn_sidedef_s_middle_offsets_as_gzdoom_does() {
    // GZDoom's BuildFFBlock: the drawn sidedef's middle offsets, UDMF's per-part ones
    // included, move the side's texture.
    let with = |drawn: &'static str| {
        let s = scene(Format::UdmfDrawn(drawn));
        let mut uv: Vec<[f32; 2]> =
            slab_sides(&s).iter().flat_map(|t| t.iter().map(|v| v.uv)).collect();
        uv.sort_by(|a, b| a.partial_cmp(b).unwrap());
        uv
    };
    let (plain, moved) = (with(""), with("offsetx = 2; offsetx_mid = 3; offsety_mid = 8;"));
    assert_eq!(plain.len(), moved.len());
    assert!(!plain.is_empty());
    for (p, m) in plain.iter().zip(&moved) {
        assert_eq!([m[0] - p[0], m[1] - p[1]], [5.0, 8.0], "{p:?} -> {m:?}");
    }
}
