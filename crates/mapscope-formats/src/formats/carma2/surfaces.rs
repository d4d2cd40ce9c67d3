//! How a material looks on screen: its pixelmap turned into a scene texture (or a one-texel
//! texture of its colour), the vertex flags for transparency, and its UV mapping.

use std::collections::HashMap;

use super::build::Palette;
use super::library::Library;
use super::materials::{flags, Material};
use super::pixelmaps::{pixel_type, Pixelmap};
use super::transform::Matrix23;
use crate::scene::{vertex_flags, SurfaceKind, Texels, Texture};

/// Colour of faces whose material is missing (BRender's default material is plain white).
const DEFAULT_COLOUR: [u8; 3] = [255, 255, 255];

/// The drawing parameters of one material.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceLook {
    pub texture: u32,
    /// [`WorldVertex::flags`](crate::scene::WorldVertex::flags).
    pub flags: u32,
    uv_matrix: Matrix23,
    size: [f32; 2],
}

impl SurfaceLook {
    /// Texel coordinates of a model UV after the material's 2D matrix (v = 0 is row 0).
    pub fn uv(&self, uv: [f32; 2]) -> [f32; 2] {
        let [u, v] = self.uv_matrix.apply(uv);
        [u * self.size[0], v * self.size[1]]
    }
}

/// Which texels a texture leaves out or blends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Alpha {
    /// Index 0 or alpha 0 texels.
    transparent: bool,
    /// Alpha strictly between 0 and full.
    partial: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TexKey {
    Pixelmap(String),
    Colour([u8; 3]),
}

/// Scene textures made so far and the look of each material.
pub struct Surfaces<'a> {
    lib: &'a Library,
    has_palette: bool,
    textures: Vec<Texture>,
    alpha: Vec<Alpha>,
    by_key: HashMap<TexKey, u32>,
    /// By material registry index; `None` for the default material.
    looks: HashMap<Option<usize>, SurfaceLook>,
    /// Palettes of pixelmaps that carry their own, used when no palette pixelmap was found;
    /// they follow the 256 entries of the main palette.
    own_palettes: Vec<[u8; 3]>,
    pub notes: Vec<String>,
}

