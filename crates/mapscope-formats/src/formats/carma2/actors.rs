//! ACT files: actor hierarchies, read as BRender's loader does with a stack.
//!
//! 0x23 pushes an actor; 0x2B / 0x32 push a matrix / bounds that 0x25 / 0x29 pop into the
//! actor on top; 0x24 / 0x26 name its model / material; 0x2A pops the actor and adds it as a
//! child of the one below; the end record closes the hierarchy. (The spec's reading of
//! 0x29 / 0x2A as begin / end of a level builds the same tree for files that pair them.)
//! The hierarchy is kept flat, in file (pre-)order, with parent indices, so arbitrarily deep
//! files need no recursion.

use super::records::{self, cstr, floats, read_objects, Notes, ObjectReader, Parsed};
use super::transform::{Bounds, Matrix34};
use crate::formats::{Reader, Result};

/// BRender actor types (`br_actor.type`).
pub mod actor_type {
    pub const NONE: u8 = 0;
    pub const MODEL: u8 = 1;
    pub const LIGHT: u8 = 2;
    pub const CAMERA: u8 = 3;
    pub const BOUNDS: u8 = 5;
}

/// BRender render style that hides an actor's model (`BR_RSTYLE_NONE`).
pub const RENDER_STYLE_NONE: u8 = 1;

#[derive(Clone, Debug, PartialEq)]
pub struct Actor {
    pub name: String,
    pub actor_type: u8,
    pub render_style: u8,
    /// Relative to the parent actor.
    pub transform: Matrix34,
    /// In the actor's own space, around its whole subtree.
    pub bounds: Option<Bounds>,
    pub model: Option<String>,
    /// Default material for faces without one, inherited by children.
    pub material: Option<String>,
    /// Index of the parent in [`Hierarchy::actors`] (always lower than this actor's).
    pub parent: Option<usize>,
    /// 0 for the top actor.
    pub depth: u32,
}

/// One actor tree; `actors[0]` is the top actor, the rest follow in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Hierarchy {
    pub actors: Vec<Actor>,
}

impl Hierarchy {
    /// Each actor's world matrix: its own, then its parent's, up to the top actor.
    pub fn world_matrices(&self) -> Vec<Matrix34> {
        let mut out: Vec<Matrix34> = Vec::with_capacity(self.actors.len());
        for a in &self.actors {
            let parent = a.parent.and_then(|p| out.get(p)).copied();
            out.push(match parent {
                Some(p) => a.transform.then(&p),
                None => a.transform,
            });
        }
        out
    }

    /// Each actor's material, or the nearest ancestor's (BRender passes the default material
    /// down the tree while rendering).
    pub fn inherited_materials(&self) -> Vec<Option<&str>> {
        let mut out: Vec<Option<&str>> = Vec::with_capacity(self.actors.len());
        for a in &self.actors {
            let inherited = a.parent.and_then(|p| out.get(p).copied().flatten());
            out.push(a.material.as_deref().or(inherited));
        }
        out
    }

    pub fn max_depth(&self) -> u32 {
        self.actors.iter().map(|a| a.depth).max().unwrap_or(0)
    }
}

/// The fields of a track's top actor name `PP01 X Z B N`.
#[derive(Clone, Debug, PartialEq)]
pub struct Pp01 {
    pub x_columns: u32,
    pub z_columns: u32,
    /// Extra room around the track bounds when the game splits the track into columns.
    pub extra_room: f32,
    pub noncars: i32,
}

impl Pp01 {
    /// Reads the name as Carmageddon does (`%u %u %f %d` after the tag).
    pub fn parse(name: &str) -> Option<Pp01> {
        let mut it = name.split_whitespace();
        if it.next()? != "PP01" {
            return None;
        }
        Some(Pp01 {
            x_columns: it.next()?.parse().ok()?,
            z_columns: it.next()?.parse().ok()?,
            extra_room: it.next()?.parse().ok()?,
            noncars: it.next()?.parse().ok()?,
        })
    }
}

/// Reads every hierarchy of an ACT file.
pub fn parse_actors(file: &str, data: &[u8]) -> Parsed<Hierarchy> {
    let reader = ActorReader {
        file: file.to_string(),
        actors: Vec::new(),
        stack: Vec::new(),
        matrix: None,
        bounds: None,
    };
    read_objects(file, data, reader)
}

struct ActorReader {
    file: String,
    actors: Vec<Actor>,
    stack: Vec<usize>,
    matrix: Option<Matrix34>,
    bounds: Option<Bounds>,
}

impl ActorReader {
    /// The actor on top of the stack, or a note that the record has none to apply to.
    fn top(&mut self, kind: u32, notes: &mut Notes, at: usize) -> Option<&mut Actor> {
        let top = self.stack.last().and_then(|&i| self.actors.get_mut(i));
        if top.is_none() {
            notes.push(format!(
                "{}: record 0x{kind:x} at {at} has no actor to apply to; ignored",
                self.file
            ));
        }
        top
    }
}

impl ObjectReader for ActorReader {
    type Object = Hierarchy;

