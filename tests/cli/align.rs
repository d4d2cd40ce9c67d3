//! `compare --align` finds the camera a reference was taken from, starting from a rough one.

use crate::support;

use serde_json::Value;
use support::{mapscope, render_e1m1, success, TempDir};

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
