//! The built tree is checked the way its users read it: vanilla's point-on-side walk must
//! find the sector a point is in, and each subsector's polygon (a big box clipped by its
//! ancestors' partitions, then by its segs) must add up to its sector's area.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::time::Instant;

use glam::DVec2;

use super::*;
use crate::formats::doom::archive::wad::Wad;
use crate::formats::doom::nodes::bsp::{area, clip, point_on_side};
use crate::formats::doom::nodes::FRACUNIT;

// ---- input ----------------------------------------------------------------------------

struct Level {
    name: String,
    vertices: Vec<NodeVertex>,
    lines: Vec<BuildLine>,
}

fn u16_at(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

/// Every map of a Freedoom IWAD, from its VERTEXES, LINEDEFS and SIDEDEFS only.
fn freedoom_levels(file: &str) -> Vec<Level> {
    wad_levels(&Path::new("/usr/share/games/doom").join(file))
}

/// Every Doom- or Hexen-format map of a WAD (Hexen linedefs are 16 bytes, sidedefs last).
fn wad_levels(path: &Path) -> Vec<Level> {
    let file = path.display().to_string();
    let wad = Wad::open(path).unwrap_or_else(|e| {
        panic!("{file}: {e:#} (for Freedoom, install the Debian package freedoom)")
    });
    let lumps = wad.lumps();
    let mut levels = Vec::new();
    for (i, marker) in lumps.iter().enumerate() {
        if lumps.get(i + 1).is_none_or(|l| l.name != "THINGS") {
            continue;
        }
        let lump_at =
            |name: &str| (i + 1..(i + 12).min(lumps.len())).find(|&j| lumps[j].name == name);
        let find = |name: &str| wad.lump(lump_at(name).unwrap()).unwrap().data;
        let (line_size, sides_at) = if lump_at("BEHAVIOR").is_some() { (16, 12) } else { (14, 10) };
        let (vx, ld, sd) = (find("VERTEXES"), find("LINEDEFS"), find("SIDEDEFS"));
        let vertices = vx
            .chunks_exact(4)
            .map(|c| NodeVertex {
                x: i16::from_le_bytes([c[0], c[1]]) as i32 * FRACUNIT,
                y: i16::from_le_bytes([c[2], c[3]]) as i32 * FRACUNIT,
            })
            .collect();
        let side_sector = |s: u16| (s != 0xFFFF).then(|| u16_at(sd, s as usize * 30 + 28) as u32);
        let lines = ld
            .chunks_exact(line_size)
            .map(|c| BuildLine {
                v1: u16_at(c, 0) as u32,
                v2: u16_at(c, 2) as u32,
                front_sector: side_sector(u16_at(c, sides_at)),
                back_sector: side_sector(u16_at(c, sides_at + 2)),
            })
            .collect();
        levels.push(Level { name: marker.name.clone(), vertices, lines });
    }
    assert!(!levels.is_empty(), "{file}: no maps found");
    levels
}

fn level(file: &str, name: &str) -> Level {
    freedoom_levels(file).into_iter().find(|l| l.name == name).unwrap()
}

fn build(l: &Level) -> NodeSet {
    build_nodes("test.wad", &l.name, &l.vertices, &l.lines)
        .unwrap_or_else(|e| panic!("{}: {e}", l.name))
}

// ---- geometry -------------------------------------------------------------------------

fn units(v: NodeVertex) -> DVec2 {
    DVec2::new(v.x as f64, v.y as f64) / FRACUNIT as f64
}

fn all_vertices(l: &Level, n: &NodeSet) -> Vec<DVec2> {
    l.vertices.iter().chain(&n.extra_vertices).map(|&v| units(v)).collect()
}

/// `R_PointInSubsector`.
fn point_in_subsector(n: &NodeSet, x: Fixed, y: Fixed) -> u32 {
    let Some(mut node) = n.nodes.len().checked_sub(1) else { return 0 };
    loop {
        let nd = &n.nodes[node];
        match nd.children[point_on_side(x, y, nd)] {
            BspChild::Node(c) => node = c as usize,
            BspChild::Subsector(s) => return s,
        }
    }
}

fn seg_sector(l: &Level, s: &BspSeg) -> u32 {
    let line = l.lines[s.linedef.unwrap() as usize];
    if s.side == 0 { line.front_sector } else { line.back_sector }.unwrap()
}

fn subsector_segs<'a>(n: &'a NodeSet, ss: &BspSubsector) -> &'a [BspSeg] {
    &n.segs[ss.first_seg as usize..(ss.first_seg + ss.num_segs) as usize]
}

