//! Test support for the node readers: Freedoom maps rebuilt with `zdbsp` and `glbsp` into every
//! node format, the map geometry read straight from the variant's lumps, and the checks every
//! format must pass (valid indices, closed subsector loops, mutual partners, a tree that reaches
//! each subsector once, and subsector areas adding up to their sectors').

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::archive::wad::{Lump, Wad, MAP_LUMP_NAMES};
use super::archive::writer::WadWriter;
use super::nodes::{BspChild, NodeContext, NodeLinedef, NodeSet, NodeVertex, FRACUNIT};

pub const FREEDOOM2: &str = "/usr/share/games/doom/freedoom2.wad";

pub fn freedoom2() -> &'static Wad {
    static WAD: OnceLock<Wad> = OnceLock::new();
    WAD.get_or_init(|| {
        Wad::open(FREEDOOM2.as_ref())
            .unwrap_or_else(|e| panic!("{FREEDOOM2}: {e}: install the Debian package freedoom"))
    })
}

/// The lump called `name` among the lumps that follow `marker` (up to the next map marker).
pub fn map_lump<'a>(wad: &'a Wad, marker: &str, name: &str) -> Option<Lump<'a>> {
    let lumps = wad.lumps();
    let start = lumps.iter().position(|l| l.name == marker)?;
    (start + 1..lumps.len())
        .take_while(|&i| {
            let n = lumps[i].name.as_str();
            MAP_LUMP_NAMES.contains(&n) || matches!(n, "TEXTMAP" | "ZNODES" | "DIALOGUE")
        })
        .find(|&i| lumps[i].name == name)
        .and_then(|i| wad.lump(i))
}

/// A PWAD holding only `map` of `wad`.
pub fn extract_map(wad: &Wad, map: &str) -> Vec<u8> {
    let mut w = WadWriter::pwad();
    w.marker(map);
    for name in MAP_LUMP_NAMES {
        if let Some(l) = map_lump(wad, map, name) {
            w.lump(name, l.data.to_vec());
        }
    }
    w.to_bytes()
}

/// An L-shaped room (concave, so it needs a node) with a player start, as raw lumps.
pub fn tiny_map() -> Vec<u8> {
    let verts: [(i16, i16); 6] = [(0, 0), (0, 256), (128, 256), (128, 128), (256, 128), (256, 0)];
    let mut vertexes = Vec::new();
    for (x, y) in verts {
        vertexes.extend(x.to_le_bytes());
        vertexes.extend(y.to_le_bytes());
    }
    let mut linedefs = Vec::new();
    let mut sidedefs = Vec::new();
    for i in 0..6u16 {
        for v in [i, (i + 1) % 6, 1, 0, 0, i, 0xFFFF] {
            linedefs.extend(v.to_le_bytes());
        }
        sidedefs.extend([0u8; 4]);
        sidedefs.extend(b"-\0\0\0\0\0\0\0-\0\0\0\0\0\0\0STARTAN3");
        sidedefs.extend(0u16.to_le_bytes());
    }
    let mut sectors = Vec::new();
    sectors.extend(0i16.to_le_bytes());
    sectors.extend(128i16.to_le_bytes());
    sectors.extend(b"FLOOR4_8CEIL3_5\0");
    for v in [160i16, 0, 0] {
        sectors.extend(v.to_le_bytes());
    }
    let mut things = Vec::new();
    for v in [64i16, 64, 0, 1, 7] {
        things.extend(v.to_le_bytes());
    }
    let mut w = WadWriter::pwad();
    w.marker("MAP01")
        .lump("THINGS", things)
        .lump("LINEDEFS", linedefs)
        .lump("SIDEDEFS", sidedefs)
        .lump("VERTEXES", vertexes)
        .lump("SEGS", Vec::new())
        .lump("SSECTORS", Vec::new())
        .lump("NODES", Vec::new())
        .lump("SECTORS", sectors)
        .lump("REJECT", Vec::new())
        .lump("BLOCKMAP", Vec::new());
    w.to_bytes()
}

