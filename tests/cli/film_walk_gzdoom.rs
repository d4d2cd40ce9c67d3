//! `mapscope film --walk` on UDMF rooms that use GZDoom's additions to Doom's movement rules:
//! lines that block only players, sloped floors, and solid 3D floors the walker stands on,
//! passes under, or is stopped by.

use crate::film_walk::{near, walk_map};
use crate::support::TempDir;

/// Sectors in a row along x (each `xs[k]..xs[k + 1]`, y 0..128, ceiling 200) with the given
/// floor height and more UDMF fields each, the lines between them with `between[k - 1]`'s fields; and, far off, one closed
/// control sector per `controls` entry (floor, ceiling, the control line's fields).
fn row_map(
    xs: &[i32],
    sectors: &[(i32, &str)],
    between: &[&str],
    controls: &[(i32, i32, &str)],
) -> String {
    let n = xs.len();
    assert_eq!(sectors.len(), n - 1);
    let mut t = String::from("namespace = \"zdoom\";\n");
    let vertex = |t: &mut String, x: i32, y: i32| {
        *t += &format!("vertex {{ x = {x}.0; y = {y}.0; }}\n");
    };
    for y in [0, 128] {
        for &x in xs {
            vertex(&mut t, x, y);
        }
    }
    let (bottom, top) = (|k: usize| k, |k: usize| n + k);
    let mut sides = String::new();
    let mut side_count = 0;
    let mut side = |sector: usize| {
        sides += &format!("sidedef {{ sector = {sector}; texturemiddle = \"CHECKW\"; }}\n");
        side_count += 1;
        side_count - 1
    };
    let mut line =
        |t: &mut String, v1: usize, v2: usize, front: usize, back: Option<usize>, extra: &str| {
            let f = side(front);
            match back {
                None => {
                    *t += &format!("linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {f}; {extra} }}\n")
                }
                Some(b) => {
                    let b = side(b);
                    *t += &format!(
                        "linedef {{ v1 = {v1}; v2 = {v2}; sidefront = {f}; sideback = {b}; \
                     twosided = true; {extra} }}\n"
                    );
                }
            }
        };
    // Front (right-hand) sides face into their sectors.
    for k in 0..n - 1 {
        line(&mut t, bottom(k + 1), bottom(k), k, None, "");
        line(&mut t, top(k), top(k + 1), k, None, "");
    }
    line(&mut t, bottom(0), top(0), 0, None, "");
    line(&mut t, top(n - 1), bottom(n - 1), n - 2, None, "");
    for k in 1..n - 1 {
        line(&mut t, bottom(k), top(k), k, Some(k - 1), between[k - 1]);
    }
    // Control sectors: squares at y 1000, wound clockwise so their lines face in.
    let mut next_vertex = 2 * n;
    for (i, &(_, _, extra)) in controls.iter().enumerate() {
        let (x0, y0) = (200 * i as i32, 1000);
        for (x, y) in [(x0, y0), (x0, y0 + 64), (x0 + 64, y0 + 64), (x0 + 64, y0)] {
            vertex(&mut t, x, y);
        }
        let v = next_vertex;
        let sector = n - 1 + i;
        for e in 0..4 {
            line(&mut t, v + e, v + (e + 1) % 4, sector, None, if e == 0 { extra } else { "" });
        }
        next_vertex += 4;
    }
    t += &sides;
    let sector = |t: &mut String, floor: i32, ceiling: i32, extra: &str| {
        *t += &format!(
            "sector {{ heightfloor = {floor}; heightceiling = {ceiling}; texturefloor = \
             \"STRIPES\"; textureceiling = \"STRIPES\"; lightlevel = 192; {extra} }}\n"
        );
    };
    for &(floor, extra) in sectors {
        sector(&mut t, floor, 200, extra);
    }
    for &(floor, ceiling, _) in controls {
        sector(&mut t, floor, ceiling, "");
    }
    t
}

#[test]
fn lines_that_block_players_stop_the_walker_and_others_let_it_through() {
    for (flag, stops) in [
        ("blockplayers = true;", true),
        ("blockeverything = true;", true),
        ("blockmonsters = true;", false),
    ] {
        let dir = TempDir::new("walk-blockplayers");
        let map = row_map(&[0, 256, 512], &[(0, ""), (0, "")], &[flag], &[]);
        let eyes = walk_map(&dir, map, [64.0, 64.0], [450.0, 64.0], 2.0);
        let last = eyes.last().unwrap();
        let expected = if stops { 256.0 - 16.0 } else { 450.0 };
        assert!(near(last[0], expected), "{flag}: stopped at {last:?}");
    }
}

