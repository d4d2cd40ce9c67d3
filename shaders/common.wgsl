// Shared bindings and helpers for every shading family. The renderer prepends this file to
// the family's file and the entry points in world.wgsl / sprite.wgsl.

struct Frame {
    view_proj: mat4x4<f32>,
    view: mat4x4<f32>,
    cam_pos: vec4<f32>,
    // Camera right vector (horizontal), for billboards.
    cam_right: vec4<f32>,
    // width, height, focal length (px), 320-equivalent focal length (light scale)
    screen: vec4<f32>,
    // projection centre x, y (framebuffer px), yaw (radians), pitch (radians)
    center: vec4<f32>,
    // Word offsets into `scene_meta`: the palette, the family's tables (Doom's COLORMAP), the
    // texture descriptors; and the number of textures.
    palette_at: u32,
    tables_at: u32,
    textures_at: u32,
    texture_count: u32,
    // Word offsets into `state`: the light slots, the texture remap, the scroll slots; and the
    // number of light slots.
    lights_at: u32,
    remap_at: u32,
    scrolls_at: u32,
    light_count: u32,
    // FLAG_* bits; the CPU canvas's depths (word offset into `state`, one f32 a pixel; only
    // with FLAG_CANVAS); the sprite views (word offset into `sprites`); the CPU canvas's
    // palette indices (word offset into `state`, four a word; 0 for none).
    flags: u32,
    canvas_depths_at: u32,
    sprite_views_at: u32,
    canvas_indices_at: u32,
    // The palette index of the clear colour; the fragments a pixel's translucent list holds;
    // the things' frame words (word offset into `state`, one a sprite instance; 0xFFFFFFFF for
    // none); Doom's sprite frame table (word offset into `sprites`: the frame count, then
    // first | count << 24 a frame).
    clear_index: u32,
    list_entries: u32,
    thing_frames_at: u32,
    sprite_frames_at: u32,
}

// The shading family's constants (its FamilyPacking, render/<game>/packing.rs): what every fragment of the family
// would otherwise read from its tables. Pipeline overrides, set from the scene when its
// pipelines are made, so that a branch on one folds away (Marathon without a Shapes file).
override FAMILY_0: u32 = 0u;
override FAMILY_1: u32 = 0u;
override FAMILY_2: u32 = 0u;
override FAMILY_3: u32 = 0u;
override FAMILY_4: u32 = 0u;
override FAMILY_5: u32 = 0u;
override FAMILY_6: u32 = 0u;
override FAMILY_7: u32 = 0u;

fn family_constant(i: u32) -> u32 {
    switch i {
        case 0u: { return FAMILY_0; }
        case 1u: { return FAMILY_1; }
        case 2u: { return FAMILY_2; }
        case 3u: { return FAMILY_3; }
        case 4u: { return FAMILY_4; }
        case 5u: { return FAMILY_5; }
        case 6u: { return FAMILY_6; }
        default: { return FAMILY_7; }
    }
}

const FLAG_FAITHFUL: u32 = 1u;
// A family's CPU canvas drew the solid world (render/family.rs): what the GPU draws tests
// against the canvas depths.
const FLAG_CANVAS: u32 = 2u;
const FLAG_SKY: u32 = 4u;

const KIND_WALL: u32 = 0u;
const KIND_FLAT: u32 = 1u;
const KIND_SKY: u32 = 2u;
const KIND_SPRITE: u32 = 3u;

const VFLAG_MASKED: u32 = 16u;

@group(0) @binding(0) var<uniform> frame: Frame;
// Static per-scene data: palette, light tables, texture descriptors.
@group(0) @binding(1) var<storage, read> scene_meta: array<u32>;
// All texels: indexed textures two 16-bit texels a word, direct ones one RGBA8 a word.
@group(0) @binding(2) var<storage, read> texels: array<u32>;
// Per-frame animation state: light levels, texture remap, scroll offsets.
@group(0) @binding(3) var<storage, read> state: array<u32>;
// Sprite instances and their views.
@group(0) @binding(4) var<storage, read> sprites: array<u32>;

struct TexInfo {
    offset: u32,
    width: u32,
    height: u32,
    flags: u32,
    origin: vec2<i32>,
    // Added to texel indices before the palette lookup (per-texture palettes).
    palette: u32,
}

const TEX_RGBA: u32 = 1u;

