//! Turns the cell plan into map records: vertices, linedefs, sidedefs and sectors, plus each
//! cell's boundary pieces (clockwise, split wherever a neighbouring cell starts or ends) for
//! the node builder.

use std::collections::BTreeMap;

use anyhow::{bail, Result};

use crate::formats::doom::map::{line_flags, Linedef, Sector, Sidedef, Vertex};

use super::layout::{Cell, Dir, EdgeStyle};

/// One straight piece of a cell's boundary, traversed clockwise (the cell on its right).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub dir: Dir,
    /// Vertex numbers of its start and end.
    pub v1: u32,
    pub v2: u32,
    /// The cell across it, if any.
    pub other: Option<usize>,
    pub linedef: u32,
    /// 0: the cell is the linedef's front side; 1: its back side.
    pub side: u8,
}

#[derive(Clone, Debug, Default)]
pub struct Geometry {
    pub vertices: Vec<Vertex>,
    pub linedefs: Vec<Linedef>,
    pub sidedefs: Vec<Sidedef>,
    pub sectors: Vec<Sector>,
    /// Per cell, its boundary pieces in clockwise order starting at the south-west corner.
    pub pieces: Vec<Vec<Piece>>,
}

/// Checks that cells have positive size, unique names and do not overlap.
pub fn validate(cells: &[Cell]) -> Result<()> {
    for (i, a) in cells.iter().enumerate() {
        if a.x0 >= a.x1 || a.y0 >= a.y1 {
            bail!("cell {} is empty", a.name);
        }
        for b in &cells[i + 1..] {
            if a.name == b.name {
                bail!("two cells are named {}", a.name);
            }
            if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 {
                bail!("cells {} and {} overlap", a.name, b.name);
            }
        }
    }
    Ok(())
}

/// A map point.
type Point = (i16, i16);

/// The four sides of a cell in clockwise order: (side, start, end).
fn sides(c: &Cell) -> [(Dir, Point, Point); 4] {
    [
        (Dir::West, (c.x0, c.y0), (c.x0, c.y1)),
        (Dir::North, (c.x0, c.y1), (c.x1, c.y1)),
        (Dir::East, (c.x1, c.y1), (c.x1, c.y0)),
        (Dir::South, (c.x1, c.y0), (c.x0, c.y0)),
    ]
}

/// Splits one side of cell `ci` into (start, end, neighbour) pieces, in traversal order.
fn split_side(
    cells: &[Cell],
    ci: usize,
    dir: Dir,
    a: (i16, i16),
    b: (i16, i16),
) -> Vec<(Point, Point, Option<usize>)> {
    let c = &cells[ci];
    // The side as an interval along its axis, and each neighbour's overlap with it.
    let vertical = matches!(dir, Dir::West | Dir::East);
    let (lo, hi) = if vertical { (c.y0, c.y1) } else { (c.x0, c.x1) };
    let mut neighbours = Vec::new();
    for (ni, n) in cells.iter().enumerate() {
        let touches = match dir {
            Dir::West => n.x1 == c.x0,
            Dir::East => n.x0 == c.x1,
            Dir::North => n.y0 == c.y1,
            Dir::South => n.y1 == c.y0,
        };
        let (nlo, nhi) = if vertical { (n.y0, n.y1) } else { (n.x0, n.x1) };
        if ni != ci && touches && nlo < hi && nhi > lo {
            neighbours.push((nlo.max(lo), nhi.min(hi), ni));
        }
    }
    let mut cuts = vec![lo, hi];
    for &(l, h, _) in &neighbours {
        cuts.extend([l, h]);
    }
    cuts.sort_unstable();
    cuts.dedup();
    let point = |t: i16| if vertical { (a.0, t) } else { (t, a.1) };
    let mut out: Vec<_> = cuts
        .windows(2)
        .map(|w| {
            let other = neighbours.iter().find(|&&(l, h, _)| l <= w[0] && w[1] <= h).map(|n| n.2);
            (point(w[0]), point(w[1]), other)
        })
        .collect();
    // Pieces run lo -> hi; the clockwise traversal runs from `a` to `b`.
    let forward = if vertical { a.1 < b.1 } else { a.0 < b.0 };
    if !forward {
        out.reverse();
        for p in &mut out {
            std::mem::swap(&mut p.0, &mut p.1);
        }
    }
    out
}

/// Every style for the sidedef facing `cell` across `other` (or on its side `dir`).
fn find_styles<'a>(
    styles: &'a [EdgeStyle],
    cell: &Cell,
    other: Option<&Cell>,
    dir: Dir,
) -> Vec<&'a EdgeStyle> {
    styles
        .iter()
        .filter(|s| {
            s.cell == cell.name
                && match other {
                    Some(o) => s.other == Some(o.name),
                    None => s.other.is_none() && s.dir == Some(dir),
                }
        })
        .collect()
}

