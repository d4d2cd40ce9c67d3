//! The light 3D floors cast below them (GZDoom's light lists): a 256 x 256 room (light 255,
//! floor 0, ceiling 256) is tagged by a control line whose control sector (light 96, far
//! away) spans heights 128..144, so a slab covers the whole room above the player's eye.
//! Below the slab's top the room's walls, floor and things take the control sector's light;
//! "no shade" keeps the room's, "double shadow" only lights the slab's inside; an invisible
//! floor (alpha 0, or `ExtraFloor_LightOnly`) casts its light all the same.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{MapData, MapFormat, Sector, Thing};
use mapscope::scene::{vertex_flags, Scene, SurfaceKind};
use support::doom_test_room::{
    add_checker_and_solid_walls, add_line, hexen_player_start, renders_three_ways,
    room_and_control_vertices, scene_over_freedoom2, THREE_WAYS,
};

const TAG: i32 = 5;
/// The control sector's floor and ceiling: the slab's bottom and top.
const BOTTOM: i16 = 128;
const TOP: i16 = 144;
const ROOM_LIGHT: i16 = 255;
const CONTROL_LIGHT: i16 = 96;
/// The control line (the control room's first).
const CONTROL: usize = 4;

/// The control line's special and args; none: no 3D floor.
type Special = Option<(u16, [i32; 5])>;

const SOLID: Special = Some((160, [TAG, 1, 0, 255, 0]));

/// The control sector's heights: over the player's head, or sunk under the floor (where the
/// slab casts no light, but frames are drawn as those of maps with 3D floors are).
const OVERHEAD: [i16; 2] = [BOTTOM, TOP];
const SUNK: [i16; 2] = [-TOP, -BOTTOM];

fn map(special: Special, [bottom, top]: [i16; 2]) -> MapData {
    let mut map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Hexen,
        things: vec![hexen_player_start()],
        vertices: room_and_control_vertices(),
        ..Default::default()
    };
    // The room and the control room, clockwise (their fronts face in).
    let lines =
        [(1, 0, 0), (0, 3, 0), (3, 2, 0), (2, 1, 0), (5, 4, 1), (4, 7, 1), (7, 6, 1), (6, 5, 1)];
    for (i, (v1, v2, sector)) in lines.into_iter().enumerate() {
        let texture = if sector == 0 { "CHECKW" } else { "SOLIDW" };
        let special = match (i, special) {
            (CONTROL, Some(s)) => s,
            _ => (0, [0; 5]),
        };
        add_line(&mut map, (v1, v2), (sector, texture), None, special);
    }
    let sector = |floor, ceiling, light, tag| Sector {
        floor,
        ceiling,
        floor_flat: "FLOOR0_1".into(),
        ceiling_flat: "CEIL1_1".into(),
        light,
        tag,
        ..Default::default()
    };
    map.sectors =
        vec![sector(0, 256, ROOM_LIGHT, TAG as u16), sector(bottom, top, CONTROL_LIGHT, 0)];
    map
}

fn scene(special: Special) -> Scene {
    scene_at(special, OVERHEAD)
}

fn scene_at(special: Special, control: [i16; 2]) -> Scene {
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map(special, control));
    add_checker_and_solid_walls(&mut w);
    scene_over_freedoom2("light3d.wad", w.to_bytes(), "MAP01")
}

fn renders(special: Special, name: &str) -> Vec<RgbaImage> {
    renders_at(special, OVERHEAD, name)
}

fn renders_at(special: Special, control: [i16; 2], name: &str) -> Vec<RgbaImage> {
    renders_three_ways(&mut scene_at(special, control), "floor_light_3d", name)
}

/// Rows of the far wall at the eye's height (around the horizon) and of the floor (the
/// bottom tenth); both lie below the slab.
fn below_slab(img: &RgbaImage) -> Vec<(u32, u32)> {
    let (w, h) = img.dimensions();
    let rows = (h / 2 - 2..h / 2 + 3).chain(h * 9 / 10..h);
    rows.flat_map(|y| (w / 4..w * 3 / 4).map(move |x| (x, y))).collect()
}

fn brightness(img: &RgbaImage, at: &[(u32, u32)]) -> u64 {
    at.iter().map(|&(x, y)| img.get_pixel(x, y).0[..3].iter().map(|&c| c as u64).sum::<u64>()).sum()
}

/// Whether `a` and `b` show the same pixels at `at` but for a few on edges (a wall cut in
/// pieces shares its edges with the next wall through other corners, so a pixel centre on
/// such an edge may fall to either).
fn same(a: &RgbaImage, b: &RgbaImage, at: &[(u32, u32)]) -> bool {
    let differ = at.iter().filter(|&&(x, y)| a.get_pixel(x, y) != b.get_pixel(x, y)).count();
    differ * 500 <= at.len()
}

