//! `mapscope locate` finds where a screenshot was taken with no guess: the camera of a render
//! made at a camera the test does not tell it, and of a Chocolate Doom capture.

use crate::support;

use serde_json::Value;
use support::{freedoom2, mapscope, success, test_data, TempDir};

/// `locate` on freedoom2's MAP01 (sparser than by default, to keep the test short), as JSON.
fn locate(shot: &str, extra: &[&str]) -> Value {
    let iwad = freedoom2();
    let mut args = vec!["locate", iwad.to_str().unwrap(), "--map", "MAP01", shot, "--json"];
    args.extend(["--spacing", "3", "--facings", "16", "--max-tic", "40"]);
    args.extend(extra);
    let out = mapscope(&args);
    let report: Value = serde_json::from_str(&success(&out, "locate")).unwrap();
    println!("{report}");
    report
}

fn camera(report: &Value) -> ([f64; 3], f64) {
    let best = &report["best"];
    let c = |i: usize| best["camera"][i].as_f64().unwrap();
    ([c(0), c(1), c(2)], best["angle"].as_f64().unwrap())
}

#[test]
fn locate_finds_the_camera_of_a_render_and_of_a_capture() {
    let dir = TempDir::new("locate");
    // A render at eye height (the floor there is at -64) from a facing no candidate has.
    let shot = dir.join("shot.png");
    let iwad = freedoom2();
    let out = mapscope([
        "render",
        iwad.to_str().unwrap(),
        "--map",
        "MAP01",
        "--camera=452,-101,-23",
        "--angle",
        "140",
        "--tic",
        "20",
        "-o",
        shot.to_str().unwrap(),
    ]);
    success(&out, "render");
    let report = locate(shot.to_str().unwrap(), &[]);
    assert_eq!(camera(&report), ([452.0, -101.0, -23.0], 140.0), "{report}");
    assert_eq!(report["best_identical_share"].as_f64(), Some(1.0), "{report}");
    assert!(report["candidates"].as_u64().unwrap() > 1000, "{report}");
    // Chocolate Doom's frame of MAP01's start (tic 100, no things).
    let capture = test_data("doom-reference/freedoom2_map01_start.png");
    let report = locate(capture.to_str().unwrap(), &["--no-things"]);
    assert_eq!(camera(&report), ([-192.0, -160.0, 41.0], 0.0), "{report}");
    assert!(report["best_identical_share"].as_f64().unwrap() >= 0.999, "{report}");
    assert!(report["command"].as_str().unwrap().contains("--no-things"), "{report}");
}

#[test]
fn locate_wants_a_level_and_a_screenshot() {
    let out = mapscope(["locate", freedoom2().to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("level file(s) and then the screenshot"), "{err}");
}
