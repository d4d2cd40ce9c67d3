//! ZDoom's line alpha and render styles in a small room over Freedoom, split at y = 128 by a
//! two-sided line whose middle texture is the 8-texel checker, a plain red wall behind it:
//! UDMF `alpha` / `renderstyle` and Hexen's `TranslucentLine` (208) blend the middle over the
//! wall by alpha in smooth mode and in faithful frames the GPU draws, and through ZDoom-style
//! tables matched to the palette on vanilla's canvas; alpha 0 hides it; one-sided walls stay
//! opaque.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{MapData, MapFormat, Sector, Vertex};
use mapscope::formats::doom::specials::line_styles::{blend_table, InversePalette, LineStyle};
use mapscope::render::{SceneRenderer, ViewSettings};
use mapscope::scene::{doom::shade, vertex_flags, Scene, Shading};
use support::doom_test_room::{
    add_checker_and_solid_walls, add_line, check_gpu_blend, hexen_player_start, middle_pixels,
    renders_three_ways, scene_over_freedoom2, shared_gpu,
};

/// The split line's middle texture, and how the map is written.
#[derive(Clone, Copy)]
enum Glass<'a> {
    /// UDMF (namespace zdoom) with these keys on the split line.
    Udmf(&'a str),
    /// Hexen format: the split line's special and args, and the south wall's.
    Hexen { split: (u16, [i32; 5]), south: (u16, [i32; 5]) },
    /// No middle texture on the split line.
    Open,
}

/// Vertices: the room's corners (0-3, counter-clockwise from the origin) and the split's ends.
fn vertices() -> Vec<Vertex> {
    [(0, 0), (256, 0), (256, 256), (0, 256), (0, 128), (256, 128)]
        .iter()
        .map(|&(x, y)| Vertex::units(x, y))
        .collect()
}

/// Lines clockwise in each half (fronts face in): (v1, v2, front sector, back, texture).
const LINES: [(u32, u32, u32, Option<u32>, &str); 7] = [
    (0, 4, 0, None, "CHECKW"),
    (4, 3, 1, None, "CHECKW"),
    (3, 2, 1, None, "SOLIDW"),
    (2, 5, 1, None, "CHECKW"),
    (5, 1, 0, None, "CHECKW"),
    (1, 0, 0, None, "CHECKW"),
    (4, 5, 0, Some(1), "CHECKW"),
];
const SPLIT: usize = 6;
const SOUTH: usize = 5;

fn hexen_map(glass: Glass) -> MapData {
    let (split, south) = match glass {
        Glass::Hexen { split, south } => (split, south),
        _ => ((0, [0; 5]), (0, [0; 5])),
    };
    let mut map = MapData {
        name: "MAP01".into(),
        format: MapFormat::Hexen,
        things: vec![hexen_player_start()],
        vertices: vertices(),
        ..Default::default()
    };
    for (i, &(v1, v2, front, back, texture)) in LINES.iter().enumerate() {
        let special = match i {
            SPLIT => split,
            SOUTH => south,
            _ => (0, [0; 5]),
        };
        add_line(&mut map, (v1, v2), (front, texture), back.map(|b| (b, "-")), special);
    }
    let sector = || Sector {
        floor: 0,
        ceiling: 128,
        floor_flat: "FLOOR0_1".into(),
        ceiling_flat: "CEIL1_1".into(),
        light: 255,
        ..Default::default()
    };
    MapData { sectors: vec![sector(), sector()], ..map }
}

