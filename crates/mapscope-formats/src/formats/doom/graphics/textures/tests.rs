//! The texture directory's tests: composing from patches, vanilla's and ZDoom's table
//! rules, TEXTURES definitions, loose and hires pictures, and malformed lumps. Apart from the
//! three parts because most go through all of them.

use super::*;
use crate::formats::doom::archive::wad::{Wad, WadStack};
use crate::formats::doom::archive::writer::{self, TextureSpec, WadWriter};
use crate::formats::doom::testwad;
use crate::scene::{Texels, Texture};

#[test]
fn composes_textures_from_patches() {
    let stack = testwad::two_room_stack();
    let dir = TextureDirectory::load(&stack).unwrap();
    assert_eq!(dir.number("aashitty"), Some(0));
    let n = dir.number("STARTAN").unwrap();
    let mut cache = PatchCache::default();
    let mut notes = Vec::new();
    let t = dir.compose(n, &stack, &mut cache, &mut notes);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!((t.width, t.height), (64, 128));
    let Texels::Indexed { index, opaque } = &t.texels else { panic!() };
    assert!(opaque.is_empty());
    assert_eq!(index[0], testwad::WALL_COLOR);
}

#[test]
fn width_is_cut_to_a_power_of_two_and_holes_stay_transparent() {
    let mut w = WadWriter::pwad();
    let patch: Vec<Option<u8>> = vec![Some(7); 8 * 8];
    w.lump("P1", writer::patch_lump(8, 8, 0, 0, &patch))
        .lump("PNAMES", writer::pnames_lump(&["P1"]))
        .lump(
            "TEXTURE1",
            writer::texture_lump(&[TextureSpec {
                name: "ODD",
                width: 12,
                height: 10,
                patches: &[(0, 0, 0)],
            }]),
        );
    let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
    let dir = TextureDirectory::load(&stack).unwrap();
    let t = dir.compose(0, &stack, &mut PatchCache::default(), &mut Vec::new());
    assert_eq!((t.width, t.height), (8, 10));
    let Texels::Indexed { opaque, .. } = &t.texels else { panic!() };
    assert!(opaque[0] && !opaque[8 * 8]);
}

#[test]
fn missing_patch_gives_placeholder_and_note() {
    let mut w = WadWriter::pwad();
    w.lump("PNAMES", writer::pnames_lump(&["NOSUCH"])).lump(
        "TEXTURE1",
        writer::texture_lump(&[TextureSpec {
            name: "BROKEN",
            width: 32,
            height: 16,
            patches: &[(0, 0, 0), (0, 0, 5)],
        }]),
    );
    let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
    let dir = TextureDirectory::load(&stack).unwrap();
    let mut notes = Vec::new();
    let t = dir.compose(0, &stack, &mut PatchCache::default(), &mut notes);
    assert_eq!((t.name.as_str(), t.width, t.height), ("BROKEN", 32, 16));
    assert!(notes[0].contains("NOSUCH"), "{notes:?}");
}

/// A WAD with patches P1 (8x8 of 1) and P2 (4x4 of 2), PNAMES, TEXTURE1 (A, B from P1)
/// and flats FA, FB.
fn base_wad() -> Wad {
    let mut w = WadWriter::iwad();
    w.lump("P1", writer::patch_lump(8, 8, 0, 0, &[Some(1); 64]))
        .lump("P2", writer::patch_lump(4, 4, 2, 3, &[Some(2); 16]))
        .lump("PNAMES", writer::pnames_lump(&["P1", "P2"]))
        .lump(
            "TEXTURE1",
            writer::texture_lump(&[
                TextureSpec { name: "A", width: 8, height: 8, patches: &[(0, 0, 0)] },
                TextureSpec { name: "B", width: 8, height: 8, patches: &[(0, 0, 0)] },
            ]),
        )
        .marker("F_START")
        .lump("FA", vec![3; 4096])
        .lump("FB", vec![4; 4096])
        .marker("F_END");
    Wad::from_bytes("base.wad", w.to_bytes()).unwrap()
}

