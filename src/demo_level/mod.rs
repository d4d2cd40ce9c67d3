//! The demo level: a small Doom-format IWAD generated entirely from the project's own
//! procedural content (palette, colour maps, wall patches and textures, flats, sky, sprites
//! and one map with its node tree). `cargo run --bin make-demo` writes it to `data/demo.wad`,
//! which [`crate::demo`] embeds.
//!
//! - [`palette`]: PLAYPAL and COLORMAP.
//! - [`walls`], [`flats`], [`sky`], [`sprites`]: the pictures, drawn on a [`picture`].
//! - [`layout`]: the map as rectangular cells, edge styles and things.
//! - [`geometry`]: cells to vertices, linedefs, sidedefs and sectors.
//! - [`nodes`]: the exact node builder (one subsector per cell).

pub mod flats;
pub mod geometry;
pub mod layout;
pub mod nodes;
pub mod palette;
pub mod picture;
pub mod sky;
pub mod sprites;
pub mod walls;

use anyhow::{Context, Result};

use crate::formats::doom::archive::writer::{self, TextureSpec, WadWriter};
use crate::formats::doom::map::MapData;
use crate::formats::doom::nodes::{NodeFormat, NodeSet};

/// The map's name (Doom 2 style, so the sky is SKY1).
pub const MAP_NAME: &str = "MAP01";

/// Where `make-demo` writes by default, relative to the repository root.
pub const DEFAULT_OUTPUT: &str = "data/demo.wad";

/// The map records, node tree included.
pub fn map() -> Result<MapData> {
    let cells = layout::cells();
    let g = geometry::build(&cells, &layout::edge_styles())?;
    let bsp = nodes::build(&cells, &g.pieces, &g.vertices, &g.linedefs)?;
    Ok(MapData {
        name: MAP_NAME.into(),
        file: "demo.wad".into(),
        things: layout::things(),
        linedefs: g.linedefs,
        sidedefs: g.sidedefs,
        vertices: g.vertices,
        bsp: NodeSet {
            format: NodeFormat::Vanilla,
            extra_vertices: Vec::new(),
            segs: bsp.segs,
            subsectors: bsp.subsectors,
            nodes: bsp.nodes,
        },
        sectors: g.sectors,
        ..Default::default()
    })
}

/// The whole IWAD.
pub fn wad() -> Result<WadWriter> {
    let mut w = WadWriter::iwad();
    let pal = palette::palette();
    w.lump("PLAYPAL", writer::playpal_lump(&pal, 14));
    w.lump("COLORMAP", palette::colormap(&pal));
    w.map(MAP_NAME, &map().context("building the demo map")?);

    let patches = walls::patches();
    let names: Vec<&str> = patches.iter().map(|p| p.name).collect();
    let defs = walls::textures();
    let placements: Vec<Vec<(i16, i16, i16)>> = defs
        .iter()
        .map(|d| {
            d.patches
                .iter()
                .map(|&(x, y, p)| {
                    let i = names.iter().position(|&n| n == p).context(p)?;
                    Ok((x, y, i as i16))
                })
                .collect::<Result<_>>()
        })
        .collect::<Result<_>>()?;
    let specs: Vec<TextureSpec> = defs
        .iter()
        .zip(&placements)
        .map(|(d, p)| TextureSpec { name: d.name, width: d.width, height: d.height, patches: p })
        .collect();
    w.lump("TEXTURE1", writer::texture_lump(&specs));
    w.lump("PNAMES", writer::pnames_lump(&names));

    w.marker("P_START");
    for p in &patches {
        w.lump(p.name, picture(&p.picture, 0, 0));
    }
    w.marker("P_END");

    w.marker("S_START");
    for s in sprites::sprites() {
        let (cw, ch) = (s.picture.width as i16, s.picture.height as i16);
        w.lump(s.name, picture(&s.picture, cw / 2, ch));
    }
    w.marker("S_END");

    w.marker("F_START");
    for (name, data) in flats::flats() {
        w.lump(name, data);
    }
    w.marker("F_END");
    Ok(w)
}

/// The IWAD's bytes, exactly as `make-demo` writes them.
pub fn wad_bytes() -> Result<Vec<u8>> {
    Ok(wad()?.to_bytes())
}

fn picture(cv: &picture::Picture, left: i16, top: i16) -> Vec<u8> {
    writer::patch_lump(cv.width as u16, cv.height as u16, left, top, &cv.px)
}
