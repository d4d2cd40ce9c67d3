use egui::epaint::{ClippedPrimitive, Mesh, Primitive};
use egui::{pos2, Color32, Rect, TextureId};

use super::OverlayLayer;
use crate::app::overlay_paint::{OverlayPainter, Pixels};

const BACKGROUND: u32 = 0x0020_4060;

/// Gives `take` a delta setting egui's first texture to one white texel, as egui's font
/// atlas begins, and consumes it after (egui insists deltas are).
fn white(take: impl FnOnce(&egui::TexturesDelta)) {
    let image = egui::ColorImage::new([1, 1], vec![Color32::WHITE]);
    let mut delta = egui::TexturesDelta::default();
    delta.set.insert(
        TextureId::default(),
        [egui::epaint::ImageDelta::full(image, egui::TextureOptions::LINEAR)].into(),
    );
    take(&delta);
    delta.clear();
}

/// Rectangles as egui meshes them (two triangles each), clipped to the whole window.
fn rectangles(rects: &[([f32; 4], Color32)]) -> Vec<ClippedPrimitive> {
    let mut mesh = Mesh::default();
    for &([x0, y0, x1, y1], color) in rects {
        mesh.add_colored_rect(Rect::from_min_max(pos2(x0, y0), pos2(x1, y1)), color);
    }
    let clip = Rect::from_min_max(pos2(0.0, 0.0), pos2(1e4, 1e4));
    vec![ClippedPrimitive { clip_rect: clip, primitive: Primitive::Mesh(mesh) }]
}

/// The window words the layer gives over the background, and what painting the same
/// primitives straight onto the background gives.
fn through_layer_and_direct(
    layer: &mut OverlayLayer,
    primitives: &[ClippedPrimitive],
    (w, h): (usize, usize),
) -> (Vec<u32>, Vec<u32>) {
    layer.update(primitives, 1.0, (w, h));
    let mut composed = vec![BACKGROUND; w * h];
    layer.composite(Pixels { words: &mut composed, width: w, height: h });
    let mut painter = OverlayPainter::default();
    white(|d| painter.set_textures(d));
    let mut direct = vec![BACKGROUND; w * h];
    painter.paint(primitives, 1.0, Pixels { words: &mut direct, width: w, height: h });
    (composed, direct)
}

fn max_channel_difference(a: &[u32], b: &[u32]) -> u32 {
    let channel = |a: u32, b: u32, s: u32| ((a >> s) & 0xFF).abs_diff((b >> s) & 0xFF);
    a.iter()
        .zip(b)
        .map(|(&a, &b)| channel(a, b, 0).max(channel(a, b, 8)).max(channel(a, b, 16)))
        .max()
        .unwrap_or(0)
}

#[test]
fn the_layer_over_a_frame_is_the_overlay_painted_on_it() {
    let mut layer = OverlayLayer::default();
    white(|d| layer.set_textures(d));
    assert!(layer.has_texture(TextureId::default()));
    let half = Color32::from_rgba_premultiplied(60, 0, 0, 128);
    let primitives = rectangles(&[
        ([2.0, 2.0, 30.0, 20.0], Color32::from_gray(27)),
        ([10.0, 10.0, 40.0, 30.0], half),
        ([0.0, 28.0, 48.0, 32.0], Color32::from_rgba_premultiplied(0, 0, 0, 0)),
    ]);
    let (composed, direct) = through_layer_and_direct(&mut layer, &primitives, (48, 32));
    assert_ne!(composed, vec![BACKGROUND; 48 * 32]);
    // Blending twice (into the layer, then over the frame) rounds twice: a step at most.
    assert!(max_channel_difference(&composed, &direct) <= 1);
    assert_eq!(composed[0], BACKGROUND, "clear pixels keep the frame");
    assert_eq!(composed[5 * 48 + 5], 0x001B_1B1B, "opaque pixels are the overlay's");
}

#[test]
fn only_the_bands_whose_triangles_changed_are_repainted() {
    let (w, h) = (64, 64);
    let mut layer = OverlayLayer::default();
    white(|d| layer.set_textures(d));
    let panel = ([0.0, 0.0, 64.0, 64.0], Color32::from_gray(27));
    let first = rectangles(&[panel, ([4.0, 4.0, 20.0, 10.0], Color32::WHITE)]);
    layer.update(&first, 1.0, (w, h));
    // Scribble on a band the next frame does not change (inside the panel's opaque run): if
    // it were repainted the scribble would go.
    assert_eq!(layer.runs[40], vec![super::Run::Opaque(0, w)]);
    layer.words[40 * w + 30] = 0x0012_3456;
    // The text "changes": another rectangle on rows 4-10 (band 0 and 1).
    let second = rectangles(&[panel, ([4.0, 4.0, 30.0, 10.0], Color32::WHITE)]);
    let (composed, direct) = through_layer_and_direct(&mut layer, &second, (w, h));
    assert_eq!(composed[40 * w + 30], 0x0012_3456, "an unchanged band was kept");
    let mut expected = direct.clone();
    expected[40 * w + 30] = 0x0012_3456;
    assert_eq!(composed, expected, "the changed bands show the new overlay");
    // New texels repaint everything.
    white(|d| layer.set_textures(d));
    let (composed, direct) = through_layer_and_direct(&mut layer, &second, (w, h));
    assert_eq!(composed, direct);
}

#[test]
fn an_empty_overlay_leaves_the_frame_alone_and_a_resize_repaints() {
    let mut layer = OverlayLayer::default();
    white(|d| layer.set_textures(d));
    let (composed, _) = through_layer_and_direct(&mut layer, &[], (16, 16));
    assert_eq!(composed, vec![BACKGROUND; 16 * 16]);
    let primitives = rectangles(&[([0.0, 0.0, 8.0, 8.0], Color32::RED)]);
    let (composed, direct) = through_layer_and_direct(&mut layer, &primitives, (32, 24));
    assert_eq!(composed, direct);
}

#[test]
fn row_runs_split_opaque_from_translucent_words() {
    use super::Run;
    let row = [0, 0xFF00_0000, 0xFF11_1111, 0x8000_0000, 0, 0x0000_0010, 0xFF00_0001];
    assert_eq!(
        super::row_runs(&row),
        vec![Run::Opaque(1, 3), Run::Blended(3, 4), Run::Blended(5, 6), Run::Opaque(6, 7)]
    );
}
