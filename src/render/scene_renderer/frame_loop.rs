//! One frame: the family's plan, culling, the CPU canvas or the GPU's passes, the overlays
//! over a canvas, and the frame uniform they read.

use super::*;

impl SceneRenderer {
    /// Draws the scene from `camera` into the offscreen image.
    pub fn render(&mut self, gpu: &Gpu, camera: &CameraPose, view: &ViewSettings) {
        let mut cpu = CpuSteps::start();
        let (w, h) = (view.width.max(1), view.height.max(1));
        self.ensure_targets(gpu, w, h);
        let focal = view.focal();
        if self.screen != Some((w, h, focal.to_bits())) {
            self.family.set_screen(w, h, focal);
            self.screen = Some((w, h, focal.to_bits()));
        }
        cpu.mark("targets");
        let input =
            FrameInput { camera, view, state: &self.state_words, state_layout: &self.state_layout };
        self.plan = self.family.begin_frame(gpu, &input, &mut cpu);
        // Doom's walk drew the whole opaque scene itself; a canvas drawn from the culled
        // triangles holds only the solid world.
        let walk_canvas = self.plan.solid == SolidWorld::Canvas;
        let canvas = self.plan.solid.on_canvas();
        let uniform = self.frame_uniform(camera, view, focal);
        if !walk_canvas {
            let view_proj = Mat4::from_cols_array_2d(&uniform.view_proj);
            let mut map = None;
            let pause = &mut self.occlusion_pause;
            if self.plan.occlusion && self.occlusion_on && *pause == 0 {
                let fresh = || OcclusionMap::new(view_proj, w, h, self.near);
                let m = self.occlusion.get_or_insert_with(fresh);
                m.reset(view_proj, w, h, self.near);
                map = Some(m);
            }
            *pause = pause.saturating_sub(1);
            let eye = camera.pos.as_vec3();
            let visible = match &mut self.cells {
                Some(cells) if self.occlusion_on => cells.update(view_proj, eye),
                _ => None,
            };
            let counts = self.solid_cull.update(view_proj, map.as_deref_mut(), visible);
            self.masked_cull.update(view_proj, map, visible);
            self.last_occlusion = (counts.in_view, counts.in_view - counts.drawn());
            // The map costs a few milliseconds where large triangles cross it; where it hides
            // little (open terrain) the next frames go without it.
            let in_sight = counts.in_view - counts.out_of_sight;
            if counts.occluded.is_some_and(|hidden| hidden * 8 < in_sight) {
                self.occlusion_pause = OCCLUSION_PAUSE_FRAMES;
            }
            cpu.mark("frustum culling");
        }
        if self.plan.solid == SolidWorld::CulledCanvas {
            let soft_view =
                soft_view(&uniform, view, self.near, &self.state_words, &self.state_layout);
            let (solid, masked) = (&self.solid_cull, &self.masked_cull);
            let mut solid =
                (0..self.solid_groups.len()).flat_map(|i| solid.ranges(i).iter().cloned());
            let mut masked =
                (0..self.masked_groups.len()).flat_map(|i| masked.ranges(i).iter().cloned());
            let draws = CanvasDraws { solid: &mut solid, masked: &mut masked, cpu: &mut cpu };
            self.family.draw_canvas(&soft_view, draws);
        }
        self.markers_on_canvas = false;
        let gpu_over = view.wireframe || self.gpu_translucent();
        if canvas && self.cpu_markers && !gpu_over && view.show_markers && self.marker_count > 0 {
            let view_proj = Mat4::from_cols_array_2d(&uniform.view_proj);
            let bgra = self.is_bgra();
            if let Some(c) = self.family.canvas_mut() {
                let (width, height) = (w as usize, h as usize);
                let out = MarkerCanvas { colors: c.colors, depths: c.depths, width, height, bgra };
                draw_markers(out, view_proj, &self.marker_positions);
                self.markers_on_canvas = true;
                cpu.mark("markers");
            }
        }
        let over_canvas = canvas && self.draws_over_canvas(view);
        self.upload_state(gpu, over_canvas);
        self.image_pending.set(canvas && !over_canvas);
        gpu.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        cpu.mark("state upload");
        if self.bind_group.is_none() {
            self.bind_group = Some(self.make_bind_group(&gpu.device));
        }
        let mode = self.shade_mode(view);
        self.prepare_pipelines(&gpu.device, view, mode);
        if let Some(timer) = &mut self.timer {
            timer.begin_frame();
        }
        let (Some(targets), Some(bind_group)) = (&self.targets, &self.bind_group) else {
            return;
        };

        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let mut draws = 0;
        // One render pass for the opaque scene; when profiling, one per stage so that each
        // can be timed (a tiled rasteriser draws a pass tile by tile, not draw by draw).
        // A canvas frame's walls, flats, sky, masked surfaces and sprites are already in the
        // colour target.
        let solid: &[SceneStage] =
            if canvas { &[] } else { &[SceneStage::DepthPrePass, SceneStage::Solid] };
        // The canvas has the masked surfaces and the sprites too.
        let rest: &[SceneStage] = if canvas {
            &[SceneStage::Overlays]
        } else {
            &[SceneStage::Masked, SceneStage::Sprites, SceneStage::Overlays]
        };
        let mut stages: Vec<SceneStage> = solid.iter().chain(rest).copied().collect();
        // Nothing draws over a canvas frame: no pass at all (its depth clear alone is a
        // full-screen write on a software rasteriser). Profiled frames keep their passes.
        if canvas && !over_canvas && self.timer.is_none() {
            stages.clear();
        }
        // Taken out while the passes borrow the renderer; put back below.
        let mut timer = self.timer.take();
        let split = timer.is_some();
        for (n, group) in stages.chunks(if split { 1 } else { stages.len().max(1) }).enumerate() {
            let load = n > 0;
            let color_ops = |clear| wgpu::Operations {
                load: if load || canvas { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(clear) },
                store: wgpu::StoreOp::Store,
            };
            let key_ops = |clear| wgpu::Operations {
                load: if load { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(clear) },
                store: wgpu::StoreOp::Store,
            };
            let timestamp_writes = timer.as_mut().and_then(|t| t.pass(group[0].name()));
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("scene"),
                color_attachments: &[
                    Some(wgpu::RenderPassColorAttachment {
                        view: &targets.color_view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: color_ops(self.clear),
                    }),
                    targets.keys_view.as_ref().map(|view| wgpu::RenderPassColorAttachment {
                        view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: key_ops(wgpu::Color::TRANSPARENT),
                    }),
                ],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &targets.depth_view,
                    depth_ops: Some(wgpu::Operations {
                        load: if load { wgpu::LoadOp::Load } else { wgpu::LoadOp::Clear(0.0) },
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_bind_group(0, bind_group, &[]);
            for &stage in group {
                draws += self.record_stage(&mut pass, stage, view, mode);
                draws += self.family.record(&mut pass, stage, &self.pipelines, mode);
            }
        }
        let translucent = self.translucent.as_mut().filter(|_| !self.plan.translucent);
        if let (Some(pass), Some(keys_view)) = (translucent, &targets.keys_view) {
            let opaque_bytes = self.vertex_count as u64 * std::mem::size_of::<WorldVertex>() as u64;
            pass.record(
                &gpu.device,
                &mut encoder,
                bind_group,
                OpaqueTargets {
                    color: &targets.color,
                    color_view: &targets.color_view,
                    keys_view,
                    depth_view: &targets.depth_view,
                    size: (targets.width, targets.height),
                },
                self.vertices.slice(opaque_bytes..),
                self.translucent_count,
                timer.as_mut(),
            );
            draws += 2;
        }
        if let Some(t) = &timer {
            t.resolve(&mut encoder);
        }
        self.timer = timer;
        self.last_draws = draws;
        let commands = encoder.finish();
        cpu.mark("encode");
        gpu.queue.submit([commands]);
        cpu.mark("submit");
        self.cpu_steps = cpu.finish();
    }

    /// Records one stage of the opaque scene into `pass`; returns the draws it issued.
    pub(super) fn record_stage(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        stage: SceneStage,
        view: &ViewSettings,
        mode: u32,
    ) -> u32 {
        let pipeline = |kind, surface, contrast| {
            self.pipelines.get(PipelineKey { kind, surface, contrast, mode })
        };
        let mut draws = 0;
        let mut draw = |pass: &mut wgpu::RenderPass<'_>, kind, surface, vertices, instances| {
            if let Some(p) = pipeline(kind, surface, true) {
                pass.set_pipeline(p);
                pass.draw(vertices, instances);
                draws += 1;
            }
        };
        let draw_solid = |pass: &mut wgpu::RenderPass<'_>, kind, g: &Group, indices| {
            if let Some(p) = pipeline(kind, g.surface, g.contrast) {
                pass.set_pipeline(p);
                pass.draw_indexed(indices, 0, 0..1);
                1
            } else {
                0
            }
        };
        match stage {
            SceneStage::DepthPrePass if self.plan.solid != SolidWorld::Shaded => {}
            SceneStage::DepthPrePass => {
                // Depths do not depend on the order triangles are drawn in.
                pass.set_vertex_buffer(0, self.solid_reversed.slice(..));
                pass.set_index_buffer(self.solid_indices.slice(..), wgpu::IndexFormat::Uint32);
                // One pipeline for every group: the pre-pass reads no contrast.
                let any = Group { surface: 0, contrast: true, vertices: 0..0 };
                for i in 0..self.solid_groups.len() {
                    for r in self.solid_cull.ranges(i) {
                        draws += draw_solid(pass, PipelineKind::Depth, &any, r.clone());
                    }
                }
            }
            SceneStage::Solid => {
                // The family draws all but the sky's groups itself, or none.
                let sky_only = self.plan.solid == SolidWorld::FamilyExceptSky;
                let kind = if sky_only { PipelineKind::World } else { PipelineKind::Shade };
                pass.set_vertex_buffer(0, self.solid_reversed.slice(..));
                pass.set_index_buffer(self.solid_indices.slice(..), wgpu::IndexFormat::Uint32);
                for (i, g) in self.solid_groups.iter().enumerate() {
                    if !sky_only || is_sky(g) {
                        for r in self.solid_cull.ranges(i) {
                            draws += draw_solid(pass, kind, g, r.clone());
                        }
                    }
                }
            }
            SceneStage::Masked => {
                pass.set_vertex_buffer(0, self.vertices.slice(..));
                for (i, g) in self.masked_groups.iter().enumerate() {
                    for r in self.masked_cull.ranges(i) {
                        draw(pass, PipelineKind::World, g.surface, r.clone(), 0..1);
                    }
                }
            }
            SceneStage::Sprites => {
                if view.show_sprites && self.sprite_count > 0 {
                    let surface = self.sprite_surface();
                    draw(pass, PipelineKind::Sprite, surface, 0..6, 0..self.sprite_count);
                }
            }
            SceneStage::Overlays => {
                if self.gpu_markers(view) {
                    pass.set_vertex_buffer(0, self.markers.slice(..));
                    draw(pass, PipelineKind::Marker, 0, 0..6, 0..self.marker_count);
                }
                if view.wireframe {
                    pass.set_vertex_buffer(0, self.wire.slice(..));
                    draw(pass, PipelineKind::Wire, 0, 0..self.wire_count, 0..1);
                }
            }
        }
        draws
    }

