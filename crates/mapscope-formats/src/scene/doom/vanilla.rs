//! A Doom map as vanilla's renderer walks it (r_bsp.c / r_segs.c / r_plane.c): the BSP nodes,
//! subsectors, segs and sectors with exactly the facts the front-to-back walk reads: heights,
//! flat numbers, which wall textures are present, light slots. The CPU walk in
//! `render::doom::vanilla::walk` consumes it to find where vanilla puts wall ranges and flat spans.
//!
//! Coordinates and heights are 16.16 fixed point as vanilla keeps them (`vertex_t`, `node_t`,
//! `sector_t`), so fractional vertices of GL node builders and moving floors are exact.

/// Set in a node child to mark a subsector rather than a node (bit 31, so extended node
/// formats' 32-bit subsector numbers fit).
pub const VANILLA_NF_SUBSECTOR: u32 = 0x8000_0000;

/// A BSP node as the walk reads it (`node_t`): partition line and the bounding boxes of both
/// children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkNode {
    /// Partition line start, 16.16.
    pub x: i32,
    pub y: i32,
    /// Partition line direction, 16.16.
    pub dx: i32,
    pub dy: i32,
    /// Bounding box of each child (0 = right/front, 1 = left/back): top, bottom, left, right,
    /// 16.16.
    pub bbox: [[i32; 4]; 2],
    /// Children: a node number, or a subsector number with [`VANILLA_NF_SUBSECTOR`] set.
    pub children: [u32; 2],
}

/// A subsector (`subsector_t`): a run of segs and the sector vanilla gives it (that of its
/// first seg's sidedef, `P_GroupLines`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkSubsector {
    pub first_seg: u32,
    pub num_segs: u32,
    pub sector: u32,
}

/// A seg as the walk reads it (`seg_t`), in 16.16 fixed point, with what the wall walk needs
/// of its linedef and sidedef (the GPU's per-seg wall data is [`super::VanillaSeg`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkSeg {
    /// Start and end vertex, 16.16.
    pub v1: [i32; 2],
    pub v2: [i32; 2],
    /// Binary angle (the SEGS lump's angle shifted to 32 bits).
    pub angle: u32,
    /// Distance along the linedef to the seg start, 16.16 (SEGS `offset` shifted).
    pub offset: i32,
    /// Linedef number (`None` for a GL miniseg, which is never drawn) and its flags (`ML_*`).
    pub linedef: Option<u32>,
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
pub struct WalkSector {
    /// Floor and ceiling height, 16.16 fixed point.
    pub floor: i32,
    pub ceiling: i32,
    /// Flat numbers: equal numbers mean the same flat; [`VanillaMap::sky_flat`] is the sky.
    pub floorpic: u32,
    pub ceilingpic: u32,
    /// Index into the per-frame light levels the walk is given (the scene's light slot);
    /// out of range reads as light 0.
    pub light_slot: u32,
    /// The floor's and ceiling's light slots (the sector's own unless UDMF `lightfloor` /
    /// `lightceiling` give them their own).
    pub floor_light_slot: u32,
    pub ceiling_light_slot: u32,
    /// Flat placement (UDMF panning, scale, rotation); identity for vanilla maps.
    pub floor_xform: FlatXform,
    pub ceiling_xform: FlatXform,
    /// The floor's and ceiling's scroll slots (0: none) into the frame's scroll offsets:
    /// Boom's flat scrollers add them to the span's x and y fractions.
    pub floor_scroll_slot: u16,
    pub ceiling_scroll_slot: u16,
    /// Boom 242: the control sector whose heights (and, from some regions, flats and light)
    /// the walk shows instead of this sector's (Boom's `heightsec`).
    pub heightsec: Option<u32>,
    /// The colormaps (numbers into the scene's colormaps, 0: COLORMAP) of a control sector's
    /// regions: viewer below its floor, between, above its ceiling (Boom 242).
    pub region_colormaps: [u32; 3],
    /// The sky of an F_SKY1 floor or ceiling: 0 the level's, else 1 + an index into
    /// [`VanillaMap::skies`] (MBF 271/272).
    pub sky: u32,
    /// The sector holds what vanilla's walk and canvas cannot draw (ZDoom: a sloped floor or
    /// ceiling, a 3D floor): a frame that reaches it or draws any wall of it is not theirs.
    pub beyond_canvas: bool,
}

