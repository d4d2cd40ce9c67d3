//! Doom resource containers as GZDoom loads them, from packages built here out of Freedoom:
//! a PK3 whose `maps/MAP01.wad` is Freedoom's MAP01 and whose `textures/` replaces a wall
//! texture with a PNG opens stacked on freedoom2.wad, and the PNG's colours are drawn; a
//! TEXTURES lump composes new textures from Freedoom's patches (placed, mirrored, turned) and
//! overrides TEXTURE1 by name; PNG patches, flats and sprites in a plain PWAD are decoded with
//! their grAb offsets; corrupt packages, PNGs and TEXTURES give errors that name the member
//! and the offset.

use crate::support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use mapscope::formats::doom::graphics::palette::load_palette;
use mapscope::formats::doom::graphics::picture::Picture;
use mapscope::formats::doom::graphics::textures::TextureDirectory;
use mapscope::formats::doom::{DoomLevel, WadStack};
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::scene::{Scene, Texels, Texture};
use support::{freedoom2, mapscope, success, TempDir};

/// The wall Freedoom's MAP01 starts facing, above and around the opening: a 128x128 texture
/// made of the single patch of the same name.
pub(crate) const WALL: &str = "AQRUST08";

/// Freedoom's MAP01 lumps in a PWAD; `rename` replaces sidedef texture names.
fn map01_wad(rename: Option<(&str, &str)>) -> Vec<u8> {
    freedoom_map01_as("MAP01", rename.as_slice())
}

/// Freedoom's MAP01 lumps in a PWAD under the marker `marker`, each of `renames` replacing a
/// sidedef texture name.
pub(crate) fn freedoom_map01_as(marker: &str, renames: &[(&str, &str)]) -> Vec<u8> {
    let iwad = Wad::open(&freedoom2()).unwrap();
    let at = iwad.lumps().iter().position(|l| l.name == "MAP01").unwrap();
    let mut w = WadWriter::pwad();
    w.marker(marker);
    for (i, info) in iwad.lumps().iter().enumerate().skip(at + 1).take(10) {
        let mut data = iwad.lump(i).unwrap().data.to_vec();
        if info.name == "SIDEDEFS" {
            for side in data.chunks_exact_mut(30) {
                for field in [4, 12, 20] {
                    for (from, to) in renames {
                        if &side[field..field + 8] == name8(from).as_slice() {
                            side[field..field + 8].copy_from_slice(&name8(to));
                        }
                    }
                }
            }
        }
        w.lump(&info.name, data);
    }
    w.to_bytes()
}

fn name8(name: &str) -> [u8; 8] {
    let mut out = [0u8; 8];
    out[..name.len()].copy_from_slice(name.as_bytes());
    out
}

/// An RGBA PNG filled with `rgba`, with a `grAb` chunk when offsets are given.
pub(crate) fn png(w: u32, h: u32, rgba: [u8; 4], grab: Option<(i32, i32)>) -> Vec<u8> {
    mapscope::formats::doom::archive::writer::png_lump(w, h, &rgba.repeat((w * h) as usize), grab)
        .expect("PNG of w x h pixels")
}

fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in members {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

fn write(dir: &TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Freedoom's palette 0.
fn palette() -> &'static Vec<[u8; 3]> {
    static PAL: OnceLock<Vec<[u8; 3]>> = OnceLock::new();
    PAL.get_or_init(|| load_palette(&WadStack::open(&[freedoom2()]).unwrap()).unwrap())
}

/// The palette index a colour should become: the nearest entry by squared RGB distance, the
/// lowest index on ties (the rule documented in `palette_match`), computed independently.
fn nearest(rgb: [u8; 3]) -> u8 {
    let d = |c: &[u8; 3]| (0..3).map(|k| (c[k] as i32 - rgb[k] as i32).pow(2)).sum::<i32>();
    let pal = palette();
    (0..pal.len()).min_by_key(|&i| (d(&pal[i]), i)).unwrap() as u8
}

fn texture<'a>(scene: &'a Scene, name: &str) -> &'a Texture {
    scene.textures.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no texture {name}"))
}

