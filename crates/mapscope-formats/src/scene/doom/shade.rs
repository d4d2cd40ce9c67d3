//! What Doom's world vertices hold in [`crate::scene::WorldVertex::shade`] (read by
//! `shaders/doom.wgsl`).

/// Byte 1's bits: byte 0 is the surface's own alpha (else Boom 260's 2/3); additive.
pub const OWN_ALPHA: u8 = 1;
pub const ADDITIVE: u8 = 2;

/// A translucent middle drawn at `alpha` (0..255), added to what is behind when
/// `additive` (ZDoom's line alpha and render style).
pub fn line_style(alpha: u8, additive: bool) -> [u8; 4] {
    [alpha, OWN_ALPHA | if additive { ADDITIVE } else { 0 }, 0, 0]
}

/// Bytes 2 and 3: the surface's sector colour, the number of its (light, fade) pair in
/// [`super::vanilla::VanillaMap::colors`] plus one (0: none).
pub fn sector_color(number: u16) -> [u8; 2] {
    number.to_le_bytes()
}
