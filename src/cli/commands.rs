//! One function per subcommand: each resolves its arguments, opens the level through the
//! loader, runs the library (render, bench, compare, export, info, list, view) and maps the
//! outcome to an exit status. Printing goes through `outln!`, which handles a closed pipe.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use serde_json::json;

use super::camera_args::parse_size;
use super::{BenchArgs, CompareArgs, ExportArgs, InfoArgs, ListArgs, OpenArgs, RenderArgs};
use crate::compare;
use crate::loader::{self, map_info, MapInfo};
use crate::outln;
use crate::render::{self, Gpu, ViewSettings};
use crate::shot::{self, ShotMeta};

pub fn render(mut a: RenderArgs) -> Result<ExitCode> {
    let mut size = a.size.clone();
    if let Some(shot) = &a.from_shot {
        super::from_shot::apply(shot, &mut a.files, &mut a.load, &mut a.camera, &mut a.view)?;
        if size.is_none() {
            let (w, h) = image::image_dimensions(shot)
                .with_context(|| format!("{}: reading the image size", shot.display()))?;
            size = Some(format!("{w}x{h}"));
        }
    }
    let (w, h) = parse_size(size.as_deref().unwrap_or("320x200"))?;
    if a.automap.automap {
        return super::automap::render(&a, (w, h));
    }
    let view = a.view.settings(w, h)?;
    let source = loader::open(&a.files, &a.load.options())?;
    let mut scene = source.build(a.camera.map.as_deref())?;
    let camera = a.camera.resolve(&scene)?;
    let gpu = Gpu::headless()?;
    let renderer = a.renderer.renderer;
    let image =
        render::render_headless_as(&gpu, &mut scene, &camera, &view, a.camera.tic, renderer)?;
    let pose = camera.native(scene.axes);
    let load = a.load.options();
    let meta = ShotMeta::for_view(&a.files, &load, &scene.name, pose, &view, a.camera.tic);
    shot::save_png(&a.output, &image, Some(&meta))?;
    outln!("{}", a.output.display());
    Ok(ExitCode::SUCCESS)
}

