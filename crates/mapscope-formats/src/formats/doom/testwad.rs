//! Small hand-built WADs for the tests, and the Freedoom IWADs when installed.

use std::sync::OnceLock;

use super::archive::wad::{Wad, WadStack, MAP_LUMP_NAMES};
use super::archive::writer::{self, TextureSpec, WadWriter};
use super::map::{line_flags, Linedef, MapData, Sector, Sidedef, Thing, Vertex};
use super::nodes::{BspChild, BspNode, BspSeg, BspSubsector, NodeFormat, NodeSet};

pub const WALL_COLOR: u8 = 100;
pub const FLOOR_COLOR: u8 = 50;

/// A map plus the lumps to leave out when writing it.
pub struct TestLevel {
    pub map: MapData,
    pub omit: Vec<&'static str>,
}

pub fn palette() -> [[u8; 3]; 256] {
    std::array::from_fn(|i| [i as u8, 255 - i as u8, (i / 2) as u8])
}

fn side(upper: &str, lower: &str, middle: &str, sector: u32) -> Sidedef {
    Sidedef {
        x_offset: 0,
        y_offset: 0,
        upper: upper.into(),
        lower: lower.into(),
        middle: middle.into(),
        sector,
    }
}

fn line(v1: u32, v2: u32, front: u32, back: Option<u32>) -> Linedef {
    let flags = if back.is_some() { line_flags::TWO_SIDED } else { line_flags::IMPASSABLE };
    Linedef { v1, v2, flags, sides: [Some(front), back], ..Default::default() }
}

fn seg(v1: u32, v2: u32, angle: i16, linedef: u32, side: u8) -> BspSeg {
    BspSeg {
        v1,
        v2,
        angle: (angle as u16 as u32) << 16,
        linedef: Some(linedef),
        side,
        offset: 0,
        partner: None,
    }
}

fn thing(x: i32, y: i32, angle: i16, kind: u16, flags: u16) -> Thing {
    Thing { x: x << 16, y: y << 16, angle, kind, flags, ..Default::default() }
}

fn sector(floor: i16, ceiling: i16, light: i16) -> Sector {
    Sector {
        floor,
        ceiling,
        floor_flat: "FLOOR".into(),
        ceiling_flat: "CEIL".into(),
        light,
        special: 0,
        tag: 0,
    }
}

/// Two 128x128 rooms side by side: A (sector 0, x 0..128, floor 0, ceiling 128, light 160)
/// and B (sector 1, x 128..256, floor 16, ceiling 96, light 200), joined by a two-sided line
/// at x = 128; one node splits them.
pub fn two_room_level() -> TestLevel {
    let v = Vertex::units;
    let mut south = side("-", "-", "STARTAN", 0);
    south.x_offset = 3;
    south.y_offset = 8;
    let map = MapData {
        name: "MAP01".into(),
        file: "test.wad".into(),
        vertices: vec![v(0, 0), v(128, 0), v(256, 0), v(256, 128), v(128, 128), v(0, 128)],
        sidedefs: vec![
            side("-", "-", "STARTAN", 0),
            side("-", "-", "STARTAN", 0),
            south,
            side("STARTAN", "STARTAN", "-", 0),
            side("-", "-", "-", 1),
            side("-", "-", "STARTAN", 1),
            side("-", "-", "STARTAN", 1),
            side("-", "-", "STARTAN", 1),
        ],
        linedefs: vec![
            line(0, 5, 0, None),
            line(5, 4, 1, None),
            line(1, 0, 2, None),
            line(4, 1, 3, Some(4)),
            line(4, 3, 5, None),
            line(3, 2, 6, None),
            line(2, 1, 7, None),
        ],
        bsp: NodeSet {
            format: NodeFormat::Vanilla,
            extra_vertices: Vec::new(),
            segs: vec![
                seg(0, 5, 16384, 0, 0),
                seg(5, 4, 0, 1, 0),
                seg(4, 1, -16384, 3, 0),
                seg(1, 0, -32768, 2, 0),
                seg(1, 4, 16384, 3, 1),
                seg(4, 3, 0, 4, 0),
                seg(3, 2, -16384, 5, 0),
                seg(2, 1, -32768, 6, 0),
            ],
            subsectors: vec![
                BspSubsector { num_segs: 4, first_seg: 0 },
                BspSubsector { num_segs: 4, first_seg: 4 },
            ],
            nodes: vec![BspNode {
                x: 128 << 16,
                y: 0,
                dx: 0,
                dy: 128 << 16,
                bbox: [[128, 0, 128, 256].map(|v| v << 16), [128, 0, 0, 128].map(|v| v << 16)],
                children: [BspChild::Subsector(1), BspChild::Subsector(0)],
            }],
        },
        sectors: vec![sector(0, 128, 160), sector(16, 96, 200)],
        things: vec![
            thing(64, 64, 90, 1, 7),
            thing(192, 64, 180, 3001, 7),
            thing(200, 100, 0, 3001, 4),
            thing(100, 100, 0, 2001, 0x17),
        ],
        ..Default::default()
    };
    TestLevel { map, omit: Vec::new() }
}

