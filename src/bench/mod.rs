//! `mapscope bench`: mapscope's timedemo. Renders a fixed camera tour of a level (see
//! [`tour`]) headless, as the viewer draws each frame (animation state for the frame's tic,
//! then the scene, waited for), and reports frame times; then walks the same tour again with
//! profiling on for the time of each CPU step and GPU pass.

mod cpu_time;
pub mod tour;

use std::time::{Duration, Instant};

use anyhow::Result;
use serde_json::{json, Value};

use crate::render::{FrameProfile, Gpu, RendererChoice, SceneRenderer, StepTime, ViewSettings};
use crate::scene::{Scene, Shading};
pub use tour::Tour;

/// Which way the bench draws: the renderer asked for (`--renderer`), or with `--gpu-shading`
/// the triangle canvas's frames by the GPU's passes on any adapter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Drawing {
    pub renderer: RendererChoice,
    pub gpu_shading: bool,
}

impl Drawing {
    /// Sets `renderer` up to draw this way on `gpu`.
    pub fn apply(&self, renderer: &mut SceneRenderer, gpu: &Gpu) {
        renderer.set_renderer(self.renderer, gpu);
        if self.gpu_shading {
            renderer.set_cpu_canvas(false);
        }
    }
}

/// Frames rendered before timing starts: pipelines, tables and driver caches settle.
pub const WARM_UP_FRAMES: usize = 10;

/// What a bench run measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub level: String,
    pub format: String,
    pub adapter: String,
    pub width: u32,
    pub height: u32,
    pub mode: String,
    pub frames: usize,
    pub median_ms: f64,
    pub mean_ms: f64,
    pub p95_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// Processor time of the whole process (every thread) a timed frame, on average; `None`
    /// where the system does not say.
    pub cpu_ms_per_frame: Option<f64>,
    pub draw_calls: u32,
    pub triangles: usize,
    /// Whether the frames' solid world was drawn on the CPU (Doom's faithful walk, Saturn
    /// Quake's and Marathon's faithful canvas) rather than shaded by the GPU's passes.
    pub cpu_canvas: bool,
    /// The renderer asked for (`--renderer`; "gpu-shading" for `--gpu-shading`).
    pub renderer_asked: &'static str,
    /// The vector instructions the triangle canvas ran with (`None` where the frames were
    /// not drawn on it: the GPU's passes, or Doom's vanilla canvas).
    pub canvas_vectors: Option<&'static str>,
    /// Solid triangles a frame (medians over the timed frames): in the view frustum, and
    /// drawn after the occlusion map. `None` for Doom, whose frames draw what vanilla's walk
    /// reaches instead.
    pub solid_triangles: Option<SolidTriangles>,
    pub tour_length: f64,
    pub waypoints: usize,
    /// The tour's pitch in degrees (`--pitch`).
    pub pitch_deg: f64,
    /// Median of each CPU step and GPU pass over the profiled walk.
    pub breakdown: FrameProfile,
    /// Each step's 95th percentile over the frames: where the slow frames' time goes.
    pub breakdown_p95: FrameProfile,
    /// With `--window`: the time between presents along the same tour in a window.
    pub presented: Option<Presented>,
}

/// Solid triangles a frame, medians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolidTriangles {
    pub in_view: usize,
    pub drawn: usize,
}

impl SolidTriangles {
    /// The medians of `frames` (in view, hidden by the occlusion map); `None` for none.
    fn median(frames: &[(usize, usize)]) -> Option<SolidTriangles> {
        let median = |mut v: Vec<usize>| {
            v.sort_unstable();
            v.get(v.len() / 2).copied()
        };
        let in_view = median(frames.iter().map(|f| f.0).collect())?;
        let drawn = median(frames.iter().map(|f| f.0.saturating_sub(f.1)).collect())?;
        Some(SolidTriangles { in_view, drawn })
    }
}

