//! `mapscope bench` as a user runs it: the tour of a real level, its figures as JSON and as
//! text, for Doom (the vanilla walk's passes) and for another format.

use std::process::Command;

use serde_json::Value;

use crate::support;

fn bench(args: &[&str]) -> String {
    bench_with_simd_cap(args, None)
}

/// `bench` with `MAPSCOPE_CANVAS_SIMD` set to `cap` (or unset).
fn bench_with_simd_cap(args: &[&str], cap: Option<&str>) -> String {
    let mut run = Command::new(env!("CARGO_BIN_EXE_mapscope"));
    run.arg("bench").args(args);
    match cap {
        Some(cap) => run.env("MAPSCOPE_CANVAS_SIMD", cap),
        None => run.env_remove("MAPSCOPE_CANVAS_SIMD"),
    };
    let out = run.output().expect("running mapscope bench");
    assert!(
        out.status.success(),
        "mapscope bench {args:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Whether the CPU steps `cpu` hold the triangle canvas's own: its set-up, order and drawing.
fn canvas_steps(cpu: &[&str]) -> bool {
    ["set-up", "order", "drawing"]
        .iter()
        .all(|s| cpu.contains(&format!("CPU canvas: {s}").as_str()))
}

fn names(v: &Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect()
}

#[test]
fn doom_tour_reports_frame_times_and_the_time_of_each_pass() {
    let wad = support::freedoom2();
    let wad = wad.to_str().unwrap();
    let out = bench(&[wad, "--map", "MAP02", "--size", "320x200", "--frames", "12", "--json"]);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["level"], "MAP02");
    assert_eq!(v["size"], "320x200");
    assert_eq!(v["mode"], "faithful");
    assert_eq!(v["frames"], 12);
    let (median, p95, min, max) = (
        v["median_ms"].as_f64().unwrap(),
        v["p95_ms"].as_f64().unwrap(),
        v["min_ms"].as_f64().unwrap(),
        v["max_ms"].as_f64().unwrap(),
    );
    assert!(min > 0.0 && min <= median && median <= p95 && p95 <= max, "{v}");
    assert!((v["fps"].as_f64().unwrap() - 1000.0 / median).abs() < 1e-6);
    // The processor time of every thread a frame: no more than every core busy all the time
    // (two ticks of /proc's clock, 10 ms each, of slack over the 12 frames: each reading may
    // be short by up to one).
    let cpu = v["cpu_ms_per_frame"].as_f64().expect("Linux says the process's time");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    let mean = v["mean_ms"].as_f64().unwrap();
    assert!((0.0..=cores * mean + 20.0 / 12.0).contains(&cpu), "{cpu} ms, {v}");
    assert!(v["adapter"].as_str().unwrap().contains("Vulkan"), "{v}");
    assert!(v["triangles"].as_u64().unwrap() > 1000);
    // None: walls, flats, masked middles and things are the CPU's canvas.
    assert_eq!(v["draw_calls"].as_u64(), Some(0), "{v}");
    assert_eq!(v["cpu_canvas"], true, "{v}");
    // Vanilla's canvas, not the triangle canvas and its vector tiers.
    assert_eq!(v["canvas_vectors"], Value::Null, "{v}");
    // The tour walks through the map's things.
    assert_eq!(v["tour"]["waypoints"], 16);
    assert!(v["tour"]["length"].as_f64().unwrap() > 500.0);
    // The vanilla walk and the canvas (walls, flats, sky, masked middles, things) run on the
    // CPU; the GPU draws no world surfaces and no sprites.
    let cpu = names(&v["cpu_ms"]);
    assert!(cpu.contains(&"vanilla walk") && cpu.contains(&"canvas"), "{cpu:?}");
    // Each step's median and its 95th percentile over the frames, the slow frames' share.
    for step in v["cpu_ms"].as_array().unwrap().iter().chain(v["gpu_ms"].as_array().unwrap()) {
        let (median, p95) = (step["ms"].as_f64().unwrap(), step["p95_ms"].as_f64().unwrap());
        assert!(0.0 <= median && median <= p95, "{step}");
    }
    let gpu = names(&v["gpu_ms"]);
    for pass in ["solid surfaces", "depth pre-pass", "masked surfaces", "sprites"] {
        assert!(!gpu.contains(&pass), "{pass} in {gpu:?}");
    }
    assert!(v["presented"].is_null());
    // Doom's frames draw what vanilla's walk reaches, not the frustum's triangle runs.
    assert!(v["solid_triangles"].is_null(), "{v}");
}

#[test]
fn other_formats_tour_their_level_and_print_a_table() {
    let lev = support::fixture("saturn/test_room.lev");
    let out =
        bench(&[lev.to_str().unwrap(), "--size", "160x100", "--frames", "6", "--mode", "smooth"]);
    assert!(out.contains("at 160x100, smooth on"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("fps ")), "{out}");
    assert!(out.contains("CPU per frame (median, p95):"), "{out}");
    // No vanilla walk outside Doom.
    assert!(!out.contains("vanilla walk") && !out.contains("canvas"), "{out}");
    assert!(out.contains("solid surfaces"), "{out}");

    // The culling's figures: the room's solid triangles in view, none hidden (the occlusion
    // map waits for 4096 in view), at most the scene's.
    let out = bench(&[lev.to_str().unwrap(), "--size", "160x100", "--frames", "6", "--json"]);
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let in_view = v["solid_triangles"]["in_view_median"].as_u64().expect("in view");
    let drawn = v["solid_triangles"]["drawn_median"].as_u64().expect("drawn");
    assert!(drawn == in_view && in_view > 0, "{v}");
    assert!(in_view <= v["triangles"].as_u64().unwrap(), "{v}");
    // Faithful frames draw the solid world on the CPU canvas: no GPU shading pass for it.
    assert_eq!(v["cpu_canvas"], true, "{v}");
    assert!(canvas_steps(&names(&v["cpu_ms"])), "{v}");
    let vectors = v["canvas_vectors"].as_str().expect("the canvas's vector tier");
    assert!(["SSE2", "AVX2", "baseline"].contains(&vectors), "{v}");
    let gpu = names(&v["gpu_ms"]);
    assert!(!gpu.contains(&"solid surfaces") && !gpu.contains(&"depth pre-pass"), "{v}");

    // --gpu-shading: the GPU's passes instead, for comparing the two.
    let args = [lev.to_str().unwrap(), "--size", "160x100", "--frames", "6", "--json"];
    let out = bench(&[&args[..], &["--gpu-shading"]].concat());
    let v: Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["cpu_canvas"], false, "{v}");
    assert_eq!(v["canvas_vectors"], Value::Null, "{v}");
    assert!(!names(&v["cpu_ms"]).iter().any(|n| n.starts_with("CPU canvas")), "{v}");
    assert!(names(&v["gpu_ms"]).contains(&"solid surfaces"), "{v}");
}

