use egui::epaint::{ClippedPrimitive, Mesh, Primitive, Vertex};
use egui::{pos2, Color32, Rect, TextureId};

use super::{OverlayPainter, Pixels};
use crate::app::overlay::{self, OverlayInfo};
use crate::render::{FrameReadback, Gpu};

const BACKGROUND: u32 = 0x0020_4060;

/// A painter holding one 1x1 white texture as `TextureId::default()`, as egui's font atlas
/// begins with a white texel.
fn white_painter() -> OverlayPainter {
    let mut painter = OverlayPainter::default();
    let image = egui::ColorImage::new([1, 1], vec![Color32::WHITE]);
    let mut delta = egui::TexturesDelta::default();
    delta.set.insert(
        TextureId::default(),
        [egui::epaint::ImageDelta::full(image, egui::TextureOptions::LINEAR)].into(),
    );
    painter.set_textures(&delta);
    // egui insists a delta is consumed explicitly.
    delta.clear();
    painter
}

/// A rectangle (x0, y0)-(x1, y1) as two triangles sharing a diagonal, as egui meshes it.
fn rectangle(x0: f32, y0: f32, x1: f32, y1: f32, color: Color32) -> Mesh {
    let mut mesh = Mesh::default();
    mesh.add_colored_rect(Rect::from_min_max(pos2(x0, y0), pos2(x1, y1)), color);
    mesh
}

fn clipped(mesh: Mesh, clip: Rect) -> ClippedPrimitive {
    ClippedPrimitive { clip_rect: clip, primitive: Primitive::Mesh(mesh) }
}

fn paint(
    painter: &OverlayPainter,
    primitives: &[ClippedPrimitive],
    w: usize,
    h: usize,
) -> Vec<u32> {
    let mut words = vec![BACKGROUND; w * h];
    painter.paint(primitives, 1.0, Pixels { words: &mut words, width: w, height: h });
    words
}

#[test]
fn a_translucent_rectangle_blends_each_pixel_once_and_only_inside() {
    let painter = white_painter();
    // Half-transparent white, premultiplied: 128 over the background.
    let color = Color32::from_rgba_premultiplied(128, 128, 128, 128);
    let mesh = rectangle(2.0, 3.0, 13.0, 9.0, color);
    let all = Rect::from_min_max(pos2(0.0, 0.0), pos2(16.0, 12.0));
    let words = paint(&painter, &[clipped(mesh, all)], 16, 12);
    let once = super::Premultiplied::new([128.0; 4]).over(BACKGROUND) & 0x00FF_FFFF;
    assert_ne!(once, BACKGROUND);
    for y in 0..12 {
        for x in 0..16 {
            let inside = (2..13).contains(&x) && (3..9).contains(&y);
            let want = if inside { once } else { BACKGROUND };
            assert_eq!(words[y * 16 + x], want, "pixel {x},{y}");
        }
    }
}

#[test]
fn the_clip_rectangle_bounds_what_a_mesh_paints() {
    let painter = white_painter();
    let mesh = rectangle(0.0, 0.0, 16.0, 12.0, Color32::RED);
    let clip = Rect::from_min_max(pos2(4.0, 2.0), pos2(10.0, 5.0));
    let words = paint(&painter, &[clipped(mesh, clip)], 16, 12);
    let painted = words.iter().filter(|&&w| w == 0x00FF_0000).count();
    assert_eq!(painted, 6 * 3);
    assert_eq!(words.iter().filter(|&&w| w == BACKGROUND).count(), 16 * 12 - 18);
}

#[test]
fn triangles_off_the_window_and_broken_indices_are_skipped() {
    let painter = white_painter();
    let mut mesh = rectangle(-40.0, -40.0, -20.0, -20.0, Color32::RED);
    mesh.indices.extend([0, 1, 99]);
    let far = rectangle(1e9, 1e9, 2e9, 2e9, Color32::RED);
    let all = Rect::from_min_max(pos2(-1e9, -1e9), pos2(1e9, 1e9));
    let words = paint(&painter, &[clipped(mesh, all), clipped(far, all)], 8, 8);
    assert!(words.iter().all(|&w| w == BACKGROUND));
}

#[test]
fn vertex_colours_are_interpolated_across_a_triangle() {
    let painter = white_painter();
    let mut mesh = Mesh::default();
    let v = |x: f32, y: f32, c: Color32| Vertex { pos: pos2(x, y), uv: pos2(0.0, 0.0), color: c };
    mesh.vertices.extend([
        v(0.0, 0.0, Color32::BLACK),
        v(64.0, 0.0, Color32::WHITE),
        v(0.0, 64.0, Color32::BLACK),
    ]);
    mesh.indices.extend([0, 1, 2]);
    let all = Rect::from_min_max(pos2(0.0, 0.0), pos2(64.0, 64.0));
    let words = paint(&painter, &[clipped(mesh, all)], 64, 64);
    let red = |x: usize| (words[x] >> 16) & 0xFF;
    // Along the top row red grows with x: 255 * (x + 0.5) / 64.
    for x in [0usize, 10, 31, 50] {
        let want = (255.0 * (x as f32 + 0.5) / 64.0).round() as i64;
        assert!((red(x) as i64 - want).abs() <= 1, "x {x}: {} against {want}", red(x));
    }
}

