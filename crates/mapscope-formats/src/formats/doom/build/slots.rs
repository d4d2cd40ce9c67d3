//! Light and scroll slots: the numbers world vertices carry so that the animator can light
//! and move them each tic. A light slot is a sector's number or derived from one (a UDMF
//! light rule, a Boom transfer), a scroll slot one distinct velocity; kept apart so that the
//! steps that emit surfaces and the animator agree on one numbering.

use std::collections::HashMap;

use super::Builder;
use crate::formats::doom::map::udmf_props::LightRule;
use crate::formats::doom::map::MapData;
use crate::formats::doom::specials::animation::DerivedLight;
use crate::formats::doom::specials::boom::Velocity;
use crate::scene::Parts;

/// Scroll slots 1.. , one per distinct velocity (slot 0 never scrolls; the vertex flags hold
/// 16 bits of slot).
#[derive(Default)]
pub(super) struct ScrollSlots {
    pub(super) velocities: Vec<Velocity>,
    index: HashMap<Velocity, u16>,
    /// A velocity found no slot (noted once at the end).
    pub(super) full: bool,
}

impl ScrollSlots {
    /// The slot of a surface scrolling by `v` (none: slot 0).
    pub(super) fn slot(&mut self, v: Option<Velocity>) -> u16 {
        let Some(v) = v.filter(|v| *v != [0, 0]) else { return 0 };
        if let Some(&s) = self.index.get(&v) {
            return s;
        }
        let Ok(s) = u16::try_from(self.velocities.len() + 1) else {
            self.full = true;
            return 0;
        };
        self.velocities.push(v);
        self.index.insert(v, s);
        s
    }

    /// What `info` says when some velocity found no slot.
    pub(super) fn note(&self) -> Option<String> {
        self.full.then(|| {
            format!("more than {} different scroll speeds: the rest do not scroll", u16::MAX - 1)
        })
    }
}

/// Light slots: one per sector (its number), then one per distinct (sector, UDMF rule) a
/// floor, ceiling or wall uses, so that they follow the sector's light specials.
pub(super) struct LightSlots {
    sectors: u32,
    pub(super) derived: Vec<DerivedLight>,
    index: HashMap<DerivedLight, u32>,
}

impl LightSlots {
    pub(super) fn new(sectors: usize) -> LightSlots {
        LightSlots { sectors: sectors as u32, derived: Vec::new(), index: HashMap::new() }
    }

    /// The slot lighting something of sector `sector` by `rule`.
    pub(super) fn slot(&mut self, sector: u32, rule: LightRule) -> u32 {
        self.slot_from(sector, sector, rule)
    }

    /// The slot lighting something of sector `sector` by `rule` from sector `source`'s light.
    pub(super) fn slot_from(&mut self, sector: u32, source: u32, rule: LightRule) -> u32 {
        if rule.is_identity() && source == sector {
            return sector;
        }
        let d = DerivedLight { sector, source, rule };
        *self.index.entry(d).or_insert_with(|| {
            self.derived.push(d);
            self.sectors + self.derived.len() as u32 - 1
        })
    }

    /// The sector a slot lights from.
    pub(super) fn sector_of(&self, slot: u32) -> u32 {
        match slot.checked_sub(self.sectors) {
            Some(i) => self.derived.get(i as usize).map_or(0, |d| d.sector),
            None => slot,
        }
    }
}

impl Builder<'_> {
    /// The light slots of sector `sector`'s floor and ceiling: its UDMF rules applied to its
    /// own light, or to a Boom transfer's control sector's (213 floor, 261 ceiling).
    pub(super) fn plane_light_slots(&mut self, sector: u32) -> [u32; 2] {
        let p = self.props.sector(sector as usize);
        let floor_from = self.boom.floor_light.get(&sector).copied().unwrap_or(sector);
        let ceiling_from = self.boom.ceiling_light.get(&sector).copied().unwrap_or(sector);
        [
            self.lights.slot_from(sector, floor_from, p.floor_light),
            self.lights.slot_from(sector, ceiling_from, p.ceiling_light),
        ]
    }

    /// The scene's parts: one per sector, each triangle in its light slot's sector.
    pub(super) fn parts(&self, map: &MapData) -> Parts {
        // Light slots are sector numbers or derived from one, so each triangle's light slot
        // names its sector.
        Parts {
            names: (0..map.sectors.len()).map(|i| format!("sector {i}")).collect(),
            of_triangle: self
                .world
                .chunks_exact(3)
                .map(|t| self.lights.sector_of(t[0].light))
                .collect(),
            placed_objects: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scroll_slots_run_out_after_65535_speeds_and_say_so() {
        let mut slots = ScrollSlots::default();
        assert_eq!(slots.slot(None), 0);
        assert_eq!(slots.slot(Some([0, 0])), 0);
        for i in 1..=u16::MAX as i64 {
            assert_eq!(slots.slot(Some([i, 0])), i as u16);
        }
        assert_eq!(slots.note(), None);
        // A speed seen before keeps its slot; a new one gets none.
        assert_eq!(slots.slot(Some([7, 0])), 7);
        assert_eq!(slots.slot(Some([-1, 0])), 0);
        assert!(slots.note().is_some_and(|n| n.contains("65534 different scroll speeds")));
    }
}
