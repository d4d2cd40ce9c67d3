//! Doom's fixed-point view tables (tables.c, r_main.c R_InitTextureMapping / R_InitLightTables,
//! r_plane.c R_InitPlanes), generalised from the 320x200 screen to any viewport so the
//! faithful shaders can repeat the vanilla arithmetic per pixel.
//!
//! The sine, tangent and arctangent tables are regenerated rather than copied, the way the
//! originals were made: with pi written as 3.141592657 (the constant id's Wolfenstein 3-D
//! headers carry, and RealDOOM's tables.h), in double precision, with the angle or the result
//! passed through single precision where the original generator kept a `float`. Every entry
//! then equals vanilla's (checked against the tables of Chocolate Doom's binary: see the
//! tests' checksums); the plain definitions miss 33 sines, 200 tangents and 1880 arctangents
//! by a unit or more, which moved a flat texel or a wall edge where a value sat on a boundary.

pub const FRACBITS: u32 = 16;
pub const FRACUNIT: i32 = 1 << FRACBITS;
pub const FINEANGLES: usize = 8192;
pub const ANGLETOFINESHIFT: u32 = 19;
pub const ANG90: u32 = 0x4000_0000;
pub const LIGHTLEVELS: usize = 16;
pub const MAXLIGHTSCALE: usize = 48;
pub const MAXLIGHTZ: usize = 128;
pub const NUMCOLORMAPS: i32 = 32;

pub fn fixed_mul(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> FRACBITS) as i32
}

/// FixedDiv with vanilla's overflow guard.
pub fn fixed_div(a: i32, b: i32) -> i32 {
    if (a.unsigned_abs() >> 14) >= b.unsigned_abs() {
        if (a ^ b) < 0 {
            i32::MIN
        } else {
            i32::MAX
        }
    } else {
        (((a as i64) << FRACBITS) / b as i64) as i32
    }
}

/// Pi as the tables' generator had it (one digit off in the ninth decimal place).
const TABLE_PI: f64 = 3.141592657;

/// Rounds to single precision, as storing into a C `float` does.
fn single(v: f64) -> f64 {
    v as f32 as f64
}

/// `finesine[10240]`: a quarter turn extra so `finecosine[i] = finesine[i + 2048]`. The angle
/// of entry `i` is the middle of its fine angle, `(i + 0.5) * 2pi / 8192`, held in a float.
pub fn finesine() -> Vec<i32> {
    (0..FINEANGLES * 5 / 4)
        .map(|i| single((i as f64 + 0.5) * TABLE_PI / (FINEANGLES / 2) as f64))
        .map(|a| (a.sin() * FRACUNIT as f64) as i32)
        .collect()
}

/// `finetangent[4096]`, covering -90°..+90° at the middles of the fine angles; angle and
/// fixed-point result each held in a float.
pub fn finetangent() -> Vec<i32> {
    (0..FINEANGLES / 2)
        .map(|i| {
            let a = single(
                (i as f64 - FINEANGLES as f64 / 4.0 + 0.5) * TABLE_PI / (FINEANGLES / 2) as f64,
            );
            single(a.tan() * FRACUNIT as f64) as i32
        })
        .collect()
}

/// Vanilla light tables: start colormap for each of the 16 light levels.
fn startmap(level: usize) -> i32 {
    ((LIGHTLEVELS - 1 - level) * 2) as i32 * NUMCOLORMAPS / LIGHTLEVELS as i32
}

/// `zlight[16][128]`: colormap for flats by light level and `distance >> 20`.
pub fn zlight() -> Vec<u32> {
    let mut out = Vec::with_capacity(LIGHTLEVELS * MAXLIGHTZ);
    for level in 0..LIGHTLEVELS {
        for j in 0..MAXLIGHTZ {
            let scale = fixed_div(160 * FRACUNIT, ((j + 1) as i32) << 20) >> 12;
            let map = (startmap(level) - scale / 2).clamp(0, NUMCOLORMAPS - 1);
            out.push(map as u32);
        }
    }
    out
}

