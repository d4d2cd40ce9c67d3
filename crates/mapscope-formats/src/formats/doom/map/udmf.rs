//! The UDMF 1.1 text grammar (`TEXTMAP`): global assignments and blocks of assignments.
//!
//! ```text
//! translation_unit := (block | assignment)*
//! block            := identifier '{' assignment* '}'
//! assignment       := identifier '=' value ';'
//! value            := integer | float | quoted_string | keyword
//! ```
//! Identifiers are case-insensitive (kept lower-cased here); integers are decimal, octal
//! (leading 0) or hexadecimal (0x); `true`/`false` are booleans and any other bare word is
//! kept as a keyword. `//` and `/* */` comments count as white space.
//!
//! Bounded: the input size, the number of blocks and of assignments are capped, and every
//! error names the byte offset (relative to the file when a base is given) and line.

use crate::formats::{FormatError, Result};
use crate::limits::doom::{MAX_UDMF_ASSIGNMENTS, MAX_UDMF_BLOCKS, MAX_UDMF_INPUT};

#[derive(Clone, Debug, PartialEq)]
pub enum UdmfValue {
    Int(i64),
    Float(f64),
    Str(String),
    Bool(bool),
    /// A bare word other than `true`/`false`.
    Keyword(String),
}

impl UdmfValue {
    /// The value as a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            UdmfValue::Int(i) => Some(i as f64),
            UdmfValue::Float(f) => Some(f),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match *self {
            UdmfValue::Int(i) => Some(i),
            // Editors sometimes write integral fields as floats.
            UdmfValue::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 9e15 => {
                Some(f as i64)
            }
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            UdmfValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            UdmfValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// One `kind { ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct UdmfBlock {
    /// Lower-cased block name: `vertex`, `linedef`, `sidedef`, `sector`, `thing`, ...
    pub kind: String,
    /// Byte offset of the block name.
    pub offset: u64,
    /// Assignments in file order, keys lower-cased.
    pub fields: Vec<(String, UdmfValue)>,
}

impl UdmfBlock {
    /// The last value assigned to `key` (lower-case).
    pub fn get(&self, key: &str) -> Option<&UdmfValue> {
        self.fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UdmfDocument {
    /// Global assignments such as `namespace = "zdoom";`.
    pub globals: Vec<(String, UdmfValue)>,
    pub blocks: Vec<UdmfBlock>,
    /// Keys written as a number, `true`/`false` or a quoted string rather than a name, read by
    /// their text (see [`token_key`]): how many, and the first one's text and line.
    pub token_keys: usize,
    pub first_token_key: Option<(String, usize)>,
}

impl UdmfDocument {
    /// The `namespace` global, lower-cased.
    pub fn namespace(&self) -> Option<String> {
        self.globals
            .iter()
            .rev()
            .find(|(k, _)| k == "namespace")
            .and_then(|(_, v)| v.as_str())
            .map(str::to_ascii_lowercase)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Value(UdmfValue),
    Open,
    Close,
    Equals,
    Semicolon,
}

struct Lexer<'a> {
    data: &'a [u8],
    pos: usize,
    line: usize,
    file: &'a str,
    base: u64,
}

impl<'a> Lexer<'a> {
    fn error_at(&self, pos: usize, line: usize, message: impl Into<String>) -> FormatError {
        FormatError::new(
            self.file,
            "TEXTMAP",
            self.base + pos as u64,
            format!("line {line}: {}", message.into()),
        )
    }

    fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.pos += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips white space and comments.
    fn skip_space(&mut self) -> Result<()> {
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_whitespace() => {
                    self.bump();
                }
                Some(b'/') if self.data.get(self.pos + 1) == Some(&b'/') => {
                    while let Some(c) = self.peek() {
                        if c == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                Some(b'/') if self.data.get(self.pos + 1) == Some(&b'*') => {
                    let (start, line) = (self.pos, self.line);
                    self.pos += 2;
                    loop {
                        match self.peek() {
                            None => {
                                return Err(self.error_at(start, line, "unterminated /* comment"))
                            }
                            Some(b'*') if self.data.get(self.pos + 1) == Some(&b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(_) => {
                                self.bump();
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// The next token with its byte offset and line, or `None` at the end.
    fn next(&mut self) -> Result<Option<(Token, usize, usize)>> {
        self.skip_space()?;
        let (start, line) = (self.pos, self.line);
        let Some(c) = self.peek() else { return Ok(None) };
        let single = match c {
            b'{' => Some(Token::Open),
            b'}' => Some(Token::Close),
            b'=' => Some(Token::Equals),
            b';' => Some(Token::Semicolon),
            _ => None,
        };
        if let Some(t) = single {
            self.bump();
            return Ok(Some((t, start, line)));
        }
        if c == b'"' {
            return self.string(start, line).map(|s| Some((Token::Value(s), start, line)));
        }
        // A bare word: runs to a delimiter (the spec's `keyword`), then classified.
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || b"{}();=\"'".contains(&c) {
                break;
            }
            if c == b'/' && matches!(self.data.get(self.pos + 1), Some(b'/') | Some(b'*')) {
                break;
            }
            self.bump();
        }
        if self.pos == start {
            return Err(self.error_at(
                start,
                line,
                format!("unexpected character {:?}", c as char),
            ));
        }
        let word = String::from_utf8_lossy(&self.data[start..self.pos]).into_owned();
        let token = classify(&word).map_err(|m| self.error_at(start, line, m))?;
        Ok(Some((token, start, line)))
    }

    fn string(&mut self, start: usize, line: usize) -> Result<UdmfValue> {
        self.bump();
        let mut out = Vec::new();
        loop {
            match self.bump() {
                None => return Err(self.error_at(start, line, "unterminated string")),
                Some(b'"') => break,
                Some(b'\\') => match self.bump() {
                    None => return Err(self.error_at(start, line, "unterminated string")),
                    Some(b'n') => out.push(b'\n'),
                    Some(b't') => out.push(b'\t'),
                    Some(b'r') => out.push(b'\r'),
                    // `\"`, `\\` and any other escaped character stand for themselves.
                    Some(c) => out.push(c),
                },
                Some(c) => out.push(c),
            }
        }
        Ok(UdmfValue::Str(String::from_utf8_lossy(&out).into_owned()))
    }
}

fn is_identifier(w: &str) -> bool {
    let mut chars = w.bytes();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// A bare word as an identifier, boolean, number or keyword.
fn classify(w: &str) -> std::result::Result<Token, String> {
    let lower = w.to_ascii_lowercase();
    match lower.as_str() {
        "true" => return Ok(Token::Value(UdmfValue::Bool(true))),
        "false" => return Ok(Token::Value(UdmfValue::Bool(false))),
        _ => {}
    }
    if is_identifier(w) {
        return Ok(Token::Ident(lower));
    }
    let first = w.as_bytes()[0];
    if first.is_ascii_digit() || ((first == b'+' || first == b'-' || first == b'.') && w.len() > 1)
    {
        return number(w).map(Token::Value);
    }
    Ok(Token::Value(UdmfValue::Keyword(w.to_string())))
}

/// The key a value token stands for where a key is expected, as GZDoom reads it: its UDMF
/// parser takes a key with `FScanner::MustGetString` (`UDMFParserBase::ParseKey`), which
/// accepts any token and keeps its text, so `1 = 0;` sets a key named "1" (unknown, ignored)
/// and `"x" = 0;` sets `x`. `raw` is the token as written. A leading `+` or a keyword that
/// is not a name splits into several tokens there, then fails GZDoom's `=` check: `None`.
fn token_key(value: &UdmfValue, raw: &str) -> Option<String> {
    match value {
        UdmfValue::Str(s) => Some(s.to_ascii_lowercase()),
        UdmfValue::Int(_) | UdmfValue::Float(_) if raw.starts_with('+') => None,
        UdmfValue::Int(_) | UdmfValue::Float(_) | UdmfValue::Bool(_) => {
            Some(raw.to_ascii_lowercase())
        }
        UdmfValue::Keyword(_) => None,
    }
}

fn number(w: &str) -> std::result::Result<UdmfValue, String> {
    let bad = || format!("malformed number {w:?}");
    let (neg, digits) = match w.as_bytes()[0] {
        b'-' => (true, &w[1..]),
        b'+' => (false, &w[1..]),
        _ => (false, w),
    };
    let lower = digits.to_ascii_lowercase();
    let magnitude = if let Some(hex) = lower.strip_prefix("0x") {
        i64::from_str_radix(hex, 16).map_err(|_| bad())?
    } else if lower.contains(['.', 'e']) {
        let f: f64 = w.parse().map_err(|_| bad())?;
        if !f.is_finite() {
            return Err(bad());
        }
        return Ok(UdmfValue::Float(f));
    } else if lower.len() > 1 && lower.starts_with('0') {
        i64::from_str_radix(&lower[1..], 8).map_err(|_| bad())?
    } else {
        lower.parse::<i64>().map_err(|_| bad())?
    };
    Ok(UdmfValue::Int(if neg { -magnitude } else { magnitude }))
}

/// Parses a whole TEXTMAP; `base` is the lump's offset in its file (for error offsets).
pub fn parse(file: &str, data: &[u8], base: u64) -> Result<UdmfDocument> {
    parse_until(file, data, base, false)
}

/// The `namespace` global, reading only up to the first block (for listing maps cheaply).
pub fn namespace_of(file: &str, data: &[u8], base: u64) -> Result<Option<String>> {
    parse_until(file, data, base, true).map(|d| d.namespace())
}

fn parse_until(file: &str, data: &[u8], base: u64, globals_only: bool) -> Result<UdmfDocument> {
    if data.len() > MAX_UDMF_INPUT {
        return Err(FormatError::new(
            file,
            "TEXTMAP",
            base,
            format!("{} bytes is more than the {MAX_UDMF_INPUT} accepted", data.len()),
        ));
    }
    let mut lx = Lexer { data, pos: 0, line: 1, file, base };
    let mut doc = UdmfDocument::default();
    let mut assignments = 0usize;
    let expect = |lx: &mut Lexer<'_>, want: Token, what: &str| -> Result<()> {
        let (p, l) = (lx.pos, lx.line);
        match lx.next()? {
            Some((t, _, _)) if t == want => Ok(()),
            Some((t, p, l)) => Err(lx.error_at(p, l, format!("expected {what}, found {t:?}"))),
            None => Err(lx.error_at(p, l, format!("expected {what}, found the end"))),
        }
    };
    // Block being filled: (kind, offset, line, fields).
    let mut open: Option<UdmfBlock> = None;
    let mut open_line = 0;
    while let Some((tok, at, line)) = lx.next()? {
        let name = match tok {
            Token::Close if open.is_some() => {
                if let Some(b) = open.take() {
                    doc.blocks.push(b);
                }
                continue;
            }
            Token::Ident(name) => name,
            Token::Value(v) => {
                let raw = String::from_utf8_lossy(&data[at..lx.pos]);
                let Some(key) = token_key(&v, &raw) else {
                    return Err(lx.error_at(at, line, format!("expected a key, found {raw}")));
                };
                doc.token_keys += 1;
                doc.first_token_key.get_or_insert_with(|| (raw.into_owned(), line));
                key
            }
            t => return Err(lx.error_at(at, line, format!("expected a key, found {t:?}"))),
        };
        let (p, l) = (lx.pos, lx.line);
        match lx.next()? {
            Some((Token::Equals, _, _)) => {
                let (vp, vl) = (lx.pos, lx.line);
                let value = match lx.next()? {
                    Some((Token::Value(v), _, _)) => v,
                    // A bare identifier as a value is a keyword.
                    Some((Token::Ident(w), _, _)) => UdmfValue::Keyword(w),
                    Some((t, p, l)) => {
                        return Err(lx.error_at(p, l, format!("expected a value, found {t:?}")))
                    }
                    None => return Err(lx.error_at(vp, vl, "expected a value, found the end")),
                };
                expect(&mut lx, Token::Semicolon, "';'")?;
                assignments += 1;
                if assignments > MAX_UDMF_ASSIGNMENTS {
                    return Err(lx.error_at(at, line, "too many assignments"));
                }
                match open.as_mut() {
                    Some(b) => b.fields.push((name, value)),
                    None => doc.globals.push((name, value)),
                }
            }
            Some((Token::Open, _, _)) if open.is_none() => {
                if globals_only {
                    return Ok(doc);
                }
                if doc.blocks.len() >= MAX_UDMF_BLOCKS {
                    return Err(lx.error_at(at, line, "too many blocks"));
                }
                open = Some(UdmfBlock { kind: name, offset: base + at as u64, fields: Vec::new() });
                open_line = line;
            }
            Some((Token::Open, p, l)) => {
                return Err(lx.error_at(p, l, "blocks cannot be nested"));
            }
            Some((t, p, l)) => {
                return Err(lx.error_at(p, l, format!("expected '=' or '{{', found {t:?}")))
            }
            None => return Err(lx.error_at(p, l, "expected '=' or '{', found the end")),
        }
    }
    if let Some(b) = open {
        return Err(FormatError::new(
            file,
            "TEXTMAP",
            b.offset,
            format!("line {open_line}: block {} is not closed", b.kind),
        ));
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(s: &str) -> UdmfDocument {
        parse("t.wad", s.as_bytes(), 0).unwrap()
    }

    fn err(s: &str) -> FormatError {
        parse("t.wad", s.as_bytes(), 1000).unwrap_err()
    }

    #[test]
    fn every_token_kind() {
        let d = doc("Namespace = \"ZDoom\";\n\
             thing // the first\n{ X = -12.5; y = 0x1F; Angle = 017; type = +3004; \
             skill1 = TRUE; ambush = false; comment = \"a \\\"q\\\" \\\\ b\\n\"; \
             renderstyle = add; big = 1e3; neg = -0x10; zero = 0; }\n\
             /* block\ncomment */ vertex { x = 1.; y = .5; }");
        assert_eq!(d.namespace().as_deref(), Some("zdoom"));
        assert_eq!(d.blocks.len(), 2);
        let t = &d.blocks[0];
        assert_eq!(t.kind, "thing");
        assert_eq!(t.get("x"), Some(&UdmfValue::Float(-12.5)));
        assert_eq!(t.get("y"), Some(&UdmfValue::Int(31)));
        assert_eq!(t.get("angle"), Some(&UdmfValue::Int(15)));
        assert_eq!(t.get("type"), Some(&UdmfValue::Int(3004)));
        assert_eq!(t.get("skill1"), Some(&UdmfValue::Bool(true)));
        assert_eq!(t.get("ambush"), Some(&UdmfValue::Bool(false)));
        assert_eq!(t.get("comment"), Some(&UdmfValue::Str("a \"q\" \\ b\n".into())));
        assert_eq!(t.get("renderstyle"), Some(&UdmfValue::Keyword("add".into())));
        assert_eq!(t.get("big"), Some(&UdmfValue::Float(1000.0)));
        assert_eq!(t.get("neg"), Some(&UdmfValue::Int(-16)));
        assert_eq!(t.get("zero"), Some(&UdmfValue::Int(0)));
        let v = &d.blocks[1];
        assert_eq!((v.kind.as_str(), v.offset), ("vertex", 224));
        assert_eq!(v.get("x"), Some(&UdmfValue::Float(1.0)));
        assert_eq!(v.get("y"), Some(&UdmfValue::Float(0.5)));
    }

    #[test]
    fn errors_name_the_offset_and_line() {
        let e = err("namespace = \"doom\";\nthing { x = 1 }");
        assert_eq!(e.offset, 1000 + 34);
        assert!(e.message.starts_with("line 2:"), "{e}");
        assert!(e.message.contains("expected ';'"), "{e}");

        let e = err("a = \"open");
        assert_eq!(e.offset, 1004);
        assert!(e.message.contains("unterminated string"), "{e}");

        let e = err("x = 1;\n\n/* never closed");
        assert_eq!(e.offset, 1008);
        assert!(e.message.starts_with("line 3:"), "{e}");

        let e = err("thing { x = 1; ");
        assert_eq!(e.offset, 1000);
        assert!(e.message.contains("not closed"), "{e}");

        let e = err("thing { sector { } }");
        assert_eq!(e.offset, 1015);
        assert!(e.message.contains("nested"), "{e}");

        let e = err("x = 0x;");
        assert_eq!(e.offset, 1004);
        assert!(e.message.contains("malformed number"), "{e}");

        let e = err("x = 09;");
        assert!(e.message.contains("malformed number"), "{e}");

        let e = err("}");
        assert!(e.message.contains("expected a key"), "{e}");

        let e = err("x = ;");
        assert_eq!(e.offset, 1004);
        assert!(e.message.contains("expected a value"), "{e}");
    }

    #[test]
    fn a_value_where_a_key_is_expected_is_a_key_named_by_its_text() {
        let d = doc("namespace = \"zdoom\";\n1 = 2;\n\
             vertex { x = 1; 0x1F = 3; \"Y\" = 2; TRUE = 4; -1.5 = 0; }\n7 { a = 1; }");
        assert_eq!(d.globals[1], ("1".to_string(), UdmfValue::Int(2)));
        let v = &d.blocks[0];
        let keys: Vec<&str> = v.fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["x", "0x1f", "y", "true", "-1.5"]);
        // A quoted name is that key, as in GZDoom.
        assert_eq!(v.get("y"), Some(&UdmfValue::Int(2)));
        assert_eq!(d.blocks[1].kind, "7");
        assert_eq!(d.token_keys, 6);
        assert_eq!(d.first_token_key, Some(("1".to_string(), 2)));
        let plain = doc("v { x = 1; }");
        assert_eq!((plain.token_keys, plain.first_token_key), (0, None));
    }

    #[test]
    fn a_stray_token_gzdoom_also_refuses_is_an_error() {
        // GZDoom reads `1` as a key, then wants '='.
        let e = err("v { x = 1;\n 1; }");
        assert!(e.message.starts_with("line 2:"), "{e}");
        assert!(e.message.contains("expected '='"), "{e}");
        assert_eq!(e.offset, 1000 + 13);
        // Its scanner splits these into several tokens, the first not followed by '='.
        for (text, found) in [("v { +1 = 2; }", "+1"), ("v { $a = 2; }", "$a")] {
            let e = err(text);
            assert!(e.message.contains(&format!("expected a key, found {found}")), "{e}");
            assert_eq!(e.offset, 1004, "{e}");
        }
    }

    #[test]
    fn later_assignments_win_and_empty_input_is_empty() {
        let d = doc("v { x = 1; x = 2; }");
        assert_eq!(d.blocks[0].get("x"), Some(&UdmfValue::Int(2)));
        assert_eq!(doc("  // nothing\n"), UdmfDocument::default());
    }

    #[test]
    fn oversized_input_is_refused() {
        let big = vec![b' '; MAX_UDMF_INPUT + 1];
        let e = parse("t.wad", &big, 0).unwrap_err();
        assert!(e.message.contains("accepted"), "{e}");
    }
}
