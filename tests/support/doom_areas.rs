//! The floor-area check for Doom maps: the subsector polygons of each sector add up to the
//! area its linedefs enclose (within 1%), whatever built the map's nodes.

use std::collections::BTreeSet;

use glam::DVec2;
use mapscope::formats::doom::nodes::bsp::{area, clip, sector_outlines, SubsectorPolygons};
use mapscope::formats::doom::{DoomLevel, MapData};

pub fn vertex(map: &MapData, v: u32) -> DVec2 {
    map.vertex(v).expect("vertex checked at load").to_dvec2()
}

/// Area enclosed by edges that have the region on their right.
pub fn outline_area(edges: &[(DVec2, DVec2)]) -> f64 {
    -edges.iter().map(|(p, q)| p.perp_dot(*q)).sum::<f64>() / 2.0
}

/// Even-odd point-in-outline test.
pub fn inside(edges: &[(DVec2, DVec2)], p: DVec2) -> bool {
    let mut inside = false;
    for &(a, b) in edges {
        if (a.y > p.y) != (b.y > p.y) && a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) > p.x {
            inside = !inside;
        }
    }
    inside
}

#[derive(Default, Debug)]
pub struct AreaReport {
    pub sectors: usize,
    /// Outline does not close, a line with the sector on both sides, or a subsector shared
    /// with another sector (overlapping-sector tricks): no single area to compare with.
    pub skipped_outline: usize,
    /// A leaf the node builder left open into the void reaches outside the sector.
    pub skipped_open_leaf: usize,
    /// Off by slivers that partition lines give to or take from a neighbour.
    pub skipped_slivers: usize,
    pub mismatched: Vec<String>,
    pub degenerate_subsectors: usize,
    pub unreached_subsectors: usize,
    /// Subsectors whose polygon is empty while their sector is otherwise fine and matched.
    pub empty_in_matched: usize,
}

/// Compares each sector's summed subsector polygon area with the area of its linedef outline
/// (or of its seg outline: node builders round split vertices, moving what vanilla draws off
/// the linedefs), within 1% (at least 4 square units for tiny sectors).
pub fn check_areas(level: &DoomLevel, r: &mut AreaReport) {
    let map = &level.map;
    let polys: &SubsectorPolygons = &level.polygons;
    r.degenerate_subsectors += polys.degenerate;
    r.unreached_subsectors += polys.unreached;
    let n = map.sectors.len();
    let outlines = sector_outlines(map);
    let mut by_sector = vec![0.0f64; n];
    let mut mixed = vec![false; n];
    let mut open_leaf = vec![false; n];
    let mut spill = vec![0.0f64; n];
    let mut empty = vec![0usize; n];
    for (si, poly) in polys.polygons.iter().enumerate() {
        let Some(s) = map.subsector_sector(si) else { continue };
        if poly.is_empty() {
            empty[s] += 1;
        }
        by_sector[s] += area(poly);
        let segs = map.subsector_segs(si);
        let sectors: BTreeSet<usize> =
            segs.iter().filter_map(|sg| map.seg_sidedef(sg)).map(|d| d.sector as usize).collect();
        if sectors.len() > 1 {
            sectors.into_iter().for_each(|s| mixed[s] = true);
        }
        for seg in segs {
            let Some(line) = seg.linedef else { continue };
            let l = &map.linedefs[line as usize];
            let Some(other) = map.line_sector(l, (seg.side as usize & 1) ^ 1) else { continue };
            let o = vertex(map, seg.v1);
            let d = vertex(map, seg.v2) - o;
            if d != DVec2::ZERO && poly.len() >= 3 {
                let beyond = clip(poly, o, d, false);
                let beyond = clip(&beyond, o, d.perp(), true);
                let beyond = clip(&beyond, o + d, -d.perp(), true);
                let a = if beyond.len() >= 3 { area(&beyond) } else { 0.0 };
                spill[s] += a;
                spill[other] += a;
            }
        }
        if let (Some(edges), false) = (&outlines[s], poly.is_empty()) {
            let c = poly.iter().copied().sum::<DVec2>() / poly.len() as f64;
            open_leaf[s] |= poly.iter().any(|&p| {
                let to_c = c - p;
                let len = to_c.length();
                len > 4.0 && !inside(edges, p + to_c / len * 2.0)
            });
        }
    }
    let mut seg_area = vec![0.0f64; n];
    for seg in &map.bsp.segs {
        if let Some(sd) = map.seg_sidedef(seg) {
            seg_area[sd.sector as usize] -= vertex(map, seg.v1).perp_dot(vertex(map, seg.v2)) / 2.0;
        }
    }
    for s in 0..n {
        r.sectors += 1;
        let Some(edges) = outlines[s].as_ref().filter(|_| !mixed[s]) else {
            r.skipped_outline += 1;
            continue;
        };
        let got = by_sector[s];
        let close = |want: f64| (got - want).abs() <= (want.abs() * 0.01).max(4.0);
        if close(outline_area(edges)) || close(seg_area[s]) {
            r.empty_in_matched += empty[s];
            continue;
        }
        if open_leaf[s] {
            r.skipped_open_leaf += 1;
        } else if spill[s] > 1.0 {
            r.skipped_slivers += 1;
        } else {
            r.mismatched.push(format!(
                "{} sector {s}: polygons {got:.1}, linedefs {:.1}, segs {:.1}",
                map.name,
                outline_area(edges),
                seg_area[s]
            ));
        }
    }
}
