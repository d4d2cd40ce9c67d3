//! Translucent and additive middle textures as ZDoom gives them to lines: UDMF `alpha`,
//! `renderstyle`, Strife's `translucent` / `transparent` flags, and the `TranslucentLine`
//! special (208) of Hexen-format maps and Hexen-numbered UDMF; with the tables faithful mode
//! blends them through.
//!
//! Facts relied on (GZDoom `maploader/udmf.cpp` ParseLinedef, `maploader.cpp` SetLineID and
//! FinishLoadingLineDef, `hw_walls.cpp` DoMidTexture, the software renderer's
//! R_RenderMaskedSegRange):
//! - UDMF `alpha` (namespaces zdoom, gzdoom, zdoomtranslated, vavoom) sets the line's alpha,
//!   default 1; `renderstyle` "add" makes it additive, "translucent" not.
//! - `translucent` (0.75) and `transparent` (0.25), Strife's flags, apply only while the alpha
//!   is still 1 (namespaces strife and the ZDoom ones).
//! - `TranslucentLine(id, amount, additive)`: alpha `amount / 255`, additive when arg 2 is not
//!   0; with id 0 the line itself, otherwise every line with that id, lines read in order (a
//!   later line overriding). In Hexen-format maps the 208 line takes `arg0` as its own id, as
//!   `Line_SetIdentification` (121) lines take `arg0 + 256 * arg4` and a few other specials an
//!   argument (SetLineID); UDMF lines have `id` and `moreids`.
//! - Only the masked middle of a two-sided line blends; one-sided walls stay opaque; an alpha
//!   of 0 draws nothing. Additive adds `alpha * source` to what is behind.
//! - ZDoom's 8-bit renderer blends with 64 alpha levels (`alpha * 65536 >> 10`) and looks the
//!   sum up in a 15-bit RGB inverse palette (`RGB32k`); [`blend_table`] does the same into a
//!   Boom-style table (`table[dest << 8 | src]`).

use std::collections::BTreeMap;

use crate::formats::doom::graphics::palette_match::PaletteMatcher;
use crate::formats::doom::map::udmf::UdmfValue;
use crate::formats::doom::map::{MapData, MapFormat};

/// Hexen/ZDoom `TranslucentLine`.
pub const TRANSLUCENT_LINE: u16 = 208;
/// Hexen `Line_SetIdentification`.
const LINE_SET_ID: u16 = 121;

/// UDMF linedef keys read here (taken out of the "not drawn" note).
pub const DRAWN_LINEDEF_KEYS: [&str; 5] =
    ["alpha", "renderstyle", "translucent", "transparent", "moreids"];

/// How a line's middle texture is drawn over what lies behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineStyle {
    /// 0 (not drawn) .. 255 (opaque).
    pub alpha: u8,
    pub additive: bool,
}

impl LineStyle {
    pub const OPAQUE: LineStyle = LineStyle { alpha: 255, additive: false };

    /// Whether it blends with what is behind (drawn and not plain opaque).
    pub fn blends(self) -> bool {
        self.alpha > 0 && self != LineStyle::OPAQUE
    }

    /// ZDoom's 8-bit alpha level, 0..=64.
    pub fn level(self) -> u32 {
        ((self.alpha as u32 * 65536) / 255) >> 10
    }
}

