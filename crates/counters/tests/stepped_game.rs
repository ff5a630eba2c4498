//! The seat interface: a game whose seats are answered from outside (a person, a script, a
//! saved game) is the same game as one the AIs play in their own seats. Answered from outside
//! by asking each side's AI, it plays the same game event for event; a commanded side that gives
//! no commands (and takes the suggestion of every question) plays as a passive AI would.

use std::sync::Arc;

use ai::play_with;
use counters::Rules;
use game::{Game, Waiting};
use model::{AiName, GameRng, Scenario, ScenarioFile, Side, bundled};

fn scenario(text: &str) -> Scenario {
    ScenarioFile::parse("s.toml", text)
        .validate(&bundled::catalog(), &bundled::terrain())
        .unwrap()
}

const SCENARIOS: [&str; 3] = [
    include_str!("../../../scenarios/dawn_assault.toml"),
    include_str!("../../../scenarios/meeting_engagement.toml"),
    include_str!("../../../scenarios/night_recon.toml"),
];

/// Game `seed` of the scenario's AIs played straight through (its AIs' generator seeded with
/// `seed + 100`): its end and its events.
fn straight(rules: &Rules<'_>, seed: u64) -> (counters::State, Vec<model::Event>) {
    play_with(
        rules,
        GameRng::seed_from_u64(seed),
        GameRng::seed_from_u64(seed + 100),
    )
    .unwrap()
}

#[test]
fn with_nobody_commanding_it_is_play_with() {
    let catalog = bundled::catalog();
    let mut asked = 0;
    for text in SCENARIOS {
        let s = scenario(text);
        let rules = Rules::new(&s, &catalog);
        let players = ai::Players::of(&s).unwrap();
        for seed in 0..6 {
            let (end, events) = straight(&rules, seed);
            // Both seats answered from outside, by asking each side's AI.
            let mut g = Game::new(
                rules,
                GameRng::seed_from_u64(seed),
                GameRng::seed_from_u64(seed + 100),
                players.seats([true, true]),
            );
            let mut w = g.advance().unwrap();
            // Whether the phase the game waits in has been played (a question may come in
            // the middle of it: once answered, the phase stands played, to be ended).
            let mut played = false;
            loop {
                w = match w {
                    Waiting::Commands { side, .. } if !played => {
                        g.play_phase_by(Arc::clone(players.of_side(side))).unwrap();
                        played = true;
                        g.waiting().cloned().unwrap()
                    }
                    Waiting::Commands { .. } => {
                        played = false;
                        g.advance().unwrap()
                    }
                    Waiting::Question { question, .. } => {
                        asked += 1;
                        g.answer(question.suggested()).unwrap()
                    }
                    Waiting::Over => break,
                };
            }
            assert_eq!(g.events(), &events[..], "{} seed {seed}", s.title);
            assert_eq!(g.state(), &end);
        }
    }
    // The rules asked the seats questions, answered from outside as the AIs answer them.
    assert!(asked > 0, "no question was asked");
}

#[test]
fn a_commanded_side_that_gives_no_commands_plays_as_a_passive_ai() {
    let catalog = bundled::catalog();
    for text in SCENARIOS {
        for side in Side::BOTH {
            let s = scenario(text);
            let mut passive = s.clone();
            passive.sides[side.index()].ai = AiName::new("passive");
            let (end, events) = play_with(
                &Rules::new(&passive, &catalog),
                GameRng::seed_from_u64(3),
                GameRng::seed_from_u64(4),
            )
            .unwrap();
            let mut people = [false, false];
            people[side.index()] = true;
            let players = ai::Players::of(&s).unwrap();
            let mut g = Game::new(
                Rules::new(&s, &catalog),
                GameRng::seed_from_u64(3),
                GameRng::seed_from_u64(4),
                players.seats(people),
            );
            let mut phases = 0;
            let mut w = g.advance().unwrap();
            loop {
                w = match w {
                    Waiting::Commands { side: s2, .. } => {
                        assert_eq!(s2, side);
                        phases += 1;
                        g.advance().unwrap()
                    }
                    Waiting::Question { side: s2, question } => {
                        assert_eq!(s2, side);
                        g.answer(question.suggested()).unwrap()
                    }
                    Waiting::Over => break,
                };
            }
            assert!(phases >= 2, "the person was asked {phases} times");
            assert_eq!(g.events(), &events[..]);
            assert_eq!(g.state(), &end);
        }
    }
}