#[test]
fn the_room_s_walls_are_cut_at_the_slab_s_top_and_lit_by_its_light_below() {
    let s = scene(SOLID);
    let walls: Vec<_> = s
        .world
        .chunks_exact(3)
        .filter(|t| (t[0].flags & vertex_flags::KIND_MASK) == SurfaceKind::Wall as u32)
        .filter(|t| t.iter().all(|v| v.pos[0] < 500.0))
        .filter(|t| t[0].flags & vertex_flags::MASKED == 0)
        .collect();
    let spans = |lo: f32, hi: f32| {
        walls.iter().filter(move |t| t.iter().all(|v| v.pos[1] == lo || v.pos[1] == hi))
    };
    // Four walls, each in two pieces of two triangles.
    assert_eq!(spans(TOP as f32, 256.0).count(), 8, "above the slab");
    assert_eq!(spans(0.0, TOP as f32).count(), 8, "below the slab's top");
    assert_eq!(walls.len(), 16);
    let above = spans(TOP as f32, 256.0).map(|t| t[0].light).collect::<Vec<_>>();
    let below = spans(0.0, TOP as f32).map(|t| t[0].light).collect::<Vec<_>>();
    assert!(above.iter().all(|&l| l == 0), "the room's own light above: {above:?}");
    assert!(below.iter().all(|&l| l == below[0] && l != 0), "one other light below: {below:?}");
    // Without the 3D floor each wall is one quad.
    let plain = scene(None);
    let plain_walls = plain.world.chunks_exact(3).filter(|t| {
        (t[0].flags & vertex_flags::KIND_MASK) == SurfaceKind::Wall as u32
            && t.iter().all(|v| v.pos[0] < 500.0)
    });
    assert_eq!(plain_walls.count(), 8);
    assert!(s.facts.notes.iter().any(|n| n.contains("the light each casts below its top")));
}

#[test]
fn things_stand_at_their_height_and_take_the_light_there() {
    // Health bonuses on the floor and on the slab's top (Hexen's z: height above the floor).
    let mut m = map(SOLID, OVERHEAD);
    let start = hexen_player_start();
    for (x, z) in [(64, 0), (192, TOP as i32)] {
        m.things.push(Thing { x: x << 16, y: 128 << 16, z: z << 16, kind: 2014, ..start });
    }
    let mut w = WadWriter::pwad();
    w.map("MAP01", &m);
    add_checker_and_solid_walls(&mut w);
    let s = scene_over_freedoom2("things3d.wad", w.to_bytes(), "MAP01");
    let at = |x: f32| s.sprites.iter().find(|p| p.pos[0] == x).expect("the bonus");
    let (floor, slab) = (at(64.0), at(192.0));
    assert_eq!((floor.pos[1], slab.pos[1]), (0.0, TOP as f32));
    // On the slab, the room's light; under it, the control sector's.
    assert_eq!(slab.light, 0);
    assert_ne!(floor.light, 0);
}

#[test]
fn renders_show_the_shadow_under_the_slab_and_its_flags() {
    let plain = renders(None, "plain");
    // Lit as the plain room, drawn as frames with 3D floors are (off vanilla's canvas).
    let sunk = renders_at(SOLID, SUNK, "sunk");
    let solid = renders(SOLID, "solid");
    let no_shade = renders(Some((160, [TAG, 1, 1, 255, 0])), "no-shade");
    let double = renders(Some((160, [TAG, 1, 2, 255, 0])), "double-shadow");
    let invisible = renders(Some((160, [TAG, 1, 0, 0, 0])), "alpha-0");
    let light_only = renders(Some((50, [TAG, 0, 0, 0, 0])), "light-only");
    for (i, (view, _, _)) in THREE_WAYS.iter().enumerate() {
        let at = below_slab(&plain[i]);
        let (lit, shadowed) = (brightness(&plain[i], &at), brightness(&solid[i], &at));
        // Light 96 against 255: well under two thirds as bright.
        assert!(shadowed * 3 < lit * 2, "{view}: {shadowed} against {lit}");
        assert!(same(&no_shade[i], &sunk[i], &at), "{view}: no shade keeps the room's light");
        assert!(same(&double[i], &sunk[i], &at), "{view}: double shadow ends at the bottom");
        assert!(same(&invisible[i], &solid[i], &at), "{view}: alpha 0 casts its light too");
        assert!(brightness(&invisible[i], &at) * 3 < lit * 2, "{view}");
        // The slab itself (its underside above the eye) is not drawn at alpha 0.
        assert_ne!(invisible[i], solid[i], "{view}");
        assert_eq!(light_only[i], invisible[i], "{view}: ExtraFloor_LightOnly");
    }
}
