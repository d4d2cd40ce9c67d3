//! Doom's player body for walk mode, by vanilla's movement rules (Chocolate Doom `p_map.c`
//! `P_CheckPosition`, `P_TryMove`, `P_SlideMove`; `p_mobj.c` `P_XYMovement`, `P_ZMovement`;
//! `p_user.c` `P_CalcHeight`; `info.c` mobjinfo), read for the rules, written anew.
//!
//! Where a map uses them, GZDoom's additions are followed as GZDoom treats them: the line
//! flags that block players in Boom-format (MBF21), Hexen-format and UDMF maps, sloped floors
//! and ceilings, and solid 3D floors (see [`heights`]).
//!
//! The level stays as it starts: doors, lifts and platforms do not move, nothing else thinks.
//! The body moves straight where it is told (no momentum or friction ramp), at most
//! [`RUN_SPEED`] a tic.

mod blockmap;
mod heights;

use glam::DVec2;

use crate::scene::NativeWalker;

use super::map::things::{spawn_decision, Spawn};
use super::map::{line_flags, Linedef, MapData, MapFormat};
use blockmap::Blockmap;
use heights::Heights;

/// mobjinfo's player radius (`MT_PLAYER`, 16 units): half the width of its square box.
pub const PLAYER_RADIUS: f64 = 16.0;
/// mobjinfo's player height: the opening it needs.
pub const PLAYER_HEIGHT: f64 = 56.0;
/// `P_TryMove`: the most a floor may rise under the box and still be stepped onto.
pub const STEP_HEIGHT: f64 = 24.0;
/// `VIEWHEIGHT` (p_local.h): the eye above the feet.
pub const EYE_HEIGHT: f64 = 41.0;
/// `P_CalcHeight`: the eye stays this far under the ceiling.
const EYE_UNDER_CEILING: f64 = 4.0;
/// `GRAVITY` (p_local.h): one unit a tic per tic.
pub const GRAVITY: f64 = 1.0;
/// The player's top running speed in units a tic: forwardmove 0x32 times 2048 (`P_Thrust`)
/// each tic, held back by `ORIG_FRICTION` 0xE800 / 0x10000 (so 1.5625 / 0.09375).
pub const RUN_SPEED: f64 = 50.0 * 2048.0 / 65536.0 / (1.0 - 0xE800 as f64 / 65536.0);
/// `P_XYMovement` splits a move longer than `MAXMOVE / 2` (30 / 2) on either axis.
const MOVE_PIECE: f64 = 15.0;
/// How finely a blocked move is cut to find where the box meets what blocks it.
const CONTACT_STEPS: u32 = 14;

/// One linedef as the body meets it.
#[derive(Clone, Copy, Debug)]
struct Line {
    a: DVec2,
    b: DVec2,
    /// Front (right) and back sectors; no back: one-sided.
    front: Option<usize>,
    back: Option<usize>,
    /// Blocks the player even when two-sided (see [`blocks_players`]).
    blocking: bool,
}

/// A solid thing: a square of `radius` round its middle, as tall as the sky in vanilla
/// (`PIT_CheckThing` does not look at heights).
#[derive(Clone, Copy, Debug)]
struct Solid {
    at: DVec2,
    radius: f64,
}

/// What stopped a move.
#[derive(Clone, Copy, Debug)]
enum Block {
    /// A line (its index): one-sided, blocking, or an opening too high or too low.
    Line(usize),
    /// A solid thing, or no sector under the body.
    Other,
}

/// Floor and ceiling the box would stand between at a spot.
#[derive(Clone, Copy, Debug)]
struct Opening {
    floor: f64,
    ceiling: f64,
}

/// The player's body in a Doom map.
pub struct DoomWalker {
    lines: Vec<Line>,
    heights: Heights,
    solids: Vec<Solid>,
    blockmap: Blockmap,
    at: DVec2,
    z: f64,
    momz: f64,
    /// Floor and ceiling under the box, as the last accepted move found them.
    floorz: f64,
    ceilingz: f64,
}

