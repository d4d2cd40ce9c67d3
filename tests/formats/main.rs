//! The other four games' formats, each checked two ways: `<game>_fixtures` holds every fact,
//! probe and corrupt file of the spec-derived fixtures in `../shared/fixtures/<game>/`
//! (`expected.json`), through the library and the binary; `<game>_writer` builds levels with
//! the format's own writer for what the fixtures leave out. Games: `carma2` (Carmageddon 2),
//! `marathon`, `saturn` (Saturn Quake), `saucer` (Attack of the Saucerman).
//!
//! Needs `../shared` (the fixtures test fails and says how to get it) and Mesa's Vulkan driver
//! for the headless renders.
//!
//! Run just these: `cargo test --test formats`; one game: `cargo test --test formats saturn_`;
//! one module: `cargo test --test formats saturn_fixtures::`. Doom is `tests/doom/`; every
//! game's faithful frames on the CPU canvas are `tests/render/`; all corrupt files together,
//! with the fuzzers' finds, `tests/hostile/`.

#[path = "../support/mod.rs"]
mod support;

mod carma2_fixtures;
mod carma2_writer;
mod marathon_fixtures;
mod marathon_writer;
mod saturn_fixtures;
mod saturn_writer;
mod saucer_fixtures;
mod saucer_writer;

// Allocation accounting per thread (`support::alloc_count`), so loading a corrupt fixture can
// be held to a memory bound (`carma2_fixtures`, `saturn_fixtures`). Per thread, so the other
// tests running in parallel in this binary do not count.
#[global_allocator]
static ALLOC: support::alloc_count::CountingAlloc = support::alloc_count::CountingAlloc;
