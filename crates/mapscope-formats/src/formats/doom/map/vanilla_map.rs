//! A parsed map turned into [`VanillaMap`], the input of the CPU BSP walk
//! (`render::doom::vanilla::walk`): what `p_setup.c` derives (seg back sectors from the two-sided
//! flag, subsector sectors from their first seg) and what the walk compares (flat numbers,
//! texture 0).

use std::collections::HashMap;

use crate::scene::doom::vanilla::{
    VanillaMap, WalkNode, WalkSector, WalkSeg, WalkSubsector, VANILLA_NF_SUBSECTOR,
};

use super::{line_flags, MapData};
use crate::formats::doom::archive::wad::WadStack;
use crate::formats::doom::graphics::flats::SKY_FLAT;
use crate::formats::doom::graphics::textures::TextureDirectory;
use crate::formats::doom::nodes::BspChild;

/// Converts `map` numbering flats by name (first use first) and treating a wall texture as
/// present unless its name starts with '-' or is empty. Use [`vanilla_map_with`] when the WAD
/// stack is at hand: it numbers flats as vanilla does and knows texture 0.
pub fn vanilla_map(map: &MapData) -> VanillaMap {
    convert(map, None, None)
}

/// Converts `map` with the stack's flat numbers (`R_FlatNumForName`) and texture numbers
/// (`R_TextureNumForName`: texture 0, the first TEXTURE1 entry, counts as no texture).
pub fn vanilla_map_with(map: &MapData, stack: &WadStack) -> VanillaMap {
    let textures = TextureDirectory::load(stack).ok();
    convert(map, Some(stack), textures.as_ref())
}

/// [`vanilla_map_with`] with the texture numbers of `textures` (read by the rules the level
/// is built with).
pub fn vanilla_map_with_textures(
    map: &MapData,
    stack: &WadStack,
    textures: Option<&TextureDirectory>,
) -> VanillaMap {
    convert(map, Some(stack), textures)
}

struct FlatNumbers<'a> {
    stack: Option<&'a WadStack>,
    interned: HashMap<String, u32>,
    /// First number given to names the stack does not know (vanilla stops with an error).
    base: u32,
}

impl FlatNumbers<'_> {
    fn number(&mut self, name: &str) -> u32 {
        if let Some(n) = self.stack.and_then(|s| s.flats().number(name)) {
            return n as u32;
        }
        let next = self.base + self.interned.len() as u32;
        *self.interned.entry(name.to_ascii_uppercase()).or_insert(next)
    }
}

