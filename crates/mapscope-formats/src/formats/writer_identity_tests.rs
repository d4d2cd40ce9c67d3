//! The test writers' bytes must not move when their code does: each writer writes a
//! representative file (the shared fixtures and Freedoom read and written back, so every
//! record kind a real file has goes through the writer), and its fingerprint is compared with
//! the one the writers gave before they were rebuilt on `ByteWriter`.

use std::path::PathBuf;

use super::byte_writer::fingerprint;

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared").join(path)
}

fn read(path: &PathBuf) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Prints every fingerprint before asserting, so that a failure shows all that moved.
fn check(written: &[(&str, Vec<u8>, u64)]) {
    for (what, bytes, _) in written {
        eprintln!("{what}: {} bytes, fingerprint {:#018x}", bytes.len(), fingerprint(bytes));
    }
    for (what, bytes, expected) in written {
        assert_eq!(fingerprint(bytes), *expected, "{what}: written bytes changed");
    }
}

#[test]
fn carma2_files_are_written_as_before() {
    use super::carma2::{actors, materials, models, pixelmaps, writer};
    let dir = shared("fixtures/carma2");
    let file = |sub: &str, name: &str| read(&dir.join(sub).join(name));
    let act = actors::parse_actors("TRACK.ACT", &file("ACTORS", "TRACK.ACT")).objects;
    let dat: Vec<_> = ["TRACK.DAT", "SIGN.DAT"]
        .iter()
        .flat_map(|n| models::parse_models(n, &file("MODELS", n)).objects)
        .collect();
    let mat: Vec<_> = ["TRACK.MAT", "PROBES.MAT"]
        .iter()
        .flat_map(|n| materials::parse_materials(n, &file("MATERIAL", n)).objects)
        .collect();
    let pix: Vec<_> =
        ["TRACK.P08", "TRACK.P16", "FENCE8.PIX", "PROBE8.PIX", "PROBE565.PIX", "PROBE4444.PIX"]
            .iter()
            .flat_map(|n| pixelmaps::parse_pixelmaps(n, &file("PIXELMAP", n)).objects)
            .collect();
    assert!(!act.is_empty() && !dat.is_empty() && !mat.is_empty() && !pix.is_empty());
    let act = writer::write_actors(&act);
    let dat = writer::write_models(&dat);
    let mat = writer::write_materials(&mat);
    let pix = writer::write_pixelmaps(&pix);
    let twt = writer::write_twt(&[("A.ACT", &act), ("B.DAT", &dat), ("C.MAT", &mat)]);
    check(&[
        ("ACT", act, 0x3563_e5e6_3222_4866),
        ("DAT", dat, 0xc24e_b7c2_a26e_4c29),
        ("MAT", mat, 0x04f8_6bba_cf92_bf87),
        ("PIX", pix, 0xb385_dabf_a92d_9124),
        ("TWT", twt, 0xa587_d1d8_5906_7b85),
    ]);
}

#[test]
fn saturn_levels_are_written_as_before() {
    use super::saturn::file::LevFile;
    use super::saturn::tiles::TileLayout;
    use super::saturn::writer::{write_lev, LevSpec};
    let path = shared("fixtures/saturn/amb_poly_link_blocks.lev");
    let lev = LevFile::parse("amb_poly_link_blocks.lev", &read(&path)).expect("fixture parses");
    let l = &lev.level;
    let mut spec = LevSpec {
        sky_palette: lev.sky.palette,
        sky_indices: lev.sky.indices.clone(),
        nodes: l.nodes.clone(),
        planes: l.planes.clone(),
        tiles: lev.tiles.clone(),
        tile_layout: TileLayout::Seed,
        vertices: l.vertices.clone(),
        quads: l.quads.clone(),
        entities: l.entities.clone(),
        entity_data: l.entity_data.clone(),
        tile_texture_data: l.tile_texture_data.clone(),
        tile_color_data: l.tile_color_data.clone(),
        textures: lev.textures.clone(),
        table2_chunks: vec![(7, vec![1, 2, 3]), (-1, Vec::new())],
    };
    assert!(!spec.planes.is_empty() && !spec.tiles.is_empty() && !spec.textures.is_empty());
    let seed = write_lev(&spec);
    spec.tile_layout = TileLayout::UnknownFirst;
    let unknown_first = write_lev(&spec);
    check(&[
        ("LEV (seed layout)", seed, 0xe8eb_d68f_286f_2005),
        ("LEV (unknown first)", unknown_first, 0x7c60_6b5a_ec62_c07d),
    ]);
}