/// Frame intervals of the tour shown in a window.
#[derive(Clone, Debug, PartialEq)]
pub struct Presented {
    pub frames: usize,
    pub median_ms: f64,
    pub p95_ms: f64,
    /// How the images reached the screen: "swapchain" or "shared memory".
    pub way: String,
    /// Where the viewer's overlay was drawn over each frame ("CPU" or "GPU"; `bench
    /// --overlay`), `None` when it was not.
    pub overlay: Option<String>,
    /// The median processor time of a frame's overlay (egui's pass, tessellation and the
    /// drawing), with `--overlay`.
    pub overlay_ms: Option<f64>,
    /// The same over the frames that drew the overlay anew (its figures refresh at an
    /// interval, `OverlayRefresh`), and how many did.
    pub overlay_redraw_ms: Option<f64>,
    pub overlay_redraws: usize,
}

/// The median of `times` in milliseconds; `None` for none.
pub fn median_ms(times: &[Duration]) -> Option<f64> {
    let mut v: Vec<f64> = times.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied()
}

impl Presented {
    pub fn from_intervals(intervals: &[Duration], way: &str) -> Presented {
        let mut v: Vec<f64> = intervals.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let at = |i: usize| v.get(i.min(n.saturating_sub(1))).copied().unwrap_or(0.0);
        let way = way.to_string();
        Presented {
            frames: n,
            median_ms: at(n / 2),
            p95_ms: at(n * 95 / 100),
            way,
            overlay: None,
            overlay_ms: None,
            overlay_redraw_ms: None,
            overlay_redraws: 0,
        }
    }

    pub fn fps(&self) -> f64 {
        1000.0 / self.median_ms.max(1e-9)
    }
}

