//! Refits the search AI's evaluation (`ai::evaluation`, weights in `data/evaluation.toml`) to
//! the outcomes of games: plays every bundled scenario and generated ones (`hexwar generate`,
//! seeds 1 to GENERATED; never a held-out seed of `data/held_out.toml`) between `doctrine`,
//! `doctrine@1` and `exploiter` on either side, records the evaluation's features at the start
//! of every player turn, and fits a logistic model of the attacker's win to them (Newton's
//! method, a light ridge). Each scenario's positions weigh one in all, so that a long or large
//! scenario counts no more than a short one, and the bundled scenarios together as much as the
//! generated ones together.
//!
//! How well it predicts is measured on scenarios left out of the fit: each bundled scenario,
//! and the generated ones in folds of five seeds, is predicted by a model fitted to all the
//! others; the log loss of those predictions is printed beside that of `search@1`'s frozen
//! evaluation (`ai::evaluation::v1`, whose weights were fitted to the dawn assault, the meeting
//! engagement and the night recon, so that on those three it is not left out) and of a
//! constant (the attacker's rate in the other scenarios).
//!
//! ```sh
//! cargo run --release -p ai --example fit_evaluation -- [GAMES] [GENERATED] [SEED] [--write]
//! ```
//!
//! GAMES per pairing and scenario (default 24), GENERATED seeds (default 60), SEED of the dice
//! (default 7). With `--write` it writes the weights fitted to all the games into
//! `data/evaluation.toml`, with the figures in its header.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use ai::evaluation::{FEATURES, N, chance as predict, features, v1};
use counters::Rules;
use game::{Game, Seat, Waiting};
use model::{GameRng, Role, Scenario, bundled};

const AIS: [&str; 3] = ["doctrine", "doctrine@1", "exploiter"];

/// Seeds of generated scenarios to a fold.
const FOLD: u64 = 5;

/// A position: its group (the scenario, or the fold of generated seeds), its features, the
/// frozen evaluation's chance, and the attacker's result (1 a win, 0 a loss, a half when both
/// lose).
struct Row {
    group: String,
    /// Its weight in the fit (see the notes at the top).
    weight: f64,
    f: [f64; N],
    old: f64,
    y: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|a| a == "--write");
    let numbers: Vec<u64> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(|a| {
            a.parse()
                .expect("GAMES, GENERATED and SEED are whole numbers")
        })
        .collect();
    let games = numbers.first().copied().unwrap_or(24);
    let generated = numbers.get(1).copied().unwrap_or(60);
    let seed = numbers.get(2).copied().unwrap_or(7);
    // The bundled scenarios, written and balanced by hand, weigh as much together as the
    // generated ones together (each generated scenario weighs one).
    let bundled_weight = (generated as f64 / bundled::SCENARIOS.len() as f64).max(1.0);
    let catalog = bundled::catalog();
    let terrain = bundled::terrain();
    let held_out = generate::held_out();
    let mut scenarios: Vec<(String, String, Scenario)> = bundled::SCENARIOS
        .iter()
        .map(|(name, text)| {
            let s = bundled::scenario(name, text).expect("a bundled scenario");
            ((*name).to_owned(), (*name).to_owned(), s)
        })
        .collect();
    for g in 1..=generated {
        assert!(
            !held_out.contains(&g),
            "seed {g} is held out (data/held_out.toml): no fit may use it"
        );
        let made = generate::generate(g, &generate::Knobs::default(), &catalog, &terrain)
            .expect("a generated scenario");
        let fold = (g - 1) / FOLD;
        let group = format!("generated {}-{}", fold * FOLD + 1, (fold + 1) * FOLD);
        scenarios.push((format!("generated-{g}"), group, made.scenario));
    }
    let mut rows = Vec::new();
    for (name, group, scenario) in &scenarios {
        let rules = Rules::new(scenario, &catalog);
        let before = rows.len();
        for a in AIS {
            for b in AIS {
                let players = [
                    ai::build(a, &scenario.sides[0]).expect("a known AI"),
                    ai::build(b, &scenario.sides[1]).expect("a known AI"),
                ];
                for n in 0..games {
                    rows.extend(play(&rules, &players, seed, n, group));
                }
            }
        }
        let n = (rows.len() - before) as f64;
        let share = if name.starts_with("generated") {
            1.0
        } else {
            bundled_weight
        };
        for r in &mut rows[before..] {
            r.weight = share / n;
        }
        if !name.starts_with("generated") {
            eprintln!("{name}: {} positions", rows.len() - before);
        }
    }
    eprintln!(
        "{} positions of {} scenarios ({} generated)",
        rows.len(),
        scenarios.len(),
        generated
    );
    let groups: Vec<String> = {
        let mut g: Vec<String> = rows.iter().map(|r| r.group.clone()).collect();
        g.dedup();
        g
    };
    // Leave each group out: fit to the rest, predict it.
    let mut losses: BTreeMap<&str, [f64; 4]> = BTreeMap::new();
    for g in &groups {
        let (fit, left): (Vec<&Row>, Vec<&Row>) = rows.iter().partition(|r| &r.group != g);
        let w = newton(&fit, 1e-3);
        let base = fit.iter().map(|r| r.weight * r.y).sum::<f64>()
            / fit.iter().map(|r| r.weight).sum::<f64>();
        let key = if g.starts_with("generated") {
            "generated"
        } else {
            g.as_str()
        };
        let e = losses.entry(key).or_insert([0.0; 4]);
        for r in left {
            e[0] += loss(predict(&w, &r.f), r.y);
            e[1] += loss(r.old, r.y);
            e[2] += loss(base, r.y);
            e[3] += 1.0;
        }
    }
    let mut report = String::new();
    let _ = writeln!(
        report,
        "log loss on scenarios left out of the fit (lower is better):\n{:<24} {:>9} {:>9} {:>9} {:>9}",
        "scenario", "positions", "new", "search@1", "constant"
    );
    let mut all = [0.0; 4];
    for (k, e) in &losses {
        let _ = writeln!(
            report,
            "{k:<24} {:>9} {:>9.4} {:>9.4} {:>9.4}",
            e[3],
            e[0] / e[3],
            e[1] / e[3],
            e[2] / e[3]
        );
        for i in 0..4 {
            all[i] += e[i];
        }
    }
    let _ = writeln!(
        report,
        "{:<24} {:>9} {:>9.4} {:>9.4} {:>9.4}",
        "all",
        all[3],
        all[0] / all[3],
        all[1] / all[3],
        all[2] / all[3]
    );
    print!("{report}");
    let everything: Vec<&Row> = rows.iter().collect();
    let weights = newton(&everything, 1e-3);
    for (w, name) in weights.iter().zip(FEATURES) {
        println!("{w:>9.4}  {name}");
    }
    if write {
        let mut header = format!(
            "# The search AI's evaluation (crates/ai/src/evaluation): a logistic model of the attacker's\n\
             # win, one weight per feature. Fitted by\n\
             #   cargo run --release -p ai --example fit_evaluation -- {games} {generated} {seed} --write\n\
             # to {} positions (the start of every player turn) of games between doctrine, doctrine@1\n\
             # and exploiter on the 8 bundled scenarios and generated seeds 1-{generated} ({games} games a\n\
             # pairing and scenario; never a held-out seed).\n#\n",
            rows.len()
        );
        for line in report.lines() {
            let _ = writeln!(header, "# {line}");
        }
        header.push('\n');
        let text = ai::evaluation::weights_file(&weights, &header);
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/evaluation.toml");
        std::fs::write(path, text).expect("data/evaluation.toml is writable");
        eprintln!("wrote data/evaluation.toml");
    }
}