fn indices(t: &Texture) -> &[u8] {
    match &t.texels {
        Texels::Indexed { index, .. } => index,
        Texels::Rgba(_) => panic!("{} is not indexed", t.name),
    }
}

fn build(files: &[PathBuf]) -> Scene {
    let source = mapscope::loader::open(files, &Default::default()).unwrap();
    assert_eq!(source.format(), "Doom");
    source.build(Some("MAP01")).unwrap_or_else(|e| panic!("{e:#}"))
}

fn render(scene: &mut Scene) -> image::RgbaImage {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    let gpu = GPU.get_or_init(|| Gpu::headless().expect("a Vulkan or GL adapter"));
    let camera = scene.spawn;
    let view = ViewSettings { width: 320, height: 200, ..Default::default() };
    render_headless(gpu, scene, &camera, &view, 0).unwrap()
}

/// Pixels whose green clearly dominates (the PNG's green, through COLORMAP's shades).
pub(crate) fn green_pixels(img: &image::RgbaImage) -> usize {
    img.pixels()
        .filter(|p| p[1] as i32 > p[0] as i32 + 40 && p[1] as i32 > p[2] as i32 + 40)
        .count()
}

pub(crate) const GREEN: [u8; 4] = [40, 230, 40, 255];

fn green_package(dir: &TempDir) -> PathBuf {
    let data = zip(&[
        ("maps/MAP01.wad", &map01_wad(None)),
        (&format!("textures/{}.png", WALL.to_ascii_lowercase()), &png(128, 128, GREEN, None)),
    ]);
    write(dir, "green.pk3", &data)
}

#[test]
fn a_pk3_map_on_freedoom2_draws_the_packages_png_texture() {
    let dir = TempDir::new("pk3-green");
    let pk3 = green_package(&dir);
    let files = [freedoom2(), pk3.clone()];

    let stack = WadStack::open(&files).unwrap();
    let map = stack.map("MAP01").unwrap();
    assert!(map.file.ends_with("green.pk3:maps/MAP01.wad"), "map read from {}", map.file);

    let mut scene = build(&files);
    let wall = texture(&scene, WALL);
    assert_eq!((wall.width, wall.height), (128, 128));
    let green = nearest([GREEN[0], GREEN[1], GREEN[2]]);
    assert!(indices(wall).iter().all(|&i| i == green), "every texel is the PNG's colour");

    let with_png = render(&mut scene);
    with_png.save(dir.join("with-png.png")).unwrap();
    let mut plain = build(&[freedoom2()]);
    let without = render(&mut plain);
    let (g, g0) = (green_pixels(&with_png), green_pixels(&without));
    eprintln!("green pixels: {g} with the package, {g0} without");
    assert!(g > 3000 && g0 < 50, "{g} green pixels with the package, {g0} without");

    // The command line takes the same stack, and the package alone (no IWAD) is Doom too.
    let (iwad, pk3s) = (freedoom2().display().to_string(), pk3.display().to_string());
    let out = success(&mapscope(["list", &iwad, &pk3s]), "mapscope list");
    assert!(out.lines().any(|l| l.starts_with("MAP01\tDoom")), "{out}");
    let out = success(&mapscope(["info", &iwad, &pk3s, "--map", "MAP01"]), "mapscope info");
    assert!(out.contains("map: MAP01") && out.contains(WALL), "{out}");
    let shot = dir.join("cli.png");
    let args = ["render", &iwad, &pk3s, "--map", "MAP01", "--size", "320x200", "-o"];
    let mut args: Vec<&str> = args.to_vec();
    let shot_s = shot.display().to_string();
    args.push(&shot_s);
    success(&mapscope(&args), "mapscope render");
    let cli = image::open(&shot).unwrap().to_rgba8();
    assert!(green_pixels(&cli) > 3000, "the CLI's render shows the PNG");
    let out = success(&mapscope(["list", &pk3s]), "mapscope list of the package alone");
    assert!(out.lines().any(|l| l.starts_with("MAP01\t")), "{out}");
}

