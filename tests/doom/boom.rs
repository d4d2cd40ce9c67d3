//! Boom's light transfer and scrollers in a small vanilla-format room over Freedoom, rendered
//! in faithful mode (the CPU walk's canvas), faithful mode off vanilla's projection (the GPU
//! with COLORMAP tables) and smooth mode: 213 relights only the floor, from a control sector
//! whose light the floor then follows; 251/250 move only the floor's/ceiling's texels by the
//! line vector / 32 a tic; 255 and 254 move a wall's texels exactly as sidedef offsets would.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{line_flags, Linedef, MapData, Sector, Sidedef};
use mapscope::render::{render_headless, Gpu, RenderMode, ViewSettings};
use mapscope::scene::Scene;
use support::doom_test_room::{
    add_check_textures, player_start, room_and_control_vertices, scene_over_freedoom2, shared_gpu,
};

/// What a test puts in the room.
#[derive(Clone, Default)]
struct Setup {
    /// Specials and tags of the control room's four lines (vectors (0, 64), (64, 0),
    /// (0, -64), (-64, 0)).
    control_lines: [(u16, u16); 4],
    control_light: i16,
    control_special: u16,
    /// The room's tag (its light 160).
    room_tag: u16,
    /// The north wall's special, tag and sidedef offsets.
    north: (u16, u16, i16, i16),
}

/// A room 256 x 256 (sector 0: floor 0, ceiling 128, light 160) with 8-texel checker walls
/// and 32-texel north-south stripes on floor and ceiling, the player at (128, 32) facing
/// north; and a closed 64 x 64 control room (sector 1) far away.
fn map(s: &Setup) -> MapData {
    let vertices = room_and_control_vertices();
    let side = |sector: u32, x: i16, y: i16| Sidedef {
        x_offset: x,
        y_offset: y,
        upper: "-".into(),
        lower: "-".into(),
        middle: "CHECKW".into(),
        sector,
    };
    let line = |v1: u32, v2: u32, side: u32, (special, tag): (u16, u16)| Linedef {
        v1,
        v2,
        flags: line_flags::IMPASSABLE,
        special,
        tag,
        sides: [Some(side), None],
        ..Default::default()
    };
    let (ns, nt, nx, ny) = s.north;
    // Clockwise, so each line's front (right) side faces into its room.
    let linedefs = vec![
        line(0, 3, 0, (0, 0)),
        line(3, 2, 1, (ns, nt)),
        line(2, 1, 2, (0, 0)),
        line(1, 0, 3, (0, 0)),
        line(4, 7, 4, s.control_lines[0]),
        line(7, 6, 5, s.control_lines[1]),
        line(6, 5, 6, s.control_lines[2]),
        line(5, 4, 7, s.control_lines[3]),
    ];
    let mut sidedefs = vec![side(0, 0, 0), side(0, nx, ny), side(0, 0, 0), side(0, 0, 0)];
    sidedefs.extend((0..4).map(|_| side(1, 0, 0)));
    let sector = |light: i16, special: u16, tag: u16| Sector {
        floor: 0,
        ceiling: 128,
        floor_flat: "STRIPES".into(),
        ceiling_flat: "STRIPES".into(),
        light,
        special,
        tag,
    };
    MapData {
        name: "MAP01".into(),
        file: "boom.wad".into(),
        vertices,
        linedefs,
        sidedefs,
        sectors: vec![
            sector(160, 0, s.room_tag),
            sector(s.control_light.max(1), s.control_special, 0),
        ],
        things: vec![player_start()],
        ..Default::default()
    }
}

/// The PWAD: the map (no nodes: mapscope builds them), the wall patch and its TEXTURES entry,
/// and the flat.
fn pwad(map: &MapData) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.map("MAP01", map);
    add_check_textures(&mut w);
    w.to_bytes()
}

fn gpu() -> &'static Gpu {
    shared_gpu()
}

fn scene(s: &Setup) -> Scene {
    scene_over_freedoom2("boom.wad", pwad(&map(s)), "MAP01")
}

/// The three ways a Doom frame is drawn.
const VIEWS: [(&str, RenderMode, f64); 3] = [
    ("faithful (canvas)", RenderMode::Faithful, 90.0),
    ("faithful (GPU)", RenderMode::Faithful, 100.0),
    ("smooth", RenderMode::Smooth, 90.0),
];

/// The room at 320x200 at `tic` in each of [`VIEWS`], things hidden.
fn renders(s: &Setup, tic: u32) -> Vec<RgbaImage> {
    let mut scene = scene(s);
    let camera = scene.spawn;
    VIEWS
        .iter()
        .map(|&(_, mode, fov_deg)| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            render_headless(gpu(), &mut scene, &camera, &view, tic).unwrap()
        })
        .collect()
}

