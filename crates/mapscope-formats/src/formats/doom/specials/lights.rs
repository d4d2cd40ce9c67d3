//! Sector light specials, simulated tic by tic as vanilla `p_lights.c` does.
//!
//! `P_SpawnSpecials` walks the sectors in order and spawns one thinker per light special; each
//! tic `P_RunThinkers` runs them in that order. Random ones draw from `P_Random`, whose index
//! `G_InitNew` clears to 0 and which the things' spawning draws from first (`P_LoadThings`
//! runs before `P_SpawnSpecials` in `P_SetupLevel`; see `things::spawn_thing`). Each tic only
//! the light thinkers draw from it here: the things that spawn with `-nomonsters` (items,
//! decorations, the player) change state without drawing, and monsters are not simulated.

use crate::formats::doom::map::{line_flags, MapData};

/// Vanilla's `rndtable` (m_random.c).
pub static RNDTABLE: [u8; 256] = [
    0, 8, 109, 220, 222, 241, 149, 107, 75, 248, 254, 140, 16, 66, 74, 21, 211, 47, 80, 242, 154,
    27, 205, 128, 161, 89, 77, 36, 95, 110, 85, 48, 212, 140, 211, 249, 22, 79, 200, 50, 28, 188,
    52, 140, 202, 120, 68, 145, 62, 70, 184, 190, 91, 197, 152, 224, 149, 104, 25, 178, 252, 182,
    202, 182, 141, 197, 4, 81, 181, 242, 145, 42, 39, 227, 156, 198, 225, 193, 219, 93, 122, 175,
    249, 0, 175, 143, 70, 239, 46, 246, 163, 53, 163, 109, 168, 135, 2, 235, 25, 92, 20, 145, 138,
    77, 69, 166, 78, 176, 173, 212, 166, 113, 94, 161, 41, 50, 239, 49, 111, 164, 70, 60, 2, 37,
    171, 75, 136, 156, 11, 56, 42, 146, 138, 229, 73, 146, 77, 61, 98, 196, 135, 106, 63, 197, 195,
    86, 96, 203, 113, 101, 170, 247, 181, 113, 80, 250, 108, 7, 255, 237, 129, 226, 79, 107, 112,
    166, 103, 241, 24, 223, 239, 120, 198, 58, 60, 82, 128, 3, 184, 66, 143, 224, 145, 224, 81,
    206, 163, 45, 63, 90, 168, 114, 59, 33, 159, 95, 28, 139, 123, 98, 125, 196, 15, 70, 194, 253,
    54, 14, 109, 226, 71, 17, 161, 93, 186, 87, 244, 138, 20, 52, 123, 251, 26, 36, 17, 46, 52,
    231, 232, 76, 31, 221, 84, 37, 216, 165, 212, 106, 197, 242, 98, 43, 39, 175, 254, 145, 190,
    84, 118, 222, 187, 136, 120, 163, 236, 249,
];

/// `P_Random`: pre-increments the index, so the first value drawn is `RNDTABLE[1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PRandom {
    pub index: u8,
}

impl PRandom {
    pub fn p_random(&mut self) -> i32 {
        self.index = self.index.wrapping_add(1);
        RNDTABLE[self.index as usize] as i32
    }
}

const GLOWSPEED: i32 = 8;
const STROBEBRIGHT: i32 = 5;
const FASTDARK: i32 = 15;
const SLOWDARK: i32 = 35;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Thinker {
    /// Special 1: `lightflash_t`.
    Flash { sector: usize, count: i32, max: i32, min: i32, maxtime: i32, mintime: i32 },
    /// Specials 2, 3, 4, 12, 13: `strobe_t`.
    Strobe { sector: usize, count: i32, min: i32, max: i32, dark: i32, bright: i32 },
    /// Special 8: `glow_t`.
    Glow { sector: usize, min: i32, max: i32, direction: i32 },
    /// Special 17: `fireflicker_t`.
    Fire { sector: usize, count: i32, max: i32, min: i32 },
}

/// Light levels of every sector at a tic, stepped forward from level start.
#[derive(Clone, Debug)]
pub struct LightSim {
    start_levels: Vec<i32>,
    start_thinkers: Vec<Thinker>,
    start_random: PRandom,
    levels: Vec<i32>,
    thinkers: Vec<Thinker>,
    random: PRandom,
    tic: u32,
}

impl LightSim {
    /// Spawns the light thinkers of `map` as `P_SpawnSpecials` (which itself draws random
    /// numbers for flashes and unsynchronised strobes), with `P_Random` at index 0.
    pub fn new(map: &MapData) -> LightSim {
        LightSim::with_random(map, PRandom::default())
    }

