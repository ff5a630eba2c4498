//! End-to-end tests of the `hexwar` binary on the bundled data and scenario files.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

use common::{hexwar, json_schema, stderr, stdout};

fn files_in(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
    v.sort();
    v
}

fn rel(p: &Path) -> String {
    p.strip_prefix(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn every_bundled_scenario_checks_ok() {
    let scenarios = files_in("scenarios");
    assert!(scenarios.len() >= 3);
    for s in scenarios {
        let name = rel(&s);
        let out = hexwar(&["check", &name]);
        assert_eq!(stdout(&out), format!("{name}: ok\n"), "{}", stderr(&out));
        assert!(out.status.success());
    }
}

/// Each file in tests/data/bad/ starts with `# expect: LINE:COL: MESSAGE` lines: exactly the
/// problems `check` must report, in order.
#[test]
fn every_broken_scenario_reports_each_problem_with_line_and_column() {
    let bad = files_in("tests/data/bad");
    assert!(bad.len() >= 10);
    for f in bad {
        let name = rel(&f);
        let text = std::fs::read_to_string(&f).unwrap();
        let expected: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# expect: "))
            .map(|e| format!("{name}:{e}"))
            .collect();
        assert!(!expected.is_empty(), "{name} has no # expect: lines");
        let out = hexwar(&["check", &name]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        // Problems go to stderr, like every other command's (stdout stays empty).
        let got: Vec<String> = stderr(&out).lines().map(str::to_owned).collect();
        assert_eq!(got, expected, "{name}");
        assert!(stdout(&out).is_empty(), "{name}: {}", stdout(&out));
    }
}

#[test]
fn check_reports_good_and_bad_files_together() {
    let out = hexwar(&[
        "check",
        "scenarios/meeting_engagement.toml",
        "tests/data/bad/stacking.toml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "scenarios/meeting_engagement.toml: ok\n");
    assert!(stderr(&out).contains("tests/data/bad/stacking.toml:74:6: 4 units stacked in 0102"));
}

#[test]
fn a_missing_file_is_bad_input_not_a_panic() {
    let out = hexwar(&["check", "no/such/file.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.toml: cannot read"));
    assert!(!stderr(&out).contains("panicked"));
}

#[test]
fn a_broken_catalog_is_reported_with_its_line() {
    let dir = std::env::temp_dir().join(format!("hexwar-bad-catalog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("units.toml"),
        "[[types]]\nid = \"x\"\nname = \"X\"\nnation = \"n\"\nclass = \"tank\"\n",
    )
    .unwrap();
    let out = hexwar(&[
        "check",
        "scenarios/meeting_engagement.toml",
        "--catalog",
        dir.to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.contains("units.toml:5:9: unknown variant `tank`"),
        "{text}"
    );
}

/// R2.1, R2.2: every stat of a unit type, HQ leadership full and weakened.
#[test]
fn units_json_has_every_stat_with_nulls() {
    let out = hexwar(&["units", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let types = v.as_array().unwrap();
    for nation in ["soviet", "nato"] {
        let n = types.iter().filter(|t| t["nation"] == nation).count();
        assert!(n >= 12, "{nation}: {n} types");
    }
    let sa9 = types.iter().find(|t| t["id"] == "sa9").unwrap();
    assert!(sa9["assault"].is_null(), "SA-9 has no assault factor");
    assert!(sa9.as_object().unwrap().contains_key("assault"));
    let t72 = types.iter().find(|t| t["id"] == "t72").unwrap();
    assert_eq!(t72["weakened"]["assault"], 2);
    let hq = types.iter().find(|t| t["id"] == "hq_mrr").unwrap();
    assert_eq!(
        (
            hq["leadership"].as_u64(),
            hq["weakened"]["leadership"].as_u64()
        ),
        (Some(2), Some(1))
    );
    // Every class and flag RULES.md uses is in the bundled catalog.
    for class in ["infantry", "vehicle", "gun", "hq"] {
        assert!(types.iter().any(|t| t["class"] == class), "{class}");
    }
    for flag in ["recon", "observer", "mounted_assault", "hero", "armored"] {
        assert!(types.iter().any(|t| t[flag] == true), "{flag}");
    }
    assert!(types.iter().any(|t| t["transport"].is_u64()));
    assert!(types.iter().any(|t| t["sidecar"] == false));
    assert!(types.iter().any(|t| t["sidecar"] == true));
    assert!(types.iter().any(|t| t["improvised_tank_assault"].is_u64()));
    assert!(types.iter().any(|t| t["fire"]["indirect"] == true));
}

#[test]
fn units_table_lists_the_catalog() {
    let out = hexwar(&["units"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("t72"));
    assert!(text.contains("dismounts to scouts_on_foot, no sidecar"));
}

#[test]
fn show_draws_labels_terrain_stacks_and_a_legend() {
    let out = hexwar(&["show", "scenarios/meeting_engagement.toml"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("0604 c"), "label and terrain letter");
    assert!(text.contains("  f  forest"), "terrain legend");
    assert!(text.contains("0104  S 2mrb_hq"), "stack list");
    assert!(text.contains("carrying mr_4"), "passengers");
    assert!(text.contains("0604  Hohenroth church"), "objectives");
}

/// A bogged vehicle is marked in the stack list, as every other state is (R5.6): in the game
/// `run --seed 1` plays with the frozen `doctrine@1` on both sides (on the dawn assault as it
/// was frozen with it), `t72_3` bogs in turn 4 and is still bogged after it. `show` plays that
/// game with the AIs given, as `run` does.
#[test]
fn show_marks_a_bogged_vehicle() {
    let out = hexwar(&[
        "show",
        "tests/data/frozen/dawn_assault.toml",
        "--after",
        "4",
        "--seed",
        "1",
        "--ai",
        "soviet=doctrine@1",
        "--ai",
        "nato=doctrine@1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.contains("S t72_3 "))
        .unwrap_or_else(|| panic!("t72_3 in the stack list: {text}"));
    assert!(
        line.contains("t72_3 (T-72A tank company) [disorganized] [bogged]"),
        "{line}"
    );
}

#[test]
fn show_of_a_broken_file_exits_2() {
    let out = hexwar(&["show", "tests/data/bad/unknown_unit_type.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown unit type `t99`"));
}

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        "check", "show", "units", "run", "odds", "batch", "merge", "tune", "render", "replay",
        "arena", "test", "play", "rules", "blunders", "serve",
    ] {
        let out = hexwar(&[cmd, "--help"]);
        assert!(out.status.success());
        assert!(stdout(&out).contains("Example"), "{cmd}");
    }
}

#[test]
fn run_plays_every_bundled_scenario_to_the_end_for_many_seeds() {
    for s in files_in("scenarios") {
        let name = rel(&s);
        for (seed, counterattacks) in (1..=50u64).flat_map(|s| [(s, "on"), (s, "off")]) {
            let seed_text = seed.to_string();
            let args = [
                "run",
                &name,
                "--seed",
                &seed_text,
                "--json",
                "--counterattacks",
                counterattacks,
            ];
            let out = hexwar(&args);
            assert!(
                out.status.success(),
                "{name} seed {seed} {counterattacks}: {}",
                stderr(&out)
            );
            let text = stdout(&out);
            let last = text.lines().last().unwrap();
            let v: serde_json::Value = serde_json::from_str(last).unwrap();
            assert_eq!(v["seed"], seed);
            assert!(
                v["result"]["reason"].is_string(),
                "{name} seed {seed}: {last}"
            );
        }
    }
}

/// R0.3: the same scenario, seed and orders give the same game, event for event.
#[test]
fn run_is_deterministic_for_a_seed_and_prints_it() {
    let a = hexwar(&["run", "scenarios/dawn_assault.toml", "--seed", "7"]);
    let b = hexwar(&["run", "scenarios/dawn_assault.toml", "--seed", "7"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let text = stdout(&a);
    assert!(text.contains("seed 7"));
    assert!(text.contains("Result after turn"));
    assert!(text.contains("Victory points:"));
    let c = hexwar(&["run", "scenarios/dawn_assault.toml", "--seed", "8"]);
    assert_ne!(a.stdout, c.stdout, "another seed, another game");
}

#[test]
fn run_rejects_zero_turns() {
    let out = hexwar(&["run", "scenarios/dawn_assault.toml", "--turns", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn odds_json_is_exact_and_sums_to_one() {
    // The seed's example: a BTR-70 (1 die) with its regimental HQ (+2) rolls 3 dice at 4+ against
    // an M113 that rolls 1. Destroyed needs 2 hits of 3: 1/2. Retreat: exactly 1 hit (3/8) while
    // the M113 misses (1/2): 3/16.
    let out = hexwar(&[
        "odds",
        "btr70,hq_mrr",
        "vs",
        "m113",
        "--json",
        "--counterattacks",
        "off",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], true);
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!((f("defender_destroyed") - 0.5).abs() < 1e-12);
    assert!((f("defender_retreats") - 3.0 / 16.0).abs() < 1e-12);
    assert!((f("attacker_wins") - f("defender_destroyed") - f("defender_retreats")).abs() < 1e-12);
    assert!((f("attacker_wins") + f("defender_holds") - 1.0).abs() < 1e-12);
    assert_eq!(
        v["attacker_hits"].as_array().unwrap().len(),
        4,
        "0 to 3 hits"
    );
    assert!((f("attacker_hits_mean") - 1.5).abs() < 1e-12);
}

#[test]
fn odds_overrun_reports_break_through() {
    let out = hexwar(&["odds", "t72 vs mech_inf", "--overrun", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // Breaks through when all 3 infantry dice miss: 1/8.
    assert!((v["all_break_through"].as_f64().unwrap() - 0.125).abs() < 1e-12);
    assert!(v["defenders_destroyed"].as_f64().unwrap() > 0.9);
}

#[test]
fn odds_rejects_bad_input_with_status_2() {
    for (args, message) in [
        (vec!["odds", "t99 vs m1"], "unknown unit type `t99`"),
        (vec!["odds", "t72 m1"], "expected `ATTACKERS vs DEFENDERS`"),
        (vec!["odds", "t72:sleepy vs m1"], "unknown state `sleepy`"),
        (vec!["odds", "sa9 vs m1"], "R9.10"),
        (vec!["odds", "t72 vs m1", "--overrun"], "R10.1"),
        (
            vec!["odds", "t72 vs m1", "--terrain", "lava"],
            "unknown terrain `lava`",
        ),
        (
            vec!["odds", "t72 vs m1", "--counterattacks", "maybe"],
            "invalid value",
        ),
    ] {
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn odds_with_counterattacks_compute_the_whole_melee() {
    let out = hexwar(&["odds", "btr70,hq_mrr vs m2", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], true);
    assert_eq!(v["counterattacks"], true);
    assert!(v["error_bound"].as_f64().unwrap() < 1e-9);
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!((f("attacker_wins") + f("defender_holds") + f("both_broken") - 1.0).abs() < 1e-12);
    // The melee can only add to what the first round gives the attacker.
    assert!(f("attacker_wins") >= v["first_round"]["attacker_wins"].as_f64().unwrap() - 1e-12);
    let sum = |v: &serde_json::Value| -> f64 {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .sum()
    };
    for side in ["attacker_losses", "defender_losses"] {
        assert!((sum(&v[side]["destroyed"]) - 1.0).abs() < 1e-12, "{side}");
        assert!((sum(&v[side]["weakened"]) - 1.0).abs() < 1e-12, "{side}");
    }
    let end = &v["defenders_end"];
    let ends: f64 = ["held", "destroyed", "retreated", "broke_off"]
        .iter()
        .map(|k| end[k].as_f64().unwrap())
        .sum();
    assert!((ends - 1.0).abs() < 1e-12);
    // One line per unit, with its fates.
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), 3, "{units:?}");
    assert_eq!(units[0]["kind"], "btr70");
    assert_eq!(units[2]["side"], "B");
}

#[test]
fn odds_of_full_stacks_are_exact_and_fast_enough_to_wait_for() {
    // The table, within the stacking rules: three units against three, in a city.
    let out = hexwar(&[
        "odds",
        "t72,t72,mr_coy vs mech_inf,m2,tow_team",
        "--terrain",
        "city",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], true);
    assert!(v["error_bound"].as_f64().unwrap() < 1e-9);
    // Two T-72s no rule tells apart share a line.
    let units = v["units"].as_array().unwrap();
    assert_eq!(units[0]["units"].as_array().unwrap().len(), 2, "{units:?}");
    let text = stdout(&hexwar(&[
        "odds",
        "t72,t72,mr_coy vs mech_inf,m2,tow_team",
        "--terrain",
        "city",
    ]));
    for line in [
        "attacker wins",
        "defender holds",
        "both broken",
        "t72 x2",
        "Exact",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
}

#[test]
fn odds_of_a_large_melee_are_sampled_and_say_so() {
    // Seventeen units: more than the exact chain holds.
    let out = hexwar(&[
        "odds",
        "mr_coy,mr_coy,mr_coy,mr_coy,mr_coy,mr_coy,mr_coy,mr_coy,mr_coy vs \
         mech_inf,mech_inf,mech_inf,mech_inf,mech_inf,mech_inf,mech_inf,mech_inf",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["exact"], false);
    assert!(v["samples"].as_u64().unwrap() >= u64::from(odds::FALLBACK_SAMPLES));
    // Half a point at most, as every sampled figure.
    let se = v["error_bound"].as_f64().unwrap();
    assert!(se > 0.0 && se <= 0.005, "standard error {se}");
}

fn batch_json(extra: &[&str]) -> String {
    let mut args = vec![
        "batch",
        "scenarios/meeting_engagement.toml",
        "--runs",
        "120",
        "--seed",
        "5",
        "--json",
        "-q",
    ];
    args.extend_from_slice(extra);
    let out = hexwar(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

#[test]
fn batch_results_do_not_depend_on_threads_or_shards() {
    let one = batch_json(&["--threads", "1"]);
    let two = batch_json(&["--threads", "2"]);
    assert_eq!(one, two, "thread count changes nothing");
    let dir = std::env::temp_dir().join(format!("hexwar-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for shard in ["0/3", "1/3", "2/3"] {
        let path = dir.join(shard.replace('/', "of"));
        std::fs::write(&path, batch_json(&["--shard", shard])).unwrap();
        files.push(path.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = hexwar(&args);
    std::fs::remove_dir_all(&dir).ok();
    assert!(merged.status.success(), "{}", stderr(&merged));
    // Every count is the same; only the summary's record of its shards differs.
    let counts = |text: &str| {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
        let o = v.as_object_mut().unwrap();
        o.remove("identity");
        o.remove("shards");
        v
    };
    assert_eq!(
        counts(&stdout(&merged)),
        counts(&one),
        "three shards merged equal one run"
    );
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["runs"], 120);
    for key in [
        "sides",
        "both_lose",
        "end_reasons",
        "turns_mean",
        "losses_by_type",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
    let side = &v["sides"][0];
    for key in ["wins", "win_rate", "ci95", "vp_mean"] {
        assert!(side.get(key).is_some(), "sides[0].{key}");
    }
}

#[test]
fn batch_writes_one_csv_row_per_game() {
    let path = std::env::temp_dir().join(format!("hexwar-games-{}.csv", std::process::id()));
    let p = path.to_str().unwrap();
    let out = hexwar(&[
        "batch",
        "scenarios/night_recon.toml",
        "--runs",
        "30",
        "--csv",
        p,
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 31);
    assert!(lines[0].starts_with("game,batch_seed,winner,end,turns,vp_soviet,vp_nato"));
    assert!(stdout(&out).contains("95% CI (Wilson)"));
    // Every row can be played again alone: `run --seed BATCH_SEED --game INDEX` ends the same.
    for row in [&lines[7], &lines[23]] {
        let cells: Vec<&str> = row.split(',').collect();
        let run = hexwar(&[
            "run",
            "scenarios/night_recon.toml",
            "--seed",
            cells[1],
            "--game",
            cells[0],
            "--json",
        ]);
        let last = stdout(&run).lines().last().unwrap_or_default().to_owned();
        let v: serde_json::Value = serde_json::from_str(&last).expect("the result line");
        let r = &v["result"];
        assert_eq!(r["turn"].to_string(), cells[4], "{row}: {last}");
        assert_eq!(
            format!("{},{}", r["vp"][0], r["vp"][1]),
            format!("{},{}", cells[5], cells[6]),
            "{row}: {last}"
        );
        assert_eq!(
            format!("{},{}", r["losses"][0], r["losses"][1]),
            format!("{},{}", cells[7], cells[8]),
            "{row}: {last}"
        );
    }
}

/// `hexwar tune --vary` on a unit type the scenario does not field is refused, naming the types
/// it does; the terrain table's problems carry their line and column; `odds` in water says why
/// without the odds' internal hex labels; a file too large to be a scenario is refused at once.
#[test]
fn messages_name_what_is_wrong() {
    let out = hexwar(&[
        "tune",
        "scenarios/dawn_assault.toml",
        "--vary",
        "jeep_scouts.assault=1..2",
        "--runs",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.contains("unit type `jeep_scouts` is not in this scenario") && text.contains("t72"),
        "{text}"
    );
    let out = hexwar(&["odds", "t72", "vs", "m1", "--terrain", "water"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "t72 vs m1 in water: t72 cannot enter water, so it cannot be assaulted there (R5.1)"
    );
    let out = hexwar(&["odds", "mech_inf", "vs", "m1", "--overrun"]);
    assert!(
        stderr(&out).contains("cannot overrun the defended hex"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("0404"), "{}", stderr(&out));
    // A terrain table with an elevation of 2, beside a copy of a scenario.
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = std::env::temp_dir().join(format!("hexwar-bad-terrain-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    let terrain = std::fs::read_to_string(root.join("data/terrain.toml")).unwrap();
    let line = terrain
        .lines()
        .position(|l| l == "elevation = 1")
        .expect("hills");
    let table_starts = terrain
        .lines()
        .take(line)
        .filter(|l| *l == "[[terrain]]")
        .count();
    let hills_at = terrain
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "[[terrain]]")
        .nth(table_starts - 1)
        .map(|(i, _)| i + 1)
        .expect("the hills table");
    std::fs::write(
        dir.join("data/terrain.toml"),
        terrain.replace("elevation = 1", "elevation = 2"),
    )
    .unwrap();
    std::fs::copy(
        root.join("scenarios/meeting_engagement.toml"),
        dir.join("m.toml"),
    )
    .unwrap();
    let file = dir.join("m.toml");
    let out = hexwar(&[
        "check",
        file.to_str().unwrap(),
        "--catalog",
        root.join("data/units").to_str().unwrap(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "terrain.toml:{hills_at}:1: terrain `hills`: elevation must be 0 or 1"
        )),
        "{}",
        stderr(&out)
    );
    #[cfg(unix)]
    {
        let out = hexwar(&["check", "/dev/zero"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            stderr(&out).contains("larger than 16 MiB"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn tune_finds_the_value_nearest_the_target() {
    let out = hexwar(&[
        "tune",
        "scenarios/night_recon.toml",
        "--vary",
        "brdm2.assault=0..4:2",
        "--runs",
        "300",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let values = v["values"].as_array().unwrap();
    assert_eq!(
        values
            .iter()
            .map(|x| x["value"].as_i64().unwrap())
            .collect::<Vec<_>>(),
        [0, 2, 4]
    );
    let rate = |i: usize| values[i]["win_rate"].as_f64().unwrap();
    let nearest = (0..3)
        .min_by(|&a, &b| (rate(a) - 0.5).abs().total_cmp(&(rate(b) - 0.5).abs()))
        .unwrap();
    assert_eq!(v["best"], values[nearest]["value"]);
}

#[test]
fn batch_and_tune_reject_bad_input_with_status_2() {
    for (args, message) in [
        (
            vec!["batch", "scenarios/night_recon.toml", "--runs", "0"],
            "--runs must be 1 to",
        ),
        (
            vec!["batch", "scenarios/night_recon.toml", "--shard", "3/3"],
            "invalid value '3/3' for '--shard <I/N>': expected I/N",
        ),
        (
            vec!["batch", "scenarios/night_recon.toml", "--shard", "x"],
            "expected I/N",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t99.assault=1..3",
            ],
            "unknown unit type `t99`",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t72.wings=1..3",
            ],
            "unknown field `wings`",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t27.assault",
            ],
            "unknown unit type `t27`; did you mean `t72`?",
        ),
        (
            vec!["tune", "scenarios/night_recon.toml", "--vary", "trns=4..8"],
            "unknown knob `trns`; did you mean `turns`?",
        ),
        (
            vec!["tune", "scenarios/night_recon.toml", "--vary", "turns=0..3"],
            "a turn limit is 1 to 200",
        ),
        (
            vec!["tune", "scenarios/night_recon.toml", "--vary", "first=1..2"],
            "`first` takes no range",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "units",
                "--plot",
                "x.svg",
            ],
            "--plot draws the win rate against a number",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t72.assault=5..2",
            ],
            "must run upwards",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t72.motivation=1..4",
            ],
            "outside 3..5",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t72.assault=1..3",
                "--runs",
                "0",
            ],
            "--runs must be 1 to",
        ),
        (
            vec![
                "tune",
                "scenarios/night_recon.toml",
                "--vary",
                "t72.assault=1..3",
                "--side",
                "martians",
            ],
            "--side `martians`",
        ),
        (vec!["merge", "README.md"], "not a batch summary"),
    ] {
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// The doctrine AI beats the random AI on every bundled scenario, as attacker and as defender,
/// over 200 games, and a batch is the same for the same seed. In a fair fight (R17.4) a defender
/// cannot win by holding, so there it must keep the random attacker from winning and outscore it.
#[test]
fn doctrine_beats_random_as_attacker_and_defender() {
    for s in files_in("scenarios") {
        let name = rel(&s);
        let text = std::fs::read_to_string(&s).unwrap();
        let ids: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("id = \""))
            .map(|l| l.trim_end_matches('"'))
            .take(2)
            .collect();
        let attacker_first = text.find("role = \"attacker\"") < text.find("role = \"defender\"");
        let (att, def) = if attacker_first {
            (ids[0], ids[1])
        } else {
            (ids[1], ids[0])
        };
        let fair = text.contains("fair_fight = true");
        let batch = |random: &str| -> serde_json::Value {
            let spec = format!("{random}=random");
            let args = [
                "batch", &name, "--runs", "200", "--seed", "3", "--json", "-q", "--ai", &spec,
            ];
            let out = hexwar(&args);
            assert!(out.status.success(), "{}", stderr(&out));
            let again = hexwar(&args);
            assert_eq!(out.stdout, again.stdout, "{name}: deterministic for a seed");
            serde_json::from_str(&stdout(&out)).unwrap()
        };
        let side = |v: &serde_json::Value, id: &str| {
            v["sides"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == id)
                .unwrap()
                .clone()
        };
        // Doctrine attacks a random defender.
        let v = batch(def);
        let wins = side(&v, att)["wins"].as_u64().unwrap();
        assert!(wins >= 120, "{name}: doctrine attacker won {wins} of 200");
        // Doctrine defends against a random attacker.
        let v = batch(att);
        let (a, d) = (side(&v, att), side(&v, def));
        assert!(
            a["wins"].as_u64().unwrap() <= 20,
            "{name}: random attacker won {}",
            a["wins"]
        );
        if fair {
            assert!(
                d["vp_mean"].as_f64().unwrap() > a["vp_mean"].as_f64().unwrap(),
                "{name}: VP"
            );
        } else {
            assert!(
                d["wins"].as_u64().unwrap() >= 120,
                "{name}: doctrine defender won {}",
                d["wins"]
            );
        }
    }
}

#[test]
fn a_bad_ai_choice_is_reported() {
    let out = hexwar(&[
        "batch",
        "scenarios/night_recon.toml",
        "--runs",
        "5",
        "--ai",
        "nato=genius",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown AI `genius`"),
        "{}",
        stderr(&out)
    );
}

/// `show --after T --seed S` draws the position of the game `run --turns T --seed S` plays:
/// the smoke it marks (R14.3) is exactly the smoke the events leave on the map.
#[test]
fn show_after_marks_the_smoke_of_the_same_game() {
    let mut checked = 0;
    for seed in 1..=8 {
        let seed = seed.to_string();
        let run = hexwar(&[
            "run",
            "scenarios/dawn_assault.toml",
            "--seed",
            &seed,
            "--turns",
            "5",
            "--json",
        ]);
        assert!(run.status.success(), "{}", stderr(&run));
        let mut smoke: Vec<String> = Vec::new();
        for line in stdout(&run).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let hex = v["hex"].as_str().unwrap_or_default().to_owned();
            match v["event"].as_str() {
                Some("Bombarded") if v["smoke"] == true => {
                    smoke.retain(|h| *h != hex);
                    smoke.push(hex);
                }
                Some("SmokeLifted") => smoke.retain(|h| *h != hex),
                _ => {}
            }
        }
        let show = hexwar(&[
            "show",
            "scenarios/dawn_assault.toml",
            "--after",
            "5",
            "--seed",
            &seed,
        ]);
        assert!(show.status.success(), "{}", stderr(&show));
        let text = stdout(&show);
        assert!(text.contains("after game turn 5"), "{text}");
        let shown = text
            .lines()
            .find_map(|l| l.strip_prefix("Smoke (~): "))
            .map(|l| l.split(", ").map(str::to_owned).collect::<Vec<_>>())
            .unwrap_or_default();
        assert_eq!(shown, smoke, "seed {seed}");
        checked += usize::from(!smoke.is_empty());
    }
    assert!(checked > 0, "no game of seeds 1..=8 left smoke on the map");
    let bad = hexwar(&["show", "scenarios/dawn_assault.toml", "--after", "0"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

/// The bundled night recon scenario exercises every R15 rule in a handful of runs (seeds 1 to
/// 4): recon deployment, ambushes, disengage, eyes and ears, motorcycles dismounting and
/// remounting, and the night's visibility rolls.
#[test]
fn the_night_recon_exercises_every_recon_rule() {
    let mut events: Vec<String> = Vec::new();
    for seed in ["1", "2", "3", "4"] {
        let out = hexwar(&[
            "run",
            "scenarios/night_recon.toml",
            "--json",
            "--seed",
            seed,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        events.extend(stdout(&out).lines().filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            Some(v["event"].as_str()?.to_owned())
        }));
    }
    for wanted in [
        "ReconDeployment",
        "DeploymentEnded",
        "AmbushPlaced",
        "DisengageTest",
        "Disengaged",
        "EyesAndEars",
        "RidersDismounted",
        "Remounted",
        "Visibility",
    ] {
        assert!(
            events.iter().any(|e| e == wanted),
            "no {wanted} in seeds 1 to 4 of night_recon"
        );
    }
}

/// `--ai SIDE=doctrine:THRESHOLD` sets the doctrine AI's assault threshold: the side assaults
/// more often with a lower one. Bad thresholds and thresholds for other AIs are bad input (exit
/// 2).
#[test]
fn the_assault_threshold_is_a_parameter_of_the_doctrine_ai() {
    let assaults = |spec: &str| -> usize {
        (1..=6)
            .map(|seed| {
                let seed = seed.to_string();
                let out = hexwar(&[
                    "run",
                    "scenarios/dawn_assault.toml",
                    "--seed",
                    &seed,
                    "--json",
                    "--ai",
                    spec,
                ]);
                assert!(out.status.success(), "{}", stderr(&out));
                let text = stdout(&out);
                let mut lines = text
                    .lines()
                    .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("a JSON line"));
                let header = lines.next().expect("the header");
                let soviet: Vec<&str> = header["units"]
                    .as_array()
                    .expect("units")
                    .iter()
                    .filter(|u| u["side"] == "soviet")
                    .filter_map(|u| u["id"].as_str())
                    .collect();
                lines
                    .filter(|e| e["event"] == "AssaultDeclared")
                    .filter(|e| {
                        e["attackers"][0]
                            .as_str()
                            .is_some_and(|a| soviet.contains(&a))
                    })
                    .count()
            })
            .sum()
    };
    let bold = assaults("soviet=doctrine:0.2");
    let careful = assaults("soviet=doctrine:0.95");
    assert!(
        bold > careful,
        "threshold 0.2 gave {bold} assaults, 0.95 gave {careful}"
    );
    for (spec, says) in [
        ("soviet=doctrine:1.5", "strictly between 0 and 1"),
        ("soviet=doctrine:x", "is not a number"),
        ("nato=random:0.5", "only a doctrine AI"),
        ("nato=doctrine@2", "unknown AI `doctrine@2`"),
    ] {
        let out = hexwar(&["run", "scenarios/dawn_assault.toml", "--ai", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert!(stderr(&out).contains(says), "{spec}: {}", stderr(&out));
    }
}

/// Every rule id cited anywhere (the code, the conformance cases, the scenarios, the docs, and
/// the narrative and refusals hexwar prints) is a rule of the shipped rulebook, `docs/rules.md`.
#[test]
fn every_cited_rule_id_is_in_the_rulebook() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let book = std::fs::read_to_string(root.join("docs/rules.md")).expect("docs/rules.md");
    let defined: std::collections::BTreeSet<String> = book
        .lines()
        .filter_map(|l| l.strip_prefix("- **"))
        .filter_map(|l| l.split("**").next())
        .map(str::to_owned)
        .collect();
    let ids = |text: &str| -> Vec<String> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        for i in 0..b.len() {
            if b[i] != b'R' || (i > 0 && b[i - 1].is_ascii_alphanumeric()) {
                continue;
            }
            let digits = |from: usize| {
                (from..b.len())
                    .take_while(|&j| b[j].is_ascii_digit())
                    .count()
            };
            let major = digits(i + 1);
            if major == 0 || b.get(i + 1 + major) != Some(&b'.') {
                continue;
            }
            let minor = digits(i + 2 + major);
            if minor > 0 {
                out.push(text[i..i + 2 + major + minor].to_owned());
            }
        }
        out
    };
    let mut files = Vec::new();
    let mut dirs = vec![
        root.join("crates"),
        root.join("tests"),
        root.join("scenarios"),
        root.join("data"),
        root.join("docs"),
    ];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("a folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "rs" || x == "toml" || x == "md")
            {
                files.push(p);
            }
        }
    }
    files.push(root.join("README.md"));
    files.push(root.join("ARCHITECTURE.md"));
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for id in ids(&text) {
            if !defined.contains(&id) {
                missing.push(format!("{}: {id}", f.display()));
            }
        }
    }
    for scenario in ["dawn_assault", "meeting_engagement", "night_recon"] {
        let out = hexwar(&["run", &format!("scenarios/{scenario}.toml")]);
        for id in ids(&stdout(&out)) {
            if !defined.contains(&id) {
                missing.push(format!("the narrative of {scenario}: {id}"));
            }
        }
    }
    assert!(files.len() > 50, "found only {} files", files.len());
    assert!(
        defined.len() >= 90,
        "the rulebook has {} rules",
        defined.len()
    );
    assert!(
        missing.is_empty(),
        "ids not in docs/rules.md:\n{}",
        missing.join("\n")
    );
}

/// `hexwar rules` prints a rule with its decisions, lists rules by word, and refuses an unknown
/// id with exit 2.
#[test]
fn the_rulebook_is_built_in() {
    let out = hexwar(&["rules", "R11.2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("counts only for the failed units it applies to"),
        "{text}"
    );
    let out = hexwar(&["rules", "overrun"]);
    assert!(stdout(&out).contains("R10.1"), "{}", stdout(&out));
    // Spelt in two pieces, so that the id scan above does not find it in this file.
    let unknown = concat!("R4", "2.1");
    let out = hexwar(&["rules", unknown]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("no rule {unknown}")),
        "{}",
        stderr(&out)
    );
}

/// `hexwar test scenarios/` plays every bundled scenario's `[expect]` batch: all pass, and each
/// line shows the measured value and its interval; the `JUnit` report is XML with one test case
/// per expectation.
#[test]
fn the_bundled_scenarios_meet_their_balance_expectations() {
    let report = std::env::temp_dir().join(format!("hexwar-junit-{}.xml", std::process::id()));
    let out = hexwar(&[
        "test",
        "scenarios/",
        "-q",
        "--junit",
        report.to_str().expect("a path"),
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", stderr(&out));
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
    assert!(lines.len() >= 6, "{text}");
    for l in &lines {
        assert!(l.trim_start().starts_with("PASS"), "{l}");
        assert!(l.contains('[') && l.contains("expected"), "{l}");
    }
    assert!(text.contains("win rate of soviet"), "{text}");
    let xml = std::fs::read_to_string(&report).expect("the report");
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let cases = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    assert_eq!(cases, lines.len(), "one test case per expectation:\n{xml}");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .count(),
        files_in("scenarios").len(),
        "a test suite per bundled scenario"
    );
    let _ = std::fs::remove_file(report);
}

/// A copy of the night recon beside a catalog whose BRDM-2 has `assault = 4` instead of 1: the
/// reconnaissance then wins about 69% and the 40-60% expectation fails (exit 1, a `<failure>`
/// in the report). With the expected range's lower end moved onto the measured value, the same
/// expectation is inconclusive, with no estimate of the games to settle it; with it just below,
/// inconclusive with an estimate.
#[test]
fn a_stat_that_tips_the_balance_fails_its_expectation() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = std::env::temp_dir().join(format!("hexwar-balance-{}", std::process::id()));
    let units = dir.join("data/units");
    std::fs::create_dir_all(&units).unwrap();
    std::fs::copy(
        root.join("data/terrain.toml"),
        dir.join("data/terrain.toml"),
    )
    .unwrap();
    std::fs::copy(root.join("data/units/nato.toml"), units.join("nato.toml")).unwrap();
    let soviet = std::fs::read_to_string(root.join("data/units/soviet.toml")).unwrap();
    let at = soviet.find("id = \"brdm2\"").expect("the BRDM-2");
    let (head, tail) = soviet.split_at(at);
    let tail = tail.replacen("assault = 1\n", "assault = 4\n", 1);
    std::fs::write(units.join("soviet.toml"), format!("{head}{tail}")).unwrap();
    let scenario = std::fs::read_to_string(root.join("scenarios/night_recon.toml")).unwrap();
    let file = dir.join("night_recon.toml");
    let report = dir.join("report.xml");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        hexwar(&[
            "test",
            file.to_str().unwrap(),
            "-q",
            "--junit",
            report.to_str().unwrap(),
        ])
    };
    let out = run(&scenario);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let line = text
        .lines()
        .find(|l| l.contains("win rate of soviet"))
        .expect("the win rate line");
    assert!(line.trim_start().starts_with("FAIL"), "{line}");
    let xml = std::fs::read_to_string(&report).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.has_tag_name("failure"))
            .count(),
        1,
        "{xml}"
    );
    // The exact measured value, from the JSON report.
    let json = hexwar(&["test", file.to_str().unwrap(), "-q", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let value = v["scenarios"][0]["findings"][0]["value"]
        .as_f64()
        .expect("the measured win rate");
    assert!(value > 0.6, "{value}");
    let expecting = |low: f64| {
        scenario.replace(
            "win_rate = [{ side = \"soviet\", between = [0.40, 0.60] }]",
            &format!("win_rate = [{{ side = \"soviet\", between = [{low:?}, 0.99] }}]"),
        )
    };
    for (low, settles) in [(value, false), (value - 0.01, true)] {
        let out = run(&expecting(low));
        let text = stdout(&out);
        assert!(out.status.success(), "inconclusive does not fail: {text}");
        let line = text
            .lines()
            .find(|l| l.contains("win rate of soviet"))
            .expect("the win rate line");
        assert!(line.trim_start().starts_with("INCONCLUSIVE"), "{line}");
        assert_eq!(
            line.contains("games would likely settle it"),
            settles,
            "{line}"
        );
        let strict = hexwar(&["test", file.to_str().unwrap(), "-q", "--strict"]);
        assert_eq!(strict.status.code(), Some(1), "--strict fails on it");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hexwar test` refuses bad input before playing a game: no `[expect]` anywhere, an unwritable
/// report, a broken file (exit 2).
#[test]
fn hexwar_test_refuses_bad_input() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let plain = std::env::temp_dir().join(format!("hexwar-no-expect-{}.toml", std::process::id()));
    let text = std::fs::read_to_string(root.join("scenarios/meeting_engagement.toml")).unwrap();
    let cut = text.find("\n[expect]").expect("an [expect] to cut");
    std::fs::write(
        &plain,
        format!(
            "catalog = \"{}\"\n{}",
            root.join("data/units").display(),
            &text[..cut]
        ),
    )
    .unwrap();
    let out = hexwar(&["test", plain.to_str().unwrap()]);
    let _ = std::fs::remove_file(&plain);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("no scenario with an [expect] section"),
        "{}",
        stderr(&out)
    );
    let out = hexwar(&[
        "test",
        "scenarios/",
        "--junit",
        "/nonexistent/dir/report.xml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
    assert!(
        stdout(&out).is_empty(),
        "nothing was played: {}",
        stdout(&out)
    );
    let out = hexwar(&["test", "tests/data/bad/bad_expectations.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("37:22: [expect]: unknown side"),
        "{}",
        stderr(&out)
    );
}

/// The narrative of each bundled scenario (seed 1), pinned: a change to the rules, the AI or the
/// wording shows up here as a diff to review (`cargo insta review`, or `INSTA_UPDATE=always`).
#[test]
fn narratives_of_the_bundled_scenarios() {
    for scenario in ["dawn_assault", "meeting_engagement", "night_recon"] {
        let out = hexwar(&["run", &format!("scenarios/{scenario}.toml"), "--seed", "1"]);
        assert!(out.status.success(), "{}", stderr(&out));
        insta::assert_snapshot!(format!("narrative_{scenario}"), stdout(&out));
    }
}

/// The JSON Lines of a game of each bundled scenario (seed 1) and the summary of a 500-game batch
/// of each, pinned: play is unchanged by a refactor exactly when these snapshots are (a change of
/// play shows here as a diff to review, instead of a claim in a commit message).
#[test]
fn json_of_games_and_batches_of_the_bundled_scenarios() {
    for scenario in ["dawn_assault", "meeting_engagement", "night_recon"] {
        let file = format!("scenarios/{scenario}.toml");
        let out = hexwar(&["run", &file, "--seed", "1", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        insta::assert_snapshot!(format!("run_json_{scenario}"), stdout(&out));
        let out = hexwar(&["batch", &file, "--runs", "500", "--seed", "1", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        insta::assert_snapshot!(format!("batch_json_{scenario}"), stdout(&out));
    }
}

/// No internal name reaches a reader: no CamelCase word (an enum's debug name such as
/// `DefendersHold` or `NoEffect`), and no capitalized variant name of the events' enums, in the
/// narratives of the bundled scenarios (the first line, the title, aside).
#[test]
fn the_narrative_shows_no_internal_names() {
    const VARIANTS: &[&str] = &[
        "Independent",
        "Unarmored",
        "Chose",
        "Lost",
        "Counts",
        "Disorganizes",
        "Bounces",
        "Disorganized",
        "Weakened",
        "Destroyed",
        "Pinned",
        "Bogged",
        "Objective",
        "Day",
        "Night",
        "Dawn",
        "Dusk",
        "Attacker",
        "Defender",
        "Start",
        "Movement",
        "Fire",
        "End",
        "Deployment",
        "Counterattack",
        "BreakOff",
    ];
    for scenario in ["dawn_assault", "meeting_engagement", "night_recon"] {
        for seed in ["1", "2", "3", "4"] {
            let out = hexwar(&["run", &format!("scenarios/{scenario}.toml"), "--seed", seed]);
            let text = stdout(&out);
            for line in text.lines().skip(1) {
                for word in line.split(|c: char| !c.is_alphanumeric()) {
                    let inner_capital = word.chars().skip(1).any(char::is_uppercase)
                        && word.chars().any(char::is_lowercase);
                    assert!(
                        !inner_capital,
                        "{scenario} seed {seed}: `{word}` in: {line}"
                    );
                    assert!(
                        !VARIANTS.contains(&word),
                        "{scenario} seed {seed}: `{word}` in: {line}"
                    );
                }
            }
            assert!(
                text.contains("\nResult after turn"),
                "{scenario} seed {seed} ends with its result"
            );
        }
    }
}

/// `docs/events.schema.json` and `docs/events.md` are generated from the event types; they are
/// in step with them (`HEXWAR_WRITE_DOCS=1 cargo test --test end_to_end json` rewrites them; a change to
/// the schema must also bump `present::events_json::SCHEMA_VERSION`).
#[test]
fn the_json_schema_and_the_events_doc_are_in_step_with_the_types() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let schema = serde_json::to_string_pretty(&present::events_json::schema()).unwrap() + "\n";
    let doc = present::events_json::events_doc();
    let (schema_file, doc_file) = (
        root.join("docs/events.schema.json"),
        root.join("docs/events.md"),
    );
    if std::env::var_os("HEXWAR_WRITE_DOCS").is_some() {
        std::fs::write(&schema_file, &schema).unwrap();
        std::fs::write(&doc_file, &doc).unwrap();
    }
    let committed = std::fs::read_to_string(&schema_file).unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&committed).unwrap_or_default();
    assert_eq!(
        v["$id"],
        format!("hexwar-run-json-v{}", present::events_json::SCHEMA_VERSION),
        "docs/events.schema.json is of another version"
    );
    assert!(
        committed == schema,
        "the event types changed: bump SCHEMA_VERSION in crates/cli/events_json.rs, then run \
         HEXWAR_WRITE_DOCS=1 cargo test --test end_to_end json"
    );
    assert_eq!(
        std::fs::read_to_string(&doc_file).unwrap_or_default(),
        doc,
        "docs/events.md is out of step: HEXWAR_WRITE_DOCS=1 cargo test --test end_to_end json"
    );
}

/// Every line `hexwar run --json` writes for the bundled scenarios (seeds 1 to 3) is valid
/// against the schema, and names units and sides by their scenario ids.
#[test]
fn run_json_is_valid_against_its_schema() {
    let schema = present::events_json::schema();
    let mut kinds = std::collections::BTreeSet::new();
    for scenario in ["dawn_assault", "meeting_engagement", "night_recon"] {
        for seed in ["1", "2", "3"] {
            let out = hexwar(&[
                "run",
                &format!("scenarios/{scenario}.toml"),
                "--seed",
                seed,
                "--json",
            ]);
            let text = stdout(&out);
            let lines: Vec<serde_json::Value> = text
                .lines()
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect();
            let units: Vec<String> = lines[0]["units"]
                .as_array()
                .expect("the header lists the units")
                .iter()
                .map(|u| u["id"].as_str().unwrap_or_default().to_owned())
                .collect();
            for (i, line) in lines.iter().enumerate() {
                if let Err(e) = json_schema::validate(&schema, line) {
                    panic!("{scenario} seed {seed} line {}: {e}\n{line}", i + 1);
                }
                if let Some(kind) = line["event"].as_str() {
                    kinds.insert(kind.to_owned());
                }
                if let Some(u) = line.get("unit").and_then(|u| u.as_str()) {
                    assert!(units.iter().any(|n| n == u), "{u} is not a unit id");
                }
            }
            assert!(lines.last().is_some_and(|l| l.get("result").is_some()));
        }
    }
    assert!(
        kinds.len() >= 30,
        "only {} kinds of event seen",
        kinds.len()
    );
}

/// `show` writes every mark on its own hex's line (`0604 c *`: the church objective, `0203 = S1`:
/// a Soviet unit on the road), explains how to read a cell, and says how the day starts in words.
#[test]
fn show_puts_each_mark_on_its_own_hex() {
    let out = hexwar(&["show", "scenarios/meeting_engagement.toml"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let has = |cell: &str| text.lines().any(|l| l.contains(cell));
    assert!(has("0604 c *"), "{text}");
    assert!(has("0203 = S1"), "{text}");
    assert!(has("1104 . U1"), "{text}");
    assert!(text.contains("Each hex reads `CCRR t marks`"), "{text}");
    assert!(text.contains("starts at day"), "{text}");
    assert!(!text.contains("Day"), "{text}");
}

/// The words of batch and of odds' help match what they print: objectives "first held", and
/// the JSON keys of `odds --json` named by `odds --help`.
#[test]
fn batch_and_odds_say_what_they_print() {
    let out = hexwar(&["batch", "scenarios/dawn_assault.toml", "--runs", "50", "-q"]);
    let text = stdout(&out);
    assert!(
        text.contains("the attacker first held each objective by the end of turn"),
        "{text}"
    );
    assert!(text.contains("these are not wins"), "{text}");
    let help = stdout(&hexwar(&["odds", "--help"]));
    let json = stdout(&hexwar(&["odds", "t72", "vs", "mech_inf", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for key in v.as_object().unwrap().keys() {
        assert!(help.contains(key.as_str()), "`{key}` is not in odds --help");
    }
    assert!(v["first_round"]["defender_holds"].is_number());
    let off = stdout(&hexwar(&[
        "odds",
        "t72",
        "vs",
        "mech_inf",
        "--json",
        "--counterattacks",
        "off",
    ]));
    let v: serde_json::Value = serde_json::from_str(&off).unwrap();
    for key in v.as_object().unwrap().keys() {
        assert!(help.contains(key.as_str()), "`{key}` is not in odds --help");
    }
}

/// Large stacks within the limits are played, not hung or overflowed (a debug build once
/// panicked on `1 << 33` weighing 33 defenders), and `odds` refuses stacks over its limit.
#[test]
fn large_stacks_within_the_limits_play() {
    let out = hexwar(&[
        "run",
        "tests/data/three_against_thirty_three.toml",
        "--catalog",
        "data/units",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("Result after turn"));
    let out = hexwar(&[
        "run",
        "tests/data/thirty_tanks_against_twenty_companies.toml",
        "--catalog",
        "data/units",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let many = vec!["t72"; 13].join(",");
    let out = hexwar(&["odds", &many, "vs", "mech_inf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("at most 12 a side"),
        "{}",
        stderr(&out)
    );
}

/// A batch's sizes are checked before any game: too many threads, an unwritable CSV; a shard of
/// a trillion-game batch is found by arithmetic, not by listing every index.
#[test]
fn batch_sizes_and_outputs_are_checked_first() {
    let out = hexwar(&[
        "batch",
        "scenarios/night_recon.toml",
        "--runs",
        "10",
        "--threads",
        "20000",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--threads must be at most"),
        "{}",
        stderr(&out)
    );
    let out = hexwar(&[
        "batch",
        "scenarios/night_recon.toml",
        "--runs",
        "10",
        "--csv",
        "/nonexistent/dir/games.csv",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).is_empty(),
        "no game was played: {}",
        stdout(&out)
    );
    let out = hexwar(&[
        "batch",
        "scenarios/night_recon.toml",
        "--runs",
        "1000000000000",
        "--shard",
        "0/10000000000",
        "--json",
        "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["runs"], 100);
}

/// `merge` adds only summaries of one batch, each shard once, with possible counts; it names a
/// missing shard, and merges an incomplete set only with `--partial`.
#[test]
fn merge_refuses_what_is_not_one_batch() {
    let dir = std::env::temp_dir().join(format!("hexwar-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let batch = |args: &[&str], name: &str| -> String {
        let mut all = vec![
            "batch",
            "scenarios/night_recon.toml",
            "--json",
            "-q",
            "--seed",
            "3",
        ];
        all.extend_from_slice(args);
        let out = hexwar(&all);
        assert!(out.status.success(), "{}", stderr(&out));
        let path = dir.join(name);
        std::fs::write(&path, stdout(&out)).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let s0 = batch(&["--runs", "60", "--shard", "0/3"], "s0.json");
    let s1 = batch(&["--runs", "60", "--shard", "1/3"], "s1.json");
    let s2 = batch(&["--runs", "60", "--shard", "2/3"], "s2.json");
    let whole = batch(&["--runs", "60"], "whole.json");
    let other_runs = batch(&["--runs", "90", "--shard", "2/3"], "runs.json");
    let other_ai = batch(
        &["--runs", "60", "--shard", "2/3", "--ai", "nato=passive"],
        "ai.json",
    );
    let merge = |files: &[&str]| {
        let mut all = vec!["merge", "--json"];
        all.extend_from_slice(files);
        hexwar(&all)
    };
    let ok = merge(&[&s0, &s1, &s2]);
    assert!(ok.status.success(), "{}", stderr(&ok));
    let (m, w): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&ok)).unwrap(),
        serde_json::from_str(&std::fs::read_to_string(&whole).unwrap()).unwrap(),
    );
    assert_eq!(
        m["sides"], w["sides"],
        "three shards are exactly the whole batch"
    );
    for (files, says) in [
        (vec![&s0, &s0], "shard 0/3 appears twice"),
        (vec![&whole, &s1], "shard counts differ"),
        (vec![&s0, &other_runs], "numbers of games (--runs) differ"),
        (vec![&s0, &other_ai], "rules and AI settings differ"),
        (vec![&s0, &s2], "2 of 3 shards; missing 1"),
    ] {
        let out = merge(&files.iter().map(|f| f.as_str()).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{says}");
        assert!(stderr(&out).contains(says), "{says}: {}", stderr(&out));
    }
    // Sides are matched by id, not by their place in the file.
    let mut swapped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s1).unwrap()).unwrap();
    let sides = swapped["sides"].as_array().unwrap().clone();
    swapped["sides"] = serde_json::json!([sides[1], sides[0]]);
    let swapped_file = dir.join("swapped.json");
    std::fs::write(&swapped_file, swapped.to_string()).unwrap();
    let out = merge(&[&s0, swapped_file.to_str().unwrap(), &s2]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["sides"], w["sides"], "sides matched by id");
    let partial = hexwar(&["merge", "--json", "--partial", &s0, &s2]);
    assert!(partial.status.success(), "{}", stderr(&partial));
    let v: serde_json::Value = serde_json::from_str(&stdout(&partial)).unwrap();
    assert_eq!(v["complete"], false);
    // Hand-edited counts: more wins than games, and a count at the edge of 64 bits.
    let text = std::fs::read_to_string(&s1).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["sides"][0]["wins"] = serde_json::json!(1_000_000);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, v.to_string()).unwrap();
    let out = merge(&[&s0, bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("impossible"), "{}", stderr(&out));
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["turns_sum"] = serde_json::json!(u64::MAX);
    std::fs::write(&bad, v.to_string()).unwrap();
    let out = merge(&[&s0, bad.to_str().unwrap(), &s2]);
    let mut v0: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&s0).unwrap()).unwrap();
    v0["turns_sum"] = serde_json::json!(u64::MAX);
    std::fs::write(dir.join("max.json"), v0.to_string()).unwrap();
    let out2 = merge(&[
        dir.join("max.json").to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    // Refused before any adding: no 20 games give that sum of turns.
    assert_eq!(out2.status.code(), Some(2), "{}", stdout(&out2));
    assert!(
        stderr(&out2).contains("impossible: turns: a sum of 18446744073709551615"),
        "{}",
        stderr(&out2)
    );
    drop(out);
    std::fs::remove_dir_all(&dir).ok();
}

/// Ctrl-C during a long batch stops it: the summary of the games played is printed, marked
/// incomplete, with the exit status of an interrupted command (130), the CSV holds their rows,
/// and `merge --partial` takes the summary (plain `merge` refuses it).
#[cfg(unix)]
#[test]
fn an_interrupted_batch_keeps_what_it_played() {
    let dir = std::env::temp_dir().join(format!("hexwar-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("games.csv");
    // A batch far too long to end by itself.
    let long_batch = |more: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hexwar"))
            .args([
                "batch",
                "scenarios/night_recon.toml",
                "--runs",
                "100000000",
                "-q",
            ])
            .args(more)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let child = long_batch(&["--json", "--threads", "2", "--csv", csv.to_str().unwrap()]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let interrupt = |pid: u32| {
        let sent = Command::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("interrupted (SIGINT)"),
        "{}",
        stderr(&out)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["complete"], false);
    let runs = v["runs"].as_u64().unwrap();
    assert!(runs > 0 && runs < 100_000_000, "{runs}");
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count() as u64;
    assert_eq!(rows, runs + 1, "the CSV holds every game counted");
    let summary = dir.join("partial.json");
    std::fs::write(&summary, stdout(&out)).unwrap();
    let plain = hexwar(&["merge", summary.to_str().unwrap()]);
    assert_eq!(plain.status.code(), Some(2));
    assert!(stderr(&plain).contains("interrupted"), "{}", stderr(&plain));
    let partial = hexwar(&["merge", "--partial", summary.to_str().unwrap()]);
    assert!(partial.status.success(), "{}", stderr(&partial));
    assert!(
        stdout(&partial).contains("(INCOMPLETE: interrupted;"),
        "{}",
        stdout(&partial)
    );

    // A second Ctrl-C ends hexwar at once, removing the CSV half written. After the first, the
    // batch only drops the games in hand, which can take less than the gap between the two: a
    // batch that ended by itself before the second is tried again with a shorter gap. Search
    // games (slow, each) keep games in hand long enough for the second to land.
    let mut at_once = false;
    for gap in [20, 5, 2, 1, 0] {
        let child = long_batch(&[
            "--csv",
            csv.to_str().unwrap(),
            "--ai",
            "soviet=search",
            "--ai",
            "nato=search",
        ]);
        std::thread::sleep(std::time::Duration::from_millis(1000));
        interrupt(child.id());
        std::thread::sleep(std::time::Duration::from_millis(gap));
        interrupt(child.id());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
        for e in std::fs::read_dir(&dir).unwrap() {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            assert!(!name.ends_with(".tmp"), "{name} left behind");
        }
        if stderr(&out).contains("SIGINT: stopped at once") {
            at_once = true;
            break;
        }
    }
    assert!(at_once, "no second Ctrl-C ended the batch at once");
    std::fs::remove_dir_all(&dir).ok();
}

/// `hexwar odds` names each unit in its header with the states it was given.
#[test]
fn odds_header_keeps_the_unit_states() {
    let out = hexwar(&["odds", "t72:weakened,hq_mrb vs m2:disorganized"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with(
            "ASSAULT with counterattacks: t72:weakened, hq_mrb vs m2:disorganized in clear\n"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn blunders_are_counted_per_side_the_same_for_any_threads() {
    let run = |threads: &str| {
        let out = hexwar(&[
            "blunders",
            "scenarios/meeting_engagement.toml",
            "--runs",
            "40",
            "--ai",
            "soviet=doctrine@1",
            "--threads",
            threads,
            "--json",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let one = run("1");
    assert_eq!(one, run("2"), "the counts do not depend on the threads");
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["games"], 40);
    assert_eq!(v["sides"][0]["ai"], "doctrine@1:0.5");
    let mut any = 0;
    for side in v["sides"].as_array().unwrap() {
        for kind in ["exposed", "shaken_left", "idle_hq", "objective_left"] {
            let b = &side["blunders"][kind];
            let total = b["total"].as_u64().unwrap();
            let per = b["per_game"].as_f64().unwrap();
            assert!((per * 40.0 - total as f64).abs() < 1e-9, "{kind}: {b}");
            any += total;
        }
    }
    // The frozen doctrine AI is known to leave units exposed in these games.
    assert!(any > 0, "{one}");
    let text = stdout(&hexwar(&[
        "blunders",
        "scenarios/meeting_engagement.toml",
        "--runs",
        "10",
        "-q",
    ]));
    assert!(
        text.contains("blunders per game over 10 games (seed 1)"),
        "{text}"
    );
    assert!(text.contains("  exposed: a unit that moved"), "{text}");
}

/// Every relative link of the README and the guide names a file of the repository (and a
/// heading's anchor, where it names one, a heading of that file).
#[test]
fn the_readme_and_the_guides_links_resolve() {
    let root = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut pages = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs/guide"))
        .unwrap()
        .flatten()
    {
        pages.push(e.path());
    }
    // GitHub's anchor of a heading: lower case, spaces to hyphens, other punctuation dropped.
    let anchor = |h: &str| -> String {
        h.trim_start_matches('#')
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect()
    };
    let mut broken = Vec::new();
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            if target.starts_with("http") || target.contains(' ') {
                continue;
            }
            links += 1;
            let (file, hash) = target.split_once('#').unwrap_or((target, ""));
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target}", page.display()));
                continue;
            }
            if !hash.is_empty() && path.extension().is_some_and(|x| x == "md") {
                let heads = std::fs::read_to_string(&path).unwrap();
                let found = heads
                    .lines()
                    .filter(|l| l.starts_with('#'))
                    .any(|l| anchor(l) == hash);
                if !found {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(links > 20, "only {links} links read");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A scenario's own terrain adds to the built-in table (R1.1): `[terrain.ID]` in the file
/// overrides one field set of a type and adds new ones, a table the file names adds its types;
/// the built-in letters stay. The deeper ford of `own_terrain.toml` keeps wheels out, where the
/// built-in ford (in `named_table.toml`) lets them wade.
#[test]
fn a_scenario_adds_terrain_to_the_built_in_table() {
    for f in [
        "tests/data/terrain/own_terrain.toml",
        "tests/data/terrain/named_table.toml",
    ] {
        let out = hexwar(&["show", f]);
        assert!(out.status.success(), "{f}: {}", stderr(&out));
        let text = stdout(&out);
        for legend in [
            "  o  orchard",
            "  v  ford",
            "  f  forest",
            "  H  wooded_hills",
        ] {
            assert!(text.contains(legend), "{f}: {legend} in\n{text}");
        }
        let out = hexwar(&["run", f, "--seed", "3"]);
        assert!(out.status.success(), "{f}: {}", stderr(&out));
    }
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    for (f, wades) in [
        ("tests/data/terrain/own_terrain.toml", false),
        ("tests/data/terrain/named_table.toml", true),
    ] {
        // The carriers start in the ford (0403) instead of on the road.
        let text = std::fs::read_to_string(root.join(f))
            .unwrap()
            .replace("at = \"0105\"", "at = \"0403\"");
        let copy = dir
            .path()
            .join(std::path::Path::new(f).file_name().unwrap());
        std::fs::write(&copy, text).unwrap();
        std::fs::copy(
            root.join("tests/data/terrain/orchards.toml"),
            dir.path().join("orchards.toml"),
        )
        .unwrap();
        let out = hexwar(&["check", copy.to_str().unwrap()]);
        assert_eq!(out.status.success(), wades, "{f}: {}", stderr(&out));
        if !wades {
            assert!(
                stderr(&out).contains(
                    "unit `red_carriers` at 0403: a wheeled unit (btr70) cannot stand in ford"
                ),
                "{}",
                stderr(&out)
            );
        }
    }
}

/// `batch --heatmap` draws where a batch went, and `--heatmap-json` gives the counts: in the
/// README's river crossing no unit ever takes the ford, and the text says so; every unit lost in
/// a game is lost in some hex (the lost layers add up to the units lost by type); the picture
/// holds a panel per side and layer.
#[test]
fn a_batch_shows_where_its_games_went_and_what_they_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (svg, json) = (dir.path().join("heat.svg"), dir.path().join("heat.json"));
    let out = hexwar(&[
        "batch",
        "docs/examples/weiss_crossing.toml",
        "--runs",
        "60",
        "-q",
        "--json",
        "--heatmap",
        svg.to_str().unwrap(),
        "--heatmap-json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reach = &summary["reach"];
    let ford = reach["terrain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["terrain"] == "ford")
        .expect("the ford is on the map");
    assert_eq!(ford["games_entered"], 0, "{reach}");
    let road = reach["terrain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["terrain"] == "road")
        .unwrap();
    assert_eq!(road["games_entered"], 60, "units start on the road");
    assert!(
        !reach["terrain"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["terrain"] == "water"),
        "no unit may enter water: not a route left alone"
    );
    let never: Vec<&str> = reach["hexes_never_entered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert!(never.contains(&"0709"), "the ford, 0709: {never:?}");
    assert!(!never.contains(&"0205"), "a unit starts in 0205");
    let heat: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(heat["games"], 60);
    let lost: u64 = heat["sides"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["layers"]["lost"].as_object().unwrap().values())
        .map(|n| n.as_u64().unwrap())
        .sum();
    let by_type: u64 = summary["losses_by_type"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert!(lost > 0);
    assert_eq!(lost, by_type, "every unit lost is lost in a hex");
    for side in heat["sides"].as_array().unwrap() {
        for layer in ["stood", "moved", "assaulted", "fired_on", "lost"] {
            assert!(
                !side["layers"][layer].as_object().unwrap().is_empty(),
                "{} {layer}",
                side["id"]
            );
        }
        assert!(
            side["layers"]["moved"].get("0709").is_none(),
            "nobody crossed the ford"
        );
    }
    let picture = std::fs::read_to_string(&svg).unwrap();
    for caption in [
        "stood at a turn",
        "moved through",
        "assaulted",
        "fired on",
        "units lost",
    ] {
        assert_eq!(
            picture.matches(&format!(">{caption}")).count(),
            2,
            "{caption}, a side each"
        );
    }
    assert!(
        picture.contains("url(#p-never)"),
        "hexes never entered are hatched"
    );
    let out = hexwar(&[
        "batch",
        "docs/examples/weiss_crossing.toml",
        "--runs",
        "60",
        "-q",
    ]);
    let text = stdout(&out);
    assert!(text.contains("ford never"), "{text}");
    assert!(text.contains("no unit ever entered: ford"), "{text}");
}

/// Shards of a batch merge into the whole batch's reach: the games counted add up, and a hex is
/// never entered only if no shard's games entered it.
#[test]
fn the_reach_of_shards_merges_into_the_whole_batchs() {
    let dir = tempfile::tempdir().unwrap();
    let whole = hexwar(&[
        "batch",
        "scenarios/dawn_assault.toml",
        "--runs",
        "40",
        "--json",
        "-q",
    ]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let mut files = Vec::new();
    for i in 0..2 {
        let out = hexwar(&[
            "batch",
            "scenarios/dawn_assault.toml",
            "--runs",
            "40",
            "--json",
            "-q",
            "--shard",
            &format!("{i}/2"),
        ]);
        let f = dir.path().join(format!("s{i}.json"));
        std::fs::write(&f, &out.stdout).unwrap();
        files.push(f.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = hexwar(&args);
    assert!(merged.status.success(), "{}", stderr(&merged));
    let w: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    let m: serde_json::Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(w["reach"], m["reach"]);
    assert!(
        w["reach"]["terrain"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["games_entered"].as_u64().unwrap() < 40),
        "some terrain is entered in some games only: {}",
        w["reach"]
    );
}

/// `diff --heatmap` and `balance --heatmap` draw the before and the after.
#[test]
fn diff_and_balance_draw_the_before_and_the_after() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let after = dir.path().join("after.toml");
    let text = std::fs::read_to_string(root.join("docs/examples/weiss_crossing.toml"))
        .unwrap()
        .replace("turns = 5", "turns = 4");
    std::fs::write(&after, text).unwrap();
    let svg = dir.path().join("diff.svg");
    let out = hexwar(&[
        "diff",
        "docs/examples/weiss_crossing.toml",
        after.to_str().unwrap(),
        "--runs",
        "30",
        "-q",
        "--heatmap",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("before (docs/examples/weiss_crossing.toml): 30 games"));
    assert!(picture.contains("after ("));
    assert_eq!(
        picture.matches(">moved through").count(),
        4,
        "two sides, twice"
    );
    let svg = dir.path().join("balance.svg");
    let out = hexwar(&[
        "balance",
        "tests/data/examples/skirmish.toml",
        "--vary",
        "turns",
        "-q",
        "--heatmap",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.code() != Some(2), "{}", stderr(&out));
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.contains("as it stands: "), "{picture:.300}");
    assert!(picture.contains("with turns "), "the change proposed");
}

/// An unknown name given on the command line is refused with the nearest known ones: a side of
/// `--ai`, a terrain of `odds`, a unit type of `odds`, an AI.
#[test]
fn unknown_names_on_the_command_line_offer_the_nearest() {
    for (args, says) in [
        (
            vec![
                "run",
                "scenarios/dawn_assault.toml",
                "--ai",
                "sovet=doctrine",
            ],
            "no side `sovet` in this scenario; did you mean `soviet`? (the sides are `soviet` and `nato`)",
        ),
        (
            vec!["odds", "t72", "vs", "m1", "--terrain", "forrest"],
            "unknown terrain `forrest`; did you mean `forest`?",
        ),
        (
            vec!["odds", "bmp", "vs", "m1"],
            "unknown unit type `bmp`; did you mean `bmp2`?",
        ),
        (
            vec!["run", "scenarios/dawn_assault.toml", "--ai", "nato=doctrin"],
            "unknown AI `doctrin`; did you mean `doctrine` or `doctrine@1`?",
        ),
    ] {
        let out = hexwar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}
