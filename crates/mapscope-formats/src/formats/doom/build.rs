//! Builds the neutral [`Scene`] of a Doom map: walls from SEGS with vanilla texture pegging
//! (`r_segs.c`), floors and ceilings from subsector polygons, sprites for the things that
//! spawn at level start, the spawn camera, textures, and the animator.
//!
//! Winding: every triangle is counter-clockwise seen from the side it faces (walls face their
//! seg's front, floors face up, ceilings face down), so back-face culling is vanilla-faithful
//! (vanilla never draws a seg from behind).
//!
//! [`build_level_scene`] runs the steps in order, each in its own file under `build/`, all
//! drawing through one `Builder`: `inputs` (what the map's lumps say), `skies`, `walls`
//! (segs and polyobjects), `planes` (floors, ceilings and 3D floors' `slabs`), `things`,
//! `cycles` (animation), the spawn camera (`level`), `vanilla_payload` (what the CPU's frames
//! draw from), `facts` (with `missing`: the names no lookup found, and where the map asks
//! for them) and `automap` (the linedefs as vanilla's automap draws them). Texture lookups
//! are in `scene_textures`, light and scroll numbering in `slots`, 3D floors' light in
//! `light_bands`. The order matters: notes, texture numbers and light slots are given out as
//! the steps go.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use glam::{DVec2, Vec3};

use crate::formats::Result;
use crate::scene::{Axes, ClearColor, Game, Scene, Shading, Sky, Texture, WorldVertex};

use super::archive::wad::WadStack;
use super::graphics::textures::{PatchCache, TextureDirectory, TextureRules};
use super::map::things::DEFAULT_SKILL;
use super::map::udmf_props::UdmfProps;
use super::specials::animation::DoomAnimator;
use super::specials::boom::BoomEffects;
use super::specials::boom_build::SkySurface;
use super::specials::lights::LightSim;
use super::specials::line_styles::LineStyle;
use super::specials::slopes::SectorSlopes;

mod automap;
mod cycles;
mod facts;
mod inputs;
mod level;
mod light_bands;
mod missing;
mod planes;
mod polyobjects;
mod scene_textures;
mod sector_tints;
mod skies;
mod slabs;
mod slots;
mod thing_notes;
mod things;
mod vanilla_payload;
mod walls;

#[cfg(test)]
mod tests;

use inputs::LevelInputs;
use level::spawn_camera;
pub use level::{player_start, sky_texture_name, DoomLevel, PlayerStart};
use light_bands::LightBands;
use missing::Missing;
use scene_textures::TexKey;
use slots::{LightSlots, ScrollSlots};

/// Eye height above the floor (`VIEWHEIGHT`).
pub const VIEW_HEIGHT: f64 = 41.0;

/// Most texels one scene decodes (wall textures and sprites; Freedoom maps use under 10M).
/// Every single picture is capped too, but a hostile WAD could name thousands of huge ones.
pub const SCENE_TEXEL_BUDGET: usize = 1 << 27;

/// Linedef special: the front sidedef scrolls one texel per tic.
pub const SCROLL_SPECIAL: u16 = super::specials::boom::SCROLL_LEFT;

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

/// Builds map `map` at the default skill.
pub fn build_scene(stack: &WadStack, map: &str) -> Result<Scene> {
    build_scene_with(stack, map, &BuildOptions::default())
}

pub fn build_scene_with(stack: &WadStack, map: &str, opts: &BuildOptions) -> Result<Scene> {
    let level = DoomLevel::load(stack, map)?;
    build_level_scene(stack, &level, opts)
}

