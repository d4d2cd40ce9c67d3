//! The `States { ... }` block of DECORATE and ZScript: labels (`Spawn:`), states
//! (`SPRT ABC 4 Bright A_Look`), and flow (`Loop`, `Wait`, `Stop`, `Fail`,
//! `Goto [Super::]Label[+N]`).
//!
//! The dialects differ in how a state ends: DECORATE's state is one line (its action must
//! be on the line of its duration, as GZDoom reads it), ZScript's ends with `;` and may run
//! an anonymous `{ code }` block instead of a named action.

use super::cursor::{plain_int, Cursor};
use super::defs::{Action, Jump, LabelTarget, Next, Scope, SpriteRef, StateBlock, StateDef, Tics};
use crate::formats::doom::script_tokens::{Token, TokenKind};
use crate::formats::Result;
use crate::limits::doom::MAX_ACTOR_STATES;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    Decorate,
    ZScript,
}

/// The flow keywords.
const FLOW: [&str; 5] = ["stop", "fail", "wait", "loop", "goto"];

/// Words that may follow a state's duration before its action.
const STATE_KEYWORDS: [&str; 7] =
    ["bright", "fast", "slow", "nodelay", "canraise", "offset", "light"];

/// Reads a states block whose `{` was just taken into `block`; `states_left` is what the
/// whole load may still keep (see [`MAX_ACTOR_STATES`]).
pub(super) fn parse_states(
    c: &mut Cursor<'_>,
    dialect: Dialect,
    block: &mut StateBlock,
    states_left: &mut usize,
) -> Result<()> {
    let mut p = BlockParser { block, pending: Vec::new(), open: None, last_label: None };
    loop {
        let t = c.expect("a state, a label or '}'")?;
        if t.is_punct('}') {
            p.resolve_pending(LabelTarget::Null);
            return Ok(());
        }
        if t.is_punct(';') {
            continue;
        }
        let Some(text) = t.text().map(str::to_string) else {
            return Err(c.error(&t, format!("expected a state, found {}", t.describe())));
        };
        if let TokenKind::Word(_) = t.kind {
            match text.to_ascii_lowercase().as_str() {
                "stop" | "fail" => {
                    p.flow(Next::Stop);
                    continue;
                }
                "wait" => {
                    p.flow(Next::Wait);
                    continue;
                }
                "loop" => {
                    let Some(to) = p.last_label else {
                        return Err(c.error(&t, "'Loop' with no label before it"));
                    };
                    p.flow(Next::Loop(to));
                    continue;
                }
                "goto" => {
                    let jump = parse_jump(c, dialect)?;
                    p.flow(Next::Goto(jump));
                    continue;
                }
                _ => {}
            }
            if c.check_punct(':')? {
                p.pending.push(text.to_ascii_lowercase());
                continue;
            }
        }
        let states = parse_state(c, dialect, &text, &t)?;
        if states.len() > *states_left {
            return Err(c.error(&t, format!("more than {MAX_ACTOR_STATES} states in all")));
        }
        *states_left -= states.len();
        p.push(states);
    }
}

/// The block being filled and what the flow keywords apply to.
struct BlockParser<'b> {
    block: &'b mut StateBlock,
    /// Labels read whose state has not come yet.
    pending: Vec<String>,
    /// The last state, while no flow keyword has set its successor.
    open: Option<usize>,
    /// The state the last label names (where `Loop` goes).
    last_label: Option<usize>,
}

impl BlockParser<'_> {
    fn push(&mut self, states: Vec<StateDef>) {
        let first = self.block.states.len();
        if !self.pending.is_empty() {
            self.resolve_pending(LabelTarget::State(first));
            self.last_label = Some(first);
        }
        self.block.states.extend(states);
        self.open = self.block.states.len().checked_sub(1);
    }

    fn resolve_pending(&mut self, target: LabelTarget) {
        for label in self.pending.drain(..) {
            self.block.labels.push((label, target.clone()));
        }
    }

    /// A flow keyword: the successor of the last state, or what labels just read name
    /// (`Spawn: Stop`, `Idle: Goto Spawn`).
    fn flow(&mut self, next: Next) {
        if !self.pending.is_empty() {
            let target = match next {
                Next::Goto(jump) => LabelTarget::Goto(jump),
                _ => LabelTarget::Null,
            };
            self.resolve_pending(target);
            return;
        }
        if let Some(i) = self.open.take() {
            self.block.states[i].next = next;
        }
    }
}

