use super::*;

/// A fresh folder under the system's temporary folder, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(tag: &str) -> Folder {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir()
            .join(format!("mapscope-settings-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Folder(dir)
    }

    fn file(&self) -> PathBuf {
        self.0.join(FILE_NAME)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn object(path: &Path) -> Map<String, Value> {
    match serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap() {
        Value::Object(o) => o,
        v => panic!("not an object: {v}"),
    }
}

fn entry(file: &str, map: &str) -> Recent {
    Recent { files: vec![PathBuf::from(file)], map: map.into(), ..Recent::default() }
}

#[test]
fn values_are_read_bad_ones_warned_and_unknown_keys_ignored() {
    let v = json!({
        "speed": 1.5625, "fov": 100, "mode": "smooth", "things": false, "sky": "no",
        "window": [900, 600], "overlay_open": false, "my_note": "hello",
        "recent": [{"files": ["/a.wad"], "map": "E1M2"}, {"files": []}, 3],
        "game_res": true, "markers": false, "wireframe": true, "overlay": false,
    });
    let (s, warnings) = Settings::from_json(v.as_object().unwrap());
    assert_eq!(s.speed, 1.5625);
    assert_eq!((s.fov, s.mode), (100.0, RenderMode::Smooth));
    assert!(!s.things && s.sky, "sky's bad value leaves the default");
    assert!(s.wireframe && !s.markers && s.game_res && !s.overlay && !s.overlay_open);
    assert_eq!(s.window, [900, 600]);
    assert_eq!(s.recent, vec![entry("/a.wad", "E1M2")]);
    assert_eq!(warnings.len(), 3, "{warnings:?}");
    assert!(warnings[0].contains("\"recent\" entry 2"), "{warnings:?}");
    assert!(warnings[2].contains("\"sky\": \"no\""), "{warnings:?}");

    for bad in [
        json!({"fov": 500}),
        json!({"fov": "wide"}),
        json!({"speed": -1}),
        json!({"mode": "sepia"}),
        json!({"window": [10, 10]}),
        json!({"window": [800]}),
        json!({"recent": {}}),
    ] {
        let (s, warnings) = Settings::from_json(bad.as_object().unwrap());
        assert_eq!(s, Settings::default(), "{bad}");
        assert_eq!(warnings.len(), 1, "{bad}: {warnings:?}");
    }
    let (s, warnings) = Settings::from_json(&Settings::default().to_json());
    assert_eq!((s, warnings.len()), (Settings::default(), 0), "to_json reads back");
}

#[test]
fn only_settings_changed_in_the_viewer_are_written_and_other_keys_stay() {
    let dir = Folder::new("merge");
    let path = dir.file();
    let text = r#"{"fov": 100, "mode": "sepia", "my_note": [1, 2], "things": false}"#;
    std::fs::write(&path, text).unwrap();
    let mut store = Store::at(path.clone());
    assert_eq!(store.file.fov, 100.0);
    assert!(!store.file.things);
    assert_eq!(store.file.mode, RenderMode::Faithful, "the bad mode leaves the default");

    // Started with --fov 75 on the command line: not written unless changed in the viewer.
    let start = Settings { fov: 75.0, ..store.file.clone() };
    store.begin(&start);
    store.save(&start);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "nothing changed: not written");

    let now = Settings { wireframe: true, ..start.clone() };
    store.save(&now);
    let o = object(&path);
    assert_eq!(o["wireframe"], json!(true));
    assert_eq!(o["fov"], json!(100), "the command line's field of view is not saved");
    assert_eq!(o["mode"], json!("sepia"), "a value the viewer could not read stays");
    assert_eq!(o["my_note"], json!([1, 2]), "unknown keys stay");
    assert_eq!(o["things"], json!(false));
    assert!(!o.contains_key("sky") && !o.contains_key("recent"), "{o:?}");

    // Someone edits the file meanwhile; a setting turned back is still written.
    std::fs::write(&path, r#"{"sky": false, "wireframe": true}"#).unwrap();
    store.save(&Settings { fov: 80.0, ..start.clone() });
    let o = object(&path);
    assert_eq!(o["sky"], json!(false), "another writer's key stays");
    assert_eq!((o["wireframe"].clone(), o["fov"].clone()), (json!(false), json!(80.0)));
    let leftovers: Vec<_> = std::fs::read_dir(&dir.0).unwrap().flatten().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left: {leftovers:?}");
}

#[test]
fn a_broken_file_gives_the_defaults_and_is_kept_when_written() {
    let dir = Folder::new("broken");
    let path = dir.file();
    let broken = "{\"fov\": 100,\n \"mode\": smooth\n";
    std::fs::write(&path, broken).unwrap();
    let mut store = Store::at(path.clone());
    assert_eq!(store.file, Settings::default());
    assert_eq!(store.warnings.len(), 1);
    assert!(
        store.warnings[0].contains("not valid JSON (expected value at line 2"),
        "{:?}",
        store.warnings
    );
    let start = store.file.clone();
    store.begin(&start);
    store.save(&start);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), broken, "nothing changed: left alone");

    store.opened(entry("/x/doom.wad", "MAP01"));
    store.save(&start);
    let kept = path.with_file_name("settings.json.broken");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), broken, "kept as it was");
    let o = object(&path);
    assert_eq!(o["recent"], json!([{"files": ["/x/doom.wad"], "map": "MAP01"}]));
    assert_eq!(o.len(), 1, "{o:?}");

    // Broken again (a list, not an object): the next copy goes beside the first.
    std::fs::write(&path, "[1]").unwrap();
    let mut store = Store::at(path.clone());
    store.begin(&Settings::default());
    store.save(&Settings { mode: RenderMode::Smooth, ..Settings::default() });
    assert_eq!(
        std::fs::read_to_string(path.with_file_name("settings.json.broken.2")).unwrap(),
        "[1]"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), broken);
    assert_eq!(object(&path)["mode"], json!("smooth"));
}

