//! The viewer's input: window and device events, mouse capture, the movement keys that fly
//! the camera and the key bindings (docs/viewer.md's key table).

use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::event::{
    DeviceEvent, DeviceId, ElementState, MouseButton, MouseScrollDelta, WindowEvent,
};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{CursorGrabMode, WindowId};

use super::App;
use crate::app::MoveKeys;
use crate::render::RenderMode;

impl App {
    pub(super) fn set_captured(&mut self, on: bool) {
        let Some(w) = &self.win else { return };
        if on {
            let grabbed = w
                .window
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| w.window.set_cursor_grab(CursorGrabMode::Confined));
            if grabbed.is_err() {
                log::warn!("could not capture the mouse pointer");
            }
            w.window.set_cursor_visible(false);
        } else {
            let _ = w.window.set_cursor_grab(CursorGrabMode::None);
            w.window.set_cursor_visible(true);
        }
        self.captured = on;
    }

    /// Moves the camera for the time since it last moved, with the keys held over that time.
    /// Called on every movement key change as well as every frame, so a key held for less
    /// than a frame (a slow software renderer) still moves the camera for as long as it was
    /// down.
    pub(super) fn move_camera(&mut self, now: Instant) {
        // A stall with a key held (a window drag, a slow load) moves at most a second's worth:
        // more than a slow frame, so slow frames do not slow the camera down.
        let dt = now.saturating_duration_since(self.moved_at).as_secs_f64().min(1.0);
        self.moved_at = now;
        if self.walk.is_some() {
            self.walk_camera(dt);
        } else {
            self.fly.update(self.keys, dt);
        }
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode, pressed: bool) {
        self.move_key(code, pressed, Instant::now());
        if !pressed {
            return;
        }
        self.command_key(event_loop, code);
    }

    /// A movement key pressed or released at `at`: the camera first moves for the time the
    /// previous keys were held.
    pub(super) fn move_key(&mut self, code: KeyCode, pressed: bool, at: Instant) {
        self.move_camera(at);
        let k = &mut self.keys;
        match code {
            KeyCode::KeyW | KeyCode::ArrowUp => k.forward = pressed,
            KeyCode::KeyS | KeyCode::ArrowDown => k.back = pressed,
            KeyCode::KeyA | KeyCode::ArrowLeft => k.left = pressed,
            KeyCode::KeyD | KeyCode::ArrowRight => k.right = pressed,
            KeyCode::Space | KeyCode::KeyE => k.up = pressed,
            KeyCode::KeyC | KeyCode::KeyQ => k.down = pressed,
            KeyCode::ShiftLeft | KeyCode::ShiftRight => k.fast = pressed,
            _ => {}
        }
    }

    fn command_key(&mut self, event_loop: &ActiveEventLoop, code: KeyCode) {
        if self.automap_key(code) {
            return;
        }
        match code {
            KeyCode::Escape if self.captured => self.set_captured(false),
            KeyCode::Escape if self.keep.picker.open => self.keep.picker.open = false,
            KeyCode::Escape => event_loop.exit(),
            KeyCode::F12 => self.screenshot(),
            KeyCode::KeyT => self.view.show_sprites = !self.view.show_sprites,
            KeyCode::KeyK => self.view.show_sky = !self.view.show_sky,
            KeyCode::KeyG => self.view.wireframe = !self.view.wireframe,
            KeyCode::KeyX => self.view.show_markers = !self.view.show_markers,
            KeyCode::KeyM => {
                self.view.mode = match self.view.mode {
                    RenderMode::Faithful => RenderMode::Smooth,
                    RenderMode::Smooth => RenderMode::Faithful,
                }
            }
            KeyCode::KeyN => self.cycle_map(1),
            KeyCode::KeyP => self.cycle_map(-1),
            KeyCode::KeyR => {
                self.fly.pose = self.scene.spawn;
                self.walk = None;
            }
            KeyCode::KeyZ => self.toggle_walk(),
            KeyCode::F1 => self.show_overlay = !self.show_overlay,
            KeyCode::KeyB => self.bookmark(),
            KeyCode::KeyI => self.ask_pick(),
            KeyCode::KeyJ => self.find.open = !self.find.open,
            KeyCode::F2 => {
                self.game_res = !self.game_res;
                if self.game_res && self.game().is_none() {
                    self.message =
                        Some(format!("no game resolution known for {}", self.scene.game.name()));
                }
            }
            KeyCode::KeyF => self.set_frozen(!self.frozen),
            KeyCode::KeyL => self.keep.picker.toggle(),
            KeyCode::F5
            | KeyCode::Insert
            | KeyCode::Delete
            | KeyCode::Home
            | KeyCode::End
            | KeyCode::PageUp
            | KeyCode::PageDown => self.path_key(code),
            _ => {}
        }
        let fine = self.keys.fast;
        let Some(r) = &mut self.reference else { return };
        match code {
            KeyCode::KeyV => {
                r.visible = true;
                r.cycle_mode();
                self.message = Some(format!("reference view: {}", r.mode_label()));
            }
            KeyCode::KeyH => {
                r.visible = !r.visible;
                self.message = Some(format!("reference view: {}", r.mode_label()));
            }
            KeyCode::KeyU => {
                r.hud = !r.hud;
                let said = if r.hud { "view above a status bar" } else { "whole screenshot" };
                self.message = Some(format!("reference: {said}"));
            }
            KeyCode::BracketLeft => r.nudge_opacity(-0.1),
            KeyCode::BracketRight => r.nudge_opacity(0.1),
            // Shift: one frame column at a time.
            KeyCode::Comma | KeyCode::Period => {
                let sign = if code == KeyCode::Comma { -1.0 } else { 1.0 };
                let step = if fine { 1.0 / self.view.width.max(1) as f32 } else { 1.0 / 32.0 };
                r.nudge_wipe(sign * step);
            }
            _ => {}
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.win.is_none() {
            if let Err(e) = self.create_window(event_loop) {
                self.fatal = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        // Input, a resize, focus: whatever the overlay shows may have changed.
        if !matches!(event, WindowEvent::RedrawRequested) {
            self.overlay_refresh.invalidate();
        }
        // Tab is the automap's, never egui's (which would move the keyboard focus with it).
        if let WindowEvent::KeyboardInput { event: key, .. } = &event {
            if key.physical_key == PhysicalKey::Code(KeyCode::Tab) {
                if key.state == ElementState::Pressed && !key.repeat {
                    self.toggle_automap();
                }
                return;
            }
        }
        let Some(w) = &mut self.win else { return };
        let egui_used = if self.captured {
            false
        } else {
            w.egui_state.on_window_event(&w.window, &event).consumed
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                w.target.resize(&w.gpu, size.width, size.height);
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.cursor = (position.x, position.y);
                self.automap_drag();
                if self.dragging_wipe {
                    self.drag_wipe_to(position.x);
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Released,
                button: MouseButton::Left,
                ..
            } => {
                self.dragging_wipe = false;
                self.automap_release();
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Left,
                ..
            } if !egui_used && !self.captured && !over_panel(&w.egui_ctx, self.cursor) => {
                // Near the wipe divider a click drags it; elsewhere it captures the mouse (on
                // the automap: drags the map, or moves the camera there).
                match self.wipe_x() {
                    _ if self.automap.on => self.automap_press(),
                    Some(x) if (self.cursor.0 - x).abs() <= 12.0 => {
                        self.dragging_wipe = true;
                        self.drag_wipe_to(self.cursor.0);
                    }
                    _ => self.set_captured(true),
                }
            }
            WindowEvent::MouseInput {
                state: ElementState::Pressed,
                button: MouseButton::Right,
                ..
            } if !egui_used && !self.captured && !over_panel(&w.egui_ctx, self.cursor) => {
                self.ask_pick()
            }
            WindowEvent::MouseWheel { delta, .. } if !egui_used => {
                let notches = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y as f64,
                    MouseScrollDelta::PixelDelta(p) => p.y / 40.0,
                };
                if self.automap.on {
                    self.automap_wheel(notches);
                } else {
                    self.fly.scroll(notches);
                }
            }
            WindowEvent::KeyboardInput { event, .. } if !egui_used || self.captured => {
                if let PhysicalKey::Code(code) = event.physical_key {
                    if !event.repeat || event.state == ElementState::Released {
                        self.key(event_loop, code, event.state == ElementState::Pressed);
                    }
                }
            }
            WindowEvent::Focused(false) => {
                self.keys = MoveKeys::default();
                self.set_captured(false);
            }
            WindowEvent::DroppedFile(path) => self.open_dropped(path),
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.redraw() {
                    self.show_error(format!("{e:#}"));
                }
            }
            _ => {}
        }
    }

    fn device_event(&mut self, _el: &ActiveEventLoop, _id: DeviceId, event: DeviceEvent) {
        if let DeviceEvent::MouseMotion { delta } = event {
            if self.captured {
                self.fly.look(delta.0, delta.1);
            }
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(w) = &self.win {
            w.window.request_redraw();
        }
    }
}

/// Whether the pointer is over one of the overlay's panels (or egui wants the pointer): a
/// click there is the panel's. Panels are found by their last drawn place, since the overlay
/// is not drawn every frame and egui's own hover state may not have seen the pointer arrive.
fn over_panel(ctx: &egui::Context, (x, y): (f64, f64)) -> bool {
    let ppp = ctx.pixels_per_point() as f64;
    let at = egui::pos2((x / ppp) as f32, (y / ppp) as f32);
    ctx.egui_wants_pointer_input()
        || ctx.layer_id_at(at).is_some_and(|l| l.order != egui::Order::Background)
}
