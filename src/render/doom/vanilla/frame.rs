//! Doom's vanilla-exact frames (faithful, 90° across the width, level camera) on the CPU:
//! vanilla's BSP walk, each wall column's set-up as vanilla does it once per column, and the
//! solid world drawn from them column by column and span by span (`canvas`), then its things
//! and masked middles (`masked`, `sprites`). The GPU shows the canvas and draws overlays over
//! it (`render/doom/frames.rs`).

use super::canvas::{Canvas, CanvasFrame, CanvasScene, CanvasState, CanvasViewer};
use super::wall_setup::{ColumnTables, WallSetup};
use super::{VanillaView, WalkResult};
use crate::scene::doom::vanilla::VanillaMap;
use crate::scene::doom::VanillaSeg;

pub struct VanillaFrame {
    map: Box<VanillaMap>,
    segs: Vec<VanillaSeg>,
    walls: WallSetup,
    canvas: CanvasScene,
    /// The walk's view at the current screen size, when the view is vanilla's projection.
    view: Option<VanillaView>,
    walk: Option<WalkResult>,
    setup: Vec<u32>,
    /// This frame's wall columns (`WallSetup::columns`) and where each part lies in them.
    column_words: Vec<u32>,
    columns: ColumnTables,
    canvas_out: Canvas,
    /// Whether the canvas draws the things (the view shows sprites).
    sprites: bool,
    /// Per seg: whether its front or back sector is beyond the canvas (empty when none is).
    beyond_canvas_segs: Vec<bool>,
}

impl VanillaFrame {
    pub fn new(map: Box<VanillaMap>, segs: Vec<VanillaSeg>, canvas: CanvasScene) -> VanillaFrame {
        let beyond = |s: u32| map.sectors.get(s as usize).is_some_and(|s| s.beyond_canvas);
        let beyond_canvas_segs = if map.sectors.iter().any(|s| s.beyond_canvas) {
            map.segs
                .iter()
                .map(|s| beyond(s.front_sector) || s.back_sector.is_some_and(beyond))
                .collect()
        } else {
            Vec::new()
        };
        VanillaFrame {
            map,
            segs,
            walls: WallSetup::new(),
            canvas,
            view: None,
            walk: None,
            setup: Vec::new(),
            column_words: Vec::new(),
            columns: ColumnTables::default(),
            canvas_out: Canvas::default(),
            sprites: true,
            beyond_canvas_segs,
        }
    }

    /// Whether the canvas draws the things as vanilla does (on by default); the GPU draws no
    /// sprites in a frame the canvas draws.
    pub fn set_sprites(&mut self, shown: bool) {
        self.sprites = shown;
    }

    /// Sets each thing's frame from the frame state's words (index of its sprite frame, and
    /// full-bright in the top bit; see `scene::thing_frame_word`): animated things change
    /// frame from tic to tic. Things past the words keep theirs.
    pub fn set_thing_frames(&mut self, words: &[u32]) {
        let frames = self.map.things.frames.len() as u32;
        for (thing, &word) in self.map.things.things.iter_mut().zip(words) {
            let frame = word & 0x7FFF_FFFF;
            // A word naming no frame (a state of another scene) leaves the thing as it is.
            if frame < frames {
                thing.frame = frame;
                thing.fullbright = word >> 31 != 0;
            }
        }
    }

    /// Sets the screen: a `width` x `height` view with vanilla's projection gets the walk's
    /// view, any other none.
    pub fn set_screen(&mut self, width: u32, height: u32, vanilla_projection: bool) {
        self.view = vanilla_projection.then(|| VanillaView::new(width, height));
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

    /// Whether this frame's walk reached a sector beyond the canvas (a ZDoom slope or 3D
    /// floor: entered one of its subsectors, or drew a wall on its border), or might have
    /// (drawsegs past vanilla's limit are not kept). A sloped plane or a slab in view lies
    /// in a subsector the walk enters, and an opening a slope changes or a slab's side is a
    /// wall on its border, so a walk that reached none is exact and its frame vanilla's.
    pub fn reached_beyond_canvas(&self) -> bool {
        let Some(walk) = self.walk.as_ref().filter(|_| !self.beyond_canvas_segs.is_empty()) else {
            return false;
        };
        let sectors = &self.map.sectors;
        let beyond_subsector = |&ss: &u32| {
            let sector = self.map.subsectors.get(ss as usize).map(|s| s.sector as usize);
            sector.and_then(|s| sectors.get(s)).is_some_and(|s| s.beyond_canvas)
        };
        walk.stats.drawsegs_dropped > 0
            || walk.subsectors.iter().any(beyond_subsector)
            || walk
                .drawsegs
                .iter()
                .any(|d| self.beyond_canvas_segs.get(d.seg as usize) == Some(&true))
    }

    /// Whether this frame has a walk.
    pub fn walked(&self) -> bool {
        self.walk.is_some()
    }

    /// Sets up this frame's wall columns for the viewer at (`viewx`, `viewy`) facing `angle`
    /// with projection `projection` (`centerxfrac`).
    pub fn set_up_walls(&mut self, [viewx, viewy, angle]: [i32; 3], projection: i32) {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return };
        self.setup.clear();
        self.walls.compute(&self.segs, viewx, viewy, angle as u32, &mut self.setup);
        self.column_words.clear();
        let (xtoviewangle, words) = (view.xtoviewangle(), &mut self.column_words);
        self.columns = self.walls.columns(&self.setup, walk, xtoviewangle, projection, words);
    }

    /// Draws the solid world of this frame's walk on the CPU from the wall columns
    /// [`VanillaFrame::set_up_walls`] set up; `state` is the frame's animation state.
    pub fn draw_canvas(&mut self, viewer: CanvasViewer, state: CanvasState) {
        let (Some(walk), Some(view)) = (&self.walk, &self.view) else { return };
        let frame = CanvasFrame {
            walk,
            view,
            map: &self.map,
            segs: &self.segs,
            columns: &self.column_words,
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

    /// The same canvas, to draw over.
    pub fn canvas_mut(&mut self) -> Option<&mut Canvas> {
        self.walk.as_ref().map(|_| &mut self.canvas_out)
    }
}