/// R15.4: a commanded side is asked for its recon deployment, one unit at a time: after its
/// move the next command is refused until the engine has gone on.
#[test]
fn a_commanded_side_deploys_its_recon_one_unit_at_a_time() {
    let catalog = bundled::catalog();
    let s = scenario(SCENARIOS[1]);
    let us = Side::BOTH[1];
    assert_eq!(s.sides[us.index()].id, "us");
    let mut g = Game::new(
        Rules::new(&s, &catalog),
        GameRng::seed_from_u64(1),
        GameRng::seed_from_u64(2),
        ai::Players::of(&s).unwrap().seats([false, true]),
    );
    assert_eq!(
        g.advance().unwrap(),
        Waiting::Commands {
            turn: 0,
            side: us,
            phase: model::Phase::Deployment
        }
    );
    let scouts = s.unit_id("m3_scouts").unwrap();
    let to = |l: &str| s.map.hex(l.parse().unwrap()).unwrap();
    let step = |hex: &str| model::Command::Move {
        unit: scouts,
        path: vec![to(hex)],
        double: false,
    };
    g.command(&step("0904")).unwrap();
    let again = g.command(&step("0905")).unwrap_err();
    assert!(again.to_string().starts_with("R15.4"), "{again}");
    assert!(matches!(
        g.advance().unwrap(),
        Waiting::Commands { turn: 1, .. }
    ));
    assert_eq!(g.state().hex_of(scouts), Some(to("0904")));
}

/// The position hash is of an explicit encoding (docs/saved-games.md): pinned for the meeting
/// engagement's start, it changes when a unit moves, a mark is set or the phase moves on, and
/// two games that reach the same position hash alike.
#[test]
fn the_position_hash_is_pinned_and_tells_positions_apart() {
    let s = scenario(SCENARIOS[1]);
    let start = counters::State::new(&s);
    assert_eq!(
        start.position_hash(),
        0x9f42_a33b_81e6_7ad4,
        "{:016x}",
        start.position_hash()
    );
    let t72 = s.unit_id("t72_4").unwrap();
    let mut moved = start.clone();
    moved.apply(&model::Event::Moved {
        unit: t72,
        path: std::iter::once(s.map.hex("0303".parse().unwrap()).unwrap()).collect(),
        cost: 1,
        double: false,
        gone_to_ground: false,
    });
    assert_ne!(moved.position_hash(), start.position_hash());
    let mut pinned = start.clone();
    pinned.apply(&model::Event::Pinned { unit: t72 });
    assert_ne!(pinned.position_hash(), start.position_hash());
    assert_ne!(pinned.position_hash(), moved.position_hash());
    assert_eq!(start.clone().position_hash(), start.position_hash());
}

/// The simulation API: a fork plays on the dice it is given, the same way every time, and
/// leaves the game it came from, dice and all, as it was; a fork of a game at its start on the
/// game's own seeds plays exactly `play_with`.
#[test]
fn a_fork_plays_on_its_own_dice_and_leaves_the_game_alone() {
    let catalog = bundled::catalog();
    for text in SCENARIOS {
        let s = scenario(text);
        let rules = Rules::new(&s, &catalog);
        let players = ai::Players::of(&s).unwrap();
        let mut game = Game::new(
            rules,
            GameRng::seed_from_u64(1),
            GameRng::seed_from_u64(2),
            players.seats([true, false]),
        );
        assert!(matches!(game.advance().unwrap(), Waiting::Commands { .. }));
        let (state, events, mark) = (
            game.state().clone(),
            game.events().to_vec(),
            game.dice_mark(),
        );
        let play_out = |seed: u64| {
            let mut f = game.fork(
                GameRng::seed_from_u64(seed),
                GameRng::seed_from_u64(seed + 1),
                players.seats([false, false]),
            );
            assert!(f.events().is_empty(), "a fork starts its own log");
            assert_eq!(f.advance().unwrap(), Waiting::Over);
            (f.state().clone(), f.events().to_vec())
        };
        let once = play_out(5);
        assert_eq!(play_out(5), once, "{}", s.title);
        assert!(once.0.outcome().is_some());
        assert_eq!(game.state(), &state);
        assert_eq!(game.events(), &events[..]);
        assert_eq!(game.dice_mark(), mark, "the game's dice were not touched");
        // At the start, on the game's own seeds, a fork is the game.
        let fresh = Game::new(
            rules,
            GameRng::seed_from_u64(3),
            GameRng::seed_from_u64(4),
            players.seats([false, false]),
        );
        let mut f = fresh.fork(
            GameRng::seed_from_u64(3),
            GameRng::seed_from_u64(4),
            players.seats([false, false]),
        );
        f.advance().unwrap();
        let (end, all) =
            play_with(&rules, GameRng::seed_from_u64(3), GameRng::seed_from_u64(4)).unwrap();
        assert_eq!(f.state(), &end);
        assert_eq!(f.events(), &all[..]);
    }
}

