//! A Doom map as vanilla's renderer walks it (r_bsp.c / r_segs.c / r_plane.c): the BSP nodes,
//! subsectors, segs and sectors with exactly the facts the front-to-back walk reads: heights,
//! flat numbers, which wall textures are present, light slots. The CPU walk in
//! `render::vanilla_bsp` consumes it to find where vanilla puts wall ranges and flat spans.
//!
//! Coordinates are map units (as in the WAD) except sector heights, which are 16.16 fixed
//! point like vanilla's `sector_t` so moving floors and ceilings can be stored as they are.

/// Set in a node child to mark a subsector rather than a node.
pub const VANILLA_NF_SUBSECTOR: u16 = 0x8000;

/// A BSP node (`node_t`): partition line and the bounding boxes of both children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VNode {
    /// Partition line start, map units.
    pub x: i32,
    pub y: i32,
    /// Partition line direction, map units.
    pub dx: i32,
    pub dy: i32,
    /// Bounding box of each child (0 = right/front, 1 = left/back): top, bottom, left, right,
    /// map units.
    pub bbox: [[i32; 4]; 2],
    /// Children as in the NODES lump: a node number, or a subsector number with
    /// [`VANILLA_NF_SUBSECTOR`] set.
    pub children: [u16; 2],
}

/// A subsector (`subsector_t`): a run of segs and the sector vanilla gives it (that of its
/// first seg's sidedef, `P_GroupLines`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VSubsector {
    pub first_seg: u32,
    pub num_segs: u32,
    pub sector: u32,
}

/// A seg (`seg_t`) with what the wall walk needs of its linedef and sidedef.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VSeg {
    /// Start and end vertex, map units.
    pub v1: [i32; 2],
    pub v2: [i32; 2],
    /// Binary angle (the SEGS lump's angle shifted to 32 bits).
    pub angle: u32,
    /// Distance along the linedef to the seg start, map units (SEGS `offset`).
    pub offset: i32,
    /// Linedef number and its flags (`ML_*`).
    pub linedef: u32,
    pub line_flags: u16,
    /// Sector of the seg's own sidedef.
    pub front_sector: u32,
    /// `seg->backsector`: set only for linedefs flagged two-sided (as `P_LoadSegs` does),
    /// the sector of the other sidedef.
    pub back_sector: Option<u32>,
    /// Sidedef textures that are not texture 0 ("-" or the first TEXTURE1 entry).
    pub top: bool,
    pub mid: bool,
    pub bottom: bool,
}

/// A sector (`sector_t`) as the walk compares them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VSector {
    /// Floor and ceiling height, 16.16 fixed point.
    pub floor: i32,
    pub ceiling: i32,
    /// Flat numbers: equal numbers mean the same flat; [`VanillaMap::sky_flat`] is the sky.
    pub floorpic: u32,
    pub ceilingpic: u32,
    /// Index into the per-frame light levels the walk is given (the scene's light slot);
    /// out of range reads as light 0.
    pub light_slot: u32,
}

/// Everything vanilla's BSP walk reads of a map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VanillaMap {
    pub nodes: Vec<VNode>,
    pub subsectors: Vec<VSubsector>,
    pub segs: Vec<VSeg>,
    pub sectors: Vec<VSector>,
    /// Flat number of F_SKY1 (`skyflatnum`).
    pub sky_flat: u32,
    /// The scene texture of each flat number the sectors use (`u32::MAX` for the others);
    /// filled by the level builder, which made the textures.
    pub flat_textures: Vec<u32>,
}

/// R_PointOnSide in vanilla's 16.16 fixed point: 0 if (`x`, `y`) is on the front (right) side
/// of the partition line through (`nx`, `ny`) along (`ndx`, `ndy`) (map units), 1 if behind.
/// Shared by the level builder (sector under a point) and the renderer's BSP walk.
pub fn point_on_side(x: i32, y: i32, nx: i32, ny: i32, ndx: i32, ndy: i32) -> usize {
    let fixed_mul = |a: i32, b: i32| ((a as i64 * b as i64) >> 16) as i32;
    let (nx, ny) = (nx << 16, ny << 16);
    let (ndx, ndy) = (ndx << 16, ndy << 16);
    if ndx == 0 {
        return if x <= nx { (ndy > 0) as usize } else { (ndy < 0) as usize };
    }
    if ndy == 0 {
        return if y <= ny { (ndx < 0) as usize } else { (ndx > 0) as usize };
    }
    let dx = x.wrapping_sub(nx);
    let dy = y.wrapping_sub(ny);
    // Decide by the sign bits when they differ, as vanilla does.
    if (ndy ^ ndx ^ dx ^ dy) < 0 {
        return ((ndy ^ dx) < 0) as usize;
    }
    let left = fixed_mul(ndy >> 16, dx);
    let right = fixed_mul(dy, ndx >> 16);
    (right >= left) as usize
}
