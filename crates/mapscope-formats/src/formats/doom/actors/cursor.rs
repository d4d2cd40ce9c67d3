//! The token stream the actor parsers read: the shared script tokenizer plus what DECORATE
//! needs of lines (a state's action must be on the state's line), and the skipping of
//! bracketed code neither parser reads, with its nesting bounded.

use crate::formats::doom::archive::wad::Lump;
use crate::formats::doom::script_tokens::{Scanner, Token, TokenKind};
use crate::formats::{FormatError, Result};
use crate::limits::doom::MAX_ACTOR_NESTING;

pub(super) struct Cursor<'a> {
    pub(super) s: Scanner<'a>,
    /// The file (or package member) the lump comes from.
    pub(super) file: &'a str,
    /// Line of the last token taken (0 before the first).
    last_line: usize,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(lump: &Lump<'a>, structure: &'a str) -> Result<Cursor<'a>> {
        Ok(Cursor { s: Scanner::new(lump, structure)?, file: lump.file, last_line: 0 })
    }

    pub(super) fn peek(&mut self) -> Result<Option<&Token>> {
        self.s.peek()
    }

    pub(super) fn next(&mut self) -> Result<Option<Token>> {
        let t = self.s.next_token()?;
        if let Some(t) = &t {
            self.last_line = t.line;
        }
        Ok(t)
    }

    /// The next token, which must exist (`what` names what was expected).
    pub(super) fn expect(&mut self, what: &str) -> Result<Token> {
        let t = self.s.expect_any(what)?;
        self.last_line = t.line;
        Ok(t)
    }

    /// A word or quoted string.
    pub(super) fn expect_text(&mut self, what: &str) -> Result<(String, Token)> {
        let t = self.expect(what)?;
        match t.text() {
            Some(s) => Ok((s.to_string(), t)),
            None => Err(self.error(&t, format!("expected {what}, found {}", t.describe()))),
        }
    }

    pub(super) fn expect_punct(&mut self, c: char, what: &str) -> Result<()> {
        let t = self.expect(&format!("'{c}' {what}"))?;
        if t.is_punct(c) {
            Ok(())
        } else {
            Err(self.error(&t, format!("expected '{c}' {what}, found {}", t.describe())))
        }
    }

    /// Takes punctuation `c` if it comes next.
    pub(super) fn check_punct(&mut self, c: char) -> Result<bool> {
        let found = self.peek()?.is_some_and(|t| t.is_punct(c));
        if found {
            self.next()?;
        }
        Ok(found)
    }

    /// Whether the next token exists and lies on the line of the last one taken.
    pub(super) fn next_on_same_line(&mut self) -> Result<bool> {
        let line = self.last_line;
        Ok(self.peek()?.is_some_and(|t| t.line == line))
    }

    /// Whether the next token starts a line (or the lump).
    pub(super) fn next_starts_line(&mut self) -> Result<bool> {
        let line = self.last_line;
        Ok(self.peek()?.is_some_and(|t| t.line != line))
    }

    pub(super) fn error(&self, t: &Token, message: impl Into<String>) -> FormatError {
        self.s.error_on(t, message)
    }

    /// Skips to the bracket that closes `open` (`{` or `(`, just taken), over nested ones.
    pub(super) fn skip_nested(&mut self, open: &Token) -> Result<()> {
        let mut depth = 1usize;
        while depth > 0 {
            let t = self
                .next()?
                .ok_or_else(|| self.error(open, format!("{} is never closed", open.describe())))?;
            match t.kind {
                TokenKind::Punct('{') | TokenKind::Punct('(') => {
                    depth += 1;
                    if depth > MAX_ACTOR_NESTING {
                        return Err(self.error(
                            &t,
                            format!("brackets nest more than {MAX_ACTOR_NESTING} deep"),
                        ));
                    }
                }
                TokenKind::Punct('}') | TokenKind::Punct(')') => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    }

    /// Skips a parenthesised list if one comes next (an action's arguments, `Light("X")`).
    pub(super) fn skip_arguments(&mut self) -> Result<()> {
        if let Some(open) = self.peek()?.filter(|t| t.is_punct('(')).cloned() {
            self.next()?;
            self.skip_nested(&open)?;
        }
        Ok(())
    }
}

/// A plain number: `56`, `-1`, `0.5`, `.25` (not `1.0/3` nor a name).
pub(super) fn plain_number(text: &str) -> Option<f64> {
    let digits = text.trim_start_matches(['-', '+']);
    let plain = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && digits.bytes().filter(|&b| b == b'.').count() <= 1;
    plain.then(|| text.parse::<f64>().ok()).flatten().filter(|v| v.is_finite())
}

/// A plain integer, hexadecimal (`0x10`) included.
pub(super) fn plain_int(text: &str) -> Option<i64> {
    let (neg, digits) = match text.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            digits.parse::<i64>().ok()?
        }
        None => return None,
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values() {
        assert_eq!(plain_number("0.5"), Some(0.5));
        assert_eq!(plain_number("-1"), Some(-1.0));
        assert_eq!(plain_number(".25"), Some(0.25));
        assert_eq!(plain_number("1.0/3"), None);
        assert_eq!(plain_number("1e999"), None);
        assert_eq!(plain_number("BIG"), None);
        assert_eq!(plain_int("0x10"), Some(16));
        assert_eq!(plain_int("-1"), Some(-1));
        assert_eq!(plain_int("99999999999999999999999"), None);
        assert_eq!(plain_int("1.5"), None);
    }
}
