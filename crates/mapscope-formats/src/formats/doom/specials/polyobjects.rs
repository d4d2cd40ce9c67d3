//! Hexen's polyobjects as ZDoom spawns them (`po_man.cpp`: SpawnPolyobj, the start line's
//! loop of sides, TranslateToStartSpot), for maps numbered as Hexen's (Hexen format and its
//! UDMF namespaces).
//!
//! Facts relied on:
//! - A polyobject's lines: the `Polyobj_StartLine` (1) line whose `arg0` is its number and
//!   the lines after it, each starting at the vertex where the one before ends, until the loop
//!   closes; or the `Polyobj_ExplicitLine` (5) lines of that number, in the order of `arg1`.
//! - Its anchor is the thing of type 3000 (ZDoom: 9300) whose angle is the number; its start
//!   spot a thing of type 3001 or 3002 (ZDoom: 9301-9303) of that angle. The lines move by
//!   the start spot less the anchor; where they were they are drawn no more.
//! - A polyobject's walls take the heights and light of the sector they stand in (Hexen's
//!   R_AddPolyobjs draws them in their subsector, whose sector is the front sector), their
//!   own sidedefs' textures and offsets.

use std::collections::BTreeMap;

use glam::DVec2;

use crate::formats::doom::map::MapData;

pub const POLYOBJ_START_LINE: u16 = 1;
pub const POLYOBJ_EXPLICIT_LINE: u16 = 5;
const ANCHORS: [u16; 2] = [3000, 9300];
const START_SPOTS: [u16; 5] = [3001, 3002, 9301, 9302, 9303];

/// One spawned polyobject: its lines and how far they move.
#[derive(Clone, Debug, PartialEq)]
pub struct Polyobject {
    pub number: i32,
    pub lines: Vec<u32>,
    pub offset: DVec2,
}

/// The map's polyobjects that have lines, an anchor and a start spot; the others are named in
/// a note.
pub fn read_polyobjects(map: &MapData, notes: &mut Vec<String>) -> Vec<Polyobject> {
    if map.doom_specials() {
        return Vec::new();
    }
    let mut anchors = BTreeMap::new();
    let mut spots = BTreeMap::new();
    for t in &map.things {
        let at = DVec2::new(t.x as f64, t.y as f64) / 65536.0;
        let number = t.angle as i32;
        if ANCHORS.contains(&t.kind) {
            anchors.entry(number).or_insert(at);
        } else if START_SPOTS.contains(&t.kind) {
            spots.entry(number).or_insert(at);
        }
    }
    let mut lines_of: BTreeMap<i32, Vec<u32>> = BTreeMap::new();
    let mut starting_at: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    // Each vertex's lines, the first-numbered last (taken first).
    for (i, line) in map.linedefs.iter().enumerate().rev() {
        starting_at.entry(line.v1).or_default().push(i as u32);
    }
    let mut used = vec![false; map.linedefs.len()];
    for (i, line) in map.linedefs.iter().enumerate() {
        if line.special == POLYOBJ_START_LINE && !used[i] {
            if let std::collections::btree_map::Entry::Vacant(e) = lines_of.entry(line.args[0]) {
                e.insert(loop_from(map, i, &mut starting_at, &mut used));
            }
        }
    }
    let mut explicit: BTreeMap<i32, Vec<(i32, u32)>> = BTreeMap::new();
    for (i, line) in map.linedefs.iter().enumerate() {
        if line.special == POLYOBJ_EXPLICIT_LINE && !lines_of.contains_key(&line.args[0]) {
            explicit.entry(line.args[0]).or_default().push((line.args[1], i as u32));
        }
    }
    for (number, mut lines) in explicit {
        lines.sort();
        lines_of.insert(number, lines.into_iter().map(|(_, l)| l).collect());
    }
    let mut out = Vec::new();
    let mut incomplete = Vec::new();
    for (number, lines) in lines_of {
        match (anchors.get(&number), spots.get(&number)) {
            (Some(&anchor), Some(&spot)) => {
                out.push(Polyobject { number, lines, offset: spot - anchor })
            }
            _ => incomplete.push(number.to_string()),
        }
    }
    if !out.is_empty() {
        notes.push(format!(
            "{} polyobjects drawn at their start spots (Hexen's moving walls, as the level \
             begins); faithful frames that reach them are drawn with vanilla's COLORMAP light \
             tables over ordinary rasterisation",
            out.len()
        ));
    }
    if !incomplete.is_empty() {
        notes.push(format!(
            "polyobjects without an anchor or a start spot left where they are: {}",
            incomplete.join(", ")
        ));
    }
    out
}

