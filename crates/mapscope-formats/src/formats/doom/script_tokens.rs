//! The tokens of ZDoom's text lumps (TEXTURES; MAPINFO and ANIMDEFS share the syntax):
//! quoted strings, bare words and punctuation, with `//` and `/* */` comments counting as
//! white space. Keywords are compared case-insensitively by the parsers; numbers are bare
//! words read on demand (`-8`, `0.5`), since a name such as `1STFLOOR` may also start with a
//! digit.
//!
//! Bounded: the lump is at most [`MAX_SCRIPT`] bytes and every token consumes at least one
//! byte, so scanning ends; errors give the file offset and the line.

use crate::formats::{FormatError, Result};

use super::archive::wad::Lump;
use crate::limits::doom::MAX_SCRIPT;

/// Characters that are tokens of their own.
const PUNCTUATION: &[u8] = b"{}(),;=:";

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    Word(String),
    Quoted(String),
    Punct(char),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    /// Offset of the token's first byte in the lump.
    pub at: usize,
    pub line: usize,
}

impl Token {
    /// The text of a word or quoted string; `None` for punctuation.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Word(s) | TokenKind::Quoted(s) => Some(s),
            TokenKind::Punct(_) => None,
        }
    }

    /// Whether this is the bare word `keyword` (case-insensitive).
    pub fn is_word(&self, keyword: &str) -> bool {
        matches!(&self.kind, TokenKind::Word(w) if w.eq_ignore_ascii_case(keyword))
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.kind == TokenKind::Punct(c)
    }

    /// How an error message shows the token.
    pub fn describe(&self) -> String {
        match &self.kind {
            TokenKind::Word(w) => format!("'{w}'"),
            TokenKind::Quoted(s) => format!("\"{s}\""),
            TokenKind::Punct(c) => format!("'{c}'"),
        }
    }
}

/// Reads tokens one at a time, with one token of look-ahead.
pub struct Scanner<'a> {
    data: &'a [u8],
    pos: usize,
    line: usize,
    file: &'a str,
    structure: &'a str,
    base: u64,
    peeked: Option<Token>,
}

