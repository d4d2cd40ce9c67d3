//! The level-data segment: a 60-byte header of counts and sizes, then the chunks in the order
//! of the seed's offset code (not the header's order).
//!
//! Where the seed contradicts itself the offset code wins: unknown records are 128 bytes, and
//! the first block after the poly-links is `4 * mEntityPolyLinkData2Count` bytes, the second
//! `2 * mEntityPolyLinkData1Count`.

use crate::formats::{Reader, Result};

use super::tiles::{RawTileRecord, TILE_RECORD_BYTES};

pub const HEADER_BYTES: usize = 60;

/// The 15 header fields, in file order, by their seed names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelHeader {
    pub unknown1: u32,
    pub unknown2: u32,
    pub node_count: u32,
    pub plane_count: u32,
    pub vert_count: u32,
    pub quad_count: u32,
    pub tile_texture_data_size: u32,
    pub tile_entry_count: u32,
    pub tile_color_data_size: u32,
    pub entity_count: u32,
    pub entity_data_size: u32,
    pub poly_link_count: u32,
    pub poly_link_data1_count: u32,
    pub poly_link_data2_count: u32,
    pub unknown_count: u32,
}

pub const HEADER_FIELD_NAMES: [&str; 15] = [
    "mUnknown1",
    "mUnknown2",
    "mNodeCount",
    "mPlaneCount",
    "mVertCount",
    "mQuadCount",
    "mTileTextureDataSize",
    "mTileEntryCount",
    "mTileColorDataSize",
    "mEntityCount",
    "mEntityDataSize",
    "mEntityPolyLinkCount",
    "mEntityPolyLinkData1Count",
    "mEntityPolyLinkData2Count",
    "mUnknownCount",
];

impl LevelHeader {
    fn parse(r: &mut Reader) -> Result<LevelHeader> {
        if r.remaining() < HEADER_BYTES {
            return Err(r.error(format!(
                "the {HEADER_BYTES}-byte level header is cut off ({} bytes remain)",
                r.remaining()
            )));
        }
        let mut f = [0u32; 15];
        for v in &mut f {
            *v = r.u32_be()?;
        }
        Ok(LevelHeader {
            unknown1: f[0],
            unknown2: f[1],
            node_count: f[2],
            plane_count: f[3],
            vert_count: f[4],
            quad_count: f[5],
            tile_texture_data_size: f[6],
            tile_entry_count: f[7],
            tile_color_data_size: f[8],
            entity_count: f[9],
            entity_data_size: f[10],
            poly_link_count: f[11],
            poly_link_data1_count: f[12],
            poly_link_data2_count: f[13],
            unknown_count: f[14],
        })
    }

    /// The fields in file order (for `info`).
    pub fn fields(&self) -> [u32; 15] {
        [
            self.unknown1,
            self.unknown2,
            self.node_count,
            self.plane_count,
            self.vert_count,
            self.quad_count,
            self.tile_texture_data_size,
            self.tile_entry_count,
            self.tile_color_data_size,
            self.entity_count,
            self.entity_data_size,
            self.poly_link_count,
            self.poly_link_data1_count,
            self.poly_link_data2_count,
            self.unknown_count,
        ]
    }
}

/// Chunks of the level-data segment in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk {
    Nodes,
    Planes,
    Tiles,
    Verts,
    Quads,
    Entities,
    EntityPolyLinks,
    EntityPolyLinkData1,
    EntityPolyLinkData2,
    EntityData,
    TileTextureData,
    TileColorData,
    Unknown,
}

impl Chunk {
    pub const ALL: [Chunk; 13] = [
        Chunk::Nodes,
        Chunk::Planes,
        Chunk::Tiles,
        Chunk::Verts,
        Chunk::Quads,
        Chunk::Entities,
        Chunk::EntityPolyLinks,
        Chunk::EntityPolyLinkData1,
        Chunk::EntityPolyLinkData2,
        Chunk::EntityData,
        Chunk::TileTextureData,
        Chunk::TileColorData,
        Chunk::Unknown,
    ];

