//! A whole `.LEV` file walked segment by segment to its end.

use crate::formats::{Reader, Result};

use super::level::LevelData;
use super::sky::Sky;
use super::tail::{parse_global_palette, parse_table1, parse_tail, TableData1, Tail};
use super::textures::{parse_textures, LevTexture};
use super::tiles::{choose_layout, LayoutFit, TileLayout, TileRecord};

/// Absolute start of every segment; the ones after the texture list are `None` when the walk
/// could not reach them (see [`LevFile::warnings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SegmentOffsets {
    pub level_data: u64,
    pub table_data_1: u64,
    pub global_palette: u64,
    pub texture_data: u64,
    pub table_data_2: Option<u64>,
    pub embedded_resources: Option<u64>,
    pub visibility: Option<u64>,
    pub eof: u64,
}

#[derive(Clone, Debug)]
pub struct LevFile {
    pub name: String,
    pub sky: Sky,
    pub level: LevelData,
    /// Tile records decoded in the layout the file fits.
    pub tiles: Vec<TileRecord>,
    pub tile_layout: TileLayout,
    /// How both layouts fit (for `info`).
    pub layout_fits: [LayoutFit; 2],
    pub table1: TableData1,
    pub global_palette: Vec<u16>,
    pub textures: Vec<LevTexture>,
    /// Entry count the texture segment claims.
    pub texture_count_claimed: u32,
    pub tail: Option<Tail>,
    pub segments: SegmentOffsets,
    /// Problems in segments the viewer does not need (the level still loads).
    pub warnings: Vec<String>,
}

impl LevFile {
    /// Parses `data`; `name` is the file name used in errors.
    ///
    /// Everything up to and including the texture list is needed to draw the level, so a
    /// problem there is an error (a short texture list keeps its complete entries, with a
    /// warning). Problems after it are warnings.
    pub fn parse(name: &str, data: &[u8]) -> Result<LevFile> {
        let mut r = Reader::new(name, "file", data);
        let sky = Sky::parse(&mut r)?;
        let level_data = r.pos() as u64;
        let level = LevelData::parse(&mut r)?;
        let (tile_layout, layout_fits) =
            choose_layout(&level.tile_records, &level.planes, &level.vertices);
        let tiles = level
            .tile_records
            .iter()
            .map(|t| t.decode(tile_layout, name))
            .collect::<Result<Vec<_>>>()?;

        let table_data_1 = r.pos() as u64;
        let table1 = parse_table1(&mut r)?;
        let global_palette_at = r.pos() as u64;
        let global_palette = parse_global_palette(&mut r)?;
        let texture_data = r.pos() as u64;
        let list = parse_textures(&mut r)?;

        // The walk goes on after a short texture list: it ends where the entries did.
        let mut warnings: Vec<String> = list.problem.into_iter().collect();
        let tail = match parse_tail(&r) {
            Ok(t) => Some(t),
            Err(e) => {
                warnings.push(e.to_string());
                None
            }
        };
        let segments = SegmentOffsets {
            level_data,
            table_data_1,
            global_palette: global_palette_at,
            texture_data,
            table_data_2: tail.as_ref().map(|t| t.table_data_2),
            embedded_resources: tail.as_ref().map(|t| t.embedded_resources),
            visibility: tail.as_ref().map(|t| t.visibility),
            eof: data.len() as u64,
        };
        Ok(LevFile {
            name: name.to_string(),
            sky,
            level,
            tiles,
            tile_layout,
            layout_fits,
            table1,
            global_palette,
            textures: list.textures,
            texture_count_claimed: list.claimed,
            tail,
            segments,
            warnings,
        })
    }
}
