//! Doom's faithful renderer: the CPU half of vanilla-exact frames.
//!
//! Vanilla Doom draws with a software column and span rasteriser, and what a pixel shows
//! depends on its integer bookkeeping: which columns of a wall the BSP walk hands on and in
//! which order, the scale stepped from a range's first column, where each flat span starts.
//! A GPU rasterising the level's triangles cannot find these per pixel, so this folder repeats
//! vanilla on the CPU, split as the C source is:
//!
//! - `walk` (r_bsp.c), `segs` (r_segs.c) and `planes` (r_plane.c): the geometry pass, one
//!   [`WalkResult`] a frame from a [`VanillaMap`](crate::scene::doom::vanilla::VanillaMap) and
//!   a [`VanillaView`] (`view`: the camera and the projection tables, made from [`tables`]);
//!   `vissprites` (r_things.c R_AddSprites, R_ProjectSprite): the things the walk reaches;
//! - `wall_setup`: what R_StoreWallRange and R_RenderSegLoop set up per seg and per column for
//!   texturing (texture column, scale, light);
//! - `canvas`: the solid world drawn from them as R_DrawColumn and R_DrawSpan draw it, with a
//!   depth a pixel; `masked` (R_DrawMasked, R_RenderMaskedSegRange) and `sprites`
//!   (R_DrawSprite, R_DrawVisSprite, R_DrawFuzzColumn): the things and masked middles over it;
//! - `frame`: `VanillaFrame`, all of the above for one frame;
//! - `walk_cull`: smooth frames from a level camera draw only what the walk reached.
//!
//! How it plugs into [`SceneRenderer`](super::SceneRenderer): through Doom's part in its
//! frames, `render/doom/frames.rs` (the interface is `render/family.rs`). A Doom scene with
//! vanilla's map gets a `VanillaFrame`. When a frame has vanilla's projection (faithful mode,
//! 90° across the width, level camera, sky shown) it walks, sets up its wall columns and draws
//! the canvas, things included (when the view shows them); the renderer copies the canvas
//! colours into the colour target and its depths into the state buffer, and the GPU draws
//! only the overlays over it, tested against the canvas depth. Smooth frames from a level
//! camera walk too, and `WalkCull` picks the triangles of what the walk reached. Any other
//! frame is the generic passes' alone.
//!
//! Outside `render` only the walk and the tables are public: tests/doom/vanilla_walk.rs checks the
//! walk against Chocolate Doom's frames through them.

mod canvas;
mod frame;
mod masked;
mod planes;
mod result;
mod segs;
mod sprites;
pub mod tables;
#[cfg(test)]
mod tests;
mod view;
mod vissprites;
mod walk;
mod walk_cull;
mod wall_setup;

pub(super) use canvas::{CanvasScene, CanvasState, CanvasViewer};
pub(super) use frame::VanillaFrame;
pub use planes::{PlaneInfo, Span};
pub use result::{WalkResult, WalkStats, NO_PLANE, NO_SPAN, NO_WALL};
pub use segs::{ClipRow, DrawSeg, MaskedRange, SpriteClip, WallColumn, SIL_BOTTOM, SIL_TOP};
pub use view::{
    Limits, VanillaView, MAX_VIEW_SIZE, VANILLA_MAXDRAWSEGS, VANILLA_MAXVISPLANES,
    VANILLA_MAXVISSPRITES,
};
pub use vissprites::{SpriteLight, VisSprite};
pub use walk::{walk, walk_scrolled};
pub(super) use walk_cull::WalkCull;
