//! Spec-derived probes: one headless GPU per test binary, renders at a probe's native camera,
//! and the probe pixel and colour rules (`at: [fx, fy]`, `rgb_any_of` within `tolerance`).

use std::sync::OnceLock;

use glam::DVec3;
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::scene::{CameraPose, Scene};
use serde_json::Value;

/// The headless adapter, opened once per test binary.
pub fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)")
    })
}

/// Renders `scene` headless from `camera` towards `look_at` (both in the format's native
/// coordinates), with a vertical field of view of `fov_deg` at `size` = [width, height].
pub fn render_native(
    scene: &mut Scene,
    camera: DVec3,
    look_at: DVec3,
    fov_deg: f64,
    size: [u32; 2],
) -> image::RgbaImage {
    let pose =
        CameraPose::looking_at(scene.axes.to_viewer_f64(camera), scene.axes.to_viewer_f64(look_at));
    let view = ViewSettings { width: size[0], height: size[1], fov_deg, ..Default::default() };
    render_headless(gpu(), scene, &pose, &view, 0).expect("render")
}

/// The pixel a probe sample `at: [fx, fy]` names in a `w` × `h` image:
/// `min(w - 1, floor(fx * w))`, and the same down.
pub fn probe_pixel(at: [f64; 2], w: u32, h: u32) -> (u32, u32) {
    let x = ((at[0] * w as f64).floor() as u32).min(w - 1);
    let y = ((at[1] * h as f64).floor() as u32).min(h - 1);
    (x, y)
}

/// Whether `rgb` is within `tolerance` per channel of one of the colours of `any_of` (a JSON
/// array of `[r, g, b]`).
pub fn colour_matches(rgb: [u8; 3], any_of: &Value, tolerance: i64) -> bool {
    any_of.as_array().expect("rgb_any_of is an array").iter().any(|c| {
        (0..3).all(|k| {
            let want = c[k].as_i64().unwrap_or_else(|| panic!("not a colour channel: {c}"));
            (i64::from(rgb[k]) - want).abs() <= tolerance
        })
    })
}
