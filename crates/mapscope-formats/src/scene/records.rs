//! What a surface or a sprite of a scene is in its game's own records (a Doom linedef and
//! sidedef, a Marathon polygon), for the inspector and `pick`. Each format answers for its
//! scenes through [`LevelRecords`]; the renderer only knows triangles and sprites.

use super::{Scene, Sprite, Walker, WorldVertex};

/// One value of a record, kept typed so that `pick --json` prints numbers as numbers.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    Int(i64),
    Num(f64),
    Text(String),
    Ints(Vec<i64>),
}

impl std::fmt::Display for Fact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fact::Int(n) => write!(f, "{n}"),
            Fact::Num(x) => write!(f, "{x}"),
            Fact::Text(s) => f.write_str(s),
            Fact::Ints(v) => {
                let parts: Vec<String> = v.iter().map(|n| n.to_string()).collect();
                f.write_str(&parts.join(", "))
            }
        }
    }
}

/// Named facts in the order a person reads them (ids first).
pub type Facts = Vec<(String, Fact)>;

/// A world triangle hit at a point, as the format is asked about it.
#[derive(Clone, Copy, Debug)]
pub struct SurfaceHit<'a> {
    /// Index of the triangle in [`super::Scene::world`] (three vertices a triangle).
    pub triangle: usize,
    /// Its first vertex (texture, light slot, flags and surface number are the triangle's).
    pub vertex: &'a WorldVertex,
    /// Its part in [`super::Parts`] (Doom: sector, Marathon: polygon), where the scene has
    /// parts.
    pub part: Option<u32>,
    /// Where the ray met it, in native coordinates.
    pub point: [f64; 3],
    /// Its unit normal in native coordinates, towards the viewer.
    pub normal: [f64; 3],
}

/// A record's place, native coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Located {
    /// The spot at eye height: inside a sector or polygon, at a thing's feet, at a line's
    /// middle on its front side.
    pub point: [f64; 3],
    /// The side it is best seen from (a line's front), as a horizontal direction from it.
    pub seen_from: Option<[f64; 2]>,
}

/// A format's answers about its scene's surfaces and sprites.
pub trait LevelRecords: Send + Sync {
    /// The records behind a world triangle. `part` is expected among them for walls and flats
    /// (Doom: upper, middle, lower, floor, ceiling).
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts;
    /// The records behind a sprite (its [`Sprite::source`]).
    fn sprite(&self, sprite: &Sprite) -> Facts;
    /// Where a numbered record lies, for "find and go": kinds such as "sector", "linedef",
    /// "thing", "polygon". `None`: no such record.
    fn locate(&self, kind: &str, number: u64) -> Option<Located> {
        let _ = (kind, number);
        None
    }
    /// The kinds [`Self::locate`] answers, for the viewer's list.
    fn kinds(&self) -> &'static [&'static str] {
        &[]
    }
    /// A body that walks through `scene` (the level these records belong to) by the game's
    /// rules; `None` where the format does not know them. Formats whose level is a triangle
    /// mesh build it from the scene's triangles, choosing the solid ones by their records.
    fn walker(&self, scene: &Scene) -> Option<Box<dyn Walker>> {
        let _ = scene;
        None
    }
}

/// Names the set bits of `flags` by `names` (bit value, name), unknown bits as hex.
pub fn flag_names(flags: u32, names: &[(u32, &str)]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut left = flags;
    for &(bit, name) in names {
        if flags & bit != 0 {
            out.push(name.to_string());
            left &= !bit;
        }
    }
    if left != 0 {
        out.push(format!("0x{left:x}"));
    }
    if out.is_empty() {
        "none".to_string()
    } else {
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_named_and_unknown_bits_shown_in_hex() {
        let names = [(1, "impassable"), (4, "two-sided")];
        assert_eq!(flag_names(5, &names), "impassable two-sided");
        assert_eq!(flag_names(0, &names), "none");
        assert_eq!(flag_names(0x104, &names), "two-sided 0x100");
    }

    #[test]
    fn facts_print_as_people_read_them() {
        assert_eq!(Fact::Ints(vec![3, -4]).to_string(), "3, -4");
        assert_eq!(Fact::Num(1.5).to_string(), "1.5");
    }
}
