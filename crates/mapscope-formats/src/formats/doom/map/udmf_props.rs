//! The UDMF properties mapscope draws, read from the keys [`UdmfExtra`] keeps per record:
//! per-part sidedef offsets and scales, sidedef and floor/ceiling light, and flat panning,
//! scale and rotation (ZDoom UDMF extensions, `specs/udmf_zdoom.txt` in GZDoom).
//!
//! Facts relied on (the spec is terse; the rest is GZDoom's behaviour in its software and
//! hardware renderers):
//! - `offsetx_top` .. `offsety_bottom` are added to the sidedef's `offsetx` / `offsety` ("when
//!   global texture offsets are used they will be added on top of these values"). Offsets are
//!   in texels: GZDoom divides them by the part's scale before scaling the wall's coordinates,
//!   so a scaled texture still moves by whole texels.
//! - `scalex_*` / `scaley_*` multiply the texel step: texel u = offset + scale * distance along
//!   the line, texel v = offset + scale * (height of row 0 - z). A scale of 2 shows the texture
//!   at half size. Pegging uses the texture's height in world units (height / scale). A scale
//!   of 0 is read as 1 (GZDoom would divide by it).
//! - `light` on a sidedef and `lightfloor` / `lightceiling` on a sector are added to the
//!   sector's `lightlevel` unless their `*absolute` flag is set, when they replace it; the
//!   result is clamped to 0..255. Doom's fake contrast still applies to walls unless the
//!   sidedef sets `nofakecontrast`.
//! - Flats: texel (u, v) of map point (x, y) is `u = xscale * (x cos a - y sin a + xpanning)`,
//!   `v = yscale * (-(x sin a + y cos a) + ypanning)` with `a` the rotation in degrees: the
//!   map point is rotated counter-clockwise about the map origin (0, 0), then panned, then
//!   scaled (GZDoom's flat texture matrix: scale · translate · rotate(-a) applied to
//!   (x, -y); its software renderer rotates the view position and angle the same way). With no
//!   properties this is vanilla's grid, `u = x`, `v = -y`.

use super::udmf::UdmfValue;
use super::UdmfExtra;

/// Sidedef and sector keys drawn (taken out of the "not drawn" note).
pub const DRAWN_SIDEDEF_KEYS: [&str; 15] = [
    "offsetx_top",
    "offsety_top",
    "offsetx_mid",
    "offsety_mid",
    "offsetx_bottom",
    "offsety_bottom",
    "scalex_top",
    "scaley_top",
    "scalex_mid",
    "scaley_mid",
    "scalex_bottom",
    "scaley_bottom",
    "light",
    "lightabsolute",
    "nofakecontrast",
];
pub const DRAWN_SECTOR_KEYS: [&str; 14] = [
    "lightfloor",
    "lightceiling",
    "lightfloorabsolute",
    "lightceilingabsolute",
    "xpanningfloor",
    "ypanningfloor",
    "xpanningceiling",
    "ypanningceiling",
    "xscalefloor",
    "yscalefloor",
    "xscaleceiling",
    "yscaleceiling",
    "rotationfloor",
    "rotationceiling",
];

/// Slope keys (drawn by `slopes`): sector plane equations and vertex heights.
pub const DRAWN_SLOPE_SECTOR_KEYS: [&str; 8] = [
    "floorplane_a",
    "floorplane_b",
    "floorplane_c",
    "floorplane_d",
    "ceilingplane_a",
    "ceilingplane_b",
    "ceilingplane_c",
    "ceilingplane_d",
];
pub const DRAWN_VERTEX_KEYS: [&str; 2] = ["zfloor", "zceiling"];

/// Whether `key` of a record of `kind` is drawn.
pub fn is_drawn(kind: &str, key: &str) -> bool {
    match kind {
        "sidedef" => DRAWN_SIDEDEF_KEYS.contains(&key),
        "sector" => {
            DRAWN_SECTOR_KEYS.contains(&key)
                || DRAWN_SLOPE_SECTOR_KEYS.contains(&key)
                || crate::formats::doom::specials::sector_colors::DRAWN_SECTOR_KEYS.contains(&key)
        }
        "vertex" => DRAWN_VERTEX_KEYS.contains(&key),
        "linedef" => crate::formats::doom::specials::line_styles::DRAWN_LINEDEF_KEYS.contains(&key),
        _ => false,
    }
}

