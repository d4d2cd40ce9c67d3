//! Doom's part in its frames ([`FamilyFrames`]): vanilla's BSP walk and the CPU canvas for
//! faithful frames with vanilla's projection, and the triangle canvas for the rest.
//!
//! - Faithful, 90° across the width, level camera, sky shown, a walk that reached no ZDoom
//!   slope or 3D floor: the walk runs, each wall column is set up and the canvas draws
//!   walls, flats, sky and masked middles as vanilla does, and its things as r_things.c does
//!   ([`SolidWorld::Canvas`]); the GPU draws the overlays over it.
//! - Every other frame (smooth frames; faithful ones from a pitched camera, at another field
//!   of view, or reaching a slope or 3D floor) is drawn on the CPU triangle canvas
//!   (`soft::SoftFrames::doom`, [`SolidWorld::CulledCanvas`]) with shaders/doom.wgsl's
//!   shading: the triangles in view, or in a smooth frame from a level camera only the
//!   walls and flats vanilla's walk reached ([`WalkCull`]) and the sky's triangles in view.
//! - With the triangle canvas turned off (`CanvasPolicy::triangles`: `--renderer auto` on a
//!   graphics card, `--renderer gpu`), those frames are the GPU's: smooth walls and flats in
//!   runs of one bound texture ([`SmoothTextures`], walk-culled where the walk ran), faithful
//!   ones through the generic passes with Doom's shader lighting by depth. With vanilla's
//!   canvas turned off too (`CanvasPolicy::vanilla`: `--renderer gpu`), the exact frames are
//!   the generic passes' as well.

use std::ops::Range;

use super::smooth_textures::{self, SmoothTextures};
use super::vanilla::tables::{finesine, fixed_div, ANG90, FRACUNIT};
use super::vanilla::{CanvasScene, CanvasState, CanvasViewer, VanillaFrame, WalkCull};
use crate::render::family::{
    Canvas, CanvasMut, FamilyFrames, FamilyInputs, FrameInput, FramePlan, SceneStage, SolidWorld,
};
use crate::render::profiler::CpuSteps;
use crate::render::soft::{CanvasDraws, SoftFrames, SoftView};
use crate::render::world_pipelines::{PipelineKey, PipelineKind, WorldPipelines};
use crate::render::{CanvasPolicy, Gpu, RenderMode};
use crate::scene::{vertex_flags, Axes, CameraPose, Shading, SpriteView, SurfaceKind, WorldVertex};

/// `SHADE_MODE` of smooth frames (shaders/common.wgsl).
const MODE_SMOOTH: u32 = 1;

pub(in crate::render) struct DoomFrames {
    /// The walk and the canvas; none for a scene without vanilla's map (nodes it could not
    /// take), whose frames are all the generic passes'.
    vanilla: Option<VanillaFrame>,
    smooth: SmoothTextures,
    /// Smooth frames from a level camera draw only what the walk reached: the triangle lists
    /// of the runs by subsector, and the buffer this frame's list is written to.
    cull: Option<(WalkCull, wgpu::Buffer)>,
    /// This frame's list, when the walk culled it: each run's range of it.
    cull_ranges: Option<Vec<Range<u32>>>,
    /// Texture remapping (animation) of this frame, for choosing each run's texture.
    remap: Vec<u32>,
    plan: FramePlan,
    /// The view's focal length in pixels.
    focal: f64,
    axes: Axes,
    near: f32,
    sky_texture: u32,
    /// Vanilla's `finesine` (made once: R_SetupFrame's span steps read it every frame).
    sine: Vec<i32>,
    /// The triangle canvas of the frames vanilla's canvas cannot draw.
    soft: TriangleCanvas,
    /// Whether exact frames are drawn on vanilla's canvas (`CanvasPolicy::vanilla`).
    vanilla_canvas: bool,
}

