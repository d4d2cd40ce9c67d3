//! mapscope: a real-time 3D level viewer for retro games.
//!
//! Dependencies run one way: `formats` (bytes → game structures, and each game's scene
//! builder) → `scene` (neutral level description) → `render` (wgpu) → `app` (window, camera)
//! and `cli`.

pub mod align;
pub mod app;
pub mod bench;
pub mod cli;
pub mod compare;
pub mod demo;
pub mod demo_level;
pub mod export;
pub mod formats;
pub mod loader;
pub mod output;
pub mod render;
pub mod scene;
pub mod screenshot;
pub mod shot;
