//! Writes Marathon files from the spec, for tests: scenario wads of every version (optionally
//! wrapped in MacBinary II or AppleSingle), map chunks from the structures in [`super::map`],
//! rooms assembled from polygons with their lines and sides derived, and Shapes files.

use std::collections::HashMap;

use super::container::{crc16_xmodem, crc32};
use super::lights::{LightingFunction, OldLight, StaticLight, FIXED_ONE, LIGHT_INITIALLY_ACTIVE};
use super::mac_roman;
use super::map::{Line, MapObject, Media, Platform, Point, Polygon, Side, SideTexture, NONE};
use super::shapes::{ColorEntry, BITMAP_COLUMN_ORDER, BITMAP_TRANSPARENT};
use super::walk::PlayerPhysics;
use crate::formats::{ByteWriter, Slot};

/// `text` in Mac Roman, as the games wrote it, cut or NUL-padded to `n` bytes.
fn padded(w: &mut ByteWriter, text: &str, n: usize) {
    w.name(&mac_roman::encode(text), n);
}

/// One level: its chunks in order.
#[derive(Clone, Debug, Default)]
pub struct LevelChunks {
    pub name: String,
    pub chunks: Vec<([u8; 4], Vec<u8>)>,
}

impl LevelChunks {
    /// A Marathon 2 level of `room`'s polygons lit by `lights`, holding `objects` (the player
    /// start among them): its points, lines, sides, polygons, lights, objects and `Minf`.
    pub fn of_room(name: &str, room: &Room, lights: &[StaticLight], objects: &[MapObject]) -> Self {
        LevelChunks {
            name: name.into(),
            chunks: vec![
                (*b"PNTS", pnts(&room.endpoints)),
                (*b"LINS", lins(&room.lines)),
                (*b"SIDS", sids(&room.sides)),
                (*b"POLY", poly(&room.polygons)),
                (*b"LITE", lite(lights)),
                (*b"OBJS", objs(objects)),
                (*b"Minf", minf(name, 0)),
            ],
        }
    }
}

/// A wad with `version` (0..4) and `data_version`; levels become directory entries.
pub fn wad(version: u16, data_version: u16, name: &str, levels: &[LevelChunks]) -> Vec<u8> {
    let (chunk_header, entry_base, app_data) = match version {
        0 | 1 => (12usize, 8usize, 0usize),
        2 | 3 => (16, 10, 0),
        _ => (16, 10, 74),
    };
    let mut out = ByteWriter::big_endian();
    out.u16(version).u16(data_version);
    padded(&mut out, name, 64);
    let checksum = out.reserve_u32();
    let directory_offset = out.reserve_u32();
    out.u16(levels.len() as u16).u16(app_data as u16);
    out.u16(if version >= 2 { chunk_header as u16 } else { 0 });
    out.u16(if version >= 2 { entry_base as u16 } else { 0 });
    out.u32(0).pad_to(128, 0);
    let mut directory = ByteWriter::big_endian();
    for (i, level) in levels.iter().enumerate() {
        let offset = out.len();
        for (k, (tag, data)) in level.chunks.iter().enumerate() {
            // The next chunk's offset counts from the entry's start; 0 ends the chain.
            let next = if k + 1 == level.chunks.len() {
                0
            } else {
                out.len() - offset + chunk_header + data.len()
            };
            out.bytes(tag).u32(next as u32).u32(data.len() as u32);
            if chunk_header == 16 {
                out.u32(0);
            }
            out.bytes(data);
        }
        directory.u32(offset as u32).u32((out.len() - offset) as u32);
        if entry_base == 10 {
            directory.u16(i as u16);
        }
        if app_data == 74 {
            directory.u16(0).u16(0).u32(1);
            padded(&mut directory, &level.name, 66);
        }
    }
    let end_of_entries = out.len() as u32;
    out.patch_u32(directory_offset, end_of_entries);
    out.bytes(directory.as_bytes());
    let sum = crc32(out.as_bytes());
    out.patch_u32(checksum, sum);
    out.into_bytes()
}

