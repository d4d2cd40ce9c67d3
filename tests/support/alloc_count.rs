//! Allocation accounting per thread, so a test can hold loading one file to a memory bound.
//! A test binary that wants it declares the allocator in its `main.rs`:
//! `#[global_allocator] static ALLOC: CountingAlloc = CountingAlloc;`
//!
//! Everything here is per thread: the test harness runs each test on a thread of its own, so
//! tests running in parallel in the same binary do not disturb each other's figures. What a
//! measured closure hands to other threads is not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes live on each thread and their peak, recording
/// each thread's largest single request, and refusing requests past a thread's limit (see
/// [`largest_request`]).
pub struct CountingAlloc;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static REFUSE_PAST: Cell<usize> = const { Cell::new(usize::MAX) };
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let size = layout.size();
        let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        if REFUSE_PAST.try_with(|r| size > r.get()).unwrap_or(false) {
            return std::ptr::null_mut();
        }
        let _ = LIVE.try_with(|l| {
            let now = l.get() + size;
            l.set(now);
            let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
        });
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(layout.size())));
        System.dealloc(ptr, layout)
    }
}

/// Runs `f` and returns its result with the most bytes this thread had allocated at once
/// while it ran (above what was live before). Counts only where `CountingAlloc` is the
/// binary's global allocator.
pub fn peak_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let out = f();
    (out, PEAK.with(Cell::get) - base)
}

/// Runs `f` with this thread's requests past `refuse_past` bytes refused (the allocator
/// returns null, so a decoder that did reserve a huge buffer shows up as that request rather
/// than as the machine running out of memory), and returns its result with the largest
/// single request this thread made while it ran. Counts only where `CountingAlloc` is the
/// binary's global allocator.
pub fn largest_request<T>(refuse_past: usize, f: impl FnOnce() -> T) -> (T, usize) {
    /// Lifts the limit again, also when `f` panics.
    struct Lift(usize);
    impl Drop for Lift {
        fn drop(&mut self) {
            REFUSE_PAST.with(|r| r.set(self.0));
        }
    }
    LARGEST.with(|l| l.set(0));
    let _lift = Lift(REFUSE_PAST.with(|r| r.replace(refuse_past)));
    let out = f();
    (out, LARGEST.with(Cell::get))
}
