//! ZDoom's 3D floors: `Sector_Set3dFloor` (special 160) in Hexen-format maps and in UDMF maps
//! numbered as Hexen's, read into the slabs the scene builder draws.
//!
//! Facts relied on (GZDoom `p_3dfloors.cpp` P_Spawn3DFloors, P_Set3DFloor, P_Add3DFloor,
//! P_Recalculate3DFloors and P_GetPlaneLight; `hw_flats.cpp` SetFrom3DFloor):
//! - The tag is `arg0`; in Hexen-format maps `arg0 + 256 * arg4`, unless `arg1 & 8`, when
//!   `arg4` is the line's own id instead. Every sector with the tag gets the floor.
//! - The type is `arg1` without bit 8: its low two bits 0 Vavoom style (the control floor is
//!   the top, its ceiling the bottom), 1 solid, 2 swimmable (both planes and all sides drawn,
//!   seen from inside too), 3 non-solid; +4 draws the inside too; +16 / +32 only change what
//!   sees and shoots through. Type 4 on its own is a hole-patching plane (`FF_FIX`).
//! - Flags `arg2`: 1 no shade, 2 double shadow, 4 fog, 8 thin floor (the bottom is the control
//!   ceiling: a plane with no sides), 16 / 32 the sides take the drawn line's upper / lower
//!   texture, 64 additive, 128 flood, 512 fade walls, 1024 reset.
//! - Alpha `arg3`, 0..255; below 255 an upper texture on the control line that names no
//!   texture but `#n` gives alpha `n`. Alpha 0 draws nothing. Vavoom floors are opaque.
//! - The control sector is the 160 line's front sector: its ceiling is the slab's top (its
//!   ceiling flat seen from above), its floor the bottom (its floor flat seen from below).
//! - Light (without "no shade"): the region below the slab's top takes the control sector's
//!   light, so the bottom face and the sides are lit by it, while the top face, lit from
//!   above, keeps the tagged sector's (see `build/light_bands` for the whole rule). A floor
//!   of alpha 0 draws nothing but still casts its light (it keeps `FF_EXISTS`).
//! - `ExtraFloor_LightOnly` (50) makes such a floor of type 3 and alpha 0 for every sector
//!   tagged `arg0`: its `arg1` 0 casts the light down to the next floor, 1 only between the
//!   control planes (double shadow), 2 down to the next and then resets it.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::doom::map::{MapData, MapFormat};
use crate::limits::doom::MAX_SLAB_SECTORS;

/// Hexen/ZDoom `Sector_Set3dFloor`.
pub const SECTOR_SET_3D_FLOOR: u16 = 160;
/// ZDoom `ExtraFloor_LightOnly`.
pub const EXTRA_FLOOR_LIGHT_ONLY: u16 = 50;

/// Flag bits of `arg2`.
pub mod floor_flags {
    pub const NO_SHADE: i32 = 1;
    pub const DOUBLE_SHADOW: i32 = 2;
    pub const FOG: i32 = 4;
    pub const THIN: i32 = 8;
    pub const UPPER_TEXTURE: i32 = 16;
    pub const LOWER_TEXTURE: i32 = 32;
    pub const ADDITIVE: i32 = 64;
    pub const FLOOD: i32 = 128;
    pub const FADE_WALLS: i32 = 512;
    /// The light below it returns to the sector's own.
    pub const RESET: i32 = 1024;
}

/// How a 3D floor is made (`arg1 & 3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorKind {
    Vavoom,
    Solid,
    Swimmable,
    NonSolid,
}

/// One 3D floor as a control line makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Floor3d {
    /// The control linedef.
    pub line: u32,
    /// The control sector (the line's front sector).
    pub control: u32,
    /// The sectors it is in.
    pub targets: Vec<u32>,
    pub kind: FloorKind,
    /// Its planes and sides are seen from inside too (swimmable, or type + 4).
    pub inside: bool,
    /// `arg2` (see [`floor_flags`]).
    pub flags: i32,
    /// 0 (not drawn: it only casts its light) .. 255 (opaque).
    pub alpha: u8,
}

