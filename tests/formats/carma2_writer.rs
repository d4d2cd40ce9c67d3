//! Carmageddon 2 behaviour the shared fixtures leave out, on tracks built here with the
//! format's writer: partial ARGB4444 alpha, mirrored actors, lit and decal materials, material
//! inheritance, hidden actors, untextured materials, palettes (missing, embedded, given with
//! `--palette`, found folders above), the CD's loose layout in lower case, model files opened
//! alone, several ACT files in one archive, and records the reader does not know.

use crate::support;

use support::carma2_track::material;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use glam::DVec3;
use mapscope::formats::carma2::actors::{actor_type, Actor, Hierarchy, RENDER_STYLE_NONE};
use mapscope::formats::carma2::materials::{flags, Material};
use mapscope::formats::carma2::models::{Face, Model};
use mapscope::formats::carma2::pixelmaps::{pixel_type, Pixelmap};
use mapscope::formats::carma2::records::FileType;
use mapscope::formats::carma2::transform::Matrix34;
use mapscope::formats::carma2::writer::{
    body, write_actors, write_materials, write_models, write_pixelmaps, write_twt, RecordWriter,
};
use mapscope::loader::{self, OpenOptions};
use mapscope::render::{render_headless, Gpu, ViewSettings};
use mapscope::scene::{CameraPose, Scene};
use support::{mapscope, success, TempDir};

// ---------------------------------------------------------------------------------------------
// Building blocks.

/// A `2w x 2h` quad in the XY plane facing +Z (counter-clockwise seen from +Z), UVs 0..1.
fn quad(name: &str, w: f32, h: f32, materials: &[&str]) -> Model {
    let material = if materials.is_empty() { 0 } else { 1 };
    Model {
        name: name.into(),
        flags: 0,
        vertices: vec![[-w, -h, 0.0], [w, -h, 0.0], [w, h, 0.0], [-w, h, 0.0]],
        uvs: vec![[0.0, 1.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0]],
        faces: vec![
            Face { vertices: [0, 1, 2], smoothing: 1, flags: 0, material },
            Face { vertices: [0, 2, 3], smoothing: 1, flags: 0, material },
        ],
        material_names: materials.iter().map(|s| s.to_string()).collect(),
    }
}

/// A `w` x `h` pixelmap of one pixel value (`pixel`: its bytes) repeated.
fn pixelmap(name: &str, kind: u8, w: u16, h: u16, pixel: &[u8]) -> Pixelmap {
    support::carma2_track::pixelmap(name, kind, w, h, pixel.repeat(usize::from(w) * usize::from(h)))
}

/// A palette pixelmap whose entry i is (i, 255 - i, 7).
fn palette(name: &str) -> Pixelmap {
    let mut p = pixelmap(name, pixel_type::RGBX_888, 1, 256, &[0, 0, 0, 0]);
    p.pixels = (0..=255u8).flat_map(|i| [0, i, 255 - i, 7]).collect();
    p
}

fn actor(name: &str, parent: Option<usize>, depth: u32, at: [f32; 3]) -> Actor {
    let mut transform = Matrix34::IDENTITY;
    transform.0[3] = at;
    Actor {
        name: name.into(),
        actor_type: actor_type::NONE,
        render_style: 0,
        transform,
        bounds: None,
        model: None,
        material: None,
        parent,
        depth,
    }
}

fn model_actor(name: &str, parent: usize, at: [f32; 3], model: &str) -> Actor {
    let mut a = actor(name, Some(parent), 1, at);
    a.actor_type = actor_type::MODEL;
    a.render_style = 4;
    a.model = Some(model.into());
    a
}

/// A white RGB565 backdrop 20 x 20 at z = -10 (two-sided).
fn backdrop_parts() -> (Model, Material, Pixelmap) {
    (
        quad("BACKDROP", 20.0, 20.0, &["M_WHITE"]),
        material("M_WHITE", Some("WHITE"), flags::TWO_SIDED),
        pixelmap("WHITE", pixel_type::RGB_565, 4, 4, &[0xFF, 0xFF]),
    )
}

fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        Gpu::headless().expect("a Vulkan or GL adapter (install mesa-vulkan-drivers)")
    })
}

fn open(path: &Path, opts: &OpenOptions, map: Option<&str>) -> Scene {
    let source = loader::open(&[path.to_path_buf()], opts).unwrap_or_else(|e| panic!("{e:#}"));
    source.build(map).unwrap_or_else(|e| panic!("{e:#}"))
}

/// The centre pixel of a 64x64 render from `eye` towards `at` (native coordinates).
fn centre(scene: &mut Scene, eye: [f64; 3], at: [f64; 3]) -> [u8; 3] {
    let cam = CameraPose::looking_at(DVec3::from(eye), DVec3::from(at));
    let view = ViewSettings { width: 64, height: 64, fov_deg: 60.0, ..Default::default() };
    let img = render_headless(gpu(), scene, &cam, &view, 0).expect("render");
    let p = img.get_pixel(32, 32).0;
    [p[0], p[1], p[2]]
}

