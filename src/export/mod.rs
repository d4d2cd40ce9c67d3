//! Levels out to other tools: binary glTF 2.0 and OBJ + MTL, from a built scene.
//!
//! Positions are the viewer's space (right-handed, Y up — glTF's convention) divided by the
//! game's units per metre (`Game::units_per_metre`); UVs are texel coordinates divided
//! by the texture size (v down, as glTF has it).

mod gltf;
mod images;
pub mod mesh;
mod obj;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::scene::Scene;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LightMode {
    /// Each surface's light level as a grey vertex colour (distance light is left out:
    /// it depends on the camera).
    #[default]
    Baked,
    /// Texture colours only.
    Unlit,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpriteMode {
    /// Each billboard as a fixed quad across its facing (its front view).
    #[default]
    Quads,
    Skip,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExportFormat {
    #[default]
    Glb,
    Obj,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ExportOptions {
    pub format: ExportFormat,
    pub light: LightMode,
    pub sprites: SpriteMode,
}

/// Writes `scene` to `path`; returns the files written.
pub fn export(scene: &Scene, path: &Path, opts: &ExportOptions) -> Result<Vec<PathBuf>> {
    let mesh = mesh::build(scene, opts);
    match opts.format {
        ExportFormat::Glb => {
            let bytes = gltf::write_glb(scene, &mesh)?;
            std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))?;
            Ok(vec![path.to_path_buf()])
        }
        ExportFormat::Obj => obj::write_obj(scene, &mesh, path),
    }
}
