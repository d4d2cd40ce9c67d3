//! The wall texture and flat the Doom room tests draw with (`tests/doom/boom.rs`,
//! `tests/doom/udmf_props.rs`): a 64x128 checker of two palette colours as patch `CHECKP` and
//! `TEXTURES` entry `CHECKW`, and a flat `STRIPES` of 32-texel vertical stripes, so that a
//! texture's offset, scale, rotation or scroll shows as a change of one colour for the other;
//! the player start the rooms share, and the scene of a test PWAD over freedoom2 drawn on one
//! GPU a test binary keeps.

use std::sync::OnceLock;

use image::RgbaImage;
use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::{patch_lump, WadWriter};
use mapscope::formats::doom::map::{line_flags, Linedef, MapData, Sidedef, Thing, Vertex};
use mapscope::formats::doom::{build_scene, WadStack};
use mapscope::render::{render_headless, Gpu, RenderMode, ViewSettings};
use mapscope::scene::Scene;

/// Two palette indices far apart in Freedoom's palette (A green, B blue).
pub const A: u8 = 112;
pub const B: u8 = 200;
/// Freedoom's red, the colour of the solid wall `SOLIDW`.
pub const R: u8 = 176;

/// The three ways a Doom frame is drawn: vanilla's canvas (90°), faithful on the GPU (another
/// field of view) and smooth.
pub const THREE_WAYS: [(&str, RenderMode, f64); 3] = [
    ("faithful (canvas)", RenderMode::Faithful, 90.0),
    ("faithful (GPU)", RenderMode::Faithful, 100.0),
    ("smooth", RenderMode::Smooth, 90.0),
];

/// `scene` from its player start in each of [`THREE_WAYS`], things hidden; with
/// `MAPSCOPE_TEST_RENDERS` set, each render is written to its `area` folder as `name-N.png`
/// for looking at.
pub fn renders_three_ways(scene: &mut Scene, area: &str, name: &str) -> Vec<RgbaImage> {
    let camera = scene.spawn;
    THREE_WAYS
        .iter()
        .enumerate()
        .map(|(i, &(_, mode, fov_deg))| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            let img = render_headless(shared_gpu(), scene, &camera, &view, 0).unwrap();
            if let Some(dir) = super::renders_dir(area) {
                let _ = img.save(dir.join(format!("{name}-{i}.png")));
            }
            img
        })
        .collect()
}

/// The pixels where `opaque` (a wall's middle drawn opaque) differs from `behind` (the same
/// view without it): where the middle shows.
pub fn middle_pixels(opaque: &RgbaImage, behind: &RgbaImage) -> Vec<(u32, u32)> {
    opaque
        .enumerate_pixels()
        .filter(|(x, y, p)| behind.get_pixel(*x, *y) != *p)
        .map(|(x, y, _)| (x, y))
        .collect()
}

/// In the GPU's frames of [`THREE_WAYS`] (all but the canvas's), every middle pixel of `got`
/// is `blend(source, behind)` within `tolerance`, channel by channel.
pub fn check_gpu_blend(
    got: &[RgbaImage],
    opaque: &[RgbaImage],
    behind: &[RgbaImage],
    tolerance: f64,
    blend: impl Fn(f64, f64) -> f64,
) {
    for i in 1..THREE_WAYS.len() {
        let pixels = middle_pixels(&opaque[i], &behind[i]);
        assert!(pixels.len() > 5000, "{}: {} middle pixels", THREE_WAYS[i].0, pixels.len());
        for &(x, y) in &pixels {
            let (s, d, g) = (
                opaque[i].get_pixel(x, y).0,
                behind[i].get_pixel(x, y).0,
                got[i].get_pixel(x, y).0,
            );
            for c in 0..3 {
                let want = blend(s[c] as f64, d[c] as f64).min(255.0);
                assert!(
                    (g[c] as f64 - want).abs() <= tolerance,
                    "{} ({x}, {y}) channel {c}: {g:?} for {want} (source {s:?}, behind {d:?})",
                    THREE_WAYS[i].0
                );
            }
        }
    }
}

/// Adds patches `CHECKP` (the checker) and `SOLIDP` (all [`R`]) and their `TEXTURES` entries
/// `CHECKW` and `SOLIDW` to `w`.
pub fn add_checker_and_solid_walls(w: &mut WadWriter) {
    w.marker("P_START");
    w.lump("CHECKP", patch_lump(64, 128, 0, 0, &checker()));
    w.lump("SOLIDP", patch_lump(64, 128, 0, 0, &vec![Some(R); 64 * 128]));
    w.marker("P_END");
    w.lump(
        "TEXTURES",
        b"WallTexture \"CHECKW\", 64, 128 { Patch \"CHECKP\", 0, 0 }\n\
          WallTexture \"SOLIDW\", 64, 128 { Patch \"SOLIDP\", 0, 0 }\n"
            .to_vec(),
    );
}