fn convert(
    map: &MapData,
    stack: Option<&WadStack>,
    textures: Option<&TextureDirectory>,
) -> VanillaMap {
    let base = stack.map(|s| s.flats().len() as u32).unwrap_or(0);
    let mut flats = FlatNumbers { stack, interned: HashMap::new(), base };
    let mut sectors: Vec<WalkSector> = map
        .sectors
        .iter()
        .enumerate()
        .map(|(i, s)| WalkSector {
            floor: (s.floor as i32) << 16,
            ceiling: (s.ceiling as i32) << 16,
            floorpic: flats.number(&s.floor_flat),
            ceilingpic: flats.number(&s.ceiling_flat),
            light_slot: i as u32,
            floor_light_slot: i as u32,
            ceiling_light_slot: i as u32,
            ..Default::default()
        })
        .collect();
    let sky_flat = flats.number(SKY_FLAT);

    // Chocolate Doom gives a two-sided line without a second sidedef a zeroed sector
    // (GetSectorAtNullAddress); it goes after the real ones, lit 0.
    let null_sector = sectors.len() as u32;
    let mut uses_null = false;

    let present = |name: &str| -> bool {
        if name.is_empty() || name.starts_with('-') {
            return false;
        }
        match textures.and_then(|t| Some((t, t.number(name)?))) {
            // Texture 0 (and TEXTURES' null textures) are never drawn.
            Some((t, n)) => t.draws(n),
            // Unknown names (vanilla stops with an error) are drawn as placeholders here.
            None => true,
        }
    };

    let mut segs = Vec::with_capacity(map.bsp.segs.len());
    for seg in &map.bsp.segs {
        let vertex = |i: u32| map.vertex(i).map(|v| [v.x, v.y]).unwrap_or([0, 0]);
        let line = seg.linedef.and_then(|l| map.linedefs.get(l as usize));
        let side = map.seg_sidedef(seg);
        let flags = line.map(|l| l.flags).unwrap_or(0);
        let back_sector = match line {
            Some(l) if flags & line_flags::TWO_SIDED != 0 => {
                match map.line_sector(l, (seg.side as usize) ^ 1) {
                    Some(s) if s < map.sectors.len() => Some(s as u32),
                    _ => {
                        uses_null = true;
                        Some(null_sector)
                    }
                }
            }
            _ => None,
        };
        segs.push(WalkSeg {
            v1: vertex(seg.v1),
            v2: vertex(seg.v2),
            angle: seg.angle,
            offset: seg.offset,
            linedef: seg.linedef,
            line_flags: flags,
            front_sector: side.map(|s| s.sector).unwrap_or(0),
            back_sector,
            top: side.is_some_and(|s| present(&s.upper)),
            mid: side.is_some_and(|s| present(&s.middle)),
            bottom: side.is_some_and(|s| present(&s.lower)),
        });
    }
    if uses_null {
        sectors.push(WalkSector {
            light_slot: u32::MAX,
            floor_light_slot: u32::MAX,
            ceiling_light_slot: u32::MAX,
            ..Default::default()
        });
    }

    let subsectors = map
        .bsp
        .subsectors
        .iter()
        .enumerate()
        .map(|(i, ss)| WalkSubsector {
            first_seg: ss.first_seg,
            num_segs: ss.num_segs,
            sector: map.subsector_sector(i).unwrap_or(0) as u32,
        })
        .collect();

    let child = |c: BspChild| match c {
        BspChild::Node(n) => n & !VANILLA_NF_SUBSECTOR,
        BspChild::Subsector(s) => VANILLA_NF_SUBSECTOR | s,
    };
    let nodes = map
        .bsp
        .nodes
        .iter()
        .map(|n| WalkNode {
            x: n.x,
            y: n.y,
            dx: n.dx,
            dy: n.dy,
            bbox: n.bbox,
            children: n.children.map(child),
        })
        .collect();

    VanillaMap {
        nodes,
        subsectors,
        segs,
        sectors,
        sky_flat,
        flat_textures: Vec::new(),
        texture_memory: Default::default(),
        things: Default::default(),
        skies: Vec::new(),
        tranmaps: Vec::new(),
        colors: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::testwad;

    #[test]
    fn two_room_map_converts() {
        let stack = testwad::two_room_stack();
        let map = MapData::load(&stack, "MAP01").unwrap();
        let v = vanilla_map_with(&map, &stack);
        assert_eq!(v.segs.len(), map.bsp.segs.len());
        assert_eq!(v.subsectors.len(), map.bsp.subsectors.len());
        assert_eq!(v.nodes.len(), map.bsp.nodes.len());
        assert_eq!(v.nodes[0].children, [VANILLA_NF_SUBSECTOR | 1, VANILLA_NF_SUBSECTOR]);
        assert_eq!(v.segs[1].v2, [128 << 16, 128 << 16]);
        assert!(v.sectors.len() >= map.sectors.len());
        // Two-sided segs have a back sector, one-sided ones none.
        for (vs, s) in v.segs.iter().zip(&map.bsp.segs) {
            let two = map.linedefs[s.linedef.unwrap() as usize].has_flag(line_flags::TWO_SIDED);
            assert_eq!(vs.back_sector.is_some(), two);
        }
        for (i, s) in map.sectors.iter().enumerate() {
            assert_eq!(v.sectors[i].floor, (s.floor as i32) << 16);
            assert_eq!(v.sectors[i].floorpic, stack.flats().number(&s.floor_flat).unwrap() as u32);
        }
        let by_name = vanilla_map(&map);
        assert_eq!(by_name.segs.len(), v.segs.len());
    }
}
