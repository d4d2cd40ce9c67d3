//! ZDoom's and GZDoom's sector colours for smooth mode: a table of distinct (light, fade)
//! pairs, and the pair number written into every coloured sector's world vertices and
//! sprites. Apart from the vanilla payload that holds the table because it rewrites what the
//! other steps emitted, after all of them.

use std::collections::BTreeMap;

use glam::Vec3;

use super::Builder;
use crate::formats::doom::specials::sector_colors::{SectorColor, SectorColors};
use crate::scene::{doom::shade, vertex_flags, Sprite, SurfaceKind};

/// ZDoom's sector colours for smooth mode: the table of distinct (light, fade) pairs, and each
/// world vertex of a coloured sector (by its light slot) given its pair's number plus one in
/// shade bytes 2 and 3 (`scene::doom::shade::sector_color`), with a note.
pub(super) fn sector_color_table(
    colors: &SectorColors,
    b: &mut Builder,
    sprites: &mut [Sprite],
) -> Vec<[u32; 2]> {
    if colors.sectors.is_empty() {
        return Vec::new();
    }
    let mut table: Vec<[u32; 2]> = Vec::new();
    let mut number: BTreeMap<[u32; 2], u16> = BTreeMap::new();
    let white = SectorColor::default();
    let mut pair_number = |pair: [u32; 2]| {
        if pair == [white.light, white.fade] {
            return None;
        }
        number.get(&pair).copied().or_else(|| {
            let n = u16::try_from(table.len() + 1).ok()?;
            table.push(pair);
            number.insert(pair, n);
            Some(n)
        })
    };
    for s in sprites.iter_mut() {
        let Some(c) = colors.sectors.get(&b.lights.sector_of(s.light)) else { continue };
        s.tint = pair_number([c.tint(c.sprites), c.fade]).unwrap_or(0);
    }
    for i in 0..b.world.len() / 3 {
        let t = &b.world[3 * i..3 * i + 3];
        let Some(c) = colors.sectors.get(&b.lights.sector_of(t[0].light)) else { continue };
        // Floors face up (viewer y), ceilings down.
        let own = match t[0].flags & vertex_flags::KIND_MASK {
            k if k == SurfaceKind::Flat as u32 => {
                let p = [0, 1, 2].map(|k| Vec3::from(t[k].pos));
                if (p[1] - p[0]).cross(p[2] - p[0]).y > 0.0 {
                    c.floor
                } else {
                    c.ceiling
                }
            }
            k if k == SurfaceKind::Wall as u32 => c.walls,
            _ => white.walls,
        };
        let Some(n) = pair_number([c.tint(own), c.fade]) else { continue };
        let [lo, hi] = shade::sector_color(n);
        for v in &mut b.world[3 * i..3 * i + 3] {
            v.shade[2] = lo;
            v.shade[3] = hi;
        }
    }
    b.notes.push(format!(
        "{} sectors with a ZDoom light or fade colour or GZDoom floor, ceiling or wall colours \
         ({} pairs): smooth mode tints their walls and flats by them and fades them to the \
         fade colour as they darken (GZDoom's software colormaps; its hardware fog density is \
         not modelled), things too; faithful mode draws vanilla's COLORMAP, whose tables have \
         no colour",
        colors.sectors.len(),
        table.len()
    ));
    let gradients = colors.sectors.values().filter(|c| c.wall_gradient).count();
    if gradients > 0 {
        b.notes.push(format!(
            "{gradients} sectors' walls go from color_walltop to color_wallbottom: not drawn \
             (the walls keep the light colour)"
        ));
    }
    table
}
