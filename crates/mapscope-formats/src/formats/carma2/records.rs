//! BRender datafile records: `u32 type, u32 length, data`, big-endian, one object after another,
//! each object closed by an end record (type 0).
//!
//! Known records are decoded by their *content*, as the game does: the tools that wrote the
//! original files (Plaything among them) put wrong length words on several record types, and
//! the game ignores them. The length word is used only to skip record types we do not know.

use crate::formats::{FormatError, Reader, Result};

/// FID_END: closes one object (model, material, pixelmap, actor hierarchy).
pub const END: u32 = 0x00;
/// C1 FID_OLD_PIXELMAP: like [`PIXELMAP`] without the mip offset.
pub const OLD_PIXELMAP: u32 = 0x03;
/// C1 FID_MATERIAL_OLDEST: like [`MATERIAL`] with 16-bit flags and no fog fields.
pub const OLD_MATERIAL: u32 = 0x04;
/// FID_FILE_INFO: u32 file type, u32 version; the first record of every file.
pub const FILE_INFO: u32 = 0x12;
/// FID_MATERIAL_INDEX: the model's material names.
pub const MATERIAL_INDEX: u32 = 0x16;
/// FID_VERTICES.
pub const VERTICES: u32 = 0x17;
/// FID_VERTEX_UV: one (u, v) per vertex.
pub const VERTEX_UV: u32 = 0x18;
/// FID_FACE_MATERIAL: 1-based indices into the material names, one per face.
pub const FACE_MATERIAL: u32 = 0x1A;
/// FID_COLOUR_MAP_REF: the material's pixelmap name.
pub const COLOUR_MAP_REF: u32 = 0x1C;
/// FID_INDEX_SHADE_REF: the material's shade table name (C1).
pub const INDEX_SHADE_REF: u32 = 0x1F;
/// FID_PIXELS: u32 count, u32 bytes per element, the pixels.
pub const PIXELS: u32 = 0x21;
/// FID_ADD_MAP: pops a pixelmap and attaches it as the palette of the one below.
pub const ADD_MAP: u32 = 0x22;
/// FID_ACTOR: u8 type, u8 render style, name; pushes an actor.
pub const ACTOR: u32 = 0x23;
/// FID_ACTOR_MODEL: the actor's model name.
pub const ACTOR_MODEL: u32 = 0x24;
/// FID_ACTOR_TRANSFORM: pops the pending matrix into the actor.
pub const ACTOR_TRANSFORM: u32 = 0x25;
/// FID_ACTOR_MATERIAL: the actor's default material name.
pub const ACTOR_MATERIAL: u32 = 0x26;
/// FID_ACTOR_BOUNDS: pops the pending bounds into the actor.
pub const ACTOR_BOUNDS: u32 = 0x29;
/// FID_ACTOR_ADD_CHILD: pops the actor and adds it to the one below.
pub const ACTOR_ADD_CHILD: u32 = 0x2A;
/// FID_TRANSFORM_MATRIX34: 12 floats; pushes a matrix.
pub const TRANSFORM_MATRIX34: u32 = 0x2B;
/// FID_BOUNDS: 6 floats; pushes a bounding box.
pub const BOUNDS: u32 = 0x32;
/// FID_FACES: per face 3 x u16 vertex, u16 smoothing groups, u8 flags.
pub const FACES: u32 = 0x35;
/// FID_OLD_MODEL_2: u16 flags, name; starts a model.
pub const MODEL: u32 = 0x36;
/// FID_MATERIAL_OLD: colour, lighting, flags, uv matrix, index range, fog, name.
pub const MATERIAL: u32 = 0x3C;
/// FID_PIXELMAP: type, row bytes, size, origin, mip offset, name; pushes a pixelmap.
pub const PIXELMAP: u32 = 0x3D;

/// Structure names for error messages, by record type.
pub fn record_name(kind: u32) -> &'static str {
    match kind {
        END => "end record",
        OLD_PIXELMAP => "record 0x03 (old pixelmap)",
        OLD_MATERIAL => "record 0x04 (old material)",
        FILE_INFO => "record 0x12 (file info)",
        MATERIAL_INDEX => "record 0x16 (material names)",
        VERTICES => "record 0x17 (vertices)",
        VERTEX_UV => "record 0x18 (texture coordinates)",
        FACE_MATERIAL => "record 0x1A (face materials)",
        COLOUR_MAP_REF => "record 0x1C (image name)",
        INDEX_SHADE_REF => "record 0x1F (shade table name)",
        PIXELS => "record 0x21 (pixels)",
        ADD_MAP => "record 0x22 (add map)",
        ACTOR => "record 0x23 (actor)",
        ACTOR_MODEL => "record 0x24 (actor model)",
        ACTOR_TRANSFORM => "record 0x25 (actor transform)",
        ACTOR_MATERIAL => "record 0x26 (actor material)",
        ACTOR_BOUNDS => "record 0x29 (actor bounds)",
        ACTOR_ADD_CHILD => "record 0x2A (add child)",
        TRANSFORM_MATRIX34 => "record 0x2B (matrix)",
        BOUNDS => "record 0x32 (bounds)",
        FACES => "record 0x35 (faces)",
        MODEL => "record 0x36 (model)",
        MATERIAL => "record 0x3C (material)",
        PIXELMAP => "record 0x3D (pixelmap)",
        _ => "record header",
    }
}

