//! Levels written by the test itself (`formats::saucer::writer`) for what the shared fixtures
//! leave out: distinct LUT1 parts (tile brightness, billboard sprite brightness), fog levels
//! between near and far, two translucent layers over each other, masked translucent texels,
//! displaced block vertices (ramps), texture animation, flags bits 1 and 2 together, and the
//! round trip through every loader path (single WAD, single map, game folder).
//!
//! The tables are built so every part, level and table gives a different index: LUT1[p][l][c]
//! = 1 + (c + 17p + 3l) mod 255 (0 stays 0), LUT2[t][a][b] = 1 + (3a + 7b + 11t) mod 255, and
//! palette entry i has red i, so a pixel's red channel is the palette index it shows.

use crate::support;

use std::path::Path;
use std::sync::OnceLock;

use glam::DVec3;
use mapscope::formats::saucer::map::{BlockDef, IndexedName, TextureAnimation};
use mapscope::formats::saucer::map_items::{Billboard, BlockInstance, TerrainTile, TERRAIN_TILES};
use mapscope::formats::saucer::packed::Bitmap;
use mapscope::formats::saucer::texture_def::TextureDef;
use mapscope::formats::saucer::writer::{write_map, write_wad, MapContents, WadContents};
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::scene::{CameraPose, Scene};
use support::{mapscope, success, TempDir};

const FOG_NEAR: u32 = 3000;
const FOG_FAR: u32 = 7000;
const BACKGROUND: u8 = 9;

fn lut1(part: u32, level: u32, colour: u8) -> u8 {
    if colour == 0 {
        return 0;
    }
    (1 + (colour as u32 + 17 * part + 3 * level) % 255) as u8
}

fn lut2(table: u32, a: u8, b: u8) -> u8 {
    (1 + (3 * a as u32 + 7 * b as u32 + 11 * table) % 255) as u8
}

/// A texel as drawn close to the camera: LUT1 part 0, fog level 0.
fn lit(c: u8) -> u8 {
    lut1(0, 0, c)
}

/// Solid colours: texture definition k (1..) is a 16x16 region of colour `colour(k)`.
fn colour(def: u16) -> u8 {
    (40 + def * 5) as u8
}

const GROUND: u16 = 1;
const SOLID_A: u16 = 2;
const BACK: u16 = 3;
const GLASS_1: u16 = 4;
const GLASS_2: u16 = 5;
const FRAME_GLASS: u16 = 6;
const TOP: u16 = 7;
const SPRITE: u16 = 8;
const ANIM_BASE: u16 = 9;
const ANIM_1: u16 = 10;
const ANIM_2: u16 = 11;
const BOTH_BITS: u16 = 12;
const DEF_COUNT: u16 = 13;

/// The masked frame: border of its colour, inside colour 0.
fn frame_texel(x: u32, y: u32) -> bool {
    !(4..12).contains(&x) || !(4..12).contains(&y)
}

fn region(def: u16) -> (u32, u32) {
    (16 * (def as u32 % 16), 16 * (def as u32 / 16))
}

fn texture_def(def: u16, blend_mode: u8, flags: u16) -> TextureDef {
    let (u, v) = region(def);
    let (u, v) = (u as u8, v as u8);
    TextureDef {
        bitmap: 0,
        uv: [[u, v], [u + 15, v], [u + 15, v + 15], [u, v + 15]],
        unknown: 0,
        blend_mode,
        origin: [0, 0],
        flags,
    }
}

fn atlas() -> Bitmap {
    let mut index = vec![0u8; 256 * 256];
    for def in 1..DEF_COUNT {
        let (u0, v0) = region(def);
        for y in 0..16 {
            for x in 0..16 {
                let c = if def == FRAME_GLASS && !frame_texel(x, y) { 0 } else { colour(def) };
                index[((v0 + y) * 256 + u0 + x) as usize] = c;
            }
        }
    }
    Bitmap { width: 256, height: 256, index }
}

