//! Sector light colour and fade colour as ZDoom gives them: UDMF sector keys `lightcolor` and
//! `fadecolor` (0xRRGGBB integers), and `Static_Init` (190) lines with `Init_Color` (its
//! second argument 1) in Hexen-format maps and Hexen-numbered UDMF, whose first sidedef's
//! upper texture name is the light colour and lower name the fade colour, as hexadecimal,
//! for every sector tagged `arg0`.
//!
//! Facts relied on (GZDoom `maploader/udmf.cpp` ParseSector, `maploader.cpp`
//! ProcessSideTextures and SetTextureNoErr; the ZDoom wiki's UDMF and Static_Init pages):
//! - Defaults are white light and black fade, which draw as a sector without colour.
//! - A `Static_Init` colour name is a hexadecimal number of 2 to 6 digits in the 8-character
//!   name; the slot then shows no texture. A name that is not such a number leaves the colour
//!   as it was.
//! - GZDoom's software renderer builds a colormap per (light, fade) pair that moves each
//!   colour from `colour * light / 255` at full brightness to the fade colour at darkness:
//!   that is what mapscope's smooth mode draws (`shaders/doom.wgsl`). Its hardware renderer
//!   draws a non-black fade as exponential distance fog instead; the smooth shader's light is
//!   vanilla's diminishing, so the fade follows that, not GZDoom's fog density.
//! - GZDoom's hardware renderer multiplies a surface's texels by its sector's "special
//!   colour" (UDMF `color_floor`, `color_ceiling`; on walls `color_walltop` at the ceiling
//!   going to `color_wallbottom` at the floor; white where unset), before the light colour
//!   (`hw_flats.cpp`/`hw_walls.cpp` SetObjectColor), and sprites by `color_sprites`: drawn here
//!   in smooth mode as part of the tint, a wall's only where its two colours are one (a
//!   gradient needs a colour a vertex). Things take their sector's colours as walls do.

use std::collections::BTreeMap;

use super::boom_views::Part;
use crate::formats::doom::map::udmf::UdmfValue;
use crate::formats::doom::map::{MapData, MapFormat};

/// Hexen/ZDoom `Static_Init` and its `Init_Color` property.
pub const STATIC_INIT: u16 = 190;
const INIT_COLOR: i32 = 1;

/// UDMF sector keys read here (taken out of the "not drawn" note).
pub const DRAWN_SECTOR_KEYS: [&str; 7] = [
    "lightcolor",
    "fadecolor",
    "color_floor",
    "color_ceiling",
    "color_walltop",
    "color_wallbottom",
    "color_sprites",
];

/// A sector's colours, 0xRRGGBB: light and fade, and the surfaces' own (white: none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectorColor {
    pub light: u32,
    pub fade: u32,
    pub floor: u32,
    pub ceiling: u32,
    pub sprites: u32,
    /// The walls' colour where top and bottom are one; white (not drawn) for a gradient.
    pub walls: u32,
    /// The walls' colours differ from top to bottom (not drawn).
    pub wall_gradient: bool,
}

impl Default for SectorColor {
    fn default() -> Self {
        let white = 0xFF_FFFF;
        SectorColor {
            light: white,
            fade: 0,
            floor: white,
            ceiling: white,
            sprites: white,
            walls: white,
            wall_gradient: false,
        }
    }
}

impl SectorColor {
    /// The tint of a surface of colour `own` (a channel-wise product with the light colour).
    pub fn tint(&self, own: u32) -> u32 {
        (0..3).fold(0, |rgb, k| {
            let (a, b) = ((self.light >> (8 * k)) & 255, (own >> (8 * k)) & 255);
            rgb | ((a * b + 127) / 255) << (8 * k)
        })
    }
}

/// The colours of the sectors that are not white and black, and the sidedef slots that hold a
/// colour rather than a texture name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SectorColors {
    pub sectors: BTreeMap<u32, SectorColor>,
    pub colour_names: Vec<(u32, Part)>,
}

/// A `Static_Init` colour name: 2 to 6 hexadecimal digits.
fn hex_colour(name: &str) -> Option<u32> {
    let n = name.len();
    if !(2..=6).contains(&n) || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(name, 16).ok()
}

