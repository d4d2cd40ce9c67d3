//! `compare --align` finds the camera a reference was taken from, starting from a rough one,
//! and the tic it was taken at, keeping the rough render's toggles.

use crate::support;

use mapscope::shot::ShotMeta;
use serde_json::Value;
use support::{mapscope, render_e1m1, success, test_data, TempDir};

fn render(dir: &TempDir, name: &str, camera: &str, angle: &str, pitch: &str) -> String {
    let out = dir.join(name);
    render_e1m1(&out, camera, angle, &["--pitch", pitch]);
    out.to_str().unwrap().to_string()
}

#[test]
fn align_recovers_a_known_camera_offset_on_e1m1() {
    let dir = TempDir::new("align");
    // The truth, and a guess 12 units, 9 units and 3 units off, 1.5° and 1° off.
    let truth = ([-160.0, 304.0, 41.0], 30.0, 0.0);
    let reference = render(&dir, "reference.png", "-160,304,41", "30", "0");
    let rough = render(&dir, "rough.png", "-148,295,44", "31.5", "1");
    let best_png = dir.join("best.png");
    let out = mapscope([
        "compare",
        &rough,
        &reference,
        "--align",
        "--json",
        "--aligned-output",
        best_png.to_str().unwrap(),
        // Both frames are at tic 0: a few tics show the search runs without making it long.
        "--max-tic",
        "35",
    ]);
    let report: Value = serde_json::from_str(&success(&out, "compare --align")).unwrap();
    let best = &report["best"];
    let pos: Vec<f64> = (0..3).map(|i| best["camera"][i].as_f64().unwrap()).collect();
    let angle = best["angle"].as_f64().unwrap();
    let pitch = best["pitch"].as_f64().unwrap();
    let dist = (0..3).map(|i| (pos[i] - truth.0[i]).powi(2)).sum::<f64>().sqrt();
    println!(
        "recovered {pos:?} angle {angle} pitch {pitch}: {dist:.3} units, {:.3}° and {:.3}° off, \
         identical {} -> {} in {} renders",
        (angle - truth.1).abs(),
        (pitch - truth.2).abs(),
        report["start_identical_share"],
        report["best_identical_share"],
        report["renders"]
    );
    assert!(dist < 2.0, "position {pos:?} is {dist} units from the truth");
    assert!((angle - truth.1).abs() < 0.3, "angle {angle}");
    assert!((pitch - truth.2).abs() < 0.3, "pitch {pitch}");
    assert!(report["best_identical_share"].as_f64().unwrap() > 0.9, "{report}");
    // The best render is written with its camera, so it can be opened again.
    assert!(best_png.is_file());
}

/// The identical share of `a` against `b` (`compare --json`).
fn identical(a: &str, b: &str) -> f64 {
    let out = mapscope(["compare", a, b, "--json"]);
    let report: Value = serde_json::from_str(&success(&out, "compare")).unwrap();
    report["identical_share"].as_f64().unwrap()
}

#[test]
fn align_finds_the_tic_of_a_chocolate_doom_capture_and_keeps_no_things() {
    let dir = TempDir::new("align-tic");
    // Chocolate Doom's frame of E1M1's start at tic 100, without things; the lights of the
    // start room flicker, so the right camera at tic 0 is far from identical.
    let capture = test_data("doom-reference/freedoom1_e1m1_start.png");
    let capture = capture.to_str().unwrap();
    let at_tic_0 = dir.join("tic0.png");
    render_e1m1(&at_tic_0, "-160,304,41", "0", &["--no-things"]);
    let wrong_tic = identical(at_tic_0.to_str().unwrap(), capture);
    assert!(wrong_tic < 0.9, "the capture's tic should matter here: {wrong_tic}");
    // A guess 8 and 6 units and 1.5° off, at tic 0, without things.
    let guess = dir.join("guess.png");
    render_e1m1(&guess, "-152,298,41", "1.5", &["--no-things"]);
    let best_png = dir.join("best.png");
    let out = mapscope([
        "compare",
        guess.to_str().unwrap(),
        capture,
        "--align",
        "--json",
        "--max-tic",
        "140",
        "--aligned-output",
        best_png.to_str().unwrap(),
    ]);
    let report: Value = serde_json::from_str(&success(&out, "compare --align")).unwrap();
    println!("{report}");
    let best = &report["best"];
    let camera: Vec<f64> = (0..3).map(|i| best["camera"][i].as_f64().unwrap()).collect();
    assert_eq!(camera, [-160.0, 304.0, 41.0], "{report}");
    assert_eq!(best["angle"].as_f64(), Some(0.0), "{report}");
    assert_eq!(report["best_identical_share"].as_f64(), Some(1.0), "{report}");
    // The toggles stay: the search drew no things, the command and the PNG say so.
    let command = report["command"].as_str().unwrap();
    assert!(command.contains("--no-things"), "{command}");
    let tic = best["tic"].as_u64().unwrap();
    assert!(command.contains(&format!("--tic {tic}")), "{command}");
    let meta = ShotMeta::read(&best_png).unwrap();
    assert!(!meta.things, "the aligned render should keep things off");
    assert_eq!(meta.tic as u64, tic);
    // The printed command draws the capture's frame again.
    let again = dir.join("again.png");
    let mut args: Vec<String> = command.split(' ').skip(1).map(str::to_string).collect();
    let o = args.iter().position(|a| a == "-o").unwrap();
    args[o + 1] = again.to_str().unwrap().to_string();
    success(&mapscope(&args), "the printed render command");
    assert_eq!(identical(again.to_str().unwrap(), capture), 1.0);
}
