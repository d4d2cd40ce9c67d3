//! DECORATE: `actor Name [: Parent] [replaces Other] [editor number] [native] { ... }`, the
//! body a property or flag a line (`Height 56`, `+SPAWNCEILING`) and a `States` block;
//! `#include "path"` reads another lump in place. Other top-level definitions (`const`,
//! `enum`, `damagetype` ...) are skipped.
//!
//! A parse error ends the definition it is in: the classes before it are kept and reading
//! resumes at the next line starting with `actor`.

use super::cursor::{plain_int, Cursor};
use super::defs::ClassDef;
use super::props::{apply_flag, apply_property, is_flag, is_look_property};
use super::scripts::ScriptReader;
use super::states::{parse_states, Dialect};
use crate::formats::doom::script_tokens::{Token, TokenKind};
use crate::formats::Result;

/// One top-level item; false at the end of the lump or once no more classes are kept.
pub(super) fn top_level(r: &mut ScriptReader<'_>, c: &mut Cursor<'_>) -> Result<bool> {
    let Some(t) = c.next()? else { return Ok(false) };
    if t.is_word("#include") {
        let (path, at) = c.expect_text("the file to include")?;
        r.include(c, &at, &path, Dialect::Decorate);
    } else if t.is_word("actor") {
        let class = actor(r, c, &t)?;
        return Ok(r.add_class(class));
    } else if t.is_punct('{') {
        c.skip_nested(&t)?;
    }
    Ok(true)
}

/// An actor definition after its `actor` keyword (`at`).
fn actor(r: &mut ScriptReader<'_>, c: &mut Cursor<'_>, at: &Token) -> Result<ClassDef> {
    let (name, _) = c.expect_text("the actor's name")?;
    let mut class =
        ClassDef { name, origin: format!("{} line {}", c.file, at.line), ..ClassDef::default() };
    loop {
        let t = c.expect("'{' to open the actor")?;
        if t.is_punct('{') {
            break;
        } else if t.is_punct(':') {
            class.parent = Some(c.expect_text("the parent class")?.0);
        } else if t.is_word("replaces") {
            class.replaces = Some(c.expect_text("the class it replaces")?.0);
        } else if t.is_word("native") {
        } else if let Some(text) = t.text().filter(|w| is_word(&t) && looks_numeric(w)) {
            // -1: no editor number.
            class.doomednum = match plain_int(text) {
                Some(-1) => None,
                Some(n @ 1..=32767) => Some(n as u16),
                _ => return Err(c.error(&t, format!("editor number {text} is not 1..32767"))),
            };
        } else {
            return Err(c.error(&t, format!("unexpected {} in the actor's header", t.describe())));
        }
    }
    loop {
        let t = c.expect("a property, a flag, 'States' or '}'")?;
        if t.is_punct('}') {
            return Ok(class);
        }
        if t.is_word("states") {
            c.expect_punct('{', "to open the states")?;
            parse_states(c, Dialect::Decorate, &mut class.states, &mut r.states_left)?;
            continue;
        }
        match &t.kind {
            TokenKind::Punct('{') => c.skip_nested(&t)?,
            TokenKind::Word(w) if is_flag(w) => apply_flag(&mut class.props, w),
            TokenKind::Word(w) => {
                let values = if is_look_property(w) && c.next_on_same_line()? {
                    c.next()?.into_iter().collect()
                } else {
                    line_values(c)?
                };
                apply_property(&mut class.props, w, &values);
            }
            _ => {}
        }
    }
}

/// Whether a header word is meant as a number (however large).
fn looks_numeric(w: &str) -> bool {
    w.trim_start_matches('-').starts_with(|c: char| c.is_ascii_digit())
}

fn is_word(t: &Token) -> bool {
    matches!(t.kind, TokenKind::Word(_))
}

