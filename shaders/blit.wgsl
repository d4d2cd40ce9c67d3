// Shows the offscreen scene image in the window, nearest-neighbour scaled into `rect`.

struct Blit {
    // x, y, width, height of the destination rectangle in window pixels
    rect: vec4<f32>,
    // source width, height; 1 when the target needs sRGB encoding
    src: vec4<f32>,
}

@group(0) @binding(0) var<uniform> blit: Blit;
@group(0) @binding(1) var source: texture_2d<f32>;

@vertex
fn vs_blit(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4<f32> {
    let x = f32((vi << 1u) & 2u);
    let y = f32(vi & 2u);
    return vec4<f32>(x * 2.0 - 1.0, 1.0 - y * 2.0, 0.0, 1.0);
}

fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

@fragment
fn fs_blit(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let rel = (p.xy - blit.rect.xy) / blit.rect.zw;
    if any(rel < vec2<f32>(0.0)) || any(rel >= vec2<f32>(1.0)) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    let texel = vec2<i32>(rel * blit.src.xy);
    var c = textureLoad(source, texel, 0).rgb;
    if blit.src.z > 0.5 {
        // The surface encodes to sRGB on write; hand it linear values so the palette survives.
        c = to_linear(c);
    }
    return vec4<f32>(c, 1.0);
}
