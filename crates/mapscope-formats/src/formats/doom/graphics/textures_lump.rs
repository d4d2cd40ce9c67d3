//! ZDoom's `TEXTURES` text lump: textures composed of patches, like TEXTURE1/2 entries but
//! with more ways to place a patch.
//!
//! ```text
//! item       := kind ["optional"] name "," width "," height ["{" property* "}"]
//!             | "#include" string | "remap" name name | "define" name ["force32bit"] w h
//! kind       := Texture | WallTexture | Flat | Sprite | Graphic
//! property   := XScale n | YScale n | Offset x "," y | Offset2 x "," y | WorldPanning
//!             | NoDecals | NullTexture | NoTrim | part
//! part       := (Patch | Graphic | Sprite) name "," x "," y ["{" part_prop* "}"]
//! part_prop  := FlipX | FlipY | UseOffsets | Rotate n | Alpha n | Style word
//!             | Translation t ("," t)* | Blend colour ["," alpha] | Blend r "," g "," b ["," alpha]
//!             | Colormap r "," g "," b ["," r "," g "," b]
//! ```
//! Keywords are case-insensitive; names are words or quoted strings. As in GZDoom
//! (`FMultipatchTextureBuilder::ParseTexture`), an unknown texture property is an error and an
//! unknown word inside a part's braces is skipped (here with a note).
//!
//! What mapscope draws: parts placed at x, y, mirrored (`FlipX`, `FlipY`) and turned by
//! multiples of 90° (`Rotate`), `UseOffsets`, and the texture's scales (`XScale`, `YScale`,
//! `WorldPanning`: its size in the world). What it reads but does not draw is listed in each
//! definition's `ignored`: translations, blends, colour maps, alpha, blending styles and the
//! mirroring of negative scales.

use crate::formats::Result;

use crate::formats::doom::archive::wad::Lump;
use crate::formats::doom::script_tokens::{Scanner, Token};

/// What a definition defines, which decides what it replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefinitionKind {
    /// `Texture`: GZDoom's "override" type, replacing a wall texture and a flat of its name.
    Texture,
    WallTexture,
    Flat,
    Sprite,
    Graphic,
}

impl DefinitionKind {
    fn from_keyword(t: &Token) -> Option<DefinitionKind> {
        [
            ("texture", DefinitionKind::Texture),
            ("walltexture", DefinitionKind::WallTexture),
            ("flat", DefinitionKind::Flat),
            ("sprite", DefinitionKind::Sprite),
            ("graphic", DefinitionKind::Graphic),
        ]
        .into_iter()
        .find(|(k, _)| t.is_word(k))
        .map(|(_, kind)| kind)
    }

    pub fn replaces_walls(self) -> bool {
        matches!(self, DefinitionKind::Texture | DefinitionKind::WallTexture)
    }

    pub fn replaces_flats(self) -> bool {
        matches!(self, DefinitionKind::Texture | DefinitionKind::Flat)
    }
}

/// One picture placed in a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TexturesPart {
    /// Upper-cased unless it is a path (`textures/a.png`), which is kept as written.
    pub name: String,
    pub x: i32,
    pub y: i32,
    /// Mirrored left to right before turning.
    pub flip_x: bool,
    /// Quarter turns clockwise (0..3).
    pub turns: u8,
    /// Place the picture by its own offsets (x -= left, y -= top).
    pub use_offsets: bool,
}

/// One `Texture`/`WallTexture`/`Flat`/`Sprite`/`Graphic` block.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureDefinition {
    pub kind: DefinitionKind,
    /// Upper-cased.
    pub name: String,
    pub width: i64,
    pub height: i64,
    /// `optional`: GZDoom skips such a texture silently when a patch is missing.
    pub optional: bool,
    /// `NullTexture`: never drawn, like texture number 0.
    pub null_texture: bool,
    pub parts: Vec<TexturesPart>,
    /// `XScale` / `YScale`: texels per map unit (GZDoom draws a texture 1/scale as large in
    /// the world); a negative scale is drawn as its size (the mirroring is in `ignored`).
    pub x_scale: f64,
    pub y_scale: f64,
    /// `WorldPanning`: sidedef offsets in map units rather than texels.
    pub world_panning: bool,
    /// `Offset x, y`: the picture's left and top offsets, which place a sprite over its
    /// thing (walls and flats ignore them).
    pub origin: (i32, i32),
    /// What is read but not drawn, such as `patch P1: Translation`.
    pub ignored: Vec<String>,
    /// File offset of the definition's keyword.
    pub offset: u64,
}