#[test]
fn a_textures_lump_composes_freedoom_patches_and_overrides_texture1() {
    let dir = TempDir::new("pk3-textures");
    let textures = format!(
        r#"// Freedoom's {WALL} patch twice: as it is, then mirrored and turned a quarter right.
        WallTexture "PK3COMP", 256, 128
        {{
            XScale 2.0
            Patch "{WALL}", 0, 0
            Patch {WALL}, 128, 0 {{ FlipX Rotate 90 Translation "0:255=0:0" }}
        }}
        /* Replaces TEXTURE1's SILVER1 (64x128), keeping its number. */
        Texture SILVER1, 64, 64 {{ Patch RW32_1, 0, 0 }}
        "#
    );
    let data = zip(&[
        ("maps/MAP01.wad", &map01_wad(Some((WALL, "PK3COMP")))),
        ("TEXTURES.txt", textures.as_bytes()),
    ]);
    let pk3 = write(&dir, "textures.pk3", &data);
    let files = [freedoom2(), pk3];
    let scene = build(&files);

    let stack = WadStack::open(&files).unwrap();
    let patch = Picture::parse(&stack.lump(WALL).unwrap()).unwrap();
    assert_eq!((patch.width, patch.height), (128, 128));
    let comp = texture(&scene, "PK3COMP");
    assert_eq!((comp.width, comp.height), (256, 128), "GZDoom's widths are not masked");
    let texels = indices(comp);
    let src = |x: usize, y: usize| patch.index[y * 128 + x];
    for y in 0..128 {
        for x in 0..128 {
            assert_eq!(texels[y * 256 + x], src(x, y), "left half at {x},{y}");
            // Mirrored, then a quarter turn clockwise.
            assert_eq!(texels[y * 256 + 128 + x], src(127 - y, 127 - x), "right half at {x},{y}");
        }
    }
    let said = scene.facts.notes.iter().find(|n| n.contains("TEXTURES: read but not drawn"));
    let said = said.unwrap_or_else(|| panic!("{:#?}", scene.facts.notes));
    // XScale is drawn now (tests/doom/texture_scale.rs); the translation is not.
    assert!(!said.contains("XScale") && said.contains("Translation 0:255=0:0"), "{said}");
    let scale = TextureDirectory::load(&stack).unwrap();
    let comp_def = &scale.defs[scale.number("PK3COMP").unwrap()];
    assert_eq!(comp_def.scale.units(), [2.0, 1.0], "XScale 2 kept for drawing");
    assert!(said.contains("textures.pk3:TEXTURES.txt"), "{said}");

    let vanilla = TextureDirectory::load(&WadStack::open(&[freedoom2()]).unwrap()).unwrap();
    let dir_now = TextureDirectory::load(&stack).unwrap();
    assert_eq!(dir_now.number("SILVER1"), vanilla.number("SILVER1"), "number kept");
    let silver = texture(&scene, "SILVER1");
    assert_eq!((silver.width, silver.height), (64, 64), "TEXTURE1 says 64x128");
    let rw32 = Picture::parse(&stack.lump("RW32_1").unwrap()).unwrap();
    for (x, y) in [(0, 0), (7, 5), (63, 63)] {
        assert_eq!(indices(silver)[y * 64 + x], rw32.index[y * rw32.width as usize + x]);
    }
}

