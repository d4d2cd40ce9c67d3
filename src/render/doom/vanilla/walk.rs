//! Vanilla Doom's front-to-back BSP walk (r_bsp.c): from the root node, the side of each
//! partition the viewer is on first, the far side only if its bounding box can show
//! (R_CheckBBox); each subsector's segs clipped to the view and to the solid wall ranges
//! already drawn (R_ClipSolidWallSegment / R_ClipPassWallSegment), which is what decides
//! which columns of a wall vanilla draws and in which order.
//!
//! The walker's state is shared with `segs` (r_segs.c) and `planes` (r_plane.c), which add
//! their methods to [`Walker`] as vanilla's three files share their globals; the split follows
//! the C files so each part can be read against its source.
//!
//! The arithmetic follows the Doom source (fixed point, wrapping where vanilla's 32-bit
//! integers wrap). Where vanilla would stop with an error or write past an array (too many
//! visplanes, bad node or seg numbers, cyclic nodes) the walk carries on gracefully and says
//! so in [`WalkStats`]; it never panics and every loop is bounded.

use super::canvas::scroll_fixed;
use super::planes::Visplane;
use super::result::{drawsegs_by_seg, WalkResult, WalkStats};
use super::segs::{DrawSeg, MaskedRange, SpriteClip, WallColumn};
use super::tables::{point_to_angle, ANG180};
use super::view::VanillaView;
use super::vissprites::{sort_vissprites, VisSprite};
use crate::scene::doom::vanilla::{FlatXform, VanillaMap, WalkNode, VANILLA_NF_SUBSECTOR};

/// Walks `map` for the viewer in `view` with the sector light levels `light` (indexed by each
/// sector's light slot) and returns the wall ranges and flat spans vanilla would draw.
pub fn walk(map: &VanillaMap, light: &[u32], view: &VanillaView) -> WalkResult {
    walk_scrolled(map, light, &[], view)
}

/// [`walk`] with the frame's scroll offsets (two f32 bit patterns a slot, as
/// `packing::pack_state` lays them out): a scrolling floor or ceiling is panned by its slot's
/// offset, which tells its visplanes apart as Boom's R_FindPlane does with `xoffs`/`yoffs`.
pub fn walk_scrolled(
    map: &VanillaMap,
    light: &[u32],
    scroll: &[u32],
    view: &VanillaView,
) -> WalkResult {
    let mut w = Walker::new(map, light, scroll, view);
    w.render_bsp();
    w.finish()
}

/// A sector's facts as the walk reads them: a [`crate::scene::doom::vanilla::WalkSector`] with
/// its light level looked up in this frame's light slots.
#[derive(Clone, Copy, Default)]
pub(super) struct LitSector {
    pub(super) floor: i32,
    pub(super) ceiling: i32,
    pub(super) floorpic: u32,
    pub(super) ceilingpic: u32,
    pub(super) light: u32,
    /// The floor's and ceiling's own light (UDMF; the sector's light otherwise) and flat
    /// placement: visplanes are told apart by them as ZDoom's R_FindPlane does.
    pub(super) floor_light: u32,
    pub(super) ceiling_light: u32,
    pub(super) floor_xform: FlatXform,
    pub(super) ceiling_xform: FlatXform,
    /// Boom 242's control sector (the sector's own, kept by R_FakeFlat's copy).
    pub(super) heightsec: Option<u32>,
    /// MBF's sky of the sector's F_SKY1 planes (0: the level's).
    pub(super) sky: u32,
    /// R_FakeFlat gave it the control sector's light (the viewer below or above the fake
    /// planes): its walls are lit by it too.
    pub(super) control_light: bool,
}

impl LitSector {
    /// Same floor look (flat, light, placement) as `o`.
    pub(super) fn same_floor_look(&self, o: &LitSector) -> bool {
        self.floorpic == o.floorpic
            && self.floor_light == o.floor_light
            && self.floor_xform == o.floor_xform
    }

    pub(super) fn same_ceiling_look(&self, o: &LitSector) -> bool {
        self.ceilingpic == o.ceilingpic
            && self.ceiling_light == o.ceiling_light
            && self.ceiling_xform == o.ceiling_xform
    }
}

