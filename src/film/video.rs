//! Video files of rendered frames through ffmpeg, where it is installed: no encoder of the
//! common codecs (H.264, VP9) is kept in pure Rust well enough to carry here, while ffmpeg is
//! one package away on every desktop system. The frames go to it raw, so nothing is
//! compressed twice; its bit-exact flags keep the same frames giving the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use anyhow::{bail, Context, Result};

/// The names a video file may end in: what ffmpeg writes with its default codec for each.
pub const VIDEO_EXTENSIONS: &[&str] = &["mp4", "mkv", "webm", "mov", "avi"];

/// The encoder program: `MAPSCOPE_FFMPEG` where set (another build, or a full path), else
/// `ffmpeg` from the PATH.
fn program() -> PathBuf {
    std::env::var_os("MAPSCOPE_FFMPEG").map(PathBuf::from).unwrap_or_else(|| "ffmpeg".into())
}

/// libvpx's VP9 (ffmpeg's codec for `.webm`) at its default effort encodes a few frames a
/// second; at effort 4 with rows in parallel it is about as quick as x264's default.
fn codec_speed(output: &Path) -> &'static [&'static str] {
    let webm = output.extension().is_some_and(|e| e.eq_ignore_ascii_case("webm"));
    if webm {
        &["-deadline", "good", "-cpu-used", "4", "-row-mt", "1"]
    } else {
        &[]
    }
}

/// An ffmpeg process taking `width` x `height` RGBA frames and writing them to a file.
pub struct VideoWriter {
    child: Child,
    stdin: Option<ChildStdin>,
    output: PathBuf,
    size: (u32, u32),
}

impl VideoWriter {
    pub fn new(output: &Path, width: u32, height: u32, fps: f64) -> Result<VideoWriter> {
        let program = program();
        // Most encoders and players want even sizes for 4:2:0 colour; the frames are padded
        // by a pixel of black where odd rather than refused.
        let pad = "pad=ceil(iw/2)*2:ceil(ih/2)*2";
        let child = Command::new(&program)
            .args(["-hide_banner", "-loglevel", "error", "-y"])
            .args(["-f", "rawvideo", "-pix_fmt", "rgba"])
            .args(["-s", &format!("{width}x{height}"), "-framerate", &format!("{fps}")])
            .args(["-i", "-", "-vf", pad, "-pix_fmt", "yuv420p"])
            // Bit-exact, on a fixed count of threads (x264 and libvpx give the same bytes for
            // the same count, whatever the machine's cores): the same frames, the same file.
            .args(["-threads", "4", "-fflags", "+bitexact", "-flags:v", "+bitexact"])
            .args(codec_speed(output))
            .args(["-map_metadata", "-1"])
            .arg(output)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
                "{}: a video file needs ffmpeg ({} was not found; install it, e.g. `apt install \
                 ffmpeg`, or set MAPSCOPE_FFMPEG), or write a GIF (-o NAME.gif) or PNGs \
                 (-o FOLDER/)",
                output.display(),
                program.display()
            ),
            Err(e) => {
                return Err(e).with_context(|| format!("starting {}", program.display()));
            }
        };
        let stdin = child.stdin.take();
        Ok(VideoWriter { child, stdin, output: output.to_path_buf(), size: (width, height) })
    }

    pub fn add(&mut self, image: &image::RgbaImage) -> Result<()> {
        if image.dimensions() != self.size {
            bail!("a frame of {:?}, not the video's {:?}", image.dimensions(), self.size);
        }
        let Some(stdin) = &mut self.stdin else { bail!("the encoder's input is closed") };
        if stdin.write_all(image.as_raw()).is_err() {
            // ffmpeg stopped: its own words say why.
            return Err(self.failure());
        }
        Ok(())
    }

    /// Closes the input and waits for ffmpeg to finish the file.
    pub fn finish(mut self) -> Result<()> {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().context("waiting for ffmpeg")?;
        if !out.status.success() {
            bail!(
                "ffmpeg could not write {}: {}",
                self.output.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(())
    }

    fn failure(&mut self) -> anyhow::Error {
        drop(self.stdin.take());
        let mut text = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut err, &mut text);
        }
        let _ = self.child.wait();
        anyhow::anyhow!("ffmpeg could not write {}: {}", self.output.display(), text.trim())
    }
}
