// Doom shading family: vanilla light diminishing through COLORMAP (r_main.c, r_plane.c,
// r_segs.c, r_things.c), flats by vanilla's fixed-point span arithmetic, the sky by view angle.

const LIGHTSEGSHIFT: u32 = 4u;
const MAXLIGHTSCALE: i32 = 48;
const MAXLIGHTZ: i32 = 128;

fn colormap(map: u32, index: u32) -> u32 {
    return scene_meta[frame.meta_offs.y + map * 256u + (index & 255u)];
}

fn light_level(s: SurfaceIn) -> i32 {
    return clamp(i32(s.light >> LIGHTSEGSHIFT) + s.contrast, 0, 15);
}

// Which colormap vanilla uses for this fragment; `wall_scale_index` < 0 means "from depth".
fn doom_colormap_index(s: SurfaceIn, flat_distance_index: i32, wall_scale_index: i32) -> u32 {
    if s.fullbright || s.kind == KIND_SKY {
        return 0u;
    }
    let level = light_level(s);
    if s.kind == KIND_FLAT {
        let j = clamp(flat_distance_index, 0, MAXLIGHTZ - 1);
        return u32(tables[frame.table_offs2.x + u32(level * MAXLIGHTZ + j)]);
    }
    // Walls and sprites: scale = focal / depth in 16.16, >> 12, on a 320-wide equivalent.
    var j = wall_scale_index;
    if j < 0 {
        j = i32(min(floor(frame.screen.w * 16.0 / max(s.light_depth, 0.001)), 1e6));
    }
    j = min(j, MAXLIGHTSCALE - 1);
    return u32(tables[frame.table_offs2.y + u32(level * MAXLIGHTSCALE + j)]);
}

struct FlatSample {
    coord: vec2<i32>,
    // distance >> LIGHTZSHIFT, the zlight column.
    zindex: i32,
}

// R_MapPlane for pixel (x, y) of a span starting at column x1: the texel comes from the
// span start's position plus whole steps, as vanilla's fixed-point stepping gives it.
fn vanilla_flat(x: u32, y: u32, x1: u32, plane_z: i32) -> FlatSample {
    let planeheight = abs(plane_z - frame.fixed_view.z);
    let distance = fixed_mul(planeheight, tables[frame.table_offs.z + y]);
    let length = fixed_mul(distance, tables[frame.table_offs.w + x1]);
    let xangle = bitcast<u32>(tables[frame.table_offs.y + x1]);
    let angle = (bitcast<u32>(frame.fixed_view.w) + xangle) >> 19u;
    let steps = u32(i32(x) - i32(x1));
    let xstep = fixed_mul(distance, frame.fixed_step.x);
    let ystep = fixed_mul(distance, frame.fixed_step.y);
    let xfrac = frame.fixed_view.x + fixed_mul(finecosine(angle), length);
    let yfrac = -frame.fixed_view.y - fixed_mul(finesine(angle), length);
    // R_DrawSpan packs both coordinates in one word as 6.10 fixed point (x high, y low) and
    // steps that: the truncated step and the y carry into x are part of the vanilla look.
    let position = ((bitcast<u32>(xfrac) << 10u) & 0xFFFF0000u) | (bitcast<u32>(yfrac >> 6u) & 0xFFFFu);
    let step = ((bitcast<u32>(xstep) << 10u) & 0xFFFF0000u) | (bitcast<u32>(ystep >> 6u) & 0xFFFFu);
    let p = position + steps * step;
    var out: FlatSample;
    out.coord = vec2<i32>(i32(p >> 26u), i32((p >> 10u) & 63u));
    out.zindex = distance >> 20u;
    return out;
}

// Vanilla FixedDiv: (a << 16) / b on 48 bits by long division, with its overflow guard.
fn fixed_div(a: i32, b: i32) -> i32 {
    let n = u32(abs(a));
    let d = u32(abs(b));
    let neg = (a < 0) != (b < 0);
    if (n >> 14u) >= d {
        return select(0x7FFFFFFF, -0x7FFFFFFF - 1, neg);
    }
    var r = 0u;
    var q = 0u;
    for (var i = 47; i >= 0; i--) {
        var bit = 0u;
        if i >= 16 {
            bit = (n >> u32(i - 16)) & 1u;
        }
        let top = r >> 31u;
        r = (r << 1u) | bit;
        if top != 0u || r >= d {
            r = r - d;
            if i < 32 {
                q = q | (1u << u32(i));
            }
        }
    }
    return select(bitcast<i32>(q), -bitcast<i32>(q), neg);
}