impl DoomWalker {
    pub fn new(map: &MapData) -> DoomWalker {
        let side_sector = |side: Option<u32>| {
            side.and_then(|s| map.sidedefs.get(s as usize)).map(|s| s.sector as usize)
        };
        let lines = map
            .linedefs
            .iter()
            .filter_map(|ld| {
                Some(Line {
                    a: map.vertex(ld.v1)?.to_dvec2(),
                    b: map.vertex(ld.v2)?.to_dvec2(),
                    front: side_sector(ld.sides[0]),
                    back: side_sector(ld.sides[1]),
                    blocking: blocks_players(map, ld),
                })
            })
            .collect::<Vec<Line>>();
        // The things of a single-player game at skill 3 ("Hurt me plenty").
        let solids = map
            .things
            .iter()
            .filter(|t| spawn_decision(t.kind, t.flags, 3) == Spawn::Thing)
            .filter_map(|t| {
                Some(Solid {
                    at: DVec2::new(t.x as f64, t.y as f64) / 65536.0,
                    radius: solid_radius(t.kind)?,
                })
            })
            .collect::<Vec<Solid>>();
        let blockmap = Blockmap::new(
            &lines.iter().map(|l| (l.a, l.b)).collect::<Vec<_>>(),
            &solids.iter().map(|s| (s.at, s.radius)).collect::<Vec<_>>(),
        );
        DoomWalker {
            lines,
            heights: Heights::new(map),
            solids,
            blockmap,
            at: DVec2::ZERO,
            z: 0.0,
            momz: 0.0,
            floorz: 0.0,
            ceilingz: 0.0,
        }
    }

    /// The sector holding `p`: the side it lies on of the nearest line met going east.
    fn sector_at(&self, p: DVec2) -> Option<usize> {
        let mut best: Option<(f64, &Line)> = None;
        self.blockmap.lines_east(p, |lines, edge| {
            for line in lines.iter().map(|&i| &self.lines[i as usize]) {
                if (line.a.y > p.y) == (line.b.y > p.y) {
                    continue;
                }
                let x = line.a.x + (p.y - line.a.y) * (line.b.x - line.a.x) / (line.b.y - line.a.y);
                if x >= p.x && best.is_none_or(|(bx, _)| x < bx) {
                    best = Some((x, line));
                }
            }
            best.is_some_and(|(x, _)| x <= edge)
        });
        let (_, line) = best?;
        // The front is on the right going from a to b (`P_PointOnLineSide` 0).
        if (line.b - line.a).perp_dot(p - line.a) <= 0.0 {
            line.front
        } else {
            line.back
        }
    }

    /// `P_CheckPosition` then `P_TryMove`'s height tests: the opening for the box at `p`,
    /// or what blocks it there.
    fn check(&self, p: DVec2) -> Result<Opening, Block> {
        let sector = self.sector_at(p).ok_or(Block::Other)?;
        let (floor, ceiling) =
            self.heights.standing(sector, p, self.z, PLAYER_HEIGHT).ok_or(Block::Other)?;
        let mut open = Opening { floor, ceiling };
        let r = PLAYER_RADIUS;
        let (lo, hi) = (p - DVec2::splat(r), p + DVec2::splat(r));
        for s in self.blockmap.things_near(lo, hi).into_iter().map(|i| &self.solids[i as usize]) {
            let reach = s.radius + r;
            if (s.at.x - p.x).abs() < reach && (s.at.y - p.y).abs() < reach {
                return Err(Block::Other);
            }
        }
        for i in self.blockmap.lines_near(lo, hi).into_iter().map(|i| i as usize) {
            let line = &self.lines[i];
            if !box_crosses_line(lo, hi, line.a, line.b) {
                continue;
            }
            let (Some(front), Some(back)) = (line.front, line.back) else {
                return Err(Block::Line(i));
            };
            if line.blocking {
                return Err(Block::Line(i));
            }
            // GZDoom measures a sloped or 3D-floored opening at the line's point nearest the
            // body; on level planes every point gives vanilla's opening.
            let q = nearest_on_segment(p, line.a, line.b);
            let side = |s| self.heights.side_opening(s, q, self.z, PLAYER_HEIGHT);
            let (Some(f), Some(b)) = (side(front), side(back)) else {
                return Err(Block::Line(i));
            };
            open.ceiling = open.ceiling.min(f.1.min(b.1));
            open.floor = open.floor.max(f.0.max(b.0));
            if open.ceiling - open.floor < PLAYER_HEIGHT
                || open.ceiling - self.z < PLAYER_HEIGHT
                || open.floor - self.z > STEP_HEIGHT
            {
                return Err(Block::Line(i));
            }
        }
        if open.ceiling - open.floor < PLAYER_HEIGHT
            || open.ceiling - self.z < PLAYER_HEIGHT
            || open.floor - self.z > STEP_HEIGHT
        {
            return Err(Block::Other);
        }
        Ok(open)
    }

