//! A writer-built level shaped like the real ones, for benchmarks and tests where no real
//! scenario may be kept: a station of rooms cut into many polygons, joined by corridors, so
//! most lines are transparent and most of the level is hidden from any spot behind solid
//! walls. It has what real levels have that costs a renderer: steps, pillars, tall rooms,
//! outdoor rooms under landscape ceilings, liquid pools, a tall shaft at the start, and
//! monsters, items and scenery in every room. Textures are those of the fixture Shapes file
//! (`../shared/fixtures/marathon/Shapes.shpA`: walls in collection 21, landscapes in 27).

use std::collections::HashMap;

use super::definitions::transfer;
use super::map::{MapObject, Media, Point};
use super::writer::{self, LevelChunks, Room, RoomPolygon, SideSpec};
use crate::formats::layout_hash;

/// Rooms across and down: 9 x 7 rooms of 4 x 4 polygons, about 1,150 polygons in all.
const ROOMS: (i16, i16) = (9, 7);
/// Polygons across a room, and their size in map units.
const CELLS: i16 = 4;
const CELL: i16 = 1280;
/// Corridor length between rooms (two polygons of 1024).
const GAP: i16 = 2048;
const ROOM: i16 = CELLS * CELL;
const PITCH: i16 = ROOM + GAP;
/// The north-west corner of the first room, so the station is centred on the origin.
const ORIGIN: (i16, i16) = (
    ((GAP as i32 - ROOMS.0 as i32 * PITCH as i32) / 2) as i16,
    ((GAP as i32 - ROOMS.1 as i32 * PITCH as i32) / 2) as i16,
);

const WALL: u16 = 0x1501;
const LOW_WALL: u16 = 0x1503;
const FLOOR: u16 = 0x1508;
const CEILING: u16 = 0x1509;
const LANDSCAPE: u16 = 0x1B00;

/// What a room is, which sets its heights and surfaces.
#[derive(Clone, Copy, PartialEq)]
enum RoomKind {
    Hall,
    Tall,
    Outdoor,
    Pool,
    Pillar,
    Shaft,
}

/// The layout hash of a room's (or cell's) place.
fn mix(i: i16, j: i16, salt: u32) -> u32 {
    layout_hash(i as u32, j as u32, salt)
}

fn room_kind(i: i16, j: i16) -> RoomKind {
    if (i, j) == (ROOMS.0 / 2, ROOMS.1 / 2) {
        return RoomKind::Shaft;
    }
    match mix(i, j, 1) % 10 {
        0 | 1 => RoomKind::Outdoor,
        2 => RoomKind::Tall,
        3 => RoomKind::Pool,
        4 | 5 => RoomKind::Pillar,
        _ => RoomKind::Hall,
    }
}

fn square(x: i16, y: i16, w: i16, h: i16) -> Vec<Point> {
    [(x, y), (x + w, y), (x + w, y + h), (x, y + h)].map(|(x, y)| Point { x, y }).to_vec()
}

fn polygon(vertices: Vec<Point>, floor: i16, ceiling: i16) -> RoomPolygon {
    RoomPolygon {
        vertices,
        floor,
        ceiling,
        floor_texture: FLOOR,
        ceiling_texture: CEILING,
        floor_light: 0,
        ceiling_light: 1,
        floor_transfer_mode: 0,
        ceiling_transfer_mode: 0,
        kind: 0,
        media: -1,
        sides: Vec::new(),
    }
}

/// The station's polygons (sides not yet set), its objects and its player start.
fn layout() -> (Vec<RoomPolygon>, Vec<MapObject>) {
    let origin = ORIGIN;
    let mut polygons = Vec::new();
    let mut objects = Vec::new();
    for j in 0..ROOMS.1 {
        for i in 0..ROOMS.0 {
            let kind = room_kind(i, j);
            // In i32: a room's offset from the first passes the i16 range before the origin
            // brings it back.
            let at = |o: i16, k: i16| (o as i32 + k as i32 * PITCH as i32) as i16;
            let (ox, oy) = (at(origin.0, i), at(origin.1, j));
            for b in 0..CELLS {
                for a in 0..CELLS {
                    let middle = (1..=2).contains(&a) && (1..=2).contains(&b);
                    if kind == RoomKind::Pillar && middle {
                        continue;
                    }
                    let step = mix(i * CELLS + a, j * CELLS + b, 2) % 5;
                    let mut floor = if step == 0 { 256 } else { 0 };
                    let ceiling = match kind {
                        RoomKind::Tall => 4096,
                        RoomKind::Outdoor => 5120,
                        RoomKind::Shaft => 8192,
                        _ => 2048,
                    };
                    let mut p = polygon(square(ox + a * CELL, oy + b * CELL, CELL, CELL), 0, 0);
                    if kind == RoomKind::Outdoor {
                        p.ceiling_texture = LANDSCAPE;
                        p.ceiling_transfer_mode = transfer::LANDSCAPE;
                    }
                    if kind == RoomKind::Pool && middle {
                        floor = -768;
                        p.media = 0;
                    }
                    p.floor = floor;
                    p.ceiling = ceiling;
                    p.floor_light = (mix(i, j, 3) % 3) as i16;
                    polygons.push(p);
                }
            }
            // A monster, an item and a piece of scenery in every room, at cell centres.
            let at = |a: i16, b: i16| (ox + a * CELL + CELL / 2, oy + b * CELL + CELL / 2);
            for (kind_code, index, (a, b)) in [(0u16, 1i16, (0, 0)), (2, 3, (3, 0)), (1, 2, (0, 3))]
            {
                let (x, y) = at(a, b);
                objects.push(MapObject {
                    kind: kind_code,
                    index,
                    facing: 0,
                    polygon: -1,
                    x,
                    y,
                    z: 0,
                    flags: 0,
                });
            }
            // Corridors east and south, two polygons each, along one cell row or column.
            let lane = (mix(i, j, 4) % CELLS as u32) as i16;
            if i + 1 < ROOMS.0 && !mix(i, j, 5).is_multiple_of(4) {
                for k in 0..2 {
                    let x = ox + ROOM + k * GAP / 2;
                    polygons.push(polygon(square(x, oy + lane * CELL, GAP / 2, CELL), 0, 1536));
                }
            }
            if j + 1 < ROOMS.1 && !mix(i, j, 6).is_multiple_of(4) {
                for k in 0..2 {
                    let y = oy + ROOM + k * GAP / 2;
                    polygons.push(polygon(square(ox + lane * CELL, y, CELL, GAP / 2), 0, 1536));
                }
            }
        }
    }
    (polygons, objects)
}

