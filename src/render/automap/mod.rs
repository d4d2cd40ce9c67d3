//! The automap, drawn on the CPU into an RGBA image: a scene's [`Automap`] (its lines in
//! the game's style, the areas it fills), its things and markers, and the camera as the
//! game's player mark turned to its facing. One drawing for `render --automap` and the
//! viewer's Tab, so what the tests check is what the window shows.
//!
//! The map is the plane seen from above with +y up the image ([`Axes::plan`]); a
//! [`MapView`] says which point of it is at the image's centre and how many pixels a native
//! unit spans. Pens and marks given for the game's screen grow with the image's height.

mod raster;

use glam::DVec2;
use image::{Rgba, RgbaImage};

use crate::scene::automap::{Automap, LineKind, Mark, MarkShape, MarkSize, Zoom};
use crate::scene::{Axes, CameraPose, Scene};
use raster::Raster;

/// Which point of the map is at the image's centre and at what scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MapView {
    /// Plan coordinates ([`Axes::plan`]) at the image's centre.
    pub center: DVec2,
    /// Image pixels a native unit spans.
    pub px_per_unit: f64,
}

/// What is drawn besides the lines the game shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Every line, as Doom's IDDT cheat shows them: two-sided lines with no change and lines
    /// marked never to be shown too.
    pub every_line: bool,
    /// The scene's things (its sprites).
    pub things: bool,
    /// The scene's markers (entities, starts and other records).
    pub markers: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Layers { every_line: false, things: true, markers: true }
    }
}

/// The box round the level on the map: its lines and fills, else its triangles.
pub fn level_bounds(map: &Automap, scene: &Scene) -> Option<(DVec2, DVec2)> {
    map.plan_bounds(scene.axes).or_else(|| {
        let (lo, hi) = scene.bounds()?;
        let (a, b) = (Axes::plan(lo), Axes::plan(hi));
        Some((a.min(b), a.max(b)))
    })
}

impl MapView {
    /// The map as the game opens it (its style's zoom) for an image of `size`, centred on
    /// `center`; from a camera outside the level (Carmageddon 2's spawn looks at the track
    /// from beyond it) far enough out to show the whole level round it.
    pub fn opening(map: &Automap, scene: &Scene, center: DVec2, size: (u32, u32)) -> MapView {
        let view = MapView::game_opening(map, scene, center, size);
        let Some((lo, hi)) = level_bounds(map, scene) else { return view };
        if center.cmpge(lo).all() && center.cmple(hi).all() {
            return view;
        }
        let reach = (lo - center).abs().max((hi - center).abs()).max(DVec2::splat(1e-6));
        let half = DVec2::new(size.0 as f64, size.1 as f64) * 0.5;
        let whole = (half / reach).min_element() * 0.95;
        MapView { center, px_per_unit: sane_scale(view.px_per_unit.min(whole)) }
    }

    /// The game's own opening zoom, centred on `center`.
    fn game_opening(map: &Automap, scene: &Scene, center: DVec2, size: (u32, u32)) -> MapView {
        let k = size_factor(map, size);
        let px_per_unit = match map.style.zoom {
            Zoom::PixelsPerUnit(p) => p * k,
            // AM_LevelInit: the fitting scale over 0.7, unless that passes the closest zoom,
            // when the fitting scale itself.
            Zoom::LevelFit { times, max_px_per_unit } => match fit_scale(map, scene, size) {
                Some(fit) if fit * times > max_px_per_unit * k => fit,
                Some(fit) => fit * times,
                None => max_px_per_unit * k,
            },
        };
        MapView { center, px_per_unit: sane_scale(px_per_unit) }
    }

    /// The whole level in an image of `size`, with a little room round it.
    pub fn whole_level(map: &Automap, scene: &Scene, size: (u32, u32)) -> MapView {
        let center = level_bounds(map, scene).map_or(DVec2::ZERO, |(lo, hi)| (lo + hi) * 0.5);
        let px_per_unit = fit_scale(map, scene, size).map_or(1.0, |fit| fit * 0.95);
        MapView { center, px_per_unit: sane_scale(px_per_unit) }
    }

    /// Where plan point `p` lies in an image of `size` (pixel (x, y) covers x..x+1, y..y+1).
    pub fn pixel(&self, p: DVec2, size: (u32, u32)) -> DVec2 {
        let half = DVec2::new(size.0 as f64, size.1 as f64) * 0.5;
        let d = (p - self.center) * self.px_per_unit;
        DVec2::new(half.x + d.x, half.y - d.y)
    }

