//! `hexwar batch`, `hexwar merge` and `hexwar tune`: many games of a scenario in parallel, with
//! summaries that merge exactly across shards, and stat tuning with common random numbers.

use std::fmt::Write as _;
use std::io::IsTerminal as _;

use counters::{Catalog, GameRecord, Rules, Scenario, Summary, play_with};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::data::BadInput;

pub use session::seeding::game_dice;

/// Applies `--ai SIDE=KIND[:THRESHOLD]` overrides to a scenario: the AI of a side
/// (`doctrine`, `doctrine@1`, `passive`, `random`) and, for a doctrine AI, the probability of
/// winning above which it assaults and overruns.
pub fn override_ai(scenario: &mut Scenario, specs: &[String]) -> Result<(), BadInput> {
    for spec in specs {
        let (side, kind) = spec.split_once('=').ok_or_else(|| {
            BadInput(format!(
                "--ai `{spec}`: expected SIDE=KIND[:THRESHOLD], e.g. nato=random or soviet=doctrine:0.65"
            ))
        })?;
        let ai =
            counters::AiSpec::parse(kind).map_err(|e| BadInput(format!("--ai `{spec}`: {e}")))?;
        let s = scenario
            .sides
            .iter_mut()
            .find(|s| s.id == side)
            .ok_or_else(|| BadInput(format!("--ai `{spec}`: no side `{side}` in this scenario")))?;
        s.set_ai(ai);
    }
    Ok(())
}

/// `hexwar merge` without `--partial` refuses an incomplete set of summaries (of a batch or an
/// arena, `what`): shards missing out of `count`, or a summary of an interrupted run.
pub fn refuse_incomplete(
    what: &str,
    count: u64,
    missing: &[std::ops::Range<u64>],
    complete: bool,
) -> Result<(), BadInput> {
    if missing.is_empty() && complete {
        return Ok(());
    }
    let why = if missing.is_empty() {
        format!("a summary of an interrupted {what}")
    } else {
        let have: u64 = count - missing.iter().map(|r| r.end - r.start).sum::<u64>();
        let names: Vec<String> = missing
            .iter()
            .map(|r| {
                if r.end - r.start == 1 {
                    r.start.to_string()
                } else {
                    format!("{} to {}", r.start, r.end - 1)
                }
            })
            .collect();
        format!("{have} of {count} shards; missing {}", names.join(", "))
    };
    Err(BadInput(format!(
        "an incomplete {what}: {why} (--partial merges it anyway, marked incomplete)"
    )))
}

/// Which games of a batch this process plays: those with `index % count == index_of_shard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// The whole batch.
    pub const ALL: Self = Self { index: 0, count: 1 };

    /// Parses `I/N`.
    pub fn parse(text: &str) -> Result<Self, BadInput> {
        let bad = || {
            BadInput(format!(
                "--shard `{text}`: expected I/N with 0 <= I < N, e.g. 0/4"
            ))
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u64, u64) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Self { index, count })
    }
}

/// How to run a batch.
pub struct Options {
    /// Games in the whole batch.
    pub runs: u64,
    /// Batch seed: game `i` is seeded from `(seed, i)`.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Which games to play.
    pub shard: Shard,
    /// Show a progress bar (on a terminal only).
    pub progress: bool,
}

/// Games played between two checks for an interrupt, and the most records held at once: memory
/// stays flat whatever `--runs`.
const CHUNK: u64 = 4096;

/// The most games a batch may ask for, and the most worker threads.
pub const MAX_RUNS: u64 = 1_000_000_000_000;
/// See [`MAX_RUNS`].
pub const MAX_THREADS: usize = 1024;

