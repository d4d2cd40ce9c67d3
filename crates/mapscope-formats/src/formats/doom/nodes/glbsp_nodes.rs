//! glBSP's GL nodes: `GL_VERT`, `GL_SEGS`, `GL_SSECT` and `GL_NODES` under a `GL_<map>` marker
//! (or `GL_LEVEL` naming the map in its text, for names longer than five letters), in the map's
//! WAD or a separate `.gwa` file, as the GL-Nodes specification describes them.
//!
//! Versions differ in where they say so and in field widths:
//! - V1: `GL_VERT` has no magic and 16-bit integer vertices; segs, subsectors and nodes are
//!   16-bit; bit 15 of a seg vertex marks a GL vertex.
//! - V2: `GL_VERT` starts `gNd2` and holds 16.16 vertices; otherwise V1.
//! - V3: V2 vertices, but `GL_SEGS` and `GL_SSECT` start `gNd3` and are 32-bit; bit 30 marks a
//!   GL vertex; nodes stay 16-bit.
//! - V5: `GL_VERT` starts `gNd5`; 32-bit segs and subsectors without magic, bit 31 marks a GL
//!   vertex, and nodes have 32-bit children (bit 31: subsector).
//! - V4 (`gNd4`, DeePBSP's) is refused: no builder we can test with writes it.

use super::{read_node, BspSubsector, NodeContext, NodeFault, NodeFormat, NodeSet, NodeVertex};
use crate::formats::doom::archive::wad::{Lump, Wad};
use crate::formats::{Reader, Result};

/// The four lumps of one map's glBSP nodes.
#[derive(Clone, Copy, Debug)]
pub struct GlBspLumps<'a> {
    pub vert: Lump<'a>,
    pub segs: Lump<'a>,
    pub ssect: Lump<'a>,
    pub nodes: Lump<'a>,
}

/// The marker glBSP writes for `map`: `GL_<map>` for names of up to five letters, otherwise
/// `GL_LEVEL` with `LEVEL=<map>` in its text.
fn marker_matches(name: &str, data: &[u8], map: &str) -> bool {
    if map.len() <= 5 {
        return name.eq_ignore_ascii_case(&format!("GL_{map}"));
    }
    name == "GL_LEVEL"
        && String::from_utf8_lossy(data).lines().any(|line| {
            line.split_once('=').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("LEVEL") && v.trim().eq_ignore_ascii_case(map)
            })
        })
}

/// Finds `map`'s glBSP lumps in `wad` (the last marker for it wins, as lump lookups do).
pub fn find_glbsp_lumps<'a>(wad: &'a Wad, map: &str) -> Option<GlBspLumps<'a>> {
    let lumps = wad.lumps();
    let marker = (0..lumps.len())
        .rev()
        .find(|&i| wad.lump(i).is_some_and(|l| marker_matches(&lumps[i].name, l.data, map)))?;
    let (mut vert, mut segs, mut ssect, mut nodes) = (None, None, None, None);
    for (i, info) in lumps.iter().enumerate().skip(marker + 1) {
        let slot = match info.name.as_str() {
            "GL_VERT" => &mut vert,
            "GL_SEGS" => &mut segs,
            "GL_SSECT" => &mut ssect,
            "GL_NODES" => &mut nodes,
            "GL_PVS" => continue,
            _ => break,
        };
        *slot = wad.lump(i);
    }
    Some(GlBspLumps { vert: vert?, segs: segs?, ssect: ssect?, nodes: nodes? })
}

/// What a version changes.
struct Layout {
    version: u8,
    /// `GL_VERT` holds 16.16 (else 16-bit integer) vertices.
    fixed_verts: bool,
    /// Segs and subsectors are 32-bit and this bit marks a GL vertex (else 16-bit, bit 15).
    wide_flag: Option<u32>,
    /// `GL_SEGS` and `GL_SSECT` start with `gNd3`.
    v3_magic: bool,
    /// Node children are 32-bit.
    wide_nodes: bool,
}

