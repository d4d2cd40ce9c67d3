//! Command-line interface: `mapscope FILE` opens the viewer; `render`, `compare`, `info`,
//! `list` work without a window.

mod automap;
mod camera_args;
mod commands;
mod film;
mod from_shot;
mod pick;
mod search;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{Args, Parser, Subcommand};

pub use camera_args::{CameraArgs, RendererArgs, ViewArgs};

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
    #[command(flatten)]
    pub renderer: RendererArgs,
    /// Folder for F12 screenshots (default: the current folder).
    #[arg(long)]
    pub shot_dir: Option<PathBuf>,
    /// A screenshot of the game to lay over the view (overlay, difference, wipe).
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// The reference shows the game's status bar or interface below a smaller view (Doom's
    /// 32-row bar, Marathon's interface): only the view above it is laid over and compared
    /// (U toggles).
    #[arg(long, requires = "reference")]
    pub reference_hud: bool,
    /// Start at the game's own resolution and field of view (F2 toggles).
    #[arg(long)]
    pub game_res: bool,
    /// Start with the animation clock stopped at --tic (F toggles).
    #[arg(long)]
    pub freeze: bool,
    /// Open at the camera stored in a mapscope PNG (files and map too, unless given).
    #[arg(long)]
    pub from_shot: Option<PathBuf>,
    /// Neither read nor write the settings file (speed, field of view, mode, toggles,
    /// overlay, window size, recent files; Linux: $XDG_CONFIG_HOME/mapscope/settings.json).
    #[arg(long)]
    pub no_config: bool,
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
    /// Write a level as binary glTF 2.0 (.glb) or OBJ + MTL + PNG textures.
    Export(ExportArgs),
    /// Time frames along a fixed camera tour of a level (mapscope's timedemo).
    Bench(BenchArgs),
    /// Find where in a level a screenshot was taken, with no guess: its camera and tic.
    Locate(LocateArgs),
    /// What one pixel of a frame shows, in the game's records (Doom: sector, linedef,
    /// sidedef, part, texture, thing).
    Pick(PickArgs),
    /// Render a camera path (or bench's tour) frame by frame to an animated GIF, a video or
    /// PNGs.
    Film(film::FilmArgs),
}

#[derive(Args, Debug)]
pub struct PickArgs {
    /// Level file(s); Doom: the IWAD then PWADs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    /// The pixel, X,Y from the top left [default: the centre]; given more than once, one
    /// answer a line for each.
    #[arg(long)]
    pub at: Vec<String>,
    /// Frame size, WIDTHxHEIGHT.
    #[arg(long, default_value = "320x200")]
    pub size: String,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Level file(s).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
    #[arg(long)]
    pub map: Option<String>,
    /// Output file (.glb or .obj).
    #[arg(short = 'o', long = "output", required = true)]
    pub output: PathBuf,
    /// Output format (default: from the output's extension).
    #[arg(long, value_parser = ["glb", "obj"])]
    pub format: Option<String>,
    /// Light: bake each surface's light level into vertex colours, or leave textures unlit.
    #[arg(long, default_value = "baked", value_parser = ["baked", "unlit"])]
    pub light: String,
    /// Billboards (things, objects): as fixed quads across their facing, or left out.
    #[arg(long, default_value = "quads", value_parser = ["quads", "skip"])]
    pub sprites: String,
}

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Level file(s) (may be left out with --from-shot).
    #[arg(required_unless_present = "from_shot")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    #[command(flatten)]
    pub camera: CameraArgs,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub renderer: RendererArgs,
    /// Image size, WIDTHxHEIGHT [default: 320x200; with --from-shot: the shot's size].
    #[arg(long)]
    pub size: Option<String>,
    /// Output PNG.
    #[arg(short = 'o', long = "output", default_value = "render.png")]
    pub output: PathBuf,
    /// Take files, map, camera, field of view, mode, tic and size from a mapscope PNG's
    /// metadata; options given beside it win.
    #[arg(long)]
    pub from_shot: Option<PathBuf>,
    #[command(flatten)]
    pub automap: automap::AutomapArgs,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Level file(s); Doom: the IWAD then PWADs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
    #[arg(long)]
    pub map: Option<String>,
    #[command(flatten)]
    pub view: ViewArgs,
    #[command(flatten)]
    pub renderer: RendererArgs,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720")]
    pub size: String,
    /// Frames timed (after the warm-up).
    #[arg(long, default_value_t = 200)]
    pub frames: usize,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also show the tour in a window, presented as the viewer presents, and time that.
    #[arg(long)]
    pub window: bool,
    /// With --window: draw the viewer's overlay over every frame, as the viewer opens (its
    /// figures new each frame), and time that.
    #[arg(long, requires = "window")]
    pub overlay: bool,
    /// Look up (positive) or down by this many degrees all the tour, as a player looking
    /// round with the mouse does.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    pub pitch: f64,
    /// Shade the frames the triangle canvas would draw (the faithful frames of Saturn Quake,
    /// Marathon, Attack of the Saucerman and Carmageddon 2, Doom's smooth frames) with the
    /// GPU's passes instead, Doom's exact frames staying on vanilla's canvas: what
    /// `--renderer auto` does on a graphics card, on any adapter (to compare the two).
    #[arg(long, conflicts_with = "renderer")]
    pub gpu_shading: bool,
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The image to judge (e.g. a render).
    pub a: PathBuf,
    /// The reference (e.g. a screenshot of the game): PNG or JPEG, at A's size, an integer
    /// scale of it, stretched to 4:3, or with Doom's status bar or Marathon's interface below
    /// a view of A's size; it is taken back to A's size before comparing.
    pub b: PathBuf,
    /// Compare only this rectangle of the frame, X,Y,W,H in A's pixels (e.g. 0,0,320,168 to
    /// leave out a status bar drawn over a full-height view).
    #[arg(long, value_parser = parse_crop)]
    pub crop: Option<[u32; 4]>,
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
    /// Search small camera offsets around A's camera (from its mapscope metadata) for the
    /// render that matches B best, and print that camera.
    #[arg(long)]
    pub align: bool,
    /// With --align: write the best render here (with its camera in the PNG metadata).
    #[arg(long, requires = "align")]
    pub aligned_output: Option<PathBuf>,
    /// With --align: once the camera is found, search the tics 0..=this for the animation
    /// state (lights, animated textures, thing frames) that matches best.
    #[arg(long, requires = "align", default_value_t = crate::compare::align::DEFAULT_MAX_TIC)]
    pub max_tic: u32,
    /// With --align: keep A's tic instead of searching.
    #[arg(long, requires = "align")]
    pub keep_tic: bool,
    #[command(flatten)]
    pub load: LoadArgs,
}

