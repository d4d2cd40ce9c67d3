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

/// Half a metre from the middle: an eighth of a cell.
pub const PLAYER_RADIUS: f64 = CELL / 8.0;
/// The eye plus a quarter metre.
pub const PLAYER_HEIGHT: f64 = SPAWN_EYE + 16.0;
/// A quarter of a cell (a metre): terrain's small rises are walked over, blocks are not.
pub const STEP_HEIGHT: f64 = CELL / 4.0;
pub const EYE_HEIGHT: f64 = SPAWN_EYE;
/// Earth's 9.81 m/s² at 64 units a metre.
pub const GRAVITY: f64 = 9.81 * 64.0;
/// A run of 5 m/s: 320 units a second.
pub const RUN_SPEED: f64 = 5.0 * 64.0;

pub const BODY: Body = Body {
    radius: PLAYER_RADIUS,
    height: PLAYER_HEIGHT,
    step: STEP_HEIGHT,
    eye: EYE_HEIGHT,
    gravity: GRAVITY,
    speed: RUN_SPEED,
};

pub fn walker(scene: &Scene) -> MeshWalker {
    MeshWalker::from_scene(scene, BODY, |_, t| t[0].flags & vertex_flags::TRANSLUCENT == 0)
}
