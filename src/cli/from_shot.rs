//! `--from-shot shot.png`: the camera, level and view stored in a mapscope PNG's metadata
//! fill in whatever the command line leaves out.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::{CameraArgs, LoadArgs, ViewArgs};
use crate::shot::ShotMeta;

/// Fills `files` (when empty), the map, camera, angle, pitch (unless given, or `--look-at`
/// is), the tic (when 0), the field of view and mode (always: the shot's) and the toggles
/// (things or sky off, wireframe on, when the shot had them so) from `shot`, and how the level
/// was opened (vanilla rules on, the Shapes file and palette unless given).
pub fn apply(
    shot: &Path,
    files: &mut Vec<PathBuf>,
    load: &mut LoadArgs,
    camera: &mut CameraArgs,
    view: &mut ViewArgs,
) -> Result<ShotMeta> {
    let meta = ShotMeta::read(shot)?;
    if files.is_empty() {
        *files = meta
            .file
            .split(';')
            .filter(|f| !f.is_empty())
            .map(|f| locate(Path::new(f), shot))
            .collect();
        anyhow::ensure!(!files.is_empty(), "{}: the metadata names no level file", shot.display());
    }
    if camera.map.is_none() && !meta.map.is_empty() {
        camera.map = Some(meta.map.clone());
    }
    if camera.look_at.is_none() {
        camera.camera.get_or_insert(meta.pose.position.into());
        camera.angle.get_or_insert(meta.pose.angle);
        camera.pitch.get_or_insert(meta.pose.pitch);
    }
    if camera.tic == 0 {
        camera.tic = meta.tic;
    }
    if meta.fov > 0.0 {
        view.fov = Some(meta.fov);
    }
    if let Ok(mode) = meta.mode.parse() {
        view.mode = Some(mode);
    }
    view.no_things |= !meta.things;
    view.no_sky |= !meta.sky;
    view.wireframe |= meta.wireframe;
    view.markers |= meta.markers;
    load.vanilla |= meta.vanilla;
    if load.shapes.is_none() && !meta.shapes.is_empty() {
        load.shapes = Some(locate(Path::new(&meta.shapes), shot));
    }
    if load.palette.is_none() && !meta.palette.is_empty() {
        load.palette = Some(locate(Path::new(&meta.palette), shot));
    }
    Ok(meta)
}

/// A file named in a shot: as written when it exists, else beside the shot.
fn locate(file: &Path, shot: &Path) -> PathBuf {
    if file.exists() || file.is_absolute() {
        return file.to_path_buf();
    }
    match shot.parent() {
        Some(dir) if dir.join(file).exists() => dir.join(file),
        _ => file.to_path_buf(),
    }
}
