//! The walk's view: the camera (`R_SetupFrame`) and the projection tables vanilla makes for
//! a screen size (`R_ExecuteSetViewSize`, `R_InitTextureMapping`), generalised from 320x200
//! to any size. It stands apart from the walk because more than the walk reads it: the wall
//! set-up, the canvas and the faithful shaders take their column angles and flat slopes from
//! the same tables, and a frame is vanilla-exact only if every stage agrees with the columns
//! the walk stored.

use super::tables::{
    finesine, finetangent, fixed_div, fixed_mul, tantoangle, ANG90, ANGLETOFINESHIFT, FINEANGLES,
    FRACBITS, FRACUNIT,
};

/// Fine angles across the screen width (90°).
const FIELDOFVIEW: usize = 2048;
/// Vanilla's limits (r_defs.h / r_plane.c).
pub const VANILLA_MAXDRAWSEGS: usize = 256;
pub const VANILLA_MAXVISPLANES: usize = 128;
pub const VANILLA_MAXVISSPRITES: usize = 128;
/// Largest screen side the walk accepts (larger sizes are clamped).
pub const MAX_VIEW_SIZE: u32 = 8192;

/// Limits the walk applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall ranges after which `R_StoreWallRange` stores nothing more (vanilla and Chocolate
    /// Doom: 256; the columns stay clipped, so what lies behind shows through). `None`: no
    /// limit.
    pub max_drawsegs: Option<usize>,
    /// Visplanes kept at most. Vanilla stops with an error past 128; here floors and ceilings
    /// that would need more are simply not marked. At most 65535.
    pub max_visplanes: usize,
    /// Things projected at most (vanilla: 128; R_NewVisSprite hands the rest a slot that is
    /// never drawn). `None`: no limit.
    pub max_vissprites: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_drawsegs: Some(VANILLA_MAXDRAWSEGS),
            max_visplanes: 4096,
            max_vissprites: Some(VANILLA_MAXVISSPRITES),
        }
    }
}

/// The viewer and the screen: the view position and angle (`R_SetupFrame`) and the tables
/// `R_ExecuteSetViewSize` / `R_InitTextureMapping` make for the screen size (full screen, high
/// detail: centre at (width/2, height/2), `projection = centerx << 16`, 90° across the width).
/// Make one per screen size and set the camera each frame.
#[derive(Clone, Debug)]
pub struct VanillaView {
    /// Viewer position, 16.16 fixed point (`viewz` is the eye height).
    pub viewx: i32,
    pub viewy: i32,
    pub viewz: i32,
    /// View direction (BAM, 0 = east).
    pub viewangle: u32,
    pub limits: Limits,
    pub(super) width: i32,
    pub(super) height: i32,
    pub(super) centeryfrac: i32,
    pub(super) projection: i32,
    pub(super) finesine: Vec<i32>,
    pub(super) tantoangle: Vec<u32>,
    viewangletox: Vec<i32>,
    pub(super) xtoviewangle: Vec<u32>,
    pub(super) clipangle: u32,
    yslope: Vec<i32>,
    distscale: Vec<i32>,
}

impl VanillaView {
    /// Tables for a `width` x `height` screen (each clamped to 1..=[`MAX_VIEW_SIZE`]), camera
    /// at the origin facing east.
    pub fn new(width: u32, height: u32) -> VanillaView {
        let width = width.clamp(1, MAX_VIEW_SIZE) as i32;
        let height = height.clamp(1, MAX_VIEW_SIZE) as i32;
        let centerx = width / 2;
        let centery = height / 2;
        let centerxfrac = centerx << FRACBITS;
        let tangent = finetangent();

        // R_InitTextureMapping: the focal length that makes FIELDOFVIEW span the width.
        let focallength = fixed_div(centerxfrac, tangent[FINEANGLES / 4 + FIELDOFVIEW / 2]);
        let mut viewangletox: Vec<i32> = tangent
            .iter()
            .map(|&t| {
                if t > FRACUNIT * 2 {
                    -1
                } else if t < -FRACUNIT * 2 {
                    width + 1
                } else {
                    let t = fixed_mul(t, focallength);
                    let t = (centerxfrac.wrapping_sub(t).wrapping_add(FRACUNIT - 1)) >> FRACBITS;
                    t.clamp(-1, width + 1)
                }
            })
            .collect();
        // xtoviewangle: the smallest view angle that maps to each column (viewangletox falls
        // as the angle grows, so scan the columns right to left with one index).
        let mut xtoviewangle = vec![0u32; width as usize + 1];
        let mut i = 0;
        for x in (0..=width).rev() {
            while i < viewangletox.len() && viewangletox[i] > x {
                i += 1;
            }
            xtoviewangle[x as usize] = ((i as u32) << ANGLETOFINESHIFT).wrapping_sub(ANG90);
        }
        // Take out the fencepost cases.
        for t in &mut viewangletox {
            if *t == -1 {
                *t = 0;
            } else if *t == width + 1 {
                *t = width;
            }
        }
        let clipangle = xtoviewangle[0];
        let sine = finesine();
        // R_ExecuteSetViewSize: the flat tables (yslope with the half width, not focallength).
        let yslope = (0..height)
            .map(|y| {
                let dy = (((y - centery) << FRACBITS) + FRACUNIT / 2).abs();
                fixed_div(centerxfrac, dy)
            })
            .collect();
        let distscale = xtoviewangle[..width as usize]
            .iter()
            .map(|&a| {
                let cosadj = sine[(a >> ANGLETOFINESHIFT) as usize + FINEANGLES / 4].abs();
                fixed_div(FRACUNIT, cosadj)
            })
            .collect();
        VanillaView {
            viewx: 0,
            viewy: 0,
            viewz: 0,
            viewangle: 0,
            limits: Limits::default(),
            width,
            height,
            centeryfrac: centery << FRACBITS,
            projection: centerxfrac,
            finesine: sine,
            tantoangle: tantoangle(),
            yslope,
            distscale,
            viewangletox,
            xtoviewangle,
            clipangle,
        }
    }

