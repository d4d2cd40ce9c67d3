//! Writes WAD files and Doom lumps: used by the tests to build small WADs, and meant for the
//! demo level generator. Everything here is the inverse of the parsers in this module.

use crate::formats::doom::map::{Linedef, MapData, Sector, Sidedef, Thing, Vertex, NF_SUBSECTOR};
use crate::formats::doom::nodes::{BspChild, BspNode, BspSeg, BspSubsector, Fixed};
use crate::formats::ByteWriter;

/// A WAD under construction: lumps in directory order.
#[derive(Clone, Debug)]
pub struct WadWriter {
    ident: [u8; 4],
    lumps: Vec<(String, Vec<u8>)>,
}

impl WadWriter {
    pub fn iwad() -> WadWriter {
        WadWriter { ident: *b"IWAD", lumps: Vec::new() }
    }

    pub fn pwad() -> WadWriter {
        WadWriter { ident: *b"PWAD", lumps: Vec::new() }
    }

    /// Appends a lump (names are truncated to 8 bytes and upper-cased).
    pub fn lump(&mut self, name: &str, data: Vec<u8>) -> &mut Self {
        self.lumps.push((name.to_ascii_uppercase(), data));
        self
    }

    /// Appends an empty marker lump such as `F_START` or `MAP01`.
    pub fn marker(&mut self, name: &str) -> &mut Self {
        self.lump(name, Vec::new())
    }

    /// Appends a map: its marker followed by the lumps of [`map_lumps`].
    pub fn map(&mut self, name: &str, map: &MapData) -> &mut Self {
        self.marker(name);
        for (lump, data) in map_lumps(map) {
            self.lump(lump, data);
        }
        self
    }

    /// The file: header, lump data, then the directory.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = ByteWriter::little_endian();
        out.bytes(&self.ident).i32(self.lumps.len() as i32);
        let directory = out.reserve_u32();
        let mut offsets = Vec::with_capacity(self.lumps.len());
        for (_, d) in &self.lumps {
            offsets.push(out.len());
            out.bytes(d);
        }
        let at = out.len() as u32;
        out.patch_u32(directory, at);
        for ((name, d), off) in self.lumps.iter().zip(offsets) {
            // Empty markers conventionally point at the current position.
            out.i32(off as i32).i32(d.len() as i32).bytes(&name8(name));
        }
        out.into_bytes()
    }
}

/// An 8-byte, NUL-padded name field.
pub fn name8(name: &str) -> [u8; 8] {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(name.bytes()) {
        *d = s.to_ascii_uppercase();
    }
    b
}

/// A 16.16 coordinate as the whole map units a vanilla lump holds (fractions dropped).
fn units(v: Fixed) -> i16 {
    (v >> 16) as i16
}

/// A 32-bit index as a vanilla lump's 16 bits (the writer is for small maps).
fn index16(v: u32) -> u16 {
    v as u16
}

pub fn things_lump(things: &[Thing]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for t in things {
        out.i16(units(t.x));
        out.i16(units(t.y));
        out.i16(t.angle);
        out.u16(t.kind);
        out.u16(t.flags);
    }
    out.into_bytes()
}

/// Hexen THINGS: tid, x, y, z, angle, type, flags, special, 5 argument bytes.
pub fn hexen_things_lump(things: &[Thing]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for t in things {
        out.i16(t.tid as i16);
        for v in [t.x, t.y, t.z] {
            out.i16(units(v));
        }
        out.i16(t.angle);
        out.u16(t.kind);
        out.u16(t.flags);
        out.u8(t.special as u8).bytes(&t.args.map(|a| a as u8));
    }
    out.into_bytes()
}

pub fn linedefs_lump(lines: &[Linedef]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for l in lines {
        for v in [index16(l.v1), index16(l.v2), l.flags, l.special, l.tag] {
            out.u16(v);
        }
        for s in l.sides {
            out.u16(s.map_or(0xFFFF, index16));
        }
    }
    out.into_bytes()
}

/// Hexen LINEDEFS: v1, v2, flags, special byte, 5 argument bytes, front, back.
pub fn hexen_linedefs_lump(lines: &[Linedef]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for l in lines {
        for v in [index16(l.v1), index16(l.v2), l.flags] {
            out.u16(v);
        }
        out.u8(l.special as u8).bytes(&l.args.map(|a| a as u8));
        for s in l.sides {
            out.u16(s.map_or(0xFFFF, index16));
        }
    }
    out.into_bytes()
}

pub fn sidedefs_lump(sides: &[Sidedef]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for s in sides {
        out.i16(s.x_offset);
        out.i16(s.y_offset);
        for t in [&s.upper, &s.lower, &s.middle] {
            out.bytes(&name8(t));
        }
        out.u16(index16(s.sector));
    }
    out.into_bytes()
}