    /// `P_TryMove`: moves to `p` when the box fits there.
    fn try_move(&mut self, p: DVec2) -> Result<(), Block> {
        let open = self.check(p)?;
        self.at = p;
        self.floorz = open.floor;
        self.ceilingz = open.ceiling;
        Ok(())
    }

    /// A move of at most [`MOVE_PIECE`] on each axis; when blocked, `P_SlideMove`'s idea:
    /// go up to what blocks, then along the blocking line with what is left, else along
    /// one axis or the other.
    fn move_piece(&mut self, step: DVec2) {
        let Err(block) = self.try_move(self.at + step) else { return };
        let start = self.at;
        let (mut ok, mut bad) = (0.0, 1.0);
        for _ in 0..CONTACT_STEPS {
            let mid = (ok + bad) / 2.0;
            if self.check(start + step * mid).is_ok() {
                ok = mid;
            } else {
                bad = mid;
            }
        }
        if ok > 0.0 {
            let _ = self.try_move(start + step * ok);
        }
        let left = step * (1.0 - ok);
        if let Block::Line(i) = block {
            let along = (self.lines[i].b - self.lines[i].a).normalize_or_zero();
            let slide = along * left.dot(along);
            if slide.length() > 1e-6 && self.try_move(self.at + slide).is_ok() {
                return;
            }
        }
        // The stairstep fallback of P_SlideMove: one axis, then the other.
        if self.try_move(self.at + DVec2::new(0.0, left.y)).is_err() {
            let _ = self.try_move(self.at + DVec2::new(left.x, 0.0));
        }
    }

    /// `P_ZMovement` for the player: falls with gravity, lands on the floor, stays under the
    /// ceiling.
    fn fall(&mut self) {
        if self.z > self.floorz {
            self.momz = if self.momz == 0.0 { -2.0 * GRAVITY } else { self.momz - GRAVITY };
        }
        self.z += self.momz;
        if self.z <= self.floorz {
            self.z = self.floorz;
            self.momz = 0.0;
        }
        if self.z + PLAYER_HEIGHT > self.ceilingz {
            self.z = (self.ceilingz - PLAYER_HEIGHT).max(self.floorz);
            self.momz = self.momz.min(0.0);
        }
    }
}

impl NativeWalker for DoomWalker {
    fn place(&mut self, at: [f64; 2]) {
        self.at = DVec2::from(at);
        let (floor, ceiling) = self
            .sector_at(self.at)
            .and_then(|s| {
                let floor = self.heights.planes(s, self.at)?.0;
                self.heights.standing(s, self.at, floor, PLAYER_HEIGHT)
            })
            .unwrap_or((0.0, 0.0));
        self.z = floor;
        self.momz = 0.0;
        // The box's opening where it stands, so a step up from here is measured from it.
        let open = self.check(self.at).unwrap_or(Opening { floor, ceiling });
        self.floorz = open.floor;
        self.ceilingz = open.ceiling;
        self.z = self.floorz;
    }

    fn tic(&mut self, wish: [f64; 2]) {
        let wish = DVec2::from(wish);
        let on_floor = self.z <= self.floorz;
        let from = self.sector_at(self.at);
        if wish.is_finite() && wish != DVec2::ZERO {
            let pieces = (wish.x.abs().max(wish.y.abs()) / MOVE_PIECE).ceil().max(1.0);
            for _ in 0..pieces as u32 {
                self.move_piece(wish / pieces);
            }
        }
        // GZDoom's `P_CheckSlopeWalk`: a body walking down a sloped floor keeps to it rather
        // than falling off it a little every tic.
        let drop = self.z - self.floorz;
        if on_floor && drop > 0.0 && drop <= STEP_HEIGHT {
            let sloped = |s: Option<usize>| s.is_some_and(|s| self.heights.sloped_floor(s));
            if sloped(from) || sloped(self.sector_at(self.at)) {
                self.z = self.floorz;
            }
        }
        self.fall();
    }

    fn feet(&self) -> [f64; 3] {
        [self.at.x, self.at.y, self.z]
    }

    fn eye(&self) -> [f64; 3] {
        let eye = (self.z + EYE_HEIGHT).min(self.ceilingz - EYE_UNDER_CEILING).max(self.z);
        [self.at.x, self.at.y, eye]
    }

    fn speed(&self) -> f64 {
        RUN_SPEED
    }

    fn has_floor(&self) -> bool {
        self.sector_at(self.at).is_some()
    }
}