/// A sky an MBF 271/272 line transfers (r_plane.c R_DrawPlanes' "sky linedef").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VSky {
    /// Scene texture (before animation).
    pub texture: u32,
    /// Added to the view angle (the sidedef's x offset in 16.16, read as a binary angle).
    pub angle: u32,
    /// `dc_texturemid`: the sidedef's y offset minus 28 units (vanilla's sky: 100), 16.16.
    pub texturemid: i32,
    /// 271: the column angle is inverted (`^ !0`), reading the picture the other way.
    pub flipped: bool,
}

impl VSky {
    /// Vanilla's sky in `texture`.
    pub fn vanilla(texture: u32) -> VSky {
        VSky { texture, angle: 0, texturemid: 100 << 16, flipped: false }
    }
}

/// A flat's texture placement as the span drawer applies it, in the fixed point of the
/// ZDoom software renderer (which extended vanilla's R_MapPlane so): the view position is
/// rotated by `angle` about the map origin and the span angles turned by it, `x_offset` /
/// `y_offset` are added to the span's x / y fractions, which are then multiplied by the scales.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatXform {
    /// Panning, 16.16 texels.
    pub x_offset: i32,
    pub y_offset: i32,
    /// Texel step per map unit, 16.16.
    pub x_scale: i32,
    pub y_scale: i32,
    /// Rotation, binary angle (counter-clockwise).
    pub angle: u32,
}

impl Default for FlatXform {
    fn default() -> Self {
        FlatXform { x_offset: 0, y_offset: 0, x_scale: 1 << 16, y_scale: 1 << 16, angle: 0 }
    }
}

impl FlatXform {
    pub fn is_identity(&self) -> bool {
        *self == FlatXform::default()
    }

    /// Neither rotated nor scaled (panning, such as Boom's flat scrolling, adds to the span
    /// fractions exactly as vanilla's arithmetic would).
    pub fn only_panned(&self) -> bool {
        let d = FlatXform::default();
        self.angle == 0 && self.x_scale == d.x_scale && self.y_scale == d.y_scale
    }

    /// The placement panned by (`x`, `y`) more texels (16.16).
    pub fn panned(self, x: i32, y: i32) -> FlatXform {
        FlatXform {
            x_offset: self.x_offset.wrapping_add(x),
            y_offset: self.y_offset.wrapping_add(y),
            ..self
        }
    }
}

/// Everything vanilla's BSP walk reads of a map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VanillaMap {
    pub nodes: Vec<WalkNode>,
    pub subsectors: Vec<WalkSubsector>,
    pub segs: Vec<WalkSeg>,
    pub sectors: Vec<WalkSector>,
    /// Flat number of F_SKY1 (`skyflatnum`).
    pub sky_flat: u32,
    /// The scene texture of each flat number the sectors use (`u32::MAX` for the others);
    /// filled by the level builder, which made the textures.
    pub flat_textures: Vec<u32>,
    /// The wall textures' bytes as vanilla's column drawers read them (filled by the level
    /// builder); only the CPU canvas reads it.
    pub texture_memory: TextureMemory,
    /// The things the canvas draws as vanilla's R_AddSprites finds them (filled by the level
    /// builder).
    pub things: VanillaThings,
    /// Skies transferred by MBF's 271/272 lines (see [`WalkSector::sky`]).
    pub skies: Vec<VSky>,
    /// Boom's translucency tables (65536 bytes: `table[dest << 8 | src]`), which
    /// [`super::VanillaSeg::translucent`] indexes.
    pub tranmaps: Vec<Vec<u8>>,
    /// ZDoom's sector colours as (light, fade) 0xRRGGBB pairs, which smooth mode alone draws
    /// (numbered from 1 in [`super::shade::sector_color`]).
    pub colors: Vec<[u32; 2]>,
}

