//! The renderer on hand-built scenes: a textured floor, a wall and a sprite, checked at probe
//! pixels on the software Vulkan driver.

use glam::{DVec3, Vec3};
use mapscope::render::{render_headless, Gpu, RenderMode, ViewSettings};
use mapscope::scene::{
    vertex_flags, Axes, CameraPose, ClearColor, FrameState, Game, LevelFacts, Scene, Shading,
    Sprite, SpriteView, StaticAnimator, SurfaceKind, Texels, Texture, WorldVertex,
};

fn solid(name: &str, index: u8, w: u32, h: u32) -> Texture {
    Texture {
        name: name.into(),
        width: w,
        height: h,
        origin: (0, 0),
        texels: Texels::Indexed { index: vec![index; (w * h) as usize], opaque: Vec::new() },
        palette: 0,
    }
}

/// Palette: index i is grey level i, except 1 = red, 2 = green, 3 = blue.
fn palette() -> Vec<[u8; 3]> {
    let mut p: Vec<[u8; 3]> = (0..256).map(|i| [i as u8; 3]).collect();
    p[1] = [255, 0, 0];
    p[2] = [0, 255, 0];
    p[3] = [0, 0, 255];
    p
}

fn quad(
    a: [f32; 3],
    b: [f32; 3],
    c: [f32; 3],
    d: [f32; 3],
    tex: u32,
    kind: SurfaceKind,
) -> Vec<WorldVertex> {
    let f = vertex_flags::pack(kind, false, 0, 0);
    let v = |p: [f32; 3], uv: [f32; 2]| WorldVertex {
        pos: p,
        uv,
        texture: tex,
        light: 0,
        flags: f,
        surface: 0,
        shade: [0; 4],
    };
    vec![
        v(a, [0.0, 0.0]),
        v(b, [64.0, 0.0]),
        v(c, [64.0, 64.0]),
        v(a, [0.0, 0.0]),
        v(c, [64.0, 64.0]),
        v(d, [0.0, 64.0]),
    ]
}

fn scene(shading: Shading) -> Scene {
    // Native Doom-like axes: X east, Y north, Z up; the camera looks east from the origin.
    let axes = Axes::ZUpRightHanded;
    let p = |x: f32, y: f32, z: f32| axes.to_viewer(Vec3::new(x, y, z)).to_array();
    let mut world = Vec::new();
    // Floor (red) at z = 0 from x = 0..512, y = -256..256.
    world.extend(quad(
        p(0., -256., 0.),
        p(512., -256., 0.),
        p(512., 256., 0.),
        p(0., 256., 0.),
        0,
        SurfaceKind::Flat,
    ));
    // Wall (green) at x = 512 facing west, z = 0..128, counter-clockwise seen from the west.
    world.extend(quad(
        p(512., 256., 0.),
        p(512., -256., 0.),
        p(512., -256., 128.),
        p(512., 256., 128.),
        1,
        SurfaceKind::Wall,
    ));
    let sprite_pos = axes.to_viewer(Vec3::new(256.0, 0.0, 0.0));
    Scene {
        name: "TEST".into(),
        // Native Doom-like axes; the game only names the scene here.
        game: Game::Doom,
        axes,
        palette: palette(),
        shading,
        clear: ClearColor::default(),
        near: 1.0,
        textures: vec![
            solid("RED", 1, 64, 64),
            solid("GREEN", 2, 64, 64),
            Texture { origin: (8, 32), ..solid("BLUE", 3, 16, 32) },
        ],
        world,
        parts: Default::default(),
        sprites: vec![Sprite {
            tint: 0,
            pos: sprite_pos,
            views: vec![SpriteView { texture: 2, mirrored: false }],
            facing: 0.0,
            scale: [1.0, 1.0],
            light: 0,
            fullbright: true,
            label: "probe".into(),
            source: 0,
        }],
        sky: None,
        markers: vec![],
        cells: None,
        spawn: CameraPose { pos: DVec3::new(0.0, 41.0, 0.0), yaw: 0.0, pitch: 0.0 },
        animator: Box::new(StaticAnimator {
            state: FrameState {
                light: vec![255],
                texture_remap: vec![],
                scroll: vec![],
                thing_frames: vec![],
            },
        }),
        facts: LevelFacts::default(),
        records: None,
        automap: None,
    }
}

