//! Textures as scenes hold them: indexed texels stay palette indices (with transparency) so
//! that light tables apply at draw time, as the games apply them; true-colour ones are RGBA.

/// Texel storage: palette indices stay indices so light tables can be applied on the GPU.
#[derive(Clone, Debug)]
pub enum Texels {
    /// One palette index per texel; `opaque[i] == false` marks a transparent texel.
    /// An empty `opaque` means every texel is opaque.
    Indexed { index: Vec<u8>, opaque: Vec<bool> },
    /// Direct colour, straight alpha.
    Rgba(Vec<[u8; 4]>),
}

#[derive(Clone, Debug)]
pub struct Texture {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Origin for sprites (Doom patch left/top offsets), in texels.
    pub origin: (i32, i32),
    pub texels: Texels,
    /// Added to every texel index before the palette lookup (per-texture palettes).
    pub palette: u32,
}

impl Texture {
    /// A solid single-index texture, used as a visible placeholder for missing data.
    pub fn placeholder(name: &str, index_a: u8, index_b: u8) -> Texture {
        let (w, h) = (16u32, 16u32);
        let index = (0..w * h)
            .map(|i| if ((i % w) / 8 + (i / w) / 8) % 2 == 0 { index_a } else { index_b })
            .collect();
        Texture {
            name: name.to_string(),
            width: w,
            height: h,
            origin: (0, 0),
            texels: Texels::Indexed { index, opaque: Vec::new() },
            palette: 0,
        }
    }

    pub fn texel_count(&self) -> usize {
        (self.width as usize) * (self.height as usize)
    }
}
