//! Saturn Quake levels built by the crate's writer, for what the shared fixtures do not cover:
//! crack welding of low-precision tile vectors (measured in a render), coplanar overlap,
//! animated sky planes, Gouraud quantisation, both tile layouts, entities and the spawn, and
//! the benches' large level of closed rooms.

use crate::support;

use std::sync::OnceLock;

use glam::DVec3;
use mapscope::formats::saturn::build::TICS_PER_SKY_FRAME;
use mapscope::formats::saturn::colour::expand5;
use mapscope::formats::saturn::geometry::build_geometry;
use mapscope::formats::saturn::tiles::TileLayout;
use mapscope::formats::saturn::writer::{word, LevBuilder, QuadSpec, TileSetSpec};
use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{render_headless, Gpu, RenderMode, ViewSettings};
use mapscope::scene::{CameraPose, Scene};

fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)")
    })
}

/// A 16-colour palette: entry 0 unused (transparent), then the given colours (5-bit rgb).
fn palette(colours: &[(u8, u8, u8)]) -> [u16; 16] {
    let mut p = [0u16; 16];
    for (k, &(r, g, b)) in colours.iter().enumerate().take(15) {
        p[k + 1] = word(r, g, b);
    }
    p
}

fn solid(b: &mut LevBuilder, rgb: (u8, u8, u8)) -> u8 {
    b.texture(palette(&[rgb]), vec![1; 64 * 64])
}

fn parse(data: &[u8]) -> LevFile {
    LevFile::parse("built.lev", data).unwrap_or_else(|e| panic!("{e}"))
}

/// A headless view: camera and target in native units, square size, horizontal fov.
struct Shot {
    camera: [f64; 3],
    look_at: [f64; 3],
    size: u32,
    fov: f64,
    mode: RenderMode,
    tic: u32,
}

fn shot(camera: [f64; 3], look_at: [f64; 3], size: u32, fov: f64) -> Shot {
    Shot { camera, look_at, size, fov, mode: RenderMode::Faithful, tic: 0 }
}

/// Renders `shot`; saves the image under target/saturn-probes/ for eyeballing.
fn render(scene: &mut Scene, shot: &Shot, name: &str) -> image::RgbaImage {
    let cam = scene.axes.to_viewer_f64(DVec3::from(shot.camera));
    let target = scene.axes.to_viewer_f64(DVec3::from(shot.look_at));
    let view = ViewSettings {
        width: shot.size,
        height: shot.size,
        fov_deg: shot.fov,
        mode: shot.mode,
        ..Default::default()
    };
    let img = render_headless(gpu(), scene, &CameraPose::looking_at(cam, target), &view, shot.tic)
        .expect("render");
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/saturn-probes");
    let _ = std::fs::create_dir_all(&dir);
    let _ = img.save(dir.join(format!("{name}.png")));
    img
}

fn quad(x0: i16, z0: i16, x1: i16, z1: i16, y: i16, texture: u8) -> QuadSpec {
    QuadSpec {
        corners: [[x0, y, z0], [x1, y, z0], [x1, y, z1], [x0, y, z1]],
        lights: [17; 4],
        texture,
    }
}

const UP: [f64; 3] = [0.0, 1.0, 0.0];

/// A 256x256 floor tiled 4x4 with the given tile step, ringed by four quad planes that share
/// its edges. The tile origin is 0.75 units off the corner in the plane and 0.6 off the plane.
fn tiled_floor(step: f64) -> Vec<u8> {
    let mut b = LevBuilder::default();
    let white = solid(&mut b, (31, 31, 31));
    let green = solid(&mut b, (4, 28, 4));
    let tiles = TileSetSpec {
        base: [0.75, 0.6, 0.5],
        horz: [step, 0.0, 0.0],
        vert: [0.0, 0.0, step + 0.1],
        width: 4,
        height: 4,
        cells: vec![(0, white); 16],
        lights: vec![17; 25],
    };
    let sq =
        |x0: i16, z0: i16, x1: i16, z1: i16| [[x0, 0, z0], [x1, 0, z0], [x1, 0, z1], [x0, 0, z1]];
    b.plane(sq(0, 0, 256, 256), UP, &[], Some(&tiles));
    for (x0, z0, x1, z1) in
        [(256, -256, 512, 512), (-256, -256, 0, 512), (0, 256, 256, 512), (0, -256, 256, 0)]
    {
        b.plane(sq(x0, z0, x1, z1), UP, &[quad(x0, z0, x1, z1, 0, green)], None);
    }
    b.finish()
}

