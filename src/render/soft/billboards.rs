//! Sprites on the CPU canvas: each one a quad facing the camera, expanded as
//! shaders/world.wgsl `vs_sprite` expands its instance (the view picked by the angle from the
//! viewer to the sprite against its facing, the texture's origin at the sprite's position,
//! texel coordinates in texels), so that the canvas and the GPU draw a sprite alike.

use glam::Vec3;

use crate::scene::Sprite;

use super::raster::ClipCorner;
use super::textures::{SoftTextures, TextureAt};
use super::SoftView;

/// A sprite's quad this frame: its two triangles' corners (front-facing as
/// `RasterTriangle` wants them), the texture it shows (after animation) and its light.
pub(in crate::render) struct Billboard {
    pub triangles: [[ClipCorner; 3]; 2],
    pub texture: TextureAt,
    pub light: u32,
    pub fullbright: bool,
    /// Its sector colour pair (see `Sprite::tint`).
    pub tint: u16,
    /// The view distance of the sprite's origin (Doom lights a sprite by it).
    pub origin_depth: f32,
}

/// The quad of sprite `s` seen as `view` says; `None` for a sprite with no view.
pub(super) fn billboard(s: &Sprite, view: &SoftView, textures: &SoftTextures) -> Option<Billboard> {
    let count = s.views.len().min(255);
    let shown = s.views.get(rotation(s, view.cam_pos, count).min(count.checked_sub(1)?))?;
    let texture = textures.at(view.remap, shown.texture);
    let (w, h) = (texture.width() as f32, texture.height() as f32);
    let [ox, oy] = textures.origin(view.remap, shown.texture).map(|o| o as f32);
    let corner = |cx: f32, cy: f32| {
        let across = (cx * w - ox) * s.scale[0];
        let up = (oy - cy * h) * s.scale[1];
        let pos = s.pos + view.cam_right * across + Vec3::new(0.0, up, 0.0);
        let u = if shown.mirrored { w - cx * w } else { cx * w };
        ClipCorner { clip: view.view_proj * pos.extend(1.0), uv: [u, cy * h] }
    };
    // vs_sprite's six corners: (0,0) (1,0) (1,1) and (0,0) (1,1) (0,1).
    let [tl, tr, br, bl] = [corner(0.0, 0.0), corner(1.0, 0.0), corner(1.0, 1.0), corner(0.0, 1.0)];
    Some(Billboard {
        triangles: [[tl, tr, br], [tl, br, bl]],
        texture,
        light: s.light,
        fullbright: s.fullbright,
        tint: s.tint,
        origin_depth: (view.view_proj * s.pos.extend(1.0)).w,
    })
}

/// The view of eight that vanilla's `R_ProjectSprite` picks, as vs_sprite does: the angle
/// from the viewer to the sprite against the sprite's facing, in eighths, the first seen from
/// the front. One view (or none) is seen from every side.
fn rotation(s: &Sprite, eye: Vec3, count: usize) -> usize {
    if count <= 1 {
        return 0;
    }
    let d = s.pos - eye;
    let eighth = std::f32::consts::FRAC_PI_4;
    let angle = (-d.z).atan2(d.x);
    let r = ((angle - s.facing + 9.0 * eighth * 0.5) / eighth).floor() as i32;
    r.rem_euclid(8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::SpriteView;

    fn sprite(facing: f32) -> Sprite {
        Sprite {
            tint: 0,
            pos: Vec3::new(10.0, 0.0, 0.0),
            views: (0..8).map(|t| SpriteView { texture: t, mirrored: false }).collect(),
            facing,
            scale: [1.0, 1.0],
            light: 0,
            fullbright: false,
            label: String::new(),
            source: 0,
        }
    }

    #[test]
    fn the_front_view_faces_the_viewer_and_the_views_turn_by_eighths() {
        // The viewer at the origin looks along +x at a sprite facing it (facing -x, half a
        // turn): rotation 0 is its front.
        let pi = std::f32::consts::PI;
        assert_eq!(rotation(&sprite(pi), Vec3::ZERO, 8), 0);
        // Facing away: seen from behind.
        assert_eq!(rotation(&sprite(0.0), Vec3::ZERO, 8), 4);
        // A quarter turn either way.
        assert_eq!(rotation(&sprite(pi / 2.0), Vec3::ZERO, 8), 2);
        assert_eq!(rotation(&sprite(-pi / 2.0), Vec3::ZERO, 8), 6);
        assert_eq!(rotation(&sprite(0.0), Vec3::ZERO, 1), 0);
    }
}
