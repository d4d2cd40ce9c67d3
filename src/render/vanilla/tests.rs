//! The walk on hand-made maps: a two-room map from every direction, plane merging, the
//! drawseg and visplane limits, and broken or hostile maps. The walk against Chocolate Doom's
//! frames on Freedoom's maps is tests/vanilla_walk.rs.

use super::tables::{ANG180, ANG270, ANG90};
use super::*;
use crate::scene::vanilla_doom::{
    VNode, VSector, VSeg, VSubsector, VanillaMap, VANILLA_NF_SUBSECTOR,
};

fn seg(v1: [i32; 2], v2: [i32; 2], angle: u32, back: Option<u32>, sector: u32) -> VSeg {
    VSeg {
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
    let sector = |floor: i32| VSector {
        floor: floor << 16,
        ceiling: 128 << 16,
        floorpic: 1,
        ceilingpic: 2,
        ..Default::default()
    };
    VanillaMap {
        nodes: vec![VNode {
            x: 128 << 16,
            y: -128 << 16,
            dx: 0,
            dy: 256 << 16,
            bbox: [[128, -128, 128, 256].map(|c| c << 16), [128, -128, 0, 128].map(|c| c << 16)],
            children: [VANILLA_NF_SUBSECTOR | 1, VANILLA_NF_SUBSECTOR],
        }],
        subsectors: vec![
            VSubsector { first_seg: 0, num_segs: 4, sector: 0 },
            VSubsector { first_seg: 4, num_segs: 4, sector: 1 },
        ],
        segs,
        sectors: vec![sector(0), sector(16)],
        sky_flat: 99,
        flat_textures: Vec::new(),
        texture_memory: Default::default(),
        things: Default::default(),
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
    map.nodes.push(VNode { children: [1, 1], ..map.nodes[0] });
    map.nodes.push(VNode { children: [VANILLA_NF_SUBSECTOR | 77, 1], ..map.nodes[0] });
    map.subsectors[0].num_segs = 1000;
    map.subsectors[1].sector = 55;
    map.segs[3].back_sector = Some(1234);
    let r = walk(&map, &[], &v);
    assert!(r.stats.bad_references > 0);
    // Many subsectors each claiming every seg, under a deep chain of nodes: bounded work.
    let mut map = split_room();
    let n = 20000;
    map.subsectors = vec![VSubsector { first_seg: 0, num_segs: 8, sector: 0 }; n];
    map.nodes = (0..n as u32 - 1)
        .map(|i| VNode {
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