/// Each subsector with the partitions on its path from the root: (node, side taken).
fn paths(n: &NodeSet) -> Vec<Vec<(usize, usize)>> {
    let mut out = vec![None; n.subsectors.len()];
    if n.nodes.is_empty() {
        assert_eq!(n.subsectors.len(), 1, "a tree without nodes has one subsector");
        return vec![Vec::new()];
    }
    let mut stack = vec![(n.nodes.len() - 1, Vec::new())];
    let mut visits = 0;
    while let Some((node, path)) = stack.pop() {
        visits += 1;
        assert!(visits <= n.nodes.len(), "a node is reached twice");
        for side in 0..2 {
            let mut p: Vec<(usize, usize)> = path.clone();
            p.push((node, side));
            match n.nodes[node].children[side] {
                BspChild::Node(c) => {
                    assert!((c as usize) < node, "children come before their parent");
                    stack.push((c as usize, p));
                }
                BspChild::Subsector(s) => {
                    let slot = &mut out[s as usize];
                    assert!(slot.is_none(), "subsector {s} reached twice");
                    *slot = Some(p);
                }
            }
        }
    }
    assert_eq!(visits, n.nodes.len(), "nodes the root does not reach");
    out.into_iter()
        .enumerate()
        .map(|(i, p)| p.unwrap_or_else(|| panic!("subsector {i} unreached")))
        .collect()
}

/// Each sector's boundary as directed edges with the sector on their right, or `None` when
/// the outline does not close or a line has the sector on both sides.
fn sector_outlines(l: &Level) -> BTreeMap<u32, Option<Vec<(DVec2, DVec2)>>> {
    let mut edges: BTreeMap<u32, Vec<(DVec2, DVec2)>> = BTreeMap::new();
    let mut balance: HashMap<u32, HashMap<u32, i32>> = HashMap::new();
    let mut self_referencing = BTreeSet::new();
    for line in &l.lines {
        let (a, b) = (units(l.vertices[line.v1 as usize]), units(l.vertices[line.v2 as usize]));
        if let (Some(f), true) = (line.front_sector, line.front_sector == line.back_sector) {
            self_referencing.insert(f);
            continue;
        }
        for (s, from, to, e) in [
            (line.front_sector, line.v1, line.v2, (a, b)),
            (line.back_sector, line.v2, line.v1, (b, a)),
        ] {
            if let Some(s) = s {
                edges.entry(s).or_default().push(e);
                let bal = balance.entry(s).or_default();
                *bal.entry(from).or_default() += 1;
                *bal.entry(to).or_default() -= 1;
            }
        }
    }
    edges
        .into_iter()
        .map(|(s, e)| {
            let closed = balance[&s].values().all(|&v| v == 0) && !self_referencing.contains(&s);
            (s, closed.then_some(e))
        })
        .collect()
}

fn outline_area(edges: &[(DVec2, DVec2)]) -> f64 {
    -edges.iter().map(|(p, q)| p.perp_dot(*q)).sum::<f64>() / 2.0
}

fn inside(edges: &[(DVec2, DVec2)], p: DVec2) -> bool {
    let mut inside = false;
    for &(a, b) in edges {
        if (a.y > p.y) != (b.y > p.y) && a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) > p.x {
            inside = !inside;
        }
    }
    inside
}

// ---- checks -----------------------------------------------------------------------------

#[derive(Debug, Default)]
struct Report {
    sectors: usize,
    matched: usize,
    /// Outline unclosed or self-referencing, or sharing a subsector with another sector.
    skipped: usize,
    mismatched: Vec<String>,
    mixed_subsectors: usize,
    points: usize,
    points_found: usize,
}