fn tex_info(t: u32) -> TexInfo {
    let b = frame.textures_at + t * 8u;
    return TexInfo(scene_meta[b], scene_meta[b + 1u], scene_meta[b + 2u], scene_meta[b + 3u],
                   vec2<i32>(bitcast<i32>(scene_meta[b + 4u]), bitcast<i32>(scene_meta[b + 5u])),
                   scene_meta[b + 6u]);
}

fn palette_rgb(index: u32) -> vec3<f32> {
    // Palettes hold at least 256 entries; per-texture bases stay below the end.
    let c = scene_meta[frame.palette_at + min(index, frame.tables_at - frame.palette_at - 1u)];
    return vec3<f32>(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u)) / 255.0;
}

fn remap_texture(t: u32) -> u32 {
    return state[frame.remap_at + t];
}

fn light_value(slot: u32) -> u32 {
    return state[frame.lights_at + min(slot, frame.light_count - 1u)];
}

fn scroll_offset(slot: u32) -> vec2<f32> {
    let b = frame.scrolls_at + slot * 2u;
    return vec2<f32>(bitcast<f32>(state[b]), bitcast<f32>(state[b + 1u]));
}

// A texel: palette index (texture palette base included; 0 for direct colour), transparency,
// and its colour.
struct Texel {
    index: u32,
    transparent: bool,
    rgba: vec4<f32>,
    direct: bool,
}

// `v` modulo `n`, never negative. A software rasteriser has no vector integer division and
// divides lane by lane, so the quotient comes from a float division (exact to within one for
// the texel coordinates a level can reach, |v| < 2^23) and the remainder is corrected.
fn wrap(v: i32, n: u32) -> u32 {
    if POW2_TEXTURES {
        // Two's complement: the mask wraps negative coordinates too.
        return bitcast<u32>(v) & (n - 1u);
    }
    let m = i32(max(n, 1u));
    let q = i32(floor(f32(v) / f32(m)));
    var r = v - q * m;
    r = select(r, r + m, r < 0);
    r = select(r, r - m, r >= m);
    return u32(r);
}

fn fetch(t: u32, x: i32, y: i32) -> Texel {
    return fetch_with(tex_info(t), x, y);
}

// `fetch` for a texture whose descriptor is at hand (world surfaces read it per triangle).
fn fetch_with(info: TexInfo, x: i32, y: i32) -> Texel {
    let tx = wrap(x, info.width);
    let ty = wrap(y, info.height);
    let i = ty * info.width + tx;
    if (info.flags & TEX_RGBA) != 0u {
        let c = texels[info.offset + i];
        let rgba = vec4<f32>(f32(c & 255u), f32((c >> 8u) & 255u), f32((c >> 16u) & 255u),
                             f32(c >> 24u)) / 255.0;
        return Texel(0u, rgba.a < 0.5, rgba, true);
    }
    let w = texels[info.offset + i / 2u];
    let v = (w >> ((i & 1u) * 16u)) & 0xFFFFu;
    let index = (v & 255u) + info.palette;
    return Texel(index, (v & 256u) != 0u, vec4<f32>(palette_rgb(index), 1.0), false);
}

// The palette index of an indexed texture's texel (texture palette base included) and whether
// it is transparent: `fetch_with` without the direct-colour path, for families whose textures
// are all indexed (every branch costs a software rasteriser, taken or not).
fn fetch_index(info: TexInfo, x: i32, y: i32) -> vec2<u32> {
    return texel_at(info, wrap(x, info.width), wrap(y, info.height));
}

// `fetch_with` for a family whose textures are all indexed: the texel and its palette colour,
// without the direct-colour path.
fn fetch_indexed(info: TexInfo, x: i32, y: i32) -> Texel {
    let t = fetch_index(info, x, y);
    return Texel(t.x, t.y != 0u, vec4<f32>(palette_rgb(t.x), 1.0), false);
}

// `fetch_index` of the 2x2 texels from `base` right and down (x, x + 1 on row y, then on row
// y + 1), wrapping once: bilinear filtering's four texels.
fn fetch_index_quad(info: TexInfo, base: vec2<i32>) -> array<vec2<u32>, 4> {
    let x0 = wrap(base.x, info.width);
    let y0 = wrap(base.y, info.height);
    let x1 = select(x0 + 1u, 0u, x0 + 1u >= info.width);
    let y1 = select(y0 + 1u, 0u, y0 + 1u >= info.height);
    return array<vec2<u32>, 4>(texel_at(info, x0, y0), texel_at(info, x1, y0),
                               texel_at(info, x0, y1), texel_at(info, x1, y1));
}

