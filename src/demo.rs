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
        std::fs::write(&path, DEMO_WAD).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(path)
}
