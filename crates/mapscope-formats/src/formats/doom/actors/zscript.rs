//! ZScript, as far as a thing's look goes: `class Name [: Parent] [replaces Other]
//! [modifiers] { ... }` with its `Default { Property value; +FLAG }` and `States { ... }`
//! blocks; `extend class Name { ... }` adds to a class read before. Everything else (fields,
//! functions, structs, enums, constants, mixins) is skipped over its braces; `#include
//! "path"` reads another lump in place. ZScript classes get editor numbers only from
//! MAPINFO's DoomEdNums.
//!
//! A parse error ends the definition it is in: the classes before it are kept and reading
//! resumes at the next line starting with `class`.

use super::cursor::Cursor;
use super::defs::ClassDef;
use super::props::{apply_flag, apply_property, is_flag};
use super::scripts::ScriptReader;
use super::states::{parse_states, Dialect};
use crate::formats::doom::script_tokens::{Token, TokenKind};
use crate::formats::Result;

/// One top-level item; false at the end of the lump or once no more classes are kept.
pub(super) fn top_level(r: &mut ScriptReader<'_>, c: &mut Cursor<'_>) -> Result<bool> {
    let Some(t) = c.next()? else { return Ok(false) };
    if t.is_word("#include") {
        let (path, at) = c.expect_text("the file to include")?;
        r.include(c, &at, &path, Dialect::ZScript);
    } else if t.is_word("class") {
        let class = class(r, c, &t, None)?;
        return Ok(r.add_class(class));
    } else if t.is_word("extend") && c.peek()?.is_some_and(|n| n.is_word("class")) {
        c.next()?;
        let (name, _) = c.expect_text("the class to extend")?;
        let existing = r.classes.iter().rposition(|k| k.name.eq_ignore_ascii_case(&name));
        match existing {
            Some(i) => {
                let mut base = r.classes.remove(i);
                base = class(r, c, &t, Some(base))?;
                r.classes.insert(i, base);
            }
            // A class of the engine's: its look is the built-in one.
            None => skip_to_body_end(c)?,
        }
    } else if t.is_punct('{') {
        c.skip_nested(&t)?;
    }
    Ok(true)
}

/// Skips a header and its `{ ... }` body.
fn skip_to_body_end(c: &mut Cursor<'_>) -> Result<()> {
    loop {
        let t = c.expect("'{'")?;
        if t.is_punct('{') {
            return c.skip_nested(&t);
        }
    }
}

/// A class after its `class` keyword (`at`), or the body of `extend class` over `base`.
fn class(
    r: &mut ScriptReader<'_>,
    c: &mut Cursor<'_>,
    at: &Token,
    base: Option<ClassDef>,
) -> Result<ClassDef> {
    let extending = base.is_some();
    let mut class = match base {
        Some(b) => b,
        None => ClassDef {
            name: c.expect_text("the class's name")?.0,
            origin: format!("{} line {}", c.file, at.line),
            ..ClassDef::default()
        },
    };
    loop {
        let t = c.expect("'{' to open the class")?;
        if t.is_punct('{') {
            break;
        } else if t.is_punct(';') && !extending {
            // `class Name : Parent;` declares the class and nothing else here.
            return Ok(class);
        } else if t.is_punct(':') && !extending {
            class.parent = Some(c.expect_text("the parent class")?.0);
        } else if t.is_word("replaces") && !extending {
            class.replaces = Some(c.expect_text("the class it replaces")?.0);
        } else if t.is_punct('(') {
            // `version("4.10")` and the like.
            c.skip_nested(&t)?;
        } else if !matches!(t.kind, TokenKind::Word(_) | TokenKind::Quoted(_)) {
            return Err(c.error(&t, format!("unexpected {} in the class's header", t.describe())));
        }
    }
    loop {
        let t = c.expect("a member or '}'")?;
        if t.is_punct('}') {
            return Ok(class);
        }
        if t.is_word("default") && c.check_punct('{')? {
            defaults(c, &mut class)?;
        } else if t.is_word("states") {
            c.skip_arguments()?;
            c.expect_punct('{', "to open the states")?;
            parse_states(c, Dialect::ZScript, &mut class.states, &mut r.states_left)?;
        } else if t.is_punct('{') || t.is_punct('(') {
            c.skip_nested(&t)?;
        }
    }
}