/// Structural rules every built tree must keep, then the area and point checks.
fn check(l: &Level, n: &NodeSet) -> Report {
    assert_eq!(n.format, NodeFormat::Built);
    let verts = all_vertices(l, n);
    let paths = paths(n);
    const TOL: f64 = 0.01;

    // Subsectors cover the segs once, in order.
    let mut next = 0;
    for ss in &n.subsectors {
        assert_eq!(ss.first_seg, next, "{}: subsectors list segs in order", l.name);
        assert!(ss.num_segs > 0, "{}: empty subsector", l.name);
        next += ss.num_segs;
    }
    assert_eq!(next as usize, n.segs.len(), "{}: segs outside any subsector", l.name);

    // Segs: on their linedef, angle of their direction, pieces covering each side exactly.
    let mut pieces: HashMap<(u32, u8), Vec<(f64, f64)>> = HashMap::new();
    for s in &n.segs {
        let line = l.lines[s.linedef.unwrap() as usize];
        let (start, end) = if s.side == 0 { (line.v1, line.v2) } else { (line.v2, line.v1) };
        let (start, end) = (verts[start as usize], verts[end as usize]);
        let (a, b) = (verts[s.v1 as usize], verts[s.v2 as usize]);
        let dir = (end - start).normalize();
        for p in [a, b] {
            assert!(dir.perp_dot(p - start).abs() < TOL, "{}: seg off its linedef", l.name);
        }
        assert!((b - a).dot(dir) > 0.0, "{}: seg runs against its side", l.name);
        let want = (b - a).y.atan2((b - a).x).rem_euclid(std::f64::consts::TAU);
        let got = s.angle as f64 / 4_294_967_296.0 * std::f64::consts::TAU;
        let diff = (want - got).abs().min(std::f64::consts::TAU - (want - got).abs());
        assert!((b - a).length() < 1.0 || diff < 1e-3, "{}: seg angle {got} for {want}", l.name);
        let offset = s.offset as f64 / FRACUNIT as f64;
        assert!((offset - (a - start).length()).abs() < TOL, "{}: seg offset", l.name);
        pieces.entry((s.linedef.unwrap(), s.side)).or_default().push((offset, (b - a).length()));
    }
    for (i, line) in l.lines.iter().enumerate() {
        let len = (verts[line.v2 as usize] - verts[line.v1 as usize]).length();
        for (side, sector) in [(0u8, line.front_sector), (1, line.back_sector)] {
            let got = pieces.remove(&(i as u32, side)).unwrap_or_default();
            if sector.is_none() || len == 0.0 {
                assert!(got.is_empty(), "{}: linedef {i} side {side} has segs", l.name);
                continue;
            }
            let mut got = got;
            got.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut at = 0.0;
            for (offset, length) in &got {
                assert!(
                    (offset - at).abs() < TOL,
                    "{}: linedef {i} side {side}: gap at {at}",
                    l.name
                );
                at = offset + length;
            }
            assert!((at - len).abs() < TOL, "{}: linedef {i} side {side}: {at} of {len}", l.name);
        }
    }

    // Subsectors convex, segs facing in; node boxes hold their segs; partitions on seg lines.
    let mut partition_on_seg = vec![false; n.nodes.len()];
    let mut report = Report::default();
    for (si, ss) in n.subsectors.iter().enumerate() {
        let segs = subsector_segs(n, ss);
        for s in segs {
            let (a, b) = (verts[s.v1 as usize], verts[s.v2 as usize]);
            let d = (b - a).normalize();
            for o in segs {
                for p in [verts[o.v1 as usize], verts[o.v2 as usize]] {
                    assert!(d.perp_dot(p - a) < TOL, "{}: subsector {si} is not convex", l.name);
                }
            }
        }
        let sectors: BTreeSet<u32> = segs.iter().map(|s| seg_sector(l, s)).collect();
        if sectors.len() > 1 {
            report.mixed_subsectors += 1;
        }
        for &(node, side) in &paths[si] {
            let nd = &n.nodes[node];
            let [top, bottom, left, right] = nd.bbox[side];
            let o = units(NodeVertex { x: nd.x, y: nd.y });
            let d = DVec2::new(nd.dx as f64, nd.dy as f64).normalize();
            for s in segs {
                for v in [s.v1, s.v2] {
                    let v = if (v as usize) < l.vertices.len() {
                        l.vertices[v as usize]
                    } else {
                        n.extra_vertices[v as usize - l.vertices.len()]
                    };
                    assert!(
                        v.x >= left && v.x <= right && v.y >= bottom && v.y <= top,
                        "{}: node {node} side {side} box misses a seg",
                        l.name
                    );
                }
                let on = |p: DVec2| d.perp_dot(p - o).abs() < TOL;
                if on(verts[s.v1 as usize]) && on(verts[s.v2 as usize]) {
                    partition_on_seg[node] = true;
                }
            }
        }
    }
    assert!(partition_on_seg.iter().all(|&b| b), "{}: a partition lies on no seg", l.name);

    // Areas: each subsector's region, summed per sector, against the sector's outline.
    let (mut lo, mut hi) = (DVec2::splat(f64::MAX), DVec2::splat(f64::MIN));
    for v in &verts {
        (lo, hi) = (lo.min(*v), hi.max(*v));
    }
    let (blo, bhi) = (lo - 1024.0, hi + 1024.0);
    let outlines = sector_outlines(l);
    let mut by_sector: BTreeMap<u32, f64> = BTreeMap::new();
    let mut mixed = BTreeSet::new();
    for (si, ss) in n.subsectors.iter().enumerate() {
        let mut poly = vec![blo, DVec2::new(bhi.x, blo.y), bhi, DVec2::new(blo.x, bhi.y)];
        for &(node, side) in &paths[si] {
            let nd = &n.nodes[node];
            let o = units(NodeVertex { x: nd.x, y: nd.y });
            let d = DVec2::new(nd.dx as f64, nd.dy as f64);
            poly = clip(&poly, o, d, side == 0);
        }
        let segs = subsector_segs(n, ss);
        for s in segs {
            let a = verts[s.v1 as usize];
            poly = clip(&poly, a, verts[s.v2 as usize] - a, true);
        }
        let sectors: BTreeSet<u32> = segs.iter().map(|s| seg_sector(l, s)).collect();
        if sectors.len() > 1 {
            mixed.extend(sectors.iter().copied());
        }
        *by_sector.entry(seg_sector(l, &segs[0])).or_default() += area(&poly);
    }
    for (s, outline) in &outlines {
        report.sectors += 1;
        let Some(edges) = outline.as_ref().filter(|_| !mixed.contains(s)) else {
            report.skipped += 1;
            continue;
        };
        let want = outline_area(edges);
        let got = by_sector.get(s).copied().unwrap_or(0.0);
        if (got - want).abs() <= (want.abs() * 0.01).max(1.0) {
            report.matched += 1;
        } else {
            report
                .mismatched
                .push(format!("{} sector {s}: subsectors {got:.1}, linedefs {want:.1}", l.name));
        }
    }

    // Point location: vanilla's walk from sample points lands in the sector around them.
    let closed: Vec<(u32, &Vec<(DVec2, DVec2)>)> =
        outlines.iter().filter_map(|(s, e)| Some((*s, e.as_ref()?))).collect();
    let grid = 60;
    for i in 0..grid {
        for j in 0..grid {
            // Off the whole-unit grid the map's vertices sit on, so few points lie on lines.
            let p = lo
                + (hi - lo)
                    * DVec2::new((i as f64 + 0.5) / grid as f64, (j as f64 + 0.5) / grid as f64)
                + DVec2::new(0.37, 0.29);
            let within: Vec<u32> =
                closed.iter().filter(|(_, e)| inside(e, p)).map(|(s, _)| *s).collect();
            let [want] = within[..] else { continue };
            let fx = |v: f64| (v * FRACUNIT as f64).round() as Fixed;
            let ss = point_in_subsector(n, fx(p.x), fx(p.y));
            let segs = subsector_segs(n, &n.subsectors[ss as usize]);
            report.points += 1;
            if segs.iter().any(|s| seg_sector(l, s) == want) {
                report.points_found += 1;
            }
        }
    }
    report
}

