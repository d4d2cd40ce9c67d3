//! The viewer's automap (Tab): the level from above in the game's map style, in place of the
//! 3D view, drawn by `render::automap` as `render --automap` draws it. Dragging pans (and
//! stops following the camera), the wheel zooms about the pointer, O follows the camera
//! again, 0 shows the whole level (again: back), Y shows every line, - and = zoom; a click
//! moves the camera to that spot, at the spawn's eye height above the floor there.

use glam::{DVec2, DVec3};
use image::RgbaImage;

use super::App;
use crate::render::automap::{self, Layers, MapView};
use crate::scene::automap::Automap;
use crate::scene::{Axes, CameraPose, Scene};

/// How far the pointer may move between press and release for a click (pixels).
const CLICK_SLOP: f64 = 4.0;
/// Zoom a wheel notch or a key press gives.
const ZOOM_STEP: f64 = 1.25;

/// The automap's state in the viewer.
#[derive(Default)]
pub(super) struct AutomapState {
    pub(super) on: bool,
    /// The map stays centred on the camera.
    follow: bool,
    /// Every line, as Doom's IDDT cheat shows them.
    every_line: bool,
    /// The current level's map and the spawn's eye height, made when first shown.
    level: Option<(Automap, f64)>,
    /// The map's centre and scale; `None` until first drawn for the level.
    view: Option<MapView>,
    /// The view kept while the whole level is shown (0).
    before_whole: Option<MapView>,
    /// Where a press of the left button began: the pointer, the map's centre then, and
    /// whether it has moved far enough to be a drag.
    press: Option<((f64, f64), DVec2, bool)>,
    /// What the last image was drawn from, to draw it again only when that changes.
    drawn: Option<DrawnFrom>,
}

/// What an automap image shows.
#[derive(Clone, Copy, PartialEq)]
struct DrawnFrom {
    view: MapView,
    camera: CameraPose,
    size: (u32, u32),
    layers: Layers,
}

impl AutomapState {
    /// Down, following the camera once shown.
    pub(super) fn new() -> AutomapState {
        AutomapState { follow: true, ..Default::default() }
    }

    /// The level changed: its map is made again when next shown, following the camera.
    pub(super) fn level_changed(&mut self) {
        let on = self.on;
        let every_line = self.every_line;
        *self = AutomapState { on, every_line, follow: true, ..Default::default() };
    }

    /// The help line the overlay shows while the automap is up.
    pub(super) fn help(&self) -> String {
        let on_off = |b: bool| if b { "on" } else { "off" };
        format!(
            "automap (Tab): drag pans, wheel or - = zoom, click moves the camera there; \
             O follow ({}), 0 whole level, Y every line ({})",
            on_off(self.follow),
            on_off(self.every_line)
        )
    }
}

impl App {
    /// Tab: the automap in place of the 3D view, or back; the mouse is released so the map
    /// can be dragged and clicked.
    pub(super) fn toggle_automap(&mut self) {
        let a = &mut self.automap;
        a.on = !a.on;
        if a.on {
            if a.view.is_none() {
                a.follow = true;
            }
            a.drawn = None;
            a.press = None;
            self.set_captured(false);
        }
    }

    /// The automap's keys, while it is up; false for keys it leaves to the viewer.
    pub(super) fn automap_key(&mut self, code: winit::keyboard::KeyCode) -> bool {
        use winit::keyboard::KeyCode;
        if code == KeyCode::Escape && self.automap.on {
            self.toggle_automap();
            return true;
        }
        if !self.automap.on {
            return false;
        }
        let size = self.window_size();
        let centre = DVec2::new(size.0 as f64, size.1 as f64) * 0.5;
        match code {
            KeyCode::KeyO => {
                let a = &mut self.automap;
                a.follow = !a.follow;
                a.before_whole = None;
                let said = if a.follow { "on" } else { "off" };
                self.message = Some(format!("automap: follow {said}"));
            }
            KeyCode::KeyY => {
                let a = &mut self.automap;
                a.every_line = !a.every_line;
                let said = if a.every_line { "every line" } else { "the lines the game shows" };
                self.message = Some(format!("automap: {said}"));
            }
            KeyCode::Digit0 | KeyCode::Numpad0 => self.automap_whole_level(size),
            KeyCode::Minus | KeyCode::NumpadSubtract => self.automap_zoom(1.0 / ZOOM_STEP, centre),
            KeyCode::Equal | KeyCode::NumpadAdd => self.automap_zoom(ZOOM_STEP, centre),
            _ => return false,
        }
        true
    }