fn pwad(name: &str, build: impl Fn(&mut WadWriter)) -> Wad {
    let mut w = WadWriter::pwad();
    build(&mut w);
    Wad::from_bytes(name, w.to_bytes()).unwrap()
}

fn indexed(t: &Texture) -> &[u8] {
    match &t.texels {
        Texels::Indexed { index, .. } => index,
        Texels::Rgba(_) => panic!("not indexed"),
    }
}

#[test]
fn textures_definitions_replace_by_name_in_place_and_append_new_ones() {
    let text = b"WallTexture B, 4, 4 { Patch P2, 0, 0 }\n\
                 Texture C, 8, 4 { Patch P2, 0, 0  Patch P2, 4, 0 }\n\
                 Flat FA, 4, 4 { Patch P2, 0, 0 }\n";
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("t.wad", |w| {
            w.lump("TEXTURES", text.to_vec());
        }),
    ]);
    let dir = TextureDirectory::load(&stack).unwrap();
    assert_eq!((dir.number("A"), dir.number("B"), dir.number("C")), (Some(0), Some(1), Some(2)));
    let mut cache = PatchCache::default();
    let mut notes = Vec::new();
    let b = dir.compose(1, &stack, &mut cache, &mut notes);
    assert_eq!((b.width, b.height, indexed(&b)[0]), (4, 4, 2));
    let c = dir.compose(2, &stack, &mut cache, &mut notes);
    assert_eq!((c.width, indexed(&c)[7]), (8, 2), "GZDoom widths are kept");
    // `Texture` replaces flats too; `Flat` only flats.
    assert!(dir.flat_def("C").is_some() && dir.flat_def("B").is_none());
    let fa = dir.compose_flat(dir.flat_def("FA").unwrap(), &stack, &mut cache, &mut notes).fitted;
    assert_eq!((fa.width, fa.height, indexed(&fa)[5 * 64 + 5]), (64, 64, 2), "tiled");
    assert!(notes.iter().any(|n| n.contains("flat FA is 4x4")), "{notes:?}");
}

#[test]
fn hires_pictures_replace_at_the_old_world_size() {
    use crate::formats::doom::archive::writer::png_lump;
    let png =
        |w: u32, h: u32| png_lump(w, h, &[9, 9, 9, 255].repeat((w * h) as usize), None).unwrap();
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("hi.wad", |w| {
            w.marker("HI_START")
                .lump("A", png(16, 32))
                .lump("FA", png(128, 128))
                .lump("NEWPIC", png(4, 4))
                .marker("HI_END");
        }),
    ]);
    let dir = TextureDirectory::load(&stack).unwrap();
    // A (8 x 8 texels at scale 1) becomes the 16 x 32 picture at scale 2 x 4: still 8 x 8
    // map units, offsets in map units.
    let a = &dir.defs[dir.number("A").unwrap()];
    assert_eq!((a.width, a.height, a.source), (16, 32, DefSource::Picture));
    assert_eq!(a.scale, TextureScale::from_units(2.0, 4.0, true));
    // Flat FA (a 64 x 64 lump) becomes the 128 x 128 picture at scale 2.
    let fa = &dir.flat_defs[dir.flat_def("FA").unwrap()];
    assert_eq!((fa.width, fa.scale), (128, TextureScale::from_units(2.0, 2.0, true)));
    // A name nothing had is added at its own size; B is untouched.
    let new = &dir.defs[dir.number("NEWPIC").unwrap()];
    assert!(new.scale.is_unit() && new.width == 4);
    assert!(dir.defs[dir.number("B").unwrap()].scale.is_unit());
    assert!(dir.notes.iter().any(|n| n.contains("hires: 3")), "{:?}", dir.notes);
}

#[test]
fn a_later_files_texture1_keeps_its_name_over_an_earlier_textures_lump() {
    let textures = pwad("t.wad", |w| {
        w.lump("TEXTURES", b"WallTexture A, 4, 4 { Patch P2, 0, 0 }".to_vec());
    });
    let later = pwad("l.wad", |w| {
        w.lump("PNAMES", writer::pnames_lump(&["P1"])).lump(
            "TEXTURE1",
            writer::texture_lump(&[TextureSpec {
                name: "A",
                width: 16,
                height: 8,
                patches: &[(0, 0, 0)],
            }]),
        );
    });
    let stack = WadStack::new(vec![base_wad(), textures, later]);
    let dir = TextureDirectory::load(&stack).unwrap();
    assert_eq!(dir.defs[dir.number("A").unwrap()].width, 16);
}

