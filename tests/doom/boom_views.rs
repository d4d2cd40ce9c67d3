//! Boom's view specials in a small vanilla-format room over Freedoom, rendered in faithful mode
//! (the CPU walk's canvas), faithful mode off vanilla's projection (GPU) and smooth mode:
//! 242 shows the control sector's heights, flats, light and colormap for the viewer's region;
//! 260 blends a middle texture through a translucency table; 271/272 give the room's sky
//! the texture and offsets of a line's sidedef. Each test compares against a room built
//! plainly to look the same, and against the room without the special.

use crate::support;

use image::RgbaImage;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::map::{line_flags, Linedef, MapData, Sector, Sidedef, Vertex};
use mapscope::formats::doom::specials::boom_views::default_tranmap;
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::scene::{CameraPose, Scene};
use support::doom_test_room::{
    add_checker_and_solid_walls, check_gpu_blend, middle_pixels, player_start,
    room_and_control_vertices, scene_over_freedoom2, shared_gpu, A, B, R, THREE_WAYS,
};

/// A sector's look.
#[derive(Clone, Debug)]
struct Look {
    floor: i16,
    ceiling: i16,
    floor_flat: &'static str,
    ceiling_flat: &'static str,
    light: i16,
}

const ROOM: Look =
    Look { floor: 0, ceiling: 128, floor_flat: "STRIPES", ceiling_flat: "STRIPES", light: 160 };