fn wad_bytes() -> Vec<u8> {
    let lut1_bytes = (0..16u32)
        .flat_map(|p| (0..64u32).flat_map(move |l| (0..=255u8).map(move |c| lut1(p, l, c))))
        .collect();
    let lut2_bytes = (0..16u32)
        .flat_map(|t| (0..=255u8).flat_map(move |a| (0..=255u8).map(move |b| lut2(t, a, b))))
        .collect();
    WadContents {
        lut1: lut1_bytes,
        lut2: lut2_bytes,
        background: BACKGROUND as u32,
        fog_near: FOG_NEAR,
        fog_far: FOG_FAR,
        palette: (0..256u32)
            .map(|i| [i as u8, (i * 37 % 256) as u8, (i * 101 % 256) as u8])
            .collect(),
        bitmaps: vec![("ATLAS".into(), atlas())],
        textures: vec![texture_def(GROUND, 0, 0)],
        models: vec![],
    }
    .pipe(|w| write_wad(&w))
}

trait Pipe: Sized {
    fn pipe<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
impl<T> Pipe for T {}

/// A cube (native Y 0..256) whose four outside sides show `side`, with an optional top.
fn cube(side: u16, top: u16) -> BlockDef {
    // Slots: inside front, top, left, back, right, bottom; outside back, top, left, front,
    // right, bottom.
    BlockDef {
        textures: [0, 0, 0, 0, 0, 0, side, top, side, side, side, 0],
        y: [0, 0, 0, 0, -256, -256, -256, -256],
    }
}

fn block(def: u32, col: u16, row: u16) -> BlockInstance {
    BlockInstance {
        cell: [col, row],
        block_def: def,
        flags: 0,
        brightness: 0,
        overall: 0,
        displacement: [0; 8],
    }
}

// Block definitions.
const DEF_GROUND: u32 = 0;
const DEF_SOLID: u32 = 1;
const DEF_BACK: u32 = 2;
const DEF_GLASS_1: u32 = 3;
const DEF_GLASS_2: u32 = 4;
const DEF_FRAME_GLASS: u32 = 5;
const DEF_RAMP: u32 = 6;
const DEF_ANIM: u32 = 7;
const DEF_BOTH_BITS: u32 = 8;

// Stations (column, row of the probed block; cameras stand south of it looking north).
const BRIGHT: [u16; 2] = [10, 10];
const FOG: [u16; 2] = [20, 10];
const LAYERS: [u16; 2] = [30, 10];
const MASKED: [u16; 2] = [40, 10];
const RAMP: [u16; 2] = [50, 10];
const BILLBOARD: [u16; 2] = [10, 30];
const ANIMATED: [u16; 2] = [20, 30];
const BITS: [u16; 2] = [30, 30];
const BRIGHTNESS: i16 = 5;
const SPRITE_PART: u8 = 7;

fn map_bytes() -> Vec<u8> {
    let mut texture_defs: Vec<TextureDef> = (0..DEF_COUNT).map(|d| texture_def(d, 0, 0)).collect();
    texture_defs[GLASS_1 as usize] = texture_def(GLASS_1, 0x40, 0); // table 1
    texture_defs[GLASS_2 as usize] = texture_def(GLASS_2, 0xA0, 0); // table 4
    texture_defs[FRAME_GLASS as usize] = texture_def(FRAME_GLASS, 0x80, 1); // masked, table 3
    texture_defs[BOTH_BITS as usize] = texture_def(BOTH_BITS, 0x40, 6); // bit 1 wins: table 9
    let mut block_defs = vec![
        BlockDef { textures: [0, 0, 0, 0, 0, GROUND, 0, 0, 0, 0, 0, 0], y: [0; 8] },
        cube(SOLID_A, 0),
        cube(BACK, 0),
        cube(GLASS_1, 0),
        cube(GLASS_2, 0),
        cube(FRAME_GLASS, 0),
        cube(SOLID_A, TOP),
        cube(ANIM_BASE, 0),
        cube(BOTH_BITS, 0),
    ];
    block_defs[DEF_GROUND as usize].textures[5] = GROUND;
    let mut terrain = vec![
        TerrainTile { block_def: DEF_GROUND, flags: 0, brightness: 0, offset: 0 };
        TERRAIN_TILES
    ];
    terrain[BILLBOARD[1] as usize * 64 + BILLBOARD[0] as usize].flags = SPRITE_PART;
    let mut blocks = vec![
        BlockInstance { brightness: BRIGHTNESS, ..block(DEF_SOLID, BRIGHT[0], BRIGHT[1]) },
        block(DEF_SOLID, FOG[0], FOG[1]),
        block(DEF_BACK, LAYERS[0], LAYERS[1] - 4),
        block(DEF_GLASS_2, LAYERS[0], LAYERS[1] - 1),
        block(DEF_GLASS_1, LAYERS[0], LAYERS[1]),
        block(DEF_BACK, MASKED[0] - 1, MASKED[1] - 4),
        block(DEF_BACK, MASKED[0], MASKED[1] - 4),
        block(DEF_BACK, MASKED[0] + 1, MASKED[1] - 4),
        block(DEF_FRAME_GLASS, MASKED[0], MASKED[1]),
        block(DEF_ANIM, ANIMATED[0], ANIMATED[1]),
        block(DEF_BACK, BITS[0], BITS[1] - 4),
        block(DEF_BOTH_BITS, BITS[0], BITS[1]),
    ];
    // The ramp: the front (BR, BL) top corners pushed down 64 x 4 = 256 units to the ground.
    blocks.push(BlockInstance {
        displacement: [0, 0, 0, 0, 0, 0, 64, 64],
        ..block(DEF_RAMP, RAMP[0], RAMP[1])
    });
    MapContents {
        imported_textures: vec![IndexedName { index: 0, name: "ATLAS".into() }],
        block_defs,
        texture_defs,
        animations: vec![TextureAnimation {
            target: ANIM_BASE,
            frames: vec![ANIM_1, ANIM_2],
            delay: 4,
            flags: 0,
        }],
        strat_names: vec![IndexedName { index: 0, name: "PLAYER".into() }],
        model_names: vec![],
        terrain,
        billboards: vec![Billboard {
            cell: BILLBOARD,
            texture: SPRITE as u32,
            x_offset: 127,
            y_offset: 128,
            vertical_offset: 0,
            scale: 256,
        }],
        blocks,
        ..Default::default()
    }
    .pipe(|m| write_map(&m))
}

/// The game folder with LEVELS/OWN.wad and maps/OWN.map.
fn game_dir() -> &'static TempDir {
    static DIR: OnceLock<TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = TempDir::new("saucer-own");
        for (sub, file, bytes) in
            [("LEVELS", "OWN.wad", wad_bytes()), ("maps", "OWN.map", map_bytes())]
        {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
            std::fs::write(dir.join(sub).join(file), bytes).unwrap();
        }
        dir
    })
}

fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)")
    })
}

fn scene() -> Scene {
    let source = mapscope::loader::open(&[game_dir().path().to_path_buf()], &Default::default())
        .expect("open");
    source.build(None).expect("build")
}

/// Palette index at the centre of a 32x32 view from `camera` towards `target` (native).
fn centre_index(scene: &mut Scene, name: &str, camera: DVec3, target: DVec3, tic: u32) -> u8 {
    let pose =
        CameraPose::looking_at(scene.axes.to_viewer_f64(camera), scene.axes.to_viewer_f64(target));
    let view = ViewSettings { width: 32, height: 32, fov_deg: 40.0, ..Default::default() };
    let img = render_headless(gpu(), scene, &pose, &view, tic).expect("render");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/saucer-probes");
    let _ = std::fs::create_dir_all(&dir);
    let _ = img.save(dir.join(format!("own_{name}.png")));
    img.get_pixel(16, 16).0[0]
}

/// Camera `distance` south of the front face of the block at `cell`, at `height`, looking
/// north at the face's middle.
fn facing(cell: [u16; 2], distance: f64, height: f64) -> (DVec3, DVec3) {
    let x = cell[0] as f64 * 256.0 + 128.0;
    let z = cell[1] as f64 * 256.0 + 256.0;
    (DVec3::new(x, height, z + distance), DVec3::new(x, 128.0, z))
}

