//! Saturn colour words and the subtractive vertex light.
//!
//! A colour word is the VDP1/VDP2 "RGB code": bit 15 is the MSB flag, bits 14-10 blue,
//! 9-5 green, 4-0 red (the seed calls it "rgba5551"; the hardware manuals give this order).

/// Light indices run 0..=17; index 17 leaves a texel unchanged.
pub const LIGHT_LEVELS: usize = 18;

/// Signed offsets (red, green, blue) added to a texel's 5-bit channels for each vertex light
/// index. Red is always reduced at least as much as green and blue, which gives the default
/// lighting its blue/green hue.
pub const LIGHT_OFFSETS: [[i8; 3]; LIGHT_LEVELS] = [
    [-16, -16, -16],
    [-16, -15, -15],
    [-15, -14, -14],
    [-14, -13, -13],
    [-13, -12, -12],
    [-12, -11, -11],
    [-11, -10, -10],
    [-10, -9, -9],
    [-9, -8, -8],
    [-8, -7, -7],
    [-7, -6, -6],
    [-6, -5, -5],
    [-5, -4, -4],
    [-4, -3, -3],
    [-3, -2, -2],
    [-2, -1, -1],
    [-1, 0, 0],
    [0, 0, 0],
];

/// A decoded colour word: 5-bit channels and the MSB flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb555 {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub msb: bool,
}

impl Rgb555 {
    pub fn from_word(word: u16) -> Rgb555 {
        Rgb555 {
            r: (word & 31) as u8,
            g: ((word >> 5) & 31) as u8,
            b: ((word >> 10) & 31) as u8,
            msb: word & 0x8000 != 0,
        }
    }

    pub fn channels(self) -> [u8; 3] {
        [self.r, self.g, self.b]
    }

    /// 8-bit colour with the bit replication the fixtures and most emulators use.
    pub fn to_rgb8(self) -> [u8; 3] {
        self.channels().map(expand5)
    }
}

/// 5-bit channel to 8 bits: `(v << 3) | (v >> 2)`.
pub fn expand5(v: u8) -> u8 {
    let v = v & 31;
    (v << 3) | (v >> 2)
}

/// Light indices past the table are treated as the brightest (unlit) level.
pub fn clamp_light(index: u8) -> u8 {
    index.min(LIGHT_LEVELS as u8 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_layout_is_msb_blue_green_red() {
        let c = Rgb555::from_word(0x8000 | (20 << 10) | (9 << 5) | 12);
        assert_eq!((c.r, c.g, c.b, c.msb), (12, 9, 20, true));
        assert_eq!(c.to_rgb8(), [99, 74, 165]);
    }

    #[test]
    fn light_table_darkens_red_most_and_leaves_index_17_unlit() {
        assert_eq!(LIGHT_OFFSETS[17], [0, 0, 0]);
        assert_eq!(LIGHT_OFFSETS[0], [-16, -16, -16]);
        for (i, o) in LIGHT_OFFSETS.iter().enumerate() {
            assert!(o[0] <= o[1] && o[1] == o[2], "{i}: {o:?}");
        }
        assert_eq!(clamp_light(200), 17);
    }
}