/// Builds the map records of `cells` styled by `styles`.
pub fn build(cells: &[Cell], styles: &[EdgeStyle]) -> Result<Geometry> {
    validate(cells)?;
    for s in styles {
        for name in std::iter::once(s.cell).chain(s.other) {
            if !cells.iter().any(|c| c.name == name) {
                bail!("edge style names unknown cell {name}");
            }
        }
    }
    let mut g = Geometry::default();
    let mut vertex_of = BTreeMap::new();
    let mut vertex = |g: &mut Geometry, p: (i16, i16)| -> u32 {
        *vertex_of.entry(p).or_insert_with(|| {
            g.vertices.push(Vertex::units(p.0 as i32, p.1 as i32));
            (g.vertices.len() - 1) as u32
        })
    };
    // Two-sided linedefs by (lower cell, higher cell, start vertex as the lower cell sees it).
    let mut shared: BTreeMap<(usize, usize, u32), u32> = BTreeMap::new();

    for (ci, c) in cells.iter().enumerate() {
        let mut pieces = Vec::new();
        for (dir, a, b) in sides(c) {
            for (pa, pb, other) in split_side(cells, ci, dir, a, b) {
                let (v1, v2) = (vertex(&mut g, pa), vertex(&mut g, pb));
                let (linedef, side) = match other {
                    Some(ni) if ni < ci => (shared[&(ni, ci, v2)], 1),
                    _ => {
                        let ld = g.linedefs.len() as u32;
                        if let Some(ni) = other {
                            shared.insert((ci, ni, v1), ld);
                        }
                        g.linedefs.push(Linedef {
                            v1,
                            v2,
                            flags: if other.is_some() {
                                line_flags::TWO_SIDED
                            } else {
                                line_flags::IMPASSABLE
                            },
                            ..Default::default()
                        });
                        (ld, 0)
                    }
                };
                let o = other.map(|ni| &cells[ni]);
                let found = find_styles(styles, c, o, dir);
                let sd = sidedef(c, o, &found, pa, pb, ci as u32);
                let ld = &mut g.linedefs[linedef as usize];
                ld.sides[side as usize] = Some(g.sidedefs.len() as u32);
                for s in found {
                    ld.flags |= s.flags;
                    ld.special = ld.special.max(s.special);
                }
                g.sidedefs.push(sd);
                pieces.push(Piece { dir, v1, v2, other, linedef, side });
            }
        }
        g.pieces.push(pieces);
    }
    g.sectors = cells
        .iter()
        .map(|c| Sector {
            floor: c.floor,
            ceiling: c.ceiling,
            floor_flat: c.floor_flat.into(),
            ceiling_flat: c.ceiling_flat.into(),
            light: c.light,
            special: c.special,
            tag: 0,
        })
        .collect();
    Ok(g)
}

/// The sidedef facing `c` along the piece `a` -> `b` (clockwise round `c`).
fn sidedef(
    c: &Cell,
    other: Option<&Cell>,
    styles: &[&EdgeStyle],
    a: (i16, i16),
    b: (i16, i16),
    sector: u32,
) -> Sidedef {
    let (mut upper, mut lower, mut middle) = match other {
        None => ("-", "-", c.wall),
        Some(o) => (
            if o.ceiling < c.ceiling { o.upper } else { "-" },
            if o.floor > c.floor { o.lower } else { "-" },
            "-",
        ),
    };
    let mut y_offset = 0;
    for s in styles {
        y_offset += s.y_offset;
        upper = s.upper.unwrap_or(upper);
        lower = s.lower.unwrap_or(lower);
        middle = s.middle.unwrap_or(middle);
    }
    // Texture u runs along the piece; start it at the coordinate along that direction so
    // walls continue seamlessly from one cell to the next.
    let along = if a.0 == b.0 {
        if b.1 > a.1 {
            a.1
        } else {
            -a.1
        }
    } else if b.0 > a.0 {
        a.0
    } else {
        -a.0
    };
    Sidedef {
        x_offset: along.rem_euclid(256),
        y_offset,
        upper: upper.into(),
        lower: lower.into(),
        middle: middle.into(),
        sector,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room(name: &'static str, x0: i16, y0: i16, x1: i16, y1: i16, floor: i16) -> Cell {
        Cell {
            name,
            x0,
            y0,
            x1,
            y1,
            floor,
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
    fn sides_split_where_neighbours_meet() {
        // A wide room with two rooms north of it, leaving a gap of wall between them.
        let cells = [
            room("a", 0, 0, 256, 64, 0),
            room("b", 0, 64, 64, 128, 16),
            room("c", 128, 64, 256, 128, 0),
        ];
        let g = build(&cells, &[]).unwrap();
        let north: Vec<_> = g.pieces[0].iter().filter(|p| p.dir == Dir::North).collect();
        let others: Vec<_> = north.iter().map(|p| p.other).collect();
        assert_eq!(others, [Some(1), None, Some(2)]);
        // Shared pieces are one linedef seen from both sides, front from the lower cell.
        for p in north.iter().filter(|p| p.other.is_some()) {
            let o = p.other.unwrap();
            let back = g.pieces[o].iter().find(|q| q.linedef == p.linedef).unwrap();
            assert_eq!((p.side, back.side), (0, 1));
            assert_eq!((p.v1, p.v2), (back.v2, back.v1));
            let ld = &g.linedefs[p.linedef as usize];
            assert!(ld.has_flag(line_flags::TWO_SIDED));
        }
        // Room a sees b's raised floor as a lower texture; the gap is a wall.
        let sd = |p: &Piece| {
            &g.sidedefs[g.linedefs[p.linedef as usize].sides[p.side as usize].unwrap() as usize]
        };
        assert_eq!(sd(north[0]).lower, "L");
        assert_eq!(sd(north[1]).middle, "W");
        assert_eq!(sd(north[2]).lower, "-");
        // Every cell's pieces close into a loop.
        for pieces in &g.pieces {
            for (k, p) in pieces.iter().enumerate() {
                assert_eq!(p.v2, pieces[(k + 1) % pieces.len()].v1);
            }
        }
    }

    #[test]
    fn overlapping_cells_are_rejected() {
        let cells = [room("a", 0, 0, 64, 64, 0), room("b", 32, 32, 96, 96, 0)];
        assert!(build(&cells, &[]).is_err());
    }
}
