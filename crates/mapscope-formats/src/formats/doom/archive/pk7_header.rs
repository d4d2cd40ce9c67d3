//! The 7z header, walked by mapscope before the archive reaches the `sevenz-rust2` decoder.
//!
//! The crate trusts what the header declares: it reserves every LZMA2 dictionary whole (up to
//! 4 GiB, zero-filled), sizes its tables by the counts it reads before reading what they count,
//! follows coder bind pairs without looking for loops, and indexes its tables by counts that
//! may disagree. Its coder properties are private, so they are read here, from the format
//! 7-Zip documents (`DOC/7zFormat.txt` in the LZMA SDK), in the order the crate reads them,
//! and any archive the crate could not read within bounds is refused with the structure and
//! offset at fault:
//! - an LZMA or LZMA2 dictionary above [`PK7_DICTIONARY_FLOOR`] and twice what its coder unpacks,
//!   or above [`MAX_PK7_DICTIONARY`];
//! - a count larger than the bytes left could hold, or above the package's member cap;
//! - folders other than a chain of one-in, one-out coders (BCJ2 and the like), or more than
//!   [`MAX_PK7_FOLDER_CODERS`] coders;
//! - tables that disagree (a pack stream per folder, a file with data per sub-stream, a name
//!   per file), properties whose declared size is not what they hold.
//!
//! A compressed ("encoded") header is itself a folder's LZMA or LZMA2 stream: its coders are
//! checked the same way, its unpacked size capped at [`MAX_PK7_HEADER`], and it is decoded here
//! (with its dictionary cut to that size) to check the header it holds.

use std::io::{Read, Seek, SeekFrom};

use crate::formats::{FormatError, Result};

use crate::limits::doom::{
    MAX_PACKAGE_ENTRIES, MAX_PK7_DICTIONARY, MAX_PK7_FOLDER_CODERS, MAX_PK7_HEADER,
    PK7_DICTIONARY_FLOOR,
};

/// Size of the start header (signature, version, CRC, next header offset, size and CRC).
pub const START_HEADER: u64 = 32;

const METHOD_COPY: &[u8] = &[0x00];
const METHOD_LZMA: &[u8] = &[0x03, 0x01, 0x01];
const METHOD_LZMA2: &[u8] = &[0x21];

/// Property ids of 7zFormat.txt.
mod id {
    pub const END: u8 = 0x00;
    pub const HEADER: u8 = 0x01;
    pub const ARCHIVE_PROPERTIES: u8 = 0x02;
    pub const ADDITIONAL_STREAMS_INFO: u8 = 0x03;
    pub const MAIN_STREAMS_INFO: u8 = 0x04;
    pub const FILES_INFO: u8 = 0x05;
    pub const PACK_INFO: u8 = 0x06;
    pub const UNPACK_INFO: u8 = 0x07;
    pub const SUB_STREAMS_INFO: u8 = 0x08;
    pub const SIZE: u8 = 0x09;
    pub const CRC: u8 = 0x0A;
    pub const FOLDER: u8 = 0x0B;
    pub const CODERS_UNPACK_SIZE: u8 = 0x0C;
    pub const NUM_UNPACK_STREAM: u8 = 0x0D;
    pub const EMPTY_STREAM: u8 = 0x0E;
    pub const EMPTY_FILE: u8 = 0x0F;
    pub const ANTI: u8 = 0x10;
    pub const NAME: u8 = 0x11;
    pub const C_TIME: u8 = 0x12;
    pub const A_TIME: u8 = 0x13;
    pub const M_TIME: u8 = 0x14;
    pub const WIN_ATTRIBUTES: u8 = 0x15;
    pub const ENCODED_HEADER: u8 = 0x17;
    pub const START_POS: u8 = 0x18;
}