pub fn read_sector_colors(map: &MapData) -> SectorColors {
    let mut colors: Vec<SectorColor> = vec![SectorColor::default(); map.sectors.len()];
    let mut colour_names = Vec::new();
    let zdoom_keys = matches!(&map.format, MapFormat::Udmf { namespace }
        if matches!(namespace.as_str(), "zdoom" | "gzdoom" | "zdoomtranslated" | "vavoom"));
    if let (Some(extra), true) = (map.udmf.as_deref(), zdoom_keys) {
        for (c, fields) in colors.iter_mut().zip(&extra.sectors) {
            let get = |key: &str| {
                fields.iter().rev().find(|(k, _)| k == key).and_then(|(_, v)| UdmfValue::as_int(v))
            };
            if let Some(v) = get("lightcolor") {
                c.light = (v as u32) & 0xFF_FFFF;
            }
            if let Some(v) = get("fadecolor") {
                c.fade = (v as u32) & 0xFF_FFFF;
            }
            let colour = |key: &str| get(key).map_or(0xFF_FFFF, |v| (v as u32) & 0xFF_FFFF);
            (c.floor, c.ceiling) = (colour("color_floor"), colour("color_ceiling"));
            c.sprites = colour("color_sprites");
            let (top, bottom) = (colour("color_walltop"), colour("color_wallbottom"));
            c.wall_gradient = top != bottom;
            c.walls = if c.wall_gradient { 0xFF_FFFF } else { top };
        }
    }
    if !map.doom_specials() {
        for line in &map.linedefs {
            if line.special != STATIC_INIT || line.args[1] != INIT_COLOR {
                continue;
            }
            let Some((side, sd)) =
                line.sides[0].and_then(|s| Some((s, map.sidedefs.get(s as usize)?)))
            else {
                continue;
            };
            let light = hex_colour(&sd.upper);
            let fade = hex_colour(&sd.lower);
            if light.is_some() {
                colour_names.push((side, Part::Upper));
            }
            if fade.is_some() {
                colour_names.push((side, Part::Lower));
            }
            let tag = line.args[0];
            for (c, s) in colors.iter_mut().zip(&map.sectors) {
                if s.tag as i32 == tag {
                    c.light = light.unwrap_or(c.light);
                    c.fade = fade.unwrap_or(c.fade);
                }
            }
        }
    }
    let sectors = colors
        .into_iter()
        .enumerate()
        .filter(|(_, c)| *c != SectorColor::default())
        .map(|(i, c)| (i as u32, c))
        .collect();
    SectorColors { sectors, colour_names }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::{Linedef, Sector, Sidedef, UdmfExtra};

    #[test]
    fn udmf_keys_in_zdoom_namespaces_only() {
        let field = |k: &str, v: i64| (k.to_string(), UdmfValue::Int(v));
        let extra = UdmfExtra {
            sectors: vec![
                vec![field("lightcolor", 0xFF8000)],
                vec![field("fadecolor", 0x102030)],
                vec![field("lightcolor", 0xFFFFFF)],
            ],
            ..Default::default()
        };
        let mut map = MapData {
            format: MapFormat::Udmf { namespace: "zdoom".into() },
            sectors: vec![Sector::default(); 3],
            udmf: Some(Box::new(extra)),
            ..Default::default()
        };
        let c = read_sector_colors(&map);
        assert_eq!(
            c.sectors,
            BTreeMap::from([
                (0, SectorColor { light: 0xFF8000, fade: 0, ..SectorColor::default() }),
                (1, SectorColor { light: 0xFFFFFF, fade: 0x102030, ..SectorColor::default() }),
            ])
        );
        map.format = MapFormat::Udmf { namespace: "doom".into() };
        assert!(read_sector_colors(&map).sectors.is_empty());
    }

    #[test]
    fn static_init_colours_tagged_sectors_from_the_sidedef_names() {
        let side = |upper: &str, lower: &str| Sidedef {
            upper: upper.into(),
            lower: lower.into(),
            middle: "-".into(),
            ..Default::default()
        };
        let line = |side: u32, tag: i32, what: i32| Linedef {
            special: STATIC_INIT,
            args: [tag, what, 0, 0, 0],
            sides: [Some(side), None],
            ..Default::default()
        };
        let sector = |tag: u16| Sector { tag, ..Default::default() };
        let map = MapData {
            format: MapFormat::Hexen,
            sidedefs: vec![
                side("FF0000", "0000FF"),
                side("STARTAN3", "00FF00"),
                side("00FFFF", "-"),
            ],
            // Line 2's Init_Gravity (0) is no colour.
            linedefs: vec![line(0, 3, 1), line(1, 4, 1), line(2, 4, 0)],
            sectors: vec![sector(3), sector(4), sector(0)],
            ..Default::default()
        };
        let c = read_sector_colors(&map);
        assert_eq!(
            c.sectors,
            BTreeMap::from([
                (0, SectorColor { light: 0xFF0000, fade: 0x0000FF, ..SectorColor::default() }),
                (1, SectorColor { light: 0xFFFFFF, fade: 0x00FF00, ..SectorColor::default() }),
            ])
        );
        assert_eq!(c.colour_names, vec![(0, Part::Upper), (0, Part::Lower), (1, Part::Lower)]);
        assert_eq!(hex_colour("F"), None);
        assert_eq!(hex_colour("1234567"), None);
        assert_eq!(hex_colour("abcdef"), Some(0xABCDEF));
    }
}