impl BenchReport {
    /// Which path drew the frames' solid world: "cpu" (a canvas) or "gpu" (the GPU's passes).
    pub fn renderer(&self) -> &'static str {
        if self.cpu_canvas {
            "cpu"
        } else {
            "gpu"
        }
    }

    /// Frames per second at the median frame time.
    pub fn fps(&self) -> f64 {
        1000.0 / self.median_ms.max(1e-9)
    }

    pub fn to_json(&self) -> Value {
        let steps = |s: &[StepTime], p95: &[StepTime]| -> Value {
            s.iter()
                .map(|t| {
                    let p95 = p95.iter().find(|p| p.name == t.name).map(|p| p.ms);
                    json!({ "name": t.name, "ms": t.ms, "p95_ms": p95 })
                })
                .collect()
        };
        json!({
            "level": self.level,
            "format": self.format,
            "adapter": self.adapter,
            "size": format!("{}x{}", self.width, self.height),
            "mode": self.mode,
            "frames": self.frames,
            "fps": self.fps(),
            "median_ms": self.median_ms,
            "mean_ms": self.mean_ms,
            "p95_ms": self.p95_ms,
            "min_ms": self.min_ms,
            "max_ms": self.max_ms,
            "cpu_ms_per_frame": self.cpu_ms_per_frame,
            "draw_calls": self.draw_calls,
            "triangles": self.triangles,
            "cpu_canvas": self.cpu_canvas,
            "renderer": self.renderer(),
            "renderer_asked": self.renderer_asked,
            "canvas_vectors": self.canvas_vectors,
            "solid_triangles": self.solid_triangles.map(|t| json!({
                "in_view_median": t.in_view,
                "drawn_median": t.drawn,
            })),
            "tour": {
                "waypoints": self.waypoints,
                "length": self.tour_length,
                "pitch_deg": self.pitch_deg,
            },
            "cpu_ms": steps(&self.breakdown.cpu, &self.breakdown_p95.cpu),
            "gpu_ms": steps(&self.breakdown.gpu, &self.breakdown_p95.gpu),
            "presented": self.presented.as_ref().map(|p| json!({
                "frames": p.frames,
                "fps": p.fps(),
                "median_ms": p.median_ms,
                "p95_ms": p.p95_ms,
                "way": p.way,
                "overlay": p.overlay,
                "overlay_ms": p.overlay_ms,
                "overlay_redraw_ms": p.overlay_redraw_ms,
                "overlay_redraws": p.overlay_redraws,
            })),
        })
    }

    /// The report as the command prints it.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{} ({}) at {}x{}, {} on {}\n\
             tour: {} waypoints, {:.0} units, pitch {:.1}°; {} frames after {} warm-up\n\
             fps {:.1}   median {:.2} ms   p95 {:.2}   min {:.2}   max {:.2}   mean {:.2}\n\
             draw calls {}   triangles {}   solid world: {} (--renderer {})\n",
            self.level,
            self.format,
            self.width,
            self.height,
            self.mode,
            self.adapter,
            self.waypoints,
            self.tour_length,
            self.pitch_deg,
            self.frames,
            WARM_UP_FRAMES,
            self.fps(),
            self.median_ms,
            self.p95_ms,
            self.min_ms,
            self.max_ms,
            self.mean_ms,
            self.draw_calls,
            self.triangles,
            match (self.cpu_canvas, self.canvas_vectors) {
                (true, Some(vectors)) => format!("CPU canvas ({vectors} pixel loops)"),
                (true, None) => "CPU canvas".to_string(),
                (false, _) => "GPU passes".to_string(),
            },
            self.renderer_asked,
        );
        if let Some(cpu) = self.cpu_ms_per_frame {
            out.push_str(&format!(
                "processor time a frame (mean, every thread): {cpu:.2} ms, {:.2} cores busy\n",
                cpu / self.mean_ms.max(1e-9)
            ));
        }
        if let Some(t) = &self.solid_triangles {
            out.push_str(&format!(
                "solid triangles a frame (median): {} in the view, {} drawn\n",
                t.in_view, t.drawn
            ));
        }
        if let Some(p) = &self.presented {
            out.push_str(&format!(
                "presented in a window ({}{}): fps {:.1}   median {:.2} ms   p95 {:.2} ({} frames)\n",
                p.way,
                match (&p.overlay, p.overlay_ms) {
                    (Some(o), Some(ms)) => format!(
                        ", overlay on the {o}: {ms:.2} ms a frame, {:.2} ms in the {} that drew it anew",
                        p.overlay_redraw_ms.unwrap_or(0.0),
                        p.overlay_redraws
                    ),
                    _ => String::new(),
                },
                p.fps(),
                p.median_ms,
                p.p95_ms,
                p.frames
            ));
        }
        let section = |out: &mut String, title: &str, steps: &[StepTime], p95: &[StepTime]| {
            if steps.is_empty() {
                return;
            }
            out.push_str(&format!("{title}\n"));
            for s in steps {
                let p95 = p95.iter().find(|p| p.name == s.name).map_or(f64::NAN, |p| p.ms);
                out.push_str(&format!("  {:<26} {:>8.2} ms {:>8.2} ms\n", s.name, s.ms, p95));
            }
        };
        let title = "CPU per frame (median, p95):";
        section(&mut out, title, &self.breakdown.cpu, &self.breakdown_p95.cpu);
        if self.breakdown.gpu.is_empty() {
            out.push_str("GPU passes: this adapter has no timestamp queries\n");
        } else {
            let title = "GPU passes (median, p95; profiled walk, one render pass per stage):";
            section(&mut out, title, &self.breakdown.gpu, &self.breakdown_p95.gpu);
        }
        out
    }
}

