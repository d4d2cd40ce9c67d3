//! Command-line interface: `mapscope FILE` opens the viewer; `render`, `compare`, `info`,
//! `list` work without a window.

mod camera_args;
mod commands;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

pub use camera_args::{CameraArgs, ViewArgs};

#[derive(Parser, Debug)]
#[command(
    name = "mapscope",
    version,
    about = "Real-time 3D level viewer for retro games, faithful to their palettes and light tables",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub view: OpenArgs,
}

/// Opening the viewer (no subcommand).
#[derive(Args, Debug, Default)]
pub struct OpenArgs {
    /// Level file(s); Doom: the IWAD then PWADs that override it. None: the demo level.
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    /// Folder for F12 screenshots (default: the current folder).
    #[arg(long)]
    pub shot_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Render one frame headless to a PNG.
    Render(RenderArgs),
    /// Measure how close two images are.
    Compare(CompareArgs),
    /// Print facts about a map.
    Info(InfoArgs),
    /// List the maps in a file.
    List(ListArgs),
}

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Level file(s).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x200")]
    pub size: String,
    /// Output PNG.
    #[arg(short = 'o', long = "output", default_value = "render.png")]
    pub output: PathBuf,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The image to judge (e.g. a render).
    pub a: PathBuf,
    /// The reference (e.g. a screenshot of the game).
    pub b: PathBuf,
    /// Only pixels that are not black in this PNG are compared.
    #[arg(long)]
    pub mask: Option<PathBuf>,
    /// Write a difference image here.
    #[arg(long)]
    pub diff: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// Per-channel tolerance for "within tolerance".
    #[arg(long, default_value_t = 8)]
    pub tolerance: u8,
    /// Exit 1 if the identical share is below this (0..1).
    #[arg(long)]
    pub min_identical: Option<f64>,
    /// Exit 1 if the within-tolerance share is below this (0..1).
    #[arg(long)]
    pub min_within: Option<f64>,
    /// Exit 1 if the mean absolute error is above this.
    #[arg(long)]
    pub max_mae: Option<f64>,
    /// Exit 1 if the PSNR (dB) is below this.
    #[arg(long)]
    pub min_psnr: Option<f64>,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map name (default: the first).
    #[arg(long)]
    pub map: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ListArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
}

/// Files some formats need beside the level.
#[derive(Args, Debug, Default, Clone)]
pub struct LoadArgs {
    /// Marathon: the Shapes file (default: a Shapes file beside the map).
    #[arg(long)]
    pub shapes: Option<PathBuf>,
    /// Carmageddon 2: the palette pixelmap (default: DRRENDER.PAL beside the files).
    #[arg(long)]
    pub palette: Option<PathBuf>,
}

impl LoadArgs {
    pub fn options(&self) -> crate::loader::OpenOptions {
        crate::loader::OpenOptions { shapes: self.shapes.clone(), palette: self.palette.clone() }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Render(a)) => commands::render(a),
        Some(Command::Compare(a)) => commands::compare(a),
        Some(Command::Info(a)) => commands::info(a),
        Some(Command::List(a)) => commands::list(a),
        None => commands::view(cli.view),
    }
}
