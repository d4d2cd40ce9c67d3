//! Unit tests across the Marathon modules on writer-built files and the shared fixtures.

use super::lights::FIXED_ONE;
use super::map::{MapObject, Point};
use super::shapes::ShapesFile;
use super::writer::{self, BitmapSpec, CollectionSpec, LevelChunks, Room, RoomPolygon, SideSpec};
use super::{build, Level, Wad};
use crate::scene::{FrameState, Shading};

fn square_room() -> LevelChunks {
    let v = vec![
        Point { x: 0, y: 0 },
        Point { x: 2048, y: 0 },
        Point { x: 2048, y: 2048 },
        Point { x: 0, y: 2048 },
    ];
    let side = Some(SideSpec::full(0x1100, 0));
    let r = Room::build(&[RoomPolygon {
        vertices: v,
        floor: 0,
        ceiling: 1024,
        floor_texture: 0x1100,
        ceiling_texture: 0x1100,
        floor_light: 0,
        ceiling_light: 0,
        floor_transfer_mode: 0,
        ceiling_transfer_mode: 15,
        kind: 0,
        media: -1,
        sides: vec![side; 4],
    }]);
    let player =
        MapObject { kind: 3, index: 0, facing: 128, polygon: 0, x: 1024, y: 1024, z: 0, flags: 0 };
    let mut strobe = writer::constant_light(1.0);
    strobe.functions[1].intensity = FIXED_ONE / 4;
    strobe.functions[0].period = 5;
    strobe.functions[1].period = 5;
    LevelChunks {
        name: "Square".into(),
        chunks: vec![
            (*b"PNTS", writer::pnts(&r.endpoints)),
            (*b"LINS", writer::lins(&r.lines)),
            (*b"SIDS", writer::sids(&r.sides)),
            (*b"POLY", writer::poly(&r.polygons)),
            (*b"LITE", writer::lite(&[strobe])),
            (*b"OBJS", writer::objs(&[player])),
            (*b"Minf", writer::minf("Square", 0)),
        ],
    }
}

#[test]
fn writer_room_loads_with_lines_and_sides_derived() {
    let bytes = writer::wad(4, 1, "t", &[square_room()]);
    let wad = Wad::parse("t", &bytes).unwrap();
    let level = Level::load(&wad, 0).unwrap();
    assert_eq!((level.endpoints.len(), level.lines.len(), level.sides.len()), (4, 4, 4));
    assert!(level.lines.iter().all(|l| l.flags == 0x4000 && l.clockwise_polygon == 0));
    assert_eq!(level.side_owners[2], Some((0, 2)));
}

#[test]
fn chunk_chain_that_runs_backwards_is_an_error() {
    let mut bytes = writer::wad(4, 1, "t", &[square_room()]);
    // The second chunk's next offset (entry at 128; first chunk: 16-byte header + 16 bytes of
    // PNTS) pointed back at the first chunk.
    let second = 128 + 16 + 16;
    bytes[second + 4..second + 8].copy_from_slice(&0u32.to_be_bytes());
    let first_next = 128 + 4;
    bytes[first_next..first_next + 4].copy_from_slice(&(16u32 + 16).to_be_bytes());
    bytes[second + 4..second + 8].copy_from_slice(&8u32.to_be_bytes());
    let wad = Wad::parse("t", &bytes).unwrap();
    let e = Level::load(&wad, 0).unwrap_err();
    assert!(e.message.contains("loops"), "{e}");
}

#[test]
fn animator_runs_lights_and_slides() {
    let bytes = writer::wad(2, 1, "t", &[square_room()]);
    let wad = Wad::parse("t", &bytes).unwrap();
    let level = Level::load(&wad, 0).unwrap();
    let mut scene = build::build_scene(&level, None, &[]);
    let Shading::Family { tables, .. } = &scene.shading else { panic!("Marathon shading") };
    assert_eq!(tables[1], 0, "no Shapes file: flat colours");
    let mut state = FrameState::default();
    let mut seen = std::collections::BTreeSet::new();
    for tic in 0..20 {
        scene.animator.state_at(tic, &mut state);
        seen.insert(state.light[1]);
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![FIXED_ONE as u32 / 4, FIXED_ONE as u32]);
    scene.animator.state_at(10, &mut state);
    assert_eq!(state.scroll[1], [0.0, 40.0], "ceiling slide along world x (flat v)");
    assert_eq!(state.texture_remap.len(), scene.textures.len());
    // Going back in time replays from the start.
    scene.animator.state_at(0, &mut state);
    assert_eq!(state, scene.animator.initial());
    assert!((scene.spawn.yaw + std::f64::consts::FRAC_PI_2).abs() < 1e-9, "facing 128 = +Y");
}