#[test]
fn marathon_files_are_written_as_before() {
    use super::marathon::writer::{self, BitmapSpec, CollectionSpec, LevelChunks};
    use super::marathon::{Level, Wad};
    let path = shared("fixtures/marathon/M2Map.sceA");
    let bytes = read(&path);
    let wad = Wad::parse("M2Map.sceA", &bytes).expect("fixture parses");
    let level = Level::load(&wad, 0).expect("level 0 loads");
    assert!(!level.polygons.is_empty() && !level.lights.is_empty());
    let chunks = LevelChunks {
        name: "Written".into(),
        chunks: vec![
            (*b"PNTS", writer::pnts(&level.endpoints)),
            (*b"EPNT", writer::epnt(&level.endpoints)),
            (*b"LINS", writer::lins(&level.lines)),
            (*b"SIDS", writer::sids(&level.sides)),
            (*b"POLY", writer::poly(&level.polygons)),
            (*b"LITE", writer::lite(&level.lights)),
            (*b"OBJS", writer::objs(&level.objects)),
            (*b"plat", writer::plat(&level.platforms)),
            (*b"medi", writer::medi(&level.media)),
            (*b"Minf", writer::minf("Written", 3)),
        ],
    };
    let two = [chunks.clone(), LevelChunks { name: "Second".into(), ..chunks }];
    let v1 = writer::wad(1, 0, "Written v1", &two);
    let v2 = writer::wad(2, 1, "Written v2", &two);
    let v4 = writer::wad(4, 1, "Written v4", &two);
    let macbinary = writer::macbinary("Written", b"sce2", &v1);
    let applesingle = writer::applesingle("Written", &v2);
    let mut rows = BitmapSpec::uniform(5, 3, 2);
    rows.column_order = false;
    rows.pixels = (0..15).collect();
    let mut rle = BitmapSpec::uniform(4, 6, 0);
    rle.pixels[5] = 9;
    rle.pixels[22] = 3;
    rle.rle = true;
    let mut transparent = BitmapSpec::uniform(3, 3, 1);
    transparent.transparent = true;
    let shapes = writer::shapes(&[
        CollectionSpec {
            index: 21,
            kind: 1,
            tables: vec![
                writer::color_table(&[[0, 0, 0], [255, 128, 7], [9, 9, 9]], &[1]),
                writer::color_table(&[[1, 2, 3], [4, 5, 6], [7, 8, 9]], &[]),
            ],
            bitmaps: vec![rows, rle, transparent],
            sequences: vec![2, 0],
            pixels_to_world: 3,
        },
        CollectionSpec {
            index: 4,
            kind: 2,
            tables: vec![writer::color_table(&[[10, 20, 30]], &[])],
            bitmaps: vec![BitmapSpec::uniform(2, 2, 0)],
            sequences: vec![0],
            pixels_to_world: 0,
        },
    ]);
    check(&[
        ("wad v1", v1, 0xc5cd_1a95_df84_1456),
        ("wad v2", v2, 0x0079_9a83_60f5_a63d),
        ("wad v4", v4, 0x279d_8781_0c39_5c3b),
        ("MacBinary", macbinary, 0xdcb3_7195_fd35_c8a2),
        ("AppleSingle", applesingle, 0xb884_b7a8_7c8e_77f2),
        ("Shapes", shapes, 0x8b6b_7386_7fe7_d931),
    ]);
}

