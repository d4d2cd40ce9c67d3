// Span starts: for each row, the first column of each run of pixels with the same plane key
// (R_MakeSpans over a visplane). One invocation a row.

@group(0) @binding(0) var plane_keys: texture_2d<u32>;
@group(0) @binding(1) var<storage, read_write> span_starts: array<u32>;

@compute @workgroup_size(64)
fn find_span_starts(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(plane_keys);
    let y = id.x;
    if y >= size.y {
        return;
    }
    var start = 0u;
    var prev = vec4<u32>(0u);
    for (var x = 0u; x < size.x; x++) {
        let k = textureLoad(plane_keys, vec2<i32>(i32(x), i32(y)), 0);
        if any(k != prev) {
            start = x;
            prev = k;
        }
        span_starts[y * size.x + x] = start;
    }
}
