// Entry points for world triangles (walls, flats, sky) and billboards; the shading family file
// supplies `shade_fragment(s: SurfaceIn) -> FragOut` (colour and the opaque pixel's key).

// Sprite fragments only: drawn at full brightness (world vertices use these bits for contrast).
const SPRITE_FULLBRIGHT: u32 = 1u << 12u;

struct WorldOut {
    // Invariant: the depth pre-pass and the shading pass must reach the same depths.
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) depth: f32,
    @location(2) height: f32,
    // The texture after animation and its descriptor, the light value and the scroll offset
    // are the same for a whole triangle: the vertex shader looks them up once.
    @location(3) @interpolate(flat) tex: u32,
    @location(4) @interpolate(flat) light: u32,
    @location(5) @interpolate(flat) flags: u32,
    @location(6) @interpolate(flat) light_depth: f32,
    @location(7) @interpolate(flat) surface: u32,
    @location(8) @interpolate(flat) anchor: f32,
    @location(9) shade: vec4<f32>,
    @location(10) @interpolate(flat) scroll: vec2<f32>,
    // offset, width, height, flags
    @location(11) @interpolate(flat) info: vec4<u32>,
    // origin x, y, palette base
    @location(12) @interpolate(flat) info2: vec3<i32>,
    @location(13) @interpolate(flat) extra: vec4<u32>,
}

// Fills the per-triangle lookups of `out` for texture `tex` (before animation) and light slot
// `light`.
fn per_triangle(out: ptr<function, WorldOut>, tex: u32, light: u32, scroll_slot: u32) {
    (*out).tex = remap_texture(tex);
    let i = tex_info((*out).tex);
    (*out).info = vec4<u32>(i.offset, i.width, i.height, i.flags);
    (*out).info2 = vec3<i32>(i.origin, bitcast<i32>(i.palette));
    (*out).light = light_value(light);
    (*out).scroll = scroll_offset(scroll_slot);
}

@vertex
fn vs_world(
    @location(0) pos: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) tex: u32,
    @location(3) light: u32,
    @location(4) flags: u32,
    @location(5) surface: u32,
    @location(6) shade: vec4<f32>,
) -> WorldOut {
    var out: WorldOut;
    out.clip = frame.view_proj * vec4<f32>(pos, 1.0);
    let v = frame.view * vec4<f32>(pos, 1.0);
    out.depth = -v.z;
    out.height = pos.y;
    out.uv = uv;
    per_triangle(&out, tex, light, flags >> 16u);
    out.flags = flags;
    out.light_depth = 0.0;
    out.surface = surface;
    out.shade = shade;
    // Walls: v = anchor - z, so every vertex of a wall quad gives the same anchor.
    out.anchor = pos.y + uv.y;
    out.extra = surface_extra(surface, out.anchor, bitcast<u32>(out.info2.z));
    return out;
}

fn surface_from(in: WorldOut, kind: u32) -> SurfaceIn {
    var s: SurfaceIn;
    s.frag = in.clip.xy;
    s.scroll = in.scroll;
    s.uv = in.uv + s.scroll;
    s.surface = in.surface;
    s.anchor = in.anchor;
    s.depth = in.depth;
    s.light_depth = select(in.depth, in.light_depth, kind == KIND_SPRITE);
    s.height = in.height;
    s.tex = in.tex;
    s.info = TexInfo(in.info.x, in.info.y, in.info.z, in.info.w, in.info2.xy, bitcast<u32>(in.info2.z));
    s.light = in.light;
    s.extra = in.extra;
    // Bits 8..16 hold the contrast as a signed byte.
    s.contrast = select(0, bitcast<i32>(in.flags << 16u) >> 24u, CONTRAST_USED);
    s.kind = kind;
    s.masked = !SOLID_ONLY && (in.flags & VFLAG_MASKED) != 0u;
    s.fullbright = kind == KIND_SPRITE && (in.flags & SPRITE_FULLBRIGHT) != 0u;
    s.shade = in.shade;
    return s;
}

// Colour, and the plane key a later pass uses to find span starts (0 = not a plane).
struct FragOut {
    @location(0) color: vec4<f32>,
    @location(1) key: vec4<u32>,
}

@fragment
fn fs_world(in: WorldOut) -> FragOut {
    if hidden_by_canvas(in.clip) {
        discard;
    }
    let s = surface_from(in, in.flags & 15u);
    return shade_fragment(s);
}

