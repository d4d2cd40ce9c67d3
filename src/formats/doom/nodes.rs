//! The BSP a map is drawn from, in one shape whichever lumps it came from: vanilla
//! `SEGS`/`SSECTORS`/`NODES`, ZDoom extended or GL nodes, glBSP's `GL_*` lumps, or a tree
//! built here for a map saved without nodes.
//!
//! Coordinates are 16.16 fixed point as the engines keep them, so vanilla's integer vertices
//! and the fractional vertices of GL node builders are both exact. Indices are 32-bit because
//! the extended formats are.

/// A 16.16 fixed-point map coordinate.
pub type Fixed = i32;

/// One map unit in [`Fixed`].
pub const FRACUNIT: Fixed = 1 << 16;

/// Where a [`NodeSet`] came from, as `info` and `list` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeFormat {
    /// `SEGS`, `SSECTORS`, `NODES` with 16-bit fields.
    Vanilla,
    /// ZDoom extended nodes in `NODES`: `XNOD`, or `ZNOD` when zlib-compressed.
    ZdoomExtended { compressed: bool },
    /// ZDoom GL nodes in `ZNODES` or `SSECTORS`: version 1 (`XGLN`/`ZGLN`), 2 (`XGL2`/`ZGL2`)
    /// or 3 (`XGL3`/`ZGL3`).
    ZdoomGl { version: u8, compressed: bool },
    /// glBSP's `GL_VERT`, `GL_SEGS`, `GL_SSECT`, `GL_NODES`, version 1..=5.
    GlBsp { version: u8 },
    /// Built by mapscope because the map has no nodes.
    Built,
}

impl NodeFormat {
    /// Whether subsectors are closed polygons (their segs include minisegs along partitions).
    pub fn is_gl(self) -> bool {
        matches!(self, NodeFormat::ZdoomGl { .. } | NodeFormat::GlBsp { .. })
    }
}

/// A BSP vertex that is not one of the map's own (a split made by the node builder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeVertex {
    pub x: Fixed,
    pub y: Fixed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BspSeg {
    /// Indices into the map's vertices followed by [`NodeSet::extra_vertices`]: index `n`
    /// with `n >= map vertex count` is `extra_vertices[n - map vertex count]`.
    pub v1: u32,
    pub v2: u32,
    /// `None` for a GL miniseg (along a partition line, not a wall).
    pub linedef: Option<u32>,
    /// 0: the linedef's front side, 1: its back side (0 for minisegs).
    pub side: u8,
    /// Binary angle of v1 → v2 (0 = east, 0x4000_0000 = north), as `R_PointToAngle2` gives it;
    /// vanilla reads it from the lump (16 bits, shifted left 16).
    pub angle: u32,
    /// Distance along the linedef from its start on this side to v1.
    pub offset: Fixed,
    /// The seg on the other side of the same edge (GL nodes only).
    pub partner: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BspSubsector {
    pub first_seg: u32,
    pub num_segs: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BspChild {
    Node(u32),
    Subsector(u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BspNode {
    /// Partition line start and direction.
    pub x: Fixed,
    pub y: Fixed,
    pub dx: Fixed,
    pub dy: Fixed,
    /// Bounding boxes of the right (front) and left (back) children: top, bottom, left, right.
    pub bbox: [[Fixed; 4]; 2],
    /// Right (front) then left (back).
    pub children: [BspChild; 2],
}

/// A whole BSP tree; the root is the last node (a tree of one subsector has no nodes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSet {
    pub format: NodeFormat,
    pub extra_vertices: Vec<NodeVertex>,
    pub segs: Vec<BspSeg>,
    pub subsectors: Vec<BspSubsector>,
    pub nodes: Vec<BspNode>,
}
