// Unlit family: texels through the palette (or direct colour), no light tables.

fn shade(s: SurfaceIn) -> vec4<f32> {
    let t = fetch_with(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.transparent && s.masked {
        discard;
    }
    return vec4<f32>(t.rgba.rgb, 1.0);
}

// The colour and the opaque pixel's key (none: no surface of this family blends by it).
fn shade_fragment(s: SurfaceIn) -> FragOut {
    return FragOut(shade(s), vec4<u32>(0u));
}

fn translucent(s: SurfaceIn) -> Translucent {
    let t = fetch_with(s.info, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
    if t.transparent && s.masked {
        discard;
    }
    return Translucent(t.index, 0u, t.rgba);
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): none.
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(0u);
}