/// The floor of [`sloped_room`] at `x`: level 0, then rising 1 in 4 from x 256 to 64 at x 512.
fn slope_floor(x: f64) -> f64 {
    ((x - 256.0) / 4.0).clamp(0.0, 64.0)
}

/// A level room, a room whose floor rises 64 over 256 units eastwards (a UDMF plane
/// equation), and a level room at the top.
fn sloped_room() -> String {
    // -x + 4 z + 256 = 0 with a unit normal (GZDoom keeps d as written).
    let k = 17f64.sqrt();
    let plane = format!(
        "floorplane_a = {}; floorplane_b = 0.0; floorplane_c = {}; floorplane_d = {};",
        -1.0 / k,
        4.0 / k,
        256.0 / k
    );
    row_map(&[0, 256, 512, 768], &[(0, ""), (0, &plane), (64, "")], &["", ""], &[])
}

#[test]
fn a_walker_keeps_to_a_sloped_floor_up_and_down() {
    let dir = TempDir::new("walk-slope");
    let up = walk_map(&dir, sloped_room(), [64.0, 64.0], [700.0, 64.0], 3.0);
    let last = up.last().unwrap();
    assert!(near(last[0], 700.0) && near(last[2], 64.0 + 41.0), "ends at {last:?}");
    let dir = TempDir::new("walk-slope-down");
    let down = walk_map(&dir, sloped_room(), [700.0, 64.0], [64.0, 64.0], 3.0);
    assert!(near(down.last().unwrap()[2], 41.0), "ends at {:?}", down.last());
    // Every frame's eye 41 over the slope under it, going up and coming down, except where
    // the box overhangs the top room's edge and stands on it.
    for e in up.iter().chain(&down).filter(|e| (e[0] - 512.0).abs() >= 16.0) {
        assert!((e[2] - (slope_floor(e[0]) + 41.0)).abs() < 0.01, "eye {e:?}");
    }
    let on_slope = down.iter().filter(|e| e[0] > 300.0 && e[0] < 480.0).count();
    assert!(on_slope >= 5, "too few frames on the slope: {down:?}");
}

/// Three rooms in a row, floor 0 and ceiling 200: the middle one holds a solid 3D floor from
/// 0 to 24 (a step onto it), the last one a solid 3D floor from `bottom` to `top`.
fn slab_room(bottom: i32, top: i32) -> String {
    // Sector_Set3dFloor (160): tag, type 1 (solid), flags 0, alpha 255.
    let control = |tag: i32| format!("special = 160; arg0 = {tag}; arg1 = 1; arg3 = 255;");
    row_map(
        &[0, 256, 384, 640],
        &[(0, ""), (0, "id = 1;"), (0, "id = 2;")],
        &["", ""],
        &[(0, 24, &control(1)), (bottom, top, &control(2))],
    )
}

#[test]
fn a_walker_steps_onto_a_solid_3d_floor_and_is_stopped_by_one_it_cannot_climb_or_pass_under() {
    let dir = TempDir::new("walk-3d-blocked");
    let eyes = walk_map(&dir, slab_room(40, 60), [64.0, 64.0], [600.0, 64.0], 3.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 384.0 - 16.0) && near(last[2], 24.0 + 41.0), "ends at {last:?}");
    // On the 3D floor once wholly over it.
    for e in eyes.iter().filter(|e| e[0] > 256.0 + 16.0) {
        assert!(near(e[2], 24.0 + 41.0), "eye {e:?}");
    }
}

#[test]
fn a_walker_passes_under_a_high_3d_floor_and_drops_to_the_floor_beneath() {
    let dir = TempDir::new("walk-3d-under");
    let eyes = walk_map(&dir, slab_room(80, 100), [64.0, 64.0], [600.0, 64.0], 3.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 600.0) && near(last[2], 41.0), "ends at {last:?}");
    assert!(eyes.iter().any(|e| near(e[2], 24.0 + 41.0)), "never on the step: {eyes:?}");
}

#[test]
fn a_thin_3d_floor_just_over_the_feet_is_stepped_onto_not_a_ceiling() {
    // VGPDM03's start stands under a walkway 12 to 14 over the floor: the body must walk on.
    let control = "special = 160; arg0 = 1; arg1 = 1; arg3 = 255;";
    let map = row_map(&[0, 256, 512], &[(0, "id = 1;"), (0, "")], &[""], &[(12, 14, control)]);
    let dir = TempDir::new("walk-3d-walkway");
    let eyes = walk_map(&dir, map, [64.0, 64.0], [450.0, 64.0], 2.0);
    let last = eyes.last().unwrap();
    assert!(near(last[0], 450.0) && near(last[2], 41.0), "ends at {last:?}");
    assert!(eyes.iter().any(|e| near(e[2], 14.0 + 41.0)), "never on the walkway: {eyes:?}");
}
