//! mapscope's level reading: `formats` (bytes → game structures, with each game's scene
//! builder and the test-file writers), `scene` (the neutral level description the renderer
//! draws), `loader` (detecting a file's game and opening its levels) and `limits` (every
//! bound on what is read from a file, in one place).
//!
//! Nothing here knows about the GPU or the window: the `mapscope` crate renders scenes and
//! re-exports these modules under the same names.

pub mod formats;
pub mod limits;
pub mod loader;
pub mod scene;