#[derive(Args, Debug)]
pub struct LocateArgs {
    /// Level file(s) (Doom: the IWAD then PWADs), then the screenshot (PNG or JPEG) last.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
    #[arg(long)]
    pub map: Option<String>,
    #[command(flatten)]
    pub view: ViewArgs,
    /// The frame searched at, WIDTHxHEIGHT [default: the screenshot's size divided by the
    /// largest whole factor that leaves it 320 wide or more]; the screenshot is taken back
    /// to it as `compare` takes a reference (integer scale, 4:3 stretch, status bar below).
    #[arg(long)]
    pub size: Option<String>,
    /// The tic the candidates are drawn at.
    #[arg(long, default_value_t = 0)]
    pub tic: u32,
    /// Once the camera is found, search the tics 0..=this for the animation state that
    /// matches best.
    #[arg(long, default_value_t = crate::compare::align::DEFAULT_MAX_TIC)]
    pub max_tic: u32,
    /// Keep --tic instead of searching.
    #[arg(long)]
    pub keep_tic: bool,
    /// Metres between the candidate positions over the floor (widened on a large level).
    #[arg(long, default_value_t = 1.5)]
    pub spacing: f64,
    /// Facings tried at each candidate position, evenly round.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(1..=360))]
    pub facings: u32,
    /// Write the frame found here (with its camera in the PNG metadata).
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub load: LoadArgs,
    /// Map: its name as `list` prints it (any case) or its number in `list`, counted from 1
    /// (Marathon: from 0); default: the first.
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
    /// Doom: vanilla's rules, as Chocolate Doom draws (Boom and MBF line specials ignored,
    /// only the last TEXTURE1/TEXTURE2 of the files read)
    #[arg(long)]
    pub vanilla: bool,
}

impl LoadArgs {
    pub fn options(&self) -> crate::loader::OpenOptions {
        crate::loader::OpenOptions {
            shapes: self.shapes.clone(),
            palette: self.palette.clone(),
            vanilla: self.vanilla,
        }
    }
}

pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Some(Command::Render(a)) => commands::render(a),
        Some(Command::Compare(a)) => commands::compare(a),
        Some(Command::Info(a)) => commands::info(a),
        Some(Command::List(a)) => commands::list(a),
        Some(Command::Export(a)) => commands::export(a),
        Some(Command::Bench(a)) => commands::bench(a),
        Some(Command::Locate(a)) => search::locate(a),
        Some(Command::Pick(a)) => pick::pick(a),
        Some(Command::Film(a)) => film::film(a),
        None => commands::view(cli.view),
    }
}

/// `X,Y,W,H` of `--crop`.
fn parse_crop(s: &str) -> Result<[u32; 4], String> {
    let parts: Vec<u32> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>().map_err(|e| format!("'{p}': {e}")))
        .collect::<Result<_, _>>()?;
    match parts[..] {
        [x, y, w, h] if w > 0 && h > 0 => Ok([x, y, w, h]),
        _ => Err(format!("'{s}': expected X,Y,W,H with W and H above 0")),
    }
}
