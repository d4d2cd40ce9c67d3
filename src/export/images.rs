//! Scene textures as RGBA images: the palette applied, transparent texels as alpha 0.

use anyhow::{Context, Result};

use crate::scene::{Scene, Texels, Texture};

pub fn rgba(scene: &Scene, t: &Texture) -> image::RgbaImage {
    let (w, h) = (t.width.max(1), t.height.max(1));
    let pixels = (0..t.texel_count())
        .flat_map(|i| match &t.texels {
            Texels::Indexed { index, opaque } => {
                let idx = index.get(i).copied().unwrap_or(0) as usize + t.palette as usize;
                let [r, g, b] = scene.palette.get(idx).copied().unwrap_or([0, 0, 0]);
                let shown = opaque.get(i).copied().unwrap_or(true);
                [r, g, b, if shown { 255 } else { 0 }]
            }
            Texels::Rgba(px) => px.get(i).copied().unwrap_or([0; 4]),
        })
        .collect();
    image::RgbaImage::from_raw(w, h, pixels).unwrap_or_else(|| image::RgbaImage::new(w, h))
}

/// PNG bytes of texture `index` (a 1x1 magenta image if the scene has no such texture).
pub fn png(scene: &Scene, index: u32) -> Result<Vec<u8>> {
    let img = match scene.textures.get(index as usize) {
        Some(t) => rgba(scene, t),
        None => image::RgbaImage::from_pixel(1, 1, image::Rgba([255, 0, 255, 255])),
    };
    crate::shot::png_bytes(&img).context("encoding a texture as PNG")
}