/// Checks `--runs` and `--threads` as every command that plays batches takes them.
///
/// # Errors
/// A number of games outside 1 to [`MAX_RUNS`], or of threads over [`MAX_THREADS`].
pub fn check_runs_threads(runs: u64, threads: usize) -> Result<(), BadInput> {
    if runs == 0 || runs > MAX_RUNS {
        return Err(BadInput(format!(
            "--runs must be 1 to {MAX_RUNS} (a trillion)"
        )));
    }
    if threads > MAX_THREADS {
        return Err(BadInput(format!("--threads must be at most {MAX_THREADS}")));
    }
    Ok(())
}

/// How many of the batch's games are this shard's: those with `index % count == shard index`,
/// counted, not listed.
pub fn shard_games(opts: &Options) -> u64 {
    opts.runs
        .checked_sub(opts.shard.index)
        .map_or(0, |n| n.div_ceil(opts.shard.count))
}

/// Plays the shard's games in parallel, a chunk at a time, handing each chunk's records, in game
/// order, to `each`; stops early, between chunks, when the user interrupts. Returns whether every
/// game was played. The results do not depend on the number of threads.
pub fn play_chunks(
    scenario: &Scenario,
    catalog: &Catalog,
    opts: &Options,
    mut each: impl FnMut(Vec<GameRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<bool> {
    let rules = Rules::new(scenario, catalog);
    let mine = shard_games(opts);
    let bar = progress_bar(mine, "games, {per_sec}", opts.progress);
    let threads = opts
        .threads
        .min(MAX_THREADS)
        .min(usize::try_from(mine).unwrap_or(MAX_THREADS).max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut k = 0;
    while k < mine {
        if crate::interrupt::requested() {
            bar.finish_and_clear();
            return Ok(false);
        }
        let end = k.saturating_add(CHUNK).min(mine);
        let records: Result<Vec<GameRecord>, counters::OutOfDice> = pool.install(|| {
            (k..end)
                .into_par_iter()
                .map(|j| {
                    let i = opts.shard.index + j * opts.shard.count;
                    let (mut dice, ai) = game_dice(opts.seed, i);
                    let (end, _) = play_with(&rules, &mut dice, ai)?;
                    bar.inc(1);
                    Ok(GameRecord::new(i, &rules, &end))
                })
                .collect()
        });
        each(records?)?;
        k = end;
    }
    bar.finish_and_clear();
    Ok(true)
}

/// The progress bar of every long command, on standard error at a terminal only (hidden with
/// `-q` or when `show` is false): `{pos}/{len} what, eta`.
pub fn progress_bar(len: u64, what: &str, show: bool) -> ProgressBar {
    if show && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(len);
        let template = format!("{{bar:40}} {{pos}}/{{len}} {what}, eta {{eta}}");
        bar.set_style(
            ProgressStyle::with_template(&template)
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    }
}

/// The summary of the batch's games, folded as they are played; `complete` is false when the
/// user interrupted.
pub fn summary_of(
    scenario: &Scenario,
    catalog: &Catalog,
    opts: &Options,
) -> anyhow::Result<Summary> {
    let mut summary = Summary::new(scenario, opts.seed);
    let complete = play_chunks(scenario, catalog, opts, |records| {
        for r in &records {
            summary.add(r);
        }
        Ok(())
    })?;
    summary.complete = complete;
    summary.finish();
    Ok(summary)
}

/// A readable summary table.
pub fn render(s: &Summary) -> String {
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let mut out = format!(
        "{}: {} game{}, seed {}{}\n\n",
        s.scenario,
        s.runs,
        if s.runs == 1 { "" } else { "s" },
        s.seed,
        if s.complete {
            ""
        } else {
            " (INTERRUPTED: only the games finished are counted)"
        }
    );
    let _ = writeln!(
        out,
        "{:<12} {:>7} {:>9}  {:<18} VP MEAN ± SD",
        "SIDE", "WINS", "WIN RATE", "95% CI (Wilson)"
    );
    for side in &s.sides {
        let _ = writeln!(
            out,
            "{:<12} {:>7} {:>9}  {:<18} {:.2} ± {:.2}",
            side.id,
            side.wins,
            pct(side.win_rate),
            format!("[{}, {}]", pct(side.ci95[0]), pct(side.ci95[1])),
            side.vp_mean,
            side.vp_sd
        );
    }
    let n = s.runs.max(1) as f64;
    let _ = writeln!(
        out,
        "both lose    {:>7} {:>9}",
        s.both_lose,
        pct(s.both_lose as f64 / n)
    );
    let reasons: Vec<String> = s
        .end_reasons
        .iter()
        .map(|(k, v)| format!("{k} {}", pct(*v as f64 / n)))
        .collect();
    let _ = writeln!(out, "\nended by: {}", reasons.join(", "));
    let _ = writeln!(
        out,
        "game length: {:.2} ± {:.2} turns",
        s.turns_mean, s.turns_sd
    );
    let mut losses: Vec<(&String, &u64)> = s.losses_by_type.iter().collect();
    losses.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let losses: Vec<String> = losses
        .iter()
        .map(|(k, v)| format!("{k} {:.2}", **v as f64 / n))
        .collect();
    let _ = writeln!(
        out,
        "units lost per game, by type: {}",
        if losses.is_empty() {
            "none".to_owned()
        } else {
            losses.join(", ")
        }
    );
    if matches!(s.time_of_day.as_str(), "dawn" | "dusk") {
        let (what, by) = if s.time_of_day == "dawn" {
            ("dawn", "day")
        } else {
            ("dusk", "night")
        };
        let _ = writeln!(
            out,
            "\n{what} (R13.3): {by} had come by turn (share of games, cumulative; games that ended \
             first count as not yet):\n  {}",
            cumulative(&s.time_changed_in_turn, n)
        );
    }
    if !s.objectives.is_empty() {
        let _ = writeln!(
            out,
            "\nthe attacker first held each objective by the end of turn (share of games, cumulative; \
             it may have lost it again, so these are not wins):"
        );
        for o in &s.objectives {
            let _ = writeln!(
                out,
                "  {}: {}",
                o.name,
                cumulative(&o.first_held_in_turn, n)
            );
        }
    }
    out
}

/// Games per turn as a cumulative share of `n` games (`T3 32.3%  T4 90.9%`), or `never`.
fn cumulative(by_turn: &std::collections::BTreeMap<u32, u64>, n: f64) -> String {
    let mut acc = 0;
    let cells: Vec<String> = by_turn
        .iter()
        .map(|(t, k)| {
            acc += k;
            format!("T{t} {:.1}%", acc as f64 / n * 100.0)
        })
        .collect();
    if cells.is_empty() {
        "never".to_owned()
    } else {
        cells.join("  ")
    }
}

/// The CSV's first line: one row per game follows (quoted by the `csv` crate where a side id
/// needs it).
pub fn csv_header<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    scenario: &Scenario,
) -> csv::Result<()> {
    let a = &scenario.sides[0].id;
    let b = &scenario.sides[1].id;
    w.write_record([
        "game".to_owned(),
        "batch_seed".to_owned(),
        "winner".to_owned(),
        "end".to_owned(),
        "turns".to_owned(),
        format!("vp_{a}"),
        format!("vp_{b}"),
        format!("lost_{a}"),
        format!("lost_{b}"),
        "time_changed_turn".to_owned(),
    ])
}

/// One CSV row (see [`csv_header`]).
pub fn csv_row<W: std::io::Write>(
    w: &mut csv::Writer<W>,
    seed: u64,
    r: &GameRecord,
) -> csv::Result<()> {
    w.write_record([
        r.game.to_string(),
        seed.to_string(),
        r.winner.clone(),
        r.end.clone(),
        r.turns.to_string(),
        r.vp[0].to_string(),
        r.vp[1].to_string(),
        r.losses[0].to_string(),
        r.losses[1].to_string(),
        r.time_changed.map_or_else(String::new, |t| t.to_string()),
    ])
}
