//! A map without a player 1 start (some GZDoom mods' maps place none) opens inside the
//! level, in its largest sector at eye height, and `info` says so.

use crate::support;

use mapscope::formats::doom::archive::wad::Wad;
use mapscope::formats::doom::archive::writer::WadWriter;
use serde_json::Value;
use support::{freedoom2, image_stats, mapscope, success, TempDir};

#[test]
fn a_map_without_a_player_start_opens_inside_its_largest_sector() {
    let dir = TempDir::new("startless");
    // Freedoom's MAP01 with every thing taken out.
    let iwad = Wad::open(&freedoom2()).unwrap();
    let at = iwad.lumps().iter().position(|l| l.name == "MAP01").unwrap();
    let mut w = WadWriter::pwad();
    w.marker("MAP01");
    for (i, info) in iwad.lumps().iter().enumerate().skip(at + 1).take(10) {
        let data =
            if info.name == "THINGS" { Vec::new() } else { iwad.lump(i).unwrap().data.to_vec() };
        w.lump(&info.name, data);
    }
    let pwad = dir.join("startless.wad");
    std::fs::write(&pwad, w.to_bytes()).unwrap();
    let (iwad, pwad) = (freedoom2(), pwad);
    let files = [iwad.to_str().unwrap(), pwad.to_str().unwrap()];
    let out = mapscope(["info", files[0], files[1], "--map", "MAP01", "--json"]);
    let info: Value = serde_json::from_str(&success(&out, "info")).unwrap();
    let notes = info["notes"].to_string();
    assert!(notes.contains("no player 1 start: camera in the largest sector"), "{notes}");
    // The spawn stands at eye height over a floor of the map: 41 above one of its sectors'
    // floors, inside its bounds.
    let spawn = &info["spawn"]["position"];
    let (x, y, z) =
        (spawn[0].as_f64().unwrap(), spawn[1].as_f64().unwrap(), spawn[2].as_f64().unwrap());
    let (lo, hi) = (&info["bounds"]["min"], &info["bounds"]["max"]);
    assert!(x > lo[0].as_f64().unwrap() && x < hi[0].as_f64().unwrap(), "{info}");
    assert!(y > lo[1].as_f64().unwrap() && y < hi[1].as_f64().unwrap(), "{info}");
    assert!(z > lo[2].as_f64().unwrap(), "{info}");
    // And the view from there shows the level, not the void.
    let png = dir.join("startless.png");
    let out =
        mapscope(["render", files[0], files[1], "--map", "MAP01", "-o", png.to_str().unwrap()]);
    success(&out, "render");
    let img = image::open(&png).unwrap().to_rgba8();
    let stats = image_stats(&img);
    assert!(stats.looks_rendered(), "the start-less view shows little: {stats:?}");
}