    /// The window's size in pixels (the automap fills it).
    fn window_size(&self) -> (u32, u32) {
        self.win.as_ref().map_or((1280, 720), |w| w.target.size())
    }

    /// 0: the whole level, as Doom's automap shows it; again: the view before.
    fn automap_whole_level(&mut self, size: (u32, u32)) {
        let (map, _) = self.automap.level(&self.scene);
        let whole = Some(MapView::whole_level(map, &self.scene, size));
        let a = &mut self.automap;
        match a.before_whole.take() {
            Some(before) => a.view = Some(before),
            None => {
                a.before_whole = a.view;
                a.view = whole;
                a.follow = false;
            }
        }
    }

    /// The wheel's notches, at the pointer (following the camera: about the middle).
    pub(super) fn automap_wheel(&mut self, notches: f64) {
        let size = self.window_size();
        let at = if self.automap.follow {
            DVec2::new(size.0 as f64, size.1 as f64) * 0.5
        } else {
            DVec2::new(self.cursor.0, self.cursor.1)
        };
        self.automap_zoom(ZOOM_STEP.powf(notches), at);
    }

    fn automap_zoom(&mut self, factor: f64, at: DVec2) {
        let size = self.window_size();
        let view = self.automap_view(size);
        self.automap.view = Some(view.zoomed(factor, at, size));
        self.automap.before_whole = None;
    }

    /// The left button went down on the map.
    pub(super) fn automap_press(&mut self) {
        let view = self.automap_view(self.window_size());
        self.automap.press = Some((self.cursor, view.center, false));
    }

    /// The pointer moved: a press that moved far enough drags the map.
    pub(super) fn automap_drag(&mut self) {
        let Some((start, centre, moved)) = self.automap.press else { return };
        let d = DVec2::new(self.cursor.0 - start.0, self.cursor.1 - start.1);
        if !moved && d.length() < CLICK_SLOP {
            return;
        }
        let size = self.window_size();
        let mut view = self.automap_view(size);
        view.center = centre - DVec2::new(d.x, -d.y) / view.px_per_unit;
        let a = &mut self.automap;
        a.press = Some((start, centre, true));
        a.view = Some(view);
        a.follow = false;
        a.before_whole = None;
    }

    /// The left button came up: a press that did not drag is a click, which moves the camera
    /// to that spot.
    pub(super) fn automap_release(&mut self) {
        let Some((_, _, moved)) = self.automap.press.take() else { return };
        if moved {
            return;
        }
        let size = self.window_size();
        let view = self.automap_view(size);
        let spot = view.plan_at(DVec2::new(self.cursor.0, self.cursor.1), size);
        self.move_camera_to(spot);
    }

    /// The camera to plan point `spot`, at the spawn's eye height above the floor there
    /// nearest the camera's own; over no floor, at the height it has.
    pub(super) fn move_camera_to(&mut self, spot: DVec2) {
        let eye = self.automap.level(&self.scene).1;
        let pose = self.fly.pose;
        let feet = pose.pos.y - eye;
        let floor = floor_under(&self.scene, spot, feet);
        let y = floor.map_or(pose.pos.y, |f| f + eye);
        self.fly.pose.pos = DVec3::new(spot.x, y, -spot.y);
        let native = self.fly.pose.native(self.scene.axes).position;
        let at = format!("{:.0}, {:.0}, {:.0}", native[0], native[1], native[2]);
        self.message = Some(match floor {
            Some(_) => format!("camera moved to {at}"),
            None => format!("camera moved to {at} (no floor there: its height kept)"),
        });
    }