pub fn vertexes_lump(vertices: &[Vertex]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for v in vertices {
        out.i16(units(v.x));
        out.i16(units(v.y));
    }
    out.into_bytes()
}

/// Vanilla SEGS; minisegs (which vanilla cannot hold) are written on linedef 0.
pub fn segs_lump(segs: &[BspSeg]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for s in segs {
        out.u16(index16(s.v1));
        out.u16(index16(s.v2));
        out.u16((s.angle >> 16) as u16);
        out.u16(index16(s.linedef.unwrap_or(0)));
        out.u16(s.side as u16);
        out.i16(units(s.offset));
    }
    out.into_bytes()
}

pub fn ssectors_lump(subsectors: &[BspSubsector]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for s in subsectors {
        out.u16(index16(s.num_segs));
        out.u16(index16(s.first_seg));
    }
    out.into_bytes()
}

pub fn nodes_lump(nodes: &[BspNode]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for n in nodes {
        for v in [n.x, n.y, n.dx, n.dy] {
            out.i16(units(v));
        }
        for b in n.bbox {
            for v in b {
                out.i16(units(v));
            }
        }
        for c in n.children {
            out.u16(match c {
                BspChild::Node(i) => index16(i),
                BspChild::Subsector(i) => NF_SUBSECTOR | index16(i),
            });
        }
    }
    out.into_bytes()
}

pub fn sectors_lump(sectors: &[Sector]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    for s in sectors {
        out.i16(s.floor);
        out.i16(s.ceiling);
        out.bytes(&name8(&s.floor_flat)).bytes(&name8(&s.ceiling_flat));
        out.i16(s.light);
        out.u16(s.special);
        out.u16(s.tag);
    }
    out.into_bytes()
}

/// A UDMF TEXTMAP of the map's records (namespace from its format, "doom" otherwise):
/// the inverse of `udmf_map::udmf_records` for the fields it maps.
pub fn textmap_lump(map: &MapData) -> Vec<u8> {
    use std::fmt::Write;
    let namespace = match &map.format {
        crate::formats::doom::map::MapFormat::Udmf { namespace } => namespace.as_str(),
        _ => "doom",
    };
    let units = |v: Fixed| v as f64 / 65536.0;
    let mut t = format!("namespace = \"{namespace}\";\n");
    for v in &map.vertices {
        let _ = writeln!(t, "vertex {{ x = {:?}; y = {:?}; }}", units(v.x), units(v.y));
    }
    let line_keys = [
        (0x0001, "blocking"),
        (0x0002, "blockmonsters"),
        (0x0004, "twosided"),
        (0x0008, "dontpegtop"),
        (0x0010, "dontpegbottom"),
        (0x0020, "secret"),
        (0x0040, "blocksound"),
        (0x0080, "dontdraw"),
        (0x0100, "mapped"),
    ];
    for l in &map.linedefs {
        let _ = write!(
            t,
            "linedef {{ v1 = {}; v2 = {}; special = {}; id = {};",
            l.v1, l.v2, l.special, l.tag
        );
        let side = |s: Option<u32>| s.map_or(-1, |s| s as i64);
        let _ = write!(t, " sidefront = {}; sideback = {};", side(l.sides[0]), side(l.sides[1]));
        for (i, a) in l.args.iter().enumerate() {
            let _ = write!(t, " arg{i} = {a};");
        }
        for (bit, key) in line_keys {
            if l.flags & bit != 0 {
                let _ = write!(t, " {key} = true;");
            }
        }
        t.push_str(" }\n");
    }
    for s in &map.sidedefs {
        let _ = writeln!(
            t,
            "sidedef {{ offsetx = {}; offsety = {}; texturetop = {:?}; texturebottom = {:?}; \
             texturemiddle = {:?}; sector = {}; }}",
            s.x_offset, s.y_offset, s.upper, s.lower, s.middle, s.sector
        );
    }
    for s in &map.sectors {
        let _ = writeln!(
            t,
            "sector {{ heightfloor = {}; heightceiling = {}; texturefloor = {:?}; \
             textureceiling = {:?}; lightlevel = {}; special = {}; id = {}; }}",
            s.floor, s.ceiling, s.floor_flat, s.ceiling_flat, s.light, s.special, s.tag
        );
    }
    for th in &map.things {
        let _ = write!(
            t,
            "thing {{ x = {:?}; y = {:?}; height = {:?}; angle = {}; type = {}; id = {}; special = {};",
            units(th.x),
            units(th.y),
            units(th.z),
            th.angle,
            th.kind,
            th.tid,
            th.special
        );
        for (i, a) in th.args.iter().enumerate() {
            let _ = write!(t, " arg{i} = {a};");
        }
        let flag = |bit: u16| th.flags & bit != 0;
        for (on, key) in [
            (flag(0x0001), "skill1"),
            (flag(0x0001), "skill2"),
            (flag(0x0002), "skill3"),
            (flag(0x0004), "skill4"),
            (flag(0x0004), "skill5"),
            (flag(0x0008), "ambush"),
            (!flag(0x0010), "single"),
        ] {
            if on {
                let _ = write!(t, " {key} = true;");
            }
        }
        t.push_str(" }\n");
    }
    t.into_bytes()
}

