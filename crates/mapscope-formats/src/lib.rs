//! mapscope's level reading: `formats` (bytes → game structures, with each game's scene
//! builder and the test-file writers), `scene` (the neutral level description the renderer
//! draws) and `loader` (detecting a file's game and opening its levels).
//!
//! Nothing here knows about the GPU or the window: the `mapscope` crate renders scenes and
//! re-exports these modules under the same names.

pub mod formats;
pub mod loader;
pub mod scene;