    pub(super) fn sprite_surface(&self) -> u32 {
        KIND_SPRITE + 1
    }

    /// Whether the GPU draws anything over this frame's canvas (markers, wireframe or
    /// translucent surfaces), which then needs the canvas depths.
    pub(super) fn draws_over_canvas(&self, view: &ViewSettings) -> bool {
        self.gpu_markers(view) || view.wireframe || self.gpu_translucent()
    }

    /// Whether the GPU draws this frame's markers (not already in its canvas).
    pub(super) fn gpu_markers(&self, view: &ViewSettings) -> bool {
        view.show_markers && self.marker_count > 0 && !self.markers_on_canvas
    }

    /// Whether the GPU's translucent pass blends this frame's translucent surfaces (the scene
    /// has some, and the family's canvas has not blended them).
    pub(super) fn gpu_translucent(&self) -> bool {
        self.translucent.is_some() && !self.plan.translucent
    }

    pub(super) fn frame_uniform(
        &self,
        camera: &CameraPose,
        view: &ViewSettings,
        focal: f64,
    ) -> FrameUniform {
        let faithful = view.mode == RenderMode::Faithful;
        let mut p = projection(view.width.max(1), view.height.max(1), focal, faithful);
        p.near = self.near as f64;
        let view_m = camera.view_matrix();
        let proj = p.matrix();
        let canvas = self.plan.solid.on_canvas();
        let mut flags = 0;
        if faithful {
            flags |= FLAG_FAITHFUL;
        }
        if canvas {
            flags |= FLAG_CANVAS;
        }
        if view.show_sky {
            flags |= FLAG_SKY;
        }
        // The canvas depths follow the animation state in the state buffer, and its palette
        // indices (four a word) the depths, where translucent surfaces blend with them.
        let depths = if canvas { self.state_words.len() as u32 } else { 0 };
        let keys = self.plan.keys && self.gpu_translucent();
        let keys = if keys { depths + (p.width * p.height) as u32 } else { 0 };
        let right = camera.right();
        // The sprites take their frames from the state's thing words where it has one for
        // each (Doom's things, instance i being thing i); otherwise their spawn views.
        let layout = &self.state_layout;
        let thing_words = if layout.thing_count >= self.sprite_count && self.sprite_count > 0 {
            layout.things
        } else {
            NO_THING_FRAMES
        };
        FrameUniform {
            view_proj: (proj * view_m).to_cols_array_2d(),
            view: view_m.to_cols_array_2d(),
            cam_pos: camera.pos.as_vec3().extend(1.0).to_array(),
            cam_right: [right.x as f32, right.y as f32, right.z as f32, 0.0],
            screen: [
                p.width as f32,
                p.height as f32,
                focal as f32,
                (focal * 320.0 / p.width) as f32,
            ],
            center: [p.cx as f32, p.cy as f32, camera.yaw as f32, camera.pitch as f32],
            palette_at: self.meta_layout.palette,
            tables_at: self.meta_layout.colormap,
            textures_at: self.meta_layout.texinfo,
            texture_count: self.meta_layout.texture_count,
            lights_at: self.state_layout.light,
            remap_at: self.state_layout.remap,
            scrolls_at: self.state_layout.scroll,
            light_count: self.state_layout.light_count,
            flags,
            canvas_depths_at: depths,
            sprite_views_at: self.sprite_views,
            canvas_indices_at: keys,
            clear_index: self.clear_index,
            list_entries: translucent_pass::LAYERS,
            thing_frames_at: thing_words,
            sprite_frames_at: self.sprite_frames,
        }
    }

