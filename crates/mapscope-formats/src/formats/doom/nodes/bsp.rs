//! Subsector polygons from the BSP tree, and the point-in-subsector walk.
//!
//! SSECTORS only list the segs along walls; the rest of a subsector's boundary is made of
//! partition lines. Each subsector's convex polygon is found by starting from a box around the
//! map, clipping it by every ancestor node's partition line (keeping the side the walk took),
//! then by those of its segs that have no sector behind them (keeping the seg's right side,
//! where its sector is), and finally by its sector's bounding box.
//!
//! Partition clipping alone tiles the plane exactly (as `R_PointInSubsector` divides it), so
//! two-sided segs need no clipping: the sector across them lives in other leaves. Clipping by
//! their lines as well opens cracks between neighbouring floors wherever the node builder
//! rounded a split vertex to the integer grid, because the seg line then leans off the
//! partition line. One-sided segs do need it, to cut away the void behind walls. The
//! sector's box trims leaves that node builders occasionally leave open into the void.

use glam::DVec2;

use super::{BspChild, BspNode, FRACUNIT};
use crate::formats::doom::map::MapData;

/// Distance (map units) within which a point counts as on a clipping line.
const EPSILON: f64 = 1e-6;
/// Polygons with less area than this (square map units) are dropped as degenerate.
const MIN_AREA: f64 = 1e-3;
/// Margin added around the vertex bounds for the starting box.
const BOX_MARGIN: f64 = 256.0;

/// The convex polygon of every subsector, counter-clockwise in map coordinates (x east,
/// y north); an empty polygon where clipping left nothing usable.
#[derive(Clone, Debug, Default)]
pub struct SubsectorPolygons {
    pub polygons: Vec<Vec<DVec2>>,
    /// Subsectors whose polygon had fewer than 3 vertices or about zero area.
    pub degenerate: usize,
    /// Subsectors the node tree never reaches (their polygon is empty too).
    pub unreached: usize,
}