fn identity_colormap() -> Vec<u8> {
    (0..34).flat_map(|_| 0..=255u8).collect()
}

fn render(scene: &mut Scene, view: &ViewSettings) -> image::RgbaImage {
    let gpu = Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)");
    let cam = scene.spawn;
    render_headless(&gpu, scene, &cam, view, 0).expect("render")
}

#[test]
fn floor_wall_and_sprite_land_where_projected() {
    for shading in [
        Shading::Unlit,
        Shading::DoomColormap {
            colormap: identity_colormap(),
            segs: vec![],
            map: None,
            smooth_flats: vec![],
        },
    ] {
        let mut s = scene(shading);
        let img = render(&mut s, &ViewSettings::default());
        assert_eq!(img.dimensions(), (320, 200));
        // Straight ahead at eye height: the wall (green) beyond the sprite's top.
        assert_eq!(img.get_pixel(160, 95).0, [0, 255, 0, 255]);
        // Bottom rows: the floor (red) close to the camera.
        assert_eq!(img.get_pixel(160, 195).0, [255, 0, 0, 255]);
        // Above the wall top (128 units at 512 away: 87 units above the eye → 27 px above
        // the centre), nothing: the clear colour.
        assert_eq!(img.get_pixel(160, 60).0, [0, 0, 0, 255]);
        // The sprite (16 wide, 32 tall, at 256 units): a blue block on the floor, centred.
        assert_eq!(img.get_pixel(160, 115).0, [0, 0, 255, 255]);
    }
}

#[test]
fn renders_are_deterministic_and_sprites_toggle() {
    let mut s = scene(Shading::Unlit);
    let a = render(&mut s, &ViewSettings::default());
    let b = render(&mut s, &ViewSettings::default());
    assert_eq!(a, b);
    let no_sprites = ViewSettings { show_sprites: false, ..Default::default() };
    let c = render(&mut s, &no_sprites);
    assert_ne!(c.get_pixel(160, 115).0, [0, 0, 255, 255]);
}

#[test]
fn doom_light_darkens_with_distance_in_faithful_mode() {
    // Colormap m maps every index to grey level 255 - 8m, so the colormap chosen is visible.
    let colormap: Vec<u8> =
        (0..34u32).flat_map(|m| (0..256).map(move |_| (255 - (8 * m).min(255)) as u8)).collect();
    let mut s =
        scene(Shading::DoomColormap { colormap, segs: vec![], map: None, smooth_flats: vec![] });
    s.sprites.clear();
    s.animator = Box::new(StaticAnimator {
        state: FrameState {
            light: vec![160],
            texture_remap: vec![],
            scroll: vec![],
            thing_frames: vec![],
        },
    });
    let img = render(&mut s, &ViewSettings::default());
    let near = img.get_pixel(160, 199).0[0];
    let far = img.get_pixel(160, 104).0[0];
    assert!(near > far, "near {near} far {far}");
    // Light level 160 >> 4 = 10: startmap (15-10)*4 = 20. The wall at depth 512 has scale
    // 2560/512 = 5 → colormap 20 - 5/2 = 18 → grey 255 - 144 = 111.
    assert_eq!(img.get_pixel(160, 95).0[0], 111);
    let smooth = ViewSettings { mode: RenderMode::Smooth, ..Default::default() };
    let img = render(&mut s, &smooth);
    assert!(img.get_pixel(160, 95).0[1] > 0);
}