/// A spawned thing as `R_ProjectSprite` reads its `mobj_t`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VThing {
    /// Position, 16.16 (`z`: the floor, or the ceiling less the type's height).
    pub x: i32,
    pub y: i32,
    pub z: i32,
    /// Facing, binary angle.
    pub angle: u32,
    /// The sector it is linked into (`R_PointInSubsector`'s), whose light it takes.
    pub sector: u32,
    /// Index into [`VanillaThings::frames`].
    pub frame: u32,
    /// `FF_FULLBRIGHT` in its frame: drawn with colormap 0.
    pub fullbright: bool,
    /// `MF_SHADOW`: drawn with the fuzz effect.
    pub shadow: bool,
    /// GZDoom's sprite scale across and up, 16.16; `None` for vanilla's 1.
    pub scale: Option<[i32; 2]>,
    /// Blended through this table of [`VanillaMap::tranmaps`] (GZDoom's translucent and
    /// additive render styles); `None`: opaque.
    pub translucent: Option<u32>,
}

/// A sprite frame (`spriteframe_t`): one patch for every view, or eight by rotation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VSpriteFrame {
    pub rotate: bool,
    /// Index into [`VanillaThings::patches`] per rotation (rotation 1 at 0).
    pub patches: [u32; 8],
    pub flip: [bool; 8],
}

/// A sprite patch lump: its header (`spritewidth`, `spriteoffset`, `spritetopoffset` in
/// pixels) and where each column's posts begin in its block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpritePatch {
    pub width: i32,
    pub left_offset: i32,
    pub top_offset: i32,
    /// Index into [`VanillaThings::blocks`].
    pub block: u32,
    /// `columnofs`: each column's first post header, as an offset into the block.
    pub columns: Vec<u32>,
}

/// What vanilla's thing rendering reads: the things by sector, their frames and the sprite
/// patch lumps' bytes (`R_DrawMaskedColumn` walks the posts as they lie in the lump).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VanillaThings {
    pub things: Vec<VThing>,
    /// Each sector's things in `sector_t::thinglist` order: `P_SetThingPosition` links a thing
    /// at the head, so the last spawned comes first. Sector `s`'s are
    /// `sector_things[sector_first[s]..sector_first[s + 1]]`.
    pub sector_first: Vec<u32>,
    pub sector_things: Vec<u32>,
    pub frames: Vec<VSpriteFrame>,
    /// Each of [`Self::frames`] as the GPU draws sprites (the scene's textures, one view or
    /// eight by rotation as in [`crate::scene::Sprite::views`]), so that sprites drawn by the GPU
    /// show the frame an animated thing has reached, not only its spawn frame.
    pub frame_views: Vec<Vec<crate::scene::SpriteView>>,
    pub patches: Vec<SpritePatch>,
    pub blocks: Vec<std::sync::Arc<[u8]>>,
}