#[test]
fn doom_smooth_and_pitched_frames_draw_on_the_triangle_canvas_unless_told_otherwise() {
    let wad = support::freedoom2();
    let wad = wad.to_str().unwrap();
    let args = [wad, "--map", "MAP02", "--size", "160x100", "--frames", "6", "--json"];
    let smooth = [&args[..], &["--mode", "smooth"]].concat();
    let v: Value = serde_json::from_str(bench(&smooth).trim()).expect("one JSON object");
    assert_eq!(v["mode"], "smooth");
    // The walk culls; walls, flats, sky, masked middles and things are the CPU's canvas.
    assert_eq!(v["cpu_canvas"], true, "{v}");
    assert_eq!(v["draw_calls"].as_u64(), Some(0), "{v}");
    assert!(canvas_steps(&names(&v["cpu_ms"])), "{v}");
    let gpu = names(&v["gpu_ms"]);
    assert!(!gpu.contains(&"solid surfaces") && !gpu.contains(&"sprites"), "{v}");

    // --gpu-shading: the GPU's passes with the bound textures.
    let v: Value = serde_json::from_str(bench(&[&smooth[..], &["--gpu-shading"]].concat()).trim())
        .expect("one JSON object");
    assert_eq!(v["cpu_canvas"], false, "{v}");
    assert!(names(&v["gpu_ms"]).contains(&"solid surfaces"), "{v}");

    // Looking up, faithful frames are not vanilla's (no walk, no vanilla canvas) but the
    // triangle canvas's, lit through COLORMAP by depth.
    let up = [&args[..], &["--pitch", "10"]].concat();
    let v: Value = serde_json::from_str(bench(&up).trim()).expect("one JSON object");
    assert_eq!(v["tour"]["pitch_deg"].as_f64().map(|p| (p - 10.0).abs() < 1e-9), Some(true));
    assert_eq!(v["cpu_canvas"], true, "{v}");
    let cpu = names(&v["cpu_ms"]);
    assert!(canvas_steps(&cpu) && !cpu.contains(&"vanilla walk"), "{v}");
    let v: Value = serde_json::from_str(bench(&[&up[..], &["--gpu-shading"]].concat()).trim())
        .expect("one JSON object");
    assert_eq!(v["cpu_canvas"], false, "{v}");
}