/// The full check on one map, asserting what must hold on well-formed Freedoom maps.
fn assert_good(l: &Level) -> NodeSet {
    let n = build(l);
    let r = check(l, &n);
    eprintln!(
        "{}: {} nodes, {} subsectors, {} segs ({} split vertices); sectors {} matched, {} \
         skipped, {} mismatched; {} mixed subsectors; points {}/{}",
        l.name,
        n.nodes.len(),
        n.subsectors.len(),
        n.segs.len(),
        n.extra_vertices.len(),
        r.matched,
        r.skipped,
        r.mismatched.len(),
        r.mixed_subsectors,
        r.points_found,
        r.points
    );
    assert!(r.mismatched.is_empty(), "sector areas differ:\n{}", r.mismatched.join("\n"));
    assert!(
        r.skipped * 20 <= r.sectors,
        "{}: {} of {} sectors skipped",
        l.name,
        r.skipped,
        r.sectors
    );
    assert!(r.points > 200, "{}: too few sample points ({})", l.name, r.points);
    assert!(
        r.points_found * 100 >= r.points * 99,
        "{}: point walk found the sector for {} of {} points",
        l.name,
        r.points_found,
        r.points
    );
    n
}

// ---- Freedoom ---------------------------------------------------------------------------

#[test]
fn freedoom2_map01_map02_map15() {
    let levels = freedoom_levels("freedoom2.wad");
    for name in ["MAP01", "MAP02", "MAP15"] {
        let l = levels.iter().find(|l| l.name == name).unwrap();
        let n = assert_good(l);
        assert!(!n.nodes.is_empty());
    }
}

#[test]
fn freedoom1_maps() {
    let levels = freedoom_levels("freedoom1.wad");
    for name in ["E1M1", "E2M4", "E3M7", "E4M2"] {
        assert_good(levels.iter().find(|l| l.name == name).unwrap());
    }
}

#[test]
fn builds_are_deterministic() {
    let l = level("freedoom2.wad", "MAP02");
    assert_eq!(build(&l), build(&l));
}

/// Run in release with `--nocapture` for the timings.
#[test]
fn every_freedoom2_map_builds_and_walks() {
    let levels = freedoom_levels("freedoom2.wad");
    assert_eq!(levels.len(), 32);
    let start = Instant::now();
    let built: Vec<NodeSet> = levels.iter().map(build).collect();
    let all = start.elapsed();
    let map15 = levels.iter().find(|l| l.name == "MAP15").unwrap();
    let start = Instant::now();
    build(map15);
    let one = start.elapsed();
    eprintln!("freedoom2: all 32 maps built in {all:.2?}; MAP15 in {one:.2?}");
    for (l, n) in levels.iter().zip(&built) {
        let r = check(l, n);
        assert!(r.mismatched.is_empty(), "sector areas differ:\n{}", r.mismatched.join("\n"));
        assert!(r.points_found * 100 >= r.points * 99, "{}: point walk", l.name);
    }
}