#[test]
fn written_levels_render_through_the_game_tables() {
    let mut s = scene();
    let mut failures = Vec::new();
    let mut check = |name: &str, got: u8, want: u8| {
        if got != want {
            failures.push(format!("{name}: index {got}, expected {want}"));
        }
    };

    let (c, t) = facing(BRIGHT, 200.0, 128.0);
    check(
        "brightness selects the LUT1 part",
        centre_index(&mut s, "bright", c, t, 0),
        lut1(BRIGHTNESS as u32, 0, colour(SOLID_A)),
    );

    // Level 20 of 64 between near 3000 and far 7000 lies at 4250..4312.5; aim for its middle.
    let (c, t) = facing(FOG, 4281.0, 128.0);
    let (c, t) = (DVec3::new(c.x, 128.0, c.z), DVec3::new(t.x, 128.0, t.z));
    check("fog level 20", centre_index(&mut s, "fog", c, t, 0), lut1(0, 20, colour(SOLID_A)));

    let (c, t) = facing(LAYERS, 200.0, 128.0);
    // Each layer's source is lit before it blends over the index already on screen.
    let far = lut2(4, lit(colour(GLASS_2)), lit(colour(BACK)));
    check(
        "two translucent layers",
        centre_index(&mut s, "layers", c, t, 0),
        lut2(1, lit(colour(GLASS_1)), far),
    );

    let (c, t) = facing(MASKED, 200.0, 128.0);
    check(
        "masked texels of a translucent face are not drawn",
        centre_index(&mut s, "masked", c, t, 0),
        lit(colour(BACK)),
    );
    // Near the left edge: the frame's border, with the three-wide backdrop behind it.
    let (c, t) = facing(MASKED, 600.0, 128.0);
    let border = DVec3::new(t.x - 120.0, 128.0, t.z);
    check(
        "the border blends",
        centre_index(&mut s, "masked_border", c, border, 0),
        lut2(3, lit(colour(FRAME_GLASS)), lit(colour(BACK))),
    );

    // From above the front edge, the ramp's top (pushed to the ground at the front) faces the
    // camera where an undisplaced cube would show its front face.
    let (c, t) = facing(RAMP, 300.0, 400.0);
    check(
        "displaced top vertices make a ramp",
        centre_index(&mut s, "ramp", c, DVec3::new(t.x, 100.0, t.z - 128.0), 0),
        lit(colour(TOP)),
    );

    let x = BILLBOARD[0] as f64 * 256.0 + 127.0;
    let z = BILLBOARD[1] as f64 * 256.0 + 128.0;
    check(
        "billboard lit by its tile's sprite brightness",
        centre_index(
            &mut s,
            "billboard",
            DVec3::new(x, 32.0, z + 300.0),
            DVec3::new(x, 32.0, z),
            0,
        ),
        lut1(SPRITE_PART as u32, 0, colour(SPRITE)),
    );

    let (c, t) = facing(ANIMATED, 200.0, 128.0);
    check("animation frame 0", centre_index(&mut s, "anim0", c, t, 0), lit(colour(ANIM_1)));
    check(
        "animation frame 1 after the delay",
        centre_index(&mut s, "anim1", c, t, 4),
        lit(colour(ANIM_2)),
    );
    check("animation wraps", centre_index(&mut s, "anim2", c, t, 8), lit(colour(ANIM_1)));

    let (c, t) = facing(BITS, 200.0, 128.0);
    check(
        "flags bits 1 and 2: bit 1 wins",
        centre_index(&mut s, "bits", c, t, 0),
        lut2(9, lit(colour(BOTH_BITS)), lit(colour(BACK))),
    );

    let sky = centre_index(
        &mut s,
        "sky",
        DVec3::new(500.0, 300.0, 500.0),
        DVec3::new(500.0, 2000.0, 700.0),
        0,
    );
    check("clear colour is the background index", sky, BACKGROUND);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn single_files_find_their_partner_and_the_player_spawns() {
    let dir = game_dir();
    for file in [dir.join("LEVELS/OWN.wad"), dir.join("maps/OWN.map"), dir.path().to_path_buf()] {
        let out =
            success(&mapscope(["info".as_ref(), "--json".as_ref(), file.as_os_str()]), "info");
        let v: serde_json::Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["maps"], serde_json::json!(["OWN"]), "{}", file.display());
        assert_eq!(v["counts"]["block instances"], 13);
        assert_eq!(v["counts"]["billboards"], 1);
    }
    // Named relative to the folder mapscope runs in: the game folder, or the maps folder.
    for (cwd, file) in [(dir.path().to_path_buf(), "maps/OWN.map"), (dir.join("maps"), "OWN.map")] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mapscope"))
            .args(["info", "--json", file])
            .current_dir(&cwd)
            .env("RUST_LOG", "warn")
            .output()
            .expect("running mapscope");
        let v: serde_json::Value = serde_json::from_str(&success(&out, "info")).expect("json");
        assert_eq!(v["maps"], serde_json::json!(["OWN"]), "{file} in {}", cwd.display());
    }
    // No entity is a player here, so the spawn is above the map centre.
    let s = scene();
    let p = s.axes.to_native_f64(s.spawn.pos);
    assert_eq!((p.x, p.z), (8192.0, 8192.0));
    assert!(p.y > 256.0);
}