/// What a test puts in the room.
#[derive(Clone, Debug)]
struct Setup {
    map: &'static str,
    room: Look,
    room_tag: u16,
    /// A two-sided line across the room at y = 128 (its special, tag, front middle texture).
    split: Option<(u16, u16, &'static str)>,
    /// The north wall's texture.
    north: &'static str,
    /// The control room far away, and its first line's special, tag and sidedef (upper,
    /// middle, lower, x offset, y offset).
    control: Look,
    control_line: (u16, u16, [&'static str; 3], i16, i16),
    /// Lumps added to the PWAD: (name, data), and colormaps between C_START and C_END.
    lumps: Vec<(&'static str, Vec<u8>)>,
    colormaps: Vec<(&'static str, Vec<u8>)>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            map: "MAP01",
            room: ROOM,
            room_tag: 1,
            split: None,
            north: "CHECKW",
            control: ROOM,
            control_line: (0, 0, ["-", "-", "-"], 0, 0),
            lumps: Vec::new(),
            colormaps: Vec::new(),
        }
    }
}

/// A room 256 x 256 (one sector, or two split at y = 128 by a two-sided line) with 8-texel
/// checker walls, the player at (128, 32) facing north; a closed 64 x 64 control room far
/// away.
fn map(s: &Setup) -> MapData {
    let mut vertices = room_and_control_vertices();
    let mut sidedefs = Vec::new();
    let mut linedefs = Vec::new();
    let mut line = |v1: u32, v2: u32, sector: u32, texture: &str, special: (u16, u16)| {
        sidedefs.push(Sidedef {
            x_offset: 0,
            y_offset: 0,
            upper: "-".into(),
            lower: "-".into(),
            middle: texture.into(),
            sector,
        });
        linedefs.push(Linedef {
            v1,
            v2,
            flags: line_flags::IMPASSABLE,
            special: special.0,
            tag: special.1,
            sides: [Some(sidedefs.len() as u32 - 1), None],
            ..Default::default()
        });
    };
    // Clockwise, so each line's front (right) side faces into its room.
    let north_sector = if s.split.is_some() { 1 } else { 0 };
    if s.split.is_some() {
        vertices.extend([Vertex::units(0, 128), Vertex::units(256, 128)]);
        line(0, 8, 0, "CHECKW", (0, 0));
        line(8, 3, 1, "CHECKW", (0, 0));
        line(2, 9, 1, "CHECKW", (0, 0));
        line(9, 1, 0, "CHECKW", (0, 0));
    } else {
        line(0, 3, 0, "CHECKW", (0, 0));
        line(2, 1, 0, "CHECKW", (0, 0));
    }
    line(3, 2, north_sector, s.north, (0, 0));
    line(1, 0, 0, "CHECKW", (0, 0));
    let control = if s.split.is_some() { 2 } else { 1 };
    let (special, tag, [upper, middle, lower], x, y) = s.control_line;
    line(4, 7, control, "CHECKW", (special, tag));
    line(7, 6, control, "CHECKW", (0, 0));
    line(6, 5, control, "CHECKW", (0, 0));
    line(5, 4, control, "CHECKW", (0, 0));
    let first = sidedefs.len() - 4;
    sidedefs[first] = Sidedef {
        x_offset: x,
        y_offset: y,
        upper: upper.into(),
        lower: lower.into(),
        middle: middle.into(),
        sector: control,
    };
    if let Some((special, tag, middle)) = s.split {
        let front = |sector: u32, middle: &str| Sidedef {
            x_offset: 0,
            y_offset: 0,
            upper: "-".into(),
            lower: "-".into(),
            middle: middle.into(),
            sector,
        };
        sidedefs.push(front(0, middle));
        sidedefs.push(front(1, "-"));
        let n = sidedefs.len() as u32;
        linedefs.push(Linedef {
            v1: 8,
            v2: 9,
            flags: line_flags::TWO_SIDED,
            special,
            tag,
            sides: [Some(n - 2), Some(n - 1)],
            ..Default::default()
        });
    }
    let sector = |l: &Look, tag: u16| Sector {
        floor: l.floor,
        ceiling: l.ceiling,
        floor_flat: l.floor_flat.into(),
        ceiling_flat: l.ceiling_flat.into(),
        light: l.light,
        special: 0,
        tag,
    };
    let mut sectors = vec![sector(&s.room, s.room_tag)];
    if s.split.is_some() {
        sectors.push(sector(&s.room, s.room_tag));
    }
    sectors.push(sector(&s.control, 0));
    MapData {
        name: s.map.into(),
        file: "boom.wad".into(),
        vertices,
        linedefs,
        sidedefs,
        sectors,
        things: vec![player_start()],
        ..Default::default()
    }
}

/// The PWAD: the map (no nodes: mapscope builds them), the wall patches and their TEXTURES
/// entries (CHECKW: 8-texel checker of A and B; SOLIDW: all R), the flats (STRIPES: 32-texel
/// north-south stripes; HSTRIPE: east-west ones; CHECKF: a 16-texel checker) and the test's
/// lumps.
fn pwad(s: &Setup) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.map(s.map, &map(s));
    add_checker_and_solid_walls(&mut w);
    w.marker("FF_START");
    w.lump("STRIPES", (0..4096).map(|i| if i % 64 < 32 { A } else { B }).collect());
    w.lump("HSTRIPE", (0..4096).map(|i| if i / 64 < 32 { A } else { B }).collect());
    w.lump(
        "CHECKF",
        (0..4096).map(|i| if (i % 64 / 16 + i / 64 / 16) % 2 == 0 { A } else { R }).collect(),
    );
    w.marker("FF_END");
    if !s.colormaps.is_empty() {
        w.marker("C_START");
        for (name, data) in &s.colormaps {
            w.lump(name, data.clone());
        }
        w.marker("C_END");
    }
    for (name, data) in &s.lumps {
        w.lump(name, data.clone());
    }
    w.to_bytes()
}

fn gpu() -> &'static Gpu {
    shared_gpu()
}

fn scene(s: &Setup) -> Scene {
    scene_over_freedoom2("boom.wad", pwad(s), s.map)
}

/// The room at 320x200 in each of [`THREE_WAYS`] from `camera` (the player start when `None`),
/// things hidden.
fn renders_from(s: &Setup, camera: Option<CameraPose>) -> Vec<RgbaImage> {
    let mut scene = scene(s);
    let camera = camera.unwrap_or(scene.spawn);
    THREE_WAYS
        .iter()
        .map(|&(_, mode, fov_deg)| {
            let view = ViewSettings { mode, fov_deg, show_sprites: false, ..Default::default() };
            render_headless(gpu(), &mut scene, &camera, &view, 0).unwrap()
        })
        .collect()
}

fn renders(s: &Setup) -> Vec<RgbaImage> {
    renders_from(s, None)
}

/// The player start's eye (41 above the room's floor at 0).
fn eye() -> CameraPose {
    scene(&Setup::default()).spawn
}

/// Share of the pixels equal in both images (over the rows `rows`).
fn same_share(a: &RgbaImage, b: &RgbaImage, rows: std::ops::Range<u32>) -> f64 {
    let n = rows.len() as f64 * a.width() as f64;
    let same = rows
        .flat_map(|y| (0..a.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| a.get_pixel(x, y) == b.get_pixel(x, y))
        .count();
    same as f64 / n
}

/// Keeps `images` for looking at under `MAPSCOPE_TEST_RENDERS`.
fn save_on_failure(name: &str, images: &[RgbaImage]) {
    if let Some(dir) = support::renders_dir("boom_views") {
        for (i, img) in images.iter().enumerate() {
            let _ = img.save(dir.join(format!("{name}-{i}.png")));
        }
    }
}

// ---- 242 ---------------------------------------------------------------------------

/// A 242 room whose control sector has `control`'s look.
fn fake(control: Look, colormaps: [&'static str; 3]) -> Setup {
    let [lower, middle, upper] = colormaps;
    Setup { control, control_line: (242, 1, [upper, middle, lower], 0, 0), ..Default::default() }
}

/// The control sector: heights set by each test, its own flats and a bright light.
const CONTROL: Look =
    Look { floor: 0, ceiling: 128, floor_flat: "HSTRIPE", ceiling_flat: "CHECKF", light: 255 };

#[test]
fn fake_flats_from_between_show_the_control_heights_in_every_mode() {
    // The eye at 41 between the control floor (16) and ceiling (112): the room is drawn at
    // those heights with its own flats and light, exactly as a room built so.
    let setup = fake(Look { floor: 16, ceiling: 112, ..CONTROL }, ["-"; 3]);
    let built_so = Setup { room: Look { floor: 16, ceiling: 112, ..ROOM }, ..Default::default() };
    let plain = Setup { control_line: (0, 1, ["-"; 3], 0, 0), ..setup.clone() };
    let (fake, reference, without) = (
        renders_from(&setup, Some(eye())),
        renders_from(&built_so, Some(eye())),
        renders_from(&plain, Some(eye())),
    );
    save_on_failure("fake-between", &fake);
    for i in 0..THREE_WAYS.len() {
        let what = THREE_WAYS[i].0;
        assert_eq!(same_share(&fake[i], &reference[i], 0..200), 1.0, "{what}");
        assert!(same_share(&fake[i], &without[i], 0..200) < 0.9, "{what}: 242 changes nothing");
    }
    let notes = scene(&setup).facts.notes;
    assert!(notes.iter().any(|n| n.contains("1 Boom fake floor/ceiling line")), "{notes:?}");
}

#[test]
fn under_the_fake_floor_the_control_flats_and_light_show() {
    // The eye (41) under the control floor (64): Boom draws the room's real floor (0) and a
    // ceiling just under the control floor (1/65536 under it), both with the control's flats
    // and light: a room built so (walls pegged alike: their anchors differ by a whole checker
    // period).
    let setup = fake(Look { floor: 64, ceiling: 112, ..CONTROL }, ["-"; 3]);
    let built_so = Setup { room: Look { ceiling: 64, ..CONTROL }, ..Default::default() };
    let plain = Setup { control_line: (0, 1, ["-"; 3], 0, 0), ..setup.clone() };
    let (fake, reference, without) = (
        renders_from(&setup, Some(eye())),
        renders_from(&built_so, Some(eye())),
        renders_from(&plain, Some(eye())),
    );
    save_on_failure("fake-under", &fake);
    save_on_failure("fake-under-ref", &reference);
    assert_eq!(same_share(&fake[0], &reference[0], 0..200), 1.0);
    assert!(same_share(&fake[0], &without[0], 0..200) < 0.5);
}

#[test]
fn over_the_fake_ceiling_the_space_above_shows() {
    // The eye (41) over the control ceiling (32): the floor is drawn just over the control
    // ceiling (1/65536 over it) with the control's floor flat, the room's real ceiling (128)
    // with the control's ceiling flat, in the control's light.
    let setup = fake(Look { floor: 0, ceiling: 32, ..CONTROL }, ["-"; 3]);
    let built_so = Setup { room: Look { floor: 32, ..CONTROL }, ..Default::default() };
    let (fake, reference) =
        (renders_from(&setup, Some(eye())), renders_from(&built_so, Some(eye())));
    save_on_failure("fake-over", &fake);
    save_on_failure("fake-over-ref", &reference);
    assert_eq!(same_share(&fake[0], &reference[0], 0..200), 1.0);
}

/// A colormap whose every row maps every colour to `index`.
fn one_colour_map(index: u8) -> Vec<u8> {
    vec![index; 34 * 256]
}

#[test]
fn the_viewers_region_picks_the_colormap() {
    // The 242 line's lower texture names a colormap: under the fake floor the whole view
    // (walls, flats, sky) goes through it; between the planes COLORMAP is used.
    let blue = one_colour_map(B);
    let with_map = |floor| Setup {
        colormaps: vec![("BLUEMAP", blue.clone())],
        ..fake(Look { floor, ceiling: 112, ..CONTROL }, ["BLUEMAP", "-", "-"])
    };
    let under = renders_from(&with_map(64), Some(eye()));
    let expected = under[0].get_pixel(0, 0);
    let [_, g, b, _] = expected.0;
    assert!(b > g, "{expected:?} is the colormap's colour");
    assert!(under[0].pixels().all(|p| p == expected), "every pixel through BLUEMAP");
    let between = renders_from(&with_map(16), Some(eye()));
    let without = renders_from(&fake(Look { floor: 16, ceiling: 112, ..CONTROL }, ["-"; 3]), None);
    assert_eq!(same_share(&between[0], &without[0], 0..200), 1.0);
    // The colormap's name is no texture: no placeholder, no note.
    let notes = scene(&with_map(64)).facts.notes;
    assert!(!notes.iter().any(|n| n.contains("BLUEMAP")), "{notes:?}");
}

// ---- 260 ---------------------------------------------------------------------------

/// The room split at y = 128 by a line with the checker as its middle texture (special and
/// tag `line`), the north wall plain red behind it.
fn glass(line: (u16, u16), lumps: Vec<(&'static str, Vec<u8>)>) -> Setup {
    Setup { split: Some((line.0, line.1, "CHECKW")), north: "SOLIDW", lumps, ..Default::default() }
}

/// A translucency table whose result is always the destination (`dest`) or the source.
fn table(dest: bool) -> Vec<u8> {
    (0..65536).map(|i: usize| if dest { (i >> 8) as u8 } else { i as u8 }).collect()
}

#[test]
fn translucent_middles_blend_through_the_table_in_its_order() {
    let opaque = renders(&glass((0, 0), Vec::new()));
    let behind =
        renders(&Setup { split: Some((0, 0, "-")), north: "SOLIDW", ..Default::default() });
    // TRANMAP giving the destination: the canvas shows what is behind; the source: the
    // texture. (Boom's R_DrawTLColumn reads `tranmap[dest << 8 | src]`.)
    let to_dest = renders(&glass((260, 0), vec![("TRANMAP", table(true))]));
    let to_src = renders(&glass((260, 0), vec![("TRANMAP", table(false))]));
    save_on_failure("glass-dest", &to_dest);
    assert_eq!(same_share(&to_dest[0], &behind[0], 0..200), 1.0);
    assert_eq!(same_share(&to_src[0], &opaque[0], 0..200), 1.0);
    // Off vanilla's projection and in smooth mode, 2/3 of the texture over 1/3 of the wall.
    check_gpu_blend(&to_dest, &opaque, &behind, 2.0, |s, d| (2.0 * s + d) / 3.0);
    let notes = scene(&glass((260, 0), Vec::new())).facts.notes;
    assert!(notes.iter().any(|n| n.contains("1 Boom translucent middle line")), "{notes:?}");
}

#[test]
fn boom_default_table_blends_when_the_wad_has_none() {
    // Freedoom has no TRANMAP: Boom's 66% table from the palette. Each middle pixel is the
    // table's result for the colours behind and of the texture (any palette index of each).
    let opaque = renders(&glass((0, 0), Vec::new()));
    let behind =
        renders(&Setup { split: Some((0, 0, "-")), north: "SOLIDW", ..Default::default() });
    let blended = renders(&glass((260, 0), Vec::new()));
    let palette = scene(&glass((260, 0), Vec::new())).palette;
    let table = default_tranmap(&palette);
    let indices = |c: &image::Rgba<u8>| -> Vec<usize> {
        (0..256).filter(|&i| palette[i] == [c.0[0], c.0[1], c.0[2]]).collect()
    };
    let pixels = middle_pixels(&opaque[0], &behind[0]);
    let mut changed = 0;
    for &(x, y) in &pixels {
        let got = blended[0].get_pixel(x, y);
        let (ds, ss) = (indices(behind[0].get_pixel(x, y)), indices(opaque[0].get_pixel(x, y)));
        let fits = ds
            .iter()
            .any(|&d| ss.iter().any(|&s| indices(got).contains(&(table[d << 8 | s] as usize))));
        assert!(fits, "({x}, {y}): {got:?}");
        changed += (got != opaque[0].get_pixel(x, y)) as usize;
    }
    assert!(changed * 3 > pixels.len(), "{changed} of {} pixels blended", pixels.len());
}

#[test]
fn a_tagged_260_line_names_the_table_for_every_line_with_its_tag() {
    // The control room's 260 line (tag 5) names GLASSMAP (always the destination) in its
    // middle texture; the room's split line has tag 5 and no special.
    let setup = Setup {
        control_line: (260, 5, ["-", "GLASSMAP", "-"], 0, 0),
        lumps: vec![("GLASSMAP", table(true))],
        ..glass((0, 5), Vec::new())
    };
    let behind =
        renders(&Setup { split: Some((0, 0, "-")), north: "SOLIDW", ..Default::default() });
    let tagged = renders(&setup);
    assert_eq!(same_share(&tagged[0], &behind[0], 0..200), 1.0);
    let notes = scene(&setup).facts.notes;
    assert!(!notes.iter().any(|n| n.contains("GLASSMAP")), "{notes:?}");
}

// ---- 271, 272 ------------------------------------------------------------------------

/// The room under the sky (F_SKY1 ceiling), with a sky transfer line (special, texture, x
/// and y offsets) tagged to it.
fn sky(map: &'static str, line: Option<(u16, &'static str, i16, i16)>) -> Setup {
    let room = Look { ceiling_flat: "F_SKY1", ..ROOM };
    let control_line = match line {
        Some((special, texture, x, y)) => (special, 1, [texture, "-", "-"], x, y),
        None => (0, 0, ["-"; 3], 0, 0),
    };
    Setup { map, room, control_line, ..Default::default() }
}

/// Rows whose middle shows only sky in every view (the side walls cut the corners).
const SKY_ROWS: std::ops::Range<u32> = 0..30;

/// The pixels that show only sky in every view, of rows `rows`.
fn sky_pixels(rows: std::ops::Range<u32>) -> impl Iterator<Item = (u32, u32)> + Clone {
    rows.flat_map(|y| (110..210u32).map(move |x| (x, y)))
}

#[test]
fn a_272_line_gives_its_sectors_its_texture_as_sky() {
    // SKY3 through 272 with row offset 128 (texturemid 100, vanilla's) on MAP01 is MAP21's
    // own sky; without the line MAP01 shows SKY1.
    let transferred = renders(&sky("MAP01", Some((272, "SKY3", 0, 128))));
    let map21 = renders(&sky("MAP21", None));
    let own = renders(&sky("MAP01", None));
    save_on_failure("sky272", &transferred);
    for i in 0..THREE_WAYS.len() {
        let what = THREE_WAYS[i].0;
        assert_eq!(same_share(&transferred[i], &map21[i], SKY_ROWS), 1.0, "{what}");
        assert!(same_share(&transferred[i], &own[i], SKY_ROWS) < 0.5, "{what}: still SKY1");
    }
    let notes = scene(&sky("MAP01", Some((272, "SKY3", 0, 128)))).facts.notes;
    assert!(notes.iter().any(|n| n.contains("1 MBF sky transfer line")), "{notes:?}");
}

#[test]
fn sky_offsets_move_the_rows_and_columns() {
    // A row offset of 16 more shows row y + 16 at screen row y; an x offset of 64 units
    // (2^22 of a turn) one texture column more.
    let base = renders(&sky("MAP01", Some((272, "SKY3", 0, 128))));
    let down = renders(&sky("MAP01", Some((272, "SKY3", 0, 144))));
    let turned = renders(&sky("MAP01", Some((272, "SKY3", 64, 128))));
    save_on_failure("sky-base", &base);
    save_on_failure("sky-down", &down);
    for i in 0..THREE_WAYS.len() {
        let what = THREE_WAYS[i].0;
        assert!(same_share(&turned[i], &base[i], SKY_ROWS) < 0.9, "{what}: x offset ignored");
        assert!(same_share(&down[i], &base[i], SKY_ROWS) < 0.9, "{what}: y offset ignored");
        // At 90 degrees a sky texel row is a screen row.
        if THREE_WAYS[i].2 != 90.0 {
            continue;
        }
        let rows = sky_pixels(0..16);
        let n = rows.clone().count() as f64;
        let moved =
            rows.filter(|&(x, y)| down[i].get_pixel(x, y) == base[i].get_pixel(x, y + 16)).count();
        assert!(moved as f64 / n > 0.97, "{what}: rows {moved} of {n}");
    }
}

#[test]
fn a_271_line_reads_the_sky_the_other_way() {
    // 271 inverts the column angle: facing north it shows what 272 shows facing south,
    // mirrored (from (128, 224), as far from the south wall as the start is from the north).
    let flipped = renders(&sky("MAP01", Some((271, "SKY3", 0, 128))));
    let south = {
        let mut camera = eye();
        camera.yaw += std::f64::consts::PI;
        camera.pos.z = -224.0;
        renders_from(&sky("MAP01", Some((272, "SKY3", 0, 128))), Some(camera))
    };
    save_on_failure("sky-271", &flipped);
    save_on_failure("sky-south", &south);
    for i in 0..THREE_WAYS.len() {
        let what = THREE_WAYS[i].0;
        let pixels = sky_pixels(SKY_ROWS);
        let n = pixels.clone().count() as f64;
        // Mirrored about the screen's centre line, which lies on a column or between two.
        let mirrored = |centre: u32| {
            let pixels = pixels.clone();
            pixels
                .filter(|&(x, y)| flipped[i].get_pixel(x, y) == south[i].get_pixel(centre - x, y))
                .count()
        };
        let (a, b) = (mirrored(319), mirrored(320));
        assert!(a.max(b) as f64 / n > 0.9, "{what}: {a} or {b} of {n} mirrored");
    }
}
