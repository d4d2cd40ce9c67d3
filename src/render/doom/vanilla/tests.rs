//! The walk on hand-made maps: a two-room map from every direction, plane merging, the
//! drawseg and visplane limits, and broken or hostile maps. The walk against Chocolate Doom's
//! frames on Freedoom's maps is tests/doom/vanilla_walk.rs.

use super::tables::{ANG180, ANG270, ANG90};
use super::*;
use crate::scene::doom::vanilla::{
    VanillaMap, WalkNode, WalkSector, WalkSeg, WalkSubsector, VANILLA_NF_SUBSECTOR,
};

fn seg(v1: [i32; 2], v2: [i32; 2], angle: u32, back: Option<u32>, sector: u32) -> WalkSeg {
    WalkSeg {
        v1: v1.map(|c| c << 16),
        v2: v2.map(|c| c << 16),
        angle,
        linedef: Some(0),
        front_sector: sector,
        back_sector: back,
        mid: back.is_none(),
        top: back.is_some(),
        bottom: back.is_some(),
        ..Default::default()
    }
}

/// A 256x256 room (x 0..256, y -128..128) split at x = 128 by a two-sided line; the east
/// half's floor is 16 units higher.
fn split_room() -> VanillaMap {
    let segs = vec![
        // Subsector 0: west half, sector 0.
        seg([0, -128], [0, 128], ANG90, None, 0),
        seg([0, 128], [128, 128], 0, None, 0),
        seg([128, 128], [128, -128], ANG270, Some(1), 0),
        seg([128, -128], [0, -128], ANG180, None, 0),
        // Subsector 1: east half, sector 1.
        seg([128, -128], [128, 128], ANG90, Some(0), 1),
        seg([128, 128], [256, 128], 0, None, 1),
        seg([256, 128], [256, -128], ANG270, None, 1),
        seg([256, -128], [128, -128], ANG180, None, 1),
    ];
    let sector = |floor: i32| WalkSector {
        floor: floor << 16,
        ceiling: 128 << 16,
        floorpic: 1,
        ceilingpic: 2,
        ..Default::default()
    };
    VanillaMap {
        nodes: vec![WalkNode {
            x: 128 << 16,
            y: -128 << 16,
            dx: 0,
            dy: 256 << 16,
            bbox: [[128, -128, 128, 256].map(|c| c << 16), [128, -128, 0, 128].map(|c| c << 16)],
            children: [VANILLA_NF_SUBSECTOR | 1, VANILLA_NF_SUBSECTOR],
        }],
        subsectors: vec![
            WalkSubsector { first_seg: 0, num_segs: 4, sector: 0 },
            WalkSubsector { first_seg: 4, num_segs: 4, sector: 1 },
        ],
        segs,
        sectors: vec![sector(0), sector(16)],
        sky_flat: 99,
        flat_textures: Vec::new(),
        ..Default::default()
    }
}

fn view_at(x: i32, y: i32, z: i32, deg: f64) -> VanillaView {
    let angle = ((deg / 360.0).rem_euclid(1.0) * 4294967296.0) as u64 as u32;
    VanillaView::new(320, 200).at(x << 16, y << 16, z << 16, angle)
}

#[test]
fn split_room_from_the_west() {
    let map = split_room();
    let r = walk(&map, &[160], &view_at(32, 0, 41, 0.0));
    assert_eq!(r.stats, WalkStats { subsectors: 2, ..Default::default() });
    // The bottom row is the west half's floor from edge to edge: one span from column 0.
    let w = 320;
    for x in 0..w {
        assert_eq!(r.span_start()[199 * w + x], 0, "column {x}");
    }
    // One-sided walls cover each column exactly once.
    let mut count = vec![0; w];
    for d in &r.drawsegs {
        if map.segs[d.seg as usize].back_sector.is_none() {
            for x in d.x1..=d.x2 {
                count[x as usize] += 1;
            }
        }
    }
    assert!(count.iter().all(|&c| c == 1), "{count:?}");
    // The divider is drawn (its lower texture) across the whole screen.
    let divider: Vec<_> = r.ranges_for_seg(2).collect();
    assert_eq!(divider.len(), 1);
    assert_eq!((divider[0].x1, divider[0].x2), (0, 319));
    // Its scale at the centre is the projection over the distance: 160 / 96.
    let s = divider[0].scale_at(160) as f64 / 65536.0;
    assert!((s - 160.0 / 96.0).abs() < 0.01, "{s}");
    assert!(r.range_at(2, 160).is_some());
    assert!(r.range_at(4, 160).is_none());
    assert_eq!(r.uncovered_pixels(), 0);
    assert_eq!(r.overlapping_pixels(), 0);
}