    /// Structure name used in errors and `info`.
    pub fn name(self) -> &'static str {
        match self {
            Chunk::Nodes => "level data: Nodes",
            Chunk::Planes => "level data: Planes",
            Chunk::Tiles => "level data: Tiles",
            Chunk::Verts => "level data: Verts",
            Chunk::Quads => "level data: Quads",
            Chunk::Entities => "level data: Entities",
            Chunk::EntityPolyLinks => "level data: EntityPolyLinks",
            Chunk::EntityPolyLinkData1 => "level data: EntityPolyLinkData1",
            Chunk::EntityPolyLinkData2 => "level data: EntityPolyLinkData2",
            Chunk::EntityData => "level data: EntityData",
            Chunk::TileTextureData => "level data: TileTextureData",
            Chunk::TileColorData => "level data: TileColorData",
            Chunk::Unknown => "level data: Unknown",
        }
    }

    /// (record count, record size) as the offset code sizes the chunk; byte blocks are
    /// counted as records of one byte.
    fn extent(self, h: &LevelHeader) -> (u64, u64) {
        let n = |v: u32| v as u64;
        match self {
            Chunk::Nodes => (n(h.node_count), 28),
            Chunk::Planes => (n(h.plane_count), 40),
            Chunk::Tiles => (n(h.tile_entry_count), TILE_RECORD_BYTES as u64),
            Chunk::Verts => (n(h.vert_count), 8),
            Chunk::Quads => (n(h.quad_count), 5),
            Chunk::Entities => (n(h.entity_count), 4),
            Chunk::EntityPolyLinks => (n(h.poly_link_count), 18),
            Chunk::EntityPolyLinkData1 => (n(h.poly_link_data2_count), 4),
            Chunk::EntityPolyLinkData2 => (n(h.poly_link_data1_count), 2),
            Chunk::EntityData => (n(h.entity_data_size), 1),
            Chunk::TileTextureData => (n(h.tile_texture_data_size), 1),
            Chunk::TileColorData => (n(h.tile_color_data_size), 1),
            Chunk::Unknown => (n(h.unknown_count), 128),
        }
    }
}

/// Chunk offsets relative to the start of the level-data segment (the seed's `mOffsets`),
/// computed in 64 bits so huge counts cannot wrap into plausible offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkLayout {
    /// Start of each chunk of [`Chunk::ALL`].
    pub starts: [u64; 13],
    /// Start of the next segment (the seed's `kLS_RemainingData`): the segment size.
    pub end: u64,
}

impl ChunkLayout {
    pub fn compute(h: &LevelHeader) -> ChunkLayout {
        let mut starts = [0u64; 13];
        let mut at = HEADER_BYTES as u64;
        for (slot, chunk) in starts.iter_mut().zip(Chunk::ALL) {
            *slot = at;
            let (count, size) = chunk.extent(h);
            at += count * size;
        }
        ChunkLayout { starts, end: at }
    }

    pub fn start(&self, chunk: Chunk) -> u64 {
        self.starts[chunk as usize]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub pos: [i16; 3],
    pub distance: i16,
    pub first_plane: u16,
    pub last_plane: u16,
}

/// Value of 16-bit indices that mean "none".
pub const NONE16: u16 = 0xFFFF;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Outline of the plane (not drawn).
    pub vert_indices: [u16; 4],
    pub node_index: u16,
    pub flags: u16,
    pub collision_flags: u16,
    pub tile_index: u16,
    pub unknown_index: u16,
    pub quad_start: u16,
    /// Inclusive.
    pub quad_end: u16,
    /// Base added to the quads' vertex indices.
    pub vert_start: u16,
    pub vert_end: u16,
    /// Normal (16384 = 1.0) and distance.
    pub plane: [i16; 4],
    pub angle: i16,
}