fn near(got: [u8; 3], want: [u8; 3], tol: i32, what: &str) {
    let ok = (0..3).all(|i| (i32::from(got[i]) - i32::from(want[i])).abs() <= tol);
    assert!(ok, "{what}: got {got:?}, want {want:?} (±{tol})");
}

fn write(dir: &Path, rel: &str, data: &[u8]) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, data).unwrap();
    path
}

// ---------------------------------------------------------------------------------------------
// Rendering rules.

#[test]
fn partial_alpha_blends_over_what_is_behind() {
    // Red at alpha 8/15 over the white backdrop: 255 red, the rest 255 * (1 - 136/255).
    let (bm, bmat, bpix) = backdrop_parts();
    let models = vec![quad("GLASS", 5.0, 5.0, &["M_GLASS"]), bm];
    let mats = vec![material("M_GLASS", Some("GLASS"), flags::Z_TRANSPARENCY), bmat];
    let pixs = vec![pixelmap("GLASS", pixel_type::ARGB_4444, 4, 4, &[0x8F, 0x00]), bpix];
    let root = actor("ROOT", None, 0, [0.0; 3]);
    let h = Hierarchy {
        actors: vec![
            root,
            model_actor("GLASS", 0, [0.0, 0.0, 0.0], "GLASS"),
            model_actor("BACK", 0, [0.0, 0.0, -10.0], "BACKDROP"),
        ],
    };
    let tmp = TempDir::new("carma2-alpha");
    let twt = write(
        tmp.path(),
        "ALPHA.TWT",
        &write_twt(&[
            ("ALPHA.ACT", &write_actors(&[h])),
            ("ALPHA.DAT", &write_models(&models)),
            ("ALPHA.MAT", &write_materials(&mats)),
            ("ALPHA.P16", &write_pixelmaps(&pixs)),
        ]),
    );
    let mut scene = open(&twt, &OpenOptions::default(), None);
    near(centre(&mut scene, [0.0, 0.0, 10.0], [0.0; 3]), [255, 119, 119], 4, "alpha 8 over white");
}

#[test]
fn mirrored_actors_keep_their_visible_side_lit_faces_darken_decals_do_not() {
    // One-sided quads facing +Z in model space. The second actor mirrors X, which turns its
    // winding round in world space; BRender culls in model space, so it is still seen from +Z.
    let models = vec![
        quad("Q", 3.0, 3.0, &["M_ONE"]),
        quad("LITQ", 3.0, 3.0, &["M_LIT"]),
        quad("DECALQ", 3.0, 3.0, &["M_DECAL"]),
    ];
    let mut lit = material("M_LIT", None, flags::LIT);
    lit.colour = [200, 100, 50];
    let decal = material("M_DECAL", Some("PINK"), flags::LIT | flags::DECAL);
    let mats = vec![material("M_ONE", Some("PINK"), 0), lit, decal];
    let pixs = vec![pixelmap("PINK", pixel_type::INDEX_8, 4, 4, &[96]), palette("DRRENDER.PAL")];
    let mut mirrored = model_actor("MIRROR", 0, [20.0, 0.0, 0.0], "Q");
    mirrored.transform.0[0] = [-1.0, 0.0, 0.0];
    let h = Hierarchy {
        actors: vec![
            actor("ROOT", None, 0, [0.0; 3]),
            model_actor("PLAIN", 0, [0.0, 0.0, 0.0], "Q"),
            mirrored,
            model_actor("LIT", 0, [40.0, 0.0, 0.0], "LITQ"),
            model_actor("DECAL", 0, [60.0, 0.0, 0.0], "DECALQ"),
        ],
    };
    let tmp = TempDir::new("carma2-mirror");
    let twt = write(
        tmp.path(),
        "M.TWT",
        &write_twt(&[
            ("M.ACT", &write_actors(&[h])),
            ("M.DAT", &write_models(&models)),
            ("M.MAT", &write_materials(&mats)),
            ("M.P08", &write_pixelmaps(&pixs)),
        ]),
    );
    let mut s = open(&twt, &OpenOptions::default(), None);
    let pink = [96, 159, 7];
    near(centre(&mut s, [0.0, 0.0, 10.0], [0.0; 3]), pink, 0, "plain quad from the front");
    near(centre(&mut s, [0.0, 0.0, -10.0], [0.0; 3]), [0, 0, 0], 0, "plain quad from behind");
    near(centre(&mut s, [20.0, 0.0, 10.0], [20.0, 0.0, 0.0]), pink, 0, "mirrored from +Z");
    near(centre(&mut s, [20.0, 0.0, -10.0], [20.0, 0.0, 0.0]), [0, 0, 0], 0, "mirrored from -Z");
    // Lit: ka + kd * |n . sun| with the normal +Z and sun (0.4, 1, 0.6) normalised.
    let sun = glam::Vec3::new(0.4, 1.0, 0.6).normalize();
    let k = 0.1 + 0.7 * sun.z;
    let want = [200.0 * k, 100.0 * k, 50.0 * k].map(|c: f32| c.round() as u8);
    near(centre(&mut s, [40.0, 0.0, 10.0], [40.0, 0.0, 0.0]), want, 3, "lit untextured face");
    // A lit decal shows its texture as stored.
    near(centre(&mut s, [60.0, 0.0, 10.0], [60.0, 0.0, 0.0]), pink, 0, "lit decal");
}