#[test]
fn split_room_every_direction() {
    let map = split_room();
    for (x, y) in [(32, 0), (200, 100), (127, -127), (129, 5)] {
        for step in 0..64 {
            let deg = step as f64 * 360.0 / 64.0 + 0.3;
            let r = walk(&map, &[160], &view_at(x, y, 41, deg));
            assert_eq!(r.uncovered_pixels(), 0, "at ({x}, {y}) {deg}°");
            assert_eq!(r.overlapping_pixels(), 0, "at ({x}, {y}) {deg}°");
            // Each column has exactly one one-sided wall range.
            let mut count = [0; 320];
            for d in &r.drawsegs {
                if map.segs[d.seg as usize].back_sector.is_none() {
                    for c in d.x1..=d.x2 {
                        count[c as usize] += 1;
                    }
                }
            }
            assert!(count.iter().all(|&c| c == 1), "at ({x}, {y}) {deg}°: {count:?}");
        }
    }
}

#[test]
fn same_planes_on_both_sides_are_not_marked_twice() {
    // Both halves alike: the divider is an invisible trigger line, rejected by R_AddLine.
    let mut map = split_room();
    map.sectors[1].floor = 0;
    map.segs[2].top = false;
    map.segs[2].bottom = false;
    let r = walk(&map, &[160], &view_at(32, 0, 41, 0.0));
    assert!(r.ranges_for_seg(2).next().is_none());
    // One floor plane, one ceiling plane.
    assert_eq!(r.planes.len(), 2, "{:?}", r.planes);
    assert_eq!(r.uncovered_pixels(), 0);
}

#[test]
fn planes_lit_255_and_256_stay_apart_as_in_vanilla() {
    // Both halves alike but for the light: R_AddLine draws the divider (the sectors differ)
    // and R_FindPlane keeps two floor planes, though both levels give the same colormap.
    let mut map = split_room();
    map.sectors[1].floor = 0;
    map.sectors[1].light_slot = 1;
    map.sectors[1].floor_light_slot = 1;
    map.sectors[1].ceiling_light_slot = 1;
    map.segs[2].top = false;
    map.segs[2].bottom = false;
    let same = walk(&map, &[255, 255], &view_at(32, 0, 41, 0.0));
    assert_eq!(same.planes.len(), 2, "{:?}", same.planes);
    let apart = walk(&map, &[255, 256], &view_at(32, 0, 41, 0.0));
    assert_eq!(apart.planes.len(), 4, "{:?}", apart.planes);
    assert!(apart.planes.iter().any(|p| p.lightlevel == 256));
    assert_eq!(apart.uncovered_pixels(), 0);
}

#[test]
fn sky_planes_merge() {
    let mut map = split_room();
    map.sectors[0].ceilingpic = 99;
    map.sectors[1].ceilingpic = 99;
    map.sectors[1].ceiling = 200 << 16;
    let r = walk(&map, &[160, 100], &view_at(32, 0, 41, 0.0));
    let skies: Vec<_> = r.planes.iter().filter(|p| p.sky).collect();
    assert_eq!(skies.len(), 1, "{:?}", r.planes);
    assert_eq!((skies[0].height, skies[0].lightlevel), (0, 0));
    assert_eq!(r.uncovered_pixels(), 0);
}

#[test]
fn drawseg_limit_stops_storing() {
    let map = split_room();
    let mut v = view_at(32, 0, 41, 0.0);
    v.limits.max_drawsegs = Some(1);
    let r = walk(&map, &[160], &v);
    assert_eq!(r.drawsegs.len(), 1);
    assert!(r.stats.drawsegs_dropped > 0);
}

#[test]
fn hostile_maps_do_not_panic() {
    let v = view_at(32, 0, 41, 10.0);
    // Empty map.
    let r = walk(&VanillaMap::default(), &[], &v);
    assert_eq!(r.stats.bad_references, 1);
    // A node that is its own child on both sides, and bad subsector and seg numbers.
    let mut map = split_room();
    map.nodes.push(WalkNode { children: [1, 1], ..map.nodes[0] });
    map.nodes.push(WalkNode { children: [VANILLA_NF_SUBSECTOR | 77, 1], ..map.nodes[0] });
    map.subsectors[0].num_segs = 1000;
    map.subsectors[1].sector = 55;
    map.segs[3].back_sector = Some(1234);
    let r = walk(&map, &[], &v);
    assert!(r.stats.bad_references > 0);
    // Many subsectors each claiming every seg, under a deep chain of nodes: bounded work.
    let mut map = split_room();
    let n = 20000;
    map.subsectors = vec![WalkSubsector { first_seg: 0, num_segs: 8, sector: 0 }; n];
    map.nodes = (0..n as u32 - 1)
        .map(|i| WalkNode {
            children: [if i == 0 { VANILLA_NF_SUBSECTOR } else { i - 1 }, VANILLA_NF_SUBSECTOR | i],
            bbox: [[128, -128, 0, 256].map(|c| c << 16); 2],
            ..map.nodes[0]
        })
        .collect();
    let t = std::time::Instant::now();
    let r = walk(&map, &[160], &v);
    assert!(t.elapsed() < std::time::Duration::from_secs(5));
    assert!(r.stats.bad_references > 0);
    // Tiny and odd screens.
    for (w, h) in [(0, 0), (1, 1), (3, 2), (641, 401), (100000, 7)] {
        let mut v = VanillaView::new(w, h);
        v.set_camera(32 << 16, 0, 41 << 16, 12345);
        let r = walk(&split_room(), &[160], &v);
        assert_eq!(r.span_start().len(), (r.width * r.height) as usize);
    }
    // Extreme positions and heights.
    for (x, y, z) in [(i32::MAX, i32::MIN, 0), (0, 0, i32::MIN), (-1, 1, i32::MAX)] {
        let v = VanillaView::new(320, 200).at(x, y, z, 0x1234_5678);
        walk(&split_room(), &[160], &v);
    }
    // Too many visplanes: many sectors with different light, small cap.
    let mut map = split_room();
    map.sectors[1].light_slot = 1;
    map.sectors[1].floor_light_slot = 1;
    map.sectors[1].ceiling_light_slot = 1;
    let mut v = view_at(32, 0, 41, 0.0);
    v.limits.max_visplanes = 2;
    let r = walk(&map, &[160, 100], &v);
    assert_eq!(r.planes.len(), 2);
    assert!(r.stats.visplanes_dropped > 0);
}

