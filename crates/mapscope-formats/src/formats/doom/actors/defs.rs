//! Actor classes as DECORATE and ZScript define them, before inheritance: the header
//! (parent, `replaces`, editor number), the properties that decide a thing's look, and the
//! state table. The parsers fill these; the table (`table.rs`) joins a class with its
//! ancestors.

/// One class as one script defines it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClassDef {
    pub name: String,
    pub parent: Option<String>,
    pub replaces: Option<String>,
    /// DECORATE's editor number (ZScript gives none: MAPINFO's DoomEdNums does).
    pub doomednum: Option<u16>,
    pub props: Props,
    pub states: StateBlock,
    /// Where it is defined (`file line N`), for notes.
    pub origin: String,
}

/// The properties and flags read; `None` where the class leaves its parent's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Props {
    pub height: Option<f64>,
    pub scale: [Option<f64>; 2],
    pub style: Option<RenderStyle>,
    pub alpha: Option<f64>,
    /// `+SPAWNCEILING`.
    pub spawn_ceiling: Option<bool>,
    /// `+ISMONSTER`, `+COUNTKILL` or the `Monster` combination: `-nomonsters` removes it.
    pub monster: Option<bool>,
    /// `+INVISIBLE`: never drawn.
    pub invisible: Option<bool>,
    /// Look properties whose values are not plain numbers or names (`Scale 1.0/3`), for
    /// notes.
    pub unread: Vec<String>,
}

impl Props {
    /// Sets each property `over` has over this one's.
    pub fn overlay(&mut self, over: &Props) {
        let pick = |mine: &mut Option<f64>, theirs: Option<f64>| {
            if theirs.is_some() {
                *mine = theirs;
            }
        };
        pick(&mut self.height, over.height);
        pick(&mut self.scale[0], over.scale[0]);
        pick(&mut self.scale[1], over.scale[1]);
        pick(&mut self.alpha, over.alpha);
        if over.style.is_some() {
            self.style = over.style.clone();
        }
        for (mine, theirs) in [
            (&mut self.spawn_ceiling, over.spawn_ceiling),
            (&mut self.monster, over.monster),
            (&mut self.invisible, over.invisible),
        ] {
            if theirs.is_some() {
                *mine = theirs;
            }
        }
        self.unread.extend(over.unread.iter().cloned());
    }
}

/// GZDoom's render styles (the `RenderStyle` property).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderStyle {
    Normal,
    /// Not drawn.
    None,
    /// The fuzz effect (`Fuzzy`; `OptFuzzy` draws it too, at GZDoom's default settings).
    Fuzzy,
    /// Blended by `Alpha`.
    Translucent,
    /// `SoulTrans`: translucent at the `transsouls` setting, 0.75 by default.
    SoulTrans,
    /// Added by `Alpha`.
    Add,
    /// Another style (`Stencil`, `Subtract`, `Shaded` ...): drawn as `Normal`, with a note.
    Other(String),
}

impl RenderStyle {
    pub fn parse(name: &str) -> RenderStyle {
        match name.to_ascii_lowercase().as_str() {
            "normal" => RenderStyle::Normal,
            "none" => RenderStyle::None,
            "fuzzy" | "optfuzzy" => RenderStyle::Fuzzy,
            "translucent" => RenderStyle::Translucent,
            "soultrans" => RenderStyle::SoulTrans,
            "add" => RenderStyle::Add,
            _ => RenderStyle::Other(name.to_string()),
        }
    }
}

/// A class's states and the labels that name some of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateBlock {
    pub states: Vec<StateDef>,
    /// Lower-cased labels (`spawn`, `death.fire`) and what each names.
    pub labels: Vec<(String, LabelTarget)>,
}

impl StateBlock {
    /// What label `name` (any case) names in this block.
    pub fn label(&self, name: &str) -> Option<&LabelTarget> {
        let name = name.to_ascii_lowercase();
        self.labels.iter().rev().find(|(l, _)| *l == name).map(|(_, t)| t)
    }
}

/// What a label names.
#[derive(Clone, Debug, PartialEq)]
pub enum LabelTarget {
    /// A state of the block.
    State(usize),
    /// `Label: Stop`: nothing (an actor sent there is removed).
    Null,
    /// `Label: Goto Other`: the same as another label.
    Goto(Jump),
}

/// One state: `SPRT F 4 Bright A_Action`.
#[derive(Clone, Debug, PartialEq)]
pub struct StateDef {
    pub sprite: SpriteRef,
    /// Frame letter (`A` = 65), or `#` for the previous state's frame.
    pub frame: u8,
    pub tics: Tics,
    pub bright: bool,
    pub action: Action,
    /// Where the state goes when its tics run out.
    pub next: Next,
    /// Its line in the script, for notes.
    pub line: usize,
}

/// A state's sprite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpriteRef {
    Name([u8; 4]),
    /// `####`: the previous state's sprite.
    Previous,
    /// `----`: the sprite and frame do not change.
    Unchanged,
}

impl SpriteRef {
    pub fn parse(text: &str) -> Option<SpriteRef> {
        let b = text.as_bytes();
        if b.len() != 4 {
            return None;
        }
        Some(match text {
            "####" => SpriteRef::Previous,
            "----" => SpriteRef::Unchanged,
            _ => SpriteRef::Name([b[0], b[1], b[2], b[3]].map(|c| c.to_ascii_uppercase())),
        })
    }
}

/// A state's duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tics {
    /// A plain number of tics; -1 (any negative) for ever.
    Plain(i32),
    /// `random(a, b)` or an expression: not read.
    Computed,
}

/// What a state does when entered, as far as its look is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// `A_Look` and the like: a monster standing watch, which wakes and walks once it sees
    /// the player, so its cycle is not played (as vanilla's monsters stay at their spawn
    /// frame here).
    Watch,
    /// A function that may change the look (`A_Jump`, `A_SetScale`, `A_FadeOut` ...).
    ChangesLook(String),
    /// A ZScript code block: anything may happen.
    Code,
    /// Another function: taken not to change the look.
    Other,
}

impl Action {
    /// How a call to function `name` counts.
    pub fn named(name: &str) -> Action {
        let lower = name.to_ascii_lowercase();
        const WATCH: [&str; 4] = ["a_look", "a_lookex", "a_wander", "a_chase"];
        const LOOK: [&str; 10] = [
            "a_setscale",
            "a_setrenderstyle",
            "a_settranslucent",
            "a_setsize",
            "a_changeflag",
            "a_setfloorclip",
            "a_setangle",
            "a_warp",
            "a_remove",
            "a_die",
        ];
        if WATCH.contains(&lower.as_str()) {
            Action::Watch
        } else if lower.starts_with("a_jump")
            || lower.starts_with("a_fade")
            || LOOK.contains(&lower.as_str())
        {
            Action::ChangesLook(name.to_string())
        } else {
            Action::Other
        }
    }
}

/// A state's successor.
#[derive(Clone, Debug, PartialEq)]
pub enum Next {
    /// The state defined after it.
    Following,
    /// `Stop` (and `Fail`): the actor is removed when the tics run out (never, at -1).
    Stop,
    /// `Wait`: the state repeats.
    Wait,
    /// `Loop`: back to the state the last label before it names.
    Loop(usize),
    Goto(Jump),
}

/// `Goto [Scope::]Label[+offset]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jump {
    /// Lower-cased.
    pub label: String,
    pub offset: usize,
    pub scope: Scope,
}

/// Where a goto's label is looked up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The class that defines the state, then its ancestors.
    Own,
    /// `Super::`: the defining class's parent and its ancestors.
    Super,
    /// `Class::`: that class.
    Class(String),
}