/// Renders `tour` of `scene` for `frames` frames with `view` and measures it.
pub fn run(
    gpu: &Gpu,
    scene: &mut Scene,
    tour: &Tour,
    view: &ViewSettings,
    frames: usize,
    drawing: Drawing,
) -> Result<BenchReport> {
    let frames = frames.max(1);
    let doom = matches!(scene.shading, Shading::DoomColormap { .. });
    let mut renderer = SceneRenderer::new(gpu, scene)?;
    drawing.apply(&mut renderer, gpu);
    let mut state = scene.animator.initial();
    let mut frame = |renderer: &mut SceneRenderer, i: usize| -> Result<Duration> {
        let t = Instant::now();
        scene.animator.state_at(i as u32, &mut state);
        renderer.set_state(&state);
        renderer.render(gpu, &tour.camera(i, frames), view);
        gpu.device.poll(wgpu::PollType::wait_indefinitely())?;
        Ok(t.elapsed())
    };
    for i in 0..WARM_UP_FRAMES {
        frame(&mut renderer, i * frames / WARM_UP_FRAMES)?;
    }
    let mut times = Vec::with_capacity(frames);
    let mut culled = Vec::with_capacity(frames);
    let cpu_before = cpu_time::process_cpu_time();
    for i in 0..frames {
        times.push(frame(&mut renderer, i)?);
        if !doom {
            culled.push(renderer.last_occlusion());
        }
    }
    let cpu_used = cpu_time::process_cpu_time().zip(cpu_before).map(|(a, b)| a.saturating_sub(b));
    let draw_calls = renderer.draw_calls();
    let cpu_canvas = renderer.used_cpu_canvas();
    let triangle_canvas = cpu_canvas && !renderer.used_family_canvas();
    let canvas_vectors = triangle_canvas.then(crate::render::canvas_vectors);

    renderer.set_profiling(gpu, true);
    let mut profiles = Vec::with_capacity(frames);
    for i in 0..frames {
        frame(&mut renderer, i)?;
        profiles.push(renderer.last_profile(gpu)?);
    }

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / frames as f64;
    times.sort();
    let triangles =
        scene.triangle_count() + if view.show_sprites { 2 * scene.sprites.len() } else { 0 };
    Ok(BenchReport {
        level: scene.name.clone(),
        format: scene.game.name().to_string(),
        adapter: gpu.adapter_name(),
        width: view.width,
        height: view.height,
        mode: format!("{:?}", view.mode).to_lowercase(),
        frames,
        median_ms: ms(times[frames / 2]),
        mean_ms: mean,
        p95_ms: ms(times[(frames * 95 / 100).min(frames - 1)]),
        min_ms: ms(times[0]),
        max_ms: ms(times[frames - 1]),
        cpu_ms_per_frame: cpu_used.map(|d| ms(d) / frames as f64),
        draw_calls,
        triangles,
        cpu_canvas,
        renderer_asked: if drawing.gpu_shading { "gpu-shading" } else { drawing.renderer.name() },
        canvas_vectors,
        solid_triangles: SolidTriangles::median(&culled),
        tour_length: tour.length(),
        waypoints: tour.waypoints.len(),
        pitch_deg: tour.pitch().to_degrees(),
        breakdown: step_profile(&profiles, 0.5),
        breakdown_p95: step_profile(&profiles, 0.95),
        presented: None,
    })
}

/// Each step's `fraction` percentile over `profiles` (0.5: the median; steps named as in the
/// first profile).
fn step_profile(profiles: &[FrameProfile], fraction: f64) -> FrameProfile {
    let percentile_of = |pick: &dyn Fn(&FrameProfile) -> &Vec<StepTime>| -> Vec<StepTime> {
        let Some(first) = profiles.first() else { return Vec::new() };
        pick(first)
            .iter()
            .map(|step| {
                let mut v: Vec<f64> = profiles
                    .iter()
                    .filter_map(|p| pick(p).iter().find(|s| s.name == step.name).map(|s| s.ms))
                    .collect();
                v.sort_by(f64::total_cmp);
                let at = ((v.len() as f64 * fraction) as usize).min(v.len().saturating_sub(1));
                StepTime { name: step.name, ms: v.get(at).copied().unwrap_or(0.0) }
            })
            .collect()
    };
    FrameProfile { cpu: percentile_of(&|p| &p.cpu), gpu: percentile_of(&|p| &p.gpu) }
}
