// Saturn Quake: 4-bit texels through per-texture 16-colour rgb555 palettes (resolved when the
// scene is packed: a texel holds its colour), lit by per-vertex
// light indices whose signed (r, g, b) offsets are added in 5-bit space and clamped, as the
// VDP1 Gouraud adder does. Tables (scene_meta at frame.tables_at): 18 words, offsets + 16 packed
// as r | g << 8 | b << 16. `s.surface`: corner k's light index at bits 5k..5k+5, bit 20 = u
// mirrored, bit 21 = v mirrored. `s.shade.rgb`: the offsets + 16, interpolated per triangle.

const SAT_FLIP_H: u32 = 1048576u;
const SAT_FLIP_V: u32 = 2097152u;
const SAT_TEXTURE_SIZE: f32 = 64.0;
// Sky texels per full turn of view angle, horizontally and vertically.
const SAT_SKY_TEXELS_PER_TURN: f32 = 512.0;
const SAT_TURN: f32 = 6.28318530718;

fn sat_offset_word(index: u32) -> u32 {
    return scene_meta[frame.tables_at + min(index, 17u)];
}

fn sat_offsets(w: u32) -> vec3<f32> {
    return vec3<f32>(f32(w & 255u), f32((w >> 8u) & 255u), f32((w >> 16u) & 255u)) - 16.0;
}

// A texel as render/packing.rs stores Saturn's (`rgb555_texel`): its palette colour's 5-bit
// channels and transparency, so that a pixel reads one word and no palette entry.
struct SatTexel {
    rgb5: vec3<i32>,
    transparent: bool,
}

fn sat_texel(info: TexInfo, x: i32, y: i32) -> SatTexel {
    let i = wrap(y, info.height) * info.width + wrap(x, info.width);
    let v = (texels[info.offset + i / 2u] >> ((i & 1u) * 16u)) & 0xFFFFu;
    let rgb5 = vec3<i32>(vec3<u32>(v, v >> 5u, v >> 10u) & vec3<u32>(31u));
    return SatTexel(rgb5, (v & 0x8000u) != 0u);
}

fn sat_expand(v: vec3<i32>) -> vec3<f32> {
    let u = vec3<u32>(clamp(v, vec3<i32>(0), vec3<i32>(31)));
    return vec3<f32>((u << vec3<u32>(3u)) | (u >> vec3<u32>(2u))) / 255.0;
}

// The VDP1 steps Gouraud values down the quad's left and right edges and then along each
// span: bilinear in the quad's own coordinates, in whole 5-bit steps.
fn sat_gouraud(s: SurfaceIn) -> vec3<i32> {
    var p = clamp(s.uv / SAT_TEXTURE_SIZE, vec2<f32>(0.0), vec2<f32>(1.0));
    if (s.surface & SAT_FLIP_H) != 0u {
        p.x = 1.0 - p.x;
    }
    if (s.surface & SAT_FLIP_V) != 0u {
        p.y = 1.0 - p.y;
    }
    let c0 = sat_offsets(s.extra.x);
    let c1 = sat_offsets(s.extra.y);
    let c2 = sat_offsets(s.extra.z);
    let c3 = sat_offsets(s.extra.w);
    let v = mix(mix(c0, c1, p.x), mix(c3, c2, p.x), p.y);
    return vec3<i32>(floor(v + 0.5));
}

// The sky is a background scroll on the Saturn: texels follow the view direction of the
// pixel, not the sky plane's surface.
fn sat_sky(s: SurfaceIn) -> vec4<f32> {
    let focal = frame.screen.z;
    let azimuth = frame.center.z - atan((s.frag.x - frame.center.x) / focal);
    let elevation = frame.center.w - atan((s.frag.y - frame.center.y) / focal);
    let x = i32(floor(azimuth / SAT_TURN * SAT_SKY_TEXELS_PER_TURN));
    let y = i32(floor(-elevation / SAT_TURN * SAT_SKY_TEXELS_PER_TURN));
    return vec4<f32>(sat_expand(sat_texel(s.info, x, y).rgb5), 1.0);
}

fn shade(s: SurfaceIn) -> vec4<f32> {
    // With the sky turned off (viewer key K) sky planes show the frame as a plain texture.
    if surface_is(s, KIND_SKY) && has_flag(FLAG_SKY) {
        return sat_sky(s);
    }
    let t = sat_texel(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.transparent && s.masked {
        discard;
    }
    if faithful_mode() {
        return vec4<f32>(sat_expand(t.rgb5 + sat_gouraud(s)), 1.0);
    }
    // Smooth: the triangle-interpolated offsets, not quantised, on the 8-bit colour.
    let offsets = s.shade.rgb * 255.0 - 16.0;
    return vec4<f32>(clamp(sat_expand(t.rgb5) + offsets * (8.0 / 255.0), vec3<f32>(0.0), vec3<f32>(1.0)), 1.0);
}

// The colour and the opaque pixel's key (none: no surface of this family blends by it).
fn shade_fragment(s: SurfaceIn) -> FragOut {
    return FragOut(shade(s), vec4<u32>(0u));
}

// Saturn Quake levels have no translucent surfaces; this only satisfies the family contract.
fn translucent(s: SurfaceIn) -> Translucent {
    let t = sat_texel(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.transparent && s.masked {
        discard;
    }
    return Translucent(0u, 0u, vec4<f32>(sat_expand(t.rgb5), 1.0));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): the four
// corners' light offset words, looked up once a vertex instead of once a pixel.
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(sat_offset_word(surface & 31u), sat_offset_word((surface >> 5u) & 31u),
                     sat_offset_word((surface >> 10u) & 31u), sat_offset_word((surface >> 15u) & 31u));
}
