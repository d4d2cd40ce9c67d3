// Shows the offscreen scene image in the window, nearest-neighbour scaled into `rect`.

struct Blit {
    // x, y, width, height of the destination rectangle in window pixels
    rect: vec4<f32>,
    // source width, height
    src: vec4<f32>,
}

// 1 when the target encodes to sRGB on write. A pipeline constant, not a uniform: a software
// rasteriser runs both sides of a branch for every pixel, and the decode is a `pow` a channel.
override SRGB_TARGET: u32 = 0u;

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
    if SRGB_TARGET != 0u {
        // The surface encodes to sRGB on write; hand it linear values so the palette survives.
        c = to_linear(c);
    }
    return vec4<f32>(c, 1.0);
}
