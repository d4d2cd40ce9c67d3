//! ZDoom's node formats: extended nodes in `NODES` (`XNOD`, zlib-compressed `ZNOD`) and GL
//! nodes in `ZNODES` (UDMF maps) or `SSECTORS` (binary maps): `XGLN`/`XGL2`/`XGL3` and their
//! compressed `ZGLN`/`ZGL2`/`ZGL3`, as ZDBSP writes them.
//!
//! After the 4-byte magic (and, when compressed, inflated from what follows it) the stream is:
//! original and new vertex counts then the new vertices (16.16), the subsectors' seg counts
//! (segs run in order), the segs, and the nodes with the root last. Vertex indices below the
//! original count are the map's vertices, the rest the new ones. GL segs store only their start
//! vertex: each ends where the next seg of its subsector starts, the last at the first.

use std::io::Read;

use super::{read_node, BspSubsector, NodeContext, NodeFault, NodeFormat, NodeSet, NodeVertex};
use crate::formats::doom::archive::wad::Lump;
use crate::formats::{FormatError, Reader, Result};
use crate::limits::doom::MAX_INFLATED_NODES;

/// The node format a lump's magic names, if it is one of ZDoom's.
pub fn zdoom_format(data: &[u8]) -> Option<NodeFormat> {
    let magic: [u8; 4] = data.get(..4)?.try_into().ok()?;
    Some(match &magic {
        b"XNOD" => NodeFormat::ZdoomExtended { compressed: false },
        b"ZNOD" => NodeFormat::ZdoomExtended { compressed: true },
        b"XGLN" => NodeFormat::ZdoomGl { version: 1, compressed: false },
        b"ZGLN" => NodeFormat::ZdoomGl { version: 1, compressed: true },
        b"XGL2" => NodeFormat::ZdoomGl { version: 2, compressed: false },
        b"ZGL2" => NodeFormat::ZdoomGl { version: 2, compressed: true },
        b"XGL3" => NodeFormat::ZdoomGl { version: 3, compressed: false },
        b"ZGL3" => NodeFormat::ZdoomGl { version: 3, compressed: true },
        _ => return None,
    })
}

/// Reads any of ZDoom's node formats from `lump` (`NODES`, `ZNODES` or `SSECTORS`), whichever
/// its magic names. Offsets in errors are file offsets, except in compressed streams, where
/// they are offsets into the inflated data (the structure name says so).
pub fn read_zdoom_nodes(ctx: &NodeContext, lump: &Lump) -> Result<NodeSet> {
    let format = zdoom_format(lump.data).ok_or_else(|| {
        FormatError::new(
            lump.file,
            &format!("{} {}", ctx.map, lump.name),
            lump.offset,
            "not ZDoom nodes (expected XNOD, ZNOD, XGLN, ZGLN, XGL2, ZGL2, XGL3 or ZGL3)",
        )
    })?;
    let magic = String::from_utf8_lossy(&lump.data[..4]).into_owned();
    let (gl_version, compressed) = match format {
        NodeFormat::ZdoomExtended { compressed } => (None, compressed),
        NodeFormat::ZdoomGl { version, compressed } => (Some(version), compressed),
        _ => (None, false),
    };
    if compressed {
        let structure = format!("{} {} ({magic}, offset in inflated data)", ctx.map, lump.name);
        let inflated = inflate(lump, &structure, MAX_INFLATED_NODES)?;
        let r = Reader::new(lump.file, &structure, &inflated);
        read_body(ctx, r, format, gl_version)
    } else {
        let structure = format!("{} {} ({magic})", ctx.map, lump.name);
        let mut r = lump.reader(&structure);
        r.skip(4)?;
        read_body(ctx, r, format, gl_version)
    }
}

