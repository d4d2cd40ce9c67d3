//! What a Doom scene carries for Doom's own frames beyond the neutral scene: each seg as
//! vanilla's wall renderer sees it (`VanillaSeg`, for the GPU's wall columns), what a world
//! vertex's shade bytes mean (`shade`), and the map as vanilla's BSP walk reads it
//! (`vanilla`). Only Doom's builder and Doom's frames read these.

pub mod shade;
pub mod vanilla;

/// A Doom seg as the vanilla wall renderer sees it (r_segs.c), in map units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VanillaSeg {
    /// Start vertex, 16.16.
    pub v1: [i32; 2],
    /// Binary angle of the seg (0 = east), as in the SEGS lump shifted to 32 bits.
    pub angle: u32,
    /// Seg offset plus the sidedef's x offset: the texture column at v1, 16.16.
    pub offset: i32,
    /// The wall tiers the CPU draws column by column, as the builder textured them: the upper
    /// tier (or a one-sided wall's middle), the lower tier, and a two-sided line's masked
    /// middle.
    pub tiers: [Option<VanillaTier>; 3],
    /// Scroll slot of the wall (0 = none; see [`crate::scene::FrameState`]).
    pub scroll: u16,
    /// The wall's light slot when its sidedef has its own light (UDMF `light`); `None`: its
    /// front sector's.
    pub light_slot: Option<u32>,
    /// UDMF `nofakecontrast`: no fake contrast on this wall.
    pub no_contrast: bool,
    /// Boom 260: the masked middle blends through this table of the map's
    /// [`vanilla::VanillaMap::tranmaps`].
    pub translucent: Option<u32>,
}

/// One solid wall tier of a [`VanillaSeg`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VanillaTier {
    /// Scene texture, before animation remapping.
    pub texture: u32,
    /// World height of the texture's row 0 (16.16): `dc_texturemid` plus the view height.
    pub top: i32,
    /// UDMF placement (identity for vanilla maps): the texture column is
    /// `FixedMul(column, x_scale) + x_offset` with `column` vanilla's (sidedef offset
    /// included), the row `FixedMul(height of row 0 - z, y_scale)`; 16.16.
    pub x_offset: i32,
    pub x_scale: i32,
    pub y_scale: i32,
}

impl Default for VanillaTier {
    fn default() -> Self {
        VanillaTier { texture: 0, top: 0, x_offset: 0, x_scale: 1 << 16, y_scale: 1 << 16 }
    }
}

impl VanillaTier {
    /// Whether the tier is placed as vanilla places it (no UDMF offset or scale).
    pub fn is_vanilla(&self) -> bool {
        self.x_offset == 0 && self.x_scale == 1 << 16 && self.y_scale == 1 << 16
    }
}
