// Attack of the Saucerman: the game's 8-bit pipeline. A texel's palette index goes through
// LUT1 (lighting part x fog level) and, for translucent definitions, through LUT2 against the
// palette index already on screen. Tables (scene_meta from frame.meta_offs.y, see
// src/formats/saucer/lut.rs): [background, fog near, fog far, LUT1 offset, LUT2 offset, ...],
// then both LUTs four bytes a word.

fn saucer_table_word(i: u32) -> u32 {
    return scene_meta[frame.meta_offs.y + i];
}

fn saucer_byte(base_word: u32, i: u32) -> u32 {
    let w = scene_meta[frame.meta_offs.y + base_word + i / 4u];
    return (w >> ((i & 3u) * 8u)) & 255u;
}

// 64 levels linear in view depth from near to far, clamped.
fn saucer_fog_level(depth: f32) -> u32 {
    let near = f32(saucer_table_word(1u));
    let far = f32(saucer_table_word(2u));
    if far <= near {
        return select(0u, 63u, depth >= far);
    }
    let level = floor((depth - near) * 64.0 / (far - near));
    return u32(clamp(level, 0.0, 63.0));
}

fn saucer_lut1(part: u32, level: u32, colour: u32) -> u32 {
    return saucer_byte(saucer_table_word(3u), (part & 15u) * 16384u + level * 256u + (colour & 255u));
}

fn saucer_lut2(table: u32, src: u32, dst: u32) -> u32 {
    return saucer_byte(saucer_table_word(4u), (table & 15u) * 65536u + (src & 255u) * 256u + (dst & 255u));
}

// The lit, fogged palette index of a fragment; `discard` for masked-out texels.
fn saucer_index(s: SurfaceIn) -> u32 {
    // The game's bitmaps are all indexed: no direct-colour path.
    let t = fetch_index(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.y != 0u && s.masked {
        discard;
    }
    // The light slot's value is the LUT1 part (tile brightness, or the sprite brightness of
    // the tile under a billboard or model).
    return saucer_lut1(s.light, saucer_fog_level(s.depth), t.x);
}

// The colour and the opaque pixel's key: its palette index + 1, which translucent surfaces
// blend with through LUT2. One texel fetch and LUT read for both.
fn shade_fragment(s: SurfaceIn) -> FragOut {
    let index = saucer_index(s);
    return FragOut(vec4<f32>(palette_rgb(index), 1.0), vec4<u32>(index + 1u, 0u, 0u, 0u));
}

// The family byte holds the LUT2 table + 1; the source is fogged before it blends.
fn translucent(s: SurfaceIn) -> Translucent {
    // (fs_translucent has already tested the fragment against the opaque depth.)
    let index = saucer_index(s);
    let mode = u32(max(s.contrast, 0));
    return Translucent(index, mode, vec4<f32>(palette_rgb(index), 1.0));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return saucer_lut2(mode - 1u, src, dst);
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): none.
fn surface_extra(surface: u32, anchor: f32) -> vec4<u32> {
    return vec4<u32>(0u);
}
