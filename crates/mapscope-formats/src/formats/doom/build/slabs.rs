//! ZDoom's 3D floors as slabs in the scene: a top and a bottom face over every subsector of
//! each tagged sector, and sides on the two-sided segs between a tagged sector and one
//! without that floor (see `floors_3d` for the facts they follow).
//!
//! Sides are placed as GZDoom's hardware renderer places them (BuildFFBlock): the texture's
//! row 0 at the slab's top plus the y offsets, its column from the drawn seg's offset plus
//! the x offsets (each sidedef's middle offsets: its own and UDMF's `offsetx_mid` /
//! `offsety_mid`); where the upper or lower texture of the drawn line is used, the control
//! line's offsets are not added. The parts' scales are not applied. They tile in both
//! directions and are clipped to the tagged sector's floor and ceiling.

use std::collections::{BTreeMap, BTreeSet};

use glam::DVec2;

use super::light_bands::BELOW;
use super::walls::{seg_side_index, WallPart};
use super::{fixed_units, viewer, Builder};
use crate::formats::doom::map::udmf_props::{FlatPlacement, LightRule, MID};
use crate::formats::doom::map::{line_flags, MapData, Sector, Sidedef};
use crate::formats::doom::nodes::bsp::SubsectorPolygons;
use crate::formats::doom::nodes::BspSeg;
use crate::formats::doom::specials::floors_3d::{floor_flags, Floor3d, FloorKind};
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::{doom::shade, vertex_flags, SurfaceKind, WorldVertex};

/// One face plane of a slab: the control sector's plane `which` at `level` (its slope, if
/// any), drawn with flat `flat` placed by `placement`.
#[derive(Clone)]
struct SlabPlane {
    which: usize,
    level: f64,
    flat: String,
    placement: FlatPlacement,
}

/// A slab's top and bottom planes.
fn slab_planes(builder: &Builder, floor: &Floor3d, control: &Sector) -> [SlabPlane; 2] {
    let p = builder.props.sector(floor.control as usize);
    let ceiling = SlabPlane {
        which: CEILING,
        level: control.ceiling as f64,
        flat: control.ceiling_flat.clone(),
        placement: p.ceiling,
    };
    let ground = SlabPlane {
        which: FLOOR,
        level: control.floor as f64,
        flat: control.floor_flat.clone(),
        placement: p.floor,
    };
    match floor.kind {
        // Vavoom's: the control floor is the top.
        FloorKind::Vavoom => [ground, ceiling],
        // A thin floor's bottom is its top (the control ceiling and its flat).
        _ if floor.has(floor_flags::THIN) => [ceiling.clone(), ceiling],
        _ => [ceiling, ground],
    }
}