/// `[Scope::]Label[+N]` after `Goto`.
fn parse_jump(c: &mut Cursor<'_>, dialect: Dialect) -> Result<Jump> {
    let (first, t) = c.expect_text("the label to go to")?;
    let (scope, mut label) = if c.check_punct(':')? {
        c.expect_punct(':', "in the scoped label")?;
        let scope =
            if first.eq_ignore_ascii_case("super") { Scope::Super } else { Scope::Class(first) };
        (scope, c.expect_text("the label to go to")?.0)
    } else {
        (Scope::Own, first)
    };
    let mut offset = None;
    if let Some((l, n)) = label.split_once('+') {
        offset = Some(n.to_string());
        label = l.to_string();
    } else if may_continue(c, dialect)?
        && c.peek()?.and_then(Token::text).is_some_and(|w| w.starts_with('+'))
    {
        let (plus, _) = c.expect_text("the offset")?;
        offset = Some(if plus == "+" { c.expect_text("the offset")?.0 } else { plus[1..].into() });
    }
    let offset = match offset {
        None => 0,
        Some(n) => plain_int(n.trim())
            .and_then(|v| usize::try_from(v).ok())
            .filter(|&v| v <= MAX_ACTOR_STATES)
            .ok_or_else(|| c.error(&t, format!("bad state offset '+{n}'")))?,
    };
    Ok(Jump { label: label.to_ascii_lowercase(), offset, scope })
}

/// Whether the next token may still belong to this state: DECORATE's state ends with its
/// line, ZScript's at `;`.
fn may_continue(c: &mut Cursor<'_>, dialect: Dialect) -> Result<bool> {
    match dialect {
        Dialect::Decorate => c.next_on_same_line(),
        Dialect::ZScript => Ok(c.peek()?.is_some_and(|t| !t.is_punct(';'))),
    }
}

/// One state line: a state per frame letter, all alike but for the letter.
fn parse_state(
    c: &mut Cursor<'_>,
    dialect: Dialect,
    sprite: &str,
    at: &Token,
) -> Result<Vec<StateDef>> {
    let sprite = SpriteRef::parse(sprite)
        .ok_or_else(|| c.error(at, format!("sprite name '{sprite}' is not 4 characters")))?;
    let (frames, ft) = c.expect_text("the frame letters")?;
    let frames: Vec<u8> = frames.bytes().map(|b| b.to_ascii_uppercase()).collect();
    let valid = |&b: &u8| (b'A'..=b']').contains(&b) || b == b'#';
    if frames.is_empty() || !frames.iter().all(valid) {
        return Err(c.error(&ft, format!("bad frame letters {}", ft.describe())));
    }
    let tics = parse_duration(c, dialect)?;
    let mut bright = false;
    while may_continue(c, dialect)? {
        let keyword = c.peek()?.and_then(Token::text).map(str::to_ascii_lowercase);
        let Some(keyword) = keyword.filter(|k| STATE_KEYWORDS.contains(&k.as_str())) else {
            break;
        };
        c.next()?;
        bright |= keyword == "bright";
        c.skip_arguments()?;
    }
    let mut action = Action::None;
    // A flow keyword on the state's line is flow, not an action (`LAMP A -1 Bright Stop`),
    // and a closing brace ends the block.
    let starts_action = |t: &Token| match &t.kind {
        TokenKind::Word(_) => !FLOW.iter().any(|k| t.is_word(k)),
        TokenKind::Punct(p) => *p != '}' && *p != ';',
        TokenKind::Quoted(_) => true,
    };
    if may_continue(c, dialect)? && c.peek()?.is_some_and(starts_action) {
        let t = c.expect("an action")?;
        if t.is_punct('{') {
            c.skip_nested(&t)?;
            action = Action::Code;
        } else if let TokenKind::Word(name) = &t.kind {
            action = Action::named(name);
            c.skip_arguments()?;
        } else {
            return Err(c.error(&t, format!("expected an action, found {}", t.describe())));
        }
    }
    if dialect == Dialect::ZScript && action != Action::Code {
        c.expect_punct(';', "after the state")?;
    }
    let state = |frame| StateDef {
        sprite,
        frame,
        tics,
        bright,
        action: action.clone(),
        next: Next::Following,
        line: at.line,
    };
    Ok(frames.into_iter().map(state).collect())
}

