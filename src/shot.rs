//! Screenshot PNGs that remember where they were taken: the camera (native coordinates),
//! the level and the view are stored as PNG text chunks, so a shot can reopen its view.

use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result};

use crate::loader::OpenOptions;
use crate::render::ViewSettings;
use crate::scene::NativePose;

/// Where a shot was taken, in the format's native terms.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotMeta {
    pub file: String,
    pub map: String,
    /// The camera, in the game's terms.
    pub pose: NativePose,
    pub fov: f64,
    pub mode: String,
    pub tic: u32,
    /// Things/sprites drawn (shots without the key: true).
    pub things: bool,
    /// Sky drawn as sky (shots without the key: true).
    pub sky: bool,
    /// Triangle edges drawn (shots without the key: false).
    pub wireframe: bool,
    /// Markers drawn (shots without the key: false).
    pub markers: bool,
    /// How the level was opened: Doom's vanilla rules, Marathon's Shapes file and Carmageddon
    /// 2's palette as given (empty: the default one beside the level), so that `--from-shot`
    /// opens it the same way.
    pub vanilla: bool,
    pub shapes: String,
    pub palette: String,
}

impl Default for ShotMeta {
    fn default() -> Self {
        ShotMeta {
            file: String::new(),
            map: String::new(),
            pose: NativePose::default(),
            fov: 0.0,
            mode: String::new(),
            tic: 0,
            things: true,
            sky: true,
            wireframe: false,
            markers: false,
            vanilla: false,
            shapes: String::new(),
            palette: String::new(),
        }
    }
}

const PREFIX: &str = "mapscope.";

impl ShotMeta {
    /// The metadata of a frame of `map` from `files` (joined with `;`, opened with `load`)
    /// seen from `pose` with `view`'s settings at animation tic `tic`.
    pub fn for_view(
        files: &[std::path::PathBuf],
        load: &OpenOptions,
        map: &str,
        pose: NativePose,
        view: &ViewSettings,
        tic: u32,
    ) -> ShotMeta {
        let path = |p: &Option<std::path::PathBuf>| {
            p.as_ref().map(|p| p.display().to_string()).unwrap_or_default()
        };
        let file = files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(";");
        ShotMeta {
            file,
            map: map.to_string(),
            pose,
            fov: view.fov_deg,
            mode: format!("{:?}", view.mode).to_lowercase(),
            tic,
            things: view.show_sprites,
            sky: view.show_sky,
            wireframe: view.wireframe,
            markers: view.show_markers,
            vanilla: load.vanilla,
            shapes: path(&load.shapes),
            palette: path(&load.palette),
        }
    }

    fn pairs(&self) -> Vec<(String, String)> {
        let c = self.pose.position;
        vec![
            ("file".into(), self.file.clone()),
            ("map".into(), self.map.clone()),
            ("camera".into(), format!("{},{},{}", c[0], c[1], c[2])),
            ("angle".into(), format!("{}", self.pose.angle)),
            ("pitch".into(), format!("{}", self.pose.pitch)),
            ("fov".into(), format!("{}", self.fov)),
            ("mode".into(), self.mode.clone()),
            ("tic".into(), format!("{}", self.tic)),
            ("things".into(), format!("{}", self.things)),
            ("sky".into(), format!("{}", self.sky)),
            ("wireframe".into(), format!("{}", self.wireframe)),
            ("markers".into(), format!("{}", self.markers)),
            ("vanilla".into(), format!("{}", self.vanilla)),
            ("shapes".into(), self.shapes.clone()),
            ("palette".into(), self.palette.clone()),
        ]
    }