/// MacBinary II around `data` (data fork only), CRC-16/XMODEM over the header.
pub fn macbinary(name: &str, file_type: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    let name = &name.as_bytes()[..name.len().min(63)];
    out.u8(0).u8(name.len() as u8).name(name, 63);
    out.bytes(file_type).bytes(b"26.\x00").pad_to(83, 0);
    out.u32(data.len() as u32).pad_to(122, 0);
    out.u8(129).u8(129);
    let crc = crc16_xmodem(out.as_bytes());
    out.u16(crc).pad_to(128, 0);
    out.bytes(data).align(128, 0);
    out.into_bytes()
}

/// AppleSingle version 2 with a real-name entry and the data fork.
pub fn applesingle(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    out.u32(0x0005_1600).u32(0x0002_0000).pad_to(24, 0);
    out.u16(2);
    let name_at = 26 + 2 * 12;
    let data_at = name_at + name.len();
    for (id, at, len) in [(3, name_at, name.len()), (1, data_at, data.len())] {
        out.u32(id).u32(at as u32).u32(len as u32);
    }
    out.bytes(name.as_bytes()).bytes(data);
    out.into_bytes()
}

pub fn point(out: &mut ByteWriter, p: Point) {
    out.i16(p.x).i16(p.y);
}

/// A chunk of fixed-size records, one `record` call each.
fn records<T>(items: &[T], mut record: impl FnMut(&mut ByteWriter, &T)) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    items.iter().for_each(|item| record(&mut out, item));
    out.into_bytes()
}

pub fn pnts(points: &[Point]) -> Vec<u8> {
    records(points, |out, &p| point(out, p))
}

/// Marathon 1 endpoints (16 bytes, cached fields zero).
pub fn epnt(points: &[Point]) -> Vec<u8> {
    records(points, |out, &p| {
        out.zeros(6);
        point(out, p);
        out.zeros(6);
    })
}

pub fn lins(lines: &[Line]) -> Vec<u8> {
    records(lines, |out, l| {
        out.i16s(&[
            l.endpoints[0],
            l.endpoints[1],
            l.flags as i16,
            l.length,
            l.highest_adjacent_floor,
            l.lowest_adjacent_ceiling,
            l.clockwise_side,
            l.counterclockwise_side,
            l.clockwise_polygon,
            l.counterclockwise_polygon,
        ]);
        out.zeros(12);
    })
}

fn side_texture(out: &mut ByteWriter, t: SideTexture) {
    out.i16(t.x0).i16(t.y0).u16(t.texture);
}

pub fn sids(sides: &[Side]) -> Vec<u8> {
    records(sides, |out, s| {
        out.u16(s.kind).u16(s.flags);
        side_texture(out, s.primary);
        side_texture(out, s.secondary);
        side_texture(out, s.transparent);
        out.zeros(20).u16s(&s.transfer_modes);
        out.i16(s.stored_polygon).i16(s.stored_line).i16s(&s.lights);
        out.i32(s.ambient_delta).zeros(2);
    })
}

pub fn poly(polygons: &[Polygon]) -> Vec<u8> {
    records(polygons, |out, p| {
        let start = out.len();
        out.u16(p.kind).u16(p.flags).i16(p.permutation).u16(p.vertex_count);
        out.i16s(&p.endpoints).i16s(&p.lines);
        out.u16(p.floor_texture).u16(p.ceiling_texture);
        out.i16(p.floor_height).i16(p.ceiling_height);
        out.i16(p.floor_light).i16(p.ceiling_light);
        out.i32(p.area).i16(NONE).zeros(6);
        out.u16(p.floor_transfer_mode).u16(p.ceiling_transfer_mode);
        out.fill(0xFF, 16).zeros(4);
        point(out, p.center);
        out.i16s(&p.sides);
        point(out, p.floor_origin);
        point(out, p.ceiling_origin);
        out.i16(p.media).i16(p.media_light).pad_to(start + 128, 0);
    })
}