/// The split room with a 16-wide sprite (origin 8 from its left, 20 below its top, flipped
/// when `flip`) standing at (224, 0) on the east half's raised floor and at (64, 32) in the
/// west half.
fn split_room_with_things(flip: bool) -> VanillaMap {
    use crate::scene::doom::vanilla::{SpritePatch, VSpriteFrame, VThing};
    let mut map = split_room();
    let things = &mut map.things;
    things.patches.push(SpritePatch {
        width: 16,
        left_offset: 8,
        top_offset: 20,
        ..Default::default()
    });
    things.frames.push(VSpriteFrame { flip: [flip; 8], ..Default::default() });
    let thing = |x: i32, y: i32, z: i32, sector| VThing {
        x: x << 16,
        y: y << 16,
        z: z << 16,
        sector,
        ..Default::default()
    };
    things.things = vec![thing(224, 0, 16, 1), thing(64, 32, 0, 0)];
    things.link(2);
    map
}

#[test]
fn things_are_projected_as_r_project_sprite_does() {
    let map = split_room_with_things(false);
    let r = walk(&map, &[160], &view_at(32, 0, 41, 0.0));
    // Far to near: the east thing (192 ahead) before the west one (32 ahead).
    let [far, near] = r.vissprites[..] else { panic!("{:?}", r.vissprites) };
    assert_eq!((far.thing, near.thing), (0, 1));
    // xscale = 160 / 192 (16.16); the patch's 16 columns from 8 left of the centre line:
    // 160 - floor(8 * 5/6) .. 160 + floor(8 * 5/6) - 1.
    assert_eq!(far.scale >> 4, (160 << 12) / 192);
    assert_eq!((far.x1, far.x2), (153, 165));
    assert_eq!((far.startfrac, far.xiscale), (0, tables::fixed_div(1 << 16, far.scale)));
    // Feet on the raised floor, top 20 above them, texturemid from the eye at 41.
    assert_eq!((far.gz, far.gzt, far.texturemid), (16 << 16, 36 << 16, -5 << 16));
    // Light 160 (level 10), scale index 13: colormap (15 - 10) * 4 - 13 / 2.
    assert_eq!(far.light, SpriteLight::Map(14));
    // The near one starts 40 columns left of the screen: clipped to column 0, its patch
    // column there 40 screen columns in.
    assert_eq!(near.x1, 0);
    assert!((38..=40).contains(&near.x2), "{}", near.x2);
    assert_eq!(near.startfrac, near.xiscale * 40);
    // Vanilla's 128 vissprites, here 1: the first the walk reaches (the west half's) stays.
    let mut view = view_at(32, 0, 41, 0.0);
    view.limits.max_vissprites = Some(1);
    let r = walk(&map, &[160], &view);
    assert_eq!(r.vissprites.iter().map(|v| v.thing).collect::<Vec<_>>(), [1]);
    assert_eq!(r.stats.vissprites_dropped, 1);
    // Behind the viewer: none.
    assert!(walk(&map, &[160], &view_at(250, 0, 57, 0.0)).vissprites.is_empty());
}

#[test]
fn flipped_frames_step_back_from_the_last_column() {
    let map = split_room_with_things(true);
    let r = walk(&map, &[160], &view_at(32, 0, 41, 0.0));
    let far = r.vissprites[0];
    assert_eq!(
        (far.startfrac, far.xiscale),
        ((16 << 16) - 1, -tables::fixed_div(1 << 16, far.scale))
    );
}

#[test]
fn a_sectors_things_are_listed_last_spawned_first() {
    use crate::scene::doom::vanilla::{VThing, VanillaThings};
    let in_sector = |sector| VThing { sector, ..Default::default() };
    let mut things = VanillaThings {
        things: vec![in_sector(0), in_sector(1), in_sector(0), in_sector(7), in_sector(0)],
        ..Default::default()
    };
    things.link(2);
    // P_SetThingPosition links each new thing at the head; one outside the sectors is in none.
    assert_eq!(things.in_sector(0), [4, 2, 0]);
    assert_eq!(things.in_sector(1), [1]);
    assert!(things.in_sector(7).is_empty());
}