impl<'a> Scanner<'a> {
    /// A scanner over a lump; errors name `structure` (the lump's role, such as "TEXTURES").
    pub fn new(lump: &Lump<'a>, structure: &'a str) -> Result<Scanner<'a>> {
        if lump.data.len() > MAX_SCRIPT {
            return Err(FormatError::new(
                lump.file,
                structure,
                lump.offset,
                format!("{} bytes, more than the {MAX_SCRIPT} accepted", lump.data.len()),
            ));
        }
        Ok(Scanner {
            data: lump.data,
            pos: 0,
            line: 1,
            file: lump.file,
            structure,
            base: lump.offset,
            peeked: None,
        })
    }

    /// An error at byte `at` of the lump on line `line`.
    pub fn error_at(&self, at: usize, line: usize, message: impl Into<String>) -> FormatError {
        FormatError::new(
            self.file,
            self.structure,
            self.base + at as u64,
            format!("line {line}: {}", message.into()),
        )
    }

    /// An error at `token`.
    pub fn error_on(&self, token: &Token, message: impl Into<String>) -> FormatError {
        self.error_at(token.at, token.line, message)
    }

    /// An error at the end of the lump.
    pub fn error_at_end(&self, message: impl Into<String>) -> FormatError {
        self.error_at(self.data.len(), self.line, message)
    }

    /// File offset of byte `at` of the lump.
    pub fn file_offset(&self, at: usize) -> u64 {
        self.base + at as u64
    }

    pub fn peek(&mut self) -> Result<Option<&Token>> {
        if self.peeked.is_none() {
            self.peeked = self.scan()?;
        }
        Ok(self.peeked.as_ref())
    }

    pub fn next_token(&mut self) -> Result<Option<Token>> {
        match self.peeked.take() {
            Some(t) => Ok(Some(t)),
            None => self.scan(),
        }
    }

    /// The next token, which must exist (`what` says what was expected, for the error).
    pub fn expect_any(&mut self, what: &str) -> Result<Token> {
        self.next_token()?
            .ok_or_else(|| self.error_at_end(format!("expected {what}, found the end of the lump")))
    }

    /// A word or quoted string.
    pub fn expect_text(&mut self, what: &str) -> Result<(String, Token)> {
        let t = self.expect_any(what)?;
        match t.text() {
            Some(s) => Ok((s.to_string(), t.clone())),
            None => Err(self.error_on(&t, format!("expected {what}, found {}", t.describe()))),
        }
    }

    /// Consumes punctuation `c`, which must come next.
    pub fn expect_punct(&mut self, c: char, what: &str) -> Result<()> {
        let t = self.expect_any(&format!("'{c}' {what}"))?;
        if t.is_punct(c) {
            Ok(())
        } else {
            Err(self.error_on(&t, format!("expected '{c}' {what}, found {}", t.describe())))
        }
    }

    /// Consumes punctuation `c` if it comes next.
    pub fn check_punct(&mut self, c: char) -> Result<bool> {
        let found = self.peek()?.is_some_and(|t| t.is_punct(c));
        if found {
            self.peeked = None;
        }
        Ok(found)
    }

    /// Whether the next token is a bare word that reads as an integer.
    pub fn next_is_int(&mut self) -> Result<bool> {
        Ok(self
            .peek()?
            .is_some_and(|t| matches!(&t.kind, TokenKind::Word(w) if parse_int(w).is_some())))
    }

    /// An integer (decimal, or hexadecimal with 0x).
    pub fn expect_int(&mut self, what: &str) -> Result<i64> {
        let t = self.expect_any(what)?;
        match &t.kind {
            TokenKind::Word(w) => parse_int(w),
            _ => None,
        }
        .ok_or_else(|| {
            self.error_on(&t, format!("expected {what} (an integer), found {}", t.describe()))
        })
    }

    /// An integer that fits 32 bits.
    pub fn expect_i32(&mut self, what: &str) -> Result<i32> {
        let t = self.peek()?.cloned();
        let v = self.expect_int(what)?;
        i32::try_from(v).map_err(|_| match &t {
            Some(t) => self.error_on(t, format!("{what} {v} is out of range")),
            None => self.error_at_end(format!("{what} {v} is out of range")),
        })
    }

    /// A number, integer or decimal.
    pub fn expect_float(&mut self, what: &str) -> Result<f64> {
        let t = self.expect_any(what)?;
        match &t.kind {
            TokenKind::Word(w) => w.parse::<f64>().ok().filter(|v| v.is_finite()),
            _ => None,
        }
        .ok_or_else(|| {
            self.error_on(&t, format!("expected {what} (a number), found {}", t.describe()))
        })
    }

    fn scan(&mut self) -> Result<Option<Token>> {
        self.skip_space_and_comments()?;
        let (at, line) = (self.pos, self.line);
        let Some(&c) = self.data.get(at) else { return Ok(None) };
        let kind = if c == b'"' {
            TokenKind::Quoted(self.quoted()?)
        } else if PUNCTUATION.contains(&c) {
            self.pos += 1;
            TokenKind::Punct(c as char)
        } else {
            while let Some(&b) = self.data.get(self.pos) {
                if b.is_ascii_whitespace()
                    || b == b'"'
                    || PUNCTUATION.contains(&b)
                    || self.comment_starts()
                {
                    break;
                }
                self.pos += 1;
            }
            TokenKind::Word(String::from_utf8_lossy(&self.data[at..self.pos]).into_owned())
        };
        Ok(Some(Token { kind, at, line }))
    }

    fn comment_starts(&self) -> bool {
        matches!(self.data.get(self.pos..self.pos + 2), Some(b"//") | Some(b"/*"))
    }

    fn skip_space_and_comments(&mut self) -> Result<()> {
        loop {
            match self.data.get(self.pos..).unwrap_or(&[]) {
                [b'\n', ..] => {
                    self.line += 1;
                    self.pos += 1;
                }
                [b, ..] if b.is_ascii_whitespace() => self.pos += 1,
                [b'/', b'/', ..] => {
                    while self.data.get(self.pos).is_some_and(|&b| b != b'\n') {
                        self.pos += 1;
                    }
                }
                [b'/', b'*', ..] => {
                    let (at, line) = (self.pos, self.line);
                    self.pos += 2;
                    loop {
                        match self.data.get(self.pos..).unwrap_or(&[]) {
                            [] => return Err(self.error_at(at, line, "unterminated /* comment")),
                            [b'*', b'/', ..] => {
                                self.pos += 2;
                                break;
                            }
                            [c, ..] => {
                                if *c == b'\n' {
                                    self.line += 1;
                                }
                                self.pos += 1;
                            }
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// A quoted string; `\"` and `\\` are escapes.
    fn quoted(&mut self) -> Result<String> {
        let (at, line) = (self.pos, self.line);
        self.pos += 1;
        let mut out = Vec::new();
        loop {
            match self.data.get(self.pos..).unwrap_or(&[]) {
                [] => return Err(self.error_at(at, line, "unterminated quoted string")),
                [b'"', ..] => {
                    self.pos += 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                [b'\\', e @ (b'"' | b'\\'), ..] => {
                    out.push(*e);
                    self.pos += 2;
                }
                [c, ..] => {
                    if *c == b'\n' {
                        self.line += 1;
                    }
                    out.push(*c);
                    self.pos += 1;
                }
            }
        }
    }
}

fn parse_int(w: &str) -> Option<i64> {
    let (neg, digits) = match w.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, w.strip_prefix('+').unwrap_or(w)),
    };
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Result<Vec<TokenKind>> {
        let lump = Lump { name: "T", data: text.as_bytes(), file: "t.wad", offset: 100 };
        let mut s = Scanner::new(&lump, "TEXTURES")?;
        let mut out = Vec::new();
        while let Some(t) = s.next_token()? {
            out.push(t.kind);
        }
        Ok(out)
    }

    #[test]
    fn words_strings_punctuation_and_comments() {
        use TokenKind::*;
        let w = |s: &str| Word(s.to_string());
        let got = tokens(
            "WallTexture \"A B\",64,-8 // line comment\n{ /* block\n comment */ Patch P1,0.5 }",
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                w("WallTexture"),
                Quoted("A B".into()),
                Punct(','),
                w("64"),
                Punct(','),
                w("-8"),
                Punct('{'),
                w("Patch"),
                w("P1"),
                Punct(','),
                w("0.5"),
                Punct('}'),
            ]
        );
        assert_eq!(tokens(r#""say \"hi\"""#).unwrap(), vec![Quoted("say \"hi\"".into())]);
        assert_eq!(tokens("a//x").unwrap(), vec![w("a")]);
    }

    #[test]
    fn unterminated_strings_and_comments_are_errors_with_offsets() {
        let e = tokens("ok \"open").unwrap_err();
        assert_eq!((e.structure.as_str(), e.offset), ("TEXTURES", 103));
        assert!(e.message.contains("line 1") && e.message.contains("unterminated"), "{e}");
        let e = tokens("a\nb /* never closed").unwrap_err();
        assert_eq!(e.offset, 104);
        assert!(e.message.starts_with("line 2:"), "{e}");
    }

    #[test]
    fn numbers_are_read_on_demand() {
        let lump = Lump { name: "T", data: b"12 -0x10 1.5 X", file: "t", offset: 0 };
        let mut s = Scanner::new(&lump, "T").unwrap();
        assert_eq!(s.expect_int("a").unwrap(), 12);
        assert_eq!(s.expect_int("b").unwrap(), -16);
        assert!(!s.next_is_int().unwrap());
        assert_eq!(s.expect_float("c").unwrap(), 1.5);
        let e = s.expect_int("width").unwrap_err();
        assert!(e.message.contains("expected width (an integer), found 'X'"), "{e}");
        assert!(s.expect_any("more").unwrap_err().message.contains("end of the lump"));
    }
}