/// Builds the scene of an already loaded level, one named step after another (see the module
/// comment); each step draws into the builder `b`.
pub fn build_level_scene(
    stack: &WadStack,
    level: &DoomLevel,
    opts: &BuildOptions,
) -> Result<Scene> {
    let mut notes = level.map.notes.clone();
    let (inputs, tables) = LevelInputs::read(stack, level, opts, &mut notes)?;
    let map = inputs.map(level);
    let mut b = Builder::new(stack, level, &inputs, &tables.palette, notes);
    b.level_skies(map, &inputs.views, opts.vanilla);
    let (segs, po_sectors) = b.walls(map, &inputs.shown, &inputs.polyobjects);
    b.planes(map, &level.polygons, &inputs.shown, &inputs.floors_3d);
    let (mut things, frames) = b.things(map, opts, &tables.palette);
    let cycles = b.animation_cycles();
    let spawn = spawn_camera(level, map, &mut b.notes);
    let vanilla_map =
        b.vanilla_payload(map, &inputs, tables.tranmaps, &mut things.sprites, frames, &po_sectors);
    let lights = LightSim::with_random(map, things.random);
    let facts = b.level_facts(map, level, &things, &lights, cycles.len());
    let parts = b.parts(map);
    let automap = automap::doom_automap(map, &tables.palette);
    let animator = DoomAnimator::new(cycles, lights, b.textures.len(), b.scrolls.velocities)
        .with_derived_lights(b.lights.derived.clone())
        .with_things(things.spawn_words, things.animated);
    Ok(Scene {
        name: map.name.clone(),
        game: Game::Doom,
        axes: Axes::ZUpRightHanded,
        palette: tables.palette,
        shading: Shading::DoomColormap {
            colormap: tables.colormap,
            segs,
            map: Some(vanilla_map),
            smooth_flats: b.smooth_flats,
        },
        clear: ClearColor::default(),
        near: 1.0,
        textures: b.textures,
        world: b.world,
        parts,
        sprites: things.sprites,
        sky: b.skies.first().map(|s| Sky { texture: s.texture }),
        markers: things.markers,
        cells: None,
        spawn,
        animator: Box::new(animator),
        facts,
        records: Some(std::sync::Arc::new(super::records::DoomRecords::new(map, &level.polygons))),
        automap: Some(automap),
    })
}

/// The state every step draws into: the scene's textures, world vertices, light, scroll and
/// sky slots and notes so far, and what the level's inputs say.
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
    /// Names no lookup found, in the order first asked for (see `missing`).
    missing: Vec<Missing>,
    /// Texture names asked for by something other than a sidedef (MAPINFO's sky), and by what.
    askers: Vec<(String, String)>,
}

impl<'a> Builder<'a> {
    /// A builder with nothing drawn yet, drawing `level` (its map as `inputs` shows it) with
    /// `palette`'s colours, its notes starting with `notes`.
    fn new(
        stack: &'a WadStack,
        level: &'a DoomLevel,
        inputs: &'a LevelInputs,
        palette: &[[u8; 3]],
        notes: Vec<String>,
    ) -> Builder<'a> {
        let map = inputs.map(level);
        Builder {
            stack,
            texdir: &inputs.texdir,
            patches: PatchCache::new(palette),
            textures: Vec::new(),
            keys: HashMap::new(),
            used_walls: BTreeSet::new(),
            used_flats: BTreeSet::new(),
            notes,
            world: Vec::new(),
            surface: 0,
            texels_left: SCENE_TEXEL_BUDGET,
            budget_noted: false,
            props: &inputs.props,
            boom: &inputs.boom,
            slopes: &level.slopes,
            lights: LightSlots::new(map.sectors.len()),
            scrolls: ScrollSlots::default(),
            skies: Vec::new(),
            sector_sky: inputs.views.sector_sky.clone(),
            translucent: &inputs.tranmap_of_line,
            line_styles: &inputs.line_styles,
            vanilla: inputs.rules == TextureRules::Vanilla,
            bands: LightBands::new(map, &inputs.floors_3d, &level.slopes),
            smooth_flats: Vec::new(),
            po_lines: inputs.polyobjects.iter().flat_map(|p| p.lines.iter().copied()).collect(),
            missing: Vec::new(),
            askers: Vec::new(),
        }
    }
}

/// A 16.16 value in map units.
fn fixed_units(v: i32) -> f64 {
    v as f64 / 65536.0
}

/// 16.16 from map units, saturating.
fn to_fixed(v: f64) -> i32 {
    (v * 65536.0).round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// Map point at height z in viewer space.
fn viewer(p: DVec2, z: f64) -> Vec3 {
    Axes::ZUpRightHanded.to_viewer(Vec3::new(p.x as f32, p.y as f32, z as f32))
}
