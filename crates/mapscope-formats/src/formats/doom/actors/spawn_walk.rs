//! A class's look: its properties joined over its parents, and the states it shows from its
//! `Spawn` label on, followed through `Goto`, `Loop` and `Wait` as the game would.
//!
//! Facts relied on (ZDoom wiki: Actor states): a state goes on to the next one defined
//! unless `Goto Label[+N]` (the label looked up from the class that defines the state, or
//! `Super::` from its parent), `Loop` (back to the last label before it), `Wait` (the state
//! again) or `Stop` (the actor is removed once its tics run out, never at -1) says
//! otherwise; `####` and `#` keep the previous state's sprite and frame; `TNT1` shows
//! nothing; a state of 0 tics is never seen. A class without a `Spawn` label takes its
//! parent's; the base `Actor`'s shows nothing.

use std::collections::HashMap;

use super::defs::{Action, Jump, LabelTarget, Next, Props, RenderStyle, Scope, SpriteRef, Tics};
use super::look::{Blend, LookState, ThingLook};
use super::table::{vanilla_type, Class, Registry};
use crate::limits::doom::{MAX_ACTOR_INHERITANCE, MAX_SPAWN_WALK};

/// Scales past these are taken as mistakes (GZDoom draws them, but no real sprite needs
/// them and the vanilla canvas's fixed point would overflow).
const MIN_SCALE: f64 = 1.0 / 64.0;
const MAX_SCALE: f64 = 64.0;
/// GZDoom's default for `SoulTrans` (its `transsouls` setting).
const SOUL_ALPHA: f64 = 0.75;
/// GZDoom's default actor height.
const DEFAULT_HEIGHT: f64 = 16.0;

/// The look of class `name` (defined in `reg`) placed with editor number `n`.
pub(super) fn resolve_look(reg: &Registry, name: &str, n: u16) -> ThingLook {
    let (chain, broken) = reg.chain(name);
    let mut unread: Vec<String> = broken.into_iter().collect();
    // Properties from the root down, over vanilla's where the root is a vanilla type.
    let root = chain.iter().rev().find_map(|c| match c {
        Class::Vanilla(v) => vanilla_type(*v).map(ThingLook::vanilla),
        _ => None,
    });
    let mut props = Props::default();
    for c in chain.iter().rev() {
        if let Class::Script(i) = c {
            props.overlay(&reg.defs[*i].props);
        }
    }
    unread.extend(props.unread.iter().map(|p| format!("{p} is not a plain value")));
    let class_name = match chain.first() {
        Some(Class::Script(i)) => reg.defs[*i].name.clone(),
        _ => name.to_string(),
    };
    let mut look = ThingLook {
        doomednum: n,
        name: class_name,
        states: Vec::new(),
        loop_to: None,
        animates: false,
        spawn_tics: -1,
        hangs: props.spawn_ceiling.unwrap_or(root.as_ref().is_some_and(|r| r.hangs)),
        height: props.height.or(root.as_ref().map(|r| r.height)).unwrap_or(DEFAULT_HEIGHT),
        scale: [0, 1].map(|k| props.scale[k].unwrap_or(1.0)),
        blend: root.as_ref().map_or(Blend::Opaque, |r| r.blend),
        monster: props.monster.unwrap_or(root.as_ref().is_some_and(|r| r.monster)),
        script: true,
        unread: Vec::new(),
    };
    look.height = look.height.clamp(0.0, 65535.0);
    for k in 0..2 {
        let s = look.scale[k];
        let kept = s.abs().clamp(MIN_SCALE, MAX_SCALE);
        if kept != s {
            unread.push(format!("scale {s} drawn as {kept}"));
            look.scale[k] = kept;
        }
    }
    let mut shown = true;
    if let Some(style) = &props.style {
        let alpha = props.alpha.unwrap_or(1.0).clamp(0.0, 1.0) as f32;
        look.blend = match style {
            RenderStyle::Normal => Blend::Opaque,
            RenderStyle::None => {
                shown = false;
                Blend::Opaque
            }
            RenderStyle::Fuzzy => Blend::Fuzz,
            RenderStyle::Translucent if alpha >= 1.0 => Blend::Opaque,
            RenderStyle::Translucent => Blend::Alpha { alpha, additive: false },
            RenderStyle::SoulTrans => Blend::Alpha { alpha: SOUL_ALPHA as f32, additive: false },
            RenderStyle::Add => Blend::Alpha { alpha, additive: true },
            RenderStyle::Other(s) => {
                unread.push(format!("RenderStyle {s} drawn as Normal"));
                Blend::Opaque
            }
        };
        if matches!(look.blend, Blend::Alpha { alpha, .. } if alpha <= 0.0) {
            shown = false;
        }
    }
    if props.invisible == Some(true) {
        shown = false;
    }
    if Registry::is_random_spawner(&chain) {
        unread.push("a RandomSpawner: it spawns one of its DropItem classes at random".into());
        shown = false;
    }
    let walked = walk_spawn(reg, &chain);
    unread.extend(walked.unread);
    look.spawn_tics = walked.spawn_tics;
    if shown {
        look.states = walked.states;
        look.loop_to = walked.loop_to;
        look.animates = walked.animates && look.states.len() > 1;
    }
    look.unread = unread;
    look
}

