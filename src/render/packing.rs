//! Packs a `Scene` into the flat u32 arrays the shaders read (see shaders/common.wgsl).

use super::family::family_packing;
use crate::scene::{FrameState, Scene, Sprite, SpriteView, Texels, MAX_PALETTE};

/// Word offsets of the parts of the scene metadata buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MetaLayout {
    pub palette: u32,
    pub colormap: u32,
    pub texinfo: u32,
    pub texture_count: u32,
    /// The shading family's constants (see `lit_tables` and `FamilyPacking::tables`).
    pub family: [u32; 8],
    /// Every texture's width and height are powers of two, so texel coordinates wrap by a
    /// mask instead of a division.
    pub pow2_textures: bool,
}

pub struct PackedScene {
    pub meta: Vec<u32>,
    pub layout: MetaLayout,
    pub texels: Vec<u32>,
    pub sprites: Vec<u32>,
    /// Word offset of the sprite views inside `sprites`.
    pub sprite_views: u32,
    pub sprite_count: u32,
    /// Word offset inside `sprites` of Doom's frame table: the number of frames, then a word
    /// a frame (its views' first, relative to `sprite_views`, and count in the top 8 bits),
    /// by the frame index the frame state's thing words hold.
    pub sprite_frames: u32,
}

const TEX_RGBA: u32 = 1;

pub fn pack_scene(scene: &Scene) -> PackedScene {
    let mut meta = Vec::new();
    let palette = 0;
    // At least 256 entries so any 8-bit index reads inside the palette.
    let entries = scene.palette.len().clamp(256, MAX_PALETTE);
    for i in 0..entries {
        let [r, g, b] = scene.palette.get(i).copied().unwrap_or([0, 0, 0]);
        meta.push(r as u32 | (g as u32) << 8 | (b as u32) << 16 | 0xFF00_0000);
    }
    let colormap = meta.len() as u32;
    let packing = family_packing(&scene.shading);
    meta.extend(packing.tables_words());
    if meta.len() == colormap as usize {
        meta.push(0);
    }
    let joined_at = meta.len() as u32;
    let family = packing.tables(&meta[..entries], colormap, joined_at);
    meta.extend(family.joined);
    let texinfo = meta.len() as u32;

    // Word 7 of a descriptor: the texture smooth frames draw in its place, plus one (0: itself).
    let mut smooth_twin = vec![0u32; scene.textures.len()];
    for &[fitted, full] in packing.smooth_twins() {
        if let Some(w) = smooth_twin.get_mut(fitted as usize) {
            *w = full.saturating_add(1);
        }
    }
    let mut texels = Vec::new();
    let rgb555 = packing.texels_as_rgb555();
    for (t, &twin) in scene.textures.iter().zip(&smooth_twin) {
        let offset = texels.len() as u32;
        let flags = match &t.texels {
            Texels::Indexed { index, opaque } => {
                let value = |i: usize| -> u32 {
                    let idx = index.get(i).copied().unwrap_or(0) as u32;
                    let transparent = !opaque.is_empty() && !opaque.get(i).copied().unwrap_or(true);
                    if rgb555 {
                        let at = (idx + t.palette).min(entries as u32 - 1) as usize;
                        rgb555_texel(meta[palette as usize + at], transparent)
                    } else {
                        idx | if transparent { 0x100 } else { 0 }
                    }
                };
                let n = t.texel_count();
                texels.extend((0..n.div_ceil(2)).map(|w| value(2 * w) | value(2 * w + 1) << 16));
                0
            }
            Texels::Rgba(rgba) => {
                texels.extend(
                    (0..t.texel_count())
                        .map(|i| u32::from_le_bytes(rgba.get(i).copied().unwrap_or([0; 4]))),
                );
                TEX_RGBA
            }
        };
        meta.extend([
            offset,
            t.width.max(1),
            t.height.max(1),
            flags,
            t.origin.0 as u32,
            t.origin.1 as u32,
            t.palette.min(MAX_PALETTE as u32 - 256),
            twin,
        ]);
    }
    if scene.textures.is_empty() {
        // Keep texture 0 valid for shaders: a 1x1 texel of index 0.
        meta.extend([texels.len() as u32, 1, 1, 0, 0, 0, 0, 0]);
        texels.push(0);
    }
    if texels.is_empty() {
        texels.push(0);
    }

    let frame_views = packing.sprite_frame_views();
    let (sprites, sprite_views, sprite_frames) = pack_sprites(&scene.sprites, frame_views);
    PackedScene {
        layout: MetaLayout {
            palette,
            colormap,
            texinfo,
            texture_count: scene.textures.len().max(1) as u32,
            family: family.constants,
            pow2_textures: scene
                .textures
                .iter()
                .all(|t| t.width.max(1).is_power_of_two() && t.height.max(1).is_power_of_two()),
        },
        meta,
        texels,
        sprite_views,
        sprite_count: scene.sprites.len() as u32,
        sprite_frames,
        sprites,
    }
}

/// Saturn's indexed texel as the shader reads it (shaders/saturn.wgsl `sat_texel`): the
/// palette colour's 5-bit channels (the palette holds `(v << 3) | (v >> 2)`) at bits 0, 5
/// and 10, transparency at bit 15. Saturn's shading needs only the colour, and a software
/// rasteriser then gathers one word a pixel instead of the texel and then its palette entry.
fn rgb555_texel(rgba: u32, transparent: bool) -> u32 {
    let channel = |k: u32| (rgba >> (8 * k + 3)) & 31;
    channel(0) | channel(1) << 5 | channel(2) << 10 | u32::from(transparent) << 15
}

