//! Map chunks of one level: endpoints, lines, sides, polygons, objects, platforms, media,
//! annotations and the static map info. Record layouts follow the engine (see the fixture
//! README where the seed spec is wrong: side light fields, polygon tail, Minf name offset).

use super::wad::{c_string, Chunk};
use crate::formats::{Reader, Result};

/// "No index" in 16-bit fields.
pub const NONE: i16 = -1;

pub const POLYGON_SIZE: usize = 128;
pub const SIDE_SIZE: usize = 64;
pub const LINE_SIZE: usize = 32;

/// Reads `chunk` as consecutive records of `size` bytes; a trailing partial record is an error
/// naming the chunk.
pub fn records<'a, T>(
    file: &'a str,
    structure: &'a str,
    chunk: &Chunk<'a>,
    size: usize,
    mut parse: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let r = Reader::with_base(file, structure, chunk.data, chunk.offset as u64);
    if !chunk.data.len().is_multiple_of(size) {
        return Err(r.error_at(
            0,
            format!(
                "'{}' chunk of {} bytes is not a whole number of {size}-byte records",
                chunk.tag_text(),
                chunk.data.len()
            ),
        ));
    }
    let count = chunk.data.len() / size;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mut rec = r.clone();
        rec.seek(i * size)?;
        out.push(parse(&mut rec)?);
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    pub x: i16,
    pub y: i16,
}

pub fn point(r: &mut Reader) -> Result<Point> {
    Ok(Point { x: r.i16_be()?, y: r.i16_be()? })
}

/// `EPNT` record: the position sits at byte 6 after flags and cached heights.
pub fn endpoint_record(r: &mut Reader) -> Result<Point> {
    r.skip(6)?;
    point(r)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    pub endpoints: [i16; 2],
    pub flags: u16,
    pub length: i16,
    pub highest_adjacent_floor: i16,
    pub lowest_adjacent_ceiling: i16,
    pub clockwise_side: i16,
    pub counterclockwise_side: i16,
    pub clockwise_polygon: i16,
    pub counterclockwise_polygon: i16,
}

pub mod line_flags {
    pub const SOLID: u16 = 0x4000;
    pub const TRANSPARENT: u16 = 0x2000;
    pub const LANDSCAPE: u16 = 0x1000;
}