#[test]
fn png_patches_flats_and_sprites_in_a_pwad_are_decoded() {
    let dir = TempDir::new("pwad-png");
    let stack = WadStack::open(&[freedoom2()]).unwrap();
    let level = DoomLevel::load(&stack, "MAP01").unwrap();
    let start = level.player_start.unwrap();
    let floor = level.map.sectors[start.sector.unwrap()].floor_flat.clone();
    let plain = build(&[freedoom2()]);
    let sprite = plain.sprites[0].views[0].texture as usize;
    let sprite = plain.textures[sprite].name.clone();

    let (red, blue, yellow) = ([220, 30, 30, 255], [30, 30, 220, 255], [250, 250, 0, 255]);
    let mut w = WadWriter::pwad();
    w.lump(WALL, png(128, 128, red, Some((7, -3))))
        .marker("FF_START")
        .lump(&floor, png(64, 64, blue, None))
        .marker("FF_END")
        .marker("SS_START")
        .lump(&sprite, png(20, 30, yellow, Some((10, 28))))
        .marker("SS_END");
    let pwad = write(&dir, "png.wad", &w.to_bytes());
    let files = [freedoom2(), pwad];
    let scene = build(&files);

    let rgb = |c: [u8; 4]| nearest([c[0], c[1], c[2]]);
    assert!(indices(texture(&scene, WALL)).iter().all(|&i| i == rgb(red)), "PNG patch");
    let flat = texture(&scene, &floor);
    assert_eq!((flat.width, flat.height), (64, 64));
    assert!(indices(flat).iter().all(|&i| i == rgb(blue)), "PNG flat {floor}");
    let spr = texture(&scene, &sprite);
    assert_eq!((spr.width, spr.height, spr.origin), (20, 30, (10, 28)), "grAb offsets");
    assert!(indices(spr).iter().all(|&i| i == rgb(yellow)), "PNG sprite {sprite}");

    let both = WadStack::open(&files).unwrap();
    let patch = both.lump(WALL).unwrap();
    let mut colours =
        mapscope::formats::doom::graphics::palette_match::PaletteMatcher::new(palette());
    let pic = Picture::decode(&patch, &mut colours).unwrap();
    assert_eq!((pic.left, pic.top), (7, -3));
}

#[test]
fn corrupt_packages_pngs_and_textures_lumps_are_clear_errors() {
    let dir = TempDir::new("pk3-corrupt");
    let (iwad, good) = (freedoom2(), green_package(&dir));

    // A package cut in half: no central directory.
    let bytes = std::fs::read(&good).unwrap();
    let cut = write(&dir, "cut.pk3", &bytes[..bytes.len() / 2]);
    let e = WadStack::open(&[iwad.clone(), cut.clone()]).err().unwrap().to_string();
    assert!(
        e.contains("cut.pk3: zip central directory at offset 0")
            && e.contains("not a readable zip"),
        "{e}"
    );
    let out = mapscope([Path::new("list"), iwad.as_path(), cut.as_path()]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cut.pk3: zip central directory"));

    // TEXTURES with a missing comma: the error names the member, offset and line.
    let data = zip(&[
        ("maps/MAP01.wad", &map01_wad(None)),
        ("textures.txt", b"// broken\nWallTexture BROKEN, 64 64\n"),
    ]);
    let pk3 = write(&dir, "syntax.pk3", &data);
    let source = mapscope::loader::open(&[iwad.clone(), pk3], &Default::default()).unwrap();
    let e = format!("{:#}", source.build(Some("MAP01")).err().unwrap());
    assert!(e.contains("syntax.pk3:textures.txt: TEXTURES at offset 33"), "{e}");
    assert!(e.contains("line 2: expected ',' after the width, found '64'"), "{e}");

    // A PNG whose image data is damaged: the map still opens, the texture is a placeholder
    // and a note names the member and what failed.
    let mut broken = png(128, 128, GREEN, None);
    let idat = broken.windows(4).position(|w| w == b"IDAT").unwrap();
    broken[idat + 8] ^= 0xFF;
    let data = zip(&[("maps/MAP01.wad", &map01_wad(None)), ("textures/aqrust08.png", &broken)]);
    let pk3 = write(&dir, "badpng.pk3", &data);
    let scene = build(&[iwad.clone(), pk3]);
    let note = scene.facts.notes.iter().find(|n| n.contains("badpng.pk3:textures/aqrust08.png"));
    let note = note.unwrap_or_else(|| panic!("{:#?}", scene.facts.notes));
    assert!(note.contains("PNG image data at offset 0"), "{note}");
    let placeholder = indices(texture(&scene, WALL));
    assert!(placeholder.contains(&176) && placeholder.contains(&0), "drawn as a placeholder");

    // Other games' zips stay theirs: Saucerman's package is not taken for a Doom package.
    let pak = support::fixture("saucer/Saucerdata.pak");
    let source = mapscope::loader::open(&[pak], &Default::default()).unwrap();
    assert_ne!(source.format(), "Doom");
}