/// A UDMF map's lumps after its marker: TEXTMAP, then `nodes` lumps, then ENDMAP.
pub fn udmf_map_lumps(map: &MapData) -> Vec<(&'static str, Vec<u8>)> {
    vec![("TEXTMAP", textmap_lump(map)), ("ENDMAP", Vec::new())]
}

/// An all-zero REJECT (every sector may see every other).
pub fn reject_lump(sector_count: usize) -> Vec<u8> {
    vec![0; (sector_count * sector_count).div_ceil(8)]
}

/// A BLOCKMAP (spec [4-11]): 128-unit blocks from 8 units below the minimum vertex, each
/// listing the linedefs whose segment touches the block. Exact segment/box tests; fine for
/// the small maps this writer is for.
pub fn blockmap_lump(vertices: &[Vertex], lines: &[Linedef]) -> Vec<u8> {
    let (mut minx, mut miny, mut maxx, mut maxy) = (0i32, 0i32, 0i32, 0i32);
    for (i, v) in vertices.iter().enumerate() {
        let (x, y) = (v.x >> 16, v.y >> 16);
        if i == 0 {
            (minx, miny, maxx, maxy) = (x, y, x, y);
        }
        (minx, miny, maxx, maxy) = (minx.min(x), miny.min(y), maxx.max(x), maxy.max(y));
    }
    let (ox, oy) = (minx - 8, miny - 8);
    let cols = ((maxx - ox) / 128 + 1) as usize;
    let rows = ((maxy - oy) / 128 + 1) as usize;
    let mut lists: Vec<Vec<u16>> = vec![Vec::new(); cols * rows];
    let vert = |i: u32| vertices.get(i as usize).map(|v| (v.to_dvec2().x, v.to_dvec2().y));
    for (li, l) in lines.iter().enumerate() {
        let (Some(a), Some(b)) = (vert(l.v1), vert(l.v2)) else {
            continue;
        };
        for (bi, list) in lists.iter_mut().enumerate() {
            let x0 = (ox + (bi % cols) as i32 * 128) as f64;
            let y0 = (oy + (bi / cols) as i32 * 128) as f64;
            if segment_touches_box(a, b, (x0, y0), (x0 + 127.0, y0 + 127.0)) {
                list.push(li as u16);
            }
        }
    }
    let mut words: Vec<i16> = vec![ox as i16, oy as i16, cols as i16, rows as i16];
    let mut offset = 4 + lists.len();
    let mut pointers = Vec::with_capacity(lists.len());
    let mut body = Vec::new();
    for list in &lists {
        pointers.push(offset as i16);
        body.push(0i16);
        body.extend(list.iter().map(|&l| l as i16));
        body.push(-1);
        offset += list.len() + 2;
    }
    words.extend(pointers);
    words.extend(body);
    let mut out = ByteWriter::little_endian();
    out.i16s(&words);
    out.into_bytes()
}

/// Liang–Barsky clip of segment a-b against an axis-aligned box (inclusive).
fn segment_touches_box(a: (f64, f64), b: (f64, f64), lo: (f64, f64), hi: (f64, f64)) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - lo.0), (dx, hi.0 - a.0), (-dy, a.1 - lo.1), (dy, hi.1 - a.1)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// The map lumps after the marker, in vanilla order, with an empty REJECT and a built BLOCKMAP;
/// Hexen-format maps get Hexen THINGS and LINEDEFS and an empty script `BEHAVIOR` lump.
pub fn map_lumps(map: &MapData) -> Vec<(&'static str, Vec<u8>)> {
    let hexen = map.format == crate::formats::doom::map::MapFormat::Hexen;
    let mut lumps = vec![
        ("THINGS", if hexen { hexen_things_lump(&map.things) } else { things_lump(&map.things) }),
        (
            "LINEDEFS",
            if hexen { hexen_linedefs_lump(&map.linedefs) } else { linedefs_lump(&map.linedefs) },
        ),
        ("SIDEDEFS", sidedefs_lump(&map.sidedefs)),
        ("VERTEXES", vertexes_lump(&map.vertices)),
        ("SEGS", segs_lump(&map.bsp.segs)),
        ("SSECTORS", ssectors_lump(&map.bsp.subsectors)),
        ("NODES", nodes_lump(&map.bsp.nodes)),
        ("SECTORS", sectors_lump(&map.sectors)),
        ("REJECT", reject_lump(map.sectors.len())),
        ("BLOCKMAP", blockmap_lump(&map.vertices, &map.linedefs)),
    ];
    if hexen {
        // An ACS object with no scripts: header, directory offset 8, zero scripts and strings.
        let mut acs = ByteWriter::little_endian();
        acs.bytes(b"ACS\0").u32(8).zeros(8);
        lumps.push(("BEHAVIOR", acs.into_bytes()));
    }
    lumps
}

