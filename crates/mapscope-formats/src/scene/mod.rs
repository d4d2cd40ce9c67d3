//! The neutral level description every format builds and the renderer draws.
//!
//! A `Scene` is plain data in the viewer's own space (right-handed, Y up); each format keeps
//! its native coordinates through [`Axes`], so cameras are read and printed natively.

mod animation;
pub mod automap;
mod axes;
mod camera;
mod cells;
pub mod doom;
mod game;
mod mesh_walk;
mod records;
mod texture;
mod triangle_grid;
mod walk;

pub use animation::{thing_frame_word, Animator, FrameState, StaticAnimator};
pub use automap::Automap;
pub use axes::Axes;
pub use camera::{CameraPose, NativePose, MAX_PITCH_DEG};
pub use cells::{Cell, CellEdge, CellMap, NO_CELL};
pub use game::{Game, GameScreen, HudPicture, LightScale};
pub use mesh_walk::{Body, MeshWalker};
pub use records::{flag_names, Fact, Facts, LevelRecords, Located, SurfaceHit};
pub use texture::{Texels, Texture};
pub use walk::{InViewer, NativeWalker, Walker};

use glam::Vec3;

/// One level, ready to draw: what every format's builder makes and the renderer uploads.
pub struct Scene {
    /// Level name as the format calls it (e.g. "MAP01").
    pub name: String,
    /// The game the level is from: its name, units, screen, tic rate.
    pub game: Game,
    pub axes: Axes,
    /// Palette entries; textures add their `palette` base to texel indices (up to 65536).
    pub palette: Vec<[u8; 3]>,
    pub shading: Shading,
    pub clear: ClearColor,
    /// Near clip distance in viewer units.
    pub near: f32,
    pub textures: Vec<Texture>,
    /// Triangle list (three vertices a triangle), opaque and masked surfaces.
    pub world: Vec<WorldVertex>,
    /// Source names of the world triangles (export).
    pub parts: Parts,
    pub sprites: Vec<Sprite>,
    pub sky: Option<Sky>,
    pub markers: Vec<Marker>,
    /// The level's cells, where the format has them, so only what the camera can see into is
    /// drawn.
    pub cells: Option<CellMap>,
    pub spawn: CameraPose,
    pub animator: Box<dyn Animator>,
    pub facts: LevelFacts,
    /// The game's records behind surfaces and sprites (inspector, `pick`, find and go);
    /// `None` where the format keeps none beyond [`Parts`].
    pub records: Option<std::sync::Arc<dyn LevelRecords>>,
    /// The level's map as the game draws it from its own records (Doom, Marathon); `None`:
    /// drawn from the triangles in the plain style when asked for ([`Scene::automap`]).
    pub automap: Option<Automap>,
}

impl Scene {
    /// Viewer-space bounding box of the world geometry.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let mut it = self.world.iter().map(|v| Vec3::from(v.pos));
        let first = it.next()?;
        Some(it.fold((first, first), |(lo, hi), p| (lo.min(p), hi.max(p))))
    }

    pub fn triangle_count(&self) -> usize {
        self.world.len() / 3
    }

    /// The level's map: the format's own, else the plain one drawn from the triangles
    /// ([`automap::outline`], made anew on each call: keep it).
    pub fn automap(&self) -> std::borrow::Cow<'_, Automap> {
        match &self.automap {
            Some(map) => std::borrow::Cow::Borrowed(map),
            None => std::borrow::Cow::Owned(automap::outline(
                &self.world,
                self.axes,
                self.game.units_per_metre(),
            )),
        }
    }
}

/// Most palette entries a scene may have (per-texture palettes included).
pub const MAX_PALETTE: usize = 65536;

// Keep the GPU vertex layout in step with this struct.
const _: () = assert!(std::mem::size_of::<WorldVertex>() == 40);

/// How a surface is lit and coloured; the renderer picks a shader family from this.
pub enum Shading {
    /// Doom's COLORMAP (34 maps of 256 indices) with vanilla light diminishing; `segs` lets
    /// the shader repeat vanilla's texture-column arithmetic for walls, and `map` lets the
    /// renderer repeat vanilla's BSP walk for span starts and wall scales.
    DoomColormap {
        colormap: Vec<u8>,
        segs: Vec<doom::VanillaSeg>,
        map: Option<Box<doom::vanilla::VanillaMap>>,
        /// Textures smooth frames draw in place of others, at the same map units: (a flat's
        /// 64x64 texture, its full-size picture).
        smooth_flats: Vec<[u32; 2]>,
    },
    /// Texels shown through the palette with no light tables.
    Unlit,
    /// A family with its own shader file (`shaders/<family>.wgsl`) and tables (light, fog,
    /// blend or material tables: whatever the game shades with); `tables` is uploaded as is
    /// and only that shader reads it.
    Family { family: ShadingFamily, tables: Vec<u32> },
}

/// The games whose shading has a WGSL file and tables of its own (Doom's and the unlit one
/// are `Shading`'s other variants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShadingFamily {
    /// Attack of the Saucerman: LUT1 fog/brightness, LUT2 index blending.
    Saucer,
    /// Marathon: shading tables built from each collection's colour table.
    Marathon,
    /// Saturn Quake: rgb555 texels with subtractive per-vertex light.
    Saturn,
    /// Carmageddon 2: BRender materials over indexed and direct-colour pixelmaps.
    Carma2,
}

impl ShadingFamily {
    pub const ALL: [ShadingFamily; 4] = [
        ShadingFamily::Saucer,
        ShadingFamily::Marathon,
        ShadingFamily::Saturn,
        ShadingFamily::Carma2,
    ];
}