    fn record(&mut self, kind: u32, body: &mut Reader, notes: &mut Notes) -> Result<bool> {
        let at = body.pos().saturating_sub(8);
        match kind {
            records::ACTOR => {
                let actor_type = body.u8()?;
                let render_style = body.u8()?;
                let name = cstr(body, "actor name")?;
                let parent = self.stack.last().copied();
                let depth = parent.and_then(|p| self.actors.get(p)).map_or(0, |p| p.depth + 1);
                self.stack.push(self.actors.len());
                self.actors.push(Actor {
                    name,
                    actor_type,
                    render_style,
                    transform: Matrix34::IDENTITY,
                    bounds: None,
                    model: None,
                    material: None,
                    parent,
                    depth,
                });
            }
            records::TRANSFORM_MATRIX34 => self.matrix = Some(Matrix34::from_floats(floats(body)?)),
            records::BOUNDS => {
                let f: [f32; 6] = floats(body)?;
                self.bounds = Some(Bounds { min: [f[0], f[1], f[2]], max: [f[3], f[4], f[5]] });
            }
            records::ACTOR_TRANSFORM => match self.matrix.take() {
                Some(m) => {
                    if let Some(a) = self.top(kind, notes, at) {
                        a.transform = m;
                    }
                }
                None => {
                    notes.push(format!("{}: 0x25 at {at} without a matrix; ignored", self.file))
                }
            },
            records::ACTOR_BOUNDS => match self.bounds.take() {
                Some(b) => {
                    if let Some(a) = self.top(kind, notes, at) {
                        a.bounds = Some(b);
                    }
                }
                None => notes.push(format!("{}: 0x29 at {at} without bounds; ignored", self.file)),
            },
            records::ACTOR_MODEL => {
                let name = cstr(body, "model name")?;
                if let Some(a) = self.top(kind, notes, at) {
                    a.model = Some(name);
                }
            }
            records::ACTOR_MATERIAL => {
                let name = cstr(body, "material name")?;
                if let Some(a) = self.top(kind, notes, at) {
                    a.material = Some(name);
                }
            }
            records::ACTOR_ADD_CHILD => {
                // The parent was recorded when the actor was pushed; it is the actor below it
                // on the stack, which cannot change while this one is on top.
                if self.stack.len() < 2 {
                    notes.push(format!(
                        "{}: 0x2A (add child) without parent actor: stack underflow (record at \
                         {at}); ignored",
                        self.file
                    ));
                } else {
                    self.stack.pop();
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn end(&mut self, notes: &mut Notes) -> Option<Hierarchy> {
        let open = self.stack.len().saturating_sub(1);
        if open > 0 {
            notes.push(format!(
                "{}: {open} actors not closed by 0x2A; kept under their parents",
                self.file
            ));
        }
        self.stack.clear();
        self.matrix = None;
        self.bounds = None;
        let actors = std::mem::take(&mut self.actors);
        if actors.is_empty() {
            notes.push(format!("{}: end record without actors", self.file));
            return None;
        }
        Some(Hierarchy { actors })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::carma2::writer::write_actors;

    fn actor(name: &str, parent: Option<usize>, depth: u32) -> Actor {
        Actor {
            name: name.into(),
            actor_type: actor_type::NONE,
            render_style: 0,
            transform: Matrix34::IDENTITY,
            bounds: None,
            model: None,
            material: None,
            parent,
            depth,
        }
    }

    #[test]
    fn pp01_names_parse_like_the_game() {
        let p = Pp01::parse("PP01 2 1 4 0").unwrap();
        assert_eq!(p, Pp01 { x_columns: 2, z_columns: 1, extra_room: 4.0, noncars: 0 });
        assert_eq!(Pp01::parse("PP01 3 2 1.5 7").unwrap().extra_room, 1.5);
        assert!(Pp01::parse("ROOT").is_none());
    }

    #[test]
    fn children_compose_with_their_parents_and_inherit_materials() {
        let mut root = actor("ROOT", None, 0);
        root.transform.0[3] = [5.0, 0.0, -3.0];
        root.material = Some("M_ROOT".into());
        root.bounds = Some(Bounds { min: [-1.0; 3], max: [1.0; 3] });
        let mut child = actor("CHILD", Some(0), 1);
        child.transform =
            Matrix34([[0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [1.0, 2.0, 3.0]]);
        child.model = Some("BOX".into());
        child.actor_type = actor_type::MODEL;
        let h = Hierarchy {
            actors: vec![root, child, actor("GRANDCHILD", Some(1), 2), actor("SIB", Some(0), 1)],
        };
        let p = parse_actors("t.act", &write_actors(std::slice::from_ref(&h)));
        assert!(p.error.is_none() && p.notes.is_empty(), "{:?} {:?}", p.error, p.notes);
        assert_eq!(p.objects, vec![h.clone()]);
        assert_eq!(h.max_depth(), 2);
        assert_eq!(h.world_matrices()[1].0[3], [6.0, 2.0, 0.0]);
        assert_eq!(h.inherited_materials(), vec![Some("M_ROOT"); 4]);
    }

    #[test]
    fn extra_add_child_records_are_noted_not_fatal() {
        let mut data = write_actors(&[Hierarchy { actors: vec![actor("ROOT", None, 0)] }]);
        // Two 0x2A records before the end record: the top actor has no parent to join.
        let end = data.split_off(data.len() - 8);
        for _ in 0..2 {
            data.extend(records::ACTOR_ADD_CHILD.to_be_bytes());
            data.extend(0u32.to_be_bytes());
        }
        data.extend(end);
        let p = parse_actors("t.act", &data);
        assert_eq!(p.objects.len(), 1);
        assert_eq!(p.notes.len(), 2, "{:?}", p.notes);
        assert!(p.notes[0].contains("stack underflow"));
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let n: usize = 50_000;
        let actors =
            (0..n).map(|i| actor(&format!("A{i}"), i.checked_sub(1), i as u32)).collect::<Vec<_>>();
        let p = parse_actors("t.act", &write_actors(&[Hierarchy { actors }]));
        let h = &p.objects[0];
        assert_eq!(h.max_depth(), n as u32 - 1);
        assert_eq!(h.world_matrices().len(), n);
    }
}
