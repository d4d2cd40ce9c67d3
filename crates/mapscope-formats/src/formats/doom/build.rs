//! Builds the neutral [`Scene`] of a Doom map: walls from SEGS with vanilla texture pegging
//! (`r_segs.c`), floors and ceilings from subsector polygons, sprites for the things that
//! spawn at level start, the spawn camera, textures, and the animator.
//!
//! Winding: every triangle is counter-clockwise seen from the side it faces (walls face their
//! seg's front, floors face up, ceilings face down), so back-face culling is vanilla-faithful
//! (vanilla never draws a seg from behind).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use glam::{DVec2, DVec3, Vec3};

use crate::formats::Result;
use crate::scene::vanilla_doom::{FlatXform, VThing};
use crate::scene::{
    doom_shade, thing_frame_word, vertex_flags, Axes, CameraPose, ClearColor, Game, LevelFacts,
    Marker, Parts, Scene, Shading, Sky, Sprite, SpriteView, SurfaceKind, Texels, Texture,
    VanillaSeg, VanillaTier, WorldVertex,
};

use super::animation::{active_anims, AnimatedThing, DerivedLight, DoomAnimator, SceneCycle};
use super::boom::{BoomEffects, Velocity};
use super::boom_build::{self, SkySurface};
use super::boom_views::BoomViews;
use super::bsp::{point_in_subsector, SubsectorPolygons};
use super::flats::{fit_flat, flat_texture, FlatTexture, SKY_FLAT};
use super::floors_3d::read_3d_floors;
use super::lights::{LightSim, PRandom};
use super::line_styles::{read_line_styles, LineStyle};
use super::map::{line_flags, MapData, MapFormat, Sector};
use super::palette::{load_colormap, load_palette};
use super::picture::Picture;
use super::polyobjects::read_polyobjects;
use super::sector_colors::{read_sector_colors, SectorColor, SectorColors};
use super::slopes::{SectorSlopes, CEILING, FLOOR};
use super::sprite_memory::SpriteMemory;
use super::sprites::{SpriteDirectory, SpriteFrame, SpritePicture};
use super::texture_memory::scene_texture_memory;
use super::texture_scale;
use super::textures::{placeholder, PatchCache, TextureDirectory, TextureRules};
use super::things::{
    removed_by_nomonsters, spawn_angle_degrees, spawn_decision, spawn_player, spawn_thing, Spawn,
    DEFAULT_SKILL,
};
use super::udmf_props::{FlatPlacement, LightRule, PartTexture, UdmfProps, BOTTOM, MID, TOP};
use super::wad::{LumpNum, WadStack};

mod light_bands;
mod polyobjects;
mod skies;
mod slabs;

use light_bands::LightBands;

/// Eye height above the floor (`VIEWHEIGHT`).
pub const VIEW_HEIGHT: f64 = 41.0;

/// Most texels one scene decodes (wall textures and sprites; Freedoom maps use under 10M).
/// Every single picture is capped too, but a hostile WAD could name thousands of huge ones.
pub const SCENE_TEXEL_BUDGET: usize = 1 << 27;

/// Linedef special: the front sidedef scrolls one texel per tic.
pub const SCROLL_SPECIAL: u16 = super::boom::SCROLL_LEFT;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Skill 1..5 deciding which things spawn.
    pub skill: u8,
    /// `-nomonsters`: monsters and lost souls are not spawned (as Chocolate Doom's reference
    /// frames are taken).
    pub no_monsters: bool,
    /// Vanilla's rules, as Chocolate Doom draws: Boom's and MBF's line specials (213/261
    /// light transfers, scrollers, 242 fake flats, 260 translucency, 271/272 skies) are
    /// ignored, and a Doom-format map outside packages reads its texture tables as vanilla
    /// does (the stack's last TEXTURE1/TEXTURE2, not every file's as ZDoom), so a map a Boom
    /// or ZDoom port shows differently looks as the original engine shows it.
    pub vanilla: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { skill: DEFAULT_SKILL, no_monsters: false, vanilla: false }
    }
}

/// Where the player starts, in map coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerStart {
    pub x: f64,
    pub y: f64,
    /// Floor height of the sector under the start.
    pub floor: f64,
    /// Facing in degrees as the game uses it (snapped down to 45, 0 = east, CCW).
    pub angle: f64,
    pub sector: Option<usize>,
}

impl PlayerStart {
    /// Eye position in map coordinates (x, y, z up).
    pub fn eye(&self) -> DVec3 {
        DVec3::new(self.x, self.y, self.floor + VIEW_HEIGHT)
    }
}

/// A parsed map with its geometry, for `info` and for building the scene.
#[derive(Clone, Debug)]
pub struct DoomLevel {
    pub map: MapData,
    pub polygons: SubsectorPolygons,
    /// Player 1 start (the last one in THINGS, whose mobj the player gets in vanilla).
    pub player_start: Option<PlayerStart>,
    /// Sloped floors and ceilings (ZDoom's; none in a vanilla map).
    pub slopes: SectorSlopes,
}

impl DoomLevel {
    pub fn load(stack: &WadStack, name: &str) -> Result<DoomLevel> {
        let mut map = MapData::load(stack, name)?;
        let polygons = SubsectorPolygons::compute(&map);
        let mut notes = Vec::new();
        let slopes = SectorSlopes::read(&map, &mut notes);
        map.notes.extend(notes);
        // The player stands on the slope under the start.
        let player_start = player_start(&map).map(|mut p| {
            if let Some(s) = p.sector {
                p.floor = slopes.height(s, FLOOR, p.floor, DVec2::new(p.x, p.y));
            }
            p
        });
        Ok(DoomLevel { map, polygons, player_start, slopes })
    }

    /// Native bounds: (min, max) of x, y over vertices and z over sector floors/ceilings
    /// (sloped ones at their lines' ends).
    pub fn bounds(&self) -> ([f64; 3], [f64; 3]) {
        let b = self.map.bounds();
        let zmin = self.map.sectors.iter().map(|s| s.floor).min().unwrap_or(0) as f64;
        let zmax = self.map.sectors.iter().map(|s| s.ceiling).max().unwrap_or(0) as f64;
        let (mut zmin, mut zmax) = (zmin, zmax);
        for ld in &self.map.linedefs {
            for s in [0, 1].into_iter().filter_map(|side| self.map.line_sector(ld, side)) {
                for v in [ld.v1, ld.v2].into_iter().filter_map(|v| self.map.vertex(v)) {
                    let p = v.to_dvec2();
                    if let Some(f) = self.slopes.plane(s, FLOOR) {
                        zmin = zmin.min(f.z_at(p.x, p.y));
                    }
                    if let Some(c) = self.slopes.plane(s, CEILING) {
                        zmax = zmax.max(c.z_at(p.x, p.y));
                    }
                }
            }
        }
        ([b[0] as f64, b[1] as f64, zmin], [b[2] as f64, b[3] as f64, zmax])
    }

    /// The sector under map point (x, y).
    pub fn sector_at(&self, x: f64, y: f64) -> Option<usize> {
        self.map.subsector_sector(point_in_subsector(&self.map, x, y))
    }

    /// Sky texture name vanilla picks for this map.
    pub fn sky_texture_name(&self) -> &'static str {
        sky_texture_name(&self.map.name)
    }
}

/// A 16.16 value in map units.
fn fixed_units(v: i32) -> f64 {
    v as f64 / 65536.0
}

/// Player 1's start: the last type-1 thing (vanilla spawns a player for each and the last one
/// is the one the player controls), on the floor of the sector under it.
pub fn player_start(map: &MapData) -> Option<PlayerStart> {
    map.things.iter().rev().find(|t| t.kind == 1).map(|t| {
        let (x, y) = (fixed_units(t.x), fixed_units(t.y));
        let sector = map.subsector_sector(point_in_subsector(map, x, y));
        let floor = sector.map(|s| map.sectors[s].floor as f64).unwrap_or(0.0);
        PlayerStart { x, y, floor, angle: spawn_angle_degrees(t.angle), sector }
    })
}

