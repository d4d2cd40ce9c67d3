//! The scene builder's tests: whole scenes built from small test WADs and every Freedoom map,
//! checked for geometry, pegging, skies, light specials, animation and hostile input. Apart
//! from the steps because most of them test several steps together.

use super::walls::{wall_corners, Placement, WallPart};
use super::*;
use crate::formats::doom::archive::wad::Wad;
use crate::formats::doom::map::line_flags;
use crate::formats::doom::map::udmf_props::PartTexture;
use crate::formats::doom::testwad;
use crate::scene::{vertex_flags, FrameState, SurfaceKind};

fn normal(t: &[WorldVertex]) -> Vec3 {
    let p: Vec<Vec3> = t.iter().map(|v| Vec3::from(v.pos)).collect();
    (p[1] - p[0]).cross(p[2] - p[0]).normalize()
}

fn kind(v: &WorldVertex) -> u32 {
    v.flags & vertex_flags::KIND_MASK
}

#[test]
fn builds_two_room_scene() {
    let stack = testwad::two_room_stack();
    let scene = build_scene(&stack, "MAP01").unwrap();
    assert_eq!(scene.name, "MAP01");
    assert_eq!(scene.palette.len(), 256);
    // Camera: player 1 start at (64, 64) angle 90 on floor 0.
    let p = scene.spawn.pos;
    assert_eq!((p.x, p.y, p.z), (64.0, 41.0, -64.0));
    assert!((scene.spawn.yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    // Walls: 6 one-sided + the shared line's lower (front side, floor 0 -> 16) and upper
    // (ceiling 128 -> 96); the back side sees neither.
    let walls: Vec<&[WorldVertex]> =
        scene.world.chunks(3).filter(|t| kind(&t[0]) == SurfaceKind::Wall as u32).collect();
    assert_eq!(walls.len(), (6 + 2) * 2);
    // Floors face up, ceilings down.
    for t in scene.world.chunks(3).filter(|t| kind(&t[0]) == SurfaceKind::Flat as u32) {
        let n = normal(t);
        assert!(n.y.abs() > 0.999, "{n}");
    }
    // Wall triangles face their front side: the west wall of room A (x = 0) faces east.
    let west = walls.iter().find(|t| t.iter().all(|v| v.pos[0] == 0.0)).unwrap();
    assert!(normal(west).x > 0.999);
    // Fake contrast: that wall is parallel to y, so +1.
    assert_eq!((west[0].flags >> vertex_flags::CONTRAST_SHIFT) as u8 as i8, 1);
    // One imp spawned at skill 3 (one skill-4-only and one multiplayer thing are not).
    assert_eq!(scene.sprites.len(), 1);
    let imp = &scene.sprites[0];
    assert_eq!(imp.label, "3001");
    assert_eq!(imp.views.len(), 1);
    assert_eq!(imp.pos, Vec3::new(192.0, 16.0, -64.0));
    assert_eq!(imp.light, 1);
    let tex = &scene.textures[imp.views[0].texture as usize];
    assert_eq!(tex.origin, (4, 8));
    let counts: HashMap<_, _> = scene.facts.counts.iter().cloned().collect();
    assert_eq!(counts["things_spawned"], 1);
    assert_eq!(counts["subsectors"], 2);
    assert!(scene.facts.textures_used.contains(&"STARTAN".to_string()));
}

#[test]
fn pegging_places_texture_rows() {
    let stack = testwad::two_room_stack();
    let scene = build_scene(&stack, "MAP01").unwrap();
    let walls: Vec<&[WorldVertex]> =
        scene.world.chunks(6).filter(|q| kind(&q[0]) == SurfaceKind::Wall as u32).collect();
    // Shared line x = 128 from the front (room A): lower wall 0..16, pegged: top of the
    // texture at the back floor (16), so v = 16 - z.
    let lower = walls
        .iter()
        .find(|q| q.iter().all(|v| v.pos[0] == 128.0) && q.iter().all(|v| v.pos[1] <= 16.0))
        .unwrap();
    for v in lower.iter() {
        assert_eq!(v.uv[1], 16.0 - v.pos[1]);
    }
    // Upper wall 96..128, pegged: texture bottom at the back ceiling: v = 96 + 128 - z.
    let upper = walls
        .iter()
        .find(|q| q.iter().all(|v| v.pos[0] == 128.0) && q.iter().all(|v| v.pos[1] >= 96.0))
        .unwrap();
    for v in upper.iter() {
        assert_eq!(v.uv[1], 96.0 + 128.0 - v.pos[1]);
    }
    // One-sided wall with y offset 8 in room A: v = 128 + 8 - z; u starts at x offset 3.
    let south = walls
        .iter()
        .find(|q| q.iter().all(|v| v.pos[2] == 0.0) && q.iter().all(|v| v.pos[0] <= 128.0))
        .unwrap();
    for v in south.iter() {
        assert_eq!(v.uv[1], 136.0 - v.pos[1]);
    }
    let us: Vec<f32> = south.iter().map(|v| v.uv[0]).collect();
    assert!(us.contains(&3.0) && us.contains(&131.0), "{us:?}");
}

#[test]
fn sky_hack_masked_middle_and_scrolling() {
    let mut level = testwad::two_room_level();
    level.map.sectors[0].ceiling_flat = "F_SKY1".into();
    level.map.sectors[1].ceiling_flat = "F_SKY1".into();
    // Masked middle on the shared line's front, lower-unpegged: bottom at max floor (16).
    level.map.sidedefs[3].middle = "STARTAN".into();
    level.map.linedefs[3].flags |= line_flags::LOWER_UNPEGGED;
    level.map.linedefs[0].special = SCROLL_SPECIAL;
    let stack = testwad::stack_with(&level);
    let mut scene = build_scene(&stack, "MAP01").unwrap();
    let quads: Vec<&[WorldVertex]> = scene.world.chunks(6).collect();
    let on_shared = |q: &&[WorldVertex]| q.iter().all(|v| v.pos[0] == 128.0);
    // Sky quad between the back ceiling (96) and the front ceiling (128), no upper.
    let sky: Vec<_> =
        quads.iter().filter(|q| on_shared(q) && kind(&q[0]) == SurfaceKind::Sky as u32).collect();
    assert_eq!(sky.len(), 1);
    assert!(sky[0].iter().all(|v| v.pos[1] >= 96.0));
    // Masked: opening 16..96, texture 128 tall from 16 up: clipped to 16..96.
    let masked: Vec<_> = quads.iter().filter(|q| q[0].flags & vertex_flags::MASKED != 0).collect();
    assert_eq!(masked.len(), 1);
    for v in masked[0].iter() {
        assert!(v.pos[1] == 16.0 || v.pos[1] == 96.0);
        assert_eq!(v.uv[1], 16.0 + 128.0 - v.pos[1]);
    }
    // Ceilings are sky.
    assert!(scene
        .world
        .chunks(3)
        .any(|t| kind(&t[0]) == SurfaceKind::Sky as u32 && t[0].pos[1] == 128.0));
    // Linedef 0 scrolls: its (front) seg uses slot 1.
    let scrolled: Vec<_> =
        quads.iter().filter(|q| q[0].flags >> vertex_flags::SCROLL_SHIFT == 1).collect();
    assert_eq!(scrolled.len(), 1);
    let mut st = FrameState::default();
    scene.animator.state_at(10, &mut st);
    assert_eq!(st.scroll, vec![[0.0, 0.0], [10.0, 0.0]]);
}

#[test]
fn light_specials_draw_p_random_after_the_things_spawning() {
    // Sector 0 strobes (special 2, unsynchronised: count (P_Random() & 7) + 1 at spawn),
    // so the tic it first goes dark tells where P_LoadThings left P_Random.
    let dark_at = |things: Vec<crate::formats::doom::map::Thing>, no_monsters: bool| {
        let mut level = testwad::two_room_level();
        level.map.sectors[0].special = 2;
        level.map.things = things;
        let stack = testwad::stack_with(&level);
        let opts = BuildOptions { no_monsters, ..Default::default() };
        let mut scene = build_scene_with(&stack, "MAP01", &opts).unwrap();
        let mut st = FrameState::default();
        (1..10).find(|&tic| {
            scene.animator.state_at(tic, &mut st);
            st.light[0] != 160
        })
    };
    let thing = |kind: u16, flags: u16| crate::formats::doom::map::Thing {
        x: 64 << 16,
        y: 64 << 16,
        kind,
        flags,
        ..Default::default()
    };
    // No things: index 0, draws rndtable[1] = 8 -> count 1.
    assert_eq!(dark_at(vec![], false), Some(1));
    // Player 1 (lastlook), a red torch (lastlook and its first tics), a stimpack
    // (lastlook): index 4, rndtable[5] = 241 -> count 2. Player 2's start, a thing of
    // another skill and a multiplayer one draw nothing.
    let mut things = vec![thing(1, 7), thing(46, 7), thing(2011, 7)];
    things.extend([thing(2, 7), thing(2011, 1), thing(2011, 0x17)]);
    assert_eq!(dark_at(things.clone(), true), Some(2));
    // An imp draws lastlook and its first tics too, unless -nomonsters keeps it out:
    // index 6, rndtable[7] = 107 -> count 4.
    things.push(thing(3001, 7));
    assert_eq!(dark_at(things.clone(), true), Some(2));
    assert_eq!(dark_at(things, false), Some(4));
}

#[test]
fn animated_flat_brings_its_whole_cycle() {
    let mut level = testwad::two_room_level();
    level.map.sectors[1].floor_flat = "NUKAGE2".into();
    let stack = testwad::stack_with(&level);
    let mut scene = build_scene(&stack, "MAP01").unwrap();
    let idx = |n: &str| scene.textures.iter().position(|t| t.name == n).unwrap() as u32;
    let (n1, n2, n3) = (idx("NUKAGE1"), idx("NUKAGE2"), idx("NUKAGE3"));
    let mut st = FrameState::default();
    scene.animator.state_at(0, &mut st);
    assert_eq!(st.texture_remap[n2 as usize], n2);
    // Flat numbers: NUKAGE1 is basepic b; number i shows b + ((N-1)/8 + i) % 3.
    let b = stack.flats().number("NUKAGE1").unwrap();
    let members = [n1, n2, n3];
    for tic in [1u32, 8, 9, 17, 25, 100] {
        scene.animator.state_at(tic, &mut st);
        for (k, &m) in members.iter().enumerate() {
            let shown = ((tic as usize - 1) / 8 + b + k) % 3;
            assert_eq!(st.texture_remap[m as usize], members[shown], "tic {tic}");
        }
    }
}

#[test]
fn missing_texture_is_a_placeholder_with_a_note() {
    let mut level = testwad::two_room_level();
    level.map.sidedefs[0].middle = "NOSUCH".into();
    let stack = testwad::stack_with(&level);
    let scene = build_scene(&stack, "MAP01").unwrap();
    assert!(scene.textures.iter().any(|t| t.name == "NOSUCH"));
    assert!(scene.facts.notes.iter().any(|n| n.contains("NOSUCH")), "{:?}", scene.facts.notes);
}

#[test]
fn corrupted_wads_give_errors_not_panics() {
    let good = testwad::writer_for(&testwad::two_room_level()).to_bytes();
    let try_build = |bytes: Vec<u8>| {
        if let Ok(wad) = Wad::from_bytes("fuzz.wad", bytes) {
            let stack = WadStack::new(vec![wad]);
            if let Ok(mut scene) = build_scene(&stack, "MAP01") {
                let mut st = scene.animator.initial();
                scene.animator.state_at(100, &mut st);
            }
        }
    };
    // Every truncation length in steps, then byte and word corruptions at pseudo-random
    // places (a fixed LCG, so failures reproduce).
    for len in (0..good.len()).step_by(97) {
        try_build(good[..len].to_vec());
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    // Aim at the structured parts (map lumps, texture tables, patches' headers and
    // column offsets, the directory), not the bulk texel data.
    let parsed = Wad::from_bytes("good.wad", good.clone()).unwrap();
    let mut targets: Vec<(usize, usize)> = parsed
        .lumps()
        .iter()
        .filter(|l| !matches!(l.name.as_str(), "PLAYPAL" | "COLORMAP") && l.size > 0)
        .map(|l| (l.offset as usize, (l.size as usize).min(600)))
        .collect();
    let dir = parsed.lumps()[0].dir_offset as usize;
    targets.push((dir, good.len() - dir));
    targets.push((0, 12));
    let iterations = std::env::var("MAPSCOPE_FUZZ_ITERATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000usize);
    for _ in 0..iterations {
        let mut b = good.clone();
        for _ in 0..1 + next() % 4 {
            let (start, len) = targets[next() % targets.len()];
            let at = start + next() % len;
            match next() % 3 {
                0 => b[at] = next() as u8,
                1 => b[at] = 0xFF,
                _ => {
                    let end = (at + 2).min(b.len());
                    b[at..end].fill(0x7F);
                }
            }
        }
        try_build(b);
    }
}

#[test]
fn udmf_part_placement_matches_the_walk_column() {
    // Sidedef x offset 3, part offset 2, x scale 2, seg 10 units along its line: texel u
    // = 3 + 2 + 2 * (10 + along); the walk's column FixedMul(13 + along, 2) plus the
    // tier's offset must give the same.
    let part = PartTexture { x_offset: 2.0, y_offset: 6.0, x_scale: 2.0, y_scale: 0.5 };
    let p = Placement::new(10.0, 3.0, 4.0, &part);
    assert_eq!(p.u(5.0), (25.0, 35.0));
    for along in [0.0, 5.0, 17.5] {
        let col = (13.0 + along) * 2.0 + p.tier_x_offset as f64 / 65536.0;
        assert_eq!(col, 25.0 + 2.0 * along);
    }
    // y: offsets 4 + 6 texels at half scale shift the anchor by 20 map units; a 128-texel
    // texture is 256 units tall.
    assert_eq!((p.y_shift, p.height(128.0)), (20.0, 256.0));
    // No properties: vanilla's placement exactly.
    let p = Placement::new(10.0, 3.0, 4.0, &PartTexture::default());
    assert_eq!((p.u(5.0), p.y_shift, p.tier_x_offset), ((13.0, 18.0), 4.0, 0));
}

#[test]
fn hexen_plane_align_builds_a_ramp() {
    // Line 3 (x = 128, room A in front, floor 0; room B behind, floor 16) aligns B's
    // floor to A's: 0 at the line, 16 at x = 256, and its lower wall goes.
    let mut level = testwad::two_room_level();
    level.map.format = crate::formats::doom::map::MapFormat::Hexen;
    level.map.linedefs[3].special = crate::formats::doom::specials::slopes::PLANE_ALIGN;
    level.map.linedefs[3].args = [2, 0, 0, 0, 0];
    // Hexen's single-player bit, so that the imp spawns.
    level.map.things.iter_mut().for_each(|t| t.flags |= 0x100);
    let stack = testwad::stack_with(&level);
    let scene = build_scene(&stack, "MAP01").unwrap();
    let floors: Vec<&WorldVertex> = scene
        .world
        .chunks(3)
        .filter(|t| kind(&t[0]) == SurfaceKind::Flat as u32 && normal(t).y > 0.0)
        .flatten()
        .filter(|v| v.pos[0] > 128.0 - 1e-3)
        .collect();
    assert!(!floors.is_empty());
    for v in floors {
        assert!((v.pos[1] - (v.pos[0] - 128.0) / 8.0).abs() < 1e-4, "{:?}", v.pos);
    }
    let lower = scene
        .world
        .chunks(3)
        .filter(|t| kind(&t[0]) == SurfaceKind::Wall as u32 && t.iter().all(|v| v.pos[0] == 128.0));
    // Only the upper wall (ceilings 128 and 96) remains on the shared line.
    assert!(lower.clone().count() == 2 && lower.flatten().all(|v| v.pos[1] >= 96.0));
    // B's sector is marked for the frames that reach it; A's is not.
    let Shading::DoomColormap { map: Some(vmap), .. } = &scene.shading else { panic!() };
    assert!(vmap.sectors[1].beyond_canvas && !vmap.sectors[0].beyond_canvas);
    assert!(scene.facts.notes.iter().any(|n| n.contains("1 Plane_Align lines")));
    // The imp in room B (at x = 192) stands on the ramp.
    let imp = scene.sprites.iter().find(|s| s.label == "3001").unwrap();
    assert_eq!(imp.pos, Vec3::new(192.0, 8.0, -64.0));
}

#[test]
fn sloped_walls_become_trapezoids_and_triangles() {
    let heights = |c: &[(DVec2, f64, f64)]| c.iter().map(|c| c.1).collect::<Vec<_>>();
    let (a, b) = (DVec2::ZERO, DVec2::new(100.0, 0.0));
    // Both ends open: the quad, trapezoid-shaped.
    let part = WallPart { top: [64.0, 96.0], bottom: [0.0, 16.0], anchor: 0.0, y_scale: 1.0 };
    let c = wall_corners(a, b, &part, (0.0, 100.0));
    assert_eq!(heights(&c), [0.0, 16.0, 96.0, 0.0, 96.0, 64.0]);
    // Closed at v2 (a ramp's lower wall meeting the floor): one triangle, 0 high there.
    let part = WallPart { top: [32.0, 0.0], bottom: [0.0, 0.0], anchor: 0.0, y_scale: 1.0 };
    let c = wall_corners(a, b, &part, (0.0, 100.0));
    assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [0.0, 100.0, 0.0]);
    assert_eq!(heights(&c), [0.0, 0.0, 32.0]);
    // Top and bottom crossing midway: only the open side's triangle, its tip halfway with
    // the texture's u halfway too.
    let part = WallPart { top: [64.0, 0.0], bottom: [0.0, 64.0], anchor: 0.0, y_scale: 1.0 };
    let c = wall_corners(a, b, &part, (10.0, 110.0));
    assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [0.0, 50.0, 0.0]);
    assert_eq!((c[1].1, c[1].2), (32.0, 60.0));
    let part = WallPart { top: [0.0, 64.0], bottom: [64.0, 0.0], anchor: 0.0, y_scale: 1.0 };
    let c = wall_corners(a, b, &part, (10.0, 110.0));
    assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [50.0, 100.0, 100.0]);
    // Closed at both ends: nothing.
    let part = WallPart { top: [0.0, 5.0], bottom: [0.0, 5.0], anchor: 0.0, y_scale: 1.0 };
    assert!(wall_corners(a, b, &part, (0.0, 1.0)).is_empty());
}

#[test]
fn sky_names() {
    assert_eq!(sky_texture_name("MAP01"), "SKY1");
    assert_eq!(sky_texture_name("MAP11"), "SKY1");
    assert_eq!(sky_texture_name("MAP12"), "SKY2");
    assert_eq!(sky_texture_name("MAP21"), "SKY3");
    assert_eq!(sky_texture_name("E2M3"), "SKY2");
    assert_eq!(sky_texture_name("E3M1"), "SKY3");
    assert_eq!(sky_texture_name("E4M1"), "SKY4");
}

#[test]
fn every_freedoom_map_builds() {
    let wads = testwad::freedoom();
    let start = std::time::Instant::now();
    let mut maps = 0;
    for stack in wads.iter() {
        for name in stack.map_names() {
            let mut scene = build_scene(stack, &name)
                .unwrap_or_else(|e| panic!("{}: {name}: {e:#}", stack.wads()[0].name()));
            maps += 1;
            assert!(!scene.world.is_empty(), "{name}");
            assert_eq!(scene.world.len() % 3, 0);
            let n = scene.textures.len() as u32;
            assert!(scene.world.iter().all(|v| v.texture < n));
            assert!(scene.sprites.iter().flat_map(|s| &s.views).all(|v| v.texture < n));
            let sectors = scene.facts.counts.iter().find(|c| c.0 == "sectors").unwrap().1;
            let mut st = scene.animator.initial();
            // A slot per sector, then derived ones (freedoom2 MAP02 and MAP20 transfer
            // light with Boom's 213 and 261).
            assert!(st.light.len() as u64 >= sectors);
            assert!(scene.world.iter().all(|v| (v.light as usize) < st.light.len()));
            assert_eq!(st.texture_remap.len() as u32, n);
            scene.animator.state_at(350, &mut st);
            assert!(st.texture_remap.iter().all(|&t| t < n));
            assert!(scene.sprites.len() > 10, "{name}: {} sprites", scene.sprites.len());
        }
    }
    eprintln!("built {maps} Freedoom maps in {:.2?}", start.elapsed());
}