// rw_scale at column x as vanilla's column loop has it: from the drawn range's start with an
// integer step (the CPU walk's drawsegs); 0 when the walk did not draw this seg here.
fn walk_scale(seg: u32, x: i32) -> i32 {
    let o = frame.walk_offs;
    if o.w == 0u {
        return 0;
    }
    let first = state[o.x + seg];
    let last = state[o.x + seg + 1u];
    for (var i = first; i < last; i++) {
        let b = o.z + state[o.y + i] * 4u;
        let x1 = bitcast<i32>(state[b]);
        let x2 = bitcast<i32>(state[b + 1u]);
        if x >= x1 && x <= x2 {
            return bitcast<i32>(state[b + 2u]) + (x - x1) * bitcast<i32>(state[b + 3u]);
        }
    }
    return 0;
}

// R_ScaleFromGlobalAngle for column angle `xa` of a seg with centre angle `center`.
fn scale_from_global_angle(xa: u32, center: u32, distance: i32) -> i32 {
    let sinea = finesine((0x40000000u + xa) >> 19u);
    let sineb = finesine((center + xa) >> 19u);
    let num = fixed_mul(frame.fixed_step.w, sineb);
    let den = fixed_mul(distance, sinea);
    if den > (num >> 16u) {
        return clamp(fixed_div(num, den), 256, 64 << 16u);
    }
    return 64 << 16u;
}

struct WallSample {
    coord: vec2<i32>,
    // rw_scale >> LIGHTSCALESHIFT on a 320-wide screen
    scale_index: i32,
}

// R_RenderSegLoop for the pixel's column: texture column from the seg's set-up
// (vanilla_walls.rs), the column's projected scale, and the row by R_DrawColumn's stepping.
fn vanilla_wall(s: SurfaceIn) -> WallSample {
    let b = frame.extra_offs.x + (s.surface - 1u) * 4u;
    let distance = bitcast<i32>(state[b]);
    let offset = bitcast<i32>(state[b + 1u]);
    let center = state[b + 2u];
    let x = u32(s.frag.x);
    let xa = bitcast<u32>(tables[frame.table_offs.y + x]);
    let fine = ((center + xa) >> 19u) & 4095u;
    let tangent = tables[frame.extra_offs.z + fine];
    let scroll = i32(floor(s.scroll.x)) << 16u;
    let col = (offset + scroll - fixed_mul(tangent, distance)) >> 16u;

    var scale = walk_scale(s.surface - 1u, i32(x));
    if scale == 0 {
        scale = scale_from_global_angle(xa, center, distance);
    }
    let iscale = bitcast<i32>(0xFFFFFFFFu / u32(scale));
    let texturemid = i32(round(s.anchor * 65536.0)) - frame.fixed_view.z;
    let frac = texturemid + (i32(s.frag.y) - i32(frame.extra_offs.w)) * iscale;
    var out: WallSample;
    out.coord = vec2<i32>(col, (frac >> 16u) & 127);
    out.scale_index = i32(f32(scale >> 12u) * 320.0 / frame.screen.x);
    return out;
}

fn sky_texel(frag: vec2<f32>) -> Texel {
    let t = remap_texture(frame.table_offs2.w);
    let info = tex_info(t);
    var angle: u32;
    var row: i32;
    if has_flag(FLAG_VANILLA_EXACT) {
        let x = u32(frag.x);
        angle = bitcast<u32>(frame.fixed_view.w) + bitcast<u32>(tables[frame.table_offs.y + x]);
        row = i32(frag.y) & 127;
    } else {
        // The same mapping for any viewport: 1024 columns a turn, 128 rows per 160 px of focal
        // length measured from the horizon.
        let a = frame.center.z + atan2(frame.center.x - frag.x, frame.screen.z);
        angle = u32(i32(fract(a / 6.28318530718) * 4294967296.0));
        let horizon = frame.center.y - tan(frame.center.w) * frame.screen.z;
        row = i32(floor(100.0 + (frag.y - horizon) * 160.0 / frame.screen.z)) & 127;
    }
    let col = i32(angle >> 22u);
    var mask = 1u;
    while mask < info.width {
        mask = mask << 1u;
    }
    return fetch(t, col & i32(mask - 1u), row);
}

