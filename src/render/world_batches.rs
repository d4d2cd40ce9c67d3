//! The world's triangles ordered for drawing: solid ones, then masked ones, then translucent
//! ones, each grouped by surface kind so that every group can be drawn with a pipeline
//! specialised for its kind (see `world_pipelines`).

use std::ops::Range;

use crate::scene::{vertex_flags, WorldVertex};

/// A run of triangles of one surface kind: `surface` is the `SURFACE_KIND` override it is
/// drawn with (kind + 1, or 0 when the groups are not split by kind); `contrast` whether any
/// of them has a contrast byte (the `CONTRAST_USED` override).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub surface: u32,
    pub contrast: bool,
    pub vertices: Range<u32>,
}

pub struct WorldBatches {
    /// Solid, then masked, then translucent triangles (one vertex at least).
    pub vertices: Vec<WorldVertex>,
    /// The solid triangles again, in reverse order (one vertex at least).
    pub solid_reversed: Vec<WorldVertex>,
    /// Solid groups, as ranges of `solid_reversed`.
    pub solid: Vec<Group>,
    /// Masked groups, as ranges of `vertices`.
    pub masked: Vec<Group>,
    pub solid_count: u32,
    /// Solid and masked vertices: the translucent ones follow.
    pub opaque_count: u32,
    pub translucent_count: u32,
}

/// Orders `world` (a triangle list) for drawing; `by_kind` splits the solid and masked
/// triangles into one group per surface kind and use of the contrast byte, keeping the
/// scene's order within a group. (A software rasteriser runs the code that reads the contrast
/// for every pixel; a group without it has a pipeline where that code folds away.)
pub fn batch_world(world: &[WorldVertex], by_kind: bool) -> WorldBatches {
    let flags = |t: &[WorldVertex]| t[0].flags;
    // Not split by kind: one unspecialised group, contrast read.
    let contrast = |t: &[WorldVertex]| {
        !by_kind || t.iter().any(|v| (v.flags >> vertex_flags::CONTRAST_SHIFT) & 0xFF != 0)
    };
    let kind =
        |t: &[WorldVertex]| if by_kind { (flags(t) & vertex_flags::KIND_MASK) + 1 } else { 0 };
    let key = |t: &[WorldVertex]| (kind(t), contrast(t));
    let mut solid: Vec<&[WorldVertex]> = Vec::new();
    let mut masked: Vec<&[WorldVertex]> = Vec::new();
    let mut translucent: Vec<&[WorldVertex]> = Vec::new();
    for t in world.chunks_exact(3) {
        if flags(t) & vertex_flags::TRANSLUCENT != 0 {
            translucent.push(t);
        } else if flags(t) & vertex_flags::MASKED != 0 {
            masked.push(t);
        } else {
            solid.push(t);
        }
    }
    solid.sort_by_key(|t| key(t));
    masked.sort_by_key(|t| key(t));
    let groups = |tris: &[&[WorldVertex]], start: u32| {
        let mut out: Vec<Group> = Vec::new();
        for (i, t) in tris.iter().enumerate() {
            let at = start + 3 * i as u32;
            match out.last_mut() {
                Some(g) if (g.surface, g.contrast) == key(t) => g.vertices.end = at + 3,
                _ => {
                    let (surface, contrast) = key(t);
                    out.push(Group { surface, contrast, vertices: at..at + 3 })
                }
            }
        }
        out
    };
    let reversed: Vec<&[WorldVertex]> = solid.iter().rev().copied().collect();
    let solid_count = 3 * solid.len() as u32;
    let opaque_count = solid_count + 3 * masked.len() as u32;
    let flatten = |parts: &[&[&[WorldVertex]]]| {
        let mut v: Vec<WorldVertex> =
            parts.iter().flat_map(|p| p.iter().flat_map(|t| t.iter().copied())).collect();
        if v.is_empty() {
            v.push(bytemuck::Zeroable::zeroed());
        }
        v
    };
    WorldBatches {
        vertices: flatten(&[&solid, &masked, &translucent]),
        solid_reversed: flatten(&[&reversed]),
        solid: groups(&reversed, 0),
        masked: groups(&masked, solid_count),
        solid_count,
        opaque_count,
        translucent_count: 3 * translucent.len() as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::{vertex_flags::pack, SurfaceKind};

    fn tri(kind: SurfaceKind, masked: bool, id: u32) -> [WorldVertex; 3] {
        let mut v: WorldVertex = bytemuck::Zeroable::zeroed();
        v.flags = pack(kind, masked, 0, 0);
        v.surface = id;
        [v; 3]
    }

    #[test]
    fn groups_by_kind_and_contrast_in_scene_order_and_reverses_the_solid_ones() {
        let mut world = Vec::new();
        world.extend(tri(SurfaceKind::Flat, false, 1));
        world.extend(tri(SurfaceKind::Wall, false, 2));
        world.extend(tri(SurfaceKind::Wall, true, 3));
        world.extend(tri(SurfaceKind::Flat, false, 4));
        let mut t = tri(SurfaceKind::Wall, false, 5);
        t.iter_mut().for_each(|v| v.flags |= vertex_flags::TRANSLUCENT);
        world.extend(t);
        let mut t = tri(SurfaceKind::Wall, false, 6);
        t[1].flags = pack(SurfaceKind::Wall, false, -1, 0);
        world.extend(t);
        let b = batch_world(&world, true);
        let ids = |v: &[WorldVertex]| v.chunks(3).map(|t| t[0].surface).collect::<Vec<_>>();
        assert_eq!(ids(&b.vertices), [2, 6, 1, 4, 3, 5]);
        assert_eq!(ids(&b.solid_reversed), [4, 1, 6, 2]);
        let flat = SurfaceKind::Flat as u32 + 1;
        let wall = SurfaceKind::Wall as u32 + 1;
        let group = |surface, contrast, vertices| Group { surface, contrast, vertices };
        assert_eq!(
            b.solid,
            [group(flat, false, 0..6), group(wall, true, 6..9), group(wall, false, 9..12)]
        );
        assert_eq!(b.masked, [group(wall, false, 12..15)]);
        assert_eq!((b.solid_count, b.opaque_count, b.translucent_count), (12, 15, 3));

        let one = batch_world(&world, false);
        assert_eq!(ids(&one.vertices), [1, 2, 4, 6, 3, 5]);
        assert_eq!(one.solid, [group(0, true, 0..12)]);
    }
}
