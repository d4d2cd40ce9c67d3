//! A tiny exact node builder for maps made of axis-aligned rectangular cells.
//!
//! The set of cells is split recursively by an axis-aligned line along cell edges that no
//! cell straddles (the most balanced such line; vertical first on ties). Each leaf is one
//! cell, so every subsector is a convex rectangle and no seg is ever cut: a cell's segs are
//! its boundary pieces. Two cells sharing an edge can only be separated by that edge's line,
//! so each subsector's region is exactly its cell.

use anyhow::{bail, Result};

use crate::formats::doom::map::{Linedef, Vertex};
use crate::formats::doom::nodes::{BspChild, BspNode, BspSeg, BspSubsector, Fixed};

use super::geometry::Piece;
use super::layout::{Cell, Dir};

#[derive(Clone, Debug, Default)]
pub struct Bsp {
    pub segs: Vec<BspSeg>,
    pub subsectors: Vec<BspSubsector>,
    /// Children before parents; the root is last.
    pub nodes: Vec<BspNode>,
}

/// Binary angle of a clockwise boundary piece.
fn angle(dir: Dir) -> u32 {
    match dir {
        Dir::West => 0x4000_0000,  // running north
        Dir::North => 0,           // running east
        Dir::East => 0xC000_0000,  // running south
        Dir::South => 0x8000_0000, // running west
    }
}

fn fixed(v: i16) -> Fixed {
    (v as i32) << 16
}

/// Node bounding box of a set of cells: top, bottom, left, right.
fn bbox(cells: &[Cell], set: &[usize]) -> [i16; 4] {
    let mut b = [i16::MIN, i16::MAX, i16::MAX, i16::MIN];
    for &i in set {
        let c = &cells[i];
        b = [b[0].max(c.y1), b[1].min(c.y0), b[2].min(c.x0), b[3].max(c.x1)];
    }
    b
}

struct Builder<'a> {
    cells: &'a [Cell],
    pieces: &'a [Vec<Piece>],
    vertices: &'a [Vertex],
    linedefs: &'a [Linedef],
    bsp: Bsp,
}

impl Builder<'_> {
    /// Emits the subsector of cell `ci`; returns its child reference.
    fn leaf(&mut self, ci: usize) -> BspChild {
        let first = self.bsp.segs.len() as u32;
        for p in &self.pieces[ci] {
            let ld = &self.linedefs[p.linedef as usize];
            // Offset: from the linedef's start on this side (v1 for the front, v2 for the back).
            let start = self.vertices[if p.side == 0 { ld.v1 } else { ld.v2 } as usize];
            let v = self.vertices[p.v1 as usize];
            let offset = (v.x - start.x).abs() + (v.y - start.y).abs();
            self.bsp.segs.push(BspSeg {
                v1: p.v1,
                v2: p.v2,
                angle: angle(p.dir),
                linedef: Some(p.linedef),
                side: p.side,
                offset,
                partner: None,
            });
        }
        let n = self.pieces[ci].len() as u32;
        self.bsp.subsectors.push(BspSubsector { num_segs: n, first_seg: first });
        BspChild::Subsector((self.bsp.subsectors.len() - 1) as u32)
    }

    /// Builds the subtree of `set`; returns its child reference.
    fn build(&mut self, set: &[usize]) -> Result<BspChild> {
        if let [only] = set {
            return Ok(self.leaf(*only));
        }
        let Some((vertical, at)) = best_split(self.cells, set) else {
            let names: Vec<_> = set.iter().map(|&i| self.cells[i].name).collect();
            bail!("no axis-aligned line separates cells {}", names.join(", "));
        };
        let b = bbox(self.cells, set);
        // Vertical partitions run north (front = east), horizontal ones east (front = south).
        let front: Vec<usize> = set
            .iter()
            .copied()
            .filter(|&i| if vertical { self.cells[i].x0 >= at } else { self.cells[i].y1 <= at })
            .collect();
        let back: Vec<usize> = set.iter().copied().filter(|i| !front.contains(i)).collect();
        let right = self.build(&front)?;
        let left = self.build(&back)?;
        let node = if vertical {
            BspNode {
                x: fixed(at),
                y: fixed(b[1]),
                dx: 0,
                dy: fixed(b[0] - b[1]),
                bbox: [bbox(self.cells, &front).map(fixed), bbox(self.cells, &back).map(fixed)],
                children: [right, left],
            }
        } else {
            BspNode {
                x: fixed(b[2]),
                y: fixed(at),
                dx: fixed(b[3] - b[2]),
                dy: 0,
                bbox: [bbox(self.cells, &front).map(fixed), bbox(self.cells, &back).map(fixed)],
                children: [right, left],
            }
        };
        self.bsp.nodes.push(node);
        Ok(BspChild::Node((self.bsp.nodes.len() - 1) as u32))
    }
}