/// Reads glBSP GL nodes; versions are told apart by the lumps' magic.
pub fn read_glbsp_nodes(ctx: &NodeContext, lumps: &GlBspLumps) -> Result<NodeSet> {
    let vs = format!("{} GL_VERT", ctx.map);
    let mut vr = lumps.vert.reader(&vs);
    let magic = lumps.vert.data.get(..4).unwrap_or(&[]);
    let segs_v3 = lumps.segs.data.get(..4) == Some(b"gNd3");
    let layout = match magic {
        b"gNd2" | b"gNd3" if segs_v3 => Layout {
            version: 3,
            fixed_verts: true,
            wide_flag: Some(1 << 30),
            v3_magic: true,
            wide_nodes: false,
        },
        b"gNd2" | b"gNd3" => Layout {
            version: 2,
            fixed_verts: true,
            wide_flag: None,
            v3_magic: false,
            wide_nodes: false,
        },
        b"gNd5" => Layout {
            version: 5,
            fixed_verts: true,
            wide_flag: Some(1 << 31),
            v3_magic: false,
            wide_nodes: true,
        },
        b"gNd4" => return Err(vr.error("V4 GL nodes (DeePBSP's gNd4) are not supported")),
        m if m.starts_with(b"gNd") => {
            return Err(vr.error(format!("unknown GL nodes version {}", String::from_utf8_lossy(m))))
        }
        _ if segs_v3 => {
            return Err(vr.error("GL_SEGS says V3 (gNd3) but GL_VERT has no V2 vertices"))
        }
        _ => Layout {
            version: 1,
            fixed_verts: false,
            wide_flag: None,
            v3_magic: false,
            wide_nodes: false,
        },
    };
    if layout.version > 1 {
        vr.skip(4)?;
    }

    let vert_size = if layout.fixed_verts { 8 } else { 4 };
    let nverts = records(&vr, vert_size, "GL vertices")?;
    let mut extra_vertices = Vec::with_capacity(nverts);
    for _ in 0..nverts {
        extra_vertices.push(if layout.fixed_verts {
            NodeVertex { x: vr.i32_le()?, y: vr.i32_le()? }
        } else {
            NodeVertex { x: (vr.i16_le()? as i32) << 16, y: (vr.i16_le()? as i32) << 16 }
        });
    }
    let map_verts = ctx.vertices.len() as u32;

    let ss = format!("{} GL_SEGS (V{})", ctx.map, layout.version);
    let mut sr = lumps.segs.reader(&ss);
    if layout.v3_magic {
        sr.skip(4)?;
    }
    let seg_size = if layout.wide_flag.is_some() { 16 } else { 10 };
    let nsegs = records(&sr, seg_size, "GL segs")?;
    let segs_start = sr.pos();
    let mut segs = Vec::with_capacity(nsegs);
    for i in 0..nsegs {
        let pos = sr.pos();
        let (v1, v2) = match layout.wide_flag {
            Some(_) => (sr.u32_le()?, sr.u32_le()?),
            None => (sr.u16_le()? as u32, sr.u16_le()? as u32),
        };
        let linedef = Some(sr.u16_le()? as u32).filter(|&l| l != 0xFFFF);
        let side = sr.u16_le()?;
        let partner = match layout.wide_flag {
            Some(_) => Some(sr.u32_le()?).filter(|&p| p != u32::MAX),
            None => Some(sr.u16_le()? as u32).filter(|&p| p != 0xFFFF),
        };
        let flag = layout.wide_flag.unwrap_or(0x8000);
        let vertex = |v: u32| if v & flag != 0 { (v & !flag).saturating_add(map_verts) } else { v };
        let side = if linedef.is_some() { side.min(2) as u8 } else { 0 };
        let seg = ctx
            .make_seg(&extra_vertices, vertex(v1), vertex(v2), linedef, side, partner)
            .map_err(|m| sr.error_at(pos, format!("seg {i}: {m}")))?;
        segs.push(seg);
    }

    let sss = format!("{} GL_SSECT (V{})", ctx.map, layout.version);
    let mut ssr = lumps.ssect.reader(&sss);
    if layout.v3_magic && ssr.bytes(4.min(ssr.remaining()))? != b"gNd3" {
        return Err(ssr.error_at(0, "GL_SEGS is V3 (gNd3) but GL_SSECT is not"));
    }
    let ssect_size = if layout.wide_flag.is_some() { 8 } else { 4 };
    let nsub = records(&ssr, ssect_size, "GL subsectors")?;
    let ssect_start = ssr.pos();
    let mut subsectors = Vec::with_capacity(nsub);
    for _ in 0..nsub {
        let (num_segs, first_seg) = match layout.wide_flag {
            Some(_) => (ssr.u32_le()?, ssr.u32_le()?),
            None => (ssr.u16_le()? as u32, ssr.u16_le()? as u32),
        };
        subsectors.push(BspSubsector { first_seg, num_segs });
    }

    let ns = format!("{} GL_NODES (V{})", ctx.map, layout.version);
    let mut nr = lumps.nodes.reader(&ns);
    let node_size = if layout.wide_nodes { 32 } else { 28 };
    let nnodes = records(&nr, node_size, "GL nodes")?;
    let nodes_start = nr.pos();
    let mut nodes = Vec::with_capacity(nnodes);
    for _ in 0..nnodes {
        nodes.push(read_node(&mut nr, false, layout.wide_nodes)?);
    }

    let format = NodeFormat::GlBsp { version: layout.version };
    let set = NodeSet { format, extra_vertices, segs, subsectors, nodes };
    set.check().map_err(|fault| match fault {
        NodeFault::Seg(i, m) => sr.error_at(segs_start + i * seg_size, format!("seg {i}: {m}")),
        NodeFault::Subsector(i, m) => {
            ssr.error_at(ssect_start + i * ssect_size, format!("subsector {i}: {m}"))
        }
        NodeFault::Node(i, m) => nr.error_at(nodes_start + i * node_size, format!("node {i}: {m}")),
    })?;
    Ok(set)
}

