//! The BSP a map is drawn from, in one shape whichever lumps it came from: vanilla
//! `SEGS`/`SSECTORS`/`NODES`, ZDoom extended or GL nodes, glBSP's `GL_*` lumps, or a tree
//! built here for a map saved without nodes.
//!
//! Coordinates are 16.16 fixed point as the engines keep them, so vanilla's integer vertices
//! and the fractional vertices of GL node builders are both exact. Indices are 32-bit because
//! the extended formats are.
//!
//! In `nodes/`: the readers of each node format (`zdoom_nodes`, `glbsp_nodes`; vanilla's are
//! here), the node builder for maps without nodes (`node_builder`), and the subsector polygons
//! and point-in-subsector walk drawn from the tree (`bsp`).

pub mod bsp;
pub mod glbsp_nodes;
pub mod node_builder;
pub mod zdoom_nodes;

use crate::formats::{Reader, Result};

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

/// One linedef as the node readers need it: its two map vertices and which sides exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeLinedef {
    pub v1: u32,
    pub v2: u32,
    /// Whether the front (0) and back (1) sidedefs exist.
    pub has_side: [bool; 2],
}

/// The map a node set belongs to. Readers check every index against it and compute what the
/// extended formats leave out (seg angles and offsets) from its geometry. The file name for
/// errors comes from each lump, since glBSP nodes may live in a separate `.gwa` file.
#[derive(Clone, Copy, Debug)]
pub struct NodeContext<'a> {
    /// The map's name (`MAP01`), for error messages.
    pub map: &'a str,
    /// The map's own vertices (all of `VERTEXES`, or the UDMF vertex blocks).
    pub vertices: &'a [NodeVertex],
    pub linedefs: &'a [NodeLinedef],
}

/// One node record as the binary formats store it: the partition line (whole map units, or
/// 16.16 where `fixed_partition`), both children's bounding boxes in whole map units, and two
/// children whose top bit marks a subsector (16-bit, or 32-bit where `wide_children`). The
/// children are not checked against the tree here: [`NodeSet::check`] or the caller does.
pub fn read_node(r: &mut Reader, fixed_partition: bool, wide_children: bool) -> Result<BspNode> {
    let mut p = [0 as Fixed; 4];
    for v in &mut p {
        *v = if fixed_partition { r.i32_le()? } else { (r.i16_le()? as Fixed) << 16 };
    }
    let mut bbox = [[0 as Fixed; 4]; 2];
    for b in bbox.iter_mut().flatten() {
        *b = (r.i16_le()? as Fixed) << 16;
    }
    let mut children = [BspChild::Node(0); 2];
    for c in &mut children {
        let (v, flag) =
            if wide_children { (r.u32_le()?, 0x8000_0000) } else { (r.u16_le()? as u32, 0x8000) };
        *c = if v & flag != 0 { BspChild::Subsector(v & !flag) } else { BspChild::Node(v) };
    }
    Ok(BspNode { x: p[0], y: p[1], dx: p[2], dy: p[3], bbox, children })
}

/// The binary angle of the direction (`dx`, `dy`): 0 = east, 0x4000_0000 = north, as
/// `R_PointToAngle2` gives it (computed exactly rather than through the engine's tables, which
/// agree to within a few units of the 16-bit angles vanilla stores).
pub fn point_to_angle(dx: f64, dy: f64) -> u32 {
    if dx == 0.0 && dy == 0.0 {
        return 0;
    }
    let turns = dy.atan2(dx) / std::f64::consts::TAU;
    ((turns * 4_294_967_296.0).round() as i64).rem_euclid(1 << 32) as u32
}

impl NodeContext<'_> {
    /// A vertex by node index: the map's own first, then `extra`.
    pub fn vertex(&self, extra: &[NodeVertex], index: u32) -> Option<NodeVertex> {
        let i = index as usize;
        match i.checked_sub(self.vertices.len()) {
            None => self.vertices.get(i).copied(),
            Some(e) => extra.get(e).copied(),
        }
    }

    /// A seg with the angle and offset the extended formats leave out, computed as ZDoom-family
    /// ports do: the angle of v1 → v2, and the distance from the linedef's start on the seg's
    /// side (front: linedef v1, back: linedef v2) to v1. Errors are messages; the caller knows
    /// where the seg was read.
    pub fn make_seg(
        &self,
        extra: &[NodeVertex],
        v1: u32,
        v2: u32,
        linedef: Option<u32>,
        side: u8,
        partner: Option<u32>,
    ) -> std::result::Result<BspSeg, String> {
        let total = self.vertices.len() + extra.len();
        let a = self
            .vertex(extra, v1)
            .ok_or_else(|| format!("start vertex {v1} is not one of the {total} vertices"))?;
        let b = self
            .vertex(extra, v2)
            .ok_or_else(|| format!("end vertex {v2} is not one of the {total} vertices"))?;
        let angle = point_to_angle(b.x as f64 - a.x as f64, b.y as f64 - a.y as f64);
        let mut offset = 0;
        let mut seg_side = 0;
        if let Some(l) = linedef {
            let line = self.linedefs.get(l as usize).ok_or_else(|| {
                format!("linedef {l} is not one of the map's {} linedefs", self.linedefs.len())
            })?;
            if side > 1 || !line.has_side[side as usize] {
                return Err(format!("side {side} of linedef {l}, which has no such sidedef"));
            }
            let start = if side == 0 { line.v1 } else { line.v2 };
            let s = self.vertices.get(start as usize).ok_or_else(|| {
                format!("linedef {l} uses vertex {start}, which the map does not have")
            })?;
            offset = fixed_distance(s, &a);
            seg_side = side;
        }
        Ok(BspSeg { v1, v2, linedef, side: seg_side, angle, offset, partner })
    }
}

