//! Generates the demo level: `cargo run --bin make-demo [-- OUT]` (default `data/demo.wad`).

use std::path::PathBuf;

use anyhow::{Context, Result};

fn main() -> Result<()> {
    let out = PathBuf::from(
        std::env::args_os().nth(1).unwrap_or_else(|| mapscope::demo_level::DEFAULT_OUTPUT.into()),
    );
    let bytes = mapscope::demo_level::wad_bytes()?;
    std::fs::write(&out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    mapscope::outln!("wrote {} ({} bytes)", out.display(), bytes.len());
    Ok(())
}
