//! A Doom scene's surfaces and sprites in the map's own records, for the inspector and
//! `pick`: a wall's seg leads to its linedef, sidedef and sectors, a flat's subsector to its
//! sector, a sprite to its THINGS entry (the numbers as editors such as Ultimate Doom Builder
//! show them, counted from 0).

use glam::DVec2;

use crate::scene::{flag_names, Fact, Facts, LevelRecords, Located, Sprite, SurfaceHit};

use super::actors::builtin::VANILLA_CLASSES;
use super::build::VIEW_HEIGHT;
use super::map::line_flags as lf;
use super::map::things::thing_type;
use super::map::{Linedef, MapData, Sector};
use super::nodes::bsp::SubsectorPolygons;

/// Linedef flag names (Doom's, then Boom's pass-through).
const LINE_FLAGS: &[(u32, &str)] = &[
    (lf::IMPASSABLE as u32, "impassable"),
    (lf::BLOCK_MONSTERS as u32, "block-monsters"),
    (lf::TWO_SIDED as u32, "two-sided"),
    (lf::UPPER_UNPEGGED as u32, "upper-unpegged"),
    (lf::LOWER_UNPEGGED as u32, "lower-unpegged"),
    (lf::SECRET as u32, "secret"),
    (lf::BLOCK_SOUND as u32, "block-sound"),
    (lf::NOT_ON_MAP as u32, "not-on-map"),
    (lf::ALREADY_ON_MAP as u32, "already-on-map"),
    (0x200, "pass-use"),
];

/// Thing flag names (Doom's skills and ambush, Boom's and MBF's).
const THING_FLAGS: &[(u32, &str)] = &[
    (0x1, "easy"),
    (0x2, "medium"),
    (0x4, "hard"),
    (0x8, "ambush"),
    (0x10, "multiplayer"),
    (0x20, "not-deathmatch"),
    (0x40, "not-coop"),
    (0x80, "friendly"),
];

/// The map's records and, per sector, a spot inside it to go to.
pub struct DoomRecords {
    map: MapData,
    /// Per sector: the middle of its largest subsector, or `None` where it has none.
    sector_spots: Vec<Option<DVec2>>,
}

impl DoomRecords {
    pub fn new(map: &MapData, polygons: &SubsectorPolygons) -> DoomRecords {
        let mut best: Vec<Option<(f64, DVec2)>> = vec![None; map.sectors.len()];
        for (ss, poly) in polygons.polygons.iter().enumerate() {
            let Some(sector) = map.subsector_sector(ss) else { continue };
            let (area, middle) = area_and_middle(poly);
            if let Some(slot) = best.get_mut(sector) {
                if slot.is_none_or(|(a, _)| area > a) {
                    *slot = Some((area, middle));
                }
            }
        }
        DoomRecords {
            map: map.clone(),
            sector_spots: best.into_iter().map(|b| b.map(|b| b.1)).collect(),
        }
    }

    fn sector_facts(&self, facts: &mut Facts, prefix: &str, index: usize) {
        let Some(s) = self.map.sectors.get(index) else { return };
        let Sector { floor, ceiling, floor_flat, ceiling_flat, light, special, tag } = s;
        let key = |k: &str| format!("{prefix}{k}");
        facts.push((key("floor_height"), Fact::Int(*floor as i64)));
        facts.push((key("ceiling_height"), Fact::Int(*ceiling as i64)));
        facts.push((key("floor_flat"), Fact::Text(floor_flat.clone())));
        facts.push((key("ceiling_flat"), Fact::Text(ceiling_flat.clone())));
        facts.push((key("light"), Fact::Int(*light as i64)));
        facts.push((key("sector_special"), Fact::Int(*special as i64)));
        facts.push((key("sector_tag"), Fact::Int(*tag as i64)));
    }