/// Each edge's side: a full wall where no polygon is beyond, a low, high or split side where
/// the neighbour's floor is higher or its ceiling lower, none where the view is open.
fn set_sides(polygons: &mut [RoomPolygon]) {
    let key = |a: Point, b: Point| if (a.x, a.y) < (b.x, b.y) { (a, b) } else { (b, a) };
    let mut owners: HashMap<(Point, Point), Vec<usize>> = HashMap::new();
    for (p, poly) in polygons.iter().enumerate() {
        let n = poly.vertices.len();
        for k in 0..n {
            let edge = key(poly.vertices[k], poly.vertices[(k + 1) % n]);
            owners.entry(edge).or_default().push(p);
        }
    }
    let heights: Vec<(i16, i16)> = polygons.iter().map(|p| (p.floor, p.ceiling)).collect();
    for (p, poly) in polygons.iter_mut().enumerate() {
        let n = poly.vertices.len();
        let (floor, ceiling) = heights[p];
        poly.sides = (0..n)
            .map(|k| {
                let edge = key(poly.vertices[k], poly.vertices[(k + 1) % n]);
                let other = owners[&edge].iter().copied().find(|&o| o != p);
                let Some(o) = other else {
                    return Some(SideSpec::full(WALL, 0));
                };
                let (f, c) = heights[o];
                let (low, high) = (f > floor, c < ceiling);
                let mut side = SideSpec::full(if high { WALL } else { LOW_WALL }, 0);
                side.kind = match (low, high) {
                    (false, false) => return None,
                    (true, false) => 2,
                    (false, true) => 1,
                    (true, true) => {
                        side.secondary = side.primary;
                        side.secondary.texture = LOW_WALL;
                        4
                    }
                };
                Some(side)
            })
            .collect();
    }
}

/// The station as one Marathon 2 scenario (`Station.sceA`), and its polygon count.
pub fn station_wad() -> (Vec<u8>, usize) {
    let (mut polygons, mut objects) = layout();
    set_sides(&mut polygons);
    let room = Room::build(&polygons);
    // Objects name the polygon they stand in.
    let find = |x: i16, y: i16| {
        polygons.iter().position(|p| {
            let (x0, y0) = (p.vertices[0].x, p.vertices[0].y);
            let (x1, y1) = (p.vertices[2].x, p.vertices[2].y);
            (x0..x1).contains(&x) && (y0..y1).contains(&y)
        })
    };
    objects.retain_mut(|o| match find(o.x, o.y) {
        Some(p) => {
            o.polygon = p as i16;
            true
        }
        None => false,
    });
    let origin = ORIGIN;
    let (sx, sy) =
        (origin.0 + (ROOMS.0 / 2) * PITCH + CELL / 2, origin.1 + (ROOMS.1 / 2) * PITCH + CELL / 2);
    let start = find(sx, sy).unwrap_or(0) as i16;
    let player =
        MapObject { kind: 3, index: 0, facing: 0, polygon: start, x: sx, y: sy, z: 0, flags: 0 };
    objects.insert(0, player);
    let goo = Media {
        kind: 2,
        flags: 0,
        light: 0,
        direction: 0,
        magnitude: 0,
        low: -256,
        high: -256,
        origin: Point { x: 0, y: 0 },
        height: -256,
        minimum_light: 0,
        texture: 0x1505,
        transfer_mode: 0,
    };
    let lights = [1.0, 0.6, 0.8].map(writer::constant_light);
    let mut level = LevelChunks::of_room("Station", &room, &lights, &objects);
    // The pool's liquid, before Minf.
    let minf = level.chunks.len() - 1;
    level.chunks.insert(minf, (*b"medi", writer::medi(&[goo])));
    (writer::wad(4, 1, "Station", &[level]), room.polygons.len())
}
