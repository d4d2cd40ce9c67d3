//! What one walk hands on: the wall ranges, wall columns, masked ranges and flat spans in the
//! order vanilla draws them, with the statistics of what it had to skip. The wall set-up and
//! the canvas draw from these lists and never see the walker's working state (clip arrays,
//! visplane marks), which is dropped when the walk ends. What covers each pixel is derived
//! from the lists only when asked for, by tests and diagnostics: drawing never needs it, and
//! making it every frame cost most of the walk's time.

use super::planes::{PlaneInfo, Span};
use super::segs::{ClipRow, DrawSeg, MaskedRange, SpriteClip, WallColumn};
use super::vissprites::VisSprite;

/// `span_start` / `plane_id` of a pixel no visplane covers.
pub const NO_SPAN: u16 = 0xFFFF;
pub const NO_PLANE: u16 = 0xFFFF;
/// `wall_drawseg` of a pixel no wall column covers.
pub const NO_WALL: u32 = u32::MAX;

/// What the walk had to do that vanilla would not, or could not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Subsectors drawn (`sscount`).
    pub subsectors: u32,
    /// Wall ranges not stored because of [`Limits::max_drawsegs`].
    pub drawsegs_dropped: u32,
    /// Things not drawn because [`Limits::max_vissprites`] was reached.
    pub vissprites_dropped: u32,
    /// Floor/ceiling marks skipped because [`Limits::max_visplanes`] was reached.
    pub visplanes_dropped: u32,
    /// More visplanes than vanilla's 128 (vanilla: "R_FindPlane: no more visplanes").
    pub exceeds_vanilla_visplanes: bool,
    /// Node, subsector or seg numbers out of range, or a node reached twice (a cycle): those
    /// parts of the tree were skipped.
    pub bad_references: u32,
}

/// What covers each pixel of a walk's screen (row-major), for tests and diagnostics: drawing
/// goes by [`WalkResult::wall_columns`] and [`WalkResult::spans`].
#[derive(Clone, Debug)]
pub(super) struct Coverage {
    span_start: Vec<u16>,
    plane_id: Vec<u16>,
    wall_drawseg: Vec<u32>,
}

/// Everything the walk found for one frame.
#[derive(Clone, Debug)]
pub struct WalkResult {
    /// The colormap the frame is drawn through (Boom 242's region colormaps; 0: COLORMAP).
    pub colormap: u32,
    pub width: u32,
    pub height: u32,
    /// What covers each pixel, made from the columns and spans when first asked for.
    pub(super) coverage: std::sync::OnceLock<Coverage>,
    /// Wall columns in the order the walk drew them.
    pub wall_columns: Vec<WallColumn>,
    /// Flat spans, visplane by visplane.
    pub spans: Vec<Span>,
    /// Drawsegs with masked middles, in the order they were stored.
    pub masked: Vec<MaskedRange>,
    /// The sprite clip rows the drawsegs saved ([`ClipRow::Openings`]).
    pub openings: Vec<i32>,
    /// Per drawseg (same order), what clips sprites and masked middles behind it.
    pub sprite_clips: Vec<SpriteClip>,
    /// The things in view, sorted far to near as R_SortVisSprites sorts them.
    pub vissprites: Vec<VisSprite>,
    /// Wall ranges in the order vanilla stores them.
    pub drawsegs: Vec<DrawSeg>,
    pub planes: Vec<PlaneInfo>,
    /// Subsectors in the order the walk drew them (front to back).
    pub subsectors: Vec<u32>,
    pub stats: WalkStats,
    /// Drawseg indices grouped by seg: those of seg `s` are
    /// `seg_drawsegs[seg_first[s]..seg_first[s + 1]]`, by increasing x1.
    pub(super) seg_first: Vec<u32>,
    pub(super) seg_drawsegs: Vec<u32>,
}

impl WalkResult {
    fn coverage(&self) -> &Coverage {
        self.coverage.get_or_init(|| {
            let (w, h) = (self.width as usize, self.height as usize);
            let mut c = Coverage {
                span_start: vec![NO_SPAN; w * h],
                plane_id: vec![NO_PLANE; w * h],
                wall_drawseg: vec![NO_WALL; w * h],
            };
            for col in &self.wall_columns {
                for y in col.yl as usize..=col.yh as usize {
                    c.wall_drawseg[y * w + col.x as usize] = col.drawseg;
                }
            }
            for s in &self.spans {
                let row = s.y as usize * w;
                c.span_start[row + s.x1 as usize..=row + s.x2 as usize].fill(s.x1);
                c.plane_id[row + s.x1 as usize..=row + s.x2 as usize].fill(s.plane);
            }
            c
        })
    }