/// Sky texture for a map name: Doom 2 MAP01-11 SKY1, 12-20 SKY2, 21+ SKY3; Doom 1 by episode
/// (E1 SKY1, E2 SKY2, E3 SKY3, E4 SKY4 as in the Ultimate Doom executable).
pub fn sky_texture_name(map: &str) -> &'static str {
    let m = map.to_ascii_uppercase();
    if let Some(n) = m.strip_prefix("MAP").and_then(|d| d.parse::<u32>().ok()) {
        return match n {
            0..=11 => "SKY1",
            12..=20 => "SKY2",
            _ => "SKY3",
        };
    }
    let b = m.as_bytes();
    match (b.first(), b.get(1)) {
        (Some(b'E'), Some(b'2')) => "SKY2",
        (Some(b'E'), Some(b'3')) => "SKY3",
        (Some(b'E'), Some(b'4')) => "SKY4",
        _ => "SKY1",
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

/// Builds map `map` at the default skill.
pub fn build_scene(stack: &WadStack, map: &str) -> Result<Scene> {
    build_scene_with(stack, map, &BuildOptions::default())
}

pub fn build_scene_with(stack: &WadStack, map: &str, opts: &BuildOptions) -> Result<Scene> {
    let level = DoomLevel::load(stack, map)?;
    build_level_scene(stack, &level, opts)
}

/// Builds the scene of an already loaded level.
pub fn build_level_scene(
    stack: &WadStack,
    level: &DoomLevel,
    opts: &BuildOptions,
) -> Result<Scene> {
    let map = &level.map;
    let mut notes = map.notes.clone();
    let palette = load_palette(stack)?;
    let mut colormap = load_colormap(stack, &mut notes)?;
    let rules = texture_rules(stack, map, opts);
    let texdir = TextureDirectory::load_with(stack, rules)?;
    let mut props = UdmfProps::read(map.udmf.as_deref(), &mut notes);
    let scaled = texture_scale::fold_texture_scales(&mut props, map, &texdir, stack);
    if scaled > 0 {
        notes.push(format!(
            "TEXTURES scales: {scaled} wall parts and flats drawn at their textures' world size \
             (XScale/YScale, hires pictures and flats larger than 64x64, as GZDoom)"
        ));
    }
    let boom = BoomEffects::read_with(map, &mut notes, opts.vanilla);
    let views = if opts.vanilla {
        notes.push("vanilla rules (--vanilla): Boom and MBF line specials are ignored".into());
        BoomViews::default()
    } else {
        BoomViews::read(map, stack, &mut notes)
    };
    let colors = read_sector_colors(map);
    // Sidedef names that are colormaps, translucency tables or colours draw nothing.
    let mut name_slots = views.lump_names.clone();
    name_slots.extend(colors.colour_names.iter().copied());
    let named = boom_build::without_lump_names(map, &name_slots);
    let map = named.as_ref().unwrap_or(map);
    // Walls and flats are built at 242's heights as seen from between the control planes.
    let shown = boom_build::shown_sectors(map, &views);
    let region_colormaps = boom_build::region_colormaps(&views, stack, &mut colormap, &mut notes);
    let (mut tranmaps, mut tranmap_of_line) = boom_build::tranmaps(&views, stack, &palette);
    let line_styles = read_line_styles(map, &mut notes);
    let floors_3d = read_3d_floors(map, &mut notes);
    let polyobjects = read_polyobjects(map, &mut notes);
    boom_build::line_style_tables(
        map,
        &line_styles,
        &palette,
        (&mut tranmaps, &mut tranmap_of_line),
        &mut notes,
    );
    for wad in stack.wads() {
        notes.extend(wad.notes().iter().cloned());
    }
    notes.extend(texdir.notes.iter().cloned());

    let mut b = Builder {
        stack,
        texdir: &texdir,
        patches: PatchCache::new(&palette),
        textures: Vec::new(),
        keys: HashMap::new(),
        used_walls: BTreeSet::new(),
        used_flats: BTreeSet::new(),
        notes,
        world: Vec::new(),
        surface: 0,
        texels_left: SCENE_TEXEL_BUDGET,
        budget_noted: false,
        props: &props,
        boom: &boom,
        slopes: &level.slopes,
        lights: LightSlots::new(map.sectors.len()),
        scrolls: ScrollSlots::default(),
        skies: Vec::new(),
        sector_sky: views.sector_sky.clone(),
        translucent: &tranmap_of_line,
        line_styles: &line_styles,
        vanilla: rules == TextureRules::Vanilla,
        bands: LightBands::new(map, &floors_3d, &level.slopes),
        smooth_flats: Vec::new(),
        po_lines: polyobjects.iter().flat_map(|p| p.lines.iter().copied()).collect(),
    };

    b.level_skies(map, &views, opts.vanilla);

    // Line specials are Doom's only in Doom-numbered maps (BoomEffects reads none of the
    // others); Hexen-style specials are not drawn.
    let scroll_lines = boom.scrolling_lines;

    let mut one_sided_fallbacks = 0;
    let mut vanilla_segs = Vec::with_capacity(map.bsp.segs.len());
    for seg in &map.bsp.segs {
        let v1 = map.vertex(seg.v1).unwrap_or_default();
        let x_offset = map.seg_sidedef(seg).map(|sd| (sd.x_offset as i32) << 16).unwrap_or(0);
        b.surface = vanilla_segs.len() as u32 + 1;
        // Scrollers move a sidedef (vanilla's 48 and Boom's scroll its `textureoffset`), so
        // every seg drawing that sidedef scrolls.
        let scroll = match seg_side_index(map, seg) {
            Some(i) => b.scrolls.slot(boom.side_scroll.get(&(i as u32)).copied()),
            None => 0,
        };
        let (fallback, tiers) = b.wall_seg(map, &shown, seg, scroll);
        if fallback {
            one_sided_fallbacks += 1;
        }
        let (light_slot, no_contrast) = match seg_side_index(map, seg) {
            Some(i) => {
                let side = props.side(i);
                let sector = map.seg_sidedef(seg).map_or(0, |sd| sd.sector);
                let slot = b.lights.slot(sector, side.light);
                ((slot != sector).then_some(slot), side.no_fake_contrast)
            }
            None => (None, false),
        };
        vanilla_segs.push(VanillaSeg {
            v1: [v1.x, v1.y],
            angle: seg.angle,
            offset: seg.offset.wrapping_add(x_offset),
            tiers,
            scroll,
            light_slot,
            no_contrast,
            translucent: seg.linedef.and_then(|l| tranmap_of_line.get(&l)).copied(),
        });
    }
    let po_sectors = b.polyobject_walls(map, &shown, &polyobjects);
    if one_sided_fallbacks > 0 {
        b.notes.push(format!(
            "{one_sided_fallbacks} segs on two-sided lines without a second sidedef drawn one-sided"
        ));
    }

    for (si, poly) in level.polygons.polygons.iter().enumerate() {
        if poly.len() < 3 {
            continue;
        }
        let Some(s) = map.subsector_sector(si) else { continue };
        b.surface = si as u32 + 1;
        b.flat_polygon(&shown[s], s, poly);
    }
    b.slabs(map, &level.polygons, &floors_3d);

    // Things.
    let mut sprite_dir = SpriteDirectory::new(stack);
    sprite_dir.install_definitions(stack, b.texdir);
    b.notes.extend(sprite_dir.notes.iter().filter(|n| n.starts_with("TEXTURES")).cloned());
    let mut sprite_memory = SpriteMemory::default();
    // Each of sprite_memory's frames as the GPU draws it, by the frame's index there.
    let mut frame_views: Vec<Vec<SpriteView>> = Vec::new();
    let mut sprites = Vec::new();
    let mut markers = Vec::new();
    let mut spawned = 0u64;
    let mut missing_frames = BTreeSet::new();
    let mut unknown = BTreeSet::new();
    // P_Random as P_LoadThings leaves it (G_InitNew clears it to 0), and the things whose
    // frame changes, with the frame word of each state of their cycle.
    let mut random = PRandom::default();
    let mut spawn_words = Vec::new();
    let mut animated = Vec::new();
    for th in &map.things {
        let (x, y) = (fixed_units(th.x), fixed_units(th.y));
        let sector = map.subsector_sector(point_in_subsector(map, x, y));
        // On a sloped floor or under a sloped ceiling, the plane's height at the thing.
        let (floor, ceiling) = sector
            .map(|s| {
                let (f, c) = (map.sectors[s].floor as f64, map.sectors[s].ceiling as f64);
                let at = DVec2::new(x, y);
                (level.slopes.height(s, FLOOR, f, at), level.slopes.height(s, CEILING, c, at))
            })
            .unwrap_or((0.0, 0.0));
        let at = |z: f64| viewer(DVec2::new(x, y), z);
        match spawn_decision(th.kind, th.flags, opts.skill) {
            Spawn::PlayerStart(n) => {
                spawn_player(n, &mut random);
                markers.push(Marker { pos: at(floor), label: format!("player {n} start") })
            }
            Spawn::DeathmatchStart => {
                markers.push(Marker { pos: at(floor), label: "deathmatch start".into() })
            }
            Spawn::Skipped | Spawn::Ignored => {}
            Spawn::Unknown => {
                unknown.insert(th.kind);
            }
            Spawn::Thing(t) if opts.no_monsters && removed_by_nomonsters(t.doomednum) => {}
            Spawn::Thing(t) => {
                spawned += 1;
                let first_tics = spawn_thing(t, &mut random);
                if !t.visible {
                    markers.push(Marker { pos: at(floor), label: t.name.to_string() });
                    continue;
                }
                let Some(frame) = sprite_dir.frame(t.sprite, t.frame) else {
                    missing_frames.insert(format!("{}{}", t.sprite, t.frame as char));
                    continue;
                };
                let thing_frame = sprite_memory.frame(stack, frame, |lump| {
                    let texture = b.sprite_texture(lump);
                    b.textures.get(texture as usize).cloned()
                });
                let views = gpu_sprite_views(&mut b, frame);
                if thing_frame as usize == frame_views.len() {
                    frame_views.push(views.clone());
                }
                if frame.missing_rotations() > 0 {
                    missing_frames
                        .insert(format!("{}{} (some rotations)", t.sprite, t.frame as char));
                }
                // The frames of the type's cycle, each as its sprite frame in vanilla's
                // things (a frame the sprites lack shows the spawn frame).
                let spawn_word = thing_frame_word(thing_frame, t.fullbright);
                if t.cycle.len() > 1 {
                    let words = t
                        .cycle
                        .iter()
                        .map(|state| match sprite_dir.frame(t.sprite, state.frame) {
                            Some(f) => {
                                let i = sprite_memory.frame(stack, f, |lump| {
                                    let texture = b.sprite_texture(lump);
                                    b.textures.get(texture as usize).cloned()
                                });
                                if i as usize == frame_views.len() {
                                    frame_views.push(gpu_sprite_views(&mut b, f));
                                }
                                thing_frame_word(i, state.bright)
                            }
                            None => {
                                missing_frames
                                    .insert(format!("{}{}", t.sprite, state.frame as char));
                                spawn_word
                            }
                        })
                        .collect();
                    animated.push(AnimatedThing {
                        thing: spawn_words.len() as u32,
                        cycle: t.cycle,
                        words,
                        first_tics,
                    });
                }
                spawn_words.push(spawn_word);
                // Hexen's and UDMF's height: above the floor, or for things hanging from
                // the ceiling below it (ZDoom P_SpawnMapThing); Doom-format things have none.
                let above = fixed_units(th.z);
                let z = if t.hangs { ceiling - t.height as f64 - above } else { floor + above };
                let bam = (spawn_angle_degrees(th.angle) / 45.0) as u32 * 0x2000_0000;
                sprite_memory.add_thing(VThing {
                    x: th.x,
                    y: th.y,
                    z: (z as i32).wrapping_shl(16),
                    angle: bam,
                    sector: sector.map_or(u32::MAX, |s| s as u32),
                    frame: thing_frame,
                    fullbright: t.fullbright,
                    shadow: t.shadow,
                });
                sprites.push(Sprite {
                    tint: 0,
                    pos: at(z),
                    views,
                    facing: spawn_angle_degrees(th.angle).to_radians() as f32,
                    scale: 1.0,
                    light: match sector {
                        Some(s) => b.banded_slot(s as u32, z, LightRule::default()),
                        None => 0,
                    },
                    fullbright: t.fullbright,
                    label: th.kind.to_string(),
                });
            }
        }
    }
    if !missing_frames.is_empty() {
        b.notes.push(format!(
            "sprite frames not found: {}",
            missing_frames.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    if !unknown.is_empty() {
        b.notes.push(format!(
            "unknown thing types skipped: {}",
            unknown.iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
        ));
    }

    // Animation cycles: every member of a cycle the map uses any member of.
    let anims = active_anims(&texdir, stack, &mut b.notes);
    let mut cycles = Vec::new();
    for anim in anims {
        let used = if anim.is_texture { &b.used_walls } else { &b.used_flats };
        if !used.iter().any(|&n| anim.contains(n)) {
            continue;
        }
        let members = (anim.basepic..anim.basepic + anim.numpics)
            .map(|n| if anim.is_texture { b.wall_by_number(n) } else { b.flat_by_number(n) })
            .collect();
        cycles.push(SceneCycle { anim, members });
    }

    // Spawn camera.
    let spawn = match &level.player_start {
        Some(p) => CameraPose {
            pos: Axes::ZUpRightHanded.to_viewer_f64(p.eye()),
            yaw: Axes::ZUpRightHanded.yaw_to_viewer(p.angle),
            pitch: 0.0,
        },
        None => {
            let (lo, hi) = level.bounds();
            let (cx, cy) = ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0);
            let floor = level.sector_at(cx, cy).map(|s| map.sectors[s].floor as f64).unwrap_or(0.0);
            b.notes.push("no player 1 start: camera at the map centre".into());
            CameraPose {
                pos: Axes::ZUpRightHanded.to_viewer_f64(DVec3::new(cx, cy, floor + VIEW_HEIGHT)),
                yaw: 0.0,
                pitch: 0.0,
            }
        }
    };

    // The walk's flat numbers to the textures made for them, for the CPU's spans.
    let mut vanilla_map =
        Box::new(super::vanilla_map::vanilla_map_with_textures(map, stack, Some(&texdir)));
    // UDMF floor and ceiling light and placement (identity for vanilla maps).
    // Boom's light transfers (213, 261) and flat scrollers (250, 251, 253) too.
    for (i, sector) in vanilla_map.sectors.iter_mut().enumerate().take(map.sectors.len()) {
        let p = props.sector(i);
        let [floor_slot, ceiling_slot] = b.plane_light_slots(i as u32);
        sector.floor_light_slot = floor_slot;
        sector.ceiling_light_slot = ceiling_slot;
        sector.floor_scroll_slot = b.scrolls.slot(boom.floor_scroll.get(&(i as u32)).copied());
        sector.ceiling_scroll_slot = b.scrolls.slot(boom.ceiling_scroll.get(&(i as u32)).copied());
        sector.floor_xform = flat_xform(&p.floor);
        sector.ceiling_xform = flat_xform(&p.ceiling);
        // Boom 242 and MBF 271/272.
        sector.heightsec = views.heightsec.get(&(i as u32)).copied();
        sector.region_colormaps = region_colormaps.get(&(i as u32)).copied().unwrap_or([0; 3]);
        sector.sky = b.sector_sky.get(&(i as u32)).map_or(0, |&k| k as u32 + 1);
    }
    vanilla_map.skies = b.skies.iter().skip(1).map(SkySurface::vanilla).collect();
    vanilla_map.tranmaps = tranmaps;
    vanilla_map.colors = sector_color_table(&colors, &mut b, &mut sprites);
    if props.beyond_vanilla() {
        b.notes.push(
            "UDMF wall scales and flat scales or rotations have no vanilla equivalent: faithful \
             mode draws them with the ZDoom software renderer's extension of vanilla's column \
             and span arithmetic (offsets and light use vanilla's own)"
                .into(),
        );
    }
    for (sector, s) in vanilla_map.sectors.iter().zip(&map.sectors) {
        for (pic, name) in [(sector.floorpic, &s.floor_flat), (sector.ceilingpic, &s.ceiling_flat)]
        {
            let pic = pic as usize;
            if pic as u32 == vanilla_map.sky_flat || pic > 1 << 20 {
                continue;
            }
            let textures = &mut vanilla_map.flat_textures;
            if textures.len() <= pic {
                textures.resize(pic + 1, u32::MAX);
            }
            if textures[pic] == u32::MAX {
                textures[pic] = b.flat(name);
            }
        }
    }
    // Every wall texture made (sky and animation frames included) as vanilla holds it in
    // memory, for the canvas's columns: tutti-frutti and the Medusa effect come from there.
    // A texture the texel budget made a placeholder keeps its placeholder.
    let mut walls: Vec<(usize, u32)> = b
        .keys
        .iter()
        .filter_map(|(key, &i)| match key {
            TexKey::Wall(n) => Some((*n, i)),
            _ => None,
        })
        .filter(|&(n, i)| {
            let (def, tex) = (texdir.defs.get(n), b.textures.get(i as usize));
            def.zip(tex).is_some_and(|(d, t)| {
                (t.width, t.height) == (d.visible_width() as u32, d.height as u32)
            })
        })
        .collect();
    walls.sort_unstable();
    vanilla_map.texture_memory =
        scene_texture_memory(&texdir, stack, &walls, b.textures.len(), &mut b.notes);
    vanilla_map.things = sprite_memory.finish(vanilla_map.sectors.len());
    vanilla_map.things.frame_views = frame_views;
    // Vanilla's walk and spans know only level planes and no slabs: a frame that reaches a
    // sloped sector or one with a 3D floor is drawn by ordinary rasterisation (vanilla's
    // COLORMAP light by depth), as every faithful frame off vanilla's projection is; the
    // others stay vanilla's.
    let with_3d_floors: BTreeSet<u32> =
        floors_3d.iter().flat_map(|f| f.targets.iter().copied()).collect();
    for (i, sector) in vanilla_map.sectors.iter_mut().enumerate() {
        sector.beyond_canvas = [FLOOR, CEILING].iter().any(|&w| level.slopes.plane(i, w).is_some())
            || with_3d_floors.contains(&(i as u32))
            || po_sectors.contains(&(i as u32));
    }
    if !level.slopes.is_empty() {
        b.notes.push(format!(
            "slopes ({} sloped floors and ceilings, made by {}) have no vanilla equivalent: \
             faithful frames that reach a sloped sector are drawn with vanilla's COLORMAP \
             light tables over ordinary rasterisation (the GPU), the others with vanilla's \
             wall columns and flat spans",
            level.slopes.sloped_planes(),
            level.slopes.counts.describe()
        ));
    }
    let lights = LightSim::with_random(map, random);
    let things_animated = animated.len() as u64;
    let facts = LevelFacts {
        details: vec![
            ("map format".into(), map.format.to_string()),
            ("node format".into(), super::map::node_format_name(map.bsp.format)),
        ],
        counts: vec![
            ("vertices".into(), map.vertices.len() as u64),
            ("linedefs".into(), map.linedefs.len() as u64),
            ("sidedefs".into(), map.sidedefs.len() as u64),
            ("sectors".into(), map.sectors.len() as u64),
            ("subsectors".into(), map.bsp.subsectors.len() as u64),
            ("segs".into(), map.bsp.segs.len() as u64),
            ("nodes".into(), map.bsp.nodes.len() as u64),
            ("things".into(), map.things.len() as u64),
            ("things_spawned".into(), spawned),
            ("things_animated".into(), things_animated),
            ("degenerate_subsectors".into(), level.polygons.degenerate as u64),
            ("light_thinkers".into(), lights.thinker_count() as u64),
            ("scrolling_lines".into(), scroll_lines as u64),
            ("animated_cycles".into(), cycles.len() as u64),
        ],
        textures_used: textures_used(map),
        notes: std::mem::take(&mut b.notes),
    };
    if b.scrolls.full {
        b.notes.push(format!(
            "more than {} different scroll speeds: the rest do not scroll",
            u16::MAX - 1
        ));
    }
    let animator = DoomAnimator::new(cycles, lights, b.textures.len(), b.scrolls.velocities)
        .with_derived_lights(b.lights.derived.clone())
        .with_things(spawn_words, animated);

    // Light slots are sector numbers or derived from one, so each triangle's light slot
    // names its sector.
    let parts = Parts {
        names: (0..map.sectors.len()).map(|i| format!("sector {i}")).collect(),
        of_triangle: b.world.chunks_exact(3).map(|t| b.lights.sector_of(t[0].light)).collect(),
    };
    Ok(Scene {
        name: map.name.clone(),
        game: Game::Doom,
        axes: Axes::ZUpRightHanded,
        palette,
        shading: Shading::DoomColormap {
            colormap,
            segs: vanilla_segs,
            map: Some(vanilla_map),
            smooth_flats: b.smooth_flats,
        },
        clear: ClearColor::default(),
        near: 1.0,
        textures: b.textures,
        world: b.world,
        parts,
        sprites,
        sky: b.skies.first().map(|s| Sky { texture: s.texture }),
        markers,
        spawn,
        animator: Box::new(animator),
        facts,
    })
}

/// Wall texture and flat names the map refers to, sorted.
fn textures_used(map: &MapData) -> Vec<String> {
    let mut names = BTreeSet::new();
    for sd in &map.sidedefs {
        for n in [&sd.upper, &sd.lower, &sd.middle] {
            if !n.is_empty() && !n.starts_with('-') {
                names.insert(n.clone());
            }
        }
    }
    for s in &map.sectors {
        names.insert(s.floor_flat.clone());
        names.insert(s.ceiling_flat.clone());
    }
    names.into_iter().collect()
}

/// Map point at height z in viewer space.
fn viewer(p: DVec2, z: f64) -> Vec3 {
    Axes::ZUpRightHanded.to_viewer(Vec3::new(p.x as f32, p.y as f32, z as f32))
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum TexKey {
    Wall(usize),
    Flat(usize),
    /// A flat only TEXTURES or a loose picture defines (index in `flat_defs`).
    FlatDef(usize),
    /// A wall texture (or a TEXTURES graphic) drawn as a flat.
    WallAsFlat(usize),
    /// A sprite (its scene texture) drawn as a flat.
    SpriteAsFlat(u32),
    Sprite(LumpNum),
    /// A TEXTURES sprite definition (index in `sprite_defs`).
    SpriteDef(usize),
    Missing(String),
    MissingFlat(String),
}

struct Builder<'a> {
    stack: &'a WadStack,
    texdir: &'a TextureDirectory,
    patches: PatchCache,
    textures: Vec<Texture>,
    keys: HashMap<TexKey, u32>,
    used_walls: BTreeSet<usize>,
    used_flats: BTreeSet<usize>,
    notes: Vec<String>,
    world: Vec<WorldVertex>,
    /// Surface number given to the wall quads being emitted (seg index + 1).
    surface: u32,
    /// Texels still allowed (see [`SCENE_TEXEL_BUDGET`]).
    texels_left: usize,
    budget_noted: bool,
    /// The map's drawn UDMF properties (defaults for other maps).
    props: &'a UdmfProps,
    /// The map's Boom light transfers and scrollers.
    boom: &'a BoomEffects,
    /// The sectors' sloped floors and ceilings.
    slopes: &'a SectorSlopes,
    lights: LightSlots,
    scrolls: ScrollSlots,
    /// The level's sky, then the skies MBF's 271/272 lines transfer.
    skies: Vec<SkySurface>,
    /// Sector -> its transferred sky or sky2 (index into `skies` less one).
    sector_sky: BTreeMap<u32, usize>,
    /// Linedef -> its translucency table (Boom 260, ZDoom's alpha).
    translucent: &'a BTreeMap<u32, u32>,
    /// Linedef -> ZDoom's alpha and render style, where not opaque.
    line_styles: &'a BTreeMap<u32, LineStyle>,
    /// Vanilla's rules: a flat name no flat has is an error there, not a wall texture.
    vanilla: bool,
    /// The light 3D floors cast on their sectors below them.
    bands: LightBands,
    /// Flats larger than 64x64: (their 64x64 texture, their full-size one).
    smooth_flats: Vec<[u32; 2]>,
    /// Polyobjects' lines: drawn at their start spots, not where the map has them.
    po_lines: BTreeSet<u32>,
}

/// ZDoom's sector colours for smooth mode: the table of distinct (light, fade) pairs, and each
/// world vertex of a coloured sector (by its light slot) given its pair's number plus one in
/// shade bytes 2 and 3 (`scene::doom_shade::sector_color`), with a note.
/// A sprite frame's views as the GPU draws it: eight by rotation (rotation 1 first) or one; a
/// rotation without a lump shows the first the frame has.
fn gpu_sprite_views(b: &mut Builder, frame: &SpriteFrame) -> Vec<SpriteView> {
    let n_views = if frame.rotates { 8 } else { 1 };
    let fallback = frame.first_picture();
    (0..n_views)
        .filter_map(|r| {
            let picture = frame.pictures[r].or(fallback)?;
            Some(SpriteView { texture: b.sprite_texture(picture), mirrored: frame.mirrored[r] })
        })
        .collect()
}

fn sector_color_table(
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
        let [lo, hi] = doom_shade::sector_color(n);
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

/// Scroll slots 1.. , one per distinct velocity (slot 0 never scrolls; the vertex flags hold
/// 16 bits of slot).
#[derive(Default)]
struct ScrollSlots {
    velocities: Vec<Velocity>,
    index: HashMap<Velocity, u16>,
    /// A velocity found no slot (noted once at the end).
    full: bool,
}

impl ScrollSlots {
    /// The slot of a surface scrolling by `v` (none: slot 0).
    fn slot(&mut self, v: Option<Velocity>) -> u16 {
        let Some(v) = v.filter(|v| *v != [0, 0]) else { return 0 };
        if let Some(&s) = self.index.get(&v) {
            return s;
        }
        let Ok(s) = u16::try_from(self.velocities.len() + 1) else {
            self.full = true;
            return 0;
        };
        self.velocities.push(v);
        self.index.insert(v, s);
        s
    }
}

/// Light slots: one per sector (its number), then one per distinct (sector, UDMF rule) a
/// floor, ceiling or wall uses, so that they follow the sector's light specials.
struct LightSlots {
    sectors: u32,
    derived: Vec<DerivedLight>,
    index: HashMap<DerivedLight, u32>,
}

impl LightSlots {
    fn new(sectors: usize) -> LightSlots {
        LightSlots { sectors: sectors as u32, derived: Vec::new(), index: HashMap::new() }
    }

    /// The slot lighting something of sector `sector` by `rule`.
    fn slot(&mut self, sector: u32, rule: LightRule) -> u32 {
        self.slot_from(sector, sector, rule)
    }

    /// The slot lighting something of sector `sector` by `rule` from sector `source`'s light.
    fn slot_from(&mut self, sector: u32, source: u32, rule: LightRule) -> u32 {
        if rule.is_identity() && source == sector {
            return sector;
        }
        let d = DerivedLight { sector, source, rule };
        *self.index.entry(d).or_insert_with(|| {
            self.derived.push(d);
            self.sectors + self.derived.len() as u32 - 1
        })
    }

    /// The sector a slot lights from.
    fn sector_of(&self, slot: u32) -> u32 {
        match slot.checked_sub(self.sectors) {
            Some(i) => self.derived.get(i as usize).map_or(0, |d| d.sector),
            None => slot,
        }
    }
}

/// The sidedef number a seg draws.
fn seg_side_index(map: &MapData, seg: &super::nodes::BspSeg) -> Option<usize> {
    let ld = map.linedefs.get(seg.linedef? as usize)?;
    ld.sides.get(seg.side as usize).copied().flatten().map(|s| s as usize)
}

/// 16.16 from map units, saturating.
fn to_fixed(v: f64) -> i32 {
    (v * 65536.0).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// A flat placement as the span drawer applies it.
fn flat_xform(p: &FlatPlacement) -> FlatXform {
    FlatXform {
        x_offset: to_fixed(p.x_panning),
        y_offset: to_fixed(p.y_panning),
        x_scale: to_fixed(p.x_scale),
        y_scale: to_fixed(p.y_scale),
        // Degrees in 0..360 to a binary angle (2^32 a turn).
        angle: ((p.rotation / 360.0).fract() * 4294967296.0).round() as u64 as u32,
    }
}

/// One wall quad's vertical placement: z range at each end (v1, v2; they differ where a
/// plane is sloped) and the texel row at z = 0.
struct WallPart {
    top: [f64; 2],
    bottom: [f64; 2],
    /// v = (anchor - z) * y_scale: the height of texture row 0 (y offsets included).
    anchor: f64,
    y_scale: f64,
}

/// A wall part's texture placement in map terms: texel u at v1 and per map unit, texel row
/// step per map unit, and the y offset in map units.
#[derive(Clone, Copy)]
struct Placement {
    u0: f64,
    x_scale: f64,
    y_scale: f64,
    /// The total y offset (sidedef and part) divided by the y scale: the anchor's shift.
    y_shift: f64,
    /// For the CPU walk: added to `FixedMul(vanilla column, x_scale)` (16.16).
    tier_x_offset: i32,
}

impl Placement {
    /// `seg_offset` is the seg's distance along its line; `sd` its sidedef's offsets.
    fn new(seg_offset: f64, sd_x: f64, sd_y: f64, part: &PartTexture) -> Placement {
        let x_total = sd_x + part.x_offset;
        Placement {
            u0: x_total + part.x_scale * seg_offset,
            x_scale: part.x_scale,
            y_scale: part.y_scale,
            y_shift: (sd_y + part.y_offset) / part.y_scale,
            tier_x_offset: to_fixed(sd_x * (1.0 - part.x_scale) + part.x_offset),
        }
    }

    fn u(&self, len: f64) -> (f64, f64) {
        (self.u0, self.u0 + self.x_scale * len)
    }

    /// A texture `h` texels tall in map units.
    fn height(&self, h: f64) -> f64 {
        h / self.y_scale.abs()
    }
}

impl Builder<'_> {
    /// The light slots of sector `sector`'s floor and ceiling: its UDMF rules applied to its
    /// own light, or to a Boom transfer's control sector's (213 floor, 261 ceiling).
    fn plane_light_slots(&mut self, sector: u32) -> [u32; 2] {
        let p = self.props.sector(sector as usize);
        let floor_from = self.boom.floor_light.get(&sector).copied().unwrap_or(sector);
        let ceiling_from = self.boom.ceiling_light.get(&sector).copied().unwrap_or(sector);
        [
            self.lights.slot_from(sector, floor_from, p.floor_light),
            self.lights.slot_from(sector, ceiling_from, p.ceiling_light),
        ]
    }

    fn add_texture(&mut self, key: TexKey, tex: Texture) -> u32 {
        if let Some(&i) = self.keys.get(&key) {
            return i;
        }
        let i = self.textures.len() as u32;
        self.textures.push(tex);
        self.keys.insert(key, i);
        i
    }

    /// Takes `texels` from the scene's texel budget; false (with a note, once) when exhausted.
    fn take_texels(&mut self, texels: usize) -> bool {
        if texels <= self.texels_left {
            self.texels_left -= texels;
            return true;
        }
        if !std::mem::replace(&mut self.budget_noted, true) {
            self.notes.push(format!(
                "textures exceed {SCENE_TEXEL_BUDGET} texels; the rest are placeholders"
            ));
        }
        false
    }

    fn wall_by_number(&mut self, num: usize) -> u32 {
        if let Some(&i) = self.keys.get(&TexKey::Wall(num)) {
            return i;
        }
        let texels = self.texdir.defs.get(num).map_or(0, |d| d.width as usize * d.height as usize);
        let tex = if self.take_texels(texels) {
            self.texdir.compose(num, self.stack, &mut self.patches, &mut self.notes)
        } else {
            placeholder(&self.texdir.defs[num].name, 64, 64)
        };
        self.add_texture(TexKey::Wall(num), tex)
    }

    fn flat_by_number(&mut self, num: usize) -> u32 {
        if let Some(&i) = self.keys.get(&TexKey::Flat(num)) {
            return i;
        }
        let defined =
            self.stack.flats().entries().get(num).and_then(|e| self.texdir.flat_def(&e.name));
        let tex = match defined {
            Some(i) => self.texdir.compose_flat(i, self.stack, &mut self.patches, &mut self.notes),
            None => flat_texture(self.stack, num, &mut self.patches.colours, &mut self.notes),
        };
        self.add_flat(TexKey::Flat(num), tex)
    }

    /// Adds a flat's 64x64 texture under `key`, and its full-size texture, where it has one,
    /// as the texture smooth frames draw in its place.
    fn add_flat(&mut self, key: TexKey, flat: FlatTexture) -> u32 {
        let fitted = self.add_texture(key, flat.fitted);
        if let Some(full) = flat.full {
            if self.take_texels(full.width as usize * full.height as usize) {
                let i = self.textures.len() as u32;
                self.textures.push(full);
                self.smooth_flats.push([fitted, i]);
            }
        }
        fitted
    }

    /// Scene texture and height of a sidedef texture name; `None` draws nothing: "-", an
    /// empty name, or texture number 0 (vanilla treats number 0 as "no texture").
    fn wall_texture(&mut self, name: &str) -> Option<(u32, f64)> {
        if name.is_empty() || name.starts_with('-') {
            return None;
        }
        match self.texdir.number(name) {
            Some(0) => {
                // Remembered under a key no texture uses, so the note is written once.
                let key = TexKey::Missing(format!("#0 {name}"));
                if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
                    e.insert(u32::MAX);
                    self.notes.push(format!(
                        "texture {name} is texture number 0, which vanilla never draws"
                    ));
                }
                None
            }
            // TEXTURES' NullTexture and a file's first TEXTURE1 entry (ZDoom's rules): as
            // texture 0, nothing drawn.
            Some(n) if !self.texdir.draws(n) => {
                if self.texdir.defs[n].first_defined {
                    let key = TexKey::Missing(format!("#first {name}"));
                    if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
                        e.insert(u32::MAX);
                        self.notes.push(format!(
                            "texture {name} is the first entry of {}'s TEXTURE1, which ZDoom \
                             never draws on walls",
                            self.stack
                                .wads()
                                .get(self.texdir.defs[n].file)
                                .map_or("?", |w| w.name())
                        ));
                    }
                }
                None
            }
            Some(n) => {
                self.used_walls.insert(n);
                let height = self.texdir.defs[n].height as f64;
                Some((self.wall_by_number(n), height))
            }
            None => {
                if let Some(found) = self.other_use_on_wall(name) {
                    return Some(found);
                }
                // The placeholder is made once per name: a PWAD opened without its IWAD
                // misses every wall's texture.
                let key = TexKey::Missing(name.to_string());
                if let Some(&t) = self.keys.get(&key) {
                    return Some((t, 64.0));
                }
                self.notes.push(format!("texture {name} not found; drawn as a placeholder"));
                Some((self.add_texture(key, placeholder(name, 64, 64)), 64.0))
            }
        }
    }

    fn flat(&mut self, name: &str) -> u32 {
        match self.stack.flats().number(name) {
            Some(n) => {
                self.used_flats.insert(n);
                self.flat_by_number(n)
            }
            None => {
                if let Some(i) = self.texdir.flat_def(name) {
                    if let Some(&t) = self.keys.get(&TexKey::FlatDef(i)) {
                        return t;
                    }
                    let tex =
                        self.texdir.compose_flat(i, self.stack, &mut self.patches, &mut self.notes);
                    return self.add_flat(TexKey::FlatDef(i), tex);
                }
                // GZDoom looks a sector's textures up with TEXMAN_TryAny: where no flat has
                // the name, a texture of another use (a wall texture, or a TEXTURES graphic
                // standing in for one). Vanilla stops with an error instead.
                let wall =
                    self.texdir.number(name).filter(|&n| !self.vanilla && self.texdir.draws(n));
                if let Some(n) = wall {
                    if let Some(&t) = self.keys.get(&TexKey::WallAsFlat(n)) {
                        return t;
                    }
                    self.notes.push(format!(
                        "flat {name} is a wall texture: drawn on floors and ceilings as GZDoom \
                         draws it"
                    ));
                    let tex = self.texdir.compose_as_flat(
                        n,
                        self.stack,
                        &mut self.patches,
                        &mut self.notes,
                    );
                    return self.add_flat(TexKey::WallAsFlat(n), tex);
                }
                if let Some(t) = self.sprite_named(name) {
                    return self.sprite_as_flat(name, t);
                }
                let key = TexKey::MissingFlat(name.to_string());
                if let Some(&t) = self.keys.get(&key) {
                    return t;
                }
                self.notes.push(format!("flat {name} not found; drawn as a placeholder"));
                self.add_texture(key, placeholder(name, 64, 64))
            }
        }
    }

    /// The texture of another use GZDoom's `TEXMAN_TryAny` draws on a wall no wall texture
    /// names: a flat (at its full size), else a sprite; none under vanilla's rules, where the
    /// name is an error. Its scene texture and height.
    fn other_use_on_wall(&mut self, name: &str) -> Option<(u32, f64)> {
        if self.vanilla {
            return None;
        }
        let (t, what) =
            if self.stack.flats().number(name).is_some() || self.texdir.flat_def(name).is_some() {
                let fitted = self.flat(name);
                let full = self.smooth_flats.iter().find(|p| p[0] == fitted).map(|p| p[1]);
                (full.unwrap_or(fitted), "flat")
            } else {
                (self.sprite_named(name)?, "sprite")
            };
        let key = TexKey::Missing(format!("#{what} on a wall {name}"));
        if let std::collections::hash_map::Entry::Vacant(e) = self.keys.entry(key) {
            e.insert(u32::MAX);
            self.notes
                .push(format!("texture {name} is a {what}: drawn on walls as GZDoom draws it"));
        }
        let height = self.textures.get(t as usize).map_or(64, |t| t.height);
        Some((t, height as f64))
    }

    /// The scene texture of the sprite named `name`, as GZDoom's `TEXMAN_TryAny` finds one: a
    /// TEXTURES `Sprite` definition, else a lump between `S_START` and `S_END`; none under
    /// vanilla's rules.
    fn sprite_named(&mut self, name: &str) -> Option<u32> {
        if self.vanilla {
            return None;
        }
        let picture = match self.texdir.sprite_def(name) {
            Some(i) => SpritePicture::Defined(i),
            None => {
                let sprites = self.stack.sprites();
                SpritePicture::Lump(sprites.entries().get(sprites.number(name)?)?.lump)
            }
        };
        Some(self.sprite_texture(picture))
    }

    /// Sprite texture `t` drawn as the flat `name`, fitted as any flat (its transparent
    /// texels index 0).
    fn sprite_as_flat(&mut self, name: &str, t: u32) -> u32 {
        if let Some(&f) = self.keys.get(&TexKey::SpriteAsFlat(t)) {
            return f;
        }
        self.notes.push(format!(
            "flat {name} is a sprite: drawn on floors and ceilings as GZDoom draws it"
        ));
        let Some(Texels::Indexed { index, opaque }) =
            self.textures.get(t as usize).map(|t| &t.texels)
        else {
            return self.add_texture(TexKey::SpriteAsFlat(t), placeholder(name, 64, 64));
        };
        let tex = &self.textures[t as usize];
        let pic = Picture {
            width: tex.width as u16,
            height: tex.height as u16,
            left: 0,
            top: 0,
            opaque: if opaque.is_empty() { vec![true; index.len()] } else { opaque.clone() },
            index: index.clone(),
            clipped: 0,
        };
        let flat = fit_flat(name, &pic, &mut self.notes);
        self.add_flat(TexKey::SpriteAsFlat(t), flat)
    }

    fn sprite_texture(&mut self, picture: SpritePicture) -> u32 {
        let lump = match picture {
            SpritePicture::Lump(lump) => lump,
            SpritePicture::Defined(i) => return self.defined_sprite_texture(i),
        };
        if let Some(&i) = self.keys.get(&TexKey::Sprite(lump)) {
            return i;
        }
        let Some(l) = self.stack.lump_at(lump) else {
            return self.add_texture(TexKey::Sprite(lump), placeholder("?", 16, 16));
        };
        // The header gives the size; a picture too large for what is left becomes a
        // placeholder (decoding checks the header itself).
        let size = Picture::size_of(&l).map_or(0, |(w, h)| w * h);
        if !self.take_texels(size) {
            return self.add_texture(TexKey::Sprite(lump), placeholder(l.name, 16, 16));
        }
        let tex = match Picture::decode(&l, &mut self.patches.colours) {
            Ok(p) => {
                let all = p.opaque.iter().all(|&o| o);
                Texture {
                    name: l.name.to_string(),
                    width: p.width as u32,
                    height: p.height as u32,
                    origin: (p.left as i32, p.top as i32),
                    texels: Texels::Indexed {
                        index: p.index,
                        opaque: if all { Vec::new() } else { p.opaque },
                    },
                    palette: 0,
                }
            }
            Err(e) => {
                self.notes.push(format!("sprite {}: {e}", l.name));
                placeholder(l.name, 16, 16)
            }
        };
        self.add_texture(TexKey::Sprite(lump), tex)
    }

    /// The texture of TEXTURES sprite definition `i`, composed like a wall texture and placed
    /// by its `Offset`.
    fn defined_sprite_texture(&mut self, i: usize) -> u32 {
        if let Some(&t) = self.keys.get(&TexKey::SpriteDef(i)) {
            return t;
        }
        let (w, h) = self.texdir.sprite_defs.get(i).map_or((0, 0), |s| (s.def.width, s.def.height));
        let tex = if self.take_texels(w as usize * h as usize) {
            self.texdir.compose_sprite(i, self.stack, &mut self.patches, &mut self.notes)
        } else {
            placeholder("?", 16, 16)
        };
        self.add_texture(TexKey::SpriteDef(i), tex)
    }

    /// Emits the quads of one seg; returns true when a two-sided line lacked its back side.
    /// Emits a seg's wall quads; returns whether a two-sided line without a second sidedef
    /// was drawn one-sided, and the tiers the CPU draws (see [`VanillaSeg`]).
    /// `sectors` are the sectors as the walls show them (Boom 242's heights as seen from
    /// between the control planes).
    fn wall_seg(
        &mut self,
        map: &MapData,
        sectors: &[Sector],
        seg: &super::nodes::BspSeg,
        scroll: u16,
    ) -> (bool, [Option<VanillaTier>; 3]) {
        let mut tiers = [None; 3];
        let tier = |texture, anchor: f64, p: &Placement| {
            Some(VanillaTier {
                texture,
                top: (anchor * 65536.0).round() as i32,
                x_offset: p.tier_x_offset,
                x_scale: to_fixed(p.x_scale),
                y_scale: to_fixed(p.y_scale),
            })
        };
        // Minisegs (no linedef) are not walls; polyobjects' lines are drawn at their spots.
        let Some(ld) = seg.linedef.and_then(|l| map.linedefs.get(l as usize)) else {
            return (false, tiers);
        };
        if seg.linedef.is_some_and(|l| self.po_lines.contains(&l)) {
            return (false, tiers);
        }
        let side = seg.side as usize;
        let Some(sd) = map.seg_sidedef(seg) else { return (false, tiers) };
        let front_i = sd.sector as usize;
        let front = &sectors[front_i];
        let mut fallback = false;
        let back = if ld.has_flag(line_flags::TWO_SIDED) {
            match map.line_sector(ld, side ^ 1) {
                Some(s) => Some((s, &sectors[s])),
                None => {
                    fallback = true;
                    None
                }
            }
        } else {
            None
        };
        let (Some(v1), Some(v2)) = (map.vertex(seg.v1), map.vertex(seg.v2)) else {
            return (fallback, tiers);
        };
        let a = v1.to_dvec2();
        let bpt = v2.to_dvec2();
        let len = a.distance(bpt);
        if len == 0.0 {
            return (fallback, tiers);
        }
        // Fake contrast (R_StoreWallRange uses the seg's own vertices).
        let contrast: i8 = if v1.y == v2.y {
            -1
        } else if v1.x == v2.x {
            1
        } else {
            0
        };
        let side_props = seg_side_index(map, seg).map(|i| self.props.side(i)).unwrap_or_default();
        let place = |part: usize| {
            let (x, y) = (sd.x_offset as f64, sd.y_offset as f64);
            Placement::new(fixed_units(seg.offset), x, y, &side_props.parts[part])
        };
        let contrast = if side_props.no_fake_contrast { 0 } else { contrast };
        let light = self.lights.slot(front_i as u32, side_props.light);
        // The walls' light: the sector's through the sidedef's rule, or a 3D floor's.
        let lit = (front_i as u32, side_props.light);
        // Anchors (pegging) use the sectors' own heights, as ZDoom pegs to them on slopes
        // too; the wall's edges follow the planes at each end of the seg.
        let (ff, fc) = (front.floor as f64, front.ceiling as f64);
        let plane_ends = |s: usize, which: usize, level: f64| {
            [a, bpt].map(|p| self.slopes.height(s, which, level, p))
        };
        let (ffe, fce) = (plane_ends(front_i, FLOOR, ff), plane_ends(front_i, CEILING, fc));
        let lower_unpegged = ld.has_flag(line_flags::LOWER_UNPEGGED);
        let upper_unpegged = ld.has_flag(line_flags::UPPER_UNPEGGED);
        let flags = |kind, masked| vertex_flags::pack(kind, masked, contrast, scroll);

        let Some((back_i, back)) = back else {
            if let Some((tex, h)) = self.wall_texture(&sd.middle) {
                // One-sided: top of the texture at the ceiling, or with lower-unpegged its
                // bottom at the floor.
                let p = place(MID);
                let anchor = if lower_unpegged { ff + p.height(h) } else { fc } + p.y_shift;
                let part = WallPart { top: fce, bottom: ffe, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[0] = tier(tex, anchor, &p);
            }
            return (fallback, tiers);
        };

        let (bf, bc) = (back.floor as f64, back.ceiling as f64);
        let (bfe, bce) = (plane_ends(back_i, FLOOR, bf), plane_ends(back_i, CEILING, bc));
        // Sky hack: both ceilings sky, so the upper wall is not drawn and the front's sky
        // shows down to the back ceiling; `worldtop` becomes the back ceiling.
        let sky_hack = is_sky(&front.ceiling_flat) && is_sky(&back.ceiling_flat);
        let worldtop = if sky_hack { bc } else { fc };
        let worldtop_e = if sky_hack { bce } else { fce };
        if sky_hack && below(bce, fce) {
            // The front sector's sky (its ceiling plane covers the gap in vanilla's walk).
            let sky = self.sky_of(front_i as u32);
            let flags = vertex_flags::pack(SurfaceKind::Sky, false, sky.kind, 0);
            let part =
                WallPart { top: fce, bottom: each(bce, ffe, f64::max), anchor: 0.0, y_scale: 0.0 };
            let first = self.world.len();
            self.wall_quad(a, bpt, &part, (0.0, 0.0), sky.texture, light, flags);
            // The sky's offsets, where a wall has its texel coordinates.
            for v in &mut self.world[first..] {
                v.uv = sky.uv;
            }
        }
        if below(bce, worldtop_e) {
            if let Some((tex, h)) = self.wall_texture(&sd.upper) {
                // Upper: unpegged puts the texture top at the front ceiling; pegged puts its
                // bottom at the back ceiling (so it moves with a rising door).
                let p = place(TOP);
                let anchor = if upper_unpegged { worldtop } else { bc + p.height(h) } + p.y_shift;
                let bottom = each(bce, ffe, f64::max);
                let part = WallPart { top: worldtop_e, bottom, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[0] = tier(tex, anchor, &p);
            }
        }
        if below(ffe, bfe) {
            if let Some((tex, _)) = self.wall_texture(&sd.lower) {
                // Lower: unpegged places the texture as if its top were at `worldtop`;
                // pegged puts its top at the back floor.
                let p = place(BOTTOM);
                let anchor = if lower_unpegged { worldtop } else { bf } + p.y_shift;
                let top = each(bfe, fce, f64::min);
                let part = WallPart { top, bottom: ffe, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[1] = tier(tex, anchor, &p);
            }
        }
        // ZDoom's line alpha: 0 draws no middle at all.
        let style = seg.linedef.and_then(|l| self.line_styles.get(&l)).copied();
        let hidden = style.is_some_and(|s| s.alpha == 0);
        if let Some((tex, h)) = self.wall_texture(&sd.middle).filter(|_| !hidden) {
            // Masked middle (R_RenderMaskedSegRange): lower-unpegged puts the bottom at the
            // higher floor, else the top at the lower ceiling; drawn once (no vertical
            // tiling), clipped to the opening.
            let open_bottom = ff.max(bf);
            let open_top = fc.min(bc);
            let p = place(MID);
            let h = p.height(h);
            let anchor = if lower_unpegged { open_bottom + h } else { open_top } + p.y_shift;
            let part = WallPart {
                top: each(each(fce, bce, f64::min), [anchor; 2], f64::min),
                bottom: each(each(ffe, bfe, f64::max), [anchor - h; 2], f64::max),
                anchor,
                y_scale: p.y_scale,
            };
            let u = p.u(len);
            let mut flags = flags(SurfaceKind::Wall, true);
            // Boom 260: blended over what lies behind.
            if seg.linedef.is_some_and(|l| self.translucent.contains_key(&l)) {
                flags |= vertex_flags::TRANSLUCENT;
            }
            let first = self.world.len();
            self.banded_wall(lit, a, bpt, &part, u, tex, flags);
            // ZDoom's alpha and render style, for the GPU's blending (`doom.wgsl`).
            if let Some(style) = style.filter(|s| s.blends()) {
                for v in &mut self.world[first..] {
                    v.shade = doom_shade::line_style(style.alpha, style.additive);
                }
            }
            tiers[2] = tier(tex, anchor, &p);
        }
        (false, tiers)
    }

    #[allow(clippy::too_many_arguments)]
    fn wall_quad(
        &mut self,
        a: DVec2,
        b: DVec2,
        part: &WallPart,
        u: (f64, f64),
        texture: u32,
        light: u32,
        flags: u32,
    ) {
        let vert = |p: DVec2, z: f64, uu: f64| WorldVertex {
            pos: viewer(p, z).to_array(),
            uv: [uu as f32, ((part.anchor - z) * part.y_scale) as f32],
            texture,
            light,
            flags,
            surface: self.surface,
            shade: [0; 4],
        };
        for (p, z, uu) in wall_corners(a, b, part, u) {
            self.world.push(vert(p, z, uu));
        }
    }

    /// The sky surface of sector `sector`'s F_SKY1 planes.
    fn sky_of(&self, sector: u32) -> SkySurface {
        let index = self.sector_sky.get(&sector).map_or(0, |&k| k + 1);
        self.skies.get(index).or(self.skies.first()).copied().unwrap_or(SkySurface::level(0))
    }

    fn flat_polygon(&mut self, sector: &Sector, index: usize, poly: &[DVec2]) {
        let sky = self.sky_of(index as u32);
        let p = self.props.sector(index);
        let [floor_light, ceiling_light] = self.plane_light_slots(index as u32);
        let key = index as u32;
        // Under a 3D floor, its light.
        let floor_light =
            self.banded_plane_slot(key, FLOOR, sector.floor as f64, (floor_light, p.floor_light));
        let ceiling_light = self.banded_plane_slot(
            key,
            CEILING,
            sector.ceiling as f64,
            (ceiling_light, p.ceiling_light),
        );
        let floor_scroll = self.scrolls.slot(self.boom.floor_scroll.get(&key).copied());
        let ceiling_scroll = self.scrolls.slot(self.boom.ceiling_scroll.get(&key).copied());
        let planes = [
            (sector.floor as f64, &sector.floor_flat, true, floor_light, p.floor, floor_scroll),
            (
                sector.ceiling as f64,
                &sector.ceiling_flat,
                false,
                ceiling_light,
                p.ceiling,
                ceiling_scroll,
            ),
        ];
        for (z, name, up, light, placement, scroll) in planes {
            let which = if up { FLOOR } else { CEILING };
            // F_SKY1 on any plane shows the sky (R_DrawPlanes checks every plane).
            let (kind, texture) = if is_sky(name) {
                (SurfaceKind::Sky, sky.texture)
            } else {
                (SurfaceKind::Flat, self.flat(name))
            };
            // A sky plane does not scroll (its texels follow the view angle); its contrast
            // byte says which kind of sky it is, its uv holds a transferred sky's offsets.
            let flags = if kind == SurfaceKind::Sky {
                vertex_flags::pack(kind, false, sky.kind, 0)
            } else {
                vertex_flags::pack(kind, false, 0, scroll)
            };
            let vert = |p: DVec2| WorldVertex {
                // A sloped plane's height at each corner (the level height otherwise).
                pos: viewer(p, self.slopes.height(index, which, z, p)).to_array(),
                // Vanilla's flat grid, column x & 63 and row (-y) & 63, under the UDMF
                // placement (udmf_props: rotated about the origin, panned, scaled).
                uv: if kind == SurfaceKind::Sky {
                    sky.uv
                } else {
                    placement.uv(p.x, p.y).map(|c| c as f32)
                },
                texture,
                light,
                flags,
                surface: self.surface,
                shade: [0; 4],
            };
            for i in 1..poly.len() - 1 {
                let (p1, p2) = if up { (poly[i], poly[i + 1]) } else { (poly[i + 1], poly[i]) };
                self.world.extend_from_slice(&[vert(poly[0]), vert(p1), vert(p2)]);
            }
        }
    }
}

/// The corners (map point, height, texel u) of a wall part's triangles, counter-clockwise
/// seen from its front, where v1 (`a`) is on the left: a quad (a trapezoid where planes are
/// sloped), the triangle on the open side where its top and bottom cross along the seg, or
/// nothing where it is closed.
fn wall_corners(a: DVec2, b: DVec2, part: &WallPart, u: (f64, f64)) -> Vec<(DVec2, f64, f64)> {
    let [h0, h1] = [0, 1].map(|e| part.top[e] - part.bottom[e]);
    let bl = (a, part.bottom[0], u.0);
    let br = (b, part.bottom[1], u.1);
    let tr = (b, part.top[1], u.1);
    let tl = (a, part.top[0], u.0);
    if h0 > 0.0 && h1 > 0.0 {
        return vec![bl, br, tr, bl, tr, tl];
    }
    if h0 <= 0.0 && h1 <= 0.0 {
        return Vec::new();
    }
    let t = h0 / (h0 - h1);
    let z = part.bottom[0] + (part.bottom[1] - part.bottom[0]) * t;
    let tip = (a.lerp(b, t), z, u.0 + (u.1 - u.0) * t);
    if h0 > 0.0 {
        vec![bl, tip, tl]
    } else {
        vec![tip, br, tr]
    }
}

/// `f` of the two ends' values.
fn each(a: [f64; 2], b: [f64; 2], f: impl Fn(f64, f64) -> f64) -> [f64; 2] {
    [f(a[0], b[0]), f(a[1], b[1])]
}

/// Whether `a` is below `b` at either end (the wall between them shows somewhere).
fn below(a: [f64; 2], b: [f64; 2]) -> bool {
    a[0] < b[0] || a[1] < b[1]
}

fn is_sky(flat: &str) -> bool {
    flat.eq_ignore_ascii_case(SKY_FLAT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;
    use crate::formats::doom::wad::Wad;
    use crate::scene::FrameState;

    fn normal(t: &[WorldVertex]) -> Vec3 {
        let p: Vec<Vec3> = t.iter().map(|v| Vec3::from(v.pos)).collect();
        (p[1] - p[0]).cross(p[2] - p[0]).normalize()
    }

    fn kind(v: &WorldVertex) -> u32 {
        v.flags & vertex_flags::KIND_MASK
    }

    #[test]
    fn builds_two_room_scene() {
        let stack = testwad::two_room_stack();
        let scene = build_scene(&stack, "MAP01").unwrap();
        assert_eq!(scene.name, "MAP01");
        assert_eq!(scene.palette.len(), 256);
        // Camera: player 1 start at (64, 64) angle 90 on floor 0.
        let p = scene.spawn.pos;
        assert_eq!((p.x, p.y, p.z), (64.0, 41.0, -64.0));
        assert!((scene.spawn.yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
        // Walls: 6 one-sided + the shared line's lower (front side, floor 0 -> 16) and upper
        // (ceiling 128 -> 96); the back side sees neither.
        let walls: Vec<&[WorldVertex]> =
            scene.world.chunks(3).filter(|t| kind(&t[0]) == SurfaceKind::Wall as u32).collect();
        assert_eq!(walls.len(), (6 + 2) * 2);
        // Floors face up, ceilings down.
        for t in scene.world.chunks(3).filter(|t| kind(&t[0]) == SurfaceKind::Flat as u32) {
            let n = normal(t);
            assert!(n.y.abs() > 0.999, "{n}");
        }
        // Wall triangles face their front side: the west wall of room A (x = 0) faces east.
        let west = walls.iter().find(|t| t.iter().all(|v| v.pos[0] == 0.0)).unwrap();
        assert!(normal(west).x > 0.999);
        // Fake contrast: that wall is parallel to y, so +1.
        assert_eq!((west[0].flags >> vertex_flags::CONTRAST_SHIFT) as u8 as i8, 1);
        // One imp spawned at skill 3 (one skill-4-only and one multiplayer thing are not).
        assert_eq!(scene.sprites.len(), 1);
        let imp = &scene.sprites[0];
        assert_eq!(imp.label, "3001");
        assert_eq!(imp.views.len(), 1);
        assert_eq!(imp.pos, Vec3::new(192.0, 16.0, -64.0));
        assert_eq!(imp.light, 1);
        let tex = &scene.textures[imp.views[0].texture as usize];
        assert_eq!(tex.origin, (4, 8));
        let counts: HashMap<_, _> = scene.facts.counts.iter().cloned().collect();
        assert_eq!(counts["things_spawned"], 1);
        assert_eq!(counts["subsectors"], 2);
        assert!(scene.facts.textures_used.contains(&"STARTAN".to_string()));
    }

    #[test]
    fn pegging_places_texture_rows() {
        let stack = testwad::two_room_stack();
        let scene = build_scene(&stack, "MAP01").unwrap();
        let walls: Vec<&[WorldVertex]> =
            scene.world.chunks(6).filter(|q| kind(&q[0]) == SurfaceKind::Wall as u32).collect();
        // Shared line x = 128 from the front (room A): lower wall 0..16, pegged: top of the
        // texture at the back floor (16), so v = 16 - z.
        let lower = walls
            .iter()
            .find(|q| q.iter().all(|v| v.pos[0] == 128.0) && q.iter().all(|v| v.pos[1] <= 16.0))
            .unwrap();
        for v in lower.iter() {
            assert_eq!(v.uv[1], 16.0 - v.pos[1]);
        }
        // Upper wall 96..128, pegged: texture bottom at the back ceiling: v = 96 + 128 - z.
        let upper = walls
            .iter()
            .find(|q| q.iter().all(|v| v.pos[0] == 128.0) && q.iter().all(|v| v.pos[1] >= 96.0))
            .unwrap();
        for v in upper.iter() {
            assert_eq!(v.uv[1], 96.0 + 128.0 - v.pos[1]);
        }
        // One-sided wall with y offset 8 in room A: v = 128 + 8 - z; u starts at x offset 3.
        let south = walls
            .iter()
            .find(|q| q.iter().all(|v| v.pos[2] == 0.0) && q.iter().all(|v| v.pos[0] <= 128.0))
            .unwrap();
        for v in south.iter() {
            assert_eq!(v.uv[1], 136.0 - v.pos[1]);
        }
        let us: Vec<f32> = south.iter().map(|v| v.uv[0]).collect();
        assert!(us.contains(&3.0) && us.contains(&131.0), "{us:?}");
    }

    #[test]
    fn sky_hack_masked_middle_and_scrolling() {
        let mut level = testwad::two_room_level();
        level.map.sectors[0].ceiling_flat = "F_SKY1".into();
        level.map.sectors[1].ceiling_flat = "F_SKY1".into();
        // Masked middle on the shared line's front, lower-unpegged: bottom at max floor (16).
        level.map.sidedefs[3].middle = "STARTAN".into();
        level.map.linedefs[3].flags |= line_flags::LOWER_UNPEGGED;
        level.map.linedefs[0].special = SCROLL_SPECIAL;
        let stack = testwad::stack_with(&level);
        let mut scene = build_scene(&stack, "MAP01").unwrap();
        let quads: Vec<&[WorldVertex]> = scene.world.chunks(6).collect();
        let on_shared = |q: &&[WorldVertex]| q.iter().all(|v| v.pos[0] == 128.0);
        // Sky quad between the back ceiling (96) and the front ceiling (128), no upper.
        let sky: Vec<_> = quads
            .iter()
            .filter(|q| on_shared(q) && kind(&q[0]) == SurfaceKind::Sky as u32)
            .collect();
        assert_eq!(sky.len(), 1);
        assert!(sky[0].iter().all(|v| v.pos[1] >= 96.0));
        // Masked: opening 16..96, texture 128 tall from 16 up: clipped to 16..96.
        let masked: Vec<_> =
            quads.iter().filter(|q| q[0].flags & vertex_flags::MASKED != 0).collect();
        assert_eq!(masked.len(), 1);
        for v in masked[0].iter() {
            assert!(v.pos[1] == 16.0 || v.pos[1] == 96.0);
            assert_eq!(v.uv[1], 16.0 + 128.0 - v.pos[1]);
        }
        // Ceilings are sky.
        assert!(scene
            .world
            .chunks(3)
            .any(|t| kind(&t[0]) == SurfaceKind::Sky as u32 && t[0].pos[1] == 128.0));
        // Linedef 0 scrolls: its (front) seg uses slot 1.
        let scrolled: Vec<_> =
            quads.iter().filter(|q| q[0].flags >> vertex_flags::SCROLL_SHIFT == 1).collect();
        assert_eq!(scrolled.len(), 1);
        let mut st = FrameState::default();
        scene.animator.state_at(10, &mut st);
        assert_eq!(st.scroll, vec![[0.0, 0.0], [10.0, 0.0]]);
    }

    #[test]
    fn light_specials_draw_p_random_after_the_things_spawning() {
        // Sector 0 strobes (special 2, unsynchronised: count (P_Random() & 7) + 1 at spawn),
        // so the tic it first goes dark tells where P_LoadThings left P_Random.
        let dark_at = |things: Vec<crate::formats::doom::map::Thing>, no_monsters: bool| {
            let mut level = testwad::two_room_level();
            level.map.sectors[0].special = 2;
            level.map.things = things;
            let stack = testwad::stack_with(&level);
            let opts = BuildOptions { no_monsters, ..Default::default() };
            let mut scene = build_scene_with(&stack, "MAP01", &opts).unwrap();
            let mut st = FrameState::default();
            (1..10).find(|&tic| {
                scene.animator.state_at(tic, &mut st);
                st.light[0] != 160
            })
        };
        let thing = |kind: u16, flags: u16| crate::formats::doom::map::Thing {
            x: 64 << 16,
            y: 64 << 16,
            kind,
            flags,
            ..Default::default()
        };
        // No things: index 0, draws rndtable[1] = 8 -> count 1.
        assert_eq!(dark_at(vec![], false), Some(1));
        // Player 1 (lastlook), a red torch (lastlook and its first tics), a stimpack
        // (lastlook): index 4, rndtable[5] = 241 -> count 2. Player 2's start, a thing of
        // another skill and a multiplayer one draw nothing.
        let mut things = vec![thing(1, 7), thing(46, 7), thing(2011, 7)];
        things.extend([thing(2, 7), thing(2011, 1), thing(2011, 0x17)]);
        assert_eq!(dark_at(things.clone(), true), Some(2));
        // An imp draws lastlook and its first tics too, unless -nomonsters keeps it out:
        // index 6, rndtable[7] = 107 -> count 4.
        things.push(thing(3001, 7));
        assert_eq!(dark_at(things.clone(), true), Some(2));
        assert_eq!(dark_at(things, false), Some(4));
    }

    #[test]
    fn animated_flat_brings_its_whole_cycle() {
        let mut level = testwad::two_room_level();
        level.map.sectors[1].floor_flat = "NUKAGE2".into();
        let stack = testwad::stack_with(&level);
        let mut scene = build_scene(&stack, "MAP01").unwrap();
        let idx = |n: &str| scene.textures.iter().position(|t| t.name == n).unwrap() as u32;
        let (n1, n2, n3) = (idx("NUKAGE1"), idx("NUKAGE2"), idx("NUKAGE3"));
        let mut st = FrameState::default();
        scene.animator.state_at(0, &mut st);
        assert_eq!(st.texture_remap[n2 as usize], n2);
        // Flat numbers: NUKAGE1 is basepic b; number i shows b + ((N-1)/8 + i) % 3.
        let b = stack.flats().number("NUKAGE1").unwrap();
        let members = [n1, n2, n3];
        for tic in [1u32, 8, 9, 17, 25, 100] {
            scene.animator.state_at(tic, &mut st);
            for (k, &m) in members.iter().enumerate() {
                let shown = ((tic as usize - 1) / 8 + b + k) % 3;
                assert_eq!(st.texture_remap[m as usize], members[shown], "tic {tic}");
            }
        }
    }

    #[test]
    fn missing_texture_is_a_placeholder_with_a_note() {
        let mut level = testwad::two_room_level();
        level.map.sidedefs[0].middle = "NOSUCH".into();
        let stack = testwad::stack_with(&level);
        let scene = build_scene(&stack, "MAP01").unwrap();
        assert!(scene.textures.iter().any(|t| t.name == "NOSUCH"));
        assert!(scene.facts.notes.iter().any(|n| n.contains("NOSUCH")), "{:?}", scene.facts.notes);
    }

    #[test]
    fn corrupted_wads_give_errors_not_panics() {
        let good = testwad::writer_for(&testwad::two_room_level()).to_bytes();
        let try_build = |bytes: Vec<u8>| {
            if let Ok(wad) = Wad::from_bytes("fuzz.wad", bytes) {
                let stack = WadStack::new(vec![wad]);
                if let Ok(mut scene) = build_scene(&stack, "MAP01") {
                    let mut st = scene.animator.initial();
                    scene.animator.state_at(100, &mut st);
                }
            }
        };
        // Every truncation length in steps, then byte and word corruptions at pseudo-random
        // places (a fixed LCG, so failures reproduce).
        for len in (0..good.len()).step_by(97) {
            try_build(good[..len].to_vec());
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        // Aim at the structured parts (map lumps, texture tables, patches' headers and
        // column offsets, the directory), not the bulk texel data.
        let parsed = Wad::from_bytes("good.wad", good.clone()).unwrap();
        let mut targets: Vec<(usize, usize)> = parsed
            .lumps()
            .iter()
            .filter(|l| !matches!(l.name.as_str(), "PLAYPAL" | "COLORMAP") && l.size > 0)
            .map(|l| (l.offset as usize, (l.size as usize).min(600)))
            .collect();
        let dir = parsed.lumps()[0].dir_offset as usize;
        targets.push((dir, good.len() - dir));
        targets.push((0, 12));
        let iterations = std::env::var("MAPSCOPE_FUZZ_ITERATIONS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(3000usize);
        for _ in 0..iterations {
            let mut b = good.clone();
            for _ in 0..1 + next() % 4 {
                let (start, len) = targets[next() % targets.len()];
                let at = start + next() % len;
                match next() % 3 {
                    0 => b[at] = next() as u8,
                    1 => b[at] = 0xFF,
                    _ => {
                        let end = (at + 2).min(b.len());
                        b[at..end].fill(0x7F);
                    }
                }
            }
            try_build(b);
        }
    }

    #[test]
    fn udmf_part_placement_matches_the_walk_column() {
        // Sidedef x offset 3, part offset 2, x scale 2, seg 10 units along its line: texel u
        // = 3 + 2 + 2 * (10 + along); the walk's column FixedMul(13 + along, 2) plus the
        // tier's offset must give the same.
        let part = PartTexture { x_offset: 2.0, y_offset: 6.0, x_scale: 2.0, y_scale: 0.5 };
        let p = Placement::new(10.0, 3.0, 4.0, &part);
        assert_eq!(p.u(5.0), (25.0, 35.0));
        for along in [0.0, 5.0, 17.5] {
            let col = (13.0 + along) * 2.0 + p.tier_x_offset as f64 / 65536.0;
            assert_eq!(col, 25.0 + 2.0 * along);
        }
        // y: offsets 4 + 6 texels at half scale shift the anchor by 20 map units; a 128-texel
        // texture is 256 units tall.
        assert_eq!((p.y_shift, p.height(128.0)), (20.0, 256.0));
        // No properties: vanilla's placement exactly.
        let p = Placement::new(10.0, 3.0, 4.0, &PartTexture::default());
        assert_eq!((p.u(5.0), p.y_shift, p.tier_x_offset), ((13.0, 18.0), 4.0, 0));
    }

    #[test]
    fn hexen_plane_align_builds_a_ramp() {
        // Line 3 (x = 128, room A in front, floor 0; room B behind, floor 16) aligns B's
        // floor to A's: 0 at the line, 16 at x = 256, and its lower wall goes.
        let mut level = testwad::two_room_level();
        level.map.format = crate::formats::doom::map::MapFormat::Hexen;
        level.map.linedefs[3].special = super::super::slopes::PLANE_ALIGN;
        level.map.linedefs[3].args = [2, 0, 0, 0, 0];
        // Hexen's single-player bit, so that the imp spawns.
        level.map.things.iter_mut().for_each(|t| t.flags |= 0x100);
        let stack = testwad::stack_with(&level);
        let scene = build_scene(&stack, "MAP01").unwrap();
        let floors: Vec<&WorldVertex> = scene
            .world
            .chunks(3)
            .filter(|t| kind(&t[0]) == SurfaceKind::Flat as u32 && normal(t).y > 0.0)
            .flatten()
            .filter(|v| v.pos[0] > 128.0 - 1e-3)
            .collect();
        assert!(!floors.is_empty());
        for v in floors {
            assert!((v.pos[1] - (v.pos[0] - 128.0) / 8.0).abs() < 1e-4, "{:?}", v.pos);
        }
        let lower = scene.world.chunks(3).filter(|t| {
            kind(&t[0]) == SurfaceKind::Wall as u32 && t.iter().all(|v| v.pos[0] == 128.0)
        });
        // Only the upper wall (ceilings 128 and 96) remains on the shared line.
        assert!(lower.clone().count() == 2 && lower.flatten().all(|v| v.pos[1] >= 96.0));
        // B's sector is marked for the frames that reach it; A's is not.
        let Shading::DoomColormap { map: Some(vmap), .. } = &scene.shading else { panic!() };
        assert!(vmap.sectors[1].beyond_canvas && !vmap.sectors[0].beyond_canvas);
        assert!(scene.facts.notes.iter().any(|n| n.contains("1 Plane_Align lines")));
        // The imp in room B (at x = 192) stands on the ramp.
        let imp = scene.sprites.iter().find(|s| s.label == "3001").unwrap();
        assert_eq!(imp.pos, Vec3::new(192.0, 8.0, -64.0));
    }

    #[test]
    fn sloped_walls_become_trapezoids_and_triangles() {
        let heights = |c: &[(DVec2, f64, f64)]| c.iter().map(|c| c.1).collect::<Vec<_>>();
        let (a, b) = (DVec2::ZERO, DVec2::new(100.0, 0.0));
        // Both ends open: the quad, trapezoid-shaped.
        let part = WallPart { top: [64.0, 96.0], bottom: [0.0, 16.0], anchor: 0.0, y_scale: 1.0 };
        let c = wall_corners(a, b, &part, (0.0, 100.0));
        assert_eq!(heights(&c), [0.0, 16.0, 96.0, 0.0, 96.0, 64.0]);
        // Closed at v2 (a ramp's lower wall meeting the floor): one triangle, 0 high there.
        let part = WallPart { top: [32.0, 0.0], bottom: [0.0, 0.0], anchor: 0.0, y_scale: 1.0 };
        let c = wall_corners(a, b, &part, (0.0, 100.0));
        assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [0.0, 100.0, 0.0]);
        assert_eq!(heights(&c), [0.0, 0.0, 32.0]);
        // Top and bottom crossing midway: only the open side's triangle, its tip halfway with
        // the texture's u halfway too.
        let part = WallPart { top: [64.0, 0.0], bottom: [0.0, 64.0], anchor: 0.0, y_scale: 1.0 };
        let c = wall_corners(a, b, &part, (10.0, 110.0));
        assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [0.0, 50.0, 0.0]);
        assert_eq!((c[1].1, c[1].2), (32.0, 60.0));
        let part = WallPart { top: [0.0, 64.0], bottom: [64.0, 0.0], anchor: 0.0, y_scale: 1.0 };
        let c = wall_corners(a, b, &part, (10.0, 110.0));
        assert_eq!(c.iter().map(|c| c.0.x).collect::<Vec<_>>(), [50.0, 100.0, 100.0]);
        // Closed at both ends: nothing.
        let part = WallPart { top: [0.0, 5.0], bottom: [0.0, 5.0], anchor: 0.0, y_scale: 1.0 };
        assert!(wall_corners(a, b, &part, (0.0, 1.0)).is_empty());
    }

    #[test]
    fn sky_names() {
        assert_eq!(sky_texture_name("MAP01"), "SKY1");
        assert_eq!(sky_texture_name("MAP11"), "SKY1");
        assert_eq!(sky_texture_name("MAP12"), "SKY2");
        assert_eq!(sky_texture_name("MAP21"), "SKY3");
        assert_eq!(sky_texture_name("E2M3"), "SKY2");
        assert_eq!(sky_texture_name("E3M1"), "SKY3");
        assert_eq!(sky_texture_name("E4M1"), "SKY4");
    }

    #[test]
    fn every_freedoom_map_builds() {
        let wads = testwad::freedoom();
        let start = std::time::Instant::now();
        let mut maps = 0;
        for stack in wads.iter() {
            for name in stack.map_names() {
                let mut scene = build_scene(stack, &name)
                    .unwrap_or_else(|e| panic!("{}: {name}: {e:#}", stack.wads()[0].name()));
                maps += 1;
                assert!(!scene.world.is_empty(), "{name}");
                assert_eq!(scene.world.len() % 3, 0);
                let n = scene.textures.len() as u32;
                assert!(scene.world.iter().all(|v| v.texture < n));
                assert!(scene.sprites.iter().flat_map(|s| &s.views).all(|v| v.texture < n));
                let sectors = scene.facts.counts.iter().find(|c| c.0 == "sectors").unwrap().1;
                let mut st = scene.animator.initial();
                // A slot per sector, then derived ones (freedoom2 MAP02 and MAP20 transfer
                // light with Boom's 213 and 261).
                assert!(st.light.len() as u64 >= sectors);
                assert!(scene.world.iter().all(|v| (v.light as usize) < st.light.len()));
                assert_eq!(st.texture_remap.len() as u32, n);
                scene.animator.state_at(350, &mut st);
                assert!(st.texture_remap.iter().all(|&t| t < n));
                assert!(scene.sprites.len() > 10, "{name}: {} sprites", scene.sprites.len());
            }
        }
        eprintln!("built {maps} Freedoom maps in {:.2?}", start.elapsed());
    }
}
