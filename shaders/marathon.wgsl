// Marathon shading family: 8-bit shapes through their collection's colour table, lit by the
// engine's shading tables (32-bit tables: table i scales each 16-bit colour by i/255), picked
// from the surface light and the "headlight" that fades over the first 4 world units of view
// depth; landscapes by view direction at full brightness; static transfer modes as noise.
//
// `tables` (at scene_meta[frame.tables_at]): [header words, flags, palette entries, 0], then
// per palette entry (r16 | g16 << 16) and (b16 | colour flags << 16 | (entries its colour
// table defines - 1) << 24). Light slots hold 16.16
// intensities. Wall and flat uv are in map units (1024 = one texture repeat); sprites in texels.

const M_FLAG_SHAPES: u32 = 1u;
const M_SELF_LUMINESCENT: u32 = 0x80u;
const M_WORLD_ONE: f32 = 1024.0;
const M_TAU: f32 = 6.28318530718;
const M_XFER_STATIC: i32 = 7;
const M_XFER_HALF_STATIC: i32 = 8;
// Landscape repeats per full turn (the engine's default: twice, same scale vertically).
const M_LANDSCAPE_REPEATS: f32 = 2.0;

fn m_table(i: u32) -> u32 {
    return scene_meta[frame.tables_at + i];
}

// Entries the colour table behind palette entry `index` defines (its top byte + 1).
fn m_defined(index: u32) -> u32 {
    let count = max(m_table(2u), 1u);
    let base = m_table(0u) + 2u * min(index, count - 1u);
    return (m_table(base + 1u) >> 24u) + 1u;
}

// The shading table the engine picks: the brighter of surface light and headlight plus half
// the other, in 1/256 steps.
fn m_table_index(ambient: i32, depth: f32) -> u32 {
    let headlight = clamp(32768 - i32(depth * 8.0), 0, 65536);
    var total = headlight + (ambient >> 1u);
    if ambient > headlight {
        total = ambient + (headlight >> 1u);
    }
    return u32(clamp(total >> 8u, 0, 255));
}

// The light smooth frames and flat colours show: the same rule unquantised, as Aleph One's
// OpenGL shaders apply it (their miner's light `flare - depth / 8192`, flare 0.5). Without
// the headlight a level that starts in the dark would be black where the game shows the
// walls around the player.
fn m_light_scale(ambient: i32, depth: f32) -> f32 {
    let a = f32(ambient) / 65536.0;
    let h = clamp(0.5 - depth / 8192.0, 0.0, 1.0);
    return min(select(h + a * 0.5, a + h * 0.5, a > h), 1.0);
}

// Colour of palette entry `index` through shading table `table`: the engine's
// `(colour * table / 255) >> 8` per 16-bit channel, tabulated with the self-luminescent
// colours by render/lit_tables.rs (family constants: flags, entries, table offset).
fn m_shaded(index: u32, table: u32) -> vec3<f32> {
    let count = max(family_constant(1u), 1u);
    let c = scene_meta[family_constant(2u) + table * count + min(index, count - 1u)];
    return vec3<f32>(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u)) / 255.0;
}

// Texel of a wall or flat: storage line from u, position in the line from v, one texture per
// world unit.
fn m_surface_texel(s: SurfaceIn) -> vec2<i32> {
    let info = s.info;
    let scaled = floor(s.uv * vec2<f32>(f32(info.width), f32(info.height)) / M_WORLD_ONE);
    return vec2<i32>(scaled);
}

