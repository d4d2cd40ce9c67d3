//! The viewer's window and GPU: the winit window and its wgpu surface, the renderer and
//! egui set up on it, and drawing one frame (the scene, the reference composite, the overlay)
//! into it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

use super::App;
use crate::app::inspector::{self, InspectorActions};
use crate::app::overlay::{self, Controls, OverlayInfo};
use crate::app::window_compositor::{Destination, OverlayFrame, Picture, WindowCompositor};
use crate::app::window_surface::{self, WindowSurface, WindowTarget};
use crate::render::{self, Gpu, SceneRenderer};
use crate::scene::FrameState;

/// The window and what draws into it; the viewer has one once the event loop resumes.
pub(super) struct WindowState {
    pub(super) window: Arc<Window>,
    pub(super) target: WindowTarget,
    pub(super) gpu: Gpu,
    pub(super) renderer: SceneRenderer,
    pub(super) compositor: WindowCompositor,
    pub(super) egui_ctx: egui::Context,
    pub(super) egui_state: egui_winit::State,
    pub(super) frame_state: FrameState,
    /// The composed frame (view and reference) shown when a reference is visible.
    pub(super) composite: Option<(wgpu::Texture, wgpu::TextureView, (u32, u32))>,
}

impl WindowState {
    /// Uploads `image` into the composite texture (recreated when the size changes).
    fn upload_composite(&mut self, image: &image::RgbaImage) {
        let size = image.dimensions();
        if self.composite.as_ref().is_some_and(|c| c.2 != size) {
            self.composite = None;
        }
        let device = &self.gpu.device;
        let (texture, _, _) = self.composite.get_or_insert_with(|| {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("reference composite"),
                size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: crate::render::SCENE_FORMAT,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            });
            let view = texture.create_view(&Default::default());
            (texture, view, size)
        });
        self.gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            image.as_raw(),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * size.0),
                rows_per_image: Some(size.1),
            },
            wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        );
    }
}

impl App {
    pub(super) fn create_window(&mut self, event_loop: &ActiveEventLoop) -> Result<()> {
        let [width, height] = self.keep.window.map(f64::from);
        let attrs = Window::default_attributes()
            .with_title(self.title())
            .with_inner_size(winit::dpi::LogicalSize::new(width, height));
        let WindowSurface { window, target, gpu } = window_surface::open(event_loop, attrs)?;
        let format = target.format();
        let mut renderer =
            SceneRenderer::with_format(&gpu, &self.scene, render::scene_format_for(format))?;
        renderer.set_renderer(self.renderer, &gpu);
        let frame_state = self.scene.animator.initial();
        renderer.set_state(&frame_state);
        let compositor = WindowCompositor::new(&gpu, &target);
        let egui_ctx = egui::Context::default();
        self.restore_panel(&egui_ctx);
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        log::info!(
            "viewer on {} (renderer {}), presenting through the {}, overlay drawn on the {}",
            gpu.adapter_name(),
            self.renderer,
            target.way(),
            compositor.overlay_way()
        );
        self.win = Some(WindowState {
            window,
            target,
            gpu,
            renderer,
            compositor,
            egui_ctx,
            egui_state,
            frame_state,
            composite: None,
        });
        Ok(())
    }