/// Whether a line stops players though it is two-sided: `ML_BLOCKING` in every format, and
/// the players-only and everything blocks of the later formats, as GZDoom reads them: MBF21's
/// bit 0x2000 in Doom-format maps (ignored where bit 0x800, Eternity's reserved bit, says the
/// high bits are junk), ZDoom's 0x4000 and 0x8000 in Hexen-format maps, and UDMF's
/// `blockplayers` and `blockeverything` (read into those bits).
fn blocks_players(map: &MapData, ld: &Linedef) -> bool {
    let flags = match map.format {
        MapFormat::Doom if ld.flags & line_flags::RESERVED == 0 => line_flags::MBF21_BLOCK_PLAYERS,
        MapFormat::Doom => 0,
        MapFormat::Hexen | MapFormat::Udmf { .. } => {
            line_flags::ZDOOM_BLOCK_PLAYERS | line_flags::ZDOOM_BLOCK_EVERYTHING
        }
    };
    ld.has_flag(line_flags::IMPASSABLE | flags)
}

/// The point of segment a-b nearest `p`.
fn nearest_on_segment(p: DVec2, a: DVec2, b: DVec2) -> DVec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// Whether the line a-b passes through the open box lo..hi (`P_BoxOnLineSide` -1, within the
/// line's own extent).
fn box_crosses_line(lo: DVec2, hi: DVec2, a: DVec2, b: DVec2) -> bool {
    if a.x.max(b.x) <= lo.x || a.x.min(b.x) >= hi.x || a.y.max(b.y) <= lo.y || a.y.min(b.y) >= hi.y
    {
        return false;
    }
    let d = b - a;
    let corners = [lo, DVec2::new(lo.x, hi.y), hi, DVec2::new(hi.x, lo.y)];
    let sides = corners.map(|c| d.perp_dot(c - a));
    sides.iter().any(|&s| s > 0.0) && sides.iter().any(|&s| s < 0.0)
}

/// mobjinfo radius of the thing types with `MF_SOLID` that stand in a level at start: the
/// monsters, the barrel and the solid decorations (info.c).
fn solid_radius(kind: u16) -> Option<f64> {
    let r = match kind {
        // Barrel, burning barrel.
        2035 => 10,
        70 => 16,
        // Monsters.
        3004 | 9 | 65 | 3001 | 64 | 66 | 84 => 20,
        3002 | 58 => 30,
        3006 | 72 | 88 => 16,
        3005 | 71 => 31,
        3003 | 69 => 24,
        16 => 40,
        7 => 128,
        67 => 48,
        68 => 64,
        // Solid decorations: columns, lamps, candelabra, impaled bodies, trees, hanging
        // bodies that block.
        54 => 32,
        25..=33 | 35..=37 | 41..=53 | 55..=57 | 73..=78 | 85 | 86 | 2028 => 16,
        _ => return None,
    };
    Some(r as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_crosses_a_line_through_it_but_not_one_beside_it() {
        let (lo, hi) = (DVec2::new(-16.0, -16.0), DVec2::new(16.0, 16.0));
        assert!(box_crosses_line(lo, hi, DVec2::new(0.0, -100.0), DVec2::new(0.0, 100.0)));
        assert!(!box_crosses_line(lo, hi, DVec2::new(16.0, -100.0), DVec2::new(16.0, 100.0)));
        assert!(!box_crosses_line(lo, hi, DVec2::new(0.0, 20.0), DVec2::new(0.0, 100.0)));
    }

    #[test]
    fn each_format_blocks_players_by_its_own_bits() {
        let blocks = |format: MapFormat, flags: u16| {
            let map = MapData { format, ..MapData::default() };
            blocks_players(&map, &Linedef { flags, ..Linedef::default() })
        };
        let udmf = || MapFormat::Udmf { namespace: "zdoom".into() };
        assert!(blocks(MapFormat::Doom, line_flags::IMPASSABLE));
        assert!(blocks(MapFormat::Doom, 0x2000));
        // Bit 0x800 marks the high bits as an old editor's junk.
        assert!(!blocks(MapFormat::Doom, 0x2800));
        assert!(!blocks(MapFormat::Doom, 0x4000 | 0x8000));
        assert!(blocks(MapFormat::Hexen, 0x4000) && blocks(MapFormat::Hexen, 0x8000));
        assert!(!blocks(MapFormat::Hexen, 0x2000));
        assert!(blocks(udmf(), 0x4000) && !blocks(udmf(), line_flags::BLOCK_MONSTERS));
    }

    #[test]
    fn running_speed_is_vanillas() {
        assert!((RUN_SPEED - 16.666).abs() < 0.01);
    }
}