fn shade(s: SurfaceIn) -> vec4<f32> {
    if s.kind == KIND_SKY && has_flag(FLAG_SKY) {
        let t = sky_texel(s.frag);
        return vec4<f32>(palette_rgb(t.index), 1.0);
    }
    var coord = vec2<i32>(floor(s.uv));
    var zindex = i32(floor(s.depth / 16.0));
    var wall_scale = -1;
    if s.kind == KIND_FLAT && has_flag(FLAG_VANILLA_EXACT) {
        // Provisional: as if the span started here; the span pass redraws with the real start.
        let x = u32(s.frag.x);
        let f = vanilla_flat(x, u32(s.frag.y), x, i32(round(s.height * 65536.0)));
        coord = f.coord;
        zindex = f.zindex;
    }
    if s.kind == KIND_WALL && has_flag(FLAG_VANILLA_EXACT) && s.surface != 0u
        && s.surface <= frame.extra_offs.y {
        let w = vanilla_wall(s);
        coord = w.coord;
        wall_scale = w.scale_index;
    }
    if has_flag(FLAG_FAITHFUL) {
        let t = fetch(s.tex, coord.x, coord.y);
        if t.transparent && s.masked {
            discard;
        }
        let map = doom_colormap_index(s, zindex, wall_scale);
        if t.direct {
            return vec4<f32>(t.rgba.rgb * (1.0 - f32(map) / 32.0), 1.0);
        }
        return vec4<f32>(palette_rgb(colormap(map, t.index)), 1.0);
    }
    return shade_smooth(s);
}

// Smooth mode: bilinear texels in true colour, light as a continuous factor.
fn shade_smooth(s: SurfaceIn) -> vec4<f32> {
    let p = s.uv - 0.5;
    let base = vec2<i32>(floor(p));
    let f = p - floor(p);
    let t00 = fetch(s.tex, base.x, base.y);
    if s.masked {
        let c = fetch(s.tex, i32(floor(s.uv.x)), i32(floor(s.uv.y)));
        if c.transparent {
            discard;
        }
    }
    let t10 = fetch(s.tex, base.x + 1, base.y);
    let t01 = fetch(s.tex, base.x, base.y + 1);
    let t11 = fetch(s.tex, base.x + 1, base.y + 1);
    let c = mix(mix(t00.rgba.rgb, t10.rgba.rgb, f.x), mix(t01.rgba.rgb, t11.rgba.rgb, f.x), f.y);
    if s.fullbright || s.kind == KIND_SKY {
        return vec4<f32>(c, 1.0);
    }
    let level = f32(clamp(i32(s.light >> LIGHTSEGSHIFT) + s.contrast, 0, 15));
    let startmap = (15.0 - level) * 4.0;
    let scale = frame.screen.w / max(s.light_depth, 1.0);
    let map = clamp(startmap - scale * 8.0, 0.0, 31.0);
    return vec4<f32>(c * (1.0 - map / 32.0), 1.0);
}

// Plane key: flats in vanilla-exact mode are redrawn by the span pass, which groups pixels of
// one row into spans of equal (texture, height, light) as R_MakeSpans does for a visplane.
fn surface_key(s: SurfaceIn) -> vec4<u32> {
    if s.kind != KIND_FLAT || !has_flag(FLAG_VANILLA_EXACT) || !has_flag(FLAG_FAITHFUL) {
        return vec4<u32>(0u);
    }
    return vec4<u32>(s.tex + 1u, bitcast<u32>(i32(round(s.height * 65536.0))), s.light, 1u);
}

@group(1) @binding(0) var plane_keys: texture_2d<u32>;
@group(1) @binding(1) var<storage, read> span_starts: array<u32>;

@vertex
fn vs_fullscreen(@builtin(vertex_index) vi: u32) -> @builtin(position) vec4<f32> {
    let x = f32((vi << 1u) & 2u);
    let y = f32(vi & 2u);
    return vec4<f32>(x * 2.0 - 1.0, 1.0 - y * 2.0, 0.0, 1.0);
}

// The span pass: every flat pixel again, from its span's start column.
@fragment
fn fs_flat_spans(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let x = u32(p.x);
    let y = u32(p.y);
    let key = textureLoad(plane_keys, vec2<i32>(i32(x), i32(y)), 0);
    if key.x == 0u {
        discard;
    }
    let width = u32(frame.screen.x);
    var x1 = span_starts[y * width + x];
    if x1 > x {
        // Not a span pixel in vanilla's walk (a rasterisation edge): start here.
        x1 = x;
    }
    let f = vanilla_flat(x, y, x1, bitcast<i32>(key.y));
    var s: SurfaceIn;
    s.kind = KIND_FLAT;
    s.light = key.z;
    s.contrast = 0;
    s.fullbright = false;
    let t = fetch(key.x - 1u, f.coord.x, f.coord.y);
    let map = doom_colormap_index(s, f.zindex, -1);
    return vec4<f32>(palette_rgb(colormap(map, t.index)), 1.0);
}

// Vanilla Doom has no translucent surfaces; a flagged one is drawn as it would be opaque.
fn translucent(s: SurfaceIn) -> Translucent {
    return Translucent(0u, 0u, shade(s));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}
