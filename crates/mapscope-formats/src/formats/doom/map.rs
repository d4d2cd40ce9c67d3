//! A map's lumps (THINGS .. SECTORS) parsed into records, with every cross-reference checked.
//!
//! Vanilla `p_setup.c` trusts the data and reads past arrays on bad indices; here a reference
//! that would make vanilla read garbage is an error naming the lump and the record's byte
//! offset, while what vanilla tolerates (a trailing partial record, a missing optional lump)
//! becomes a note.
//!
//! In `map/`: the UDMF text grammar (`udmf`), a UDMF map read into these records
//! (`udmf_map`) and the UDMF properties drawn (`udmf_props`), MAPINFO's skies (`map_info`),
//! the thing types and spawn rules (`things`), and the map as vanilla's walk reads it
//! (`vanilla_map`): what a map says, whichever of its formats it came in.

pub mod map_info;
pub mod things;
pub mod udmf;
pub mod udmf_map;
pub mod udmf_props;
pub mod vanilla_map;

use crate::formats::{FormatError, Reader, Result};

use super::archive::wad::{MapLumps, WadStack};
use super::nodes::glbsp_nodes::{find_glbsp_lumps, read_glbsp_nodes};
use super::nodes::node_builder::{build_nodes, BuildLine};
use super::nodes::zdoom_nodes::{read_zdoom_nodes, zdoom_format};
use super::nodes::{
    read_node, BspChild, BspSeg, BspSubsector, Fixed, NodeContext, NodeFormat, NodeLinedef,
    NodeSet, NodeVertex, FRACUNIT,
};
pub use udmf_map::UdmfExtra;

/// Linedef flag bits (spec [4-3-1]).
pub mod line_flags {
    pub const IMPASSABLE: u16 = 0x0001;
    pub const BLOCK_MONSTERS: u16 = 0x0002;
    pub const TWO_SIDED: u16 = 0x0004;
    pub const UPPER_UNPEGGED: u16 = 0x0008;
    pub const LOWER_UNPEGGED: u16 = 0x0010;
    pub const SECRET: u16 = 0x0020;
    pub const BLOCK_SOUND: u16 = 0x0040;
    pub const NOT_ON_MAP: u16 = 0x0080;
    pub const ALREADY_ON_MAP: u16 = 0x0100;
    /// Eternity's reserved bit: in a Doom-format map it says the bits above 0x1FF are junk
    /// from an old editor (GZDoom and Boom ports then clear them).
    pub const RESERVED: u16 = 0x0800;
    /// MBF21: blocks players (Doom-format maps).
    pub const MBF21_BLOCK_PLAYERS: u16 = 0x2000;
    /// ZDoom's Hexen-format bits, which UDMF's `blockplayers` and `blockeverything` set too.
    pub const ZDOOM_BLOCK_PLAYERS: u16 = 0x4000;
    pub const ZDOOM_BLOCK_EVERYTHING: u16 = 0x8000;
}

/// Set in a vanilla NODES child to mark a subsector rather than a node.
pub const NF_SUBSECTOR: u16 = 0x8000;

/// The record layout a map was saved in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum MapFormat {
    /// Vanilla Doom lumps (THINGS 10 bytes, LINEDEFS 14 bytes).
    #[default]
    Doom,
    /// Hexen lumps (THINGS 20 bytes, LINEDEFS 16 bytes, with action specials' arguments),
    /// recognised by the `BEHAVIOR` lump after them.
    Hexen,
    /// A `TEXTMAP` lump; `namespace` as the map declares it, lower-cased.
    Udmf { namespace: String },
}

