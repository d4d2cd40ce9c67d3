//! The texture segment: an int32 entry count, then 2082-byte entries (flags, type, a
//! 16-colour palette and 64x64 linear 4-bit texels, high nibble = left pixel).

use crate::formats::{Reader, Result};

pub const TEXTURE_SIZE: usize = 64;
pub const TEXTURE_ENTRY_BYTES: usize = 2 + 32 + TEXTURE_SIZE * TEXTURE_SIZE / 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevTexture {
    pub flags: u8,
    /// 130 in every known file.
    pub kind: u8,
    pub palette: [u16; 16],
    /// 64 rows of 64 palette indices, row 0 first.
    pub indices: Vec<u8>,
}

impl LevTexture {
    pub fn index(&self, x: usize, y: usize) -> Option<u8> {
        if x >= TEXTURE_SIZE {
            return None;
        }
        self.indices.get(y * TEXTURE_SIZE + x).copied()
    }
}

/// The texture list and, when it ends before the claimed count, why.
pub struct TextureList {
    pub textures: Vec<LevTexture>,
    /// The count the segment claims.
    pub claimed: u32,
    /// Why fewer textures than claimed were read.
    pub problem: Option<String>,
}

/// Entry type of every texture in known files.
pub const TEXTURE_TYPE: u8 = 130;

/// Reads the list. It ends early, keeping the complete entries read so far, at an entry whose
/// type is not 130 (real files reportedly count other resources there too; the seed does not
/// describe them) or at end of file (what loads should still render).
pub fn parse_textures(r: &mut Reader) -> Result<TextureList> {
    let mut r2 = r.structure("texture data");
    let count_at = r2.pos();
    let count = r2.i32_be()?;
    if count < 0 {
        return Err(r2.error_at(count_at, format!("negative texture count {count}")));
    }
    let claimed = count as u32;
    let n = (claimed as usize).min(r2.remaining() / TEXTURE_ENTRY_BYTES);
    r2.check_count(n, TEXTURE_ENTRY_BYTES, "texture entries")?;
    let mut textures = Vec::with_capacity(n);
    let mut problem = None;
    for k in 0..n {
        let at = r2.pos();
        let flags = r2.u8()?;
        let kind = r2.u8()?;
        if kind != TEXTURE_TYPE {
            problem = Some(format!(
                "texture data at {count_at}: {claimed} entries claimed; entry {k} at {at} has type {kind}, not {TEXTURE_TYPE}: the list ends there"
            ));
            r2.seek(at)?;
            break;
        }
        let mut palette = [0u16; 16];
        for p in &mut palette {
            *p = r2.u16_be()?;
        }
        let packed = r2.bytes(TEXTURE_SIZE * TEXTURE_SIZE / 2)?;
        let indices = packed.iter().flat_map(|b| [b >> 4, b & 15]).collect();
        textures.push(LevTexture { flags, kind, palette, indices });
    }
    if problem.is_none() && n < claimed as usize {
        problem = Some(format!(
            "texture data at {count_at}: {claimed} entries claimed, only {n} complete entries of {TEXTURE_ENTRY_BYTES} bytes fit in the {} bytes left",
            r2.remaining()
        ));
    }
    r.seek(r2.pos())?;
    Ok(TextureList { textures, claimed, problem })
}