    fn wall(&self, seg_index: usize, z: f64) -> Facts {
        let mut facts = Facts::new();
        let Some(seg) = self.map.bsp.segs.get(seg_index) else { return facts };
        facts.push(("seg".into(), Fact::Int(seg_index as i64)));
        let Some(li) = seg.linedef else { return facts };
        let Some(line) = self.map.linedefs.get(li as usize) else { return facts };
        let side = (seg.side & 1) as usize;
        let front = self.map.line_sector(line, side);
        let back = self.map.line_sector(line, side ^ 1);
        let part = wall_part(
            front.and_then(|s| self.map.sectors.get(s)),
            back.and_then(|s| self.map.sectors.get(s)),
            z,
        );
        if let Some(s) = front {
            facts.push(("sector".into(), Fact::Int(s as i64)));
        }
        facts.push(("linedef".into(), Fact::Int(li as i64)));
        if let Some(sd) = line.sides[side] {
            facts.push(("sidedef".into(), Fact::Int(sd as i64)));
        }
        facts.push(("side".into(), Fact::Text(if side == 0 { "front" } else { "back" }.into())));
        facts.push(("part".into(), Fact::Text(part.into())));
        self.line_facts(&mut facts, line);
        if let Some(sd) = line.sides[side].and_then(|i| self.map.sidedefs.get(i as usize)) {
            facts.push(("upper_texture".into(), Fact::Text(sd.upper.clone())));
            facts.push(("middle_texture".into(), Fact::Text(sd.middle.clone())));
            facts.push(("lower_texture".into(), Fact::Text(sd.lower.clone())));
            facts
                .push(("offsets".into(), Fact::Ints(vec![sd.x_offset as i64, sd.y_offset as i64])));
        }
        if let Some(s) = front {
            self.sector_facts(&mut facts, "", s);
        }
        if let Some(b) = back {
            facts.push(("back_sector".into(), Fact::Int(b as i64)));
            self.sector_facts(&mut facts, "back_", b);
        }
        facts
    }

    fn line_facts(&self, facts: &mut Facts, line: &Linedef) {
        facts.push(("linedef_flags".into(), Fact::Text(flag_names(line.flags as u32, LINE_FLAGS))));
        facts.push(("special".into(), Fact::Int(line.special as i64)));
        facts.push(("tag".into(), Fact::Int(line.tag as i64)));
        facts.push(("vertices".into(), Fact::Ints(vec![line.v1 as i64, line.v2 as i64])));
        for (name, v) in [("from", line.v1), ("to", line.v2)] {
            if let Some(p) = self.map.vertex(v) {
                let p = p.to_dvec2();
                facts.push((name.into(), Fact::Ints(vec![p.x.round() as i64, p.y.round() as i64])));
            }
        }
    }

    fn flat(&self, subsector: usize, floor_side: bool) -> Facts {
        let mut facts = Facts::new();
        facts.push(("subsector".into(), Fact::Int(subsector as i64)));
        if let Some(s) = self.map.subsector_sector(subsector) {
            facts.push(("sector".into(), Fact::Int(s as i64)));
            facts.push((
                "part".into(),
                Fact::Text(if floor_side { "floor" } else { "ceiling" }.into()),
            ));
            self.sector_facts(&mut facts, "", s);
        }
        facts
    }
}

/// Which tier of a wall seen from sector `front` lies at height `z`: a one-sided wall is all
/// middle; a two-sided one has an upper tier where the back ceiling is lower, a lower tier
/// where the back floor is higher, and between them its (masked) middle.
fn wall_part(front: Option<&Sector>, back: Option<&Sector>, z: f64) -> &'static str {
    match (front, back) {
        (Some(f), Some(b)) => {
            if b.ceiling < f.ceiling && z >= b.ceiling as f64 {
                "upper"
            } else if b.floor > f.floor && z <= b.floor as f64 {
                "lower"
            } else {
                "middle"
            }
        }
        _ => "middle",
    }
}

fn area_and_middle(poly: &[DVec2]) -> (f64, DVec2) {
    if poly.is_empty() {
        return (0.0, DVec2::ZERO);
    }
    let mut area = 0.0;
    for (i, a) in poly.iter().enumerate() {
        let b = poly[(i + 1) % poly.len()];
        area += a.perp_dot(b);
    }
    let middle = poly.iter().copied().sum::<DVec2>() / poly.len() as f64;
    (area.abs() / 2.0, middle)
}