#[test]
fn faces_without_material_inherit_hidden_actors_are_not_drawn() {
    let models = vec![quad("BARE", 3.0, 3.0, &[])];
    let mut green = material("M_GREEN", None, flags::TWO_SIDED);
    green.colour = [10, 200, 30];
    let mats = vec![green];
    let mut group = actor("GROUP", Some(0), 1, [0.0; 3]);
    group.material = Some("m_green".into());
    let mut child = model_actor("CHILD", 1, [0.0; 3], "bare");
    child.depth = 2;
    let mut hidden = model_actor("HIDDEN", 1, [10.0, 0.0, 0.0], "BARE");
    hidden.render_style = RENDER_STYLE_NONE;
    hidden.depth = 2;
    let mut not_model = model_actor("NOTMODEL", 1, [20.0, 0.0, 0.0], "BARE");
    not_model.actor_type = actor_type::BOUNDS;
    not_model.depth = 2;
    let h = Hierarchy {
        actors: vec![actor("ROOT", None, 0, [0.0; 3]), group, child, hidden, not_model],
    };
    let tmp = TempDir::new("carma2-inherit");
    let twt = write(
        tmp.path(),
        "I.TWT",
        &write_twt(&[
            ("I.ACT", &write_actors(&[h])),
            ("I.DAT", &write_models(&models)),
            ("I.MAT", &write_materials(&mats)),
            ("README.TXT", b"not a record file"),
        ]),
    );
    let mut s = open(&twt, &OpenOptions::default(), None);
    near(centre(&mut s, [0.0, 0.0, 10.0], [0.0; 3]), [10, 200, 30], 0, "inherited colour");
    near(centre(&mut s, [0.0, 0.0, -10.0], [0.0; 3]), [10, 200, 30], 0, "two-sided by inheritance");
    near(centre(&mut s, [10.0, 0.0, 10.0], [10.0, 0.0, 0.0]), [0, 0, 0], 0, "render style none");
    near(centre(&mut s, [20.0, 0.0, 10.0], [20.0, 0.0, 0.0]), [0, 0, 0], 0, "not a model actor");
    let count = |k: &str| s.facts.counts.iter().find(|(n, _)| n == k).unwrap().1;
    assert_eq!(count("model_instances"), 1);
    assert_eq!(count("faces"), 2);
    assert!(s.facts.notes.iter().any(|n| n.contains("no palette")), "{:?}", s.facts.notes);
}

// ---------------------------------------------------------------------------------------------
// Palettes and file layouts.

/// The CD's layout in lower case: `data/races/t/{actors,models,material,pixelmap}` with the
/// palette in `data/reg/palettes`, an 8-bit map with its own palette, and a DAT of two models.
fn loose_track(root: &Path) -> PathBuf {
    let race = root.join("data/races/t");
    let mut own = pixelmap("OWN", pixel_type::INDEX_8, 4, 4, &[100]);
    own.palette = Some(Box::new(palette("OWNPAL")));
    let models = vec![quad("A", 3.0, 3.0, &["M_OWN"]), quad("B", 2.0, 2.0, &["M_OWN"])];
    let h = Hierarchy {
        actors: vec![actor("ROOT", None, 0, [0.0; 3]), model_actor("A", 0, [0.0; 3], "A")],
    };
    write(&race, "actors/t.act", &write_actors(&[h]));
    write(&race, "models/t.dat", &write_models(&models));
    write(&race, "material/t.mat", &write_materials(&[material("M_OWN", Some("OWN"), 0)]));
    write(&race, "pixelmap/t.pix", &write_pixelmaps(&[own]));
    let mut reg = palette("DRRENDER.PAL");
    reg.pixels = (0..=255u8).flat_map(|i| [0, i, i, i]).collect();
    write(root, "data/reg/palettes/drrender.pal", &write_pixelmaps(&[reg]));
    race
}

