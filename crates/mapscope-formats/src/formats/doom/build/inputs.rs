//! What the scene is built from, read before anything is drawn: the texture tables by the
//! rules the map calls for, the UDMF properties, Boom's and MBF's specials, ZDoom's sector
//! colours, line styles, 3D floors and polyobjects, and the shading tables. The steps only
//! draw; every note these readers leave comes first, in this order.

use std::collections::BTreeMap;

use super::BuildOptions;
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::graphics::palette::{load_colormap, load_palette};
use crate::formats::doom::graphics::texture_scale;
use crate::formats::doom::graphics::textures::{TextureDirectory, TextureRules};
use crate::formats::doom::map::udmf_props::UdmfProps;
use crate::formats::doom::map::{MapData, MapFormat, Sector};
use crate::formats::doom::specials::boom::BoomEffects;
use crate::formats::doom::specials::boom_build;
use crate::formats::doom::specials::boom_views::BoomViews;
use crate::formats::doom::specials::floors_3d::{read_3d_floors, Floor3d};
use crate::formats::doom::specials::line_styles::{read_line_styles, LineStyle};
use crate::formats::doom::specials::polyobjects::{read_polyobjects, Polyobject};
use crate::formats::doom::specials::sector_colors::{read_sector_colors, SectorColors};
use crate::formats::Result;

use super::level::DoomLevel;

/// The level's readings the builder borrows while it draws.
pub(super) struct LevelInputs {
    pub(super) rules: TextureRules,
    pub(super) texdir: TextureDirectory,
    pub(super) props: UdmfProps,
    pub(super) boom: BoomEffects,
    pub(super) views: BoomViews,
    pub(super) colors: SectorColors,
    /// The map with its sidedef names that are lump names (colormaps, translucency tables,
    /// colours) taken out, where it has any; see [`LevelInputs::map`].
    named: Option<MapData>,
    /// The sectors as the walls and flats show them (Boom 242's heights).
    pub(super) shown: Vec<Sector>,
    pub(super) region_colormaps: BTreeMap<u32, [u32; 3]>,
    pub(super) tranmap_of_line: BTreeMap<u32, u32>,
    pub(super) line_styles: BTreeMap<u32, LineStyle>,
    pub(super) floors_3d: Vec<Floor3d>,
    pub(super) polyobjects: Vec<Polyobject>,
}

/// The tables the scene takes whole at the end, apart from [`LevelInputs`] so that they can
/// move into the scene while the builder still borrows the rest.
pub(super) struct ShadingTables {
    pub(super) palette: Vec<[u8; 3]>,
    /// COLORMAP, then the colormaps Boom's 242 regions use.
    pub(super) colormap: Vec<u8>,
    /// Boom's 260 and ZDoom's alpha translucency tables.
    pub(super) tranmaps: Vec<Vec<u8>>,
}

impl LevelInputs {
    /// Reads `level`'s inputs by `opts`' rules, adding the readers', the files' and the
    /// texture directory's notes to `notes`.
    pub(super) fn read(
        stack: &WadStack,
        level: &DoomLevel,
        opts: &BuildOptions,
        notes: &mut Vec<String>,
    ) -> Result<(LevelInputs, ShadingTables)> {
        let map = &level.map;
        let palette = load_palette(stack)?;
        let mut colormap = load_colormap(stack, notes)?;
        let rules = texture_rules(stack, map, opts);
        let texdir = TextureDirectory::load_with(stack, rules)?;
        let mut props = UdmfProps::read(map.udmf.as_deref(), notes);
        let scaled = texture_scale::fold_texture_scales(&mut props, map, &texdir, stack);
        if scaled > 0 {
            notes.push(format!(
                "TEXTURES scales: {scaled} wall parts and flats drawn at their textures' world \
                 size (XScale/YScale, hires pictures and flats larger than 64x64, as GZDoom)"
            ));
        }
        let boom = BoomEffects::read_with(map, notes, opts.vanilla);
        let views = if opts.vanilla {
            notes.push("vanilla rules (--vanilla): Boom and MBF line specials are ignored".into());
            BoomViews::default()
        } else {
            BoomViews::read(map, stack, notes)
        };
        let colors = read_sector_colors(map);
        // Sidedef names that are colormaps, translucency tables or colours draw nothing.
        let mut name_slots = views.lump_names.clone();
        name_slots.extend(colors.colour_names.iter().copied());
        let named = boom_build::without_lump_names(map, &name_slots);
        let map = named.as_ref().unwrap_or(map);
        // Walls and flats are built at 242's heights as seen from between the control planes.
        let shown = boom_build::shown_sectors(map, &views);
        let region_colormaps = boom_build::region_colormaps(&views, stack, &mut colormap, notes);
        let (mut tranmaps, mut tranmap_of_line) = boom_build::tranmaps(&views, stack, &palette);
        let line_styles = read_line_styles(map, notes);
        let floors_3d = read_3d_floors(map, notes);
        let polyobjects = read_polyobjects(map, notes);
        boom_build::line_style_tables(
            map,
            &line_styles,
            &palette,
            (&mut tranmaps, &mut tranmap_of_line),
            notes,
        );
        for wad in stack.wads() {
            notes.extend(wad.notes().iter().cloned());
        }
        notes.extend(texdir.notes.iter().cloned());
        let inputs = LevelInputs {
            rules,
            texdir,
            props,
            boom,
            views,
            colors,
            named,
            shown,
            region_colormaps,
            tranmap_of_line,
            line_styles,
            floors_3d,
            polyobjects,
        };
        Ok((inputs, ShadingTables { palette, colormap, tranmaps }))
    }

    /// The map as the steps draw it: sidedef names that are colormaps, translucency tables or
    /// colours draw nothing.
    pub(super) fn map<'m>(&'m self, level: &'m DoomLevel) -> &'m MapData {
        self.named.as_ref().unwrap_or(&level.map)
    }
}

/// Vanilla's texture tables only when vanilla's rules were asked for and the map is one
/// vanilla could load (Doom format, no package in the stack); ZDoom's otherwise.
fn texture_rules(stack: &WadStack, map: &MapData, opts: &BuildOptions) -> TextureRules {
    let vanilla_level =
        map.format == MapFormat::Doom && !stack.wads().iter().any(|w| w.is_package());
    if opts.vanilla && vanilla_level {
        TextureRules::Vanilla
    } else {
        TextureRules::ZDoom
    }
}