#[test]
fn per_texture_palettes_and_the_clear_colour() {
    let mut s = scene(Shading::Unlit);
    s.sprites.clear();
    // The floor's texel index 1 goes through a second 256-entry palette.
    s.palette.extend((0..256).map(|i| [i as u8, 20, 30]));
    s.textures[0].palette = 256;
    s.clear = ClearColor { rgb: [5, 6, 7], index: 0 };
    let img = render(&mut s, &ViewSettings::default());
    assert_eq!(img.get_pixel(160, 195).0, [1, 20, 30, 255]);
    assert_eq!(img.get_pixel(160, 95).0, [0, 255, 0, 255]);
    assert_eq!(img.get_pixel(160, 60).0, [5, 6, 7, 255]);
}

/// A translucent quad across the view at distance `x`, facing the camera.
fn window(x: f32, tex: u32) -> Vec<WorldVertex> {
    let axes = Axes::ZUpRightHanded;
    let p = |y: f32, z: f32| axes.to_viewer(Vec3::new(x, y, z)).to_array();
    let mut q = quad(p(64., 0.), p(-64., 0.), p(-64., 80.), p(64., 80.), tex, SurfaceKind::Wall);
    for v in &mut q {
        v.flags |= vertex_flags::TRANSLUCENT;
    }
    q
}

#[test]
fn translucent_layers_blend_far_to_near_whatever_the_draw_order() {
    let mut s = scene(Shading::Unlit);
    s.sprites.clear();
    let half = |rgb: [u8; 3]| Texture {
        name: "GLASS".into(),
        width: 1,
        height: 1,
        origin: (0, 0),
        texels: Texels::Rgba(vec![[rgb[0], rgb[1], rgb[2], 128]]),
        palette: 0,
    };
    s.textures.push(half([255, 0, 0])); // 3: red glass, far
    s.textures.push(half([0, 0, 255])); // 4: blue glass, near
                                        // The near pane comes first in the buffer, so arrival order is the wrong order.
    s.world.extend(window(300.0, 4));
    s.world.extend(window(400.0, 3));
    // Behind the opaque wall: hidden, whatever the shader writes before the depth test.
    s.world.extend(window(600.0, 3));
    let img = render(&mut s, &ViewSettings::default());
    // Green wall, then red at 50%, then blue at 50%.
    let a = 128.0 / 255.0;
    let mix = |x: f32, y: f32| x * (1.0 - a) + y * a;
    let want = [mix(mix(0.0, 255.0), 0.0), mix(mix(255.0, 0.0), 0.0), mix(0.0, 255.0)];
    let got = img.get_pixel(160, 95).0;
    for c in 0..3 {
        assert!((got[c] as f32 - want[c]).abs() <= 2.0, "got {got:?}, want {want:?}");
    }
    // Outside the panes the opaque wall is untouched.
    assert_eq!(img.get_pixel(100, 95).0, [0, 255, 0, 255]);
}

#[test]
fn markers_show_as_fixed_size_diamonds_when_asked() {
    let mut s = scene(Shading::Unlit);
    s.sprites.clear();
    // Straight ahead at eye height, in front of the wall.
    let pos = Axes::ZUpRightHanded.to_viewer(Vec3::new(300.0, 0.0, 41.0));
    s.markers.push(mapscope::scene::Marker { pos, label: "entity".into() });
    let marker = [255, 217, 26, 255];
    let shown = render(&mut s, &ViewSettings { show_markers: true, ..Default::default() });
    assert_eq!(shown.get_pixel(160, 100).0, marker);
    // About 5 px across each way, whatever the distance.
    assert_eq!(shown.get_pixel(163, 100).0, marker);
    assert_ne!(shown.get_pixel(168, 100).0, marker);
    let hidden = render(&mut s, &ViewSettings::default());
    assert_eq!(hidden.get_pixel(160, 100).0, [0, 255, 0, 255]);
}