/// Runs a node builder (`zdbsp` or `glbsp`) over `input` and returns the WAD it writes.
pub fn build_variant(tool: &str, args: &[&str], input: &[u8], tag: &str) -> Wad {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("mapscope-nodes-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("in.wad");
    let out = dir.join("out.wad");
    std::fs::write(&src, input).unwrap();
    let mut cmd = Command::new(tool);
    if tool == "glbsp" {
        cmd.arg("-q").args(args).arg(&src).arg("-o").arg(&out);
    } else {
        cmd.args(args).arg("-t").arg("-o").arg(&out).arg(&src);
    }
    let result = cmd.output().unwrap_or_else(|e| panic!("{tool} must be installed: {e}"));
    assert!(
        result.status.success(),
        "{tool} {args:?} failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    let wad = Wad::open(&out).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    wad
}

/// A map's geometry, read straight from its lumps (binary or UDMF).
#[derive(Default)]
pub struct TestMap {
    pub vertices: Vec<NodeVertex>,
    pub linedefs: Vec<NodeLinedef>,
    /// Each linedef's front and back sidedef.
    pub line_sides: Vec<[Option<u32>; 2]>,
    pub side_sector: Vec<u32>,
}

impl TestMap {
    pub fn ctx<'a>(&'a self, map: &'a str) -> NodeContext<'a> {
        NodeContext { map, vertices: &self.vertices, linedefs: &self.linedefs }
    }

    pub fn binary(wad: &Wad, map: &str) -> TestMap {
        let lump = |n| map_lump(wad, map, n).unwrap().data;
        let i16_at = |d: &[u8], o: usize| i16::from_le_bytes([d[o], d[o + 1]]);
        let u16_at = |d: &[u8], o: usize| u16::from_le_bytes([d[o], d[o + 1]]);
        let vertices = lump("VERTEXES")
            .chunks_exact(4)
            .map(|c| NodeVertex { x: (i16_at(c, 0) as i32) << 16, y: (i16_at(c, 2) as i32) << 16 })
            .collect();
        let side_sector = lump("SIDEDEFS").chunks_exact(30).map(|c| u16_at(c, 28) as u32).collect();
        let mut m = TestMap { vertices, side_sector, ..TestMap::default() };
        for c in lump("LINEDEFS").chunks_exact(14) {
            let sides = [10, 12].map(|o| Some(u16_at(c, o) as u32).filter(|&s| s != 0xFFFF));
            m.push_line(u16_at(c, 0) as u32, u16_at(c, 2) as u32, sides);
        }
        m
    }

    /// Reads a TEXTMAP crudely: blocks of `key = value;` lines, comments dropped.
    pub fn udmf(text: &str) -> TestMap {
        let text: String = text.lines().map(|l| l.split("//").next().unwrap_or("")).collect();
        let mut m = TestMap::default();
        let mut rest = text.as_str();
        while let Some(open) = rest.find('{') {
            let kind = rest[..open].rsplit(';').next().unwrap().trim().to_ascii_lowercase();
            let close = open + rest[open..].find('}').unwrap();
            let fields: HashMap<String, String> = rest[open + 1..close]
                .split(';')
                .filter_map(|f| f.split_once('='))
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
                .collect();
            let num = |k: &str| fields.get(k).map(|v| v.parse::<f64>().unwrap());
            match kind.as_str() {
                "vertex" => m.vertices.push(NodeVertex {
                    x: (num("x").unwrap() * FRACUNIT as f64).round() as i32,
                    y: (num("y").unwrap() * FRACUNIT as f64).round() as i32,
                }),
                "linedef" => {
                    let sides = ["sidefront", "sideback"]
                        .map(|k| num(k).filter(|&s| s >= 0.0).map(|s| s as u32));
                    m.push_line(num("v1").unwrap() as u32, num("v2").unwrap() as u32, sides);
                }
                "sidedef" => m.side_sector.push(num("sector").unwrap() as u32),
                _ => {}
            }
            rest = &rest[close + 1..];
        }
        m
    }

    fn push_line(&mut self, v1: u32, v2: u32, sides: [Option<u32>; 2]) {
        self.linedefs.push(NodeLinedef { v1, v2, has_side: sides.map(|s| s.is_some()) });
        self.line_sides.push(sides);
    }

    fn xy(&self, set: &NodeSet, v: u32) -> (f64, f64) {
        let p = self.ctx("").vertex(&set.extra_vertices, v).unwrap();
        (p.x as f64 / FRACUNIT as f64, p.y as f64 / FRACUNIT as f64)
    }
}

/// Every subsector is reached from the root exactly once.
pub fn check_reach(set: &NodeSet) {
    let mut count = vec![0u32; set.subsectors.len()];
    if set.nodes.is_empty() {
        count[0] += 1;
    } else {
        let mut stack = vec![set.nodes.len() - 1];
        let mut visits = 0;
        while let Some(n) = stack.pop() {
            visits += 1;
            assert!(visits <= set.nodes.len(), "node tree revisits nodes");
            for c in set.nodes[n].children {
                match c {
                    BspChild::Node(c) => stack.push(c as usize),
                    BspChild::Subsector(s) => count[s as usize] += 1,
                }
            }
        }
    }
    let bad: Vec<_> = count.iter().enumerate().filter(|(_, &c)| c != 1).collect();
    assert!(bad.is_empty(), "subsectors not reached exactly once: {:?}", &bad[..bad.len().min(8)]);
}

/// Every index is in range (the readers promise this; checked here independently).
pub fn check_indices(set: &NodeSet, map: &TestMap) {
    let nverts = (map.vertices.len() + set.extra_vertices.len()) as u32;
    for s in &set.segs {
        assert!(s.v1 < nverts && s.v2 < nverts, "seg vertex out of range: {s:?}");
        if let Some(l) = s.linedef {
            assert!((l as usize) < map.linedefs.len());
            assert!(map.line_sides[l as usize][s.side as usize].is_some());
        }
        if let Some(p) = s.partner {
            assert!((p as usize) < set.segs.len());
        }
    }
    for ss in &set.subsectors {
        assert!(ss.num_segs > 0 && (ss.first_seg + ss.num_segs) as usize <= set.segs.len());
    }
}

/// GL subsectors are closed loops and partners point at each other along the same edge.
/// Vertices are compared by position: glBSP V1 may end one seg on a map vertex and start the
/// next on a GL vertex at the same (whole-unit) place.
pub fn check_gl_loops(set: &NodeSet, map: &TestMap) {
    let at = |v: u32| map.ctx("").vertex(&set.extra_vertices, v).unwrap();
    for (i, ss) in set.subsectors.iter().enumerate() {
        let segs = &set.segs[ss.first_seg as usize..(ss.first_seg + ss.num_segs) as usize];
        for (k, s) in segs.iter().enumerate() {
            let next = &segs[(k + 1) % segs.len()];
            assert_eq!(at(s.v2), at(next.v1), "subsector {i} is not a closed loop at seg {k}");
        }
    }
    let mut partnered = 0;
    for (i, s) in set.segs.iter().enumerate() {
        if let Some(p) = s.partner {
            let p = &set.segs[p as usize];
            assert_eq!(p.partner, Some(i as u32), "seg {i}'s partner does not point back");
            assert_eq!((at(p.v1), at(p.v2)), (at(s.v2), at(s.v1)), "seg {i}'s partner's edge");
            partnered += 1;
        }
    }
    assert!(partnered > 0, "no partner segs at all");
}

/// Per sector, the subsectors' polygon areas add up to the sector's area from its linedefs.
pub fn check_areas(set: &NodeSet, map: &TestMap) {
    let mut sector_area: HashMap<u32, f64> = HashMap::new();
    for (l, line) in map.linedefs.iter().enumerate() {
        let a = map.xy(set, line.v1);
        let b = map.xy(set, line.v2);
        let cross = a.0 * b.1 - b.0 * a.1;
        // The front sector lies right of v1 → v2 (clockwise), the back sector left.
        for (side, sign) in [(0, -0.5), (1, 0.5)] {
            if let Some(sd) = map.line_sides[l][side] {
                *sector_area.entry(map.side_sector[sd as usize]).or_default() += sign * cross;
            }
        }
    }
    let mut ss_area: HashMap<u32, f64> = HashMap::new();
    for ss in &set.subsectors {
        let segs = &set.segs[ss.first_seg as usize..(ss.first_seg + ss.num_segs) as usize];
        let wall = segs.iter().find(|s| s.linedef.is_some()).expect("subsector without a wall");
        let sd = map.line_sides[wall.linedef.unwrap() as usize][wall.side as usize].unwrap();
        let mut area = 0.0;
        for s in segs {
            let a = map.xy(set, s.v1);
            let b = map.xy(set, s.v2);
            area -= 0.5 * (a.0 * b.1 - b.0 * a.1);
        }
        assert!(area > -1.0, "subsector polygon runs anticlockwise: area {area}");
        *ss_area.entry(map.side_sector[sd as usize]).or_default() += area;
    }
    let mut checked = 0;
    for (sector, &want) in &sector_area {
        let got = ss_area.get(sector).copied().unwrap_or(0.0);
        assert!(
            (got - want).abs() <= 0.01 * want.abs() + 1.0,
            "sector {sector}: subsectors cover {got}, linedefs enclose {want}"
        );
        checked += 1;
    }
    assert!(checked > 0);
}
