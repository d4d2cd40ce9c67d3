//! Shared pieces of the fuzz targets: an allocator that refuses any single allocation over
//! the project's cap (so an over-limit allocation aborts the run even without a sanitizer's
//! malloc hooks), and the fixture files some targets combine with the fuzzed input.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;

/// Largest single allocation a target may make: the parsers' own cap
/// (`mapscope_formats::limits::MAX_ALLOC`, 256 MiB).
pub const ALLOC_LIMIT: usize = mapscope_formats::limits::MAX_ALLOC;

/// The system allocator, aborting (a crash libFuzzer records) on any request over
/// [`ALLOC_LIMIT`].
pub struct CappedAlloc;

fn over_limit(size: usize) -> ! {
    // No allocation here: write the message with a fixed buffer.
    let mut msg = *b"fuzz: single allocation over 256 MiB: 0x0000000000000000 bytes\n";
    let hex = b"0123456789abcdef";
    for i in 0..16 {
        msg[40 + i] = hex[(size >> (60 - 4 * i)) & 15];
    }
    use std::io::Write;
    let _ = std::io::stderr().write_all(&msg);
    std::process::abort();
}

unsafe impl GlobalAlloc for CappedAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() > ALLOC_LIMIT {
            over_limit(layout.size());
        }
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() > ALLOC_LIMIT {
            over_limit(layout.size());
        }
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > ALLOC_LIMIT {
            over_limit(new_size);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: CappedAlloc = CappedAlloc;

/// `../shared/fixtures` beside the checkout (overridable with `MAPSCOPE_FIXTURES`).
pub fn fixtures_dir() -> PathBuf {
    match std::env::var_os("MAPSCOPE_FIXTURES") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/fixtures")),
    }
}

/// A fixture file's bytes, or empty when it is not there.
pub fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(fixtures_dir().join(rel)).unwrap_or_default()
}

/// A minimal Doom IWAD holding only PLAYPAL and COLORMAP, for targets that load a PWAD or a
/// package over it.
pub fn doom_base_iwad() -> &'static [u8] {
    use mapscope_formats::formats::doom::archive::writer::{playpal_lump, WadWriter};
    static BASE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let mut pal = [[0u8; 3]; 256];
        for (i, c) in pal.iter_mut().enumerate() {
            *c = [i as u8, (i * 7) as u8, (255 - i) as u8];
        }
        let colormap: Vec<u8> = (0..34 * 256).map(|i| (i % 256) as u8).collect();
        let mut w = WadWriter::iwad();
        w.lump("PLAYPAL", playpal_lump(&pal, 14)).lump("COLORMAP", colormap);
        w.to_bytes()
    })
}

/// Splits `data` at a position given by its first four bytes (little-endian, modulo the
/// length), for targets that take two files.
pub fn split2(data: &[u8]) -> (&[u8], &[u8]) {
    if data.len() < 4 {
        return (data, &[]);
    }
    let rest = &data[4..];
    let at = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize % (rest.len() + 1);
    rest.split_at(at)
}