fn background_pixels(img: &image::RgbaImage) -> usize {
    img.pixels().filter(|p| p.0[..3] == [0, 0, 0]).count()
}

#[test]
fn tiles_are_welded_to_plane_edges_so_no_background_shows_through() {
    let lev = parse(&tiled_floor(63.5));
    let g = build_geometry(&lev);
    assert!(g.welded_points >= 9, "welded {}", g.welded_points);
    let mut scene = build_scene(&lev, "CRACKS");
    let img = render(
        &mut scene,
        &shot([128.0, 200.0, 128.0], [128.0, 0.0, 128.5], 256, 90.0),
        "welded_floor",
    );
    assert_eq!(background_pixels(&img), 0, "cracks between tiles and plane edges");

    // The same measurement sees a gap wider than the weld distance (8 units at the far edges).
    let lev = parse(&tiled_floor(62.0));
    let mut scene = build_scene(&lev, "GAPS");
    let img = render(
        &mut scene,
        &shot([128.0, 200.0, 128.0], [128.0, 0.0, 128.5], 256, 90.0),
        "gapped_floor",
    );
    assert!(background_pixels(&img) > 500, "a real gap must show: {}", background_pixels(&img));
}

#[test]
fn overlapping_coplanar_quads_do_not_depth_fight() {
    let mut b = LevBuilder::default();
    let red = solid(&mut b, (31, 0, 0));
    let blue = solid(&mut b, (0, 0, 31));
    let sq = |x0: i16, x1: i16| [[x0, 0, x0], [x1, 0, x0], [x1, 0, x1], [x0, 0, x1]];
    b.plane(sq(0, 128), UP, &[quad(0, 0, 128, 128, 0, red)], None);
    b.plane(sq(64, 192), UP, &[quad(64, 64, 192, 192, 0, blue)], None);
    let lev = parse(&b.finish());
    assert_eq!(build_geometry(&lev).layered_faces, 1);
    let mut scene = build_scene(&lev, "OVERLAP");
    // From far away and at a grazing angle, where depth precision is worst.
    let img = render(
        &mut scene,
        &shot([96.0, 300.0, -2500.0], [96.0, 0.0, 96.0], 200, 4.0),
        "coplanar_overlap",
    );
    let colours: std::collections::BTreeSet<[u8; 3]> =
        img.pixels().map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
    assert!(colours.contains(&[255, 0, 0]) && colours.contains(&[0, 0, 255]), "{colours:?}");
    // The overlap (x, z in 64..128) is blue wherever it is seen: sample its centre line.
    let lev_view = render(
        &mut scene,
        &shot([96.0, 40.0, 96.0], [96.0, 0.0, 96.5], 64, 60.0),
        "coplanar_overlap_close",
    );
    let red_in_overlap = lev_view.pixels().filter(|p| p.0[..3] == [255, 0, 0]).count();
    let blue_in_overlap = lev_view.pixels().filter(|p| p.0[..3] == [0, 0, 255]).count();
    assert!(
        red_in_overlap == 0 && blue_in_overlap > 0,
        "red {red_in_overlap} blue {blue_in_overlap}"
    );
    // Far away too: each quad keeps its own area (blue 128x128, red 128x128 less the 64x64
    // overlap), so the blue:red pixel ratio is 4:3 when nothing fights in the overlap.
    let far = render(
        &mut scene,
        &shot([96.0, 2000.0, 96.0], [96.0, 0.0, 96.5], 256, 6.0),
        "coplanar_overlap_far",
    );
    let red_far = far.pixels().filter(|p| p.0[..3] == [255, 0, 0]).count() as f64;
    let blue_far = far.pixels().filter(|p| p.0[..3] == [0, 0, 255]).count() as f64;
    assert!((blue_far / red_far - 4.0 / 3.0).abs() < 0.02, "red {red_far} blue {blue_far}");
}