/// Plays game `n` between `players` (side A's, side B's) and returns its positions at the
/// start of each player turn, with the attacker's result.
fn play(
    rules: &Rules<'_>,
    players: &[Arc<dyn game::Ai>; 2],
    seed: u64,
    n: u64,
    group: &str,
) -> Vec<Row> {
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
                _ => positions.push((
                    features(game.state(), rules),
                    v1::attacker_wins(game.state(), rules),
                )),
            }
        }
    }
    game.advance().expect("the game's own dice");
    let attacker = rules.scenario.side_with(Role::Attacker);
    let y = match game.state().outcome().and_then(|o| o.winner) {
        Some(w) if w == attacker => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    positions
        .into_iter()
        .map(|(f, old)| Row {
            group: group.to_owned(),
            weight: 1.0,
            f,
            old,
            y,
        })
        .collect()
}

fn loss(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

/// Logistic regression by Newton's method with a ridge of `ridge` per row on every weight but
/// the bias.
fn newton(rows: &[&Row], ridge: f64) -> [f64; N] {
    let mut w = [0.0; N];
    let lambda = ridge * rows.iter().map(|r| r.weight).sum::<f64>();
    for _ in 0..30 {
        let mut grad = [0.0; N];
        let mut hess = [[0.0; N]; N];
        for r in rows {
            let (f, y) = (&r.f, r.y);
            let p = predict(&w, f);
            for i in 0..N {
                grad[i] += r.weight * (p - y) * f[i];
                let k = r.weight * p * (1.0 - p) * f[i];
                for j in i..N {
                    hess[i][j] += k * f[j];
                }
            }
        }
        // The Hessian is symmetric: its lower half from the upper.
        for i in 1..N {
            let (upper, lower) = hess.split_at_mut(i);
            for (j, row) in upper.iter().enumerate() {
                lower[0][j] = row[i];
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
        if change < 1e-7 {
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