/// A PWAD with its own patch P3 (8x8 of 5), a PNAMES naming only P3 (so its index 0 is
/// not the base WAD's P1) and a TEXTURE1 of `textures`, each one patch 0 at (0, 0).
fn pwad_with_table(name: &str, textures: &[&str]) -> Wad {
    pwad(name, |w| {
        let specs: Vec<TextureSpec> = textures
            .iter()
            .map(|&name| TextureSpec { name, width: 8, height: 8, patches: &[(0, 0, 0)] })
            .collect();
        w.lump("P3", writer::patch_lump(8, 8, 0, 0, &[Some(5); 64]))
            .lump("PNAMES", writer::pnames_lump(&["P3"]))
            .lump("TEXTURE1", writer::texture_lump(&specs));
    })
}

/// The first texel of texture `name` as composed from `dir`.
fn texel_of(dir: &TextureDirectory, stack: &WadStack, name: &str) -> u8 {
    let num = dir.number(name).unwrap_or_else(|| panic!("no texture {name}"));
    let mut notes = Vec::new();
    let t = dir.compose(num, stack, &mut PatchCache::default(), &mut notes);
    assert!(notes.is_empty(), "{name}: {notes:?}");
    indexed(&t)[0]
}

#[test]
fn zdoom_rules_read_every_files_table_with_its_own_pnames() {
    // The third file has a TEXTURE1 and no PNAMES: it uses the second file's (P3 at 0).
    let no_pnames = pwad("n.wad", |w| {
        w.lump(
            "TEXTURE1",
            writer::texture_lump(&[
                TextureSpec { name: "DUMMY2", width: 8, height: 8, patches: &[(0, 0, 0)] },
                TextureSpec { name: "LATER", width: 8, height: 8, patches: &[(0, 0, 0)] },
            ]),
        );
    });
    let stack =
        WadStack::new(vec![base_wad(), pwad_with_table("new.wad", &["DUMMY", "NEW"]), no_pnames]);
    let dir = TextureDirectory::load(&stack).unwrap();
    // The base WAD's textures keep their numbers and patches; the PWAD's come after,
    // composed from the PWAD's own PNAMES.
    assert_eq!((dir.number("A"), dir.number("B")), (Some(0), Some(1)));
    assert_eq!((dir.number("DUMMY"), dir.number("NEW")), (Some(2), Some(3)));
    assert_eq!(texel_of(&dir, &stack, "B"), 1, "P1 of the base WAD's PNAMES");
    assert_eq!(texel_of(&dir, &stack, "NEW"), 5, "P3 of the PWAD's PNAMES");
    assert_eq!(texel_of(&dir, &stack, "LATER"), 5, "the nearest earlier PNAMES");
    // Each file's first TEXTURE1 entry is GZDoom's FirstDefined: never drawn on walls.
    assert!(dir.draws(1) && dir.draws(3) && dir.draws(dir.number("LATER").unwrap()));
    assert!(!dir.draws(0) && !dir.draws(2) && !dir.draws(dir.number("DUMMY2").unwrap()));
    let note = dir.notes.iter().find(|n| n.contains("merged")).expect("a merge note");
    assert!(
        note.contains("3 files")
            && note.contains("base.wad 2 added, 0 replaced")
            && note.contains("new.wad 2 added, 0 replaced"),
        "{note}"
    );
}