pub fn line(r: &mut Reader) -> Result<Line> {
    Ok(Line {
        endpoints: [r.i16_be()?, r.i16_be()?],
        flags: r.u16_be()?,
        length: r.i16_be()?,
        highest_adjacent_floor: r.i16_be()?,
        lowest_adjacent_ceiling: r.i16_be()?,
        clockwise_side: r.i16_be()?,
        counterclockwise_side: r.i16_be()?,
        clockwise_polygon: r.i16_be()?,
        counterclockwise_polygon: r.i16_be()?,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideTexture {
    pub x0: i16,
    pub y0: i16,
    /// Shape descriptor (0xFFFF = none).
    pub texture: u16,
}

fn side_texture(r: &mut Reader) -> Result<SideTexture> {
    Ok(SideTexture { x0: r.i16_be()?, y0: r.i16_be()?, texture: r.u16_be()? })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideType {
    Full,
    High,
    Low,
    Composite,
    Split,
}

impl SideType {
    pub fn from_u16(v: u16) -> Option<SideType> {
        Some(match v {
            0 => SideType::Full,
            1 => SideType::High,
            2 => SideType::Low,
            3 => SideType::Composite,
            4 => SideType::Split,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            SideType::Full => "full",
            SideType::High => "high",
            SideType::Low => "low",
            SideType::Composite => "composite",
            SideType::Split => "split",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    /// Raw type; see [`SideType::from_u16`].
    pub kind: u16,
    pub flags: u16,
    pub primary: SideTexture,
    pub secondary: SideTexture,
    pub transparent: SideTexture,
    pub transfer_modes: [u16; 3],
    /// As stored; real Marathon 1 files carry stale values here (ownership comes from lines).
    pub stored_polygon: i16,
    pub stored_line: i16,
    /// Primary, secondary, transparent light indices (zero in Marathon 1 files).
    pub lights: [i16; 3],
    /// 16.16 fixed.
    pub ambient_delta: i32,
}

pub fn side(r: &mut Reader) -> Result<Side> {
    let kind = r.u16_be()?;
    let flags = r.u16_be()?;
    let primary = side_texture(r)?;
    let secondary = side_texture(r)?;
    let transparent = side_texture(r)?;
    r.skip(16 + 4)?; // exclusion zone, control panel type and permutation
    let transfer_modes = [r.u16_be()?, r.u16_be()?, r.u16_be()?];
    let stored_polygon = r.i16_be()?;
    let stored_line = r.i16_be()?;
    let lights = [r.i16_be()?, r.i16_be()?, r.i16_be()?];
    let ambient_delta = r.i32_be()?;
    Ok(Side {
        kind,
        flags,
        primary,
        secondary,
        transparent,
        transfer_modes,
        stored_polygon,
        stored_line,
        lights,
        ambient_delta,
    })
}

#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    pub kind: u16,
    pub flags: u16,
    pub permutation: i16,
    pub vertex_count: u16,
    pub endpoints: [i16; 8],
    pub lines: [i16; 8],
    pub floor_texture: u16,
    pub ceiling_texture: u16,
    pub floor_height: i16,
    pub ceiling_height: i16,
    pub floor_light: i16,
    pub ceiling_light: i16,
    pub area: i32,
    pub floor_transfer_mode: u16,
    pub ceiling_transfer_mode: u16,
    pub center: Point,
    pub sides: [i16; 8],
    pub floor_origin: Point,
    pub ceiling_origin: Point,
    /// As stored (zero in Marathon 1 files, where it means nothing).
    pub media: i16,
    pub media_light: i16,
}

fn array8(r: &mut Reader) -> Result<[i16; 8]> {
    let mut a = [0i16; 8];
    for v in &mut a {
        *v = r.i16_be()?;
    }
    Ok(a)
}

pub fn polygon(r: &mut Reader) -> Result<Polygon> {
    let kind = r.u16_be()?;
    let flags = r.u16_be()?;
    let permutation = r.i16_be()?;
    let vertex_count = r.u16_be()?;
    let endpoints = array8(r)?;
    let lines = array8(r)?;
    let floor_texture = r.u16_be()?;
    let ceiling_texture = r.u16_be()?;
    let floor_height = r.i16_be()?;
    let ceiling_height = r.i16_be()?;
    let floor_light = r.i16_be()?;
    let ceiling_light = r.i16_be()?;
    let area = r.i32_be()?;
    r.skip(8)?; // first object, exclusion zone
    let floor_transfer_mode = r.u16_be()?;
    let ceiling_transfer_mode = r.u16_be()?;
    r.skip(16 + 4)?; // adjacent polygons, neighbour list
    let center = point(r)?;
    let sides = array8(r)?;
    let floor_origin = point(r)?;
    let ceiling_origin = point(r)?;
    let media = r.i16_be()?;
    let media_light = r.i16_be()?;
    Ok(Polygon {
        kind,
        flags,
        permutation,
        vertex_count,
        endpoints,
        lines,
        floor_texture,
        ceiling_texture,
        floor_height,
        ceiling_height,
        floor_light,
        ceiling_light,
        area,
        floor_transfer_mode,
        ceiling_transfer_mode,
        center,
        sides,
        floor_origin,
        ceiling_origin,
        media,
        media_light,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapObject {
    /// 0 monster, 1 scenery, 2 item, 3 player start, 4 goal, 5 sound source.
    pub kind: u16,
    pub index: i16,
    /// 512 units a full turn, from +X towards +Y.
    pub facing: i16,
    pub polygon: i16,
    pub x: i16,
    pub y: i16,
    pub z: i16,
    pub flags: u16,
}

pub mod object_kind {
    pub const MONSTER: u16 = 0;
    pub const SCENERY: u16 = 1;
    pub const ITEM: u16 = 2;
    pub const PLAYER: u16 = 3;
}

/// Object flag: z is measured down from the ceiling.
pub const OBJECT_HANGS_FROM_CEILING: u16 = 0x0002;

pub fn map_object(r: &mut Reader) -> Result<MapObject> {
    Ok(MapObject {
        kind: r.u16_be()?,
        index: r.i16_be()?,
        facing: r.i16_be()?,
        polygon: r.i16_be()?,
        x: r.i16_be()?,
        y: r.i16_be()?,
        z: r.i16_be()?,
        flags: r.u16_be()?,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub kind: u16,
    pub location: Point,
    pub polygon: i16,
    pub text: String,
}

pub fn annotation(r: &mut Reader) -> Result<Annotation> {
    Ok(Annotation {
        kind: r.u16_be()?,
        location: point(r)?,
        polygon: r.i16_be()?,
        text: c_string(r.bytes(64)?),
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Platform {
    pub kind: u16,
    pub speed: i16,
    pub delay: i16,
    pub maximum_height: i16,
    pub minimum_height: i16,
    pub static_flags: u32,
    pub polygon: i16,
    pub tag: i16,
}

pub mod platform_flags {
    pub const INITIALLY_EXTENDED: u32 = 1 << 1;
    pub const EXTENDS_FLOOR_TO_CEILING: u32 = 1 << 5;
    pub const COMES_FROM_FLOOR: u32 = 1 << 6;
    pub const COMES_FROM_CEILING: u32 = 1 << 7;
    pub const USES_NATIVE_POLYGON_HEIGHTS: u32 = 1 << 17;
}

pub fn platform(r: &mut Reader) -> Result<Platform> {
    Ok(Platform {
        kind: r.u16_be()?,
        speed: r.i16_be()?,
        delay: r.i16_be()?,
        maximum_height: r.i16_be()?,
        minimum_height: r.i16_be()?,
        static_flags: r.u32_be()?,
        polygon: r.i16_be()?,
        tag: r.i16_be()?,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Media {
    /// 0 water, 1 lava, 2 goo, 3 sewage, 4 jjaro.
    pub kind: u16,
    pub flags: u16,
    /// Light whose intensity sets the height between low and high.
    pub light: i16,
    pub direction: i16,
    pub magnitude: i16,
    pub low: i16,
    pub high: i16,
    pub origin: Point,
    pub height: i16,
    pub minimum_light: i32,
    pub texture: u16,
    pub transfer_mode: u16,
}

pub fn media(r: &mut Reader) -> Result<Media> {
    Ok(Media {
        kind: r.u16_be()?,
        flags: r.u16_be()?,
        light: r.i16_be()?,
        direction: r.i16_be()?,
        magnitude: r.i16_be()?,
        low: r.i16_be()?,
        high: r.i16_be()?,
        origin: point(r)?,
        height: r.i16_be()?,
        minimum_light: r.i32_be()?,
        texture: r.u16_be()?,
        transfer_mode: r.u16_be()?,
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapInfo {
    pub environment_code: u16,
    pub physics_model: u16,
    /// Landscape (Marathon 2) or song (Marathon 1) index.
    pub landscape_or_song: u16,
    pub mission_flags: u16,
    pub environment_flags: u16,
    pub name: String,
    pub entry_point_flags: u32,
}

pub const MAP_INFO_SIZE: usize = 88;

pub fn map_info(r: &mut Reader) -> Result<MapInfo> {
    let environment_code = r.u16_be()?;
    let physics_model = r.u16_be()?;
    let landscape_or_song = r.u16_be()?;
    let mission_flags = r.u16_be()?;
    let environment_flags = r.u16_be()?;
    r.skip(8)?;
    let name = c_string(r.bytes(66)?);
    let entry_point_flags = r.u32_be()?;
    Ok(MapInfo {
        environment_code,
        physics_model,
        landscape_or_song,
        mission_flags,
        environment_flags,
        name,
        entry_point_flags,
    })
}