// Billboards: one instance a sprite, six vertices a quad, expanded facing the camera.
@vertex
fn vs_sprite(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> WorldOut {
    var out: WorldOut;
    let b = ii * 9u;
    let origin = vec3<f32>(bitcast<f32>(sprites[b]), bitcast<f32>(sprites[b + 1u]),
                           bitcast<f32>(sprites[b + 2u]));
    let facing = bitcast<f32>(sprites[b + 3u]);
    let scale = vec2<f32>(bitcast<f32>(sprites[b + 4u]), bitcast<f32>(sprites[b + 8u]));
    let light = sprites[b + 5u];
    var bright = (sprites[b + 6u] & 1u) != 0u;
    var first = sprites[b + 7u] & 0xFFFFFFu;
    var count = sprites[b + 7u] >> 24u;
    // An animated thing shows the frame the state gives it (as the CPU canvas draws it),
    // with that frame's full brightness; without a word, the spawn frame.
    if frame.thing_frames_at != 0xFFFFFFFFu {
        let word = state[frame.thing_frames_at + ii];
        let table = frame.sprite_frames_at;
        let f = word & 0x7FFFFFFFu;
        if f < sprites[table] {
            let entry = sprites[table + 1u + f];
            first = entry & 0xFFFFFFu;
            count = entry >> 24u;
            bright = (word >> 31u) != 0u;
        }
    }

    // Rotation as vanilla R_ProjectSprite picks it: angle from the viewer to the thing
    // against the thing's facing, in eighths, rotation 1 seen from the front.
    let d = origin - frame.cam_pos.xyz;
    let ang = atan2(-d.z, d.x);
    var rot = 0u;
    if count > 1u {
        let eighth = 0.78539816;
        let r = floor((ang - facing + 9.0 * eighth * 0.5) / eighth);
        rot = u32(((i32(r) % 8) + 8) % 8);
    }
    let view = sprites[frame.sprite_views_at + first + min(rot, max(count, 1u) - 1u)];
    let tex = remap_texture(view & 0x7FFFFFFFu);
    let mirrored = (view >> 31u) != 0u;
    let info = tex_info(tex);

    let corner_x = array<f32, 6>(0.0, 1.0, 1.0, 0.0, 1.0, 0.0);
    let corner_y = array<f32, 6>(0.0, 0.0, 1.0, 0.0, 1.0, 1.0);
    let cx = corner_x[vi % 6u];
    let cy = corner_y[vi % 6u];
    let w = f32(info.width);
    let h = f32(info.height);
    let right = frame.cam_right.xyz;
    let across = (cx * w - f32(info.origin.x)) * scale.x;
    let up = (f32(info.origin.y) - cy * h) * scale.y;
    var pos = origin + right * across + vec3<f32>(0.0, up, 0.0);
    if count == 0u {
        pos = origin;
    }
    out.clip = frame.view_proj * vec4<f32>(pos, 1.0);
    out.depth = -(frame.view * vec4<f32>(pos, 1.0)).z;
    out.light_depth = -(frame.view * vec4<f32>(origin, 1.0)).z;
    out.height = pos.y;
    out.uv = vec2<f32>(select(cx * w, w - cx * w, mirrored), cy * h);
    per_triangle(&out, view & 0x7FFFFFFFu, light, 0u);
    out.surface = 0u;
    out.anchor = 0.0;
    out.extra = vec4<u32>(0u);
    // The sector colour pair (Doom) where the shade bytes of world vertices hold theirs.
    let tint = sprites[b + 6u] >> 16u;
    out.shade = vec4<f32>(0.0, 0.0, f32(tint & 255u) / 255.0, f32(tint >> 8u) / 255.0);
    // Sprites are always masked; bit 0 of the sprite flags marks full brightness.
    out.flags = KIND_SPRITE | VFLAG_MASKED | select(0u, SPRITE_FULLBRIGHT, bright);
    return out;
}

@fragment
fn fs_sprite(in: WorldOut) -> FragOut {
    if hidden_by_canvas(in.clip) {
        discard;
    }
    var s = surface_from(in, KIND_SPRITE);
    let info = s.info;
    // Keep the quad's far edges on the last texel instead of wrapping to the first.
    s.uv = clamp(s.uv, vec2<f32>(0.0), vec2<f32>(f32(info.width) - 0.001, f32(info.height) - 0.001));
    s.contrast = 0;
    return shade_fragment(s);
}

// Markers: a diamond of fixed size on screen around each marker, so entities stay findable
// at any distance; depth tested so walls hide them.
@vertex
fn vs_marker(@builtin(vertex_index) vi: u32, @location(0) pos: vec3<f32>) -> @builtin(position) vec4<f32> {
    let corner = array<vec2<f32>, 6>(vec2<f32>(0.0, 1.0), vec2<f32>(-1.0, 0.0), vec2<f32>(1.0, 0.0),
                                     vec2<f32>(1.0, 0.0), vec2<f32>(-1.0, 0.0), vec2<f32>(0.0, -1.0));
    let c = frame.view_proj * vec4<f32>(pos, 1.0);
    let radius_px = 5.0;
    let d = corner[vi % 6u] * radius_px * 2.0 / frame.screen.xy * c.w;
    return vec4<f32>(c.xy + d, c.z, c.w);
}

// The depth pre-pass: only the position, computed as `vs_world` computes it (both invariant),
// so the shading pass's equal test meets the same depths. lavapipe shades vertices on one
// thread; the lookups `vs_world` makes per vertex would double that cost for nothing here.
@vertex
fn vs_depth(@location(0) pos: vec3<f32>) -> @builtin(position) @invariant vec4<f32> {
    return frame.view_proj * vec4<f32>(pos, 1.0);
}

// The depth pre-pass: its outputs are masked off, only the depth test and write matter.
@fragment
fn fs_depth_only() -> FragOut {
    return FragOut(vec4<f32>(0.0), vec4<u32>(0u));
}

@fragment
fn fs_marker(@builtin(position) clip: vec4<f32>) -> FragOut {
    if hidden_by_canvas(clip) {
        discard;
    }
    return FragOut(vec4<f32>(1.0, 0.85, 0.1, 1.0), vec4<u32>(0u));
}

@fragment
fn fs_wire(in: WorldOut) -> FragOut {
    if hidden_by_canvas(in.clip) {
        discard;
    }
    return FragOut(vec4<f32>(0.2, 1.0, 0.3, 1.0), vec4<u32>(0u));
}

// Translucent world triangles: each fragment joins its pixel's list (see translucent.wgsl);
// the resolve pass blends the lists back to front.
@fragment
fn fs_translucent(in: WorldOut) {
    if hidden_by_canvas(in.clip) {
        discard;
    }
    // A shader that writes storage runs before the depth test, so test by hand against the
    // opaque depth (reverse Z: nearer is greater).
    if in.clip.z <= textureLoad(opaque_depth, vec2<i32>(in.clip.xy), 0) {
        discard;
    }
    let s = surface_from(in, in.flags & 15u);
    let t = translucent(s);
    push_fragment(in.clip.xy, in.depth, t);
}