/// The lines of the loop that starts with line `start`: each next one begins where the one
/// before ends. `used` marks the lines every loop so far took: a line belongs to one
/// polyobject, so all the loops together visit each line once (a crafted map cannot make
/// this slow).
fn loop_from(
    map: &MapData,
    start: usize,
    starting_at: &mut BTreeMap<u32, Vec<u32>>,
    used: &mut [bool],
) -> Vec<u32> {
    let mut lines = vec![start as u32];
    let Some(first) = map.linedefs.get(start) else { return lines };
    used[start] = true;
    let mut end = first.v2;
    while end != first.v1 {
        // Lines taken are dropped from their vertex's list as they are passed over.
        let Some(list) = starting_at.get_mut(&end) else { break };
        while list.last().is_some_and(|&l| used[l as usize]) {
            list.pop();
        }
        let Some(l) = list.pop() else { break };
        used[l as usize] = true;
        lines.push(l);
        end = map.linedefs[l as usize].v2;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::{Linedef, MapFormat, Thing, Vertex};

    fn map(special: u16) -> MapData {
        let v = Vertex::units;
        let line = |v1, v2, args: [i32; 5]| Linedef { v1, v2, special, args, ..Default::default() };
        let thing = |kind, x: i32, y: i32, angle| Thing {
            x: x << 16,
            y: y << 16,
            kind,
            angle,
            ..Default::default()
        };
        MapData {
            format: MapFormat::Hexen,
            vertices: vec![v(0, 0), v(8, 0), v(8, 8), v(0, 8)],
            // A square loop, listed out of order; the explicit lines' orders 4, 3, 2, 1.
            linedefs: vec![
                line(2, 3, [7, 4, 0, 0, 0]),
                line(0, 1, [7, 3, 0, 0, 0]),
                line(3, 0, [7, 2, 0, 0, 0]),
                line(1, 2, [7, 1, 0, 0, 0]),
            ],
            things: vec![thing(3000, 4, 4, 7), thing(3001, 104, 54, 7)],
            ..Default::default()
        }
    }

    #[test]
    fn start_lines_follow_the_loop_and_explicit_lines_their_order() {
        let mut notes = Vec::new();
        let mut m = map(POLYOBJ_START_LINE);
        // Only the second line starts the polyobject.
        for (i, l) in m.linedefs.iter_mut().enumerate() {
            if i != 1 {
                l.special = 0;
            }
        }
        let po = read_polyobjects(&m, &mut notes);
        assert_eq!(
            po,
            [Polyobject { number: 7, lines: vec![1, 3, 0, 2], offset: DVec2::new(100.0, 50.0) }]
        );
        let po = read_polyobjects(&map(POLYOBJ_EXPLICIT_LINE), &mut notes);
        assert_eq!(po[0].lines, vec![3, 2, 1, 0]);
        assert!(notes.iter().any(|n| n.contains("1 polyobjects drawn")), "{notes:?}");
    }

    #[test]
    fn without_a_start_spot_or_in_doom_maps_nothing_moves() {
        let mut notes = Vec::new();
        let mut m = map(POLYOBJ_EXPLICIT_LINE);
        m.things.truncate(1);
        assert!(read_polyobjects(&m, &mut notes).is_empty());
        assert!(notes
            .iter()
            .any(|n| n.contains("without an anchor or a start spot left where they are: 7")));
        let mut m = map(POLYOBJ_EXPLICIT_LINE);
        m.format = MapFormat::Doom;
        assert!(read_polyobjects(&m, &mut notes).is_empty());
    }
}