/// A picture lump (patch format) from row-major texels, `None` = transparent.
/// Runs of opaque texels become posts; posts are split at 128 rows so every `topdelta` fits.
pub fn patch_lump(width: u16, height: u16, left: i16, top: i16, texels: &[Option<u8>]) -> Vec<u8> {
    let (w, h) = (width as usize, height as usize);
    let mut columns: Vec<Vec<u8>> = Vec::with_capacity(w);
    for x in 0..w {
        let mut col = Vec::new();
        let mut y = 0;
        while y < h.min(255) {
            if texels.get(y * w + x).copied().flatten().is_none() {
                y += 1;
                continue;
            }
            let start = y;
            let mut run = Vec::new();
            while y < h.min(255) && run.len() < 128 {
                match texels.get(y * w + x).copied().flatten() {
                    Some(c) => run.push(c),
                    None => break,
                }
                y += 1;
            }
            col.push(start as u8);
            col.push(run.len() as u8);
            col.push(run[0]);
            col.extend(&run);
            col.push(run[run.len() - 1]);
        }
        col.push(0xFF);
        columns.push(col);
    }
    let mut out = ByteWriter::little_endian();
    out.u16(width).u16(height).i16(left).i16(top);
    let mut pos = 8 + 4 * w;
    for c in &columns {
        out.u32(pos as u32);
        pos += c.len();
    }
    for c in columns {
        out.bytes(&c);
    }
    out.into_bytes()
}

pub fn pnames_lump(names: &[&str]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    out.i32(names.len() as i32);
    for n in names {
        out.bytes(&name8(n));
    }
    out.into_bytes()
}

/// One TEXTURE1/2 entry to write.
#[derive(Clone, Debug)]
pub struct TextureSpec<'a> {
    pub name: &'a str,
    pub width: i16,
    pub height: i16,
    /// (x, y, PNAMES index) per patch.
    pub patches: &'a [(i16, i16, i16)],
}

pub fn texture_lump(textures: &[TextureSpec<'_>]) -> Vec<u8> {
    let mut out = ByteWriter::little_endian();
    out.i32(textures.len() as i32);
    let mut pos = 4 + 4 * textures.len();
    for t in textures {
        out.i32(pos as i32);
        pos += 22 + 10 * t.patches.len();
    }
    for t in textures {
        out.bytes(&name8(t.name));
        out.i32(0); // masked
        out.i16(t.width).i16(t.height);
        out.i32(0); // column directory (unused)
        out.i16(t.patches.len() as i16);
        for &(x, y, p) in t.patches {
            out.i16s(&[x, y, p, 1, 0]);
        }
    }
    out.into_bytes()
}

/// PLAYPAL with `count` copies of `palette`.
pub fn playpal_lump(palette: &[[u8; 3]; 256], count: usize) -> Vec<u8> {
    let one: Vec<u8> = palette.iter().flatten().copied().collect();
    one.repeat(count)
}

/// A PNG of `w` x `h` RGBA pixels (`rgba`, row by row) with a `grAb` chunk after IHDR when
/// offsets are given, as GZDoom-era tools save patches and sprites. Fails when `rgba` does not
/// hold `w` x `h` pixels.
pub fn png_lump(
    w: u32,
    h: u32,
    rgba: &[u8],
    grab: Option<(i32, i32)>,
) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        if let Some((x, y)) = grab {
            let mut body = ByteWriter::big_endian();
            body.i32(x).i32(y);
            writer.write_chunk(png::chunk::ChunkType(*b"grAb"), body.as_bytes())?;
        }
        writer.write_image_data(rgba)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blockmap_lists_lines_in_their_blocks() {
        let v = [Vertex::units(0, 0), Vertex::units(300, 0)];
        let l = [Linedef { v1: 0, v2: 1, sides: [Some(0), None], ..Default::default() }];
        let b = blockmap_lump(&v, &l);
        let w: Vec<i16> = b.chunks(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(&w[..4], &[-8, -8, 3, 1]);
        // Every block of the single row holds line 0.
        for i in 0..3 {
            let p = w[4 + i] as usize;
            assert_eq!(&w[p..p + 3], &[0, 0, -1]);
        }
    }
}
