//! Nothing lost to a signal, a full disk or a summary that claims more than it holds (#45):
//! real signals sent to the real binary, a full device, edited files. Part of the
//! `reliability` test binary.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use super::{err, hexwar_fed, hexwar_in, no_temporaries, out, workspace};

/// Starts `hexwar ARGS` in `dir`, its output captured (standard input from `input`, if any).
fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hexwar binary runs")
}

fn send(child: &Child, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{signal}");
}

/// Waits for the end of a command sent `signal`: it must end well inside `within` (a generous
/// bound for a loaded machine: the finding was a command still running 300 s after the signal).
fn ended(mut child: Child, signal: &str, within: Duration) -> Output {
    let sent = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if sent.elapsed() > within {
            let _ = child.kill();
            panic!("still running {within:?} after {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const WITHIN: Duration = Duration::from_secs(20);

/// A search game takes seconds: a signal still stops a batch of them within moments, for each
/// of SIGINT, SIGTERM and SIGHUP; the summary says `complete: false`, the status is 130, the CSV
/// holds exactly the games counted and no temporary file is left.
#[test]
fn a_signal_stops_a_batch_of_search_games_at_once_and_keeps_what_was_played() {
    let dir = workspace("signals");
    for signal in ["INT", "TERM", "HUP"] {
        let child = start(
            &dir,
            &[
                "batch",
                "s.toml",
                "-q",
                "--runs",
                "100000",
                "--ai",
                "soviet=search:4096",
                "--json",
                "--csv",
                "g.csv",
            ],
        );
        std::thread::sleep(Duration::from_millis(1500));
        send(&child, signal);
        let o = ended(child, signal, WITHIN);
        assert_eq!(o.status.code(), Some(130), "{signal}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("interrupted (SIG{signal})")),
            "{}",
            err(&o)
        );
        let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        assert_eq!(v["complete"], false);
        let runs = v["runs"].as_u64().unwrap();
        let rows = std::fs::read_to_string(dir.join("g.csv"))
            .unwrap()
            .lines()
            .count() as u64;
        assert_eq!(rows, runs + 1, "{signal}: the CSV holds the games counted");
        no_temporaries(&dir);
    }
}

/// `tune` and `arena` stopped by SIGTERM say in their JSON that they are incomplete, how many
/// values they were asked, and exit with 130.
#[test]
fn tune_and_arena_stopped_by_a_signal_say_complete_false() {
    let dir = workspace("tune-signal");
    let child = start(
        &dir,
        &[
            "tune",
            "s.toml",
            "--vary",
            "t72.assault=0..12",
            "--runs",
            "5000",
            "--json",
        ],
    );
    std::thread::sleep(Duration::from_millis(1500));
    send(&child, "TERM");
    let o = ended(child, "SIGTERM", WITHIN);
    assert_eq!(o.status.code(), Some(130), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["values_asked"], 13);
    assert!(v["values"].as_array().unwrap().len() < 13);

    let child = start(
        &dir,
        &[
            "arena", "s.toml", "--ai", "doctrine", "--ai", "search", "--runs", "100000", "--json",
            "-q",
        ],
    );
    std::thread::sleep(Duration::from_millis(1500));
    send(&child, "TERM");
    let o = ended(child, "SIGTERM", WITHIN);
    assert_eq!(o.status.code(), Some(130), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["complete"], false);
}

/// `hexwar test` stopped by Ctrl-C writes its JSON and its `JUnit` report for what it measured,
/// marked incomplete, names the scenarios it did not reach, and exits 130, not 1 (the status
/// of a failed expectation).
#[test]
fn an_interrupted_test_writes_its_json_and_junit_for_what_it_measured() {
    let dir = workspace("test-signal");
    std::fs::copy(
        Path::new(super::ROOT).join("scenarios/night_recon.toml"),
        dir.join("t.toml"),
    )
    .unwrap();
    let child = start(
        &dir,
        &[
            "test", "s.toml", "t.toml", "--runs", "1000000", "--json", "--junit", "j.xml", "-q",
        ],
    );
    std::thread::sleep(Duration::from_millis(1500));
    send(&child, "INT");
    let o = ended(child, "SIGINT", WITHIN);
    assert_eq!(o.status.code(), Some(130), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["complete"], false);
    assert_eq!(v["not_tested"][0], "t.toml");
    let first = &v["scenarios"][0];
    assert_eq!(first["complete"], false);
    assert!(first["games"].as_u64().unwrap() < 1_000_000);
    let xml = std::fs::read_to_string(dir.join("j.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testsuite"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    assert_eq!(suites, ["s.toml", "t.toml"]);
    assert!(xml.contains("incomplete, interrupted (SIGINT)"), "{xml}");
    assert!(xml.contains("not tested: interrupted (SIGINT)"), "{xml}");
    no_temporaries(&dir);
}

/// A game at `hexwar play --save` fed by a script that is killed (or whose terminal closes) is
/// saved as it stood, ends with 130, and the save replays.
#[test]
fn a_scripted_game_killed_is_saved_as_it_stood() {
    let dir = workspace("play-signal");
    for signal in ["INT", "TERM", "HUP"] {
        let save = format!("{signal}.toml");
        let mut child = Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args([
                "play",
                "s.toml",
                "--side",
                "soviet",
                "--ai",
                "us=doctrine",
                "--save",
                &save,
            ])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A script that gives a line and then waits, its pipe open.
        let mut input = child.stdin.take().unwrap();
        std::io::Write::write_all(&mut input, b"end\n").unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        send(&child, signal);
        let o = ended(child, signal, WITHIN);
        drop(input);
        assert_eq!(o.status.code(), Some(130), "{signal}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("the game stops here, saved to {save}")),
            "{}",
            err(&o)
        );
        let saved = std::fs::read_to_string(dir.join(&save)).unwrap();
        // The script's line, and what the AI played after it.
        assert!(
            saved.contains("side = \"soviet\"\nphase = \"deployment\"\ndo = \"end\""),
            "{saved}"
        );
        let replay = hexwar_in(&dir, &["replay", &save]);
        assert!(replay.status.success(), "{}", err(&replay));
        no_temporaries(&dir);
    }
}

/// A full device: exit 2, the file named, and the summary still printed.
#[test]
fn a_full_disk_is_an_error_naming_the_file_and_the_summary_is_kept() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let dir = workspace("full");
    let o = hexwar_in(
        &dir,
        &[
            "batch",
            "s.toml",
            "--runs",
            "300",
            "-q",
            "--json",
            "--csv",
            "/dev/full",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("/dev/full: --csv: cannot write: No space left on device"),
        "{}",
        err(&o)
    );
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["runs"], 300);
    for args in [
        &["test", "s.toml", "--runs", "20", "--junit", "/dev/full"][..],
        &["replay", "--seed", "1", "s.toml", "--html", "/dev/full"],
    ] {
        let o = hexwar_in(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", err(&o));
        assert!(err(&o).contains("/dev/full"), "{}", err(&o));
    }
}

/// Two shards of a batch, as JSON values, for editing.
fn shards(dir: &Path, runs: &str) -> [serde_json::Value; 2] {
    ["0/2", "1/2"].map(|shard| {
        let o = hexwar_in(
            dir,
            &[
                "batch", "s.toml", "--runs", runs, "--shard", shard, "--json", "-q",
            ],
        );
        assert!(o.status.success(), "{}", err(&o));
        serde_json::from_str(&out(&o)).unwrap()
    })
}

fn merge(dir: &Path, files: &[(&str, &serde_json::Value)], more: &[&str]) -> Output {
    let mut args = vec!["merge"];
    for (name, v) in files {
        std::fs::write(dir.join(name), serde_json::to_string(v).unwrap()).unwrap();
        args.push(name);
    }
    args.extend(more);
    hexwar_in(dir, &args)
}

/// `merge` never claims games the shards cannot hold: a shard with one game more than it has
/// (its wins and ends edited to fit), or a sum of turns no games could give, is refused;
/// `--partial` with a shard missing says which.
#[test]
fn merge_refuses_counts_the_shards_cannot_hold() {
    let dir = workspace("merge-counts");
    let [a, b] = shards(&dir, "20");
    assert!(
        merge(&dir, &[("a.json", &a), ("b.json", &b)], &[])
            .status
            .success()
    );
    let mut more = b.clone();
    more["runs"] = (more["runs"].as_u64().unwrap() + 1).into();
    more["sides"][0]["wins"] = (more["sides"][0]["wins"].as_u64().unwrap() + 1).into();
    let reason = more["end_reasons"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    more["end_reasons"][&reason] = (more["end_reasons"][&reason].as_u64().unwrap() + 1).into();
    let turns = more["turns_sum"].as_u64().unwrap() / 10;
    more["turns_sum"] = (more["turns_sum"].as_u64().unwrap() + turns).into();
    more["turns_sq_sum"] = (more["turns_sq_sum"].as_u64().unwrap() + turns * turns).into();
    let o = merge(&dir, &[("a.json", &a), ("b.json", &more)], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(
        err(&o).contains("11 games, complete, where its shards hold 10 of the batch's 20"),
        "{}",
        err(&o)
    );
    let mut long = b.clone();
    long["turns_sum"] = 500_000_000_000_000_000_u64.into();
    let o = merge(&dir, &[("a.json", &a), ("b.json", &long)], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(err(&o).contains("turns: a sum of"), "{}", err(&o));
    let o = merge(&dir, &[("a.json", &a)], &["--partial"]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("(INCOMPLETE: 1 of 2 shards missing;"),
        "{}",
        out(&o)
    );
}

/// The arena: the same scenario named twice is refused (its games would count twice); shards
/// that name one scenario by two paths merge; a name that is another AI's is refused (the
/// anchor is `doctrine@1`, by what plays).
#[test]
fn the_arena_counts_a_scenario_once_and_names_no_ai_falsely() {
    let dir = workspace("arena-names");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    let o = hexwar_in(
        &dir,
        &[
            "arena", "s.toml", "./s.toml", "--ai", "doctrine", "--ai", "random", "--runs", "2",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(err(&o).contains("are the same scenario"), "{}", err(&o));
    let o = hexwar_in(
        &dir,
        &[
            "arena",
            "s.toml",
            "--ai",
            "doctrine@1=random",
            "--ai",
            "doctrine",
            "--runs",
            "2",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(
        err(&o).contains("`doctrine@1` is the name of another AI"),
        "{}",
        err(&o)
    );
    let long = format!("{}=random", "x".repeat(5000));
    let bidi = "a\u{202e}b=random";
    for name in [long.as_str(), bidi] {
        let o = hexwar_in(
            &dir,
            &[
                "arena", "s.toml", "--ai", name, "--ai", "doctrine", "--runs", "2",
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    }
    let shard = |from: &Path, file: &str, i: &str| {
        let o = hexwar_in(
            from,
            &[
                "arena", file, "--ai", "doctrine", "--ai", "random", "--runs", "4", "--shard", i,
                "--json", "-q",
            ],
        );
        assert!(o.status.success(), "{}", err(&o));
        serde_json::from_str::<serde_json::Value>(&out(&o)).unwrap()
    };
    let a = shard(&dir, "s.toml", "0/2");
    let b = shard(&dir.join("sub"), "../s.toml", "1/2");
    let o = merge(&dir, &[("a.json", &a), ("b.json", &b)], &[]);
    assert!(o.status.success(), "{}", err(&o));
    let mut more = b.clone();
    let pairs = &mut more["results"][0]["pairs"]["counts"];
    pairs[4] = (pairs[4].as_u64().unwrap() + 1).into();
    more["results"][0]["a_wins"] = (more["results"][0]["a_wins"].as_u64().unwrap() + 2).into();
    let o = merge(&dir, &[("a.json", &a), ("b.json", &more)], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(err(&o).contains("where its shards hold 2"), "{}", err(&o));
}

/// The SPRT takes hypotheses it can test and error rates it can print, and no SPRT flag
/// without `--sprt`.
#[test]
fn the_sprt_refuses_what_it_cannot_test() {
    let dir = workspace("sprt");
    for (args, says) in [
        (
            &[
                "--sprt", "random", "doctrine", "--elo0", "0", "--elo1", "10000",
            ][..],
            "within -1000 to +1000",
        ),
        (
            &[
                "--sprt", "doctrine", "random", "--elo0", "0", "--elo1", "100", "--alpha", "1e-300",
            ],
            "--alpha and --beta must lie between 0.000001 and 0.5",
        ),
        (&["--elo0", "0", "--elo1", "20"], "--sprt"),
    ] {
        let mut all = vec!["arena", "s.toml", "--ai", "doctrine", "--ai", "random"];
        all.extend(args);
        let o = hexwar_in(&dir, &all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", out(&o));
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
        assert!(err(&o).len() < 2000, "{}", err(&o));
    }
}

/// Edited and hostile files: an `[expect]` range of other than two numbers, a side whose AI
/// does not read (one problem, not five), two AIs for one side, an upper-case hash in a save,
/// a save whose scenario was cut to fewer turns.
#[test]
fn edited_files_are_refused_where_they_are_wrong() {
    let dir = workspace("edited");
    let text = std::fs::read_to_string(dir.join("s.toml")).unwrap();
    let with = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}");
        std::fs::write(dir.join("e.toml"), text.replacen(from, to, 1)).unwrap();
        hexwar_in(&dir, &["check", "e.toml"])
    };
    let range = text
        .lines()
        .find(|l| l.contains("between = ["))
        .unwrap()
        .to_owned();
    let at = range.find("between = [").unwrap() + "between = [".len();
    let end = at + range[at..].find(']').unwrap();
    for (bad, says) in [
        ("0.4, 0.5, 0.6", "must be two numbers [LOW, HIGH], not 3"),
        ("0.1, 0.9, \"x\", {a = 1}", "invalid type: string \"x\""),
    ] {
        let edited = format!("{}{bad}{}", &range[..at], &range[end..]);
        let o = with(&range, &edited);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(err(&o).contains(says), "{bad}: {}", err(&o));
    }
    let o = with("id = \"soviet\"\n", "id = \"soviet\"\nai = 5\n");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    assert!(err(&o).contains("invalid type: integer `5`"), "{}", err(&o));

    let o = hexwar_in(
        &dir,
        &[
            "batch",
            "s.toml",
            "--runs",
            "2",
            "--ai",
            "soviet=doctrine",
            "--ai",
            "soviet=random",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("two AIs for side `soviet`"), "{}", err(&o));

    let o = hexwar_in(&dir, &["run", "s.toml", "--seed", "3", "--save", "r.toml"]);
    assert!(o.status.success(), "{}", err(&o));
    let save = std::fs::read_to_string(dir.join("r.toml")).unwrap();
    let hash_at = save.find("hash = \"").unwrap() + "hash = \"".len();
    let upper = format!(
        "{}{}{}",
        &save[..hash_at],
        save[hash_at..hash_at + 16].to_uppercase().replace('0', "A"),
        &save[hash_at + 16..]
    );
    std::fs::write(dir.join("u.toml"), upper).unwrap();
    let o = hexwar_in(&dir, &["replay", "u.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("lower-case hexadecimal"), "{}", err(&o));
    let turns = save.find("\nturns = ").unwrap();
    let cut = format!("{}\nturns = 2{}", &save[..turns], {
        let rest = &save[turns + 1..];
        &rest[rest.find('\n').unwrap()..]
    });
    std::fs::write(dir.join("c.toml"), cut).unwrap();
    let o = hexwar_in(&dir, &["replay", "c.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(
        err(&o).contains("the battle ended in turn 2 of 2"),
        "{}",
        err(&o)
    );
}

/// A line of megabytes at the prompt costs nothing and is not repeated whole.
#[test]
fn a_huge_line_at_the_prompt_gives_a_short_answer() {
    let dir = workspace("huge-line");
    let word = "legal ".to_owned() + &"x".repeat(5_000_000);
    let input = format!("{word}\nfire {}\nquit\n", "y".repeat(1_000_000));
    let o = hexwar_fed(
        &dir,
        &["play", "s.toml", "--side", "soviet", "--ai", "us=doctrine"],
        input.as_bytes(),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).len() + err(&o).len() < 200_000,
        "{} bytes",
        out(&o).len()
    );
    assert!(
        out(&o).contains("unknown unit `xxxxxxxx"),
        "{}",
        &out(&o)[..2000]
    );
}

/// `--vary` ranges are checked against the field's bounds before anything is allocated.
#[test]
fn a_tune_range_beyond_the_field_is_refused_before_allocation() {
    let dir = workspace("tune-range");
    for range in ["0..4294967295", "0..100000000", "-9223372036854775808..0"] {
        let o = hexwar_in(
            &dir,
            &[
                "tune",
                "s.toml",
                "--vary",
                &format!("t72.assault={range}"),
                "--runs",
                "20",
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{range}");
        assert!(err(&o).contains("is outside 0..12"), "{range}: {}", err(&o));
    }
}
