//! A save is the game (docs/saved-games.md): random bundled games are saved at random waits,
//! questions of the rules asked while the AI plays included, and each save is resumed at the
//! prompt's session (`hexwar play --resume`) and through the server's resume (a desk, as
//! `POST /api/resume` sets one up); each must then play on, event for event and line for line,
//! as the game played through. `HEXWAR_SAVES=N` asks for N saves instead of the suite's 2,000
//! (the longer run of the fuzzing kind).

use crate::common::bundled;
use commands::data::Loaded;
use commands::play::{Desk, Said, Table};
use counters::Rules;
use game::Waiting;
use model::Side;
use session::Session;
use session::lines::{Line, answer_text, parse_line};
use session::save::{Given, SavedGame};

/// The opponent: the doctrine AI, whose turn asks the person most of the rules' questions.
const OPPONENT: &str = "doctrine";

/// A save taken during a game, and where.
struct Taken {
    text: String,
    /// At a question the rules asked while the AI played its turn.
    in_ais_turn: bool,
}

/// A game played through at a desk, the person's side played at random (a few legal commands a
/// phase, any answer the question allows), saved at random waits.
struct PlayedThrough {
    person: Side,
    events: Vec<model::Event>,
    lines: Vec<Given>,
    saves: Vec<Taken>,
}

fn waits(desk: &Desk<'_>) -> Option<Waiting> {
    desk.waiting().cloned()
}

/// Plays a game to its end, saving at a wait with chance `per_mille` in a thousand (always at a question asked in
/// the AI's turn).
fn play_through(loaded: &Loaded, seed: u64, per_mille: u64) -> PlayedThrough {
    let person = if seed.is_multiple_of(2) {
        Side::A
    } else {
        Side::B
    };
    let people = vec![loaded.scenario.sides[person.index()].id.clone()];
    let table = Table::new(loaded.clone(), &people, OPPONENT, seed).expect("table");
    let rules = table.rules();
    let scenario = table.scenario();
    let mut desk = table.desk().expect("desk");
    let mut rng = model::GameRng::seed_from_u64(seed ^ 0x5a5e);
    // The person's whims: a number below `n`.
    let mut below = |n: usize| usize::try_from(rng.next_seed() % n as u64).unwrap_or(0);
    let mut saves = Vec::new();
    let mut in_phase = 0;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 20_000, "the game never ended");
        let Some(w) = waits(&desk) else {
            desk.go_on_a_phase().expect("runs on");
            continue;
        };
        let in_ais_turn = matches!(w, Waiting::Question { .. })
            && desk.session().game().state().active() != person;
        if w != Waiting::Over && (in_ais_turn || (below(1000) as u64) < per_mille) {
            saves.push(Taken {
                text: desk.save_text().expect("save"),
                in_ais_turn,
            });
        }
        match w {
            Waiting::Over => break,
            Waiting::Question { question, .. } => {
                let answers = question.answers();
                let a = if below(2) == 0 {
                    question.suggested()
                } else {
                    answers[below(answers.len())]
                };
                let said = desk
                    .line(person, &answer_text(scenario, &a))
                    .expect("answer");
                assert_eq!(said, Said::Done, "{}", desk.take_said());
            }
            Waiting::Commands { .. } => {
                let legal = counters::legal_commands_of(desk.state(), &rules, person);
                if in_phase < 3 && !legal.is_empty() && below(1000) < 600 {
                    in_phase += 1;
                    let c = &legal[below(legal.len())];
                    desk.line(person, &model::command_text(scenario, c))
                        .expect("a command");
                } else {
                    in_phase = 0;
                    let said = desk.line(person, "end").expect("end");
                    assert_eq!(said, Said::EndsPhase, "{}", desk.take_said());
                }
            }
        }
        desk.take_said();
    }
    let session = desk.session();
    PlayedThrough {
        person,
        events: session.game().events().to_vec(),
        lines: session.saved().commands,
        saves,
    }
}

/// The next line of the person's side in the game played through, where a resumed game's own
/// lines stand at `at`.
fn next_line<'a>(whole: &'a PlayedThrough, at: usize, resumed: &[Given]) -> &'a Given {
    assert_eq!(
        resumed,
        &whole.lines[..at],
        "the resumed game's lines part from the game played through"
    );
    let g = &whole.lines[at];
    assert!(
        g.by.is_none(),
        "the game waits for the person where the AI played on: {g:?}"
    );
    g
}

