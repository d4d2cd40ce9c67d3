//! Hexen's polyobjects over Freedoom: a red 32 x 32 block (a loop of one-sided lines, its
//! start line `Polyobj_StartLine` number 1) waits in a room far away around its anchor; its
//! start spot stands in the middle of the player's room. The block is drawn there, in the
//! room's heights, and no longer where the map has it.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{MapData, MapFormat, Sector, Thing, Vertex};
use mapscope::scene::{vertex_flags, Scene, SurfaceKind};
use support::doom_test_room::{
    add_checker_and_solid_walls, add_line, hexen_player_start, renders_three_ways,
    room_and_control_vertices, scene_over_freedoom2, R, THREE_WAYS,
};

/// The block's corners around its anchor (1032, 1032), counter-clockwise so that the fronts
/// face out.
const BLOCK: [(i32, i32); 4] = [(1016, 1016), (1048, 1016), (1048, 1048), (1016, 1048)];
/// Where the block moves: its start spot.
const SPOT: (i32, i32) = (128, 160);

fn map(polyobject: bool) -> MapData {
    let v = |(x, y): (i32, i32)| Vertex::units(x, y);
    let mut vertices = room_and_control_vertices();
    vertices.extend(BLOCK.map(v));
    let mut map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Hexen,
        things: vec![hexen_player_start()],
        vertices,
        ..Default::default()
    };
    for (v1, v2, sector) in
        [(1, 0, 0), (0, 3, 0), (3, 2, 0), (2, 1, 0), (5, 4, 1), (4, 7, 1), (7, 6, 1), (6, 5, 1)]
    {
        add_line(&mut map, (v1, v2), (sector, "CHECKW"), None, (0, [0; 5]));
    }
    for k in 0..4u32 {
        let special = if k == 0 && polyobject { (1, [1, 0, 0, 0, 0]) } else { (0, [0; 5]) };
        add_line(&mut map, (8 + k, 8 + (k + 1) % 4), (1, "SOLIDW"), None, special);
    }
    let thing = |kind, (x, y): (i32, i32)| Thing {
        x: x << 16,
        y: y << 16,
        angle: 1,
        kind,
        ..hexen_player_start()
    };
    map.things.push(thing(3000, (1032, 1032)));
    map.things.push(thing(3001, SPOT));
    let sector = |floor, ceiling| Sector {
        floor,
        ceiling,
        floor_flat: "FLOOR0_1".into(),
        ceiling_flat: "CEIL1_1".into(),
        light: 255,
        ..Default::default()
    };
    map.sectors = vec![sector(0, 128), sector(0, 64)];
    map
}

fn scene(polyobject: bool) -> Scene {
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map(polyobject));
    add_checker_and_solid_walls(&mut w);
    scene_over_freedoom2("po.wad", w.to_bytes(), "MAP01")
}

/// The red walls' corners (map x, map y, height).
fn red_walls(s: &Scene) -> Vec<[f32; 3]> {
    s.world
        .chunks_exact(3)
        .filter(|t| t[0].flags & vertex_flags::KIND_MASK == SurfaceKind::Wall as u32)
        .filter(|t| s.textures[t[0].texture as usize].name == "SOLIDW")
        .flat_map(|t| t.iter().map(|v| [v.pos[0], -v.pos[2], v.pos[1]]))
        .collect()
}

fn red_share(img: &RgbaImage, palette_red: [u8; 3]) -> f64 {
    let red = img
        .pixels()
        .filter(|p| (0..3).all(|c| (p.0[c] as i32 - palette_red[c] as i32).abs() <= 40))
        .count();
    red as f64 / (img.width() * img.height()) as f64
}

#[test]
fn a_polyobject_is_drawn_at_its_start_spot_in_the_room_s_heights() {
    let s = scene(true);
    let corners = red_walls(&s);
    assert_eq!(corners.len(), 4 * 6, "four walls of two triangles");
    let (x0, y0) = (SPOT.0 as f32 - 16.0, SPOT.1 as f32 - 16.0);
    for [x, y, z] in corners {
        assert!((x0..=x0 + 32.0).contains(&x) && (y0..=y0 + 32.0).contains(&y), "({x}, {y})");
        // The room's floor and ceiling, not the far room's.
        assert!(z == 0.0 || z == 128.0, "height {z}");
    }
    assert!(s.facts.notes.iter().any(|n| n.contains("1 polyobjects drawn at their start spots")));
    // Without the start line it stays in the far room.
    let plain = scene(false);
    assert!(red_walls(&plain).iter().all(|c| c[0] > 1000.0));
    // Seen from the player's start in every way.
    let red = s.palette[R as usize];
    let (moved, left) = (
        renders_three_ways(&mut { s }, "polyobjects", "po"),
        renders_three_ways(&mut { plain }, "polyobjects", "plain"),
    );
    for (i, (view, _, _)) in THREE_WAYS.iter().enumerate() {
        let (a, b) = (red_share(&moved[i], red), red_share(&left[i], red));
        assert!(a > 0.03 && b < 0.005, "{view}: red {a:.3} with, {b:.3} without");
    }
}
