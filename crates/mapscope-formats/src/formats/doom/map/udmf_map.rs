//! A UDMF map (`TEXTMAP`) mapped onto [`MapData`]: the standard fields of the namespaces
//! doom, heretic, hexen, strife, zdoom, gzdoom and eternity become the records' fields, and
//! every other key is kept per record in [`UdmfExtra`] for the properties drawn later
//! (per-part offsets and scales, floor/ceiling light, slopes, colours, ...).

use crate::formats::{FormatError, Result};

use super::udmf::{self, UdmfBlock, UdmfDocument, UdmfValue};
use super::{
    line_flags, note_missing_fronts, read_bsp, Linedef, MapData, MapFormat, Sector, Sidedef, Thing,
    Vertex,
};
use crate::formats::doom::archive::wad::{MapLumps, WadStack};
use crate::formats::doom::nodes::{Fixed, FRACUNIT};

/// Namespaces whose standard fields are mapped (others are read the same way, with a note).
pub const KNOWN_NAMESPACES: [&str; 7] =
    ["doom", "heretic", "hexen", "strife", "zdoom", "gzdoom", "eternity"];

/// The keys of each record that [`MapData`]'s records do not hold, in file order.
pub type Fields = Vec<(String, UdmfValue)>;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UdmfExtra {
    /// Global assignments other than `namespace`.
    pub globals: Fields,
    pub vertices: Vec<Fields>,
    pub linedefs: Vec<Fields>,
    pub sidedefs: Vec<Fields>,
    pub sectors: Vec<Fields>,
    pub things: Vec<Fields>,
    /// Blocks of kinds the standard does not define, kept whole.
    pub other_blocks: Vec<UdmfBlock>,
}

/// One block being converted: typed reads of its fields, remembering which were used.
struct Record<'a> {
    file: &'a str,
    block: &'a UdmfBlock,
    index: usize,
    used: Vec<&'static str>,
}

impl<'a> Record<'a> {
    fn error(&self, message: impl std::fmt::Display) -> FormatError {
        FormatError::new(
            self.file,
            "TEXTMAP",
            self.block.offset,
            format!("{} {}: {message}", self.block.kind, self.index),
        )
    }