    /// The `SHADE_MODE` this frame's pipelines are specialised for (shaders/common.wgsl).
    pub(super) fn shade_mode(&self, view: &ViewSettings) -> u32 {
        match (view.mode, self.plan.solid) {
            (RenderMode::Smooth, _) => MODE_SMOOTH,
            (RenderMode::Faithful, solid) if solid.on_canvas() => MODE_CANVAS,
            (RenderMode::Faithful, _) => MODE_FAITHFUL,
        }
    }

    /// Makes the pipelines this frame draws with that do not exist yet.
    pub(super) fn prepare_pipelines(
        &mut self,
        device: &wgpu::Device,
        view: &ViewSettings,
        mode: u32,
    ) {
        let mut keys = Vec::new();
        match self.plan.solid {
            SolidWorld::Shaded => {
                keys.push((PipelineKind::Depth, 0, true));
                let shade =
                    self.solid_groups.iter().map(|g| (PipelineKind::Shade, g.surface, g.contrast));
                keys.extend(shade);
            }
            // Drawn as `record_stage` asks for them: with the group's contrast use.
            SolidWorld::FamilyExceptSky => keys.extend(
                self.solid_groups
                    .iter()
                    .filter(|g| is_sky(g))
                    .map(|g| (PipelineKind::World, g.surface, g.contrast)),
            ),
            SolidWorld::Canvas | SolidWorld::CulledCanvas => {}
        }
        if !self.plan.solid.on_canvas() {
            keys.extend(self.masked_groups.iter().map(|g| (PipelineKind::World, g.surface, true)));
            if view.show_sprites && self.sprite_count > 0 {
                keys.push((PipelineKind::Sprite, self.sprite_surface(), true));
            }
        }
        if self.gpu_markers(view) {
            keys.push((PipelineKind::Marker, 0, true));
        }
        if view.wireframe {
            keys.push((PipelineKind::Wire, 0, true));
        }
        let mut keys: Vec<PipelineKey> = keys
            .into_iter()
            .map(|(kind, surface, contrast)| PipelineKey { kind, surface, contrast, mode })
            .collect();
        self.family.pipeline_keys(mode, &mut keys);
        for key in keys {
            self.pipelines.prepare(device, key);
        }
    }
}

/// What a family's CPU canvas needs of a frame: the uniform's view and the state words.
pub(super) fn soft_view<'a>(
    uniform: &FrameUniform,
    view: &ViewSettings,
    near: f32,
    words: &'a [u32],
    l: &StateLayout,
) -> SoftView<'a> {
    let part = |from: u32, to: usize| words.get(from as usize..to.min(words.len())).unwrap_or(&[]);
    SoftView {
        view_proj: Mat4::from_cols_array_2d(&uniform.view_proj),
        width: uniform.screen[0] as u32,
        height: uniform.screen[1] as u32,
        near,
        centre: uniform.center,
        focal: uniform.screen[2],
        show_sky: view.show_sky,
        show_sprites: view.show_sprites,
        cam_pos: Vec3::from_slice(&uniform.cam_pos[..3]),
        cam_right: Vec3::from_slice(&uniform.cam_right[..3]),
        light: part(l.light, (l.light + l.light_count) as usize),
        remap: part(l.remap, l.scroll as usize),
        scroll: part(l.scroll, words.len()),
    }
}

/// Whether a solid group holds sky surfaces.
fn is_sky(g: &Group) -> bool {
    g.surface == SurfaceKind::Sky as u32 + 1
}