/// The file type word of the first record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileType {
    Actors,
    Pixelmaps,
    Materials,
    Models,
}

impl FileType {
    pub fn from_code(code: u32) -> Option<FileType> {
        match code {
            1 => Some(FileType::Actors),
            2 => Some(FileType::Pixelmaps),
            5 => Some(FileType::Materials),
            0xFACE => Some(FileType::Models),
            _ => None,
        }
    }

    pub fn code(self) -> u32 {
        match self {
            FileType::Actors => 1,
            FileType::Pixelmaps => 2,
            FileType::Materials => 5,
            FileType::Models => 0xFACE,
        }
    }
}

/// Reads the file info record that opens every BRender file and returns its file type.
pub fn file_type(file: &str, data: &[u8]) -> Result<FileType> {
    let mut r = Reader::new(file, record_name(FILE_INFO), data);
    let kind = r.u32_be()?;
    let length = r.u32_be()?;
    if kind != FILE_INFO || length != 8 {
        return Err(r.error_at(
            0,
            format!(
                "not a BRender file: first record is type 0x{kind:x} length {length}, expected \
                 the file info record 0x12 of length 8"
            ),
        ));
    }
    let code = r.u32_be()?;
    FileType::from_code(code)
        .ok_or_else(|| r.error_at(8, format!("unknown BRender file type 0x{code:x}")))
}

/// Notes about one file, capped so that a file full of bad records cannot flood `info`.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    lines: Vec<String>,
    dropped: usize,
}

impl Notes {
    const MAX_LINES: usize = 32;

    pub fn push(&mut self, line: impl Into<String>) {
        if self.lines.len() < Self::MAX_LINES {
            self.lines.push(line.into());
        } else {
            self.dropped += 1;
        }
    }

    pub fn lines(&self) -> Vec<String> {
        let mut out = self.lines.clone();
        if self.dropped > 0 {
            out.push(format!("... and {} more notes", self.dropped));
        }
        out
    }
}

/// Decodes the records of one file type, one object at a time.
pub trait ObjectReader {
    type Object;
    /// Decodes the content of a record of type `kind`. Returns `false` for types this reader
    /// does not know; they are skipped by their length word.
    fn record(&mut self, kind: u32, body: &mut Reader, notes: &mut Notes) -> Result<bool>;
    /// The end record: the completed object, if the records before it made one.
    fn end(&mut self, notes: &mut Notes) -> Option<Self::Object>;
}

/// What reading one file gave: the objects completed before any error, notes on records that
/// were skipped, and the error that stopped the reading.
#[derive(Debug)]
pub struct Parsed<T> {
    pub objects: Vec<T>,
    pub notes: Vec<String>,
    pub error: Option<FormatError>,
    /// Record types in the order they first appear (file info record excluded).
    pub record_types: Vec<u32>,
    /// Known records whose length word disagrees with their decoded content.
    pub length_mismatches: u32,
}

/// Reads every record of `data` (a whole BRender file) through `reader`.
pub fn read_objects<R: ObjectReader>(file: &str, data: &[u8], mut reader: R) -> Parsed<R::Object> {
    let mut out = Parsed {
        objects: Vec::new(),
        notes: Vec::new(),
        error: None,
        record_types: Vec::new(),
        length_mismatches: 0,
    };
    let mut notes = Notes::default();
    let mut in_object = false;
    let result = (|| -> Result<()> {
        // The file info record is read like any other (skipped), so a file whose first
        // record is damaged still yields the objects after it.
        let mut r = Reader::new(file, "record header", data);
        // Every pass consumes at least the 8-byte header, so the loop ends.
        while r.remaining() > 0 {
            let start = r.pos();
            let mut head = r.structure("record header");
            let kind = head.u32_be()?;
            let length = head.u32_be()? as usize;
            if kind != FILE_INFO && !out.record_types.contains(&kind) {
                out.record_types.push(kind);
            }
            let mut body = head.structure(record_name(kind));
            let body_start = body.pos();
            if kind == END {
                if let Some(obj) = reader.end(&mut notes) {
                    out.objects.push(obj);
                }
                in_object = false;
            } else if kind == FILE_INFO {
                body.skip(8)?;
            } else if reader.record(kind, &mut body, &mut notes)? {
                in_object = true;
            } else {
                if length > body.remaining() {
                    return Err(head.error_at(
                        start,
                        format!(
                            "record 0x{kind:x} at {start} with length {length} runs past end \
                             of file"
                        ),
                    ));
                }
                notes.push(format!("{file}: unknown record 0x{kind:x} at {start} skipped"));
                body.skip(length)?;
            }
            let used = body.pos() - body_start;
            if kind != END && used != length {
                out.length_mismatches += 1;
            }
            r = body;
        }
        if in_object {
            notes.push(format!("{file}: last object has no end record; dropped"));
        }
        Ok(())
    })();
    out.error = result.err();
    out.notes = notes.lines();
    out
}