    fn value(&mut self, key: &'static str) -> Option<&'a UdmfValue> {
        self.used.push(key);
        self.block.get(key)
    }

    fn int(&mut self, key: &'static str, default: Option<i64>) -> Result<i64> {
        match self.value(key) {
            Some(v) => v.as_int().ok_or_else(|| self.error(format!("{key} is not an integer"))),
            None => default.ok_or_else(|| self.error(format!("has no {key}"))),
        }
    }

    fn float(&mut self, key: &'static str, default: Option<f64>) -> Result<f64> {
        match self.value(key) {
            Some(v) => v.as_f64().ok_or_else(|| self.error(format!("{key} is not a number"))),
            None => default.ok_or_else(|| self.error(format!("has no {key}"))),
        }
    }

    fn flag(&mut self, key: &'static str) -> Result<bool> {
        match self.value(key) {
            Some(v) => v.as_bool().ok_or_else(|| self.error(format!("{key} is not true or false"))),
            None => Ok(false),
        }
    }

    fn name(&mut self, key: &'static str, default: Option<&str>) -> Result<String> {
        match self.value(key) {
            Some(v) => v
                .as_str()
                .map(str::to_ascii_uppercase)
                .ok_or_else(|| self.error(format!("{key} is not a string"))),
            None => default.map(str::to_string).ok_or_else(|| self.error(format!("has no {key}"))),
        }
    }

    /// An integer that must fit `T` (indices, 16-bit fields).
    fn fit<T: TryFrom<i64>>(&mut self, key: &'static str, default: Option<i64>) -> Result<T> {
        let v = self.int(key, default)?;
        T::try_from(v).map_err(|_| self.error(format!("{key} {v} is out of range")))
    }

    /// A map coordinate in 16.16, rounded to nearest.
    fn fixed(&mut self, key: &'static str, default: Option<f64>) -> Result<Fixed> {
        let v = self.float(key, default)?;
        let f = (v * FRACUNIT as f64).round();
        if !(i32::MIN as f64..=i32::MAX as f64).contains(&f) {
            return Err(self.error(format!("{key} {v} is outside the 16.16 range")));
        }
        Ok(f as Fixed)
    }

    fn args(&mut self) -> Result<[i32; 5]> {
        const KEYS: [&str; 5] = ["arg0", "arg1", "arg2", "arg3", "arg4"];
        let mut out = [0; 5];
        for (o, k) in out.iter_mut().zip(KEYS) {
            *o = self.fit(k, Some(0))?;
        }
        Ok(out)
    }

    /// The fields not read into the record.
    fn rest(&self) -> Fields {
        self.block
            .fields
            .iter()
            .filter(|(k, _)| !self.used.contains(&k.as_str()))
            .cloned()
            .collect()
    }
}

/// The records of a UDMF map, cross-references checked; no nodes.
pub fn udmf_records(file: &str, name: &str, doc: &UdmfDocument) -> Result<MapData> {
    let namespace = doc.namespace().unwrap_or_default();
    let mut map = MapData {
        name: name.to_string(),
        file: file.to_string(),
        format: MapFormat::Udmf { namespace: namespace.clone() },
        ..Default::default()
    };
    if namespace.is_empty() {
        map.notes.push(format!("{name}: TEXTMAP has no namespace; read as doom"));
    } else if !KNOWN_NAMESPACES.contains(&namespace.as_str()) {
        map.notes.push(format!("{name}: unknown UDMF namespace {namespace:?}; standard keys read"));
    }
    // Doom-numbered namespaces keep the sector tag in arg0 (ZDoom translates them so).
    let doom_numbered = matches!(namespace.as_str(), "" | "doom" | "heretic" | "strife");
    let mut extra = UdmfExtra {
        globals: doc.globals.iter().filter(|(k, _)| k != "namespace").cloned().collect(),
        ..Default::default()
    };
    let mut clamped = 0usize;
    let mut no_front = Vec::new();
    for block in &doc.blocks {
        let index = |n: usize| Record { file, block, index: n, used: Vec::new() };
        match block.kind.as_str() {
            "vertex" => {
                let mut r = index(map.vertices.len());
                map.vertices.push(Vertex { x: r.fixed("x", None)?, y: r.fixed("y", None)? });
                extra.vertices.push(r.rest());
            }
            "linedef" => {
                let mut r = index(map.linedefs.len());
                let mut flags = 0u16;
                for (key, bit) in [
                    ("blocking", line_flags::IMPASSABLE),
                    ("blockmonsters", line_flags::BLOCK_MONSTERS),
                    ("twosided", line_flags::TWO_SIDED),
                    ("dontpegtop", line_flags::UPPER_UNPEGGED),
                    ("dontpegbottom", line_flags::LOWER_UNPEGGED),
                    ("secret", line_flags::SECRET),
                    ("blocksound", line_flags::BLOCK_SOUND),
                    ("dontdraw", line_flags::NOT_ON_MAP),
                    ("mapped", line_flags::ALREADY_ON_MAP),
                    ("blockplayers", line_flags::ZDOOM_BLOCK_PLAYERS),
                    ("blockeverything", line_flags::ZDOOM_BLOCK_EVERYTHING),
                ] {
                    if r.flag(key)? {
                        flags |= bit;
                    }
                }
                let side = |r: &mut Record<'_>, key, default| -> Result<Option<u32>> {
                    let v: i64 = r.int(key, default)?;
                    if v == -1 {
                        return Ok(None);
                    }
                    u32::try_from(v).map(Some).map_err(|_| r.error(format!("{key} {v} is invalid")))
                };
                let v1 = r.fit("v1", None)?;
                let v2 = r.fit("v2", None)?;
                // GZDoom's `ParseLinedef` gives a line without a front side (none, or -1)
                // sidedef 0 and says "Line N has no first side", as its binary loader does.
                let front = side(&mut r, "sidefront", Some(-1))?.or_else(|| {
                    no_front.push(map.linedefs.len());
                    Some(0)
                });
                let back = side(&mut r, "sideback", Some(-1))?;
                let special: i64 = r.int("special", Some(0))?;
                let id: i64 = r.int("id", Some(-1))?;
                let args = r.args()?;
                let tag = if doom_numbered { args[0] as i64 } else { id };
                let special = u16::try_from(special)
                    .map_err(|_| r.error(format!("special {special} is out of range")))?;
                map.linedefs.push(Linedef {
                    v1,
                    v2,
                    flags,
                    special,
                    tag: u16::try_from(tag).unwrap_or(0),
                    args,
                    sides: [front, back],
                });
                extra.linedefs.push(r.rest());
            }
            "sidedef" => {
                let mut r = index(map.sidedefs.len());
                let mut offset = |r: &mut Record<'_>, key| -> Result<i16> {
                    let v: i64 = r.int(key, Some(0))?;
                    let c = v.clamp(i16::MIN as i64, i16::MAX as i64);
                    clamped += (c != v) as usize;
                    Ok(c as i16)
                };
                let x_offset = offset(&mut r, "offsetx")?;
                let y_offset = offset(&mut r, "offsety")?;
                map.sidedefs.push(Sidedef {
                    x_offset,
                    y_offset,
                    upper: r.name("texturetop", Some("-"))?,
                    lower: r.name("texturebottom", Some("-"))?,
                    middle: r.name("texturemiddle", Some("-"))?,
                    sector: r.fit("sector", None)?,
                });
                extra.sidedefs.push(r.rest());
            }
            "sector" => {
                let mut r = index(map.sectors.len());
                let mut height = |r: &mut Record<'_>, key, default| -> Result<i16> {
                    let v: i64 = r.int(key, Some(default))?;
                    let c = v.clamp(i16::MIN as i64, i16::MAX as i64);
                    clamped += (c != v) as usize;
                    Ok(c as i16)
                };
                let floor = height(&mut r, "heightfloor", 0)?;
                let ceiling = height(&mut r, "heightceiling", 0)?;
                let light = height(&mut r, "lightlevel", 160)?;
                let special = r.fit("special", Some(0))?;
                let id: i64 = r.int("id", Some(0))?;
                map.sectors.push(Sector {
                    floor,
                    ceiling,
                    floor_flat: r.name("texturefloor", None)?,
                    ceiling_flat: r.name("textureceiling", None)?,
                    light,
                    special,
                    tag: u16::try_from(id).unwrap_or(0),
                });
                extra.sectors.push(r.rest());
            }
            "thing" => {
                let mut r = index(map.things.len());
                let mut flags = 0u16;
                for (keys, bit) in [
                    (&["skill1", "skill2"][..], 0x0001),
                    (&["skill3"][..], 0x0002),
                    (&["skill4", "skill5"][..], 0x0004),
                    (&["ambush"][..], 0x0008),
                ] {
                    for k in keys {
                        if r.flag(k)? {
                            flags |= bit;
                        }
                    }
                }
                // Not flagged for single player: Doom's multiplayer-only bit.
                if !r.flag("single")? {
                    flags |= 0x0010;
                }
                let angle: i64 = r.int("angle", Some(0))?;
                map.things.push(Thing {
                    x: r.fixed("x", None)?,
                    y: r.fixed("y", None)?,
                    z: r.fixed("height", Some(0.0))?,
                    angle: angle.rem_euclid(360) as i16,
                    kind: r.fit("type", None)?,
                    flags,
                    tid: r.fit("id", Some(0))?,
                    special: r.fit("special", Some(0))?,
                    args: r.args()?,
                });
                extra.things.push(r.rest());
            }
            _ => extra.other_blocks.push(block.clone()),
        }
    }
    if clamped > 0 {
        map.notes.push(format!("{clamped} UDMF heights or offsets clamped to 16 bits"));
    }
    note_leniencies(doc, &no_front, &mut map.notes);
    check_references(file, doc, &map)?;
    note_missing_fronts(&mut map);
    note_undrawn(&extra, &mut map.notes);
    map.udmf = Some(Box::new(extra));
    Ok(map)
}