/// One walk's working state: vanilla's renderer globals of r_bsp.c, r_segs.c and r_plane.c
/// (the names are theirs where they have one), with the bounds a broken tree needs.
pub(super) struct Walker<'a> {
    pub(super) map: &'a VanillaMap,
    light: &'a [u32],
    scroll: &'a [u32],
    pub(super) view: &'a VanillaView,
    pub(super) width: i32,
    pub(super) height: i32,
    solidsegs: Vec<(i32, i32)>,
    pub(super) floorclip: Vec<i32>,
    pub(super) ceilingclip: Vec<i32>,
    pub(super) planes: Vec<Visplane>,
    pub(super) drawsegs: Vec<DrawSeg>,
    pub(super) wall_columns: Vec<WallColumn>,
    pub(super) masked: Vec<MaskedRange>,
    pub(super) openings: Vec<i32>,
    /// Per drawseg, what clips sprites behind it.
    pub(super) sprite_clips: Vec<SpriteClip>,
    pub(super) vissprites: Vec<VisSprite>,
    /// Sectors whose things are projected this frame (vanilla's `validcount`).
    pub(super) sector_sprites_done: Vec<bool>,
    pub(super) stats: WalkStats,
    // Per subsector.
    pub(super) frontsector: LitSector,
    pub(super) floorplane: Option<usize>,
    pub(super) ceilingplane: Option<usize>,
    // Per line.
    pub(super) curline: usize,
    pub(super) backsector: Option<LitSector>,
    pub(super) rw_angle1: u32,
    /// Boom 242: the control sector of the sector the viewer stands in.
    view_heightsec: Option<u32>,
    // Bounds for broken trees.
    subsector_done: Vec<bool>,
    subsector_order: Vec<u32>,
    lines_left: usize,
}

