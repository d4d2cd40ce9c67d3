//! Vanilla's vissprites (r_things.c R_AddSprites, R_ProjectSprite, R_SortVisSprites): as the
//! walk enters a subsector, the things of its sector (once a frame per sector) are projected
//! to screen columns with vanilla's fixed-point arithmetic, which decides their edges, their
//! texture step and their light; the canvas draws them after the walls and flats, far to near
//! (`masked`, `sprites`).

use super::tables::{fixed_div, fixed_mul, ANG90, FRACBITS, FRACUNIT, MAXLIGHTSCALE};
use super::walk::Walker;

/// Things nearer the view plane than this are not drawn (`MINZ`).
const MINZ: i32 = FRACUNIT * 4;
/// `(ANG45 / 2) * 9`: rounds the viewing angle to the nearest of eight rotations.
const ROTATION_ROUNDING: u32 = 0x1000_0000 * 9;

/// How a vissprite is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpriteLight {
    /// A COLORMAP row (0 for full-bright frames, `spritelights[index]` otherwise).
    Map(u8),
    /// `MF_SHADOW`: the fuzz effect (`R_DrawFuzzColumn`).
    Fuzz,
}

/// One projected thing (`vissprite_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VisSprite {
    /// Index into [`VanillaThings::things`](crate::scene::doom::vanilla::VanillaThings).
    pub thing: u32,
    /// Screen columns, clipped to the screen.
    pub x1: i32,
    pub x2: i32,
    /// The thing's position (`gx`, `gy`), feet (`gz`) and top (`gzt`), 16.16.
    pub gx: i32,
    pub gy: i32,
    pub gz: i32,
    pub gzt: i32,
    /// `xscale`: screen pixels per map unit at the thing's depth, 16.16.
    pub scale: i32,
    /// The patch column at `x1` and the step a screen column (negative when flipped), 16.16.
    pub startfrac: i32,
    pub xiscale: i32,
    /// The patch's top above the eye (`gzt - viewz`).
    pub texturemid: i32,
    /// The same in texel rows (`texturemid` over GZDoom's y scale), screen rows a texel
    /// row (`spryscale`: `scale` times the y scale) and texel rows a screen row: vanilla's
    /// `texturemid`, `scale` and `iscale` for things of scale 1.
    pub texel_mid: i32,
    pub post_scale: i32,
    pub post_iscale: i32,
    /// Index into [`VanillaThings::patches`](crate::scene::doom::vanilla::VanillaThings).
    pub patch: u32,
    pub light: SpriteLight,
    /// Blended through this table of the map's `tranmaps` (GZDoom's translucent styles).
    pub translucent: Option<u32>,
}

