//! Mac OS Roman, the character set of every string in Marathon's files (the games were Mac
//! programs): level names, annotations, Shapes sequence names, the wad name. Bytes below 0x80
//! are ASCII; the high half follows the Unicode consortium's mapping of Apple's encoding
//! (MAPPINGS/VENDORS/APPLE/ROMAN.TXT), with 0xDB as the euro sign of Mac OS 8.5 and later
//! and 0xF0, the Apple logo, at the private-use code point Apple assigns it.

/// Bytes 0x80..=0xFF, eight a row.
const HIGH: [char; 128] = [
    // 0x80
    'Ä', 'Å', 'Ç', 'É', 'Ñ', 'Ö', 'Ü', 'á', //
    'à', 'â', 'ä', 'ã', 'å', 'ç', 'é', 'è', //
    // 0x90
    'ê', 'ë', 'í', 'ì', 'î', 'ï', 'ñ', 'ó', //
    'ò', 'ô', 'ö', 'õ', 'ú', 'ù', 'û', 'ü', //
    // 0xA0
    '†', '°', '¢', '£', '§', '•', '¶', 'ß', //
    '®', '©', '™', '´', '¨', '≠', 'Æ', 'Ø', //
    // 0xB0
    '∞', '±', '≤', '≥', '¥', 'µ', '∂', '∑', //
    '∏', 'π', '∫', 'ª', 'º', 'Ω', 'æ', 'ø', //
    // 0xC0
    '¿', '¡', '¬', '√', 'ƒ', '≈', '∆', '«', //
    '»', '…', '\u{A0}', 'À', 'Ã', 'Õ', 'Œ', 'œ', //
    // 0xD0
    '–', '—', '“', '”', '‘', '’', '÷', '◊', //
    'ÿ', 'Ÿ', '⁄', '€', '‹', '›', 'ﬁ', 'ﬂ', //
    // 0xE0
    '‡', '·', '‚', '„', '‰', 'Â', 'Ê', 'Á', //
    'Ë', 'È', 'Í', 'Î', 'Ï', 'Ì', 'Ó', 'Ô', //
    // 0xF0
    '\u{F8FF}', 'Ò', 'Ú', 'Û', 'Ù', 'ı', 'ˆ', '˜', //
    '¯', '˘', '˙', '˚', '¸', '˝', '˛', 'ˇ', //
];

/// The character a Mac Roman byte stands for.
pub fn char_of(b: u8) -> char {
    match b {
        0..=0x7F => b as char,
        _ => HIGH[(b - 0x80) as usize],
    }
}

/// Mac Roman bytes as text.
pub fn decode(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char_of(b)).collect()
}

/// The Mac Roman byte of `c`, when it has one.
pub fn byte_of(c: char) -> Option<u8> {
    if c.is_ascii() {
        return Some(c as u8);
    }
    HIGH.iter().position(|&h| h == c).map(|i| 0x80 + i as u8)
}

/// Text as Mac Roman bytes (for writing test files); characters the set lacks become '?'.
pub fn encode(text: &str) -> Vec<u8> {
    text.chars().map(|c| byte_of(c).unwrap_or(b'?')).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marathon_punctuation_decodes() {
        assert_eq!(decode(b"Shake Before Using\xC9"), "Shake Before Using…");
        assert_eq!(decode(b"Ain\xD5t Got Time Pfhor This\xC9"), "Ain’t Got Time Pfhor This…");
        assert_eq!(
            decode(b"Marathon\xAA \xA91995 \xD2Pfhor\xD3 \xD1 p\x8Cth"),
            "Marathon™ ©1995 “Pfhor” — påth"
        );
    }

    #[test]
    fn every_byte_round_trips_and_the_high_half_is_distinct_and_not_ascii() {
        for b in 0..=255u8 {
            assert_eq!(byte_of(char_of(b)), Some(b), "byte 0x{b:02X}");
        }
        assert!(HIGH.iter().all(|c| !c.is_ascii()));
        assert_eq!(encode("Ω → π"), b"\xBD ? \xB9");
    }
}