fn fixed_distance(a: &NodeVertex, b: &NodeVertex) -> Fixed {
    let dx = b.x as f64 - a.x as f64;
    let dy = b.y as f64 - a.y as f64;
    dx.hypot(dy).round().min(Fixed::MAX as f64) as Fixed
}

/// Where a check over a finished [`NodeSet`] failed: which record, and why. Readers turn the
/// record into a byte offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeFault {
    Seg(usize, String),
    Subsector(usize, String),
    Node(usize, String),
}

impl NodeSet {
    /// Checks what the readers cannot check record by record: subsector seg ranges, partner
    /// indices, and that the tree from the root (the last node) only reaches nodes and
    /// subsectors that exist and reaches no node twice, so it has no loops.
    pub fn check(&self) -> std::result::Result<(), NodeFault> {
        let nsegs = self.segs.len();
        for (i, seg) in self.segs.iter().enumerate() {
            if let Some(p) = seg.partner {
                if p as usize >= nsegs {
                    return Err(NodeFault::Seg(
                        i,
                        format!("partner {p} is not one of {nsegs} segs"),
                    ));
                }
            }
        }
        for (i, ss) in self.subsectors.iter().enumerate() {
            if ss.num_segs == 0 {
                return Err(NodeFault::Subsector(i, "subsector has no segs".into()));
            }
            let end = ss.first_seg as u64 + ss.num_segs as u64;
            if end > nsegs as u64 {
                return Err(NodeFault::Subsector(
                    i,
                    format!("segs {}..{end} run past the {nsegs} segs", ss.first_seg),
                ));
            }
        }
        self.check_tree()
    }

    fn check_tree(&self) -> std::result::Result<(), NodeFault> {
        let nsub = self.subsectors.len();
        if nsub == 0 {
            return Err(NodeFault::Subsector(0, "the map has no subsectors".into()));
        }
        let Some(root) = self.nodes.len().checked_sub(1) else { return Ok(()) };
        let mut seen = vec![false; self.nodes.len()];
        seen[root] = true;
        // Every node enters the stack at most once (marked when pushed), so this ends.
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            for child in self.nodes[n].children {
                match child {
                    BspChild::Subsector(s) if s as usize >= nsub => {
                        return Err(NodeFault::Node(
                            n,
                            format!("child subsector {s} is not one of {nsub}"),
                        ));
                    }
                    BspChild::Subsector(_) => {}
                    BspChild::Node(c) => {
                        let c = c as usize;
                        match seen.get_mut(c) {
                            None => {
                                return Err(NodeFault::Node(
                                    n,
                                    format!("child node {c} is not one of {}", self.nodes.len()),
                                ))
                            }
                            Some(true) => {
                                return Err(NodeFault::Node(
                                    n,
                                    format!("child node {c} is reached twice (a loop)"),
                                ))
                            }
                            Some(s) => {
                                *s = true;
                                stack.push(c);
                            }
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_are_binary_angles_of_the_direction() {
        assert_eq!(point_to_angle(1.0, 0.0), 0);
        assert_eq!(point_to_angle(0.0, 5.0), 0x4000_0000);
        assert_eq!(point_to_angle(-3.0, 0.0), 0x8000_0000);
        assert_eq!(point_to_angle(0.0, -1.0), 0xC000_0000);
        assert_eq!(point_to_angle(1.0, 1.0), 0x2000_0000);
        assert_eq!(point_to_angle(1.0, -1.0), 0xE000_0000);
    }

    fn set(nodes: Vec<[BspChild; 2]>, subsectors: u32) -> NodeSet {
        let seg =
            BspSeg { v1: 0, v2: 1, linedef: None, side: 0, angle: 0, offset: 0, partner: None };
        NodeSet {
            format: NodeFormat::Built,
            extra_vertices: Vec::new(),
            segs: vec![seg],
            subsectors: vec![BspSubsector { first_seg: 0, num_segs: 1 }; subsectors as usize],
            nodes: nodes
                .into_iter()
                .map(|children| BspNode { x: 0, y: 0, dx: 1, dy: 0, bbox: [[0; 4]; 2], children })
                .collect(),
        }
    }

    #[test]
    fn trees_must_reach_only_existing_records_once() {
        use BspChild::{Node, Subsector};
        assert_eq!(set(vec![], 1).check(), Ok(()));
        assert!(set(vec![], 0).check().is_err(), "no root at all");
        assert_eq!(set(vec![[Subsector(0), Subsector(1)]], 2).check(), Ok(()));
        let two = vec![[Subsector(0), Subsector(1)], [Node(0), Subsector(2)]];
        assert_eq!(set(two, 3).check(), Ok(()));
        assert!(set(vec![[Node(0), Subsector(0)]], 1).check().is_err(), "self loop");
        let cycle = vec![[Node(1), Subsector(0)], [Node(0), Subsector(0)]];
        assert!(set(cycle, 1).check().is_err(), "two-node loop");
        let shared = vec![[Subsector(0), Subsector(0)], [Node(0), Node(0)]];
        assert!(set(shared, 1).check().is_err(), "one node reached twice");
        assert!(set(vec![[Node(5), Subsector(0)]], 1).check().is_err());
        assert!(set(vec![[Subsector(1), Subsector(0)]], 1).check().is_err());
        let mut bad = set(vec![], 1);
        bad.subsectors[0].num_segs = 2;
        assert!(bad.check().is_err(), "subsector past the segs");
        bad.subsectors[0].num_segs = 0;
        assert!(bad.check().is_err(), "empty subsector");
    }
}