impl Floor3d {
    pub fn has(&self, flag: i32) -> bool {
        self.flags & flag != 0
    }

    pub fn additive(&self) -> bool {
        self.has(floor_flags::ADDITIVE)
    }

    /// Whether it is drawn (alpha 0 only casts light).
    pub fn drawn(&self) -> bool {
        self.alpha > 0
    }
}

/// The map's 3D floors (those of alpha 0 too, which only cast light), with notes on what is
/// read and what is not drawn.
pub fn read_3d_floors(map: &MapData, notes: &mut Vec<String>) -> Vec<Floor3d> {
    if map.doom_specials() {
        return Vec::new();
    }
    let hexen = map.format == MapFormat::Hexen;
    let mut sectors_by_id: BTreeMap<i32, Vec<u32>> = BTreeMap::new();
    for (s, ids) in sector_ids(map).into_iter().enumerate() {
        for id in ids {
            sectors_by_id.entry(id).or_default().push(s as u32);
        }
    }
    let mut floors = Vec::new();
    let (mut fixes, mut untagged) = (0usize, 0usize);
    let (mut placed, mut over) = (0usize, 0usize);
    for (i, line) in map.linedefs.iter().enumerate() {
        let a = line.args;
        // ExtraFloor_LightOnly is Sector_Set3dFloor type 3, alpha 0, with its own flags.
        let (a, light_only) = match line.special {
            SECTOR_SET_3D_FLOOR => (a, false),
            EXTRA_FLOOR_LIGHT_ONLY => {
                use floor_flags::*;
                let flags = match a[1] {
                    1 => DOUBLE_SHADOW | FADE_WALLS,
                    2 => FADE_WALLS | RESET,
                    _ => FADE_WALLS,
                };
                ([a[0], 3, flags, 0, 0], true)
            }
            _ => continue,
        };
        let tag = if hexen && !light_only && a[1] & 8 == 0 { a[0] + 256 * a[4] } else { a[0] };
        let param = a[1] & !8;
        if param == 4 {
            fixes += 1;
            continue;
        }
        let Some(control) = map.line_sector(line, 0) else { continue };
        let targets = sectors_by_id.get(&tag).filter(|_| tag != 0).cloned().unwrap_or_default();
        if targets.is_empty() {
            untagged += 1;
            continue;
        }
        // Each slab is built in every sector it reaches: a crafted map could ask for every
        // sector from every line.
        placed += targets.len();
        if placed > MAX_SLAB_SECTORS {
            over += 1;
            continue;
        }
        let kind = match param & 3 {
            0 => FloorKind::Vavoom,
            1 => FloorKind::Solid,
            2 => FloorKind::Swimmable,
            _ => FloorKind::NonSolid,
        };
        let mut alpha = if kind == FloorKind::Vavoom { 255 } else { a[3] };
        if alpha < 255 {
            // The upper texture's "#n" stands for the alpha where it names no texture.
            let upper = line.sides[0].and_then(|s| map.sidedefs.get(s as usize));
            if let Some(n) = upper.and_then(|sd| sd.upper.strip_prefix('#')) {
                alpha = n.trim().parse::<i32>().unwrap_or(alpha);
            }
        }
        let alpha = alpha.clamp(0, 255) as u8;
        floors.push(Floor3d {
            line: i as u32,
            control: control as u32,
            targets,
            kind,
            inside: kind == FloorKind::Swimmable || param & 4 != 0,
            flags: if kind == FloorKind::Vavoom { 0 } else { a[2] },
            alpha,
        });
    }
    let drawn: Vec<Floor3d> = floors.iter().filter(|f| f.drawn()).cloned().collect();
    if !drawn.is_empty() {
        describe(&drawn, notes);
    }
    let light_only = floors.len() - drawn.len();
    if light_only > 0 {
        notes.push(format!(
            "{light_only} 3D floors of alpha 0 (or ExtraFloor_LightOnly, 50) draw nothing but \
             the light they cast on their sectors below them"
        ));
    }
    if fixes > 0 {
        notes.push(format!(
            "{fixes} Sector_Set3dFloor (160) lines of type 4 (planes patching render holes) \
             not drawn"
        ));
    }
    if untagged > 0 {
        notes.push(format!(
            "{untagged} Sector_Set3dFloor (160) lines tag no sector (or no control sector)"
        ));
    }
    if over > 0 {
        notes.push(format!(
            "{over} 3D floors not drawn: the map's 3D floors reach more than \
             {MAX_SLAB_SECTORS} sectors in all"
        ));
    }
    floors
}

