//! The commands that search for where a screenshot was taken: `compare --align` (from a
//! rough camera in A's metadata) and `locate` (from nothing). Both print the camera, the tic
//! and a `render` command that draws that frame with every toggle the search used.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use serde_json::json;

use super::camera_args::parse_size;
use super::commands::{finite, fitted_reference, reference_at};
use super::{CameraArgs, CompareArgs, LocateArgs, ViewArgs};
use crate::app::Bookmark;
use crate::compare::align::{align, AlignOptions};
use crate::compare::locate::{locate as locate_camera, LocateOptions};
use crate::compare::CompareReport;
use crate::loader::{self, OpenOptions};
use crate::outln;
use crate::render::{self, Gpu, ViewSettings};
use crate::scene::{NativePose, Scene};
use crate::shot::{self, ShotMeta};

/// `compare --align`: re-renders A's level around A's camera against the reference B, at A's
/// toggles and then at every distinct animation state.
pub fn compare_align(a: CompareArgs) -> Result<ExitCode> {
    let (width, height) = image::image_dimensions(&a.a)
        .with_context(|| format!("{}: reading its size", a.a.display()))?;
    let reference = reference_at(&a.b, (width, height), &a)?.image;
    // A's level, camera, view and toggles, read as `--from-shot` reads them; options given
    // on this command line win.
    let (mut files, mut load, mut camera, mut view_args) =
        (Vec::new(), a.load.clone(), CameraArgs::default(), ViewArgs::default());
    let meta = super::from_shot::apply(&a.a, &mut files, &mut load, &mut camera, &mut view_args)
        .with_context(|| {
            format!("{}: --align needs a mapscope render or shot (its metadata)", a.a.display())
        })?;
    let view = view_args.settings(width, height)?;
    let options = load.options();
    let source = loader::open(&files, &options)?;
    let mut scene = source.build(camera.map.as_deref())?;
    let mut opts = AlignOptions::for_units(scene.game.units_per_metre());
    opts.max_tic = (!a.keep_tic).then_some(a.max_tic);
    let gpu = Gpu::headless()?;
    let r = align(&gpu, &mut scene, &view, meta.tic, &reference, meta.pose, &opts)?;
    let found = Search { files: &files, options: &options, view: &view, pose: r.best, tic: r.tic };
    let command = found.command(&scene, a.aligned_output.as_deref());
    if let Some(path) = &a.aligned_output {
        found.save(&gpu, &mut scene, path)?;
    }
    if a.json {
        let v = json!({
            "start": pose_json(&r.start, meta.tic),
            "start_identical_share": r.start_report.identical_share,
            "best": pose_json(&r.best, r.tic),
            "best_identical_share": r.best_report.identical_share,
            "best_psnr_db": finite(r.best_report.psnr_db),
            "renders": r.renders,
            "command": command,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!("start: identical {:.2}%", 100.0 * r.start_report.identical_share);
        outln!("best ({} renders): {}", r.renders, r.best_report);
        print_camera(&r.best, r.tic);
        outln!("{command}");
    }
    Ok(thresholds_met(&a, &r.best_report))
}

/// `locate`: the camera and tic of a screenshot, searched over the whole level.
pub fn locate(a: LocateArgs) -> Result<ExitCode> {
    let (Some((shot, files)), 2..) = (a.paths.split_last(), a.paths.len()) else {
        anyhow::bail!("locate needs the level file(s) and then the screenshot");
    };
    let files = files.to_vec();
    let frame = match &a.size {
        Some(s) => parse_size(s)?,
        None => game_frame(shot)?,
    };
    let view = a.view.settings(frame.0, frame.1)?;
    let options = a.load.options();
    let source = loader::open(&files, &options)?;
    let mut scene = source.build(a.map.as_deref())?;
    let faithful = view.mode == render::RenderMode::Faithful && !scene.palette.is_empty();
    let palette = faithful.then(|| scene.palette.clone());
    let reference = fitted_reference(shot, frame, palette.as_deref())?.image;
    let opts = LocateOptions {
        spacing_metres: a.spacing,
        facings: a.facings,
        tic: a.tic,
        max_tic: (!a.keep_tic).then_some(a.max_tic),
        ..LocateOptions::default()
    };
    let gpu = Gpu::headless()?;
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let mut shown = 0;
    let mut progress = |done: usize, total: usize| {
        // About a hundred updates, on a terminal only.
        if terminal && (done * 100 / total.max(1) > shown || done == total) {
            shown = done * 100 / total.max(1);
            eprint!("\rlocate: {done}/{total} candidate cameras scored");
            if done == total {
                eprintln!(", refining the best");
            }
        }
    };
    let r = locate_camera(&gpu, &mut scene, &view, &reference, &opts, &mut progress)?;
    let seconds = started.elapsed().as_secs_f64();
    let found = Search { files: &files, options: &options, view: &view, pose: r.best, tic: r.tic };
    let command = found.command(&scene, a.output.as_deref());
    if let Some(path) = &a.output {
        found.save(&gpu, &mut scene, path)?;
    }
    if a.json {
        let v = json!({
            "best": pose_json(&r.best, r.tic),
            "best_identical_share": r.report.identical_share,
            "best_psnr_db": finite(r.report.psnr_db),
            "candidates": r.candidates,
            "spacing": r.spacing,
            "renders": r.renders,
            "seconds": seconds,
            "command": command,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!(
            "searched {} candidate cameras ({} units apart), {} renders in {seconds:.1} s",
            r.candidates,
            r.spacing,
            r.renders
        );
        outln!("best: {}", r.report);
        print_camera(&r.best, r.tic);
        outln!("{command}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The frame a screenshot is searched at: its size divided by the largest whole factor that
/// leaves it at least 320 wide (a 640x400 or 1280x800 capture of a 320x200 game is searched
/// at 320x200).
fn game_frame(shot: &std::path::Path) -> Result<(u32, u32)> {
    let (w, h) = image::image_dimensions(shot)
        .with_context(|| format!("{}: reading its size", shot.display()))?;
    let k = (1..=(w / 320).max(1)).rev().find(|k| w % k == 0 && h % k == 0).unwrap_or(1);
    Ok((w / k, h / k))
}

/// A camera and tic found, with what draws its frame again.
struct Search<'a> {
    files: &'a [PathBuf],
    options: &'a OpenOptions,
    view: &'a ViewSettings,
    pose: NativePose,
    tic: u32,
}

impl Search<'_> {
    fn command(&self, scene: &Scene, output: Option<&std::path::Path>) -> String {
        let output = output.map_or("found.png".to_string(), |p| p.display().to_string());
        Bookmark {
            files: self.files,
            options: self.options,
            map: &scene.name,
            camera: self.pose.position,
            angle: self.pose.angle,
            pitch: self.pose.pitch,
            view: self.view,
            tic: self.tic,
        }
        .command_line(&output)
    }

    /// Writes the frame found, with its camera and toggles in the PNG's metadata.
    fn save(&self, gpu: &Gpu, scene: &mut Scene, path: &std::path::Path) -> Result<()> {
        let camera = self.pose.to_viewer(scene.axes);
        let image = render::render_headless(gpu, scene, &camera, self.view, self.tic)?;
        let meta = ShotMeta::for_view(
            self.files,
            self.options,
            &scene.name,
            self.pose,
            self.view,
            self.tic,
        );
        shot::save_png(path, &image, Some(&meta))
    }
}

fn pose_json(p: &NativePose, tic: u32) -> serde_json::Value {
    json!({ "camera": p.position, "angle": p.angle, "pitch": p.pitch, "tic": tic })
}

fn print_camera(p: &NativePose, tic: u32) {
    let c = p.position;
    outln!("camera {},{},{} angle {} pitch {} tic {tic}", c[0], c[1], c[2], p.angle, p.pitch);
}

fn thresholds_met(a: &CompareArgs, report: &CompareReport) -> ExitCode {
    let thresholds = crate::compare::Thresholds {
        min_identical: a.min_identical,
        min_within: a.min_within,
        max_mae: a.max_mae,
        min_psnr: a.min_psnr,
    };
    let failed = thresholds.check(report);
    for f in &failed {
        eprintln!("threshold not met: {f}");
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
