//! The demo level shown when mapscope starts without a file: a small Doom-format IWAD with its
//! own palette, colormap and textures, made by the project (`cargo run --bin make-demo`,
//! written to `data/demo.wad`) and embedded in the binary.

use std::path::PathBuf;

use anyhow::{Context, Result};

pub const DEMO_WAD: &[u8] = include_bytes!("../data/demo.wad");

/// Writes the embedded demo WAD to a temporary file and returns its path.
pub fn demo_wad_path() -> Result<PathBuf> {
    let dir = std::env::temp_dir().join("mapscope");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("demo.wad");
    let current = std::fs::read(&path).ok();
    if current.as_deref() != Some(DEMO_WAD) {
        // Written beside it and renamed over it: another mapscope (or test) reading the file
        // meanwhile sees the old or the new one whole, never a half-written one.
        static WRITES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!("demo.wad.{}.{n}.tmp", std::process::id()));
        std::fs::write(&tmp, DEMO_WAD).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(path)
}
