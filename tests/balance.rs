//! `hexwar balance`: the change it finds is the smallest that passes, the file it writes passes
//! `hexwar test` on the very figures it reported, and bad input is refused before any game.

use std::path::{Path, PathBuf};

use crate::common::{hexwar, stderr, stdout};

/// The meeting engagement with its turn limit moved from 5 to `turns` and its `[expect]` batch
/// cut to `runs` games, written into `dir`.
fn damaged(dir: &Path, turns: u32, runs: u32) -> PathBuf {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/scenarios/meeting_engagement.toml"))
        .unwrap()
        .replacen("turns = 5", &format!("turns = {turns}"), 1)
        .replacen("runs = 10000", &format!("runs = {runs}"), 1);
    let path = dir.join("damaged.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn json(args: &[&str]) -> (std::process::Output, serde_json::Value) {
    let out = hexwar(args);
    let v = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", stdout(&out), stderr(&out));
    });
    (out, v)
}

#[test]
fn balance_finds_the_smallest_change_and_writes_what_hexwar_test_passes() {
    let dir = tempfile::tempdir().unwrap();
    let file = damaged(dir.path(), 7, 10000);
    let file = file.to_str().unwrap();
    let written = dir.path().join("balanced.toml");
    let (out, v) = json(&[
        "balance",
        file,
        "--vary",
        "turns",
        "--vary",
        "first",
        "--write",
        written.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(v["result"], "balanced");
    // Every change it raced is listed, the one found among those that passed.
    let candidates = v["candidates"].as_array().unwrap();
    assert_eq!(candidates.len() as u64, v["singles"].as_u64().unwrap());
    assert!(
        candidates
            .iter()
            .any(|c| c["change"] == v["change"] && c["passed"] == true)
    );
    assert!(
        candidates
            .iter()
            .all(|c| c["games"].as_u64().unwrap() >= 200)
    );
    assert!(
        v["before"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["verdict"] == "fail"),
        "{v}"
    );
    // Seven turns where five were balanced: the turn limit back down is one field; of the
    // turn limits that pass, the one nearest seven.
    let change = v["change"].as_array().unwrap();
    assert_eq!(change.len(), 1, "{v}");
    let step = change[0].as_str().unwrap();
    assert!(step.starts_with("turns 7 -> "), "{step}");
    // `hexwar test` of the file written plays the same games and gives the same figures.
    let test = hexwar(&["test", written.to_str().unwrap(), "--json", "-q"]);
    assert!(test.status.success(), "{}", stderr(&test));
    let t: serde_json::Value = serde_json::from_str(&stdout(&test)).unwrap();
    let findings = t["scenarios"][0]["findings"].as_array().unwrap();
    let after = v["after"].as_array().unwrap();
    assert_eq!(findings.len(), after.len());
    for (f, a) in findings.iter().zip(after) {
        assert_eq!(f["verdict"], "pass");
        assert_eq!(f["value"], a["value"]);
        assert_eq!(f["ci95"], a["ci95"]);
    }
    // Only the turn limit changed, the rest of the file (its comments too) as it was.
    let diff = v["toml_diff"].as_str().unwrap();
    let changed: Vec<&str> = diff
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("--- ")
                && !l.starts_with("+++ ")
        })
        .collect();
    assert_eq!(changed.len(), 2, "{diff}");
    assert!(
        changed[0].starts_with("-turns = 7") && changed[1].starts_with("+turns = "),
        "{diff}"
    );
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("# Balance (hexwar test scenarios/)."));
}