/// Where a state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pos {
    /// State `state` of `defs[class]`.
    Script { class: usize, state: usize },
    /// Vanilla's type: its states from the spawn state on.
    Vanilla(u16),
}

/// A state met on the walk.
struct Step {
    sprite: SpriteRef,
    frame: u8,
    tics: Tics,
    bright: bool,
    action: Action,
}

/// How the walk ended.
enum End {
    /// Back to the step of this index.
    Loop(usize),
    /// The last step stays.
    Hold,
}

/// The spawn states as a look shows them.
struct Walked {
    states: Vec<LookState>,
    loop_to: Option<usize>,
    animates: bool,
    spawn_tics: i32,
    unread: Vec<String>,
}

impl Walked {
    fn nothing(unread: Vec<String>) -> Walked {
        Walked { states: Vec::new(), loop_to: None, animates: false, spawn_tics: -1, unread }
    }
}

fn walk_spawn(reg: &Registry, chain: &[Class]) -> Walked {
    let Some(start) = find_label(reg, chain, "spawn") else {
        return Walked::nothing(Vec::new());
    };
    let mut unread = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut seen: HashMap<Pos, usize> = HashMap::new();
    let mut pos = match start {
        Found::Pos(p) => p,
        Found::Nothing => return Walked::nothing(Vec::new()),
        Found::Unreadable(why) => return Walked::nothing(vec![why]),
    };
    let end = loop {
        if steps.len() >= MAX_SPAWN_WALK {
            unread.push(format!("spawn states run past {MAX_SPAWN_WALK} states"));
            break End::Hold;
        }
        let (class, state) = match pos {
            Pos::Vanilla(v) => {
                // Vanilla's states from its spawn state on, then its own loop.
                let Some(look) = vanilla_type(v).map(ThingLook::vanilla) else { break End::Hold };
                let first = steps.len();
                for s in &look.states {
                    steps.push(Step {
                        sprite: SpriteRef::Name(s.sprite),
                        frame: s.frame,
                        tics: Tics::Plain(s.tics),
                        bright: s.bright,
                        action: if look.monster { Action::Watch } else { Action::None },
                    });
                }
                break if look.animates { End::Loop(first) } else { End::Hold };
            }
            Pos::Script { class, state } => (class, state),
        };
        if let Some(&k) = seen.get(&pos) {
            break End::Loop(k);
        }
        let Some(def) = reg.defs[class].states.states.get(state) else {
            // Past the last state defined: GZDoom removes the actor.
            break End::Hold;
        };
        seen.insert(pos, steps.len());
        steps.push(Step {
            sprite: def.sprite,
            frame: def.frame,
            tics: def.tics,
            bright: def.bright,
            action: def.action.clone(),
        });
        if matches!(def.tics, Tics::Plain(t) if t < 0) {
            break End::Hold;
        }
        pos = match &def.next {
            Next::Following => Pos::Script { class, state: state + 1 },
            Next::Stop => {
                unread
                    .push("its spawn states end with Stop: removed in the game, drawn here".into());
                break End::Hold;
            }
            Next::Wait => break End::Loop(steps.len() - 1),
            Next::Loop(to) => Pos::Script { class, state: *to },
            Next::Goto(jump) => match jump_target(reg, class, jump) {
                Found::Pos(p) => p,
                Found::Nothing => break End::Hold,
                Found::Unreadable(why) => {
                    unread.push(why);
                    break End::Hold;
                }
            },
        };
    };
    show(steps, end, unread)
}

/// What a label names, as the walk needs it.
enum Found {
    Pos(Pos),
    /// `Stop` at the label, or no such label anywhere: nothing is shown.
    Nothing,
    Unreadable(String),
}

/// Label `label` of the first class of `chain` that has it.
fn find_label(reg: &Registry, chain: &[Class], label: &str) -> Option<Found> {
    for (depth, c) in chain.iter().enumerate() {
        match *c {
            Class::Script(i) => {
                if let Some(target) = reg.defs[i].states.label(label) {
                    return Some(target_pos(reg, i, target, 0, depth));
                }
            }
            Class::Vanilla(v) if label == "spawn" => return Some(Found::Pos(Pos::Vanilla(v))),
            Class::Vanilla(_) => {
                return Some(Found::Unreadable(format!(
                    "its states go to the built-in label {label}, which is not known here"
                )))
            }
            Class::Base(_) => return None,
        }
    }
    None
}

