//! Attack of the Saucerman's body for walk mode, on the [`MeshWalker`] over the level's
//! triangles. The game's movement numbers are not published anywhere found, so the body is
//! sized from the level: cells are [`CELL`] (256) units across, about 4 m (64 units a metre,
//! [`crate::scene::Game::units_per_metre`]), and the spawn camera's eye stands
//! [`SPAWN_EYE`] (128) over the ground, so the walker's eye does too.
//!
//! Solid: terrain, extra tiles, blocks and placed models. Not solid: translucent surfaces
//! (those drawn through a blend table, such as water), and billboards, which are sprites
//! and not among the level's triangles.

use crate::scene::{vertex_flags, Body, MeshWalker, Scene};

use super::build::EYE_HEIGHT as SPAWN_EYE;
use super::geometry::CELL;

/// A body sized from the level (see the module notes), at 64 units a metre.
pub const BODY: Body = Body {
    // Half a metre from the middle: an eighth of a cell.
    radius: CELL / 8.0,
    // The eye plus a quarter metre.
    height: SPAWN_EYE + 16.0,
    // A quarter of a cell (a metre): terrain's small rises are walked over, blocks are not.
    step: CELL / 4.0,
    eye: SPAWN_EYE,
    // Earth's 9.81 m/s².
    gravity: 9.81 * 64.0,
    // A run of 5 m/s.
    speed: 5.0 * 64.0,
};

pub fn walker(scene: &Scene) -> MeshWalker {
    MeshWalker::from_scene(scene, BODY, |_, t| t[0].flags & vertex_flags::TRANSLUCENT == 0)
}
