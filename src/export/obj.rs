//! Wavefront OBJ + MTL with one PNG per texture, for tools without glTF.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::images;
use super::mesh::{AlphaMode, ExportMesh};
use crate::scene::Scene;

/// Writes `path` (.obj), its .mtl beside it and the textures as `<stem>_<n>.png`; returns
/// every file written.
pub fn write_obj(scene: &Scene, mesh: &ExportMesh, path: &Path) -> Result<Vec<PathBuf>> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("level").to_string();
    let mtl_name = format!("{stem}.mtl");
    let mut written = Vec::new();

    let mut mtl = String::new();
    for (i, m) in mesh.materials.iter().enumerate() {
        let png_name = format!("{stem}_{}.png", m.texture);
        let png_path = dir.join(&png_name);
        if !written.contains(&png_path) {
            std::fs::write(&png_path, images::png(scene, m.texture)?)
                .with_context(|| format!("writing {}", png_path.display()))?;
            written.push(png_path);
        }
        let _ = writeln!(mtl, "newmtl m{i}\nKa 0 0 0\nKd 1 1 1\nKs 0 0 0\nillum 1");
        let _ = writeln!(mtl, "map_Kd {png_name}");
        if m.alpha != AlphaMode::Opaque {
            let _ = writeln!(mtl, "map_d -imfchan m {png_name}");
        }
        mtl.push('\n');
    }

    let mut obj = format!("# {} exported by mapscope\nmtllib {mtl_name}\n", mesh.name);
    let mut base = 1usize;
    for node in &mesh.nodes {
        let _ = writeln!(obj, "o {}", node.name.replace(char::is_whitespace, "_"));
        for p in &node.primitives {
            for (i, v) in p.positions.iter().enumerate() {
                match p.colors.get(i) {
                    Some(c) => {
                        let _ = writeln!(
                            obj,
                            "v {} {} {} {} {} {}",
                            v[0], v[1], v[2], c[0], c[1], c[2]
                        );
                    }
                    None => {
                        let _ = writeln!(obj, "v {} {} {}", v[0], v[1], v[2]);
                    }
                }
            }
            // OBJ's v runs up from the bottom of the image.
            for uv in &p.uvs {
                let _ = writeln!(obj, "vt {} {}", uv[0], 1.0 - uv[1]);
            }
            let _ = writeln!(obj, "usemtl m{}", p.material);
            for t in p.indices.chunks_exact(3) {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| i as usize + base);
                let _ = writeln!(obj, "f {a}/{a} {b}/{b} {c}/{c}");
            }
            base += p.positions.len();
        }
    }
    let mtl_path = dir.join(&mtl_name);
    std::fs::write(&mtl_path, mtl).with_context(|| format!("writing {}", mtl_path.display()))?;
    std::fs::write(path, obj).with_context(|| format!("writing {}", path.display()))?;
    written.push(mtl_path);
    written.push(path.to_path_buf());
    Ok(written)
}
