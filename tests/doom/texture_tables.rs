//! A vanilla-format PWAD over freedoom2 whose TEXTURE1 holds only its own new texture, with
//! its own PNAMES: by ZDoom's rules (the default) the room shows both an IWAD wall texture and
//! the PWAD's new one, neither a placeholder; by vanilla's (`--vanilla`) the PWAD's TEXTURE1
//! replaces the IWAD's table, so the IWAD texture becomes a placeholder, as in Chocolate Doom.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::archive::writer::{
    patch_lump, pnames_lump, texture_lump, TextureSpec,
};
use mapscope::formats::doom::map::{line_flags, Linedef, MapData, Sector, Sidedef, Vertex};
use mapscope::formats::doom::{build_scene_with, BuildOptions, WadStack};
use mapscope::scene::Scene;
use support::doom_test_room::{player_start, renders_three_ways, THREE_WAYS};

/// The IWAD texture on the west half of the north wall.
const IWAD_TEXTURE: &str = "BRICK1";
/// Freedoom's green, all of the PWAD's new texture.
const GREEN: u8 = 112;

/// A 256 x 256 room whose north wall is two lines: `west` on the west half, `east` on the
/// east half; the other walls draw the IWAD texture.
fn map(west: &str, east: &str) -> MapData {
    let v = Vertex::units;
    let vertices = vec![v(0, 0), v(256, 0), v(256, 256), v(0, 256), v(128, 256)];
    let side = |middle: &str| Sidedef {
        upper: "-".into(),
        lower: "-".into(),
        middle: middle.into(),
        sector: 0,
        ..Default::default()
    };
    let line = |v1: u32, v2: u32, side: u32| Linedef {
        v1,
        v2,
        flags: line_flags::IMPASSABLE,
        sides: [Some(side), None],
        ..Default::default()
    };
    // Clockwise, so each line's front (right) side faces into the room.
    let linedefs = vec![line(0, 3, 0), line(3, 4, 1), line(4, 2, 2), line(2, 1, 3), line(1, 0, 4)];
    let sidedefs =
        vec![side(IWAD_TEXTURE), side(west), side(east), side(IWAD_TEXTURE), side(IWAD_TEXTURE)];
    MapData {
        name: "MAP01".into(),
        file: "tables.wad".into(),
        vertices,
        linedefs,
        sidedefs,
        sectors: vec![Sector {
            floor: 0,
            ceiling: 128,
            floor_flat: "FLOOR4_8".into(),
            ceiling_flat: "CEIL3_5".into(),
            light: 192,
            ..Default::default()
        }],
        things: vec![player_start()],
        ..Default::default()
    }
}

/// The PWAD: the map, a patch, a PNAMES naming only it, and a TEXTURE1 of a first entry
/// (never drawn on walls, vanilla's texture 0 and ZDoom's `FirstDefined`) and `PWADNEW`.
fn pwad(map: &MapData) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.map("MAP01", map);
    w.lump("NEWPATCH", patch_lump(64, 128, 0, 0, &vec![Some(GREEN); 64 * 128]))
        .lump("PNAMES", pnames_lump(&["NEWPATCH"]))
        .lump(
            "TEXTURE1",
            texture_lump(&[
                TextureSpec { name: "PWDUMMY", width: 64, height: 128, patches: &[(0, 0, 0)] },
                TextureSpec { name: "PWADNEW", width: 64, height: 128, patches: &[(0, 0, 0)] },
            ]),
        );
    w.to_bytes()
}

fn scene(map: &MapData, vanilla: bool) -> Scene {
    let iwad = Wad::open(&support::freedoom2()).unwrap();
    let stack = WadStack::new(vec![iwad, Wad::from_bytes("tables.wad", pwad(map)).unwrap()]);
    let opts = BuildOptions { vanilla, ..Default::default() };
    build_scene_with(&stack, "MAP01", &opts).unwrap()
}

/// Screen regions (columns, rows) inside the west and east halves of the north wall in every
/// view (the wall spans rows 38..129 at 90° and 48..124 at 100°; the halves meet at x 160).
const WEST: (std::ops::Range<u32>, std::ops::Range<u32>) = (100..150, 60..115);
const EAST: (std::ops::Range<u32>, std::ops::Range<u32>) = (170..220, 60..115);

fn pixels(
    r: &(std::ops::Range<u32>, std::ops::Range<u32>),
) -> impl Iterator<Item = (u32, u32)> + '_ {
    r.1.clone().flat_map(move |y| r.0.clone().map(move |x| (x, y)))
}

/// Share of the region's pixels equal in both images.
fn same_share(
    a: &RgbaImage,
    b: &RgbaImage,
    r: &(std::ops::Range<u32>, std::ops::Range<u32>),
) -> f64 {
    let n = pixels(r).count() as f64;
    pixels(r).filter(|&(x, y)| a.get_pixel(x, y) == b.get_pixel(x, y)).count() as f64 / n
}

/// Share of the region's pixels that are green (the PWAD's texture, whatever the light).
fn green_share(img: &RgbaImage, r: &(std::ops::Range<u32>, std::ops::Range<u32>)) -> f64 {
    let n = pixels(r).count() as f64;
    let green = |(x, y)| {
        let [r, g, b, _] = img.get_pixel(x, y).0;
        g > r.saturating_add(30) && g > b.saturating_add(30)
    };
    pixels(r).filter(|&p| green(p)).count() as f64 / n
}

#[test]
fn a_pwad_texture1_with_only_its_new_texture_keeps_the_iwad_textures() {
    let with_both = map(IWAD_TEXTURE, "PWADNEW");
    // The same room with a name nothing defines on the west half: a placeholder there.
    let with_placeholder = map("NOSUCHTX", "PWADNEW");
    let zdoom = renders_three_ways(&mut scene(&with_both, false), "DUMP_TABLES", "zdoom");
    let placeholder =
        renders_three_ways(&mut scene(&with_placeholder, false), "DUMP_TABLES", "placeholder");
    let vanilla = renders_three_ways(&mut scene(&with_both, true), "DUMP_TABLES", "vanilla");
    for (i, (&(what, _, _), z)) in THREE_WAYS.iter().zip(&zdoom).enumerate() {
        assert!(green_share(z, &EAST) > 0.95, "{what}: the PWAD's texture drawn");
        assert!(green_share(z, &WEST) < 0.05, "{what}: the IWAD's texture on the west half");
        assert!(
            same_share(z, &placeholder[i], &WEST) < 0.5,
            "{what}: the IWAD's texture, not a placeholder"
        );
        // Vanilla's rule: the PWAD's TEXTURE1 is the whole table, BRICK1 is missing.
        let v = &vanilla[i];
        assert!(green_share(v, &EAST) > 0.95, "{what}: vanilla draws the PWAD's texture");
        assert_eq!(same_share(v, &placeholder[i], &WEST), 1.0, "{what}: vanilla's placeholder");
    }
    let notes = scene(&with_both, false).facts.notes;
    assert!(
        notes.iter().any(|n| n.contains("merged") && n.contains("tables.wad 2 added, 0 replaced")),
        "{notes:?}"
    );
}
