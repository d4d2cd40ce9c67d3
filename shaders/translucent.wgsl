// Translucent surfaces, exact for any depth order: the collect pass (fs_translucent in
// world.wgsl) appends every translucent fragment that passes the opaque depth test to its
// pixel's list; the resolve pass sorts each list far to near and blends it over the opaque
// pixel, by alpha or by palette index through the family's `blend_index` (which needs the
// index already on screen, so it cannot be a fixed-function blend).

// Per pixel: fragment count (may exceed the capacity; extra fragments are dropped).
@group(1) @binding(0) var<storage, read_write> frag_counts: array<atomic<u32>>;
// Per pixel, `frame.list_entries` entries of 3 words: depth (f32 bits), index | mode << 16, rgba8.
@group(1) @binding(1) var<storage, read_write> frag_entries: array<u32>;
// The opaque pass's colour and keys (key.x = palette index + 1, 0 = nothing drawn).
@group(1) @binding(2) var opaque_color: texture_2d<f32>;
@group(1) @binding(3) var opaque_keys: texture_2d<u32>;
// The opaque pass's depth (read-only in the collect pass).
@group(1) @binding(4) var opaque_depth: texture_depth_2d;

fn pack_rgba8(c: vec4<f32>) -> u32 {
    let v = vec4<u32>(round(clamp(c, vec4<f32>(0.0), vec4<f32>(1.0)) * 255.0));
    return v.x | (v.y << 8u) | (v.z << 16u) | (v.w << 24u);
}

fn unpack_rgba8(w: u32) -> vec4<f32> {
    return vec4<f32>(f32(w & 255u), f32((w >> 8u) & 255u), f32((w >> 16u) & 255u),
                     f32(w >> 24u)) / 255.0;
}

fn pixel_index(frag: vec2<f32>) -> u32 {
    return u32(frag.y) * u32(frame.screen.x) + u32(frag.x);
}

fn push_fragment(frag: vec2<f32>, depth: f32, t: Translucent) {
    let p = pixel_index(frag);
    let n = atomicAdd(&frag_counts[p], 1u);
    if n >= frame.list_entries {
        return;
    }
    let e = (p * frame.list_entries + n) * 3u;
    frag_entries[e] = bitcast<u32>(depth);
    frag_entries[e + 1u] = (t.index & 0xFFFFu) | (min(t.mode, 0xFFFFu) << 16u);
    frag_entries[e + 2u] = pack_rgba8(t.color);
}

const MAX_LAYERS: u32 = 8u;

// Drawn with the translucent triangles themselves (translucent_pass.rs): every fragment of a
// pixel blends the pixel's whole list, so it does not matter how many cover it.
@fragment
fn fs_resolve(@builtin(position) clip: vec4<f32>) -> @location(0) vec4<f32> {
    let xy = vec2<i32>(clip.xy);
    let p = pixel_index(clip.xy);
    let n = min(atomicLoad(&frag_counts[p]), min(frame.list_entries, MAX_LAYERS));
    if n == 0u {
        discard;
    }
    var depth: array<f32, 8>;
    var order: array<u32, 8>;
    for (var i = 0u; i < n; i++) {
        depth[i] = bitcast<f32>(frag_entries[(p * frame.list_entries + i) * 3u]);
        order[i] = i;
    }
    // Insertion sort, farthest first; equal depths keep arrival order.
    for (var i = 1u; i < n; i++) {
        var j = i;
        while j > 0u && depth[order[j - 1u]] < depth[order[j]] {
            let t = order[j];
            order[j] = order[j - 1u];
            order[j - 1u] = t;
            j--;
        }
    }
    var color = textureLoad(opaque_color, xy, 0);
    var key = textureLoad(opaque_keys, xy, 0).x;
    // Where the GPU drew nothing opaque over a CPU canvas, the canvas's palette index.
    if key == 0u && frame.canvas_indices_at != 0u && canvas_mode() {
        if bitcast<f32>(state[frame.canvas_depths_at + p]) > 0.0 {
            key = ((state[frame.canvas_indices_at + p / 4u] >> ((p & 3u) * 8u)) & 255u) + 1u;
        }
    }
    var index = select(frame.clear_index, key - 1u, key != 0u);
    for (var i = 0u; i < n; i++) {
        let e = (p * frame.list_entries + order[i]) * 3u;
        let src = frag_entries[e + 1u] & 0xFFFFu;
        let mode = frag_entries[e + 1u] >> 16u;
        if mode == 0u {
            let c = unpack_rgba8(frag_entries[e + 2u]);
            color = vec4<f32>(mix(color.rgb, c.rgb, c.a), 1.0);
        } else if mode == TRANSLUCENT_ADD {
            let c = unpack_rgba8(frag_entries[e + 2u]);
            color = vec4<f32>(min(color.rgb + c.rgb * c.a, vec3<f32>(1.0)), 1.0);
        } else {
            index = blend_index(src, index, mode);
            color = vec4<f32>(palette_rgb(index), 1.0);
        }
    }
    return color;
}
