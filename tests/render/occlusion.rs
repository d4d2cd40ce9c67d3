//! Culling what is hidden keeps the picture: a level of closed rooms (each room hides the
//! others) drawn from inside one room at many angles is byte-identical with the occlusion map
//! and without it, while the map drops most of the triangles in the frustum; Marathon's
//! writer-built station is byte-identical with its cells' visibility and without it.

use crate::support;

use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{Gpu, RenderMode, SceneRenderer, ViewSettings};
use mapscope::scene::CameraPose;

#[test]
fn closed_rooms_look_the_same_with_and_without_the_occlusion_map() {
    let data = support::saturn_rooms::closed_rooms(4);
    let lev = LevFile::parse("rooms.lev", &data).unwrap_or_else(|e| panic!("{e}"));
    let scene = build_scene(&lev, "rooms.lev");
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let view = ViewSettings { width: 320, height: 180, ..Default::default() };
    let mut culled = SceneRenderer::new(&gpu, &scene).expect("upload");
    let mut plain = SceneRenderer::new(&gpu, &scene).expect("upload");
    plain.set_occlusion(false);
    let spawn = scene.spawn;
    let (mut in_view, mut hidden) = (0, 0);
    for turn in 0..8 {
        for pitch in [0.0, -0.4, 0.3] {
            let camera = CameraPose {
                yaw: spawn.yaw + turn as f64 * std::f64::consts::FRAC_PI_4 + 0.1,
                pitch,
                ..spawn
            };
            let mut images = Vec::new();
            for renderer in [&mut culled, &mut plain] {
                renderer.render(&gpu, &camera, &view);
                images.push(renderer.read_image(&gpu).expect("read back"));
            }
            assert!(images[0] == images[1], "turn {turn}, pitch {pitch}: the pictures differ");
            let (n, h) = culled.last_occlusion();
            in_view += n;
            hidden += h;
            assert_eq!(plain.last_occlusion().1, 0, "occlusion was switched off");
        }
    }
    // The other 15 rooms are behind the walls of the first.
    assert!(hidden * 10 > in_view * 7, "the map hid {hidden} of {in_view} triangles in view");
}

/// Marathon's cells keep the picture: the writer-built station (rooms cut into many polygons,
/// corridors, pillars, outdoor rooms, a pool, a tall shaft), faithful and smooth with its
/// Shapes file and faithful without, drawn from inside rooms and corridors, from outside the level and on the line
/// between two polygons, is byte-identical with cell visibility and without it, while the
/// cells leave most of the triangles in view undrawn.
#[test]
fn marathon_cells_keep_the_picture_and_drop_what_is_out_of_sight() {
    use mapscope::formats::marathon::{build, station, Level, ShapesFile, Wad};
    use mapscope::scene::Scene;

    let (bytes, _) = station::station_wad();
    let wad = Wad::parse("Station.sceA", &bytes).unwrap_or_else(|e| panic!("{e}"));
    let level = Level::load(&wad, 0).unwrap_or_else(|e| panic!("{e}"));
    let shapes_bytes = std::fs::read(support::fixture("marathon/Shapes.shpA")).expect("Shapes");
    let shapes = ShapesFile::parse("Shapes.shpA", &shapes_bytes).expect("shapes");
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let check = |scene: &Scene, cameras: &[CameraPose], mode: RenderMode| {
        let view = ViewSettings { width: 320, height: 180, mode, ..Default::default() };
        let mut culled = SceneRenderer::new(&gpu, scene).expect("upload");
        let mut plain = SceneRenderer::new(&gpu, scene).expect("upload");
        plain.set_occlusion(false);
        let (mut in_view, mut hidden) = (0, 0);
        for (k, camera) in cameras.iter().enumerate() {
            let mut images = Vec::new();
            for renderer in [&mut culled, &mut plain] {
                renderer.render(&gpu, camera, &view);
                images.push(renderer.read_image(&gpu).expect("read back"));
            }
            assert!(images[0] == images[1], "camera {k} {camera:?}: the pictures differ");
            let (n, h) = culled.last_occlusion();
            in_view += n;
            hidden += h;
        }
        (in_view, hidden)
    };
    let with_shapes = build::build_scene(&level, Some(&shapes), &[]);
    // Cameras at eye height over the objects (one in each room's corners), looking three
    // ways, and a few that test the edges of the walk.
    let mut cameras = Vec::new();
    for (i, m) in with_shapes.markers.iter().enumerate().step_by(7) {
        for turn in 0..3 {
            let yaw = i as f64 * 0.7 + turn as f64 * 2.1;
            let pitch = [0.0, -0.3, 0.2][turn];
            let pos = m.pos.as_dvec3() + glam::DVec3::Y * 700.0;
            cameras.push(CameraPose { pos, yaw, pitch });
        }
    }
    let spawn = with_shapes.spawn;
    // On the line between two of the start shaft's polygons, and at their corner.
    cameras.push(CameraPose { pos: glam::DVec3::new(0.0, 3000.0, 600.0), yaw: 0.3, ..spawn });
    cameras.push(CameraPose { pos: glam::DVec3::new(0.0, 3000.0, 0.0), yaw: 1.2, ..spawn });
    // Outside the level, a little beyond a wall, and high above it.
    cameras.push(CameraPose { pos: glam::DVec3::new(-31240.0, 800.0, 0.0), yaw: 0.1, ..spawn });
    cameras.push(CameraPose { pos: glam::DVec3::new(0.0, 20000.0, 0.0), yaw: 0.5, pitch: -1.0 });
    let (in_view, hidden) = check(&with_shapes, &cameras, RenderMode::Faithful);
    assert!(hidden * 2 > in_view, "the cells hid {hidden} of {in_view} triangles in view");
    check(&with_shapes, &cameras[..12], RenderMode::Smooth);
    let flat = build::build_scene(&level, None, &[]);
    check(&flat, &cameras[..12], RenderMode::Faithful);
}
