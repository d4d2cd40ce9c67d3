//! Reading zip members with a hard size cap, shared by every format that comes in a zip
//! (Saucerman's `Saucerdata.pak`, Doom's PK3 packages): a member's header may claim any size,
//! and a zip bomb inflates far past what it claims.

use std::io::Read;

use crate::limits::{MAX_DEFLATE_RATIO, MAX_MEMBER};

/// Capacity to reserve for a member: its declared size, but never more than its compressed
/// bytes can inflate to, nor the member cap.
pub fn size_hint(size: u64, compressed: u64) -> usize {
    size.min(compressed.saturating_mul(MAX_DEFLATE_RATIO)).min(MAX_MEMBER as u64) as usize
}

/// Inflates a member, refusing more than [`MAX_MEMBER`] bytes whatever the header claims;
/// the buffer grows at most to the cap (`read_to_end` would double past it).
pub fn read_bounded(r: &mut impl Read, hint: usize) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(hint.min(MAX_MEMBER));
    let mut chunk = vec![0u8; 64 << 10];
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if out.len() + n > MAX_MEMBER {
            return Err(std::io::Error::other(format!(
                "member larger than the {} MiB limit",
                MAX_MEMBER >> 20
            )));
        }
        if out.capacity() - out.len() < n {
            let want = (out.capacity() * 2).max(out.len() + n).min(MAX_MEMBER);
            out.reserve_exact(want - out.len());
        }
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(out)
}
