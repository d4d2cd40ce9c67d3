//! Which wall panels a side shows, from its type and the heights on both sides of its line.

use super::map::{Side, SideTexture, SideType};

/// Which of the side's three textures a panel uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelSlot {
    Primary = 0,
    Secondary = 1,
    Transparent = 2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panel {
    pub slot: PanelSlot,
    pub bottom: i16,
    pub top: i16,
}

impl Panel {
    pub fn texture(&self, side: &Side) -> SideTexture {
        match self.slot {
            PanelSlot::Primary => side.primary,
            PanelSlot::Secondary => side.secondary,
            PanelSlot::Transparent => side.transparent,
        }
    }
}

/// Heights a side's panels are cut from: its own polygon's floor and ceiling, and the highest
/// floor / lowest ceiling of the two polygons of its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideHeights {
    pub floor: i16,
    pub ceiling: i16,
    pub adjacent_floor: i16,
    pub adjacent_ceiling: i16,
}

pub const NO_TEXTURE: u16 = 0xFFFF;

/// The panels the engine draws for `side` (texture NONE and empty panels left out). Composite
/// sides draw like full ones.
pub fn side_panels(side: &Side, h: SideHeights) -> Vec<Panel> {
    let mut out = Vec::with_capacity(3);
    let upper_bottom = h.adjacent_ceiling.min(h.ceiling);
    let lower_top = h.adjacent_floor.max(h.floor);
    let mut push = |slot, bottom: i16, top: i16| out.push(Panel { slot, bottom, top });
    match SideType::from_u16(side.kind) {
        Some(SideType::High) => push(PanelSlot::Primary, upper_bottom, h.ceiling),
        Some(SideType::Low) => push(PanelSlot::Primary, h.floor, lower_top),
        Some(SideType::Split) => {
            push(PanelSlot::Secondary, h.floor, lower_top);
            push(PanelSlot::Primary, upper_bottom, h.ceiling);
        }
        _ => push(PanelSlot::Primary, h.floor, h.ceiling),
    }
    push(PanelSlot::Transparent, lower_top, h.adjacent_ceiling);
    out.retain(|p| p.top > p.bottom && p.texture(side).texture != NO_TEXTURE);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(kind: u16, primary: u16, secondary: u16, transparent: u16) -> Side {
        let t = |texture| SideTexture { x0: 0, y0: 0, texture };
        Side {
            kind,
            flags: 0,
            primary: t(primary),
            secondary: t(secondary),
            transparent: t(transparent),
            transfer_modes: [0; 3],
            stored_polygon: 0,
            stored_line: 0,
            lights: [0; 3],
            ambient_delta: 0,
        }
    }

    const H: SideHeights =
        SideHeights { floor: 0, ceiling: 4096, adjacent_floor: 1024, adjacent_ceiling: 3072 };

    #[test]
    fn split_side_has_lower_and_upper_panels() {
        let p = side_panels(&side(4, 1, 2, NO_TEXTURE), H);
        assert_eq!(
            p,
            vec![
                Panel { slot: PanelSlot::Secondary, bottom: 0, top: 1024 },
                Panel { slot: PanelSlot::Primary, bottom: 3072, top: 4096 },
            ]
        );
    }

    #[test]
    fn transparent_panel_fills_the_opening() {
        let p = side_panels(&side(0, NO_TEXTURE, NO_TEXTURE, 7), H);
        assert_eq!(p, vec![Panel { slot: PanelSlot::Transparent, bottom: 1024, top: 3072 }]);
    }

    #[test]
    fn high_and_low_sides() {
        assert_eq!(side_panels(&side(1, 1, 0, NO_TEXTURE), H)[0].bottom, 3072);
        assert_eq!(side_panels(&side(2, 1, 0, NO_TEXTURE), H)[0].top, 1024);
    }
}