#[test]
fn palettes_come_from_above_from_the_pixelmap_or_from_the_command_line() {
    let tmp = TempDir::new("carma2-palettes");
    let race = loose_track(tmp.path());
    let act = race.join("actors/t.act");
    // DRRENDER.PAL two folders up: index 100 is grey 100.
    let mut s = open(&act, &OpenOptions::default(), None);
    near(centre(&mut s, [0.0, 0.0, 10.0], [0.0; 3]), [100, 100, 100], 0, "REG palette");
    // Given on the command line: entry i = (i, 255 - i, 7).
    let given = write(tmp.path(), "other.pal", &write_pixelmaps(&[palette("OTHER")]));
    let opts = OpenOptions { palette: Some(given), ..Default::default() };
    let mut s = open(&act, &opts, None);
    near(centre(&mut s, [0.0, 0.0, 10.0], [0.0; 3]), [100, 155, 7], 0, "--palette");
    // No palette anywhere: the pixelmap's own.
    std::fs::remove_dir_all(tmp.join("data/reg")).unwrap();
    let mut s = open(&act, &OpenOptions::default(), None);
    near(centre(&mut s, [0.0, 0.0, 10.0], [0.0; 3]), [100, 155, 7], 0, "embedded palette");
}

#[test]
fn a_model_file_opens_alone_with_its_models_in_a_row() {
    let tmp = TempDir::new("carma2-dat");
    let race = loose_track(tmp.path());
    let dat = race.join("models/t.dat");
    let source = loader::open(std::slice::from_ref(&dat), &OpenOptions::default()).unwrap();
    assert_eq!(source.maps(), vec!["t.dat".to_string()]);
    let mut s = source.build(None).unwrap();
    assert_eq!(s.parts.names, vec!["A".to_string(), "B".to_string()]);
    let (lo, hi) = s.bounds().unwrap();
    // A spans -3..3; B (-2..2) starts a tenth of A's width (0.6) after it.
    assert_eq!((lo.x, hi.x), (-3.0, 7.6));
    near(centre(&mut s, [5.6, 0.0, 10.0], [5.6, 0.0, 0.0]), [100, 100, 100], 0, "second model");
}

#[test]
fn archives_with_several_act_files_offer_each_as_a_map() {
    let (bm, bmat, bpix) = backdrop_parts();
    let one = Hierarchy {
        actors: vec![actor("ONE", None, 0, [0.0; 3]), model_actor("B", 0, [0.0; 3], "BACKDROP")],
    };
    let two = Hierarchy {
        actors: vec![
            actor("TWO", None, 0, [0.0; 3]),
            model_actor("B", 0, [50.0, 0.0, 0.0], "BACKDROP"),
        ],
    };
    // An unknown record inside a model: skipped by its length, with a note.
    let mut dat = write_models(&[bm]);
    let end = dat.split_off(dat.len() - 8);
    let mut w = RecordWriter::new(FileType::Models);
    w.record(0x7777, body().bytes(&[1, 2, 3, 4, 5]).u8(6));
    dat.extend(&w.finish()[16..]);
    dat.extend(end);
    let tmp = TempDir::new("carma2-maps");
    let twt = write(
        tmp.path(),
        "MAPS.TWT",
        &write_twt(&[
            ("FIRST.ACT", &write_actors(&[one])),
            ("SECOND.ACT", &write_actors(&[two])),
            ("B.DAT", &dat),
            ("B.MAT", &write_materials(&[bmat])),
            ("B.P16", &write_pixelmaps(&[bpix])),
        ]),
    );
    let out = success(&mapscope(["list".as_ref(), twt.as_os_str()]), "list");
    assert_eq!(out.lines().collect::<Vec<_>>(), vec!["FIRST.ACT", "SECOND.ACT"]);
    // Renamed, it is still recognised by its header.
    let renamed = tmp.join("maps.bin");
    std::fs::copy(&twt, &renamed).unwrap();
    let out = success(&mapscope(["list".as_ref(), renamed.as_os_str()]), "list renamed");
    assert_eq!(out.lines().count(), 2);
    let by_name = open(&twt, &OpenOptions::default(), Some("second.act"));
    let by_number = open(&twt, &OpenOptions::default(), Some("2"));
    assert_eq!(by_name.name, "SECOND.ACT");
    assert_eq!(by_number.name, "SECOND.ACT");
    assert_eq!(by_name.bounds().unwrap().0.x, 30.0);
    assert!(
        by_name.facts.notes.iter().any(|n| n.contains("unknown record 0x7777")),
        "{:?}",
        by_name.facts.notes
    );
    let no =
        loader::open(&[twt], &OpenOptions::default()).unwrap().build(Some("THIRD")).err().unwrap();
    assert!(format!("{no}").contains("no map \"THIRD\""), "{no}");
}
