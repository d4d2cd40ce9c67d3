//! What a shading family joins with the palette before the first frame, and its constants
//! (pipeline overrides `FAMILY_0..7` in shaders/common.wgsl). Each family makes its own
//! (`FamilyPacking::tables` in `family.rs`, the joins in the family's folder).
//!
//! A software rasteriser gathers every storage read lane by lane, so a fragment that chains
//! texel → light table → palette pays for each link. Where the chain after the texel depends
//! only on a small light index, the whole chain is tabulated once: the fragment reads its
//! texel and one word of the joined table. The families' header words (fog range, table
//! offsets, flags) are the same for every fragment, so they travel in the uniform rather than
//! being read per pixel.

/// The family's constants (`FAMILY_0..7` in shaders/common.wgsl) and the joined table to
/// append to the scene metadata.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FamilyTables {
    pub constants: [u32; 8],
    pub joined: Vec<u32>,
}
