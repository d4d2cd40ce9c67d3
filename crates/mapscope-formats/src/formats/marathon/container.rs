//! Mac file wrappers around a wad: MacBinary II and AppleSingle keep the wad in the data fork.
//! Every offset inside the wad is relative to the start of that fork.

use crate::formats::{Reader, Result};

/// How the wad was stored in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    Plain,
    MacBinary,
    AppleSingle,
}

impl Container {
    pub fn name(self) -> &'static str {
        match self {
            Container::Plain => "plain",
            Container::MacBinary => "macbinary",
            Container::AppleSingle => "applesingle",
        }
    }
}

/// Where the data fork lies within the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFork {
    pub container: Container,
    pub offset: usize,
    pub length: usize,
    /// MacBinary only: the resource fork's length (Marathon files leave it empty).
    pub resource_length: usize,
}

impl DataFork {
    pub fn slice<'a>(&self, data: &'a [u8]) -> &'a [u8] {
        // `locate` checked offset + length against the file.
        data.get(self.offset..self.offset + self.length).unwrap_or(&[])
    }
}

const MACBINARY_HEADER: usize = 128;
const APPLESINGLE_MAGIC: u32 = 0x0005_1600;
const APPLESINGLE_DATA_FORK: u32 = 1;

/// Finds the data fork of `data`: the whole file unless a MacBinary II header (with a valid
/// CRC) or an AppleSingle header says otherwise.
pub fn locate(file: &str, data: &[u8]) -> Result<DataFork> {
    if is_macbinary(data) {
        return macbinary_fork(file, data);
    }
    if data.len() >= 4
        && u32::from_be_bytes([data[0], data[1], data[2], data[3]]) == APPLESINGLE_MAGIC
    {
        return applesingle_fork(file, data, true);
    }
    Ok(DataFork { container: Container::Plain, offset: 0, length: data.len(), resource_length: 0 })
}

/// The wrapper and data fork offset, from the header alone (the fork's length is not checked):
/// enough for format detection on the start of a file.
pub fn peek(data: &[u8]) -> (Container, usize) {
    if is_macbinary(data) {
        (Container::MacBinary, MACBINARY_HEADER)
    } else if data.len() >= 4
        && u32::from_be_bytes([data[0], data[1], data[2], data[3]]) == APPLESINGLE_MAGIC
    {
        let offset = applesingle_fork("", data, false).map_or(usize::MAX, |f| f.offset);
        (Container::AppleSingle, offset)
    } else {
        (Container::Plain, 0)
    }
}

/// MacBinary II: zero bytes at 0, 74 and 82, a name of 1..63 bytes, and a CRC-16/XMODEM of
/// bytes 0..124 stored at 124. Without the CRC a plain wad could pass the other checks.
fn is_macbinary(data: &[u8]) -> bool {
    let Some(h) = data.get(..MACBINARY_HEADER) else {
        return false;
    };
    h[0] == 0
        && h[74] == 0
        && h[82] == 0
        && (1..=63).contains(&h[1])
        && crc16_xmodem(&h[..124]) == u16::from_be_bytes([h[124], h[125]])
}

fn macbinary_fork(file: &str, data: &[u8]) -> Result<DataFork> {
    let mut r = Reader::new(file, "MacBinary header", data);
    r.seek(83)?;
    let data_len = r.u32_be()? as usize;
    let resource_len = r.u32_be()? as usize;
    if data_len > data.len() - MACBINARY_HEADER {
        return Err(r.error_at(
            83,
            format!(
                "data fork of {data_len} bytes runs past the end of the file ({} bytes)",
                data.len()
            ),
        ));
    }
    Ok(DataFork {
        container: Container::MacBinary,
        offset: MACBINARY_HEADER,
        length: data_len,
        resource_length: resource_len,
    })
}

/// The data fork entry; `check_length` false when `data` is only the start of the file.
fn applesingle_fork(file: &str, data: &[u8], check_length: bool) -> Result<DataFork> {
    let mut r = Reader::new(file, "AppleSingle header", data);
    r.seek(24)?;
    let count = r.u16_be()? as usize;
    r.check_count(count, 12, "entries")?;
    for _ in 0..count {
        let id = r.u32_be()?;
        let offset = r.u32_be()? as usize;
        let length = r.u32_be()? as usize;
        if id != APPLESINGLE_DATA_FORK {
            continue;
        }
        if check_length && offset.checked_add(length).is_none_or(|end| end > data.len()) {
            return Err(r.error_at(
                r.pos() - 8,
                format!("data fork ({length} bytes at {offset}) runs past the end of the file"),
            ));
        }
        return Ok(DataFork {
            container: Container::AppleSingle,
            offset,
            length,
            resource_length: 0,
        });
    }
    Err(r.error_at(24, "no data fork entry (id 1)"))
}

/// CRC-16/XMODEM (polynomial 0x1021, initial value 0), as MacBinary II uses it.
pub fn crc16_xmodem(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &b in bytes {
        crc ^= (b as u16) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

/// zlib's CRC-32, the wad checksum (computed with the checksum field zeroed).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_check_values() {
        assert_eq!(crc16_xmodem(b"123456789"), 0x31C3);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn plain_data_is_its_own_fork() {
        let f = locate("f", &[0, 4, 0, 1]).unwrap();
        assert_eq!((f.container, f.offset, f.length), (Container::Plain, 0, 4));
    }
}