    /// The view to draw at `size`: the one kept, centred on the camera when following; the
    /// game's opening view the first time.
    fn automap_view(&mut self, size: (u32, u32)) -> MapView {
        let camera = Axes::plan_f64(self.fly.pose.pos);
        let kept = self.automap.view;
        let view = match kept {
            Some(v) => v,
            None => MapView::opening(&self.automap.level(&self.scene).0, &self.scene, camera, size),
        };
        let view = if self.automap.follow { MapView { center: camera, ..view } } else { view };
        self.automap.view = Some(view);
        view
    }

    /// The automap image for a window of `size`, when it differs from the one last drawn.
    pub(super) fn automap_image(&mut self, size: (u32, u32)) -> Option<RgbaImage> {
        let view = self.automap_view(size);
        let layers = Layers {
            every_line: self.automap.every_line,
            things: self.view.show_sprites,
            markers: self.view.show_markers,
        };
        let from = DrawnFrom { view, camera: self.fly.pose, size, layers };
        if self.automap.drawn == Some(from) {
            return None;
        }
        let (map, _) = self.automap.level(&self.scene);
        let image = automap::draw(map, &self.scene, &self.fly.pose, &view, size, layers);
        self.automap.drawn = Some(from);
        Some(image)
    }
}

impl AutomapState {
    /// The map of `scene` (the current level) and its spawn's eye height, made when first
    /// asked for.
    fn level(&mut self, scene: &Scene) -> &(Automap, f64) {
        self.level.get_or_insert_with(|| {
            let eye = crate::bench::tour::eye_height(scene, scene.spawn.pos);
            (scene.automap().into_owned(), eye)
        })
    }

    /// Something else was drawn into the composite the automap's image goes to: the image is
    /// to be drawn again when next shown.
    pub(super) fn drawn_over(&mut self) {
        self.drawn = None;
    }
}