// The palette index and transparency of texel (x, y), already wrapped, of an indexed texture.
fn texel_at(info: TexInfo, x: u32, y: u32) -> vec2<u32> {
    let i = y * info.width + x;
    let w = texels[info.offset + i / 2u];
    let v = (w >> ((i & 1u) * 16u)) & 0xFFFFu;
    return vec2<u32>((v & 255u) + info.palette, (v >> 8u) & 1u);
}

// What a family's shade function gets for one fragment.
struct SurfaceIn {
    // Framebuffer position (pixel centre at +0.5).
    frag: vec2<f32>,
    // Texel coordinates, scroll already applied.
    uv: vec2<f32>,
    // View-space depth of the fragment.
    depth: f32,
    // Depth that selects the light (sprites: their origin, as vanilla lights them once).
    light_depth: f32,
    // Viewer-space height of the fragment (plane height for flats).
    height: f32,
    // Texture after animation remapping.
    tex: u32,
    // Light value of the surface's slot.
    light: u32,
    // Light level offset (Doom fake contrast).
    contrast: i32,
    kind: u32,
    masked: bool,
    // Drawn at full brightness (Doom fullbright sprite frames).
    fullbright: bool,
    // Format-specific surface number (Doom walls: seg index + 1).
    surface: u32,
    // Walls: world height of texture row 0.
    anchor: f32,
    // Scroll offset applied to uv.
    scroll: vec2<f32>,
    // Interpolated per-vertex bytes (WorldVertex::shade) as 0..1.
    shade: vec4<f32>,
    // Descriptor of `tex`.
    info: TexInfo,
    // The family's per-triangle data (its `surface_extra`).
    extra: vec4<u32>,
}

// What a translucent fragment contributes: `mode == 0u` blends `color` by its alpha,
// `TRANSLUCENT_ADD` adds `color` times its alpha, otherwise the palette index `index` blends
// through the family's `blend_index`.
const TRANSLUCENT_ADD: u32 = 0xFFFFu;
struct Translucent {
    index: u32,
    mode: u32,
    color: vec4<f32>,
}

fn has_flag(f: u32) -> bool {
    return (frame.flags & f) != 0u;
}

// Pipeline specialisation. A software rasteriser runs every branch of a fragment shader for
// every pixel, taken or not, so each pipeline states which surfaces it draws and how: the
// branches that cannot be taken fold away when the pipeline is made. 0 leaves the choice to
// each fragment (its kind) and each frame (the flags).
// SURFACE_KIND: 0 any, else KIND_* + 1. SHADE_MODE: 0 from the flags, 1 smooth, 2 faithful,
// 3 over a family's CPU canvas (Doom's faithful frames at 90 degrees, level).
override SURFACE_KIND: u32 = 0u;
override SHADE_MODE: u32 = 0u;
// CONTRAST_USED: false when no triangle the pipeline draws has a contrast byte (Doom's fake
// contrast, Marathon's transfer mode, Saucerman's blend mode), so whatever depends on it folds
// away. SOLID_ONLY: the pipeline draws no masked triangle, so no texel is discarded.
override CONTRAST_USED: bool = true;
override SOLID_ONLY: bool = false;
// Every texture of the scene has power-of-two sides (render/packing.rs): coordinates wrap by a
// mask, where a division costs a software rasteriser lane by lane.
override POW2_TEXTURES: bool = false;

fn surface_is(s: SurfaceIn, kind: u32) -> bool {
    if SURFACE_KIND != 0u {
        return SURFACE_KIND == kind + 1u;
    }
    return s.kind == kind;
}

fn faithful_mode() -> bool {
    if SHADE_MODE != 0u {
        return SHADE_MODE >= 2u;
    }
    return has_flag(FLAG_FAITHFUL);
}

fn canvas_mode() -> bool {
    if SHADE_MODE != 0u {
        return SHADE_MODE == 3u;
    }
    return has_flag(FLAG_CANVAS);
}

// Over a CPU canvas (render/family.rs; Doom's faithful frames) the solid world is already
// drawn and each pixel's depth lies in the state buffer; what the GPU draws over it tests
// against that depth here (the depth attachment holds only what the GPU drew). Reverse depth:
// a fragment at or behind the canvas is hidden.
fn hidden_by_canvas(clip: vec4<f32>) -> bool {
    if !canvas_mode() {
        return false;
    }
    let i = u32(clip.y) * u32(frame.screen.x) + u32(clip.x);
    return clip.z <= bitcast<f32>(state[frame.canvas_depths_at + i]);
}
