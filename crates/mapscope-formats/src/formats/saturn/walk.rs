//! Saturn Quake's player body for walk mode: Quake's own numbers (id Software's Quake
//! source, read for the numbers), on the [`MeshWalker`] over the level's triangles.
//!
//! The loader keeps the `.LEV` coordinates as they are and counts them as Quake units (32 a
//! metre, [`crate::scene::Game::units_per_metre`]); a player start stands 24 units over its
//! floor in the test room, as Quake's origin does over the feet, so Quake's numbers are used
//! unscaled.
//!
//! Every plane is solid, the sky's too: Quake's compiler keeps sky brushes solid in the
//! clipping hulls a player moves in and drops only water, slime and lava (qbsp `LoadBrush`).
//! Which Saturn planes are water is not known: the planes' collision flags are not mapped
//! (the format notes say so), so nothing is left out by them. Movers (doors, lifts) stand as
//! the level starts.

use crate::scene::{Body, MeshWalker, Scene};

/// Quake's player (id Software's source, read for the numbers).
pub const BODY: Body = Body {
    // `VEC_HULL_MIN` (-16, -16, -24) to `VEC_HULL_MAX` (16, 16, 32) (QuakeC
    // `PutClientInServer`'s `setsize`): 16 across from its middle, 56 tall.
    radius: 16.0,
    height: 56.0,
    // `STEPSIZE` (sv_phys.c `SV_WalkMove`).
    step: 18.0,
    // `view_ofs` '0 0 22' over the origin, which is 24 over the feet.
    eye: 24.0 + 22.0,
    // `sv_gravity`, units a second per second.
    gravity: 800.0,
    // `sv_maxspeed` 320 units a second (running asks for `cl_forwardspeed` 200 times
    // `cl_movespeedkey` 2, which the server holds to this).
    speed: 320.0,
};

pub fn walker(scene: &Scene) -> MeshWalker {
    MeshWalker::from_scene(scene, BODY, |_, _| true)
}
