//! Walk mode: a player body that moves through the level by its game's own collision rules
//! (gravity, eye height, steps, walls and solid things), for the viewer's walk mode and
//! `film --walk`. Each format that knows its game's rules answers through
//! [`super::LevelRecords::walker`].

/// A body standing in the level, moved one game tic at a time.
pub trait Walker: Send {
    /// Stands the body on the floor at `at` (native x, y), at rest.
    fn place(&mut self, at: [f64; 2]);
    /// One tic: tries to move `wish` (native units, horizontal) as the game's movement code
    /// would (blocked or sliding along what is in the way), then falls or lands.
    fn tic(&mut self, wish: [f64; 2]);
    /// Where the body's feet are (native x, y, z).
    fn feet(&self) -> [f64; 3];
    /// Where its eye is (native x, y, z).
    fn eye(&self) -> [f64; 3];
    /// The farthest it goes in one tic on its own (native units): the game's running speed.
    fn speed(&self) -> f64;
}