fn textmap(split_keys: &str, middle: &str) -> String {
    let mut t = String::from("namespace = \"zdoom\";\n");
    for v in vertices() {
        t += &format!("vertex {{ x = {}.0; y = {}.0; }}\n", v.x >> 16, v.y >> 16);
    }
    let mut sides = String::new();
    let mut n = 0;
    for (i, &(v1, v2, front, back, texture)) in LINES.iter().enumerate() {
        let texture = if i == SPLIT { middle } else { texture };
        sides += &format!("sidedef {{ sector = {front}; texturemiddle = \"{texture}\"; }}\n");
        t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {n}; ");
        n += 1;
        if let Some(b) = back {
            sides += &format!("sidedef {{ sector = {b}; }}\n");
            t += &format!("sideback = {n}; twosided = true; {split_keys} ");
            n += 1;
        } else {
            t += "blocking = true; ";
        }
        t += "}\n";
    }
    t += &sides;
    for _ in 0..2 {
        t += "sector { heightfloor = 0; heightceiling = 128; texturefloor = \"FLOOR0_1\"; \
              textureceiling = \"CEIL1_1\"; lightlevel = 255; }\n";
    }
    t += "thing { x = 128.0; y = 32.0; angle = 90; type = 1; skill1 = true; skill2 = true; \
          skill3 = true; skill4 = true; skill5 = true; single = true; }\n";
    t
}

fn pwad(glass: Glass) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    match glass {
        Glass::Udmf(keys) => {
            w.lump("MAP01", Vec::new());
            w.lump("TEXTMAP", textmap(keys, "CHECKW").into_bytes());
            w.lump("ENDMAP", Vec::new());
        }
        Glass::Open => {
            w.lump("MAP01", Vec::new());
            w.lump("TEXTMAP", textmap("", "-").into_bytes());
            w.lump("ENDMAP", Vec::new());
        }
        Glass::Hexen { .. } => {
            w.map("MAP01", &hexen_map(glass));
        }
    }
    add_checker_and_solid_walls(&mut w);
    w.to_bytes()
}

fn scene(glass: Glass) -> Scene {
    scene_over_freedoom2("alpha.wad", pwad(glass), "MAP01")
}

fn renders(glass: Glass, name: &str) -> Vec<RgbaImage> {
    renders_three_ways(&mut scene(glass), "line_alpha", name)
}

/// On vanilla's canvas every middle pixel is the palette colour `table[dest << 8 | src]` for
/// the colours behind and of the texture (any palette index of each), and most differ from
/// the opaque texture.
fn check_canvas_table(got: &RgbaImage, opaque: &RgbaImage, behind: &RgbaImage, style: LineStyle) {
    let palette = scene(Glass::Open).palette;
    let table = blend_table(&palette, &InversePalette::new(&palette), style);
    let indices = |c: &image::Rgba<u8>| -> Vec<usize> {
        (0..256).filter(|&i| palette[i] == [c.0[0], c.0[1], c.0[2]]).collect()
    };
    let pixels = middle_pixels(opaque, behind);
    assert!(pixels.len() > 5000, "{} middle pixels", pixels.len());
    let mut changed = 0;
    for &(x, y) in &pixels {
        let g = got.get_pixel(x, y);
        let (ds, ss) = (indices(behind.get_pixel(x, y)), indices(opaque.get_pixel(x, y)));
        let fits = ds
            .iter()
            .any(|&d| ss.iter().any(|&s| indices(g).contains(&(table[d << 8 | s] as usize))));
        assert!(fits, "({x}, {y}): {g:?}");
        changed += (g != opaque.get_pixel(x, y)) as usize;
    }
    assert!(changed * 2 > pixels.len(), "{changed} of {} pixels blended", pixels.len());
}

#[test]
fn udmf_alpha_blends_the_middle_over_what_is_behind() {
    let opaque = renders(Glass::Udmf(""), "opaque");
    let behind = renders(Glass::Open, "behind");
    let half = renders(Glass::Udmf("alpha = 0.5;"), "half");
    let a = 128.0 / 255.0;
    check_gpu_blend(&half, &opaque, &behind, 2.5, |s, d| a * s + (1.0 - a) * d);
    check_canvas_table(&half[0], &opaque[0], &behind[0], LineStyle { alpha: 128, additive: false });
    // Alpha 1 is the opaque line, pixel for pixel.
    let one = renders(Glass::Udmf("alpha = 1.0; renderstyle = \"translucent\";"), "one");
    assert_eq!(one, opaque);
    // Alpha 0 draws no middle at all.
    let none = renders(Glass::Udmf("alpha = 0.0;"), "none");
    assert_eq!(none, behind);
}

