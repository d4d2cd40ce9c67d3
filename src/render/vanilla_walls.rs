//! Per-frame wall set-up of vanilla's R_StoreWallRange for every seg: the perpendicular
//! distance, the texture offset and the centre angle, computed on the CPU with the same
//! fixed-point tables so the shader only repeats the per-column steps.

use super::vanilla_tables::{
    fixed_mul, point_to_angle, point_to_dist, tantoangle, ANG180, ANG90, ANGLETOFINESHIFT,
};
use crate::scene::VanillaSeg;

/// Fixed tables the set-up needs, made once.
pub struct WallSetup {
    tan: Vec<u32>,
    sine: Vec<i32>,
}

impl WallSetup {
    pub fn new() -> WallSetup {
        WallSetup { tan: tantoangle(), sine: super::vanilla_tables::finesine() }
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
            let x1 = (s.v1[0] << 16).wrapping_sub(viewx);
            let y1 = (s.v1[1] << 16).wrapping_sub(viewy);
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
            offset = offset.wrapping_add(s.offset << 16);
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
        let seg =
            VanillaSeg { v1: [100, 50], angle: super::super::vanilla_tables::ANG270, offset: 0 };
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
