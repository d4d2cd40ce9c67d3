//! A level's polygons as the scene's cells: each polygon a cell, each line it shares with
//! another polygon an opening where the builder drew no solid panel over it, so the renderer
//! can walk from the camera's polygon through what it sees into, as the engine does.

use std::collections::HashMap;

use super::level::Level;
use crate::scene::{Cell, CellEdge, CellMap, NO_CELL};

/// What the builder drew of each polygon that hides what is behind it.
#[derive(Default)]
pub struct Cover {
    /// Per (polygon, line), the heights of the solid panels drawn on the polygon's side.
    pub panels: HashMap<(usize, usize), Vec<(i16, i16)>>,
    /// Polygons whose floor or ceiling has see-through texels.
    pub see_through: Vec<usize>,
}

/// Whether polygon `p` is a cell: drawn, with room between floor and ceiling.
fn is_cell(level: &Level, p: usize) -> bool {
    level.polygon_ok.get(p).copied().unwrap_or(false) && level.ceiling[p] > level.floor[p]
}

/// `[from, to]` less the intervals in `cover`.
fn uncovered(from: i16, to: i16, cover: &[(i16, i16)]) -> Vec<(i16, i16)> {
    let mut open = vec![(from, to)];
    for &(b, t) in cover {
        open = open
            .into_iter()
            .flat_map(|(lo, hi)| {
                let below = (lo, hi.min(b));
                let above = (lo.max(t), hi);
                [below, above].into_iter().filter(|(lo, hi)| hi > lo)
            })
            .collect();
    }
    open
}

/// The cells of `level`: surface number `p + 1` is polygon `p`'s (as the builder numbers
/// them).
pub fn cell_map(level: &Level, cover: &Cover) -> CellMap {
    let n = level.polygons.len();
    let mut cells = Vec::with_capacity(n);
    for p in 0..n {
        cells.push(cell(level, cover, p).unwrap_or_default());
    }
    for &p in &cover.see_through {
        if let Some(c) = cells.get_mut(p) {
            c.leaks = true;
        }
    }
    let of_surface = std::iter::once(NO_CELL)
        .chain((0..n).map(|p| if is_cell(level, p) { p as u32 } else { NO_CELL }))
        .collect();
    CellMap { cells, of_surface }
}

