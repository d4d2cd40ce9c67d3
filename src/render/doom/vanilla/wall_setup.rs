//! Per-frame wall set-up of vanilla's R_StoreWallRange for every seg (the perpendicular
//! distance, the texture offset and the centre angle) and of R_RenderSegLoop for every column
//! the walk drew (texture column, scale, light column), computed on the CPU with the same
//! fixed-point tables, as vanilla computes them once per column: the shader only steps down
//! each column.

use super::tables::{
    finetangent, fixed_div, fixed_mul, point_to_angle, point_to_dist, tantoangle, ANG180, ANG90,
    ANGLETOFINESHIFT,
};
use super::WalkResult;
use crate::scene::doom::VanillaSeg;

/// Words per seg in the column index: first column, column count, first entry.
pub const SEG_INDEX_WORDS: usize = 3;
/// Words per column entry: texture column before scrolling (16.16); then 1 / rw_scale
/// (`0xFFFFFFFF / rw_scale`, as R_RenderSegLoop sets `dc_iscale`) in the low 24 bits with the
/// light column (`rw_scale >> LIGHTSCALESHIFT` on a 320-wide screen, at most 255) above.
/// `rw_scale` is at least 256, so `dc_iscale` fits in 24 bits.
pub const COLUMN_WORDS: usize = 2;

/// Fixed tables the set-up needs, made once.
pub struct WallSetup {
    tan: Vec<u32>,
    pub sine: Vec<i32>,
    tangent: Vec<i32>,
}

/// Where [`WallSetup::columns`] put its tables in the output, in words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColumnTables {
    pub seg_index: u32,
    pub entries: u32,
}

impl WallSetup {
    pub fn new() -> WallSetup {
        WallSetup { tan: tantoangle(), sine: super::tables::finesine(), tangent: finetangent() }
    }

    /// Appends the column set-up of every column from each seg's first drawn column to its
    /// last (gaps between its ranges set up as R_StoreWallRange would set up a range there):
    /// `setup` is [`WallSetup::compute`]'s output for these segs and this viewer,
    /// `xtoviewangle` the view's table, `projection` vanilla's `centerxfrac`.
    /// Layout: [`SEG_INDEX_WORDS`] per seg, then [`COLUMN_WORDS`] per column.
    pub fn columns(
        &self,
        setup: &[u32],
        walk: &WalkResult,
        xtoviewangle: &[u32],
        projection: i32,
        out: &mut Vec<u32>,
    ) -> ColumnTables {
        let segs = setup.len() / 4;
        let width = walk.width as i32;
        let seg_index = out.len();
        out.resize(seg_index + segs * SEG_INDEX_WORDS, 0);
        let entries = out.len();
        for seg in 0..segs {
            let ranges = walk.ranges_for_seg(seg);
            let (first, last) =
                ranges.fold((i32::MAX, i32::MIN), |(a, b), d| (a.min(d.x1), b.max(d.x2)));
            if first > last {
                continue;
            }
            let first = first.max(0);
            let last = last.min(width - 1);
            if first > last {
                continue;
            }
            let base = (out.len() - entries) / COLUMN_WORDS;
            out[seg_index + seg * SEG_INDEX_WORDS..][..SEG_INDEX_WORDS].copy_from_slice(&[
                first as u32,
                (last - first + 1) as u32,
                base as u32,
            ]);
            let distance = setup[seg * 4] as i32;
            let offset = setup[seg * 4 + 1] as i32;
            let center = setup[seg * 4 + 2];
            for x in first..=last {
                let xa = xtoviewangle.get(x as usize).copied().unwrap_or(0);
                let fine = (center.wrapping_add(xa) >> ANGLETOFINESHIFT) as usize & 4095;
                let colbase = offset.wrapping_sub(fixed_mul(self.tangent[fine], distance));
                let mut scale = walk.range_at(seg, x).map(|d| d.scale_at(x)).unwrap_or(0);
                if scale == 0 {
                    scale = self.scale_from_global_angle(xa, center, distance, projection);
                }
                let iscale = (u32::MAX / scale as u32).min(0xFF_FFFF);
                let light = ((scale >> 12) as f32 * 320.0 / width as f32) as i32;
                out.extend([colbase as u32, iscale | (light.clamp(0, 255) as u32) << 24]);
            }
        }
        ColumnTables { seg_index: seg_index as u32, entries: entries as u32 }
    }

