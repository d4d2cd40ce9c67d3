//! The walls step: every seg's upper, lower and middle quads with vanilla's pegging
//! (`r_segs.c`), on sloped planes too, and the tiers vanilla's wall columns draw for the CPU's
//! frames; then the polyobjects' walls. Kept apart from the flats because walls have their own
//! placement rules (pegging, offsets, UDMF scales) that the slabs and polyobjects share.

use std::collections::BTreeSet;

use glam::DVec2;

use super::skies::is_sky;
use super::{fixed_units, to_fixed, viewer, Builder};
use crate::formats::doom::map::udmf_props::{PartTexture, BOTTOM, MID, TOP};
use crate::formats::doom::map::{line_flags, MapData, Sector};
use crate::formats::doom::nodes::BspSeg;
use crate::formats::doom::specials::polyobjects::Polyobject;
use crate::formats::doom::specials::slopes::{CEILING, FLOOR};
use crate::scene::{
    doom::{shade, VanillaSeg, VanillaTier},
    vertex_flags, SurfaceKind, WorldVertex,
};

impl Builder<'_> {
    /// Draws every seg (`shown`: the sectors as the walls show them, Boom 242's heights as
    /// seen from between the control planes), then the polyobjects' walls at their start spots. The
    /// segs as vanilla's walk draws them, and the sectors the polyobjects stand in.
    pub(super) fn walls(
        &mut self,
        map: &MapData,
        shown: &[Sector],
        polyobjects: &[Polyobject],
    ) -> (Vec<VanillaSeg>, BTreeSet<u32>) {
        let mut one_sided_fallbacks = 0;
        let mut vanilla_segs = Vec::with_capacity(map.bsp.segs.len());
        for seg in &map.bsp.segs {
            let v1 = map.vertex(seg.v1).unwrap_or_default();
            let x_offset = map.seg_sidedef(seg).map(|sd| (sd.x_offset as i32) << 16).unwrap_or(0);
            self.surface = vanilla_segs.len() as u32 + 1;
            // Scrollers move a sidedef (vanilla's 48 and Boom's scroll its `textureoffset`), so
            // every seg drawing that sidedef scrolls.
            let scroll = match seg_side_index(map, seg) {
                Some(i) => self.scrolls.slot(self.boom.side_scroll.get(&(i as u32)).copied()),
                None => 0,
            };
            let (fallback, tiers) = self.wall_seg(map, shown, seg, scroll);
            if fallback {
                one_sided_fallbacks += 1;
            }
            let (light_slot, no_contrast) = match seg_side_index(map, seg) {
                Some(i) => {
                    let side = self.props.side(i);
                    let sector = map.seg_sidedef(seg).map_or(0, |sd| sd.sector);
                    let slot = self.lights.slot(sector, side.light);
                    ((slot != sector).then_some(slot), side.no_fake_contrast)
                }
                None => (None, false),
            };
            vanilla_segs.push(VanillaSeg {
                v1: [v1.x, v1.y],
                angle: seg.angle,
                offset: seg.offset.wrapping_add(x_offset),
                tiers,
                scroll,
                light_slot,
                no_contrast,
                translucent: seg.linedef.and_then(|l| self.translucent.get(&l)).copied(),
            });
        }
        let po_sectors = self.polyobject_walls(map, shown, polyobjects);
        if one_sided_fallbacks > 0 {
            self.notes.push(format!(
                "{one_sided_fallbacks} segs on two-sided lines without a second sidedef drawn \
                 one-sided"
            ));
        }
        (vanilla_segs, po_sectors)
    }

    /// Emits a seg's wall quads; returns whether a two-sided line without a second sidedef
    /// was drawn one-sided, and the tiers the CPU draws (see [`VanillaSeg`]).
    /// `sectors` are the sectors as the walls show them (Boom 242's heights as seen from
    /// between the control planes).
    fn wall_seg(
        &mut self,
        map: &MapData,
        sectors: &[Sector],
        seg: &BspSeg,
        scroll: u16,
    ) -> (bool, [Option<VanillaTier>; 3]) {
        let mut tiers = [None; 3];
        let tier = |texture, anchor: f64, p: &Placement| {
            Some(VanillaTier {
                texture,
                top: (anchor * 65536.0).round() as i32,
                x_offset: p.tier_x_offset,
                x_scale: to_fixed(p.x_scale),
                y_scale: to_fixed(p.y_scale),
            })
        };
        // Minisegs (no linedef) are not walls; polyobjects' lines are drawn at their spots.
        let Some(ld) = seg.linedef.and_then(|l| map.linedefs.get(l as usize)) else {
            return (false, tiers);
        };
        if seg.linedef.is_some_and(|l| self.po_lines.contains(&l)) {
            return (false, tiers);
        }
        let side = seg.side as usize;
        let Some(sd) = map.seg_sidedef(seg) else { return (false, tiers) };
        let front_i = sd.sector as usize;
        let front = &sectors[front_i];
        let mut fallback = false;
        let back = if ld.has_flag(line_flags::TWO_SIDED) {
            match map.line_sector(ld, side ^ 1) {
                Some(s) => Some((s, &sectors[s])),
                None => {
                    fallback = true;
                    None
                }
            }
        } else {
            None
        };
        let (Some(v1), Some(v2)) = (map.vertex(seg.v1), map.vertex(seg.v2)) else {
            return (fallback, tiers);
        };
        let a = v1.to_dvec2();
        let bpt = v2.to_dvec2();
        let len = a.distance(bpt);
        if len == 0.0 {
            return (fallback, tiers);
        }
        // Fake contrast (R_StoreWallRange uses the seg's own vertices).
        let contrast: i8 = if v1.y == v2.y {
            -1
        } else if v1.x == v2.x {
            1
        } else {
            0
        };
        let side_props = seg_side_index(map, seg).map(|i| self.props.side(i)).unwrap_or_default();
        let place = |part: usize| {
            let (x, y) = (sd.x_offset as f64, sd.y_offset as f64);
            Placement::new(fixed_units(seg.offset), x, y, &side_props.parts[part])
        };
        let contrast = if side_props.no_fake_contrast { 0 } else { contrast };
        let light = self.lights.slot(front_i as u32, side_props.light);
        // The walls' light: the sector's through the sidedef's rule, or a 3D floor's.
        let lit = (front_i as u32, side_props.light);
        // Anchors (pegging) use the sectors' own heights, as ZDoom pegs to them on slopes
        // too; the wall's edges follow the planes at each end of the seg.
        let (ff, fc) = (front.floor as f64, front.ceiling as f64);
        let plane_ends = |s: usize, which: usize, level: f64| {
            [a, bpt].map(|p| self.slopes.height(s, which, level, p))
        };
        let (ffe, fce) = (plane_ends(front_i, FLOOR, ff), plane_ends(front_i, CEILING, fc));
        let lower_unpegged = ld.has_flag(line_flags::LOWER_UNPEGGED);
        let upper_unpegged = ld.has_flag(line_flags::UPPER_UNPEGGED);
        let flags = |kind, masked| vertex_flags::pack(kind, masked, contrast, scroll);

        let Some((back_i, back)) = back else {
            if let Some((tex, h)) = self.wall_texture(&sd.middle) {
                // One-sided: top of the texture at the ceiling, or with lower-unpegged its
                // bottom at the floor.
                let p = place(MID);
                let anchor = if lower_unpegged { ff + p.height(h) } else { fc } + p.y_shift;
                let part = WallPart { top: fce, bottom: ffe, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[0] = tier(tex, anchor, &p);
            }
            return (fallback, tiers);
        };

        let (bf, bc) = (back.floor as f64, back.ceiling as f64);
        let (bfe, bce) = (plane_ends(back_i, FLOOR, bf), plane_ends(back_i, CEILING, bc));
        // Sky hack: both ceilings sky, so the upper wall is not drawn and the front's sky
        // shows down to the back ceiling; `worldtop` becomes the back ceiling.
        let sky_hack = is_sky(&front.ceiling_flat) && is_sky(&back.ceiling_flat);
        let worldtop = if sky_hack { bc } else { fc };
        let worldtop_e = if sky_hack { bce } else { fce };
        if sky_hack && below(bce, fce) {
            // The front sector's sky (its ceiling plane covers the gap in vanilla's walk).
            let sky = self.sky_of(front_i as u32);
            let flags = vertex_flags::pack(SurfaceKind::Sky, false, sky.kind, 0);
            let part =
                WallPart { top: fce, bottom: each(bce, ffe, f64::max), anchor: 0.0, y_scale: 0.0 };
            let first = self.world.len();
            self.wall_quad(a, bpt, &part, (0.0, 0.0), sky.texture, light, flags);
            // The sky's offsets, where a wall has its texel coordinates.
            for v in &mut self.world[first..] {
                v.uv = sky.uv;
            }
        }
        if below(bce, worldtop_e) {
            if let Some((tex, h)) = self.wall_texture(&sd.upper) {
                // Upper: unpegged puts the texture top at the front ceiling; pegged puts its
                // bottom at the back ceiling (so it moves with a rising door).
                let p = place(TOP);
                let anchor = if upper_unpegged { worldtop } else { bc + p.height(h) } + p.y_shift;
                let bottom = each(bce, ffe, f64::max);
                let part = WallPart { top: worldtop_e, bottom, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[0] = tier(tex, anchor, &p);
            }
        }
        if below(ffe, bfe) {
            if let Some((tex, _)) = self.wall_texture(&sd.lower) {
                // Lower: unpegged places the texture as if its top were at `worldtop`;
                // pegged puts its top at the back floor.
                let p = place(BOTTOM);
                let anchor = if lower_unpegged { worldtop } else { bf } + p.y_shift;
                let top = each(bfe, fce, f64::min);
                let part = WallPart { top, bottom: ffe, anchor, y_scale: p.y_scale };
                let u = p.u(len);
                self.banded_wall(lit, a, bpt, &part, u, tex, flags(SurfaceKind::Wall, false));
                tiers[1] = tier(tex, anchor, &p);
            }
        }
        // ZDoom's line alpha: 0 draws no middle at all.
        let style = seg.linedef.and_then(|l| self.line_styles.get(&l)).copied();
        let hidden = style.is_some_and(|s| s.alpha == 0);
        if let Some((tex, h)) = self.wall_texture(&sd.middle).filter(|_| !hidden) {
            // Masked middle (R_RenderMaskedSegRange): lower-unpegged puts the bottom at the
            // higher floor, else the top at the lower ceiling; drawn once (no vertical
            // tiling), clipped to the opening.
            let open_bottom = ff.max(bf);
            let open_top = fc.min(bc);
            let p = place(MID);
            let h = p.height(h);
            let anchor = if lower_unpegged { open_bottom + h } else { open_top } + p.y_shift;
            let part = WallPart {
                top: each(each(fce, bce, f64::min), [anchor; 2], f64::min),
                bottom: each(each(ffe, bfe, f64::max), [anchor - h; 2], f64::max),
                anchor,
                y_scale: p.y_scale,
            };
            let u = p.u(len);
            let mut flags = flags(SurfaceKind::Wall, true);
            // Boom 260: blended over what lies behind.
            if seg.linedef.is_some_and(|l| self.translucent.contains_key(&l)) {
                flags |= vertex_flags::TRANSLUCENT;
            }
            let first = self.world.len();
            self.banded_wall(lit, a, bpt, &part, u, tex, flags);
            // ZDoom's alpha and render style, for the GPU's blending (`doom.wgsl`).
            if let Some(style) = style.filter(|s| s.blends()) {
                for v in &mut self.world[first..] {
                    v.shade = shade::line_style(style.alpha, style.additive);
                }
            }
            tiers[2] = tier(tex, anchor, &p);
        }
        (false, tiers)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn wall_quad(
        &mut self,
        a: DVec2,
        b: DVec2,
        part: &WallPart,
        u: (f64, f64),
        texture: u32,
        light: u32,
        flags: u32,
    ) {
        let vert = |p: DVec2, z: f64, uu: f64| WorldVertex {
            pos: viewer(p, z).to_array(),
            uv: [uu as f32, ((part.anchor - z) * part.y_scale) as f32],
            texture,
            light,
            flags,
            surface: self.surface,
            shade: [0; 4],
        };
        for (p, z, uu) in wall_corners(a, b, part, u) {
            self.world.push(vert(p, z, uu));
        }
    }
}

/// The sidedef number a seg draws.
pub(super) fn seg_side_index(map: &MapData, seg: &BspSeg) -> Option<usize> {
    let ld = map.linedefs.get(seg.linedef? as usize)?;
    ld.sides.get(seg.side as usize).copied().flatten().map(|s| s as usize)
}

/// plane is sloped) and the texel row at z = 0.
pub(super) struct WallPart {
    pub(super) top: [f64; 2],
    pub(super) bottom: [f64; 2],
    /// v = (anchor - z) * y_scale: the height of texture row 0 (y offsets included).
    pub(super) anchor: f64,
    pub(super) y_scale: f64,
}

/// A wall part's texture placement in map terms: texel u at v1 and per map unit, texel row
/// step per map unit, and the y offset in map units.
#[derive(Clone, Copy)]
pub(super) struct Placement {
    pub(super) u0: f64,
    pub(super) x_scale: f64,
    pub(super) y_scale: f64,
    /// The total y offset (sidedef and part) divided by the y scale: the anchor's shift.
    pub(super) y_shift: f64,
    /// For the CPU walk: added to `FixedMul(vanilla column, x_scale)` (16.16).
    pub(super) tier_x_offset: i32,
}

impl Placement {
    /// `seg_offset` is the seg's distance along its line; `sd` its sidedef's offsets.
    pub(super) fn new(seg_offset: f64, sd_x: f64, sd_y: f64, part: &PartTexture) -> Placement {
        let x_total = sd_x + part.x_offset;
        Placement {
            u0: x_total + part.x_scale * seg_offset,
            x_scale: part.x_scale,
            y_scale: part.y_scale,
            y_shift: (sd_y + part.y_offset) / part.y_scale,
            tier_x_offset: to_fixed(sd_x * (1.0 - part.x_scale) + part.x_offset),
        }
    }

    pub(super) fn u(&self, len: f64) -> (f64, f64) {
        (self.u0, self.u0 + self.x_scale * len)
    }

    /// A texture `h` texels tall in map units.
    pub(super) fn height(&self, h: f64) -> f64 {
        h / self.y_scale.abs()
    }
}

/// The corners (map point, height, texel u) of a wall part's triangles, counter-clockwise
/// seen from its front, where v1 (`a`) is on the left: a quad (a trapezoid where planes are
/// sloped), the triangle on the open side where its top and bottom cross along the seg, or
/// nothing where it is closed.
pub(super) fn wall_corners(
    a: DVec2,
    b: DVec2,
    part: &WallPart,
    u: (f64, f64),
) -> Vec<(DVec2, f64, f64)> {
    let [h0, h1] = [0, 1].map(|e| part.top[e] - part.bottom[e]);
    let bl = (a, part.bottom[0], u.0);
    let br = (b, part.bottom[1], u.1);
    let tr = (b, part.top[1], u.1);
    let tl = (a, part.top[0], u.0);
    if h0 > 0.0 && h1 > 0.0 {
        return vec![bl, br, tr, bl, tr, tl];
    }
    if h0 <= 0.0 && h1 <= 0.0 {
        return Vec::new();
    }
    let t = h0 / (h0 - h1);
    let z = part.bottom[0] + (part.bottom[1] - part.bottom[0]) * t;
    let tip = (a.lerp(b, t), z, u.0 + (u.1 - u.0) * t);
    if h0 > 0.0 {
        vec![bl, tip, tl]
    } else {
        vec![tip, br, tr]
    }
}

/// `f` of the two ends' values.
fn each(a: [f64; 2], b: [f64; 2], f: impl Fn(f64, f64) -> f64) -> [f64; 2] {
    [f(a[0], b[0]), f(a[1], b[1])]
}

/// Whether `a` is below `b` at either end (the wall between them shows somewhere).
fn below(a: [f64; 2], b: [f64; 2]) -> bool {
    a[0] < b[0] || a[1] < b[1]
}
