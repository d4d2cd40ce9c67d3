//! Lights: the 100-byte Marathon 2 light, the 32-byte Marathon 1 light and its conversion, and
//! the engine's light state machine (six lighting functions, one tick at a time).

use crate::formats::{Reader, Result};
use crate::limits::marathon::MAX_SKIPS;

pub const LIGHT_SIZE: usize = 100;
pub const OLD_LIGHT_SIZE: usize = 32;
pub const FIXED_ONE: i32 = 1 << 16;
pub const TICKS_PER_SECOND: i16 = 30;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LightingFunction {
    /// 0 constant, 1 linear, 2 smooth, 3 flicker, 4 random, 5 fluorescent.
    pub function: u16,
    pub period: i16,
    pub delta_period: i16,
    pub intensity: i32,
    pub delta_intensity: i32,
}

/// States in the order the record stores their functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LightState {
    PrimaryActive = 0,
    SecondaryActive = 1,
    BecomingActive = 2,
    PrimaryInactive = 3,
    SecondaryInactive = 4,
    BecomingInactive = 5,
}

pub const LIGHT_INITIALLY_ACTIVE: u16 = 1;
pub const LIGHT_STATELESS: u16 = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticLight {
    /// 0 normal, 1 strobe, 2 media.
    pub kind: u16,
    pub flags: u16,
    pub phase: i16,
    pub functions: [LightingFunction; 6],
    pub tag: i16,
}

impl StaticLight {
    /// A light whose every function ends at one intensity, with no random spread, has that
    /// intensity at all times (every function moves from one intensity to the next).
    pub fn constant_intensity(&self) -> Option<i32> {
        let first = self.functions[0].intensity;
        self.functions
            .iter()
            .all(|f| f.intensity == first && f.delta_intensity == 0)
            .then_some(first)
    }
}

fn lighting_function(r: &mut Reader) -> Result<LightingFunction> {
    Ok(LightingFunction {
        function: r.u16_be()?,
        period: r.i16_be()?,
        delta_period: r.i16_be()?,
        intensity: r.i32_be()?,
        delta_intensity: r.i32_be()?,
    })
}

pub fn static_light(r: &mut Reader) -> Result<StaticLight> {
    let kind = r.u16_be()?;
    let flags = r.u16_be()?;
    let phase = r.i16_be()?;
    let mut functions = [LightingFunction {
        function: 0,
        period: 0,
        delta_period: 0,
        intensity: 0,
        delta_intensity: 0,
    }; 6];
    for f in &mut functions {
        *f = lighting_function(r)?;
    }
    let tag = r.i16_be()?;
    Ok(StaticLight { kind, flags, phase, functions, tag })
}

/// Marathon 1 light record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OldLight {
    pub flags: u16,
    /// 0 normal, 1 rheostat, 2 fluorescent, 3 strobe, 4 flickers, 5 pulsates, 6 annoying,
    /// 7 energy efficient.
    pub kind: u16,
    /// 0 turning on, 1 on, 2 turning off, 3 off.
    pub mode: u16,
    pub phase: i16,
    pub minimum_intensity: i32,
    pub maximum_intensity: i32,
    pub period: i16,
}

pub fn old_light(r: &mut Reader) -> Result<OldLight> {
    Ok(OldLight {
        flags: r.u16_be()?,
        kind: r.u16_be()?,
        mode: r.u16_be()?,
        phase: r.i16_be()?,
        minimum_intensity: r.i32_be()?,
        maximum_intensity: r.i32_be()?,
        period: r.i16_be()?,
    })
}

const fn func(function: u16, period: i16, delta_period: i16, intensity: i32) -> LightingFunction {
    LightingFunction { function, period, delta_period, intensity, delta_intensity: 0 }
}

const T: i16 = TICKS_PER_SECOND;
const HALF: i32 = FIXED_ONE / 2;

/// The engine's default functions for its normal and strobe light types, which Marathon 1
/// lights are converted from.
const NORMAL_DEFAULTS: [LightingFunction; 6] = [
    func(0, T, 0, FIXED_ONE),
    func(0, T, 0, FIXED_ONE),
    func(2, T, 0, FIXED_ONE),
    func(0, T, 0, 0),
    func(0, T, 0, 0),
    func(2, T, 0, 0),
];
const STROBE_DEFAULTS: [LightingFunction; 6] = [
    func(0, T / 2, 0, FIXED_ONE),
    func(0, T / 2, 0, HALF),
    func(2, T, 0, HALF),
    func(0, T, 0, 0),
    func(0, T, 0, 0),
    func(2, T, 0, 0),
];
const ANNOYING: [LightingFunction; 6] = [
    func(4, 2, 1, FIXED_ONE),
    func(0, 2, 0, FIXED_ONE),
    func(4, 1, 0, FIXED_ONE),
    func(0, T, 0, 0),
    func(0, T, 0, 0),
    func(0, T, 0, 0),
];
const PULSATES: [LightingFunction; 6] = [
    func(2, 2 * T, 0, FIXED_ONE),
    func(2, 2 * T - 1, 0, 0),
    func(2, 2 * T - 1, 0, FIXED_ONE),
    func(2, 2 * T, 0, 0),
    func(2, 2 * T - 1, 0, FIXED_ONE),
    func(2, 2 * T, 0, 0),
];