/// A community map an editor saved without nodes (Hexen format), and one with nodes.
#[test]
fn hexen_format_community_maps() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/realmaps/doom");
    for file in ["lastermaul-map11.wad", "lastermaul-map01.wad"] {
        let levels = wad_levels(&dir.join(file));
        assert_eq!(levels.len(), 1, "{file}");
        assert_good(&levels[0]);
    }
}

// ---- hand-made maps -------------------------------------------------------------------

/// A map from polygons of whole-unit points: each ring is (sector, points counter-clockwise
/// for the sector's outer boundary). Lines shared by two rings become two-sided.
/// A pillar in sector 0: one-sided lines round `corners` (counter-clockwise, so the fronts
/// face out into the room; the pillar itself is a hole).
fn add_pillar(l: &mut Level, corners: [(i32, i32); 4]) {
    let base = l.vertices.len() as u32;
    for (x, y) in corners {
        l.vertices.push(NodeVertex { x: x * FRACUNIT, y: y * FRACUNIT });
    }
    for k in 0..4 {
        l.lines.push(BuildLine {
            v1: base + k,
            v2: base + (k + 1) % 4,
            front_sector: Some(0),
            back_sector: None,
        });
    }
}

fn rings(rings: &[(u32, &[(i32, i32)])]) -> Level {
    let mut vertices: Vec<NodeVertex> = Vec::new();
    let mut index = |x: i32, y: i32| {
        let v = NodeVertex { x: x * FRACUNIT, y: y * FRACUNIT };
        match vertices.iter().position(|&w| w == v) {
            Some(i) => i as u32,
            None => {
                vertices.push(v);
                vertices.len() as u32 - 1
            }
        }
    };
    let mut lines: Vec<BuildLine> = Vec::new();
    for &(sector, pts) in rings {
        for k in 0..pts.len() {
            let (a, b) = (pts[k], pts[(k + 1) % pts.len()]);
            let (a, b) = (index(a.0, a.1), index(b.0, b.1));
            // Counter-clockwise ring: the sector is on the left of a→b, so the line runs b→a
            // with its front (right) side in the sector.
            if let Some(l) = lines.iter_mut().find(|l| l.v1 == a && l.v2 == b) {
                l.back_sector = Some(sector);
            } else {
                lines.push(BuildLine {
                    v1: b,
                    v2: a,
                    front_sector: Some(sector),
                    back_sector: None,
                });
            }
        }
    }
    Level { name: "TEST".to_string(), vertices, lines }
}

fn hand_made(l: &Level) -> (NodeSet, Report) {
    let n = build(l);
    let r = check(l, &n);
    assert!(r.mismatched.is_empty(), "sector areas differ:\n{}", r.mismatched.join("\n"));
    assert_eq!(r.skipped, 0);
    assert_eq!(r.mixed_subsectors, 0);
    assert_eq!(r.points_found, r.points);
    (n, r)
}

#[test]
fn square_room_is_one_subsector() {
    let (n, _) = hand_made(&rings(&[(0, &[(0, 0), (128, 0), (128, 128), (0, 128)])]));
    assert!(n.nodes.is_empty());
    assert_eq!(n.subsectors.len(), 1);
    assert_eq!(n.segs.len(), 4);
}

#[test]
fn two_rooms_split_on_their_shared_line() {
    let l = rings(&[
        (0, &[(0, 0), (128, 0), (128, 128), (0, 128)]),
        (1, &[(128, 0), (256, 0), (256, 128), (128, 128)]),
    ]);
    let (n, r) = hand_made(&l);
    assert_eq!(n.nodes.len(), 1);
    assert_eq!(n.subsectors.len(), 2);
    assert!(n.extra_vertices.is_empty());
    assert_eq!(r.matched, 2);
    let root = n.nodes[0];
    assert_eq!((root.x, root.dx), (128 * FRACUNIT, 0));
}

#[test]
fn l_shaped_room_is_split() {
    let (n, r) = hand_made(&rings(&[(
        0,
        &[(0, 0), (256, 0), (256, 128), (128, 128), (128, 256), (0, 256)],
    )]));
    assert!(!n.nodes.is_empty());
    assert!(n.subsectors.len() >= 2);
    assert_eq!(r.matched, 1);
}

