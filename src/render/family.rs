//! The interface between the generic renderer and a shading family's own frame machinery.
//!
//! Every family's frames go through the same [`SceneRenderer`](super::SceneRenderer): culling,
//! a depth pre-pass, solid groups shaded where they are nearest, masked surfaces, sprites,
//! overlays and translucent lists. A family whose game draws in a way those passes cannot
//! repeat takes part through [`FamilyFrames`]: it is prepared once per scene, told about each
//! frame before culling ([`FamilyFrames::begin_frame`]) and answers with a [`FramePlan`]; it
//! may draw the solid world on the CPU ([`Canvas`]) or record draws of its own in the solid
//! stages. Doom does (`doom/frames.rs`: vanilla's BSP walk and CPU canvas, smooth frames on
//! the triangle canvas, and smooth mode's bound textures), and so do Saturn Quake, Marathon, Attack of the Saucerman and Carmageddon
//! 2, whose faithful frames' solid world a triangle rasteriser on the CPU draws (`soft`); the
//! others draw with the generic passes alone ([`GenericFrames`]).

use super::doom::{DoomFrames, DoomPacking};
use super::lit_tables::FamilyTables;
use super::marathon::MarathonPacking;
use super::packing::{PackedScene, StateLayout};
use super::profiler::CpuSteps;
use super::saturn::SaturnPacking;
use super::saucer::SaucerPacking;
use super::soft::{CanvasDraws, SoftFrames, SoftView};
use super::world_pipelines::{PipelineKey, WorldPipelines};
use super::{CanvasPolicy, Gpu, ViewSettings};
use crate::scene::{CameraPose, Scene, Shading, ShadingFamily, SpriteView, WorldVertex};

/// The stages of the opaque scene, in drawing order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SceneStage {
    DepthPrePass,
    Solid,
    Masked,
    Sprites,
    Overlays,
}

impl SceneStage {
    pub(super) fn name(self) -> &'static str {
        match self {
            SceneStage::DepthPrePass => "depth pre-pass",
            SceneStage::Solid => "solid surfaces",
            SceneStage::Masked => "masked surfaces",
            SceneStage::Sprites => "sprites",
            SceneStage::Overlays => "markers and wireframe",
        }
    }
}

/// Who draws a frame's solid world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SolidWorld {
    /// The generic passes: a depth pre-pass, then each solid group shaded where it is nearest.
    Shaded,
    /// The family records the pre-pass and the shading itself (its own vertices and bind
    /// group); the renderer draws only the sky's groups, depth tested as they come.
    FamilyExceptSky,
    /// The family's CPU canvas holds the solid world, the masked surfaces and the sprites (if
    /// the view shows them): the GPU draws only what lies over it (overlays, translucent
    /// surfaces), tested against the canvas depths.
    Canvas,
    /// The family draws the solid world, the masked surfaces and the sprites on the CPU from
    /// the triangles the renderer's culling keeps ([`FamilyFrames::draw_canvas`]), and blends
    /// the translucent surfaces over them ([`FramePlan::translucent`]); the GPU draws only
    /// overlays over it, tested against the canvas depths.
    CulledCanvas,
}

impl SolidWorld {
    /// Whether a CPU canvas holds the solid world.
    pub(super) fn on_canvas(self) -> bool {
        matches!(self, SolidWorld::Canvas | SolidWorld::CulledCanvas)
    }
}

/// What a family does itself in one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FramePlan {
    pub solid: SolidWorld,
    /// Whether the renderer may drop solid triangles its occlusion map shows hidden (a
    /// family that culls by its own rules says no).
    pub occlusion: bool,
    /// Whether the canvas keeps each pixel's palette index ([`Canvas::keys`]).
    pub keys: bool,
    /// Whether the canvas has the translucent surfaces blended in too (the GPU's translucent
    /// pass then has nothing to do).
    pub translucent: bool,
}

impl Default for FramePlan {
    fn default() -> Self {
        FramePlan { solid: SolidWorld::Shaded, occlusion: true, keys: false, translucent: false }
    }
}

/// A frame drawn on the CPU: one colour (RGBA8, in the image's byte order) and one reverse
/// depth (`near / distance`, as the GPU's depth buffer holds it; 0 where nothing was drawn) a
/// pixel, row by row.
pub struct Canvas<'a> {
    pub colors: &'a [u32],
    pub depths: &'a [f32],
    /// Each pixel's palette index, for a family whose translucent surfaces the GPU blends by
    /// index (Attack of the Saucerman); empty for the others.
    pub keys: &'a [u8],
}

/// This frame's canvas to draw over on the CPU (the markers): its colours and depths.
pub struct CanvasMut<'a> {
    pub colors: &'a mut [u32],
    pub depths: &'a [f32],
}

/// What the renderer tells a family about the frame it is about to draw.
pub(super) struct FrameInput<'a> {
    pub camera: &'a CameraPose,
    pub view: &'a ViewSettings,
    /// The animation state as `packing::pack_state` laid it out for the GPU.
    pub state: &'a [u32],
    pub state_layout: &'a StateLayout,
}

/// A family's part in its frames. Every method has the generic passes' answer as its default.
pub(super) trait FamilyFrames: Send {
    /// The layout of bind group 1 that the family's own pipelines take, if they take one.
    fn bind_group_layout(&self) -> Option<&wgpu::BindGroupLayout> {
        None
    }

    /// The view is now `width` x `height` with a focal length of `focal` pixels.
    fn set_screen(&mut self, _width: u32, _height: u32, _focal: f64) {}

