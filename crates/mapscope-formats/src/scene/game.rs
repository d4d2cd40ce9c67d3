//! What mapscope knows about each game as a whole, in one place: one [`Game`] value per
//! format, with its name, its units per metre, what its light values mean, the screen it drew
//! on, its tic rate and how `--map` picks one of its maps. Everything above the formats asks
//! the scene's `Game` rather than matching on names.

/// One of the games mapscope reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Doom,
    SaturnQuake,
    Marathon,
    Saucerman,
    Carmageddon2,
}

/// How a game drew and showed its 3D view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScreen {
    /// Frame buffer size in pixels.
    pub width: u32,
    pub height: u32,
    /// Horizontal field of view across `width`, degrees. The vertical focal length equals
    /// the horizontal one in frame-buffer pixels (as in mapscope's renderer).
    pub fov_deg: f64,
    /// Width / height of the picture on the monitor or TV the game was made for.
    pub display_aspect: f64,
    /// Rows of the buffer the 3D view fills when the game's status bar or interface is shown
    /// below it (at the same field of view across the full width), if the game has one.
    pub hud_view_height: Option<u32>,
}

/// The picture a game draws below its view when its status bar or interface is up (Doom's
/// status bar), as a screenshot of the game shows it: `rgb` row-major, `None` where the
/// picture is transparent. `loader::hud_picture` finds it in a level's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HudPicture {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<Option<[u8; 3]>>,
}

impl GameScreen {
    /// The (view rows, buffer rows) of every game whose view a status bar or interface may
    /// share the screen with, at the same field of view across the full width.
    pub fn hud_views() -> impl Iterator<Item = (u32, u32)> {
        Game::ALL
            .into_iter()
            .filter_map(Game::screen)
            .filter_map(|s| s.hud_view_height.map(|view| (view, s.height)))
    }

    /// Width / height of the frame buffer.
    pub fn buffer_aspect(&self) -> f64 {
        self.width as f64 / self.height as f64
    }
}

/// What the numbers in a scene's light slots stand for, so export can turn them into a
/// brightness from 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LightScale {
    /// Light levels 0..=255 (Doom's sector light).
    Levels255,
    /// 16.16 fixed-point intensity, 1.0 = 65536 (Marathon).
    Fixed16,
    /// The values are not light levels (or there are none): nothing is baked.
    NotLevels,
}

impl LightScale {
    /// Light factor 0..1 for a light slot value, where the values are levels.
    pub fn factor(self, value: u32) -> Option<f32> {
        match self {
            LightScale::Levels255 => Some(value.min(255) as f32 / 255.0),
            LightScale::Fixed16 => Some(value.min(65536) as f32 / 65536.0),
            LightScale::NotLevels => None,
        }
    }
}

const FOUR_THIRDS: f64 = 4.0 / 3.0;

impl Game {
    pub const ALL: [Game; 5] =
        [Game::Doom, Game::SaturnQuake, Game::Marathon, Game::Saucerman, Game::Carmageddon2];