// Texel of a landscape: position in the line by the ray's direction, line by its elevation
// (line 0 at the bottom, the middle line on the horizon).
fn m_landscape_texel(s: SurfaceIn) -> vec2<i32> {
    let info = s.info;
    let f = frame.screen.z;
    let dx = (s.frag.x - frame.center.x) / f;
    let dy = (frame.center.y - s.frag.y) / f;
    let pitch = frame.center.w;
    let forward = cos(pitch) - dy * sin(pitch);
    let up = sin(pitch) + dy * cos(pitch);
    // Viewer yaw turns counter-clockwise; native angles run the other way.
    let turn = fract((atan2(dx, forward) - frame.center.z) / M_TAU);
    let per_turn = f32(info.height) * M_LANDSCAPE_REPEATS;
    let elevation = atan2(up, length(vec2<f32>(dx, forward)));
    let line = f32(info.width) * 0.5 + elevation / M_TAU * per_turn;
    let clamped = clamp(line, 0.0, f32(info.width) - 1.0);
    return vec2<i32>(i32(clamped), i32(floor(turn * per_turn)));
}

fn m_hash(p: vec3<u32>) -> u32 {
    var h = p.x * 0x27d4eb2du ^ p.y * 0x165667b1u ^ p.z * 0x9e3779b9u;
    h = (h ^ (h >> 15u)) * 0x2c1b3c6du;
    h = (h ^ (h >> 12u)) * 0x297a2d39u;
    return h ^ (h >> 15u);
}

fn m_is_static(s: SurfaceIn) -> bool {
    if s.contrast == M_XFER_STATIC {
        return true;
    }
    if s.contrast != M_XFER_HALF_STATIC {
        return false;
    }
    // Half static: every other pixel, changing each tick.
    let tick = u32(s.scroll.x);
    return ((u32(s.frag.x) + u32(s.frag.y) + tick) & 1u) == 0u;
}

fn shade(s: SurfaceIn) -> vec4<f32> {
    var coord: vec2<i32>;
    let landscape = surface_is(s, KIND_SKY) && has_flag(FLAG_SKY);
    if surface_is(s, KIND_SPRITE) {
        coord = vec2<i32>(floor(s.uv));
    } else if landscape {
        coord = m_landscape_texel(s);
    } else {
        coord = m_surface_texel(s);
    }
    // Shapes are all indexed: no direct-colour path.
    let texel = fetch_index(s.info, coord.x, coord.y);
    if texel.y != 0u && s.masked {
        discard;
    }
    var index = texel.x;
    if !surface_is(s, KIND_SPRITE) && m_is_static(s) {
        // Static draws random values of the surface's colour table.
        let r = m_hash(vec3<u32>(u32(s.frag.x), u32(s.frag.y), u32(s.scroll.x)));
        let base = s.info.palette;
        // r % defined, by a multiply (no integer division on a software rasteriser).
        index = base + (((r & 0xFFFFu) * s.extra.x) >> 16u);
    }
    var light = i32(s.light);
    if landscape || s.fullbright {
        light = 65536;
    }
    if !faithful_mode() || (family_constant(0u) & M_FLAG_SHAPES) == 0u {
        // Smooth mode (and flat colours without a Shapes file): the colour times the light.
        return vec4<f32>(palette_rgb(index) * m_light_scale(light, s.depth), 1.0);
    }
    var table = 255u;
    if !landscape {
        table = m_table_index(light, s.depth);
    }
    return vec4<f32>(m_shaded(index, table), 1.0);
}

// The colour and the opaque pixel's key (none: no surface of this family blends by it).
fn shade_fragment(s: SurfaceIn) -> FragOut {
    return FragOut(shade(s), vec4<u32>(0u));
}

// Marathon draws no index-blended surfaces; a translucent triangle shows its shaded texel.
fn translucent(s: SurfaceIn) -> Translucent {
    return Translucent(0u, 0u, shade(s));
}

fn blend_index(src: u32, dst: u32, mode: u32) -> u32 {
    return src;
}

// Per-triangle data of this family for the fragment shader (`SurfaceIn::extra`): the entries
// the surface's colour table defines, which static picks from.
fn surface_extra(surface: u32, anchor: f32, palette: u32) -> vec4<u32> {
    return vec4<u32>(m_defined(palette), 0u, 0u, 0u);
}
