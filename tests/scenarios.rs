//! The scenarios built into hexwar: an installed binary, far from the clone, lists them and
//! plays them by name; and each one's header tells the truth about the rules its games exercise.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::common::{hexwar, stderr, stdout};

/// The rule family each event of `run --json` belongs to (R1-R3, the map, the units and
/// stacking, have no event of their own: every game exercises them).
fn family(event: &str) -> Option<&'static str> {
    Some(match event {
        "TurnStarted" | "PhaseStarted" | "TurnEnded" | "Arrived" => "R4",
        "Moved" | "BogCheck" => "R5",
        "Fired" | "Saves" | "Pinned" | "ShotsLost" | "HitTaken" => "R6",
        "HitsShared" => "R7",
        "Leadership" | "HqHit" => "R8",
        "AssaultDeclared" | "AssaultRoll" | "AssaultResult" | "Retreated" | "Occupied" => "R9",
        "OverrunDeclared" | "OverrunEnded" => "R10",
        "Counterattack"
        | "MeleeTest"
        | "MeleeEnded"
        | "BrokeOff"
        | "TankAssault"
        | "ImprovisedTankAssault"
        | "NoRetreat"
        | "Captured" => "R11",
        "RallyTest" | "Recovered" => "R12",
        "TimeRoll" | "Visibility" => "R13",
        "Bombarded" | "AirStrike" | "AirAttack" | "SmokeLifted" | "AirObserverArrived" => "R14",
        "ReconDeployment" | "NotSeen" | "AmbushPlaced" | "EyesAndEars" | "DisengageTest"
        | "Disengaged" => "R15",
        "Dismounted" | "Remounted" | "RidersDismounted" => "R16",
        "MoraleTest" | "ObjectiveTaken" | "BattleEnded" => "R17",
        _ => return None,
    })
}

#[test]
fn each_bundled_scenario_exercises_the_rules_its_header_names_and_together_all_of_them() {
    let out = hexwar(&["scenarios", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut covered = BTreeSet::new();
    for s in list.as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let listed: BTreeSet<String> = s["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_owned())
            .collect();
        assert!(!listed.is_empty(), "{name} lists no rules");
        let mut seen: BTreeMap<&str, u32> = BTreeMap::new();
        for seed in 1..=30 {
            let run = hexwar(&["run", name, "--seed", &seed.to_string(), "--json"]);
            assert!(run.status.success(), "{name} {seed}: {}", stderr(&run));
            for line in stdout(&run).lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                if let Some(f) = v["event"].as_str().and_then(family) {
                    *seen.entry(f).or_default() += 1;
                }
            }
        }
        for r in &listed {
            assert!(
                seen.contains_key(r.as_str()),
                "{name} lists {r}, which its games never use: {seen:?}"
            );
        }
        covered.extend(listed);
    }
    let every: BTreeSet<String> = (4..=17).map(|k| format!("R{k}")).collect();
    let missing: Vec<&String> = every.difference(&covered).collect();
    assert!(
        missing.is_empty(),
        "no bundled scenario exercises {missing:?}"
    );
}

#[test]
fn an_installed_hexwar_lists_and_plays_its_scenarios_by_name_from_any_folder() {
    // The binary copied away from the clone, run from an empty folder: no data/, no scenarios/.
    let bin_dir = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let bin = bin_dir.path().join("hexwar");
    std::fs::copy(env!("CARGO_BIN_EXE_hexwar"), &bin).unwrap();
    let run = |args: &[&str]| {
        Command::new(&bin)
            .args(args)
            .current_dir(work.path())
            .output()
            .unwrap()
    };
    let list = run(&["scenarios"]);
    assert!(list.status.success(), "{}", stderr(&list));
    for name in ["dawn_assault", "meeting_engagement", "night_recon"] {
        assert!(
            stdout(&list).contains(&format!("{name}: ")),
            "{}",
            stdout(&list)
        );
    }
    let game = run(&["run", "meeting_engagement", "--seed", "3"]);
    assert!(game.status.success(), "{}", stderr(&game));
    assert!(stderr(&game).contains("meeting_engagement: the scenario built into hexwar"));
    // The same game as the clone's file gives.
    let from_file = hexwar(&["run", "scenarios/meeting_engagement.toml", "--seed", "3"]);
    assert_eq!(stdout(&game), stdout(&from_file));
    let test = run(&["test", "night_recon", "--runs", "200", "-q"]);
    assert!(test.status.success(), "{}", stderr(&test));
    assert!(
        stdout(&test).contains("night_recon: Night recon screen"),
        "{}",
        stdout(&test)
    );
    assert!(stderr(&test).contains("night_recon: the scenario built into hexwar"));
    // A file of that name here wins, and says so.
    let (_, meeting) = model::bundled::SCENARIOS
        .iter()
        .find(|(n, _)| *n == "meeting_engagement")
        .unwrap();
    let mut text = meeting.replacen("turns = 5", "turns = 2", 1);
    text.push('\n');
    std::fs::write(work.path().join("meeting_engagement.toml"), text).unwrap();
    let mine = run(&["run", "meeting_engagement.toml", "--seed", "3", "--json"]);
    assert!(mine.status.success(), "{}", stderr(&mine));
    assert!(stderr(&mine).contains("the file in this folder, not the scenario of that name"));
    let last: serde_json::Value =
        serde_json::from_str(stdout(&mine).lines().last().unwrap()).unwrap();
    assert!(last["result"]["turn"].as_u64().unwrap() <= 2, "{last}");
    // A game of a bundled scenario saved there replays there.
    let saved = run(&["run", "night_recon", "--seed", "4", "--save", "g.toml"]);
    assert!(saved.status.success(), "{}", stderr(&saved));
    let save = std::fs::read_to_string(work.path().join("g.toml")).unwrap();
    assert!(
        save.contains("scenario_name = \"<built-in>/night_recon.toml\""),
        "{save}"
    );
    let replayed = run(&["replay", "g.toml"]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    // A name that is neither says where to look.
    let none = run(&["run", "no_such_battle"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains("hexwar scenarios"),
        "{}",
        stderr(&none)
    );
}

#[test]
fn every_scenario_in_the_folder_is_built_in_and_the_same_text() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios");
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    let mut built_in: Vec<(String, String)> = model::bundled::SCENARIOS
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    built_in.sort();
    assert_eq!(
        built_in, files,
        "model::bundled::SCENARIOS lists scenarios/*.toml"
    );
}