/// `scalelight[16][48]`: colormap for walls and sprites by light level and `scale >> 12`
/// (as at 320 wide; other widths use the same table on a 320-equivalent scale).
pub fn scalelight() -> Vec<u32> {
    let mut out = Vec::with_capacity(LIGHTLEVELS * MAXLIGHTSCALE);
    for level in 0..LIGHTLEVELS {
        for j in 0..MAXLIGHTSCALE {
            let map = (startmap(level) - j as i32 / 2).clamp(0, NUMCOLORMAPS - 1);
            out.push(map as u32);
        }
    }
    out
}

/// Per-viewport tables: `xtoviewangle`, `yslope`, `distscale`, computed for any focal length
/// and centre. Frames use [`VanillaView`](super::VanillaView)'s, built as R_ExecuteSetViewSize
/// builds them; these stay as the tests' independent check of those.
#[cfg(test)]
pub struct ViewTables {
    pub xtoviewangle: Vec<u32>,
    pub yslope: Vec<i32>,
    pub distscale: Vec<i32>,
}

/// Builds the viewport tables for `width` x `height` with horizontal focal length `focal`
/// pixels (160 for vanilla's 320 columns at 90°) and the projection centre at `centerx`,
/// `centery` (vanilla: 160, 100).
#[cfg(test)]
pub fn view_tables(width: u32, height: u32, focal: f64, centerx: i32, centery: i32) -> ViewTables {
    let tangent = finetangent();
    let sine = finesine();
    let focal_fixed = (focal * FRACUNIT as f64) as i32;
    let centerxfrac = centerx << FRACBITS;
    let w = width as i32;

    // viewangletox: screen column of each fine angle's ray.
    let limit = 2 * FRACUNIT;
    let viewangletox: Vec<i32> = tangent
        .iter()
        .map(|&t| {
            if t > limit {
                -1
            } else if t < -limit {
                w + 1
            } else {
                let x = (centerxfrac - fixed_mul(t, focal_fixed) + FRACUNIT - 1) >> FRACBITS;
                x.clamp(-1, w + 1)
            }
        })
        .collect();

    // xtoviewangle: the smallest angle that maps to each column.
    let xtoviewangle = (0..=w)
        .map(|x| {
            let i = viewangletox.iter().position(|&vx| vx <= x).unwrap_or(tangent.len());
            ((i as u32) << ANGLETOFINESHIFT).wrapping_sub(ANG90)
        })
        .collect::<Vec<u32>>();

    let yslope = (0..height as i32)
        .map(|i| {
            let dy = (((i - centery) << FRACBITS) + FRACUNIT / 2).abs();
            fixed_div(focal_fixed, dy)
        })
        .collect();

    let distscale = (0..width as usize)
        .map(|x| {
            let fine = (xtoviewangle[x] >> ANGLETOFINESHIFT) as usize;
            let cosadj = sine[(fine + FINEANGLES / 4) % sine.len()].abs();
            fixed_div(FRACUNIT, cosadj.max(1))
        })
        .collect();

    ViewTables { xtoviewangle, yslope, distscale }
}

pub const SLOPERANGE: u32 = 2048;
pub const ANG180: u32 = 0x8000_0000;
pub const ANG270: u32 = 0xC000_0000;

/// `tantoangle[2049]`: the angle (BAM) whose tangent is i / 2048, held in a float.
pub fn tantoangle() -> Vec<u32> {
    (0..=SLOPERANGE)
        .map(|i| {
            let a = (i as f64 / SLOPERANGE as f64).atan();
            single(a / (2.0 * TABLE_PI) * 4294967296.0) as u32
        })
        .collect()
}

fn slope_div(num: u32, den: u32) -> usize {
    if den < 512 {
        return SLOPERANGE as usize;
    }
    let ans = (num << 3) / (den >> 8);
    ans.min(SLOPERANGE) as usize
}