fn describe(floors: &[Floor3d], notes: &mut Vec<String>) {
    let count = |f: &dyn Fn(&Floor3d) -> bool| floors.iter().filter(|x| f(x)).count();
    let translucent = count(&|f| f.alpha < 255 && !f.additive());
    let additive = count(&|f| f.additive());
    let vavoom = count(&|f| f.kind == FloorKind::Vavoom);
    let sectors: BTreeSet<u32> = floors.iter().flat_map(|f| f.targets.iter().copied()).collect();
    notes.push(format!(
        "{} 3D floors (Sector_Set3dFloor) in {} sectors ({translucent} translucent, {additive} \
         additive, {vavoom} Vavoom-style): drawn as slabs between the control sector's floor \
         and ceiling (its flats on the top and bottom faces, the control line's middle \
         texture or the drawn line's upper or lower on the sides); the light each casts \
         below its top (the control sector's) lights its sides and bottom face and the \
         tagged sector's walls, floor and things beneath it, as GZDoom's light lists do. 3D \
         floors \
         have no vanilla equivalent: faithful frames that reach a sector with one are drawn \
         with vanilla's COLORMAP light tables over ordinary rasterisation (the GPU)",
        floors.len(),
        sectors.len()
    ));
    let mut missing = Vec::new();
    for (flag, what) in [
        (floor_flags::FOG, "fog"),
        (floor_flags::FLOOD, "flood"),
        (floor_flags::FADE_WALLS, "fade walls"),
    ] {
        let n = count(&|f| f.has(flag));
        if n > 0 {
            missing.push(format!("{what} ({n})"));
        }
    }
    if !missing.is_empty() {
        notes.push(format!("3D floor flags not drawn: {}", missing.join(", ")));
    }
    notes.push(
        "3D floors: the splitting of overlapping floors (a translucent floor covered by a \
         solid one still casts its light) and sector colours inside them are not drawn"
            .into(),
    );
}

