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

/// A person on foot, in metres.
pub const BODY: Body = Body {
    // Shoulders 0.3 m from the middle, 1.8 m tall.
    radius: 0.3 * M,
    height: 1.8 * M,
    // A kerb or a stair with room to spare.
    step: 0.4 * M,
    eye: 1.65 * M,
    gravity: 9.81 * M,
    // A run of 6 m/s.
    speed: 6.0 * M,
};

pub fn walker(scene: &Scene) -> MeshWalker {
    MeshWalker::from_scene(scene, BODY, |_, _| true)
}