/// A sprite view as the shader reads it: the texture, mirrored in the top bit.
fn view_word(v: &SpriteView) -> u32 {
    (v.texture & 0x7FFF_FFFF) | if v.mirrored { 1 << 31 } else { 0 }
}

/// Sprite instances (9 words each) followed by their views (1 word each), then the frame
/// table of `frame_views` (see [`PackedScene::sprite_frames`]) whose views follow the
/// instances'. Returns the words, the views' offset and the frame table's.
fn pack_sprites(sprites: &[Sprite], frame_views: &[Vec<SpriteView>]) -> (Vec<u32>, u32, u32) {
    let mut out = Vec::with_capacity(sprites.len() * 10 + 1);
    let mut views = Vec::new();
    for s in sprites {
        let first = views.len() as u32;
        views.extend(s.views.iter().take(255).map(view_word));
        let count = s.views.len().min(255) as u32;
        out.extend([
            s.pos.x.to_bits(),
            s.pos.y.to_bits(),
            s.pos.z.to_bits(),
            s.facing.to_bits(),
            s.scale[0].to_bits(),
            s.light,
            // Bit 0: full brightness; the high half: the sector colour pair.
            s.fullbright as u32 | u32::from(s.tint) << 16,
            (first & 0xFF_FFFF) | count << 24,
            s.scale[1].to_bits(),
        ]);
    }
    let mut frames = vec![frame_views.len() as u32];
    for f in frame_views {
        let first = views.len() as u32;
        views.extend(f.iter().take(255).map(view_word));
        frames.push((first & 0xFF_FFFF) | (f.len().min(255) as u32) << 24);
    }
    let views_at = out.len() as u32;
    out.extend(views);
    let frames_at = out.len() as u32;
    out.extend(frames);
    (out, views_at, frames_at)
}

/// Word offsets of the parts of the frame state buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StateLayout {
    pub light: u32,
    /// Doom's things' frames (`thing_count` words), between the light values and the remap.
    pub things: u32,
    pub thing_count: u32,
    pub remap: u32,
    pub scroll: u32,
    pub light_count: u32,
}

/// Packs animation state; textures missing from the remap map to themselves.
pub fn pack_state(state: &FrameState, texture_count: u32, out: &mut Vec<u32>) -> StateLayout {
    out.clear();
    let light = 0;
    out.extend(state.light.iter().copied());
    if state.light.is_empty() {
        out.push(255);
    }
    let light_count = out.len() as u32;
    let things = out.len() as u32;
    out.extend(state.thing_frames.iter().copied());
    let thing_count = state.thing_frames.len() as u32;
    let remap = out.len() as u32;
    for t in 0..texture_count {
        let to = state.texture_remap.get(t as usize).copied().unwrap_or(t);
        out.push(if to < texture_count { to } else { t });
    }
    let scroll = out.len() as u32;
    out.extend([0, 0]);
    for s in state.scroll.iter().skip(1) {
        out.extend([s[0].to_bits(), s[1].to_bits()]);
    }
    StateLayout { light, things, thing_count, remap, scroll, light_count }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_remap_ignores_out_of_range_targets() {
        let state = FrameState {
            light: vec![10, 20],
            texture_remap: vec![1, 0, 99],
            scroll: vec![[0.0, 0.0], [3.0, 0.0]],
            thing_frames: vec![7, 1 << 31],
        };
        let mut out = Vec::new();
        let l = pack_state(&state, 3, &mut out);
        assert_eq!(&out[l.light as usize..l.light as usize + 2], &[10, 20]);
        assert_eq!(&out[l.things as usize..l.remap as usize], &[7, 1 << 31]);
        assert_eq!(&out[l.remap as usize..l.remap as usize + 3], &[1, 0, 2]);
        assert_eq!(f32::from_bits(out[l.scroll as usize + 2]), 3.0);
    }

    /// A Saturn level with one texture whose palette entry 5 is (1, 2, 3) and 6 is (31, 0, 17)
    /// in 5-bit channels; texels 5, 6, 0, ... (0 is the Saturn's transparent code).
    fn saturn_scene() -> Scene {
        use crate::formats::saturn::{build_scene, writer, LevFile};
        let mut b = writer::LevBuilder::default();
        let mut palette = [writer::word(0, 0, 0); 16];
        palette[5] = writer::word(1, 2, 3);
        palette[6] = writer::word(31, 0, 17);
        let mut indices = vec![5u8; 64 * 64];
        indices[1] = 6;
        indices[2] = 0;
        b.texture(palette, indices);
        let bytes = b.finish();
        let file = LevFile::parse("T.LEV", &bytes).expect("written level parses");
        build_scene(&file, "T")
    }

    #[test]
    fn saturn_texels_hold_their_rgb555_colour_and_transparency() {
        let scene = saturn_scene();
        let packed = pack_scene(&scene);
        let texel = |i: usize| (packed.texels[i / 2] >> ((i % 2) * 16)) & 0xFFFF;
        assert_eq!(texel(0), 1 | 2 << 5 | 3 << 10);
        assert_eq!(texel(1), 31 | 17 << 10);
        assert_eq!(texel(2) & 0x8000, 0x8000, "index 0 is transparent");
        assert_eq!(texel(3) & 0x8000, 0);
    }

    #[test]
    fn power_of_two_scenes_are_marked_and_others_are_not() {
        let mut scene = saturn_scene();
        assert!(pack_scene(&scene).layout.pow2_textures, "Saturn's textures are 64x64");
        scene.textures[0].width = 48;
        assert!(!pack_scene(&scene).layout.pow2_textures);
    }
}
