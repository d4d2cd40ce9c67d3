//! Walk mode: a player body that moves through the level by its game's own collision rules
//! (gravity, eye height, steps, walls and solid things), for the viewer's walk mode and
//! `film --walk`. Each format that knows its game's rules answers through
//! [`super::LevelRecords::walker`].
//!
//! Walkers are driven in viewer space (x and z along the floor, y up), so the viewer and
//! `film` push every game's body alike whatever its native axes and handedness: a strafe to
//! the camera's right is the same vector in every game. Games whose rules are a 2.5D map in
//! native z-up coordinates (Doom, Marathon) write a [`NativeWalker`] and hand it out through
//! [`InViewer`].

use glam::DVec3;

use super::Axes;

/// A body standing in the level, moved one game tic at a time. Positions are viewer space;
/// distances are native units (the axes only turn and mirror, never scale).
pub trait Walker: Send {
    /// Stands the body on the floor under `at` (a viewer-space point, such as the camera's
    /// eye: where floors lie above one another, the one at or below it), at rest.
    fn place(&mut self, at: [f64; 3]);
    /// One tic: tries to move `wish` (viewer x and z) as the game's movement code would
    /// (blocked or sliding along what is in the way), then falls or lands.
    fn tic(&mut self, wish: [f64; 2]);
    /// Where the body's feet are (viewer space).
    fn feet(&self) -> [f64; 3];
    /// Where its eye is (viewer space).
    fn eye(&self) -> [f64; 3];
    /// The farthest it goes in one tic on its own: the game's running speed.
    fn speed(&self) -> f64;
    /// Whether it has a floor under it (false where it was placed over nothing: outside an
    /// open level, where it would hang in the air).
    fn has_floor(&self) -> bool {
        true
    }
}

/// A body whose rules work in the game's native z-up coordinates (x, y along the floor, z
/// up), as a 2.5D map's do; [`InViewer`] makes it a [`Walker`].
pub trait NativeWalker: Send {
    /// Stands the body on the floor at `at` (native x, y), at rest.
    fn place(&mut self, at: [f64; 2]);
    /// One tic of moving `wish` (native x, y).
    fn tic(&mut self, wish: [f64; 2]);
    /// Native x, y, z of the feet.
    fn feet(&self) -> [f64; 3];
    /// Native x, y, z of the eye.
    fn eye(&self) -> [f64; 3];
    /// Running speed, native units a tic.
    fn speed(&self) -> f64;
    /// Whether it stands inside the map (see [`Walker::has_floor`]).
    fn has_floor(&self) -> bool {
        true
    }
}

/// A [`NativeWalker`] seen through its level's axes (which must have z up).
pub struct InViewer<W> {
    walker: W,
    axes: Axes,
}

impl<W: NativeWalker> InViewer<W> {
    pub fn new(walker: W, axes: Axes) -> InViewer<W> {
        InViewer { walker, axes }
    }

    fn native(&self, viewer: DVec3) -> DVec3 {
        self.axes.to_native_f64(viewer)
    }

    fn viewer(&self, native: [f64; 3]) -> [f64; 3] {
        self.axes.to_viewer_f64(native.into()).to_array()
    }
}

impl<W: NativeWalker> Walker for InViewer<W> {
    fn place(&mut self, at: [f64; 3]) {
        let n = self.native(at.into());
        self.walker.place([n.x, n.y]);
    }

    fn tic(&mut self, wish: [f64; 2]) {
        let n = self.native(DVec3::new(wish[0], 0.0, wish[1]));
        self.walker.tic([n.x, n.y]);
    }

    fn feet(&self) -> [f64; 3] {
        self.viewer(self.walker.feet())
    }

    fn eye(&self) -> [f64; 3] {
        self.viewer(self.walker.eye())
    }

    fn speed(&self) -> f64 {
        self.walker.speed()
    }

    fn has_floor(&self) -> bool {
        self.walker.has_floor()
    }
}
