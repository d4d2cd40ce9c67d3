//! `mapscope film` as a user runs it: a camera path file over Freedoom's MAP01 rendered to a
//! PNG sequence and to an animated GIF, exactly the frames asked for and the same bytes every
//! time; `--poses` at the keyframes' times gives the keyframes; `--tour` starts at the spawn;
//! a broken path file is named with the place in it.

use std::path::Path;

use serde_json::Value;

use crate::support::{self, mapscope, success, TempDir};

/// Three keyframes from the player start of Freedoom's MAP01, at 0, 1 and 2 seconds.
const PATH: &str = r#"{"keyframes": [
  {"t": 0, "camera": [-192, -160, 41], "angle": 0, "pitch": 0},
  {"t": 1, "camera": [0, -160, 41], "angle": 90, "pitch": 5},
  {"t": 2, "camera": [0, 100, 41], "angle": 350, "pitch": -10}
]}"#;

fn film(path: &Path, extra: &[&str]) -> std::process::Output {
    let wad = support::freedoom2();
    let mut args = vec!["film", wad.to_str().unwrap(), "--map", "MAP01"];
    args.extend(["--path", path.to_str().unwrap(), "--size", "160x100"]);
    args.extend_from_slice(extra);
    mapscope(args)
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every frame of a GIF, composed, as RGB.
fn gif_frames(file: &Path) -> Vec<Vec<u8>> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(file).unwrap()).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.left, frame.top, frame.width, frame.height), (0, 0, 160, 100));
        frames.push(frame.buffer.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect());
    }
    frames
}

fn png_rgb(file: &Path) -> Vec<u8> {
    image::open(file).unwrap().to_rgb8().into_raw()
}

#[test]
fn png_sequence_and_gif_hold_exactly_the_frames_asked_the_same_bytes_every_time() {
    let dir = TempDir::new("film-frames");
    let path = dir.join("path.json");
    std::fs::write(&path, PATH).unwrap();
    let (a, b) = (dir.join("a"), dir.join("b"));
    for out in [&a, &b] {
        success(
            &film(&path, &["--frames", "7", "--fps", "5", "-o", out.to_str().unwrap()]),
            "film",
        );
    }
    let names = file_names(&a);
    let expected: Vec<String> = (0..7).map(|i| format!("frame_{i:05}.png")).collect();
    assert_eq!(names, expected);
    assert_eq!(file_names(&b), expected);
    for n in &names {
        assert_eq!(std::fs::read(a.join(n)).unwrap(), std::fs::read(b.join(n)).unwrap(), "{n}");
    }
    let first = png_rgb(&a.join(&names[0]));
    assert!(
        support::image_stats(&image::open(a.join(&names[0])).unwrap().to_rgba8()).looks_rendered()
    );
    assert_ne!(first, png_rgb(&a.join(&names[6])), "the camera moves along the path");
    // A shorter film into the same folder leaves its frames only.
    let keep = a.join("notes.txt");
    std::fs::write(&keep, "mine").unwrap();
    success(&film(&path, &["--frames", "3", "--fps", "5", "-o", a.to_str().unwrap()]), "film");
    let mut three: Vec<String> = (0..3).map(|i| format!("frame_{i:05}.png")).collect();
    three.push("notes.txt".to_string());
    assert_eq!(file_names(&a), three);

    let (ga, gb) = (dir.join("a.gif"), dir.join("b.gif"));
    for out in [&ga, &gb] {
        success(
            &film(&path, &["--frames", "7", "--fps", "5", "-o", out.to_str().unwrap()]),
            "film gif",
        );
    }
    assert_eq!(std::fs::read(&ga).unwrap(), std::fs::read(&gb).unwrap());
    let frames = gif_frames(&ga);
    assert_eq!(frames.len(), 7);
    // Doom's faithful frames are palette images: the GIF holds them exactly.
    for (i, frame) in frames.iter().enumerate() {
        assert!(*frame == png_rgb(&b.join(&names[i])), "GIF frame {i} differs from the PNG");
    }
}