#[test]
fn sky_planes_show_the_sky_frames_and_animate() {
    let mut b = LevBuilder::default();
    let wall = solid(&mut b, (20, 20, 20));
    b.spec.sky_palette =
        [0, word(31, 0, 0), word(0, 31, 0), word(0, 0, 31), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (i, v) in b.spec.sky_indices.iter_mut().enumerate() {
        *v = 1 + ((i / 4096) % 3) as u8;
    }
    // A sky plane (no quads, no tiles) facing -Z, and a textured floor so the level has both.
    b.plane(
        [[-256, -256, 256], [256, -256, 256], [256, 256, 256], [-256, 256, 256]],
        [0.0, 0.0, -1.0],
        &[],
        None,
    );
    b.plane(
        [[-256, -300, -256], [256, -300, -256], [256, -300, 256], [-256, -300, 256]],
        UP,
        &[quad(-256, -256, 256, 256, -300, wall)],
        None,
    );
    let lev = parse(&b.finish());
    assert_eq!(build_geometry(&lev).sky_planes, 1);
    let mut scene = build_scene(&lev, "SKY");
    let a = render(&mut scene, &shot([0.0, 0.0, 0.0], [0.0, 0.0, 100.0], 64, 60.0), "sky_tic0");
    let b2 = render(
        &mut scene,
        &Shot { tic: TICS_PER_SKY_FRAME, ..shot([0.0, 0.0, 0.0], [0.0, 0.0, 100.0], 64, 60.0) },
        "sky_tic2",
    );
    assert!(
        a.pixels().all(|p| p.0[..3] == [255, 0, 0]),
        "frame 0 is all red: {:?}",
        a.get_pixel(32, 32)
    );
    assert!(
        b2.pixels().all(|p| p.0[..3] == [0, 255, 0]),
        "frame 1 is all green: {:?}",
        b2.get_pixel(32, 32)
    );
}

fn gouraud_wall() -> Scene {
    let mut b = LevBuilder::default();
    let white = solid(&mut b, (31, 31, 31));
    let q = QuadSpec {
        corners: [[0, 128, 0], [256, 128, 0], [256, 0, 0], [0, 0, 0]],
        lights: [0, 17, 17, 0],
        texture: white,
    };
    b.plane(q.corners, [0.0, 0.0, -1.0], &[q], None);
    build_scene(&parse(&b.finish()), "GOURAUD")
}

#[test]
fn gouraud_light_is_quantised_to_five_bit_steps_in_faithful_mode() {
    let mut scene = gouraud_wall();
    let img = render(
        &mut scene,
        &shot([128.0, 64.0, -150.0], [128.0, 64.0, 0.0], 128, 90.0),
        "gouraud_faithful",
    );
    let five_bit: Vec<u8> = (0..32).map(expand5).collect();
    let row: Vec<[u8; 3]> =
        (0..128).map(|x| img.get_pixel(x, 64).0).map(|p| [p[0], p[1], p[2]]).collect();
    let on_wall: Vec<[u8; 3]> = row.into_iter().filter(|p| *p != [0, 0, 0]).collect();
    assert!(on_wall.len() > 60, "{}", on_wall.len());
    assert!(on_wall.iter().flatten().all(|c| five_bit.contains(c)), "{on_wall:?}");
    assert!(
        on_wall.windows(2).all(|w| w[0][0] <= w[1][0] && w[0][1] <= w[1][1]),
        "not monotonic: {on_wall:?}"
    );
    assert_eq!(on_wall.first().map(|p| p[0]), Some(expand5(15)));
    assert_eq!(on_wall.last().map(|p| p[1]), Some(expand5(31)));
    // Half way the offsets are exactly -8 in every channel: (23, 23, 23).
    assert_eq!(&img.get_pixel(64, 64).0[..3], &[expand5(23); 3]);
    let distinct: std::collections::BTreeSet<u8> = on_wall.iter().map(|p| p[1]).collect();
    assert!(distinct.len() >= 15, "{distinct:?}");

    let smooth = render(
        &mut scene,
        &Shot {
            mode: RenderMode::Smooth,
            ..shot([128.0, 64.0, -150.0], [128.0, 64.0, 0.0], 128, 90.0)
        },
        "gouraud_smooth",
    );
    let off_grid =
        (0..128).map(|x| smooth.get_pixel(x, 64).0[1]).filter(|c| !five_bit.contains(c)).count();
    assert!(off_grid > 20, "smooth mode interpolates without 5-bit steps: {off_grid}");
}

#[test]
fn both_tile_layouts_are_read_and_the_one_on_the_planes_is_chosen() {
    let build = |layout: TileLayout| {
        let mut b = LevBuilder::default();
        let t = solid(&mut b, (10, 20, 30));
        let tiles = TileSetSpec {
            base: [-100.25, 50.0, 10.5],
            horz: [64.0, 0.0, 0.0],
            vert: [0.0, 0.0, 64.0],
            width: 3,
            height: 2,
            cells: vec![(0x10, t); 6],
            lights: (0..12).collect(),
        };
        b.plane(
            [[-101, 50, 10], [92, 50, 10], [92, 50, 139], [-101, 50, 139]],
            UP,
            &[],
            Some(&tiles),
        );
        b.spec.tile_layout = layout;
        parse(&b.finish())
    };
    let seed = build(TileLayout::Seed);
    let alt = build(TileLayout::UnknownFirst);
    assert_eq!(seed.tile_layout, TileLayout::Seed);
    assert_eq!(alt.tile_layout, TileLayout::UnknownFirst);
    assert_eq!(seed.tiles, alt.tiles);
    assert_eq!(build_geometry(&seed).faces, build_geometry(&alt).faces);
}

#[test]
fn entities_become_markers_and_the_player_start_is_the_spawn() {
    let mut b = LevBuilder::default();
    let t = solid(&mut b, (31, 31, 31));
    b.plane(
        [[0, 0, 0], [64, 0, 0], [64, 0, 64], [0, 0, 64]],
        UP,
        &[quad(0, 0, 64, 64, 0, t)],
        None,
    );
    let mover = b.plane(
        [[0, 0, 100], [64, 0, 100], [64, 64, 100], [0, 64, 100]],
        [0.0, 0.0, -1.0],
        &[QuadSpec {
            corners: [[0, 64, 100], [64, 64, 100], [64, 0, 100], [0, 0, 100]],
            lights: [17; 4],
            texture: t,
        }],
        None,
    );
    b.spec.planes[mover].flags = 0x108;
    let pos = |x: i16, y: i16, z: i16| {
        [[0i16, x, y, z].iter().flat_map(|v| v.to_be_bytes()).collect::<Vec<u8>>(), vec![0; 2]]
            .concat()
    };
    b.entity(13, &pos(10, 20, 30));
    b.entity(0x92, &[0; 42]);
    b.entity(243, &pos(-5, 0, 7));
    let lev = parse(&b.finish());
    let scene = build_scene(&lev, "ENTITIES");
    assert_eq!(scene.axes.to_native_f64(scene.spawn.pos), DVec3::new(10.0, 20.0, 30.0));
    assert_eq!(scene.markers.len(), 3);
    let mover_marker = scene.markers.iter().find(|m| m.label.contains("misc_polymover")).unwrap();
    assert_eq!(scene.axes.to_native(mover_marker.pos).to_array(), [32.0, 32.0, 100.0]);
    let counts: std::collections::HashMap<_, _> = scene.facts.counts.iter().cloned().collect();
    assert_eq!((counts["entities"], counts["movers"]), (3, 1));
}

#[test]
fn writer_output_walks_to_end_of_file_with_every_segment() {
    let lev = parse(&tiled_floor(64.0));
    assert!(lev.warnings.is_empty(), "{:?}", lev.warnings);
    assert_eq!(lev.segments.visibility.map(|v| v + 4), Some(lev.segments.eof));
    let mut data = tiled_floor(64.0);
    data.push(0);
    let extra = LevFile::parse("extra.lev", &data).unwrap();
    assert!(
        extra.warnings.iter().any(|w| w.contains("table data 2") && w.contains("EOF")),
        "{:?}",
        extra.warnings
    );
}

/// The benches' large level (`cargo bench --bench saturn`): every room where the writer put
/// it, none drawn over another. Its 12x12 version held 77,184 vertices, past what a plane's
/// 16-bit vertex numbers reach, so the last rooms' quads were drawn with the first rooms'
/// vertices: 1,332 faces layered over others and the last row of rooms missing.
#[test]
fn the_benches_closed_rooms_are_whole() {
    let lev = parse(&support::saturn_rooms::closed_rooms(11));
    let g = build_geometry(&lev);
    assert_eq!(g.layered_faces, 0);
    let (lo, hi) = g
        .faces
        .iter()
        .flat_map(|f| f.corners)
        .fold((DVec3::splat(f64::MAX), DVec3::splat(f64::MIN)), |(lo, hi), p| {
            (lo.min(p), hi.max(p))
        });
    // Rooms 512 units a side, 576 apart, from -3000.
    let far = -3000.0 + 10.0 * 576.0 + 512.0;
    assert_eq!((lo.x, lo.z, hi.x, hi.z), (-3000.0, -3000.0, far, far));
}

#[test]
#[should_panic(expected = "at most 65536 vertices")]
fn the_writer_refuses_more_vertices_than_a_plane_can_number() {
    support::saturn_rooms::closed_rooms(12);
}