/// A light level relative to the sector's, or absolute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LightRule {
    pub value: i32,
    pub absolute: bool,
}

impl LightRule {
    /// The light level this rule gives in a sector lit `sector`, clamped to 0..255.
    pub fn apply(self, sector: i32) -> i32 {
        let l = if self.absolute { self.value } else { sector.saturating_add(self.value) };
        l.clamp(0, 255)
    }

    /// The rule that leaves the sector's light as it is.
    pub fn is_identity(self) -> bool {
        !self.absolute && self.value == 0
    }
}

/// Placement of one wall part's texture (upper, middle or lower).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartTexture {
    /// Texel offsets added to the sidedef's own (`offsetx_*`, `offsety_*`).
    pub x_offset: f64,
    pub y_offset: f64,
    /// Texel step per map unit (`scalex_*`, `scaley_*`).
    pub x_scale: f64,
    pub y_scale: f64,
}

impl Default for PartTexture {
    fn default() -> Self {
        PartTexture { x_offset: 0.0, y_offset: 0.0, x_scale: 1.0, y_scale: 1.0 }
    }
}

impl PartTexture {
    pub fn unit_scale(&self) -> bool {
        self.x_scale == 1.0 && self.y_scale == 1.0
    }
}

/// Wall parts in the order of the keys' suffixes.
pub const TOP: usize = 0;
pub const MID: usize = 1;
pub const BOTTOM: usize = 2;

/// What a sidedef sets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideProps {
    pub parts: [PartTexture; 3],
    pub light: LightRule,
    pub no_fake_contrast: bool,
}

/// A flat's texture placement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlatPlacement {
    pub x_panning: f64,
    pub y_panning: f64,
    pub x_scale: f64,
    pub y_scale: f64,
    /// Degrees, counter-clockwise.
    pub rotation: f64,
}

impl Default for FlatPlacement {
    fn default() -> Self {
        FlatPlacement { x_panning: 0.0, y_panning: 0.0, x_scale: 1.0, y_scale: 1.0, rotation: 0.0 }
    }
}

impl FlatPlacement {
    pub fn is_identity(&self) -> bool {
        *self == FlatPlacement::default()
    }

    /// Texel coordinates of map point (`x`, `y`) (see the module notes).
    pub fn uv(&self, x: f64, y: f64) -> [f64; 2] {
        let (s, c) = self.rotation.to_radians().sin_cos();
        let (rx, ry) = if self.rotation == 0.0 { (x, y) } else { (x * c - y * s, x * s + y * c) };
        [self.x_scale * (rx + self.x_panning), self.y_scale * (-ry + self.y_panning)]
    }
}

/// What a sector sets for its floor and ceiling.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SectorProps {
    pub floor_light: LightRule,
    pub ceiling_light: LightRule,
    pub floor: FlatPlacement,
    pub ceiling: FlatPlacement,
}

/// The drawn properties of every sidedef and sector of a map (defaults for a map that is not
/// UDMF), with notes for values of the wrong type.
#[derive(Clone, Debug, Default)]
pub struct UdmfProps {
    pub sides: Vec<SideProps>,
    pub sectors: Vec<SectorProps>,
}

impl UdmfProps {
    pub fn read(extra: Option<&UdmfExtra>, notes: &mut Vec<String>) -> UdmfProps {
        let Some(extra) = extra else { return UdmfProps::default() };
        let mut bad = Vec::new();
        let sides = extra
            .sidedefs
            .iter()
            .enumerate()
            .map(|(i, f)| {
                side_props(&mut Fields { fields: f, kind: "sidedef", index: i, bad: &mut bad })
            })
            .collect();
        let sectors = extra
            .sectors
            .iter()
            .enumerate()
            .map(|(i, f)| {
                sector_props(&mut Fields { fields: f, kind: "sector", index: i, bad: &mut bad })
            })
            .collect();
        if !bad.is_empty() {
            let more =
                if bad.len() > 8 { format!(" and {} more", bad.len() - 8) } else { String::new() };
            bad.truncate(8);
            notes.push(format!("UDMF values of the wrong type ignored: {}{more}", bad.join(", ")));
        }
        UdmfProps { sides, sectors }
    }