#[test]
fn a_smooth_gif_is_quantised_the_same_every_time() {
    let dir = TempDir::new("film-smooth");
    let path = dir.join("path.json");
    std::fs::write(&path, PATH).unwrap();
    let (ga, gb) = (dir.join("a.gif"), dir.join("b.gif"));
    for out in [&ga, &gb] {
        let args = ["--frames", "3", "--mode", "smooth", "-o", out.to_str().unwrap()];
        success(&film(&path, &args), "film smooth gif");
    }
    assert_eq!(std::fs::read(&ga).unwrap(), std::fs::read(&gb).unwrap());
    assert_eq!(gif_frames(&ga).len(), 3);
}

#[test]
fn poses_at_keyframe_times_are_the_keyframes_and_the_frame_is_render_s() {
    let dir = TempDir::new("film-poses");
    let path = dir.join("path.json");
    std::fs::write(&path, PATH).unwrap();
    let (out, poses) = (dir.join("frames"), dir.join("poses.json"));
    let args = ["--poses", poses.to_str().unwrap(), "-o", out.to_str().unwrap()];
    success(&film(&path, &args), "film");
    // 2 seconds at 35 frames a second, through the last keyframe.
    assert_eq!(file_names(&out).len(), 71);
    let poses: Value = serde_json::from_str(&std::fs::read_to_string(&poses).unwrap()).unwrap();
    let poses = poses.as_array().unwrap();
    assert_eq!(poses.len(), 71);
    let keys: Value = serde_json::from_str(PATH).unwrap();
    for (key, frame) in keys["keyframes"].as_array().unwrap().iter().zip([0, 35, 70]) {
        let pose = &poses[frame];
        assert_eq!(pose["frame"], frame);
        for field in ["camera", "angle", "pitch"] {
            let (got, want) = (&pose[field], &key[field]);
            let same = match (got.as_array(), want.as_array()) {
                (Some(g), Some(w)) => g.iter().zip(w).all(|(g, w)| g.as_f64() == w.as_f64()),
                _ => got.as_f64() == want.as_f64(),
            };
            assert!(same, "frame {frame} {field}: {got}, keyframe {want}");
        }
    }
    // Between keyframes the camera is on its way, turning the short way from 90 to 350.
    let mid = &poses[52];
    let y = mid["camera"][1].as_f64().unwrap();
    assert!(y > -160.0 && y < 100.0, "{mid}");
    let angle = mid["angle"].as_f64().unwrap();
    assert!((0.0..=90.0).contains(&angle) || angle >= 350.0, "{mid}");

    // The frame at a keyframe is what `render` draws from that camera at that tic.
    let single = dir.join("render.png");
    let wad = support::freedoom2();
    let render = [
        "render",
        wad.to_str().unwrap(),
        "--map",
        "MAP01",
        "--camera=0,-160,41",
        "--angle",
        "90",
        "--pitch",
        "5",
        "--tic",
        "35",
        "--size",
        "160x100",
        "-o",
        single.to_str().unwrap(),
    ];
    success(&mapscope(render), "render");
    assert!(png_rgb(&single) == png_rgb(&out.join("frame_00035.png")));
}

#[test]
fn the_tour_starts_at_the_spawn() {
    let dir = TempDir::new("film-tour");
    let (out, poses) = (dir.join("tour.gif"), dir.join("poses.json"));
    let wad = support::freedoom2();
    let args = [
        "film",
        wad.to_str().unwrap(),
        "--map",
        "MAP01",
        "--tour",
        "--frames",
        "4",
        "--size",
        "160x100",
        "--poses",
        poses.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ];
    success(&mapscope(args), "film --tour");
    assert_eq!(gif_frames(&out).len(), 4);
    let poses: Value = serde_json::from_str(&std::fs::read_to_string(&poses).unwrap()).unwrap();
    let info =
        success(&mapscope(["info", wad.to_str().unwrap(), "--map", "MAP01", "--json"]), "info");
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(poses[0]["camera"], info["spawn"]["position"], "{poses}");
    assert!(poses.as_array().unwrap().iter().all(|p| p["pitch"] == 0.0), "{poses}");
    // --pitch looks up all the tour, as bench's does.
    let pitched = dir.join("pitched.json");
    let mut args = args.to_vec();
    args[10] = pitched.to_str().unwrap();
    args.extend(["--pitch", "-12.5"]);
    success(&mapscope(&args), "film --tour --pitch");
    let pitched: Value = serde_json::from_str(&std::fs::read_to_string(&pitched).unwrap()).unwrap();
    let pitched = pitched.as_array().unwrap();
    assert_eq!(pitched.len(), 4);
    for (p, q) in pitched.iter().zip(poses.as_array().unwrap()) {
        assert!((p["pitch"].as_f64().unwrap() + 12.5).abs() < 1e-9, "{p}");
        assert_eq!(p["camera"], q["camera"]);
    }
    assert_ne!(poses[3]["camera"], poses[0]["camera"]);
}