/// One top-level item of the lump.
#[derive(Clone, Debug, PartialEq)]
pub enum TexturesItem {
    Definition(TextureDefinition),
    /// `#include "name"`: another lump parsed at this point.
    Include {
        name: String,
        offset: u64,
    },
    /// A HIRESTEX-style `remap` or `define`, which replaces pictures by high-resolution ones
    /// (not drawn by mapscope); the keyword and the name.
    HiresEntry {
        keyword: String,
        name: String,
    },
}

/// Parses a TEXTURES lump. Malformed syntax is an error naming the file offset and line.
pub fn parse_textures_lump(lump: &Lump<'_>) -> Result<Vec<TexturesItem>> {
    let mut s = Scanner::new(lump, "TEXTURES")?;
    let mut items = Vec::new();
    while let Some(t) = s.next_token()? {
        if let Some(kind) = DefinitionKind::from_keyword(&t) {
            items.push(TexturesItem::Definition(definition(&mut s, kind, &t)?));
        } else if t.is_word("#include") {
            let (name, at) = s.expect_text("the name of the lump to include")?;
            items.push(TexturesItem::Include { name, offset: s.file_offset(at.at) });
        } else if t.is_word("remap") {
            let (name, _) = s.expect_text("the texture to remap")?;
            s.expect_text("the lump to remap it to")?;
            items.push(TexturesItem::HiresEntry { keyword: "remap".into(), name });
        } else if t.is_word("define") {
            let (name, _) = s.expect_text("the lump to define")?;
            if s.peek()?.is_some_and(|t| t.is_word("force32bit")) {
                s.next_token()?;
            }
            s.expect_int("the defined width")?;
            s.expect_int("the defined height")?;
            items.push(TexturesItem::HiresEntry { keyword: "define".into(), name });
        } else {
            return Err(
                s.error_on(&t, format!("texture definition expected, found {}", t.describe()))
            );
        }
    }
    Ok(items)
}

fn definition(
    s: &mut Scanner<'_>,
    kind: DefinitionKind,
    keyword: &Token,
) -> Result<TextureDefinition> {
    let (mut name, name_token) = s.expect_text("a texture name")?;
    let mut optional = false;
    // `optional` before the name, unless it is itself the name ("optional", 64, 64).
    if name_token.is_word("optional") && !s.peek()?.is_some_and(|t| t.is_punct(',')) {
        optional = true;
        name = s.expect_text("a texture name")?.0;
    }
    let name = name.to_ascii_uppercase();
    s.expect_punct(',', "after the texture name")?;
    let width = s.expect_int("the texture width")?;
    s.expect_punct(',', "after the width")?;
    let height = s.expect_int("the texture height")?;
    let mut def = TextureDefinition {
        kind,
        name,
        width,
        height,
        optional,
        null_texture: false,
        parts: Vec::new(),
        x_scale: 1.0,
        y_scale: 1.0,
        world_panning: false,
        origin: (0, 0),
        ignored: Vec::new(),
        offset: s.file_offset(keyword.at),
    };
    if !s.check_punct('{')? {
        return Ok(def);
    }
    loop {
        let t = s.expect_any("a texture property or '}'")?;
        if t.is_punct('}') {
            return Ok(def);
        }
        if t.is_word("xscale") || t.is_word("yscale") {
            let v = s.expect_float("the scale")?;
            if v == 0.0 {
                return Err(s.error_on(&t, format!("texture {} has a null scale", def.name)));
            }
            if !v.is_finite() {
                return Err(s.error_on(&t, format!("texture {} has a bad scale", def.name)));
            }
            if v < 0.0 {
                def.ignored.push(format!("{} {v} (mirroring)", t.text().unwrap_or_default()));
            }
            if t.is_word("xscale") {
                def.x_scale = v.abs();
            } else {
                def.y_scale = v.abs();
            }
        } else if t.is_word("offset") || t.is_word("offset2") {
            // Offsets place sprites and screen graphics, never walls or flats; `Offset2` is
            // GZDoom's second set, for its sprite clipping, not drawn.
            let x = s.expect_i32("the x offset")?;
            s.expect_punct(',', "between the offsets")?;
            let y = s.expect_i32("the y offset")?;
            if t.is_word("offset") {
                def.origin = (x, y);
            }
        } else if t.is_word("nulltexture") {
            def.null_texture = true;
        } else if t.is_word("worldpanning") {
            def.world_panning = true;
        } else if ["nodecals", "notrim"].iter().any(|k| t.is_word(k)) {
            // Decals and trimming are not drawn.
        } else if t.is_word("patch") || t.is_word("graphic") || t.is_word("sprite") {
            def.parts.push(part(s, &mut def.ignored)?);
        } else {
            return Err(s.error_on(&t, format!("unknown texture property {}", t.describe())));
        }
    }
}