    /// The plan point at image position `pixel` ([`MapView::pixel`] undone).
    pub fn plan_at(&self, pixel: DVec2, size: (u32, u32)) -> DVec2 {
        let half = DVec2::new(size.0 as f64, size.1 as f64) * 0.5;
        let d = pixel - half;
        self.center + DVec2::new(d.x, -d.y) / self.px_per_unit
    }

    /// Zoomed by `factor` about image position `pixel` (the point there stays there).
    pub fn zoomed(&self, factor: f64, pixel: DVec2, size: (u32, u32)) -> MapView {
        let fixed = self.plan_at(pixel, size);
        let px_per_unit = sane_scale(self.px_per_unit * factor);
        let mut view = MapView { center: self.center, px_per_unit };
        view.center += fixed - view.plan_at(pixel, size);
        view
    }
}

/// The scale that fits the whole level into `size`.
fn fit_scale(map: &Automap, scene: &Scene, size: (u32, u32)) -> Option<f64> {
    let (lo, hi) = level_bounds(map, scene)?;
    let extent = (hi - lo).max(DVec2::splat(1e-6));
    Some((size.0 as f64 / extent.x).min(size.1 as f64 / extent.y))
}

/// A scale that draws something: finite, not zero.
fn sane_scale(s: f64) -> f64 {
    if s.is_finite() && s > 1e-9 {
        s.min(1e9)
    } else {
        1.0
    }
}

/// How much bigger than the game's screen an image of `size` is (pens and marks grow so).
fn size_factor(map: &Automap, size: (u32, u32)) -> f64 {
    size.1 as f64 / map.style.rows.max(1) as f64
}

/// A pen `width` pixels wide on the game's screen, on this image: whole pixels, at least one.
fn pen_px(width: f64, k: f64) -> i64 {
    (width * k).round().max(1.0) as i64
}

/// The automap of `scene` (its own `map`, see [`Scene::automap`]) seen through `view`, with
/// the camera's mark at `camera`, in an image of `size`.
pub fn draw(
    map: &Automap,
    scene: &Scene,
    camera: &CameraPose,
    view: &MapView,
    size: (u32, u32),
    layers: Layers,
) -> RgbaImage {
    let style = &map.style;
    let [r, g, b] = style.background;
    let mut image = RgbaImage::from_pixel(size.0.max(1), size.1.max(1), Rgba([r, g, b, 255]));
    let mut raster = Raster { image: &mut image };
    let k = size_factor(map, size);
    let at = |native: DVec2| view.pixel(scene.axes.plan_of_native(native), size);

    let mut ring = Vec::new();
    for fill in &map.fills {
        ring.clear();
        ring.extend(fill.ring.iter().map(|&p| at(p)));
        raster.fill(&ring, fill.rgb);
    }
    for line in &map.lines {
        let shown_anyway = line.kind != LineKind::Open && !line.hidden;
        let pen = style.pen(line.kind);
        if !(shown_anyway || layers.every_line) || pen.width <= 0.0 {
            continue;
        }
        raster.line(at(line.a), at(line.b), pen_px(pen.width, k), pen.rgb);
    }
    let outline_pen = pen_px(1.0, k);
    if layers.things {
        for (i, sprite) in scene.sprites.iter().enumerate() {
            let mut mark = style.thing;
            if let Some(&rgb) = map.sprite_rgb.get(i) {
                mark.rgb = rgb;
            }
            let centre = view.pixel(Axes::plan(sprite.pos), size);
            draw_mark(&mut raster, &mark, centre, sprite.facing as f64, view, k, outline_pen);
        }
    }
    if layers.markers {
        for marker in &scene.markers {
            let centre = view.pixel(Axes::plan(marker.pos), size);
            draw_mark(&mut raster, &style.marker, centre, 0.0, view, k, outline_pen);
        }
    }
    let centre = view.pixel(Axes::plan_f64(camera.pos), size);
    draw_mark(&mut raster, &style.player, centre, camera.yaw, view, k, outline_pen);
    image
}

/// The radius in image pixels of a mark of `size`.
fn mark_radius(size: MarkSize, view: &MapView, k: f64) -> f64 {
    match size {
        MarkSize::Units { radius, min_px } => (radius * view.px_per_unit).max(min_px * k),
        MarkSize::Pixels(px) => px * k,
    }
}

