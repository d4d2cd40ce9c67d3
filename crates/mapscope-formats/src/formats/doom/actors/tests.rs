//! The actor table as a whole: scripts read from a WAD, editor numbers, `replaces`,
//! inheritance from vanilla's classes and the spawn states followed to a look.

use super::look::{Blend, LookState, ThingLook};
use super::{load_actors, ActorTable, Lookup};
use crate::formats::doom::archive::wad::{Wad, WadStack};
use crate::formats::doom::archive::writer::WadWriter;

/// A stack of one PWAD, `mod.wad`, holding these text lumps.
pub(super) fn stack_of(lumps: &[(&str, &str)]) -> WadStack {
    let mut w = WadWriter::pwad();
    for (name, text) in lumps {
        w.lump(name, text.as_bytes().to_vec());
    }
    WadStack::new(vec![Wad::from_bytes("mod.wad", w.to_bytes()).unwrap()])
}

fn table(lumps: &[(&str, &str)]) -> (ActorTable, Vec<String>) {
    let stack = stack_of(lumps);
    let mut notes = Vec::new();
    let t = load_actors(&stack, &mut notes);
    (t, notes)
}

fn look(t: &ActorTable, n: u16) -> &ThingLook {
    match t.get(n) {
        Lookup::Look(l) => l,
        other => panic!("{n}: {other:?}"),
    }
}

fn state(sprite: &[u8; 4], frame: u8, bright: bool, tics: i32) -> LookState {
    LookState { sprite: *sprite, frame, bright, tics }
}

const DECORATE: &str = r#####"
actor Tree1 20555 { Height 150 Scale 0.5 States { Spawn: TR1E A -1 Stop } }
// Inherits the imp's look, bigger.
actor BigImp : DoomImp 20600 { Scale 2.0 }
// Replaces the tech lamp: editor number 85 spawns it.
actor GlowLamp : TechLamp replaces TechLamp { RenderStyle Add Alpha 0.5 }
actor Flicker 20601
{
    +SPAWNCEILING
    Height 40
    States
    {
    Spawn:
        TNT1 A 0 A_PlaySound("x")
        FLIK AB 4 Bright
        "####" C 6
        Goto Spawn+1
    }
}
actor Child : Flicker 20602 { States { Death: FLIK Z -1 Stop } }
actor Wrapper : Flicker 20603 { States { Spawn: FLIK D 2 Goto Super::Spawn } }
actor Chooser 20604 { States { Spawn: CHOO A 4 A_Jump(128, "Other") Loop Other: CHOO B -1 Stop } }
actor Ghost 20605 { RenderStyle None States { Spawn: GHST A -1 Stop } }
actor Orphan : NoSuchParent 20606 { States { Spawn: ORPH A -1 Stop } }
actor Picker : RandomSpawner 20607 { }
actor Stalks 20608 { States { Spawn: STLK A random(2, 4) Loop } }
actor Blank 20609 { }
actor Wild 20610 { Scale 1000 States { Spawn: WILD A -1 Stop } }
"#####;

#[test]
fn decorate_actors_with_inheritance_replacement_and_states() {
    let (t, notes) = table(&[("DECORATE", DECORATE)]);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(t.script_classes, 13);

    let tree = look(&t, 20555);
    assert_eq!((tree.name.as_str(), tree.height, tree.scale), ("Tree1", 150.0, [0.5, 0.5]));
    assert_eq!(tree.states, [state(b"TR1E", b'A', false, -1)]);
    assert!(tree.script && tree.unread.is_empty());

    // The imp's spawn frame and standing tics, its monster flag, twice the size.
    let imp = look(&t, 20600);
    assert_eq!(imp.states, [state(b"TROO", b'A', false, 10)]);
    assert_eq!((imp.spawn_tics, imp.monster, imp.scale), (10, true, [2.0, 2.0]));
    assert_eq!(imp.height, 56.0);

    // Editor number 85 spawns the replacement, with the lamp's animation.
    let lamp = look(&t, 85);
    assert_eq!(lamp.name, "GlowLamp");
    assert_eq!(lamp.blend, Blend::Alpha { alpha: 0.5, additive: true });
    assert_eq!(lamp.states.len(), 4);
    assert_eq!(lamp.states[0], state(b"TLMP", b'A', true, 4));
    assert!(lamp.animates);

    // The zero-tic TNT1 state is not seen; #### keeps FLIK; Goto Spawn+1 loops to A.
    let flicker = look(&t, 20601);
    assert_eq!(
        flicker.states,
        [
            state(b"FLIK", b'A', true, 4),
            state(b"FLIK", b'B', true, 4),
            state(b"FLIK", b'C', false, 6)
        ]
    );
    assert_eq!((flicker.loop_to, flicker.animates, flicker.hangs), (Some(0), true, true));
    // A child without Spawn takes its parent's states and properties.
    let child = look(&t, 20602);
    assert_eq!(
        (child.states.clone(), child.hangs, child.height),
        (flicker.states.clone(), true, 40.0)
    );
    // Goto Super::Spawn: its own state, then the parent's, looping there.
    let wrapper = look(&t, 20603);
    assert_eq!(wrapper.states[0], state(b"FLIK", b'D', false, 2));
    assert_eq!((wrapper.states.len(), wrapper.loop_to), (4, Some(1)));

    // What cannot be read: said, and drawn as far as it goes.
    let chooser = look(&t, 20604);
    assert_eq!(chooser.states, [state(b"CHOO", b'A', false, 4)]);
    assert!(chooser.unread.iter().any(|u| u.contains("A_Jump")), "{:?}", chooser.unread);
    assert!(!look(&t, 20605).visible());
    let orphan = look(&t, 20606);
    assert!(orphan.visible() && orphan.unread[0].contains("NoSuchParent is not defined"));
    let picker = look(&t, 20607);
    assert!(!picker.visible() && picker.unread[0].contains("RandomSpawner"));
    let stalks = look(&t, 20608);
    assert!(!stalks.animates && stalks.unread.iter().any(|u| u.contains("not plain")));
    // No Spawn state anywhere: the base Actor's TNT1, nothing shown.
    assert!(!look(&t, 20609).visible());
    let wild = look(&t, 20610);
    assert_eq!(wild.scale, [64.0, 64.0]);
    assert!(wild.unread[0].contains("scale 1000 drawn as 64"), "{:?}", wild.unread);

    // Vanilla's numbers stay, unknown ones are unknown.
    assert_eq!(look(&t, 3001).name, "imp");
    assert_eq!(t.get(4321), Lookup::Unknown);
}