fn cell(level: &Level, cover: &Cover, p: usize) -> Option<Cell> {
    if !is_cell(level, p) {
        return None;
    }
    let ring = level.polygon_vertices(p)?;
    let poly = &level.polygons[p];
    let (floor, ceiling) = (level.floor[p], level.ceiling[p]);
    let count = ring.len();
    let lines = &poly.lines[..count.min(poly.lines.len())];
    let mut edges = Vec::with_capacity(count);
    for k in 0..count {
        let (a, b) = (poly.endpoints[k], poly.endpoints[(k + 1) % count]);
        // The line joining the two corners (lines are usually in ring order, not always).
        let line = lines.iter().filter_map(|&l| usize::try_from(l).ok()).find(|&l| {
            level
                .lines
                .get(l)
                .is_some_and(|line| line.endpoints == [a, b] || line.endpoints == [b, a])
        });
        let Some(l) = line else {
            edges.push(CellEdge { portal: None, leaks: true });
            continue;
        };
        let panels = cover.panels.get(&(p, l)).map_or(&[][..], |v| &v[..]);
        let open = uncovered(floor, ceiling, panels);
        let line = &level.lines[l];
        let other = [line.clockwise_polygon, line.counterclockwise_polygon]
            .into_iter()
            .filter_map(|o| usize::try_from(o).ok())
            .find(|&o| o != p && is_cell(level, o));
        let mut edge = CellEdge::default();
        match other {
            Some(o) => {
                let (lo, hi) = (floor.max(level.floor[o]), ceiling.min(level.ceiling[o]));
                let mut through: Option<(i16, i16)> = None;
                for &(b, t) in &open {
                    let (b2, t2) = (b.max(lo), t.min(hi));
                    if t2 > b2 {
                        through = Some(through.map_or((b2, t2), |(x, y)| (x.min(b2), y.max(t2))));
                    }
                    edge.leaks |= b < lo || t > hi;
                }
                edge.portal = through.map(|(b, t)| (o as u32, b as f32, t as f32));
            }
            None => edge.leaks = !open.is_empty(),
        }
        edges.push(edge);
    }
    Some(Cell {
        ring: ring.iter().map(|q| [q.x as f32, q.y as f32]).collect(),
        floor: floor as f32,
        ceiling: ceiling as f32,
        edges,
        leaks: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::marathon::map::{MapObject, Point};
    use crate::formats::marathon::writer::{self, LevelChunks, Room, RoomPolygon, SideSpec};
    use crate::formats::marathon::{build, station, Wad};
    use crate::scene::vertex_flags;

    fn load(bytes: &[u8]) -> Level {
        let wad = Wad::parse("test.sceA", bytes).unwrap_or_else(|e| panic!("{e}"));
        Level::load(&wad, 0).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_station_is_closed_but_for_its_openings() {
        let level = load(&station::station_wad().0);
        let scene = build::build_scene(&level, None, &[]);
        let cells = scene.cells.expect("Marathon levels have cells");
        assert_eq!(cells.cells.len(), level.polygons.len());
        let (mut portals, mut walls) = (0, 0);
        for (p, c) in cells.cells.iter().enumerate() {
            assert!(!c.leaks && c.edges.iter().all(|e| !e.leaks), "polygon {p} leaks");
            for e in &c.edges {
                match e.portal {
                    Some((to, bottom, top)) => {
                        let o = &cells.cells[to as usize];
                        assert!(bottom >= c.floor.max(o.floor) && top <= c.ceiling.min(o.ceiling));
                        portals += 1;
                    }
                    None => walls += 1,
                }
            }
        }
        // Most lines join two polygons; each is an opening from both sides.
        assert!(portals > walls, "{portals} openings, {walls} walls");
        // Every triangle is in its polygon's cell.
        for v in &scene.world {
            assert_eq!(cells.cell_of(v.surface), Some(v.surface - 1));
        }
    }

    /// Two square polygons side by side along x; the second's edge toward +y shows `second`.
    fn pair(second: Option<SideSpec>, second_ceiling: i16) -> Vec<u8> {
        let square = |x: i16| {
            [(x, 0), (x + 1024, 0), (x + 1024, 1024), (x, 1024)]
                .map(|(x, y)| Point { x, y })
                .to_vec()
        };
        let wall = Some(SideSpec::full(0x1501, 0));
        let polygon = |x: i16, ceiling: i16, south: Option<SideSpec>| RoomPolygon {
            vertices: square(x),
            floor: 0,
            ceiling,
            floor_texture: 0x1508,
            ceiling_texture: 0x1509,
            floor_light: 0,
            ceiling_light: 0,
            floor_transfer_mode: 0,
            ceiling_transfer_mode: 0,
            kind: 0,
            media: -1,
            sides: vec![wall, wall, south, wall],
        };
        let mut high = SideSpec::full(0x1501, 0);
        high.kind = 1;
        let first_sides = |p: RoomPolygon| {
            let mut p = p;
            // Toward the second polygon: a high side where its ceiling is lower.
            p.sides[1] = (second_ceiling < 2048).then_some(high);
            p
        };
        let rooms = [first_sides(polygon(0, 2048, wall)), {
            let mut p = polygon(1024, second_ceiling, second);
            p.sides[3] = None;
            p
        }];
        let r = Room::build(&rooms);
        let player =
            MapObject { kind: 3, index: 0, facing: 0, polygon: 0, x: 512, y: 512, z: 0, flags: 0 };
        let level = LevelChunks::of_room("Pair", &r, &[writer::constant_light(1.0)], &[player]);
        writer::wad(4, 1, "Pair", &[level])
    }

    #[test]
    fn an_edge_with_no_wall_drawn_leaks_and_openings_span_the_shared_heights() {
        let level = load(&pair(Some(SideSpec::full(0x1501, 0)), 1024));
        let scene = build::build_scene(&level, None, &[]);
        let cells = scene.cells.expect("cells");
        let (first, second) = (&cells.cells[0], &cells.cells[1]);
        assert!(first.edges.iter().chain(&second.edges).all(|e| !e.leaks));
        assert_eq!(first.edges[1].portal, Some((1, 0.0, 1024.0)));
        assert_eq!(second.edges[3].portal, Some((0, 0.0, 1024.0)));
        // The second polygon's wall toward +y is missing: the view leaves the cells there.
        let level = load(&pair(None, 1024));
        let scene = build::build_scene(&level, None, &[]);
        let cells = scene.cells.expect("cells");
        assert!(cells.cells[1].edges[2].leaks);
        assert!(!cells.cells[0].edges[2].leaks);
        // info counts it.
        let open = scene.facts.counts.iter().find(|(k, _)| k == "polygons_open_to_the_void");
        assert_eq!(open.map(|(_, v)| *v), Some(1));
    }

    #[test]
    fn a_wall_beside_a_shorter_one_gets_a_corner_where_it_ends() {
        // Both polygons' walls toward +y stand in one plane and share the corner (1024,
        // 1024); the first is 2048 high, the second 1024. The first's edge there must have a
        // corner at 1024 too, or the pixels on the shared part of the edge may go to neither.
        let level = load(&pair(Some(SideSpec::full(0x1501, 0)), 1024));
        let scene = build::build_scene(&level, None, &[]);
        let first_wall_corners: Vec<[f32; 3]> = scene
            .world
            .iter()
            .filter(|v| v.surface == 1 && v.flags & vertex_flags::KIND_MASK == 0)
            .map(|v| v.pos)
            .collect();
        assert!(first_wall_corners.contains(&[1024.0, 1024.0, 1024.0]), "{first_wall_corners:?}");
        // Walls that end at the same heights are two triangles each, as before.
        let level = load(&pair(Some(SideSpec::full(0x1501, 0)), 2048));
        let scene = build::build_scene(&level, None, &[]);
        let walls = scene.world.chunks(3).filter(|t| t[0].flags & vertex_flags::KIND_MASK == 0);
        assert_eq!(walls.count(), 2 * 6);
    }

    #[test]
    fn uncovered_leaves_the_gaps_between_panels() {
        assert_eq!(uncovered(0, 100, &[]), [(0, 100)]);
        assert_eq!(uncovered(0, 100, &[(0, 30), (70, 100)]), [(30, 70)]);
        assert_eq!(uncovered(0, 100, &[(0, 100)]), []);
        assert_eq!(uncovered(0, 100, &[(20, 40)]), [(0, 20), (40, 100)]);
    }
}