impl std::fmt::Display for MapFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MapFormat::Doom => write!(f, "Doom"),
            MapFormat::Hexen => write!(f, "Hexen"),
            MapFormat::Udmf { namespace } => write!(f, "UDMF (namespace {namespace})"),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thing {
    pub x: Fixed,
    pub y: Fixed,
    /// Height above the floor (Hexen and UDMF; 0 in Doom maps).
    pub z: Fixed,
    /// Degrees, 0 = east, counter-clockwise.
    pub angle: i16,
    pub kind: u16,
    /// Doom's flag bits (skills, ambush, multiplayer-only); Hexen and UDMF flags translated.
    pub flags: u16,
    /// Thing ID, action special and its arguments (Hexen and UDMF; 0 in Doom maps).
    pub tid: i32,
    pub special: i32,
    pub args: [i32; 5],
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Linedef {
    pub v1: u32,
    pub v2: u32,
    pub flags: u16,
    /// Doom: the line type; Hexen and UDMF: the action special (its meaning differs).
    pub special: u16,
    /// Doom: the sector tag; UDMF: the line id where it fits 16 bits; Hexen: 0.
    pub tag: u16,
    /// Hexen and UDMF action special arguments (0 in Doom maps).
    pub args: [i32; 5],
    /// Right (front) and left (back) sidedefs; `None` where the file has -1.
    pub sides: [Option<u32>; 2],
}

impl Linedef {
    pub fn has_flag(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sidedef {
    pub x_offset: i16,
    pub y_offset: i16,
    /// Upper-cased texture names; "-" means none.
    pub upper: String,
    pub lower: String,
    pub middle: String,
    pub sector: u32,
}

/// A map vertex in 16.16 fixed point (vanilla's are whole map units).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vertex {
    pub x: Fixed,
    pub y: Fixed,
}

impl Vertex {
    /// A vertex at whole map units.
    pub fn units(x: i32, y: i32) -> Vertex {
        Vertex { x: x.wrapping_shl(16), y: y.wrapping_shl(16) }
    }

    /// Map units as floating point.
    pub fn to_dvec2(self) -> glam::DVec2 {
        glam::DVec2::new(self.x as f64 / FRACUNIT as f64, self.y as f64 / FRACUNIT as f64)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sector {
    pub floor: i16,
    pub ceiling: i16,
    /// Upper-cased flat names.
    pub floor_flat: String,
    pub ceiling_flat: String,
    pub light: i16,
    pub special: u16,
    pub tag: u16,
}

impl Default for NodeSet {
    fn default() -> Self {
        NodeSet {
            format: NodeFormat::Vanilla,
            extra_vertices: Vec::new(),
            segs: Vec::new(),
            subsectors: Vec::new(),
            nodes: Vec::new(),
        }
    }
}

/// Every record of one map, cross-references checked.
///
/// The geometry and scene code index these vectors directly, relying on the checks
/// [`MapData::load`] makes; a `MapData` assembled by hand (tests, generators) must keep every
/// index in range the same way.
#[derive(Clone, Debug, Default)]
pub struct MapData {
    pub name: String,
    /// The WAD file the map came from.
    pub file: String,
    pub format: MapFormat,
    pub things: Vec<Thing>,
    pub linedefs: Vec<Linedef>,
    pub sidedefs: Vec<Sidedef>,
    pub vertices: Vec<Vertex>,
    /// The BSP tree; its segs may use vertices past `vertices` (see [`MapData::vertex`]).
    pub bsp: NodeSet,
    pub sectors: Vec<Sector>,
    /// UDMF keys beyond the ones mapped onto the records above, per record.
    pub udmf: Option<Box<UdmfExtra>>,
    pub notes: Vec<String>,
}

impl MapData {
    /// Parses map `name` from the stack.
    pub fn load(stack: &WadStack, name: &str) -> Result<MapData> {
        let lumps = stack.map(name)?;
        parse_map(stack, &lumps)
    }

    /// Whether line and sector specials are numbered as in Doom (Doom-format maps, UDMF
    /// namespaces doom, heretic and strife); Hexen-style numbering is not drawn.
    pub fn doom_specials(&self) -> bool {
        match &self.format {
            MapFormat::Doom => true,
            MapFormat::Hexen => false,
            MapFormat::Udmf { namespace } => {
                matches!(namespace.as_str(), "doom" | "heretic" | "strife")
            }
        }
    }

    /// Vertex `i` of the map, or of the node builder's extra vertices after them.
    pub fn vertex(&self, i: u32) -> Option<Vertex> {
        let i = i as usize;
        match self.vertices.get(i) {
            Some(&v) => Some(v),
            None => {
                let e = self.bsp.extra_vertices.get(i - self.vertices.len())?;
                Some(Vertex { x: e.x, y: e.y })
            }
        }
    }

    /// Number of vertices segs may refer to (the map's and the node builder's).
    pub fn vertex_count(&self) -> usize {
        self.vertices.len() + self.bsp.extra_vertices.len()
    }

    /// The sidedef of `seg`; `None` for minisegs (checked to exist otherwise at load).
    pub fn seg_sidedef(&self, seg: &BspSeg) -> Option<&Sidedef> {
        let ld = self.linedefs.get(seg.linedef? as usize)?;
        let sd = ld.sides.get(seg.side as usize).copied().flatten()?;
        self.sidedefs.get(sd as usize)
    }

    /// The segs of subsector `ss` (empty when out of range).
    pub fn subsector_segs(&self, ss: usize) -> &[BspSeg] {
        let Some(s) = self.bsp.subsectors.get(ss) else { return &[] };
        let first = (s.first_seg as usize).min(self.bsp.segs.len());
        let end = first.saturating_add(s.num_segs as usize).min(self.bsp.segs.len());
        &self.bsp.segs[first..end]
    }

    /// The sector a subsector belongs to: that of its first seg's sidedef (`P_GroupLines`),
    /// skipping minisegs, which have none.
    pub fn subsector_sector(&self, ss: usize) -> Option<usize> {
        let seg = self.subsector_segs(ss).iter().find(|s| s.linedef.is_some())?;
        self.seg_sidedef(seg).map(|sd| sd.sector as usize)
    }

    /// The sector on side `side` (0 front, 1 back) of a linedef.
    /// The lines as the node builder takes them: ends and the sectors on each side.
    pub fn build_lines(&self) -> Vec<BuildLine> {
        self.linedefs
            .iter()
            .map(|l| BuildLine {
                v1: l.v1,
                v2: l.v2,
                front_sector: self.line_sector(l, 0).map(|s| s as u32),
                back_sector: self.line_sector(l, 1).map(|s| s as u32),
            })
            .collect()
    }

    pub fn line_sector(&self, ld: &Linedef, side: usize) -> Option<usize> {
        let sd = ld.sides[side & 1]?;
        self.sidedefs.get(sd as usize).map(|s| s.sector as usize)
    }

    /// Vertex bounds in map units (min x, min y, max x, max y), rounded outwards; zeros for
    /// an empty map.
    pub fn bounds(&self) -> [i32; 4] {
        let mut it = self.vertices.iter();
        let Some(first) = it.next() else {
            return [0; 4];
        };
        let b = it.fold([first.x, first.y, first.x, first.y], |b, v| {
            [b[0].min(v.x), b[1].min(v.y), b[2].max(v.x), b[3].max(v.y)]
        });
        let up = |v: Fixed| ((v as i64 + FRACUNIT as i64 - 1) >> 16) as i32;
        [b[0] >> 16, b[1] >> 16, up(b[2]), up(b[3])]
    }
}

/// Parses and cross-checks the lumps of one map.
pub fn parse_map(stack: &WadStack, lumps: &MapLumps) -> Result<MapData> {
    if lumps.get("TEXTMAP").is_some() {
        return udmf_map::parse_udmf_map(stack, lumps);
    }
    let format = if lumps.get("BEHAVIOR").is_some() { MapFormat::Hexen } else { MapFormat::Doom };
    let mut map = MapData {
        name: lumps.name.clone(),
        file: lumps.file.clone(),
        format: format.clone(),
        ..Default::default()
    };
    let get = |lump: &str| required_lump(stack, lumps, lump);
    for optional in ["REJECT", "BLOCKMAP"] {
        if lumps.get(optional).is_none() {
            map.notes.push(format!("{}: no {optional} lump (not needed to draw)", lumps.name));
        }
    }

    let l = get("VERTEXES")?;
    map.vertices = records(&l, "VERTEXES", 4, &mut map.notes, |r| {
        Ok(Vertex::units(r.i16_le()? as i32, r.i16_le()? as i32))
    })?;

    let l = get("SECTORS")?;
    map.sectors = records(&l, "SECTORS", 26, &mut map.notes, |r| {
        Ok(Sector {
            floor: r.i16_le()?,
            ceiling: r.i16_le()?,
            floor_flat: r.name(8)?.to_ascii_uppercase(),
            ceiling_flat: r.name(8)?.to_ascii_uppercase(),
            light: r.i16_le()?,
            special: r.u16_le()?,
            tag: r.u16_le()?,
        })
    })?;

    let l = get("SIDEDEFS")?;
    let nsectors = map.sectors.len();
    map.sidedefs = records(&l, "SIDEDEFS", 30, &mut map.notes, |r| {
        let at = r.pos();
        let sd = Sidedef {
            x_offset: r.i16_le()?,
            y_offset: r.i16_le()?,
            upper: r.name(8)?.to_ascii_uppercase(),
            lower: r.name(8)?.to_ascii_uppercase(),
            middle: r.name(8)?.to_ascii_uppercase(),
            sector: r.u16_le()? as u32,
        };
        check_index(r, at, sd.sector, nsectors, "sector")?;
        Ok(sd)
    })?;

    let l = get("LINEDEFS")?;
    let (nverts, nsides) = (map.vertices.len(), map.sidedefs.len());
    let hexen = format == MapFormat::Hexen;
    let line_size = if hexen { 16 } else { 14 };
    map.linedefs = records(&l, "LINEDEFS", line_size, &mut map.notes, |r| {
        let at = r.pos();
        let v1 = r.u16_le()? as u32;
        let v2 = r.u16_le()? as u32;
        let flags = r.u16_le()?;
        let (special, tag, args) = if hexen {
            let special = r.u8()? as u16;
            let mut args = [0i32; 5];
            for a in &mut args {
                *a = r.u8()? as i32;
            }
            (special, 0, args)
        } else {
            (r.u16_le()?, r.u16_le()?, [0; 5])
        };
        let mut sides = [None; 2];
        for s in &mut sides {
            let raw = r.u16_le()?;
            if raw != 0xFFFF {
                check_index(r, at, raw as u32, nsides, "sidedef")?;
                *s = Some(raw as u32);
            }
        }
        check_index(r, at, v1, nverts, "vertex")?;
        check_index(r, at, v2, nverts, "vertex")?;
        Ok(Linedef { v1, v2, flags, special, tag, args, sides })
    })?;
    note_missing_fronts(&mut map);

    let l = get("THINGS")?;
    let thing_size = if hexen { 20 } else { 10 };
    map.things = records(&l, "THINGS", thing_size, &mut map.notes, |r| {
        if !hexen {
            return Ok(Thing {
                x: (r.i16_le()? as i32) << 16,
                y: (r.i16_le()? as i32) << 16,
                angle: r.i16_le()?,
                kind: r.u16_le()?,
                flags: r.u16_le()?,
                ..Default::default()
            });
        }
        let tid = r.i16_le()? as i32;
        let x = (r.i16_le()? as i32) << 16;
        let y = (r.i16_le()? as i32) << 16;
        let z = (r.i16_le()? as i32) << 16;
        let angle = r.i16_le()?;
        let kind = r.u16_le()?;
        let flags = hexen_thing_flags(r.u16_le()?);
        let special = r.u8()? as i32;
        let mut args = [0i32; 5];
        for a in &mut args {
            *a = r.u8()? as i32;
        }
        Ok(Thing { x, y, z, angle, kind, flags, tid, special, args })
    })?;

    let mut notes = Vec::new();
    map.bsp = read_bsp(stack, lumps, &map, &mut notes)?;
    map.notes.extend(notes);
    Ok(map)
}

/// Hexen thing flags in Doom's meaning: the skill bits and ambush are shared; a thing not
/// flagged for single player (0x100) is Doom's multiplayer-only (0x10). Hexen's dormant,
/// class and game-mode bits have no Doom equivalent.
pub fn hexen_thing_flags(raw: u16) -> u16 {
    let single = raw & 0x0100 != 0;
    (raw & 0x000F) | if single { 0 } else { 0x0010 }
}

pub(super) fn note_missing_fronts(map: &mut MapData) {
    let no_front = map.linedefs.iter().filter(|l| l.sides[0].is_none()).count();
    if no_front > 0 {
        map.notes.push(format!("{no_front} linedefs have no front sidedef"));
    }
}

/// How `info` and `list` name a node format.
pub fn node_format_name(format: NodeFormat) -> String {
    let z = |c: bool| if c { "Z" } else { "X" };
    match format {
        NodeFormat::Vanilla => "vanilla".into(),
        NodeFormat::ZdoomExtended { compressed } => {
            format!("ZDoom extended ({}NOD)", z(compressed))
        }
        NodeFormat::ZdoomGl { version, compressed } => {
            let v = if version <= 1 { "N".to_string() } else { version.to_string() };
            format!("ZDoom GL ({}GL{v})", z(compressed))
        }
        NodeFormat::GlBsp { version } => format!("glBSP v{version}"),
        NodeFormat::Built => "built by mapscope (the map has none)".into(),
    }
}

/// One line for `list`: the map's format and how its nodes are stored.
pub fn map_summary(stack: &WadStack, name: &str) -> Result<String> {
    let lumps = stack.map(name)?;
    let format = map_format(stack, &lumps)?;
    Ok(format!("{format}, nodes: {}", node_lumps_description(stack, &lumps)))
}

/// "UDMF map VGPDM01 (namespace zdoom)", "Hexen map MAP01", "Doom map E1M1".
pub fn describe_map(format: &MapFormat, name: &str) -> String {
    match format {
        MapFormat::Doom => format!("Doom map {name}"),
        MapFormat::Hexen => format!("Hexen map {name}"),
        MapFormat::Udmf { namespace } => format!("UDMF map {name} (namespace {namespace})"),
    }
}

/// A map's format from its lumps, reading no more of TEXTMAP than its globals.
pub fn map_format(stack: &WadStack, lumps: &MapLumps) -> Result<MapFormat> {
    if let Some(l) = lumps.get("TEXTMAP").and_then(|n| stack.lump_at(n)) {
        let namespace = udmf::namespace_of(l.file, l.data, l.offset)?;
        return Ok(MapFormat::Udmf { namespace: namespace.unwrap_or_default() });
    }
    Ok(if lumps.get("BEHAVIOR").is_some() { MapFormat::Hexen } else { MapFormat::Doom })
}

/// The node lumps of a map, by what their first bytes say they are.
fn node_lump_kind(stack: &WadStack, lumps: &MapLumps, name: &str) -> Option<String> {
    let data = stack.lump_at(lumps.get(name)?)?.data;
    let magic = data.get(..4)?;
    let known = [b"XNOD", b"ZNOD", b"XGLN", b"ZGLN", b"XGL2", b"ZGL2", b"XGL3", b"ZGL3"];
    known.iter().any(|k| magic == *k).then(|| String::from_utf8_lossy(magic).into_owned())
}

/// How the node lumps of a map are stored, as `list` and `info` name them before (or
/// without) reading them: "vanilla", "ZDoom XGL3 in ZNODES", "none", ...
pub fn node_lumps_description(stack: &WadStack, lumps: &MapLumps) -> String {
    for name in ["ZNODES", "SSECTORS", "NODES"] {
        if let Some(kind) = node_lump_kind(stack, lumps, name) {
            return format!("ZDoom {kind} in {name}");
        }
    }
    if lumps.get("GL_VERT").is_some() {
        return "glBSP".into();
    }
    let has =
        |n: &str| lumps.get(n).and_then(|l| stack.lump_at(l)).is_some_and(|l| !l.data.is_empty());
    if has("SEGS") && has("SSECTORS") {
        "vanilla".into()
    } else {
        "none".into()
    }
}

/// Reads the map's BSP from whichever node lumps it has, or builds one for a map saved
/// without nodes.
///
/// Order: ZDoom GL nodes (`ZNODES`, or `SSECTORS` with a GL magic: closed subsectors, what a
/// ZDoom map is made for), ZDoom extended nodes in `NODES`, vanilla nodes, glBSP's `GL_*`
/// lumps, and last the node builder. Vanilla nodes go before glBSP's because faithful mode
/// walks the tree the vanilla engine walks; glBSP lumps exist for GL ports.
pub fn read_bsp(
    stack: &WadStack,
    lumps: &MapLumps,
    map: &MapData,
    notes: &mut Vec<String>,
) -> Result<NodeSet> {
    let vertices: Vec<NodeVertex> =
        map.vertices.iter().map(|v| NodeVertex { x: v.x, y: v.y }).collect();
    let linedefs: Vec<NodeLinedef> = map
        .linedefs
        .iter()
        .map(|l| NodeLinedef {
            v1: l.v1,
            v2: l.v2,
            has_side: [l.sides[0].is_some(), l.sides[1].is_some()],
        })
        .collect();
    let ctx = NodeContext { map: &lumps.name, vertices: &vertices, linedefs: &linedefs };
    let lump = |name: &str| lumps.get(name).and_then(|l| stack.lump_at(l));
    let zdoom = |name: &str| lump(name).filter(|l| zdoom_format(l.data).is_some());
    for name in ["ZNODES", "SSECTORS"] {
        if let Some(l) = zdoom(name).filter(|l| zdoom_format(l.data).is_some_and(|f| f.is_gl())) {
            return read_zdoom_nodes(&ctx, &l);
        }
    }
    if let Some(l) = zdoom("NODES").or_else(|| zdoom("ZNODES")) {
        return read_zdoom_nodes(&ctx, &l);
    }
    if lumps.get("ZNODES").is_some() {
        return Err(FormatError::new(
            &lumps.file,
            &format!("map {}", lumps.name),
            lumps.marker_dir_offset,
            format!(
                "{}: its ZNODES lump is not a known ZDoom node format",
                describe_map(&map.format, &lumps.name)
            ),
        ));
    }
    let has = |n: &str| lump(n).is_some_and(|l| !l.data.is_empty());
    if has("SEGS") && has("SSECTORS") {
        return read_vanilla_bsp(stack, lumps, map, notes);
    }
    let gl = stack.wads().iter().rev().find_map(|w| find_glbsp_lumps(w, &lumps.name));
    if let Some(gl) = gl {
        return read_glbsp_nodes(&ctx, &gl);
    }
    let built = build_nodes(&lumps.file, &lumps.name, &vertices, &map.build_lines())?;
    notes.push(format!(
        "{}: saved without nodes; mapscope built them ({} subsectors, {} nodes)",
        lumps.name,
        built.subsectors.len(),
        built.nodes.len()
    ));
    Ok(built)
}

/// A lump of the map that must be there.
fn required_lump<'a>(
    stack: &'a WadStack,
    lumps: &MapLumps,
    lump: &str,
) -> Result<super::archive::wad::Lump<'a>> {
    lumps.get(lump).and_then(|n| stack.lump_at(n)).ok_or_else(|| {
        FormatError::new(
            &lumps.file,
            &format!("map {}", lumps.name),
            lumps.marker_dir_offset,
            format!("map {} has no {lump} lump after its marker", lumps.name),
        )
    })
}

/// Vanilla `SEGS`, `SSECTORS` and `NODES`, widened to 16.16 and 32-bit indices.
fn read_vanilla_bsp(
    stack: &WadStack,
    lumps: &MapLumps,
    map: &MapData,
    notes: &mut Vec<String>,
) -> Result<NodeSet> {
    let get = |lump: &str| required_lump(stack, lumps, lump);
    let nverts = map.vertices.len();
    let linedefs = &map.linedefs;
    let l = get("SEGS")?;
    let segs = records(&l, "SEGS", 12, notes, |r| {
        let at = r.pos();
        let v1 = r.u16_le()? as u32;
        let v2 = r.u16_le()? as u32;
        let angle = r.i16_le()?;
        let linedef = r.u16_le()? as u32;
        let side = r.u16_le()?;
        let offset = r.i16_le()?;
        check_index(r, at, v1, nverts, "vertex")?;
        check_index(r, at, v2, nverts, "vertex")?;
        check_index(r, at, linedef, linedefs.len(), "linedef")?;
        if side > 1 {
            return Err(r.error_at(at, format!("seg side {side} is neither 0 nor 1")));
        }
        if linedefs[linedef as usize].sides[side as usize].is_none() {
            return Err(r.error_at(
                at,
                format!("seg lies on side {side} of linedef {linedef}, which has no sidedef there"),
            ));
        }
        Ok(BspSeg {
            v1,
            v2,
            linedef: Some(linedef),
            side: side as u8,
            angle: (angle as u16 as u32) << 16,
            offset: (offset as i32) << 16,
            partner: None,
        })
    })?;

    let l = get("SSECTORS")?;
    let nsegs = segs.len();
    let subsectors = records(&l, "SSECTORS", 4, notes, |r| {
        let at = r.pos();
        let num_segs = r.u16_le()? as u32;
        let first_seg = r.u16_le()? as u32;
        let end = first_seg as usize + num_segs as usize;
        if end > nsegs || (first_seg as usize) >= nsegs {
            return Err(r.error_at(
                at,
                format!("segs {first_seg}..{end} are past the {nsegs} segs of the map"),
            ));
        }
        Ok(BspSubsector { first_seg, num_segs })
    })?;
    if subsectors.is_empty() {
        return Err(FormatError::new(l.file, "SSECTORS", l.offset, "map has no subsectors"));
    }
    let empty = subsectors.iter().filter(|s| s.num_segs == 0).count();
    if empty > 0 {
        notes.push(format!("{empty} subsectors have no segs"));
    }

    let l = get("NODES")?;
    let nss = subsectors.len();
    let nnodes = l.data.len() / 28;
    let nodes = records(&l, "NODES", 28, notes, |r| {
        let at = r.pos();
        let node = read_node(r, false, false)?;
        for c in node.children {
            match c {
                BspChild::Subsector(s) => check_index(r, at, s, nss, "subsector")?,
                BspChild::Node(n) => check_index(r, at, n, nnodes, "node")?,
            }
        }
        Ok(node)
    })?;
    Ok(NodeSet { format: NodeFormat::Vanilla, extra_vertices: Vec::new(), segs, subsectors, nodes })
}

/// Reads fixed-size records filling a lump; a trailing partial record is ignored (as vanilla,
/// which divides the lump length by the record size) with a note.
fn records<T>(
    lump: &super::archive::wad::Lump<'_>,
    structure: &str,
    size: usize,
    notes: &mut Vec<String>,
    mut read: impl FnMut(&mut Reader<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut r = Reader::with_base(lump.file, structure, lump.data, lump.offset);
    let count = lump.data.len() / size;
    if !lump.data.len().is_multiple_of(size) {
        notes.push(format!(
            "{structure}: {} trailing bytes after {count} records ignored",
            lump.data.len() % size
        ));
    }
    r.check_count(count, size, structure)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(read(&mut r)?);
    }
    Ok(out)
}

fn check_index(r: &Reader<'_>, record_at: usize, index: u32, len: usize, what: &str) -> Result<()> {
    if (index as usize) < len {
        Ok(())
    } else {
        Err(r.error_at(record_at, format!("{what} {index} does not exist (map has {len})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::{Wad, WadStack};
    use crate::formats::doom::archive::writer;
    use crate::formats::doom::testwad;

    #[test]
    fn two_room_map_parses() {
        let stack = testwad::two_room_stack();
        let map = MapData::load(&stack, "MAP01").unwrap();
        assert_eq!(map.vertices.len(), 6);
        assert_eq!(map.linedefs.len(), 7);
        assert_eq!(map.bsp.segs.len(), 8);
        assert_eq!(map.bsp.subsectors.len(), 2);
        assert_eq!(map.bsp.nodes.len(), 1);
        assert_eq!(map.bsp.format, NodeFormat::Vanilla);
        assert_eq!(map.bsp.nodes[0].children[0], BspChild::Subsector(1));
        assert_eq!(map.bsp.nodes[0].x, 128 << 16);
        assert_eq!(map.bsp.segs[2].angle, 0xC000_0000);
        assert_eq!(map.vertices[1], Vertex { x: 128 << 16, y: 0 });
        assert_eq!(map.format, MapFormat::Doom);
        assert_eq!(map.linedefs[3].sides, [Some(3), Some(4)]);
        assert_eq!(map.subsector_sector(1), Some(1));
        assert_eq!(map.bounds(), [0, 0, 256, 128]);
    }

    #[test]
    fn missing_lump_is_an_error() {
        let mut level = testwad::two_room_level();
        level.omit.push("SIDEDEFS");
        let stack = testwad::stack_with(&level);
        let e = MapData::load(&stack, "MAP01").unwrap_err();
        assert_eq!(e.structure, "map MAP01");
        assert!(e.message.contains("no SIDEDEFS lump"), "{e}");
        assert_eq!(e.file, "test.wad");
    }

    #[test]
    fn map_without_nodes_gets_built_ones() {
        let mut level = testwad::two_room_level();
        level.omit.extend(["SEGS", "SSECTORS", "NODES"]);
        let stack = testwad::stack_with(&level);
        let map = MapData::load(&stack, "MAP01").unwrap();
        assert_eq!(map.bsp.format, NodeFormat::Built);
        // The two rooms, split along the line between them.
        assert_eq!((map.bsp.subsectors.len(), map.bsp.nodes.len()), (2, 1));
        assert_eq!(map.subsector_sector(0).into_iter().chain(map.subsector_sector(1)).count(), 2);
        assert!(map.notes.iter().any(|n| n.contains("saved without nodes")), "{:?}", map.notes);
    }

    #[test]
    fn bad_references_are_errors_with_record_offsets() {
        let mut level = testwad::two_room_level();
        level.map.linedefs[2].v2 = 99;
        let stack = testwad::stack_with(&level);
        let e = MapData::load(&stack, "MAP01").unwrap_err();
        assert_eq!(e.structure, "LINEDEFS");
        let lump = stack.lump_at(stack.map("MAP01").unwrap().get("LINEDEFS").unwrap()).unwrap();
        assert_eq!(e.offset, lump.offset + 2 * 14);
        assert!(e.message.contains("vertex 99"), "{e}");

        let mut level = testwad::two_room_level();
        level.map.bsp.segs[5].linedef = Some(70);
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "SEGS");
        assert!(e.message.contains("linedef 70"), "{e}");

        let mut level = testwad::two_room_level();
        level.map.bsp.nodes[0].children[1] = BspChild::Subsector(9);
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "NODES");

        let mut level = testwad::two_room_level();
        level.map.bsp.subsectors[1].num_segs = 200;
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "SSECTORS");
    }

    #[test]
    fn hexen_records_round_trip() {
        let mut level = testwad::two_room_level();
        level.map.format = MapFormat::Hexen;
        level.map.things[1].tid = 77;
        level.map.things[1].z = 24 << 16;
        level.map.things[1].special = 80;
        level.map.things[1].args = [1, 2, 3, 4, 255];
        level.map.linedefs[3].special = 12;
        level.map.linedefs[3].args = [5, 0, 9, 0, 1];
        level.map.linedefs[3].tag = 0;
        let lumps = writer::map_lumps(&level.map);
        assert!(lumps.iter().any(|(n, _)| *n == "BEHAVIOR"));
        assert_eq!(lumps[0].1.len(), 20 * level.map.things.len());
        assert_eq!(lumps[1].1.len(), 16 * level.map.linedefs.len());
        let map = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap();
        assert_eq!(map.format, MapFormat::Hexen);
        assert!(!map.doom_specials());
        assert_eq!(map.linedefs, level.map.linedefs);
        let t = map.things[1];
        assert_eq!((t.tid, t.z, t.special, t.args), (77, 24 << 16, 80, [1, 2, 3, 4, 255]));
        assert_eq!((t.x, t.y, t.kind), (level.map.things[1].x, level.map.things[1].y, 3001));
        // Hexen flags 7 (all skills, no single-player bit) read as Doom's multiplayer-only.
        assert_eq!(t.flags, 7 | 0x10);
        assert_eq!(hexen_thing_flags(0x0107), 7);
        assert_eq!(map.bsp, level.map.bsp);
    }

    #[test]
    fn udmf_map_in_a_wad_is_listed_and_read() {
        let level = testwad::two_room_level();
        let mut udmf = level.map.clone();
        udmf.format = MapFormat::Udmf { namespace: "zdoom".into() };
        let mut p = writer::WadWriter::pwad();
        p.marker("MAP07");
        for (name, data) in writer::udmf_map_lumps(&udmf) {
            p.lump(name, data);
        }
        p.marker("MAP08").lump("TEXTMAP", b"namespace = \"doom\";".to_vec());
        let wad = Wad::from_bytes("u.wad", p.to_bytes()).unwrap();
        let stack = WadStack::new(vec![wad]);
        assert_eq!(stack.map_names(), ["MAP07", "MAP08"]);
        let lumps = stack.map("MAP07").unwrap();
        assert_eq!(lumps.lumps.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["TEXTMAP"]);
        assert_eq!(map_format(&stack, &lumps).unwrap(), udmf.format);
        assert_eq!(map_summary(&stack, "MAP07").unwrap(), "UDMF (namespace zdoom), nodes: none");
        // The records survive the text round trip; the map has no nodes, which is an error
        // naming the map, its format and the file.
        let doc = crate::formats::doom::map::udmf_map::textmap(&stack, &lumps).unwrap();
        let m = crate::formats::doom::map::udmf_map::udmf_records("u.wad", "MAP07", &doc).unwrap();
        assert_eq!(m.vertices, udmf.vertices);
        assert_eq!(m.sidedefs, udmf.sidedefs);
        assert_eq!(m.sectors, udmf.sectors);
        assert_eq!(m.things, udmf.things);
        for (a, b) in m.linedefs.iter().zip(&udmf.linedefs) {
            assert_eq!(
                (a.v1, a.v2, a.flags, a.sides, a.special),
                (b.v1, b.v2, b.flags, b.sides, b.special)
            );
        }
        // Written without ZNODES: the nodes are built.
        let map = MapData::load(&stack, "MAP07").unwrap();
        assert_eq!(map.bsp.format, NodeFormat::Built);
        assert_eq!(map.format, MapFormat::Udmf { namespace: "zdoom".into() });
    }

    #[test]
    fn trailing_partial_record_is_a_note() {
        let level = testwad::two_room_level();
        let iwad = Wad::from_bytes("test.wad", testwad::writer_for(&level).to_bytes()).unwrap();
        // A PWAD redefining MAP01 whose THINGS has 3 stray bytes.
        let mut p = writer::WadWriter::pwad();
        p.marker("MAP01");
        for (name, mut data) in writer::map_lumps(&level.map) {
            if name == "THINGS" {
                data.extend([1, 2, 3]);
            }
            p.lump(name, data);
        }
        let pwad = Wad::from_bytes("p.wad", p.to_bytes()).unwrap();
        let stack = WadStack::new(vec![iwad, pwad]);
        let map = MapData::load(&stack, "MAP01").unwrap();
        assert_eq!(map.file, "p.wad");
        assert_eq!(map.things.len(), level.map.things.len());
        assert!(map.notes.iter().any(|n| n.contains("3 trailing bytes")), "{:?}", map.notes);
    }
}