/// The style of every line that is not plain opaque, by linedef.
pub fn read_line_styles(map: &MapData, notes: &mut Vec<String>) -> BTreeMap<u32, LineStyle> {
    let mut styles = BTreeMap::new();
    let mut unknown_styles = 0usize;
    let namespace = match &map.format {
        MapFormat::Udmf { namespace } => Some(namespace.as_str()),
        _ => None,
    };
    let zdoom_keys = matches!(namespace, Some("zdoom" | "gzdoom" | "zdoomtranslated" | "vavoom"));
    let strife_keys = zdoom_keys || namespace == Some("strife");
    if let (Some(extra), true) = (map.udmf.as_deref(), strife_keys) {
        for (i, fields) in extra.linedefs.iter().enumerate() {
            let get = |key: &str| fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v);
            let mut alpha = 1.0;
            let mut additive = false;
            if zdoom_keys {
                if let Some(a) = get("alpha").and_then(UdmfValue::as_f64).filter(|a| a.is_finite())
                {
                    alpha = a.clamp(0.0, 1.0);
                }
                match get("renderstyle").and_then(UdmfValue::as_str) {
                    Some(s) if s.eq_ignore_ascii_case("add") => additive = true,
                    Some(s) if s.eq_ignore_ascii_case("translucent") => {}
                    Some(_) => unknown_styles += 1,
                    None => {}
                }
            }
            let flag = |key: &str| get(key).and_then(UdmfValue::as_bool).unwrap_or(false);
            if flag("translucent") && alpha == 1.0 {
                alpha = 0.75;
            }
            if flag("transparent") && alpha == 1.0 {
                alpha = 0.25;
            }
            let style = LineStyle { alpha: (alpha * 255.0).round() as u8, additive };
            if style != LineStyle::OPAQUE {
                styles.insert(i as u32, style);
            }
        }
    }
    let mut special_lines = 0usize;
    if !map.doom_specials() {
        // Lines are read in order and a later 208 overrides an earlier one, so a line takes
        // the last 208 that reaches it: by id, the last 208 naming that id (linear in the
        // map's lines, however many lines share an id).
        let mut last_by_id: BTreeMap<i32, (usize, LineStyle)> = BTreeMap::new();
        let mut own: Vec<(usize, LineStyle)> = Vec::new();
        for (i, line) in map.linedefs.iter().enumerate() {
            if line.special != TRANSLUCENT_LINE {
                continue;
            }
            special_lines += 1;
            let style =
                LineStyle { alpha: line.args[1].clamp(0, 255) as u8, additive: line.args[2] != 0 };
            match line.args[0] {
                0 => own.push((i, style)),
                id => {
                    last_by_id.insert(id, (i, style));
                }
            }
        }
        let mut reached: BTreeMap<u32, (usize, LineStyle)> =
            own.into_iter().map(|(i, style)| (i as u32, (i, style))).collect();
        if !last_by_id.is_empty() {
            for (j, ids) in line_ids(map).iter().enumerate() {
                for id in ids {
                    let Some(&(i, style)) = last_by_id.get(id) else { continue };
                    let slot = reached.entry(j as u32).or_insert((i, style));
                    if i >= slot.0 {
                        *slot = (i, style);
                    }
                }
            }
        }
        styles.extend(reached.into_iter().map(|(j, (_, style))| (j, style)));
    }
    styles.retain(|_, s| *s != LineStyle::OPAQUE);
    if unknown_styles > 0 {
        notes.push(format!(
            "{unknown_styles} UDMF linedef render styles other than \"translucent\" and \"add\": \
             drawn as translucent"
        ));
    }
    if special_lines > 0 {
        notes.push(format!("{special_lines} TranslucentLine (208) lines read"));
    }
    styles
}

/// Every line's ids: UDMF `id` (where it fits the record) and `moreids`; in Hexen-format maps
/// the ids ZDoom's SetLineID gives from the line's special.
pub(super) fn line_ids(map: &MapData) -> Vec<Vec<i32>> {
    match (&map.format, map.udmf.as_deref()) {
        (MapFormat::Udmf { .. }, Some(extra)) => map
            .linedefs
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut ids = vec![l.tag as i32];
                let more = extra.linedefs.get(i).and_then(|f| {
                    f.iter().rev().find(|(k, _)| k == "moreids").and_then(|(_, v)| v.as_str())
                });
                for word in more.unwrap_or("").split_whitespace() {
                    if let Ok(n) = word.parse::<i32>() {
                        ids.push(n);
                    }
                }
                ids.retain(|&n| n != 0);
                ids
            })
            .collect(),
        _ => map
            .linedefs
            .iter()
            .map(|l| {
                let a = l.args;
                let id = match l.special {
                    LINE_SET_ID => Some(a[0] + 256 * a[4]),
                    // TranslucentLine, Teleport_Line, Scroll_Texture_Model.
                    TRANSLUCENT_LINE | 215 | 222 => Some(a[0]),
                    // Polyobj_StartLine, Polyobj_ExplicitLine, Plane_Align, Line_SetPortal.
                    1 => Some(a[3]),
                    5 => Some(a[4]),
                    181 => Some(a[2]),
                    156 => Some(a[1]),
                    // Sector_Set3dFloor with bit 8 of its type.
                    super::floors_3d::SECTOR_SET_3D_FLOOR if a[1] & 8 != 0 => Some(a[4]),
                    // Static_Init with Init_SectorLink.
                    190 if a[1] == 3 => Some(a[0]),
                    _ => None,
                };
                id.filter(|&n| n != 0).into_iter().collect()
            })
            .collect(),
    }
}

