// Attack of the Saucerman: the game's 8-bit pipeline. A texel's palette index goes through
// LUT1 (lighting part x fog level) and, for translucent definitions, through LUT2 against the
// palette index already on screen. Tables: src/formats/saucer/lut.rs (both LUTs four bytes a
// word), LUT1 joined with the palette by render/lit_tables.rs.

// Family constants (render/lit_tables.rs): background, fog near, fog far, the word offsets of
// LUT1 joined with the palette (one word per entry: RGB, index in the top byte) and of LUT2.

// 64 levels linear in view depth from near to far, clamped.
fn saucer_fog_level(depth: f32) -> u32 {
    let near = f32(family_constant(1u));
    let far = f32(family_constant(2u));
    if far <= near {
        return select(0u, 63u, depth >= far);
    }
    let level = floor((depth - near) * 64.0 / (far - near));
    return u32(clamp(level, 0.0, 63.0));
}

// LUT1 through the palette: the lit colour in the low bytes, its palette index in the top one.
fn saucer_lut1_lit(part: u32, level: u32, colour: u32) -> u32 {
    return scene_meta[family_constant(3u) + (part & 15u) * 16384u + level * 256u + (colour & 255u)];
}

fn saucer_lut2(table: u32, src: u32, dst: u32) -> u32 {
    let i = (table & 15u) * 65536u + (src & 255u) * 256u + (dst & 255u);
    let w = scene_meta[family_constant(4u) + i / 4u];
    return (w >> ((i & 3u) * 8u)) & 255u;
}

fn saucer_rgb(lit: u32) -> vec3<f32> {
    return vec3<f32>(f32(lit & 255u), f32((lit >> 8u) & 255u), f32((lit >> 16u) & 255u)) / 255.0;
}

// The lit, fogged texel (`saucer_lut1_lit`'s word); `discard` for masked-out texels.
fn saucer_lit(s: SurfaceIn) -> u32 {
    // The game's bitmaps are all indexed: no direct-colour path.
    let t = fetch_index(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.y != 0u && s.masked {
        discard;
    }
    // The light slot's value is the LUT1 part (tile brightness, or the sprite brightness of
    // the tile under a billboard or model).
    return saucer_lut1_lit(s.light, saucer_fog_level(s.depth), t.x);
}

// The colour and the opaque pixel's key: its palette index + 1, which translucent surfaces
// blend with through LUT2. One texel fetch and one joined-table read for both.
fn shade_fragment(s: SurfaceIn) -> FragOut {
    let lit = saucer_lit(s);
    return FragOut(vec4<f32>(saucer_rgb(lit), 1.0), vec4<u32>((lit >> 24u) + 1u, 0u, 0u, 0u));
}

// The family byte holds the LUT2 table + 1; the source is fogged before it blends.
fn translucent(s: SurfaceIn) -> Translucent {
    // (fs_translucent has already tested the fragment against the opaque depth.)
    let lit = saucer_lit(s);
    let mode = u32(max(s.contrast, 0));
    return Translucent(lit >> 24u, mode, vec4<f32>(saucer_rgb(lit), 1.0));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return saucer_lut2(mode - 1u, src, dst);
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): none.
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(0u);
}
