//! `compare` and `compare --align` on screenshots as people keep them: a Chocolate Doom frame
//! (tests/data/doom-reference) saved 2x and stretched to 4:3 (640x480), as JPEG, and with a
//! status bar over its bottom rows. The figures come out against the 320x200 frame, close to
//! those of the frame as captured.

use crate::support;

use std::path::{Path, PathBuf};

use image::{Rgba, RgbaImage};
use mapscope::app::compare_view::ReferenceView;
use serde_json::Value;
use support::{mapscope, render_e1m1, success, TempDir};

fn reference() -> PathBuf {
    support::test_data("doom-reference/freedoom1_e1m1_start.png")
}

/// mapscope's render of E1M1 from `camera` at `angle` (tic 100, no things): the reference's
/// camera is -160,304,41 at 0°.
fn render(dir: &TempDir, name: &str, camera: &str, angle: &str) -> PathBuf {
    let out = dir.join(name);
    render_e1m1(&out, camera, angle, &["--tic", "100", "--no-things"]);
    out
}

/// `frame` as a port shows it 2x at 4:3: columns doubled, each of 480 rows the frame row
/// under its centre.
fn stretched_640x480(frame: &RgbaImage) -> RgbaImage {
    RgbaImage::from_fn(640, 480, |x, y| *frame.get_pixel(x / 2, ((y as f64 + 0.5) / 2.4) as u32))
}

/// A status bar drawn over the bottom 32 frame rows (76.8 rows of the 480).
fn with_status_bar(mut shot: RgbaImage) -> RgbaImage {
    for y in 403..480 {
        for x in 0..640 {
            let grey = 60 + ((x / 8 + y / 8) % 2) as u8 * 40;
            shot.put_pixel(x, y, Rgba([grey, grey, grey + 10, 255]));
        }
    }
    shot
}

fn save_jpeg(image: &RgbaImage, path: &Path) {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).into_rgb8();
    let mut out = std::fs::File::create(path).unwrap();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 95);
    rgb.write_with_encoder(encoder).unwrap();
}

