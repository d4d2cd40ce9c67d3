//! A GZDoom mod's folder given as GZDoom's `-file folder/` takes it: a folder built here
//! (`maps/MAP01.wad`, a `textures/` picture a TEXTURES variant makes a wall texture, a WAD at
//! its top) opens over freedoom2.wad in `list`, `info` and `render`, draws the picture's
//! colour and says where a texture it lacks is asked for; the vgp-deathmatch mod folder misses
//! a tenth of the textures its map WAD alone misses; folders that are bad (a link cycle, a
//! member past the limit, nested too deep) or are no mod give clear errors.

use crate::support;

use std::path::{Path, PathBuf};

use super::pk3::{freedoom_map01_as, green_pixels, png, GREEN, WALL};
use mapscope::formats::doom::WadStack;
use support::{freedoom2, mapscope, shared, success, TempDir};

/// Writes `bytes` at `rel` below `dir`, making the folders on the way.
fn put(dir: &Path, rel: &str, bytes: &[u8]) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn arg(p: &Path) -> String {
    p.display().to_string()
}

/// Stderr of a run that must fail.
fn failure(args: &[&str]) -> String {
    let out = mapscope(args);
    assert!(!out.status.success(), "mapscope {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A count `info` prints ("  textures_missing: 3").
fn count(info: &str, key: &str) -> u64 {
    let line = info.lines().find(|l| l.trim_start().starts_with(&format!("{key}: ")));
    let line = line.unwrap_or_else(|| panic!("no {key} in:\n{info}"));
    line.rsplit(' ').next().unwrap().parse().unwrap()
}

/// The mod: Freedoom's MAP01 whose facing wall is GRNWALL, a texture `TEXTURES.mymod` makes
/// of the green picture `textures/walls/grnpic.png`, and whose exit sign is NOSUCHTX, which
/// nothing has; a top WAD adds MAP33.
fn green_mod(dir: &TempDir) -> PathBuf {
    let root = dir.join("greenmod");
    let map = freedoom_map01_as("MAP01", &[(WALL, "GRNWALL"), ("EXITSGN2", "NOSUCHTX")]);
    put(&root, "maps/MAP01.wad", &map);
    put(&root, "textures/walls/grnpic.png", &png(128, 128, GREEN, None));
    put(&root, "TEXTURES.mymod", b"Texture GRNWALL, 128, 128 { Patch GRNPIC, 0, 0 }");
    put(&root, "extra.wad", &freedoom_map01_as("MAP33", &[]));
    put(&root, ".git/TEXTURES", b"not read: hidden");
    root
}

#[test]
fn a_mod_folder_on_freedoom2_is_listed_described_and_drawn() {
    let dir = TempDir::new("folder-mod");
    let root = green_mod(&dir);
    let (iwad, folder) = (arg(&freedoom2()), arg(&root));

    let stack = WadStack::open(&[freedoom2(), root.clone()]).unwrap();
    let map = stack.map("MAP01").unwrap();
    assert_eq!(map.file, format!("{folder}/maps/MAP01.wad"), "members named by their path");

    let out = success(&mapscope(["list", &iwad, &folder]), "list");
    assert!(out.lines().any(|l| l.starts_with("MAP01\t")), "{out}");
    assert!(out.lines().last().is_some_and(|l| l.starts_with("MAP33\t")), "top WAD last: {out}");

    let info = success(&mapscope(["info", &iwad, &folder, "--map", "MAP01"]), "info");
    assert_eq!(count(&info, "textures_missing"), 1, "GRNWALL found, NOSUCHTX not:\n{info}");
    let note = info.lines().find(|l| l.contains("texture NOSUCHTX not found"));
    let note = note.unwrap_or_else(|| panic!("no note on NOSUCHTX:\n{info}"));
    assert!(note.contains("asked for") && note.contains("sidedef "), "{note}");

    let shot = dir.join("shot.png");
    let args = ["render", &iwad, &folder, "--map", "MAP01", "--size", "320x200", "-o"];
    success(&mapscope([&args[..], &[arg(&shot).as_str()]].concat()), "render");
    let image = image::open(&shot).unwrap().to_rgba8();
    if let Some(out) = support::renders_dir("folder") {
        image.save(out.join("greenmod-map01.png")).unwrap();
    }
    assert!(green_pixels(&image) > 3000, "the folder's picture is drawn on the facing wall");

    // The shot records the folder among its files, and its files open again from it.
    let again = dir.join("again.png");
    success(&mapscope(["render", "--from-shot", &arg(&shot), "-o", &arg(&again)]), "from-shot");
    assert_eq!(image::open(&again).unwrap().to_rgba8(), image, "the same frame again");

    // Alone, the mod lists its maps but cannot be drawn without the game's palette.
    let out = success(&mapscope(["list", &folder]), "list of the folder alone");
    assert_eq!(out.lines().count(), 2, "MAP01 and MAP33: {out}");
    let e = failure(&["info", &folder]);
    assert!(e.contains("no IWAD with these files: give the IWAD first"), "{e}");
}

#[test]
fn vgp_deathmatch_misses_a_tenth_of_what_its_map_wad_alone_misses() {
    let folder = shared("realmaps/doom/vgp-deathmatch");
    let (iwad, folder_s) = (arg(&freedoom2()), arg(&folder));
    let wad = arg(&folder.join("maps/VGPDM03.wad"));
    let missing = |info: &str| count(info, "textures_missing") + count(info, "flats_missing");
    let alone = success(&mapscope(["info", &iwad, &wad, "--map", "VGPDM03"]), "info, WAD");
    let with = success(&mapscope(["info", &iwad, &folder_s, "--map", "VGPDM03"]), "info");
    let (alone, with_info) = (missing(&alone), with);
    let with = missing(&with_info);
    eprintln!(
        "VGPDM03: {alone} textures and flats missing from its WAD alone, {with} with the mod"
    );
    assert!(alone >= 50 && with * 10 <= alone, "{alone} alone, {with} with:\n{with_info}");
    assert!(!with_info.contains("unknown patch"), "TEXTURES.ench's patches found:\n{with_info}");
    // Its 127 dynamic lights, skybox viewpoint and bridge are GZDoom's own things, which draw
    // nothing: placed as markers, none left unknown.
    assert!(
        with_info.contains(
            "GZDoom's own things that draw no sprite, placed as markers: dynamic light 125"
        ),
        "{with_info}"
    );
    assert!(!with_info.contains("unknown thing types"), "{with_info}");
    assert!(count(&with_info, "things_spawned") >= 170, "{with_info}");

    // Drawn: the WAD alone is mostly placeholders (red and black); the mod is textured.
    let render = |files: &[&str], name: &str| {
        let out = std::env::temp_dir().join(format!("mapscope-vgp-{}-{name}", std::process::id()));
        let args = ["--map", "VGPDM03", "--size", "320x200", "-o", &arg(&out)];
        success(&mapscope([&["render"], files, &args[..]].concat()), "render");
        let image = image::open(&out).unwrap().to_rgba8();
        let _ = std::fs::remove_file(&out);
        if let Some(dir) = support::renders_dir("folder") {
            image.save(dir.join(name)).unwrap();
        }
        let red = image.pixels().filter(|p| p[0] as i32 > p[1] as i32 + 60 + p[2] as i32).count();
        let lit = image.pixels().filter(|p| p[0].max(p[1]).max(p[2]) > 24).count();
        (red as f64 / 64000.0, lit as f64 / 64000.0)
    };
    let (red_alone, _) = render(&[&iwad, &wad], "vgpdm03-wad.png");
    let (red, lit) = render(&[&iwad, &folder_s], "vgpdm03-folder.png");
    eprintln!("placeholder red: {red_alone:.2} alone, {red:.2} with the mod ({lit:.2} lit)");
    // A dark map: a fifth of it lit at the start (its textures left blank drew none).
    assert!(red_alone > 0.3 && red < 0.02 && lit > 0.1, "{red_alone} {red} {lit}");
}

#[test]
fn bad_folders_and_folders_that_are_no_mod_are_clear_errors() {
    let dir = TempDir::new("folder-bad");
    let iwad = arg(&freedoom2());

    // A link back up: not followed, said in a note, and the rest loads.
    let looped = dir.join("looped");
    put(&looped, "TEXTURES.txt", b"");
    put(&looped, "textures/a.png", &png(8, 8, GREEN, None));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("..", looped.join("textures/loop")).unwrap();
        let info = success(&mapscope(["info", &iwad, &arg(&looped)]), "info over a link cycle");
        assert!(
            info.contains("links back to a folder they are in, not followed: textures/loop"),
            "{info}"
        );
    }

    // A member past the limit, as a sparse file: refused by its size, naming it.
    let big = dir.join("big");
    put(&big, "TEXTURES.txt", b"");
    std::fs::create_dir_all(big.join("textures")).unwrap();
    let file = std::fs::File::create(big.join("textures/huge.png")).unwrap();
    file.set_len((64 << 20) + 1).unwrap();
    let e = failure(&["list", &iwad, &arg(&big)]);
    assert!(e.contains("textures/huge.png: 67108865 bytes, more than the 64 MiB"), "{e}");

    // Nested past the depth limit.
    let deep = dir.join("deep");
    let nested: String = (0..40).map(|i| format!("{i}/")).collect();
    put(&deep, &format!("graphics/{nested}x.png"), b"x");
    let e = failure(&["list", &iwad, &arg(&deep)]);
    assert!(e.contains("folders nested more than 32 deep"), "{e}");

    // No mod: after an IWAD, and first; the folder above a mod names the mod.
    let plain = dir.join("plain");
    put(&plain, "readme.txt", b"hello");
    put(&plain, "inner/maps/MAP01.wad", &freedoom_map01_as("MAP01", &[]));
    let e = failure(&["list", &iwad, &arg(&plain)]);
    assert!(e.contains("not a GZDoom mod folder") && e.contains("inner/"), "{e}");
    let e = failure(&["list", &arg(&plain)]);
    assert!(e.contains("a folder, but neither a GZDoom mod"), "{e}");
}