#[test]
fn saucer_files_are_written_as_before() {
    use super::saucer::writer::{write_map, write_wad, MapContents, WadContents};
    use super::saucer::{map::MapFile, model::read_model, wad::Wad};
    let dir = shared("fixtures/saucer");
    let map = MapFile::parse("TESTA.map", &read(&dir.join("maps/TESTA.map"))).expect("map parses");
    let written_map = write_map(&MapContents {
        imported_textures: map.imported_textures.clone(),
        block_defs: map.block_defs.clone(),
        texture_defs: map.texture_defs.clone(),
        animations: map.animations.clone(),
        strat_names: map.strat_names.clone(),
        model_names: map.model_names.clone(),
        terrain: map.items.terrain.clone(),
        extra_tiles: map.items.extra_tiles.clone(),
        billboards: map.items.billboards.clone(),
        blocks: map.items.blocks.clone(),
        models: map.items.models.clone(),
        opaque: map.items.opaque.clone(),
    });
    let wad = Wad::parse("TESTA.wad", &read(&dir.join("LEVELS/TESTA.wad"))).expect("wad parses");
    let models = wad.models.iter().filter_map(|m| read_model(&wad.packed, m).ok()).collect();
    let bitmaps = wad
        .exported_textures
        .iter()
        .filter_map(|(i, name)| {
            Some((name.clone(), wad.packed.bitmap(wad.bitmaps.get(*i as usize)?).ok()?))
        })
        .collect();
    let written_wad = write_wad(&WadContents {
        lut1: (0..=255).cycle().take(70_000).collect(),
        lut2: vec![4; 100],
        background: 17,
        fog_near: 100,
        fog_far: 900,
        palette: wad.packed.palette().expect("fixture palette").rgb,
        bitmaps,
        textures: wad.textures.clone(),
        models,
    });
    check(&[
        ("map", written_map, 0x5438_5eb8_ff0b_13b8),
        ("wad", written_wad, 0x1777_d56f_9d1f_72bd),
    ]);
}

#[test]
fn doom_files_are_written_as_before() {
    use super::doom::archive::writer::{self, TextureSpec, WadWriter};
    use super::doom::map::{MapData, MapFormat};
    use super::doom::WadStack;
    let path = "/usr/share/games/doom/freedoom2.wad";
    let stack = WadStack::open(&[path])
        .unwrap_or_else(|e| panic!("{path}: {e:#} (install the Debian package freedoom)"));
    let map = MapData::load(&stack, "MAP01").expect("MAP01 loads");
    let mut hexen = map.clone();
    hexen.format = MapFormat::Hexen;
    let mut w = WadWriter::pwad();
    w.map("MAP01", &map).map("MAP02", &hexen);
    w.lump("PNAMES", writer::pnames_lump(&["WALL", "lowercase", "LONGERTHAN8"]));
    w.lump(
        "TEXTURE1",
        writer::texture_lump(&[
            TextureSpec { name: "ONE", width: 64, height: 128, patches: &[(0, 0, 0)] },
            TextureSpec { name: "TWO", width: 256, height: 72, patches: &[(0, 0, 1), (-8, 3, 2)] },
        ]),
    );
    let texels: Vec<Option<u8>> =
        (0..40 * 300).map(|i| (i % 7 != 0).then_some((i % 251) as u8)).collect();
    w.lump("PATCH", writer::patch_lump(40, 300, -3, 290, &texels));
    let palette: [[u8; 3]; 256] = std::array::from_fn(|i| [i as u8, 255 - i as u8, 7]);
    w.lump("PLAYPAL", writer::playpal_lump(&palette, 2));
    let png = writer::png_lump(2, 1, &[1, 2, 3, 255, 4, 5, 6, 0], Some((-5, 300))).expect("png");
    w.lump("PNGPATCH", png);
    let iwad = WadWriter::iwad().marker("E1M1").to_bytes();
    check(&[("PWAD", w.to_bytes(), 0x9821_fc1b_3b5e_f799), ("IWAD", iwad, 0x3528_0327_1253_9a61)]);
}