    /// Per pixel (row-major): the first column of the span that draws it, [`NO_SPAN`] for
    /// pixels no visplane covers.
    pub fn span_start(&self) -> &[u16] {
        &self.coverage().span_start
    }

    /// Per pixel: the visplane that draws it (index into `planes`), [`NO_PLANE`] if none.
    pub fn plane_id(&self) -> &[u16] {
        &self.coverage().plane_id
    }

    /// Per pixel: the drawseg whose wall column (upper, lower or one-sided tier) covers it,
    /// [`NO_WALL`] if none. Masked middle textures are not included.
    pub fn wall_drawseg(&self) -> &[u32] {
        &self.coverage().wall_drawseg
    }

    /// Row `row` (a drawseg's `sprtopclip` or `sprbottomclip`) at column `x` of drawseg
    /// `ds`; `None` where the row was not saved or `x` lies outside the drawseg.
    pub fn clip_at(&self, row: ClipRow, ds: &DrawSeg, x: i32) -> Option<i32> {
        match row {
            ClipRow::None => None,
            ClipRow::ScreenHeight => Some(self.height as i32),
            ClipRow::NegOne => Some(-1),
            ClipRow::Openings(at) if ds.contains(x) => {
                self.openings.get(at as usize + (x - ds.x1) as usize).copied()
            }
            ClipRow::Openings(_) => None,
        }
    }

    /// The wall ranges stored for seg `seg`, left to right (empty if it was not drawn).
    pub fn ranges_for_seg(&self, seg: usize) -> impl Iterator<Item = &DrawSeg> + '_ {
        let (a, b) = match (self.seg_first.get(seg), self.seg_first.get(seg + 1)) {
            (Some(&a), Some(&b)) => (a as usize, b as usize),
            _ => (0, 0),
        };
        self.seg_drawsegs[a..b].iter().map(move |&i| &self.drawsegs[i as usize])
    }

    /// The wall range of seg `seg` that holds column `x`.
    pub fn range_at(&self, seg: usize, x: i32) -> Option<&DrawSeg> {
        self.ranges_for_seg(seg).find(|d| d.contains(x))
    }

    /// The drawsegs grouped by seg, for upload: the indices into `drawsegs` of seg `s` are
    /// `seg_drawsegs()[seg_first()[s]..seg_first()[s + 1]]`, left to right.
    pub fn seg_first(&self) -> &[u32] {
        &self.seg_first
    }

    pub fn seg_drawsegs(&self) -> &[u32] {
        &self.seg_drawsegs
    }

    /// Pixels neither a wall column nor a flat span covers: vanilla leaves none (a hole would
    /// show the previous frame).
    pub fn uncovered_pixels(&self) -> usize {
        let (spans, walls) = (self.span_start(), self.wall_drawseg());
        spans.iter().zip(walls).filter(|&(&s, &w)| s == NO_SPAN && w == NO_WALL).count()
    }

    /// Pixels both a wall column and a flat span cover: vanilla draws each pixel once.
    pub fn overlapping_pixels(&self) -> usize {
        let (spans, walls) = (self.span_start(), self.wall_drawseg());
        spans.iter().zip(walls).filter(|&(&s, &w)| s != NO_SPAN && w != NO_WALL).count()
    }

    /// Span start of pixel (x, y), if a visplane covers it.
    pub fn span_start_at(&self, x: u32, y: u32) -> Option<u16> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let s = self.span_start()[(y * self.width + x) as usize];
        (s != NO_SPAN).then_some(s)
    }
}

/// The index of `drawsegs` by seg that [`WalkResult::ranges_for_seg`] reads: `(seg_first,
/// seg_drawsegs)`, the drawsegs of seg `s` being `seg_drawsegs[seg_first[s]..seg_first[s +
/// 1]]`, by increasing x1.
pub(super) fn drawsegs_by_seg(drawsegs: &[DrawSeg], nsegs: usize) -> (Vec<u32>, Vec<u32>) {
    let mut seg_first = vec![0u32; nsegs + 1];
    for d in drawsegs {
        seg_first[d.seg as usize + 1] += 1;
    }
    for i in 0..nsegs {
        seg_first[i + 1] += seg_first[i];
    }
    let mut fill = seg_first.clone();
    let mut seg_drawsegs = vec![0u32; drawsegs.len()];
    for (i, d) in drawsegs.iter().enumerate() {
        let slot = &mut fill[d.seg as usize];
        seg_drawsegs[*slot as usize] = i as u32;
        *slot += 1;
    }
    for s in 0..nsegs {
        let (a, b) = (seg_first[s] as usize, seg_first[s + 1] as usize);
        seg_drawsegs[a..b].sort_by_key(|&i| drawsegs[i as usize].x1);
    }
    (seg_first, seg_drawsegs)
}