impl OldLight {
    /// The engine's conversion: normal-like types take the normal defaults, strobe and flicker
    /// the strobe defaults, each function's intensity rescaled into [minimum, maximum] and its
    /// period scaled by the old period; annoying and pulsating lights pick minimum or maximum
    /// per function. Mode "on" starts active.
    pub fn to_static(&self) -> StaticLight {
        let (min, max) = (self.minimum_intensity, self.maximum_intensity);
        let mut functions = match self.kind {
            3 | 4 => STROBE_DEFAULTS,
            6 => ANNOYING,
            5 => PULSATES,
            _ => NORMAL_DEFAULTS,
        };
        match self.kind {
            5 | 6 => {
                for f in &mut functions {
                    f.intensity = if f.intensity > 0 { max } else { min };
                }
                if self.kind == 6 {
                    functions[0].intensity = min;
                }
            }
            _ => {
                for f in &mut functions {
                    // Kept in a short, as the engine keeps it; only a 0 becomes 1
                    // (`FixLightState`).
                    let period = (f.period as i32 * self.period as i32) / TICKS_PER_SECOND as i32;
                    f.period = match period as i16 {
                        0 => 1,
                        p => p,
                    };
                    let span = (max as i64 - min as i64) as f64;
                    f.intensity = min + (f.intensity as f64 * span / FIXED_ONE as f64) as i32;
                }
            }
        }
        let flags = if self.mode == 1 { LIGHT_INITIALLY_ACTIVE } else { 0 };
        StaticLight { kind: 0, flags, phase: self.phase, functions, tag: 0 }
    }
}

/// The engine's 16-bit random generator (a Galois LFSR); lights that draw random periods or
/// intensities use it, so animation is deterministic from the seed.
#[derive(Clone, Debug)]
pub struct Random(u16);

impl Random {
    pub fn new() -> Random {
        Random(0x1)
    }

    pub fn draw(&mut self) -> u16 {
        let s = self.0;
        self.0 = if s & 1 != 0 { (s >> 1) ^ 0xB400 } else { s >> 1 };
        self.0
    }

    /// `random() % (n + 1)` as the engine writes it, for n >= 0.
    fn up_to(&mut self, n: i32) -> i32 {
        let m = n.max(0) as i64 + 1;
        (self.draw() as i64 % m) as i32
    }
}

impl Default for Random {
    fn default() -> Self {
        Random::new()
    }
}

/// One light's running state.
#[derive(Clone, Debug)]
pub struct LightRun {
    def: StaticLight,
    state: usize,
    phase: i32,
    period: i32,
    initial: i32,
    final_: i32,
    pub intensity: i32,
}

impl LightRun {
    /// Sets the light up as the engine does at level start: settle in the secondary state,
    /// switch to primary, apply the stored phase.
    pub fn new(def: &StaticLight, rng: &mut Random) -> LightRun {
        let active = def.flags & LIGHT_INITIALLY_ACTIVE != 0;
        let mut run = LightRun {
            def: def.clone(),
            state: 0,
            phase: 0,
            period: 1,
            initial: 0,
            final_: 0,
            intensity: 0,
        };
        let (secondary, primary) = if active {
            (LightState::SecondaryActive, LightState::PrimaryActive)
        } else {
            (LightState::SecondaryInactive, LightState::PrimaryInactive)
        };
        run.change_state(secondary as usize, rng);
        run.intensity = run.final_;
        run.change_state(primary as usize, rng);
        run.phase = def.phase as i32;
        run.rephase(rng);
        run.intensity = run.evaluate(rng);
        run
    }

    /// Advances one tick.
    pub fn tick(&mut self, rng: &mut Random) {
        self.phase += 1;
        self.rephase(rng);
        self.intensity = self.evaluate(rng);
    }

    fn change_state(&mut self, state: usize, rng: &mut Random) {
        let f = self.def.functions[state];
        self.phase = 0;
        // A period of 0 (or less) skips the state: `rephase` moves on at once.
        self.period = (f.period as i32 + rng.up_to(f.delta_period as i32)).max(0);
        self.initial = self.intensity;
        self.final_ = f.intensity + rng.up_to(f.delta_intensity);
        self.state = state;
    }

