//! The writing twin of [`Reader`](super::Reader), for the test-file writers (`*/writer.rs`):
//! integers in the file's byte order, fixed-length name fields, zero padding and alignment,
//! and slots reserved for an offset or a size that is known only later.
//!
//! A `Reader` names the byte order on every read because parsers meet files that mix them; a
//! written file has one byte order, so the writer takes it once, when it is made.

/// The byte order of the integers and floats a [`ByteWriter`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endian {
    Little,
    Big,
}

/// A place reserved in a [`ByteWriter`]'s output, filled in later by `patch_*` (an offset or
/// size that depends on what is written after it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    at: usize,
    len: usize,
}

impl Slot {
    /// Where the slot starts in the output.
    pub fn at(self) -> usize {
        self.at
    }
}

/// A growing byte buffer written front to back in one byte order. Methods chain
/// (`w.u16(1).u32(2)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteWriter {
    out: Vec<u8>,
    endian: Endian,
}

impl ByteWriter {
    pub fn new(endian: Endian) -> ByteWriter {
        ByteWriter { out: Vec::new(), endian }
    }

    pub fn little_endian() -> ByteWriter {
        ByteWriter::new(Endian::Little)
    }

    pub fn big_endian() -> ByteWriter {
        ByteWriter::new(Endian::Big)
    }

    pub fn endian(&self) -> Endian {
        self.endian
    }

    /// Bytes written so far: the offset the next write lands at.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.out
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.out
    }

    fn ordered<const N: usize>(&mut self, little: [u8; N], big: [u8; N]) -> &mut Self {
        self.out.extend_from_slice(match self.endian {
            Endian::Little => &little,
            Endian::Big => &big,
        });
        self
    }

    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.out.push(v);
        self
    }
    pub fn i8(&mut self, v: i8) -> &mut Self {
        self.u8(v as u8)
    }
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.ordered(v.to_le_bytes(), v.to_be_bytes())
    }
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.ordered(v.to_le_bytes(), v.to_be_bytes())
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.ordered(v.to_le_bytes(), v.to_be_bytes())
    }
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.ordered(v.to_le_bytes(), v.to_be_bytes())
    }
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.ordered(v.to_le_bytes(), v.to_be_bytes())
    }

    pub fn u16s(&mut self, v: &[u16]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.u16(x);
        });
        self
    }
    pub fn i16s(&mut self, v: &[i16]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.i16(x);
        });
        self
    }
    pub fn u32s(&mut self, v: &[u32]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.u32(x);
        });
        self
    }
    pub fn i32s(&mut self, v: &[i32]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.i32(x);
        });
        self
    }
    pub fn f32s(&mut self, v: &[f32]) -> &mut Self {
        v.iter().for_each(|&x| {
            self.f32(x);
        });
        self
    }

    pub fn bytes(&mut self, v: &[u8]) -> &mut Self {
        self.out.extend_from_slice(v);
        self
    }

    /// `n` zero bytes (reserved or unused fields).
    pub fn zeros(&mut self, n: usize) -> &mut Self {
        self.fill(0, n)
    }

    /// `n` copies of `byte`.
    pub fn fill(&mut self, byte: u8, n: usize) -> &mut Self {
        self.out.resize(self.out.len() + n, byte);
        self
    }

    /// Pads with `byte` up to offset `end` (a fixed-size record); nothing when already there.
    pub fn pad_to(&mut self, end: usize, byte: u8) -> &mut Self {
        if end > self.out.len() {
            self.out.resize(end, byte);
        }
        self
    }

    /// Pads with `byte` up to the next multiple of `multiple`.
    pub fn align(&mut self, multiple: usize, byte: u8) -> &mut Self {
        self.pad_to(self.out.len().next_multiple_of(multiple.max(1)), byte)
    }

    /// A fixed-length name field of `n` bytes: `name` cut to `n`, NUL-padded (the reader's
    /// [`Reader::name`](super::Reader::name) stops at the first NUL or the field's end).
    pub fn name(&mut self, name: &[u8], n: usize) -> &mut Self {
        let start = self.out.len();
        self.bytes(&name[..name.len().min(n)]);
        self.pad_to(start + n, 0)
    }

    /// A NUL-terminated name in a field of `n` bytes: at most `n - 1` bytes of `name`, a NUL,
    /// then `pad` to the field's end.
    pub fn terminated_name(&mut self, name: &[u8], n: usize, pad: u8) -> &mut Self {
        let start = self.out.len();
        self.bytes(&name[..name.len().min(n.saturating_sub(1))]);
        if n > 0 {
            self.u8(0);
        }
        self.pad_to(start + n, pad)
    }

    /// A NUL-terminated string of any length.
    pub fn cstr(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes()).u8(0)
    }

    /// Reserves `len` zero bytes to be filled by a `patch_*` call.
    pub fn reserve(&mut self, len: usize) -> Slot {
        let slot = Slot { at: self.out.len(), len };
        self.zeros(len);
        slot
    }

    pub fn reserve_u16(&mut self) -> Slot {
        self.reserve(2)
    }

    pub fn reserve_u32(&mut self) -> Slot {
        self.reserve(4)
    }

    /// Fills a reserved slot with `bytes` (as long as the slot).
    pub fn patch_bytes(&mut self, slot: Slot, bytes: &[u8]) -> &mut Self {
        debug_assert_eq!(slot.len, bytes.len(), "patch of the slot's size");
        self.out[slot.at..slot.at + slot.len].copy_from_slice(bytes);
        self
    }

    pub fn patch_u16(&mut self, slot: Slot, v: u16) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.patch_bytes(slot, &b)
    }

    pub fn patch_u32(&mut self, slot: Slot, v: u32) -> &mut Self {
        let b = match self.endian {
            Endian::Little => v.to_le_bytes(),
            Endian::Big => v.to_be_bytes(),
        };
        self.patch_bytes(slot, &b)
    }

    pub fn patch_i32(&mut self, slot: Slot, v: i32) -> &mut Self {
        self.patch_u32(slot, v as u32)
    }
}