#[test]
fn a_scenario_no_change_can_balance_is_said_so_with_the_closest_change() {
    let dir = tempfile::tempdir().unwrap();
    // Seven turns, and only the side that moves first may change: not enough.
    let file = damaged(dir.path(), 7, 1000);
    let written = dir.path().join("never.toml");
    let (out, v) = json(&[
        "balance",
        file.to_str().unwrap(),
        "--vary",
        "first",
        "--write",
        written.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(v["result"], "unbalanceable");
    assert!(v["change"].is_null());
    assert_eq!(v["closest"]["change"][0], "first soviet -> us");
    assert!(
        !written.exists(),
        "nothing is written when nothing balances"
    );
}

#[test]
fn balance_refuses_bad_input_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let file = damaged(dir.path(), 7, 1000);
    let file = file.to_str().unwrap();
    let no_expect = dir.path().join("no_expect.toml");
    let text = std::fs::read_to_string(file).unwrap();
    std::fs::write(&no_expect, &text[..text.find("[expect]").unwrap()]).unwrap();
    let bad_range = dir.path().join("bad_range.toml");
    std::fs::write(
        &bad_range,
        text.replace("between = [4.5, 5.0]", "between = [5.0, 4.5]"),
    )
    .unwrap();
    // The range that cannot hold, at its line and column.
    let line = text
        .lines()
        .position(|l| l.contains("between = [4.5, 5.0]"))
        .unwrap()
        + 1;
    let col = text.lines().nth(line - 1).unwrap().find("[4.5").unwrap() + 1;
    let at = format!(
        "bad_range.toml:{line}:{col}: [expect]: `between` of a game length must be [LOW, HIGH]"
    );
    for (args, message) in [
        (vec![no_expect.to_str().unwrap()], "no [expect] section"),
        (vec![bad_range.to_str().unwrap()], at.as_str()),
        (vec![file, "--vary", "t72.wings"], "unknown field `wings`"),
        (
            vec![file, "--vary", "t99.assault"],
            "unknown unit type `t99`",
        ),
        (
            vec![file, "--vary", "jaeger.assault"],
            "unit type `jaeger` is not in this scenario",
        ),
        (
            vec![file, "--vary", "t72.assault=1..20"],
            "t72.assault = 20 is outside 0..12",
        ),
        (vec![file, "--vary", "t72.assault=4..2"], "4..2 is empty"),
        (vec![file, "--vary", "turns=0..3"], "a turn limit is 1 to"),
        (
            vec![file, "--vary", "speed"],
            "unknown knob `speed` (the knobs: turns, first, objectives",
        ),
        (
            vec![file, "--vary", "trns"],
            "unknown knob `trns`; did you mean `turns`?",
        ),
        (vec![file, "--write", file], "--write"),
        (vec![file, "--pairs", file], "not a balance file"),
        (vec![file, "--ai", "nato=doctrine"], "no side `nato`"),
    ] {
        let mut all = vec!["balance"];
        all.extend(args);
        let out = hexwar(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{all:?}: {} lacks {message}",
            stderr(&out)
        );
        assert!(stdout(&out).is_empty(), "{all:?}: no game, no report");
    }
}

#[test]
fn diff_names_every_change_and_what_it_did_on_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let before = damaged(dir.path(), 5, 10000);
    let text = std::fs::read_to_string(&before).unwrap();
    let after = dir.path().join("after.toml");
    std::fs::write(
        &after,
        text.replacen("turns = 5", "turns = 6", 1).replacen(
            "[[objectives]]\nname = \"Hohenroth church\"\nat = \"0604\"\n",
            "",
            1,
        ) + "\n[types.t72]\nassault = 4\n",
    )
    .unwrap();
    let (before, after) = (before.to_str().unwrap(), after.to_str().unwrap());
    let (out, v) = json(&["diff", before, after, "--runs", "300", "--json", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let changes: Vec<String> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| format!("{}: {} -> {}", c["what"], c["before"], c["after"]))
        .collect();
    assert_eq!(
        changes,
        [
            r#""turns": "5" -> "6""#,
            r#""objective 0604": "Hohenroth church" -> null"#,
            r#""stat t72.assault": "3" -> "4 (the scenario's own)""#,
        ],
        "{v}"
    );
    // A version against itself: nothing changed, and every measure moved by exactly nothing.
    let (out, same) = json(&["diff", before, before, "--runs", "200", "--json", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(same["changes"].as_array().unwrap().is_empty());
    for m in same["measures"].as_array().unwrap() {
        assert_eq!(m["before"], m["after"], "{m}");
        assert_eq!(m["ci95"], serde_json::json!([0.0, 0.0]), "{m}");
    }
    // More turns for the attacker: its win rate rises, on the same games, and the interval
    // says so.
    let win = &v["measures"][0];
    assert_eq!(win["measure"], "win rate of soviet");
    assert!(win["ci95"][0].as_f64().unwrap() > 0.0, "{win}");
}

#[test]
fn the_skill_trace_ranks_the_ais_and_tells_a_game_of_skill_from_a_dice_game() {
    let dir = tempfile::tempdir().unwrap();
    let plot = dir.path().join("skill.svg");
    let (out, v) = json(&[
        "skill",
        "scenarios/meeting_engagement.toml",
        "--ladder",
        "random,doctrine@1,doctrine",
        "--runs",
        "120",
        "--plot",
        plot.to_str().unwrap(),
        "--json",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let sides = v["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    for s in sides {
        let rungs = s["rungs"].as_array().unwrap();
        let ais: Vec<&str> = rungs.iter().map(|r| r["ai"].as_str().unwrap()).collect();
        assert_eq!(ais, ["random", "doctrine@1", "doctrine"]);
        let rate = |i: usize| rungs[i]["win_rate"].as_f64().unwrap();
        let gap = s["gap"].as_f64().unwrap();
        assert!((gap - (rate(2) - rate(0))).abs() < 1e-12, "{s}");
        // Random play loses to the doctrine AI; the doctrine AI holds its own.
        assert!(rate(0) < 0.1 && rate(2) > 0.3, "{s}");
        assert_eq!(s["dice_game"], false, "{s}");
        let rho = s["spearman"].as_f64().unwrap();
        let [lo, hi] = [0, 1].map(|k| s["spearman_ci95"][k].as_f64().unwrap());
        assert!(
            (-1.0..=1.0).contains(&lo) && lo <= rho && rho <= hi && hi <= 1.0,
            "{s}"
        );
    }
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("doctrine@1") && svg.contains("<svg"));
    for (args, message) in [
        (vec!["--ladder", "doctrine"], "two AIs at least"),
        (vec!["--ladder", "random,genius"], "AI `genius`"),
        (vec!["--opponent", "genius"], "AI `genius`"),
        (vec!["--side", "nato"], "--side `nato`: the sides are"),
    ] {
        let mut all = vec!["skill", "scenarios/meeting_engagement.toml"];
        all.extend(args);
        let out = hexwar(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{all:?}: {}", stderr(&out));
    }
}

#[test]
fn shards_of_test_tune_and_skill_merge_into_exactly_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [&[&str]; 4] = [
        &[
            "test",
            "scenarios/night_recon.toml",
            "scenarios/dawn_assault.toml",
            "--runs",
            "300",
        ],
        &[
            "tune",
            "scenarios/night_recon.toml",
            "--vary",
            "brdm2.assault=0..2",
            "--runs",
            "200",
        ],
        &[
            "tune",
            "scenarios/meeting_engagement.toml",
            "--sensitivity",
            "--runs",
            "60",
        ],
        &[
            "skill",
            "scenarios/meeting_engagement.toml",
            "--ladder",
            "random,doctrine",
            "--runs",
            "90",
        ],
    ];
    let mut files_of = Vec::new();
    for args in runs {
        let single = hexwar(&[args, &["--json", "-q"]].concat());
        assert!(single.status.success(), "{args:?}: {}", stderr(&single));
        let mut files = Vec::new();
        // Shards in any order, as a cluster returns them.
        for i in [2, 0, 1] {
            let shard = format!("{i}/3");
            let out = hexwar(&[args, &["--json", "-q", "--shard", &shard]].concat());
            assert!(out.status.success(), "{args:?} {shard}: {}", stderr(&out));
            let path = dir.path().join(format!("{}-{i}.json", files_of.len()));
            std::fs::write(&path, &out.stdout).unwrap();
            files.push(path.to_str().unwrap().to_owned());
        }
        let merged = hexwar(
            &[
                &["merge", "--json"][..],
                &files.iter().map(String::as_str).collect::<Vec<_>>(),
            ]
            .concat(),
        );
        assert!(merged.status.success(), "{args:?}: {}", stderr(&merged));
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_slice(&single.stdout).unwrap(),
            serde_json::from_slice(&merged.stdout).unwrap(),
        );
        assert_eq!(a, b, "{args:?}");
        files_of.push(files);
    }
    // A shard missing, a shard twice, shards of two questions: refused, exit 2.
    let (test, tune) = (&files_of[0], &files_of[1]);
    for (files, message) in [
        (vec![&test[0], &test[1]], "2 of 3 shards; missing"),
        (vec![&test[0], &test[0]], "given twice"),
        (vec![&test[0], &tune[1]], "shards of another run"),
    ] {
        let out = hexwar(
            &[
                &["merge"][..],
                &files.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(2), "{files:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(message),
            "{files:?}: {}",
            stderr(&out)
        );
    }
    // --shard writes the shard file for merge: it needs --json.
    let out = hexwar(&["test", "scenarios/night_recon.toml", "--shard", "0/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--json"), "{}", stderr(&out));
}

/// `hexwar balance FILE ARGS --json` in shards, merged as a cluster would (the pairs stage
/// too, when no single passes), and the merged report beside the single run's.
fn sharded_balance(
    dir: &Path,
    file: &str,
    args: &[&str],
    shards: u64,
) -> (serde_json::Value, serde_json::Value) {
    let single = hexwar(&[&["balance", file, "--json", "-q"][..], args].concat());
    let stage = |name: &str, extra: &[&str]| -> Vec<String> {
        (0..shards)
            .map(|i| {
                let shard = format!("{i}/{shards}");
                let out = hexwar(
                    &[
                        &["balance", file, "--json", "-q", "--shard", &shard][..],
                        args,
                        extra,
                    ]
                    .concat(),
                );
                assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
                let path = dir.join(format!("{name}-{i}.json"));
                std::fs::write(&path, &out.stdout).unwrap();
                path.to_str().unwrap().to_owned()
            })
            .collect()
    };
    let merge = |files: &[String]| {
        hexwar(
            &[
                &["merge", "--json"][..],
                &files.iter().map(String::as_str).collect::<Vec<_>>(),
            ]
            .concat(),
        )
    };
    let first = merge(&stage("singles", &[]));
    let mut merged: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    if merged["hexwar"] == "balance" {
        // No single passed: the merged singles start the pairs stage.
        let singles = dir.join("singles.json");
        std::fs::write(&singles, &first.stdout).unwrap();
        let second = merge(&stage("pairs", &["--pairs", singles.to_str().unwrap()]));
        assert_eq!(second.status.code(), single.status.code());
        merged = serde_json::from_slice(&second.stdout).unwrap();
    } else {
        assert_eq!(first.status.code(), single.status.code());
    }
    let mut single: serde_json::Value = serde_json::from_slice(&single.stdout).unwrap();
    for v in [&mut single, &mut merged] {
        v.as_object_mut().unwrap().remove("seconds");
    }
    (single, merged)
}

#[test]
fn a_balance_in_shards_merges_into_exactly_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    // A single change passes: the merge of the singles' shards is the report.
    let file = damaged(dir.path(), 7, 10000);
    let file = file.to_str().unwrap();
    let (single, merged) =
        sharded_balance(dir.path(), file, &["--vary", "turns", "--vary", "first"], 3);
    assert_eq!(single["result"], "balanced", "{single}");
    assert_eq!(single["pairs"], 0);
    assert_eq!(single, merged);
    let file = damaged(dir.path(), 7, 2000);
    let file = file.to_str().unwrap();
    // No single change passes, and the pairs race in a second stage of shards.
    let (single, merged) = sharded_balance(
        dir.path(),
        file,
        &[
            "--vary",
            "turns=6..6",
            "--vary",
            "first",
            "--vary",
            "m1.assault",
            "--max-step",
            "1",
        ],
        2,
    );
    assert!(single["pairs"].as_u64().unwrap() > 0, "{single}");
    assert_eq!(single, merged);
}

#[test]
fn the_first_movers_advantage_is_the_batch_against_its_own_games_with_the_other_side_first() {
    let dir = tempfile::tempdir().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text =
        std::fs::read_to_string(format!("{root}/scenarios/meeting_engagement.toml")).unwrap();
    let swapped = dir.path().join("us_first.toml");
    std::fs::write(
        &swapped,
        text.replacen("first = \"soviet\"", "first = \"us\"", 1),
    )
    .unwrap();
    let batch = |file: &str, extra: &[&str]| -> serde_json::Value {
        let out = hexwar(&[&["batch", file, "--runs", "400", "--json", "-q"][..], extra].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let measured = batch("scenarios/meeting_engagement.toml", &["--first-mover"]);
    let as_is = batch("scenarios/meeting_engagement.toml", &[]);
    let other_first = batch(swapped.to_str().unwrap(), &[]);
    // The Soviets move first: their wins as they are, less their wins of the same games
    // with the Americans first.
    let soviet = |v: &serde_json::Value| v["sides"][0]["wins"].as_f64().unwrap();
    let edge = (soviet(&as_is) - soviet(&other_first)) / 400.0;
    let m = &measured["measures"];
    assert!(
        (m["first_mover"].as_f64().unwrap() - edge).abs() < 1e-12,
        "{m}"
    );
    let [lo, hi] = [0, 1].map(|k| m["first_mover_ci95"][k].as_f64().unwrap());
    assert!(lo < edge && edge < hi);
    // The games themselves are the batch's own.
    assert_eq!(measured["sides"], as_is["sides"]);
    // Without the flag the measure is absent, not zero.
    assert!(as_is["measures"].get("first_mover").is_none());
}

#[test]
fn a_file_written_elsewhere_reads_the_data_that_was_measured() {
    let dir = tempfile::tempdir().unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let (cat, src, dst) = (
        dir.path().join("cat"),
        dir.path().join("src"),
        dir.path().join("dst"),
    );
    for d in [&cat, &src, &dst] {
        std::fs::create_dir(d).unwrap();
    }
    for f in ["soviet.toml", "nato.toml"] {
        std::fs::copy(format!("{root}/data/units/{f}"), cat.join(f)).unwrap();
    }
    let file = damaged(&src, 7, 10000);
    let written = dst.join("balanced.toml");
    let out = hexwar(&[
        "balance",
        file.to_str().unwrap(),
        "--vary",
        "turns",
        "--catalog",
        cat.to_str().unwrap(),
        "--write",
        written.to_str().unwrap(),
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("catalog = \"../cat\""), "{text}");
    let test = hexwar(&["test", written.to_str().unwrap(), "-q"]);
    assert!(test.status.success(), "{}", stderr(&test));
    assert!(
        stdout(&test).contains("3 pass, 0 fail"),
        "{}",
        stdout(&test)
    );
}