/// What the triangle canvas of the frames vanilla's canvas cannot draw reads besides the
/// scene's ([`SoftFrames`]).
struct TriangleCanvas {
    frames: SoftFrames,
    /// Whether frames may use it (`CanvasPolicy::triangles`).
    enabled: bool,
    /// This frame draws only what the walk reached (a smooth frame from a level camera).
    walk_culls: bool,
    /// The smooth runs' triangles, as `SmoothTextures::vertices` holds them.
    runs: Vec<WorldVertex>,
    /// The renderer's solid triangles (its culling ranges count them): the sky's are drawn
    /// from them.
    solid: Vec<WorldVertex>,
    /// Each thing's spawn views and brightness, and the views of each frame the state's
    /// thing words name (as `vs_sprite` picks them).
    spawn: Vec<(Vec<SpriteView>, bool)>,
    frame_views: Vec<Vec<SpriteView>>,
    /// The frame each sprite shows now (`u32::MAX`: its spawn views).
    shown: Vec<u32>,
}

impl DoomFrames {
    pub(in crate::render) fn new(gpu: &Gpu, inputs: FamilyInputs) -> DoomFrames {
        let soft = TriangleCanvas::new(&inputs);
        let FamilyInputs { scene, packed, solid, bgra, .. } = inputs;
        let map = match &scene.shading {
            Shading::DoomColormap { map, .. } => map.as_ref(),
            _ => None,
        };
        let vanilla = match &scene.shading {
            Shading::DoomColormap { map: Some(map), segs, .. } => {
                let canvas = CanvasScene::new(
                    &packed.meta,
                    &packed.layout,
                    packed.texels,
                    scene.clear.rgb,
                    bgra,
                );
                Some(VanillaFrame::new(map.clone(), segs.clone(), canvas))
            }
            _ => None,
        };
        let (triangles, runs) = smooth_textures::runs(solid);
        // Room for every triangle of the runs: a frame's list is written into it.
        let indices = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("smooth runs reached"),
            size: (triangles.len().max(1) * 4) as u64,
            usage: wgpu::BufferUsages::INDEX | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let cull = map.map(|map| (WalkCull::new(map, &triangles), indices));
        let smooth = SmoothTextures::new(&gpu.device, &gpu.queue, scene, &triangles, runs);
        let soft = TriangleCanvas { runs: triangles, ..soft };
        DoomFrames {
            vanilla,
            smooth,
            cull,
            cull_ranges: None,
            remap: Vec::new(),
            plan: FramePlan::default(),
            focal: 1.0,
            axes: scene.axes,
            near: scene.near,
            sky_texture: scene.sky.as_ref().map(|s| s.texture).unwrap_or(0),
            sine: finesine(),
            soft,
            vanilla_canvas: true,
        }
    }

    /// Draws the canvas of a walked faithful frame.
    fn draw_canvas(&mut self, camera: &CameraPose, frame: &FrameInput, cpu: &mut CpuSteps) {
        let Some(v) = &mut self.vanilla else { return };
        let (viewx, viewy, viewz, angle) = fixed_camera(self.axes, camera);
        // R_SetupFrame's projection and span steps at this focal length.
        let fixed = |v: f64| (v * FRACUNIT as f64).round() as i32;
        let centerxfrac = fixed(self.focal);
        let fine = (angle.wrapping_sub(ANG90) >> 19) as usize;
        let basexscale = fixed_div(self.sine[fine + 2048], centerxfrac);
        let baseyscale = -fixed_div(self.sine[fine], centerxfrac);
        v.set_up_walls([viewx, viewy, angle as i32], centerxfrac);
        cpu.mark("wall columns set-up");
        let (l, words) = (frame.state_layout, frame.state);
        let at = |from: u32, to: usize| &words[(from as usize).min(to)..to];
        let state = CanvasState {
            light: at(l.light, (l.light + l.light_count) as usize),
            remap: at(l.remap, l.scroll as usize),
            scroll: at(l.scroll, words.len()),
        };
        let viewer = CanvasViewer {
            viewx,
            viewy,
            viewz,
            viewangle: angle,
            basexscale,
            baseyscale,
            near: self.near,
            sky_texture: self.sky_texture,
        };
        v.draw_canvas(viewer, state);
        cpu.mark("canvas");
    }

    /// In a walked smooth frame, the runs' triangles the walk reached, uploaded.
    fn cull_by_walk(&mut self, gpu: &Gpu) {
        let (Some((cull, buffer)), Some(v)) = (&mut self.cull, &self.vanilla) else { return };
        let Some(subsectors) = v.walked_subsectors() else { return };
        let (indices, ranges) = cull.frame(subsectors, &self.smooth.runs);
        gpu.queue.write_buffer(buffer, 0, bytemuck::cast_slice(indices));
        self.cull_ranges = Some(ranges.to_vec());
    }