impl Walker<'_> {
    /// R_AddSprites: the things of sector `sector`, the first time the walk enters it.
    pub(super) fn add_sprites(&mut self, sector: u32) {
        let Some(done) = self.sector_sprites_done.get_mut(sector as usize) else { return };
        if std::mem::replace(done, true) {
            return;
        }
        // spritelights: the sector's light level, as a scalelight row.
        let level = (self.frontsector.light >> 4).min(15) as i32;
        let things = &self.map.things;
        for &t in things.in_sector(sector) {
            self.project_sprite(t, level);
        }
    }

    /// R_ProjectSprite: thing `index` as a vissprite if it may show.
    fn project_sprite(&mut self, index: u32, level: i32) {
        let things = &self.map.things;
        let Some(thing) = things.things.get(index as usize) else { return };
        let view = self.view;
        let (viewsin, viewcos) =
            (view.sine(view.viewangle), view.sine(view.viewangle.wrapping_add(ANG90)));
        let tr_x = thing.x.wrapping_sub(view.viewx);
        let tr_y = thing.y.wrapping_sub(view.viewy);
        let gxt = fixed_mul(tr_x, viewcos);
        let gyt = fixed_mul(tr_y, viewsin).wrapping_neg();
        let tz = gxt.wrapping_sub(gyt);
        // Behind the view plane.
        if tz < MINZ {
            return;
        }
        let xscale = fixed_div(view.projection, tz);
        let gxt = fixed_mul(tr_x, viewsin).wrapping_neg();
        let gyt = fixed_mul(tr_y, viewcos);
        let mut tx = gyt.wrapping_add(gxt).wrapping_neg();
        // Too far off the side (signed, as vanilla compares: past 8192 units `tz << 2`
        // wraps negative and the thing is never drawn).
        if tx.wrapping_abs() > tz.wrapping_shl(2) {
            return;
        }
        let Some(frame) = things.frames.get(thing.frame as usize) else { return };
        let rot = if frame.rotate {
            let angle = self.point_to_angle(thing.x, thing.y);
            (angle.wrapping_sub(thing.angle).wrapping_add(ROTATION_ROUNDING) >> 29) as usize
        } else {
            0
        };
        let (patch_index, flip) = (frame.patches[rot], frame.flip[rot]);
        let Some(patch) = things.patches.get(patch_index as usize) else { return };
        let centerxfrac = view.projection;
        // GZDoom's actor scale stretches the patch's offsets and size in the world (the
        // ZDoom software renderer's R_ProjectSprite); vanilla's things are at 1.
        let [sx, sy] = thing.scale.unwrap_or([FRACUNIT, FRACUNIT]);
        let scaled = |v: i32, s: i32| if s == FRACUNIT { v } else { fixed_mul(v, s) };
        tx = tx.wrapping_sub(scaled(patch.left_offset.wrapping_shl(FRACBITS), sx));
        let x1 = centerxfrac.wrapping_add(fixed_mul(tx, xscale)) >> FRACBITS;
        // Off the right side.
        if x1 > self.width {
            return;
        }
        let spritewidth = patch.width.wrapping_shl(FRACBITS);
        tx = tx.wrapping_add(scaled(spritewidth, sx));
        let x2 = (centerxfrac.wrapping_add(fixed_mul(tx, xscale)) >> FRACBITS) - 1;
        // Off the left side.
        if x2 < 0 {
            return;
        }
        if self.vissprites_full() {
            return;
        }
        let iscale = fixed_div(FRACUNIT, scaled(xscale, sx));
        let (mut startfrac, xiscale) =
            if flip { (spritewidth - 1, iscale.wrapping_neg()) } else { (0, iscale) };
        let vx1 = x1.max(0);
        if vx1 > x1 {
            startfrac = startfrac.wrapping_add(xiscale.wrapping_mul(vx1 - x1));
        }
        let gzt = thing.z.wrapping_add(scaled(patch.top_offset.wrapping_shl(FRACBITS), sy));
        let texturemid = gzt.wrapping_sub(view.viewz);
        let post_scale = scaled(xscale, sy);
        let (texel_mid, post_iscale) = if sy == FRACUNIT && sx == FRACUNIT {
            (texturemid, iscale)
        } else {
            (fixed_div(texturemid, sy), fixed_div(FRACUNIT, post_scale.max(1)))
        };
        let light = if thing.shadow {
            SpriteLight::Fuzz
        } else if thing.fullbright {
            SpriteLight::Map(0)
        } else {
            // spritelights[xscale >> LIGHTSCALESHIFT], the scale taken on a 320-wide screen
            // as the walls' light is.
            let index = ((xscale >> 12) as f32 * 320.0 / self.width as f32) as i32;
            let index = index.clamp(0, MAXLIGHTSCALE as i32 - 1);
            SpriteLight::Map(((15 - level) * 4 - index / 2).clamp(0, 31) as u8)
        };
        self.vissprites.push(VisSprite {
            thing: index,
            x1: vx1,
            x2: x2.min(self.width - 1),
            gx: thing.x,
            gy: thing.y,
            gz: thing.z,
            gzt,
            scale: xscale,
            startfrac,
            xiscale,
            texturemid,
            texel_mid,
            post_scale,
            post_iscale,
            patch: patch_index,
            light,
            translucent: thing.translucent,
        });
    }

    /// Whether R_NewVisSprite has no slot left (MAXVISSPRITES): the sprite is dropped.
    fn vissprites_full(&mut self) -> bool {
        match self.view.limits.max_vissprites {
            Some(max) if self.vissprites.len() >= max => {
                self.stats.vissprites_dropped += 1;
                true
            }
            _ => false,
        }
    }
}

/// R_SortVisSprites: far to near (increasing scale); sprites of equal scale keep the walk's
/// order (vanilla's selection takes the first of the smallest each time).
pub(super) fn sort_vissprites(vissprites: &mut [VisSprite]) {
    vissprites.sort_by_key(|v| v.scale);
}