fn part(s: &mut Scanner<'_>, ignored: &mut Vec<String>) -> Result<TexturesPart> {
    let (raw, _) = s.expect_text("a patch name")?;
    let name = if raw.contains('/') { raw } else { raw.to_ascii_uppercase() };
    s.expect_punct(',', "after the patch name")?;
    let x = s.expect_i32("the patch x")?;
    s.expect_punct(',', "after the patch x")?;
    let y = s.expect_i32("the patch y")?;
    let mut part = TexturesPart { x, y, name, flip_x: false, turns: 0, use_offsets: false };
    let mut flip_y = false;
    if s.check_punct('{')? {
        loop {
            let t = s.expect_any("a patch property or '}'")?;
            if t.is_punct('}') {
                break;
            }
            let mut ignore =
                |detail: String| ignored.push(format!("patch {}: {detail}", part.name));
            if t.is_word("flipx") {
                part.flip_x = true;
            } else if t.is_word("flipy") {
                flip_y = true;
            } else if t.is_word("useoffsets") {
                part.use_offsets = true;
            } else if t.is_word("rotate") {
                let v = s.expect_int("the rotation")?;
                // GZDoom folds the angle to -90..270 and takes quarter turns clockwise.
                let folded = (v + 90) % 360 - 90;
                if ![0, 90, 180, -90].contains(&folded) {
                    return Err(s.error_on(&t, format!("rotation {v} is not a multiple of 90")));
                }
                part.turns = (folded / 90).rem_euclid(4) as u8;
            } else if t.is_word("alpha") {
                let a = s.expect_float("the alpha")?;
                if a < 1.0 {
                    ignore(format!("Alpha {a}"));
                }
            } else if t.is_word("style") {
                let (style, st) = s.expect_text("a blending style")?;
                const STYLES: [&str; 9] = [
                    "copy",
                    "translucent",
                    "add",
                    "subtract",
                    "reversesubtract",
                    "modulate",
                    "copyalpha",
                    "copynewalpha",
                    "overlay",
                ];
                if !STYLES.iter().any(|k| style.eq_ignore_ascii_case(k)) {
                    return Err(s.error_on(&st, format!("unknown blending style '{style}'")));
                }
                if !style.eq_ignore_ascii_case("copy") {
                    ignore(format!("Style {style}"));
                }
            } else if t.is_word("translation") {
                let (first, _) = s.expect_text("a translation")?;
                let mut shown = vec![first.clone()];
                if first.eq_ignore_ascii_case("desaturate") {
                    s.expect_punct(',', "after Desaturate")?;
                    shown.push(s.expect_int("the desaturation amount")?.to_string());
                } else {
                    while s.check_punct(',')? {
                        shown.push(s.expect_text("a translation")?.0);
                    }
                }
                ignore(format!("Translation {}", shown.join(", ")));
            } else if t.is_word("blend") {
                let colour = if s.next_is_int()? {
                    let r = s.expect_int("red")?;
                    s.expect_punct(',', "after red")?;
                    let g = s.expect_int("green")?;
                    s.expect_punct(',', "after green")?;
                    format!("{r} {g} {}", s.expect_int("blue")?)
                } else {
                    s.expect_text("a blend colour")?.0
                };
                if s.check_punct(',')? {
                    s.expect_float("the blend alpha")?;
                }
                ignore(format!("Blend {colour}"));
            } else if t.is_word("colormap") {
                s.expect_float("red")?;
                for _ in 0..2 {
                    s.expect_punct(',', "between colour map values")?;
                    s.expect_float("a colour map value")?;
                }
                if s.check_punct(',')? {
                    s.expect_float("red")?;
                    for _ in 0..2 {
                        s.expect_punct(',', "between colour map values")?;
                        s.expect_float("a colour map value")?;
                    }
                }
                ignore("Colormap".into());
            } else {
                ignore(format!("unknown word {} skipped", t.describe()));
            }
        }
    }
    if flip_y {
        // A vertical mirror is a half turn of the horizontally mirrored picture.
        part.turns = (part.turns + 2) & 3;
        part.flip_x = !part.flip_x;
    }
    Ok(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<TexturesItem>> {
        let lump =
            Lump { name: "TEXTURES", data: text.as_bytes(), file: "t.pk3:textures.txt", offset: 0 };
        parse_textures_lump(&lump)
    }

    fn definitions(text: &str) -> Vec<TextureDefinition> {
        parse(text)
            .unwrap()
            .into_iter()
            .filter_map(|i| match i {
                TexturesItem::Definition(d) => Some(d),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn definitions_parts_and_placement() {
        let d = definitions(
            r#"
            // a comment
            WallTexture "BIGDOOR9", 128, 96
            {
                XScale 2.0
                Offset 4, -4
                Patch "DOOR2_4", 0, 0
                patch W94_1, 64, -8 { FlipX Rotate 90 }
                Graphic "textures/Wide.png", 1, 2 { flipy useoffsets }
            }
            Texture optional NOFLAT, 64, 64
            flat optional, 64, 64 { NullTexture }
            sprite TROOZ1, 40, 50 { Patch TROOA1, 0, 0 { Translation "112:127=64:79", "1:2=3:4" Blend "ff0000", 0.5 Style Add Alpha 0.5 } }
            "#,
        );
        assert_eq!(d.len(), 4);
        let big = &d[0];
        assert_eq!(
            (big.kind, big.name.as_str(), big.width, big.height),
            (DefinitionKind::WallTexture, "BIGDOOR9", 128, 96)
        );
        assert_eq!(big.parts.len(), 3);
        assert_eq!(
            big.parts[1],
            TexturesPart {
                name: "W94_1".into(),
                x: 64,
                y: -8,
                flip_x: true,
                turns: 1,
                use_offsets: false
            }
        );
        assert_eq!(big.parts[2].name, "textures/Wide.png");
        assert_eq!(
            (big.parts[2].flip_x, big.parts[2].turns, big.parts[2].use_offsets),
            (true, 2, true)
        );
        assert!(big.ignored.is_empty(), "{:?}", big.ignored);
        assert_eq!((big.x_scale, big.y_scale, big.world_panning), (2.0, 1.0, false));
        assert!(d[1].optional && d[1].name == "NOFLAT" && d[1].kind.replaces_flats());
        assert!(!d[2].optional && d[2].name == "OPTIONAL" && d[2].null_texture);
        let ignored = &d[3].ignored;
        assert_eq!(ignored.len(), 4, "{ignored:?}");
        assert!(ignored[0].contains("Translation 112:127=64:79, 1:2=3:4"));
        assert!(ignored[1].contains("Blend ff0000") && ignored[2].contains("Style Add"));
    }

    #[test]
    fn rotations_fold_as_gzdoom() {
        let turns = |r: &str| {
            definitions(&format!("Texture T, 8, 8 {{ Patch P, 0, 0 {{ Rotate {r} }} }}"))[0].parts
                [0]
            .turns
        };
        assert_eq!(
            [turns("0"), turns("90"), turns("180"), turns("270"), turns("-90"), turns("450")],
            [0, 1, 2, 3, 3, 1]
        );
        let e = parse("Texture T, 8, 8 { Patch P, 0, 0 { Rotate 45 } }").unwrap_err();
        assert!(e.message.contains("not a multiple of 90"), "{e}");
    }

    #[test]
    fn includes_and_hires_entries_are_listed() {
        let items =
            parse("#include \"other.txt\"\nremap A B\ndefine C force32bit 64 64\n").unwrap();
        assert_eq!(items[0], TexturesItem::Include { name: "other.txt".into(), offset: 9 });
        assert!(
            matches!(&items[1], TexturesItem::HiresEntry { keyword, name } if keyword == "remap" && name == "A")
        );
        assert!(matches!(&items[2], TexturesItem::HiresEntry { name, .. } if name == "C"));
    }

    #[test]
    fn malformed_lumps_are_errors_with_offsets() {
        let cases = [
            ("Texture A, 64\n", 14, "end of the lump"),
            ("Texture A 64, 64", 10, "expected ','"),
            ("WallTexture A, 64, 64 { Bogus 1 }", 24, "unknown texture property 'Bogus'"),
            ("Texture A, 64, 64 { Patch P, x, 0 }", 29, "the patch x (an integer)"),
            ("Texture A, 64, 64 { XScale 0 }", 20, "null scale"),
            ("Textur A, 64, 64", 0, "texture definition expected"),
            ("Texture A, 64, 64 { Patch P, 0, 0 { Style Weird } }", 42, "unknown blending style"),
            ("Texture \"A, 64, 64", 8, "unterminated"),
            ("Texture A, 64, 64 { Patch P, 0, 0", 33, "end of the lump"),
            ("Texture A, 64, 64 { Patch P, 99999999999, 0 }", 29, "out of range"),
        ];
        for (text, offset, says) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!((e.file.as_str(), e.structure.as_str()), ("t.pk3:textures.txt", "TEXTURES"));
            assert_eq!(e.offset, offset, "{text}: {e}");
            assert!(e.message.contains(says), "{text}: {e}");
        }
    }
}