#[test]
fn a_bad_path_file_is_named_with_the_place_in_it() {
    let dir = TempDir::new("film-bad");
    let out = dir.join("out.gif");
    let cases = [
        ("syntax.json", "{\"keyframes\": [\n  {\"t\": 0,, }\n]}", "line 2"),
        (
            "camera.json",
            r#"{"keyframes": [{"t": 0, "camera": [0, 0], "angle": 0}]}"#,
            "keyframes[0]",
        ),
        (
            "order.json",
            r#"{"keyframes": [{"t": 1, "camera": [0, 0, 0], "angle": 0},
                              {"t": 0.5, "camera": [0, 0, 0], "angle": 0}]}"#,
            "keyframes[1]",
        ),
    ];
    for (name, text, place) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let run = film(&path, &["-o", out.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{name} was accepted");
        assert!(err.contains(name) && err.contains(place), "{name}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let missing = film(&dir.join("none.json"), &["-o", out.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.json"));
    assert!(!out.exists(), "nothing written for a bad path");
}

/// ffprobe's word on a video's first stream: (frames decoded, width, height).
fn probe(file: &Path) -> (usize, u32, u32) {
    let out = std::process::Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args(["-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0"])
        .arg(file)
        .output()
        .expect("ffprobe (installed with ffmpeg, .ci/run) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<usize> = text.trim().split(',').map(|n| n.parse().unwrap()).collect();
    (v[2], v[0] as u32, v[1] as u32)
}

#[test]
fn a_video_holds_exactly_the_frames_asked_the_same_bytes_every_time_and_shows_them() {
    let dir = TempDir::new("film-video");
    let path = dir.join("path.json");
    std::fs::write(&path, PATH).unwrap();
    let (a, b, pngs) = (dir.join("a.mp4"), dir.join("sub/b.mp4"), dir.join("pngs"));
    let webm = dir.join("c.webm");
    for out in [&a, &b, &pngs, &webm] {
        success(&film(&path, &["--frames", "12", "-o", out.to_str().unwrap()]), "film");
    }
    assert_eq!(probe(&a), (12, 160, 100));
    assert_eq!(probe(&webm), (12, 160, 100));
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "not the same bytes");
    // The video's last frame, decoded, is the last PNG up to the codec's loss.
    let last = dir.join("last.png");
    let out = std::process::Command::new("ffmpeg")
        .args(["-v", "error", "-i"])
        .arg(&a)
        .args(["-vf", "select=eq(n\\,11)", "-frames:v", "1"])
        .arg(&last)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (video, png) = (png_rgb(&last), png_rgb(&pngs.join("frame_00011.png")));
    assert_eq!(video.len(), png.len());
    let mean =
        video.iter().zip(&png).map(|(&v, &p)| v.abs_diff(p) as f64).sum::<f64>() / png.len() as f64;
    assert!(mean < 6.0, "decoded frame 11 differs from the PNG by {mean:.2} a channel");
    // Not just any frame: the first PNG is farther from it.
    let first = png_rgb(&pngs.join("frame_00000.png"));
    let off = video.iter().zip(&first).map(|(&v, &p)| v.abs_diff(p) as f64).sum::<f64>()
        / png.len() as f64;
    assert!(off > mean * 2.0, "frame 11 is as near frame 0 ({off:.2}) as frame 11 ({mean:.2})");
}

#[test]
fn a_video_without_ffmpeg_is_refused_before_drawing_saying_how_to_get_one() {
    let dir = TempDir::new("film-no-ffmpeg");
    let path = dir.join("path.json");
    std::fs::write(&path, PATH).unwrap();
    let wad = support::freedoom2();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["film", wad.to_str().unwrap(), "--path", path.to_str().unwrap()])
        .args(["-o", dir.join("a.webm").to_str().unwrap()])
        .env("MAPSCOPE_FFMPEG", dir.join("no-such-ffmpeg"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs ffmpeg") && err.contains("apt install ffmpeg"), "{err}");
    assert!(!dir.join("a.webm").exists());
}