/// Screen regions (columns, rows) that show only the ceiling, the north wall or the floor in
/// every view (the wall spans rows 38..129 at 90° and 48..124 at 100°).
type Region = (std::ops::Range<u32>, std::ops::Range<u32>);
fn ceiling() -> Region {
    (70..250, 0..30)
}
fn wall() -> Region {
    (90..230, 55..120)
}
fn floor() -> Region {
    (40..280, 140..200)
}

fn pixels(r: &Region) -> impl Iterator<Item = (u32, u32)> + '_ {
    r.1.clone().flat_map(move |y| r.0.clone().map(move |x| (x, y)))
}

/// Share of the region's pixels equal in both images.
fn same_share(a: &RgbaImage, b: &RgbaImage, r: &Region) -> f64 {
    let n = pixels(r).count() as f64;
    pixels(r).filter(|&(x, y)| a.get_pixel(x, y) == b.get_pixel(x, y)).count() as f64 / n
}

/// Whether a pixel shows A (green) rather than B (blue), whatever the light.
fn is_a(img: &RgbaImage, x: u32, y: u32) -> bool {
    let [_, g, b, _] = img.get_pixel(x, y).0;
    g > b
}

/// Share of the region's pixels showing the other colour in `b` than in `a`.
fn flipped_share(a: &RgbaImage, b: &RgbaImage, r: &Region) -> f64 {
    let n = pixels(r).count() as f64;
    pixels(r).filter(|&(x, y)| is_a(a, x, y) != is_a(b, x, y)).count() as f64 / n
}

/// Summed brightness of the region.
fn brightness(img: &RgbaImage, r: &Region) -> u64 {
    pixels(r).map(|(x, y)| img.get_pixel(x, y).0[..3].iter().map(|&c| c as u64).sum::<u64>()).sum()
}

/// How equal two renders of the same look must be: the canvas is integer arithmetic (exact);
/// the GPU views add the scroll to float texel coordinates, which can round a texel edge
/// differently.
fn equal_enough(view: usize) -> f64 {
    if view == 0 {
        1.0
    } else {
        0.97
    }
}

#[test]
fn light_transfer_relights_only_the_floor() {
    let plain = Setup { control_light: 255, room_tag: 1, ..Default::default() };
    let transfer = Setup { control_lines: [(213, 1), (0, 0), (0, 0), (0, 0)], ..plain.clone() };
    let base = renders(&plain, 0);
    let lit = renders(&transfer, 0);
    for (i, (b, l)) in base.iter().zip(&lit).enumerate() {
        let what = VIEWS[i].0;
        assert_eq!(same_share(b, l, &ceiling()), 1.0, "{what}: the ceiling keeps its light");
        assert_eq!(same_share(b, l, &wall()), 1.0, "{what}: the walls keep their light");
        let (before, after) = (brightness(b, &floor()), brightness(l, &floor()));
        assert!(after > before * 11 / 10, "{what}: floor {before} -> {after}");
    }
    // The ceiling transfer (261) the same way round.
    let transfer = Setup { control_lines: [(261, 1), (0, 0), (0, 0), (0, 0)], ..plain.clone() };
    let lit = renders(&transfer, 0);
    for (i, (b, l)) in base.iter().zip(&lit).enumerate() {
        let what = VIEWS[i].0;
        assert_eq!(same_share(b, l, &floor()), 1.0, "{what}: the floor keeps its light");
        assert!(brightness(l, &ceiling()) > brightness(b, &ceiling()) * 11 / 10, "{what}");
    }
    // `info` says the light is Boom's, not vanilla's.
    let notes = scene(&transfer).facts.notes;
    assert!(notes.iter().any(|n| n.contains("1 Boom light-transfer line")), "{notes:?}");
    assert!(!scene(&plain).facts.notes.iter().any(|n| n.contains("light-transfer")));
}

#[test]
fn transferred_light_follows_the_control_sector() {
    // The control sector strobes (special 12: fast strobe, synchronised) between its own
    // light and 0 (it has no neighbours).
    let setup = Setup {
        control_lines: [(213, 1), (0, 0), (0, 0), (0, 0)],
        control_light: 255,
        control_special: 12,
        room_tag: 1,
        ..Default::default()
    };
    let mut sc = scene(&setup);
    let mut st = sc.animator.initial();
    let light_at = |sc: &mut Scene, st: &mut mapscope::scene::FrameState, tic| {
        sc.animator.state_at(tic, st);
        (st.light[0], st.light[1])
    };
    let ticks: Vec<(u32, u32, u32)> = (0..70)
        .map(|t| (t, light_at(&mut sc, &mut st, t).0, light_at(&mut sc, &mut st, t).1))
        .collect();
    let bright = ticks.iter().find(|t| t.2 == 255).expect("a bright tic").0;
    let dark = ticks.iter().find(|t| t.2 < 100).expect("a dark tic").0;
    assert!(ticks.iter().all(|t| t.1 == 160), "the room's own light never changes");
    let (b, d) = (renders(&setup, bright), renders(&setup, dark));
    for (i, (b, d)) in b.iter().zip(&d).enumerate() {
        let what = VIEWS[i].0;
        assert_eq!(same_share(b, d, &ceiling()), 1.0, "{what}: tic {bright} vs {dark}");
        assert!(
            brightness(b, &floor()) > brightness(d, &floor()) * 2,
            "{what}: the floor follows the strobe (tics {bright}, {dark})"
        );
    }
}