pub fn bench(a: BenchArgs) -> Result<ExitCode> {
    let (w, h) = parse_size(&a.size)?;
    let view = a.view.settings(w, h)?;
    let source = loader::open(&a.files, &a.load.options())?;
    let mut scene = source.build(a.map.as_deref())?;
    let gpu = Gpu::headless()?;
    let tour = crate::bench::Tour::new(&scene).pitched(a.pitch.to_radians());
    let drawing =
        crate::bench::Drawing { renderer: a.renderer.renderer, gpu_shading: a.gpu_shading };
    let mut report = crate::bench::run(&gpu, &mut scene, &tour, &view, a.frames, drawing)?;
    drop(gpu);
    if a.window {
        let options = crate::app::bench_window::WindowOptions { drawing, overlay: a.overlay };
        let shown = crate::app::bench_window::run(scene, tour, view, a.frames, options)?;
        let mut presented = crate::bench::Presented::from_intervals(&shown.intervals, shown.way);
        presented.overlay = shown.overlay.map(str::to_string);
        presented.overlay_ms = crate::bench::median_ms(&shown.overlay_times);
        presented.overlay_redraw_ms = crate::bench::median_ms(&shown.redraw_times);
        presented.overlay_redraws = shown.redraw_times.len();
        report.presented = Some(presented);
    }
    if a.json {
        outln!("{}", report.to_json());
    } else {
        outln!("{}", report.to_text().trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn compare(a: CompareArgs) -> Result<ExitCode> {
    if a.align {
        return super::search::compare_align(a);
    }
    let img_a = compare::load_png(&a.a)?;
    let fitted = reference_at(&a.b, img_a.dimensions(), &a)?;
    let img_b = fitted.image;
    let mask = a.mask.as_deref().map(compare::load_png).transpose()?;
    if let (Some(m), Some(path)) = (&mask, &a.mask) {
        let ((mw, mh), (w, h)) = (m.dimensions(), img_a.dimensions());
        if (mw, mh) != (w, h) {
            anyhow::bail!(
                "mask {}: {mw}x{mh}, not the {w}x{h} of {}",
                path.display(),
                a.a.display()
            );
        }
    }
    let mask = crop_mask(mask, a.crop, img_a.dimensions())?;
    let opts = compare::CompareOptions { tolerance: a.tolerance, mask };
    let report = compare::compare_images(&img_a, &img_b, &opts)?;
    if let Some(path) = &a.diff {
        let diff = compare::diff_image(&img_a, &img_b, &opts)?;
        shot::save_png(path, &diff, None)?;
    }
    let thresholds = compare::Thresholds {
        min_identical: a.min_identical,
        min_within: a.min_within,
        max_mae: a.max_mae,
        min_psnr: a.min_psnr,
    };
    let failed = thresholds.check(&report);
    if a.json {
        let mut v = report.to_json();
        v["reference"] = json!(fitted.how);
        outln!("{v}");
    } else {
        outln!("reference:         {}", fitted.how);
        outln!("{report}");
    }
    for f in &failed {
        eprintln!("threshold not met: {f}");
    }
    Ok(if failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// JSON has no infinity: identical images report PSNR as null.
pub(super) fn finite(v: f64) -> serde_json::Value {
    if v.is_finite() {
        json!(v)
    } else {
        serde_json::Value::Null
    }
}

pub fn info(a: InfoArgs) -> Result<ExitCode> {
    let source = loader::open(&a.files, &a.load.options())?;
    let maps = source.maps();
    let scene = source.build(a.map.as_deref())?;
    let info = map_info(&scene);
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&info_json(&info, &maps, source.format()))?);
    } else {
        print_info(&info, &maps);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn export(a: ExportArgs) -> Result<ExitCode> {
    use crate::export::{ExportFormat, ExportOptions, LightMode, SpriteMode};
    let obj = match a.format.as_deref() {
        Some(f) => f == "obj",
        None => a.output.extension().is_some_and(|e| e.eq_ignore_ascii_case("obj")),
    };
    let opts = ExportOptions {
        format: if obj { ExportFormat::Obj } else { ExportFormat::Glb },
        light: if a.light == "unlit" { LightMode::Unlit } else { LightMode::Baked },
        sprites: if a.sprites == "skip" { SpriteMode::Skip } else { SpriteMode::Quads },
    };
    let source = loader::open(&a.files, &a.load.options())?;
    let scene = source.build(a.map.as_deref())?;
    for path in crate::export::export(&scene, &a.output, &opts)? {
        outln!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn list(a: ListArgs) -> Result<ExitCode> {
    let source = loader::open(&a.files, &a.load.options())?;
    // Name, then (where the format has one) a tab and the map's format and node format.
    for m in source.maps() {
        match source.map_summary(&m) {
            Some(summary) => outln!("{m}\t{summary}"),
            None => outln!("{m}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn view(mut a: OpenArgs) -> Result<ExitCode> {
    if let Some(shot) = &a.from_shot {
        super::from_shot::apply(shot, &mut a.files, &mut a.load, &mut a.camera, &mut a.view)?;
    }
    let files = if a.files.is_empty() { vec![crate::demo::demo_wad_path()?] } else { a.files };
    let settings = if a.no_config {
        crate::app::settings::Store::disabled()
    } else {
        crate::app::settings::Store::open()
    };
    // The window sets the size. What the command line leaves out is the settings file's
    // (with --from-shot, the shot's view, as `render --from-shot` draws it).
    let saved = if a.from_shot.is_some() {
        crate::app::settings::Settings::default()
    } else {
        settings.file.clone()
    };
    let args = &a.view;
    let view = ViewSettings {
        fov_deg: args.fov.unwrap_or(saved.fov),
        mode: args.mode.unwrap_or(saved.mode),
        show_sprites: saved.things && !args.no_things,
        show_sky: saved.sky && !args.no_sky,
        wireframe: saved.wireframe || args.wireframe,
        show_markers: (saved.markers || args.markers) && !args.no_markers,
        ..args.settings(1280, 720)?
    };
    let extra = crate::app::ViewerOptions {
        map: a.camera.map.clone(),
        camera: a.camera.request()?,
        tic: a.camera.tic,
        view,
        shot_dir: a.shot_dir,
        reference: a.reference,
        reference_hud: a.reference_hud,
        game_res: a.game_res || saved.game_res,
        freeze: a.freeze,
        renderer: a.renderer.renderer,
        settings,
    };
    crate::app::run_viewer(files, a.load.options(), extra)?;
    Ok(ExitCode::SUCCESS)
}

fn info_json(info: &MapInfo, maps: &[String], format: &str) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> =
        info.counts.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let details: serde_json::Map<String, serde_json::Value> =
        info.details.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    json!({
        "format": format,
        "maps": maps,
        "map": info.map,
        "details": details,
        "counts": counts,
        "triangles": info.triangles,
        "textures_used": info.textures_used,
        "bounds": info.bounds.map(|(lo, hi)| json!({"min": lo, "max": hi})),
        "spawn": info.spawn.map(|(p, a)| json!({"position": p, "angle": a})),
        "notes": info.notes,
    })
}

fn print_info(info: &MapInfo, maps: &[String]) {
    outln!("format: {}", info.format);
    outln!("maps ({}): {}", maps.len(), maps.join(" "));
    outln!("map: {}", info.map);
    for (k, v) in &info.details {
        outln!("{k}: {v}");
    }
    for (k, v) in &info.counts {
        outln!("  {k}: {v}");
    }
    outln!("  triangles: {}", info.triangles);
    if let Some((lo, hi)) = info.bounds {
        outln!("bounds: ({}, {}, {}) .. ({}, {}, {})", lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    }
    if let Some((p, a)) = info.spawn {
        outln!("spawn: ({}, {}, {}) angle {a}", p[0], p[1], p[2]);
    }
    outln!("textures used ({}): {}", info.textures_used.len(), info.textures_used.join(" "));
    for n in &info.notes {
        outln!("note: {n}");
    }
}

/// Largest channel difference a JPEG's colour is snapped across to the game's palette.
const JPEG_SNAP: u8 = 24;

/// The reference screenshot at `path` (PNG or JPEG) taken back to a `frame`-sized render; a
/// JPEG's colours taken back to the palette of A's level (from A's mapscope metadata) when A
/// is a faithful render.
pub(super) fn reference_at(
    path: &std::path::Path,
    frame: (u32, u32),
    a: &CompareArgs,
) -> Result<compare::screenshot::Fitted> {
    let palette = if compare::is_jpeg(path) { faithful_palette(a) } else { None };
    fitted_reference(path, frame, palette.as_deref())
}

/// The screenshot at `path` (PNG or JPEG) taken back to a `frame`-sized render; a JPEG's
/// colours snapped to `palette` where one is given.
pub(super) fn fitted_reference(
    path: &std::path::Path,
    frame: (u32, u32),
    palette: Option<&[[u8; 3]]>,
) -> Result<compare::screenshot::Fitted> {
    let shot = compare::load_picture(path)?;
    let mut fitted = compare::screenshot::fit_to_frame(&shot, frame)
        .with_context(|| path.display().to_string())?;
    if let (true, Some(palette)) = (compare::is_jpeg(path), palette) {
        let n = compare::screenshot::snap_to_palette(&mut fitted.image, palette, JPEG_SNAP);
        fitted.how += &format!(", JPEG: {n} pixels snapped to the level's palette");
    }
    Ok(fitted)
}

/// The palette of A's level when A is a faithful mapscope render (its metadata names it).
fn faithful_palette(a: &CompareArgs) -> Option<Vec<[u8; 3]>> {
    let meta = ShotMeta::read(&a.a).ok().filter(|m| m.mode == "faithful")?;
    let files: Vec<PathBuf> = meta.file.split(';').map(PathBuf::from).collect();
    let source = loader::open(&files, &a.load.options()).ok()?;
    let scene = source.build(Some(&meta.map)).ok()?;
    Some(scene.palette).filter(|p| !p.is_empty())
}

/// `mask` (or none) with everything outside `crop` (X, Y, W, H) left out.
fn crop_mask(
    mask: Option<image::RgbaImage>,
    crop: Option<[u32; 4]>,
    (w, h): (u32, u32),
) -> Result<Option<image::RgbaImage>> {
    let Some([cx, cy, cw, ch]) = crop else { return Ok(mask) };
    if cx.saturating_add(cw) > w || cy.saturating_add(ch) > h {
        anyhow::bail!("--crop {cx},{cy},{cw},{ch} reaches outside the {w}x{h} frame");
    }
    let inside = |x: u32, y: u32| (cx..cx + cw).contains(&x) && (cy..cy + ch).contains(&y);
    let mut out = mask.unwrap_or_else(|| image::RgbaImage::from_pixel(w, h, image::Rgba([255; 4])));
    if out.dimensions() != (w, h) {
        return Ok(Some(out));
    }
    for (x, y, p) in out.enumerate_pixels_mut() {
        if !inside(x, y) {
            *p = image::Rgba([0, 0, 0, 255]);
        }
    }
    Ok(Some(out))
}