    /// [`LightSim::new`] with `P_Random` where the things' spawning left it.
    pub fn with_random(map: &MapData, random: PRandom) -> LightSim {
        let levels: Vec<i32> = map.sectors.iter().map(|s| s.light as i32).collect();
        let neighbours = neighbour_sectors(map);
        // P_FindMinSurroundingLight: lowest light among two-sided neighbours, at most `max`.
        let min_around =
            |s: usize, max: i32| neighbours[s].iter().map(|&n| levels[n]).fold(max, i32::min);
        let mut random = random;
        let mut thinkers = Vec::new();
        for (s, sector) in map.sectors.iter().enumerate() {
            let light = levels[s];
            let strobe = |dark: i32, in_sync: bool, random: &mut PRandom| {
                let mut min = min_around(s, light);
                if min == light {
                    min = 0;
                }
                let count = if in_sync { 1 } else { (random.p_random() & 7) + 1 };
                Thinker::Strobe { sector: s, count, min, max: light, dark, bright: STROBEBRIGHT }
            };
            let special = if map.doom_specials() { sector.special } else { 0 };
            let thinker = match special {
                1 => {
                    let count = (random.p_random() & 64) + 1;
                    Thinker::Flash {
                        sector: s,
                        count,
                        max: light,
                        min: min_around(s, light),
                        maxtime: 64,
                        mintime: 7,
                    }
                }
                2 | 4 => strobe(FASTDARK, false, &mut random),
                3 => strobe(SLOWDARK, false, &mut random),
                12 => strobe(SLOWDARK, true, &mut random),
                13 => strobe(FASTDARK, true, &mut random),
                8 => Thinker::Glow {
                    sector: s,
                    min: min_around(s, light),
                    max: light,
                    direction: -1,
                },
                17 => Thinker::Fire {
                    sector: s,
                    count: 4,
                    max: light,
                    min: min_around(s, light) + 16,
                },
                _ => continue,
            };
            thinkers.push(thinker);
        }
        LightSim {
            start_levels: levels.clone(),
            start_thinkers: thinkers.clone(),
            start_random: random,
            levels,
            thinkers,
            random,
            tic: 0,
        }
    }

    /// Number of light thinkers.
    pub fn thinker_count(&self) -> usize {
        self.thinkers.len()
    }

    /// Sector light levels at level start (before any tic).
    pub fn initial_levels(&self) -> &[i32] {
        &self.start_levels
    }

    /// Steps to `tic` (rewinding to level start only when `tic` is earlier than the current
    /// one) and returns the sector light levels there.
    pub fn levels_at(&mut self, tic: u32) -> &[i32] {
        if tic < self.tic {
            self.levels.clone_from(&self.start_levels);
            self.thinkers.clone_from(&self.start_thinkers);
            self.random = self.start_random;
            self.tic = 0;
        }
        while self.tic < tic {
            self.step();
        }
        &self.levels
    }

    /// One tic of `P_RunThinkers` over the light thinkers.
    fn step(&mut self) {
        let levels = &mut self.levels;
        let random = &mut self.random;
        for t in &mut self.thinkers {
            match t {
                Thinker::Flash { sector, count, max, min, maxtime, mintime } => {
                    *count -= 1;
                    if *count != 0 {
                        continue;
                    }
                    if levels[*sector] == *max {
                        levels[*sector] = *min;
                        *count = (random.p_random() & *mintime) + 1;
                    } else {
                        levels[*sector] = *max;
                        *count = (random.p_random() & *maxtime) + 1;
                    }
                }
                Thinker::Strobe { sector, count, min, max, dark, bright } => {
                    *count -= 1;
                    if *count != 0 {
                        continue;
                    }
                    if levels[*sector] == *min {
                        levels[*sector] = *max;
                        *count = *bright;
                    } else {
                        levels[*sector] = *min;
                        *count = *dark;
                    }
                }
                Thinker::Glow { sector, min, max, direction } => {
                    let l = &mut levels[*sector];
                    if *direction == -1 {
                        *l -= GLOWSPEED;
                        if *l <= *min {
                            *l += GLOWSPEED;
                            *direction = 1;
                        }
                    } else {
                        *l += GLOWSPEED;
                        if *l >= *max {
                            *l -= GLOWSPEED;
                            *direction = -1;
                        }
                    }
                }
                Thinker::Fire { sector, count, max, min } => {
                    *count -= 1;
                    if *count != 0 {
                        continue;
                    }
                    let amount = (random.p_random() & 3) * 16;
                    levels[*sector] =
                        if levels[*sector] - amount < *min { *min } else { *max - amount };
                    *count = 4;
                }
            }
        }
        self.tic += 1;
    }
}