    /// Smooth mode's walls and flats, a run of one texture at a time with that texture (after
    /// animation) bound; returns the draws.
    fn draw_runs(&self, pass: &mut wgpu::RenderPass<'_>, pipelines: &WorldPipelines) -> u32 {
        let smooth = &self.smooth;
        pass.set_vertex_buffer(0, smooth.vertices.slice(..));
        let culled = self.cull.as_ref().zip(self.cull_ranges.as_ref());
        if let Some(((_, buffer), _)) = culled {
            pass.set_index_buffer(buffer.slice(..), wgpu::IndexFormat::Uint32);
        }
        let mut surface = None;
        let mut draws = 0;
        for (i, run) in smooth.runs.iter().enumerate() {
            if surface != Some(run.surface) {
                let key = smooth_key(PipelineKind::SmoothShade, run.surface);
                let Some(p) = pipelines.get(key) else { continue };
                pass.set_pipeline(p);
                surface = Some(run.surface);
            }
            let texture = self.remap.get(run.texture as usize).copied().unwrap_or(run.texture);
            let Some(group) = smooth.group(texture) else { continue };
            pass.set_bind_group(1, group, &[]);
            match culled {
                Some((_, ranges)) => {
                    let range = ranges.get(i).cloned().unwrap_or(0..0);
                    if range.is_empty() {
                        continue;
                    }
                    pass.draw_indexed(range, 0, 0..1);
                }
                None => pass.draw(run.vertices.clone(), 0..1),
            }
            draws += 1;
        }
        draws
    }

    /// The smooth runs' depths (what the walk reached of them, when it walked).
    fn draw_run_depths(&self, pass: &mut wgpu::RenderPass<'_>, pipelines: &WorldPipelines) -> u32 {
        let Some(p) = pipelines.get(smooth_key(PipelineKind::Depth, 0)) else { return 0 };
        pass.set_pipeline(p);
        pass.set_vertex_buffer(0, self.smooth.vertices.slice(..));
        match self.cull.as_ref().zip(self.cull_ranges.as_ref()) {
            Some(((_, buffer), ranges)) => {
                let end = ranges.last().map_or(0, |r| r.end);
                pass.set_index_buffer(buffer.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..end, 0, 0..1);
            }
            None => pass.draw(0..self.smooth.runs.last().map_or(0, |r| r.vertices.end), 0..1),
        }
        1
    }
}

impl FamilyFrames for DoomFrames {
    fn bind_group_layout(&self) -> Option<&wgpu::BindGroupLayout> {
        Some(&self.smooth.layout)
    }

    fn set_screen(&mut self, width: u32, height: u32, focal: f64) {
        self.focal = focal;
        // Vanilla's projection: 90° across the width.
        let vanilla_projection = (focal - (width / 2) as f64).abs() < 1e-9;
        if let Some(v) = &mut self.vanilla {
            v.set_screen(width, height, vanilla_projection);
        }
    }

