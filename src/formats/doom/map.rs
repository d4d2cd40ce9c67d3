//! A map's lumps (THINGS .. SECTORS) parsed into records, with every cross-reference checked.
//!
//! Vanilla `p_setup.c` trusts the data and reads past arrays on bad indices; here a reference
//! that would make vanilla read garbage is an error naming the lump and the record's byte
//! offset, while what vanilla tolerates (a trailing partial record, a missing optional lump)
//! becomes a note.

use crate::formats::{FormatError, Reader, Result};

use super::wad::{MapLumps, WadStack};

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
}

/// Set in a node child to mark a subsector rather than a node.
pub const NF_SUBSECTOR: u16 = 0x8000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thing {
    pub x: i16,
    pub y: i16,
    /// Degrees, 0 = east, counter-clockwise.
    pub angle: i16,
    pub kind: u16,
    pub flags: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linedef {
    pub v1: u16,
    pub v2: u16,
    pub flags: u16,
    pub special: u16,
    pub tag: u16,
    /// Right (front) and left (back) sidedefs; `None` where the file has -1.
    pub sides: [Option<u16>; 2],
}

impl Linedef {
    pub fn has_flag(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sidedef {
    pub x_offset: i16,
    pub y_offset: i16,
    /// Upper-cased texture names; "-" means none.
    pub upper: String,
    pub lower: String,
    pub middle: String,
    pub sector: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vertex {
    pub x: i16,
    pub y: i16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seg {
    pub v1: u16,
    pub v2: u16,
    /// Binary angle (0 = east, 0x4000 = north).
    pub angle: i16,
    pub linedef: u16,
    /// 0: the linedef's front side, 1: its back side.
    pub side: u16,
    /// Distance along the linedef from its start (on this side) to the seg's start.
    pub offset: i16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subsector {
    pub num_segs: u16,
    pub first_seg: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeChild {
    Node(u16),
    Subsector(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub x: i16,
    pub y: i16,
    pub dx: i16,
    pub dy: i16,
    /// Bounding boxes of the right and left children: top, bottom, left, right.
    pub bbox: [[i16; 4]; 2],
    /// Raw children: right (front) then left (back); bit 15 marks a subsector.
    pub children: [u16; 2],
}

impl Node {
    pub fn child(&self, side: usize) -> NodeChild {
        let c = self.children[side & 1];
        if c & NF_SUBSECTOR != 0 {
            NodeChild::Subsector(c & !NF_SUBSECTOR)
        } else {
            NodeChild::Node(c)
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
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
    pub things: Vec<Thing>,
    pub linedefs: Vec<Linedef>,
    pub sidedefs: Vec<Sidedef>,
    pub vertices: Vec<Vertex>,
    pub segs: Vec<Seg>,
    pub subsectors: Vec<Subsector>,
    pub nodes: Vec<Node>,
    pub sectors: Vec<Sector>,
    pub notes: Vec<String>,
}

impl MapData {
    /// Parses map `name` from the stack.
    pub fn load(stack: &WadStack, name: &str) -> Result<MapData> {
        let lumps = stack.map(name)?;
        parse_map(stack, &lumps)
    }

    /// The sidedef of `seg` (checked to exist at load).
    pub fn seg_sidedef(&self, seg: &Seg) -> Option<&Sidedef> {
        let ld = self.linedefs.get(seg.linedef as usize)?;
        let sd = ld.sides.get(seg.side as usize).copied().flatten()?;
        self.sidedefs.get(sd as usize)
    }

    /// The sector a subsector belongs to: that of its first seg's sidedef (`P_GroupLines`).
    pub fn subsector_sector(&self, ss: usize) -> Option<usize> {
        let ss = self.subsectors.get(ss)?;
        let seg = self.segs.get(ss.first_seg as usize)?;
        self.seg_sidedef(seg).map(|sd| sd.sector as usize)
    }

    /// The sector on side `side` (0 front, 1 back) of a linedef.
    pub fn line_sector(&self, ld: &Linedef, side: usize) -> Option<usize> {
        let sd = ld.sides[side & 1]?;
        self.sidedefs.get(sd as usize).map(|s| s.sector as usize)
    }

    /// Vertex bounds (min x, min y, max x, max y); zeros for an empty map.
    pub fn bounds(&self) -> [i16; 4] {
        let mut it = self.vertices.iter();
        let Some(first) = it.next() else {
            return [0; 4];
        };
        it.fold([first.x, first.y, first.x, first.y], |b, v| {
            [b[0].min(v.x), b[1].min(v.y), b[2].max(v.x), b[3].max(v.y)]
        })
    }
}

/// Parses and cross-checks the lumps of one map.
pub fn parse_map(stack: &WadStack, lumps: &MapLumps) -> Result<MapData> {
    let structure = format!("map {}", lumps.name);
    if lumps.get("BEHAVIOR").is_some() {
        return Err(FormatError::new(
            &lumps.file,
            &structure,
            lumps.marker_dir_offset,
            "Hexen-format map (BEHAVIOR lump) is not supported",
        ));
    }
    let mut map =
        MapData { name: lumps.name.clone(), file: lumps.file.clone(), ..Default::default() };
    let get = |lump: &str| -> Result<super::wad::Lump<'_>> {
        lumps.get(lump).and_then(|n| stack.lump_at(n)).ok_or_else(|| {
            FormatError::new(
                &lumps.file,
                &structure,
                lumps.marker_dir_offset,
                format!("map {} has no {lump} lump after its marker", lumps.name),
            )
        })
    };
    for optional in ["REJECT", "BLOCKMAP"] {
        if lumps.get(optional).is_none() {
            map.notes.push(format!("{}: no {optional} lump (not needed to draw)", lumps.name));
        }
    }

    let l = get("VERTEXES")?;
    map.vertices = records(&l, "VERTEXES", 4, &mut map.notes, |r| {
        Ok(Vertex { x: r.i16_le()?, y: r.i16_le()? })
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
            sector: r.u16_le()?,
        };
        check_index(r, at, sd.sector, nsectors, "sector")?;
        Ok(sd)
    })?;

    let l = get("LINEDEFS")?;
    let (nverts, nsides) = (map.vertices.len(), map.sidedefs.len());
    map.linedefs = records(&l, "LINEDEFS", 14, &mut map.notes, |r| {
        let at = r.pos();
        let v1 = r.u16_le()?;
        let v2 = r.u16_le()?;
        let flags = r.u16_le()?;
        let special = r.u16_le()?;
        let tag = r.u16_le()?;
        let mut sides = [None; 2];
        for s in &mut sides {
            let raw = r.u16_le()?;
            if raw != 0xFFFF {
                check_index(r, at, raw, nsides, "sidedef")?;
                *s = Some(raw);
            }
        }
        check_index(r, at, v1, nverts, "vertex")?;
        check_index(r, at, v2, nverts, "vertex")?;
        Ok(Linedef { v1, v2, flags, special, tag, sides })
    })?;
    let no_front = map.linedefs.iter().filter(|l| l.sides[0].is_none()).count();
    if no_front > 0 {
        map.notes.push(format!("{no_front} linedefs have no front sidedef"));
    }

    let l = get("SEGS")?;
    let linedefs = &map.linedefs;
    map.segs = records(&l, "SEGS", 12, &mut map.notes, |r| {
        let at = r.pos();
        let seg = Seg {
            v1: r.u16_le()?,
            v2: r.u16_le()?,
            angle: r.i16_le()?,
            linedef: r.u16_le()?,
            side: r.u16_le()?,
            offset: r.i16_le()?,
        };
        check_index(r, at, seg.v1, nverts, "vertex")?;
        check_index(r, at, seg.v2, nverts, "vertex")?;
        check_index(r, at, seg.linedef, linedefs.len(), "linedef")?;
        if seg.side > 1 {
            return Err(r.error_at(at, format!("seg side {} is neither 0 nor 1", seg.side)));
        }
        if linedefs[seg.linedef as usize].sides[seg.side as usize].is_none() {
            return Err(r.error_at(
                at,
                format!(
                    "seg lies on side {} of linedef {}, which has no sidedef there",
                    seg.side, seg.linedef
                ),
            ));
        }
        Ok(seg)
    })?;

    let l = get("SSECTORS")?;
    let nsegs = map.segs.len();
    map.subsectors = records(&l, "SSECTORS", 4, &mut map.notes, |r| {
        let at = r.pos();
        let ss = Subsector { num_segs: r.u16_le()?, first_seg: r.u16_le()? };
        let end = ss.first_seg as usize + ss.num_segs as usize;
        if end > nsegs || (ss.first_seg as usize) >= nsegs {
            return Err(r.error_at(
                at,
                format!("segs {}..{end} are past the {nsegs} segs of the map", ss.first_seg),
            ));
        }
        Ok(ss)
    })?;
    if map.subsectors.is_empty() {
        return Err(FormatError::new(l.file, "SSECTORS", l.offset, "map has no subsectors"));
    }
    let empty = map.subsectors.iter().filter(|s| s.num_segs == 0).count();
    if empty > 0 {
        map.notes.push(format!("{empty} subsectors have no segs"));
    }

    let l = get("NODES")?;
    let nss = map.subsectors.len();
    let nnodes = l.data.len() / 28;
    map.nodes = records(&l, "NODES", 28, &mut map.notes, |r| {
        let at = r.pos();
        let x = r.i16_le()?;
        let y = r.i16_le()?;
        let dx = r.i16_le()?;
        let dy = r.i16_le()?;
        let mut bbox = [[0i16; 4]; 2];
        for b in &mut bbox {
            for v in b.iter_mut() {
                *v = r.i16_le()?;
            }
        }
        let children = [r.u16_le()?, r.u16_le()?];
        let node = Node { x, y, dx, dy, bbox, children };
        for side in 0..2 {
            match node.child(side) {
                NodeChild::Node(n) => check_index(r, at, n, nnodes, "node")?,
                NodeChild::Subsector(s) => check_index(r, at, s, nss, "subsector")?,
            }
        }
        Ok(node)
    })?;

    let l = get("THINGS")?;
    map.things = records(&l, "THINGS", 10, &mut map.notes, |r| {
        Ok(Thing {
            x: r.i16_le()?,
            y: r.i16_le()?,
            angle: r.i16_le()?,
            kind: r.u16_le()?,
            flags: r.u16_le()?,
        })
    })?;
    Ok(map)
}

/// Reads fixed-size records filling a lump; a trailing partial record is ignored (as vanilla,
/// which divides the lump length by the record size) with a note.
fn records<T>(
    lump: &super::wad::Lump<'_>,
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

fn check_index(r: &Reader<'_>, record_at: usize, index: u16, len: usize, what: &str) -> Result<()> {
    if (index as usize) < len {
        Ok(())
    } else {
        Err(r.error_at(record_at, format!("{what} {index} does not exist (map has {len})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;
    use crate::formats::doom::wad::{Wad, WadStack};
    use crate::formats::doom::writer;

    #[test]
    fn two_room_map_parses() {
        let stack = testwad::two_room_stack();
        let map = MapData::load(&stack, "MAP01").unwrap();
        assert_eq!(map.vertices.len(), 6);
        assert_eq!(map.linedefs.len(), 7);
        assert_eq!(map.segs.len(), 8);
        assert_eq!(map.subsectors.len(), 2);
        assert_eq!(map.nodes.len(), 1);
        assert_eq!(map.nodes[0].child(0), NodeChild::Subsector(1));
        assert_eq!(map.linedefs[3].sides, [Some(3), Some(4)]);
        assert_eq!(map.subsector_sector(1), Some(1));
        assert_eq!(map.bounds(), [0, 0, 256, 128]);
    }

    #[test]
    fn missing_lump_is_an_error() {
        let mut level = testwad::two_room_level();
        level.omit.push("SEGS");
        let stack = testwad::stack_with(&level);
        let e = MapData::load(&stack, "MAP01").unwrap_err();
        assert_eq!(e.structure, "map MAP01");
        assert!(e.message.contains("no SEGS lump"), "{e}");
        assert_eq!(e.file, "test.wad");
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
        level.map.segs[5].linedef = 70;
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "SEGS");
        assert!(e.message.contains("linedef 70"), "{e}");

        let mut level = testwad::two_room_level();
        level.map.nodes[0].children[1] = NF_SUBSECTOR | 9;
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "NODES");

        let mut level = testwad::two_room_level();
        level.map.subsectors[1].num_segs = 200;
        let e = MapData::load(&testwad::stack_with(&level), "MAP01").unwrap_err();
        assert_eq!(e.structure, "SSECTORS");
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
