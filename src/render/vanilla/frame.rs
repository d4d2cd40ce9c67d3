//! The CPU half of Doom's vanilla-exact frames (faithful, 90° across the width, level camera):
//! vanilla's BSP walk, each wall column's set-up as vanilla does it once per column, and the
//! solid world drawn from them column by column and span by span (`canvas`), then its things
//! and masked middles (`masked`, `sprites`). The GPU shows the canvas; the scene renderer only
//! asks for what lies in the state buffer.

use super::canvas::{Canvas, CanvasFrame, CanvasScene, CanvasState, CanvasViewer};
use super::wall_setup::{ColumnTables, WallSetup};
use super::{VanillaView, WalkResult};
use crate::scene::vanilla_doom::VanillaMap;
use crate::scene::VanillaSeg;

/// Where a frame's data lies in the state buffer, in words (the frame uniform's `walk_offs`):
/// the wall column index, the column entries, the canvas depths (one f32 a pixel), and 1 (0
/// without a walk).
pub type WalkOffsets = [u32; 4];

pub struct VanillaFrame {
    map: Box<VanillaMap>,
    segs: Vec<VanillaSeg>,
    walls: WallSetup,
    canvas: CanvasScene,
    /// The walk's view at the current screen size, when the view is vanilla's projection.
    view: Option<VanillaView>,
    walk: Option<WalkResult>,
    setup: Vec<u32>,
    columns: ColumnTables,
    canvas_out: Canvas,
    /// Whether the canvas draws the things (the view shows sprites).
    sprites: bool,
}

impl VanillaFrame {
    pub fn new(map: Box<VanillaMap>, segs: Vec<VanillaSeg>, canvas: CanvasScene) -> VanillaFrame {
        VanillaFrame {
            map,
            segs,
            walls: WallSetup::new(),
            canvas,
            view: None,
            walk: None,
            setup: Vec::new(),
            columns: ColumnTables::default(),
            canvas_out: Canvas::default(),
            sprites: true,
        }
    }

    /// Whether the canvas draws the things as vanilla does (on by default); the GPU draws no
    /// sprites in a frame the canvas draws.
    pub fn set_sprites(&mut self, shown: bool) {
        self.sprites = shown;
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
    /// sector light levels `light` and the scroll offsets `scroll` (two f32 bit patterns a
    /// slot); `exact` false (another mode, a pitched camera) walks nothing and the frame is
    /// drawn without the walk.
    pub fn walk(&mut self, exact: bool, [x, y, z, angle]: [i32; 4], light: &[u32], scroll: &[u32]) {
        self.walk = None;
        let Some(view) = self.view.as_mut().filter(|_| exact) else { return };
        view.set_camera(x, y, z, angle as u32);
        self.walk = Some(super::walk_scrolled(&self.map, light, scroll, view));
    }

    /// The subsectors this frame's walk drew, front to back (none without a walk).
    pub fn walked_subsectors(&self) -> Option<&[u32]> {
        self.walk.as_ref().map(|w| &w.subsectors[..])
    }

    /// Whether this frame has a walk.
    pub fn walked(&self) -> bool {
        self.walk.is_some()
    }

    /// Appends this frame's wall columns to the state upload for the viewer at (`viewx`,
    /// `viewy`) facing `angle` with projection `projection` (`centerxfrac`); the canvas depths
    /// ([`VanillaFrame::canvas`]) follow them in the state buffer, written straight from here
    /// rather than copied into the upload. Returns where each lies.
    pub fn append_state(
        &mut self,
        [viewx, viewy, angle]: [i32; 3],
        projection: i32,
        upload: &mut Vec<u32>,
    ) -> WalkOffsets {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return [0; 4] };
        self.setup.clear();
        self.walls.compute(&self.segs, viewx, viewy, angle as u32, &mut self.setup);
        self.columns =
            self.walls.columns(&self.setup, walk, view.xtoviewangle(), projection, upload);
        [self.columns.seg_index, self.columns.entries, upload.len() as u32, 1]
    }

    /// Draws the solid world of this frame's walk on the CPU: `upload` holds the wall columns
    /// [`VanillaFrame::append_state`] appended, `state` the frame's animation state.
    pub fn draw_canvas(&mut self, upload: &[u32], viewer: CanvasViewer, state: CanvasState) {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return };
        let frame = CanvasFrame {
            walk,
            view,
            map: &self.map,
            segs: &self.segs,
            columns: upload,
            column_tables: self.columns,
            sine: &self.walls.sine,
            viewer,
            state,
            sprites: self.sprites,
        };
        self.canvas.draw(&frame, &mut self.canvas_out);
    }

    /// This frame's canvas (none without a walk).
    pub fn canvas(&self) -> Option<&Canvas> {
        self.walk.as_ref().map(|_| &self.canvas_out)
    }
}
