//! What the scene builder makes of Boom's view specials ([`BoomViews`]): the sectors as the
//! static geometry shows them (242's heights seen from between the control planes), the map
//! with the sidedef names that are lumps taken out, the colormaps and translucency tables the
//! renderers read, and each sector's sky surface (MBF 271/272).

use std::collections::{BTreeMap, BTreeSet};

use crate::scene::doom::vanilla::VSky;
use crate::scene::vertex_flags::{SKY_TRANSFERRED, SKY_TRANSFERRED_FLIPPED};

use super::boom_views::{colormap_rows, default_tranmap, BoomViews, Part, Tranmap, TRANMAP_SIZE};
use super::line_styles::{blend_table, InversePalette, LineStyle};
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::map::{line_flags, MapData, Sector};

/// How a sector's F_SKY1 planes (and sky walls) are drawn: the scene texture, the contrast
/// byte the shader reads as the kind of sky ([`SKY_TRANSFERRED`] and its flipped form, 0 for
/// the level's sky) and the texel offsets it reads from the vertices' uv.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkySurface {
    pub texture: u32,
    pub kind: i8,
    pub uv: [f32; 2],
}

impl SkySurface {
    pub fn level(texture: u32) -> SkySurface {
        SkySurface { texture, kind: 0, uv: [0.0, 0.0] }
    }

    /// The sky as the CPU walk draws it.
    pub fn vanilla(&self) -> VSky {
        if self.kind == 0 {
            return VSky::vanilla(self.texture);
        }
        let [x, y] = self.uv.map(|c| c as i32);
        VSky {
            texture: self.texture,
            // The offset in 16.16 units added to a binary angle, as MBF adds it.
            angle: (x as u32).wrapping_shl(16),
            texturemid: (y - 28).wrapping_shl(16),
            flipped: self.kind == SKY_TRANSFERRED_FLIPPED,
        }
    }
}

/// The sky surface of a 271/272 line whose upper texture is scene texture `texture`.
pub fn transferred_sky(texture: u32, x_offset: i16, y_offset: i16, flipped: bool) -> SkySurface {
    SkySurface {
        texture,
        kind: if flipped { SKY_TRANSFERRED_FLIPPED } else { SKY_TRANSFERRED },
        uv: [x_offset as f32, y_offset as f32],
    }
}

/// The sectors with 242's heights as seen from between the control sector's floor and
/// ceiling (R_FakeFlat's default case): the heights the static geometry is built at.
pub fn shown_sectors(map: &MapData, views: &BoomViews) -> Vec<Sector> {
    let mut sectors = map.sectors.clone();
    for (&tagged, &control) in &views.heightsec {
        let Some(c) = map.sectors.get(control as usize).cloned() else { continue };
        if let Some(s) = sectors.get_mut(tagged as usize) {
            s.floor = c.floor;
            s.ceiling = c.ceiling;
        }
    }
    sectors
}

/// `map` with the sidedef names that name lumps (242's colormaps, 260's tables) or colours
/// (ZDoom's `Static_Init`) made "-", as Boom and ZDoom leave those sidedefs no texture;
/// `None` when there are none.
pub fn without_lump_names(map: &MapData, slots: &BTreeSet<(u32, Part)>) -> Option<MapData> {
    if slots.is_empty() {
        return None;
    }
    let mut out = map.clone();
    for &(side, part) in slots {
        let Some(sd) = out.sidedefs.get_mut(side as usize) else { continue };
        let name = match part {
            Part::Upper => &mut sd.upper,
            Part::Middle => &mut sd.middle,
            Part::Lower => &mut sd.lower,
        };
        *name = "-".into();
    }
    Some(out)
}