/// The state `target` (a label of `defs[class]`) names, `offset` states on.
fn target_pos(
    reg: &Registry,
    class: usize,
    target: &LabelTarget,
    offset: usize,
    depth: usize,
) -> Found {
    match target {
        LabelTarget::State(s) => Found::Pos(Pos::Script { class, state: s + offset }),
        LabelTarget::Null => Found::Nothing,
        LabelTarget::Goto(jump) if depth < MAX_ACTOR_INHERITANCE => {
            let mut jump = jump.clone();
            jump.offset += offset;
            jump_target_at(reg, class, &jump, depth + 1)
        }
        LabelTarget::Goto(_) => Found::Unreadable("its labels go to each other in a loop".into()),
    }
}

fn jump_target(reg: &Registry, class: usize, jump: &Jump) -> Found {
    jump_target_at(reg, class, jump, 0)
}

/// Where `jump`, in a state of `defs[class]`, goes.
fn jump_target_at(reg: &Registry, class: usize, jump: &Jump, depth: usize) -> Found {
    let name = &reg.defs[class].name;
    let (chain, _) = match &jump.scope {
        Scope::Own => reg.chain(name),
        Scope::Super => {
            let (mut chain, why) = reg.chain(name);
            if !chain.is_empty() {
                chain.remove(0);
            }
            (chain, why)
        }
        Scope::Class(other) => reg.chain(other),
    };
    for c in &chain {
        match *c {
            Class::Script(i) => {
                if let Some(target) = reg.defs[i].states.label(&jump.label) {
                    return target_pos(reg, i, target, jump.offset, depth);
                }
            }
            Class::Vanilla(v) if jump.label == "spawn" && jump.offset == 0 => {
                return Found::Pos(Pos::Vanilla(v))
            }
            _ => break,
        }
    }
    Found::Unreadable(format!(
        "its spawn states go to label {}, which is not known here",
        jump.label
    ))
}

/// The steps as shown: sprites and frames kept from the state before where the script says
/// so, states of 0 tics left out, the loop's start moved to the next state shown.
fn show(steps: Vec<Step>, end: End, mut unread: Vec<String>) -> Walked {
    let mut states: Vec<LookState> = Vec::new();
    // Index in `states` of the first shown state at or after each step.
    let mut shown_from: Vec<usize> = Vec::with_capacity(steps.len());
    let (mut sprite, mut frame): (Option<[u8; 4]>, Option<u8>) = (None, None);
    let mut animates = true;
    let mut watch = false;
    let mut changes: Vec<String> = Vec::new();
    let mut spawn_tics = -1;
    for step in &steps {
        shown_from.push(states.len());
        if let SpriteRef::Name(s) = step.sprite {
            sprite = Some(s);
        }
        if step.frame != b'#' {
            frame = Some(step.frame);
        }
        match &step.action {
            Action::Watch => watch = true,
            Action::ChangesLook(f) if !changes.contains(f) => changes.push(f.clone()),
            Action::Code if !changes.iter().any(|c| c == "code") => changes.push("code".into()),
            _ => {}
        }
        let tics = match step.tics {
            Tics::Plain(0) => continue,
            Tics::Plain(t) => t,
            Tics::Computed => {
                animates = false;
                if !unread.iter().any(|u| u.starts_with("durations")) {
                    unread.push("durations that are not plain numbers: not animated".into());
                }
                -1
            }
        };
        let (Some(sprite), Some(frame)) = (sprite, frame) else {
            unread.push("its spawn state keeps a sprite (####) it never had".into());
            return Walked::nothing(unread);
        };
        if states.is_empty() {
            spawn_tics = tics;
        }
        states.push(LookState { sprite, frame, bright: step.bright, tics });
    }
    if !changes.is_empty() {
        unread.push(format!(
            "its spawn states call {} (drawn as if they did not)",
            changes.join(", ")
        ));
    }
    let loop_to = match end {
        End::Hold => None,
        End::Loop(k) => match shown_from.get(k).copied().filter(|&s| s < states.len()) {
            Some(s) => Some(s),
            None if states.is_empty() => None,
            None => {
                unread.push("its spawn states loop through states of 0 tics".into());
                None
            }
        },
    };
    if states.is_empty() {
        return Walked::nothing(unread);
    }
    if states[0].sprite == *b"TNT1" {
        // Shows nothing at spawn (a later sprite would be drawn once it is reached: not
        // simulated).
        return Walked { spawn_tics, ..Walked::nothing(unread) };
    }
    if states.iter().any(|s| s.sprite == *b"TNT1") {
        animates = false;
        unread.push("its animation shows nothing (TNT1) at times: drawn at its spawn frame".into());
    }
    Walked { states, loop_to, animates: animates && !watch, spawn_tics, unread }
}
