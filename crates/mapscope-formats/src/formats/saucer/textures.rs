//! Scene textures: every texture definition (the map's list, then the WAD's table) becomes
//! its own texture cut from its atlas bitmap, so animations can swap whole definitions and
//! masked definitions can mark colour 0 transparent.

use crate::scene::{Texels, Texture};

use super::packed::Bitmap;
use super::texture_def::TextureDef;

/// Cuts the rectangle a definition spans out of its bitmap; `None` when the bitmap is missing
/// or the rectangle does not fit it.
pub fn cut_texture(name: String, def: &TextureDef, bitmap: Option<&Bitmap>) -> Option<Texture> {
    let bitmap = bitmap?;
    let (u0, v0, w, h) = def.rect();
    if u0 + w > bitmap.width || v0 + h > bitmap.height {
        return None;
    }
    let mut index = Vec::with_capacity((w * h) as usize);
    for y in v0..v0 + h {
        for x in u0..u0 + w {
            index.push(bitmap.texel(x, y)?);
        }
    }
    let opaque = if def.masked() { index.iter().map(|&c| c != 0).collect() } else { Vec::new() };
    Some(Texture {
        name,
        width: w,
        height: h,
        // Billboards stand on their bottom centre.
        origin: ((w / 2) as i32, h as i32),
        texels: Texels::Indexed { index, opaque },
        palette: 0,
    })
}