/// The viewer's overlay as it opens, tessellated, with its textures.
fn viewer_overlay(width: u32, height: u32) -> (Vec<ClippedPrimitive>, egui::TexturesDelta) {
    let ctx = egui::Context::default();
    let raw = egui::RawInput {
        screen_rect: Some(Rect::from_min_size(
            pos2(0.0, 0.0),
            egui::vec2(width as f32, height as f32),
        )),
        ..Default::default()
    };
    let info = OverlayInfo {
        title: "MAP02 (Doom)",
        frame_ms: 2.71,
        position: [-160.5, 304.25, 41.0],
        angle: 90.0,
        pitch: 0.0,
        speed: 400.0,
        walking: false,
        tic: 123,
        captured: false,
        message: Some("saved mapscope-MAP02-0001.png"),
        error: None,
        game_screen: Some("320x200 at 90°, shown 4:3".into()),
        frame_size: (width, height),
        automap: None,
    };
    let (shapes, textures) = overlay::opened(&ctx, &info, raw);
    (ctx.tessellate(shapes, 1.0), textures)
}

/// egui-wgpu's drawing of `primitives` over the background, read back as 0x00RRGGBB.
fn drawn_by_egui_wgpu(
    gpu: &Gpu,
    primitives: &[ClippedPrimitive],
    textures: &egui::TexturesDelta,
    (width, height): (u32, u32),
) -> Vec<u32> {
    let format = wgpu::TextureFormat::Bgra8Unorm;
    let options = egui_wgpu::RendererOptions { dithering: false, ..Default::default() };
    let mut egui = egui_wgpu::Renderer::new(&gpu.device, format, options);
    for (id, deltas) in &textures.set {
        for delta in deltas {
            egui.update_texture(&gpu.device, &gpu.queue, *id, delta);
        }
    }
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("overlay test"),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = texture.create_view(&Default::default());
    let screen =
        egui_wgpu::ScreenDescriptor { size_in_pixels: [width, height], pixels_per_point: 1.0 };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let extra = egui.update_buffers(&gpu.device, &gpu.queue, &mut encoder, primitives, &screen);
    {
        let channel = |shift: u32| f64::from((BACKGROUND >> shift) & 0xFF) / 255.0;
        let clear = wgpu::Color { r: channel(16), g: channel(8), b: channel(0), a: 1.0 };
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("overlay test"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(clear),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            })
            .forget_lifetime();
        egui.render(&mut pass, primitives, &screen);
    }
    let readback = FrameReadback::new(&gpu.device, width, height);
    readback.copy(&mut encoder, &texture);
    gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
    let mut words = vec![0u32; (width * height) as usize];
    readback
        .read(gpu, |y, row| {
            let at = y * width as usize;
            for (d, s) in words[at..at + width as usize].iter_mut().zip(row) {
                *d = s & 0x00FF_FFFF;
            }
        })
        .expect("reading the overlay back");
    words
}

#[test]
fn the_viewer_overlay_painted_on_the_cpu_matches_egui_wgpus() {
    let (width, height) = (640u32, 600u32);
    let (primitives, mut textures) = viewer_overlay(width, height);
    let vertices: usize = primitives
        .iter()
        .map(|p| match &p.primitive {
            Primitive::Mesh(m) => m.vertices.len(),
            Primitive::Callback(_) => 0,
        })
        .sum();
    assert!(vertices > 1000, "the overlay's meshes hold {vertices} vertices");
    let mut painter = OverlayPainter::default();
    painter.set_textures(&textures);
    let cpu = paint(&painter, &primitives, width as usize, height as usize);
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe: mesa-vulkan-drivers)");
    let reference = drawn_by_egui_wgpu(&gpu, &primitives, &textures, (width, height));
    textures.clear();

    let changed = reference.iter().filter(|&&p| p != BACKGROUND).count();
    assert!(changed > 20_000, "egui-wgpu drew the panel ({changed} pixels)");
    let diff = |a: u32, b: u32| {
        (0..3).map(|i| ((a >> (8 * i)) & 0xFF).abs_diff((b >> (8 * i)) & 0xFF)).max().unwrap_or(0)
    };
    let n = cpu.len();
    let within = |t: u32| cpu.iter().zip(&reference).filter(|(&a, &b)| diff(a, b) <= t).count();
    let (exact, close, near) = (within(0), within(2), within(24));
    eprintln!(
        "overlay: {exact} of {n} pixels identical, {close} within 2, {near} within 24 \
         ({changed} drawn by egui-wgpu)"
    );
    // A few edge pixels may differ by the rasterisers' sub-pixel rules (14 of 384,000 when
    // this was written); nothing may be missing.
    assert!(exact as f64 >= 0.999 * n as f64, "{exact} of {n} identical");
    assert!(close as f64 >= 0.9999 * n as f64, "{close} of {n} within 2");
    assert!(near as f64 >= 0.9999 * n as f64, "{near} of {n} within 24");
}
