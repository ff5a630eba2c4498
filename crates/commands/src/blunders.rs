//! `hexwar blunders`: plays a scenario's games as `hexwar batch` does (game i seeded from
//! (SEED, i), the same games for any --threads) and counts each side's blunders
//! (`ai::count_blunders`): the mistakes a wargamer calls, per game, beside which AI played.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use counters::Rules;
use model::Side;
use rayon::prelude::*;
use session::seeding::game_dice;

use crate::PlayOptions;
use crate::batch::{MAX_THREADS, check_runs_threads, played_whole, progress_bar, whole_prefix};
use crate::data::{BadInput, load_scenario};
use crate::interrupt;

/// `hexwar blunders`'s arguments.
#[derive(clap::Args)]
pub struct BlundersArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 200)]
    pub runs: u64,
    /// Batch seed: game i is game i of `hexwar batch FILE --seed SEED`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Print the counts as JSON.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// The rule and AI overrides.
    #[command(flatten)]
    pub play: PlayOptions,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
}

/// What each kind counts, for the table's key.
const MEANING: [&str; 4] = [
    "a unit that moved and ends its turn where the enemy's best assault next turn wins its first round with odds above 0.8",
    "a disorganized or weakened unit left next to an enemy unit that can assault it",
    "an HQ in an assault whose first-round odds without it are within 0.02 of those with it",
    "an objective left uncontested at the end of the side's deciding turn when a unit could have reached it",
];

/// Plays the games and prints each side's blunders per game.
pub fn run(args: &BlundersArgs) -> anyhow::Result<ExitCode> {
    check_runs_threads(args.runs, args.threads)?;
    let mut loaded = load_scenario(&args.file, args.catalog.as_deref())?;
    args.play.apply(&mut loaded.scenario)?;
    let scenario = &loaded.scenario;
    let rules = Rules::new(scenario, &loaded.catalog);
    let players = ai::Players::stopping(scenario, Some(interrupt::flag())).map_err(BadInput)?;
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        args.threads
    }
    .min(MAX_THREADS);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let bar = progress_bar(args.runs, "games, {per_sec}", !args.quiet);
    let played: Result<Vec<Option<[ai::Blunders; 2]>>, model::OutOfDice> = pool.install(|| {
        (0..args.runs)
            .into_par_iter()
            .map(|i| {
                played_whole(|| {
                    let (dice, ai_rng) = game_dice(args.seed, i);
                    let game = players.play(rules, dice, ai_rng)?;
                    bar.inc(1);
                    Ok(ai::count_blunders(&rules, game.events()))
                })
            })
            .collect()
    });
    bar.finish_and_clear();
    let (games, whole) = whole_prefix(played?);
    let n = games.len();
    let mut totals = [[0_u64; 4]; 2];
    for g in &games {
        for side in Side::BOTH {
            for (t, c) in totals[side.index()]
                .iter_mut()
                .zip(g[side.index()].counts())
            {
                *t += u64::from(c);
            }
        }
    }
    let per_game = |t: u64| {
        if n == 0 { 0.0 } else { t as f64 / n as f64 }
    };
    let ai_of = |side: Side| players.of_side(side).name();
    if args.json {
        let sides: Vec<serde_json::Value> = Side::BOTH
            .iter()
            .map(|&side| {
                let mut kinds = serde_json::Map::new();
                for (k, kind) in ai::Blunders::KINDS.iter().enumerate() {
                    let t = totals[side.index()][k];
                    kinds.insert(
                        (*kind).to_owned(),
                        serde_json::json!({ "total": t, "per_game": per_game(t) }),
                    );
                }
                serde_json::json!({
                    "side": scenario.sides[side.index()].id,
                    "ai": ai_of(side),
                    "blunders": kinds,
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "scenario": scenario.title,
                "seed": args.seed,
                "games": n,
                "complete": whole,
                "sides": sides,
            }))?
        );
    } else {
        let mut out = format!(
            "{}: blunders per game over {n} games (seed {}{})\n",
            scenario.title,
            args.seed,
            if whole { "" } else { ", stopped early" }
        );
        let _ = writeln!(
            out,
            "  {:<10} {:<16} {:>8} {:>12} {:>8} {:>15}",
            "side", "ai", "exposed", "shaken_left", "idle_hq", "objective_left"
        );
        for side in Side::BOTH {
            let t = totals[side.index()];
            let _ = writeln!(
                out,
                "  {:<10} {:<16} {:>8.2} {:>12.2} {:>8.2} {:>15.2}",
                scenario.sides[side.index()].id,
                ai_of(side),
                per_game(t[0]),
                per_game(t[1]),
                per_game(t[2]),
                per_game(t[3])
            );
        }
        for (kind, meaning) in ai::Blunders::KINDS.iter().zip(MEANING) {
            let _ = writeln!(out, "  {kind}: {meaning}");
        }
        out!("{out}");
    }
    Ok(interrupt::status(whole))
}