    pub fn side(&self, i: usize) -> SideProps {
        self.sides.get(i).copied().unwrap_or_default()
    }

    pub fn sector(&self, i: usize) -> SectorProps {
        self.sectors.get(i).copied().unwrap_or_default()
    }

    /// Whether any wall part is scaled or any flat rotated or scaled: properties vanilla's
    /// renderer has no equivalent of.
    pub fn beyond_vanilla(&self) -> bool {
        self.sides.iter().any(|s| s.parts.iter().any(|p| !p.unit_scale()))
            || self.sectors.iter().any(|s| {
                [s.floor, s.ceiling]
                    .iter()
                    .any(|f| f.rotation != 0.0 || f.x_scale != 1.0 || f.y_scale != 1.0)
            })
    }
}

/// One record's kept keys, read with their defaults; wrong types are collected as
/// "kind n: key".
struct Fields<'a> {
    fields: &'a [(String, UdmfValue)],
    kind: &'static str,
    index: usize,
    bad: &'a mut Vec<String>,
}

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&UdmfValue> {
        self.fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    fn wrong(&mut self, key: &str) {
        self.bad.push(format!("{} {}: {key}", self.kind, self.index));
    }

    /// A finite number, or `default`.
    fn float(&mut self, key: &str, default: f64) -> f64 {
        match self.get(key).map(UdmfValue::as_f64) {
            None => default,
            Some(Some(v)) if v.is_finite() => v,
            Some(_) => {
                self.wrong(key);
                default
            }
        }
    }

    /// A scale: 0 (GZDoom would divide by it) reads as 1; others are kept within 1/1024 ..
    /// 1024 either sign, so heights divided by them and their 16.16 forms stay finite.
    fn scale(&mut self, key: &str) -> f64 {
        let v = self.float(key, 1.0);
        if v == 0.0 {
            1.0
        } else {
            v.signum() * v.abs().clamp(1.0 / 1024.0, 1024.0)
        }
    }

    fn int(&mut self, key: &str) -> i32 {
        match self.get(key).map(UdmfValue::as_int) {
            None => 0,
            Some(Some(v)) => v.clamp(-65536, 65536) as i32,
            Some(None) => {
                self.wrong(key);
                0
            }
        }
    }

    fn flag(&mut self, key: &str) -> bool {
        match self.get(key).map(UdmfValue::as_bool) {
            None => false,
            Some(Some(b)) => b,
            Some(None) => {
                self.wrong(key);
                false
            }
        }
    }
}

fn side_props(f: &mut Fields) -> SideProps {
    let mut parts = [PartTexture::default(); 3];
    for (p, suffix) in parts.iter_mut().zip(["top", "mid", "bottom"]) {
        // Offsets are kept within what 16.16 holds once added to the sidedef's own.
        p.x_offset = f.float(&format!("offsetx_{suffix}"), 0.0).clamp(-16384.0, 16384.0);
        p.y_offset = f.float(&format!("offsety_{suffix}"), 0.0).clamp(-16384.0, 16384.0);
        p.x_scale = f.scale(&format!("scalex_{suffix}"));
        p.y_scale = f.scale(&format!("scaley_{suffix}"));
    }
    SideProps {
        parts,
        light: LightRule { value: f.int("light"), absolute: f.flag("lightabsolute") },
        no_fake_contrast: f.flag("nofakecontrast"),
    }
}