    /// The name shown to users (`info`'s format, window titles).
    pub const fn name(self) -> &'static str {
        match self {
            Game::Doom => "Doom",
            Game::SaturnQuake => "Saturn Quake",
            Game::Marathon => "Marathon",
            Game::Saucerman => "Attack of the Saucerman",
            Game::Carmageddon2 => "Carmageddon 2",
        }
    }

    /// Native units per metre (glTF export and `compare --align` work in metres).
    pub const fn units_per_metre(self) -> f64 {
        match self {
            // The player is 56 units tall, about 1.75 m.
            Game::Doom => 32.0,
            // Quake-derived: the player is 56 units tall.
            Game::SaturnQuake => 32.0,
            // One world unit (1024 internal units) is about 2 m: a doorway is 1 WU high.
            Game::Marathon => 512.0,
            // A terrain cell is 256 units; the saucer's cells are roughly 4 m across.
            Game::Saucerman => 64.0,
            // BRender tracks are modelled in metres.
            Game::Carmageddon2 => 1.0,
        }
    }

    /// What the scene's light slot values mean.
    pub const fn light_scale(self) -> LightScale {
        match self {
            Game::Doom => LightScale::Levels255,
            Game::Marathon => LightScale::Fixed16,
            // Saturn's light is per vertex, Saucerman's and Carmageddon 2's in tables.
            Game::SaturnQuake | Game::Saucerman | Game::Carmageddon2 => LightScale::NotLevels,
        }
    }

    /// The game's own screen, where known (the viewer's game resolution mode lays a
    /// screenshot of the game over it pixel for pixel).
    pub const fn screen(self) -> Option<GameScreen> {
        match self {
            // Vanilla: 320x200, 90 degrees across the 320 columns (centerx 160 with the same
            // projection scale for rows), shown stretched to 4:3 on a VGA monitor (pixels 1.2
            // times as tall as wide).
            // With the status bar (screenblocks 10) the view is the 168 rows above its 32
            // (ST_HEIGHT), full width, centred on its own middle row.
            Game::Doom => Some(GameScreen {
                width: 320,
                height: 200,
                fov_deg: 90.0,
                display_aspect: FOUR_THIRDS,
                hud_view_height: Some(168),
            }),
            // The Saturn's 320x224 NTSC mode shown on a 4:3 TV. The field of view is not in
            // the spec: Quake's default 90 degrees is assumed.
            Game::SaturnQuake => Some(GameScreen {
                width: 320,
                height: 224,
                fov_deg: 90.0,
                display_aspect: FOUR_THIRDS,
                hud_view_height: None,
            }),
            // Marathon 2/Infinity's full-screen view: 640x480 with the engine's normal field
            // of view of 80 degrees across the standard 640-pixel width (render.c
            // `initialize_view_data`: `world_to_screen = half_screen_width / tan(half_cone)`
            // for both axes), square pixels. With the interface shown the world view is
            // 640x320 at the same 80 degrees.
            Game::Marathon => Some(GameScreen {
                width: 640,
                height: 480,
                fov_deg: 80.0,
                display_aspect: FOUR_THIRDS,
                hud_view_height: Some(320),
            }),
            // PC: 320x240 (the size of its full-screen bitmaps), square pixels on a 4:3
            // monitor. The field of view is not in the spec: 90 degrees is assumed.
            Game::Saucerman => Some(GameScreen {
                width: 320,
                height: 240,
                fov_deg: 90.0,
                display_aspect: FOUR_THIRDS,
                hud_view_height: None,
            }),
            Game::Carmageddon2 => None,
        }
    }

    /// Game tics per second: the animation clock `--tic` counts.
    pub const fn tic_rate(self) -> f64 {
        match self {
            Game::Doom => 35.0,
            Game::SaturnQuake | Game::Marathon | Game::Saucerman => 30.0,
            // Nothing animates; the clock shown keeps Doom's rate.
            Game::Carmageddon2 => 35.0,
        }
    }

    /// The number `--map` gives the first map in `list`'s order: 1, except Marathon, whose
    /// engine numbers its levels from 0 (an unnamed level is "Level 0").
    pub const fn first_map_number(self) -> usize {
        match self {
            Game::Marathon => 0,
            _ => 1,
        }
    }

    /// What the game calls one of its maps, for messages.
    const fn map_noun(self) -> (&'static str, &'static str) {
        match self {
            Game::Doom | Game::Carmageddon2 => ("map", "maps"),
            Game::SaturnQuake | Game::Marathon | Game::Saucerman => ("level", "levels"),
        }
    }

    /// The map `wanted` (a `--map` value) picks among `names` (`list`'s order), as an index
    /// into `names`. The one rule for every game:
    ///
    /// 1. a map's name, whole, in any case, spaces around ignored; a name several maps share
    ///    picks none (a reopened shot must never land in the wrong map);
    /// 2. else a number: the map's position in `list`, counted from
    ///    [`first_map_number`](Game::first_map_number).
    ///
    /// Alias kept from before the rule: Saturn Quake's single level also answers to 0.
    pub fn pick_map(self, names: &[String], wanted: &str) -> Result<usize, String> {
        let (one, many) = self.map_noun();
        let key = wanted.trim().to_lowercase();
        let named: Vec<usize> =
            (0..names.len()).filter(|&i| names[i].trim().to_lowercase() == key).collect();
        let first = self.first_map_number();
        match named[..] {
            [i] => return Ok(i),
            [] => {}
            _ => {
                let numbers: Vec<String> = named.iter().map(|i| (i + first).to_string()).collect();
                return Err(format!(
                    "{} {many} are named {wanted:?} (numbers {}): give the number with --map",
                    named.len(),
                    numbers.join(", ")
                ));
            }
        }
        let number = wanted.trim().parse::<usize>().ok();
        let saturn_zero = self == Game::SaturnQuake && names.len() == 1 && number == Some(0);
        match number.and_then(|n| n.checked_sub(first)) {
            Some(i) if i < names.len() => Ok(i),
            _ if saturn_zero => Ok(0),
            _ => {
                let listed: Vec<String> =
                    names.iter().enumerate().map(|(i, n)| format!("{} {n}", i + first)).collect();
                Err(format!(
                    "no {one} {wanted:?} ({many}, by number from {first}: {})",
                    listed.join(", ")
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_views_above_a_status_bar_or_interface_are_dooms_and_marathons() {
        // Doom's 168 rows above its 32-row bar (ST_HEIGHT), Marathon's 320 above its 160-row
        // interface.
        let views: Vec<(u32, u32)> = GameScreen::hud_views().collect();
        assert_eq!(views, [(168, 200), (320, 480)]);
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn maps_are_picked_by_name_in_any_case_then_by_number() {
        let names = names(&["Arrival", "Shake Before Using…", "ÉTÉ", "1", "Twice", "twice "]);
        let m = Game::Marathon;
        assert_eq!(m.pick_map(&names, "shake before using…"), Ok(1));
        assert_eq!(m.pick_map(&names, " été "), Ok(2), "case folds beyond ASCII");
        assert_eq!(m.pick_map(&names, "0"), Ok(0));
        assert_eq!(m.pick_map(&names, "1"), Ok(3), "a name wins over a number");
        let twice = m.pick_map(&names, "TWICE").unwrap_err();
        assert!(twice.contains("numbers 4, 5"), "{twice}");
        let none = m.pick_map(&names, "Shake Before Using...").unwrap_err();
        assert!(none.contains("no level \"Shake Before Using...\""), "{none}");
        assert!(none.contains("1 Shake Before Using…"), "{none}");
        assert!(m.pick_map(&names, "6").is_err());
        // The same names counted from 1.
        let c = Game::Carmageddon2;
        assert_eq!(c.pick_map(&names, "2"), Ok(1));
        assert_eq!(c.pick_map(&names, "6"), Ok(5));
        assert!(c.pick_map(&names, "0").is_err());
        assert!(c.pick_map(&names, "7").is_err());
        let twice = c.pick_map(&names, "twice").unwrap_err();
        assert!(twice.contains("numbers 5, 6"), "{twice}");
    }

    #[test]
    fn every_game_counts_from_one_but_marathon_from_zero() {
        let names = names(&["E1M1", "E1M2"]);
        for game in Game::ALL {
            let first = game.first_map_number();
            assert_eq!(first, if game == Game::Marathon { 0 } else { 1 }, "{game:?}");
            assert_eq!(game.pick_map(&names, "e1m2"), Ok(1), "{game:?}");
            assert_eq!(game.pick_map(&names, &(first + 1).to_string()), Ok(1), "{game:?}");
            assert!(game.pick_map(&names, &(first + 2).to_string()).is_err(), "{game:?}");
            assert!(game.pick_map(&names, "NOPE").is_err(), "{game:?}");
        }
    }

    #[test]
    fn saturn_keeps_zero_for_its_one_level() {
        let one = names(&["E1L1"]);
        assert_eq!(Game::SaturnQuake.pick_map(&one, "0"), Ok(0));
        assert_eq!(Game::SaturnQuake.pick_map(&one, "1"), Ok(0));
        assert_eq!(Game::SaturnQuake.pick_map(&one, "e1l1"), Ok(0));
        assert!(Game::SaturnQuake.pick_map(&one, "2").is_err());
        assert!(Game::Saucerman.pick_map(&one, "0").is_err(), "the alias is Saturn's alone");
    }

    #[test]
    fn screens_units_and_light() {
        let doom = Game::Doom.screen().map(|s| (s.width, s.height, s.fov_deg));
        assert_eq!(doom, Some((320, 200, 90.0)));
        assert_eq!(Game::Saucerman.screen().map(|s| s.height), Some(240));
        assert_eq!(Game::SaturnQuake.screen().map(|s| s.height), Some(224));
        assert_eq!(Game::Marathon.screen().map(|s| (s.width, s.fov_deg)), Some((640, 80.0)));
        assert_eq!(Game::Carmageddon2.screen(), None);
        assert_eq!(Game::Doom.light_scale().factor(300), Some(1.0));
        assert_eq!(Game::Marathon.light_scale().factor(32768), Some(0.5));
        assert_eq!(Game::Saucerman.light_scale().factor(10), None);
        assert_eq!(Game::Marathon.units_per_metre(), 512.0);
    }
}