    fn begin_frame(&mut self, gpu: &Gpu, frame: &FrameInput, cpu: &mut CpuSteps) -> FramePlan {
        let (camera, view) = (frame.camera, frame.view);
        let smooth = view.mode == RenderMode::Smooth;
        self.cull_ranges = None;
        let mut canvas = false;
        let mut beyond_canvas = false;
        if let Some(v) = &mut self.vanilla {
            // The canvas draws the sky as vanilla does; a view without it is not vanilla's.
            // Smooth frames walk to draw only what the walk reached.
            let level = camera.pitch == 0.0 && self.axes == Axes::ZUpRightHanded;
            let faithful = view.mode == RenderMode::Faithful && view.show_sky;
            let exact =
                level && ((faithful && self.vanilla_canvas) || (smooth && self.cull.is_some()));
            let (x, y, z, angle) = fixed_camera(self.axes, camera);
            let l = frame.state_layout;
            let words = frame.state;
            let light = &words[l.light as usize..(l.light + l.light_count) as usize];
            let scroll = words.get(l.scroll as usize..).unwrap_or(&[]);
            let things = (l.things as usize)..(l.things + l.thing_count) as usize;
            v.set_thing_frames(words.get(things).unwrap_or(&[]));
            v.walk(exact, [x, y, z, angle as i32], light, scroll);
            v.set_sprites(view.show_sprites);
            if v.walked() {
                cpu.mark("vanilla walk");
            }
            // A walk that reached a ZDoom slope or 3D floor is not exact: the canvas cannot draw the
            // frame nor the walk cull it, so it is the generic passes' (all of it).
            beyond_canvas = v.reached_beyond_canvas();
            canvas = faithful && v.walked() && !beyond_canvas;
        }
        let walked = self.vanilla.as_ref().is_some_and(|v| v.walked_subsectors().is_some());
        let soft = !canvas && self.soft.enabled;
        if canvas {
            self.draw_canvas(camera, frame, cpu);
        } else if soft {
            let s = &mut self.soft;
            let l = frame.state_layout;
            let things = (l.things as usize)..(l.things + l.thing_count) as usize;
            s.set_thing_frames(frame.state.get(things).unwrap_or(&[]));
            s.frames.set_doom_faithful(!smooth);
            s.walk_culls = smooth && walked && !beyond_canvas;
        } else if smooth && !beyond_canvas {
            self.cull_by_walk(gpu);
        }
        if smooth {
            let l = frame.state_layout;
            let remap = frame.state.get(l.remap as usize..l.scroll as usize).unwrap_or(&[]);
            self.remap.clear();
            self.remap.extend_from_slice(remap);
        }
        let solid = match (canvas, smooth) {
            (true, _) => SolidWorld::Canvas,
            _ if soft => SolidWorld::CulledCanvas,
            (false, true) => SolidWorld::FamilyExceptSky,
            (false, false) => SolidWorld::Shaded,
        };
        // Both canvases draw the translucent surfaces themselves (vanilla's through the
        // translucency tables): the GPU's pass would only discard them (doom.wgsl
        // `translucent` over a canvas), after the canvas's upload and before its read-back.
        let translucent = soft || canvas;
        // The walk culls Doom's smooth frames; elsewhere Doom's open spaces hide little.
        self.plan = FramePlan { solid, occlusion: false, keys: false, translucent };
        self.plan
    }

    /// A frame on the triangle canvas: what the walk reached and the sky's triangles in view
    /// (a walked smooth frame), or every solid triangle in view.
    fn draw_canvas(&mut self, view: &SoftView, draws: CanvasDraws) {
        let soft = &mut self.soft;
        let walked = self.vanilla.as_ref().and_then(|v| v.walked_subsectors());
        let cull = self.cull.as_mut().map(|(cull, _)| cull);
        let indices = match (walked, cull) {
            (Some(subsectors), Some(cull)) if soft.walk_culls => {
                Some(cull.frame(subsectors, &self.smooth.runs).0)
            }
            _ => None,
        };
        let (runs, solid) = (&soft.runs, &soft.solid);
        let list = |out: &mut Vec<WorldVertex>| {
            let sky = SurfaceKind::Sky as u32;
            if let Some(indices) = indices {
                out.extend(indices.iter().filter_map(|&i| runs.get(i as usize)));
            }
            for r in draws.solid {
                let Some(part) = solid.get(r.start as usize..r.end as usize) else { continue };
                // The renderer's ranges hold one kind of surface each.
                let is_sky = part.first().is_some_and(|v| v.flags & vertex_flags::KIND_MASK == sky);
                if indices.is_none() || is_sky {
                    out.extend_from_slice(part);
                }
            }
        };
        soft.frames.draw_listed(view, list, draws.masked, draws.cpu);
    }

    fn set_canvas_policy(&mut self, policy: CanvasPolicy) {
        self.soft.enabled = policy.triangles;
        self.vanilla_canvas = policy.vanilla;
    }

