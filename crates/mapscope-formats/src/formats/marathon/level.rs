//! One level of a scenario wad: its chunks read into map structures, plus what the engine
//! derives at load time (side ownership from the lines, Marathon 1 side lights, platform
//! initial heights, liquid heights, light intensities at tick 0).

use super::lights::{self, LightSim, OldLight, StaticLight};
use super::map::{
    self, Annotation, Line, MapInfo, MapObject, Media, Platform, Point, Polygon, Side,
};
use super::map::{SideType, NONE};
use super::panels::NO_TEXTURE;
use super::platforms;
use super::wad::{self, Chunk, Wad, DATA_VERSION_M1};
use super::walk::PlayerPhysics;
use super::WORLD_ONE;
use crate::formats::{Reader, Result};

/// Most vertices a polygon may have.
pub const MAX_VERTICES: usize = 8;

#[derive(Clone, Debug)]
pub struct Level {
    pub index: usize,
    pub name: String,
    pub data_version: u16,
    pub chunk_tags: Vec<String>,
    pub info: Option<MapInfo>,
    pub endpoints: Vec<Point>,
    pub lines: Vec<Line>,
    pub sides: Vec<Side>,
    pub polygons: Vec<Polygon>,
    pub lights: Vec<StaticLight>,
    /// Marathon 1 light records as stored (converted into `lights`).
    pub old_lights: Vec<OldLight>,
    pub objects: Vec<MapObject>,
    pub annotations: Vec<Annotation>,
    pub platforms: Vec<Platform>,
    pub media: Vec<Media>,
    /// (polygon, line) owning each side, from the lines that name it.
    pub side_owners: Vec<Option<(usize, usize)>>,
    /// Primary, secondary, transparent light per side (guessed for Marathon 1).
    pub side_lights: Vec<[i16; 3]>,
    /// Floor and ceiling heights after platform initialisation.
    pub floor: Vec<i16>,
    pub ceiling: Vec<i16>,
    /// Polygons with a usable vertex ring (indices checked).
    pub polygon_ok: Vec<bool>,
    /// The player's running physics from the level's `PHys` chunk (Marathon 2 and Infinity
    /// maps may carry the scenario's physics); None: the engine's own.
    pub physics: Option<PlayerPhysics>,
    /// Problems skipped while loading.
    pub notes: Vec<String>,
}

/// Level names of every entry, cheaply (only the name chunks are read); unreadable entries
/// get a placeholder so the list keeps its numbering.
pub fn level_names(wad: &Wad) -> Vec<String> {
    (0..wad.entries.len())
        .map(|i| {
            let chunks = wad.chunks(i).unwrap_or_default();
            name_of(&chunks, wad.file, wad.entries[i].app_name.as_deref())
                .unwrap_or_else(|| format!("Level {i}"))
        })
        .collect()
}

fn name_of(chunks: &[Chunk], file: &str, app_name: Option<&str>) -> Option<String> {
    if let Some(c) = wad::find(chunks, b"Minf") {
        let mut r = Reader::with_base(file, "Minf", c.data, c.offset as u64);
        if let Ok(info) = map::map_info(&mut r) {
            return Some(info.name);
        }
    }
    if let Some(c) = wad::find(chunks, b"NAME") {
        return Some(wad::c_string(c.data));
    }
    app_name.map(str::to_string)
}

fn required<'c, 'a>(
    wad: &Wad,
    chunks: &'c [Chunk<'a>],
    tag: &[u8; 4],
    index: usize,
) -> Result<&'c Chunk<'a>> {
    wad::find(chunks, tag).ok_or_else(|| {
        let entry = &wad.entries[index];
        Reader::with_base(wad.file, "map entry", &[], (wad.fork.offset + entry.offset) as u64)
            .error_at(0, format!("level {index} has no '{}' chunk", wad::tag_text(*tag)))
    })
}

