//! Writes Marathon files from the spec, for tests: scenario wads of every version (optionally
//! wrapped in MacBinary II or AppleSingle), map chunks from the structures in [`super::map`],
//! rooms assembled from polygons with their lines and sides derived, and Shapes files.

use std::collections::HashMap;

use super::container::{crc16_xmodem, crc32};
use super::lights::{LightingFunction, OldLight, StaticLight, FIXED_ONE, LIGHT_INITIALLY_ACTIVE};
use super::mac_roman;
use super::map::{Line, MapObject, Media, Platform, Point, Polygon, Side, SideTexture, NONE};
use super::shapes::{ColorEntry, BITMAP_COLUMN_ORDER, BITMAP_TRANSPARENT};

fn be16(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&(v as u16).to_be_bytes());
}

fn be32(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&(v as u32).to_be_bytes());
}

/// `text` in Mac Roman, as the games wrote it, cut or NUL-padded to `n` bytes.
fn padded(out: &mut Vec<u8>, text: &str, n: usize) {
    let mut b = mac_roman::encode(text);
    b.resize(n, 0);
    out.extend_from_slice(&b[..n]);
}

/// One level: its chunks in order.
#[derive(Clone, Debug, Default)]
pub struct LevelChunks {
    pub name: String,
    pub chunks: Vec<([u8; 4], Vec<u8>)>,
}

/// A wad with `version` (0..4) and `data_version`; levels become directory entries.
pub fn wad(version: u16, data_version: u16, name: &str, levels: &[LevelChunks]) -> Vec<u8> {
    let (chunk_header, entry_base, app_data) = match version {
        0 | 1 => (12usize, 8usize, 0usize),
        2 | 3 => (16, 10, 0),
        _ => (16, 10, 74),
    };
    let mut body = Vec::new();
    let mut directory = Vec::new();
    for (i, level) in levels.iter().enumerate() {
        let offset = 128 + body.len();
        let mut entry = Vec::new();
        for (k, (tag, data)) in level.chunks.iter().enumerate() {
            let start = entry.len();
            let next =
                if k + 1 == level.chunks.len() { 0 } else { start + chunk_header + data.len() };
            entry.extend_from_slice(tag);
            be32(&mut entry, next as i64);
            be32(&mut entry, data.len() as i64);
            if chunk_header == 16 {
                be32(&mut entry, 0);
            }
            entry.extend_from_slice(data);
        }
        be32(&mut directory, offset as i64);
        be32(&mut directory, entry.len() as i64);
        if entry_base == 10 {
            be16(&mut directory, i as i32);
        }
        if app_data == 74 {
            be16(&mut directory, 0);
            be16(&mut directory, 0);
            be32(&mut directory, 1);
            padded(&mut directory, &level.name, 66);
        }
        body.extend_from_slice(&entry);
    }
    let mut out = Vec::new();
    be16(&mut out, version as i32);
    be16(&mut out, data_version as i32);
    padded(&mut out, name, 64);
    be32(&mut out, 0); // checksum, filled in below
    be32(&mut out, (128 + body.len()) as i64);
    be16(&mut out, levels.len() as i32);
    be16(&mut out, app_data as i32);
    be16(&mut out, if version >= 2 { chunk_header as i32 } else { 0 });
    be16(&mut out, if version >= 2 { entry_base as i32 } else { 0 });
    be32(&mut out, 0);
    out.resize(128, 0);
    out.extend_from_slice(&body);
    out.extend_from_slice(&directory);
    let sum = crc32(&out);
    out[68..72].copy_from_slice(&sum.to_be_bytes());
    out
}

