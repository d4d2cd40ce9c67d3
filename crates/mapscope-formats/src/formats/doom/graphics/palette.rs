//! PLAYPAL (14 palettes of 256 RGB triples; palette 0 is the normal one) and COLORMAP
//! (34 maps of 256 indices: 0..31 light levels, 32 invulnerability, 33 all black).

use crate::formats::Result;

use crate::formats::doom::archive::wad::WadStack;

pub const COLORMAP_COUNT: usize = 34;
pub const COLORMAP_SIZE: usize = COLORMAP_COUNT * 256;

/// Palette 0 of PLAYPAL.
pub fn load_palette(stack: &WadStack) -> Result<Vec<[u8; 3]>> {
    let lump = stack.lump("PLAYPAL").ok_or_else(|| missing(stack, "PLAYPAL"))?;
    let mut r = lump.reader("PLAYPAL");
    let bytes = r.bytes(768)?;
    Ok(bytes.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect())
}

/// All 34 colour maps, 256 bytes each. A COLORMAP holding only the 32 light maps (some
/// third-party IWADs) is padded: map 32 becomes a copy of map 0 and map 33 all index 0, with a
/// note; fewer than 32 maps is an error.
pub fn load_colormap(stack: &WadStack, notes: &mut Vec<String>) -> Result<Vec<u8>> {
    let lump = stack.lump("COLORMAP").ok_or_else(|| missing(stack, "COLORMAP"))?;
    let mut r = lump.reader("COLORMAP");
    if lump.data.len() >= COLORMAP_SIZE {
        return Ok(r.bytes(COLORMAP_SIZE)?.to_vec());
    }
    let light = r.bytes(32 * 256)?;
    notes.push(format!(
        "COLORMAP has {} bytes, not {COLORMAP_SIZE}: invulnerability/black maps filled in",
        lump.data.len()
    ));
    let mut out = light.to_vec();
    out.extend_from_slice(&light[..256]);
    out.extend_from_slice(&[0u8; 256]);
    Ok(out)
}

fn missing(stack: &WadStack, lump: &str) -> crate::formats::FormatError {
    let file = stack.wads().first().map(|w| w.name()).unwrap_or("(no WAD)");
    crate::formats::FormatError::new(
        file,
        "WAD directory",
        0,
        format!("no {lump} lump: is an IWAD loaded first?"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn loads_palette_and_colormap() {
        let stack = testwad::two_room_stack();
        let pal = load_palette(&stack).unwrap();
        assert_eq!(pal.len(), 256);
        assert_eq!(pal[5], testwad::palette()[5]);
        let mut notes = Vec::new();
        let cm = load_colormap(&stack, &mut notes).unwrap();
        assert_eq!(cm.len(), COLORMAP_SIZE);
        assert!(notes.is_empty());
    }
}
