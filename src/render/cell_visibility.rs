//! Which of a level's cells the camera can see into: a walk from the camera's cell through
//! the openings in view, each opening narrowing the screen rectangle the cells beyond it can
//! show in, as Marathon's engine walks its polygons through the lines it sees through. What a
//! frame draws is then only the visible cells' triangles.
//!
//! The rectangles only ever grow the set (an opening's rectangle holds every pixel seen
//! through it), so no triangle that covers a pixel centre is dropped: a pixel's ray crosses
//! a chain of openings, each rectangle on the way holds that pixel, and the ray ends on a
//! drawn surface of the last cell it enters. Where a ray could leave the cells (a gap no
//! surface covers, a see-through floor) or the camera is in no cell, every cell is taken.

use glam::{Mat4, Vec2, Vec3, Vec4};

use crate::scene::{CellEdge, CellMap, NO_CELL};

/// A screen rectangle in normalised device coordinates: x0, y0, x1, y1.
type Window = [f32; 4];

/// The whole screen, with a margin for rounding.
const FULL: Window = [-1.02, -1.02, 1.02, 1.02];
/// How far rectangles are widened (in NDC, a few pixels at any size a viewer uses), so that
/// an opening's projection rounded differently from its triangles' cannot lose a pixel.
const MARGIN: f32 = 0.01;
/// How far from a cell's boundary (in render units) an eye counts as on it.
const ON_EDGE: f32 = 1e-3;
/// Clip-space w below which a point is taken as at the eye.
const W_EPSILON: f32 = 1e-3;
/// Cell visits allowed per cell before the walk gives up and takes every cell (a cell seen
/// through many openings is visited once for each rectangle that adds to what it shows).
const VISITS_PER_CELL: usize = 16;

struct Prepared {
    ring: Vec<Vec2>,
    floor: f32,
    ceiling: f32,
    edges: Vec<CellEdge>,
    leaks: bool,
}

/// The cells and this frame's visibility.
pub struct CellVisibility {
    cells: Vec<Prepared>,
    of_surface: Vec<u32>,
    /// Per cell, the union of the rectangles it has been seen through this frame (empty:
    /// not seen).
    seen: Vec<Window>,
    visible: Vec<bool>,
    stack: Vec<(u32, Window)>,
}

impl CellVisibility {
    pub fn new(map: &CellMap) -> CellVisibility {
        let cells: Vec<Prepared> = map
            .cells
            .iter()
            .map(|c| Prepared {
                ring: c.ring.iter().map(|&p| Vec2::from(p)).collect(),
                floor: c.floor,
                ceiling: c.ceiling,
                edges: c.edges.clone(),
                leaks: c.leaks,
            })
            .collect();
        let n = cells.len();
        CellVisibility {
            cells,
            of_surface: map.of_surface.clone(),
            seen: vec![EMPTY; n],
            visible: vec![false; n],
            stack: Vec::new(),
        }
    }

    /// The cell of a triangle by its surface number ([`NO_CELL`]: none).
    pub fn cell_of(&self, surface: u32) -> u32 {
        self.of_surface.get(surface as usize).copied().unwrap_or(NO_CELL)
    }

    /// Marks the cells `eye` can see into through `view_proj` (render space to clip space);
    /// `None` when anything may be seen.
    pub fn update(&mut self, view_proj: Mat4, eye: Vec3) -> Option<&[bool]> {
        self.seen.fill(EMPTY);
        self.visible.fill(false);
        self.stack.clear();
        // The cells the eye is in (on an opening, the cells on both sides). An eye outside
        // them all, even a little, may see anything through the back of a wall.
        for (i, c) in self.cells.iter().enumerate() {
            let inside = eye.y >= c.floor - ON_EDGE
                && eye.y <= c.ceiling + ON_EDGE
                && near_ring(&c.ring, Vec2::new(eye.x, eye.z), ON_EDGE);
            if inside {
                self.stack.push((i as u32, FULL));
                self.seen[i] = FULL;
            }
        }
        if self.stack.is_empty() {
            return None;
        }
        let mut budget = VISITS_PER_CELL * self.cells.len();
        while let Some((c, window)) = self.stack.pop() {
            budget = budget.checked_sub(1)?;
            let cell = &self.cells[c as usize];
            if cell.leaks {
                return None;
            }
            self.visible[c as usize] = true;
            let n = cell.ring.len();
            for (k, edge) in cell.edges.iter().enumerate().take(n) {
                let (a, b) = (cell.ring[k], cell.ring[(k + 1) % n]);
                if edge.leaks {
                    let quad = quad(a, b, cell.floor, cell.ceiling);
                    if overlap(window, project(view_proj, &quad)).is_some() {
                        return None;
                    }
                }
                let Some((to, bottom, top)) = edge.portal else { continue };
                let Some(to_cell) = self.cells.get(to as usize) else { continue };
                if to_cell.ring.is_empty() {
                    continue;
                }
                let Some(through) = overlap(window, project(view_proj, &quad(a, b, bottom, top)))
                else {
                    continue;
                };
                let seen = &mut self.seen[to as usize];
                if contains(*seen, through) {
                    continue;
                }
                *seen = union(*seen, through);
                self.stack.push((to, through));
            }
        }
        Some(&self.visible)
    }
}

/// No rectangle (x0 > x1).
const EMPTY: Window = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];