/// MacBinary II around `data` (data fork only), CRC-16/XMODEM over the header.
pub fn macbinary(name: &str, file_type: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    let n = name.len().min(63);
    h[1] = n as u8;
    h[2..2 + n].copy_from_slice(&name.as_bytes()[..n]);
    h[65..69].copy_from_slice(file_type);
    h[69..73].copy_from_slice(b"26.\x00");
    h[83..87].copy_from_slice(&(data.len() as u32).to_be_bytes());
    h[122] = 129;
    h[123] = 129;
    let crc = crc16_xmodem(&h[..124]);
    h[124..126].copy_from_slice(&crc.to_be_bytes());
    let mut out = h;
    out.extend_from_slice(data);
    out.resize(out.len().div_ceil(128) * 128, 0);
    out
}

/// AppleSingle version 2 with a real-name entry and the data fork.
pub fn applesingle(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    be32(&mut out, 0x0005_1600);
    be32(&mut out, 0x0002_0000);
    out.resize(24, 0);
    be16(&mut out, 2);
    let name_at = 26 + 2 * 12;
    let data_at = name_at + name.len();
    for (id, at, len) in [(3, name_at, name.len()), (1, data_at, data.len())] {
        be32(&mut out, id);
        be32(&mut out, at as i64);
        be32(&mut out, len as i64);
    }
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(data);
    out
}

pub fn point(out: &mut Vec<u8>, p: Point) {
    be16(out, p.x as i32);
    be16(out, p.y as i32);
}

pub fn pnts(points: &[Point]) -> Vec<u8> {
    let mut out = Vec::new();
    points.iter().for_each(|&p| point(&mut out, p));
    out
}

/// Marathon 1 endpoints (16 bytes, cached fields zero).
pub fn epnt(points: &[Point]) -> Vec<u8> {
    let mut out = Vec::new();
    for &p in points {
        out.extend_from_slice(&[0; 6]);
        point(&mut out, p);
        out.extend_from_slice(&[0; 6]);
    }
    out
}

pub fn lins(lines: &[Line]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lines {
        for v in [
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
        ] {
            be16(&mut out, v as i32);
        }
        out.extend_from_slice(&[0; 12]);
    }
    out
}

fn side_texture(out: &mut Vec<u8>, t: SideTexture) {
    be16(out, t.x0 as i32);
    be16(out, t.y0 as i32);
    be16(out, t.texture as i32);
}

pub fn sids(sides: &[Side]) -> Vec<u8> {
    let mut out = Vec::new();
    for s in sides {
        be16(&mut out, s.kind as i32);
        be16(&mut out, s.flags as i32);
        side_texture(&mut out, s.primary);
        side_texture(&mut out, s.secondary);
        side_texture(&mut out, s.transparent);
        out.extend_from_slice(&[0; 20]);
        s.transfer_modes.iter().for_each(|&m| be16(&mut out, m as i32));
        be16(&mut out, s.stored_polygon as i32);
        be16(&mut out, s.stored_line as i32);
        s.lights.iter().for_each(|&l| be16(&mut out, l as i32));
        be32(&mut out, s.ambient_delta as i64);
        out.extend_from_slice(&[0; 2]);
    }
    out
}

pub fn poly(polygons: &[Polygon]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in polygons {
        let start = out.len();
        be16(&mut out, p.kind as i32);
        be16(&mut out, p.flags as i32);
        be16(&mut out, p.permutation as i32);
        be16(&mut out, p.vertex_count as i32);
        p.endpoints.iter().chain(&p.lines).for_each(|&v| be16(&mut out, v as i32));
        be16(&mut out, p.floor_texture as i32);
        be16(&mut out, p.ceiling_texture as i32);
        be16(&mut out, p.floor_height as i32);
        be16(&mut out, p.ceiling_height as i32);
        be16(&mut out, p.floor_light as i32);
        be16(&mut out, p.ceiling_light as i32);
        be32(&mut out, p.area as i64);
        be16(&mut out, NONE as i32);
        out.extend_from_slice(&[0; 6]);
        be16(&mut out, p.floor_transfer_mode as i32);
        be16(&mut out, p.ceiling_transfer_mode as i32);
        out.extend_from_slice(&[0xFF; 16]);
        out.extend_from_slice(&[0; 4]);
        point(&mut out, p.center);
        p.sides.iter().for_each(|&v| be16(&mut out, v as i32));
        point(&mut out, p.floor_origin);
        point(&mut out, p.ceiling_origin);
        be16(&mut out, p.media as i32);
        be16(&mut out, p.media_light as i32);
        out.resize(start + 128, 0);
    }
    out
}

