//! `mapscope compare` through the binary, as scripts use it: the figures, the exit status of
//! each threshold, the difference image, masks and crops, and the errors for missing or
//! unreadable files.

use crate::support;

use std::path::{Path, PathBuf};

use image::{Rgba, RgbaImage};
use serde_json::Value;
use support::{mapscope, TempDir};

const W: u32 = 64;
const H: u32 = 48;

/// The block of B that differs from A: 16 x 12 pixels at (8, 4), 192 of 3072 (6.25%).
fn in_block(x: u32, y: u32) -> bool {
    (8..24).contains(&x) && (4..16).contains(&y)
}

fn gradient() -> RgbaImage {
    RgbaImage::from_fn(W, H, |x, y| Rgba([(x * 4) as u8, (y * 5) as u8, 128, 255]))
}

/// A (a gradient) and B (A with the block's red raised by `delta`), saved in `dir`.
fn pair(dir: &TempDir, delta: u8) -> (PathBuf, PathBuf) {
    let a = gradient();
    let mut b = a.clone();
    for (x, y, p) in b.enumerate_pixels_mut() {
        if in_block(x, y) {
            p.0[0] = p.0[0].saturating_add(delta);
        }
    }
    let (pa, pb) = (dir.join("a.png"), dir.join("b.png"));
    a.save(&pa).unwrap();
    b.save(&pb).unwrap();
    (pa, pb)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = mapscope(args);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().unwrap_or(-1), stdout, stderr)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn figures(a: &Path, b: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["compare", path(a), path(b), "--json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "compare {extra:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn figures_and_each_threshold_set_the_exit_status() {
    let dir = TempDir::new("compare-cli");
    let (a, b) = pair(&dir, 40);
    let v = figures(&a, &b, &[]);
    assert_eq!(v["compared_pixels"], 3072);
    assert_eq!(v["identical_pixels"], 3072 - 192);
    assert_eq!(v["identical"], false);
    // 40 of 255 on one channel of 192 pixels: mean 40 * 192 / (3 * 3072).
    let mae = v["mean_abs_error"].as_f64().unwrap();
    assert!((mae - 40.0 * 192.0 / (3.0 * 3072.0)).abs() < 1e-9, "{v}");
    assert_eq!(v["max_channel_error"], 40);
    let psnr = v["psnr_db"].as_f64().unwrap();

    // Each threshold: met exits 0, missed exits 1 and says which.
    let checks: [(&str, String, String, &str); 4] = [
        ("--min-identical", "0.93".into(), "0.94".into(), "identical share"),
        ("--min-within", "0.93".into(), "0.94".into(), "within"),
        ("--max-mae", format!("{}", mae + 0.01), format!("{}", mae - 0.01), "mean abs"),
        ("--min-psnr", format!("{}", psnr - 0.1), format!("{}", psnr + 0.1), "PSNR"),
    ];
    for (flag, met, missed, says) in checks {
        let (code, _, stderr) = run(&["compare", path(&a), path(&b), flag, &met]);
        assert_eq!(code, 0, "{flag} {met}: {stderr}");
        let (code, _, stderr) = run(&["compare", path(&a), path(&b), flag, &missed]);
        assert_eq!(code, 1, "{flag} {missed} should fail: {stderr}");
        assert!(stderr.contains("threshold not met") && stderr.contains(says), "{stderr}");
    }
    // A difference within the tolerance counts as within it, not as identical.
    let v = figures(&a, &b, &["--tolerance", "40"]);
    assert_eq!(v["within_tolerance_pixels"], 3072);
    assert_eq!(v["identical_pixels"], 3072 - 192);
    let v = figures(&a, &a, &[]);
    assert_eq!(v["identical"], true);
}

#[test]
fn the_difference_image_marks_exactly_the_differing_pixels() {
    let dir = TempDir::new("compare-cli-diff");
    let (a, b) = pair(&dir, 60);
    let diff = dir.join("diff.png");
    figures(&a, &b, &["--diff", path(&diff)]);
    let d = image::open(&diff).unwrap().into_rgba8();
    assert_eq!(d.dimensions(), (W, H));
    // Every differing pixel is marked the same way, and differently from every identical one.
    let marked = *d.get_pixel(8, 4);
    for (x, y, p) in d.enumerate_pixels() {
        assert_eq!(in_block(x, y), *p == marked, "pixel {x},{y}: {p:?} (marked {marked:?})");
    }
}

#[test]
fn a_mask_or_a_crop_leaves_the_block_out() {
    let dir = TempDir::new("compare-cli-mask");
    let (a, b) = pair(&dir, 40);
    let mask = dir.join("mask.png");
    RgbaImage::from_fn(W, H, |x, y| {
        if in_block(x, y) {
            Rgba([0, 0, 0, 255])
        } else {
            Rgba([255, 255, 255, 255])
        }
    })
    .save(&mask)
    .unwrap();
    let v = figures(&a, &b, &["--mask", path(&mask), "--min-identical", "1"]);
    assert_eq!(v["compared_pixels"], 3072 - 192);
    assert_eq!(v["identical"], true);
    // Rows 16.. hold none of the block; rows 0..16 all of it.
    let v = figures(&a, &b, &["--crop", "0,16,64,32"]);
    assert_eq!(v["compared_pixels"], 64 * 32);
    assert_eq!(v["identical_share"], 1.0);
    let v = figures(&a, &b, &["--crop", "0,0,64,16"]);
    assert_eq!(v["identical_pixels"], 64 * 16 - 192);
}

#[test]
fn missing_unreadable_and_mismatched_files_exit_with_a_message_naming_them() {
    let dir = TempDir::new("compare-cli-errors");
    let (a, _) = pair(&dir, 40);
    let missing = dir.join("no-such-shot.png");
    let (code, _, stderr) = run(&["compare", path(&a), path(&missing)]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no-such-shot.png"), "{stderr}");

    let garbage = dir.join("garbage.png");
    std::fs::write(&garbage, b"not an image at all").unwrap();
    let (code, _, stderr) = run(&["compare", path(&garbage), path(&a)]);
    assert_ne!(code, 0);
    assert!(stderr.contains("garbage.png") && !stderr.contains("panicked"), "{stderr}");

    let odd = dir.join("odd.png");
    RgbaImage::new(50, 37).save(&odd).unwrap();
    let (code, _, stderr) = run(&["compare", path(&a), path(&odd)]);
    assert_ne!(code, 0);
    assert!(stderr.contains("50x37") && !stderr.contains("panicked"), "{stderr}");

    let mask = dir.join("small-mask.png");
    RgbaImage::new(8, 8).save(&mask).unwrap();
    let (code, _, stderr) = run(&["compare", path(&a), path(&a), "--mask", path(&mask)]);
    assert_ne!(code, 0);
    assert!(stderr.contains("small-mask.png"), "{stderr}");
}