    fn canvas(&self) -> Option<Canvas<'_>> {
        if self.plan.solid == SolidWorld::CulledCanvas {
            return self.soft.frames.canvas();
        }
        let v = self.vanilla.as_ref().filter(|_| self.plan.solid == SolidWorld::Canvas)?;
        v.canvas().map(|c| Canvas { colors: &c.colors, depths: &c.depths, keys: &[] })
    }

    fn canvas_mut(&mut self) -> Option<CanvasMut<'_>> {
        if self.plan.solid == SolidWorld::CulledCanvas {
            return self.soft.frames.canvas_mut();
        }
        let v = self.vanilla.as_mut().filter(|_| self.plan.solid == SolidWorld::Canvas)?;
        v.canvas_mut().map(|c| CanvasMut { colors: &mut c.colors, depths: &c.depths })
    }

    fn pipeline_keys(&self, mode: u32, keys: &mut Vec<PipelineKey>) {
        if self.plan.solid == SolidWorld::FamilyExceptSky && mode == MODE_SMOOTH {
            keys.push(smooth_key(PipelineKind::Depth, 0));
            keys.extend(
                self.smooth.runs.iter().map(|r| smooth_key(PipelineKind::SmoothShade, r.surface)),
            );
        }
    }

    fn record(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        stage: SceneStage,
        pipelines: &WorldPipelines,
        _mode: u32,
    ) -> u32 {
        if self.plan.solid != SolidWorld::FamilyExceptSky {
            return 0;
        }
        match stage {
            SceneStage::DepthPrePass => self.draw_run_depths(pass, pipelines),
            SceneStage::Solid => self.draw_runs(pass, pipelines),
            _ => 0,
        }
    }
}

/// The key of a pipeline of smooth frames (no run reads a contrast byte differently).
fn smooth_key(kind: PipelineKind, surface: u32) -> PipelineKey {
    PipelineKey { kind, surface, contrast: true, mode: MODE_SMOOTH }
}

/// The camera in Doom's fixed point: viewx, viewy, viewz (16.16, native) and the view angle
/// (BAM).
fn fixed_camera(axes: Axes, camera: &CameraPose) -> (i32, i32, i32, u32) {
    let n = axes.to_native_f64(camera.pos);
    let fixed = |v: f64| (v * FRACUNIT as f64).round() as i32;
    let yaw_deg = axes.yaw_to_native(camera.yaw);
    let bam = ((yaw_deg / 360.0).rem_euclid(1.0) * 4294967296.0).round() as u64 as u32;
    (fixed(n.x), fixed(n.y), fixed(n.z), bam)
}

impl TriangleCanvas {
    /// The canvas of `inputs.scene`'s frames (its runs' triangles come later).
    fn new(inputs: &FamilyInputs) -> TriangleCanvas {
        let frame_views = match &inputs.scene.shading {
            Shading::DoomColormap { map: Some(map), .. } => map.things.frame_views.clone(),
            _ => Vec::new(),
        };
        let sprites = &inputs.scene.sprites;
        TriangleCanvas {
            frames: SoftFrames::doom(inputs),
            enabled: true,
            walk_culls: false,
            runs: Vec::new(),
            solid: inputs.solid.to_vec(),
            spawn: sprites.iter().map(|s| (s.views.clone(), s.fullbright)).collect(),
            frame_views,
            shown: vec![u32::MAX; sprites.len()],
        }
    }

    /// Shows each thing's frame as the state's thing words name it (`vs_sprite`): a word
    /// naming no frame leaves the spawn views.
    fn set_thing_frames(&mut self, words: &[u32]) {
        let sprites = self.frames.sprites_mut();
        for (i, sprite) in sprites.iter_mut().enumerate() {
            let word = words.get(i).copied();
            let frame = word.map_or(u32::MAX, |w| w & 0x7FFF_FFFF);
            let views = self.frame_views.get(frame as usize);
            let frame = if views.is_some() { frame } else { u32::MAX };
            if let Some(w) = word.filter(|_| views.is_some()) {
                sprite.fullbright = w >> 31 != 0;
            } else if let Some((_, bright)) = self.spawn.get(i) {
                sprite.fullbright = *bright;
            }
            if self.shown.get(i) == Some(&frame) {
                continue;
            }
            match views {
                Some(v) => sprite.views.clone_from(v),
                None => {
                    if let Some((v, _)) = self.spawn.get(i) {
                        sprite.views.clone_from(v);
                    }
                }
            }
            if let Some(s) = self.shown.get_mut(i) {
                *s = frame;
            }
        }
    }
}