#[test]
fn row_ordered_bitmaps_keep_storage_lines_and_bad_rle_is_refused() {
    let mut rows = BitmapSpec::uniform(4, 2, 1);
    rows.column_order = false;
    rows.pixels = vec![1, 2, 3, 4, 5, 6, 7, 8];
    let mut rle = BitmapSpec::uniform(4, 4, 0);
    rle.pixels[5] = 9;
    rle.rle = true;
    let bytes = writer::shapes(&[CollectionSpec {
        index: 21,
        kind: 1,
        tables: vec![writer::color_table(&[[0, 0, 0]; 10], &[])],
        bitmaps: vec![rows, rle],
        sequences: vec![],
        pixels_to_world: 0,
    }]);
    let shapes = ShapesFile::parse("s", &bytes).unwrap();
    let c = shapes.collection(21).unwrap().unwrap();
    let b = c.bitmap(0).unwrap();
    assert_eq!((b.lines, b.line_length), (2, 4));
    assert_eq!(b.pixel_xy(3, 1), Some(8));
    assert_eq!(b.pixels[3 * 2], 4, "line 0, position 3");
    let r = c.bitmap(1).unwrap();
    assert_eq!((r.pixel_xy(1, 1), r.pixel_xy(0, 0)), (Some(9), None));

    // Line 0 of the RLE bitmap claiming a span past its end.
    let mut broken = bytes.clone();
    let bitmap1 = {
        let b1 = c.bitmap_header(1).unwrap();
        assert!(b1.is_rle());
        // Collection at 1024: find the RLE data by its header (width 4, height 4, -1).
        let needle = [0u8, 4, 0, 4, 0xFF, 0xFF];
        broken.windows(6).position(|w| w == needle).unwrap()
    };
    let line0 = bitmap1 + 26 + 4 * 5;
    broken[line0 + 2..line0 + 4].copy_from_slice(&300u16.to_be_bytes());
    let shapes = ShapesFile::parse("s", &broken).unwrap();
    let e = shapes.collection(21).unwrap().unwrap().bitmap(1).unwrap_err();
    assert!(e.message.contains("outside a line"), "{e}");
}

#[test]
fn macbinary_and_applesingle_wrap_the_same_wad() {
    let w = writer::wad(1, 1, "t", &[square_room()]);
    for wrapped in [writer::macbinary("t", b"sce2", &w), writer::applesingle("t", &w)] {
        let wad = Wad::parse("t", &wrapped).unwrap();
        assert_eq!(wad.data(), w.as_slice());
    }
    let mut bad_crc = writer::macbinary("t", b"sce2", &w);
    bad_crc[124] ^= 1;
    // Without a valid CRC the file is not taken for MacBinary and its header is no wad.
    assert!(Wad::parse("t", &bad_crc).is_err());
}

#[test]
fn names_stop_at_nul_and_side_owners_come_from_lines() {
    let mut level = square_room();
    for (tag, data) in &mut level.chunks {
        if tag == b"Minf" {
            // Real files carry garbage after the name's NUL.
            data[18..18 + 12].copy_from_slice(b"Square\0junk!");
        }
        if tag == b"SIDS" {
            // Stale polygon and line indices, as in real Marathon 1 sides.
            for side in data.chunks_mut(64) {
                side[48..52].copy_from_slice(&[0x12, 0x34, 0x56, 0x78]);
            }
        }
    }
    let bytes = writer::wad(4, 1, "t", &[level]);
    let wad = Wad::parse("t", &bytes).unwrap();
    assert_eq!(super::level_names(&wad), vec!["Square".to_string()]);
    let level = Level::load(&wad, 0).unwrap();
    assert_eq!(level.sides[1].stored_polygon, 0x1234);
    assert_eq!(level.side_owners[1], Some((0, 1)));
    assert!(level.notes.is_empty(), "{:?}", level.notes);
}

#[test]
fn a_level_without_a_player_start_opens_in_its_largest_polygon_and_says_so() {
    let bytes = writer::wad(4, 1, "t", &[square_room()]);
    let wad = Wad::parse("t", &bytes).unwrap();
    let mut level = Level::load(&wad, 0).unwrap();
    level.objects.clear();
    let scene = build::build_scene(&level, None, &[]);
    let native = scene.spawn.native(scene.axes).position;
    // The square room's middle, at eye height over its floor.
    assert_eq!(native, [1024.0, 1024.0, build::EYE_HEIGHT]);
    let note = scene.facts.notes.iter().find(|n| n.contains("no player start"));
    assert!(note.is_some_and(|n| n.contains("polygon 0")), "{:?}", scene.facts.notes);
}
