//! Texture animations: each cycles a map texture definition through its frames, one frame
//! every `delay` tics. The tic rate is not in the spec; 30 a second is assumed.

use crate::scene::{Animator, FrameState};

use super::map::TextureAnimation;

pub struct SaucerAnimator {
    pub initial: FrameState,
    /// (target texture, frame textures, delay) with every index checked.
    pub cycles: Vec<(usize, Vec<u32>, u32)>,
}

impl SaucerAnimator {
    /// Keeps the animations whose target and frames are textures that exist; returns how many
    /// were dropped.
    pub fn new(
        initial: FrameState,
        animations: &[TextureAnimation],
        texture_count: usize,
    ) -> (SaucerAnimator, usize) {
        let valid = |t: u16| (t as usize) < texture_count;
        let cycles: Vec<_> = animations
            .iter()
            .filter(|a| valid(a.target) && a.frames.iter().all(|&f| valid(f)))
            .map(|a| {
                (
                    a.target as usize,
                    a.frames.iter().map(|&f| f as u32).collect(),
                    a.delay.max(1) as u32,
                )
            })
            .collect();
        let dropped = animations.len() - cycles.len();
        (SaucerAnimator { initial, cycles }, dropped)
    }
}

impl Animator for SaucerAnimator {
    fn state_at(&mut self, tic: u32, out: &mut FrameState) {
        out.clone_from(&self.initial);
        for (target, frames, delay) in &self.cycles {
            let frame = (tic / delay) as usize % frames.len().max(1);
            if let (Some(slot), Some(&f)) = (out.texture_remap.get_mut(*target), frames.get(frame))
            {
                *slot = f;
            }
        }
    }

    fn initial(&self) -> FrameState {
        let mut s = self.initial.clone();
        for (target, frames, _) in &self.cycles {
            if let (Some(slot), Some(&f)) = (s.texture_remap.get_mut(*target), frames.first()) {
                *slot = f;
            }
        }
        s
    }
}