impl LevelRecords for DoomRecords {
    fn surface(&self, hit: &SurfaceHit<'_>) -> Facts {
        let surface = hit.vertex.surface as usize;
        let upright = hit.normal[2].abs() > 0.7;
        if surface == 0 {
            // Polyobject walls carry no seg number.
            return vec![(
                "part".into(),
                Fact::Text(if upright { "floor" } else { "middle" }.into()),
            )];
        }
        if upright {
            self.flat(surface - 1, hit.normal[2] > 0.0)
        } else {
            self.wall(surface - 1, hit.point[2])
        }
    }

    fn sprite(&self, sprite: &Sprite) -> Facts {
        let mut facts = Facts::new();
        let i = sprite.source as usize;
        let Some(th) = self.map.things.get(i) else { return facts };
        facts.push(("thing".into(), Fact::Int(i as i64)));
        facts.push(("thing_type".into(), Fact::Int(th.kind as i64)));
        let name = VANILLA_CLASSES
            .iter()
            .find(|(_, n)| *n == th.kind)
            .map(|(c, _)| c.to_string())
            .or_else(|| thing_type(th.kind).map(|t| t.name.to_string()));
        if let Some(name) = name {
            facts.push(("thing_name".into(), Fact::Text(name)));
        }
        facts.push(("thing_flags".into(), Fact::Text(flag_names(th.flags as u32, THING_FLAGS))));
        facts.push(("angle".into(), Fact::Int(th.angle as i64)));
        let (x, y) = (th.x as f64 / 65536.0, th.y as f64 / 65536.0);
        facts.push(("position".into(), Fact::Ints(vec![x.round() as i64, y.round() as i64])));
        facts
    }

    fn locate(&self, kind: &str, number: u64) -> Option<Located> {
        let n = usize::try_from(number).ok()?;
        let floor_under = |p: DVec2| -> f64 {
            let ss = super::nodes::bsp::point_in_subsector(&self.map, p.x, p.y);
            let s = self.map.subsector_sector(ss).and_then(|s| self.map.sectors.get(s));
            s.map_or(0.0, |s| s.floor as f64)
        };
        match kind {
            "sector" => {
                let p = (*self.sector_spots.get(n)?)?;
                let floor = self.map.sectors[n].floor as f64;
                Some(Located { point: [p.x, p.y, floor + VIEW_HEIGHT], seen_from: None })
            }
            "linedef" => {
                let l = self.map.linedefs.get(n)?;
                let (a, b) = (self.map.vertex(l.v1)?.to_dvec2(), self.map.vertex(l.v2)?.to_dvec2());
                // The front side is the right of v1 -> v2; its floor is the one stood on.
                let front = (b - a).perp().normalize_or_zero() * -1.0;
                let m = (a + b) / 2.0 + front;
                let point = [m.x, m.y, floor_under(m) + VIEW_HEIGHT];
                Some(Located { point, seen_from: Some(front.to_array()) })
            }
            "thing" => {
                let th = self.map.things.get(n)?;
                let p = DVec2::new(th.x as f64 / 65536.0, th.y as f64 / 65536.0);
                Some(Located { point: [p.x, p.y, floor_under(p) + VIEW_HEIGHT], seen_from: None })
            }
            _ => None,
        }
    }

    fn kinds(&self) -> &'static [&'static str] {
        &["sector", "linedef", "thing"]
    }

    fn walker(&self, scene: &crate::scene::Scene) -> Option<Box<dyn crate::scene::Walker>> {
        let walker = super::walk::DoomWalker::new(&self.map);
        Some(Box::new(crate::scene::InViewer::new(walker, scene.axes)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sector(floor: i16, ceiling: i16) -> Sector {
        Sector { floor, ceiling, ..Sector::default() }
    }

    #[test]
    fn a_two_sided_wall_has_upper_middle_and_lower_tiers_by_height() {
        let (front, back) = (sector(0, 128), sector(24, 96));
        assert_eq!(wall_part(Some(&front), Some(&back), 110.0), "upper");
        assert_eq!(wall_part(Some(&front), Some(&back), 50.0), "middle");
        assert_eq!(wall_part(Some(&front), Some(&back), 10.0), "lower");
        assert_eq!(wall_part(Some(&front), None, 10.0), "middle");
        // Seen from the higher side there is no lower tier.
        assert_eq!(wall_part(Some(&back), Some(&front), 30.0), "middle");
    }
}