/// Appends the colormap lumps 242 lines name to `colormaps` (COLORMAP's 34 rows, then 34 a
/// lump) and gives each control sector its regions' colormap numbers (0: COLORMAP).
pub fn region_colormaps(
    views: &BoomViews,
    stack: &WadStack,
    colormaps: &mut Vec<u8>,
    notes: &mut Vec<String>,
) -> BTreeMap<u32, [u32; 3]> {
    let mut numbers = BTreeMap::new();
    let mut out = BTreeMap::new();
    let base = colormaps.get(..34 * 256).unwrap_or(&[]).to_vec();
    for (&control, maps) in &views.region_maps {
        let regions = maps.map(|lump| {
            let Some(lump) = lump else { return 0 };
            *numbers.entry(lump).or_insert_with(|| {
                let data = stack.lump_at(lump);
                match data.as_ref().and_then(|l| colormap_rows(l.data, &base)) {
                    Some(rows) => {
                        colormaps.extend_from_slice(&rows);
                        (colormaps.len() / (34 * 256) - 1) as u32
                    }
                    None => {
                        let name = data.map_or("?".into(), |l| l.name.to_string());
                        notes.push(format!("colormap {name} is under 256 bytes: COLORMAP used"));
                        0
                    }
                }
            })
        });
        out.insert(control, regions);
    }
    out
}

/// The translucency tables the map's 260 lines use (the default first) and each translucent
/// line's table; the default is the WAD's TRANMAP when it is a full table, else Boom's table
/// computed from `palette`.
pub fn tranmaps(
    views: &BoomViews,
    stack: &WadStack,
    palette: &[[u8; 3]],
) -> (Vec<Vec<u8>>, BTreeMap<u32, u32>) {
    if views.translucent.is_empty() {
        return (Vec::new(), BTreeMap::new());
    }
    let default = stack
        .lump("TRANMAP")
        .filter(|l| l.data.len() == TRANMAP_SIZE)
        .map(|l| l.data.to_vec())
        .unwrap_or_else(|| default_tranmap(palette));
    let mut tables = vec![default];
    let mut by_lump = BTreeMap::new();
    let mut of_line = BTreeMap::new();
    for (&line, table) in &views.translucent {
        let index = match table {
            Tranmap::Default => 0,
            Tranmap::Lump(n) => *by_lump.entry(*n).or_insert_with(|| {
                match stack.lump_at(*n).filter(|l| l.data.len() == TRANMAP_SIZE) {
                    Some(l) => {
                        tables.push(l.data.to_vec());
                        tables.len() as u32 - 1
                    }
                    None => 0,
                }
            }),
        };
        of_line.insert(line, index);
    }
    (tables, of_line)
}

/// Adds a translucency table for each alpha level and style ZDoom's line alpha uses (see
/// `line_styles`) to `tables`, and each translucent line's to `of_line` (a Boom 260 table of
/// the same line giving way), with a note saying how each mode draws them.
pub fn line_style_tables(
    map: &MapData,
    styles: &BTreeMap<u32, LineStyle>,
    palette: &[[u8; 3]],
    (tables, of_line): (&mut Vec<Vec<u8>>, &mut BTreeMap<u32, u32>),
    notes: &mut Vec<String>,
) {
    if styles.is_empty() {
        return;
    }
    let inverse = InversePalette::new(palette);
    let mut by_level: BTreeMap<(u32, bool), u32> = BTreeMap::new();
    let (mut blended, mut added, mut hidden, mut one_sided) = (0, 0, 0, 0);
    for (&line, &style) in styles {
        let two_sided = map
            .linedefs
            .get(line as usize)
            .is_some_and(|l| l.has_flag(line_flags::TWO_SIDED) && l.sides[1].is_some());
        if !two_sided {
            one_sided += 1;
            continue;
        }
        if style.alpha == 0 {
            hidden += 1;
            continue;
        }
        if style.additive {
            added += 1;
        } else {
            blended += 1;
        }
        let index = *by_level.entry((style.level(), style.additive)).or_insert_with(|| {
            tables.push(blend_table(palette, &inverse, style));
            tables.len() as u32 - 1
        });
        of_line.insert(line, index);
    }
    if blended + added > 0 {
        notes.push(format!(
            "{blended} translucent and {added} additive middle textures (ZDoom line alpha, \
             render style, TranslucentLine): smooth mode blends by alpha; faithful mode blends \
             through {} tables made as ZDoom's 8-bit renderer does (64 alpha levels, a 15-bit \
             inverse palette), vanilla having no translucency; faithful frames the GPU draws \
             blend by alpha",
            by_level.len()
        ));
    }
    if hidden > 0 {
        notes.push(format!("{hidden} lines with alpha 0: their middle textures are not drawn"));
    }
    if one_sided > 0 {
        notes.push(format!(
            "{one_sided} one-sided lines have an alpha or render style: drawn opaque, as ZDoom \
             draws one-sided walls"
        ));
    }
}