/// Checks the header of the 7z archive in `reader` (`len` bytes; `start` is its start header,
/// already found to place the header inside the file and within [`MAX_PK7_HEADER`]).
pub fn check_archive<R: Read + Seek>(
    name: &str,
    reader: &mut R,
    len: u64,
    start: &[u8; START_HEADER as usize],
) -> Result<()> {
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&start[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let (offset, size) = (u64_at(12), u64_at(20));
    if size == 0 {
        // The crate would search the file's last MiB for a header, parsing one at each byte.
        return Err(FormatError::new(
            name,
            "7z start header",
            20,
            "names no header (an empty or unfinished archive)",
        ));
    }
    let at = START_HEADER + offset;
    let header = read_at(name, reader, len, at, size, "7z header")?;
    let mut bytes = Bytes { file: name, what: "7z header", bytes: &header, pos: 0, base: at };
    match bytes.byte("header kind")? {
        id::HEADER => check_header(&mut bytes, len),
        id::ENCODED_HEADER => {
            let streams = streams_info(&mut bytes)?;
            bytes.check_pack_range(&streams, len)?;
            let decoded = decode_header(name, reader, len, &streams, at)?;
            let what = "7z header (decoded)";
            let mut inner = Bytes { file: name, what, bytes: &decoded, pos: 0, base: 0 };
            match inner.byte("header kind")? {
                id::HEADER => check_header(&mut inner, len),
                other => Err(inner.fail_before(format!(
                    "decoded header starts with property {other:#04x}, not a header (0x01)"
                ))),
            }
        }
        other => Err(bytes.fail_before(format!(
            "starts with property {other:#04x}, neither a header (0x01) nor an encoded one (0x17)"
        ))),
    }
}

/// Reads `size` bytes at `at`, which must lie inside the `len`-byte file.
fn read_at<R: Read + Seek>(
    name: &str,
    reader: &mut R,
    len: u64,
    at: u64,
    size: u64,
    what: &str,
) -> Result<Vec<u8>> {
    let inside = at.checked_add(size).is_some_and(|end| end <= len);
    if !inside || size > MAX_PK7_HEADER {
        return Err(FormatError::new(
            name,
            what,
            at,
            format!(
                "{size} bytes at {at} lie outside the {len}-byte file or pass {MAX_PK7_HEADER}"
            ),
        ));
    }
    let mut out = vec![0u8; size as usize];
    reader
        .seek(SeekFrom::Start(at))
        .and_then(|_| reader.read_exact(&mut out))
        .map_err(|e| FormatError::new(name, what, at, format!("cannot read: {e}")))?;
    Ok(out)
}

/// One coder of a folder, as declared.
struct Coder {
    method: Vec<u8>,
    props: Vec<u8>,
    /// Where its properties start, for messages.
    at: u64,
}

/// A folder: coders chained from the packed stream to the unpacked one.
struct Folder {
    coders: Vec<Coder>,
    /// Coder indices in decoding order (the one reading the packed stream first).
    order: Vec<usize>,
    /// Each coder's output size.
    unpack_sizes: Vec<u64>,
    has_crc: bool,
    /// Files the folder's output holds (1 unless the sub-streams say otherwise).
    sub_streams: u64,
}

impl Folder {
    /// Size of the folder's output (the last coder's).
    fn unpack_size(&self) -> u64 {
        self.order.last().and_then(|&c| self.unpack_sizes.get(c)).copied().unwrap_or(0)
    }
}

#[derive(Default)]
struct StreamsInfo {
    pack_pos: u64,
    pack_sizes: Vec<u64>,
    folders: Vec<Folder>,
    /// Whether sub-streams were described (files with data need them).
    has_sub_streams: bool,
}

/// A header's bytes with a read position; every read is checked against the end.
struct Bytes<'a> {
    file: &'a str,
    what: &'static str,
    bytes: &'a [u8],
    pos: usize,
    /// Where byte 0 lies (in the file; 0 for a decoded header).
    base: u64,
}

impl<'a> Bytes<'a> {
    fn fail(&self, msg: String) -> FormatError {
        FormatError::new(self.file, self.what, self.base + self.pos as u64, msg)
    }