impl SubsectorPolygons {
    pub fn compute(map: &MapData) -> SubsectorPolygons {
        let n = map.bsp.subsectors.len();
        let mut polys: Vec<Option<Vec<DVec2>>> = vec![None; n];
        let b = map.bounds();
        let (lo, hi) = (
            DVec2::new(b[0] as f64 - BOX_MARGIN, b[1] as f64 - BOX_MARGIN),
            DVec2::new(b[2] as f64 + BOX_MARGIN, b[3] as f64 + BOX_MARGIN),
        );
        let start = vec![lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];

        let nodes = &map.bsp.nodes;
        if nodes.is_empty() {
            // A single-subsector map has no nodes (R_PointInSubsector returns subsector 0).
            if let Some(slot) = polys.first_mut() {
                *slot = Some(start);
            }
        } else {
            // Explicit stack: (node, polygon of its region). Each node is entered at most once,
            // so a malformed tree with cycles cannot loop.
            let mut visited = vec![false; nodes.len()];
            let mut stack = vec![(nodes.len() - 1, start)];
            while let Some((ni, poly)) = stack.pop() {
                let (Some(seen), Some(node)) = (visited.get_mut(ni), nodes.get(ni)) else {
                    continue;
                };
                if std::mem::replace(seen, true) {
                    continue;
                }
                let o = fixed_point(node.x, node.y);
                let d = fixed_point(node.dx, node.dy);
                for side in 0..2 {
                    // Side 0 (front) is the right of the partition; a zero-length partition
                    // sends everything to the front, as R_PointOnSide does.
                    let part = if d == DVec2::ZERO {
                        if side == 0 {
                            poly.clone()
                        } else {
                            Vec::new()
                        }
                    } else {
                        clip(&poly, o, d, side == 0)
                    };
                    match node.children[side] {
                        BspChild::Node(c) => stack.push((c as usize, part)),
                        BspChild::Subsector(s) => {
                            if let Some(slot) = polys.get_mut(s as usize) {
                                *slot = Some(part);
                            }
                        }
                    }
                }
            }
        }

        // Bounding box of each sector's linedefs. A leaf can reach past its sector into the
        // void when the node builder left it open there (a wedge bounded only by partition
        // lines); the sector's box always contains the sector's part of the leaf, so clipping
        // to it trims such wedges without removing real floor.
        let mut sector_box = vec![[f64::MAX, f64::MAX, f64::MIN, f64::MIN]; map.sectors.len()];
        for l in &map.linedefs {
            for side in 0..2 {
                let Some(s) = map.line_sector(l, side) else { continue };
                for v in [l.v1, l.v2] {
                    let Some(v) = map.vertex(v) else { continue };
                    let b = &mut sector_box[s];
                    let DVec2 { x, y } = v.to_dvec2();
                    *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
            }
        }

        let mut out = SubsectorPolygons::default();
        for (si, poly) in polys.into_iter().enumerate() {
            let Some(mut poly) = poly else {
                out.unreached += 1;
                out.polygons.push(Vec::new());
                continue;
            };
            for seg in map.subsector_segs(si) {
                // Minisegs lie along partition lines, which already bound the leaf.
                let Some(line) = seg.linedef else { continue };
                let (Some(a), Some(b)) = (map.vertex(seg.v1), map.vertex(seg.v2)) else {
                    continue;
                };
                let a = a.to_dvec2();
                let d = b.to_dvec2() - a;
                // Only walls with no sector behind them bound the floor: across a two-sided
                // seg lies another sector's leaf, already cut off by the partitions. Clipping
                // by those lines too would open cracks wherever the node builder rounded a
                // split vertex (the seg line then leans off the partition).
                let Some(ld) = map.linedefs.get(line as usize) else { continue };
                let beyond = ld.sides[(seg.side as usize & 1) ^ 1];
                if d != DVec2::ZERO && beyond.is_none() {
                    poly = clip(&poly, a, d, true);
                }
            }
            if let Some(b) = map.subsector_sector(si).map(|s| sector_box[s]) {
                if b[0] <= b[2] {
                    let (lo, hi) =
                        (DVec2::new(b[0] - 1.0, b[1] - 1.0), DVec2::new(b[2] + 1.0, b[3] + 1.0));
                    // Keep the right of each edge direction: x >= lo, x <= hi, y >= lo, y <= hi.
                    for (o, d) in
                        [(lo, DVec2::Y), (hi, DVec2::NEG_Y), (lo, DVec2::NEG_X), (hi, DVec2::X)]
                    {
                        poly = clip(&poly, o, d, true);
                    }
                }
            }
            let poly = clean(poly);
            if poly.len() < 3 || area(&poly).abs() < MIN_AREA {
                out.degenerate += 1;
                out.polygons.push(Vec::new());
            } else {
                out.polygons.push(poly);
            }
        }
        out
    }
}

/// Signed distance of `p` from the line through `o` along `d`: negative on the right.
fn side_of(p: DVec2, o: DVec2, d: DVec2) -> f64 {
    d.perp_dot(p - o) / d.length()
}

/// Sutherland–Hodgman clip of a convex polygon to the right (`keep_right`) or left of the
/// line through `o` along `d`.
pub fn clip(poly: &[DVec2], o: DVec2, d: DVec2, keep_right: bool) -> Vec<DVec2> {
    let sign = if keep_right { -1.0 } else { 1.0 };
    // Positive `s` means inside.
    let dist: Vec<f64> = poly.iter().map(|&p| sign * side_of(p, o, d)).collect();
    let mut out = Vec::with_capacity(poly.len() + 1);
    for i in 0..poly.len() {
        let j = (i + 1) % poly.len();
        let (p, q) = (poly[i], poly[j]);
        let (sp, sq) = (dist[i], dist[j]);
        // A vertex within EPSILON of the line counts as inside, so an edge only needs an
        // intersection point when it crosses from clearly inside to clearly outside.
        if sp >= -EPSILON {
            out.push(p);
        }
        if (sp > EPSILON && sq < -EPSILON) || (sp < -EPSILON && sq > EPSILON) {
            let t = sp / (sp - sq);
            out.push(p + (q - p) * t);
        }
    }
    out
}

/// Removes consecutive (near-)duplicate vertices.
fn clean(mut poly: Vec<DVec2>) -> Vec<DVec2> {
    poly.dedup_by(|a, b| a.distance_squared(*b) < 1e-12);
    while poly.len() > 1 && poly[0].distance_squared(poly[poly.len() - 1]) < 1e-12 {
        poly.pop();
    }
    poly
}

/// Signed area (positive counter-clockwise).
pub fn area(poly: &[DVec2]) -> f64 {
    let n = poly.len();
    (0..n).map(|i| poly[i].perp_dot(poly[(i + 1) % n])).sum::<f64>() / 2.0
}

/// A 16.16 point in map units.
fn fixed_point(x: i32, y: i32) -> DVec2 {
    DVec2::new(x as f64, y as f64) / FRACUNIT as f64
}

/// `R_PointOnSide` for a map node: 0 = front (right), 1 = back (left).
pub fn point_on_side(x: i32, y: i32, node: &BspNode) -> usize {
    crate::scene::doom::vanilla::point_on_side(x, y, node.x, node.y, node.dx, node.dy)
}

/// The subsector containing map point (x, y), walking the tree as `R_PointInSubsector` does.
pub fn point_in_subsector(map: &MapData, x: f64, y: f64) -> usize {
    let nodes = &map.bsp.nodes;
    if nodes.is_empty() {
        return 0;
    }
    let to_fixed = |v: f64| (v * 65536.0).floor().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
    let (fx, fy) = (to_fixed(x), to_fixed(y));
    let mut ni = nodes.len() - 1;
    // A valid tree is at most `nodes` deep; the bound stops a malformed one from looping.
    for _ in 0..=nodes.len() {
        let Some(node) = nodes.get(ni) else { return 0 };
        match node.children[point_on_side(fx, fy, node)] {
            BspChild::Subsector(s) => return s as usize,
            BspChild::Node(n) => ni = n as usize,
        }
    }
    0
}

/// The sector under map point (x, y).
pub fn sector_at(map: &MapData, x: f64, y: f64) -> Option<usize> {
    map.subsector_sector(point_in_subsector(map, x, y))
}

/// Each sector's boundary as directed edges with the sector on their right, or `None` when
/// the outline does not close or a line has the sector on both sides: the area a sector's
/// subsectors must fill, whatever built the nodes.
pub fn sector_outlines(map: &MapData) -> Vec<Option<Vec<(DVec2, DVec2)>>> {
    let n = map.sectors.len();
    let mut edges = vec![Vec::new(); n];
    let mut balance: Vec<std::collections::HashMap<u32, i32>> = vec![Default::default(); n];
    let mut self_referencing = vec![false; n];
    for l in &map.linedefs {
        let (Some(a), Some(b)) = (map.vertex(l.v1), map.vertex(l.v2)) else { continue };
        let (a, b) = (a.to_dvec2(), b.to_dvec2());
        let (front, back) = (map.line_sector(l, 0), map.line_sector(l, 1));
        if let (Some(f), true) = (front, front == back) {
            self_referencing[f] = true;
            continue;
        }
        for (s, from, to, edge) in [(front, l.v1, l.v2, (a, b)), (back, l.v2, l.v1, (b, a))] {
            if let Some(s) = s {
                edges[s].push(edge);
                *balance[s].entry(from).or_default() += 1;
                *balance[s].entry(to).or_default() -= 1;
            }
        }
    }
    edges
        .into_iter()
        .enumerate()
        .map(|(s, e)| (balance[s].values().all(|&v| v == 0) && !self_referencing[s]).then_some(e))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn two_rooms_give_two_squares() {
        let stack = testwad::two_room_stack();
        let map = MapData::load(&stack, "MAP01").unwrap();
        let p = SubsectorPolygons::compute(&map);
        assert_eq!(p.degenerate, 0);
        assert!((area(&p.polygons[0]) - 128.0 * 128.0).abs() < 1e-6);
        assert!((area(&p.polygons[1]) - 128.0 * 128.0).abs() < 1e-6);
        assert_eq!(point_in_subsector(&map, 10.0, 10.0), 0);
        assert_eq!(point_in_subsector(&map, 200.0, 10.0), 1);
        // On the partition line itself vanilla goes to the back (left) side.
        assert_eq!(point_in_subsector(&map, 128.0, 10.0), 0);
        assert_eq!(sector_at(&map, 129.0, 64.0), Some(1));
    }

    #[test]
    fn clip_keeps_the_right_side() {
        let sq = vec![
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 2.0),
        ];
        // Line x = 1 going north: right side is east.
        let r = clip(&sq, DVec2::new(1.0, 0.0), DVec2::new(0.0, 1.0), true);
        assert!((area(&r) - 2.0).abs() < 1e-9);
        assert!(r.iter().all(|p| p.x >= 1.0 - 1e-9));
        let l = clip(&sq, DVec2::new(1.0, 0.0), DVec2::new(0.0, 1.0), false);
        assert!(l.iter().all(|p| p.x <= 1.0 + 1e-9));
    }