#[test]
fn under_zdoom_rules_a_later_files_texture_of_a_name_wins() {
    let stack = WadStack::new(vec![base_wad(), pwad_with_table("re.wad", &["DUMMY", "B", "NEW"])]);
    let dir = TextureDirectory::load(&stack).unwrap();
    assert_eq!(dir.number("B"), Some(3));
    assert_eq!(texel_of(&dir, &stack, "B"), 5, "the PWAD's B, from its P3");
    assert_eq!(texel_of(&dir, &stack, "A"), 1, "the base WAD's A");
    // The base WAD's B keeps its number (animation ranges go by number).
    assert_eq!(dir.defs[1].file, 0);
    assert!(dir.notes.iter().any(|n| n.contains("re.wad 2 added, 1 replaced")));
}

#[test]
fn vanilla_rules_take_the_last_tables_whole() {
    let stack = WadStack::new(vec![base_wad(), pwad_with_table("new.wad", &["DUMMY", "NEW"])]);
    let dir = TextureDirectory::load_with(&stack, TextureRules::Vanilla).unwrap();
    // The PWAD's TEXTURE1 replaces the base WAD's: A and B are gone, NEW is number 1.
    assert_eq!((dir.number("A"), dir.number("B")), (None, None));
    assert_eq!((dir.number("DUMMY"), dir.number("NEW")), (Some(0), Some(1)));
    assert_eq!(texel_of(&dir, &stack, "NEW"), 5);
    assert!(dir.notes.iter().any(|n| n.contains("only the last TEXTURE1")), "{:?}", dir.notes);
    // With the PWAD's TEXTURE1 over the base WAD's PNAMES, vanilla's index 0 is P1.
    let old_pnames = pwad("t.wad", |w| {
        w.lump(
            "TEXTURE1",
            writer::texture_lump(&[TextureSpec {
                name: "C",
                width: 8,
                height: 8,
                patches: &[(0, 0, 0)],
            }]),
        );
    });
    let stack = WadStack::new(vec![pwad_with_table("p.wad", &["X"]), base_wad(), old_pnames]);
    let dir = TextureDirectory::load_with(&stack, TextureRules::Vanilla).unwrap();
    assert_eq!(dir.defs.len(), 1);
    assert_eq!(texel_of(&dir, &stack, "C"), 1);
}

#[test]
fn loose_pictures_replace_walls_and_flats_and_texture_definitions_replace_them() {
    let pal = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]];
    let red =
        crate::formats::doom::archive::writer::png_lump(2, 2, &[255, 0, 0, 255].repeat(4), None)
            .unwrap();
    let green =
        crate::formats::doom::archive::writer::png_lump(2, 2, &[0, 255, 0, 255].repeat(4), None)
            .unwrap();
    // C names itself: it is the picture C it replaces, moved.
    let text = b"WallTexture A, 8, 8 { Patch P2, 0, 0 } Texture B, 8, 8 { Patch P2, 0, 0 }
                 Texture C, 4, 4 { Patch C, 1, 1 }";
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("x.wad", |w| {
            w.lump("TEXTURES", text.to_vec())
                .marker("TX_START")
                .lump("A", red.clone())
                .lump("B", green.clone())
                .lump("C", red.clone())
                .lump("FB", green.clone())
                .marker("TX_END");
        }),
    ]);
    // Pictures between TX_START and TX_END are not patches of that name.
    assert!(stack.lump("A").is_none());
    let dir = TextureDirectory::load(&stack).unwrap();
    let mut cache = PatchCache::new(&pal);
    let mut notes = Vec::new();
    let a = dir.compose(0, &stack, &mut cache, &mut notes);
    assert_eq!((a.width, indexed(&a)), (2, &[1u8, 1, 1, 1][..]), "the picture beats WallTexture");
    let b = dir.compose(1, &stack, &mut cache, &mut notes);
    assert_eq!((b.width, indexed(&b)[0]), (8, 2), "Texture beats the picture");
    let fb = dir.compose_flat(dir.flat_def("FB").unwrap(), &stack, &mut cache, &mut notes).fitted;
    assert_eq!(indexed(&fb)[0], 2);
    notes.clear();
    let c = dir.compose(dir.number("C").unwrap(), &stack, &mut cache, &mut notes);
    assert_eq!((c.width, indexed(&c)[5], indexed(&c)[0]), (4, 1, 0), "the picture, moved");
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn textures_as_patches_placement_and_missing_parts() {
    let text = b"Texture NEST, 8, 8 { Patch A, 0, 0 Patch P2, 0, 0 { UseOffsets } }\n\
                 Texture SELF, 8, 8 { Patch SELF, 0, 0 }\n\
                 Texture GAPS, 8, 8 { Patch P1, 0, 0 Patch NOSUCH, 0, 0 }\n\
                 Texture optional QUIET, 8, 8 { Patch NOSUCH, 0, 0 }\n\
                 Texture NULL, 8, 8 { NullTexture }\n";
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("t.wad", |w| {
            w.lump("TEXTURES", text.to_vec());
        }),
    ]);
    let dir = TextureDirectory::load(&stack).unwrap();
    let mut cache = PatchCache::default();
    let mut notes = Vec::new();
    let nest = dir.compose(dir.number("NEST").unwrap(), &stack, &mut cache, &mut notes);
    // P2 (left 2, top 3) drawn at (-2, -3): its bottom-right texel lands on (1, 0).
    let px = indexed(&nest);
    assert_eq!((px[0], px[1], px[2], px[8]), (2, 2, 1, 1));
    let own = dir.compose(dir.number("SELF").unwrap(), &stack, &mut cache, &mut notes);
    assert!(notes.iter().any(|n| n.contains("SELF")), "{notes:?}");
    assert_eq!(own.width, 8);
    notes.clear();
    dir.compose(dir.number("GAPS").unwrap(), &stack, &mut cache, &mut notes);
    dir.compose(dir.number("QUIET").unwrap(), &stack, &mut cache, &mut notes);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("GAPS: unknown patch NOSUCH left out"));
    assert!(!dir.draws(dir.number("NULL").unwrap()) && dir.draws(1) && !dir.draws(0));
}