#[test]
fn room_with_a_pillar() {
    // The pillar is a hole: its lines face out into the room.
    let mut l = rings(&[(0, &[(0, 0), (512, 0), (512, 512), (0, 512)])]);
    add_pillar(&mut l, [(200, 200), (300, 200), (300, 300), (200, 300)]);
    let (n, r) = hand_made(&l);
    assert!(n.subsectors.len() >= 4);
    assert_eq!(r.matched, 1);
}

#[test]
fn diagonal_room_splits_get_rounded_vertices() {
    // A diamond beside a notch: partitions along the notch cut the diamond's diagonal walls
    // at points that are not whole units.
    let l = rings(&[
        (0, &[(0, 0), (300, 100), (320, 290), (100, 310), (150, 150)]),
        (1, &[(300, 100), (600, 130), (590, 400), (320, 290)]),
    ]);
    let (n, _) = hand_made(&l);
    assert!(n.subsectors.len() >= 3);
}

#[test]
fn degenerate_inputs_give_a_tree_or_an_error() {
    let v = |x: i32, y: i32| NodeVertex { x: x * FRACUNIT, y: y * FRACUNIT };
    let line = |v1, v2, f: Option<u32>, b: Option<u32>| BuildLine {
        v1,
        v2,
        front_sector: f,
        back_sector: b,
    };

    let err = build_nodes("f.wad", "MAP01", &[], &[]).unwrap_err();
    assert!(err.message.contains("nothing to build") && err.file == "f.wad", "{err}");
    assert!(err.structure.contains("MAP01"));

    let verts = [v(0, 0), v(64, 0), v(64, 64), v(0, 64), v(64, 0)];
    // Only sideless and zero-length lines.
    let none = [line(0, 1, None, None), line(1, 4, Some(0), Some(0))];
    assert!(build_nodes("f.wad", "M", &verts, &none).is_err());

    let err = build_nodes("f.wad", "M", &verts, &[line(0, 9, Some(0), None)]).unwrap_err();
    assert!(err.message.contains("vertex 9"), "{err}");

    // A square with a zero-length line, a sideless line, and every wall doubled.
    let mut lines = vec![line(1, 0, Some(0), None), line(2, 1, Some(0), None)];
    lines.extend([line(3, 2, Some(0), None), line(0, 3, Some(0), None)]);
    lines.extend([line(1, 4, Some(0), None), line(0, 2, None, None)]);
    lines.extend(lines.clone());
    let n = build_nodes("f.wad", "M", &verts, &lines).unwrap();
    assert!(n.nodes.is_empty() && n.subsectors.len() == 1);

    // Overlapping walls facing each other, and crossing lines: a usable tree comes back.
    let verts = [
        v(0, 0),
        v(128, 0),
        v(128, 128),
        v(0, 128),
        v(-64, 64),
        v(192, 64),
        v(64, -64),
        v(64, 192),
    ];
    let mut lines = vec![line(1, 0, Some(0), None), line(2, 1, Some(0), None)];
    lines.extend([line(3, 2, Some(0), None), line(0, 3, Some(0), None), line(0, 1, Some(1), None)]);
    lines.extend([line(4, 5, Some(0), Some(1)), line(6, 7, Some(1), Some(0))]);
    let n = build_nodes("f.wad", "M", &verts, &lines).unwrap();
    let l = Level { name: "M".into(), vertices: verts.to_vec(), lines };
    let _ = paths(&n);
    for (x, y) in [(10, 10), (100, 100), (-100, 300), (64, 64)] {
        let ss = point_in_subsector(&n, x * FRACUNIT, y * FRACUNIT);
        assert!((ss as usize) < n.subsectors.len());
    }
    let total: usize = n.subsectors.iter().map(|s| s.num_segs as usize).sum();
    assert_eq!(total, n.segs.len());
    assert!(n.segs.iter().all(|s| s.linedef.is_some_and(|i| (i as usize) < l.lines.len())));

    // Huge coordinates: directions that overflow a 32-bit Fixed still build.
    let far = [
        NodeVertex { x: -32768 * FRACUNIT, y: -32768 * FRACUNIT },
        NodeVertex { x: 32767 * FRACUNIT, y: -32768 * FRACUNIT },
        NodeVertex { x: 32767 * FRACUNIT, y: 32767 * FRACUNIT },
        NodeVertex { x: -32768 * FRACUNIT, y: 32767 * FRACUNIT },
        NodeVertex { x: 0, y: 0 },
    ];
    let lines = [line(1, 0, Some(0), None), line(2, 1, Some(0), None), line(3, 2, Some(0), None)];
    let lines = [&lines[..], &[line(0, 3, Some(0), None), line(0, 4, Some(0), Some(0))]].concat();
    let n = build_nodes("f.wad", "M", &far, &lines).unwrap();
    assert!(!n.nodes.is_empty());
}