#[test]
fn doomednums_zscript_and_precedence() {
    let zscript = "class Pillar : Actor { Default { Height 64; } States { Spawn: PILR A -1; Stop; } }\n\
                   class Skull2 : FloatingSkull replaces FloatingSkull { Default { RenderStyle \"Translucent\"; Alpha 0.25; } }";
    let mapinfo =
        "DoomEdNums { 11001 = Pillar\n 11002 = MissingClass\n 64 = None\n 11003 = Pillar }";
    let decorate = "actor Statue 11003 { States { Spawn: STAT A -1 Stop } }";
    let (t, notes) = table(&[("ZSCRIPT", zscript), ("MAPINFO", mapinfo), ("DECORATE", decorate)]);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(look(&t, 11001).states, [state(b"PILR", b'A', false, -1)]);
    assert!(matches!(t.get(11002), Lookup::Broken(why) if why.contains("MissingClass")));
    assert_eq!(t.get(64), Lookup::Removed);
    // DECORATE's number beats DoomEdNums'.
    assert_eq!(look(&t, 11003).name, "Statue");
    let skull = look(&t, 42);
    assert_eq!(skull.name, "Skull2");
    assert_eq!(skull.blend, Blend::Alpha { alpha: 0.25, additive: false });
    assert_eq!(skull.states[0].sprite_name(), "FSKU");
}

#[test]
fn hostile_definitions_end_in_notes() {
    // Parents in a loop, replacements in a loop, a goto loop of labels.
    let text = "actor A : B 20001 { States { Spawn: AAAA A -1 Stop } }\n\
                actor B : A { }\n\
                actor R1 replaces R2 20002 { }\nactor R2 replaces R1 20003 { }\n\
                actor L 20004 { States { Spawn: Goto Idle\nIdle: Goto Spawn } }";
    let (t, notes) = table(&[("DECORATE", text)]);
    assert!(notes.is_empty(), "{notes:?}");
    let a = look(&t, 20001);
    assert!(a.unread.iter().any(|u| u.contains("loop")), "{:?}", a.unread);
    assert!(matches!(t.get(20002), Lookup::Broken(why) if why.contains("loop")));
    let l = look(&t, 20004);
    assert!(!l.visible() && l.unread.iter().any(|u| u.contains("loop")), "{:?}", l.unread);
}

#[test]
fn mangled_scripts_are_notes_never_panics() {
    // A small xorshift: the same mangled scripts every run.
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    const BYTES: &[u8] = b"{}();:\"#/*+-,.=\n AZaz09_^\\";
    let zscript = "class Z : DoomImp replaces Demon { Default { Scale 0.5; +SPAWNCEILING } \
                   States { Spawn: ZZZZ AB 4 { A_Look(); } Goto Super::Spawn+1; } }";
    for round in 0..1500 {
        let source = if round % 2 == 0 { DECORATE } else { zscript };
        let mut bytes = source.as_bytes().to_vec();
        for _ in 0..1 + next() % 6 {
            let at = (next() as usize) % bytes.len();
            bytes[at] = BYTES[(next() as usize) % BYTES.len()];
        }
        if next() % 4 == 0 {
            bytes.truncate((next() as usize) % bytes.len());
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let name = if round % 2 == 0 { "DECORATE" } else { "ZSCRIPT" };
        let (t, _) = table(&[(name, &text), ("MAPINFO", "DoomEdNums { 30000 = Z }")]);
        for n in [20555, 20601, 20603, 85, 30000, 3002] {
            let _ = t.get(n);
        }
    }
}