impl Plane {
    /// Quads drawn for the plane; `None` when the start is past the end ("N/A").
    pub fn quad_range(&self) -> Option<std::ops::RangeInclusive<usize>> {
        (self.quad_start <= self.quad_end)
            .then_some(self.quad_start as usize..=self.quad_end as usize)
    }

    pub fn tile_set(&self) -> Option<usize> {
        (self.tile_index != NONE16).then_some(self.tile_index as usize)
    }

    pub fn normal_fixed(&self) -> [i16; 3] {
        [self.plane[0], self.plane[1], self.plane[2]]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    pub pos: [i16; 3],
    /// Light index in the high byte; the low byte is not used.
    pub color: u16,
}

impl Vertex {
    pub fn light_index(&self) -> u8 {
        (self.color >> 8) as u8
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quad {
    /// Plane-relative (unsigned) vertex indices.
    pub indices: [u8; 4],
    pub texture: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entity {
    pub kind: u16,
    /// Byte offset into the entity data block.
    pub data_offset: u16,
}

/// Entity type of the poly-object movers (42 data bytes).
pub const MOVER_TYPE: u16 = 0x92;
pub const MOVER_DATA_BYTES: usize = 42;

/// Everything in the level-data segment, tile records still undecided between layouts.
#[derive(Clone, Debug)]
pub struct LevelData {
    /// Absolute file offset of the segment.
    pub offset: u64,
    pub header: LevelHeader,
    pub layout: ChunkLayout,
    pub nodes: Vec<Node>,
    pub planes: Vec<Plane>,
    pub tile_records: Vec<RawTileRecord>,
    pub vertices: Vec<Vertex>,
    pub quads: Vec<Quad>,
    pub entities: Vec<Entity>,
    pub poly_links: Vec<[u8; 18]>,
    pub entity_data: Vec<u8>,
    pub tile_texture_data: Vec<u8>,
    pub tile_color_data: Vec<u8>,
}

impl LevelData {
    /// Parses the segment at the reader's position and leaves the reader after it.
    pub fn parse(r: &mut Reader<'_>) -> Result<LevelData> {
        let seg = r.pos();
        let header = LevelHeader::parse(&mut r.structure("level data header"))?;
        let layout = ChunkLayout::compute(&header);
        check_chunks_fit(r, seg, &header, &layout)?;
        let at = |c: Chunk| seg + layout.start(c) as usize;
        let reader = |c: Chunk| -> Result<Reader> {
            let mut cr = r.structure(c.name());
            cr.seek(at(c))?;
            Ok(cr)
        };

        let mut cr = reader(Chunk::Nodes)?;
        let nodes = records(&mut cr, header.node_count, 28, |cr| {
            cr.skip(4)?;
            let pos = [cr.i16_be()?, cr.i16_be()?, cr.i16_be()?];
            let distance = cr.i16_be()?;
            let first_plane = cr.u16_be()?;
            let last_plane = cr.u16_be()?;
            cr.skip(12)?;
            Ok(Node { pos, distance, first_plane, last_plane })
        })?;

        let mut cr = reader(Chunk::Planes)?;
        let planes = records(&mut cr, header.plane_count, 40, |cr| {
            let mut u = [0u16; 13];
            for v in &mut u {
                *v = cr.u16_be()?;
            }
            let plane = [cr.i16_be()?, cr.i16_be()?, cr.i16_be()?, cr.i16_be()?];
            let angle = cr.i16_be()?;
            cr.skip(4)?;
            Ok(Plane {
                vert_indices: [u[0], u[1], u[2], u[3]],
                node_index: u[4],
                flags: u[5],
                collision_flags: u[6],
                tile_index: u[7],
                unknown_index: u[8],
                quad_start: u[9],
                quad_end: u[10],
                vert_start: u[11],
                vert_end: u[12],
                plane,
                angle,
            })
        })?;

        let mut cr = reader(Chunk::Tiles)?;
        let tile_records = records(&mut cr, header.tile_entry_count, TILE_RECORD_BYTES, |cr| {
            let offset = cr.pos() as u64;
            let mut bytes = [0u8; TILE_RECORD_BYTES];
            bytes.copy_from_slice(cr.bytes(TILE_RECORD_BYTES)?);
            Ok(RawTileRecord { offset, bytes })
        })?;

        let mut cr = reader(Chunk::Verts)?;
        let vertices = records(&mut cr, header.vert_count, 8, |cr| {
            let pos = [cr.i16_be()?, cr.i16_be()?, cr.i16_be()?];
            Ok(Vertex { pos, color: cr.u16_be()? })
        })?;

        let mut cr = reader(Chunk::Quads)?;
        let quads = records(&mut cr, header.quad_count, 5, |cr| {
            let indices = [cr.u8()?, cr.u8()?, cr.u8()?, cr.u8()?];
            Ok(Quad { indices, texture: cr.u8()? })
        })?;

        let mut cr = reader(Chunk::Entities)?;
        let entities = records(&mut cr, header.entity_count, 4, |cr| {
            Ok(Entity { kind: cr.u16_be()?, data_offset: cr.u16_be()? })
        })?;

        let mut cr = reader(Chunk::EntityPolyLinks)?;
        let poly_links = records(&mut cr, header.poly_link_count, 18, |cr| {
            let mut b = [0u8; 18];
            b.copy_from_slice(cr.bytes(18)?);
            Ok(b)
        })?;

        let block =
            |c: Chunk, n: u32| -> Result<Vec<u8>> { Ok(reader(c)?.bytes(n as usize)?.to_vec()) };
        let entity_data = block(Chunk::EntityData, header.entity_data_size)?;
        let tile_texture_data = block(Chunk::TileTextureData, header.tile_texture_data_size)?;
        let tile_color_data = block(Chunk::TileColorData, header.tile_color_data_size)?;

        r.seek(seg + layout.end as usize)?;
        Ok(LevelData {
            offset: seg as u64,
            header,
            layout,
            nodes,
            planes,
            tile_records,
            vertices,
            quads,
            entities,
            poly_links,
            entity_data,
            tile_texture_data,
            tile_color_data,
        })
    }

    /// Data bytes of entity `i`: from its offset to the next larger offset (or the end of the
    /// block); movers are cut to their documented 42 bytes.
    pub fn entity_bytes(&self, i: usize) -> Option<&[u8]> {
        let e = self.entities.get(i)?;
        let start = e.data_offset as usize;
        let next = self
            .entities
            .iter()
            .map(|o| o.data_offset as usize)
            .filter(|&o| o > start)
            .min()
            .unwrap_or(self.entity_data.len());
        let end = if e.kind == MOVER_TYPE { next.min(start + MOVER_DATA_BYTES) } else { next };
        self.entity_data.get(start..end.min(self.entity_data.len()))
    }
}

/// Refuses a header whose chunks run past the end of the file, naming the first chunk that
/// does not fit, before anything is allocated.
fn check_chunks_fit(r: &Reader, seg: usize, h: &LevelHeader, layout: &ChunkLayout) -> Result<()> {
    let avail = r.len().saturating_sub(seg) as u64;
    for (chunk, start) in Chunk::ALL.iter().zip(layout.starts) {
        let (count, size) = chunk.extent(h);
        if start + count * size > avail {
            let at = seg as u64 + start;
            let msg = format!(
                "{count} records of {size} bytes ({} bytes) run past the end of the file ({} bytes remain at {at})",
                count * size,
                avail.saturating_sub(start)
            );
            return Err(r
                .structure(chunk.name())
                .error_at(at.min(usize::MAX as u64) as usize, msg));
        }
    }
    Ok(())
}

fn records<'a, T>(
    r: &mut Reader<'a>,
    count: u32,
    size: usize,
    mut one: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let count = count as usize;
    r.check_count(count, size, "records")?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(one(r)?);
    }
    Ok(out)
}