/// Notes on what was read as GZDoom reads it where the text strays from the UDMF spec:
/// linedefs without a front side (`no_front`, their indices) and keys that are not names.
fn note_leniencies(doc: &UdmfDocument, no_front: &[usize], notes: &mut Vec<String>) {
    if let Some(first) = no_front.first() {
        notes.push(format!(
            "{} linedefs without sidefront (the first: linedef {first}) given sidedef 0 as \
             their front side, as GZDoom does",
            no_front.len()
        ));
    }
    if let Some((text, line)) = &doc.first_token_key {
        notes.push(format!(
            "{} TEXTMAP keys written as a number, boolean or string (the first: {text} on line \
             {line}) read as keys named by their text, as GZDoom does; unknown ones are kept \
             but do nothing",
            doc.token_keys
        ));
    }
}

/// One note naming the properties the map sets that mapscope keeps but does not draw yet
/// (alpha, colours, ...; the drawn ones are `udmf_props`' and `slopes`'), with
/// how many records set each, so that nothing is dropped silently.
fn note_undrawn(extra: &UdmfExtra, notes: &mut Vec<String>) {
    let kinds = [
        ("vertex", &extra.vertices),
        ("linedef", &extra.linedefs),
        ("sidedef", &extra.sidedefs),
        ("sector", &extra.sectors),
        ("thing", &extra.things),
    ];
    let mut parts = Vec::new();
    for (kind, records) in kinds {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for (key, _) in records.iter().flatten() {
            if key != "comment" && !super::udmf_props::is_drawn(kind, key) {
                *counts.entry(key.as_str()).or_default() += 1;
            }
        }
        if !counts.is_empty() {
            let keys: Vec<String> = counts.iter().map(|(k, n)| format!("{k} ({n})")).collect();
            parts.push(format!("{kind}: {}", keys.join(", ")));
        }
    }
    if !extra.other_blocks.is_empty() {
        parts.push(format!("{} blocks of other kinds", extra.other_blocks.len()));
    }
    // GZDoom's hardware renderer's colour keys, named on their own so that a map that relies
    // on them says why its colours differ.
    let gzdoom_colours: usize = [&extra.sectors, &extra.sidedefs]
        .iter()
        .flat_map(|records| records.iter())
        .filter(|fields| fields.iter().any(|(k, _)| is_gzdoom_colour_key(k)))
        .count();
    if gzdoom_colours > 0 {
        notes.push(format!(
            "{gzdoom_colours} sectors and sidedefs set GZDoom's colour keys other than the \
             floor, ceiling, wall and sprite colours (per-part colours, coloradd_*, \
             colorization_*, desaturation, alphafloor/alphaceiling): not drawn; surfaces keep \
             the sector's colours (smooth mode) and full opacity"
        ));
    }
    if !parts.is_empty() {
        notes.push(format!("UDMF properties kept but not drawn: {}", parts.join("; ")));
    }
}