impl Level {
    pub fn load(wad: &Wad, index: usize) -> Result<Level> {
        let file = wad.file;
        let data_version = wad.header.data_version;
        let chunks = wad.chunks(index)?;
        let mut notes = Vec::new();
        let name = name_of(&chunks, file, wad.entries[index].app_name.as_deref())
            .unwrap_or_else(|| format!("Level {index}"));
        let info = match wad::find(&chunks, b"Minf") {
            Some(c) => {
                let mut r = Reader::with_base(file, "Minf", c.data, c.offset as u64);
                Some(map::map_info(&mut r)?)
            }
            None => None,
        };

        let endpoints = match wad::find(&chunks, b"PNTS") {
            Some(c) => map::records(file, "PNTS endpoint", c, 4, map::point)?,
            None => {
                let c = required(wad, &chunks, b"EPNT", index)?;
                map::records(file, "EPNT endpoint", c, 16, map::endpoint_record)?
            }
        };
        let lines = map::records(
            file,
            "LINS line",
            required(wad, &chunks, b"LINS", index)?,
            map::LINE_SIZE,
            map::line,
        )?;
        let mut sides = match wad::find(&chunks, b"SIDS") {
            Some(c) => map::records(file, "SIDS side", c, map::SIDE_SIZE, map::side)?,
            None => Vec::new(),
        };
        if data_version == DATA_VERSION_M1 {
            // Marathon 1 has no transparent side textures and no ambient delta: its files hold
            // zeros (or leftovers) there, and texture 0x0000 would be drawn as a panel across
            // every opening. The engine clears both when it loads a Marathon 1 side.
            for s in &mut sides {
                s.transparent.texture = NO_TEXTURE;
                s.ambient_delta = 0;
            }
        }
        let mut polygons = map::records(
            file,
            "POLY polygon",
            required(wad, &chunks, b"POLY", index)?,
            map::POLYGON_SIZE,
            map::polygon,
        )?;
        if data_version == DATA_VERSION_M1 {
            // Marathon 1 polygons end at byte 108: the media fields read zero but mean none,
            // and the texture origins (bytes 108..115) do not exist either.
            for p in &mut polygons {
                p.media = NONE;
                p.floor_origin = Point { x: 0, y: 0 };
                p.ceiling_origin = Point { x: 0, y: 0 };
            }
        }

        let (lights, old_lights) = load_lights(file, &chunks, data_version, &mut notes)?;
        let objects = optional(file, &chunks, b"OBJS", "OBJS object", 16, map::map_object)?;
        let annotations = optional(file, &chunks, b"NOTE", "NOTE annotation", 72, map::annotation)?;
        let platforms = optional(file, &chunks, b"plat", "plat platform", 32, map::platform)?;
        let media = if data_version == DATA_VERSION_M1 {
            Vec::new()
        } else {
            optional(file, &chunks, b"medi", "medi media", 32, map::media)?
        };

        let physics = wad::find(&chunks, b"PHys").and_then(|c| {
            let physics = PlayerPhysics::from_chunk(c.data);
            if physics.is_none() {
                notes.push(format!(
                    "PHys chunk of {} bytes at offset {} holds no running model; walking uses \
                     the engine's physics",
                    c.data.len(),
                    c.offset
                ));
            }
            physics
        });
        let mut level = Level {
            physics,
            index,
            name,
            data_version,
            chunk_tags: chunks.iter().map(|c| c.tag_text()).collect(),
            info,
            floor: polygons.iter().map(|p| p.floor_height).collect(),
            ceiling: polygons.iter().map(|p| p.ceiling_height).collect(),
            polygon_ok: Vec::new(),
            side_owners: Vec::new(),
            side_lights: Vec::new(),
            endpoints,
            lines,
            sides,
            polygons,
            lights,
            old_lights,
            objects,
            annotations,
            platforms,
            media,
            notes,
        };
        level.check_polygons();
        let running_only =
            wad::find(&chunks, b"plat").is_none() && wad::find(&chunks, b"PLAT").is_some();
        level.initialise_platforms(running_only);
        // After the platforms, as the engine guesses Marathon 1 side lights once they stand.
        level.assign_sides();
        Ok(level)
    }