    /// Prepares the frame (CPU work such as a walk or a canvas, uploads of the family's own
    /// buffers) and says what the family draws itself. Steps worth timing are marked in `cpu`.
    fn begin_frame(&mut self, _gpu: &Gpu, _frame: &FrameInput, _cpu: &mut CpuSteps) -> FramePlan {
        FramePlan::default()
    }

    /// Draws this frame's opaque world on the CPU canvas, when its plan is
    /// [`SolidWorld::CulledCanvas`]: the solid and masked triangles `draws` names (positions
    /// in [`FamilyInputs::solid`] and in the renderer's world vertices, in the GPU's drawing
    /// order) and the sprites, seen as `view` says.
    fn draw_canvas(&mut self, _view: &SoftView, _draws: CanvasDraws) {}

    /// Which frames may draw on a CPU canvas where the family has one that the generic passes
    /// could replace (all of them until told otherwise; see `RendererChoice`).
    fn set_canvas_policy(&mut self, _policy: CanvasPolicy) {}

    /// This frame's canvas, when its plan puts the solid world on one.
    fn canvas(&self) -> Option<Canvas<'_>> {
        None
    }

    /// The same canvas, to draw over on the CPU.
    fn canvas_mut(&mut self) -> Option<CanvasMut<'_>> {
        None
    }

    /// The pipelines the family's own draws need this frame (`mode`: `SHADE_MODE`).
    fn pipeline_keys(&self, _mode: u32, _keys: &mut Vec<PipelineKey>) {}

    /// Records the family's own draws of `stage` after the renderer's; returns the draws.
    fn record(
        &self,
        _pass: &mut wgpu::RenderPass<'_>,
        _stage: SceneStage,
        _pipelines: &WorldPipelines,
        _mode: u32,
    ) -> u32 {
        0
    }
}

/// Families whose frames the generic passes draw whole: unlit scenes, and the smooth frames of
/// the families drawn on the CPU canvas.
pub(super) struct GenericFrames;

impl FamilyFrames for GenericFrames {}

/// What each family's machinery is built from, once per scene.
pub(super) struct FamilyInputs<'a> {
    pub scene: &'a Scene,
    /// The scene as packed for the GPU (already uploaded: the family may keep its parts).
    pub packed: PackedScene,
    /// The solid triangles as the renderer draws them (reversed; see `world_batches`).
    pub solid: &'a [WorldVertex],
    /// The masked triangles, and the position of the first among the renderer's world
    /// vertices (which its masked ranges count).
    pub masked: &'a [WorldVertex],
    pub masked_first: u32,
    /// The translucent triangles, in the scene's order.
    pub translucent: &'a [WorldVertex],
    /// The image's byte order is BGRA.
    pub bgra: bool,
}

/// The frame machinery of `inputs.scene`'s family.
/// What a shading family adds when its scene is packed into the buffers the shaders and the
/// canvases read (`packing.rs`): its tables, what it joins with the palette, how its indexed
/// texels are stored, and what Doom's smooth frames and things need. Each family's is in its
/// folder (`doom/packing.rs`, `saucer/packing.rs`, ...).
pub(super) trait FamilyPacking {
    /// The family's tables, as the scene metadata holds them after the palette.
    fn tables_words(&self) -> Vec<u32>;

    /// Its constants and the tables it joins with `palette` (packed RGB), to be placed at
    /// `joined_at` words, its own tables lying at `tables_at`.
    fn tables(&self, _palette: &[u32], _tables_at: u32, _joined_at: u32) -> FamilyTables {
        FamilyTables::default()
    }

    /// Indexed texels are stored as their palette colours in 5-bit channels, not as indices.
    fn texels_as_rgb555(&self) -> bool {
        false
    }

    /// Textures smooth frames draw in place of others, at the same map units: (fitted, full).
    fn smooth_twins(&self) -> &[[u32; 2]] {
        &[]
    }

    /// Per frame of the things' animations, its views (the state's thing words pick them).
    fn sprite_frame_views(&self) -> &[Vec<SpriteView>] {
        &[]
    }
}

/// A family with tables of its own and nothing else to add (Carmageddon 2), or none (unlit).
struct PlainPacking<'a> {
    tables: &'a [u32],
}

impl FamilyPacking for PlainPacking<'_> {
    fn tables_words(&self) -> Vec<u32> {
        self.tables.to_vec()
    }
}

/// Palette indices as they are, for unlit scenes.
static IDENTITY: [u32; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u32;
        i += 1;
    }
    t
};

/// The packing of the family that shades `shading`.
pub(super) fn family_packing(shading: &Shading) -> Box<dyn FamilyPacking + '_> {
    match shading {
        Shading::DoomColormap { colormap, map, smooth_flats, .. } => {
            Box::new(DoomPacking { colormap, map: map.as_deref(), smooth_flats })
        }
        Shading::Unlit => Box::new(PlainPacking { tables: &IDENTITY }),
        Shading::Family { family, tables } => match family {
            ShadingFamily::Saucer => Box::new(SaucerPacking { tables }),
            ShadingFamily::Marathon => Box::new(MarathonPacking { tables }),
            ShadingFamily::Saturn => Box::new(SaturnPacking { tables }),
            ShadingFamily::Carma2 => Box::new(PlainPacking { tables }),
        },
    }
}

pub(super) fn family_frames(gpu: &Gpu, inputs: FamilyInputs) -> Box<dyn FamilyFrames> {
    match &inputs.scene.shading {
        Shading::DoomColormap { .. } => Box::new(DoomFrames::new(gpu, inputs)),
        Shading::Family { .. } | Shading::Unlit => match SoftFrames::new(&inputs) {
            Some(soft) => Box::new(soft),
            None => Box::new(GenericFrames),
        },
    }
}