/// The zlib stream after the magic, refused once it inflates past `cap` bytes.
fn inflate(lump: &Lump, structure: &str, cap: usize) -> Result<Vec<u8>> {
    let err = |m: String| FormatError::new(lump.file, structure, 0, m);
    let mut out = Vec::new();
    let mut decoder = flate2::read::ZlibDecoder::new(&lump.data[4..]).take(cap as u64 + 1);
    decoder.read_to_end(&mut out).map_err(|e| err(format!("corrupt zlib stream: {e}")))?;
    if out.len() > cap {
        return Err(err(format!("inflates past {cap} bytes, more than any map's nodes")));
    }
    Ok(out)
}

/// A seg as stored, before GL segs learn their end vertex.
struct RawSeg {
    pos: usize,
    v1: u32,
    /// `None` for GL segs (the next seg's start).
    v2: Option<u32>,
    linedef: Option<u32>,
    side: u8,
    partner: Option<u32>,
}

fn read_body(
    ctx: &NodeContext,
    mut r: Reader,
    format: NodeFormat,
    gl_version: Option<u8>,
) -> Result<NodeSet> {
    let map_verts = ctx.vertices.len();
    let at = r.pos();
    let org_verts = r.u32_le()? as usize;
    if org_verts > map_verts {
        return Err(r.error_at(
            at,
            format!("nodes were built for {org_verts} vertices; the map has {map_verts}"),
        ));
    }
    let new_verts = r.u32_le()? as usize;
    r.check_count(new_verts, 8, "new vertices")?;
    let mut extra_vertices = Vec::with_capacity(new_verts);
    for _ in 0..new_verts {
        extra_vertices.push(NodeVertex { x: r.i32_le()?, y: r.i32_le()? });
    }
    let total_verts = map_verts + new_verts;
    // Node indices put the map's vertices first; the stream puts the new ones right after its
    // original count, which may be fewer than the map has.
    let vertex = |r: &Reader, pos: usize, i: u32| -> Result<u32> {
        let i = i as usize;
        let mapped = if i < org_verts { i } else { i - org_verts + map_verts };
        if mapped >= total_verts {
            return Err(r.error_at(
                pos,
                format!("vertex {i} is past the {org_verts} original and {new_verts} new ones"),
            ));
        }
        Ok(mapped as u32)
    };

    let nsub = r.u32_le()? as usize;
    r.check_count(nsub, 4, "subsectors")?;
    let subsectors_start = r.pos();
    let mut subsectors = Vec::with_capacity(nsub);
    let mut first: u64 = 0;
    for _ in 0..nsub {
        let num_segs = r.u32_le()?;
        subsectors.push(BspSubsector { first_seg: first.min(u32::MAX as u64) as u32, num_segs });
        first += num_segs as u64;
    }
    let at = r.pos();
    let nseg = r.u32_le()? as usize;
    if first != nseg as u64 {
        return Err(r.error_at(at, format!("{nseg} segs, but the subsectors hold {first}")));
    }
    let (seg_size, wide_linedef) = match gl_version {
        None | Some(1) => (11, false),
        _ => (13, true),
    };
    r.check_count(nseg, seg_size, "segs")?;
    let mut raw = Vec::with_capacity(nseg);
    for _ in 0..nseg {
        let pos = r.pos();
        let v1 = r.u32_le()?;
        let (v2, partner) = match gl_version {
            None => (Some(r.u32_le()?), None),
            Some(_) => (None, Some(r.u32_le()?).filter(|&p| p != u32::MAX)),
        };
        let linedef = if wide_linedef {
            Some(r.u32_le()?).filter(|&l| l != u32::MAX)
        } else {
            let l = r.u16_le()?;
            // Only GL segs may be minisegs.
            Some(l as u32).filter(|&l| gl_version.is_none() || l != 0xFFFF)
        };
        let side = r.u8()?;
        let v1 = vertex(&r, pos, v1)?;
        let v2 = v2.map(|v| vertex(&r, pos, v)).transpose()?;
        raw.push(RawSeg { pos, v1, v2, linedef, side, partner });
    }

    let nnodes = r.u32_le()? as usize;
    let node_size = if gl_version == Some(3) { 40 } else { 32 };
    r.check_count(nnodes, node_size, "nodes")?;
    let nodes_start = r.pos();
    let mut nodes = Vec::with_capacity(nnodes);
    for _ in 0..nnodes {
        nodes.push(read_node(&mut r, gl_version == Some(3), true)?);
    }

    let mut segs = Vec::with_capacity(nseg);
    for (i, s) in raw.iter().enumerate() {
        let v2 = match s.v2 {
            Some(v2) => v2,
            None => raw[gl_next(&subsectors, i)].v1,
        };
        let seg = ctx
            .make_seg(&extra_vertices, s.v1, v2, s.linedef, s.side, s.partner)
            .map_err(|m| r.error_at(s.pos, format!("seg {i}: {m}")))?;
        segs.push(seg);
    }

    let set = NodeSet { format, extra_vertices, segs, subsectors, nodes };
    set.check().map_err(|fault| match fault {
        NodeFault::Seg(i, m) => r.error_at(raw[i].pos, format!("seg {i}: {m}")),
        NodeFault::Subsector(i, m) => {
            r.error_at(subsectors_start + 4 * i, format!("subsector {i}: {m}"))
        }
        NodeFault::Node(i, m) => r.error_at(nodes_start + i * node_size, format!("node {i}: {m}")),
    })?;
    Ok(set)
}