#[test]
#[cfg(target_arch = "x86_64")]
fn the_canvas_reports_the_vector_tier_it_ran_with_and_the_baseline_cap_holds_it() {
    let lev = support::fixture("saturn/test_room.lev");
    let tier = |cap: Option<&str>| {
        let args = [lev.to_str().unwrap(), "--size", "160x100", "--frames", "3", "--json"];
        let v: Value =
            serde_json::from_str(bench_with_simd_cap(&args, cap).trim()).expect("one JSON object");
        v["canvas_vectors"].as_str().expect("the canvas's vector tier").to_string()
    };
    let widest = if std::arch::is_x86_feature_detected!("avx2") { "AVX2" } else { "SSE2" };
    assert_eq!(tier(None), widest);
    assert_eq!(tier(Some("sse2")), "SSE2");
}

#[test]
fn the_renderer_choice_decides_which_path_draws_and_the_report_says_so() {
    let wad = support::freedoom2();
    let wad = wad.to_str().unwrap();
    let args = [wad, "--map", "MAP02", "--size", "160x100", "--frames", "4", "--json"];
    let run = |extra: &[&str]| -> Value {
        serde_json::from_str(bench(&[&args[..], extra].concat()).trim()).expect("one JSON object")
    };
    // auto on this machine's software adapter (lavapipe): the CPU canvases, as cpu.
    for (extra, asked) in [(&[][..], "auto"), (&["--renderer", "cpu"][..], "cpu")] {
        let v = run(extra);
        assert_eq!(v["renderer_asked"], asked, "{v}");
        assert_eq!(v["renderer"], "cpu", "{v}");
        assert!(names(&v["cpu_ms"]).contains(&"vanilla walk"), "{v}");
    }
    // gpu: even Doom's exact frames are the GPU's passes; no walk.
    let v = run(&["--renderer", "gpu"]);
    assert_eq!((&v["renderer_asked"], &v["renderer"]), (&"gpu".into(), &"gpu".into()), "{v}");
    assert_eq!(v["cpu_canvas"], false, "{v}");
    assert!(!names(&v["cpu_ms"]).contains(&"vanilla walk"), "{v}");
    assert!(names(&v["gpu_ms"]).contains(&"solid surfaces"), "{v}");
    // --gpu-shading keeps vanilla's canvas for the exact frames (auto on a graphics card).
    let v = run(&["--gpu-shading"]);
    assert_eq!((&v["renderer_asked"], &v["renderer"]), (&"gpu-shading".into(), &"cpu".into()));
    // The two ways of asking do not mix.
    let out = Command::new(env!("CARGO_BIN_EXE_mapscope"))
        .args(["bench", wad, "--renderer", "gpu", "--gpu-shading"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn render_draws_with_the_gpus_passes_when_asked_and_they_agree_with_the_canvas() {
    let wad = support::freedoom2();
    let wad = wad.to_str().unwrap();
    let tmp = std::env::temp_dir().join(format!("mapscope-renderer-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let render = |renderer: &str| {
        let out = tmp.join(format!("{renderer}.png"));
        let status = Command::new(env!("CARGO_BIN_EXE_mapscope"))
            .args(["render", wad, "--map", "MAP02", "--size", "320x200", "--renderer", renderer])
            .arg("-o")
            .arg(&out)
            .status()
            .expect("running mapscope render");
        assert!(status.success(), "render --renderer {renderer}");
        image::open(&out).unwrap().to_rgba8()
    };
    let (cpu, gpu, auto) = (render("cpu"), render("gpu"), render("auto"));
    assert_eq!(auto, cpu, "auto on a software adapter is the canvas, byte for byte");
    // The GPU's passes light by depth as vanilla does but rasterise by their own rules: most
    // pixels are the canvas's, nearly all within a few steps of the palette.
    let n = (cpu.width() * cpu.height()) as usize;
    let same = cpu.pixels().zip(gpu.pixels()).filter(|(a, b)| a == b).count();
    assert!(same * 2 > n, "{same} of {n} pixels identical");
    assert_ne!(cpu, gpu, "the GPU's passes drew this frame, not the canvas");
    std::fs::remove_dir_all(&tmp).ok();
}

#[test]
fn the_tour_visits_the_objects_levels_record_without_sprites() {
    // Saturn Quake's entities and Marathon's objects without their Shapes are markers, not
    // sprites, and Carmageddon 2's model actors are world triangles: the tour walks to them
    // too instead of turning at the spawn or skipping them.
    // (level, waypoints at least: the spawn and each object at another spot)
    let levels =
        [("saturn/test_room.lev", 4), ("marathon/M1Map.scen", 3), ("carma2/TRACK.TWT", 16)];
    for (level, least) in levels {
        let path = support::fixture(level);
        let args = [path.to_str().unwrap(), "--size", "160x100", "--frames", "4", "--json"];
        let v: Value = serde_json::from_str(bench(&args).trim()).expect("one JSON object");
        let waypoints = v["tour"]["waypoints"].as_u64().unwrap();
        assert!(waypoints >= least, "{level}: {waypoints} waypoints, {v}");
        assert!(v["tour"]["length"].as_f64().unwrap() > 0.0, "{level}: {v}");
    }
}