#[test]
fn malformed_textures_lumps_and_includes_are_errors() {
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("t.wad", |w| {
            w.lump("TEXTURES", b"WallTexture X, 8, 8 { Patch P1 0, 0 }".to_vec());
        }),
    ]);
    let e = TextureDirectory::load(&stack).unwrap_err();
    assert_eq!((e.file.as_str(), e.structure.as_str()), ("t.wad", "TEXTURES"));
    assert_eq!(e.offset, 12 + 31, "the file offset of the 0 where a comma belongs");
    let stack = WadStack::new(vec![
        base_wad(),
        pwad("i.wad", |w| {
            w.lump("TEXTURES", b"#include \"MORE\"".to_vec())
                .lump("MORE", b"#include \"TEXTURES\"".to_vec());
        }),
    ]);
    let e = TextureDirectory::load(&stack).unwrap_err();
    assert!(e.message.contains("levels deep"), "{e}");
}

#[test]
fn huge_counts_are_errors() {
    let mut pn = (0x4000_0000i32).to_le_bytes().to_vec();
    pn.extend(writer::name8("A"));
    let mut w = WadWriter::pwad();
    w.lump("PNAMES", pn);
    let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
    let e = TextureDirectory::load(&stack).unwrap_err();
    assert_eq!(e.structure, "PNAMES");
    assert_eq!(e.file, "w.wad");
    assert_eq!(e.offset, 16);

    let mut w = WadWriter::pwad();
    w.lump("PNAMES", writer::pnames_lump(&[]))
        .lump("TEXTURE1", (0x7fff_0000i32).to_le_bytes().to_vec());
    let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
    let e = TextureDirectory::load(&stack).unwrap_err();
    assert_eq!(e.structure, "TEXTURE1");

    // A bad entry offset only breaks that entry.
    let mut t1 = 1i32.to_le_bytes().to_vec();
    t1.extend(9999i32.to_le_bytes());
    let mut w = WadWriter::pwad();
    w.lump("PNAMES", writer::pnames_lump(&[])).lump("TEXTURE1", t1);
    let stack = WadStack::new(vec![Wad::from_bytes("w.wad", w.to_bytes()).unwrap()]);
    let dir = TextureDirectory::load(&stack).unwrap();
    assert!(dir.defs[0].broken.is_some());
    assert_eq!(dir.notes.len(), 1);
}