    fn check_polygons(&mut self) {
        let endpoints = self.endpoints.len();
        for (i, l) in self.lines.iter().enumerate() {
            if l.endpoints.iter().any(|&e| e < 0 || e as usize >= endpoints) {
                self.notes.push(format!(
                    "line {i}: endpoints {:?} out of range ({endpoints} endpoints); not drawn",
                    l.endpoints
                ));
            }
        }
        self.polygon_ok = self
            .polygons
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let n = p.vertex_count as usize;
                let ok = (3..=MAX_VERTICES).contains(&n)
                    && p.endpoints[..n].iter().all(|&e| e >= 0 && (e as usize) < endpoints);
                if !ok {
                    self.notes.push(format!(
                        "polygon {i}: {} vertices or an endpoint index out of range; not drawn",
                        p.vertex_count
                    ));
                }
                ok
            })
            .collect();
    }

    /// Side ownership comes from the lines (real Marathon 1 sides carry stale polygon
    /// indices); Marathon 1 side lights are guessed from the polygon as the engine does.
    fn assign_sides(&mut self) {
        let mut owners = vec![None; self.sides.len()];
        for (li, l) in self.lines.iter().enumerate() {
            for (side, poly) in [
                (l.clockwise_side, l.clockwise_polygon),
                (l.counterclockwise_side, l.counterclockwise_polygon),
            ] {
                let (Ok(s), Ok(p)) = (usize::try_from(side), usize::try_from(poly)) else {
                    continue;
                };
                if s < owners.len() && p < self.polygons.len() {
                    owners[s] = Some((p, li));
                } else if side != NONE {
                    self.notes.push(format!("line {li}: side {side} or polygon {poly} missing"));
                }
            }
        }
        self.side_lights = self
            .sides
            .iter()
            .zip(&owners)
            .map(|(s, owner)| match (self.data_version, owner) {
                (DATA_VERSION_M1, Some((p, l))) => self.guess_side_lights(s, *p, *l),
                _ => s.lights,
            })
            .collect();
        self.side_owners = owners;
    }

    fn guess_side_lights(&self, side: &Side, polygon: usize, line: usize) -> [i16; 3] {
        let p = &self.polygons[polygon];
        let l = &self.lines[line];
        let mut lights = side.lights;
        match SideType::from_u16(side.kind) {
            Some(SideType::Low) => lights[0] = p.floor_light,
            Some(SideType::Split) => {
                lights[0] = p.ceiling_light;
                // The engine works the opening out from the line's polygons as they stand
                // (`recalculate_redundant_line_data`), not from the heights the file keeps.
                let standing: Vec<usize> = [l.clockwise_polygon, l.counterclockwise_polygon]
                    .iter()
                    .filter_map(|&q| usize::try_from(q).ok().filter(|&q| q < self.polygons.len()))
                    .collect();
                let highest_floor = standing.iter().map(|&q| self.floor[q]).max().unwrap_or(0);
                let lowest_ceiling = standing.iter().map(|&q| self.ceiling[q]).min().unwrap_or(0);
                let opening = lowest_ceiling as i32 - highest_floor as i32;
                lights[1] = if opening > WORLD_ONE { p.floor_light } else { p.ceiling_light };
            }
            _ => lights[0] = p.ceiling_light,
        }
        lights[2] = p.ceiling_light;
        lights
    }

    /// Moves platform polygons to their initial state ([`platforms`]). A level that keeps
    /// only the engine's running platform records (`PLAT`, as Marathon 1 levels do) is
    /// restored from them by the engine: its polygons already stand as those records say.
    fn initialise_platforms(&mut self, running_records_only: bool) {
        for (k, p) in self.platforms.iter().enumerate() {
            let on_platform = usize::try_from(p.polygon)
                .ok()
                .and_then(|i| self.polygons.get(i))
                .map(|poly| poly.kind == platforms::POLYGON_IS_PLATFORM);
            match on_platform {
                None => self.notes.push(format!("platform {k}: polygon {} missing", p.polygon)),
                Some(false) => self.notes.push(format!(
                    "platform {k}: polygon {} is not a platform polygon; ignored, as the engine \
                     ignores it",
                    p.polygon
                )),
                Some(true) => {}
            }
        }
        if running_records_only {
            return;
        }
        // Each polygon's first record, found in one pass (a crafted file may hold tens of
        // thousands of both).
        let mut first_record = vec![None; self.polygons.len()];
        for (k, p) in self.platforms.iter().enumerate() {
            if let Some(slot) =
                usize::try_from(p.polygon).ok().and_then(|i| first_record.get_mut(i))
            {
                slot.get_or_insert(k);
            }
        }
        for (i, first) in first_record.into_iter().enumerate() {
            if self.polygons[i].kind != platforms::POLYGON_IS_PLATFORM {
                continue;
            }
            let record = first
                .and_then(|k| self.platforms.get(k))
                .copied()
                .unwrap_or_else(|| platforms::split_door(i as i16));
            let neighbours: Vec<(i16, i16)> =
                self.neighbours(i).into_iter().map(|n| (self.floor[n], self.ceiling[n])).collect();
            (self.floor[i], self.ceiling[i]) =
                platforms::initial_heights(&record, (self.floor[i], self.ceiling[i]), neighbours);
        }
    }

    /// The polygons across polygon `p`'s lines (the engine's adjacent polygons).
    fn neighbours(&self, p: usize) -> Vec<usize> {
        let poly = &self.polygons[p];
        let n = (poly.vertex_count as usize).min(poly.lines.len());
        poly.lines[..n]
            .iter()
            .filter_map(|&l| usize::try_from(l).ok().and_then(|l| self.lines.get(l)))
            .filter_map(|l| {
                let other = if usize::try_from(l.clockwise_polygon) == Ok(p) {
                    l.counterclockwise_polygon
                } else {
                    l.clockwise_polygon
                };
                usize::try_from(other).ok().filter(|&o| o < self.polygons.len() && o != p)
            })
            .collect()
    }

    /// Light state at tick 0.
    pub fn light_sim(&self) -> LightSim {
        LightSim::new(&self.lights)
    }

    /// Liquid surface height: low + (high - low) * intensity of its control light.
    pub fn media_height(&self, m: &Media, sim: &LightSim) -> i16 {
        let i = sim.intensity(m.light) as i64;
        (m.low as i64 + (((m.high as i64 - m.low as i64) * i) >> 16)) as i16
    }

    /// The media of polygon `p`, if it has one the level defines.
    pub fn polygon_media(&self, p: usize) -> Option<&Media> {
        let m = self.polygons.get(p)?.media;
        usize::try_from(m).ok().and_then(|m| self.media.get(m))
    }

    /// Endpoint positions of a checked polygon, in its stored (clockwise) order.
    pub fn polygon_vertices(&self, p: usize) -> Option<Vec<Point>> {
        if !*self.polygon_ok.get(p)? {
            return None;
        }
        let poly = &self.polygons[p];
        Some(
            poly.endpoints[..poly.vertex_count as usize]
                .iter()
                .map(|&e| self.endpoints[e as usize])
                .collect(),
        )
    }

    pub fn endpoint(&self, i: i16) -> Option<Point> {
        usize::try_from(i).ok().and_then(|i| self.endpoints.get(i)).copied()
    }
}