/// Whether `key` is one of GZDoom's sector or sidedef colour keys (zdoom namespace):
/// per-part tints, additive colours, desaturation and plane alpha.
fn is_gzdoom_colour_key(key: &str) -> bool {
    let drawn = crate::formats::doom::specials::sector_colors::DRAWN_SECTOR_KEYS.contains(&key);
    (key.starts_with("color_") && !drawn)
        || key.starts_with("coloradd_")
        || key.starts_with("colorization_")
        || key == "desaturation"
        || key == "alphafloor"
        || key == "alphaceiling"
}

/// Every index a record holds points at an existing record (errors at the block's offset).
fn check_references(file: &str, doc: &UdmfDocument, map: &MapData) -> Result<()> {
    let block_of = |kind: &str, n: usize| {
        doc.blocks.iter().filter(|b| b.kind == kind).nth(n).map_or(0, |b| b.offset)
    };
    let fail = |kind: &str, n: usize, msg: String| {
        FormatError::new(file, "TEXTMAP", block_of(kind, n), format!("{kind} {n}: {msg}"))
    };
    for (i, s) in map.sidedefs.iter().enumerate() {
        if s.sector as usize >= map.sectors.len() {
            let msg = format!("sector {} does not exist (map has {})", s.sector, map.sectors.len());
            return Err(fail("sidedef", i, msg));
        }
    }
    for (i, l) in map.linedefs.iter().enumerate() {
        for v in [l.v1, l.v2] {
            if v as usize >= map.vertices.len() {
                let msg = format!("vertex {v} does not exist (map has {})", map.vertices.len());
                return Err(fail("linedef", i, msg));
            }
        }
        for s in l.sides.into_iter().flatten() {
            if s as usize >= map.sidedefs.len() {
                let msg = format!("sidedef {s} does not exist (map has {})", map.sidedefs.len());
                return Err(fail("linedef", i, msg));
            }
        }
    }
    Ok(())
}

