//! Saturn Quake's part of packing a scene (`FamilyPacking`): its indexed texels are stored as
//! their palette colours (`packing::rgb555_texel`), as the shader reads them.

use crate::render::family::FamilyPacking;

pub(in crate::render) struct SaturnPacking<'a> {
    pub tables: &'a [u32],
}

impl FamilyPacking for SaturnPacking<'_> {
    fn tables_words(&self) -> Vec<u32> {
        self.tables.to_vec()
    }

    fn texels_as_rgb555(&self) -> bool {
        true
    }
}