/// A NUL-terminated string (identifiers are compared case-insensitively later).
pub fn cstr(r: &mut Reader, what: &str) -> Result<String> {
    let rest = r.slice_at(r.pos(), r.remaining())?;
    match rest.iter().position(|&b| b == 0) {
        Some(n) => {
            let bytes = r.bytes(n + 1)?;
            Ok(String::from_utf8_lossy(&bytes[..n]).into_owned())
        }
        None => Err(r.error(format!("unterminated string ({what})"))),
    }
}

/// `N` big-endian floats.
pub fn floats<const N: usize>(r: &mut Reader) -> Result<[f32; N]> {
    let mut out = [0f32; N];
    for v in &mut out {
        *v = r.f32_be()?;
    }
    Ok(out)
}

/// A `u32` count of elements of `size` bytes, checked against the bytes that follow.
pub fn count(r: &mut Reader, size: usize, what: &str) -> Result<usize> {
    let pos = r.pos();
    let n = r.u32_be()? as usize;
    if r.check_count(n, size, what).is_err() {
        let need = (n as u128) * (size as u128);
        return Err(r.error_at(
            pos,
            format!("{what} count {n} needs {need} bytes, {} left", r.remaining()),
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Names(Vec<String>);

    impl ObjectReader for Names {
        type Object = Vec<String>;
        fn record(&mut self, kind: u32, body: &mut Reader, _: &mut Notes) -> Result<bool> {
            if kind != ACTOR_MODEL {
                return Ok(false);
            }
            self.0.push(cstr(body, "name")?);
            Ok(true)
        }
        fn end(&mut self, _: &mut Notes) -> Option<Vec<String>> {
            Some(std::mem::take(&mut self.0))
        }
    }

    fn file(records: &[(u32, u32, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for w in [FILE_INFO, 8, 1, 2] {
            out.extend(w.to_be_bytes());
        }
        for (kind, len, body) in records {
            out.extend(kind.to_be_bytes());
            out.extend(len.to_be_bytes());
            out.extend_from_slice(body);
        }
        out
    }

    #[test]
    fn known_records_are_read_by_content_not_length() {
        // Length words 2 too small and 3 too large; the content still decodes.
        let data = file(&[(ACTOR_MODEL, 3, b"ABCD\0"), (ACTOR_MODEL, 6, b"X\0"), (END, 0, b"")]);
        let p = read_objects("t.act", &data, Names(Vec::new()));
        assert!(p.error.is_none(), "{:?}", p.error);
        assert_eq!(p.objects, vec![vec!["ABCD".to_string(), "X".to_string()]]);
        assert_eq!(p.length_mismatches, 2);
        assert_eq!(p.record_types, vec![ACTOR_MODEL, END]);
    }

    #[test]
    fn unknown_records_are_skipped_by_length_with_a_note() {
        let data = file(&[(0x7777, 3, b"abc"), (ACTOR_MODEL, 2, b"Q\0"), (END, 0, b"")]);
        let p = read_objects("t.act", &data, Names(Vec::new()));
        assert_eq!(p.objects, vec![vec!["Q".to_string()]]);
        assert!(p.notes[0].contains("0x7777"), "{:?}", p.notes);
    }

    #[test]
    fn huge_skip_and_unterminated_names_are_errors_with_offsets() {
        let data = file(&[(0x7777, 0xFFFF_FFF0, b"")]);
        let e = read_objects("t.act", &data, Names(Vec::new())).error.unwrap();
        assert_eq!(e.offset, 16);
        assert!(e.message.contains("runs past end"), "{e}");

        let data = file(&[(ACTOR_MODEL, 4, b"ABCD")]);
        let e = read_objects("t.act", &data, Names(Vec::new())).error.unwrap();
        assert!(e.message.contains("unterminated"), "{e}");
        assert_eq!(e.offset, 24);
    }

    #[test]
    fn files_without_the_info_record_are_refused() {
        let e = file_type("x", b"RIFF\0\0\0\x08\0\0\0\x01\0\0\0\x02").unwrap_err();
        assert!(e.message.contains("not a BRender file"), "{e}");
        assert_eq!(file_type("x", &file(&[])).unwrap(), FileType::Actors);
    }

    #[test]
    fn counts_are_checked_against_the_bytes_left() {
        let data = [0x10u8, 0, 0, 0, 1, 2, 3];
        let mut r = Reader::new("f", "vertices", &data);
        let e = count(&mut r, 12, "vertex").unwrap_err();
        assert!(e.message.contains("vertex count 268435456 needs 3221225472 bytes"), "{e}");
    }
}