impl Builder<'_> {
    /// Emits every 3D floor's faces and sides.
    pub(super) fn slabs(
        &mut self,
        map: &MapData,
        polygons: &SubsectorPolygons,
        floors: &[Floor3d],
    ) {
        if floors.is_empty() {
            return;
        }
        // Each sector's subsectors and the segs on its lines (either side), found once: a
        // slab visits only its own sectors' (slabs times the map's segs would be quadratic).
        let mut subsectors_of: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for si in 0..polygons.polygons.len() {
            if let Some(s) = map.subsector_sector(si) {
                subsectors_of.entry(s as u32).or_default().push(si);
            }
        }
        let mut segs_of: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (i, seg) in map.bsp.segs.iter().enumerate() {
            let Some(ld) = seg.linedef.and_then(|l| map.linedefs.get(l as usize)) else { continue };
            let sides = [map.line_sector(ld, 0), map.line_sector(ld, 1)];
            for s in sides.iter().flatten().copied().collect::<BTreeSet<usize>>() {
                segs_of.entry(s as u32).or_default().push(i);
            }
        }
        for floor in floors.iter().filter(|f| f.drawn()) {
            let Some(control) = map.sectors.get(floor.control as usize) else { continue };
            let targets: BTreeSet<u32> = floor.targets.iter().copied().collect();
            let planes = slab_planes(self, floor, control);
            let subsectors: BTreeSet<usize> =
                targets.iter().filter_map(|t| subsectors_of.get(t)).flatten().copied().collect();
            for si in subsectors {
                let Some(poly) = polygons.polygons.get(si).filter(|p| p.len() >= 3) else {
                    continue;
                };
                let Some(s) = map.subsector_sector(si) else { continue };
                self.surface = si as u32 + 1;
                self.slab_faces(floor, &planes, s as u32, poly);
            }
            let segs: BTreeSet<usize> =
                targets.iter().filter_map(|t| segs_of.get(t)).flatten().copied().collect();
            for i in segs {
                let Some(seg) = map.bsp.segs.get(i) else { continue };
                self.surface = i as u32 + 1;
                self.slab_side(map, floor, &planes, &targets, seg);
            }
        }
    }

    /// The flags and shade bytes of a slab's surfaces of kind `kind`.
    fn slab_style(
        &self,
        floor: &Floor3d,
        kind: SurfaceKind,
        masked: bool,
        contrast: i8,
    ) -> (u32, [u8; 4]) {
        let mut flags = vertex_flags::pack(kind, masked, contrast, 0);
        let mut shade = [0; 4];
        if floor.alpha < 255 || floor.additive() {
            flags |= vertex_flags::TRANSLUCENT;
            shade = shade::line_style(floor.alpha, floor.additive());
        }
        (flags, shade)
    }

    fn slab_faces(
        &mut self,
        floor: &Floor3d,
        planes: &[SlabPlane; 2],
        target: u32,
        poly: &[DVec2],
    ) {
        // Each face is lit by the band of the sector's light it looks out into: the top seen
        // from above by the light over the slab, the bottom seen from below by the light
        // under it (the slab's own, or with "double shadow" what comes back below it).
        let (top, bottom) = (planes[0].level, planes[1].level);
        let mut lit = |h: f64| self.banded_slot(target, h, LightRule::default());
        let (above, under, inside_top, inside_bottom) =
            (lit(top), lit(bottom - BELOW), lit(top - BELOW), lit(bottom));
        let (flags, shade) = self.slab_style(floor, SurfaceKind::Flat, false, 0);
        // (plane, faces up, light): the top seen from above, the bottom from below, and from
        // inside the other way round.
        let mut faces = vec![(&planes[0], true, above), (&planes[1], false, under)];
        if floor.inside {
            faces.push((&planes[0], false, inside_top));
            faces.push((&planes[1], true, inside_bottom));
        }
        for (plane, up, light) in faces {
            let texture = self.flat(&plane.flat);
            let vert = |p: DVec2| WorldVertex {
                pos: viewer(
                    p,
                    self.slopes.height(floor.control as usize, plane.which, plane.level, p),
                )
                .to_array(),
                uv: plane.placement.uv(p.x, p.y).map(|c| c as f32),
                texture,
                light,
                flags,
                surface: self.surface,
                shade,
            };
            for i in 1..poly.len() - 1 {
                let (p1, p2) = if up { (poly[i], poly[i + 1]) } else { (poly[i + 1], poly[i]) };
                self.world.extend_from_slice(&[vert(poly[0]), vert(p1), vert(p2)]);
            }
        }
    }

    /// The side of a slab a seg shows: from outside where the seg's back sector has the
    /// floor and its front does not, from inside (floors drawn inside) the other way round.
    fn slab_side(
        &mut self,
        map: &MapData,
        floor: &Floor3d,
        planes: &[SlabPlane; 2],
        targets: &BTreeSet<u32>,
        seg: &BspSeg,
    ) {
        let Some(ld) = seg.linedef.and_then(|l| map.linedefs.get(l as usize)) else { return };
        if !ld.has_flag(line_flags::TWO_SIDED) {
            return;
        }
        let side = seg.side as usize;
        let (Some(front), Some(back)) = (map.line_sector(ld, side), map.line_sector(ld, side ^ 1))
        else {
            return;
        };
        let (front_in, back_in) =
            (targets.contains(&(front as u32)), targets.contains(&(back as u32)));
        let target = match (front_in, back_in) {
            (false, true) => back,
            (true, false) if floor.inside => front,
            _ => return,
        };
        let Some(sd) = map.seg_sidedef(seg) else { return };
        // A sidedef's middle offsets as GZDoom reads them: its own plus UDMF's `offsetx_mid`
        // and `offsety_mid`.
        let mid_offsets = |sd: &Sidedef, index: Option<usize>| {
            let part = index.map(|i| self.props.side(i).parts[MID]).unwrap_or_default();
            (sd.x_offset as f64 + part.x_offset, sd.y_offset as f64 + part.y_offset)
        };
        let (own_x, own_y) = mid_offsets(sd, seg_side_index(map, seg));
        let master = master_side(map, floor);
        let (name, extra_x, extra_y) = if floor.has(floor_flags::UPPER_TEXTURE) {
            (sd.upper.clone(), 0.0, 0.0)
        } else if floor.has(floor_flags::LOWER_TEXTURE) {
            (sd.lower.clone(), 0.0, 0.0)
        } else {
            match master {
                Some((m, i)) => {
                    let (x, y) = mid_offsets(m, Some(i));
                    (m.middle.clone(), x, y)
                }
                None => return,
            }
        };
        let Some((texture, _)) = self.wall_texture(&name) else { return };
        let (Some(v1), Some(v2)) = (map.vertex(seg.v1), map.vertex(seg.v2)) else { return };
        let (a, b) = (v1.to_dvec2(), v2.to_dvec2());
        let len = a.distance(b);
        if len == 0.0 {
            return;
        }
        let Some(t) = map.sectors.get(target) else { return };
        let control = floor.control as usize;
        let ends = |s: usize, which: usize, level: f64| {
            [a, b].map(|p| self.slopes.height(s, which, level, p))
        };
        let [top, bottom] = planes.each_ref().map(|p| ends(control, p.which, p.level));
        let (tf, tc) =
            (ends(target, FLOOR, t.floor as f64), ends(target, CEILING, t.ceiling as f64));
        let part = WallPart {
            top: [0, 1].map(|e| top[e].min(tc[e])),
            bottom: [0, 1].map(|e| bottom[e].max(tf[e])),
            anchor: planes[0].level + own_y + extra_y,
            y_scale: 1.0,
        };
        let u0 = fixed_units(seg.offset) + own_x + extra_x;
        // Fake contrast, as every wall of the seg.
        let contrast: i8 = if v1.y == v2.y {
            -1
        } else if v1.x == v2.x {
            1
        } else {
            0
        };
        let contrast = match seg_side_index(map, seg) {
            Some(i) if self.props.side(i).no_fake_contrast => 0,
            _ => contrast,
        };
        let (flags, shade) = self.slab_style(floor, SurfaceKind::Wall, true, contrast);
        let first = self.world.len();
        let lit = (target as u32, LightRule::default());
        self.banded_wall(lit, a, b, &part, (u0, u0 + len), texture, flags);
        for v in &mut self.world[first..] {
            v.shade = shade;
        }
    }
}

/// The control line's front sidedef and its number.
fn master_side<'m>(map: &'m MapData, floor: &Floor3d) -> Option<(&'m Sidedef, usize)> {
    let line = map.linedefs.get(floor.line as usize)?;
    let i = line.sides[0]? as usize;
    Some((map.sidedefs.get(i)?, i))
}
