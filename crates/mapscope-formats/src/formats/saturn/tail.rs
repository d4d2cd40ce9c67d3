//! The segments around the texture list that a viewer does not draw but must walk to know
//! where each ends: Table Data 1, the global palette, Table Data 2, the embedded resources
//! and the visibility block, which must end exactly at end of file.

use crate::formats::{Reader, Result};

pub const TABLE1_ELEMENT_BYTES: usize = 16;
/// Three 1028-byte blocks at the start of Table Data 2.
pub const TABLE2_FIXED_BYTES: usize = 3084;
const EMBEDDED_HEADER_BYTES: usize = 16;
const RESOURCE_HEADER_BYTES: usize = 60;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableData1 {
    pub size1: i32,
    /// (dataSize, three unknown words) per element.
    pub elements: Vec<[i32; 4]>,
}

/// Table Data 1 as the seed reads it: `size1`, a count, then 16-byte elements. The seed's loop
/// skips no per-element data and every known test file has `dataSize` 0, so none is skipped.
pub fn parse_table1(r: &mut Reader) -> Result<TableData1> {
    let mut t = r.structure("table data 1");
    let size1 = t.i32_be()?;
    let count_at = t.pos();
    let count = t.i32_be()?;
    if count < 0 {
        return Err(t.error_at(count_at, format!("negative element count {count}")));
    }
    t.check_count(count as usize, TABLE1_ELEMENT_BYTES, "elements")?;
    let mut elements = Vec::with_capacity(count as usize);
    for _ in 0..count {
        elements.push([t.i32_be()?, t.i32_be()?, t.i32_be()?, t.i32_be()?]);
    }
    r.seek(t.pos())?;
    Ok(TableData1 { size1, elements })
}

/// The global palette: an int32 byte size (1024 in every known file), then colour words.
pub fn parse_global_palette(r: &mut Reader) -> Result<Vec<u16>> {
    let mut p = r.structure("global palette");
    let size_at = p.pos();
    let size = p.i32_be()?;
    if size < 0 || size % 2 != 0 {
        return Err(p.error_at(size_at, format!("bad palette size {size} (expected 1024)")));
    }
    p.check_count(size as usize / 2, 2, "colour words")?;
    let words = (0..size / 2).map(|_| p.u16_be()).collect::<Result<Vec<u16>>>()?;
    r.seek(p.pos())?;
    Ok(words)
}

/// Where the segments after the texture list start, and Table Data 2's chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    pub table_data_2: u64,
    /// (type, size) of each chunk after the fixed 3084 bytes.
    pub table2_chunks: Vec<(i16, u32)>,
    pub embedded_resources: u64,
    pub visibility: u64,
}

/// Walks Table Data 2, the embedded resources and visibility from the reader's position.
///
/// The seed gives no count or terminator for Table Data 2's chunks; the count is the one
/// (searched from 0 up) after which the embedded resources and visibility, skipped by their
/// size rules, end exactly at end of file. Every step moves forward at least 6 bytes, so the
/// search ends.
pub fn parse_tail(r: &Reader) -> Result<Tail> {
    let table_data_2 = r.pos();
    let mut t = r.structure("table data 2");
    t.skip(TABLE2_FIXED_BYTES)?;
    let mut chunks = Vec::new();
    let mut last_failure;
    loop {
        match ends_at_eof(r, t.pos()) {
            Ok((embedded, visibility)) => {
                return Ok(Tail {
                    table_data_2: table_data_2 as u64,
                    table2_chunks: chunks,
                    embedded_resources: embedded as u64,
                    visibility: visibility as u64,
                })
            }
            Err(e) => last_failure = e,
        }
        let at = t.pos();
        if t.remaining() < 6 {
            break;
        }
        let kind = t.i16_be()?;
        let size = t.i32_be()?;
        if size < 0 || size as usize > t.remaining() {
            return Err(t.error_at(
                at,
                format!(
                    "chunk {} (type {kind}) has size {size} ({} bytes remain); no chunk count before it lets the rest of the file end at EOF (last try: {last_failure})",
                    chunks.len(),
                    t.remaining()
                ),
            ));
        }
        t.skip(size as usize)?;
        chunks.push((kind, size as u32));
    }
    Err(t.error(format!(
        "no chunk count lets the embedded resources and visibility end at EOF (last try: {last_failure})"
    )))
}

/// Skips embedded resources and visibility from `start`; Ok((embedded, visibility)) when the
/// visibility block ends exactly at end of file.
fn ends_at_eof(r: &Reader, start: usize) -> Result<(usize, usize)> {
    let mut e = r.structure("embedded resources");
    e.seek(start)?;
    let first_part = e.i32_be()?;
    if first_part < 0 {
        return Err(e.error_at(start, format!("negative first-part size {first_part}")));
    }
    e.seek(start)?;
    e.skip(EMBEDDED_HEADER_BYTES)?;
    e.skip(first_part as usize)?;
    let resource = e.pos();
    let header = e.bytes(RESOURCE_HEADER_BYTES)?;
    let block = i32::from_be_bytes([header[56], header[57], header[58], header[59]]);
    if block < 0 {
        return Err(e.error_at(resource + 56, format!("negative resource block size {block}")));
    }
    e.skip(block as usize)?;
    let visibility = e.pos();
    let mut v = e.structure("visibility");
    let size = v.i32_be()?;
    if size < 0 {
        return Err(v.error_at(visibility, format!("negative size {size}")));
    }
    v.skip(size as usize)?;
    if v.remaining() != 0 {
        return Err(v.error(format!("ends {} bytes before end of file", v.remaining())));
    }
    Ok((start, visibility))
}