impl<'a> Walker<'a> {
    fn new(
        map: &'a VanillaMap,
        light: &'a [u32],
        scroll: &'a [u32],
        view: &'a VanillaView,
    ) -> Walker<'a> {
        let (width, height) = (view.width, view.height);
        Walker {
            map,
            light,
            scroll,
            view,
            width,
            height,
            // R_ClearClipSegs.
            solidsegs: vec![(-0x7fff_ffff, -1), (width, 0x7fff_ffff)],
            // R_ClearPlanes.
            floorclip: vec![height; width as usize],
            ceilingclip: vec![-1; width as usize],
            planes: Vec::new(),
            drawsegs: Vec::new(),
            wall_columns: Vec::new(),
            masked: Vec::new(),
            openings: Vec::new(),
            sprite_clips: Vec::new(),
            vissprites: Vec::new(),
            sector_sprites_done: vec![false; map.sectors.len()],
            stats: WalkStats::default(),
            frontsector: LitSector::default(),
            floorplane: None,
            ceilingplane: None,
            curline: 0,
            backsector: None,
            rw_angle1: 0,
            view_heightsec: viewer_sector(map, view)
                .and_then(|s| map.sectors.get(s as usize))
                .and_then(|s| s.heightsec),
            subsector_done: vec![false; map.subsectors.len()],
            subsector_order: Vec::new(),
            lines_left: map.segs.len().saturating_mul(2).saturating_add(1024),
        }
    }

    fn sector(&self, index: u32) -> LitSector {
        match self.map.sectors.get(index as usize) {
            Some(s) => {
                let level = |slot: u32| self.light.get(slot as usize).copied().unwrap_or(0);
                let pan = |xform: FlatXform, slot: u16| {
                    if slot == 0 {
                        return xform;
                    }
                    let at = |axis| scroll_fixed(self.scroll, slot, axis);
                    xform.panned(at(0), at(1))
                };
                LitSector {
                    floor: s.floor,
                    ceiling: s.ceiling,
                    floorpic: s.floorpic,
                    ceilingpic: s.ceilingpic,
                    light: level(s.light_slot),
                    floor_light: level(s.floor_light_slot),
                    ceiling_light: level(s.ceiling_light_slot),
                    floor_xform: pan(s.floor_xform, s.floor_scroll_slot),
                    ceiling_xform: pan(s.ceiling_xform, s.ceiling_scroll_slot),
                    heightsec: s.heightsec,
                    sky: s.sky,
                    control_light: false,
                }
            }
            None => LitSector::default(),
        }
    }

    /// Boom's R_FakeFlat: a sector with a control sector (242) as the walk compares and
    /// draws it from where the viewer is. Between the control's planes it has the control's
    /// heights; with the viewer's own control floor above the eye ("underwater") its
    /// ceiling is just under the control floor and, except for a back sector, its flats and
    /// light are the control's; with the eye above the viewer's control ceiling (and the
    /// sector's ceiling above the control's) it is the space above the control ceiling.
    pub(super) fn fake_flat(&self, sec: LitSector, back: bool) -> LitSector {
        let Some(control) = sec.heightsec else { return sec };
        let s = self.sector(control);
        let sky = self.map.sky_flat;
        let viewz = self.view.viewz;
        let viewer = self.view_heightsec.map(|h| self.sector(h));
        let mut t = LitSector { floor: s.floor, ceiling: s.ceiling, ..sec };
        let take_light = |t: &mut LitSector| {
            t.light = s.light;
            t.floor_light = s.floor_light;
            t.ceiling_light = s.ceiling_light;
            t.control_light = true;
        };
        if viewer.is_some_and(|v| viewz <= v.floor) {
            t.floor = sec.floor;
            t.ceiling = s.floor.wrapping_sub(1);
            if !back {
                t.floorpic = s.floorpic;
                t.floor_xform = s.floor_xform;
                if s.ceilingpic == sky {
                    t.floor = t.ceiling.wrapping_add(1);
                    t.ceilingpic = t.floorpic;
                    t.ceiling_xform = t.floor_xform;
                } else {
                    t.ceilingpic = s.ceilingpic;
                    t.ceiling_xform = s.ceiling_xform;
                }
                take_light(&mut t);
                return t;
            }
        }
        if viewer.is_some_and(|v| viewz >= v.ceiling) && sec.ceiling > s.ceiling {
            t.ceiling = s.ceiling;
            t.floor = s.ceiling.wrapping_add(1);
            (t.floorpic, t.ceilingpic) = (s.ceilingpic, s.ceilingpic);
            (t.floor_xform, t.ceiling_xform) = (s.ceiling_xform, s.ceiling_xform);
            if s.floorpic != sky {
                t.ceiling = sec.ceiling;
                t.floorpic = s.floorpic;
                t.floor_xform = s.floor_xform;
            }
            take_light(&mut t);
        }
        t
    }

    /// The colormap Boom's R_SetupFrame picks: that of the region of the viewer's sector's
    /// control sector the eye is in (below its floor, above its ceiling, between), 0 for a
    /// viewer in a sector without one.
    fn view_colormap(&self) -> u32 {
        let Some(c) = self.view_heightsec else { return 0 };
        let Some(control) = self.map.sectors.get(c as usize) else { return 0 };
        let viewz = self.view.viewz;
        let region = if viewz < control.floor {
            0
        } else if viewz > control.ceiling {
            2
        } else {
            1
        };
        control.region_colormaps[region]
    }

    pub(super) fn point_to_angle(&self, x: i32, y: i32) -> u32 {
        point_to_angle(
            &self.view.tantoangle,
            x.wrapping_sub(self.view.viewx),
            y.wrapping_sub(self.view.viewy),
        )
    }

    /// R_RenderBSPNode from the root (the last node), front side first, the back side only
    /// if its bounding box may show. An explicit stack; each node is entered once.
    fn render_bsp(&mut self) {
        let nodes = &self.map.nodes;
        if nodes.is_empty() {
            self.subsector(0);
            return;
        }
        enum Task {
            Enter(u32),
            Back(usize, usize),
        }
        let mut entered = vec![false; nodes.len()];
        let Ok(root) = u32::try_from(nodes.len() - 1) else {
            self.stats.bad_references += 1;
            return;
        };
        let mut stack = vec![Task::Enter(root)];
        while let Some(task) = stack.pop() {
            match task {
                Task::Enter(child) => {
                    if child & VANILLA_NF_SUBSECTOR != 0 {
                        self.subsector((child & !VANILLA_NF_SUBSECTOR) as usize);
                        continue;
                    }
                    let n = child as usize;
                    if n >= nodes.len() || entered[n] {
                        self.stats.bad_references += 1;
                        continue;
                    }
                    entered[n] = true;
                    let side = point_on_side(self.view.viewx, self.view.viewy, &nodes[n]);
                    stack.push(Task::Back(n, side));
                    stack.push(Task::Enter(nodes[n].children[side]));
                }
                Task::Back(n, side) => {
                    let node = &nodes[n];
                    if self.check_bbox(&node.bbox[side ^ 1]) {
                        stack.push(Task::Enter(node.children[side ^ 1]));
                    }
                }
            }
        }
    }

    /// R_CheckBBox: whether some part of the box may be visible.
    fn check_bbox(&self, bbox: &[i32; 4]) -> bool {
        // Corners that define the box's edges from the viewpoint, by position.
        const CHECKCOORD: [[usize; 4]; 11] = [
            [3, 0, 2, 1],
            [3, 0, 2, 0],
            [3, 1, 2, 0],
            [0, 0, 0, 0],
            [2, 0, 2, 1],
            [0, 0, 0, 0],
            [3, 1, 3, 0],
            [0, 0, 0, 0],
            [2, 0, 3, 1],
            [2, 1, 3, 1],
            [2, 1, 3, 0],
        ];
        let coord = *bbox;
        let (top, bottom, left, right) = (coord[0], coord[1], coord[2], coord[3]);
        let (vx, vy) = (self.view.viewx, self.view.viewy);
        let boxx = if vx <= left {
            0
        } else if vx < right {
            1
        } else {
            2
        };
        let boxy = if vy >= top {
            0
        } else if vy > bottom {
            1
        } else {
            2
        };
        let boxpos = (boxy << 2) + boxx;
        if boxpos == 5 {
            return true;
        }
        let c = CHECKCOORD[boxpos];
        let angle1 =
            self.point_to_angle(coord[c[0]], coord[c[1]]).wrapping_sub(self.view.viewangle);
        let angle2 =
            self.point_to_angle(coord[c[2]], coord[c[3]]).wrapping_sub(self.view.viewangle);
        // Sitting on a line?
        if angle1.wrapping_sub(angle2) >= ANG180 {
            return true;
        }
        let Some((sx1, sx2)) = self.clip_to_view(angle1, angle2) else {
            return false;
        };
        let sx2 = sx2 - 1;
        let start = self.solidsegs.iter().find(|s| s.1 >= sx2).copied().unwrap_or((0, -1));
        !(sx1 >= start.0 && sx2 <= start.1)
    }

    /// The view-edge clipping R_AddLine and R_CheckBBox share: angles relative to the view
    /// direction in (a span under 180°), the screen columns `viewangletox` gives for them out
    /// (None when the span is off screen or covers no pixel).
    fn clip_to_view(&self, mut angle1: u32, mut angle2: u32) -> Option<(i32, i32)> {
        let clip = self.view.clipangle;
        let span = angle1.wrapping_sub(angle2);
        let mut tspan = angle1.wrapping_add(clip);
        if tspan > clip.wrapping_mul(2) {
            tspan = tspan.wrapping_sub(clip.wrapping_mul(2));
            if tspan >= span {
                return None;
            }
            angle1 = clip;
        }
        tspan = clip.wrapping_sub(angle2);
        if tspan > clip.wrapping_mul(2) {
            tspan = tspan.wrapping_sub(clip.wrapping_mul(2));
            if tspan >= span {
                return None;
            }
            angle2 = clip.wrapping_neg();
        }
        let x1 = self.view.angle_to_x(angle1);
        let x2 = self.view.angle_to_x(angle2);
        if x1 == x2 {
            return None;
        }
        Some((x1, x2))
    }

    /// R_Subsector: the subsector's floor and ceiling planes, then its segs.
    fn subsector(&mut self, num: usize) {
        let Some(sub) = self.map.subsectors.get(num).copied() else {
            self.stats.bad_references += 1;
            return;
        };
        // A subsector reached twice only happens in a broken tree.
        if std::mem::replace(&mut self.subsector_done[num], true) {
            self.stats.bad_references += 1;
            return;
        }
        self.stats.subsectors += 1;
        self.subsector_order.push(num as u32);
        let front = self.fake_flat(self.sector(sub.sector), false);
        self.frontsector = front;
        let viewz = self.view.viewz;
        let sky = self.map.sky_flat;
        // Boom: a fake sector's planes are looked for whatever the height when its control
        // has a sky on the other plane.
        let control = front.heightsec.map(|c| self.sector(c));
        if front.floor < viewz || control.is_some_and(|c| c.ceilingpic == sky) {
            let look = (front.floorpic, front.floor_light, front.floor_xform, front.sky);
            self.floorplane = self.find_plane(front.floor, look);
        } else {
            self.floorplane = None;
        }
        if front.ceiling > viewz
            || front.ceilingpic == sky
            || control.is_some_and(|c| c.floorpic == sky)
        {
            let look = (front.ceilingpic, front.ceiling_light, front.ceiling_xform, front.sky);
            self.ceilingplane = self.find_plane(front.ceiling, look);
        } else {
            self.ceilingplane = None;
        }
        self.add_sprites(sub.sector);
        let first = sub.first_seg as usize;
        for i in first..first.saturating_add(sub.num_segs as usize) {
            if i >= self.map.segs.len() || self.lines_left == 0 {
                // Past the segs, or (overlapping subsectors) more segs than the map holds.
                self.stats.bad_references += 1;
                break;
            }
            self.lines_left -= 1;
            self.add_line(i);
        }
    }

    /// R_AddLine: clips the seg to the view and hands its visible columns to the solid or
    /// pass-through clipper.
    fn add_line(&mut self, index: usize) {
        let seg = self.map.segs[index];
        // A GL miniseg runs along a partition line: no wall, and nothing for the clipper.
        if seg.linedef.is_none() {
            return;
        }
        self.curline = index;
        let (v1x, v1y) = (seg.v1[0], seg.v1[1]);
        let (v2x, v2y) = (seg.v2[0], seg.v2[1]);
        let angle1 = self.point_to_angle(v1x, v1y);
        let angle2 = self.point_to_angle(v2x, v2y);
        // Back side (the seg faces away).
        if angle1.wrapping_sub(angle2) >= ANG180 {
            return;
        }
        self.rw_angle1 = angle1;
        let va = self.view.viewangle;
        let Some((x1, x2)) = self.clip_to_view(angle1.wrapping_sub(va), angle2.wrapping_sub(va))
        else {
            return;
        };
        if x1 > x2 {
            return;
        }
        let front = self.frontsector;
        let back = seg.back_sector.map(|b| self.fake_flat(self.sector(b), true));
        self.backsector = back;
        let solid = match back {
            None => true,
            // Closed door.
            Some(b) if b.ceiling <= front.floor || b.floor >= front.ceiling => true,
            // Window.
            Some(b) if b.ceiling != front.ceiling || b.floor != front.floor => false,
            // Identical floor, ceiling, flats and light on both sides and no middle texture:
            // an invisible line for triggers.
            Some(b) => {
                if b.same_ceiling_look(&front)
                    && b.same_floor_look(&front)
                    && b.light == front.light
                    && !seg.mid
                {
                    return;
                }
                false
            }
        };
        if solid {
            self.clip_solid(x1, x2 - 1);
        } else {
            self.clip_pass(x1, x2 - 1);
        }
    }

    /// R_ClipSolidWallSegment: stores the parts of `first..=last` not yet covered and adds
    /// the range to the solid list.
    fn clip_solid(&mut self, first: i32, last: i32) {
        let start = self.first_touching(first);
        let s = self.solidsegs[start];
        if first < s.0 {
            if last < s.0.wrapping_sub(1) {
                // Entirely visible: a new post.
                self.store_wall_range(first, last);
                self.solidsegs.insert(start, (first, last));
                return;
            }
            // A fragment before the post, which now starts at `first`.
            self.store_wall_range(first, s.0 - 1);
            self.solidsegs[start].0 = first;
        }
        if last <= self.solidsegs[start].1 {
            return;
        }
        let mut next = start;
        let mut new_last = last;
        let mut inside = false;
        while let Some(&after) = self.solidsegs.get(next + 1) {
            if last < after.0.wrapping_sub(1) {
                break;
            }
            // A fragment between two posts.
            self.store_wall_range(self.solidsegs[next].1.wrapping_add(1), after.0 - 1);
            next += 1;
            if last <= after.1 {
                // The end lies inside this post.
                new_last = after.1;
                inside = true;
                break;
            }
        }
        if !inside {
            // A fragment after the last post reached.
            self.store_wall_range(self.solidsegs[next].1.wrapping_add(1), last);
        }
        self.solidsegs[start].1 = new_last;
        // The posts after `start` up to `next` are now part of it.
        if next > start {
            self.solidsegs.drain(start + 1..=next);
        }
    }

    /// R_ClipPassWallSegment: stores the parts of `first..=last` not yet covered, leaving the
    /// solid list as it is.
    fn clip_pass(&mut self, first: i32, last: i32) {
        let mut start = self.first_touching(first);
        let s = self.solidsegs[start];
        if first < s.0 {
            if last < s.0.wrapping_sub(1) {
                self.store_wall_range(first, last);
                return;
            }
            self.store_wall_range(first, s.0 - 1);
        }
        if last <= self.solidsegs[start].1 {
            return;
        }
        while let Some(&after) = self.solidsegs.get(start + 1) {
            if last < after.0.wrapping_sub(1) {
                break;
            }
            self.store_wall_range(self.solidsegs[start].1 + 1, after.0 - 1);
            start += 1;
            if last <= self.solidsegs[start].1 {
                return;
            }
        }
        self.store_wall_range(self.solidsegs[start].1 + 1, last);
    }

    /// The first solid post that touches column `first` (adjacent columns touch).
    fn first_touching(&self, first: i32) -> usize {
        self.solidsegs
            .iter()
            .position(|s| s.1 >= first.wrapping_sub(1))
            .unwrap_or(self.solidsegs.len() - 1)
    }

    /// The walk's lists once every subsector is drawn: the visplanes as spans, the drawsegs
    /// indexed by seg.
    fn finish(mut self) -> WalkResult {
        let spans = self.make_spans();
        let planes = self.plane_infos();
        let (seg_first, seg_drawsegs) = drawsegs_by_seg(&self.drawsegs, self.map.segs.len());
        sort_vissprites(&mut self.vissprites);
        WalkResult {
            colormap: self.view_colormap(),
            width: self.width as u32,
            height: self.height as u32,
            coverage: Default::default(),
            wall_columns: self.wall_columns,
            spans,
            masked: self.masked,
            openings: self.openings,
            sprite_clips: self.sprite_clips,
            vissprites: self.vissprites,
            drawsegs: self.drawsegs,
            planes,
            subsectors: self.subsector_order,
            stats: self.stats,
            seg_first,
            seg_drawsegs,
        }
    }
}

/// The sector under the viewer (the BSP descended to a subsector), `None` in a broken tree.
fn viewer_sector(map: &VanillaMap, view: &VanillaView) -> Option<u32> {
    let mut child = match map.nodes.len().checked_sub(1) {
        Some(root) => u32::try_from(root).ok()?,
        None => VANILLA_NF_SUBSECTOR,
    };
    // Each step goes one level down; a cycle ends at the bound.
    for _ in 0..=map.nodes.len() {
        if child & VANILLA_NF_SUBSECTOR != 0 {
            let sub = map.subsectors.get((child & !VANILLA_NF_SUBSECTOR) as usize)?;
            return Some(sub.sector);
        }
        let node = map.nodes.get(child as usize)?;
        child = node.children[point_on_side(view.viewx, view.viewy, node)];
    }
    None
}

/// R_PointOnSide for a node of the walk's map.
fn point_on_side(x: i32, y: i32, node: &WalkNode) -> usize {
    crate::scene::doom::vanilla::point_on_side(x, y, node.x, node.y, node.dx, node.dy)
}