fn sector_props(f: &mut Fields) -> SectorProps {
    let plane = |f: &mut Fields, which: &str| FlatPlacement {
        x_panning: f.float(&format!("xpanning{which}"), 0.0).clamp(-16384.0, 16384.0),
        y_panning: f.float(&format!("ypanning{which}"), 0.0).clamp(-16384.0, 16384.0),
        x_scale: f.scale(&format!("xscale{which}")),
        y_scale: f.scale(&format!("yscale{which}")),
        rotation: f.float(&format!("rotation{which}"), 0.0).rem_euclid(360.0),
    };
    SectorProps {
        floor_light: LightRule {
            value: f.int("lightfloor"),
            absolute: f.flag("lightfloorabsolute"),
        },
        ceiling_light: LightRule {
            value: f.int("lightceiling"),
            absolute: f.flag("lightceilingabsolute"),
        },
        floor: plane(f, "floor"),
        ceiling: plane(f, "ceiling"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_rules_add_replace_and_clamp() {
        let rel = |value| LightRule { value, absolute: false };
        let abs = |value| LightRule { value, absolute: true };
        assert_eq!(rel(0).apply(160), 160);
        assert_eq!(rel(32).apply(160), 192);
        assert_eq!(rel(-64).apply(160), 96);
        assert_eq!(rel(200).apply(160), 255);
        assert_eq!(rel(-300).apply(160), 0);
        assert_eq!(abs(40).apply(160), 40);
        assert_eq!(abs(0).apply(255), 0);
        assert_eq!(abs(999).apply(0), 255);
        assert_eq!(abs(-5).apply(100), 0);
        assert!(rel(0).is_identity() && !abs(0).is_identity() && !rel(1).is_identity());
    }

    fn extra_with(side: &[(&str, UdmfValue)], sector: &[(&str, UdmfValue)]) -> UdmfExtra {
        let own =
            |f: &[(&str, UdmfValue)]| f.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        UdmfExtra { sidedefs: vec![own(side)], sectors: vec![own(sector)], ..Default::default() }
    }

    #[test]
    fn keys_read_with_defaults_and_bad_values_noted() {
        use UdmfValue::*;
        let extra = extra_with(
            &[
                ("offsetx_mid", Float(4.5)),
                ("scaley_top", Int(2)),
                ("scalex_bottom", Float(0.0)),
                ("light", Int(-16)),
                ("lightabsolute", Str("yes".into())),
                ("nofakecontrast", Bool(true)),
            ],
            &[
                ("lightfloor", Int(300)),
                ("lightfloorabsolute", Bool(true)),
                ("rotationceiling", Float(-90.0)),
                ("xscalefloor", Float(f64::NAN)),
                ("ypanningceiling", Int(8)),
            ],
        );
        let mut notes = Vec::new();
        let p = UdmfProps::read(Some(&extra), &mut notes);
        let s = p.side(0);
        assert_eq!(s.parts[MID].x_offset, 4.5);
        assert_eq!(s.parts[TOP].y_scale, 2.0);
        assert_eq!(s.parts[BOTTOM].x_scale, 1.0, "scale 0 reads as 1");
        assert_eq!(s.light, LightRule { value: -16, absolute: false });
        assert!(s.no_fake_contrast);
        let c = p.sector(0);
        assert_eq!(c.floor_light.apply(100), 255);
        assert!(c.ceiling_light.is_identity());
        assert_eq!(c.ceiling.rotation, 270.0);
        assert_eq!(c.ceiling.y_panning, 8.0);
        assert_eq!(c.floor.x_scale, 1.0);
        assert!(p.beyond_vanilla());
        assert_eq!(p.side(7), SideProps::default(), "records past the end read as defaults");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("sidedef 0: lightabsolute"), "{notes:?}");
        assert!(notes[0].contains("sector 0: xscalefloor"), "{notes:?}");
    }

    #[test]
    fn flat_placement_rotates_pans_and_scales() {
        let id = FlatPlacement::default();
        assert_eq!(id.uv(10.0, 20.0), [10.0, -20.0], "vanilla's grid");
        let pan = FlatPlacement { x_panning: 5.0, y_panning: -3.0, ..id };
        assert_eq!(pan.uv(10.0, 20.0), [15.0, -23.0]);
        let scaled = FlatPlacement { x_scale: 2.0, y_scale: 0.5, ..pan };
        assert_eq!(scaled.uv(10.0, 20.0), [30.0, -11.5]);
        // 90°: (x, y) turns to (-y, x), so u = -y and v = -x.
        let turned = FlatPlacement { rotation: 90.0, ..id }.uv(10.0, 20.0);
        assert!((turned[0] + 20.0).abs() < 1e-9 && (turned[1] + 10.0).abs() < 1e-9, "{turned:?}");
    }
}
