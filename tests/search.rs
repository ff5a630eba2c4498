//! The search AI (`--ai SIDE=search[:BUDGET]`): it plays the doctrine AI's plan when its budget
//! weighs nothing, its games depend only on the seed (not on threads or time), it beats the
//! doctrine AI, and `hexwar play` gives it the opponent's side unless `--ai` says otherwise.

use counters::Rules;
use model::{AiName, Event, GameRng, Scenario, ScenarioFile, bundled};

use crate::common;

use common::{hexwar, stderr, stdout};

const MEETING: &str = "scenarios/meeting_engagement.toml";

fn meeting() -> Scenario {
    ScenarioFile::parse(
        "meeting_engagement.toml",
        include_str!("../scenarios/meeting_engagement.toml"),
    )
    .validate(&bundled::catalog(), &bundled::terrain())
    .unwrap()
}

/// The events of game `game` (as `hexwar batch --seed 1` plays it) with the Soviet side played
/// by `soviet`.
fn game(soviet: &str, game: u64) -> Vec<Event> {
    let mut scenario = meeting();
    scenario.sides[0].ai = AiName::new(soviet);
    let catalog = bundled::catalog();
    let rules = Rules::new(&scenario, &catalog);
    let players = ai::Players::of(&scenario).unwrap();
    players
        .play(
            rules,
            GameRng::for_game(1, game),
            GameRng::for_game(2, game),
        )
        .unwrap()
        .events()
        .to_vec()
}

/// A budget too small to give every plan of the portfolio one playout weighs nothing: the
/// search plays the doctrine AI's own plan, move for move. With its default budget it plays
/// otherwise in some game, and the same seed always gives the same game.
#[test]
fn the_search_plays_the_doctrine_plan_unless_its_playouts_say_otherwise() {
    let (doctrine, tiny, search) = ("doctrine", "search:1", "search");
    let mut differs = 0;
    for g in 0..4 {
        let d = game(doctrine, g);
        assert_eq!(game(tiny, g), d, "game {g}: search:1 is the doctrine AI");
        let s = game(search, g);
        assert_eq!(game(search, g), s, "game {g}: the same seed, the same game");
        differs += usize::from(s != d);
    }
    assert!(differs > 0, "the default budget never changed a plan");
}

/// A batch of search games is the same on one thread or two, and run by run.
#[test]
fn search_batches_do_not_depend_on_threads() {
    let batch = |threads: &str| {
        let out = hexwar(&[
            "batch",
            MEETING,
            "--runs",
            "6",
            "--ai",
            "soviet=search:32",
            "--ai",
            "us=search:32",
            "--threads",
            threads,
            "--json",
            "-q",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        out.stdout
    };
    let one = batch("1");
    assert_eq!(one, batch("2"));
    let text = String::from_utf8_lossy(&one);
    assert!(
        text.contains("soviet=Search:500:32 us=Search:800:32"),
        "the summary's identity names the AI and its budget: {text}"
    );
}

/// In the arena the search AI at its default budget beats the latest doctrine AI, its own
/// playout policy, over pairs of games with the sides swapped.
#[test]
fn the_search_beats_the_doctrine_ai() {
    let out = hexwar(&[
        "arena", MEETING, "--ai", "doctrine", "--ai", "search", "--runs", "30", "--json", "-q",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = &v["arena"]["ais"];
    let (a, b) = (&names[0]["spec"], &names[1]["spec"]);
    assert_eq!((a.as_str(), b.as_str()), (Some("doctrine"), Some("search")));
    let score = v["results"][0]["score"].as_f64().unwrap();
    assert!(score < 0.4, "doctrine scored {score} against the search");
}

/// Bad budgets are refused with the reason, before any game is played.
#[test]
fn bad_search_budgets_are_refused() {
    for (ai, why) in [
        ("soviet=search:0", "between 1 and 100000"),
        ("soviet=search:lots", "not a whole number of playouts"),
        ("soviet=search:0.5", "not a whole number of playouts"),
        ("soviet=random:64", "takes neither"),
        (
            "soviet=seach",
            "unknown AI `seach`; did you mean `search`? (the AIs are doctrine, doctrine@1, exploiter, passive, random, search and search@1)",
        ),
    ] {
        let out = hexwar(&["run", MEETING, "--ai", ai]);
        assert_eq!(out.status.code(), Some(2), "{ai}");
        assert!(stderr(&out).contains(why), "{ai}: {}", stderr(&out));
    }
}

/// `hexwar play` puts the search AI on the side nobody commands, unless `--ai` names one, and
/// says so in the briefing.
#[test]
fn play_faces_the_search_ai_by_default() {
    let play = |extra: &[&str]| {
        let mut args = vec!["play", MEETING, "--side", "soviet"];
        args.extend_from_slice(extra);
        let out = hexwar(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    assert!(play(&[]).contains("us (Team B, TF 1-41 Infantry): the defender - the search:256 AI"));
    let named = play(&["--ai", "us=doctrine@1"]);
    assert!(
        named.contains("the defender - the doctrine@1:0.8 AI"),
        "{named}"
    );
}

/// `[expect]` may name the search AI: `hexwar test` plays the scenario's games with it, and says
/// which AIs played.
#[test]
fn expectations_may_name_the_search_ai() {
    let dir = std::env::temp_dir().join(format!("hexwar-search-expect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let original = include_str!("../scenarios/meeting_engagement.toml");
    // Whatever the bundled scenario's own number of games, a few: each is a search game.
    let runs = original
        .lines()
        .find(|l| l.starts_with("runs = "))
        .expect("the scenario's [expect] says how many games");
    let text = original
        .replace(runs, "runs = 4")
        .replace(
            r#"ai = { soviet = "doctrine", us = "doctrine" }"#,
            r#"ai = { soviet = "search:32", us = "doctrine" }"#,
        )
        .replace("[0.45, 0.55]", "[0.0, 1.0]")
        .replace("[4.5, 5.0]", "[1.0, 5.0]");
    assert!(text.contains("search:32") && text.contains("runs = 4\n"));
    let file = dir.join("meeting.toml");
    std::fs::write(&file, text).unwrap();
    let out = hexwar(&["test", file.to_str().unwrap()]);
    let said = stdout(&out);
    assert!(out.status.success(), "{said}{}", stderr(&out));
    assert!(said.contains("soviet=search:32"), "{said}");
    assert!(said.contains("4 games"), "{said}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `hexwar play` with `input` on standard input.
fn play_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hexwar"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the hexwar binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("hexwar ends")
}

/// A game played against the search AI is saved with it, and resumes: its commands are played
/// again and the position checked after every player turn, which holds only if the search
/// decides again exactly as it did.
#[test]
fn a_game_against_the_search_ai_resumes_exactly() {
    let dir = std::env::temp_dir().join(format!("hexwar-search-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("game.toml");
    let save = save.to_str().unwrap();
    let out = play_with_input(
        &["play", MEETING, "--side", "soviet", "--seed", "3"],
        &format!("end\nmove bmp_4 0404\nend\nend\nend\nend\nsave {save}\nquit\ny\n"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let saved = std::fs::read_to_string(save).unwrap();
    assert!(saved.contains(r#"ai = ["us=search"]"#), "{saved}");
    let out = play_with_input(&["play", "--resume", save], "quit\ny\n");
    let said = stdout(&out);
    assert!(out.status.success(), "{said}{}", stderr(&out));
    assert!(
        said.contains("the position checked after 4 player turns"),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
