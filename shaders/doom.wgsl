// Doom shading family, for the frames the GPU draws: smooth mode, and faithful frames that are
// not vanilla's projection (another field of view, a pitched camera), lit by vanilla's light
// diminishing through COLORMAP (r_main.c, r_plane.c, r_things.c) by depth, the sky by view
// angle. Vanilla's own frames are the CPU canvas's (render/doom/vanilla/); the GPU only draws what
// lies over them.

const LIGHTSEGSHIFT: u32 = 4u;
const MAXLIGHTSCALE: i32 = 48;
const MAXLIGHTZ: i32 = 128;
// The family's constants (render/lit_tables.rs): FAMILY_0 is where COLORMAP's rows through
// the palette lie in `scene_meta`, FAMILY_1 where vanilla's `zlight` does.

// The palette colour of `index` through colormap `map`: one read of the lit palette (every
// colormap row already through the palette, packing.rs) where colormap then palette take two.
fn lit_rgb(map: u32, index: u32) -> vec4<f32> {
    let c = scene_meta[FAMILY_0 + map * 256u + (index & 255u)];
    return vec4<f32>(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u), 255.0) / 255.0;
}

fn light_level(s: SurfaceIn) -> i32 {
    return clamp(i32(s.light >> LIGHTSEGSHIFT) + s.contrast, 0, 15);
}

// Which colormap vanilla uses for this fragment.
fn doom_colormap_index(s: SurfaceIn, flat_distance_index: i32) -> u32 {
    if s.fullbright || surface_is(s, KIND_SKY) {
        return 0u;
    }
    let level = light_level(s);
    if surface_is(s, KIND_FLAT) {
        let j = clamp(flat_distance_index, 0, MAXLIGHTZ - 1);
        return scene_meta[FAMILY_1 + u32(level * MAXLIGHTZ + j)];
    }
    // Walls and sprites: scale = focal / depth in 16.16, >> 12, on a 320-wide equivalent.
    let j = min(i32(min(floor(frame.screen.w * 16.0 / max(s.light_depth, 0.001)), 1e6)),
        MAXLIGHTSCALE - 1);
    // scalelight[level][j] (r_main.c R_InitLightTables), computed rather than read.
    return u32(clamp((15 - level) * 4 - j / 2, 0, 31));
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): none (walls
// set up column by column are the CPU canvas's, render/doom/vanilla/).
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(0u);
}

// Sky surfaces' contrast byte (scene::vertex_flags): a sky MBF transfers from a sidedef
// (271/272), whose offsets are in the uv, and the same read the other way (271).
const SKY_TRANSFERRED: i32 = 1;
const SKY_TRANSFERRED_FLIPPED: i32 = 2;

// The sky texel of a fragment: the surface's own sky texture (the level's, or one a 271/272
// line transferred to its sector), by view angle and screen row. Vanilla's mapping (its own
// frames are the CPU canvas's, which draws their skies) for any viewport: 1024 columns a turn,
// 128 rows per 160 px of focal length measured from the horizon.
fn sky_texel(s: SurfaceIn) -> Texel {
    let frag = s.frag;
    let info = s.info;
    let a = frame.center.z + atan2(frame.center.x - frag.x, frame.screen.z);
    // Straight to u32: through i32, angles of half a turn or more saturated to one column.
    var angle = u32(fract(a / 6.28318530718) * 4294967296.0);
    let horizon = frame.center.y - tan(frame.center.w) * frame.screen.z;
    var row = i32(floor(100.0 + (frag.y - horizon) * 160.0 / frame.screen.z));
    if s.contrast == SKY_TRANSFERRED || s.contrast == SKY_TRANSFERRED_FLIPPED {
        // MBF: the x offset (16.16 units) added to the angle, the y offset moving the rows
        // (texturemid = offset - 28 where vanilla's is 100), 271 inverting the angle.
        angle = angle + (bitcast<u32>(i32(round(s.uv.x))) << 16u);
        row = row + i32(round(s.uv.y)) - 128;
        if s.contrast == SKY_TRANSFERRED_FLIPPED {
            angle = ~angle;
        }
    }
    row = row & 127;
    let col = i32(angle >> 22u);
    // The width rounded up to a power of two.
    let mask = select(0xFFFFFFFFu >> countLeadingZeros(info.width - 1u), 0u, info.width <= 1u);
    // Doom's textures are all indexed.
    return fetch_indexed(info, col & i32(mask), row);
}

fn shade(s: SurfaceIn) -> vec4<f32> {
    if surface_is(s, KIND_SKY) && has_flag(FLAG_SKY) {
        let t = sky_texel(s);
        return vec4<f32>(palette_rgb(t.index), 1.0);
    }
    if !faithful_mode() {
        return shade_smooth(s);
    }
    let coord = vec2<i32>(floor(s.uv));
    let zindex = i32(floor(s.depth / 16.0));
    // Doom's textures are all indexed.
    let t = fetch_index(s.info, coord.x, coord.y);
    if t.y != 0u && s.masked {
        discard;
    }
    let map = doom_colormap_index(s, zindex);
    return lit_rgb(map, t.x);
}

