//! Showing a frame at the game's own screen ([`GameScreen`](crate::scene::GameScreen)): where
//! the frame goes in the window so it keeps the game's display aspect, and a capture of the
//! game lies on it pixel for pixel.

/// The largest rectangle of `aspect` (width / height) centred in a `width` x `height`
/// window: `[x, y, w, h]` in whole pixels.
pub fn fit_rect(width: u32, height: u32, aspect: f64) -> [f32; 4] {
    let (ww, wh) = (width.max(1) as f64, height.max(1) as f64);
    let (w, h) = if ww / wh > aspect { (wh * aspect, wh) } else { (ww, ww / aspect) };
    let (w, h) = (w.round().max(1.0), h.round().max(1.0));
    [((ww - w) / 2.0).floor() as f32, ((wh - h) / 2.0).floor() as f32, w as f32, h as f32]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Game;

    #[test]
    fn doom_is_shown_at_four_thirds() {
        let doom = Game::Doom.screen().unwrap();
        // 1280x720: 960x720 centred.
        assert_eq!(fit_rect(1280, 720, doom.display_aspect), [160.0, 0.0, 960.0, 720.0]);
        // A tall window letterboxes.
        assert_eq!(fit_rect(640, 960, 4.0 / 3.0), [0.0, 240.0, 640.0, 480.0]);
        assert!((doom.buffer_aspect() - 1.6).abs() < 1e-12);
    }
}
