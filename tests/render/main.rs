//! The renderer: hand-built scenes checked at probe pixels (`synthetic`); occlusion culling
//! keeps the picture (`occlusion`); the CPU canvases draw what the GPU's passes draw, for
//! Saturn Quake, Marathon, Attack of the Saucerman and Carmageddon 2 (`soft_canvas`, also SSE2
//! against AVX2) and for Doom's frames vanilla's canvas cannot draw (`doom_triangle_canvas`).
//!
//! Needs Mesa's Vulkan driver (`mesa-vulkan-drivers`), Freedoom and `../shared`; tests without
//! them fail and say what to install.
//!
//! Run just these: `cargo test --test render`; one module: `cargo test --test render
//! soft_canvas::`.

#[path = "../support/mod.rs"]
mod support;

mod doom_triangle_canvas;
mod occlusion;
mod soft_canvas;
mod synthetic;