/// What pixels with no surface show, and the palette index blending sees there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClearColor {
    pub rgb: [u8; 3],
    pub index: u32,
}

/// What kind of surface a world triangle is; selects the light formula in the shader.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfaceKind {
    /// Vertical surface lit by its projected scale (Doom `scalelight`).
    Wall = 0,
    /// Horizontal plane lit by its depth (Doom `zlight`), texels by the plane's world grid.
    Flat = 1,
    /// Sky: drawn by view angle and screen row, full brightness.
    Sky = 2,
}

/// Bit layout of [`WorldVertex::flags`].
pub mod vertex_flags {
    /// Bits 0..4: [`super::SurfaceKind`].
    pub const KIND_MASK: u32 = 0xF;
    /// Texel value with the transparent bit set is discarded (masked textures).
    pub const MASKED: u32 = 1 << 4;
    /// Drawn after the opaque world into per-pixel fragment lists and blended back to front
    /// (the family's `translucent` and `blend_index` shader functions).
    pub const TRANSLUCENT: u32 = 1 << 5;
    /// Bits 8..16: a signed byte for the shading family (`s.contrast` in WGSL). Doom: light
    /// level offset added before the light table lookup (fake contrast: -1 / +1).
    pub const CONTRAST_SHIFT: u32 = 8;
    /// Bits 16..32: scroll slot (0 = none) into [`super::FrameState::scroll`].
    pub const SCROLL_SHIFT: u32 = 16;
    /// Doom sky surfaces' contrast byte: a sky MBF transfers from a sidedef (271/272), whose
    /// uv holds the sidedef's x and y offsets (the level's sky: 0, uv unused).
    pub const SKY_TRANSFERRED: i8 = 1;
    /// The same sky with its columns read the other way (271).
    pub const SKY_TRANSFERRED_FLIPPED: i8 = 2;

    pub fn pack(kind: super::SurfaceKind, masked: bool, contrast: i8, scroll_slot: u16) -> u32 {
        kind as u32
            | if masked { MASKED } else { 0 }
            | ((contrast as u8 as u32) << CONTRAST_SHIFT)
            | ((scroll_slot as u32) << SCROLL_SHIFT)
    }
}

/// One corner of a world triangle.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct WorldVertex {
    /// Viewer space position.
    pub pos: [f32; 3],
    /// Texel coordinates (u right, v down), before scrolling.
    pub uv: [f32; 2],
    /// Texture index before animation remapping.
    pub texture: u32,
    /// Light slot: index into [`FrameState::light`].
    pub light: u32,
    /// See [`vertex_flags`].
    pub flags: u32,
    /// Format-specific surface number (0 = none); Doom: walls the index into the shading's
    /// `segs` plus one, flats their subsector plus one.
    pub surface: u32,
    /// Interpolated across the triangle (unorm bytes, 0..1 in the shader); the meaning is the
    /// family's (Saturn: per-vertex light offsets per channel).
    pub shade: [u8; 4],
}

/// A camera-facing billboard (Doom things, Marathon objects, Saucerman billboards).
#[derive(Clone, Debug)]
pub struct Sprite {
    /// Viewer-space position of the sprite's origin (Doom: the thing's feet).
    pub pos: Vec3,
    /// One view (all angles) or eight (rotation 1 = seen from the front, counter-clockwise).
    pub views: Vec<SpriteView>,
    /// Facing in viewer yaw radians (used to pick the rotation).
    pub facing: f32,
    /// World units per texel across and up (Doom: GZDoom's actor `XScale` and `YScale`).
    pub scale: [f32; 2],
    pub light: u32,
    pub fullbright: bool,
    /// Source identifier shown in `info` (e.g. thing type).
    pub label: String,
    /// The format's record the sprite stands for (Doom: its THINGS index; Marathon: its
    /// object index; Saucerman: its billboard index).
    pub source: u32,
    /// Doom: its sector's colour pair in smooth mode (as world vertices' shade bytes 2 and 3
    /// give theirs, `doom::shade::sector_color`); 0 for none.
    pub tint: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpriteView {
    pub texture: u32,
    pub mirrored: bool,
}

/// A non-visual record shown as a marker (entities, cameras, unknown records).
#[derive(Clone, Debug)]
pub struct Marker {
    pub pos: Vec3,
    pub label: String,
}

/// Sky shown on `SurfaceKind::Sky` surfaces.
#[derive(Clone, Debug)]
pub struct Sky {
    pub texture: u32,
}

/// Where world triangles come from (sectors, polygons, actors), for export node names.
#[derive(Clone, Debug, Default)]
pub struct Parts {
    pub names: Vec<String>,
    /// Per world triangle, an index into `names`; empty: the whole world is one part.
    pub of_triangle: Vec<u32>,
    /// Each part is an object placed in the level (Carmageddon 2's model actors), not a piece
    /// of its architecture: `bench`'s tour visits them as it visits things.
    pub placed_objects: bool,
}

/// Facts about the level for `info`, in the format's own terms.
#[derive(Clone, Debug, Default)]
pub struct LevelFacts {
    /// Ordered (name, value) counts such as ("linedefs", 123).
    pub counts: Vec<(String, u64)>,
    /// Ordered (name, value) descriptions such as ("map format", "UDMF (namespace zdoom)").
    pub details: Vec<(String, String)>,
    /// Texture names used by the level.
    pub textures_used: Vec<String>,
    /// Free-form extra lines (warnings, notes).
    pub notes: Vec<String>,
}