/// An IWAD with a palette, colormaps, one wall patch, textures, flats, one sprite and the map.
pub fn writer_for(level: &TestLevel) -> WadWriter {
    let mut w = WadWriter::iwad();
    w.lump("PLAYPAL", writer::playpal_lump(&palette(), 14));
    w.lump("COLORMAP", (0..34 * 256).map(|i| (i % 256) as u8).collect());
    w.marker("MAP01");
    for (name, data) in writer::map_lumps(&level.map) {
        if !level.omit.contains(&name) {
            w.lump(name, data);
        }
    }
    w.lump("PNAMES", writer::pnames_lump(&["WALL"]));
    w.lump(
        "TEXTURE1",
        writer::texture_lump(&[
            TextureSpec { name: "AASHITTY", width: 64, height: 128, patches: &[(0, 0, 0)] },
            TextureSpec { name: "STARTAN", width: 64, height: 128, patches: &[(0, 0, 0)] },
            TextureSpec {
                name: "SKY1",
                width: 256,
                height: 128,
                patches: &[(0, 0, 0), (64, 0, 0), (128, 0, 0), (192, 0, 0)],
            },
        ]),
    );
    w.marker("P_START");
    w.lump("WALL", writer::patch_lump(64, 128, 31, 123, &[Some(WALL_COLOR); 64 * 128]));
    w.marker("P_END");
    w.marker("F_START").marker("F1_START");
    w.lump("FLOOR", vec![FLOOR_COLOR; 4096]);
    w.lump("CEIL", vec![FLOOR_COLOR + 1; 4096]);
    for (i, n) in ["NUKAGE1", "NUKAGE2", "NUKAGE3"].iter().enumerate() {
        w.lump(n, vec![60 + i as u8; 4096]);
    }
    w.lump("SHORT", vec![0; 100]);
    w.lump("F_SKY1", vec![0; 4096]);
    w.marker("F1_END").marker("F_END");
    w.marker("S_START");
    let mut imp = vec![Some(7u8); 8 * 16];
    imp[0] = None;
    w.lump("TROOA0", writer::patch_lump(8, 16, 4, 8, &imp));
    w.marker("S_END");
    w
}

pub fn stack_with(level: &TestLevel) -> WadStack {
    let bytes = writer_for(level).to_bytes();
    let wad = Wad::from_bytes("test.wad", bytes).expect("test WAD parses");
    WadStack::new(vec![wad])
}

pub fn two_room_stack() -> WadStack {
    stack_with(&two_room_level())
}

/// Both Freedoom IWADs (each its own stack), loaded once per test binary. Panics, naming the
/// package, when they are not installed: a test that passes without its data proves nothing.
pub fn freedoom() -> &'static Vec<WadStack> {
    static WADS: OnceLock<Vec<WadStack>> = OnceLock::new();
    WADS.get_or_init(|| {
        let dir = std::path::Path::new("/usr/share/games/doom");
        ["freedoom1.wad", "freedoom2.wad"]
            .iter()
            .map(|f| {
                let path = dir.join(f);
                WadStack::open(&[&path]).unwrap_or_else(|e| {
                    panic!("{}: {e:#} (install the Debian package freedoom)", path.display())
                })
            })
            .collect()
    })
}

#[test]
fn test_level_lumps_are_in_vanilla_order() {
    let names: Vec<&str> =
        writer::map_lumps(&two_room_level().map).iter().map(|(n, _)| *n).collect();
    assert_eq!(names, &MAP_LUMP_NAMES[..10]);
}
