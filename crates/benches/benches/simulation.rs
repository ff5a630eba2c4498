//! The simulation API's costs (`Game::fork`): what an AI that looks ahead with the engine pays
//! for a copy of the game, and for playing it on. On the dawn assault, the largest bundled
//! scenario, at the first decision a person commanding its first side would make (the recon
//! deployment):
//! a fork, a fork played out by the doctrine AIs to the end of the battle (divide by the
//! phases played, printed once, for the cost of a phase), a fork played to the search AI's
//! horizon (`Game::advance_to` the first side's third turn, two game turns from the first
//! movement phase) and the evaluation it weighs the position there by.
//!
//! Run with `cargo bench -p benches --bench simulation`.

use std::hint::black_box;

use counters::Rules;
use criterion::{Criterion, criterion_group, criterion_main};
use game::{Game, Waiting};
use model::{GameRng, ScenarioFile, bundled};

fn simulation(c: &mut Criterion) {
    let catalog = bundled::catalog();
    let scenario = ScenarioFile::parse(
        "dawn_assault.toml",
        include_str!("../../../scenarios/dawn_assault.toml"),
    )
    .validate(&catalog, &bundled::terrain())
    .unwrap();
    let rules = Rules::new(&scenario, &catalog);
    let players = ai::Players::of(&scenario).unwrap();
    let mut game = Game::new(
        rules,
        GameRng::seed_from_u64(1),
        GameRng::seed_from_u64(2),
        players.seats([true, false]),
    );
    assert!(matches!(game.advance(), Ok(Waiting::Commands { .. })));
    // A fork of the game on these seeds, both seats played by their AIs.
    let fork = |dice: u64, ai_rng: u64| {
        game.fork(
            GameRng::seed_from_u64(dice),
            GameRng::seed_from_u64(ai_rng),
            players.seats([false, false]),
        )
    };
    // Phases played out from here, for the cost of one.
    let mut f = fork(9, 10);
    f.advance().unwrap();
    let phases = f
        .events()
        .iter()
        .filter(|e| {
            matches!(
                e,
                model::Event::PhaseStarted {
                    phase: model::Phase::Movement | model::Phase::Fire
                }
            )
        })
        .count();
    eprintln!("a play-out from here plays {phases} movement and fire phases");
    let mut group = c.benchmark_group("simulation");
    group.bench_function("fork_dawn_turn_1", |b| {
        b.iter(|| black_box(fork(9, 10)));
    });
    let mut seed = 0;
    group.bench_function("fork_and_play_out_dawn", |b| {
        b.iter(|| {
            seed += 1;
            black_box(fork(seed, seed).advance().unwrap())
        });
    });
    group.bench_function("fork_and_play_to_horizon_dawn", |b| {
        b.iter(|| {
            seed += 1;
            black_box(fork(seed, seed).advance_to(3, scenario.first).unwrap())
        });
    });
    let mut at_horizon = fork(9, 10);
    at_horizon.advance_to(3, scenario.first).unwrap();
    group.bench_function("evaluation_dawn_turn_3", |b| {
        b.iter(|| black_box(ai::evaluation::attacker_wins(at_horizon.state(), &rules)));
    });
    group.finish();
}

criterion_group!(benches, simulation);
criterion_main!(benches);