    /// Moves through the states whose periods the phase has run past. States of period 0
    /// are skipped, as the engine skips them ("functions with zero periods are skipped",
    /// `lightsource.cpp`); a cycle of nothing but such states would loop for ever there, and
    /// here stays in its state for a tick at a time after `MAX_SKIPS` of them.
    fn rephase(&mut self, rng: &mut Random) {
        let stateless = self.def.flags & LIGHT_STATELESS != 0;
        let mut skips = 0;
        while self.phase >= self.period {
            if self.period == 0 {
                skips += 1;
                if skips > MAX_SKIPS {
                    (self.period, self.phase) = (1, 0);
                    break;
                }
            }
            let phase = self.phase - self.period;
            let next = match self.state {
                2 => 0,
                0 => 1,
                1 if stateless => 5,
                1 => 0,
                5 => 3,
                3 => 4,
                4 if stateless => 2,
                _ => 3,
            };
            self.change_state(next, rng);
            self.phase = phase;
        }
    }

    fn evaluate(&self, rng: &mut Random) -> i32 {
        let (a, b) = (self.initial as i64, self.final_ as i64);
        // A stored negative phase can leave a skipped state current: nothing to divide by.
        let period = self.period.max(1);
        let smooth = || {
            let t = self.phase as f64 / period as f64;
            // cos from pi to 2 pi: 0 at the start, 1 at the end.
            let k = ((std::f64::consts::PI * (1.0 + t)).cos() + 1.0) / 2.0;
            (a as f64 + (b - a) as f64 * k) as i64
        };
        let v = match self.def.functions[self.state].function {
            1 => a + (b - a) * self.phase as i64 / period as i64,
            2 => smooth(),
            3 => {
                let s = smooth();
                let delta = b - s;
                s + if delta > 0 { rng.draw() as i64 % delta } else { 0 }
            }
            4 => {
                let (lo, hi) = if b > a { (a, b) } else { (b, a) };
                let delta = hi - lo;
                lo + if delta > 0 { rng.draw() as i64 % delta } else { 0 }
            }
            _ => b,
        };
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}

/// All lights of a level, stepped together with one random generator.
#[derive(Clone, Debug)]
pub struct LightSim {
    rng: Random,
    pub lights: Vec<LightRun>,
    pub tick: u32,
}

impl LightSim {
    pub fn new(defs: &[StaticLight]) -> LightSim {
        let mut rng = Random::new();
        let lights = defs.iter().map(|d| LightRun::new(d, &mut rng)).collect();
        LightSim { rng, lights, tick: 0 }
    }

    pub fn step(&mut self) {
        for l in &mut self.lights {
            l.tick(&mut self.rng);
        }
        self.tick += 1;
    }

    /// Intensity of light `i` (16.16), 0 for a missing light as the engine falls back.
    pub fn intensity(&self, i: i16) -> i32 {
        usize::try_from(i).ok().and_then(|i| self.lights.get(i)).map_or(0, |l| l.intensity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn old(kind: u16, mode: u16, min: f64, max: f64) -> OldLight {
        OldLight {
            flags: 0,
            kind,
            mode,
            phase: 0,
            minimum_intensity: (min * 65536.0) as i32,
            maximum_intensity: (max * 65536.0) as i32,
            period: 60,
        }
    }

    #[test]
    fn old_normal_light_with_equal_bounds_is_constant() {
        for mode in [1, 3] {
            let s = old(0, mode, 0.5, 0.5).to_static();
            let sim = LightSim::new(&[s]);
            assert_eq!(sim.intensity(0), 32768);
        }
    }

    #[test]
    fn strobe_alternates_between_its_intensities() {
        let s = old(3, 1, 0.25, 1.0).to_static();
        let mut sim = LightSim::new(&[s]);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            sim.step();
            seen.insert(sim.intensity(0));
        }
        assert!(seen.contains(&65536), "{seen:?}");
        assert!(seen.len() >= 2);
    }

    #[test]
    fn lights_of_nothing_but_zero_periods_end() {
        let f = LightingFunction {
            function: 1,
            period: 0,
            delta_period: 0,
            intensity: FIXED_ONE,
            delta_intensity: 0,
        };
        for phase in [-5, 0, 7] {
            let light = StaticLight { kind: 0, flags: 1, phase, functions: [f; 6], tag: 0 };
            let mut sim = LightSim::new(&[light]);
            for _ in 0..10 {
                sim.step();
                assert_eq!(sim.intensity(0), FIXED_ONE);
            }
        }
    }

    #[test]
    fn old_periods_scale_into_a_short_and_only_zero_becomes_one() {
        let mut light = old(0, 1, 0.5, 0.5);
        light.period = 0;
        assert!(light.to_static().functions.iter().all(|f| f.period == 1));
        light.period = 3000;
        // 30 ticks x 3000 / 30, and 15 x 3000 / 30 for the strobe's halves.
        assert!(light.to_static().functions.iter().all(|f| f.period == 3000));
        light.kind = 3;
        assert_eq!(light.to_static().functions[0].period, 1500);
        light.period = -60;
        assert_eq!(light.to_static().functions[3].period, -60);
    }

    #[test]
    fn missing_light_is_dark() {
        assert_eq!(LightSim::new(&[]).intensity(3), 0);
    }
}
