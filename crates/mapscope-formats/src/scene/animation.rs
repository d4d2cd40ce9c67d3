//! What moves in a level at rest: each format's animator gives, for any game tic, the light
//! values, the texture each animated texture shows, and the scroll offsets; the renderer
//! uploads that state each frame.

/// What changes over time, sampled at a game tic: light slot values, texture remapping and
/// scroll offsets. Each format implements its own rules (Doom: p_spec.c / p_lights.c).
pub trait Animator: Send {
    /// The state at tic `tic`, written into `out` (whose vectors keep their lengths).
    fn state_at(&mut self, tic: u32, out: &mut FrameState);
    /// The state before any tic has run.
    fn initial(&self) -> FrameState;
}

/// Per-frame values the shaders read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameState {
    /// Light value per light slot (Doom: sector light level 0..255).
    pub light: Vec<u32>,
    /// Texture shown for each texture index.
    pub texture_remap: Vec<u32>,
    /// Texel offset per scroll slot (slot 0 is always zero).
    pub scroll: Vec<[f32; 2]>,
    /// Doom: the frame each of vanilla's things shows, by thing (see
    /// [`thing_frame_word`]); empty elsewhere.
    pub thing_frames: Vec<u32>,
}

/// A thing's frame as the frame state holds it: the index of its sprite frame in vanilla's
/// things, and whether the state is full-bright in the top bit.
pub fn thing_frame_word(frame: u32, fullbright: bool) -> u32 {
    (frame & 0x7FFF_FFFF) | (fullbright as u32) << 31
}

/// Nothing moves: the initial state at every tic.
pub struct StaticAnimator {
    pub state: FrameState,
}

impl Animator for StaticAnimator {
    fn state_at(&mut self, _tic: u32, out: &mut FrameState) {
        out.clone_from(&self.state);
    }
    fn initial(&self) -> FrameState {
        self.state.clone()
    }
}
