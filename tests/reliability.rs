//! Outputs, saves and data limits a trusted tool keeps (#28), through the binary, with files in
//! a temporary folder: nothing overwritten that must not be, nothing lost, nothing wraps.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod interrupts;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn hexwar_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the hexwar binary runs")
}

/// `hexwar ARGS` in `dir` with `input` on its standard input.
fn hexwar_fed(dir: &Path, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that stops early closes its input: a write that fails then is no matter.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A folder with a scenario `s.toml` (the meeting engagement) and its own data folder.
fn workspace(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hexwar-reliability-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data/units")).unwrap();
    let root = Path::new(ROOT);
    std::fs::copy(
        root.join("scenarios/meeting_engagement.toml"),
        dir.join("s.toml"),
    )
    .unwrap();
    std::fs::copy(
        root.join("data/terrain.toml"),
        dir.join("data/terrain.toml"),
    )
    .unwrap();
    for f in ["soviet.toml", "nato.toml"] {
        std::fs::copy(
            root.join("data/units").join(f),
            dir.join("data/units").join(f),
        )
        .unwrap();
    }
    dir
}

fn no_temporaries(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !name.ends_with(".tmp"),
            "{name} left behind in {}",
            dir.display()
        );
    }
}

fn bytes(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

// 1. An output never replaces what it must not.

#[test]
fn an_output_that_is_an_input_is_refused_before_any_work() {
    let dir = workspace("inputs");
    let scenario = bytes(&dir.join("s.toml"));
    let catalog = bytes(&dir.join("data/units/nato.toml"));
    let cases: &[&[&str]] = &[
        &["test", "s.toml", "--runs", "10", "--junit", "s.toml"],
        &["batch", "s.toml", "--runs", "5", "-q", "--csv", "s.toml"],
        &[
            "batch",
            "s.toml",
            "--runs",
            "5",
            "-q",
            "--csv",
            "data/units/nato.toml",
        ],
        &[
            "batch",
            "s.toml",
            "--runs",
            "5",
            "-q",
            "--csv",
            "./data/../s.toml",
        ],
        &["run", "s.toml", "--save", "s.toml"],
        &[
            "replay",
            "--seed",
            "1",
            "s.toml",
            "--html",
            "data/terrain.toml",
        ],
        &["replay", "--seed", "1", "s.toml", "--html", "s.toml"],
    ];
    for args in cases {
        let o = hexwar_in(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(
            err(&o).contains("input of this command"),
            "{args:?}: {}",
            err(&o)
        );
        assert!(out(&o).is_empty(), "{args:?}: no work was done");
    }
    // A save is an input of replay and render.
    let o = hexwar_in(&dir, &["run", "s.toml", "--save", "g.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    let save = bytes(&dir.join("g.toml"));
    for args in [
        &["replay", "g.toml", "--html", "g.toml"][..],
        &["render", "--save", "g.toml", "-o", "g.toml"][..],
        &["run", "--resume", "g.toml", "--save", "g.toml"][..],
    ] {
        let o = hexwar_in(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
    }
    assert_eq!(bytes(&dir.join("g.toml")), save);
    assert_eq!(bytes(&dir.join("s.toml")), scenario);
    assert_eq!(bytes(&dir.join("data/units/nato.toml")), catalog);
    // A hard link to the scenario is the scenario.
    std::fs::hard_link(dir.join("s.toml"), dir.join("linked.csv")).unwrap();
    let o = hexwar_in(
        &dir,
        &[
            "batch",
            "s.toml",
            "--runs",
            "5",
            "-q",
            "--csv",
            "linked.csv",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("input of this command"), "{}", err(&o));
    // Two outputs of one command that are the same file.
    let o = hexwar_in(
        &dir,
        &[
            "batch", "s.toml", "--runs", "5", "-q", "--csv", "x.svg", "--plot", "x.svg",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("the same file"), "{}", err(&o));
    no_temporaries(&dir);
}

#[test]
fn a_report_is_not_opened_when_nothing_is_tested() {
    let dir = workspace("report");
    std::fs::write(dir.join("report.xml"), "keep me").unwrap();
    std::fs::write(dir.join("broken.toml"), "title = \"x\"\nturns = 0\n").unwrap();
    let o = hexwar_in(&dir, &["test", "broken.toml", "--junit", "report.xml"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("report.xml")).unwrap(),
        "keep me"
    );
}

#[test]
fn folders_read_only_files_and_missing_folders_are_refused_before_any_work() {
    let dir = workspace("paths");
    std::fs::create_dir(dir.join("folder")).unwrap();
    std::fs::write(dir.join("ro.csv"), "old").unwrap();
    let mut perm = std::fs::metadata(dir.join("ro.csv")).unwrap().permissions();
    perm.set_readonly(true);
    std::fs::set_permissions(dir.join("ro.csv"), perm).unwrap();
    for (args, why) in [
        (
            &["batch", "s.toml", "--runs", "5", "-q", "--csv", "folder"][..],
            "folder",
        ),
        (
            &["batch", "s.toml", "--runs", "5", "-q", "--csv", "ro.csv"][..],
            "read-only",
        ),
        (
            &[
                "tune",
                "s.toml",
                "--vary",
                "t72.assault=2..3",
                "--runs",
                "5",
                "--plot",
                "/missing/t.svg",
            ][..],
            "does not exist",
        ),
        (
            &["run", "s.toml", "--save", "/missing/g.toml"][..],
            "does not exist",
        ),
        (
            &["render", "s.toml", "-o", "/missing/m.svg"][..],
            "does not exist",
        ),
        (
            &[
                "test",
                "s.toml",
                "--runs",
                "10",
                "--junit",
                "/missing/r.xml",
            ][..],
            "does not exist",
        ),
    ] {
        let o = hexwar_in(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains(why), "{args:?}: {}", err(&o));
        assert!(
            out(&o).is_empty(),
            "{args:?}: refused before any work: {}",
            out(&o)
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("ro.csv")).unwrap(), "old");
    // play --save to a missing folder: refused before the first command is asked.
    let o = hexwar_fed(
        &dir,
        &[
            "play",
            "s.toml",
            "--side",
            "us",
            "--save",
            "/missing/g.toml",
        ],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!out(&o).contains("turn 1"), "no turn played: {}", out(&o));
    no_temporaries(&dir);
}

#[cfg(unix)]
#[test]
fn a_symlink_is_written_through_and_a_device_is_never_renamed_over() {
    let dir = workspace("links");
    std::os::unix::fs::symlink("target.csv", dir.join("link.csv")).unwrap();
    let o = hexwar_in(
        &dir,
        &["batch", "s.toml", "--runs", "5", "-q", "--csv", "link.csv"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let rows = std::fs::read_to_string(dir.join("target.csv")).unwrap();
    assert_eq!(rows.lines().count(), 6, "a header and five games: {rows}");
    // A second run replaces the target's content, and the link stays a link.
    let o = hexwar_in(
        &dir,
        &["batch", "s.toml", "--runs", "3", "-q", "--csv", "link.csv"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("link.csv"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("target.csv"))
            .unwrap()
            .lines()
            .count(),
        4
    );
    // A character device is written through: /dev/null stays a device.
    let o = hexwar_in(
        &dir,
        &["batch", "s.toml", "--runs", "3", "-q", "--csv", "/dev/null"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    // A pipe (a FIFO this test makes) is written through, read by another thread.
    let fifo = dir.join("pipe.csv");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let o = hexwar_in(
            &dir,
            &["batch", "s.toml", "--runs", "2", "-q", "--csv", "pipe.csv"],
        );
        assert!(o.status.success(), "{}", err(&o));
        assert_eq!(reader.join().unwrap().lines().count(), 3);
        use std::os::unix::fs::FileTypeExt as _;
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    }
    no_temporaries(&dir);
}

#[test]
fn a_save_at_the_prompt_to_a_bad_place_says_so_and_the_game_goes_on() {
    let dir = workspace("prompt");
    let o = hexwar_fed(
        &dir,
        &["play", "s.toml", "--side", "us"],
        b"save s.toml\nsave /missing/g.toml\nsave g.toml\nquit\n",
    );
    let text = out(&o);
    assert!(
        text.contains("not saved: s.toml: save: is also an input"),
        "{text}"
    );
    assert!(text.contains("not saved: /missing/g.toml"), "{text}");
    assert!(text.contains("saved to g.toml"), "{text}");
    assert!(dir.join("g.toml").is_file());
    no_temporaries(&dir);
}

// 2. A full or closed stdout never panics.

#[cfg(unix)]
#[test]
fn a_full_or_closed_stdout_is_an_error_and_a_broken_pipe_ends_quietly() {
    let dir = workspace("stdout");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
    let commands: &[&[&str]] = &[
        &["units"],
        &["run", "s.toml"],
        &["batch", "s.toml", "--runs", "5", "-q"],
        &["rules"],
        &["odds", "t72", "vs", "m1"],
    ];
    if let Ok(full) = full {
        for args in commands {
            let o = Command::new(env!("CARGO_BIN_EXE_hexwar"))
                .args(*args)
                .current_dir(&dir)
                .stdout(full.try_clone().unwrap())
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
            // The system's words, as the README shows them, without its code.
            assert!(
                err(&o).contains("cannot write to standard output: No space left on device\n"),
                "{args:?}: {}",
                err(&o)
            );
            assert!(!err(&o).contains("panicked"), "{args:?}: {}", err(&o));
        }
    }
    // A full file named by a flag: the README's message, to the byte.
    if std::path::Path::new("/dev/full").exists() {
        let o = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args(["batch", "s.toml", "--runs", "5", "-q", "--csv", "/dev/full"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert!(
            err(&o).contains("/dev/full: --csv: cannot write: No space left on device\n"),
            "{}",
            err(&o)
        );
    }
    // A closed standard output, as `>&-` leaves it.
    let o = Command::new("sh")
        .args([
            "-c",
            &format!("'{}' units >&-", env!("CARGO_BIN_EXE_hexwar")),
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("standard output is closed"), "{}", err(&o));
    // `| head -1`: quiet, no message.
    let o = Command::new("sh")
        .args([
            "-c",
            &format!(
                "'{}' rules R9 | head -1 >/dev/null",
                env!("CARGO_BIN_EXE_hexwar")
            ),
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(err(&o).is_empty(), "{}", err(&o));
    // A file written through a pipe closed early: quiet, status 0 (hexwar's own status).
    let o = Command::new("bash")
        .args([
            "-c",
            &format!(
                "'{}' batch scenarios/night_recon.toml --runs 3000 -q --csv /dev/stdout | head -2 >/dev/null; exit ${{PIPESTATUS[0]}}",
                env!("CARGO_BIN_EXE_hexwar")
            ),
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap();
    assert!(o.status.success(), "{:?}: {}", o.status, err(&o));
    assert!(err(&o).is_empty(), "{}", err(&o));
}

// 3. No input makes memory or time unbounded.

#[test]
fn shard_counts_are_bounded_by_the_games_and_missing_shards_print_as_ranges() {
    let dir = workspace("shards");
    let o = hexwar_in(
        &dir,
        &[
            "batch",
            "s.toml",
            "--runs",
            "10",
            "--shard",
            "0/18446744073709551615",
            "--json",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("more shards than games"), "{}", err(&o));
    let o = hexwar_in(
        &dir,
        &[
            "batch", "s.toml", "--runs", "10", "--shard", "3/10", "--json", "-q",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    std::fs::write(dir.join("a.json"), out(&o)).unwrap();
    let o = hexwar_in(&dir, &["merge", "a.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("1 of 10 shards; missing 0 to 2, 4 to 9"),
        "{}",
        err(&o)
    );
    // A summary edited to claim a huge shard count is refused, quickly and in little memory.
    let summary = std::fs::read_to_string(dir.join("a.json")).unwrap();
    assert!(summary.contains("\"shard_count\": 10"), "{summary}");
    let huge = summary.replace(
        "\"shard_count\": 10",
        "\"shard_count\": 18446744073709551615",
    );
    std::fs::write(dir.join("b.json"), huge).unwrap();
    let o = hexwar_in(&dir, &["merge", "b.json", "--partial"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("shard count"), "{}", err(&o));
}

#[test]
fn tune_and_test_take_the_batch_caps() {
    let dir = workspace("caps");
    for args in [
        &[
            "tune",
            "s.toml",
            "--vary",
            "t72.assault=2..3",
            "--runs",
            "0",
        ][..],
        &[
            "tune",
            "s.toml",
            "--vary",
            "t72.assault=2..3",
            "--runs",
            "1000000000001",
        ][..],
        &[
            "tune",
            "s.toml",
            "--vary",
            "t72.assault=2..3",
            "--threads",
            "100000",
        ][..],
        &["test", "s.toml", "--threads", "100000"][..],
    ] {
        let o = hexwar_in(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(
            err(&o).contains("--runs") || err(&o).contains("--threads"),
            "{}",
            err(&o)
        );
    }
}

// 4 and 5. Data cannot break the rules; ids are names a command can say.

fn with_terrain(dir: &Path, from: &str, to: &str) {
    let t = std::fs::read_to_string(dir.join("data/terrain.toml")).unwrap();
    assert!(t.contains(from), "{from}");
    std::fs::write(dir.join("data/terrain.toml"), t.replacen(from, to, 1)).unwrap();
}

fn with_catalog(dir: &Path, from: &str, to: &str) {
    let path = dir.join("data/units/soviet.toml");
    let t = std::fs::read_to_string(&path).unwrap();
    assert!(t.contains(from), "{from}");
    std::fs::write(&path, t.replacen(from, to, 1)).unwrap();
}

#[test]
fn terrain_costs_are_bounded_and_ids_checked() {
    for (from, to, why) in [
        ("tracked = 1", "tracked = 4294967295", "at most 99"),
        (
            "id = \"clear\"",
            "id = \"open ground\"",
            "only letters, digits",
        ),
        ("id = \"clear\"", "id = \"\"", "may not be empty"),
    ] {
        let dir = workspace("terrain");
        with_terrain(&dir, from, to);
        let o = hexwar_in(&dir, &["check", "s.toml"]);
        assert_eq!(o.status.code(), Some(2), "{to}: {}", err(&o));
        assert!(err(&o).contains(why), "{to}: {}", err(&o));
        assert!(err(&o).contains("terrain.toml:"), "located: {}", err(&o));
    }
}

#[test]
fn catalog_stats_take_tunes_ranges_and_a_weakened_value_is_never_above_the_full_one() {
    for (from, to, why) in [
        (
            "movement = 5",
            "movement = 200",
            "`movement` = 200 must be 1 to 12",
        ),
        ("save = 4", "save = 1", "`save` = 1 must be 2 to 7"),
        (
            "weakened = { assault = 2, fire_dice = 2 }",
            "weakened = { assault = 9, fire_dice = 2 }",
            "above the full value",
        ),
        ("id = \"t72\"", "id = \"t72 a\"", "only letters, digits"),
        ("id = \"t72\"", "id = \"t72,a\"", "only letters, digits"),
        ("id = \"t72\"", "id = \"t72:a\"", "only letters, digits"),
    ] {
        let dir = workspace("catalog");
        with_catalog(&dir, from, to);
        let o = hexwar_in(&dir, &["units", "--catalog", "data/units"]);
        assert_eq!(o.status.code(), Some(2), "{to}: {}", err(&o));
        assert!(err(&o).contains(why), "{to}: {}", err(&o));
        assert!(err(&o).contains("soviet.toml:"), "located: {}", err(&o));
    }
}

#[test]
fn scenario_ids_and_names_are_checked_where_they_are_written() {
    for (from, to, why) in [
        ("id = \"t72_4\"", "id = \"t72 4\"", "unit id"),
        ("id = \"soviet\"", "id = \"sov:iet\"", "side id"),
        (
            "title = \"",
            &format!("title = \"{}", "x".repeat(300)),
            "title: a name is at most 200",
        ),
    ] {
        let dir = workspace("ids");
        let path = dir.join("s.toml");
        let t = std::fs::read_to_string(&path).unwrap();
        assert!(t.contains(from), "{from}");
        std::fs::write(&path, t.replacen(from, to, 1)).unwrap();
        let o = hexwar_in(&dir, &["check", "s.toml"]);
        assert_eq!(o.status.code(), Some(2), "{to}: {}", err(&o));
        assert!(err(&o).contains(why), "{to}: {}", err(&o));
        assert!(err(&o).contains("s.toml:"), "located: {}", err(&o));
    }
}

#[test]
fn the_exact_odds_of_one_unit_a_side_are_never_too_large_whatever_the_catalog() {
    let dir = workspace("odds");
    // The strongest tank the ranges allow.
    with_catalog(&dir, "assault = 3", "assault = 12");
    let o = hexwar_in(
        &dir,
        &[
            "odds",
            "t72",
            "vs",
            "m1",
            "--exact",
            "--catalog",
            "data/units",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(!text.contains("-0.000%"), "{text}");
    for line in text.lines().filter(|l| l.contains('%')) {
        for cell in line.split_whitespace().filter(|c| c.ends_with('%')) {
            let v: f64 = cell.trim_end_matches('%').parse().unwrap_or(0.0);
            assert!((0.0..=100.0).contains(&v), "{line}");
        }
    }
}

#[test]
fn control_characters_and_bidi_overrides_are_shown_escaped() {
    let dir = workspace("escape");
    let path = dir.join("s.toml");
    let t = std::fs::read_to_string(&path).unwrap();
    // A title with a right-to-left override.
    let t = t.replacen("title = \"", "title = \"\u{202e}", 1);
    std::fs::write(&path, &t).unwrap();
    let o = hexwar_in(&dir, &["run", "s.toml", "--turns", "1"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("\\u202e"), "{text}");
    assert!(!text.contains('\u{202e}'), "{text}");
    // A unit type that would set the window title, quoted back in the refusal.
    let bad = t.replacen("type = \"t72\"", "type = \"\\u001b]0;pwned\\u0007\"", 1);
    std::fs::write(dir.join("bad.toml"), bad).unwrap();
    let o = hexwar_in(&dir, &["check", "bad.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("\\u001b]0;pwned\\u0007"), "{}", err(&o));
    assert!(!err(&o).contains('\u{1b}'), "{}", err(&o));
    // JSON stays JSON of the same strings.
    let o = hexwar_in(&dir, &["run", "s.toml", "--turns", "1", "--json"]);
    for line in out(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(!v.to_string().is_empty());
    }
}

// 6. A saved game checks what it claims.

#[test]
fn each_player_turns_hash_is_of_that_turns_end_and_replay_names_the_turn_that_diverges() {
    let dir = workspace("hashes");
    let o = hexwar_in(&dir, &["run", "s.toml", "--save", "g.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    let save: toml::Table = std::fs::read_to_string(dir.join("g.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let turns = save["turns"].as_array().unwrap();
    let hashes: Vec<&str> = turns.iter().map(|t| t["hash"].as_str().unwrap()).collect();
    let mut distinct = hashes.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        hashes.len(),
        "each turn's position is its own: {hashes:?}"
    );
    assert!(save["terrain_hash"].as_str().is_some());
    // A changed terrain table is named as such.
    let o = hexwar_in(&dir, &["replay", "g.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    with_terrain(&dir, "tracked = 1", "tracked = 2");
    let o = hexwar_in(&dir, &["replay", "g.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("another terrain table"), "{}", err(&o));
}

#[test]
fn every_field_of_a_save_is_checked() {
    let dir = workspace("fields");
    let o = hexwar_in(&dir, &["run", "s.toml", "--turns", "2", "--save", "g.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = std::fs::read_to_string(dir.join("g.toml")).unwrap();
    let save: toml::Table = text.parse().unwrap();
    let edit = |f: &dyn Fn(&mut toml::Table)| {
        let mut t = save.clone();
        f(&mut t);
        toml::to_string(&t).unwrap()
    };
    let s = |v: &str| toml::Value::String(v.to_owned());
    for (edit, why) in [
        (
            edit(&|t| {
                t.insert("counterattacks".into(), s("yes"));
            }),
            "`on` or `off`",
        ),
        (
            edit(&|t| {
                t.insert("colour".into(), s("red"));
            }),
            "unknown field",
        ),
        (
            edit(&|t| {
                t.insert("format".into(), toml::Value::Integer(9));
            }),
            "newer hexwar",
        ),
        (
            edit(&|t| {
                t.insert("hexwar".into(), s("0.0.9"));
                t.insert("seed".into(), toml::Value::Integer(2));
            }),
            "saved by hexwar 0.0.9",
        ),
        (
            edit(&|t| {
                let scenario =
                    t["scenario"]
                        .as_str()
                        .unwrap()
                        .replacen("turns = ", "turns = 0\nx = ", 1);
                t.insert("scenario".into(), s(&scenario));
            }),
            "bad.toml (its scenario, s.toml):",
        ),
    ] {
        std::fs::write(dir.join("bad.toml"), &edit).unwrap();
        let o = hexwar_in(&dir, &["replay", "bad.toml"]);
        assert_eq!(o.status.code(), Some(2), "{why}: {}", err(&o));
        assert!(err(&o).contains(why), "{why}: {}", err(&o));
    }
    // Another hexwar's save that replays the same is reported, not refused.
    let other = edit(&|t| {
        t.insert("hexwar".into(), s("0.0.9"));
    });
    std::fs::write(dir.join("other.toml"), other).unwrap();
    let o = hexwar_in(&dir, &["replay", "other.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("saved by hexwar 0.0.9"), "{}", out(&o));
}

#[test]
fn standard_input_that_is_not_utf8_names_its_line() {
    let dir = workspace("utf8");
    let o = hexwar_fed(
        &dir,
        &["play", "s.toml", "--side", "us"],
        b"help\nmove \xff\xfe 0101\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("standard input, line 2: not UTF-8"),
        "{}",
        err(&o)
    );
}

// 7. The replay page survives any text.

#[test]
fn a_title_that_opens_a_comment_and_a_script_leaves_the_replay_page_alive() {
    let dir = workspace("page");
    let path = dir.join("s.toml");
    let t = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        t.replacen("title = \"", "title = \"<!--<script></script>", 1),
    )
    .unwrap();
    let o = hexwar_in(
        &dir,
        &["replay", "--seed", "1", "s.toml", "--html", "p.html"],
    );
    assert!(o.status.success(), "{}", err(&o));
    let page = std::fs::read_to_string(dir.join("p.html")).unwrap();
    let start = page
        .find(r#"<script id="data" type="application/json">"#)
        .unwrap();
    let data = &page[start..];
    let data = &data[data.find('>').unwrap() + 1..data.find("</script>").unwrap()];
    assert!(!data.contains('<'), "no `<` inside the data script");
    let v: serde_json::Value = serde_json::from_str(data).unwrap();
    assert!(
        v.to_string().contains("<!--<script>"),
        "the title is kept, escaped"
    );
}

// 8. CLI options that do nothing say so.

#[test]
fn render_turn_without_a_save_or_past_its_end_is_an_error() {
    let dir = workspace("turn");
    let o = hexwar_in(&dir, &["render", "s.toml", "--turn", "2", "-o", "m.svg"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!dir.join("m.svg").exists());
    let o = hexwar_in(&dir, &["run", "s.toml", "--turns", "2", "--save", "g.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    let o = hexwar_in(
        &dir,
        &["render", "--save", "g.toml", "--turn", "9", "-o", "m.svg"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("reaches only turn 2"), "{}", err(&o));
    assert!(!dir.join("m.svg").exists());
}