/// R_PointToAngle for a point relative to the viewer (fixed point).
pub fn point_to_angle(tan: &[u32], x: i32, y: i32) -> u32 {
    if x == 0 && y == 0 {
        return 0;
    }
    let (ux, uy) = (x.unsigned_abs(), y.unsigned_abs());
    let t = |n: u32, d: u32| tan[slope_div(n, d)];
    match (x >= 0, y >= 0) {
        (true, true) if ux > uy => t(uy, ux),
        (true, true) => (ANG90 - 1).wrapping_sub(t(ux, uy)),
        (true, false) if ux > uy => t(uy, ux).wrapping_neg(),
        (true, false) => ANG270.wrapping_add(t(ux, uy)),
        (false, true) if ux > uy => (ANG180 - 1).wrapping_sub(t(uy, ux)),
        (false, true) => ANG90.wrapping_add(t(ux, uy)),
        (false, false) if ux > uy => ANG180.wrapping_add(t(uy, ux)),
        (false, false) => (ANG270 - 1).wrapping_sub(t(ux, uy)),
    }
}

/// R_PointToDist for a point relative to the viewer (fixed point).
pub fn point_to_dist(tan: &[u32], sine: &[i32], x: i32, y: i32) -> i32 {
    let (mut dx, mut dy) = (x.unsigned_abs() as i32, y.unsigned_abs() as i32);
    if dy > dx {
        std::mem::swap(&mut dx, &mut dy);
    }
    let angle = if dx != 0 {
        let slope = (fixed_div(dy, dx) >> 5).clamp(0, SLOPERANGE as i32) as usize;
        (tan[slope].wrapping_add(ANG90) >> ANGLETOFINESHIFT) as usize
    } else {
        0
    };
    fixed_div(dx, sine[angle % sine.len()].max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sum and the position-weighted sum (entry i counted i + 1 times) of a table.
    fn checksums(table: impl Iterator<Item = i64>) -> (i64, i64) {
        table
            .enumerate()
            .fold((0, 0), |(sum, weighted), (i, v)| (sum + v, weighted + (i as i64 + 1) * v))
    }

    #[test]
    fn sine_tangent_and_arctangent_equal_the_originals() {
        // Checksums of vanilla's tables as Chocolate Doom's binary holds them, and entries
        // the plain definitions get wrong.
        let s = finesine();
        assert_eq!(s.len(), 10240);
        assert_eq!(checksums(s.iter().map(|&v| v as i64)), (85444615, 111445532230));
        assert_eq!((s[0], s[771], s[3212]), (25, 36555, 41088));
        let t = finetangent();
        assert_eq!(t.len(), 4096);
        assert_eq!(checksums(t.iter().map(|&v| v as i64)), (0, 2955156920136));
        assert_eq!((t[0], t[47], t[2048]), (-170910304, -1798063, 25));
        let a = tantoangle();
        assert_eq!(a.len(), 2049);
        assert_eq!(checksums(a.iter().map(|&v| v as i64)), (614597232870, 819423954476946));
        assert_eq!((a[20], a[2048]), (6675230, 536870912));
    }

    #[test]
    fn vanilla_320_view_tables() {
        let v = view_tables(320, 200, 160.0, 160, 100);
        // Centre column looks straight ahead; the edges at about ±45°.
        let a = v.xtoviewangle[160] as i32;
        assert!(a.unsigned_abs() < 1 << 24, "{a:x}");
        let left = v.xtoviewangle[0] as i32;
        assert!((left - (1 << 29)).abs() < 1 << 22, "{left:x}");
        // yslope at the row just below the centre is focal / 0.5.
        assert_eq!(v.yslope[100], 320 * FRACUNIT);
        assert_eq!(v.yslope[99], 320 * FRACUNIT);
    }

    #[test]
    fn light_tables_follow_startmap() {
        let z = zlight();
        // Light level 15 right in front: colormap 0; far away it darkens.
        assert_eq!(z[15 * MAXLIGHTZ], 0);
        // Level 8 (startmap 28): bright up close, colormap 28 far away.
        assert_eq!(z[8 * MAXLIGHTZ], 0);
        assert_eq!(z[8 * MAXLIGHTZ + 127], 28);
        let s = scalelight();
        assert_eq!(s[0], 31); // level 0, far: darkest map
        assert_eq!(s[15 * MAXLIGHTSCALE + 47], 0);
    }
}
