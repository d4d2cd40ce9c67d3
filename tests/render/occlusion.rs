//! Occlusion culling keeps the picture: a level of closed rooms (each room hides the others)
//! drawn from inside one room at many angles is byte-identical with the occlusion map and
//! without it, while the map drops most of the triangles in the frustum.

use crate::support;

use mapscope::formats::saturn::{build_scene, LevFile};
use mapscope::render::{Gpu, SceneRenderer, ViewSettings};
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