pub fn lite(lights: &[StaticLight]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lights {
        be16(&mut out, l.kind as i32);
        be16(&mut out, l.flags as i32);
        be16(&mut out, l.phase as i32);
        for f in &l.functions {
            be16(&mut out, f.function as i32);
            be16(&mut out, f.period as i32);
            be16(&mut out, f.delta_period as i32);
            be32(&mut out, f.intensity as i64);
            be32(&mut out, f.delta_intensity as i64);
        }
        be16(&mut out, l.tag as i32);
        out.extend_from_slice(&[0; 8]);
    }
    out
}

pub fn old_lite(lights: &[OldLight]) -> Vec<u8> {
    let mut out = Vec::new();
    for l in lights {
        be16(&mut out, l.flags as i32);
        be16(&mut out, l.kind as i32);
        be16(&mut out, l.mode as i32);
        be16(&mut out, l.phase as i32);
        be32(&mut out, l.minimum_intensity as i64);
        be32(&mut out, l.maximum_intensity as i64);
        be16(&mut out, l.period as i32);
        be32(&mut out, l.maximum_intensity as i64);
        out.extend_from_slice(&[0; 10]);
    }
    out
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
    let mut out = Vec::new();
    for o in objects {
        for v in [o.kind as i16, o.index, o.facing, o.polygon, o.x, o.y, o.z, o.flags as i16] {
            be16(&mut out, v as i32);
        }
    }
    out
}

pub fn plat(platforms: &[Platform]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in platforms {
        for v in [p.kind as i16, p.speed, p.delay, p.maximum_height, p.minimum_height] {
            be16(&mut out, v as i32);
        }
        be32(&mut out, p.static_flags as i64);
        be16(&mut out, p.polygon as i32);
        be16(&mut out, p.tag as i32);
        out.extend_from_slice(&[0; 14]);
    }
    out
}

pub fn medi(media: &[Media]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in media {
        for v in [m.kind as i16, m.flags as i16, m.light, m.direction, m.magnitude, m.low, m.high] {
            be16(&mut out, v as i32);
        }
        point(&mut out, m.origin);
        be16(&mut out, m.height as i32);
        be32(&mut out, m.minimum_light as i64);
        be16(&mut out, m.texture as i32);
        be16(&mut out, m.transfer_mode as i32);
        out.extend_from_slice(&[0; 4]);
    }
    out
}