// The texture smooth frames draw in place of `s`'s (word 7 of its descriptor, plus one): a
// flat's full-size picture for its 64x64 texture, at the same map units.
fn smooth_surface(s: SurfaceIn) -> SurfaceIn {
    let twin = scene_meta[frame.textures_at + s.tex * 8u + 7u];
    if twin == 0u {
        return s;
    }
    var out = s;
    out.info = tex_info(twin - 1u);
    out.uv = s.uv * vec2<f32>(f32(out.info.width) / f32(s.info.width),
                              f32(out.info.height) / f32(s.info.height));
    return out;
}

// Smooth mode: bilinear texels in true colour, light as a continuous factor.
fn shade_smooth(surface: SurfaceIn) -> vec4<f32> {
    let s = smooth_surface(surface);
    let p = s.uv - 0.5;
    let base = vec2<i32>(floor(p));
    let f = p - floor(p);
    let q = fetch_index_quad(s.info, base);
    let t00 = q[0];
    let t10 = q[1];
    let t01 = q[2];
    let t11 = q[3];
    // The texel under the pixel's centre is the one of the four nearest it.
    let near = select(select(t00, t10, f.x >= 0.5), select(t01, t11, f.x >= 0.5), f.y >= 0.5);
    if s.masked && near.y != 0u {
        discard;
    }
    let c = mix(mix(palette_rgb(t00.x), palette_rgb(t10.x), f.x),
                mix(palette_rgb(t01.x), palette_rgb(t11.x), f.x), f.y);
    return vec4<f32>(sector_colored(s, c, smooth_light(s)), 1.0);
}

// ZDoom's sector colours in smooth mode (FAMILY_2: their (light, fade) pairs as 0xRRGGBB words,
// FAMILY_3: how many; shade bytes 2 and 3: the surface's pair plus one). As GZDoom's software
// colormaps do, the texel is tinted by the light colour at full brightness and goes to the
// fade colour as it darkens (black fade: vanilla's darkening).
fn sector_colored(s: SurfaceIn, c: vec3<f32>, light: f32) -> vec3<f32> {
    if FAMILY_3 == 0u {
        return c * light;
    }
    let n = u32(round(s.shade.z * 255.0)) | (u32(round(s.shade.w * 255.0)) << 8u);
    if n == 0u || n > FAMILY_3 {
        return c * light;
    }
    let at = FAMILY_2 + (n - 1u) * 2u;
    let tint = rgb_of(scene_meta[at]);
    let fade = rgb_of(scene_meta[at + 1u]);
    return mix(fade, c * tint, light);
}

fn rgb_of(w: u32) -> vec3<f32> {
    return vec3<f32>(f32((w >> 16u) & 255u), f32((w >> 8u) & 255u), f32(w & 255u)) / 255.0;
}

// Smooth mode's light: vanilla's diminishing as a continuous factor (1 at full brightness).
fn smooth_light(s: SurfaceIn) -> f32 {
    if s.fullbright || surface_is(s, KIND_SKY) {
        return 1.0;
    }
    let level = f32(clamp(i32(s.light >> LIGHTSEGSHIFT) + s.contrast, 0, 15));
    let startmap = (15.0 - level) * 4.0;
    let scale = frame.screen.w / max(s.light_depth, 1.0);
    let map = clamp(startmap - scale * 8.0, 0.0, 31.0);
    return 1.0 - map / 32.0;
}

// Smooth walls and flats with their texture bound as a GPU texture (render/doom/smooth_textures.rs):
// the sampler filters it as `shade_smooth` does by hand, in one fetch.
@group(1) @binding(0) var smooth_texture: texture_2d<f32>;
@group(1) @binding(1) var smooth_sampler: sampler;

@fragment
fn fs_smooth(in: WorldOut) -> FragOut {
    let s = surface_from(in, in.flags & 15u);
    let size = vec2<f32>(f32(s.info.width), f32(s.info.height));
    let c = textureSample(smooth_texture, smooth_sampler, s.uv / size).rgb;
    return FragOut(vec4<f32>(sector_colored(s, c, smooth_light(s)), 1.0), vec4<u32>(0u));
}

// The colour and the opaque pixel's key (none: no surface of this family blends by it).
fn shade_fragment(s: SurfaceIn) -> FragOut {
    return FragOut(shade(s), vec4<u32>(0u));
}

// The bits of a world vertex's second shade byte (scene::doom_shade).
const SHADE_OWN_ALPHA: u32 = 1u;
const SHADE_ADDITIVE: u32 = 2u;

// Translucent middle textures in true colour: Boom's 260 as 2/3 of the texture over 1/3 of
// what lies behind (Boom's default table is that blend matched to the palette); ZDoom's line
// alpha (first shade byte) over the rest, or added to it. A frame the CPU canvas drew has
// them already, blended through their tables.
fn translucent(s: SurfaceIn) -> Translucent {
    if canvas_mode() {
        discard;
    }
    let bits = u32(round(s.shade.y * 255.0));
    let alpha = select(2.0 / 3.0, s.shade.x, (bits & SHADE_OWN_ALPHA) != 0u);
    let mode = select(0u, TRANSLUCENT_ADD, (bits & SHADE_ADDITIVE) != 0u);
    return Translucent(0u, mode, vec4<f32>(shade(s).rgb, alpha));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}
