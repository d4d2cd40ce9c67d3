use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

use super::camera_args::parse_size;
use super::{CompareArgs, InfoArgs, ListArgs, OpenArgs, RenderArgs};
use crate::compare;
use crate::loader::{self, map_info, MapInfo};
use crate::render::{self, Gpu};
use crate::shot::{self, ShotMeta};

pub fn render(a: RenderArgs) -> Result<ExitCode> {
    let (w, h) = parse_size(&a.size)?;
    let view = a.view.settings(w, h)?;
    let source = loader::open(&a.files, &a.load.options())?;
    let mut scene = source.build(a.camera.map.as_deref())?;
    let camera = a.camera.resolve(&scene)?;
    let gpu = Gpu::headless()?;
    let image = render::render_headless(&gpu, &mut scene, &camera, &view, a.camera.tic)?;
    let native = scene.axes.to_native_f64(camera.pos);
    let meta = ShotMeta {
        file: file_list(&a.files),
        map: scene.name.clone(),
        camera: native.to_array(),
        angle: scene.axes.yaw_to_native(camera.yaw),
        pitch: camera.pitch.to_degrees(),
        fov: view.fov_deg,
        mode: format!("{:?}", view.mode).to_lowercase(),
        tic: a.camera.tic,
    };
    shot::save_png(&a.output, &image, Some(&meta))?;
    println!("{}", a.output.display());
    Ok(ExitCode::SUCCESS)
}

pub fn compare(a: CompareArgs) -> Result<ExitCode> {
    let img_a = compare::load_png(&a.a)?;
    let img_b = compare::load_png(&a.b)?;
    let mask = a.mask.as_deref().map(compare::load_png).transpose()?;
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
        println!("{}", report.to_json());
    } else {
        println!("{report}");
    }
    for f in &failed {
        eprintln!("threshold not met: {f}");
    }
    Ok(if failed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub fn info(a: InfoArgs) -> Result<ExitCode> {
    let source = loader::open(&a.files, &a.load.options())?;
    let maps = source.maps();
    let scene = source.build(a.map.as_deref())?;
    let info = map_info(&scene);
    if a.json {
        println!("{}", serde_json::to_string_pretty(&info_json(&info, &maps, source.format()))?);
    } else {
        print_info(&info, &maps);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn list(a: ListArgs) -> Result<ExitCode> {
    let source = loader::open(&a.files, &a.load.options())?;
    for m in source.maps() {
        println!("{m}");
    }
    Ok(ExitCode::SUCCESS)
}

pub fn view(a: OpenArgs) -> Result<ExitCode> {
    let files = if a.files.is_empty() { vec![crate::demo::demo_wad_path()?] } else { a.files };
    crate::app::run_viewer(files, a.load.options(), a.camera, a.view, a.shot_dir)?;
    Ok(ExitCode::SUCCESS)
}

fn file_list(files: &[PathBuf]) -> String {
    files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(";")
}

fn info_json(info: &MapInfo, maps: &[String], format: &str) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> =
        info.counts.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    json!({
        "format": format,
        "maps": maps,
        "map": info.map,
        "counts": counts,
        "triangles": info.triangles,
        "textures_used": info.textures_used,
        "bounds": info.bounds.map(|(lo, hi)| json!({"min": lo, "max": hi})),
        "spawn": info.spawn.map(|(p, a)| json!({"position": p, "angle": a})),
        "notes": info.notes,
    })
}

fn print_info(info: &MapInfo, maps: &[String]) {
    println!("format: {}", info.format);
    println!("maps ({}): {}", maps.len(), maps.join(" "));
    println!("map: {}", info.map);
    for (k, v) in &info.counts {
        println!("  {k}: {v}");
    }
    println!("  triangles: {}", info.triangles);
    if let Some((lo, hi)) = info.bounds {
        println!("bounds: ({}, {}, {}) .. ({}, {}, {})", lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
    }
    if let Some((p, a)) = info.spawn {
        println!("spawn: ({}, {}, {}) angle {a}", p[0], p[1], p[2]);
    }
    println!("textures used ({}): {}", info.textures_used.len(), info.textures_used.join(" "));
    for n in &info.notes {
        println!("note: {n}");
    }
}
