//! Benchmarks: one hex assault (R9, three units a side) through the real `execute` path, a bare
//! loop rolling the same number of dice for comparison, one whole game of each bundled scenario
//! with the default AI (`game/`), and sixteen games played in a session (`replay/NAME/played`)
//! beside the same games replayed from their saves (`replay/NAME/replayed`: every line of both
//! sides parsed, checked and executed, the position hashed after each player turn, no AI
//! thinking) and their recorded lines given straight to the engine (`replay/NAME/engine`). Side
//! by side they say how much of a game's cost is the AI's and how much the rules'.
//!
//! Run with `cargo bench -p benches --bench rules`; criterion prints the time per iteration and, as
//! `thrpt`, assault resolutions or games per second on one core.

#[path = "common/scenarios.rs"]
mod scenarios;

use std::hint::black_box;

use counters::Rules;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game::{Act, Game, Waiting};
use model::{Command, Dice, GameRng, ScenarioFile, UnitState, bundled};
use odds::{Combatant, MATCHUP_DEFENDERS, matchup, matchup_state};
use session::Session;
use session::save::{SAVE_FORMAT, SavedGame};

fn assault(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let table = bundled::terrain();
    let pick = |ids: &[&str]| -> Vec<Combatant> {
        ids.iter()
            .map(|id| Combatant {
                type_id: catalog.id(id).unwrap(),
                state: UnitState::default(),
            })
            .collect()
    };
    let mut scenario = matchup(
        &catalog,
        &table,
        table.by_name("clear").unwrap(),
        &pick(&["t72", "mr_coy", "hq_mrr"]),
        &pick(&["mech_inf", "m2", "tow_team"]),
    );
    // One R9 round, as the issue asks: no melee, no armor rolls.
    scenario.rules.counterattacks = false;
    scenario.rules.tank_assault = false;
    let mut melee_scenario = scenario.clone();
    melee_scenario.rules.counterattacks = true;
    melee_scenario.rules.tank_assault = true;
    let melee_rules = Rules::new(&melee_scenario, &catalog);
    let rules = Rules::new(&scenario, &catalog);
    let start = matchup_state(&rules);
    let attackers = odds::matchup_attackers(&start);
    let command = Command::Assault {
        units: attackers,
        hex: MATCHUP_DEFENDERS.to_hex(),
    };
    let mut group = c.benchmark_group("assault");
    // Reported as resolutions per second too.
    group.throughput(Throughput::Elements(1));
    let mut rng = GameRng::seed_from_u64(1);
    let mut state = start.clone();
    let mut events = Vec::new();
    group.bench_function("resolve_3v3", |b| {
        b.iter(|| {
            state.clone_from(&start);
            events.clear();
            ai::Players::of(rules.scenario)
                .unwrap()
                .advisors()
                .execute_into(&mut state, &rules, &command, &mut rng, &mut events)
                .unwrap();
            black_box(events.len())
        });
    });
    // What restoring the position costs, included in the two figures above and below.
    group.bench_function("restore_state", |b| {
        b.iter(|| {
            state.clone_from(&start);
            black_box(state.units().len())
        });
    });
    // The whole assault with counterattacks and tank assault on (R9, R11).
    let mut rng = GameRng::seed_from_u64(1);
    group.bench_function("resolve_3v3_with_melee", |b| {
        b.iter(|| {
            state.clone_from(&start);
            events.clear();
            ai::Players::of(melee_rules.scenario)
                .unwrap()
                .advisors()
                .execute_into(&mut state, &melee_rules, &command, &mut rng, &mut events)
                .unwrap();
            black_box(events.len())
        });
    });
    // The same dice as the assault above rolls (5 + 3 attacking, 3 + 1 + 1 defending), plus the
    // few for random picks: a floor for any resolution.
    let mut rng = GameRng::seed_from_u64(1);
    group.bench_function("bare_dice_14", |b| {
        b.iter(|| {
            let mut hits = 0u32;
            for _ in 0..14 {
                hits += u32::from(rng.d6().unwrap() >= 4);
            }
            black_box(hits)
        });
    });
    group.finish();
}