pub fn lite(lights: &[StaticLight]) -> Vec<u8> {
    records(lights, |out, l| {
        out.u16(l.kind).u16(l.flags).i16(l.phase);
        for f in &l.functions {
            out.u16(f.function).i16(f.period).i16(f.delta_period);
            out.i32(f.intensity).i32(f.delta_intensity);
        }
        out.i16(l.tag).zeros(8);
    })
}

pub fn old_lite(lights: &[OldLight]) -> Vec<u8> {
    records(lights, |out, l| {
        out.u16(l.flags).u16(l.kind).u16(l.mode).i16(l.phase);
        out.i32(l.minimum_intensity).i32(l.maximum_intensity);
        out.i16(l.period).i32(l.maximum_intensity).zeros(10);
    })
}

/// A light at `intensity` in every state.
pub fn constant_light(intensity: f64) -> StaticLight {
    let i = (intensity * FIXED_ONE as f64) as i32;
    let f = LightingFunction {
        function: 0,
        period: 30,
        delta_period: 0,
        intensity: i,
        delta_intensity: 0,
    };
    StaticLight { kind: 0, flags: LIGHT_INITIALLY_ACTIVE, phase: 0, functions: [f; 6], tag: 0 }
}

pub fn objs(objects: &[MapObject]) -> Vec<u8> {
    records(objects, |out, o| {
        out.i16s(&[o.kind as i16, o.index, o.facing, o.polygon, o.x, o.y, o.z, o.flags as i16]);
    })
}

pub fn plat(platforms: &[Platform]) -> Vec<u8> {
    records(platforms, |out, p| {
        out.i16s(&[p.kind as i16, p.speed, p.delay, p.maximum_height, p.minimum_height]);
        out.u32(p.static_flags).i16(p.polygon).i16(p.tag).zeros(14);
    })
}

pub fn medi(media: &[Media]) -> Vec<u8> {
    records(media, |out, m| {
        out.i16s(&[
            m.kind as i16,
            m.flags as i16,
            m.light,
            m.direction,
            m.magnitude,
            m.low,
            m.high,
        ]);
        point(out, m.origin);
        out.i16(m.height).i32(m.minimum_light).u16(m.texture).u16(m.transfer_mode).zeros(4);
    })
}

/// A `PHys` chunk of two physics models (walking, running), both `running`'s values, the
/// fields walking does not use zero.
pub fn phys(running: &PlayerPhysics) -> Vec<u8> {
    let mut fields = [0i32; 26];
    fields[0] = running.maximum_forward_velocity;
    fields[6] = running.gravitational_acceleration;
    fields[7] = running.climbing_acceleration;
    fields[8] = running.terminal_velocity;
    fields[20] = running.radius;
    fields[21] = running.height;
    fields[23] = running.camera_height;
    let mut out = ByteWriter::big_endian();
    out.i32s(&fields).i32s(&fields);
    out.into_bytes()
}

pub fn minf(name: &str, environment: u16) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    out.u16(environment).u16(1).zeros(14);
    padded(&mut out, name, 66);
    out.u32(1);
    out.into_bytes()
}

/// What one side of a room polygon shows, per edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideSpec {
    pub kind: u16,
    pub primary: SideTexture,
    pub secondary: SideTexture,
    pub transparent: SideTexture,
    pub transfer_modes: [u16; 3],
    pub light: i16,
}

impl SideSpec {
    pub fn full(texture: u16, light: i16) -> SideSpec {
        let none = SideTexture { x0: 0, y0: 0, texture: 0xFFFF };
        SideSpec {
            kind: 0,
            primary: SideTexture { x0: 0, y0: 0, texture },
            secondary: none,
            transparent: none,
            transfer_modes: [0; 3],
            light,
        }
    }
}

