//! Hostile input: every corrupt file (the shared fixtures' `corrupt/` folders and the crash
//! inputs the fuzzers found, `tests/data/hostile/`) gives a clean error or loads what is
//! valid, within a memory bound; well-formed but hostile levels build without panicking
//! (`input`); a PK7 package declaring a 4 GiB dictionary is refused without reserving it
//! (`pk7`). See docs/architecture.md, Bad input, and fuzz/README.md.
//!
//! Needs `../shared` (the tests fail and say how to get it).
//!
//! Run just these: `cargo test --test hostile`.

#[path = "../support/mod.rs"]
mod support;

mod input;
mod pk7;

// Allocation accounting per thread (`support::alloc_count`): the memory bound of each corrupt
// file (`input`) and the largest request a PK7 reader makes, past 1 GiB refused (`pk7`). Per
// thread, so the other tests running in parallel in this binary do not count.
#[global_allocator]
static ALLOC: support::alloc_count::CountingAlloc = support::alloc_count::CountingAlloc;
