//! mapscope: a real-time 3D level viewer for retro games.
//!
//! Dependencies run one way: `formats` (bytes → game structures, and each game's scene
//! builder) → `scene` (neutral level description) → `render` (wgpu) → `app` (window, camera)
//! and `cli`. `formats`, `scene`, `loader` and `limits` are the `mapscope-formats` crate,
//! which builds without the GPU or the window; they are re-exported here under the same names.

pub use mapscope_formats::{formats, limits, loader, scene};

pub mod app;
pub mod bench;
pub mod cli;
pub mod compare;
pub mod demo;
pub mod demo_level;
pub mod export;
pub mod film;
pub mod inspect;
pub mod output;
pub mod render;
pub mod shot;
