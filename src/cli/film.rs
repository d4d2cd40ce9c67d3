//! `mapscope film`: a camera path or `bench`'s tour rendered headless to an animated GIF or a
//! PNG sequence (see [`crate::film`]).

use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args;

use super::camera_args::parse_size;
use super::{LoadArgs, RendererArgs, ViewArgs};
use crate::film::video::{VideoWriter, VIDEO_EXTENSIONS};
use crate::film::{gif::GifWriter, progress::Progress, CameraPath, Camerawork, Film};
use crate::loader;
use crate::outln;
use crate::render::Gpu;
use crate::shot::{self, ShotMeta};

/// Frames of a tour when `--frames` is left out: `bench`'s default.
const TOUR_FRAMES: usize = 200;

#[derive(Args, Debug)]
pub struct FilmArgs {
    /// Level file(s); Doom: the IWAD then PWADs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
    #[arg(long)]
    pub map: Option<String>,
    /// Camera path file: {"keyframes": [{"t": SECONDS, "camera": [X, Y, Z], "angle": DEG,
    /// "pitch": DEG}, ...]} in the game's coordinates (the viewer saves them).
    #[arg(long, required_unless_present = "tour", conflicts_with = "tour")]
    pub path: Option<PathBuf>,
    /// Film `bench`'s camera tour of the level instead of a path.
    #[arg(long)]
    pub tour: bool,
    /// With --tour: look up (positive) or down by this many degrees all the tour, as `bench
    /// --pitch` does.
    #[arg(long, requires = "tour", default_value_t = 0.0, allow_negative_numbers = true)]
    pub pitch: f64,
    /// Walk the path instead of flying it: a body with the game's gravity, eye height, steps
    /// and collision heads for the path's point every game tic (every game).
    #[arg(long, requires = "path")]
    pub walk: bool,
    /// Frames to render [default: a path's through its last keyframe; the tour: 200].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub frames: Option<u64>,
    /// Frames a second: frame F is at F/fps seconds on the path and the game's clock.
    #[arg(long, default_value_t = 35.0)]
    pub fps: f64,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x200")]
    pub size: String,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub renderer: RendererArgs,
    /// Write the camera of every frame here as JSON: [{"frame": N, "camera": [X, Y, Z],
    /// "angle": DEG, "pitch": DEG}, ...].
    #[arg(long)]
    pub poses: Option<PathBuf>,
    /// An animated GIF (name ending .gif), a video (.mp4, .mkv, .webm, .mov, .avi; needs
    /// ffmpeg) or a folder for frame_00000.png, frame_00001.png, ...
    #[arg(short = 'o', long = "output", required = true)]
    pub output: PathBuf,
}

/// Where the frames go.
enum Sink {
    Gif(PathBuf, GifWriter<BufWriter<std::fs::File>>),
    Video(VideoWriter),
    Pngs(PathBuf),
}

