//! The demo palette (16 ramps of 16 shades: greys, then hues) and its COLORMAP, computed the
//! way Doom's tools did: light map `m` scales every colour by `1 - m/32` and picks the nearest
//! palette entry; map 32 is the inverse-grey invulnerability map, map 33 all black.

/// Ramp numbers: palette index = `ramp * 16 + shade`, shade 0 darkest .. 15 brightest.
pub mod ramp {
    pub const GREY: u8 = 0;
    pub const RED: u8 = 1;
    pub const ORANGE: u8 = 2;
    pub const TAN: u8 = 3;
    pub const YELLOW: u8 = 4;
    pub const OLIVE: u8 = 5;
    pub const GREEN: u8 = 6;
    pub const LIME: u8 = 7;
    pub const TEAL: u8 = 8;
    pub const SKY: u8 = 9;
    pub const BLUE: u8 = 10;
    pub const INDIGO: u8 = 11;
    pub const PURPLE: u8 = 12;
    pub const SKIN: u8 = 13;
    pub const STEEL: u8 = 14;
    pub const STONE: u8 = 15;
}

/// Palette index 0: black (COLORMAP 33 maps everything here).
pub const BLACK: u8 = 0;

/// The palette index of `shade` (clamped to 0..15) in `ramp`.
pub fn c(ramp: u8, shade: i32) -> u8 {
    ramp * 16 + shade.clamp(0, 15) as u8
}

/// Fully lit colour of each hue ramp (ramp 0, the greys, is built separately).
const HUES: [[f64; 3]; 16] = [
    [0.0, 0.0, 0.0],
    [200.0, 36.0, 28.0],   // red
    [232.0, 118.0, 30.0],  // orange
    [176.0, 132.0, 88.0],  // tan
    [236.0, 208.0, 52.0],  // yellow
    [140.0, 150.0, 60.0],  // olive
    [52.0, 150.0, 56.0],   // green
    [110.0, 232.0, 40.0],  // lime (nukage)
    [34.0, 170.0, 160.0],  // teal
    [90.0, 150.0, 228.0],  // sky blue
    [40.0, 70.0, 200.0],   // blue
    [86.0, 60.0, 168.0],   // indigo
    [160.0, 56.0, 160.0],  // purple
    [214.0, 150.0, 116.0], // skin
    [112.0, 128.0, 150.0], // steel
    [136.0, 124.0, 110.0], // stone (warm grey)
];

/// The 256 colours.
pub fn palette() -> [[u8; 3]; 256] {
    let mut pal = [[0u8; 3]; 256];
    for (i, p) in pal.iter_mut().enumerate() {
        let (r, k) = (i / 16, (i % 16) as f64);
        *p = if r == 0 {
            [(k * 17.0) as u8; 3]
        } else {
            let base = HUES[r];
            let mut out = [0u8; 3];
            for ch in 0..3 {
                // Shades 0..10 darken towards black, 11..15 lighten towards white.
                let v = if k <= 10.0 {
                    base[ch] * (k + 1.0) / 11.0
                } else {
                    base[ch] + (255.0 - base[ch]) * (k - 10.0) / 5.0 * 0.6
                };
                out[ch] = (v + 0.5).min(255.0) as u8;
            }
            out
        };
    }
    pal
}

/// Weighted squared distance between two colours.
fn distance(a: [i32; 3], b: [u8; 3]) -> i32 {
    let d = [a[0] - b[0] as i32, a[1] - b[1] as i32, a[2] - b[2] as i32];
    3 * d[0] * d[0] + 4 * d[1] * d[1] + 2 * d[2] * d[2]
}

/// The palette entry nearest to `rgb` among `candidates` (first one on ties).
pub fn nearest(pal: &[[u8; 3]; 256], rgb: [i32; 3], candidates: impl Iterator<Item = usize>) -> u8 {
    let mut best = (i32::MAX, 0usize);
    for i in candidates {
        let d = distance(rgb, pal[i]);
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1 as u8
}

/// COLORMAP: 34 maps of 256 indices.
pub fn colormap(pal: &[[u8; 3]; 256]) -> Vec<u8> {
    let mut out = Vec::with_capacity(34 * 256);
    for m in 0..32i32 {
        for p in pal {
            // Scale by (32 - m) / 32, rounded.
            let rgb = p.map(|v| (v as i32 * (32 - m) + 16) / 32);
            out.push(nearest(pal, rgb, 0..256));
        }
    }
    // Invulnerability: inverted luminance, as a grey.
    for p in pal {
        let lum = (p[0] as i32 * 299 + p[1] as i32 * 587 + p[2] as i32 * 114) / 1000;
        let g = 255 - lum;
        out.push(nearest(pal, [g, g, g], 0..16));
    }
    out.extend([BLACK; 256]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colormap_zero_is_identity_and_maps_darken() {
        let pal = palette();
        let cm = colormap(&pal);
        assert_eq!(cm.len(), 34 * 256);
        for i in 0..256 {
            assert_eq!(pal[cm[i] as usize], pal[i]);
            let lum = |c: [u8; 3]| c.iter().map(|&v| v as u32).sum::<u32>();
            assert!(lum(pal[cm[31 * 256 + i] as usize]) <= lum(pal[i]));
        }
        assert!(cm[33 * 256..].iter().all(|&v| v == BLACK));
        assert_eq!(pal[BLACK as usize], [0, 0, 0]);
    }
}