/// A property's values: the tokens after it on its line, up to a flag, a brace, `States`
/// or a property read here (DECORATE may put a whole actor on one line).
fn line_values(c: &mut Cursor<'_>) -> Result<Vec<Token>> {
    let mut values = Vec::new();
    while c.next_on_same_line()? {
        let stop = c.peek()?.is_some_and(|t| {
            let word = |f: fn(&str) -> bool| is_word(t) && t.text().is_some_and(f);
            t.is_punct('{')
                || t.is_punct('}')
                || t.is_word("states")
                || word(is_flag)
                || word(is_look_property)
        });
        if stop {
            break;
        }
        values.extend(c.next()?);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::super::defs::{LabelTarget, RenderStyle, SpriteRef};
    use super::*;

    fn read_lumps(lumps: &[(&str, &str)]) -> (Vec<ClassDef>, Vec<String>) {
        let stack = super::super::tests::stack_of(lumps);
        let mut r = ScriptReader::new(&stack);
        r.read_all();
        (r.classes, r.notes)
    }

    #[test]
    fn actors_with_headers_properties_and_states() {
        let text = "// trees\nACTOR Tree1 : BigTree replaces TorchTree 20555\n{\n  Radius 10\n  \
                    Height 150 +SOLID\n  Scale 0.5\n  RenderStyle Translucent\n  Alpha 0.4\n  \
                    States\n  {\n  Spawn:\n    TR1E A -1\n    Stop\n  }\n}\nactor Lamp 11136 \
                    { +SPAWNCEILING states { Spawn: LAMP A -1 bright stop } }";
        let (classes, notes) = read_lumps(&[("DECORATE", text)]);
        assert!(notes.is_empty(), "{notes:?}");
        let tree = &classes[0];
        assert_eq!(tree.name, "Tree1");
        assert_eq!(
            (tree.parent.as_deref(), tree.replaces.as_deref()),
            (Some("BigTree"), Some("TorchTree"))
        );
        assert_eq!(tree.doomednum, Some(20555));
        assert_eq!((tree.props.height, tree.props.scale), (Some(150.0), [Some(0.5); 2]));
        assert_eq!(
            (tree.props.style.clone(), tree.props.alpha),
            (Some(RenderStyle::Translucent), Some(0.4))
        );
        assert_eq!(tree.states.label("spawn"), Some(&LabelTarget::State(0)));
        assert_eq!(tree.states.states[0].sprite, SpriteRef::Name(*b"TR1E"));
        assert_eq!(tree.origin, "mod.wad line 2");
        let lamp = &classes[1];
        assert_eq!((lamp.doomednum, lamp.props.spawn_ceiling), (Some(11136), Some(true)));
        assert!(lamp.states.states[0].bright);
    }

    #[test]
    fn includes_by_name_loops_and_missing_lumps() {
        let (classes, notes) = read_lumps(&[
            ("DECORATE", "#include \"MORE\"\n#include NOWHERE\nactor A 1 {}"),
            ("MORE", "actor B 2 {}\n#include \"MORE\""),
        ]);
        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["B", "A"]);
        assert!(
            notes.iter().any(|n| n.contains("MORE") && n.contains("include loop")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n.contains("line 2") && n.contains("\"NOWHERE\": no such lump")),
            "{notes:?}"
        );
    }

    #[test]
    fn a_broken_actor_is_a_note_and_reading_resumes_at_the_next() {
        let text = "actor Good 1 { states { Spawn: GOOD A -1 stop } }\n\
                    actor Bad 2\n{\n  states\n  {\n  Spawn:\n    BADD A\n  }\n}\n\
                    actor AfterBad 3 { }\nactor Huge 99999 { }\nactor Last 4 { }";
        let (classes, notes) = read_lumps(&[("DECORATE", text)]);
        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Good", "AfterBad", "Last"]);
        assert!(
            notes[0].contains("mod.wad: DECORATE at offset")
                && notes[0].contains("line 8: expected the duration, found '}'")
                && notes[0].contains("reading resumes"),
            "{notes:?}"
        );
        assert!(notes[1].contains("line 11: editor number 99999"), "{notes:?}");
    }
}