    /// Sets the camera: position in 16.16 fixed point, angle in BAM.
    pub fn set_camera(&mut self, viewx: i32, viewy: i32, viewz: i32, viewangle: u32) {
        self.viewx = viewx;
        self.viewy = viewy;
        self.viewz = viewz;
        self.viewangle = viewangle;
    }

    /// The same view with the camera at the given place.
    pub fn at(mut self, viewx: i32, viewy: i32, viewz: i32, viewangle: u32) -> VanillaView {
        self.set_camera(viewx, viewy, viewz, viewangle);
        self
    }

    pub fn width(&self) -> u32 {
        self.width as u32
    }

    pub fn height(&self) -> u32 {
        self.height as u32
    }

    /// `xtoviewangle[0..=width]` as vanilla builds it for this width.
    pub fn xtoviewangle(&self) -> &[u32] {
        &self.xtoviewangle
    }

    /// `viewangletox[FINEANGLES/2]` (fencepost cases already taken out).
    pub fn viewangletox(&self) -> &[i32] {
        &self.viewangletox
    }

    /// `yslope[height]` (r_main.c): `FixedDiv(width/2 << 16, |row - centery + 0.5|)`.
    pub fn yslope(&self) -> &[i32] {
        &self.yslope
    }

    /// `distscale[width]`: `FixedDiv(FRACUNIT, |finecosine[xtoviewangle[x]]|)`.
    pub fn distscale(&self) -> &[i32] {
        &self.distscale
    }

    /// The centre row (`centery`).
    pub fn centery(&self) -> i32 {
        self.centeryfrac >> FRACBITS
    }

    /// `projection` (`centerxfrac`): the focal length in pixels, 16.16.
    pub fn projection(&self) -> i32 {
        self.projection
    }

    /// `clipangle` (= `xtoviewangle[0]`).
    pub fn clipangle(&self) -> u32 {
        self.clipangle
    }

    pub(super) fn sine(&self, angle: u32) -> i32 {
        self.finesine[(angle >> ANGLETOFINESHIFT) as usize]
    }

    pub(super) fn angle_to_x(&self, angle: u32) -> i32 {
        let i = (angle.wrapping_add(ANG90) >> ANGLETOFINESHIFT) as usize;
        self.viewangletox.get(i).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::doom::vanilla::tables::view_tables;

    #[test]
    fn column_angles_against_the_gpu_tables() {
        // tables::view_tables takes the focal length as given (160 at 320 wide);
        // vanilla's R_InitTextureMapping uses FixedDiv(centerxfrac, finetangent[3072]).
        let v = VanillaView::new(320, 200);
        let g = view_tables(320, 200, 160.0, 160, 100);
        let differ: Vec<usize> =
            (0..=320).filter(|&x| v.xtoviewangle()[x] != g.xtoviewangle[x]).collect();
        println!("xtoviewangle columns differing from view_tables(focal 160): {differ:?}");
        // With vanilla's focal length view_tables gives vanilla's column angles (but then its
        // yslope, which vanilla makes with the half width, is off).
        let focal = fixed_div(160 << 16, finetangent()[FINEANGLES / 4 + FIELDOFVIEW / 2]);
        let g = view_tables(320, 200, focal as f64 / 65536.0, 160, 100);
        assert_eq!(v.xtoviewangle(), &g.xtoviewangle[..]);
        assert_eq!(v.distscale(), &g.distscale[..]);
        println!("vanilla focallength at 320: {focal} ({})", focal as f64 / 65536.0);
    }

    #[test]
    fn vanilla_320_tables() {
        let v = VanillaView::new(320, 200);
        assert_eq!(v.xtoviewangle().len(), 321);
        // The screen spans about ±45°.
        let clip = v.clipangle() as i32;
        assert!((clip - (1 << 29)).abs() < 1 << 22, "{clip:x}");
        // Straight ahead is the centre column.
        assert_eq!(v.angle_to_x(0), 160);
        assert_eq!(v.angle_to_x(v.clipangle()), 0);
        assert_eq!(v.angle_to_x(v.clipangle().wrapping_neg()), 320);
        // viewangletox and xtoviewangle agree: column x's angle maps back to x.
        for x in 0..320 {
            assert_eq!(v.angle_to_x(v.xtoviewangle()[x]), x as i32, "column {x}");
        }
    }
}