#[test]
fn flat_scrollers_move_their_plane_by_the_line_vector() {
    // 251 on the control room's (64, 0) line: the room's floor moves 2 texels a tic, so the
    // 32-texel stripes swap at tic 16 and are back at tic 32; the ceiling stays.
    for (special, moved, kept) in [(251, floor(), ceiling()), (250, ceiling(), floor())] {
        let setup = Setup {
            control_lines: [(0, 0), (special, 1), (0, 0), (0, 0)],
            control_light: 160,
            room_tag: 1,
            ..Default::default()
        };
        let t0 = renders(&setup, 0);
        let t16 = renders(&setup, 16);
        let t32 = renders(&setup, 32);
        for i in 0..VIEWS.len() {
            let what = format!("{special}, {}", VIEWS[i].0);
            assert!(flipped_share(&t0[i], &t16[i], &moved) > 0.9, "{what}: stripes swap");
            assert_eq!(same_share(&t0[i], &t16[i], &kept), 1.0, "{what}: the other plane");
            let back = same_share(&t0[i], &t32[i], &moved);
            assert!(back >= equal_enough(i), "{what}: one period later {back}");
        }
    }
    // 253 scrolls the floor as 251 does; 252 only carries things (nothing moves).
    let with = |special| Setup {
        control_lines: [(0, 0), (special, 1), (0, 0), (0, 0)],
        control_light: 160,
        room_tag: 1,
        ..Default::default()
    };
    let (a, b) = (renders(&with(253), 16), renders(&with(251), 16));
    assert_eq!(same_share(&a[0], &b[0], &floor()), 1.0);
    let (a, b) = (renders(&with(252), 16), renders(&with(0), 16));
    assert_eq!(a, b);
    assert!(scene(&with(252)).facts.notes.iter().any(|n| n.contains("carry things")));
}

#[test]
fn wall_scrollers_move_the_wall_as_its_offsets_would() {
    let static_offsets =
        |x, y| Setup { control_light: 160, north: (0, 0, x, y), ..Default::default() };
    // 255: the sidedef's offsets (8, 16) are also its speed, x backwards: at tic N the wall
    // shows offsets (8 - 8N, 16 + 16N).
    let by_offsets = Setup { north: (255, 0, 8, 16), ..static_offsets(0, 0) };
    // 254 on the control room's (64, 0) line scrolls the tagged north wall (vector (256, 0)
    // from (0, 256)): 2 units a tic along the line, so the texture offset falls by 2 a tic.
    let by_line = Setup {
        control_lines: [(0, 0), (254, 2), (0, 0), (0, 0)],
        north: (0, 2, 0, 0),
        ..static_offsets(0, 0)
    };
    // And on the (0, 64) line: across the wall, the row offset rises by 2 a tic.
    let across = Setup {
        control_lines: [(254, 2), (0, 0), (0, 0), (0, 0)],
        north: (0, 2, 0, 0),
        ..static_offsets(0, 0)
    };
    for (what, setup, tic, x, y) in [
        ("255", &by_offsets, 2, 8 - 16, 16 + 32),
        ("254 along", &by_line, 4, -8, 0),
        ("254 across", &across, 4, 0, 8),
    ] {
        let scrolled = renders(setup, tic);
        let expected = renders(&static_offsets(x, y), 0);
        let unscrolled = renders(&static_offsets(0, 0), 0);
        for i in 0..VIEWS.len() {
            let view = VIEWS[i].0;
            let same = same_share(&scrolled[i], &expected[i], &wall());
            assert!(same >= equal_enough(i), "{what}, {view}: {same}");
            let moved = flipped_share(&scrolled[i], &unscrolled[i], &wall());
            assert!(moved > 0.5, "{what}, {view}: the checker moved ({moved})");
        }
    }
}

#[test]
fn info_counts_the_scrolling_lines() {
    let setup = Setup {
        control_lines: [(254, 2), (251, 1), (48, 0), (0, 0)],
        north: (255, 2, 8, 0),
        control_light: 160,
        ..Default::default()
    };
    let sc = scene(&setup);
    let count = sc.facts.counts.iter().find(|c| c.0 == "scrolling_lines").map(|c| c.1);
    assert_eq!(count, Some(4));
}
