//! The binary as people run it: `render --automap` (`automap`); `compare` as scripts use it
//! (`compare`), on screenshots as
//! people keep them (`compare_screenshots`) and with `--align` (`align`); `locate` (`locate`);
//! `bench` (`bench`); `film` (`film`), walking (`film_walk`, `film_walk_gzdoom`,
//! `film_walk_marathon`, `film_walk_mesh`);
//! `export` to glTF the Khronos validator accepts and to OBJ (`export`); the demo level matches
//! its generator and renders (`demo_level`); the windowed viewer under Xvfb driven by xdotool,
//! files dropped on it through X11 drag and drop (`viewer_window`, `xdnd`), its settings file
//! and map picker (`viewer_settings`), its camera path keys (`viewer_path`), walk mode (`viewer_walk`, `viewer_walk_marathon`).
//!
//! Needs Freedoom, `../shared`, Mesa's Vulkan driver, Node.js with `npm ci --prefix
//! tools/gltf-validator` (export) and Xvfb, xauth and xdotool (the viewer); `.ci/run`
//! installs them all, and tests without them fail and say what to install.
//!
//! Run just these: `cargo test --test cli`; one module: `cargo test --test cli viewer_window::`.

#[path = "../support/mod.rs"]
mod support;

mod align;
mod automap;
mod bench;
mod compare;
mod compare_screenshots;
mod demo_level;
mod export;
mod film;
mod film_walk;
mod film_walk_gzdoom;
mod film_walk_marathon;
mod film_walk_mesh;
mod locate;
mod pick;
mod viewer_path;
mod viewer_settings;
mod viewer_walk;
mod viewer_walk_marathon;
mod viewer_window;
mod xdnd;