pub fn minf(name: &str, environment: u16) -> Vec<u8> {
    let mut out = Vec::new();
    be16(&mut out, environment as i32);
    be16(&mut out, 1);
    out.extend_from_slice(&[0; 14]);
    padded(&mut out, name, 66);
    be32(&mut out, 1);
    out
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

fn collection_bytes(c: &CollectionSpec) -> Vec<u8> {
    let mut out = vec![0u8; 544];
    let mut tail = Vec::new();
    let at = |tail: &Vec<u8>| 544 + tail.len();
    let table_offset = at(&tail);
    let colors = c.tables.first().map_or(0, Vec::len);
    for t in &c.tables {
        for e in t {
            tail.push(e.flags);
            tail.push(e.value);
            e.rgb16.iter().for_each(|&v| be16(&mut tail, v as i32));
        }
    }
    let mut bitmap_offsets = Vec::new();
    for b in &c.bitmaps {
        bitmap_offsets.push(at(&tail));
        let (lines, len) = if b.column_order { (b.width, b.height) } else { (b.height, b.width) };
        be16(&mut tail, b.width as i32);
        be16(&mut tail, b.height as i32);
        be16(&mut tail, if b.rle { -1 } else { len as i32 });
        let flags = if b.column_order { BITMAP_COLUMN_ORDER } else { 0 }
            | if b.transparent || b.rle { BITMAP_TRANSPARENT } else { 0 };
        be16(&mut tail, flags as i32);
        be16(&mut tail, 8);
        tail.extend_from_slice(&[0; 16]);
        tail.extend(std::iter::repeat_n(0u8, 4 * (lines + 1)));
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
                be16(&mut tail, first as i32);
                be16(&mut tail, last as i32);
                tail.extend((first..last).map(|p| px(l, p)));
            } else {
                tail.extend((0..len).map(|p| px(l, p)));
            }
        }
    }
    let mut frame_offsets = Vec::new();
    for k in 0..c.bitmaps.len() {
        frame_offsets.push(at(&tail));
        be16(&mut tail, 0);
        be32(&mut tail, 0);
        be16(&mut tail, k as i32);
        let b = &c.bitmaps[k];
        be16(&mut tail, b.width as i32 / 2);
        be16(&mut tail, b.height as i32);
        tail.extend_from_slice(&[0; 24]);
    }
    let mut sequence_offsets = Vec::new();
    for &first in &c.sequences {
        sequence_offsets.push(at(&tail));
        let start = tail.len();
        be16(&mut tail, 0);
        be16(&mut tail, 0);
        tail.push(0);
        tail.resize(start + 38, 0);
        be16(&mut tail, 1); // views
        be16(&mut tail, 1); // frames per view
        be16(&mut tail, 1); // ticks per frame
        tail.resize(start + 88, 0);
        be16(&mut tail, first as i32);
        be16(&mut tail, 0);
    }
    let table = |offsets: &[usize], tail: &mut Vec<u8>| {
        let at = 544 + tail.len();
        offsets.iter().for_each(|&o| be32(tail, o as i64));
        at
    };
    let seq_table = table(&sequence_offsets, &mut tail);
    let frame_table = table(&frame_offsets, &mut tail);
    let bitmap_table = table(&bitmap_offsets, &mut tail);
    let mut h = Vec::new();
    be16(&mut h, 3);
    be16(&mut h, c.kind as i32);
    be16(&mut h, 0);
    be16(&mut h, colors as i32);
    be16(&mut h, c.tables.len() as i32);
    be32(&mut h, table_offset as i64);
    be16(&mut h, c.sequences.len() as i32);
    be32(&mut h, seq_table as i64);
    be16(&mut h, c.bitmaps.len() as i32);
    be32(&mut h, frame_table as i64);
    be16(&mut h, c.bitmaps.len() as i32);
    be32(&mut h, bitmap_table as i64);
    be16(&mut h, c.pixels_to_world as i32);
    be32(&mut h, (544 + tail.len()) as i64);
    out[..h.len()].copy_from_slice(&h);
    out.extend_from_slice(&tail);
    out
}

/// A Shapes file with the given collections (the others absent).
pub fn shapes(collections: &[CollectionSpec]) -> Vec<u8> {
    let mut out = vec![0u8; 32 * 32];
    for i in 0..32 {
        out[i * 32 + 4..i * 32 + 8].copy_from_slice(&(-1i32).to_be_bytes());
        out[i * 32 + 12..i * 32 + 16].copy_from_slice(&(-1i32).to_be_bytes());
    }
    for c in collections {
        let bytes = collection_bytes(c);
        let (at, len) = (out.len() as i32, bytes.len() as i32);
        let h = &mut out[c.index * 32..c.index * 32 + 32];
        for (k, v) in [at, len, at, len].iter().enumerate() {
            h[4 + 4 * k..8 + 4 * k].copy_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(&bytes);
    }
    out
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
