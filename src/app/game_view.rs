//! The games' own screens: frame-buffer size, horizontal field of view and the aspect the
//! frame was shown at, so the viewer can render exactly what the game drew and lay a
//! screenshot of the game over it pixel for pixel.

/// How a game drew and showed its 3D view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameView {
    /// Name for the overlay and messages.
    pub name: &'static str,
    /// Frame buffer size in pixels.
    pub width: u32,
    pub height: u32,
    /// Horizontal field of view across `width`, degrees. The vertical focal length equals
    /// the horizontal one in frame-buffer pixels (as in mapscope's renderer).
    pub fov_deg: f64,
    /// Width / height of the picture on the monitor or TV the game was made for.
    pub display_aspect: f64,
}

impl GameView {
    /// Width / height of the frame buffer.
    pub fn buffer_aspect(&self) -> f64 {
        self.width as f64 / self.height as f64
    }
}

const FOUR_THIRDS: f64 = 4.0 / 3.0;

/// Doom (vanilla): 320x200, 90 degrees across the 320 columns (centerx 160 with the same
/// projection scale for rows), shown stretched to 4:3 on a VGA monitor (pixels 1.2 times
/// as tall as wide).
const DOOM: GameView =
    GameView { name: "Doom", width: 320, height: 200, fov_deg: 90.0, display_aspect: FOUR_THIRDS };

/// Attack of the Saucerman (PC): 320x240 (the size of its full-screen bitmaps), square
/// pixels on a 4:3 monitor. The field of view is not in the spec: 90 degrees is assumed.
const SAUCERMAN: GameView = GameView {
    name: "Attack of the Saucerman",
    width: 320,
    height: 240,
    fov_deg: 90.0,
    display_aspect: FOUR_THIRDS,
};

/// Saturn Quake: the Saturn's 320x224 NTSC mode shown on a 4:3 TV. The field of view is not
/// in the spec: Quake's default 90 degrees is assumed.
const SATURN_QUAKE: GameView = GameView {
    name: "Saturn Quake",
    width: 320,
    height: 224,
    fov_deg: 90.0,
    display_aspect: FOUR_THIRDS,
};

/// Marathon (2/Infinity full-screen view): 640x480 with the engine's normal field of view of
/// 80 degrees across the standard 640-pixel width (render.c `initialize_view_data`:
/// `world_to_screen = half_screen_width / tan(half_cone)` for both axes), square pixels.
/// With the interface shown the world view is 640x320 at the same 80 degrees.
const MARATHON: GameView = GameView {
    name: "Marathon",
    width: 640,
    height: 480,
    fov_deg: 80.0,
    display_aspect: FOUR_THIRDS,
};

/// The game view for a scene's format name (`Scene::format`), matched without regard to
/// case or punctuation ("Doom", "Attack of the Saucerman", "Saturn Quake", "Marathon 2"...).
/// `None` for formats without a known screen (the viewer then uses the window size).
pub fn game_view(format: &str) -> Option<GameView> {
    let key: String =
        format.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_lowercase();
    if key.starts_with("doom") || key == "freedoom" {
        Some(DOOM)
    } else if key.contains("saucer") {
        Some(SAUCERMAN)
    } else if key.contains("saturn") {
        Some(SATURN_QUAKE)
    } else if key.contains("marathon") {
        Some(MARATHON)
    } else {
        None
    }
}

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

    #[test]
    fn formats_are_matched_by_name() {
        assert_eq!(
            game_view("Doom").map(|g| (g.width, g.height, g.fov_deg)),
            Some((320, 200, 90.0))
        );
        assert_eq!(game_view("Attack of the Saucerman").map(|g| g.height), Some(240));
        assert_eq!(game_view("Saturn Quake").map(|g| g.height), Some(224));
        assert_eq!(game_view("Marathon 2").map(|g| (g.width, g.fov_deg)), Some((640, 80.0)));
        assert_eq!(game_view("Carmageddon 2"), None);
        assert_eq!(game_view(""), None);
    }

    #[test]
    fn doom_is_shown_at_four_thirds() {
        // 1280x720: 960x720 centred.
        assert_eq!(fit_rect(1280, 720, DOOM.display_aspect), [160.0, 0.0, 960.0, 720.0]);
        // A tall window letterboxes.
        assert_eq!(fit_rect(640, 960, FOUR_THIRDS), [0.0, 240.0, 640.0, 480.0]);
        assert!((DOOM.buffer_aspect() - 1.6).abs() < 1e-12);
    }
}