pub fn film(a: FilmArgs) -> Result<ExitCode> {
    if !(a.fps.is_finite() && a.fps > 0.0 && a.fps <= 1000.0) {
        bail!("--fps {} is out of range (above 0, at most 1000)", a.fps);
    }
    let (w, h) = parse_size(&a.size)?;
    let view = a.view.settings(w, h)?;
    // A bad path file is told before the level loads.
    let path = a.path.as_deref().map(CameraPath::load).transpose()?;
    let mut scene = scene_for(&a)?;
    let camerawork = match path {
        Some(path) => Camerawork::Path(path),
        None => Camerawork::Tour(crate::bench::Tour::new(&scene).pitched(a.pitch.to_radians())),
    };
    let frames = match (a.frames, &camerawork) {
        (Some(n), _) => n as usize,
        (None, Camerawork::Path(path)) => Film::frames_for(path, a.fps),
        (None, Camerawork::Tour(_)) => TOUR_FRAMES,
    };
    let film = Film { camerawork, frames, fps: a.fps, walk: a.walk };
    let gpu = Gpu::headless()?;
    let mut sink = open_sink(&a.output, w, h, &scene.palette, a.fps)?;
    if let Sink::Pngs(dir) = &sink {
        remove_frames_from(dir, frames)?;
    }
    let load = a.load.options();
    let mut poses = Vec::with_capacity(frames);
    let progress = Progress::new(frames);
    let name = scene.name.clone();
    let started = std::time::Instant::now();
    film.render(&gpu, &mut scene, &view, a.renderer.renderer, |pose, tic, image| {
        match &mut sink {
            Sink::Gif(_, gif) => gif.add(&image)?,
            Sink::Video(video) => video.add(&image)?,
            Sink::Pngs(dir) => {
                let meta = ShotMeta::for_view(&a.files, &load, &name, pose.pose, &view, tic);
                let file = dir.join(format!("frame_{:05}.png", pose.frame));
                shot::save_png_compressed(&file, &image, Some(&meta), png::Compression::Fast)?;
            }
        }
        poses.push(pose);
        progress.update(poses.len());
        Ok(())
    })?;
    progress.finish();
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{frames} frames in {secs:.2} s: {:.1} a second (drawn, read back and written)",
        frames as f64 / secs.max(1e-9)
    );
    match sink {
        Sink::Gif(file, gif) => {
            use std::io::Write;
            gif.finish()?.flush().with_context(|| format!("writing {}", file.display()))?;
        }
        Sink::Video(video) => video.finish()?,
        Sink::Pngs(_) => {}
    }
    if let Some(file) = &a.poses {
        let text = crate::film::json_list(poses.iter().map(|p| p.to_json_line())) + "\n";
        std::fs::write(file, text).with_context(|| format!("writing {}", file.display()))?;
    }
    outln!("{}", a.output.display());
    Ok(ExitCode::SUCCESS)
}

/// The level the film is of.
fn scene_for(a: &FilmArgs) -> Result<crate::scene::Scene> {
    let source = loader::open(&a.files, &a.load.options())?;
    source.build(a.map.as_deref())
}

/// A GIF for a name ending `.gif`, a video for a video file's name, else a folder of PNGs
/// (made where missing).
fn open_sink(output: &Path, w: u32, h: u32, palette: &[[u8; 3]], fps: f64) -> Result<Sink> {
    let ext = output.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let parent_folder = || -> Result<()> {
        if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("creating the folder {}", dir.display()))?;
        }
        Ok(())
    };
    match ext.as_deref() {
        Some("gif") => {
            parent_folder()?;
            let file = std::fs::File::create(output)
                .with_context(|| format!("creating {}", output.display()))?;
            let gif = GifWriter::new(BufWriter::new(file), w, h, palette, fps)
                .with_context(|| output.display().to_string())?;
            Ok(Sink::Gif(output.to_path_buf(), gif))
        }
        Some(ext) if VIDEO_EXTENSIONS.contains(&ext) => {
            parent_folder()?;
            Ok(Sink::Video(VideoWriter::new(output, w, h, fps)?))
        }
        _ => {
            std::fs::create_dir_all(output)
                .with_context(|| format!("creating the folder {}", output.display()))?;
            Ok(Sink::Pngs(output.to_path_buf()))
        }
    }
}

/// Removes the frames numbered `first` and on that an earlier, longer film left in `dir`, so
/// the folder holds this film's frames only (a PNG sequence is read by its numbers).
fn remove_frames_from(dir: &Path, first: usize) -> Result<()> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("reading the folder {}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(n) = name.to_str().and_then(frame_number) else { continue };
        if n >= first {
            let path = entry.path();
            std::fs::remove_file(&path)
                .with_context(|| format!("removing the old frame {}", path.display()))?;
        }
    }
    Ok(())
}

/// N of a `frame_N.png` name as film writes it (five digits or more).
fn frame_number(name: &str) -> Option<usize> {
    let digits = name.strip_prefix("frame_")?.strip_suffix(".png")?;
    if digits.len() < 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}