impl<'a> Surfaces<'a> {
    pub fn new(lib: &'a Library, palette: Option<&Palette>) -> Surfaces<'a> {
        Surfaces {
            lib,
            has_palette: palette.is_some(),
            textures: Vec::new(),
            alpha: Vec::new(),
            by_key: HashMap::new(),
            looks: HashMap::new(),
            own_palettes: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The look of a material given with its registry index (None: the default material).
    pub fn look(&mut self, material: Option<(usize, &Material)>) -> SurfaceLook {
        let key = material.map(|(i, _)| i);
        if let Some(l) = self.looks.get(&key) {
            return *l;
        }
        let look = match material {
            Some((_, m)) => self.material_look(m),
            None => self.colour_look(DEFAULT_COLOUR),
        };
        self.looks.insert(key, look);
        look
    }

    fn material_look(&mut self, m: &Material) -> SurfaceLook {
        let image = m.image.as_deref().and_then(|name| self.lib.pixelmaps.get(name));
        let texture = image.and_then(|p| self.pixelmap_texture(p));
        let Some(texture) = texture else {
            return self.colour_look(m.colour);
        };
        let alpha = self.alpha.get(texture as usize).copied().unwrap_or_default();
        let keyed = m.has(flags::Z_TRANSPARENCY);
        let mut flags = vertex_flags::pack(SurfaceKind::Wall, keyed && alpha.transparent, 0, 0);
        if keyed && alpha.partial {
            flags |= vertex_flags::TRANSLUCENT;
        }
        let size = self
            .textures
            .get(texture as usize)
            .map_or([1.0, 1.0], |t| [t.width as f32, t.height as f32]);
        SurfaceLook { texture, flags, uv_matrix: m.uv_matrix, size }
    }

    fn colour_look(&mut self, rgb: [u8; 3]) -> SurfaceLook {
        let key = TexKey::Colour(rgb);
        let texture = match self.by_key.get(&key) {
            Some(&t) => t,
            None => {
                let [r, g, b] = rgb;
                let tex = Texture {
                    name: format!("colour {r},{g},{b}"),
                    width: 1,
                    height: 1,
                    origin: (0, 0),
                    texels: Texels::Rgba(vec![[r, g, b, 255]]),
                    palette: 0,
                };
                self.add(key, tex, Alpha::default())
            }
        };
        SurfaceLook {
            texture,
            flags: vertex_flags::pack(SurfaceKind::Wall, false, 0, 0),
            uv_matrix: Matrix23::IDENTITY,
            size: [1.0, 1.0],
        }
    }

    fn pixelmap_texture(&mut self, p: &Pixelmap) -> Option<u32> {
        let key = TexKey::Pixelmap(p.name.to_ascii_uppercase());
        if let Some(&t) = self.by_key.get(&key) {
            return Some(t);
        }
        let base = self.palette_base(p);
        match texture_from(p, base) {
            Ok((tex, alpha)) => Some(self.add(key, tex, alpha)),
            Err(e) => {
                self.notes.push(format!("pixelmap {}: {e}; drawn in its material colour", p.name));
                None
            }
        }
    }

    /// Where an 8-bit pixelmap's indices start in the scene palette: the main palette, or
    /// its own when no palette pixelmap was found and it carries one.
    fn palette_base(&mut self, p: &Pixelmap) -> u32 {
        if self.has_palette || p.pixel_type != pixel_type::INDEX_8 {
            return 0;
        }
        match p.palette.as_deref().map(Pixelmap::palette_entries) {
            Some(Ok(mut entries)) => {
                entries.resize(256, [0, 0, 0]);
                let base = 256 + self.own_palettes.len() as u32;
                self.own_palettes.extend(entries);
                base
            }
            _ => 0,
        }
    }

    fn add(&mut self, key: TexKey, tex: Texture, alpha: Alpha) -> u32 {
        let i = self.textures.len() as u32;
        self.textures.push(tex);
        self.alpha.push(alpha);
        self.by_key.insert(key, i);
        i
    }

    /// Identifiers of the pixelmaps drawn, in first-use order.
    pub fn pixelmaps_used(&self) -> Vec<String> {
        let mut used: Vec<(u32, String)> = self
            .by_key
            .iter()
            .filter_map(|(k, &i)| match k {
                TexKey::Pixelmap(_) => self.textures.get(i as usize).map(|t| (i, t.name.clone())),
                TexKey::Colour(_) => None,
            })
            .collect();
        used.sort();
        used.into_iter().map(|(_, n)| n).collect()
    }

    /// The scene palette (main palette or a grey ramp, then pixelmaps' own) and textures.
    pub fn finish(self, palette: Option<Palette>) -> (Vec<[u8; 3]>, Vec<Texture>) {
        let mut entries = match palette {
            Some(p) => p.entries,
            None => (0..=255u8).map(|i| [i, i, i]).collect(),
        };
        entries.resize(256, [0, 0, 0]);
        entries.extend(self.own_palettes);
        (entries, self.textures)
    }
}

/// A scene texture from a pixelmap: 8-bit maps keep their indices (index 0 marked
/// transparent), 16- and 32-bit maps become direct colour with the channels widened by bit
/// replication.
fn texture_from(p: &Pixelmap, palette_base: u32) -> Result<(Texture, Alpha), String> {
    p.validate()?;
    let (w, h) = (usize::from(p.width), usize::from(p.height));
    let raw =
        (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| p.raw(x, y).unwrap_or(0));
    let mut alpha = Alpha::default();
    let texels = if p.pixel_type == pixel_type::INDEX_8 {
        let index: Vec<u8> = raw.map(|v| v as u8).collect();
        alpha.transparent = index.contains(&0);
        let opaque =
            if alpha.transparent { index.iter().map(|&i| i != 0).collect() } else { Vec::new() };
        Texels::Indexed { index, opaque }
    } else {
        let rgba: Vec<[u8; 4]> = raw.map(|v| rgba_of(p.pixel_type, v)).collect();
        alpha.transparent = rgba.iter().any(|c| c[3] == 0);
        alpha.partial = rgba.iter().any(|c| c[3] != 0 && c[3] != 255);
        Texels::Rgba(rgba)
    };
    let texture = Texture {
        name: p.name.clone(),
        width: w as u32,
        height: h as u32,
        origin: (i32::from(p.origin[0]), i32::from(p.origin[1])),
        texels,
        palette: palette_base,
    };
    Ok((texture, alpha))
}

/// One direct-colour pixel as RGBA8.
pub fn rgba_of(pixel_type: u8, v: u32) -> [u8; 4] {
    let widen = |value: u32, bits: u32| {
        let x = value & ((1 << bits) - 1);
        ((x << (8 - bits)) | (x >> (2 * bits).saturating_sub(8))) as u8
    };
    match pixel_type {
        pixel_type::RGB_565 => [widen(v >> 11, 5), widen(v >> 5, 6), widen(v, 5), 255],
        pixel_type::ARGB_4444 => {
            [widen(v >> 8, 4), widen(v >> 4, 4), widen(v, 4), widen(v >> 12, 4)]
        }
        _ => [(v >> 16) as u8, (v >> 8) as u8, v as u8, 255],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_bit_channels_widen_by_bit_replication() {
        assert_eq!(rgba_of(pixel_type::RGB_565, 0xe19e), [231, 48, 247, 255]);
        assert_eq!(rgba_of(pixel_type::RGB_565, 0xffff), [255, 255, 255, 255]);
        assert_eq!(rgba_of(pixel_type::ARGB_4444, 0xff80), [255, 136, 0, 255]);
        assert_eq!(rgba_of(pixel_type::ARGB_4444, 0x00ff), [0, 255, 255, 0]);
        assert_eq!(rgba_of(pixel_type::ARGB_4444, 30124), [85, 170, 204, 119]);
        assert_eq!(rgba_of(pixel_type::RGBX_888, 0x00e04020), [224, 64, 32, 255]);
    }
}