/// The TEXTMAP of a map parsed into a document.
pub fn textmap(stack: &WadStack, lumps: &MapLumps) -> Result<UdmfDocument> {
    let lump = lumps.get("TEXTMAP").and_then(|n| stack.lump_at(n)).ok_or_else(|| {
        FormatError::new(
            &lumps.file,
            &format!("map {}", lumps.name),
            lumps.marker_dir_offset,
            "no TEXTMAP lump",
        )
    })?;
    udmf::parse(lump.file, lump.data, lump.offset)
}

/// A UDMF map: its records, then its nodes.
pub fn parse_udmf_map(stack: &WadStack, lumps: &MapLumps) -> Result<MapData> {
    let doc = textmap(stack, lumps)?;
    let mut map = udmf_records(&lumps.file, &lumps.name, &doc)?;
    let mut notes = Vec::new();
    map.bsp = read_bsp(stack, lumps, &map, &mut notes)?;
    map.notes.extend(notes);
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
        namespace = "zdoom";
        vertex { x = 0.0; y = 0.0; }
        vertex { x = 64.5; y = 0; }
        vertex { x = 64; y = -64.25; }
        linedef { v1 = 0; v2 = 1; sidefront = 0; blocking = true; special = 80; arg0 = 7;
                  id = 12; alpha = 0.5; }
        linedef { v1 = 1; v2 = 2; sidefront = 1; sideback = 0; twosided = true;
                  dontpegbottom = true; }
        sidedef { sector = 0; texturemiddle = "stone2"; offsetx = 3; scalex_mid = 2.0; }
        sidedef { sector = 1; offsety = -4; }
        sector { heightfloor = 8; heightceiling = 128; texturefloor = "flat1";
                 textureceiling = "F_SKY1"; lightlevel = 200; special = 1; id = 5;
                 lightfloor = 16; lightfloorabsolute = true; }
        sector { texturefloor = "x"; textureceiling = "y"; }
        thing { x = 32; y = 16; angle = 450; type = 1; skill3 = true; single = true;
                height = 24; id = 9; special = 80; arg1 = 3; }
        thing { x = -1; y = 1; type = 3001; skill1 = true; }
        thing_extension { anything = 1; }
    "#;

    fn small() -> MapData {
        let doc = udmf::parse("s.wad", SMALL.as_bytes(), 0).unwrap();
        udmf_records("s.wad", "MAP01", &doc).unwrap()
    }

    #[test]
    fn standard_fields_map_onto_the_records() {
        let m = small();
        assert_eq!(m.format, MapFormat::Udmf { namespace: "zdoom".into() });
        assert!(!m.doom_specials());
        assert_eq!(m.vertices[1], Vertex { x: 64 * 65536 + 32768, y: 0 });
        assert_eq!(m.vertices[2].y, -(64 * 65536 + 16384));
        let l = m.linedefs[0];
        assert_eq!(l.flags, line_flags::IMPASSABLE);
        assert_eq!((l.special, l.tag, l.args[0]), (80, 12, 7));
        assert_eq!(l.sides, [Some(0), None]);
        let l = m.linedefs[1];
        assert_eq!(l.flags, line_flags::TWO_SIDED | line_flags::LOWER_UNPEGGED);
        assert_eq!(l.sides, [Some(1), Some(0)]);
        assert_eq!(m.sidedefs[0].middle, "STONE2");
        assert_eq!((m.sidedefs[0].x_offset, m.sidedefs[1].y_offset), (3, -4));
        assert_eq!(m.sidedefs[1].upper, "-");
        let s = &m.sectors[0];
        assert_eq!((s.floor, s.ceiling, s.light, s.special, s.tag), (8, 128, 200, 1, 5));
        assert_eq!((s.floor_flat.as_str(), s.ceiling_flat.as_str()), ("FLAT1", "F_SKY1"));
        assert_eq!(m.sectors[1].light, 160);
        let t = m.things[0];
        assert_eq!((t.x, t.y, t.z), (32 << 16, 16 << 16, 24 << 16));
        assert_eq!((t.angle, t.kind, t.flags, t.tid, t.special), (90, 1, 0x0002, 9, 80));
        assert_eq!(t.args, [0, 3, 0, 0, 0]);
        assert_eq!(m.things[1].flags, 0x0001 | 0x0010);
    }

    #[test]
    fn other_keys_are_kept_per_record() {
        let m = small();
        let x = m.udmf.as_ref().unwrap();
        assert_eq!(x.linedefs[0], vec![("alpha".to_string(), UdmfValue::Float(0.5))]);
        assert!(x.linedefs[1].is_empty());
        assert_eq!(x.sidedefs[0], vec![("scalex_mid".to_string(), UdmfValue::Float(2.0))]);
        assert_eq!(x.sectors[0].len(), 2);
        assert_eq!(x.sectors[0][1], ("lightfloorabsolute".to_string(), UdmfValue::Bool(true)));
        assert_eq!(x.other_blocks.len(), 1);
        assert_eq!(x.other_blocks[0].kind, "thing_extension");
    }

    #[test]
    fn gzdoom_colour_keys_are_named_as_not_drawn() {
        let text = SMALL.replacen(
            "lightfloorabsolute = true;",
            "lightfloorabsolute = true; color_floor = 0xFF0000; coloradd_walls = 0x202020; \
             desaturation = 0.5; alphaceiling = 0.25; color_sprites = 0x00FF00;",
            1,
        );
        assert_ne!(text, SMALL, "the sector keys were added");
        let doc = udmf::parse("s.wad", text.as_bytes(), 0).unwrap();
        let m = udmf_records("s.wad", "MAP01", &doc).unwrap();
        let note = m.notes.iter().find(|n| n.contains("GZDoom's colour keys"));
        assert!(note.is_some_and(|n| n.starts_with("1 sectors")), "{:?}", m.notes);
        let kept = m.notes.iter().find(|n| n.starts_with("UDMF properties kept")).unwrap();
        for key in ["coloradd_walls", "desaturation", "alphaceiling"] {
            assert!(kept.contains(key), "{key}: {kept}");
        }
        // The floor's colour is drawn (sector_colors).
        assert!(!kept.contains("color_floor"), "{kept}");
        // Without them, no such note.
        assert!(!small().notes.iter().any(|n| n.contains("GZDoom's colour keys")));
    }

    #[test]
    fn doom_namespace_takes_the_tag_from_arg0() {
        let text = SMALL.replace("\"zdoom\"", "\"doom\"");
        let doc = udmf::parse("s.wad", text.as_bytes(), 0).unwrap();
        let m = udmf_records("s.wad", "MAP01", &doc).unwrap();
        assert_eq!(m.linedefs[0].tag, 7);
        assert!(m.doom_specials());
    }

    #[test]
    fn a_linedef_without_sidefront_takes_sidedef_0_as_gzdoom_does() {
        // One line with no sidefront at all, one with -1 (the same to GZDoom).
        let text = SMALL.replacen("sidefront = 1; sideback = 0;", "sideback = 1;", 1).replacen(
            "sidefront = 0;",
            "sidefront = -1;",
            1,
        );
        let doc = udmf::parse("s.wad", text.as_bytes(), 0).unwrap();
        let m = udmf_records("s.wad", "MAP01", &doc).unwrap();
        assert_eq!(m.linedefs[0].sides, [Some(0), None]);
        assert_eq!(m.linedefs[1].sides, [Some(0), Some(1)]);
        let note = m.notes.iter().find(|n| n.contains("without sidefront"));
        assert!(
            note.is_some_and(|n| n.starts_with("2 linedefs") && n.contains("first: linedef 0")),
            "{:?}",
            m.notes
        );
        assert!(!m.notes.iter().any(|n| n.contains("no front sidedef")), "{:?}", m.notes);
        assert!(!small().notes.iter().any(|n| n.contains("without sidefront")));
        // With no sidedef 0 to give, the map is refused (GZDoom: "Map has no sidedefs").
        let bare = "vertex { x = 0; y = 0; } vertex { x = 1; y = 0; } linedef { v1 = 0; v2 = 1; }";
        let doc = udmf::parse("s.wad", bare.as_bytes(), 0).unwrap();
        let e = udmf_records("s.wad", "MAP01", &doc).unwrap_err();
        assert!(e.message.contains("linedef 0: sidedef 0 does not exist"), "{e}");
    }

    #[test]
    fn keys_written_as_values_are_kept_and_noted() {
        let text = SMALL.replacen("id = 12;", "id = 12; 1 = 5;", 1);
        assert_ne!(text, SMALL);
        let doc = udmf::parse("s.wad", text.as_bytes(), 0).unwrap();
        let m = udmf_records("s.wad", "MAP01", &doc).unwrap();
        let x = m.udmf.as_ref().unwrap();
        assert!(x.linedefs[0].contains(&("1".to_string(), UdmfValue::Int(5))), "{x:?}");
        let note = m.notes.iter().find(|n| n.contains("written as a number"));
        assert!(note.is_some_and(|n| n.starts_with("1 TEXTMAP keys")), "{:?}", m.notes);
        assert!(note.unwrap().contains("the first: 1 on line 7"), "{note:?}");
        assert!(!small().notes.iter().any(|n| n.contains("written as a number")));
    }

    #[test]
    fn bad_records_are_errors_at_their_block() {
        for (from, to, want) in [
            ("v1 = 1; v2 = 2;", "v1 = 1; v2 = 9;", "vertex 9 does not exist"),
            ("sector = 1;", "sector = 4;", "sector 4 does not exist"),
            ("sidefront = 1;", "sidefront = -7;", "sidefront -7 is invalid"),
            ("type = 3001;", "type = 99999;", "type 99999 is out of range"),
            ("x = 0.0; y = 0.0;", "x = 0.0;", "has no y"),
            ("blocking = true;", "blocking = 1;", "blocking is not true or false"),
            ("texturefloor = \"x\";", "", "has no texturefloor"),
        ] {
            let text = SMALL.replacen(from, to, 1);
            assert_ne!(text, SMALL, "{from}");
            let doc = udmf::parse("s.wad", text.as_bytes(), 100).unwrap();
            let e = udmf_records("s.wad", "MAP01", &doc).unwrap_err();
            assert!(e.message.contains(want), "{e}");
            assert!(e.offset > 100, "{e}");
            let block = &text[(e.offset - 100) as usize..];
            let kind = e.message.split(' ').next().unwrap();
            assert!(block.starts_with(kind), "{e} at {block:.20}");
        }
    }
}
