//! Vanilla's wall ranges (r_segs.c): R_StoreWallRange and R_RenderSegLoop without texturing.
//! For each range of a seg the walk found visible: its scale at both ends and the integer step
//! between (which row each column's wall edges fall on and its light follow from them), the
//! floor and ceiling marks of the visplanes, the clip arrays that hide what lies behind, the
//! wall columns drawn, and the clips a masked middle is drawn within later. The GPU cannot
//! find these per pixel: vanilla steps the scale from the range's first column, so where a
//! range starts changes every column after it.

use super::tables::{fixed_div, fixed_mul, point_to_dist, ANG90, FRACBITS, FRACUNIT};
use super::walk::{LitSector, Walker};
use crate::scene::doom::vanilla::WalkSeg;

/// Wall edges are stepped in 4.12 fixed point.
const HEIGHTBITS: u32 = 12;
const HEIGHTUNIT: i32 = 1 << HEIGHTBITS;

/// One drawn wall range: a `drawseg_t` as `R_StoreWallRange` fills it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawSeg {
    /// Index into [`VanillaMap::segs`](crate::scene::doom::vanilla::VanillaMap::segs).
    pub seg: u32,
    /// First and last screen column, inclusive.
    pub x1: i32,
    pub x2: i32,
    /// `rw_scale` at `x1` and at `x2` (16.16), and the integer step per column
    /// (`(scale2 - scale1) / (x2 - x1)`; 0 for a one-column range, where vanilla leaves
    /// whatever the slot held).
    pub scale1: i32,
    pub scale2: i32,
    pub scalestep: i32,
    /// `rw_distance`: perpendicular distance from the viewer to the seg's line (16.16).
    pub distance: i32,
    /// The light level of the front sector as Boom's R_FakeFlat gave it, when that is its
    /// control sector's (242 seen from below or above the fake planes): the wall's light.
    pub control_light: Option<u32>,
}

impl DrawSeg {
    /// `rw_scale` at column `x` as the column loop reaches it: `scale1` plus one step a column.
    pub fn scale_at(&self, x: i32) -> i32 {
        self.scale1.wrapping_add(x.wrapping_sub(self.x1).wrapping_mul(self.scalestep))
    }

    pub fn contains(&self, x: i32) -> bool {
        (self.x1..=self.x2).contains(&x)
    }
}

/// One wall column as R_RenderSegLoop draws it: rows `yl..=yh` of column `x` (on screen),
/// drawseg `drawseg`'s seg, tier 0 (upper, or a one-sided wall's middle) or 1 (lower).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallColumn {
    pub x: u16,
    pub yl: u16,
    pub yh: u16,
    pub tier: u16,
    pub drawseg: u32,
}

/// A drawseg with a masked middle texture (`maskedtexturecol`), to be drawn after the walls
/// and flats by R_RenderMaskedSegRange, within its drawseg's sprite clips
/// ([`SpriteClip::top`], [`SpriteClip::bottom`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaskedRange {
    pub drawseg: u32,
}

/// `silhouette` bits: the drawseg hides what lies below / above its clip rows.
pub const SIL_BOTTOM: u8 = 1;
pub const SIL_TOP: u8 = 2;

/// Where one of a drawseg's sprite clip rows lies (`sprtopclip` / `sprbottomclip`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClipRow {
    /// Not saved (NULL): nothing reads it.
    #[default]
    None,
    /// `screenheightarray`: the whole column is below the clip.
    ScreenHeight,
    /// `negonearray`: the whole column is above the clip.
    NegOne,
    /// Saved from `ceilingclip` / `floorclip` after the range's columns: the drawseg's
    /// column `x1 + i` at `at + i` of [`WalkResult::openings`](super::WalkResult::openings).
    Openings(u32),
}

/// What R_DrawSprite reads of a drawseg to clip sprites behind it (`silhouette`,
/// `bsilheight`, `tsilheight`, `sprtopclip`, `sprbottomclip`, whether it has a masked middle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpriteClip {
    pub silhouette: u8,
    /// Sprites whose bottom is at or above this height are not clipped by the bottom row.
    pub bsilheight: i32,
    /// Sprites whose top is at or below this height are not clipped by the top row.
    pub tsilheight: i32,
    pub top: ClipRow,
    pub bottom: ClipRow,
    pub masked: bool,
}