/// The horizon: a game advanced to a side's player turn waits at its first phase there, as
/// for a seat answered from outside, and the next advance has the AI play on from it: the game
/// stopped at each player turn in turn is the game played straight through, event for event.
#[test]
fn a_game_stopped_at_each_horizon_plays_on_as_if_never_stopped() {
    let catalog = bundled::catalog();
    for text in SCENARIOS {
        let s = scenario(text);
        let rules = Rules::new(&s, &catalog);
        for seed in 0..4 {
            let (end, all) = straight(&rules, seed);
            let players = ai::Players::of(&s).unwrap();
            let mut g = players.game(
                rules,
                GameRng::seed_from_u64(seed),
                GameRng::seed_from_u64(seed + 100),
            );
            let mut stops = 0;
            'turns: for turn in 1..=s.turns {
                for side in [s.first, s.first.other()] {
                    match g.advance_to(turn, side).unwrap() {
                        Waiting::Over => break 'turns,
                        Waiting::Commands {
                            turn: t,
                            side: w,
                            phase,
                        } => {
                            assert_eq!((t, w), (turn, side), "{}", s.title);
                            assert!(
                                matches!(phase, model::Phase::Start | model::Phase::Movement),
                                "stopped in {phase:?}"
                            );
                            assert_eq!(g.state().turn(), turn);
                            assert_eq!(g.state().active(), side);
                            stops += 1;
                        }
                        Waiting::Question { .. } => panic!("no seat is answered from outside"),
                    }
                }
            }
            assert!(stops >= 2, "{}: stopped {stops} times", s.title);
            assert_eq!(g.advance().unwrap(), Waiting::Over);
            assert_eq!(g.state(), &end, "{}, seed {seed}", s.title);
            assert_eq!(g.events(), &all[..], "{}, seed {seed}", s.title);
        }
    }
}

/// `Game::advance_a_phase`, which a web page's seat runs the other side's turn by, stops at
/// each phase of the AI's seat and plays the same game as `advance`, event for event and line
/// for line, questions to the person in the AI's phases included.
#[test]
fn a_phase_at_a_time_is_the_same_game() {
    let catalog = bundled::catalog();
    let mut stops = 0;
    let mut asked = 0;
    for text in SCENARIOS {
        let s = scenario(text);
        let rules = Rules::new(&s, &catalog);
        let players = ai::Players::of(&s).unwrap();
        for side in Side::BOTH {
            let mut people = [false, false];
            people[side.index()] = true;
            let play = |stepping: bool, stops: &mut usize, asked: &mut usize| {
                let mut g = Game::new(
                    rules,
                    GameRng::seed_from_u64(5),
                    GameRng::seed_from_u64(6),
                    players.seats(people),
                );
                let advance = |g: &mut Game<'_>| {
                    if stepping {
                        g.advance_a_phase().unwrap()
                    } else {
                        g.advance().unwrap()
                    }
                };
                let mut w = advance(&mut g);
                loop {
                    w = match w {
                        Waiting::Commands { side: s2, .. } => {
                            if s2 != side {
                                assert!(stepping, "only a phase at a time stops at the AI's");
                                *stops += 1;
                            }
                            advance(&mut g)
                        }
                        Waiting::Question { side: s2, question } => {
                            assert_eq!(s2, side);
                            *asked += 1;
                            g.answer(question.suggested()).unwrap()
                        }
                        Waiting::Over => break,
                    };
                }
                let lines: Vec<String> = g.transcript().map(|e| format!("{e:?}")).collect();
                (g.events().to_vec(), lines)
            };
            let (mut n, mut q) = (0, 0);
            let straight = play(false, &mut n, &mut q);
            let stepped = play(true, &mut stops, &mut asked);
            assert_eq!(stepped.0, straight.0, "{} {side:?}: events", s.title);
            assert_eq!(stepped.1, straight.1, "{} {side:?}: transcript", s.title);
        }
    }
    assert!(stops > 10, "the AI's phases stopped {stops} times");
    assert!(asked > 0, "no question was asked of the person");
}
