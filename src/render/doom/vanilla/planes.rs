//! Vanilla's visplanes (r_plane.c): R_FindPlane and R_CheckPlane as the walk marks the floor
//! and ceiling rows each wall leaves open, and R_MakeSpans turning the marked columns into
//! row spans once the walk is done. A flat pixel's texel depends on where its span starts
//! (R_MapPlane steps across the flat from the span's first column), and only this
//! bookkeeping knows where that is.

use super::result::NO_PLANE;
use super::view::VANILLA_MAXVISPLANES;
use super::walk::Walker;
use crate::scene::doom::vanilla::FlatXform;

/// An unmarked visplane column (vanilla: `top[x] == 0xff`).
const UNMARKED: u16 = u16::MAX;

/// One flat span as R_MakeSpans hands it to R_MapPlane: row `y`, columns `x1..=x2` (on
/// screen) of visplane `plane`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub y: u16,
    pub x1: u16,
    pub x2: u16,
    pub plane: u16,
}

/// A visplane after the walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaneInfo {
    /// Height (16.16) as stored: 0 for sky planes.
    pub height: i32,
    pub picnum: u32,
    /// Light level as stored: 0 for sky planes.
    pub lightlevel: u32,
    /// Flat placement (UDMF; identity for vanilla maps and the sky).
    pub xform: FlatXform,
    /// Whether this is the sky (drawn by columns in vanilla; its pixels still get span
    /// starts here, which the sky does not use).
    pub sky: bool,
    /// Which sky: 0 the level's, else 1 + an index into the map's transferred skies.
    pub sky_index: u32,
    /// Column range (`minx > maxx` for a plane that was never marked).
    pub minx: i32,
    pub maxx: i32,
}

/// What tells visplanes apart (R_FindPlane's test): height, flat, raw light level, the
/// UDMF flat placement (as in ZDoom), and which sky (MBF gives a transferred sky's planes a
/// picture number of their own).
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlaneLook {
    height: i32,
    picnum: u32,
    lightlevel: u32,
    xform: FlatXform,
    sky: u32,
}

/// A visplane (`visplane_t`) while the walk marks it.
pub(super) struct Visplane {
    look: PlaneLook,
    minx: i32,
    maxx: i32,
    /// Column x at index x + 1, so `top[-1]` and `top[width]` exist as in vanilla.
    pub(super) top: Vec<u16>,
    pub(super) bottom: Vec<u16>,
}

impl Walker<'_> {
    /// R_FindPlane: the first visplane with this height, flat and light (all skies showing
    /// one texture are one), or a new one; a UDMF flat placement tells planes apart too (as in
    /// ZDoom). `look` is the flat, its light, its placement and the sector's sky.
    pub(super) fn find_plane(
        &mut self,
        height: i32,
        (picnum, lightlevel, xform, sky): (u32, u32, FlatXform, u32),
    ) -> Option<usize> {
        let look = if picnum == self.map.sky_flat {
            PlaneLook { height: 0, picnum, lightlevel: 0, xform: FlatXform::default(), sky }
        } else {
            PlaneLook { height, picnum, lightlevel, xform, sky: 0 }
        };
        if let Some(i) = self.planes.iter().position(|p| p.look == look) {
            return Some(i);
        }
        self.new_plane(look, self.width, -1)
    }

    /// R_CheckPlane: keeps plane `pl` for columns `start..=stop` if none of them is marked in
    /// it yet (widening its range), or makes a new plane with the same height, flat and light.
    pub(super) fn check_plane(&mut self, pl: usize, start: i32, stop: i32) -> Option<usize> {
        let p = &mut self.planes[pl];
        let (intrl, unionl) = if start < p.minx { (p.minx, start) } else { (start, p.minx) };
        let (intrh, unionh) = if stop > p.maxx { (p.maxx, stop) } else { (stop, p.maxx) };
        let marked =
            (intrl.max(0)..=intrh.min(self.width - 1)).any(|x| p.top[x as usize + 1] != UNMARKED);
        if !marked {
            p.minx = unionl;
            p.maxx = unionh;
            return Some(pl);
        }
        let look = p.look;
        self.new_plane(look, start, stop)
    }

    fn new_plane(&mut self, look: PlaneLook, minx: i32, maxx: i32) -> Option<usize> {
        if self.planes.len() >= self.view.limits.max_visplanes.min(NO_PLANE as usize) {
            self.stats.visplanes_dropped += 1;
            return None;
        }
        let n = self.width as usize + 2;
        self.planes.push(Visplane { look, minx, maxx, top: vec![UNMARKED; n], bottom: vec![0; n] });
        if self.planes.len() > VANILLA_MAXVISPLANES {
            self.stats.exceeds_vanilla_visplanes = true;
        }
        Some(self.planes.len() - 1)
    }

    /// R_DrawPlanes without the drawing: each plane's spans (R_MakeSpans) in plane order, a
    /// later plane overwriting an earlier one as vanilla's drawing would.
    pub(super) fn make_spans(&mut self) -> Vec<Span> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut spanstart = vec![0i32; h];
        let mut spans = Vec::new();
        for (id, p) in self.planes.iter_mut().enumerate() {
            if p.minx > p.maxx {
                continue;
            }
            let (minx, maxx) = (p.minx.max(0), p.maxx.min(self.width - 1));
            // The columns just outside the range read as unmarked.
            p.top[minx as usize] = UNMARKED;
            p.top[maxx as usize + 2] = UNMARKED;
            let mut map_plane = |y: u32, x1: i32, x2: i32| {
                let (x1, x2) = (x1.max(0), x2.min(w as i32 - 1));
                if x1 <= x2 && (y as usize) < h {
                    let (y, x1, x2) = (y as u16, x1 as u16, x2 as u16);
                    spans.push(Span { y, x1, x2, plane: id as u16 });
                }
            };
            for x in minx..=maxx + 1 {
                let i = x as usize; // column x - 1 at index i, column x at i + 1
                let (mut t1, mut b1) = (p.top[i] as u32, p.bottom[i] as u32);
                let (mut t2, mut b2) = (p.top[i + 1] as u32, p.bottom[i + 1] as u32);
                // Rows that end in this column.
                while t1 < t2 && t1 <= b1 {
                    if let Some(&s) = spanstart.get(t1 as usize) {
                        map_plane(t1, s, x - 1);
                    }
                    t1 += 1;
                }
                while b1 > b2 && b1 >= t1 {
                    if let Some(&s) = spanstart.get(b1 as usize) {
                        map_plane(b1, s, x - 1);
                    }
                    b1 -= 1;
                }
                // Rows that start in this column.
                while t2 < t1 && t2 <= b2 {
                    if let Some(s) = spanstart.get_mut(t2 as usize) {
                        *s = x;
                    }
                    t2 += 1;
                }
                while b2 > b1 && b2 >= t2 {
                    if let Some(s) = spanstart.get_mut(b2 as usize) {
                        *s = x;
                    }
                    b2 -= 1;
                }
            }
        }
        spans
    }

    /// The visplanes as the walk leaves them.
    pub(super) fn plane_infos(&self) -> Vec<PlaneInfo> {
        self.planes
            .iter()
            .map(|p| PlaneInfo {
                height: p.look.height,
                picnum: p.look.picnum,
                lightlevel: p.look.lightlevel,
                xform: p.look.xform,
                sky: p.look.picnum == self.map.sky_flat,
                sky_index: p.look.sky,
                minx: p.minx,
                maxx: p.maxx,
            })
            .collect()
    }
}