/// A convex polygon of a room, vertices clockwise with +Y down, one side spec per edge (None:
/// no side on that edge).
#[derive(Clone, Debug)]
pub struct RoomPolygon {
    pub vertices: Vec<Point>,
    pub floor: i16,
    pub ceiling: i16,
    pub floor_texture: u16,
    pub ceiling_texture: u16,
    pub floor_light: i16,
    pub ceiling_light: i16,
    pub floor_transfer_mode: u16,
    pub ceiling_transfer_mode: u16,
    pub kind: u16,
    pub media: i16,
    pub sides: Vec<Option<SideSpec>>,
}

impl RoomPolygon {
    /// The rectangle `x0..x1` by `y0..y1` (clockwise with +Y down), its floor, ceiling and
    /// every wall in `texture`, unlit, of the ordinary type: the walk tests' rooms.
    pub fn walled_rect(
        [x0, y0, x1, y1]: [i16; 4],
        floor: i16,
        ceiling: i16,
        texture: u16,
    ) -> RoomPolygon {
        let p = |x, y| Point { x, y };
        RoomPolygon {
            vertices: vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
            floor,
            ceiling,
            floor_texture: texture,
            ceiling_texture: texture,
            floor_light: 0,
            ceiling_light: 0,
            floor_transfer_mode: 0,
            ceiling_transfer_mode: 0,
            kind: 0,
            media: -1,
            sides: vec![Some(SideSpec::full(texture, 0)); 4],
        }
    }
}

/// Map records assembled from room polygons: shared endpoints and lines are merged, lines get
/// their adjacent heights and solid/transparent flags, sides their owners.
#[derive(Clone, Debug, Default)]
pub struct Room {
    pub endpoints: Vec<Point>,
    pub lines: Vec<Line>,
    pub sides: Vec<Side>,
    pub polygons: Vec<Polygon>,
}

impl Room {
    pub fn build(rooms: &[RoomPolygon]) -> Room {
        let mut r = Room::default();
        let mut endpoint_index: HashMap<(i16, i16), i16> = HashMap::new();
        let mut line_index: HashMap<(i16, i16), usize> = HashMap::new();
        for (pi, rp) in rooms.iter().enumerate() {
            let n = rp.vertices.len();
            let mut poly = Polygon {
                kind: rp.kind,
                flags: 0,
                permutation: 0,
                vertex_count: n as u16,
                endpoints: [NONE; 8],
                lines: [NONE; 8],
                floor_texture: rp.floor_texture,
                ceiling_texture: rp.ceiling_texture,
                floor_height: rp.floor,
                ceiling_height: rp.ceiling,
                floor_light: rp.floor_light,
                ceiling_light: rp.ceiling_light,
                area: 0,
                floor_transfer_mode: rp.floor_transfer_mode,
                ceiling_transfer_mode: rp.ceiling_transfer_mode,
                center: Point {
                    x: (rp.vertices.iter().map(|p| p.x as i32).sum::<i32>() / n as i32) as i16,
                    y: (rp.vertices.iter().map(|p| p.y as i32).sum::<i32>() / n as i32) as i16,
                },
                sides: [NONE; 8],
                floor_origin: Point { x: 0, y: 0 },
                ceiling_origin: Point { x: 0, y: 0 },
                media: rp.media,
                media_light: rp.floor_light,
            };
            for (k, v) in rp.vertices.iter().enumerate() {
                let next = endpoint_index.len() as i16;
                let e = *endpoint_index.entry((v.x, v.y)).or_insert_with(|| {
                    r.endpoints.push(*v);
                    next
                });
                poly.endpoints[k] = e;
            }
            for k in 0..n {
                let (a, b) = (poly.endpoints[k], poly.endpoints[(k + 1) % n]);
                let li = *line_index.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    let (pa, pb) = (r.endpoints[a as usize], r.endpoints[b as usize]);
                    let length = (pa.x as f64 - pb.x as f64).hypot(pa.y as f64 - pb.y as f64);
                    r.lines.push(Line {
                        endpoints: [a, b],
                        flags: 0,
                        length: length as i16,
                        highest_adjacent_floor: rp.floor,
                        lowest_adjacent_ceiling: rp.ceiling,
                        clockwise_side: NONE,
                        counterclockwise_side: NONE,
                        clockwise_polygon: NONE,
                        counterclockwise_polygon: NONE,
                    });
                    r.lines.len() - 1
                });
                poly.lines[k] = li as i16;
                let line = &mut r.lines[li];
                let forward = line.endpoints[0] == a;
                if forward {
                    line.clockwise_polygon = pi as i16;
                } else {
                    line.counterclockwise_polygon = pi as i16;
                }
                if let Some(spec) = rp.sides.get(k).copied().flatten() {
                    let si = r.sides.len() as i16;
                    r.sides.push(Side {
                        kind: spec.kind,
                        flags: 0,
                        primary: spec.primary,
                        secondary: spec.secondary,
                        transparent: spec.transparent,
                        transfer_modes: spec.transfer_modes,
                        stored_polygon: pi as i16,
                        stored_line: li as i16,
                        lights: [spec.light; 3],
                        ambient_delta: 0,
                    });
                    poly.sides[k] = si;
                    if forward {
                        line.clockwise_side = si;
                    } else {
                        line.counterclockwise_side = si;
                    }
                }
            }
            r.polygons.push(poly);
        }
        for l in &mut r.lines {
            let polys: Vec<&Polygon> = [l.clockwise_polygon, l.counterclockwise_polygon]
                .iter()
                .filter_map(|&p| usize::try_from(p).ok().map(|p| &r.polygons[p]))
                .collect();
            l.highest_adjacent_floor = polys.iter().map(|p| p.floor_height).max().unwrap_or(0);
            l.lowest_adjacent_ceiling = polys.iter().map(|p| p.ceiling_height).min().unwrap_or(0);
            l.flags = if polys.len() == 2 { 0x2000 } else { 0x4000 };
        }
        r
    }
}