    /// Reads the metadata of a shot written by [`save_png`].
    pub fn read(path: &Path) -> Result<ShotMeta> {
        let file =
            std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let reader =
            decoder.read_info().with_context(|| format!("{}: not a PNG", path.display()))?;
        let mut meta = ShotMeta::default();
        let mut found = false;
        for (keyword, text) in text_chunks(reader.info()) {
            let Some(key) = keyword.strip_prefix(PREFIX) else { continue };
            found = true;
            let v = text.as_str();
            match key {
                "file" => meta.file = v.to_string(),
                "map" => meta.map = v.to_string(),
                "camera" => {
                    let parts: Vec<f64> =
                        v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
                    if parts.len() == 3 {
                        meta.pose.position = [parts[0], parts[1], parts[2]];
                    }
                }
                "angle" => meta.pose.angle = v.parse().unwrap_or(0.0),
                "pitch" => meta.pose.pitch = v.parse().unwrap_or(0.0),
                "fov" => meta.fov = v.parse().unwrap_or(90.0),
                "mode" => meta.mode = v.to_string(),
                "tic" => meta.tic = v.parse().unwrap_or(0),
                "things" => meta.things = v != "false",
                "sky" => meta.sky = v != "false",
                "wireframe" => meta.wireframe = v == "true",
                "markers" => meta.markers = v == "true",
                "vanilla" => meta.vanilla = v == "true",
                "shapes" => meta.shapes = v.to_string(),
                "palette" => meta.palette = v.to_string(),
                _ => {}
            }
        }
        anyhow::ensure!(found, "{}: no mapscope camera metadata in this PNG", path.display());
        Ok(meta)
    }
}

/// Every text chunk of a PNG as (keyword, text): tEXt, zTXt and iTXt alike, in that order,
/// so that where a keyword repeats the UTF-8 value wins. A compressed chunk that does not
/// inflate within the png crate's limit, or is not text, is left out.
fn text_chunks(info: &png::Info) -> Vec<(String, String)> {
    let latin1 = info.uncompressed_latin1_text.iter().map(|c| (c.keyword.clone(), c.text.clone()));
    let zipped = info.compressed_latin1_text.iter().filter_map(|c| {
        let mut c = c.clone();
        c.decompress_text().ok()?;
        Some((c.keyword.clone(), c.get_text().ok()?))
    });
    let utf8 = info.utf8_text.iter().filter_map(|c| {
        let mut c = c.clone();
        c.decompress_text().ok()?;
        Some((c.keyword.clone(), c.get_text().ok()?))
    });
    latin1.chain(zipped).chain(utf8).collect()
}

/// Writes `image` as PNG, with `meta` (when given) as text chunks: screenshots, renders and
/// diff images.
pub fn save_png(path: &Path, image: &image::RgbaImage, meta: Option<&ShotMeta>) -> Result<()> {
    save_png_compressed(path, image, meta, png::Compression::default())
}

/// [`save_png`] at a compression level: `film`'s many frames take `Fast` (fdeflate), several
/// times quicker than the default for files a little larger.
pub fn save_png_compressed(
    path: &Path,
    image: &image::RgbaImage,
    meta: Option<&ShotMeta>,
    compression: png::Compression,
) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    write_png(BufWriter::new(file), image, meta, compression)
        .with_context(|| format!("writing {}", path.display()))
}

/// `image` as PNG bytes (the textures an export embeds).
pub fn png_bytes(image: &image::RgbaImage) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_png(&mut out, image, None, png::Compression::default())?;
    Ok(out)
}

