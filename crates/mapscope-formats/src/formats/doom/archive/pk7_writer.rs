//! 7z archives for tests and fuzz seeds, written by hand so that what the header declares
//! (dictionary sizes, coders, an encoded header) is the test's to choose, which no encoder
//! allows. Members go into one solid folder as LZMA2's stored chunks (valid LZMA2 that any
//! decoder reads, with whatever dictionary the coder declares).

use super::pk7_header::START_HEADER;

/// How the archive is laid out.
#[derive(Clone, Debug)]
pub struct SevenZipLayout {
    /// The data folder's coder: method id and properties (LZMA2 with a dictionary code).
    pub data_method: Vec<u8>,
    pub data_props: Vec<u8>,
    /// The header stored as an LZMA2 stream with this dictionary code (7-Zip's default is a
    /// compressed header), or stored plainly.
    pub encoded_header: Option<u8>,
}

impl Default for SevenZipLayout {
    fn default() -> Self {
        // Dictionary code 16: 1 MiB.
        SevenZipLayout { data_method: vec![0x21], data_props: vec![16], encoded_header: Some(16) }
    }
}

impl SevenZipLayout {
    /// LZMA2 data with dictionary code `code` (40: 4 GiB - 1).
    pub fn lzma2_dictionary(code: u8) -> Self {
        SevenZipLayout { data_props: vec![code], ..Self::default() }
    }
}

/// A 7z archive of `members` (path, bytes).
pub fn seven_zip(members: &[(&str, &[u8])], layout: &SevenZipLayout) -> Vec<u8> {
    let data: Vec<u8> = members.iter().flat_map(|(_, b)| b.iter().copied()).collect();
    let packed = lzma2_stored(&data);
    let header = plain_header(members, &packed, layout);
    let mut body = packed.clone();
    let next_header = match layout.encoded_header {
        None => header,
        Some(code) => {
            let packed_header = lzma2_stored(&header);
            let mut out = vec![0x17];
            let at = packed.len() as u64;
            out.extend(streams_info(at, &packed_header, &[0x21], &[code], header.len() as u64));
            body.extend(&packed_header);
            out
        }
    };
    let mut start = Vec::with_capacity(START_HEADER as usize);
    start.extend(b"7z\xBC\xAF\x27\x1C\x00\x04");
    let mut tail = Vec::new();
    tail.extend((body.len() as u64).to_le_bytes());
    tail.extend((next_header.len() as u64).to_le_bytes());
    tail.extend(crc32(&next_header).to_le_bytes());
    start.extend(crc32(&tail).to_le_bytes());
    start.extend(tail);
    start.extend(body);
    start.extend(next_header);
    start
}

/// The header listing `members`, stored in one folder of `packed` bytes at pack position 0.
fn plain_header(members: &[(&str, &[u8])], packed: &[u8], layout: &SevenZipLayout) -> Vec<u8> {
    let mut h = vec![0x01, 0x04];
    let total: u64 = members.iter().map(|(_, b)| b.len() as u64).sum();
    let mut streams = streams_info(0, packed, &layout.data_method, &layout.data_props, total);
    // Drop the streams' end byte: sub-streams come before it.
    streams.pop();
    h.extend(streams);
    h.push(0x08);
    h.push(0x0D);
    number(&mut h, members.len() as u64);
    if members.len() > 1 {
        h.push(0x09);
        for (_, b) in &members[..members.len() - 1] {
            number(&mut h, b.len() as u64);
        }
    }
    h.push(0x00);
    h.push(0x00);
    h.push(0x05);
    number(&mut h, members.len() as u64);
    let mut names = vec![0u8];
    for (path, _) in members {
        for unit in path.encode_utf16().chain([0]) {
            names.extend(unit.to_le_bytes());
        }
    }
    h.push(0x11);
    number(&mut h, names.len() as u64);
    h.extend(names);
    h.push(0x00);
    h.push(0x00);
    h
}

/// Pack info and one folder of one coder unpacking to `unpacked` bytes, ending with the
/// streams' end byte.
fn streams_info(
    pack_pos: u64,
    packed: &[u8],
    method: &[u8],
    props: &[u8],
    unpacked: u64,
) -> Vec<u8> {
    let mut s = vec![0x06];
    number(&mut s, pack_pos);
    number(&mut s, 1);
    s.push(0x09);
    number(&mut s, packed.len() as u64);
    s.push(0x00);
    s.extend([0x07, 0x0B, 0x01, 0x00, 0x01, 0x20 | method.len() as u8]);
    s.extend(method);
    number(&mut s, props.len() as u64);
    s.extend(props);
    s.push(0x0C);
    number(&mut s, unpacked);
    s.push(0x00);
    s.push(0x00);
    s
}

/// LZMA2 made of stored chunks (control 1: dictionary reset, 2: none; size - 1 big-endian).
pub fn lzma2_stored(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / 65536 * 3 + 4);
    for (k, chunk) in data.chunks(1 << 16).enumerate() {
        out.push(if k == 0 { 1 } else { 2 });
        out.extend(((chunk.len() - 1) as u16).to_be_bytes());
        out.extend(chunk);
    }
    out.push(0);
    out
}

/// A 7z number: as many leading one bits in the first byte as bytes follow.
fn number(out: &mut Vec<u8>, v: u64) {
    let mut first = 0u8;
    let mut mask = 0x80u8;
    let mut extra = 0;
    while extra < 8 && v >= 1u64 << (7 * (extra + 1)) {
        first |= mask;
        mask >>= 1;
        extra += 1;
    }
    if extra < 8 {
        first |= (v >> (8 * extra)) as u8;
    }
    out.push(first);
    for j in 0..extra {
        out.push((v >> (8 * j)) as u8);
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}