fn optional<'a, T>(
    file: &'a str,
    chunks: &[Chunk<'a>],
    tag: &[u8; 4],
    structure: &'a str,
    size: usize,
    parse: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    match wad::find(chunks, tag) {
        Some(c) => map::records(file, structure, c, size, parse),
        None => Ok(Vec::new()),
    }
}

/// Lights; a chunk with a partial record at its end keeps its whole records (with a note).
fn load_lights<'a>(
    file: &'a str,
    chunks: &[Chunk<'a>],
    data_version: u16,
    notes: &mut Vec<String>,
) -> Result<(Vec<StaticLight>, Vec<OldLight>)> {
    let Some(c) = wad::find(chunks, b"LITE") else {
        return Ok((Vec::new(), Vec::new()));
    };
    let size =
        if data_version == DATA_VERSION_M1 { lights::OLD_LIGHT_SIZE } else { lights::LIGHT_SIZE };
    let whole = c.data.len() / size * size;
    if whole != c.data.len() {
        notes.push(format!(
            "LITE chunk of {} bytes at offset {}: {} trailing bytes ignored",
            c.data.len(),
            c.offset,
            c.data.len() - whole
        ));
    }
    let c = Chunk { tag: c.tag, offset: c.offset, data: &c.data[..whole] };
    if data_version == DATA_VERSION_M1 {
        let old = map::records(file, "LITE old light", &c, size, lights::old_light)?;
        Ok((old.iter().map(OldLight::to_static).collect(), old))
    } else {
        Ok((map::records(file, "LITE light", &c, size, lights::static_light)?, Vec::new()))
    }
}