/// A room whose walls are the `sides` sides of a regular polygon of radius 30000 (sector 0,
/// lines facing in), as a level.
fn polygon_room(sides: usize) -> Level {
    let r = 30000.0 * FRACUNIT as f64;
    let vertices: Vec<NodeVertex> = (0..sides)
        .map(|k| {
            let a = k as f64 / sides as f64 * std::f64::consts::TAU;
            NodeVertex { x: (r * a.cos()).round() as Fixed, y: (r * a.sin()).round() as Fixed }
        })
        .collect();
    // Counter-clockwise points: each line runs clockwise so its front faces in.
    let lines: Vec<BuildLine> = (0..sides as u32)
        .map(|k| BuildLine {
            v1: (k + 1) % sides as u32,
            v2: k,
            front_sector: Some(0),
            back_sector: None,
        })
        .collect();
    Level { name: format!("{sides}-gon"), vertices, lines }
}

/// Huge convex rooms: no line divides them, and ruling every line out must not cost the square
/// of the seg count (classifications are the builder's unit of work: 64 million for the
/// 8000-sided room had every line been tried).
#[test]
fn large_convex_rooms_are_one_subsector() {
    for sides in [100, 3000, 8000, 9000] {
        let l = polygon_room(sides);
        let (n, calls) = build_nodes_counted(&l.vertices, &l.lines);
        let n = n.unwrap();
        assert!(n.nodes.is_empty(), "{sides} sides: {} nodes", n.nodes.len());
        assert_eq!(n.segs.len(), sides);
        // The sample only: one classification per sampled line and seg.
        let bound = (MAX_CANDIDATES.min(sides) * sides) as u64;
        assert!(calls <= bound, "{sides} sides: {calls} classifications, over {bound}");
    }
}

/// A huge convex room with a small pillar whose four walls are the only lines dividing it,
/// listed last so no evenly spread sample meets them: the builder must find them (the pillar
/// is cut out) in work that grows with the seg count, not its square.
#[test]
fn a_pillar_hidden_among_thousands_of_walls_is_found_quickly() {
    let mut l = polygon_room(8000);
    add_pillar(&mut l, [(20000, 0), (20064, 0), (20064, 64), (20000, 64)]);
    let (n, calls) = build_nodes_counted(&l.vertices, &l.lines);
    let n = n.unwrap();
    let segs = l.lines.len() as u64;
    eprintln!("pillar room: {} nodes, {calls} classifications", n.nodes.len());
    assert!(!n.nodes.is_empty() && n.subsectors.len() >= 4, "{} subsectors", n.subsectors.len());
    // Every subsector convex (the check asserts it: a pillar wall left in a subsector with
    // the room's walls would not be), areas and the point walk right.
    let r = check(&l, &n);
    assert!(r.mismatched.is_empty(), "sector areas differ:\n{}", r.mismatched.join("\n"));
    assert_eq!(r.points_found, r.points);
    // A few passes of the sample per level of the tree, against 64 million for trying every
    // line of the first set alone.
    let bound = 16 * MAX_CANDIDATES as u64 * segs;
    assert!(calls <= bound, "{calls} classifications, over {bound}");
}

/// A lattice of crossing two-sided lines: every partition cuts many segs. A small one builds;
/// a big one runs into the split budget and says so instead of growing without bound (24
/// lines each way split about 2300 segs of 96, within the floor; 200 would split 160,000).
#[test]
fn crossing_lines_build_or_stop_at_the_split_budget() {
    for (count, must_build) in [(10, true), (24, true), (200, false)] {
        let mut vertices = Vec::new();
        let mut lines = Vec::new();
        let span = count * 16;
        for k in 0..count {
            for (a, b) in
                [((k * 16 + 8, 0), (k * 16 + 8, span)), ((0, k * 16 + 8), (span, k * 16 + 8))]
            {
                vertices.push(NodeVertex { x: a.0 * FRACUNIT, y: a.1 * FRACUNIT });
                vertices.push(NodeVertex { x: b.0 * FRACUNIT, y: b.1 * FRACUNIT });
                let v = vertices.len() as u32;
                lines.push(BuildLine {
                    v1: v - 2,
                    v2: v - 1,
                    front_sector: Some(0),
                    back_sector: Some(0),
                });
            }
        }
        match build_nodes("f.wad", "M", &vertices, &lines) {
            Ok(n) => {
                eprintln!("{count} lines each way: {} segs", n.segs.len());
                assert!(!n.extra_vertices.is_empty());
                let _ = paths(&n);
            }
            Err(e) => {
                eprintln!("{count} lines each way: {e}");
                assert!(!must_build, "{count} lines each way: {e}");
                assert!(e.message.contains("too tangled"), "{e}");
            }
        }
    }
}