/// The one PNG writer: 8-bit RGBA, with `meta` as text chunks.
fn write_png(
    out: impl Write,
    image: &image::RgbaImage,
    meta: Option<&ShotMeta>,
    compression: png::Compression,
) -> Result<()> {
    let mut encoder = png::Encoder::new(out, image.width(), image.height());
    encoder.set_compression(compression);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    if let Some(meta) = meta {
        for (k, v) in meta.pairs() {
            let keyword = format!("{PREFIX}{k}");
            // tEXt where Latin-1 holds the value, so plain shots stay readable by every PNG
            // tool and by earlier builds; iTXt (UTF-8) for the rest: level names with "™"
            // or "…", paths in any script.
            if v.chars().all(|c| (c as u32) < 0x100) {
                encoder.add_text_chunk(keyword, v).context("adding PNG text")?;
            } else {
                encoder.add_itxt_chunk(keyword, v).context("adding PNG text")?;
            }
        }
    }
    let mut writer = encoder.write_header().context("writing PNG header")?;
    writer.write_image_data(image.as_raw()).context("writing PNG data")?;
    writer.finish().context("finishing PNG")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_round_trips_through_png_text() {
        let dir = std::env::temp_dir().join(format!("mapscope-shot-{}", std::process::id()));
        let path = dir.join("a.png");
        let meta = ShotMeta {
            file: "freedoom1.wad".into(),
            map: "E1M1".into(),
            pose: NativePose { position: [-160.5, 304.0, 41.0], angle: 90.0, pitch: -10.0 },
            fov: 90.0,
            mode: "faithful".into(),
            tic: 100,
            things: false,
            sky: true,
            wireframe: true,
            markers: true,
            vanilla: true,
            shapes: "Марафон/Shapes".into(),
            palette: "DRRENDER.PAL".into(),
        };
        save_png(&path, &image::RgbaImage::new(4, 3), Some(&meta)).unwrap();
        assert_eq!(ShotMeta::read(&path).unwrap(), meta);
        let img = image::open(&path).unwrap();
        assert_eq!((img.width(), img.height()), (4, 3));
        std::fs::remove_dir_all(dir).ok();
    }

    /// Level names and paths in several scripts: Latin-1 text stays in tEXt, the rest goes
    /// to iTXt, and both read back.
    #[test]
    fn text_in_any_script_round_trips() {
        let dir = std::env::temp_dir().join(format!("mapscope-shot-text-{}", std::process::id()));
        let path = dir.join("снимок 地図 📸.png");
        let scripts = [
            ("E1M1", "freedoom1.wad"),
            ("Café à la carte", "/home/zoë/doom/ÿ.wad"),
            ("Shake Before Using…", "/maps/Marathon™/Map.sceA"),
            ("Ain’t Got Time Pfhor This…", "C:\\Spiele\\Infinity ∞\\Map"),
            ("地下基地 マップ", "/home/たなか/マラソン/Map.sceA"),
            ("Карта Ωμέγα", "/дом/χάρτες/Map.sceA;/дом/χάρτες/Shapes"),
            ("🎮 level 🚀", "/tmp/😀/map.wad"),
        ];
        for (map, file) in scripts {
            let meta = ShotMeta { file: file.into(), map: map.into(), ..ShotMeta::default() };
            save_png(&path, &image::RgbaImage::new(2, 2), Some(&meta)).unwrap();
            assert_eq!(ShotMeta::read(&path).unwrap(), meta, "{map} {file}");
            let decoder =
                png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
            let reader = decoder.read_info().unwrap();
            let info = reader.info();
            let itxt: Vec<&str> = info.utf8_text.iter().map(|c| c.keyword.as_str()).collect();
            let latin1 = |t: &str| t.chars().all(|c| (c as u32) < 0x100);
            let want: Vec<&str> = [("mapscope.file", file), ("mapscope.map", map)]
                .into_iter()
                .filter(|(_, t)| !latin1(t))
                .map(|(k, _)| k)
                .collect();
            assert_eq!(itxt, want, "{map} {file}: iTXt only where Latin-1 falls short");
        }
        std::fs::remove_dir_all(dir).ok();
    }

    /// zTXt and iTXt (compressed or not) from other tools read as well as tEXt.
    #[test]
    fn compressed_and_utf8_chunks_are_read() {
        let dir = std::env::temp_dir().join(format!("mapscope-shot-ztxt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("z.png");
        let file = std::fs::File::create(&path).unwrap();
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 1, 1);
        encoder.set_color(png::ColorType::Rgba);
        encoder.add_ztxt_chunk("mapscope.file".into(), "zoë.wad".into()).unwrap();
        let mut map = png::text_metadata::ITXtChunk::new("mapscope.map", "Ain’t Got Time…");
        map.compress_text().unwrap();
        encoder.add_itxt_chunk("mapscope.mode".into(), "smooth".into()).unwrap();
        let mut writer = encoder.write_header().unwrap();
        writer.write_text_chunk(&map).unwrap();
        writer.write_image_data(&[0; 4]).unwrap();
        writer.finish().unwrap();
        let meta = ShotMeta::read(&path).unwrap();
        assert_eq!(meta.file, "zoë.wad");
        assert_eq!(meta.map, "Ain’t Got Time…");
        assert_eq!(meta.mode, "smooth");
        std::fs::remove_dir_all(dir).ok();
    }
}