impl VanillaThings {
    /// The things linked into sector `sector`, head of the list first.
    pub fn in_sector(&self, sector: u32) -> &[u32] {
        let s = sector as usize;
        match (self.sector_first.get(s), self.sector_first.get(s + 1)) {
            (Some(&a), Some(&b)) => self.sector_things.get(a as usize..b as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// Column `col` of patch `patch`, positioned at its first post's pixels (three bytes past
    /// the header, as the masked column walk expects); `None` outside the patch.
    pub fn column(&self, patch: u32, col: i32) -> Option<MemoryColumn<'_>> {
        let p = self.patches.get(patch as usize)?;
        let at = *p.columns.get(usize::try_from(col).ok()?)?;
        let block = self.blocks.get(p.block as usize)?;
        Some(MemoryColumn { block, at: at as usize + 3 })
    }

    /// Groups `things` by sector (`sectors` of them) in thinglist order.
    pub fn link(&mut self, sectors: usize) {
        let mut first = vec![0u32; sectors + 1];
        let linked = |t: &VThing| (t.sector as usize) < sectors;
        for t in self.things.iter().filter(|t| linked(t)) {
            first[t.sector as usize + 1] += 1;
        }
        for i in 0..sectors {
            first[i + 1] += first[i];
        }
        let mut fill = first.clone();
        let mut list = vec![0u32; first[sectors] as usize];
        // Spawn order reversed: each new thing goes to the head of its sector's list.
        for (i, t) in self.things.iter().enumerate().rev().filter(|(_, t)| linked(t)) {
            let slot = &mut fill[t.sector as usize];
            list[*slot as usize] = i as u32;
            *slot += 1;
        }
        self.sector_first = first;
        self.sector_things = list;
    }
}

/// What a read outside a block gives. Past a patch lump or a composite buffer vanilla reads
/// whatever the zone heap holds next (a block header, another lump): nothing a level decides,
/// so mapscope reads a fixed value, palette index 0. Before a composite buffer (the Medusa
/// walk of a texture's first multi-patch column reads three bytes there) lies the zone block
/// header's last pointer, whose top bytes are 0 on a 64-bit build; with 0 the walk reads a
/// post of length 0, which draws nothing, as any top byte would.
pub const OUTSIDE_BLOCK: u8 = 0;

/// Vanilla's texture memory for the canvas (see `formats::doom::graphics::texture_memory`): byte blocks
/// (patch lumps, shared by every texture drawing from them, and composite buffers) and, per
/// scene texture, where each column's first texel lies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextureMemory {
    pub blocks: Vec<std::sync::Arc<[u8]>>,
    /// Per scene texture, its columns `0..=texturewidthmask` (a power of two of them); empty
    /// where vanilla's layout does not apply (the canvas then reads the composed texels).
    pub textures: Vec<Vec<ColumnAt>>,
}

/// Where a column's first texel lies: `offset` into block `block` (`u32::MAX`: no block, a
/// column vanilla leaves undefined, read as [`OUTSIDE_BLOCK`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnAt {
    pub block: u32,
    pub offset: u32,
}

impl TextureMemory {
    /// Column `col` of scene texture `texture`, masked as `R_GetColumn` masks it
    /// (`col & texturewidthmask`); `None` when the texture has no vanilla layout.
    pub fn column(&self, texture: u32, col: i32) -> Option<MemoryColumn<'_>> {
        let columns = self.textures.get(texture as usize)?;
        let mask = columns.len().checked_sub(1)?;
        let at = columns.get(col as usize & mask)?;
        let block = self.blocks.get(at.block as usize).map_or(&[][..], |b| &b[..]);
        Some(MemoryColumn { block, at: at.offset as usize })
    }
}

/// A column's place in its block: bytes are read relative to its first texel.
#[derive(Clone, Copy)]
pub struct MemoryColumn<'a> {
    block: &'a [u8],
    at: usize,
}

impl std::fmt::Debug for MemoryColumn<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "at {} of {} bytes", self.at, self.block.len())
    }
}

impl MemoryColumn<'_> {
    /// Byte `i` counted from the column's first texel (negative: the bytes before it).
    pub fn byte(&self, i: isize) -> u8 {
        self.at
            .checked_add_signed(i)
            .and_then(|p| self.block.get(p))
            .copied()
            .unwrap_or(OUTSIDE_BLOCK)
    }

    /// Whether byte `i` lies before the block's end (post walks stop past it).
    pub fn before_end(&self, i: isize) -> bool {
        self.at.checked_add_signed(i).is_none_or(|p| p < self.block.len())
    }

    /// The 128 rows `R_DrawColumn` can read (`dc_source[(frac >> FRACBITS) & 127]`).
    pub fn rows(&self) -> [u8; 128] {
        std::array::from_fn(|i| self.byte(i as isize))
    }
}

/// R_PointOnSide in vanilla's 16.16 fixed point: 0 if (`x`, `y`) is on the front (right) side
/// of the partition line through (`nx`, `ny`) along (`ndx`, `ndy`) (all 16.16), 1 if behind.
/// Shared by the level builder (sector under a point) and the renderer's BSP walk.
pub fn point_on_side(x: i32, y: i32, nx: i32, ny: i32, ndx: i32, ndy: i32) -> usize {
    let fixed_mul = |a: i32, b: i32| ((a as i64 * b as i64) >> 16) as i32;
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