    pub(super) fn redraw(&mut self) -> Result<()> {
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f64().min(0.25);
        self.last = now;
        self.frame_ms = self.frame_ms * 0.9 + dt * 1000.0 * 0.1;
        self.move_camera(now);
        self.follow_path(now);
        let tic = self.tic();
        let pose = self.fly.pose.native(self.scene.axes);
        let Some((cw, ch)) = self.win.as_ref().map(|w| w.target.size()) else {
            return Ok(());
        };
        let ((fw, fh), fov, rect) = self.layout(cw, ch);
        let game = self.game();
        self.view.width = fw;
        self.view.height = fh;
        self.view.fov_deg = fov;
        self.display_rect = rect;
        let wipe_x = self.wipe_x().filter(|_| !self.automap.on);
        // The automap, drawn on the CPU, fills the window in place of the 3D view (drawn
        // again only when it changes: `None` keeps the composite as it is).
        let automap = self.automap.on.then(|| self.automap_image((cw, ch)));
        let Some(w) = &mut self.win else { return Ok(()) };
        let mut composed = false;
        let mut rect = rect;
        if let Some(image) = automap {
            if let Some(image) = image {
                w.upload_composite(&image);
            }
            composed = true;
            rect = [0.0, 0.0, cw as f32, ch as f32];
        } else {
            self.scene.animator.state_at(tic, &mut w.frame_state);
            w.renderer.set_state(&w.frame_state);
            w.renderer.render(&w.gpu, &self.fly.pose, &self.view);
        }
        // A pick reads the 3D frame just drawn (none while the automap shows).
        if !composed {
            self.take_pick();
        }
        let Some(w) = &mut self.win else { return Ok(()) };
        // With a reference shown, the frame is read back and composed on the CPU.
        if let Some(r) = self.reference.as_mut().filter(|r| r.visible && !composed) {
            let image = w.renderer.read_image(&w.gpu)?;
            let picture = r.process(&image, game.as_ref());
            w.upload_composite(&picture);
            self.automap.drawn_over();
            composed = true;
        }

        let mut actions = overlay::Actions::default();
        let mut inspector_actions = InspectorActions::default();
        let (inspected, captured) = (self.inspected.as_ref(), self.captured);
        let mut find_action = None;
        let kinds =
            if self.find.open { crate::inspect::go::kinds(&self.scene) } else { Vec::new() };
        let mut path_action = None;
        let path = &mut self.path;
        let find = &mut self.find;
        let mut picked = None;
        let automap_help = self.automap.on.then(|| self.automap.help());
        let mut frozen = self.frozen;
        let overlay = if self.overlay_refresh.due(now) {
            let title = format!("{} ({})", self.scene.name, self.scene.game.name());
            let info = OverlayInfo {
                title: &title,
                frame_ms: self.frame_ms,
                position: pose.position,
                angle: pose.angle,
                pitch: pose.pitch,
                speed: self
                    .walk
                    .as_ref()
                    .map_or(self.fly.speed, |walk| walk.speed_a_second(self.scene.game.tic_rate())),
                walking: self.walk.is_some(),
                tic,
                captured: self.captured,
                message: self.message.as_deref(),
                error: self.error.as_deref(),
                game_screen: game.as_ref().map(overlay::game_screen_label),
                frame_size: (fw, fh),
                automap: automap_help.as_deref(),
            };
            let raw = w.egui_state.take_egui_input(&w.window);
            if self.keep.picker.open {
                self.keep.picker.prepare(&self.files, self.source.as_ref());
            }
            let (picker, recent) = (&mut self.keep.picker, self.keep.store.recent());
            let map_index = self.map_index;
            let show = self.show_overlay;
            let (view, game_res, reference) =
                (&mut self.view, &mut self.game_res, &mut self.reference);
            let output = w.egui_ctx.run_pass(raw, |ctx| {
                if let Some(x) = wipe_x {
                    let ppp = ctx.pixels_per_point();
                    let x = x as f32 / ppp;
                    let (top, bottom) = (rect[1] / ppp, (rect[1] + rect[3]) / ppp);
                    let painter = ctx.layer_painter(egui::LayerId::background());
                    let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 255, 255));
                    painter.line_segment([egui::pos2(x, top), egui::pos2(x, bottom)], stroke);
                }
                if find.open {
                    find_action = find.draw(ctx, &kinds);
                }
                if path.open {
                    path_action = path.draw(ctx, now);
                }
                if let Some(i) = inspected {
                    inspector_actions = inspector::draw(ctx, i);
                    if captured {
                        inspector::crosshair(ctx, rect);
                    }
                }
                if show {
                    let controls = Controls {
                        view: &mut *view,
                        game_res: &mut *game_res,
                        frozen: &mut frozen,
                        reference: reference.as_mut(),
                    };
                    actions = overlay::draw(ctx, &info, controls);
                }
                picked = crate::app::map_picker::draw(ctx, picker, map_index, recent);
            });
            w.egui_state.handle_platform_output(&w.window, output.platform_output);
            let ppp = output.pixels_per_point;
            let delay = output.viewport_output.get(&egui::ViewportId::ROOT);
            let delay = delay.map_or(Duration::MAX, |v| v.repaint_delay);
            self.overlay_refresh.drawn(now, delay);
            Some(OverlayFrame {
                primitives: w.egui_ctx.tessellate(output.shapes, ppp),
                textures: output.textures_delta,
                pixels_per_point: ppp,
            })
        } else {
            None
        };
        let picture = match (&w.composite, composed) {
            (Some((_, view, size)), true) => Picture::Composite(view, *size),
            _ => Picture::Frame(&w.renderer),
        };
        let to = Destination { gpu: &w.gpu, window: &w.window, target: &mut w.target };
        w.compositor.show(to, picture, rect, overlay)?;
        self.set_frozen(frozen);
        self.inspector_actions(inspector_actions);
        if let Some(a) = find_action {
            self.go(a);
        }
        if let Some(a) = path_action {
            self.path_action(a);
        }
        // The overlay's field of view slider (shown outside game resolution).
        if self.view.fov_deg != fov {
            self.user_fov = self.view.fov_deg;
        }
        if actions.next_map {
            self.cycle_map(1);
        }
        if actions.bookmark {
            self.bookmark();
        }
        if let Some(p) = picked {
            self.picked(p);
        }
        self.keep_settings(now);
        Ok(())
    }
}
