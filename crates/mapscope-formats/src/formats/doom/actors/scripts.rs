//! Reading the actor scripts of a WAD stack: every `ZSCRIPT` lump then every `DECORATE` lump
//! in load order (GZDoom compiles ZScript first, so DECORATE may inherit from it), each
//! with the lumps it `#include`s read in place.
//!
//! An include names a package member by its path (`actors/trees.txt`) or a WAD lump by its
//! name; a lump is read once however often it is included (GZDoom would stop at the second
//! definition of each class), an include of a lump in the chain including it is a loop, and
//! the chain is at most [`MAX_ACTOR_INCLUDE_DEPTH`] deep. All of these are notes naming the
//! file and line; the rest is read.

use std::collections::HashSet;

use super::cursor::Cursor;
use super::defs::ClassDef;
use super::states::Dialect;
use super::{decorate, zscript};
use crate::formats::doom::archive::wad::{LumpNum, WadStack};
use crate::formats::doom::script_tokens::Token;
use crate::formats::Result;
use crate::limits::doom::{
    MAX_ACTOR_CLASSES, MAX_ACTOR_INCLUDE_DEPTH, MAX_ACTOR_SCRIPTS, MAX_ACTOR_STATES,
};

/// The classes the scripts define, in the order read, and what went wrong reading them.
pub(super) struct ScriptReader<'s> {
    pub(super) stack: &'s WadStack,
    pub(super) classes: Vec<ClassDef>,
    pub(super) notes: Vec<String>,
    /// States every class may still keep (see [`MAX_ACTOR_STATES`]).
    pub(super) states_left: usize,
    read: HashSet<LumpNum>,
    /// The lumps including the one being read, outermost first.
    chain: Vec<LumpNum>,
    classes_noted: bool,
}

impl<'s> ScriptReader<'s> {
    pub(super) fn new(stack: &'s WadStack) -> ScriptReader<'s> {
        ScriptReader {
            stack,
            classes: Vec::new(),
            notes: Vec::new(),
            states_left: MAX_ACTOR_STATES,
            read: HashSet::new(),
            chain: Vec::new(),
            classes_noted: false,
        }
    }

    /// Reads every ZSCRIPT, then every DECORATE lump of the stack.
    pub(super) fn read_all(&mut self) {
        for (name, dialect) in [("ZSCRIPT", Dialect::ZScript), ("DECORATE", Dialect::Decorate)] {
            for (_, num) in self.stack.global_lumps_named(name) {
                self.read_lump(num, dialect);
            }
        }
    }

    /// Reads lump `num` in `dialect` unless it was read already.
    fn read_lump(&mut self, num: LumpNum, dialect: Dialect) {
        if !self.read.insert(num) {
            return;
        }
        if self.read.len() > MAX_ACTOR_SCRIPTS {
            if self.read.len() == MAX_ACTOR_SCRIPTS + 1 {
                self.notes.push(format!(
                    "actor scripts: more than {MAX_ACTOR_SCRIPTS} lumps; the rest are not read"
                ));
            }
            return;
        }
        let Some(lump) = self.stack.lump_at(num) else { return };
        let structure = match dialect {
            Dialect::Decorate => "DECORATE",
            Dialect::ZScript => "ZSCRIPT",
        };
        let mut c = match Cursor::new(&lump, structure) {
            Ok(c) => c,
            Err(e) => {
                self.notes.push(format!("{e}; not read"));
                return;
            }
        };
        self.chain.push(num);
        let (item, keyword): (TopLevel, &str) = match dialect {
            Dialect::Decorate => (decorate::top_level, "actor"),
            Dialect::ZScript => (zscript::top_level, "class"),
        };
        self.read_items(&mut c, item, keyword);
        self.chain.pop();
    }

    /// Reads a lump's top-level items with `item` to its end; after a parse error (a note)
    /// reading goes on at the next line that starts with `keyword`, the start of the next
    /// definition in both dialects.
    fn read_items(&mut self, c: &mut Cursor<'_>, item: TopLevel, keyword: &str) {
        loop {
            match item(self, c) {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => match resync(c, keyword) {
                    Ok(true) => self.parse_error(e, true),
                    _ => {
                        self.parse_error(e, false);
                        return;
                    }
                },
            }
        }
    }

    /// `#include` of `path` at token `at` of the lump `c` reads.
    pub(super) fn include(&mut self, c: &Cursor<'_>, at: &Token, path: &str, dialect: Dialect) {
        let path = path.replace('\\', "/");
        let path = path.trim_start_matches("./");
        let num = self.stack.lump_num_by_path(path).or_else(|| self.stack.lump_num(path));
        let problem = match num {
            None => Some(format!("#include \"{path}\": no such lump or member")),
            Some(n) if self.chain.contains(&n) => {
                Some(format!("#include \"{path}\" includes itself (an include loop)"))
            }
            Some(_) if self.chain.len() >= MAX_ACTOR_INCLUDE_DEPTH => Some(format!(
                "#include \"{path}\": includes nest more than {MAX_ACTOR_INCLUDE_DEPTH} deep"
            )),
            Some(n) if self.read.contains(&n) => {
                Some(format!("#include \"{path}\": read already; not read again"))
            }
            Some(_) => None,
        };
        match (problem, num) {
            (Some(p), _) => self.notes.push(format!("{}; not read", c.error(at, p))),
            (None, Some(n)) => self.read_lump(n, dialect),
            (None, None) => {}
        }
    }

    /// Keeps a class read; false once [`MAX_ACTOR_CLASSES`] are kept (the caller stops).
    pub(super) fn add_class(&mut self, class: ClassDef) -> bool {
        if self.classes.len() >= MAX_ACTOR_CLASSES {
            if !std::mem::replace(&mut self.classes_noted, true) {
                self.notes.push(format!(
                    "actor scripts: more than {MAX_ACTOR_CLASSES} classes; {} and later ones \
                     are not read",
                    class.name
                ));
            }
            return false;
        }
        self.classes.push(class);
        true
    }

    /// A parse error: noted, with what is kept.
    pub(super) fn parse_error(&mut self, e: crate::formats::FormatError, resumes: bool) {
        let rest = if resumes {
            "the definitions before it are kept and reading resumes at the next one"
        } else {
            "the definitions before it are kept; the rest of the lump is not read"
        };
        self.notes.push(format!("{e}; {rest}"));
    }
}

/// One top-level item of a dialect; false at the end of the lump or once no more classes are
/// kept.
type TopLevel = fn(&mut ScriptReader<'_>, &mut Cursor<'_>) -> Result<bool>;

/// Skips to the next line that starts with `keyword`; false when the lump ends first.
fn resync(c: &mut Cursor<'_>, keyword: &str) -> Result<bool> {
    loop {
        let starts = c.next_starts_line()?;
        match c.peek()? {
            None => return Ok(false),
            Some(t) if starts && t.is_word(keyword) => return Ok(true),
            Some(_) => {
                c.next()?;
            }
        }
    }
}