/// How many whole records the rest of a lump holds; a partial record is an error, since it
/// means the lump was cut or its version misread.
fn records(r: &Reader, size: usize, what: &str) -> Result<usize> {
    let rest = r.remaining();
    if !rest.is_multiple_of(size) {
        return Err(r.error(format!("{rest} bytes is not a whole number of {size}-byte {what}")));
    }
    Ok(rest / size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::node_test_support::*;

    fn read(wad: &Wad, name: &str) -> Result<(NodeSet, TestMap)> {
        let map = TestMap::binary(wad, name);
        let lumps = find_glbsp_lumps(wad, name).expect("the variant has GL lumps");
        read_glbsp_nodes(&map.ctx(name), &lumps).map(|set| (set, map))
    }

    #[test]
    fn glbsp_versions_of_freedoom_maps() {
        for original in ["MAP01", "MAP15"] {
            let input = extract_map(freedoom2(), original);
            for version in [1u8, 2, 3, 5] {
                let arg = format!("-v{version}");
                let wad = build_variant("glbsp", &[&arg], &input, &format!("{original}v{version}"));
                let (set, map) = read(&wad, original).unwrap();
                assert_eq!(set.format, NodeFormat::GlBsp { version });
                check_indices(&set, &map);
                check_reach(&set);
                check_gl_loops(&set, &map);
                // V1 rounds split vertices to whole units, which moves small areas by more
                // than the check allows.
                if version > 1 {
                    check_areas(&set, &map);
                }
            }
        }
    }

    #[test]
    fn zdbsp_writes_glbsp_lumps_too() {
        let input = extract_map(freedoom2(), "MAP01");
        // Not `-5`: the zdbsp Debian ships writes V5 segs as its padded 20-byte in-memory
        // struct instead of the specification's 16 bytes, which no port reads.
        for (args, version) in [(&["-g"][..], 2u8), (&["-x"][..], 2)] {
            let wad = build_variant("zdbsp", args, &input, &format!("zgl{version}"));
            let (set, map) = read(&wad, "MAP01").unwrap();
            assert_eq!(set.format, NodeFormat::GlBsp { version });
            check_indices(&set, &map);
            check_reach(&set);
            check_gl_loops(&set, &map);
            check_areas(&set, &map);
        }
    }

    #[test]
    fn long_map_names_use_a_gl_level_marker() {
        let mut w = crate::formats::doom::archive::writer::WadWriter::pwad();
        w.marker("LONGNAME")
            .lump("GL_MAP01", Vec::new())
            .lump("GL_LEVEL", b"LEVEL=OTHER\n".to_vec())
            .lump("GL_LEVEL", b"BUILDER=x\nLEVEL=LongName\n".to_vec())
            .lump("GL_VERT", b"gNd2".to_vec())
            .lump("GL_SEGS", vec![1])
            .lump("GL_SSECT", vec![2])
            .lump("GL_NODES", vec![3])
            .lump("GL_PVS", Vec::new());
        let wad = Wad::from_bytes("t.wad", w.to_bytes()).unwrap();
        let lumps = find_glbsp_lumps(&wad, "LONGNAME").unwrap();
        assert_eq!(
            (lumps.segs.data, lumps.ssect.data, lumps.nodes.data),
            (&[1][..], &[2][..], &[3][..])
        );
        assert!(find_glbsp_lumps(&wad, "MAP01").is_none(), "GL_MAP01 has no lumps after it");
        assert!(find_glbsp_lumps(&wad, "OTHERS").is_none());
    }

    #[test]
    fn hostile_lumps_are_errors() {
        let wad = build_variant("glbsp", &["-v5"], &tiny_map(), "hostile5");
        let (_, map) = read(&wad, "MAP01").unwrap();
        let good = find_glbsp_lumps(&wad, "MAP01").unwrap();
        let ctx = map.ctx("MAP01");
        let owned: [Vec<u8>; 4] =
            [good.vert, good.segs, good.ssect, good.nodes].map(|l| l.data.to_vec());
        let try_with = |edit: &dyn Fn(&mut [Vec<u8>; 4])| {
            let mut d = owned.clone();
            edit(&mut d);
            let lump = |i: usize| Lump { name: "GL", data: &d[i], file: "t.gwa", offset: 0 };
            let lumps = GlBspLumps { vert: lump(0), segs: lump(1), ssect: lump(2), nodes: lump(3) };
            read_glbsp_nodes(&ctx, &lumps).map(|_| ())
        };
        assert!(try_with(&|_| {}).is_ok());
        // Every truncation of every lump: an error or a smaller valid set, never a panic;
        // cutting inside a record is always an error.
        for lump in 0..4 {
            for len in 0..owned[lump].len() {
                let r = try_with(&|d| d[lump].truncate(len));
                let whole = [8usize, 16, 8, 32][lump];
                if (len.saturating_sub(if lump == 0 { 4 } else { 0 })) % whole != 0 {
                    assert!(r.is_err(), "lump {lump} cut at {len}");
                }
            }
        }
        assert!(try_with(&|d| d[0][..4].copy_from_slice(b"gNd4")).is_err());
        assert!(try_with(&|d| d[0][..4].copy_from_slice(b"gNd9")).is_err());
        // A seg on a GL vertex past the end, and on a linedef past the end.
        assert!(try_with(&|d| d[1][..4].copy_from_slice(&0x8000_0FFFu32.to_le_bytes())).is_err());
        assert!(try_with(&|d| d[1][8..10].copy_from_slice(&0x0FFFu16.to_le_bytes())).is_err());
        // A subsector running past the segs.
        assert!(try_with(&|d| d[2][..4].copy_from_slice(&u32::MAX.to_le_bytes())).is_err());
        // The root pointing at itself.
        let root = (owned[3].len() / 32 - 1) as u32;
        let n = owned[3].len();
        let looped = try_with(&|d| d[3][n - 8..n - 4].copy_from_slice(&root.to_le_bytes()));
        assert!(looped.unwrap_err().to_string().contains("twice"));
    }
}