/// A bitmap for [`shapes`]: pixels in nominal (x, y) order, row-major.
#[derive(Clone, Debug)]
pub struct BitmapSpec {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<u8>,
    pub column_order: bool,
    pub transparent: bool,
    /// Transparent RLE (column order; index 0 not stored).
    pub rle: bool,
}

impl BitmapSpec {
    pub fn uniform(width: usize, height: usize, value: u8) -> BitmapSpec {
        BitmapSpec {
            width,
            height,
            pixels: vec![value; width * height],
            column_order: true,
            transparent: false,
            rle: false,
        }
    }
}

/// A collection for [`shapes`]: colour tables, bitmaps (frame k shows bitmap k) and
/// sequences (first frame of view 0 each).
#[derive(Clone, Debug)]
pub struct CollectionSpec {
    pub index: usize,
    pub kind: i16,
    pub tables: Vec<Vec<ColorEntry>>,
    pub bitmaps: Vec<BitmapSpec>,
    pub sequences: Vec<u16>,
    pub pixels_to_world: i16,
}

/// Size of a collection's header; its colour tables follow.
const COLLECTION_HEADER_SIZE: usize = 544;

fn collection_bytes(c: &CollectionSpec) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    let colors = c.tables.first().map_or(0, Vec::len);
    out.u16(3).i16(c.kind).u16(0).u16(colors as u16).u16(c.tables.len() as u16);
    let table_offset = out.reserve_u32();
    out.u16(c.sequences.len() as u16);
    let seq_table = out.reserve_u32();
    out.u16(c.bitmaps.len() as u16);
    let frame_table = out.reserve_u32();
    out.u16(c.bitmaps.len() as u16);
    let bitmap_table = out.reserve_u32();
    out.i16(c.pixels_to_world);
    let size = out.reserve_u32();
    out.pad_to(COLLECTION_HEADER_SIZE, 0);

    let at = out.len() as u32;
    out.patch_u32(table_offset, at);
    for t in &c.tables {
        for e in t {
            out.u8(e.flags).u8(e.value).u16s(&e.rgb16);
        }
    }
    let mut bitmap_offsets = Vec::new();
    for b in &c.bitmaps {
        bitmap_offsets.push(out.len() as u32);
        let (lines, len) = if b.column_order { (b.width, b.height) } else { (b.height, b.width) };
        out.u16(b.width as u16).u16(b.height as u16);
        out.i16(if b.rle { -1 } else { len as i16 });
        let flags = if b.column_order { BITMAP_COLUMN_ORDER } else { 0 }
            | if b.transparent || b.rle { BITMAP_TRANSPARENT } else { 0 };
        out.u16(flags).u16(8).zeros(16);
        // The line pointers, zero: the reader walks the lines from their sizes.
        out.zeros(4 * (lines + 1));
        let px = |line: usize, pos: usize| {
            let (x, y) = if b.column_order { (line, pos) } else { (pos, line) };
            b.pixels[y * b.width + x]
        };
        for l in 0..lines {
            if b.rle {
                let drawn: Vec<usize> = (0..len).filter(|&p| px(l, p) != 0).collect();
                let (first, last) = match (drawn.first(), drawn.last()) {
                    (Some(&f), Some(&l)) => (f, l + 1),
                    _ => (0, 0),
                };
                out.u16(first as u16).u16(last as u16);
                (first..last).for_each(|p| {
                    out.u8(px(l, p));
                });
            } else {
                (0..len).for_each(|p| {
                    out.u8(px(l, p));
                });
            }
        }
    }
    let mut frame_offsets = Vec::new();
    for (k, b) in c.bitmaps.iter().enumerate() {
        frame_offsets.push(out.len() as u32);
        out.u16(0).u32(0).u16(k as u16).u16((b.width / 2) as u16).u16(b.height as u16);
        out.zeros(24);
    }
    let mut sequence_offsets = Vec::new();
    for &first in &c.sequences {
        let start = out.len();
        sequence_offsets.push(start as u32);
        out.u16(0).u16(0).u8(0).pad_to(start + 38, 0);
        out.u16(1); // views
        out.u16(1); // frames per view
        out.u16(1); // ticks per frame
        out.pad_to(start + 88, 0).u16(first).u16(0);
    }
    for (slot, offsets) in [
        (seq_table, sequence_offsets),
        (frame_table, frame_offsets),
        (bitmap_table, bitmap_offsets),
    ] {
        let at = out.len() as u32;
        out.patch_u32(slot, at).u32s(&offsets);
    }
    let total = out.len() as u32;
    out.patch_u32(size, total);
    out.into_bytes()
}