/// A state's duration: a number, or `random(a, b)` and (ZScript) other expressions, which
/// are not read.
fn parse_duration(c: &mut Cursor<'_>, dialect: Dialect) -> Result<Tics> {
    let t = c.expect("the duration")?;
    let text = t.text().unwrap_or_default();
    if let Some(v) = plain_int(text) {
        return i32::try_from(v)
            .map(Tics::Plain)
            .map_err(|_| c.error(&t, format!("duration {v} is out of range")));
    }
    let computed = matches!(t.kind, TokenKind::Word(_))
        && (text.eq_ignore_ascii_case("random") || dialect == Dialect::ZScript);
    if !computed {
        return Err(c.error(&t, format!("expected the duration, found {}", t.describe())));
    }
    c.skip_arguments()?;
    Ok(Tics::Computed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::archive::wad::Lump;

    fn block(text: &str, dialect: Dialect) -> Result<StateBlock> {
        let lump = Lump { name: "T", data: text.as_bytes(), file: "t.pk3:x.txt", offset: 0 };
        let mut c = Cursor::new(&lump, "DECORATE")?;
        c.expect_punct('{', "")?;
        let mut b = StateBlock::default();
        let mut left = 100;
        parse_states(&mut c, dialect, &mut b, &mut left)?;
        Ok(b)
    }

    #[test]
    fn decorate_states_labels_and_flow() {
        let b = block(
            "{\nSpawn:\n  POSS AB 10 A_Look\n  Loop\nSee:\n  TROO A 4 Bright\n  \
             \"####\" \"#\" random(1, 3) A_Jump(128, \"See\")\n  Goto Super::See+2\nDeath: Stop\n}",
            Dialect::Decorate,
        )
        .unwrap();
        assert_eq!(b.states.len(), 4);
        assert_eq!(b.label("SPAWN"), Some(&LabelTarget::State(0)));
        assert_eq!(b.label("see"), Some(&LabelTarget::State(2)));
        assert_eq!(b.label("death"), Some(&LabelTarget::Null));
        let s = &b.states;
        assert_eq!(
            (s[0].sprite, s[0].frame, s[0].tics),
            (SpriteRef::Name(*b"POSS"), b'A', Tics::Plain(10))
        );
        assert_eq!((s[1].frame, &s[1].action, &s[1].next), (b'B', &Action::Watch, &Next::Loop(0)));
        assert_eq!(s[0].next, Next::Following);
        assert!(s[2].bright && s[2].action == Action::None);
        assert_eq!(
            (s[3].sprite, s[3].frame, s[3].tics),
            (SpriteRef::Previous, b'#', Tics::Computed)
        );
        assert_eq!(s[3].action, Action::ChangesLook("A_Jump".into()));
        let jump = Jump { label: "see".into(), offset: 2, scope: Scope::Super };
        assert_eq!(s[3].next, Next::Goto(jump));
    }

    #[test]
    fn the_action_must_be_on_the_states_line_in_decorate() {
        // `Loop` on the next line is flow, not the state's action.
        let b = block("{ Spawn:\n BAR1 A 6\n Loop }", Dialect::Decorate).unwrap();
        assert_eq!((&b.states[0].action, &b.states[0].next), (&Action::None, &Next::Loop(0)));
    }

    #[test]
    fn zscript_states_end_with_semicolons_and_may_run_code() {
        let b = block(
            "{ Spawn: TNT1 A 0 NoDelay { A_SetScale(2); } TRE1 A -1 Light(\"X\"); Stop; \
             Idle: Goto Spawn + 1; }",
            Dialect::ZScript,
        )
        .unwrap();
        assert_eq!(b.states.len(), 2);
        assert_eq!(b.states[0].action, Action::Code);
        assert_eq!((b.states[1].tics, &b.states[1].next), (Tics::Plain(-1), &Next::Stop));
        let jump = Jump { label: "spawn".into(), offset: 1, scope: Scope::Own };
        assert_eq!(b.label("idle"), Some(&LabelTarget::Goto(jump)));
    }

    #[test]
    fn bad_states_are_errors_naming_the_line() {
        let e = block("{\nSpawn:\n  TOOLONG A 4\n}", Dialect::Decorate).unwrap_err();
        assert!(e.message.starts_with("line 3:") && e.message.contains("not 4 characters"), "{e}");
        let e = block("{\nSpawn:\n  TROO A\n}", Dialect::Decorate).unwrap_err();
        assert!(e.message.contains("expected the duration, found '}'"), "{e}");
        let e = block("{ Spawn: TROO A 99999999999 }", Dialect::Decorate).unwrap_err();
        assert!(e.message.contains("out of range"), "{e}");
        let e = block("{ TROO A 1 Loop }", Dialect::Decorate).unwrap_err();
        assert!(e.message.contains("no label"), "{e}");
        // Flow on the state's own line.
        let b = block("{ Spawn: LAMP A 4 Bright Loop }", Dialect::Decorate).unwrap();
        assert_eq!((&b.states[0].action, &b.states[0].next), (&Action::None, &Next::Loop(0)));
        let e = block("{ Spawn: TROO AB 1 }", Dialect::ZScript).unwrap_err();
        assert!(e.message.contains("expected ';'"), "{e}");
        // More states than the budget.
        let many = format!("{{ Spawn: TROO {} 1 }}", "A".repeat(101));
        let e = block(&many, Dialect::Decorate).unwrap_err();
        assert!(e.message.contains("states in all"), "{e}");
    }
}