/// The most balanced clean split of `set`: (vertical?, coordinate).
fn best_split(cells: &[Cell], set: &[usize]) -> Option<(bool, i16)> {
    let mut best: Option<(usize, bool, i16)> = None;
    for vertical in [true, false] {
        let mut lines: Vec<i16> = set
            .iter()
            .flat_map(|&i| {
                let c = &cells[i];
                if vertical {
                    [c.x0, c.x1]
                } else {
                    [c.y0, c.y1]
                }
            })
            .collect();
        lines.sort_unstable();
        lines.dedup();
        for &at in &lines {
            let (mut lo, mut hi) = (0, 0);
            for &i in set {
                let c = &cells[i];
                let (a, b) = if vertical { (c.x0, c.x1) } else { (c.y0, c.y1) };
                if b <= at {
                    lo += 1;
                } else if a >= at {
                    hi += 1;
                }
            }
            if lo + hi == set.len() && lo > 0 && hi > 0 {
                let score = lo.abs_diff(hi);
                if best.is_none_or(|b| score < b.0) {
                    best = Some((score, vertical, at));
                }
            }
        }
    }
    best.map(|(_, v, at)| (v, at))
}

/// Builds SEGS, SSECTORS and NODES for `cells` (every cell a leaf, in tree order).
pub fn build(
    cells: &[Cell],
    pieces: &[Vec<Piece>],
    vertices: &[Vertex],
    linedefs: &[Linedef],
) -> Result<Bsp> {
    let mut b = Builder { cells, pieces, vertices, linedefs, bsp: Bsp::default() };
    let all: Vec<usize> = (0..cells.len()).collect();
    b.build(&all)?;
    Ok(b.bsp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo_level::geometry;

    fn room(name: &'static str, (x0, y0, x1, y1): (i16, i16, i16, i16)) -> Cell {
        Cell {
            name,
            x0,
            y0,
            x1,
            y1,
            floor: 0,
            ceiling: 128,
            floor_flat: "F",
            ceiling_flat: "C",
            light: 160,
            special: 0,
            wall: "W",
            upper: "U",
            lower: "L",
        }
    }

    #[test]
    fn splits_are_balanced_and_leaves_are_cells() {
        let cells: Vec<Cell> = ["a", "b", "c", "d"]
            .into_iter()
            .zip([(0, 0, 64, 64), (64, 0, 128, 64), (0, 64, 64, 128), (64, 64, 128, 128)])
            .map(|(n, r)| room(n, r))
            .collect();
        let g = geometry::build(&cells, &[]).unwrap();
        let bsp = build(&cells, &g.pieces, &g.vertices, &g.linedefs).unwrap();
        assert_eq!(bsp.subsectors.len(), 4);
        assert_eq!(bsp.nodes.len(), 3);
        let root = bsp.nodes.last().unwrap();
        // Vertical first on ties: x = 64, east in front.
        assert_eq!((root.x, root.dx), (64 << 16, 0));
        assert_eq!(root.bbox, [[128, 0, 64, 128].map(fixed), [128, 0, 0, 64].map(fixed)]);
    }

    #[test]
    fn a_pinwheel_cannot_be_split() {
        // Four rectangles round a centre square: no line along cell edges separates them.
        let cells: Vec<Cell> = ["a", "b", "c", "d", "e"]
            .into_iter()
            .zip([
                (0, 0, 64, 32),
                (64, 0, 96, 64),
                (32, 64, 96, 96),
                (0, 32, 32, 96),
                (32, 32, 64, 64),
            ])
            .map(|(n, r)| room(n, r))
            .collect();
        let g = geometry::build(&cells, &[]).unwrap();
        let err = build(&cells, &g.pieces, &g.vertices, &g.linedefs).unwrap_err();
        assert!(err.to_string().contains("no axis-aligned line"), "{err}");
    }
}
