//! What moves while the window is open: light intensities (the engine's light state machine,
//! 30 ticks a second) and the texture origins of sliding, wandering, wobbling and pulsating
//! surfaces. Static surfaces get the tick count as their "scroll" so the shader can reseed its
//! noise every tick.

use std::collections::HashMap;
use std::f64::consts::TAU;

use super::definitions::transfer;
use super::level::Level;
use super::lights::{LightSim, FIXED_ONE};
use crate::scene::{Animator, FrameState};

/// Ticks of light simulation before it replays from the start (one hour).
const LIGHT_REPLAY_TICKS: u32 = 30 * 60 * 60;

/// How a surface maps world offsets to its texture coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScrollKind {
    /// u along the wall, v down.
    Wall,
    /// u from world y, v from world x.
    Flat,
}

pub struct MarathonAnimator {
    start: LightSim,
    sim: LightSim,
    /// (light index, ambient delta) per light slot; slot 0 is full brightness.
    light_slots: Vec<(i16, i32)>,
    light_index: HashMap<(i16, i32), u32>,
    /// (transfer mode, kind) per scroll slot; slot 0 never moves.
    scroll_slots: Vec<(u16, ScrollKind)>,
    scroll_index: HashMap<(u16, ScrollKind), u16>,
    texture_count: usize,
}

impl MarathonAnimator {
    pub fn new(level: &Level) -> MarathonAnimator {
        let start = level.light_sim();
        MarathonAnimator {
            sim: start.clone(),
            start,
            light_slots: vec![(-1, FIXED_ONE)],
            light_index: HashMap::new(),
            scroll_slots: vec![(transfer::NORMAL, ScrollKind::Wall)],
            scroll_index: HashMap::new(),
            texture_count: 0,
        }
    }

    /// The slot showing light `light` plus `delta` (16.16), pinned to [0, 1].
    pub fn light_slot(&mut self, light: i16, delta: i32) -> u32 {
        if let Some(&s) = self.light_index.get(&(light, delta)) {
            return s;
        }
        let s = self.light_slots.len() as u32;
        self.light_slots.push((light, delta));
        self.light_index.insert((light, delta), s);
        s
    }

    /// The scroll slot of a surface with transfer mode `mode` (0 when it does not move).
    pub fn scroll_slot(&mut self, mode: u16, kind: ScrollKind) -> u16 {
        let clock = matches!(mode, transfer::STATIC | transfer::HALF_STATIC);
        if !clock && !transfer::moves(mode) {
            return 0;
        }
        let key = if clock { (transfer::STATIC, ScrollKind::Wall) } else { (mode, kind) };
        if let Some(&s) = self.scroll_index.get(&key) {
            return s;
        }
        let s = u16::try_from(self.scroll_slots.len()).unwrap_or(0);
        self.scroll_slots.push(key);
        self.scroll_index.insert(key, s);
        s
    }

    pub fn set_texture_count(&mut self, n: usize) {
        self.texture_count = n;
    }

    fn fill(&self, tic: u32, out: &mut FrameState) {
        out.light.clear();
        out.light.extend(self.light_slots.iter().map(|&(light, delta)| {
            let base = if light < 0 { 0 } else { self.sim.intensity(light) };
            (base as i64 + delta as i64).clamp(0, FIXED_ONE as i64) as u32
        }));
        out.texture_remap.clear();
        out.texture_remap.extend(0..self.texture_count as u32);
        out.scroll.clear();
        out.scroll.extend(self.scroll_slots.iter().map(|&(mode, kind)| {
            if mode == transfer::NORMAL {
                return [0.0, 0.0];
            }
            let [x0, y0] = origin_offset(mode, tic);
            match kind {
                ScrollKind::Wall => [x0, y0],
                ScrollKind::Flat => [y0, x0],
            }
        }));
    }
}

/// Texture origin offset (world units) of a moving transfer mode at `tick`: slides move 4
/// (fast: 8) units a tick; wander sums three cosines (x) and three sines (y) of the tick as the
/// engine does; pulsate and wobble follow the engine's triangle wave of +-16 units over 64
/// ticks (fast wobble 15 times faster), applied as a shift where the engine warps the plane.
pub fn origin_offset(mode: u16, tick: u32) -> [f32; 2] {
    let t = tick as f64;
    let angle = |units: f64| TAU * units / 512.0;
    let [x, y] = match mode {
        transfer::HORIZONTAL_SLIDE => [((tick << 2) & 1023) as f64, 0.0],
        transfer::FAST_HORIZONTAL_SLIDE => [((tick << 3) & 1023) as f64, 0.0],
        transfer::VERTICAL_SLIDE => [0.0, ((tick << 2) & 1023) as f64],
        transfer::FAST_VERTICAL_SLIDE => [0.0, ((tick << 3) & 1023) as f64],
        transfer::WANDER | transfer::FAST_WANDER => {
            let phase = if mode == transfer::FAST_WANDER { t * 2.0 } else { t };
            let a = angle(phase % (10.0 * 512.0));
            let b = angle(phase % (6.0 * 512.0));
            let x = (a.cos() + (2.0 * a).cos() / 2.0 + (5.0 * a).cos() / 2.0) * 256.0;
            let y = (b.sin() + (2.0 * b).sin() / 2.0 + (3.0 * b).sin() / 2.0) * 256.0;
            [x, y]
        }
        transfer::PULSATE | transfer::WOBBLE => [0.0, triangle_wave(tick)],
        transfer::FAST_WOBBLE => [0.0, triangle_wave(tick.wrapping_mul(15))],
        transfer::STATIC => [t, 0.0],
        _ => [0.0, 0.0],
    };
    [x as f32, y as f32]
}

/// The engine's pulsate/wobble phase: -16..16 and back over 64 ticks.
fn triangle_wave(tick: u32) -> f64 {
    let phase = (tick & 63) as f64;
    if phase >= 32.0 {
        48.0 - phase
    } else {
        phase - 16.0
    }
}

impl Animator for MarathonAnimator {
    fn state_at(&mut self, tic: u32, out: &mut FrameState) {
        // Lights only run forwards, one step a tick as in the game; past an hour of game time
        // they start over, so a far-off --tic cannot stall the viewer.
        let light_tic = tic % LIGHT_REPLAY_TICKS;
        if light_tic < self.sim.tick {
            self.sim = self.start.clone();
        }
        while self.sim.tick < light_tic {
            self.sim.step();
        }
        self.fill(tic, out);
    }

    fn initial(&self) -> FrameState {
        let mut out = FrameState::default();
        let mut at_start = MarathonAnimator {
            start: self.start.clone(),
            sim: self.start.clone(),
            light_slots: self.light_slots.clone(),
            light_index: HashMap::new(),
            scroll_slots: self.scroll_slots.clone(),
            scroll_index: HashMap::new(),
            texture_count: self.texture_count,
        };
        at_start.state_at(0, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_wrap_at_one_world_unit() {
        assert_eq!(origin_offset(transfer::HORIZONTAL_SLIDE, 10), [40.0, 0.0]);
        assert_eq!(origin_offset(transfer::FAST_VERTICAL_SLIDE, 128), [0.0, 0.0]);
        assert_eq!(origin_offset(transfer::NORMAL, 99), [0.0, 0.0]);
        assert_eq!(origin_offset(transfer::PULSATE, 0), [0.0, -16.0]);
        assert_eq!(origin_offset(transfer::PULSATE, 32), [0.0, 16.0]);
    }
}