/// A round pillar of `sides` sides standing alone: one-sided lines facing out. Every line
/// divides it, but only by peeling its own seg off the rest, so its tree is `sides` deep.
fn lone_round_pillar(sides: usize) -> Level {
    let mut l = polygon_room(sides);
    for line in &mut l.lines {
        (line.v1, line.v2) = (line.v2, line.v1);
    }
    l.name = format!("{sides}-sided pillar");
    l
}

/// Peeling one seg per node costs the square of the seg count (a sample of the set's lines
/// classifies the whole set at every level): a pillar of a few hundred sides still builds,
/// one of a thousand (32 million classifications, seconds) stops at the work budget.
#[test]
fn peeling_a_lone_round_pillar_stops_at_the_work_budget() {
    let l = lone_round_pillar(200);
    let (n, calls) = build_nodes_counted(&l.vertices, &l.lines);
    let n = n.unwrap_or_else(|e| panic!("{}: {e}", l.name));
    assert_eq!(n.nodes.len(), 199, "{calls} classifications");
    assert!(calls <= MIN_WORK);

    let l = lone_round_pillar(1000);
    let (n, calls) = build_nodes_counted(&l.vertices, &l.lines);
    let e = n.expect_err("a thousand-sided pillar peels past the work budget");
    assert!(e.message.contains("classifications") && e.message.contains("too tangled"), "{e}");
    // The budget, and at most one node's two samples past it.
    let bound = work_budget(1000) + 2 * (MAX_CANDIDATES * 1000) as u64;
    assert!(calls <= bound, "{calls} classifications, over {bound}");
}

/// A fuzzed Hexen-format map (tests/data/hostile/doom_tangled_lines_node_builder.wad:
/// lastermaul-map11.wad with 750 vertices overwritten, so a thousand lines cross the map). Its
/// partitions cut segs without end: with a split budget of 65536 beyond 8 per seg it cut
/// 86,600 and made 13.3 million classifications (a second) before giving up; the budgets
/// proportional to the map stop it at a third of that, below its work budget (8.1 million).
#[test]
fn a_fuzzed_tangle_of_long_lines_stops_within_its_budgets() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/hostile/doom_tangled_lines_node_builder.wad");
    let levels = wad_levels(&path);
    assert_eq!(levels.len(), 1);
    let l = &levels[0];
    let (n, calls) = build_nodes_counted(&l.vertices, &l.lines);
    let e = n.expect_err("the tangle is refused");
    assert!(e.message.contains("too tangled") && e.structure.contains("building nodes"), "{e}");
    let sides = l
        .lines
        .iter()
        .filter(|b| l.vertices.get(b.v1 as usize) != l.vertices.get(b.v2 as usize))
        .map(|b| b.front_sector.is_some() as usize + b.back_sector.is_some() as usize)
        .sum::<usize>();
    // The split budget stops it first, at about 4.5 million.
    let bound = work_budget(sides);
    assert!(calls <= bound, "{calls} classifications for {sides} segs, over {bound}");
}

/// The side test's integer thresholds give the answer of the division they replace, for
/// points within a few units of the tolerance band's edges, on lines of every length and
/// direction (short, diagonal, the longest a Fixed direction allows).
#[test]
fn side_thresholds_answer_as_the_division_does() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let by_division = |p: &Partition, v: NodeVertex| {
        let d = p.cross(v) as f64 / p.len;
        if d < -ON_LINE {
            -1
        } else if d > ON_LINE {
            1
        } else {
            0
        }
    };
    let mut near_edge = 0;
    for k in 0..4000 {
        let scale = [1i64, 1 << 8, 1 << 16, 1 << 24, 1 << 31][k % 5];
        let r = |n: u64| (n % (2 * scale as u64 + 1)) as i64 - scale;
        let (dx, dy) = (r(next()), r(next()));
        if (dx, dy) == (0, 0) || Fixed::try_from(dx).is_err() || Fixed::try_from(dy).is_err() {
            continue;
        }
        let (x, y) = (r(next()) / 2, r(next()) / 2);
        let p = Partition::new(x, y, dx, dy, 0, 0);
        // A point along the line, then out along its normal to either edge of the band.
        let t = (next() % 1000) as f64 / 1000.0;
        for sign in [-1.0, 1.0] {
            let out = sign * ON_LINE / p.len;
            for jitter in -3..=3 {
                let vx = x as f64 + t * dx as f64 - out * dy as f64 + jitter as f64;
                let vy = y as f64 + t * dy as f64 + out * dx as f64 - jitter as f64;
                let v = NodeVertex { x: vx.round() as Fixed, y: vy.round() as Fixed };
                near_edge += usize::from(p.cross(v).abs() > p.near && p.cross(v).abs() < p.far);
                assert_eq!(p.side_of(v), by_division(&p, v), "{p:?} at {v:?}");
            }
        }
    }
    // The fallback band was reached, so both paths were compared.
    assert!(near_edge > 0);
}