/// The seg after `seg` in its subsector's loop (the subsectors hold every seg, in order).
fn gl_next(subsectors: &[BspSubsector], seg: usize) -> usize {
    let ss = subsectors.partition_point(|s| (s.first_seg as usize + s.num_segs as usize) <= seg);
    match subsectors.get(ss) {
        Some(s) if seg + 1 == s.first_seg as usize + s.num_segs as usize => s.first_seg as usize,
        _ => seg + 1,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::io::Write;

    use super::*;
    use crate::formats::doom::archive::wad::Wad;
    use crate::formats::doom::node_test_support::*;
    use crate::formats::doom::nodes::FRACUNIT;

    fn read(wad: &Wad, name: &str, map: &TestMap, lump: &str) -> Result<NodeSet> {
        read_zdoom_nodes(&map.ctx(name), &map_lump(wad, name, lump).unwrap())
    }

    /// A lump of `data` with the variant's name and a made-up file.
    fn lump_of<'a>(name: &'a str, data: &'a [u8]) -> Lump<'a> {
        Lump { name, data, file: "test.wad", offset: 0 }
    }

    /// Non-GL segs lie on their linedefs, run its way on the front and against it on the back,
    /// and unsplit segs have the angles the original map's vanilla SEGS give.
    fn check_segs_on_lines(set: &NodeSet, map: &TestMap, original: &str) {
        let ctx = map.ctx("");
        let xy = |v: u32| {
            let p = ctx.vertex(&set.extra_vertices, v).unwrap();
            (p.x as f64 / FRACUNIT as f64, p.y as f64 / FRACUNIT as f64)
        };
        for (i, s) in set.segs.iter().enumerate() {
            let line = map.linedefs[s.linedef.unwrap() as usize];
            let (a, b) = (xy(line.v1), xy(line.v2));
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = dx.hypot(dy);
            for p in [xy(s.v1), xy(s.v2)] {
                let off = ((p.0 - a.0) * dy - (p.1 - a.1) * dx).abs() / len;
                assert!(off < 1.0, "seg {i} is {off} units off its linedef");
            }
            let (p, q) = (xy(s.v1), xy(s.v2));
            let along = (q.0 - p.0) * dx + (q.1 - p.1) * dy;
            assert_eq!(along > 0.0, s.side == 0, "seg {i} runs the wrong way for its side");
            let start = if s.side == 0 { a } else { b };
            let want = (p.0 - start.0).hypot(p.1 - start.1);
            let got = s.offset as f64 / FRACUNIT as f64;
            assert!((got - want).abs() < 0.001, "seg {i} offset {got}, {want} from its start");
        }
        let fd = freedoom2();
        let verts: Vec<(i16, i16)> = map_lump(fd, original, "VERTEXES")
            .unwrap()
            .data
            .chunks_exact(4)
            .map(|c| (i16::from_le_bytes([c[0], c[1]]), i16::from_le_bytes([c[2], c[3]])))
            .collect();
        let mut vanilla = HashMap::new();
        for c in map_lump(fd, original, "SEGS").unwrap().data.chunks_exact(12) {
            let v = |o: usize| verts[u16::from_le_bytes([c[o], c[o + 1]]) as usize];
            let angle = (u16::from_le_bytes([c[4], c[5]]) as u32) << 16;
            vanilla.insert((v(0), v(2)), angle);
        }
        let mut compared = 0;
        for s in &set.segs {
            // Only unsplit segs: vanilla builders give split ones the angle of their rounded
            // vertices, which this map's exact ones need not match.
            let line = map.linedefs[s.linedef.unwrap() as usize];
            let ends = if s.side == 0 { (line.v1, line.v2) } else { (line.v2, line.v1) };
            if (xy(s.v1), xy(s.v2)) != (xy(ends.0), xy(ends.1)) {
                continue;
            }
            let (p, q) = (xy(s.v1), xy(s.v2));
            let key = ((p.0 as i16, p.1 as i16), (q.0 as i16, q.1 as i16));
            if let Some(&want) = vanilla.get(&key) {
                let diff = s.angle.wrapping_sub(want) as i32;
                assert!(diff.unsigned_abs() <= 1 << 17, "seg angle {:#x} vs {want:#x}", s.angle);
                compared += 1;
            }
        }
        assert!(compared * 4 > set.segs.len(), "only {compared} segs matched vanilla ones");
    }

    fn gl_checks(set: &NodeSet, map: &TestMap) {
        check_indices(set, map);
        check_reach(set);
        check_gl_loops(set, map);
        check_areas(set, map);
    }

    #[test]
    fn extended_nodes_of_freedoom_maps() {
        for original in ["MAP01", "MAP15"] {
            let input = extract_map(freedoom2(), original);
            for (args, compressed) in [(&["-X"][..], false), (&["-X", "-z"][..], true)] {
                let wad = build_variant("zdbsp", args, &input, &format!("x{original}{compressed}"));
                let map = TestMap::binary(&wad, original);
                let set = read(&wad, original, &map, "NODES").unwrap();
                assert_eq!(set.format, NodeFormat::ZdoomExtended { compressed });
                check_indices(&set, &map);
                check_reach(&set);
                check_segs_on_lines(&set, &map, original);
            }
        }
    }

    #[test]
    fn gl_nodes_of_freedoom_maps() {
        for original in ["MAP01", "MAP15"] {
            let input = extract_map(freedoom2(), original);
            for (args, compressed) in [(&["-g", "-X"][..], false), (&["-x", "-z"][..], true)] {
                let wad = build_variant("zdbsp", args, &input, &format!("g{original}{compressed}"));
                let map = TestMap::binary(&wad, original);
                let set = read(&wad, original, &map, "SSECTORS").unwrap();
                assert_eq!(set.format, NodeFormat::ZdoomGl { version: 1, compressed });
                gl_checks(&set, &map);
            }
        }
    }

    /// Rewrites an XGLN stream (after its magic) as XGL2 (32-bit seg linedefs) or XGL3 (also
    /// 16.16 node partitions): what ZDBSP writes for maps with more lines or fractional splits.
    fn transcode(xgln: &[u8], version: u8) -> Vec<u8> {
        let u32_at = |o: usize| u32::from_le_bytes(xgln[o..o + 4].try_into().unwrap()) as usize;
        let mut out = Vec::new();
        let mut p = 8 + 8 * u32_at(4);
        p += 4 + 4 * u32_at(p);
        out.extend(&xgln[..p + 4]);
        let nseg = u32_at(p);
        p += 4;
        for _ in 0..nseg {
            out.extend(&xgln[p..p + 8]);
            let l = u16::from_le_bytes([xgln[p + 8], xgln[p + 9]]);
            let l = if l == 0xFFFF { u32::MAX } else { l as u32 };
            out.extend(l.to_le_bytes());
            out.push(xgln[p + 10]);
            p += 11;
        }
        let nnodes = u32_at(p);
        out.extend(&xgln[p..p + 4]);
        p += 4;
        for _ in 0..nnodes {
            if version == 3 {
                for k in 0..4 {
                    let v = i16::from_le_bytes([xgln[p + 2 * k], xgln[p + 2 * k + 1]]);
                    out.extend(((v as i32) << 16).to_le_bytes());
                }
                out.extend(&xgln[p + 8..p + 32]);
            } else {
                out.extend(&xgln[p..p + 32]);
            }
            p += 32;
        }
        out
    }

    #[test]
    fn xgl2_and_xgl3_read_as_the_xgln_they_were_made_from() {
        let input = extract_map(freedoom2(), "MAP01");
        let wad = build_variant("zdbsp", &["-x", "-X"], &input, "xgl23");
        let map = TestMap::binary(&wad, "MAP01");
        let lump = map_lump(&wad, "MAP01", "SSECTORS").unwrap();
        let base = read_zdoom_nodes(&map.ctx("MAP01"), &lump).unwrap();
        for version in [2u8, 3] {
            let body = transcode(&lump.data[4..], version);
            let mut plain = format!("XGL{version}").into_bytes();
            plain.extend(&body);
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(&body).unwrap();
            let mut packed = format!("ZGL{version}").into_bytes();
            packed.extend(z.finish().unwrap());
            for (data, compressed) in [(plain, false), (packed, true)] {
                let set = read_zdoom_nodes(&map.ctx("MAP01"), &lump_of("ZNODES", &data)).unwrap();
                assert_eq!(set.format, NodeFormat::ZdoomGl { version, compressed });
                assert_eq!(set.segs, base.segs);
                assert_eq!(set.nodes, base.nodes);
                assert_eq!(set.subsectors, base.subsectors);
                assert_eq!(set.extra_vertices, base.extra_vertices);
            }
        }
    }

    #[test]
    fn udmf_gl_nodes_of_a_community_map() {
        let path = "/work/shared/realmaps/doom/vgpdm01.wad";
        let wad = Wad::open(path.as_ref()).unwrap();
        let text = map_lump(&wad, "VGPDM01", "TEXTMAP").unwrap();
        let map = TestMap::udmf(&String::from_utf8_lossy(text.data));
        assert_eq!(
            map.vertices.len(),
            String::from_utf8_lossy(text.data).matches("vertex").count(),
            "the crude TEXTMAP reader missed vertices"
        );
        let lump = map_lump(&wad, "VGPDM01", "ZNODES").unwrap();
        let set = read_zdoom_nodes(&map.ctx("VGPDM01"), &lump).unwrap();
        assert_eq!(set.format, NodeFormat::ZdoomGl { version: 3, compressed: false });
        gl_checks(&set, &map);

        let rebuilt = build_variant("zdbsp", &["-z"], &std::fs::read(path).unwrap(), "zgl3");
        let text = map_lump(&rebuilt, "VGPDM01", "TEXTMAP").unwrap();
        let map = TestMap::udmf(&String::from_utf8_lossy(text.data));
        let lump = map_lump(&rebuilt, "VGPDM01", "ZNODES").unwrap();
        let set = read_zdoom_nodes(&map.ctx("VGPDM01"), &lump).unwrap();
        assert_eq!(set.format, NodeFormat::ZdoomGl { version: 3, compressed: true });
        gl_checks(&set, &map);
    }

    fn tiny_variant(args: &[&str], tag: &str) -> (Wad, TestMap) {
        let wad = build_variant("zdbsp", args, &tiny_map(), tag);
        let map = TestMap::binary(&wad, "MAP01");
        (wad, map)
    }

    #[test]
    fn every_truncation_is_an_error() {
        for (args, lump) in [(&["-X"][..], "NODES"), (&["-x", "-z"][..], "SSECTORS")] {
            let (wad, map) = tiny_variant(args, &format!("trunc{lump}"));
            let data = map_lump(&wad, "MAP01", lump).unwrap().data;
            let set = read_zdoom_nodes(&map.ctx("MAP01"), &lump_of(lump, data)).unwrap();
            assert!(!set.nodes.is_empty(), "the tiny map should need a node");
            for len in 0..data.len() {
                let cut = lump_of(lump, &data[..len]);
                assert!(read_zdoom_nodes(&map.ctx("MAP01"), &cut).is_err(), "{lump} cut at {len}");
            }
        }
    }

    #[test]
    fn hostile_streams_are_errors() {
        let (wad, map) = tiny_variant(&["-X"], "hostile");
        let data = map_lump(&wad, "MAP01", "NODES").unwrap().data.to_vec();
        let ctx = map.ctx("MAP01");
        let try_with = |edit: &dyn Fn(&mut Vec<u8>)| {
            let mut d = data.clone();
            edit(&mut d);
            read_zdoom_nodes(&ctx, &lump_of("NODES", &d)).map(|_| ())
        };
        assert!(try_with(&|_| {}).is_ok());
        let err = try_with(&|d| d[..4].copy_from_slice(b"XNOE")).unwrap_err();
        assert!(err.to_string().contains("test.wad") && err.to_string().contains("MAP01"));
        // Counts far past the data: original vertices, new vertices, subsectors.
        for at in [4, 8] {
            assert!(try_with(&|d| d[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes())).is_err());
        }
        let nsub_at = 12 + 8 * u32::from_le_bytes(data[8..12].try_into().unwrap()) as usize;
        assert!(try_with(&|d| d[nsub_at..nsub_at + 4].copy_from_slice(&[0xFF; 4])).is_err());
        // The root's first child points at the root itself.
        let n = data.len();
        let u32_at = |o: usize| u32::from_le_bytes(data[o..o + 4].try_into().unwrap()) as usize;
        let seg_count_at = nsub_at + 4 + 4 * u32_at(nsub_at);
        let root = u32_at(seg_count_at + 4 + 11 * u32_at(seg_count_at)) as u32 - 1;
        let looped = try_with(&|d| d[n - 8..n - 4].copy_from_slice(&root.to_le_bytes()));
        assert!(looped.unwrap_err().to_string().contains("twice"));
        // A child node past the end, and a subsector past the end.
        assert!(try_with(&|d| d[n - 8..n - 4].copy_from_slice(&(root + 1).to_le_bytes())).is_err());
        assert!(
            try_with(&|d| d[n - 8..n - 4].copy_from_slice(&0x8000_0100u32.to_le_bytes())).is_err()
        );
        // Garbage after a ZNOD magic.
        assert!(try_with(&|d| d[..4].copy_from_slice(b"ZNOD")).is_err());
        // Nodes built for more vertices than the map has.
        let fewer = NodeContext { vertices: &map.vertices[..2], ..ctx };
        assert!(read_zdoom_nodes(&fewer, &lump_of("NODES", &data)).is_err());
    }

    #[test]
    fn inflating_stops_at_the_cap() {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(&[0u8; 5000]).unwrap();
        let mut data = b"ZNOD".to_vec();
        data.extend(z.finish().unwrap());
        let lump = lump_of("NODES", &data);
        assert_eq!(inflate(&lump, "t", 5000).unwrap().len(), 5000);
        let err = inflate(&lump, "t", 4999).unwrap_err();
        assert!(err.to_string().contains("inflates past"), "{err}");
    }
}
