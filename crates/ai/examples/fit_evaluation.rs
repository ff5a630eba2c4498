//! Fits the search AI's evaluation (`ai::evaluation`) to the outcomes of games: plays each
//! bundled scenario between `doctrine`, `doctrine@1` and `exploiter` on either side, records the
//! evaluation's features at the start of every player turn, and fits a logistic model of the
//! attacker's win to them (Newton's method, a light ridge). Half the games fit it and the other
//! half test it: the log loss of the model beside a constant, the scenario's own win rate.
//!
//! ```sh
//! cargo run --release -p ai --example fit_evaluation -- [GAMES_PER_PAIRING] [SEED]
//! ```
//!
//! It prints the weights to paste into `crates/ai/src/evaluation.rs`, and the old weights'
//! log loss on the same test games. The defaults (100 games per pairing, seed 7: 8,100 games,
//! about 32,500 positions, a second) give the weights the search plays with.

use std::sync::Arc;

use ai::evaluation::{FEATURES, N, WEIGHTS, chance as predict, features};
use counters::Rules;
use game::{Game, Seat, Waiting};
use model::{GameRng, Role, bundled};

const SCENARIOS: [(&str, &str); 3] = [
    (
        "dawn_assault",
        include_str!("../../../scenarios/dawn_assault.toml"),
    ),
    (
        "meeting_engagement",
        include_str!("../../../scenarios/meeting_engagement.toml"),
    ),
    (
        "night_recon",
        include_str!("../../../scenarios/night_recon.toml"),
    ),
];

const AIS: [&str; 3] = ["doctrine", "doctrine@1", "exploiter"];

/// A position's features and the attacker's result: 1 a win, 0 a loss, a half when both lose.
type Row = ([f64; N], f64);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(100, |a| a.parse().expect("games"));
    let seed: u64 = args.get(1).map_or(7, |a| a.parse().expect("seed"));
    let catalog = bundled::catalog();
    let (mut fit, mut test) = (Vec::new(), Vec::new());
    for (name, text) in SCENARIOS {
        let scenario = bundled::scenario(name, text).expect("a bundled scenario");
        let rules = Rules::new(&scenario, &catalog);
        let mut rows = 0;
        for a in AIS {
            for b in AIS {
                let players = [
                    ai::build(a, &scenario.sides[0]).expect("a known AI"),
                    ai::build(b, &scenario.sides[1]).expect("a known AI"),
                ];
                for n in 0..games {
                    let game_rows = play(&rules, &players, seed, n);
                    rows += game_rows.len();
                    if n % 2 == 0 {
                        fit.extend(game_rows);
                    } else {
                        test.extend(game_rows);
                    }
                }
            }
        }
        eprintln!("{name}: {rows} positions");
    }
    let base = fit.iter().map(|r| r.1).sum::<f64>() / fit.len() as f64;
    let weights = newton(&fit, 1e-3);
    println!("positions: {} to fit, {} to test", fit.len(), test.len());
    println!(
        "test log loss: model {:.4}, old weights {:.4}, a constant {:.4} (the attacker's rate {:.3})",
        log_loss(&test, |f| predict(&weights, f)),
        log_loss(&test, |f| predict(&WEIGHTS, f)),
        log_loss(&test, |_| base),
        base
    );
    for left in 0..=8 {
        let late: Vec<Row> = test
            .iter()
            .filter(|r| (r.0[1] - f64::from(left)).abs() < 0.5)
            .copied()
            .collect();
        if !late.is_empty() {
            let base = late.iter().map(|r| r.1).sum::<f64>() / late.len() as f64;
            println!(
                "  {left} attacker turns left: {} positions, model {:.4}, a constant {:.4}",
                late.len(),
                log_loss(&late, |f| predict(&weights, f)),
                log_loss(&late, |_| base)
            );
        }
    }
    println!("pub const WEIGHTS: [f64; N] = [");
    for (w, name) in weights.iter().zip(FEATURES) {
        println!("    {w:.4}, // {name}");
    }
    println!("];");
}

/// Plays game `n` between `players` (side A's, side B's) and returns its positions at the
/// start of each player turn, with the attacker's result.
fn play(rules: &Rules<'_>, players: &[Arc<dyn game::Ai>; 2], seed: u64, n: u64) -> Vec<Row> {
    let seats = players.clone().map(Seat::ai);
    let mut game = Game::new(
        *rules,
        GameRng::for_game(seed, n),
        GameRng::for_game(seed.wrapping_add(1), n),
        seats,
    );
    let first = rules.scenario.first;
    let mut positions = Vec::new();
    'turns: for turn in 1..=rules.scenario.turns {
        for side in [first, first.other()] {
            match game.advance_to(turn, side).expect("the game's own dice") {
                Waiting::Over => break 'turns,
                _ => positions.push(features(game.state(), rules)),
            }
        }
    }
    game.advance().expect("the game's own dice");
    let attacker = rules.scenario.side_with(Role::Attacker);
    let result = match game.state().outcome().and_then(|o| o.winner) {
        Some(w) if w == attacker => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    positions.into_iter().map(|f| (f, result)).collect()
}

fn log_loss(rows: &[Row], p: impl Fn(&[f64; N]) -> f64) -> f64 {
    let sum: f64 = rows
        .iter()
        .map(|(f, y)| {
            let p = p(f).clamp(1e-9, 1.0 - 1e-9);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum();
    sum / rows.len() as f64
}

/// Logistic regression by Newton's method with a ridge of `ridge` per row on every weight but
/// the bias.
fn newton(rows: &[Row], ridge: f64) -> [f64; N] {
    let mut w = [0.0; N];
    let lambda = ridge * rows.len() as f64;
    for _ in 0..50 {
        let mut grad = [0.0; N];
        let mut hess = [[0.0; N]; N];
        for (f, y) in rows {
            let p = predict(&w, f);
            for i in 0..N {
                grad[i] += (p - y) * f[i];
                for j in 0..N {
                    hess[i][j] += p * (1.0 - p) * f[i] * f[j];
                }
            }
        }
        for i in 1..N {
            grad[i] += lambda * w[i];
            hess[i][i] += lambda;
        }
        let step = solve(hess, grad);
        let mut change = 0.0_f64;
        for i in 0..N {
            w[i] -= step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for c in 0..N {
        let p = (c..N)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        for r in 0..N {
            if r != c {
                let k = a[r][c] / d;
                let pivot = a[c];
                for (x, p) in a[r].iter_mut().zip(pivot).skip(c) {
                    *x -= k * p;
                }
                b[r] -= k * b[c];
            }
        }
    }
    let mut x = [0.0; N];
    for i in 0..N {
        x[i] = if a[i][i].abs() < 1e-12 {
            0.0
        } else {
            b[i] / a[i][i]
        };
    }
    x
}