/// The height of the floor under plan point `spot` nearest `near` (viewer heights): any
/// upward world triangle no steeper than 45 degrees, of any surface kind (Saturn Quake's
/// floors are faces like its walls).
pub(super) fn floor_under(scene: &Scene, spot: DVec2, near: f64) -> Option<f64> {
    let (x, z) = (spot.x, -spot.y);
    let mut best: Option<f64> = None;
    for t in scene.world.chunks_exact(3) {
        let [a, b, c] = [t[0].pos, t[1].pos, t[2].pos].map(|p| DVec3::from(p.map(f64::from)));
        let n = (b - a).cross(c - a);
        let len = n.length();
        if len.is_nan() || len <= 0.0 || n.y / len < std::f64::consts::FRAC_1_SQRT_2 - 1e-6 {
            continue;
        }
        let area = |p: DVec3, q: DVec3| (q.x - p.x) * (z - p.z) - (q.z - p.z) * (x - p.x);
        let (w0, w1, w2) = (area(b, c), area(c, a), area(a, b));
        let inside = (w0 >= 0.0 && w1 >= 0.0 && w2 >= 0.0) || (w0 <= 0.0 && w1 <= 0.0 && w2 <= 0.0);
        if !inside {
            continue;
        }
        let y = a.y - (n.x * (x - a.x) + n.z * (z - a.z)) / n.y;
        if best.is_none_or(|b| (y - near).abs() < (b - near).abs()) {
            best = Some(y);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::OpenOptions;
    use winit::keyboard::KeyCode;

    /// The viewer on the demo level, without a window.
    fn demo() -> App {
        let demo = crate::demo::demo_wad_path().unwrap();
        App::new(vec![demo], OpenOptions::default(), Default::default()).unwrap()
    }

    #[test]
    fn a_click_moves_the_camera_to_eye_height_over_the_floor_there() {
        let mut app = demo();
        let spawn = app.scene.spawn;
        let eye = crate::bench::tour::eye_height(&app.scene, spawn.pos);
        assert!(eye > 1.0, "the demo's spawn stands over a floor");
        // Up in the air over the spawn: a click there brings the camera back to eye height.
        app.fly.pose.pos.y += 500.0;
        app.move_camera_to(Axes::plan_f64(spawn.pos));
        assert!((app.fly.pose.pos - spawn.pos).length() < 1e-6, "{}", app.fly.pose.pos);
        assert!(app.message.as_deref().unwrap().starts_with("camera moved to"));
        // Out in the void: the height stays.
        let y = app.fly.pose.pos.y;
        app.move_camera_to(DVec2::new(1e6, 1e6));
        assert_eq!(app.fly.pose.pos, DVec3::new(1e6, y, -1e6));
        assert!(app.message.as_deref().unwrap().contains("no floor there"));
    }

    #[test]
    fn the_floor_nearest_the_camera_is_the_one_stood_on() {
        use crate::scene::{vertex_flags, SurfaceKind, WorldVertex};
        let mut app = demo();
        // Two floors over one spot, at 0 and 200 (a bridge), both facing up.
        let v = |x: f32, y: f32, z: f32| WorldVertex {
            pos: [x, y, z],
            uv: [0.0; 2],
            texture: 0,
            light: 0,
            flags: vertex_flags::pack(SurfaceKind::Flat, false, 0, 0),
            surface: 0,
            shade: [0; 4],
        };
        app.scene.world.clear();
        for y in [0.0, 200.0] {
            app.scene.world.extend([v(-50.0, y, 50.0), v(50.0, y, 50.0), v(0.0, y, -50.0)]);
        }
        assert_eq!(floor_under(&app.scene, DVec2::ZERO, 150.0), Some(200.0));
        assert_eq!(floor_under(&app.scene, DVec2::ZERO, 90.0), Some(0.0));
        assert_eq!(floor_under(&app.scene, DVec2::new(80.0, 0.0), 90.0), None);
    }

    #[test]
    fn the_map_is_drawn_again_only_when_what_it_shows_changes() {
        let mut app = demo();
        // Without a window the map is the size a window opens at.
        let size = app.window_size();
        assert_eq!(size, (1280, 720));
        assert!(!app.automap.on);
        app.toggle_automap();
        assert!(app.automap.on && app.automap.follow);
        let first = app.automap_image(size).expect("drawn when shown");
        assert_eq!(first.dimensions(), size);
        assert!(app.automap_image(size).is_none(), "unchanged: not drawn again");
        // Following: the camera moving moves the map.
        app.fly.pose.pos.x += 64.0;
        assert!(app.automap_image(size).is_some());
        // Y and the zoom keys while the map is up.
        for key in [KeyCode::KeyY, KeyCode::Equal, KeyCode::Minus] {
            assert!(app.automap_key(key), "{key:?}");
            assert!(app.automap_image(size).is_some(), "{key:?} changes the map");
        }
        // O stops following where the map is; then the camera moves without it.
        assert!(app.automap_key(KeyCode::KeyO));
        assert!(!app.automap.follow);
        app.fly.pose.pos.x += 64.0;
        let still = app.automap_view(size);
        app.fly.pose.pos.x += 64.0;
        assert_eq!(app.automap_view(size).center, still.center);
        // 0: the whole level; again: back.
        assert!(app.automap_key(KeyCode::Digit0));
        let whole = app.automap_view(size);
        assert!(whole.px_per_unit < still.px_per_unit, "the whole level is further out");
        assert!(app.automap_key(KeyCode::Digit0));
        assert_eq!(app.automap_view(size), still);
        assert!(app.automap_key(KeyCode::Escape));
        assert!(!app.automap.on, "Esc closes the map");
        assert!(!app.automap_key(KeyCode::KeyY), "Y is the viewer's while the map is down");
    }

    #[test]
    fn dragging_pans_and_stops_following_while_a_still_press_is_a_click() {
        let mut app = demo();
        app.toggle_automap();
        let size = app.window_size();
        let view = app.automap_view(size);
        app.cursor = (640.0, 360.0);
        app.automap_press();
        app.cursor = (642.0, 361.0);
        app.automap_drag();
        assert!(app.automap.follow, "a couple of pixels is not a drag");
        app.cursor = (700.0, 300.0);
        app.automap_drag();
        assert!(!app.automap.follow);
        let moved = app.automap.view.unwrap();
        // The map moved with the pointer: the point that was under it still is.
        let under = view.plan_at(DVec2::new(640.0, 360.0), size);
        assert!((moved.plan_at(DVec2::new(700.0, 300.0), size) - under).length() < 1e-9);
        let before = app.fly.pose.pos;
        app.automap_release();
        assert_eq!(app.fly.pose.pos, before, "a drag does not move the camera");
    }
}