#[test]
fn recent_sets_go_first_once_each_and_merge_with_the_files_list() {
    let mut list = Vec::new();
    for i in 0..12 {
        push_recent(&mut list, entry(&format!("/{i}.wad"), "MAP01"));
    }
    assert_eq!(list.len(), RECENT_MAX);
    assert_eq!(list[0].files[0], PathBuf::from("/11.wad"));
    push_recent(&mut list, entry("/5.wad", "MAP07"));
    assert_eq!(list.len(), RECENT_MAX);
    assert_eq!(list[0], entry("/5.wad", "MAP07"));
    assert_eq!(list.iter().filter(|r| r.files[0] == Path::new("/5.wad")).count(), 1);
    // The same files opened another way are another set.
    push_recent(&mut list, Recent { vanilla: true, ..entry("/5.wad", "MAP07") });
    assert_eq!(list.iter().filter(|r| r.files[0] == Path::new("/5.wad")).count(), 2);

    let dir = Folder::new("recent");
    let path = dir.file();
    std::fs::write(&path, r#"{"recent": [{"files": ["/old.wad"], "map": "E1M1"}]}"#).unwrap();
    let mut store = Store::at(path.clone());
    store.begin(&Settings::default());
    store.opened(entry("/a.wad", "MAP01"));
    store.opened(entry("/b.wad", "MAP02"));
    store.opened(entry("/a.wad", "MAP03"));
    let files: Vec<_> = store.recent().iter().map(|r| r.label()).collect();
    assert_eq!(files, ["a.wad", "b.wad", "old.wad"]);
    // Another viewer wrote its own set meanwhile: it stays, behind this run's.
    std::fs::write(&path, r#"{"recent": [{"files": ["/other.wad"], "map": "E2M1"}]}"#).unwrap();
    store.save(&Settings::default());
    let list = Settings::from_json(&object(&path)).0.recent;
    let names: Vec<_> = list.iter().map(|r| (r.label(), r.map.as_str())).collect();
    assert_eq!(
        names,
        [("a.wad".into(), "MAP03"), ("b.wad".into(), "MAP02"), ("other.wad".into(), "E2M1")]
    );
}

#[test]
fn changes_are_written_at_most_once_a_second_and_never_when_disabled() {
    let dir = Folder::new("tick");
    let path = dir.file();
    let mut store = Store::at(path.clone());
    store.begin(&Settings::default());
    let t0 = Instant::now();
    store.tick(t0, &Settings::default());
    assert!(!path.exists(), "nothing changed");
    store.tick(t0, &Settings { sky: false, ..Settings::default() });
    assert_eq!(object(&path)["sky"], json!(false));
    let later = Settings { sky: false, things: false, ..Settings::default() };
    store.tick(t0 + Duration::from_millis(500), &later);
    assert!(!object(&path).contains_key("things"), "written again too soon");
    store.tick(t0 + Duration::from_millis(1000), &later);
    assert_eq!(object(&path)["things"], json!(false));

    let mut off = Store::disabled();
    assert!(off.path().is_none());
    off.begin(&Settings::default());
    off.opened(entry("/a.wad", "MAP01"));
    off.save(&later);
    off.tick(t0, &later);
}
