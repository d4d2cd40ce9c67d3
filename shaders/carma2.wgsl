// Carmageddon 2 (BRender materials). Texels come straight from the pixelmap: 8-bit ones through
// the palette, RGB565 / ARGB4444 as direct colour. `s.shade.x` is the face brightness the
// scene builder worked out (1.0 for unlit materials, which show the texel as stored).
// Z-transparency materials set `masked`: index-0 / alpha-0 texels are not drawn. Textures
// with partial alpha reach `translucent` and blend by their alpha.

fn carma2_texel(s: SurfaceIn) -> Texel {
    return fetch_with(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
}

fn shade(s: SurfaceIn) -> vec4<f32> {
    let t = carma2_texel(s);
    if t.transparent && s.masked {
        discard;
    }
    return vec4<f32>(t.rgba.rgb * s.shade.x, 1.0);
}

// The colour and the opaque pixel's key (none: no surface of this family blends by it).
fn shade_fragment(s: SurfaceIn) -> FragOut {
    return FragOut(shade(s), vec4<u32>(0u));
}

fn translucent(s: SurfaceIn) -> Translucent {
    let t = carma2_texel(s);
    if t.rgba.a <= 0.0 {
        discard;
    }
    return Translucent(t.index, 0u, vec4<f32>(t.rgba.rgb * s.shade.x, t.rgba.a));
}

// No index blending: translucent texels blend by alpha.
fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): none.
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(0u);
}