#[test]
fn additive_render_style_adds_the_middle() {
    let opaque = renders(Glass::Udmf(""), "opaque");
    let behind = renders(Glass::Open, "behind");
    let add = renders(Glass::Udmf("alpha = 0.5; renderstyle = \"add\";"), "add");
    let a = 128.0 / 255.0;
    check_gpu_blend(&add, &opaque, &behind, 2.5, |s, d| d + a * s);
    check_canvas_table(&add[0], &opaque[0], &behind[0], LineStyle { alpha: 128, additive: true });
}

#[test]
fn hexen_translucent_line_reaches_the_lines_with_its_id() {
    // The south wall (one-sided, behind the viewer) carries TranslucentLine(9, 128, 1); the
    // split line gets id 9 from Line_SetIdentification (121): the same look as UDMF's
    // alpha 0.5 with renderstyle "add".
    let hexen = Glass::Hexen { split: (121, [9, 0, 0, 0, 0]), south: (208, [9, 128, 1, 0, 0]) };
    let udmf = renders(Glass::Udmf("alpha = 0.5; renderstyle = \"add\";"), "udmf-add");
    let got = renders(hexen, "hexen-add");
    assert_eq!(got, udmf);
    // An id the split line does not have leaves it opaque.
    let other = Glass::Hexen { split: (121, [8, 0, 0, 0, 0]), south: (208, [9, 128, 1, 0, 0]) };
    assert_eq!(renders(other, "hexen-other"), renders(Glass::Udmf(""), "opaque"));
}

#[test]
fn scene_marks_the_translucent_middle_and_says_how_it_is_drawn() {
    let hexen = Glass::Hexen { split: (121, [9, 0, 0, 0, 0]), south: (208, [9, 64, 0, 0, 0]) };
    let s = scene(hexen);
    let translucent: Vec<_> =
        s.world.iter().filter(|v| v.flags & vertex_flags::TRANSLUCENT != 0).collect();
    assert_eq!(translucent.len(), 6, "one quad: the split line's middle");
    assert!(translucent.iter().all(|v| v.shade == shade::line_style(64, false)));
    let Shading::DoomColormap { segs, map: Some(vmap), .. } = &s.shading else {
        panic!("Doom shading")
    };
    let tables: Vec<u32> = segs.iter().filter_map(|seg| seg.translucent).collect();
    assert!(!tables.is_empty() && tables.iter().all(|&t| vmap.tranmaps[t as usize].len() == 65536));
    let notes = &s.facts.notes;
    let has = |text: &str| notes.iter().any(|n| n.contains(text));
    assert!(has("1 translucent and 0 additive middle textures"), "{notes:?}");
    assert!(has("1 one-sided lines have an alpha"), "{notes:?}");
    assert!(has("1 TranslucentLine (208) lines read"), "{notes:?}");
    // UDMF keys read are no longer listed as kept but not drawn.
    let s = scene(Glass::Udmf("alpha = 0.5; renderstyle = \"add\";"));
    assert!(!s.facts.notes.iter().any(|n| n.contains("alpha (")), "{:?}", s.facts.notes);
}

/// Vanilla's canvas draws the translucent middle itself (through the tables), so its frame
/// asks nothing of the GPU: no pass runs over the canvas, whose upload and read-back would
/// cost more than the frame (a map with translucent lines drew 3.5 times slower for it).
#[test]
fn a_translucent_middle_on_vanillas_canvas_needs_no_gpu_pass() {
    let mut s = scene(Glass::Udmf("alpha = 0.5;"));
    let gpu = shared_gpu();
    let mut renderer = SceneRenderer::new(gpu, &s).expect("upload");
    let state = s.animator.initial();
    renderer.set_state(&state);
    let view = ViewSettings { show_sprites: false, ..Default::default() };
    renderer.render(gpu, &s.spawn, &view);
    assert!(renderer.used_family_canvas(), "the frame is vanilla's canvas's");
    assert_eq!(renderer.draw_calls(), 0, "GPU draws over the canvas");
    // The middle is blended all the same (the canvas's own frame, as renders() checks).
    let opaque = renders(Glass::Udmf(""), "opaque-canvas");
    let half = renders_three_ways(&mut s, "", "half-canvas");
    assert_ne!(half[0], opaque[0]);
}
