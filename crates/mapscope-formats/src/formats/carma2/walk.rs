//! Carmageddon 2's body for walk mode: a pedestrian on foot, on the [`MeshWalker`] over the
//! track's triangles. The game publishes no numbers for one, so these are a person's in
//! metres, scaled by the units the track is read in
//! ([`crate::scene::Game::units_per_metre`]).
//!
//! Solid: every triangle the track draws (the loader already leaves out faces whose material
//! hides them). The sky is not among them (the game draws its horizon as a backdrop, not as
//! track geometry). The format tells no other faces apart for collision: the notes say only
//! that three unmapped bytes per face change it, so none are left out.

use crate::scene::{Body, Game, MeshWalker, Scene};

const M: f64 = Game::Carmageddon2.units_per_metre();

/// A person's shoulders: 0.3 m from the middle.
pub const PLAYER_RADIUS: f64 = 0.3 * M;
pub const PLAYER_HEIGHT: f64 = 1.8 * M;
/// A kerb or a stair with room to spare: 0.4 m.
pub const STEP_HEIGHT: f64 = 0.4 * M;
pub const EYE_HEIGHT: f64 = 1.65 * M;
pub const GRAVITY: f64 = 9.81 * M;
/// A run: 6 m/s.
pub const RUN_SPEED: f64 = 6.0 * M;

pub const BODY: Body = Body {
    radius: PLAYER_RADIUS,
    height: PLAYER_HEIGHT,
    step: STEP_HEIGHT,
    eye: EYE_HEIGHT,
    gravity: GRAVITY,
    speed: RUN_SPEED,
};

pub fn walker(scene: &Scene) -> MeshWalker {
    MeshWalker::from_scene(scene, BODY, |_, _| true)
}