/// A `Default` block whose `{` was just taken.
fn defaults(c: &mut Cursor<'_>, class: &mut ClassDef) -> Result<()> {
    loop {
        let t = c.expect("a property, a flag or '}'")?;
        match &t.kind {
            TokenKind::Punct('}') => return Ok(()),
            TokenKind::Punct('{') | TokenKind::Punct('(') => c.skip_nested(&t)?,
            TokenKind::Word(w) if is_flag(w) => apply_flag(&mut class.props, w),
            TokenKind::Word(w) => {
                let mut values = Vec::new();
                loop {
                    let v = c.expect("';' after the property")?;
                    if v.is_punct(';') {
                        break;
                    }
                    if v.is_punct('}') || v.is_punct('{') {
                        return Err(c.error(&v, format!("expected ';' after property {w}")));
                    }
                    values.push(v);
                }
                apply_property(&mut class.props, w, &values);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::defs::{Action, LabelTarget, RenderStyle};
    use super::*;

    fn read_lumps(lumps: &[(&str, &str)]) -> (Vec<ClassDef>, Vec<String>) {
        let stack = super::super::tests::stack_of(lumps);
        let mut r = ScriptReader::new(&stack);
        r.read_all();
        (r.classes, r.notes)
    }

    const SCRIPT: &str = r#"version "4.10"
// A lamp and everything a real class may hold around its look.
class GlowLamp : Actor replaces TechLamp
{
    int counter;
    const BIG = 2;
    enum EStates { S_A, S_B };
    Default
    {
        Radius 16;
        Height 80;
        Scale 0.75;
        RenderStyle "Add";
        Alpha 0.5;
        +SPAWNCEILING
        +NOGRAVITY;
        Tag "Lamp";
    }
    override void Tick()
    {
        super.Tick();
        if (counter++ > 3) { counter = 0; }
    }
    States
    {
    Spawn:
        GLMP AB 4 Bright;
        GLMP C 4 { A_SetScale(2); }
        Loop;
    }
}
struct Helper { int x; }
extend class GlowLamp { Default { YScale 1.5; } }
"#;

    #[test]
    fn classes_defaults_states_and_extensions() {
        let (classes, notes) = read_lumps(&[("ZSCRIPT", SCRIPT)]);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(classes.len(), 1);
        let lamp = &classes[0];
        assert_eq!((lamp.name.as_str(), lamp.parent.as_deref()), ("GlowLamp", Some("Actor")));
        assert_eq!(lamp.replaces.as_deref(), Some("TechLamp"));
        assert_eq!(lamp.props.height, Some(80.0));
        assert_eq!(lamp.props.scale, [Some(0.75), Some(1.5)]);
        assert_eq!(
            (lamp.props.style.clone(), lamp.props.alpha),
            (Some(RenderStyle::Add), Some(0.5))
        );
        assert_eq!(lamp.props.spawn_ceiling, Some(true));
        assert_eq!(lamp.states.label("spawn"), Some(&LabelTarget::State(0)));
        assert_eq!(lamp.states.states.len(), 3);
        assert_eq!(lamp.states.states[2].action, Action::Code);
        assert_eq!(lamp.origin, "mod.wad line 3");
    }

    #[test]
    fn a_broken_class_is_a_note_and_the_next_class_is_read() {
        let text = "class A : Actor { Default { Height 5; } }\n\
                    class B : Actor {\n  Default { Height 5 }\n}\nclass C : Actor { }\n";
        let (classes, notes) = read_lumps(&[("ZSCRIPT", text)]);
        let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["A", "C"]);
        assert!(
            notes.len() == 1
                && notes[0].contains("mod.wad: ZSCRIPT at offset")
                && notes[0].contains("line 3: expected ';' after property Height"),
            "{notes:?}"
        );
    }

    #[test]
    fn runaway_nesting_is_a_clear_note() {
        let deep = format!(
            "class Deep : Actor {{ void F() {} }}\nclass Next : Actor {{ }}",
            "{".repeat(5000)
        );
        let (classes, notes) = read_lumps(&[("ZSCRIPT", &deep)]);
        assert_eq!(classes.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["Next"]);
        assert!(notes.iter().any(|n| n.contains("nest more than 256 deep")), "{notes:?}");
    }
}