/// The 64x128 patch of 8-texel squares of [`A`] and [`B`].
fn checker() -> Vec<Option<u8>> {
    (0..64 * 128).map(|i| Some(if (i % 64 / 8 + i / 64 / 8) % 2 == 0 { A } else { B })).collect()
}

/// Adds the patch, its `TEXTURES` entry and the flat to `w`.
pub fn add_check_textures(w: &mut WadWriter) {
    w.marker("P_START");
    w.lump("CHECKP", patch_lump(64, 128, 0, 0, &checker()));
    w.marker("P_END");
    w.lump("TEXTURES", b"WallTexture \"CHECKW\", 64, 128 { Patch \"CHECKP\", 0, 0 }\n".to_vec());
    w.marker("FF_START");
    w.lump("STRIPES", (0..4096).map(|i| if i % 64 < 32 { A } else { B }).collect());
    w.marker("FF_END");
}

/// [`player_start`] as a UDMF `thing` block.
pub const UDMF_PLAYER_START: &str = "thing { x = 128.0; y = 32.0; angle = 90; type = 1; \
    skill1 = true; skill2 = true; skill3 = true; skill4 = true; skill5 = true; single = true; }\n";

/// A PWAD of map MAP01 whose `TEXTMAP` is `textmap` with [`UDMF_PLAYER_START`] added, and the
/// room tests' textures ([`add_check_textures`]).
pub fn udmf_room_pwad(mut textmap: String) -> WadWriter {
    textmap += UDMF_PLAYER_START;
    let mut w = WadWriter::pwad();
    w.lump("MAP01", Vec::new());
    w.lump("TEXTMAP", textmap.into_bytes());
    w.lump("ENDMAP", Vec::new());
    add_check_textures(&mut w);
    w
}

/// Player 1's start at (128, 32) facing north, on every skill: where the room tests' maps
/// put their viewer.
pub fn player_start() -> Thing {
    Thing { x: 128 << 16, y: 32 << 16, angle: 90, kind: 1, flags: 7, ..Default::default() }
}

/// The same start in a Hexen-format map (single player, cooperative and deathmatch flags too).
pub fn hexen_player_start() -> Thing {
    Thing { flags: 7 | 0x700, ..player_start() }
}

/// Adds line `v1`-`v2` to `map` with its front side in sector `front` and, for a two-sided
/// line, its back side in `back`, each `(sector, middle texture)` with no upper or lower
/// texture; one-sided lines block, two-sided ones are marked so.
pub fn add_line(
    map: &mut MapData,
    (v1, v2): (u32, u32),
    front: (u32, &str),
    back: Option<(u32, &str)>,
    (special, args): (u16, [i32; 5]),
) {
    let mut side = |(sector, middle): (u32, &str)| {
        map.sidedefs.push(Sidedef {
            middle: middle.into(),
            upper: "-".into(),
            lower: "-".into(),
            sector,
            ..Default::default()
        });
        map.sidedefs.len() as u32 - 1
    };
    let sides = [Some(side(front)), back.map(&mut side)];
    let flags = if back.is_some() { line_flags::TWO_SIDED } else { line_flags::IMPASSABLE };
    map.linedefs.push(Linedef { v1, v2, flags, special, args, sides, ..Default::default() });
}

/// Map `map` of the PWAD `pwad` (named `name`) over freedoom2, read once per test binary.
pub fn scene_over_freedoom2(name: &str, pwad: Vec<u8>, map: &str) -> Scene {
    static IWAD: OnceLock<Vec<u8>> = OnceLock::new();
    let bytes = IWAD.get_or_init(|| std::fs::read(super::freedoom2()).unwrap()).clone();
    let iwad = Wad::from_bytes("freedoom2.wad", bytes).unwrap();
    let stack = WadStack::new(vec![iwad, Wad::from_bytes(name, pwad).unwrap()]);
    build_scene(&stack, map).unwrap()
}

/// The headless GPU the room tests of a binary share (made once).
pub fn shared_gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| Gpu::headless().expect("a Vulkan or GL adapter"))
}

/// The corners of the room tests' 256 x 256 room (vertices 0-3, from the origin
/// counter-clockwise) and of their 64 x 64 control room far away (4-7).
pub fn room_and_control_vertices() -> Vec<Vertex> {
    let v = Vertex::units;
    vec![
        v(0, 0),
        v(256, 0),
        v(256, 256),
        v(0, 256),
        v(1000, 1000),
        v(1064, 1000),
        v(1064, 1064),
        v(1000, 1064),
    ]
}