fn compare(a: &Path, b: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["compare", a.to_str().unwrap(), b.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    serde_json::from_str(&success(&mapscope(args), "compare")).unwrap()
}

fn share(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn scaled_stretched_jpeg_screenshots_with_a_status_bar_compare_at_the_game_frame() {
    let dir = TempDir::new("screenshots");
    let render = render(&dir, "render.png", "-160,304,41", "0");
    let frame = image::open(reference()).unwrap().into_rgba8();
    let as_captured = compare(&render, &reference(), &[]);

    let png = dir.join("shot-640x480.png");
    stretched_640x480(&frame).save(&png).unwrap();
    let jpeg = dir.join("shot-640x480.jpg");
    save_jpeg(&stretched_640x480(&frame), &jpeg);
    let barred = dir.join("shot-640x480-bar.jpg");
    save_jpeg(&with_status_bar(stretched_640x480(&frame)), &barred);

    let scaled = compare(&render, &png, &[]);
    let lossy = compare(&render, &jpeg, &[]);
    let bar_all = compare(&render, &barred, &[]);
    let bar_cropped = compare(&render, &barred, &["--crop", "0,0,320,168"]);
    for (what, r) in [
        ("as captured", &as_captured),
        ("640x480 PNG", &scaled),
        ("640x480 JPEG", &lossy),
        ("JPEG with a bar", &bar_all),
        ("JPEG with a bar, cropped", &bar_cropped),
    ] {
        println!(
            "{what}: identical {:.4}, within 8 {:.4}, compared {}",
            share(r, "identical_share"),
            share(r, "within_tolerance_share"),
            r["compared_pixels"]
        );
    }
    // Figures over the 320x200 frame, saying how the screenshot was read.
    assert_eq!(scaled["compared_pixels"], 64000);
    assert_eq!(scaled["reference"], "640x480 (2x, 4:3-stretched)");
    assert!(lossy["reference"].as_str().unwrap().contains("snapped to the level's palette"));
    assert_eq!(share(&scaled, "identical_share"), share(&as_captured, "identical_share"));
    // JPEG noise averaged over each frame pixel's inner screenshot pixels and its colours
    // taken back to the palette: close to the frame as captured.
    let captured = share(&as_captured, "identical_share");
    assert!(share(&lossy, "identical_share") > captured - 0.02, "{lossy}");
    // The bar costs its rows unless cropped away.
    assert!(share(&bar_all, "identical_share") < 0.9, "{bar_all}");
    assert_eq!(bar_cropped["compared_pixels"], 320 * 168);
    assert!(share(&bar_cropped, "identical_share") > captured - 0.02, "{bar_cropped}");
}

#[test]
fn the_viewer_lays_a_view_above_the_status_bar_over_the_frame() {
    // Chocolate Doom with its status bar draws the 168-row view above the bar at the same
    // projection, centred on its own middle row: the full-screen capture's rows 16..184.
    let dir = TempDir::new("screenshots-viewer-bar");
    let render = image::open(render(&dir, "render.png", "-160,304,41", "0")).unwrap().into_rgba8();
    let frame = image::open(reference()).unwrap().into_rgba8();
    let as_captured = compare(&dir.join("render.png"), &reference(), &[]);
    let captured = share(&as_captured, "identical_share");
    let game_view = RgbaImage::from_fn(320, 200, |x, y| match y {
        0..168 => *frame.get_pixel(x, y + 16),
        _ => Rgba([0, 0, 0, 255]),
    });
    let shot = dir.join("shot-640x480-bar.png");
    with_status_bar(stretched_640x480(&game_view)).save(&shot).unwrap();

    let doom = mapscope::scene::Game::Doom.screen();
    let mut view = ReferenceView::load(&shot).unwrap();
    let figures = |view: &ReferenceView| match &view.report {
        Some(Ok(r)) => (r.identical_share, r.compared_pixels),
        other => panic!("{other:?}"),
    };
    view.process(&render, doom.as_ref());
    let (whole, _) = figures(&view);
    let mut barred = ReferenceView::load(&shot).unwrap();
    barred.hud = true;
    barred.process(&render, doom.as_ref());
    let (share_hud, pixels) = figures(&barred);
    println!("whole screen {whole:.4}, view above the bar {share_hud:.4}, captured {captured:.4}");
    assert_eq!(pixels, 640 * 403, "the 403 rows wholly above the bar");
    assert!(share_hud > captured - 0.01, "{share_hud} against {captured}");
    assert!(whole < 0.5, "read as a whole screen: {whole}");
}

/// Chocolate Doom's frame of the same view with its status bar (screenblocks 10): the view
/// is 320x168 above the 32-row bar.
fn barred_capture() -> PathBuf {
    support::test_data("doom-statusbar/freedoom1_e1m1_start.png")
}

/// mapscope's render of E1M1 at the game's view size with its status bar up.
fn render_view_above_bar(dir: &TempDir, name: &str, camera: &str, angle: &str) -> PathBuf {
    let out = dir.join(name);
    let wad = support::freedoom1();
    let camera = format!("--camera={camera}");
    let args = [
        "render",
        wad.to_str().unwrap(),
        "--map",
        "E1M1",
        &camera,
        "--angle",
        angle,
        "--size",
        "320x168",
        "--tic",
        "100",
        "--no-things",
        "-o",
        out.to_str().unwrap(),
    ];
    success(&mapscope(args), "render");
    out
}

#[test]
fn a_real_capture_with_its_status_bar_compares_and_aligns_as_the_full_screen_one() {
    let dir = TempDir::new("screenshots-real-bar");
    let full = compare(&render(&dir, "full.png", "-160,304,41", "0"), &reference(), &[]);
    let captured = share(&full, "identical_share");
    let render = render_view_above_bar(&dir, "view.png", "-160,304,41", "0");
    let shot = image::open(barred_capture()).unwrap().into_rgba8();
    let jpeg = dir.join("shot-640x480-bar.jpg");
    save_jpeg(&stretched_640x480(&shot), &jpeg);
    let as_captured = compare(&render, &barred_capture(), &[]);
    let lossy = compare(&render, &jpeg, &[]);
    for (what, r) in [("as captured", &as_captured), ("2x 4:3 JPEG", &lossy)] {
        println!("{what}: {r}");
        assert_eq!(r["compared_pixels"], 320 * 168, "{what}");
        assert!(r["reference"].as_str().unwrap().contains("32-row status bar"), "{what}: {r}");
        assert!(share(r, "identical_share") > captured - 0.02, "{what}: {r} against {captured}");
    }
    let rough = render_view_above_bar(&dir, "rough.png", "-152,298,43", "1.5");
    assert_aligned_to_the_capture(&compare(&rough, &jpeg, &["--align"]));
}

/// `compare --align`'s report found the reference's camera (-160,304,41 at 0°) within 2
/// units and 0.3°, better than where it started.
fn assert_aligned_to_the_capture(r: &Value) {
    let best = &r["best"];
    let pos: Vec<f64> = (0..3).map(|i| best["camera"][i].as_f64().unwrap()).collect();
    let truth = [-160.0, 304.0, 41.0];
    let dist = (0..3).map(|i| (pos[i] - truth[i]).powi(2)).sum::<f64>().sqrt();
    let angle = best["angle"].as_f64().unwrap();
    println!("{r}");
    assert!(dist < 2.0 && angle.abs() < 0.3, "found {pos:?} at {angle}°: {r}");
    assert!(share(r, "best_identical_share") > share(r, "start_identical_share"));
}

#[test]
fn a_screenshot_of_another_size_is_refused_naming_both() {
    let dir = TempDir::new("screenshots-bad");
    let render = render(&dir, "render.png", "-160,304,41", "0");
    let odd = dir.join("odd.png");
    RgbaImage::new(500, 300).save(&odd).unwrap();
    let out = mapscope(["compare", render.to_str().unwrap(), odd.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("500x300") && err.contains("320x200"), "{err}");
}

#[test]
fn align_finds_the_camera_of_a_stretched_jpeg_screenshot() {
    let dir = TempDir::new("screenshots-align");
    let rough = render(&dir, "rough.png", "-152,298,43", "1.5");
    let frame = image::open(reference()).unwrap().into_rgba8();
    let jpeg = dir.join("shot.jpg");
    save_jpeg(&stretched_640x480(&frame), &jpeg);
    assert_aligned_to_the_capture(&compare(&rough, &jpeg, &["--align"]));
}