/// Sixteen doctrine games of each bundled scenario (seed 7, games 1 to 16), played in a session
/// as `hexwar run --save` plays them (`played`), and replayed from their saves as `hexwar replay`
/// does but quietly (`replayed`): the same games, the same session's records and checks, with
/// and without the AI.
fn replay(c: &mut Criterion) {
    const GAMES: u64 = 16;
    let catalog = bundled::catalog();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(1));
    for (name, text, scenario) in scenarios::loaded(&catalog) {
        let rules = Rules::new(&scenario, &catalog);
        let header = |game: u64| SavedGame {
            format: SAVE_FORMAT,
            hexwar: String::new(),
            scenario_name: name.to_owned(),
            scenario: text.to_owned(),
            catalog_hash: String::new(),
            terrain_hash: None,
            seed: 7,
            game,
            sides: Vec::new(),
            counterattacks: None,
            ai: Vec::new(),
            turn_limit: None,
            ai_took_over: false,
            ai_rng: None,
            resume_from: None,
            commands: Vec::new(),
            turns: Vec::new(),
        };
        let players = || ai::Players::of(&scenario).unwrap();
        let play = |game: u64| {
            let mut session = Session::new(rules, players(), [false, false], header(game));
            while session.advance().unwrap() != Waiting::Over {}
            session
        };
        let saves: Vec<SavedGame> = (1..=GAMES).map(|g| play(g).saved()).collect();
        // The same games' lines as the game recorded them, typed: what the engine alone replays.
        let lines: Vec<Vec<Act>> = (1..=GAMES)
            .map(|g| play(g).game().transcript().map(|e| e.act.clone()).collect())
            .collect();
        let mut game = 0;
        group.bench_function(format!("{name}/played"), |b| {
            b.iter(|| {
                game = game % GAMES + 1;
                black_box(play(game).game().state().turn())
            });
        });
        let mut i = 0;
        group.bench_function(format!("{name}/replayed"), |b| {
            b.iter(|| {
                i = (i + 1) % saves.len();
                let saved = &saves[i];
                let mut again = Session::new(rules, players(), [false, false], header(saved.game));
                again.replay(saved).unwrap();
                black_box(again.game().state().turn())
            });
        });
        // The engine alone: both seats answered from outside, each line given back as it was
        // recorded (a command, a choice, an answer, the end of a phase), no parsing and no
        // hashing.
        let mut k = 0;
        group.bench_function(format!("{name}/engine"), |b| {
            b.iter(|| {
                k = k % lines.len() + 1;
                let (dice, ai_rng) = session::seeding::game_dice(7, k as u64);
                let mut game = Game::new(rules, dice, ai_rng, players().seats([true, true]));
                let mut waiting = game.advance().unwrap();
                for act in &lines[k - 1] {
                    match act {
                        Act::Command(c) => game.command(c).unwrap(),
                        Act::Choice { unit, action } => {
                            game.give(*unit, action.clone());
                        }
                        Act::Answer(a) => waiting = game.answer(*a).unwrap(),
                        Act::End => waiting = game.advance().unwrap(),
                    }
                }
                assert_eq!(waiting, Waiting::Over);
                black_box(game.state().turn())
            });
        });
    }
    group.finish();
}

fn whole_game(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let mut group = c.benchmark_group("game");
    // Reported as games per second on one core too.
    group.throughput(Throughput::Elements(1));
    for (name, _, scenario) in scenarios::loaded(&catalog) {
        let rules = Rules::new(&scenario, &catalog);
        let players = ai::Players::of(&scenario).unwrap();
        let mut seed = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let rng = GameRng::for_game(7, seed);
                black_box(players.play(rules, rng, GameRng::seed_from_u64(0)).unwrap())
            });
        });
    }
    group.finish();
}

/// Loading a scenario 1, 10 and 100 times the size of the dawn assault (its units repeated
/// under new ids in their own hexes, so that the copies over the stacking limit are problems to
/// place and render too):
/// parse, validate, and render every problem with its line and column. Linear in the size.
fn loading(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let terrain = bundled::terrain();
    let text = include_str!("../../../scenarios/dawn_assault.toml");
    let (head, units) = text.split_at(text.find("[[units]]").unwrap());
    let units = units.split("[[objectives]]").next().unwrap();
    let mut group = c.benchmark_group("load");
    for times in [1usize, 10, 100] {
        let mut big = head.to_owned();
        for k in 0..times {
            big.push_str(&units.replace("id = \"", &format!("id = \"c{k}_")));
        }
        group.throughput(Throughput::Bytes(big.len() as u64));
        group.bench_function(format!("dawn_assault_x{times}"), |b| {
            b.iter(|| {
                let problems = ScenarioFile::parse("big.toml", black_box(&big))
                    .validate(&catalog, &terrain)
                    .err()
                    .unwrap_or_default();
                let lines = model::Lines::new(&big);
                problems
                    .iter()
                    .map(|p| lines.render(&big, p).len())
                    .sum::<usize>()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, assault, whole_game, replay, loading);
criterion_main!(benches);