impl Walker<'_> {
    /// R_ScaleFromGlobalAngle for the current wall.
    fn scale_from_global_angle(&self, visangle: u32, normalangle: u32, distance: i32) -> i32 {
        let anglea = ANG90.wrapping_add(visangle.wrapping_sub(self.view.viewangle));
        let angleb = ANG90.wrapping_add(visangle.wrapping_sub(normalangle));
        let sinea = self.view.sine(anglea);
        let sineb = self.view.sine(angleb);
        let num = fixed_mul(self.view.projection, sineb);
        let den = fixed_mul(distance, sinea);
        if den > num >> FRACBITS {
            let scale = fixed_div(num, den);
            scale.clamp(256, 64 * FRACUNIT)
        } else {
            64 * FRACUNIT
        }
    }

    /// R_StoreWallRange: the wall of the current seg over columns `start..=stop`: its scale,
    /// the floor and ceiling marks, the clip arrays, the drawn wall pixels.
    pub(super) fn store_wall_range(&mut self, start: i32, stop: i32) {
        if self.limits_reached() {
            return;
        }
        if start < 0 || start >= self.width || start > stop || stop >= self.width {
            // Vanilla: "Bad R_RenderWallRange" (cannot happen with sane tables).
            self.stats.bad_references += 1;
            return;
        }
        let seg: WalkSeg = self.map.segs[self.curline];
        let view = self.view;
        let viewz = view.viewz;

        // rw_distance.
        let normalangle = seg.angle.wrapping_add(ANG90);
        let offsetangle =
            (normalangle.wrapping_sub(self.rw_angle1) as i32).unsigned_abs().min(ANG90);
        let distangle = ANG90 - offsetangle;
        let (v1x, v1y) = (seg.v1[0], seg.v1[1]);
        let hyp = point_to_dist(
            &view.tantoangle,
            &view.finesine,
            v1x.wrapping_sub(view.viewx),
            v1y.wrapping_sub(view.viewy),
        );
        let distance = fixed_mul(hyp, view.sine(distangle));

        // Scale at both ends and the step.
        let scale1 = self.scale_from_global_angle(
            view.viewangle.wrapping_add(view.xtoviewangle[start as usize]),
            normalangle,
            distance,
        );
        let (scale2, scalestep) = if stop > start {
            let s2 = self.scale_from_global_angle(
                view.viewangle.wrapping_add(view.xtoviewangle[stop as usize]),
                normalangle,
                distance,
            );
            (s2, s2.wrapping_sub(scale1) / (stop - start))
        } else {
            (scale1, 0)
        };
        let ds_index = self.drawsegs.len() as u32;
        self.drawsegs.push(DrawSeg {
            seg: self.curline as u32,
            x1: start,
            x2: stop,
            scale1,
            scale2,
            scalestep,
            distance,
            control_light: self.frontsector.control_light.then_some(self.frontsector.light),
        });

        // Texture boundaries and whether floor / ceiling marks are needed.
        let front = self.frontsector;
        let sky = self.map.sky_flat;
        let mut worldtop = front.ceiling.wrapping_sub(viewz);
        let mut worldbottom = front.floor.wrapping_sub(viewz);
        let (mut worldhigh, mut worldlow) = (0, 0);
        let (mut toptexture, mut bottomtexture) = (false, false);
        let mut markfloor;
        let mut markceiling;
        // One-sided wall with a middle texture (two-sided middles are masked, drawn later).
        let midtexture = match self.backsector {
            None => {
                markfloor = true;
                markceiling = true;
                seg.mid
            }
            Some(back) => {
                worldhigh = back.ceiling.wrapping_sub(viewz);
                worldlow = back.floor.wrapping_sub(viewz);
                // Height changes between sky ceilings do not show.
                if front.ceilingpic == sky && back.ceilingpic == sky {
                    worldtop = worldhigh;
                }
                // Boom: a fake sector's planes are always marked, so that what lies behind
                // its lines does not bleed through them.
                markfloor = worldlow != worldbottom
                    || !back.same_floor_look(&front)
                    || back.light != front.light
                    || front.heightsec.is_some();
                markceiling = worldhigh != worldtop
                    || !back.same_ceiling_look(&front)
                    || back.light != front.light
                    || (front.heightsec.is_some() && front.ceilingpic != sky);
                if back.ceiling <= front.floor || back.floor >= front.ceiling {
                    // Closed door.
                    markceiling = true;
                    markfloor = true;
                }
                if worldhigh < worldtop {
                    toptexture = seg.top;
                }
                if worldlow > worldbottom {
                    bottomtexture = seg.bottom;
                }
                false
            }
        };
        let mut clip = self.silhouette(front, viewz);
        // Planes on the wrong side of the view plane are invisible (Boom: unless the sector
        // is a fake one).
        if front.heightsec.is_none() {
            if front.floor >= viewz {
                markfloor = false;
            }
            if front.ceiling <= viewz && front.ceilingpic != sky {
                markceiling = false;
            }
        }

        // Incremental stepping of the wall edges, 4.12 fixed point.
        worldtop >>= 4;
        worldbottom >>= 4;
        let cy = view.centeryfrac >> 4;
        let topstep = fixed_mul(scalestep, worldtop).wrapping_neg();
        let mut topfrac = cy.wrapping_sub(fixed_mul(worldtop, scale1));
        let bottomstep = fixed_mul(scalestep, worldbottom).wrapping_neg();
        let mut bottomfrac = cy.wrapping_sub(fixed_mul(worldbottom, scale1));
        let (mut pixhigh, mut pixhighstep, mut pixlow, mut pixlowstep) = (0i32, 0i32, 0i32, 0i32);
        if self.backsector.is_some() {
            worldhigh >>= 4;
            worldlow >>= 4;
            if worldhigh < worldtop {
                pixhigh = cy.wrapping_sub(fixed_mul(worldhigh, scale1));
                pixhighstep = fixed_mul(scalestep, worldhigh).wrapping_neg();
            }
            if worldlow > worldbottom {
                pixlow = cy.wrapping_sub(fixed_mul(worldlow, scale1));
                pixlowstep = fixed_mul(scalestep, worldlow).wrapping_neg();
            }
        }

        if markceiling {
            self.ceilingplane = self.ceilingplane.and_then(|p| self.check_plane(p, start, stop));
        }
        if markfloor {
            self.floorplane = self.floorplane.and_then(|p| self.check_plane(p, start, stop));
        }

        // R_RenderSegLoop.
        for x in start..=stop {
            let xi = x as usize;
            let cclip = self.ceilingclip[xi];
            let fclip = self.floorclip[xi];
            let mut yl = topfrac.wrapping_add(HEIGHTUNIT - 1) >> HEIGHTBITS;
            if yl < cclip + 1 {
                yl = cclip + 1;
            }
            if markceiling {
                let top = cclip + 1;
                let bottom = (yl - 1).min(fclip - 1);
                if top <= bottom {
                    if let Some(p) = self.ceilingplane {
                        self.planes[p].top[xi + 1] = top as u16;
                        self.planes[p].bottom[xi + 1] = bottom as u16;
                    }
                }
            }
            let mut yh = bottomfrac >> HEIGHTBITS;
            if yh >= fclip {
                yh = fclip - 1;
            }
            if markfloor {
                let top = (yh + 1).max(cclip + 1);
                let bottom = fclip - 1;
                if top <= bottom {
                    if let Some(p) = self.floorplane {
                        self.planes[p].top[xi + 1] = top as u16;
                        self.planes[p].bottom[xi + 1] = bottom as u16;
                    }
                }
            }
            if midtexture {
                // One-sided wall: the column is closed.
                self.mark_wall(ds_index, 0, x, yl, yh);
                self.ceilingclip[xi] = self.height;
                self.floorclip[xi] = -1;
            } else {
                if toptexture {
                    let mut mid = pixhigh >> HEIGHTBITS;
                    pixhigh = pixhigh.wrapping_add(pixhighstep);
                    if mid >= fclip {
                        mid = fclip - 1;
                    }
                    if mid >= yl {
                        self.mark_wall(ds_index, 0, x, yl, mid);
                        self.ceilingclip[xi] = mid;
                    } else {
                        self.ceilingclip[xi] = yl - 1;
                    }
                } else if markceiling {
                    self.ceilingclip[xi] = yl - 1;
                }
                if bottomtexture {
                    let mut mid = pixlow.wrapping_add(HEIGHTUNIT - 1) >> HEIGHTBITS;
                    pixlow = pixlow.wrapping_add(pixlowstep);
                    let cclip = self.ceilingclip[xi];
                    if mid <= cclip {
                        mid = cclip + 1;
                    }
                    if mid <= yh {
                        self.mark_wall(ds_index, 1, x, mid, yh);
                        self.floorclip[xi] = mid;
                    } else {
                        self.floorclip[xi] = yh + 1;
                    }
                } else if markfloor {
                    self.floorclip[xi] = yh + 1;
                }
            }
            topfrac = topfrac.wrapping_add(topstep);
            bottomfrac = bottomfrac.wrapping_add(bottomstep);
        }
        // Sprites behind the range, and a two-sided line's masked middle (drawn later), are
        // clipped by the clip arrays as they stand now.
        let masked = self.backsector.is_some() && seg.mid;
        let (a, b) = (start as usize, stop as usize);
        if (clip.silhouette & SIL_TOP != 0 || masked) && clip.top == ClipRow::None {
            clip.top = ClipRow::Openings(self.openings.len() as u32);
            self.openings.extend_from_slice(&self.ceilingclip[a..=b]);
        }
        if (clip.silhouette & SIL_BOTTOM != 0 || masked) && clip.bottom == ClipRow::None {
            clip.bottom = ClipRow::Openings(self.openings.len() as u32);
            self.openings.extend_from_slice(&self.floorclip[a..=b]);
        }
        if masked {
            if clip.silhouette & SIL_TOP == 0 {
                clip.silhouette |= SIL_TOP;
                clip.tsilheight = i32::MIN;
            }
            if clip.silhouette & SIL_BOTTOM == 0 {
                clip.silhouette |= SIL_BOTTOM;
                clip.bsilheight = i32::MAX;
            }
            clip.masked = true;
            self.masked.push(MaskedRange { drawseg: ds_index });
        }
        self.sprite_clips.push(clip);
    }

    /// R_StoreWallRange's silhouette of the current seg, before its columns: what hides
    /// sprites behind it, above and below (the clip rows of a two-sided line are saved once
    /// the columns are done).
    fn silhouette(&self, front: LitSector, viewz: i32) -> SpriteClip {
        let Some(back) = self.backsector else {
            // A one-sided wall hides everything behind it.
            return SpriteClip {
                silhouette: SIL_BOTTOM | SIL_TOP,
                bsilheight: i32::MAX,
                tsilheight: i32::MIN,
                top: ClipRow::ScreenHeight,
                bottom: ClipRow::NegOne,
                masked: false,
            };
        };
        let mut c = SpriteClip::default();
        if front.floor > back.floor {
            c.silhouette = SIL_BOTTOM;
            c.bsilheight = front.floor;
        } else if back.floor > viewz {
            c.silhouette = SIL_BOTTOM;
            c.bsilheight = i32::MAX;
        }
        if front.ceiling < back.ceiling {
            c.silhouette |= SIL_TOP;
            c.tsilheight = front.ceiling;
        } else if back.ceiling < viewz {
            c.silhouette |= SIL_TOP;
            c.tsilheight = i32::MIN;
        }
        // A closed door hides everything behind it.
        if back.ceiling <= front.floor {
            c.bottom = ClipRow::NegOne;
            c.bsilheight = i32::MAX;
            c.silhouette |= SIL_BOTTOM;
        }
        if back.floor >= front.ceiling {
            c.top = ClipRow::ScreenHeight;
            c.tsilheight = i32::MIN;
            c.silhouette |= SIL_TOP;
        }
        c
    }

    /// Whether `R_StoreWallRange` stores nothing more (MAXDRAWSEGS).
    fn limits_reached(&mut self) -> bool {
        match self.view.limits.max_drawsegs {
            Some(max) if self.drawsegs.len() >= max => {
                self.stats.drawsegs_dropped += 1;
                true
            }
            _ => false,
        }
    }

    /// Records the wall column drawn at `x` over rows `yl..=yh` (nothing if empty).
    fn mark_wall(&mut self, ds: u32, tier: u16, x: i32, yl: i32, yh: i32) {
        let yl = yl.max(0);
        let yh = yh.min(self.height - 1);
        if yl <= yh {
            let (x, yl, yh) = (x as u16, yl as u16, yh as u16);
            self.wall_columns.push(WallColumn { x, yl, yh, tier, drawseg: ds });
        }
    }
}