/// The 15-bit RGB inverse palette (ZDoom's `RGB32k`): entry `r << 10 | g << 5 | b` is the
/// palette colour nearest to the 5-bit colour widened to 8 bits.
pub struct InversePalette {
    table: Vec<u8>,
}

impl InversePalette {
    pub fn new(palette: &[[u8; 3]]) -> InversePalette {
        let mut matcher = PaletteMatcher::new(palette);
        let widen = |c: u32| ((c << 3) | (c >> 2)) as u8;
        let table = (0..32768u32)
            .map(|i| matcher.nearest([widen(i >> 10), widen((i >> 5) & 31), widen(i & 31)]))
            .collect();
        InversePalette { table }
    }

    fn nearest(&self, rgb: [u32; 3]) -> u8 {
        let c = rgb.map(|v| v.min(255) >> 3);
        self.table[(c[0] << 10 | c[1] << 5 | c[2]) as usize]
    }
}

/// A translucency table (`table[dest << 8 | src]`) blending `style`'s source over the
/// destination at ZDoom's 64 levels: `(src * level + dest * (64 - level)) / 64`, or with
/// additive `dest + src * level / 64` clamped; matched through `inverse`.
pub fn blend_table(palette: &[[u8; 3]], inverse: &InversePalette, style: LineStyle) -> Vec<u8> {
    let level = style.level();
    let colour = |i: usize| palette.get(i).copied().unwrap_or([0; 3]).map(u32::from);
    let mut out = Vec::with_capacity(65536);
    for dest in 0..256 {
        let d = colour(dest);
        for src in 0..256 {
            let s = colour(src);
            let mix: [u32; 3] = std::array::from_fn(|k| {
                if style.additive {
                    d[k] + s[k] * level / 64
                } else {
                    (s[k] * level + d[k] * (64 - level)) / 64
                }
            });
            out.push(inverse.nearest(mix));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::doom::map::{Linedef, UdmfExtra};

    fn lines(n: usize) -> Vec<Linedef> {
        vec![Linedef::default(); n]
    }

    #[test]
    fn udmf_alpha_renderstyle_and_strife_flags() {
        use UdmfValue::*;
        let field = |k: &str, v: UdmfValue| (k.to_string(), v);
        let extra = UdmfExtra {
            linedefs: vec![
                vec![field("alpha", Float(0.5))],
                vec![field("alpha", Float(0.5)), field("renderstyle", Str("Add".into()))],
                vec![field("translucent", Bool(true))],
                vec![field("alpha", Float(0.5)), field("transparent", Bool(true))],
                vec![field("alpha", Float(1.0))],
                vec![field("renderstyle", Str("fuzzy".into()))],
            ],
            ..Default::default()
        };
        let mut map = MapData {
            format: MapFormat::Udmf { namespace: "zdoom".into() },
            linedefs: lines(6),
            udmf: Some(Box::new(extra)),
            ..Default::default()
        };
        let mut notes = Vec::new();
        let s = read_line_styles(&map, &mut notes);
        let st = |alpha, additive| LineStyle { alpha, additive };
        assert_eq!(
            s,
            BTreeMap::from([
                (0, st(128, false)),
                (1, st(128, true)),
                (2, st(191, false)),
                (3, st(128, false))
            ])
        );
        assert_eq!(notes.len(), 1, "{notes:?}");
        // Strife reads the flags, not alpha; Doom's namespace neither.
        map.format = MapFormat::Udmf { namespace: "strife".into() };
        let s = read_line_styles(&map, &mut Vec::new());
        assert_eq!(s, BTreeMap::from([(2, st(191, false)), (3, st(64, false))]));
        map.format = MapFormat::Udmf { namespace: "doom".into() };
        assert!(read_line_styles(&map, &mut Vec::new()).is_empty());
    }

    #[test]
    fn translucent_line_targets_itself_or_its_id() {
        let mut l = lines(5);
        // Line 0: 208 with id 7 (gets id 7 itself), 100/255 additive.
        l[0].special = TRANSLUCENT_LINE;
        l[0].args = [7, 100, 1, 0, 0];
        // Line 2: id 7 by Line_SetIdentification; line 3: id 7 + 256 (arg4 = 1): not matched.
        l[2].special = LINE_SET_ID;
        l[2].args = [7, 0, 0, 0, 0];
        l[3].special = LINE_SET_ID;
        l[3].args = [7, 0, 0, 0, 1];
        // Line 4: 208 on itself, 0: not drawn.
        l[4].special = TRANSLUCENT_LINE;
        l[4].args = [0, 0, 0, 0, 0];
        let map = MapData { format: MapFormat::Hexen, linedefs: l, ..Default::default() };
        let s = read_line_styles(&map, &mut Vec::new());
        let add = LineStyle { alpha: 100, additive: true };
        assert_eq!(
            s,
            BTreeMap::from([(0, add), (2, add), (4, LineStyle { alpha: 0, additive: false })])
        );
        // Doom-numbered maps: 208 is no TranslucentLine.
        let doom = MapData { format: MapFormat::Doom, ..map };
        assert!(read_line_styles(&doom, &mut Vec::new()).is_empty());
    }

    #[test]
    fn the_last_translucent_line_reaching_a_line_wins() {
        let mut l = lines(5);
        // Line 0: id 5. Line 1: 208 on id 5 at 100 (line 1 has id 5 too). Line 2: 208 on
        // itself at 50, then line 3: 208 on id 5 at 200, read last for lines 0, 1 and 3.
        l[0].special = LINE_SET_ID;
        l[0].args = [5, 0, 0, 0, 0];
        l[1].special = TRANSLUCENT_LINE;
        l[1].args = [5, 100, 0, 0, 0];
        l[2].special = TRANSLUCENT_LINE;
        l[2].args = [0, 50, 0, 0, 0];
        l[3].special = TRANSLUCENT_LINE;
        l[3].args = [5, 200, 0, 0, 0];
        // Line 4: id 5, then a 208 on itself after line 3: its own wins.
        l[4].special = TRANSLUCENT_LINE;
        l[4].args = [0, 30, 0, 0, 0];
        let map = MapData { format: MapFormat::Hexen, linedefs: l, ..Default::default() };
        let s = read_line_styles(&map, &mut Vec::new());
        let at = |alpha| LineStyle { alpha, additive: false };
        assert_eq!(
            s,
            BTreeMap::from([(0, at(200)), (1, at(200)), (2, at(50)), (3, at(200)), (4, at(30))])
        );
    }
    #[test]
    fn tables_blend_at_zdoom_levels() {
        // A grey ramp palette: index i is (i, i, i).
        let palette: Vec<[u8; 3]> = (0..256).map(|i| [i as u8; 3]).collect();
        let inverse = InversePalette::new(&palette);
        let half = blend_table(&palette, &inverse, LineStyle { alpha: 128, additive: false });
        assert_eq!(LineStyle { alpha: 128, additive: false }.level(), 32);
        let near = |got: u8, want: i32| (got as i32 - want).abs() <= 8;
        assert!(near(half[200 << 8], 100), "{}", half[200 << 8]);
        assert!(near(half[100], 50), "{}", half[100]);
        let add = blend_table(&palette, &inverse, LineStyle { alpha: 255, additive: true });
        assert!(near(add[100 << 8 | 100], 200), "{}", add[100 << 8 | 100]);
        assert!(near(add[200 << 8 | 200], 255), "clamped: {}", add[200 << 8 | 200]);
        assert!(near(add[50 << 8], 50), "adding black keeps the destination");
    }
}