    fn edges_area(edges: &[(DVec2, DVec2)]) -> f64 {
        -edges.iter().map(|(p, q)| p.perp_dot(*q)).sum::<f64>() / 2.0
    }

    /// Even-odd point-in-region test against a sector's boundary edges.
    fn inside(edges: &[(DVec2, DVec2)], p: DVec2) -> bool {
        let mut inside = false;
        for &(a, b) in edges {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if x > p.x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    #[derive(Default)]
    struct AreaReport {
        sectors: usize,
        /// Unclosed, self-referencing, or sharing a subsector with another sector.
        skipped: usize,
        /// Sectors with a leaf reaching outside the sector (left open by the node builder).
        open_leaves: usize,
        /// Sectors off by slivers that partition lines give to or take from a neighbour.
        partition_slivers: usize,
        mismatched: usize,
        degenerate: usize,
    }

    /// Checks that each sector's subsector polygons add up to its area. The area may be the
    /// linedef outline's or the seg outline's: node builders round split vertices to integers,
    /// which moves the boundary vanilla draws (the seg outline) off the linedefs, and leaves
    /// bounded by partition lines can claim slivers across two-sided segs, which are counted
    /// for the sector beyond.
    fn check_areas(map: &MapData, report: &mut AreaReport) {
        let polys = SubsectorPolygons::compute(map);
        report.degenerate += polys.degenerate;
        let n = map.sectors.len();
        let boundaries = sector_outlines(map);
        let mut by_sector = vec![0.0f64; n];
        // Overlapping-sector tricks put two sectors' segs in one subsector; vanilla draws it
        // all as the first seg's sector, so those areas cannot match.
        let mut mixed = vec![false; n];
        let mut open_leaf = vec![false; n];
        let mut spill = vec![0.0f64; n];
        for (si, poly) in polys.polygons.iter().enumerate() {
            let Some(s) = map.subsector_sector(si) else { continue };
            by_sector[s] += area(poly);
            let segs = map.subsector_segs(si);
            let sectors: std::collections::BTreeSet<usize> = segs
                .iter()
                .filter_map(|sg| map.seg_sidedef(sg))
                .map(|d| d.sector as usize)
                .collect();
            if sectors.len() > 1 {
                sectors.into_iter().for_each(|s| mixed[s] = true);
            }
            // Area a leaf claims across its own two-sided segs, between the seg's ends: there
            // the node builder's partition lines do not follow the seg lines (rounded split
            // vertices), so the floor of one sector covers a sliver of the next.
            for seg in segs {
                let Some(line) = seg.linedef else { continue };
                let l = &map.linedefs[line as usize];
                let Some(other) = map.line_sector(l, (seg.side as usize & 1) ^ 1) else { continue };
                let (a, b) = (map.vertex(seg.v1).unwrap(), map.vertex(seg.v2).unwrap());
                let o = a.to_dvec2();
                let d = b.to_dvec2() - o;
                if d != DVec2::ZERO && poly.len() >= 3 {
                    // The part of the leaf beyond the seg, between its ends.
                    let beyond = clip(poly, o, d, false);
                    let beyond = clip(&beyond, o, d.perp(), true);
                    let beyond = clip(&beyond, o + d, -d.perp(), true);
                    let spill_area = if beyond.len() >= 3 { area(&beyond) } else { 0.0 };
                    spill[s] += spill_area;
                    spill[other] += spill_area;
                }
            }
            // Vertices pulled 2 units towards the centroid must lie inside the sector.
            if let (Some(edges), false) = (&boundaries[s], poly.is_empty()) {
                let c = poly.iter().copied().sum::<DVec2>() / poly.len() as f64;
                let outside = poly.iter().any(|&p| {
                    let to_c = c - p;
                    let len = to_c.length();
                    len > 4.0 && !inside(edges, p + to_c / len * 2.0)
                });
                open_leaf[s] |= outside;
            }
        }
        let mut seg_area = vec![0.0f64; n];
        for seg in &map.bsp.segs {
            if let Some(sd) = map.seg_sidedef(seg) {
                let (a, b) = (map.vertex(seg.v1).unwrap(), map.vertex(seg.v2).unwrap());
                let (a, b) = (a.to_dvec2(), b.to_dvec2());
                seg_area[sd.sector as usize] -= a.perp_dot(b) / 2.0;
            }
        }
        for s in 0..n {
            report.sectors += 1;
            let Some(edges) = boundaries[s].as_ref().filter(|_| !mixed[s]) else {
                report.skipped += 1;
                continue;
            };
            let got = by_sector[s];
            let close = |want: f64| (got - want).abs() <= (want.abs() * 0.01).max(4.0);
            if close(edges_area(edges)) || close(seg_area[s]) {
                continue;
            }
            if open_leaf[s] {
                report.open_leaves += 1;
                continue;
            }
            if spill[s] > 1.0 {
                report.partition_slivers += 1;
                continue;
            }
            report.mismatched += 1;
            eprintln!(
                "{} sector {s}: polygons {got:.1}, linedefs {:.1}, segs {:.1}",
                map.name,
                edges_area(edges),
                seg_area[s]
            );
        }
    }

    #[test]
    fn freedoom_subsector_areas_match_sector_areas() {
        let wads = testwad::freedoom();
        for stack in wads.iter() {
            let mut r = AreaReport::default();
            for name in stack.map_names() {
                check_areas(&MapData::load(stack, &name).unwrap(), &mut r);
            }
            eprintln!(
                "{}: {} sectors; skipped {} (unclosed, self-referencing or sharing a subsector) \
                 and {} (a leaf left open into the void by the node builder); {} differ by \
                 partition slivers; {} mismatched; {} degenerate subsectors",
                stack.wads()[0].name(),
                r.sectors,
                r.skipped,
                r.open_leaves,
                r.partition_slivers,
                r.mismatched,
                r.degenerate
            );
            assert_eq!(r.mismatched, 0, "sectors whose polygons do not add up");
            let skipped = r.skipped + r.open_leaves + r.partition_slivers;
            assert!(skipped * 50 < r.sectors, "too many sectors skipped");
        }
    }
}
