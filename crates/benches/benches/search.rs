//! The search AI's decision times: how long a phase's decision takes it, at a budget, on each
//! bundled scenario and side, against the doctrine AI. One thread; each decision is timed on its
//! own (`Game::play_phase_by` while the searching side waits for commands), and the median and
//! the worst per scenario and side are printed.
//!
//! Run with `cargo bench -p benches --bench search` (the default budget, 10 games per scenario
//! and side), or `cargo bench -p benches --bench search -- BUDGET GAMES`.

#[path = "common/scenarios.rs"]
mod scenarios;

use std::sync::Arc;
use std::time::{Duration, Instant};

use ai::DEFAULT_SEARCH_BUDGET;
use counters::Rules;
use game::{Game, Waiting};
use model::{AiName, GameRng, Phase, Side, bundled};

fn main() {
    // Cargo passes `--bench` first; numbers after it are the budget and the games.
    let numbers: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let budget = numbers.first().copied().unwrap_or(DEFAULT_SEARCH_BUDGET);
    let games = numbers.get(1).copied().unwrap_or(10);
    let catalog = bundled::catalog();
    println!("search:{budget}, {games} games per scenario and side, against doctrine");
    println!(
        "{:<20} {:<8} {:>9} {:>12} {:>12} {:>12}",
        "scenario", "side", "decisions", "median", "worst", "fire median"
    );
    let mut all = Vec::new();
    for (name, _, mut scenario) in scenarios::loaded(&catalog) {
        for side in Side::BOTH {
            for s in &mut scenario.sides {
                s.ai = AiName::new("doctrine");
            }
            scenario.sides[side.index()].ai = AiName::new(format!("search:{budget}"));
            let rules = Rules::new(&scenario, &catalog);
            let players = ai::Players::of(&scenario).expect("the AIs");
            let search = Arc::clone(players.of_side(side));
            let mut people = [false; 2];
            people[side.index()] = true;
            let (mut movement, mut fire) = (Vec::new(), Vec::new());
            for g in 0..u64::from(games) {
                let mut game = Game::new(
                    rules,
                    GameRng::for_game(1, g),
                    GameRng::for_game(2, g),
                    players.seats(people),
                );
                let mut w = game.advance().expect("dice");
                // Whether the phase waited in was played (a question may come in its middle).
                let mut played = false;
                loop {
                    w = match w {
                        Waiting::Commands { phase, .. } if !played => {
                            let start = Instant::now();
                            game.play_phase_by(Arc::clone(&search)).expect("dice");
                            match phase {
                                Phase::Movement => movement.push(start.elapsed()),
                                Phase::Fire => fire.push(start.elapsed()),
                                _ => {}
                            }
                            played = true;
                            game.waiting().cloned().expect("a game under way")
                        }
                        Waiting::Commands { .. } => {
                            played = false;
                            game.advance().expect("dice")
                        }
                        // The rules' questions are answered as the AI would.
                        Waiting::Question { question, .. } => {
                            game.answer(question.suggested()).expect("an answer")
                        }
                        Waiting::Over => break,
                    };
                }
            }
            let id = &scenario.sides[side.index()].id;
            println!(
                "{name:<20} {id:<8} {:>9} {:>12.3?} {:>12.3?} {:>12.3?}",
                movement.len(),
                median(&mut movement),
                worst(&movement),
                median(&mut fire),
            );
            all.extend(movement);
        }
    }
    println!(
        "{:<29} {:>9} {:>12.3?} {:>12.3?}",
        "every movement phase",
        all.len(),
        median(&mut all),
        worst(&all)
    );
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn worst(times: &[Duration]) -> Duration {
    times.iter().max().copied().unwrap_or_default()
}