    /// An error about the byte just read.
    fn fail_before(&self, msg: String) -> FormatError {
        let at = self.base + self.pos.saturating_sub(1) as u64;
        FormatError::new(self.file, self.what, at, msg)
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    fn take(&mut self, n: u64, field: &str) -> Result<&'a [u8]> {
        if n > self.left() as u64 {
            return Err(self.fail(format!("{field}: {n} bytes, {} left", self.left())));
        }
        let out = &self.bytes[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(out)
    }

    fn byte(&mut self, field: &str) -> Result<u8> {
        Ok(self.take(1, field)?[0])
    }

    /// A 7z number: the high bits of the first byte say how many bytes follow.
    fn number(&mut self, field: &str) -> Result<u64> {
        let first = self.byte(field)? as u64;
        let mut mask = 0x80u64;
        let mut value = 0u64;
        for i in 0..8 {
            if first & mask == 0 {
                return Ok(value | ((first & (mask - 1)) << (8 * i)));
            }
            value |= (self.byte(field)? as u64) << (8 * i);
            mask >>= 1;
        }
        Ok(value)
    }

    /// A count of items that take at least `each` bytes apiece further on, and at most `cap`.
    fn count(&mut self, field: &str, each: u64, cap: u64) -> Result<u64> {
        let at = self.base + self.pos as u64;
        let n = self.number(field)?;
        let room = self.left() as u64 / each.max(1);
        if n > room || n > cap {
            return Err(FormatError::new(
                self.file,
                self.what,
                at,
                format!(
                    "{n} {field}: more than the {} bytes left can hold or the {cap} accepted",
                    self.left()
                ),
            ));
        }
        Ok(n)
    }

    fn expect(&mut self, want: u8, field: &str) -> Result<()> {
        let got = self.byte(field)?;
        if got != want {
            return Err(self.fail_before(format!("{field}: property {got:#04x}, not {want:#04x}")));
        }
        Ok(())
    }

    /// A bit vector of `n` bits (first bit the top of the first byte): how many are set.
    fn bits(&mut self, n: u64, field: &str) -> Result<u64> {
        let bytes = self.take(n.div_ceil(8), field)?;
        let mut set = 0;
        for i in 0..n as usize {
            set += u64::from(bytes[i / 8] >> (7 - i % 8) & 1);
        }
        Ok(set)
    }

    /// "All defined" byte, then a bit vector unless all are: how many of `n` are defined.
    fn defined(&mut self, n: u64, field: &str) -> Result<u64> {
        if self.byte(field)? != 0 {
            Ok(n)
        } else {
            self.bits(n, field)
        }
    }

    /// CRCs of `n` items, those defined.
    fn digests(&mut self, n: u64, field: &str) -> Result<u64> {
        let defined = self.defined(n, field)?;
        self.take(4 * defined, field)?;
        Ok(defined)
    }

    /// The pack streams must lie inside the file.
    fn check_pack_range(&self, streams: &StreamsInfo, len: u64) -> Result<()> {
        let end = streams
            .pack_sizes
            .iter()
            .try_fold(START_HEADER.checked_add(streams.pack_pos), |end, &s| {
                Some(end.and_then(|e| e.checked_add(s)))
            })
            .flatten();
        if end.is_none_or(|e| e > len) {
            return Err(self.fail(format!(
                "packed streams of {} bytes at {} lie outside the {len}-byte file",
                streams.pack_sizes.iter().fold(0u64, |a, &s| a.saturating_add(s)),
                streams.pack_pos
            )));
        }
        Ok(())
    }
}

/// The header proper: archive properties, the main streams and the files.
fn check_header(b: &mut Bytes, len: u64) -> Result<()> {
    let mut nid = b.byte("header property")?;
    if nid == id::ARCHIVE_PROPERTIES {
        loop {
            if b.byte("archive property")? == id::END {
                break;
            }
            let size = b.number("archive property size")?;
            b.take(size, "archive property")?;
        }
        nid = b.byte("header property")?;
    }
    if nid == id::ADDITIONAL_STREAMS_INFO {
        return Err(b.fail_before("additional streams: not read".into()));
    }
    let mut streams = StreamsInfo::default();
    if nid == id::MAIN_STREAMS_INFO {
        streams = streams_info(b)?;
        b.check_pack_range(&streams, len)?;
        nid = b.byte("header property")?;
    }
    if nid == id::FILES_INFO {
        files_info(b, &streams)?;
        nid = b.byte("header property")?;
    }
    if nid != id::END {
        return Err(b.fail_before(format!("header ends with property {nid:#04x}, not 0x00")));
    }
    Ok(())
}

/// Pack info, folders and sub-streams.
fn streams_info(b: &mut Bytes) -> Result<StreamsInfo> {
    let mut out = StreamsInfo::default();
    let mut nid = b.byte("streams property")?;
    if nid == id::PACK_INFO {
        out.pack_pos = b.number("pack position")?;
        let n = b.count("pack streams", 1, MAX_PACKAGE_ENTRIES as u64)?;
        b.expect(id::SIZE, "pack sizes")?;
        for _ in 0..n {
            out.pack_sizes.push(b.number("pack size")?);
        }
        nid = b.byte("pack property")?;
        if nid == id::CRC {
            b.digests(n, "pack stream CRCs")?;
            nid = b.byte("pack property")?;
        }
        if nid != id::END {
            return Err(b.fail_before(format!("pack info ends with {nid:#04x}, not 0x00")));
        }
        nid = b.byte("streams property")?;
    }
    if nid == id::UNPACK_INFO {
        out.folders = unpack_info(b)?;
        nid = b.byte("streams property")?;
    }
    if nid == id::SUB_STREAMS_INFO {
        sub_streams_info(b, &mut out.folders)?;
        out.has_sub_streams = true;
        nid = b.byte("streams property")?;
    }
    if nid != id::END {
        return Err(b.fail_before(format!("streams info ends with {nid:#04x}, not 0x00")));
    }
    if out.pack_sizes.len() != out.folders.len() {
        // Every accepted folder reads one packed stream; the crate indexes one by the other.
        return Err(b.fail(format!(
            "{} packed streams for {} folders",
            out.pack_sizes.len(),
            out.folders.len()
        )));
    }
    Ok(out)
}

fn unpack_info(b: &mut Bytes) -> Result<Vec<Folder>> {
    b.expect(id::FOLDER, "folders")?;
    // A folder takes at least two bytes: its coder count and a coder's flags.
    let n = b.count("folders", 2, MAX_PACKAGE_ENTRIES as u64)?;
    if b.byte("folders external")? != 0 {
        return Err(b.fail_before("folders stored elsewhere (external): not read".into()));
    }
    let mut folders = Vec::with_capacity(n as usize);
    for f in 0..n as usize {
        folders.push(folder(b, f)?);
    }
    b.expect(id::CODERS_UNPACK_SIZE, "coder unpack sizes")?;
    for (f, folder) in folders.iter_mut().enumerate() {
        for _ in 0..folder.coders.len() {
            folder.unpack_sizes.push(b.number("coder unpack size")?);
        }
        for (c, coder) in folder.coders.iter().enumerate() {
            check_dictionary(b, coder, folder.unpack_sizes[c], f, c)?;
        }
    }
    let mut nid = b.byte("unpack property")?;
    if nid == id::CRC {
        let all = b.byte("folder CRCs")? != 0;
        let bits = if all { Vec::new() } else { b.take(n.div_ceil(8), "folder CRCs")?.to_vec() };
        for (i, folder) in folders.iter_mut().enumerate() {
            folder.has_crc = all || bits[i / 8] >> (7 - i % 8) & 1 != 0;
            if folder.has_crc {
                b.take(4, "folder CRC")?;
            }
        }
        nid = b.byte("unpack property")?;
    }
    if nid != id::END {
        return Err(b.fail_before(format!("unpack info ends with {nid:#04x}, not 0x00")));
    }
    Ok(folders)
}

/// One folder's coders and bind pairs: a chain of one-in, one-out coders.
fn folder(b: &mut Bytes, f: usize) -> Result<Folder> {
    let n = b.count("coders", 1, MAX_PK7_FOLDER_CODERS as u64)? as usize;
    if n == 0 {
        return Err(b.fail_before(format!("folder {f} has no coder")));
    }
    let mut coders = Vec::with_capacity(n);
    for c in 0..n {
        let flags = b.byte("coder flags")?;
        if flags & 0x80 != 0 {
            return Err(b.fail_before(format!("folder {f} coder {c}: alternative methods")));
        }
        let method = b.take(u64::from(flags & 0x0F), "coder method")?.to_vec();
        if flags & 0x10 != 0 {
            let (inputs, outputs) = (b.number("coder inputs")?, b.number("coder outputs")?);
            if inputs != 1 || outputs != 1 {
                return Err(b.fail_before(format!(
                    "folder {f} coder {c} (method {}): {inputs} inputs and {outputs} outputs; \
                     only chains of one-input coders are read (not BCJ2)",
                    hex(&method)
                )));
            }
        }
        let at = b.base + b.pos as u64;
        let props = if flags & 0x20 != 0 {
            let size = b.number("coder properties size")?;
            b.take(size, "coder properties")?.to_vec()
        } else {
            Vec::new()
        };
        coders.push(Coder { method, props, at });
    }
    // n - 1 bind pairs join coder `out`'s output to coder `in`'s input (one stream each).
    let mut binds = Vec::with_capacity(n - 1);
    for _ in 1..n {
        let (input, output) = (b.number("bind pair input")?, b.number("bind pair output")?);
        if input >= n as u64 || output >= n as u64 {
            return Err(b.fail_before(format!(
                "folder {f}: bind pair {input} <- {output} names a coder past its {n}"
            )));
        }
        binds.push((input as usize, output as usize));
    }
    // The crate starts at the one input no bind pair feeds and follows the pairs, outputs
    // to inputs: that must visit every coder once.
    let first = (0..n).find(|i| binds.iter().all(|&(input, _)| input != *i));
    let mut order = Vec::with_capacity(n);
    let mut next = first;
    while let Some(c) = next {
        if order.contains(&c) || order.len() == n {
            break;
        }
        order.push(c);
        next = binds.iter().find(|&&(_, output)| output == c).map(|&(input, _)| input);
    }
    if order.len() != n || next.is_some() {
        return Err(
            b.fail_before(format!("folder {f}: its bind pairs do not chain its {n} coders"))
        );
    }
    Ok(Folder { coders, order, unpack_sizes: Vec::new(), has_crc: false, sub_streams: 1 })
}

/// The dictionary an LZMA or LZMA2 coder unpacking `unpacked` bytes declares, refused past
/// what [`PK7_DICTIONARY_FLOOR`] and [`MAX_PK7_DICTIONARY`] allow.
fn check_dictionary(b: &Bytes, coder: &Coder, unpacked: u64, f: usize, c: usize) -> Result<()> {
    let fail = |msg: String| FormatError::new(b.file, b.what, coder.at, msg);
    let (kind, size) = if coder.method == METHOD_LZMA {
        if coder.props.len() < 5 {
            return Err(fail(format!(
                "folder {f} coder {c}: LZMA properties of {} bytes, 5 needed",
                coder.props.len()
            )));
        }
        let p = &coder.props;
        ("LZMA", u64::from(u32::from_le_bytes([p[1], p[2], p[3], p[4]])))
    } else if coder.method == METHOD_LZMA2 {
        let Some(&bits) = coder.props.first() else {
            return Err(fail(format!("folder {f} coder {c}: LZMA2 without properties")));
        };
        if bits > 40 {
            return Err(fail(format!("folder {f} coder {c}: LZMA2 dictionary code {bits}")));
        }
        let size = if bits == 40 {
            u64::from(u32::MAX)
        } else {
            (2 | u64::from(bits & 1)) << (bits / 2 + 11)
        };
        ("LZMA2", size)
    } else {
        return Ok(());
    };
    let allowed = unpacked.saturating_mul(2).clamp(PK7_DICTIONARY_FLOOR, MAX_PK7_DICTIONARY);
    if size > allowed {
        return Err(fail(format!(
            "folder {f} coder {c}: {kind} dictionary of {size} bytes for {unpacked} unpacked, \
             more than the {allowed} accepted (the decoder reserves it whole)"
        )));
    }
    Ok(())
}

fn sub_streams_info(b: &mut Bytes, folders: &mut [Folder]) -> Result<()> {
    let mut nid = b.byte("sub-streams property")?;
    if nid == id::NUM_UNPACK_STREAM {
        let mut total = 0u64;
        for folder in folders.iter_mut() {
            folder.sub_streams = b.number("sub-stream count")?;
            total = total.saturating_add(folder.sub_streams);
            if total > MAX_PACKAGE_ENTRIES as u64 {
                return Err(b.fail_before(format!(
                    "sub-streams past the {MAX_PACKAGE_ENTRIES} members accepted"
                )));
            }
        }
        nid = b.byte("sub-streams property")?;
    }
    if nid == id::SIZE {
        for (f, folder) in folders.iter().enumerate() {
            let mut sum = 0u64;
            for _ in 1..folder.sub_streams.max(1) {
                sum = sum.saturating_add(b.number("sub-stream size")?);
            }
            if sum > folder.unpack_size() {
                return Err(b.fail_before(format!(
                    "folder {f}: sub-streams of {sum} bytes in {} unpacked",
                    folder.unpack_size()
                )));
            }
        }
        nid = b.byte("sub-streams property")?;
    }
    if nid == id::CRC {
        let digests: u64 = folders
            .iter()
            .filter(|f| f.sub_streams != 1 || !f.has_crc)
            .map(|f| f.sub_streams)
            .sum();
        b.digests(digests, "sub-stream CRCs")?;
        nid = b.byte("sub-streams property")?;
    }
    if nid != id::END {
        return Err(b.fail_before(format!("sub-streams info ends with {nid:#04x}, not 0x00")));
    }
    Ok(())
}

/// The files: a name each, and as many with data as the folders hold.
fn files_info(b: &mut Bytes, streams: &StreamsInfo) -> Result<()> {
    // Each file needs at least a name's two-byte terminator.
    let n = b.count("files", 2, MAX_PACKAGE_ENTRIES as u64)?;
    let mut empty_streams: Option<u64> = None;
    let mut names = false;
    loop {
        let kind = b.byte("file property")?;
        if kind == id::END {
            break;
        }
        let size = b.number("file property size")?;
        if size > b.left() as u64 {
            return Err(b.fail_before(format!(
                "file property {kind:#04x} of {size} bytes, {} left",
                b.left()
            )));
        }
        let start = b.pos;
        match kind {
            id::EMPTY_STREAM => empty_streams = Some(b.bits(n, "empty streams")?),
            id::EMPTY_FILE | id::ANTI => {
                let Some(empty) = empty_streams else {
                    return Err(b.fail_before(format!(
                        "file property {kind:#04x} before the empty streams"
                    )));
                };
                b.bits(empty, "empty files")?;
            }
            id::NAME => {
                if b.byte("names external")? != 0 {
                    return Err(b.fail_before("names stored elsewhere (external): not read".into()));
                }
                let bytes = size.checked_sub(1).filter(|s| s % 2 == 0).ok_or_else(|| {
                    b.fail_before(format!("names of {size} bytes (1 + UTF-16 text)"))
                })?;
                let text = b.take(bytes, "names")?;
                let ends: Vec<usize> = (0..text.len() / 2)
                    .filter(|i| text[2 * i] == 0 && text[2 * i + 1] == 0)
                    .collect();
                if ends.len() as u64 != n || ends.last().is_some_and(|&e| 2 * e + 2 != text.len()) {
                    return Err(b.fail(format!("{} terminated names for {n} files", ends.len())));
                }
                names = true;
            }
            id::C_TIME | id::A_TIME | id::M_TIME | id::WIN_ATTRIBUTES => {
                let defined = b.defined(n, "file times")?;
                if b.byte("file times external")? != 0 {
                    return Err(b.fail_before("file times stored elsewhere: not read".into()));
                }
                let each = if kind == id::WIN_ATTRIBUTES { 4 } else { 8 };
                b.take(each * defined, "file times")?;
            }
            id::START_POS => return Err(b.fail_before("file start positions: not read".into())),
            _ => {
                b.take(size, "file property")?;
            }
        }
        // The crate reads what a property holds, not its size: they must agree.
        if (b.pos - start) as u64 != size {
            return Err(b.fail(format!(
                "file property {kind:#04x} declares {size} bytes and holds {}",
                b.pos - start
            )));
        }
    }
    if !names && n > 0 {
        return Err(b.fail(format!("{n} files without names")));
    }
    let with_data = n - empty_streams.unwrap_or(0).min(n);
    let sub_streams: u64 = streams.folders.iter().map(|f| f.sub_streams).sum();
    if with_data > 0 && !streams.has_sub_streams {
        return Err(b.fail(format!("{with_data} files with data and no sub-streams")));
    }
    if with_data != sub_streams {
        return Err(b.fail(format!("{with_data} files with data for {sub_streams} sub-streams")));
    }
    Ok(())
}

/// Decodes an encoded header's first folder (stored, LZMA or LZMA2), at most [`MAX_PK7_HEADER`]
/// bytes out of each coder.
fn decode_header<R: Read + Seek>(
    name: &str,
    reader: &mut R,
    len: u64,
    streams: &StreamsInfo,
    header_at: u64,
) -> Result<Vec<u8>> {
    let what = "7z encoded header";
    let fail = |msg: String| FormatError::new(name, what, header_at, msg);
    let (Some(folder), Some(&pack_size)) = (streams.folders.first(), streams.pack_sizes.first())
    else {
        return Err(fail("no folder holds the header".into()));
    };
    let at = START_HEADER.saturating_add(streams.pack_pos);
    let mut data = read_at(name, reader, len, at, pack_size, what)?;
    for &c in &folder.order {
        let coder = &folder.coders[c];
        let out_len = folder.unpack_sizes.get(c).copied().unwrap_or(0);
        if out_len > MAX_PK7_HEADER {
            return Err(fail(format!("unpacks to {out_len} bytes, more than {MAX_PK7_HEADER}")));
        }
        // The dictionary never has to hold more than the whole output.
        let window = out_len.max(4096) as u32;
        let decoded: std::io::Result<Vec<u8>> = if coder.method == METHOD_COPY {
            Ok(data.clone())
        } else if coder.method == METHOD_LZMA {
            let p = &coder.props;
            let dict = u32::from_le_bytes([p[1], p[2], p[3], p[4]]).min(window);
            lzma_rust2::LzmaReader::new_with_props(data.as_slice(), out_len, p[0], dict, None)
                .and_then(|r| read_up_to(r, out_len))
        } else if coder.method == METHOD_LZMA2 {
            let r = lzma_rust2::Lzma2Reader::new(data.as_slice(), window, None);
            read_up_to(r, out_len)
        } else {
            return Err(fail(format!(
                "coded with method {}; headers coded with LZMA, LZMA2 or stored are read \
                 (an encrypted archive?)",
                hex(&coder.method)
            )));
        };
        data = decoded.map_err(|e| fail(format!("cannot decode: {e}")))?;
        if data.len() as u64 != out_len {
            return Err(fail(format!("decodes to {} bytes, not {out_len}", data.len())));
        }
    }
    Ok(data)
}

fn read_up_to(r: impl Read, n: u64) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    r.take(n).read_to_end(&mut out)?;
    Ok(out)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