/// Resumes a save at the prompt's session and plays on with the person's lines of the game
/// played through.
fn resume_at_the_prompt(table: &Table, saved: &SavedGame, whole: &PlayedThrough) {
    let rules: Rules<'_> = table.rules();
    let players = ai::Players::of(rules.scenario).expect("players");
    let mut outside = [false, false];
    outside[whole.person.index()] = true;
    let mut session = Session::new(rules, players, outside, saved.clone());
    session.replay(saved).expect("the save replays");
    for step in 0.. {
        assert!(step < 20_000, "the resumed game never ended");
        match session.game().waiting().cloned() {
            Some(Waiting::Over) => break,
            None => {
                session.advance().expect("runs on");
            }
            Some(w) => {
                let mine: Vec<Given> = session.saved().commands;
                let g = next_line(whole, mine.len(), &mine);
                match (
                    w,
                    parse_line(rules.scenario, &g.line).expect("a saved line"),
                ) {
                    (Waiting::Question { .. }, Line::Answer(a)) => {
                        session.answer(a).expect("the answer fits");
                    }
                    (Waiting::Commands { .. }, Line::End) => {
                        session.advance().expect("runs on");
                    }
                    (Waiting::Commands { .. }, Line::Command(c)) => {
                        session.command(&c).expect("the command is taken");
                    }
                    (Waiting::Commands { .. }, Line::Choice(u, a)) => {
                        assert!(session.give(u, a));
                    }
                    (w, line) => panic!("{line:?} given where the game waits for {w:?}"),
                }
            }
        }
    }
    assert_eq!(
        session.saved().commands,
        whole.lines,
        "the lines of the game"
    );
    assert!(
        session.game().events() == whole.events.as_slice(),
        "the resumed game's events part from the game played through"
    );
}

/// Resumes a save as the server does (a desk of the saved game) and plays on with the person's
/// lines, as the page sends them.
fn resume_at_a_desk(loaded: &Loaded, saved: &SavedGame, whole: &PlayedThrough) {
    let table = Table::resume(loaded.clone(), saved.clone()).expect("a table of the save");
    let mut desk = table.desk().expect("the save replays");
    for step in 0.. {
        assert!(step < 20_000, "the resumed game never ended");
        match waits(&desk) {
            Some(Waiting::Over) => break,
            None => {
                desk.go_on_a_phase().expect("runs on");
            }
            Some(_) => {
                let mine: Vec<Given> = desk.session().saved().commands;
                let g = next_line(whole, mine.len(), &mine);
                let said = desk.line(whole.person, &g.line).expect("a line");
                assert_ne!(said, Said::Refused, "`{}`: {}", g.line, desk.take_said());
            }
        }
        desk.take_said();
    }
    assert_eq!(desk.session().saved().commands, whole.lines);
    assert!(desk.session().game().events() == whole.events.as_slice());
}

#[test]
fn a_save_resumed_anywhere_plays_on_as_the_game_played_through() {
    let wanted: usize = std::env::var("HEXWAR_SAVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(2000);
    let wanted_in_ais_turn = wanted / 10;
    let scenarios: Vec<(&str, Loaded)> = model::bundled::SCENARIOS
        .iter()
        .map(|(name, text)| (*name, bundled(name, text)))
        .collect();
    let (mut saves, mut in_ais_turn) = (0, 0);
    let mut per_scenario = vec![0; scenarios.len()];
    let mut seed = 0;
    while saves < wanted || in_ais_turn < wanted_in_ais_turn {
        assert!(
            seed < 10_000,
            "too few saves: {saves}, {in_ais_turn} in the AI's turn"
        );
        let k = usize::try_from(seed).unwrap() % scenarios.len();
        let loaded = &scenarios[k].1;
        let whole = play_through(loaded, seed, 80);
        for taken in &whole.saves {
            let saved = SavedGame::read(&taken.text).expect("a save reads back");
            // The prompt's session sits on the save's own rules (its overrides applied).
            let resumed = Table::resume(loaded.clone(), saved.clone()).expect("table");
            resume_at_the_prompt(&resumed, &saved, &whole);
            resume_at_a_desk(loaded, &saved, &whole);
            saves += 1;
            per_scenario[k] += 1;
            in_ais_turn += usize::from(taken.in_ais_turn);
        }
        seed += 1;
    }
    assert!(saves >= wanted, "{saves} saves");
    assert!(
        in_ais_turn >= wanted_in_ais_turn,
        "{in_ais_turn} saves at a question asked in the AI's turn"
    );
    assert!(
        per_scenario.iter().all(|&n| n > 0),
        "every bundled scenario saved: {per_scenario:?}"
    );
    eprintln!(
        "{saves} saves resumed ({in_ais_turn} at a question asked in the AI's turn), per scenario {per_scenario:?}, {seed} games"
    );
}