/// FNV-1a of `bytes`: the writers' byte-identity tests compare written files against the
/// fingerprint the previous writer code gave.
#[cfg(test)]
pub(crate) fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// A small deterministic hash of a grid place and a salt, for writer-built levels whose layout
/// must be the same on every run and machine (`marathon::station`, `saucer::large`).
pub fn layout_hash(x: u32, y: u32, salt: u32) -> u32 {
    let mut h = x.wrapping_mul(0x9E37_79B9) ^ y.wrapping_mul(0x85EB_CA6B) ^ salt;
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^ (h >> 12)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Reader;

    #[test]
    fn integers_follow_the_writers_byte_order() {
        let mut le = ByteWriter::little_endian();
        le.u16(0x0102).i32(-2).f32(1.0);
        assert_eq!(le.as_bytes(), [2, 1, 0xFE, 0xFF, 0xFF, 0xFF, 0, 0, 0x80, 0x3F]);
        let mut be = ByteWriter::big_endian();
        be.u16(0x0102).i32(-2).f32(1.0);
        assert_eq!(be.as_bytes(), [1, 2, 0xFF, 0xFF, 0xFF, 0xFE, 0x3F, 0x80, 0, 0]);
    }

    #[test]
    fn what_is_written_reads_back() {
        let mut w = ByteWriter::big_endian();
        w.u8(7).i16(-300).u32(70_000).name(b"LONGNAME", 4).name(b"AB", 4);
        let bytes = w.into_bytes();
        let mut r = Reader::new("t", "t", &bytes);
        assert_eq!(r.u8().unwrap(), 7);
        assert_eq!(r.i16_be().unwrap(), -300);
        assert_eq!(r.u32_be().unwrap(), 70_000);
        assert_eq!(r.name(4).unwrap(), "LONG");
        assert_eq!(r.name(4).unwrap(), "AB");
        assert_eq!(r.remaining(), 0);
    }

    #[test]
    fn terminated_names_keep_their_nul_and_pad() {
        let mut w = ByteWriter::little_endian();
        w.terminated_name(b"ABCDEF", 4, 0xCD).terminated_name(b"A", 4, 0xCD);
        assert_eq!(w.as_bytes(), [b'A', b'B', b'C', 0, b'A', 0, 0xCD, 0xCD]);
    }

    #[test]
    fn padding_aligns_and_slots_are_patched_later() {
        let mut w = ByteWriter::little_endian();
        let size = w.reserve_u32();
        w.u8(1).align(4, 0xCD);
        assert_eq!(w.len(), 8);
        w.align(4, 0xCD).pad_to(10, 0).pad_to(9, 0xEE);
        let end = w.len() as u32;
        w.patch_u32(size, end);
        assert_eq!(w.as_bytes(), [10, 0, 0, 0, 1, 0xCD, 0xCD, 0xCD, 0, 0]);
        let mut be = ByteWriter::big_endian();
        let s = be.reserve_u16();
        be.patch_u16(s, 0x0102);
        assert_eq!(be.as_bytes(), [1, 2]);
    }
}