/// For each sector, the sectors across its two-sided lines (`getNextSector`: only lines with
/// the two-sided flag count).
fn neighbour_sectors(map: &MapData) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); map.sectors.len()];
    for l in &map.linedefs {
        if !l.has_flag(line_flags::TWO_SIDED) {
            continue;
        }
        let (front, back) = (map.line_sector(l, 0), map.line_sector(l, 1));
        // getNextSector(line, sec) returns the back sector when sec is the front, else the
        // front; a line with the same sector on both sides is listed once.
        if let Some(f) = front {
            if let Some(b) = back {
                out[f].push(b);
            }
        }
        if let Some(b) = back {
            if Some(b) != front {
                if let Some(f) = front {
                    out[b].push(f);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    fn sim(special0: u16, special1: u16, light0: i16, light1: i16) -> LightSim {
        let mut level = testwad::two_room_level();
        level.map.sectors[0].special = special0;
        level.map.sectors[0].light = light0;
        level.map.sectors[1].special = special1;
        level.map.sectors[1].light = light1;
        LightSim::new(&level.map)
    }

    #[test]
    fn rndtable_matches_known_values() {
        let mut r = PRandom::default();
        assert_eq!(r.p_random(), 8);
        assert_eq!(r.p_random(), 109);
        assert_eq!(RNDTABLE[255], 249);
        let sum: u32 = RNDTABLE.iter().map(|&v| v as u32).sum();
        assert_eq!(sum, 32986);
    }

    #[test]
    fn glow_oscillates_between_neighbour_and_own_level() {
        let mut s = sim(8, 0, 160, 96);
        assert_eq!(s.levels_at(1)[0], 152);
        assert_eq!(s.levels_at(7)[0], 104);
        // 160 - 8*8 = 96 <= min: bounces back to 104 and turns up.
        assert_eq!(s.levels_at(8)[0], 104);
        assert_eq!(s.levels_at(9)[0], 112);
        assert_eq!(s.levels_at(15)[0], 160 - 8 + 8 - 8);
        // Rewinding gives the same values.
        assert_eq!(s.levels_at(1)[0], 152);
        assert_eq!(s.levels_at(0)[0], 160);
    }

    #[test]
    fn synchronised_strobe_timing() {
        // Special 13: fast (dark 15), in sync: count 1, so it goes dark at tic 1.
        let mut s = sim(13, 0, 200, 100);
        assert_eq!(s.levels_at(1)[0], 100);
        assert_eq!(s.levels_at(15)[0], 100);
        assert_eq!(s.levels_at(16)[0], 200);
        assert_eq!(s.levels_at(20)[0], 200);
        assert_eq!(s.levels_at(21)[0], 100);
        // No darker neighbour: the strobe goes to 0.
        let mut s = sim(12, 0, 100, 200);
        assert_eq!(s.levels_at(1)[0], 0);
    }

    #[test]
    fn random_specials_draw_in_sector_order() {
        // Sector 0 strobe (draws rndtable[1] = 8 -> count (8&7)+1 = 1), then sector 1 flash
        // (draws rndtable[2] = 109 -> count (109&64)+1 = 65).
        let mut s = sim(2, 1, 200, 100);
        assert_eq!(s.random.index, 2);
        assert_eq!(s.levels_at(1)[0], 100);
        assert_eq!(s.levels_at(64)[1], 100);
        // Tic 65: the flash reaches 0 and drops to the minimum (the strobing neighbour's
        // spawn-time light, 200 > 100, so its own level: no change visible) ...
        let l = s.levels_at(65)[1];
        assert_eq!(l, 100);
        // Started where the things' spawning left P_Random (index 6), the strobe draws
        // rndtable[7] = 107 -> count 4 and the flash rndtable[8] = 75 -> count 1.
        let mut level = testwad::two_room_level();
        level.map.sectors[0].special = 2;
        level.map.sectors[1].special = 1;
        (level.map.sectors[0].light, level.map.sectors[1].light) = (200, 100);
        let mut s = LightSim::with_random(&level.map, PRandom { index: 6 });
        assert_eq!(s.random.index, 8);
        assert_eq!(s.levels_at(3)[0], 200);
        assert_eq!(s.levels_at(4)[0], 100);
        // ... fire flicker stays within [min, max].
        let mut f = sim(17, 0, 200, 100);
        for tic in 0..200 {
            let l = f.levels_at(tic)[0];
            assert!((116..=200).contains(&l), "tic {tic}: {l}");
        }
    }
}