fn quad(a: Vec2, b: Vec2, bottom: f32, top: f32) -> [Vec3; 4] {
    [
        Vec3::new(a.x, bottom, a.y),
        Vec3::new(b.x, bottom, b.y),
        Vec3::new(b.x, top, b.y),
        Vec3::new(a.x, top, a.y),
    ]
}

/// The screen rectangle of the part of `quad` in front of the eye (widened by [`MARGIN`]);
/// empty where none is.
fn project(view_proj: Mat4, quad: &[Vec3; 4]) -> Window {
    let clip = quad.map(|p| view_proj * p.extend(1.0));
    let mut out = EMPTY;
    let mut add = |p: Vec4| {
        let (x, y) = (p.x / p.w, p.y / p.w);
        out = [out[0].min(x), out[1].min(y), out[2].max(x), out[3].max(y)];
    };
    // The polygon clipped to w >= W_EPSILON: each corner in front, and where an edge crosses.
    for i in 0..4 {
        let (p, q) = (clip[i], clip[(i + 1) % 4]);
        if p.w >= W_EPSILON {
            add(p);
        }
        if (p.w >= W_EPSILON) != (q.w >= W_EPSILON) {
            let t = (W_EPSILON - p.w) / (q.w - p.w);
            add(p + (q - p) * t);
        }
    }
    if out[0] > out[2] {
        return EMPTY;
    }
    [out[0] - MARGIN, out[1] - MARGIN, out[2] + MARGIN, out[3] + MARGIN]
}

fn overlap(a: Window, b: Window) -> Option<Window> {
    let w = [a[0].max(b[0]), a[1].max(b[1]), a[2].min(b[2]), a[3].min(b[3])];
    (w[0] <= w[2] && w[1] <= w[3]).then_some(w)
}

fn contains(outer: Window, inner: Window) -> bool {
    outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3]
}

fn union(a: Window, b: Window) -> Window {
    [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])]
}

/// Whether `p` is inside `ring` (any winding, convex or not) or within `reach` of its edges.
fn near_ring(ring: &[Vec2], p: Vec2, reach: f32) -> bool {
    let n = ring.len();
    if n < 3 {
        return false;
    }
    let mut inside = false;
    for k in 0..n {
        let (a, b) = (ring[k], ring[(k + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
            inside = !inside;
        }
        let ab = b - a;
        let t = ((p - a).dot(ab) / ab.length_squared().max(f32::MIN_POSITIVE)).clamp(0.0, 1.0);
        if (a + ab * t).distance_squared(p) <= reach * reach {
            return true;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Cell;

    /// Three square rooms in a row along +x, 100 units wide, joined by openings; the third
    /// only reached through the second.
    fn row() -> CellMap {
        let square = |x: f32| vec![[x, 0.0], [x + 100.0, 0.0], [x + 100.0, 100.0], [x, 100.0]];
        let wall = CellEdge { portal: None, leaks: false };
        let door = |to: u32| CellEdge { portal: Some((to, 0.0, 80.0)), leaks: false };
        let cell = |x: f32, edges: Vec<CellEdge>| Cell {
            ring: square(x),
            floor: 0.0,
            ceiling: 100.0,
            edges,
            leaks: false,
        };
        CellMap {
            cells: vec![
                cell(0.0, vec![wall, door(1), wall, wall]),
                cell(100.0, vec![wall, door(2), wall, door(0)]),
                cell(200.0, vec![wall, wall, wall, door(1)]),
            ],
            of_surface: vec![NO_CELL, 0, 1, 2],
        }
    }

    fn look(eye: Vec3, dir: Vec3) -> Mat4 {
        Mat4::perspective_rh(1.2, 1.6, 1.0, 10_000.0) * Mat4::look_at_rh(eye, eye + dir, Vec3::Y)
    }

    #[test]
    fn sees_down_the_row_but_not_behind() {
        let mut v = CellVisibility::new(&row());
        let eye = Vec3::new(50.0, 50.0, 50.0);
        assert_eq!(v.update(look(eye, Vec3::X), eye), Some(&[true, true, true][..]));
        // Looking away from the openings: only the eye's own room.
        let seen = v.update(look(eye, Vec3::NEG_X), eye).map(|s| s.to_vec());
        assert_eq!(seen, Some(vec![true, false, false]));
    }

    #[test]
    fn an_eye_in_no_cell_or_a_leak_in_view_sees_everything() {
        let mut v = CellVisibility::new(&row());
        let outside = Vec3::new(-500.0, 50.0, 50.0);
        assert_eq!(v.update(look(outside, Vec3::X), outside), None);
        let mut map = row();
        map.cells[2].edges[1].leaks = true;
        let mut v = CellVisibility::new(&map);
        let eye = Vec3::new(50.0, 50.0, 50.0);
        assert_eq!(v.update(look(eye, Vec3::X), eye), None);
        assert!(v.update(look(eye, Vec3::NEG_X), eye).is_some());
    }

    #[test]
    fn an_eye_at_an_opening_sees_into_both_cells() {
        let mut v = CellVisibility::new(&row());
        // On the line between the first and second rooms, looking along it.
        let eye = Vec3::new(100.0, 50.0, 50.0);
        let seen = v.update(look(eye, Vec3::Z), eye).map(|s| s.to_vec());
        assert_eq!(seen, Some(vec![true, true, false]));
    }
}
