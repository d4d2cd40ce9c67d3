//! The CPU half of Doom's vanilla-exact frames (faithful, 90° across the width, level camera):
//! vanilla's BSP walk, then each wall column's and each flat pixel's set-up as vanilla does it
//! once per column and once per span, and the walk's drawing order. The Doom shading family's
//! shaders read what this leaves in the state buffer; the scene renderer only asks for it.

use super::vanilla_bsp::{self, VanillaView, WalkResult};
use super::vanilla_flats::{flat_words, FlatViewer};
use super::vanilla_walls::{ColumnTables, WallSetup};
use super::walk_order::{FrameIndices, WalkOrder};
use crate::scene::vanilla_doom::VanillaMap;
use crate::scene::{VanillaSeg, WorldVertex};

/// Where a frame's data lies in the state buffer, in words (the frame uniform's `walk_offs`):
/// the wall column index, the column entries, the flat words, and 1 (0 without a walk).
pub type WalkOffsets = [u32; 4];

pub struct VanillaFrame {
    map: Box<VanillaMap>,
    segs: Vec<VanillaSeg>,
    walls: WallSetup,
    order: WalkOrder,
    /// The walk's view at the current screen size, when the view is vanilla's projection.
    view: Option<VanillaView>,
    walk: Option<WalkResult>,
    setup: Vec<u32>,
    flats: Vec<u32>,
    indices: FrameIndices,
}

impl VanillaFrame {
    /// `solid` is the solid triangle list the renderer draws (see `walk_order`).
    pub fn new(map: Box<VanillaMap>, segs: Vec<VanillaSeg>, solid: &[WorldVertex]) -> VanillaFrame {
        let order = WalkOrder::new(&map, solid);
        VanillaFrame {
            map,
            segs,
            walls: WallSetup::new(),
            order,
            view: None,
            walk: None,
            setup: Vec::new(),
            flats: Vec::new(),
            indices: FrameIndices::default(),
        }
    }

    /// Segs of the map (a wall's surface number is its seg + 1).
    pub fn seg_count(&self) -> usize {
        self.segs.len()
    }

    /// Sets the screen: a `width` x `height` view with vanilla's projection gets the walk's
    /// view (whose tables the shaders then use), any other none.
    pub fn set_screen(&mut self, width: u32, height: u32, vanilla_projection: bool) {
        self.view = vanilla_projection.then(|| VanillaView::new(width, height));
    }

    /// The walk's view, when the screen has vanilla's projection.
    pub fn view(&self) -> Option<&VanillaView> {
        self.view.as_ref()
    }

    /// Walks the map for the viewer at (`x`, `y`, `z`) (16.16) facing `angle` (BAM), with the
    /// sector light levels `light`; `exact` false (another mode, a pitched camera) walks
    /// nothing and the frame is drawn without the walk.
    pub fn walk(&mut self, exact: bool, [x, y, z, angle]: [i32; 4], light: &[u32]) {
        self.walk = None;
        let Some(view) = self.view.as_mut().filter(|_| exact) else { return };
        view.set_camera(x, y, z, angle as u32);
        self.walk = Some(vanilla_bsp::walk(&self.map, light, view));
    }

    /// Whether this frame has a walk.
    pub fn walked(&self) -> bool {
        self.walk.is_some()
    }

    /// R_MapPlane for every flat pixel of this frame's walk.
    pub fn step_flats(&mut self, viewer: &FlatViewer) {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return };
        flat_words(walk, view, &self.walls.sine, viewer, &mut self.flats);
    }

    /// Appends this frame's wall columns to the state upload for the viewer at (`viewx`,
    /// `viewy`) facing `angle` with projection `projection` (`centerxfrac`); the flat words
    /// ([`VanillaFrame::flat_words`], a word a pixel) follow them in the state buffer, written
    /// straight from here rather than copied into the upload. Returns where each lies.
    pub fn append_state(
        &mut self,
        [viewx, viewy, angle]: [i32; 3],
        projection: i32,
        upload: &mut Vec<u32>,
    ) -> WalkOffsets {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return [0; 4] };
        self.setup.clear();
        self.walls.compute(&self.segs, viewx, viewy, angle as u32, &mut self.setup);
        let ColumnTables { seg_index, entries } =
            self.walls.columns(&self.setup, walk, view.xtoviewangle(), projection, upload);
        [seg_index, entries, upload.len() as u32, 1]
    }

    /// This frame's flat words (empty without a walk).
    pub fn flat_words(&self) -> &[u32] {
        if self.walk.is_some() {
            &self.flats
        } else {
            &[]
        }
    }

    /// The solid world's index lists for this frame's walk: all it reached for the pre-pass,
    /// then each of `kinds` (see `walk_order`); none without a walk.
    pub fn indices(&mut self, kinds: &[u32]) -> Option<&FrameIndices> {
        let walk = self.walk.as_ref()?;
        self.order.frame(&walk.subsectors, kinds, &mut self.indices);
        Some(&self.indices)
    }
}