/// Every sector's ids: its tag, and in UDMF its `moreids`.
fn sector_ids(map: &MapData) -> Vec<Vec<i32>> {
    map.sectors
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut ids = vec![s.tag as i32];
            let more = map.udmf.as_deref().and_then(|extra| {
                let fields = extra.sectors.get(i)?;
                fields.iter().rev().find(|(k, _)| k == "moreids").and_then(|(_, v)| v.as_str())
            });
            ids.extend(more.unwrap_or("").split_whitespace().filter_map(|w| w.parse::<i32>().ok()));
            ids.retain(|&n| n != 0);
            ids
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::{Linedef, Sector, Sidedef};

    fn map(format: MapFormat, args: [i32; 5], upper: &str) -> MapData {
        let sector = |tag| Sector { floor: 0, ceiling: 128, tag, ..Default::default() };
        MapData {
            format,
            linedefs: vec![Linedef {
                special: SECTOR_SET_3D_FLOOR,
                args,
                sides: [Some(0), None],
                ..Default::default()
            }],
            sidedefs: vec![Sidedef { upper: upper.into(), sector: 2, ..Default::default() }],
            sectors: vec![sector(5), sector(5 + 256), sector(0)],
            ..Default::default()
        }
    }

    #[test]
    fn slabs_stop_at_a_bound_on_the_sectors_they_reach() {
        // 300 lines each putting a slab in the same 300 sectors: 90,000 placements.
        let mut m = map(MapFormat::Hexen, [5, 1, 0, 255, 0], "");
        let tagged = m.sectors[0].clone();
        m.sectors.extend(std::iter::repeat_n(tagged, 297));
        m.sectors[1].tag = 5;
        m.linedefs = vec![m.linedefs[0]; 300];
        let mut notes = Vec::new();
        let floors = read_3d_floors(&m, &mut notes);
        let placed: usize = floors.iter().map(|f| f.targets.len()).sum();
        assert!(placed <= MAX_SLAB_SECTORS && floors.len() == MAX_SLAB_SECTORS / 299);
        assert!(notes.iter().any(|n| n.contains("3D floors not drawn")), "{notes:?}");
    }

    #[test]
    fn light_only_floors_are_invisible_non_solid_floors_with_their_shadow_flags() {
        let mut notes = Vec::new();
        for (arg1, flags) in [
            (0, floor_flags::FADE_WALLS),
            (1, floor_flags::DOUBLE_SHADOW | floor_flags::FADE_WALLS),
            (2, floor_flags::FADE_WALLS | floor_flags::RESET),
        ] {
            let mut m = map(MapFormat::Hexen, [5, arg1, 0, 0, 1], "-");
            m.linedefs[0].special = EXTRA_FLOOR_LIGHT_ONLY;
            let f = read_3d_floors(&m, &mut notes);
            // arg4 is no high byte of the tag here.
            assert_eq!((f.len(), &f[0].targets[..], f[0].control), (1, &[0][..], 2));
            assert_eq!((f[0].kind, f[0].flags, f[0].drawn()), (FloorKind::NonSolid, flags, false));
        }
        assert!(notes.iter().any(|n| n.contains("draw nothing but the light")), "{notes:?}");
    }

    #[test]
    fn reads_tag_type_flags_and_alpha() {
        let mut notes = Vec::new();
        let f = read_3d_floors(&map(MapFormat::Hexen, [5, 1, 8 | 64, 128, 1], "-"), &mut notes);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].control, &f[0].targets[..]), (2, &[1][..]), "tag 5 + 256");
        assert_eq!((f[0].kind, f[0].inside, f[0].alpha), (FloorKind::Solid, false, 128));
        assert!(f[0].has(floor_flags::THIN) && f[0].additive());
        // Bit 8 of the type: arg4 is the line's id, the tag arg0 alone; +4 inside.
        let f = read_3d_floors(&map(MapFormat::Hexen, [5, 8 | 4 | 3, 0, 255, 1], "-"), &mut notes);
        assert_eq!(
            (&f[0].targets[..], f[0].kind, f[0].inside),
            (&[0][..], FloorKind::NonSolid, true)
        );
        // UDMF: arg0 is the tag.
        let udmf = MapFormat::Udmf { namespace: "zdoom".into() };
        let f = read_3d_floors(&map(udmf, [5, 2, 0, 100, 1], "#40"), &mut notes);
        assert_eq!((&f[0].targets[..], f[0].inside, f[0].alpha), (&[0][..], true, 40));
        // Alpha 0 is kept for its light but not drawn; type 4 is not read; Doom-numbered maps
        // have no 160.
        let f = read_3d_floors(&map(MapFormat::Hexen, [5, 1, 0, 0, 0], "-"), &mut notes);
        assert!(f.len() == 1 && !f[0].drawn());
        assert!(
            read_3d_floors(&map(MapFormat::Hexen, [5, 4, 0, 255, 0], "-"), &mut notes).is_empty()
        );
        assert!(
            read_3d_floors(&map(MapFormat::Doom, [5, 1, 0, 255, 0], "-"), &mut notes).is_empty()
        );
    }
}