    /// R_ScaleFromGlobalAngle for the column at view angle `xa` of a seg whose normal is
    /// `center` off the view (as the shader's fallback computes it).
    fn scale_from_global_angle(&self, xa: u32, center: u32, distance: i32, projection: i32) -> i32 {
        let sinea = self.sine[(ANG90.wrapping_add(xa) >> ANGLETOFINESHIFT) as usize];
        let sineb = self.sine[(center.wrapping_add(xa) >> ANGLETOFINESHIFT) as usize];
        let num = fixed_mul(projection, sineb);
        let den = fixed_mul(distance, sinea);
        if den > num >> 16 {
            fixed_div(num, den).clamp(256, 64 << 16)
        } else {
            64 << 16
        }
    }

    /// Appends four words per seg (rw_distance, rw_offset, rw_centerangle, unused): the set-up
    /// of every seg for a viewer at (`viewx`, `viewy`) (16.16) facing
    /// `viewangle` (BAM).
    pub fn compute(
        &self,
        segs: &[VanillaSeg],
        viewx: i32,
        viewy: i32,
        viewangle: u32,
        out: &mut Vec<u32>,
    ) {
        for s in segs {
            let x1 = s.v1[0].wrapping_sub(viewx);
            let y1 = s.v1[1].wrapping_sub(viewy);
            let angle1 = point_to_angle(&self.tan, x1, y1);
            let normal = s.angle.wrapping_add(ANG90);
            let diff = normal.wrapping_sub(angle1);
            let offsetangle = (diff as i32).unsigned_abs().min(ANG90);
            let distangle = ANG90 - offsetangle;
            let hyp = point_to_dist(&self.tan, &self.sine, x1, y1);
            let sineval = self.sine[(distangle >> ANGLETOFINESHIFT) as usize];
            let distance = fixed_mul(hyp, sineval);
            let mut offset = fixed_mul(hyp, self.sine[(offsetangle >> ANGLETOFINESHIFT) as usize]);
            if diff < ANG180 {
                offset = -offset;
            }
            offset = offset.wrapping_add(s.offset);
            let center = ANG90.wrapping_add(viewangle).wrapping_sub(normal);
            out.extend([distance as u32, offset as u32, center, 0]);
        }
    }
}

impl Default for WallSetup {
    fn default() -> Self {
        WallSetup::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_straight_ahead() {
        // Viewer at the origin facing east; a wall 100 units east running south with its
        // front (right) side towards the viewer (seg angle 270°, v1 at (100, 50)):
        // distance 100, the texture column at the centre is 50.
        let w = WallSetup::new();
        let seg = VanillaSeg {
            v1: [100 << 16, 50 << 16],
            angle: super::super::tables::ANG270,
            offset: 0,
            ..Default::default()
        };
        let mut out = Vec::new();
        w.compute(&[seg], 0, 0, 0, &mut out);
        let dist = out[0] as i32 as f64 / 65536.0;
        assert!((dist - 100.0).abs() < 0.5, "{dist}");
        let offset = out[1] as i32 as f64 / 65536.0;
        // Column at the view centre: rw_offset - tan(0) * distance = rw_offset.
        assert!((offset - 50.0).abs() < 0.5, "{offset}");
    }

    #[test]
    fn point_to_angle_quadrants() {
        let t = tantoangle();
        let f = 1 << 16;
        assert_eq!(point_to_angle(&t, f, 0), 0);
        assert!((point_to_angle(&t, 0, f) as i64 - ANG90 as i64).abs() < 4);
        assert!((point_to_angle(&t, -f, 0) as i64 - ANG180 as i64).abs() < 4);
        assert!((point_to_angle(&t, f, f) as i64 - 0x2000_0000i64).abs() < 1 << 20);
    }
}
