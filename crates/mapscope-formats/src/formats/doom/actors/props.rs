//! The properties and flags that decide a thing's look, as DECORATE and ZScript's `Default`
//! block set them (the two share names and values): `Height`, `Scale`, `XScale`, `YScale`,
//! `RenderStyle`, `Alpha`, the `Monster` combination, and the flags `SPAWNCEILING`,
//! `ISMONSTER`, `COUNTKILL` and `INVISIBLE`. Every other property is skipped.

use super::cursor::plain_number;
use super::defs::{Props, RenderStyle};
use crate::formats::doom::script_tokens::{Token, TokenKind};

/// Whether `text` is a flag: `+NAME` or `-NAME` (not a negative number).
pub(super) fn is_flag(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('+' | '-')) && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// The properties read here: each takes one value.
const LOOK_PROPERTIES: [&str; 6] = ["height", "scale", "xscale", "yscale", "alpha", "renderstyle"];

/// Whether `name` is a property this module reads (one value; DECORATE may put several
/// properties on a line, so the parser takes one token for these).
pub(super) fn is_look_property(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let key = lower.strip_prefix("actor.").unwrap_or(&lower);
    LOOK_PROPERTIES.contains(&key)
}

/// Applies flag `text` (`+SPAWNCEILING`, `-Actor.CountKill`).
pub(super) fn apply_flag(props: &mut Props, text: &str) {
    let on = text.starts_with('+');
    let name = text[1..].to_ascii_lowercase();
    let name = name.strip_prefix("actor.").unwrap_or(&name);
    match name {
        "spawnceiling" => props.spawn_ceiling = Some(on),
        "ismonster" | "countkill" => props.monster = Some(on),
        "invisible" => props.invisible = Some(on),
        _ => {}
    }
}

/// Applies property `name` with its value tokens (commas included).
pub(super) fn apply_property(props: &mut Props, name: &str, values: &[Token]) {
    let lower = name.to_ascii_lowercase();
    let key = lower.strip_prefix("actor.").unwrap_or(&lower);
    let texts: Vec<&str> = values.iter().filter_map(Token::text).collect();
    let number = || match texts.as_slice() {
        [one] if values.len() == 1 => plain_number(one),
        _ => None,
    };
    let mut unread = || {
        let shown: Vec<String> = values.iter().map(shown_token).collect();
        props.unread.push(format!("{name} {}", shown.join(" ")));
    };
    match key {
        "height" | "scale" | "xscale" | "yscale" | "alpha" => {
            let Some(v) = number() else {
                unread();
                return;
            };
            match key {
                "height" => props.height = Some(v),
                "scale" => props.scale = [Some(v); 2],
                "xscale" => props.scale[0] = Some(v),
                "yscale" => props.scale[1] = Some(v),
                _ => props.alpha = Some(v),
            }
        }
        "renderstyle" => match texts.as_slice() {
            [style] if values.len() == 1 => props.style = Some(RenderStyle::parse(style)),
            _ => unread(),
        },
        "monster" => props.monster = Some(true),
        _ => {}
    }
}

fn shown_token(t: &Token) -> String {
    match &t.kind {
        TokenKind::Word(w) => w.clone(),
        TokenKind::Quoted(q) => format!("\"{q}\""),
        TokenKind::Punct(c) => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(w: &str) -> Token {
        Token { kind: TokenKind::Word(w.into()), at: 0, line: 1 }
    }

    #[test]
    fn look_properties_and_flags() {
        let mut p = Props::default();
        apply_property(&mut p, "Height", &[word("56")]);
        apply_property(&mut p, "Scale", &[word("0.5")]);
        apply_property(&mut p, "YScale", &[word("2")]);
        apply_property(
            &mut p,
            "RenderStyle",
            &[Token { kind: TokenKind::Quoted("Add".into()), at: 0, line: 1 }],
        );
        apply_property(&mut p, "Alpha", &[word("1.0/3")]);
        apply_property(&mut p, "Monster", &[]);
        apply_property(&mut p, "Radius", &[word("20")]);
        apply_flag(&mut p, "+SPAWNCEILING");
        apply_flag(&mut p, "-Actor.Invisible");
        assert_eq!(p.height, Some(56.0));
        assert_eq!(p.scale, [Some(0.5), Some(2.0)]);
        assert_eq!(p.style, Some(RenderStyle::Add));
        assert_eq!(p.alpha, None);
        assert_eq!(p.unread, ["Alpha 1.0/3"]);
        assert_eq!(
            (p.monster, p.spawn_ceiling, p.invisible),
            (Some(true), Some(true), Some(false))
        );
        assert!(is_flag("+SOLID") && is_flag("-Actor.Solid") && !is_flag("-1") && !is_flag("+"));
    }
}