/// A Shapes file with the given collections (the others absent).
pub fn shapes(collections: &[CollectionSpec]) -> Vec<u8> {
    let mut out = ByteWriter::big_endian();
    // 32 collection headers of 32 bytes: two (offset, length) pairs, -1 for an absent one.
    let headers: Vec<[Slot; 4]> = (0..32)
        .map(|_| {
            out.zeros(4);
            let slots = [(); 4].map(|_| out.reserve_u32());
            out.patch_i32(slots[0], -1).patch_i32(slots[2], -1).zeros(12);
            slots
        })
        .collect();
    for c in collections {
        let bytes = collection_bytes(c);
        let (at, len) = (out.len() as u32, bytes.len() as u32);
        let [offset, length, offset16, length16] = headers[c.index];
        out.patch_u32(offset, at).patch_u32(length, len);
        out.patch_u32(offset16, at).patch_u32(length16, len);
        out.bytes(&bytes);
    }
    out.into_bytes()
}

/// A colour table whose entry k has value k and colour `colours[k]` (8-bit, stored as c*257).
pub fn color_table(colours: &[[u8; 3]], self_luminescent: &[usize]) -> Vec<ColorEntry> {
    colours
        .iter()
        .enumerate()
        .map(|(k, c)| ColorEntry {
            flags: if self_luminescent.contains(&k) { 0x80 } else { 0 },
            value: k as u8,
            rgb16: c.map(|v| v as u16 * 257),
        })
        .collect()
}
