//! Camera bookmarks: the `mapscope render ...` command line that reproduces the view, and
//! handing it to the clipboard where a clipboard tool is installed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::loader::OpenOptions;
use crate::render::ViewSettings;

/// Everything a `render` command needs to draw the same frame.
pub struct Bookmark<'a> {
    pub files: &'a [PathBuf],
    pub options: &'a OpenOptions,
    pub map: &'a str,
    /// Native camera position.
    pub camera: [f64; 3],
    /// Native facing, degrees.
    pub angle: f64,
    /// Degrees, positive looks up.
    pub pitch: f64,
    /// Size, field of view, mode and toggles of the frame.
    pub view: &'a ViewSettings,
    pub tic: u32,
}

impl Bookmark<'_> {
    /// The command line, arguments quoted for a POSIX shell. Numbers are written in Rust's
    /// shortest round-trip form, so they read back as the same `f64`. Paths are made
    /// absolute where they exist, so the line works from any folder.
    pub fn command_line(&self, output: &str) -> String {
        let mut args: Vec<String> = vec!["mapscope".into(), "render".into()];
        args.extend(self.files.iter().map(|f| absolute(f)));
        if let Some(s) = &self.options.shapes {
            args.extend(["--shapes".into(), absolute(s)]);
        }
        if let Some(p) = &self.options.palette {
            args.extend(["--palette".into(), absolute(p)]);
        }
        if self.options.vanilla {
            args.push("--vanilla".into());
        }
        let c = self.camera;
        let v = self.view;
        args.extend([
            "--map".into(),
            self.map.to_string(),
            "--camera".into(),
            format!("{},{},{}", num(c[0]), num(c[1]), num(c[2])),
            "--angle".into(),
            num(self.angle),
            "--pitch".into(),
            num(self.pitch),
            "--fov".into(),
            num(v.fov_deg),
            "--mode".into(),
            format!("{:?}", v.mode).to_lowercase(),
            "--size".into(),
            format!("{}x{}", v.width, v.height),
            "--tic".into(),
            self.tic.to_string(),
        ]);
        if !v.show_sprites {
            args.push("--no-things".into());
        }
        if !v.show_sky {
            args.push("--no-sky".into());
        }
        if v.wireframe {
            args.push("--wireframe".into());
        }
        if v.show_markers {
            args.push("--markers".into());
        }
        args.extend(["-o".into(), output.to_string()]);
        args.iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" ")
    }
}

/// A number as its shortest round-trip text, with `-0` written as `0`.
fn num(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else {
        format!("{v}")
    }
}

fn absolute(p: &Path) -> String {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf()).display().to_string()
}

/// `s` as one word for a POSIX shell: unchanged when it holds only safe characters,
/// otherwise in single quotes (a single quote inside written as `'\''`).
pub fn shell_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-+=.,/:@%".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Hands `text` to the first clipboard tool found on the PATH (`wl-copy`, `xclip`, `xsel`);
/// returns its name, or `None` when there is none (mapscope has no clipboard code of its
/// own). The tool keeps running in the background to serve the selection, as they do.
pub fn copy_to_clipboard(text: &str) -> Option<&'static str> {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some();
    let x11 = std::env::var_os("DISPLAY").is_some();
    let tools: [(&'static str, &[&str], bool); 3] = [
        ("wl-copy", &[], wayland),
        ("xclip", &["-selection", "clipboard"], x11),
        ("xsel", &["--clipboard", "--input"], x11),
    ];
    for (tool, args, usable) in tools {
        if !usable || !on_path(tool) {
            continue;
        }
        let spawned = Command::new(tool)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(mut child) = spawned else { continue };
        let written = child.stdin.take().map(|mut s| s.write_all(text.as_bytes()).is_ok());
        // Reap it whenever it ends (it lives until another program takes the clipboard).
        std::thread::spawn(move || child.wait());
        if written == Some(true) {
            return Some(tool);
        }
    }
    None
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::RenderMode;

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("E1M1"), "E1M1");
        assert_eq!(shell_quote("-160,304.5,41"), "-160,304.5,41");
        assert_eq!(shell_quote("my maps/a b.wad"), "'my maps/a b.wad'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn command_line_names_every_setting() {
        let view = ViewSettings {
            width: 320,
            height: 200,
            fov_deg: 90.0,
            mode: RenderMode::Faithful,
            show_sprites: false,
            show_sky: true,
            wireframe: false,
            show_markers: false,
        };
        let files = [PathBuf::from("/nonexistent/dir with space/doom.wad")];
        let b = Bookmark {
            files: &files,
            options: &OpenOptions::default(),
            map: "E1M1",
            camera: [-160.0, 304.25, 41.0],
            angle: 12.345678901234567,
            pitch: -0.0,
            view: &view,
            tic: 100,
        };
        assert_eq!(
            b.command_line("out.png"),
            "mapscope render '/nonexistent/dir with space/doom.wad' --map E1M1 \
             --camera -160,304.25,41 --angle 12.345678901234567 --pitch 0 --fov 90 \
             --mode faithful --size 320x200 --tic 100 --no-things -o out.png"
        );
    }
}