/// `mark` centred on image position `centre`, turned to `angle` (radians on the map,
/// counter-clockwise from +x; a viewer yaw is one).
fn draw_mark(
    raster: &mut Raster<'_>,
    mark: &Mark,
    centre: DVec2,
    angle: f64,
    view: &MapView,
    k: f64,
    pen: i64,
) {
    let radius = mark_radius(mark.size, view, k);
    let reach = radius + pen as f64;
    let (w, h) = (raster.image.width() as f64, raster.image.height() as f64);
    if centre.x < -reach || centre.y < -reach || centre.x > w + reach || centre.y > h + reach {
        return;
    }
    let turn = DVec2::from_angle(angle);
    // A point of the shape (radius 1, pointing along +x, +y up) on the image.
    let place = |x: f64, y: f64| {
        let p = turn.rotate(DVec2::new(x, y)) * radius;
        DVec2::new(centre.x + p.x, centre.y - p.y)
    };
    let unturned = |x: f64, y: f64| DVec2::new(centre.x + x * radius, centre.y - y * radius);
    match mark.shape {
        MarkShape::DoomArrow => {
            // am_map.c player_arrow, R = 1.
            const R: f64 = 1.0;
            let lines = [
                ((-R + R / 8.0, 0.0), (R, 0.0)),
                ((R, 0.0), (R - R / 2.0, R / 4.0)),
                ((R, 0.0), (R - R / 2.0, -R / 4.0)),
                ((-R + R / 8.0, 0.0), (-R - R / 8.0, R / 4.0)),
                ((-R + R / 8.0, 0.0), (-R - R / 8.0, -R / 4.0)),
                ((-R + 3.0 * R / 8.0, 0.0), (-R + R / 8.0, R / 4.0)),
                ((-R + 3.0 * R / 8.0, 0.0), (-R + R / 8.0, -R / 4.0)),
            ];
            for ((ax, ay), (bx, by)) in lines {
                raster.line(place(ax, ay), place(bx, by), pen, mark.rgb);
            }
        }
        MarkShape::ThinTriangle => {
            // am_map.c thintriangle_guy.
            let corners = [place(-0.5, -0.7), place(1.0, 0.0), place(-0.5, 0.7)];
            raster.outline(&corners, pen, mark.rgb);
        }
        MarkShape::Triangle => {
            // Marathon's player: front 16, rear 10 at 7/20 of a turn either side.
            let rear = 10.0 / 16.0;
            let theta = 0.35 * std::f64::consts::TAU;
            let corners = [
                place(1.0, 0.0),
                place(rear * theta.cos(), rear * theta.sin()),
                place(rear * theta.cos(), -rear * theta.sin()),
            ];
            raster.fill(&corners, mark.rgb);
            raster.outline(&corners, 1, mark.rgb);
        }
        MarkShape::Square => {
            let corners = [
                unturned(-1.0, -1.0),
                unturned(1.0, -1.0),
                unturned(1.0, 1.0),
                unturned(-1.0, 1.0),
            ];
            raster.fill(&corners, mark.rgb);
            if radius < 1.0 {
                raster.dot(centre.x.floor() as i64, centre.y.floor() as i64, mark.rgb);
            }
        }
        MarkShape::Diamond => {
            let corners =
                [unturned(1.0, 0.0), unturned(0.0, 1.0), unturned(-1.0, 0.0), unturned(0.0, -1.0)];
            raster.outline(&corners, pen, mark.rgb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_and_plan_points_round_trip_and_the_centre_is_the_middle() {
        let view = MapView { center: DVec2::new(100.0, -50.0), px_per_unit: 0.25 };
        let size = (320, 200);
        assert_eq!(view.pixel(view.center, size), DVec2::new(160.0, 100.0));
        // Up the map is up the image.
        assert!(view.pixel(view.center + DVec2::new(0.0, 40.0), size).y < 100.0);
        let p = DVec2::new(37.0, 12.5);
        assert!((view.plan_at(view.pixel(p, size), size) - p).length() < 1e-9);
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let view = MapView { center: DVec2::new(10.0, 20.0), px_per_unit: 2.0 };
        let size = (640, 480);
        let pointer = DVec2::new(500.0, 100.0);
        let under = view.plan_at(pointer, size);
        let zoomed = view.zoomed(1.5, pointer, size);
        assert_eq!(zoomed.px_per_unit, 3.0);
        assert!((zoomed.plan_at(pointer, size) - under).length() < 1e-9);
    }
}
