//! The level's skies: MAPINFO's `sky1` (else the game's sky for the map), MBF's transferred
//! skies (271/272), and MAPINFO's `sky2` in the sectors whose Hexen-numbered special is Sky2
//! (200), as ZDoom spawns it (`p_spec.cpp`: the sector's sky becomes the second one; a
//! transfer line later wins over it). Under vanilla's rules MAPINFO is not read.

use super::level::sky_texture_name;
use super::scene_textures::TexKey;
use super::Builder;
use crate::formats::doom::graphics::flats::SKY_FLAT;
use crate::formats::doom::graphics::textures::placeholder;
use crate::formats::doom::map::map_info::{map_skies, MapSkies};
use crate::formats::doom::map::MapData;
use crate::formats::doom::specials::boom_build::{transferred_sky, SkySurface};
use crate::formats::doom::specials::boom_views::BoomViews;

/// ZDoom's sector special Sky2 (Hexen numbering; the low byte of the special).
pub const SKY2_SECTOR: u16 = 200;

impl Builder<'_> {
    /// Fills `skies` (the level's first, then the transferred ones, then sky2) and adds the
    /// Sky2 sectors to `sector_sky`.
    pub(super) fn level_skies(&mut self, map: &MapData, views: &BoomViews, vanilla: bool) {
        let info = if vanilla {
            MapSkies::default()
        } else {
            map_skies(self.stack, &map.name, &mut self.notes)
        };
        for (name, which) in [(&info.sky1, "sky1"), (&info.sky2, "sky2")] {
            if let Some(name) = name {
                self.note_asker(name, format!("MAPINFO's {which} for {}", map.name));
            }
        }
        let sky = match info.sky1.as_deref().map(|name| (name, self.wall_texture(name))) {
            Some((_, Some((t, _)))) => t,
            Some((name, None)) => {
                self.notes
                    .push(format!("MAPINFO's sky1 {name} is no texture: the game's sky is drawn"));
                self.game_sky(&map.name)
            }
            None => self.game_sky(&map.name),
        };
        // Sky first so it has a stable, low index (index 0 is the level's).
        self.skies.push(SkySurface::level(sky));
        for line in &views.skies {
            let surface = match self.wall_texture(&line.texture) {
                Some((t, _)) => transferred_sky(t, line.x_offset, line.y_offset, line.flipped),
                None => {
                    self.notes.push(format!(
                        "a sky transfer line names no texture ({}): the level's sky is drawn",
                        line.texture
                    ));
                    SkySurface::level(sky)
                }
            };
            self.skies.push(surface);
        }
        let sky2_sectors: Vec<u32> = if map.doom_specials() {
            Vec::new()
        } else {
            let sky2 = |s: &&crate::formats::doom::map::Sector| s.special & 0xFF == SKY2_SECTOR;
            map.sectors.iter().enumerate().filter(|(_, s)| sky2(s)).map(|(i, _)| i as u32).collect()
        };
        // A map without sky2 shows sky1 there.
        let sky2 = match info.sky2.as_deref().map(|name| (name, self.wall_texture(name))) {
            Some((_, Some((t, _)))) => Some(t),
            Some((name, None)) => {
                self.notes.push(format!("MAPINFO's sky2 {name} is no texture: sky1 is drawn"));
                None
            }
            None => None,
        };
        if let (Some(t), false) = (sky2, sky2_sectors.is_empty()) {
            self.skies.push(SkySurface::level(t));
            let index = self.skies.len() - 2;
            for s in &sky2_sectors {
                self.sector_sky.entry(*s).or_insert(index);
            }
        }
        self.describe_skies(&info, sky2_sectors.len());
    }

    /// The game's sky for map `name` (episode 4 without SKY4 uses SKY3).
    fn game_sky(&mut self, name: &str) -> u32 {
        let mut sky_name = sky_texture_name(name);
        if sky_name == "SKY4" && self.texdir.number("SKY4").is_none() {
            self.notes.push("no SKY4 texture: episode 4 uses SKY3".into());
            sky_name = "SKY3";
        }
        self.note_asker(sky_name, format!("the game's sky for {name}"));
        self.wall_texture(sky_name).map(|(t, _)| t).unwrap_or_else(|| {
            self.add_texture(TexKey::Missing(sky_name.into()), placeholder(sky_name, 256, 128))
        })
    }

    fn describe_skies(&mut self, info: &MapSkies, sky2_sectors: usize) {
        let Some(source) = &info.source else { return };
        let mut what = Vec::new();
        if let Some(s) = &info.sky1 {
            what.push(format!("sky1 {s}"));
        }
        if let Some(s) = &info.sky2 {
            what.push(format!("sky2 {s} ({sky2_sectors} sectors with the Sky2 special, 200)"));
        }
        if !what.is_empty() {
            self.notes.push(format!("MAPINFO ({source}): {}", what.join(", ")));
        }
        if info.double {
            self.notes.push(
                "MAPINFO doublesky (sky2 behind sky1's transparent texels) not drawn: sky1 is \
                 drawn alone"
                    .into(),
            );
        }
        if info.speeds.iter().any(|&v| v != 0.0) {
            let [a, b] = info.speeds;
            self.notes.push(format!(
                "MAPINFO sky scrolling (speeds {a} and {b}) not drawn: the skies stand still"
            ));
        }
    }

    /// The sky surface of sector `sector`'s F_SKY1 planes.
    pub(super) fn sky_of(&self, sector: u32) -> SkySurface {
        let index = self.sector_sky.get(&sector).map_or(0, |&k| k + 1);
        self.skies.get(index).or(self.skies.first()).copied().unwrap_or(SkySurface::level(0))
    }
}

/// Whether a flat name is F_SKY1, which shows the sky on any plane.
pub(super) fn is_sky(flat: &str) -> bool {
    flat.eq_ignore_ascii_case(SKY_FLAT)
}
