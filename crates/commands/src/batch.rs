//! `hexwar batch`, `hexwar merge` and `hexwar tune`: many games of a scenario in parallel, with
//! summaries that merge exactly across shards, and stat tuning with common random numbers.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::process::ExitCode;

use counters::Rules;
use indicatif::{ProgressBar, ProgressStyle};
use model::{Catalog, Scenario};
use rayon::prelude::*;
use stats::heat::{Heat, Reach};
use stats::{GameRecord, Summary};

use crate::PlayOptions;
use crate::data::{BadInput, load_scenario};
use crate::output::Output;
use crate::{interrupt, output};
use session::seeding::game_dice;

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

    /// Parses `I/N` (clap's value parser for `--shard`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || "expected I/N with 0 <= I < N, e.g. 0/4".to_owned();
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
    /// Play each game again with the other side moving first, for the first mover's
    /// advantage ([`GameRecord::first_mover`]).
    pub first_mover: bool,
    /// Read where each game went on the map ([`GameRecord::marks`]): its events replayed.
    pub watch: bool,
}

/// The scenario with the other side moving first, and its AIs: each game played this way too
/// gives the first mover's advantage.
pub struct Swapped {
    scenario: Scenario,
    players: ai::Players,
}

impl Swapped {
    /// The scenario with the other side moving first (R4.1), played by the same AIs.
    ///
    /// # Errors
    /// An AI the registry does not know.
    pub fn of(scenario: &Scenario) -> Result<Self, BadInput> {
        let mut swapped = scenario.clone();
        swapped.first = scenario.first.other();
        let players = ai::Players::stopping(&swapped, Some(interrupt::flag())).map_err(BadInput)?;
        Ok(Self {
            scenario: swapped,
            players,
        })
    }
}

/// Game i of a batch seeded with `seed`, its record; with `swapped`, the same game (the same
/// dice) played with the other side moving first too, and the first mover's edge in it.
///
/// # Errors
/// Only with scripted dice.
pub fn play_record(
    players: &ai::Players,
    rules: Rules<'_>,
    swapped: Option<&Swapped>,
    seed: u64,
    i: u64,
    watch: bool,
) -> Result<GameRecord, model::OutOfDice> {
    let (dice, ai) = game_dice(seed, i);
    let mut game = players.game(rules, dice, ai);
    let mut record = game.play_out(i)?;
    if watch {
        record.marks = Some(Box::new(stats::heat::Marks::of_game(&rules, game.events())));
    }
    if let Some(other) = swapped {
        let (dice, ai) = game_dice(seed, i);
        let flipped = Rules::new(&other.scenario, rules.catalog);
        let game = other.players.play(flipped, dice, ai)?;
        let first = rules.scenario.first;
        let as_is = i8::from(record.winner == rules.scenario.sides[first.index()].id);
        let flipped = i8::from(game.state().outcome().and_then(|o| o.winner) == Some(first));
        record.first_mover = Some(as_is - flipped);
    }
    Ok(record)
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
#[must_use]
pub fn shard_games(opts: &Options) -> u64 {
    stats::shard_size(opts.runs, opts.shard.count, opts.shard.index)
}

/// Plays the shard's games in parallel, a chunk at a time, handing each chunk's records, in game
/// order, to `each`. A signal ([`interrupt`]) stops it within moments, however slow the games:
/// the games under way are cut short and dropped, and the records handed on are those of the
/// shard's first games, each played whole. Returns whether every game was played. The results
/// do not depend on the number of threads.
pub fn play_chunks(
    scenario: &Scenario,
    catalog: &Catalog,
    opts: &Options,
    mut each: impl FnMut(Vec<GameRecord>) -> anyhow::Result<()>,
) -> anyhow::Result<bool> {
    let rules = Rules::new(scenario, catalog);
    let players = ai::Players::stopping(scenario, Some(interrupt::flag())).map_err(BadInput)?;
    let swapped = if opts.first_mover {
        Some(Swapped::of(scenario)?)
    } else {
        None
    };
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
        let end = k.saturating_add(CHUNK).min(mine);
        let records: Result<Vec<Option<GameRecord>>, model::OutOfDice> = pool.install(|| {
            (k..end)
                .into_par_iter()
                .map(|j| {
                    let i = opts.shard.index + j * opts.shard.count;
                    played_whole(|| {
                        let record = play_record(
                            &players,
                            rules,
                            swapped.as_ref(),
                            opts.seed,
                            i,
                            opts.watch,
                        )?;
                        bar.inc(1);
                        Ok(record)
                    })
                })
                .collect()
        });
        let (records, whole) = whole_prefix(records?);
        each(records)?;
        if !whole {
            bar.finish_and_clear();
            return Ok(false);
        }
        k = end;
    }
    bar.finish_and_clear();
    Ok(true)
}

/// The results of a chunk played whole before the first one a signal cut short
/// ([`played_whole`]), and whether none was: what a stopped command keeps.
pub fn whole_prefix<T>(played: Vec<Option<T>>) -> (Vec<T>, bool) {
    let all = played.iter().all(Option::is_some);
    (played.into_iter().map_while(|p| p).collect(), all)
}

/// Plays a game unless a signal came first, and keeps it only if none came while it was played
/// (an AI stops thinking at a signal: the game is not the one it would have played).
pub fn played_whole<T>(
    play: impl FnOnce() -> Result<T, model::OutOfDice>,
) -> Result<Option<T>, model::OutOfDice> {
    if interrupt::requested() {
        return Ok(None);
    }
    let done = play()?;
    Ok((!interrupt::requested()).then_some(done))
}

/// The progress bar of every long command, on standard error at a terminal only (hidden with
/// `-q` or when `show` is false): `{pos}/{len} what, eta`.
#[must_use]
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

/// Where the batch's games went ([`Heat`]): the games played whole, and whether every one was.
pub fn heat_of(
    scenario: &Scenario,
    catalog: &Catalog,
    opts: &Options,
) -> anyhow::Result<(Heat, bool)> {
    let mut heat = Heat::new(scenario);
    let opts = Options {
        watch: true,
        ..*opts
    };
    let complete = play_chunks(scenario, catalog, &opts, |records| {
        for m in records.iter().filter_map(|r| r.marks.as_deref()) {
            heat.add(m);
        }
        Ok(())
    })?;
    Ok((heat, complete))
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
        "lead_changes".to_owned(),
        "first_mover".to_owned(),
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
        r.lead_changes.to_string(),
        r.first_mover.map_or_else(String::new, |e| e.to_string()),
    ])
}

/// `hexwar batch`.
#[derive(clap::Args)]
pub struct BatchArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Games in the batch (all shards together).
    #[arg(long, default_value_t = 1000)]
    pub runs: u64,
    /// Batch seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Play only games i with i mod N == I.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Print the summary as JSON (counts included, for `hexwar merge`).
    #[arg(long)]
    pub json: bool,
    /// Also measure the first mover's advantage: each game is played again, on the same dice,
    /// with the other side moving first (twice the games).
    #[arg(long)]
    pub first_mover: bool,
    /// Also write one CSV row per game to this file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also draw the batch: win rates with their intervals, how long the games last, units
    /// lost by type, and when each objective fell; as `NAME.svg` or `NAME.png`.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Also draw where the batch went, on the scenario's map: for each side, where its units
    /// stood at each turn's end, which hexes they moved through, where they assaulted and fired,
    /// and where they were lost, over every game; hexes no unit entered are hatched. As
    /// `NAME.svg` or `NAME.png`.
    #[arg(long, value_name = "FILE")]
    pub heatmap: Option<PathBuf>,
    /// Also write those counts as JSON, for scripts: per side and layer, each hex's count.
    #[arg(long, value_name = "FILE")]
    pub heatmap_json: Option<PathBuf>,
    /// The rule and AI overrides.
    #[command(flatten)]
    pub play: PlayOptions,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
}

/// The rule switches and AI settings of a scenario as played, for a batch summary's identity.
fn settings(s: &Scenario, first_mover: bool) -> String {
    let r = &s.rules;
    let mut out = format!(
        "stacking_limit={} counterattacks={} tank_assault={}",
        r.stacking_limit, r.counterattacks, r.tank_assault
    );
    for side in &s.sides {
        let ai = ai::identity(side).unwrap_or_else(|_| side.ai.text.clone());
        let _ = write!(out, " {}={ai}", side.id);
    }
    if first_mover {
        out.push_str(" first_mover");
    }
    out
}

/// Names the batch a summary's games belong to (`merge` adds only summaries of one batch):
/// the scenario, catalog and terrain by content, the version, rules and AIs, the games and the
/// shard.
pub fn identify(summary: &mut Summary, hashes: &[String; 3], scenario: &Scenario, opts: &Options) {
    summary.identity = Some(stats::Identity {
        scenario_hash: hashes[0].clone(),
        catalog_hash: hashes[1].clone(),
        terrain_hash: hashes[2].clone(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        settings: settings(scenario, opts.first_mover),
        runs: opts.runs,
        shard_count: opts.shard.count,
    });
    summary.shards = vec![opts.shard.index];
}

/// Checks `--shard` against the games of a batch.
///
/// # Errors
/// More shards than games.
pub fn check_shard(shard: Shard, runs: u64) -> Result<(), BadInput> {
    if shard.count > runs {
        return Err(BadInput(format!(
            "--shard {}/{}: more shards than games (--runs {runs})",
            shard.index, shard.count
        )));
    }
    Ok(())
}

/// Plays a batch and prints its summary (and writes its CSV and plot).
pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    let BatchArgs {
        file,
        runs,
        seed,
        threads,
        shard,
        json,
        csv,
        plot,
        quiet,
        play,
        catalog,
        first_mover,
        heatmap,
        heatmap_json,
    } = args;
    for p in [&plot, &heatmap].into_iter().flatten() {
        output::picture_format(p)?;
    }
    check_runs_threads(runs, threads)?;
    let shard = shard.unwrap_or(Shard::ALL);
    check_shard(shard, runs)?;
    let mut loaded = load_scenario(&file, catalog.as_deref())?;
    play.apply(&mut loaded.scenario)?;
    let opts = Options {
        runs,
        seed,
        threads,
        shard,
        progress: !quiet,
        first_mover,
        watch: true,
    };
    // Outputs are checked before the first game: nothing played is lost to a bad path.
    let [csv_out, plot_out, heatmap_out, heatmap_json_out] = Output::check_all(
        [
            (csv.as_deref(), "--csv"),
            (plot.as_deref(), "--plot"),
            (heatmap.as_deref(), "--heatmap"),
            (heatmap_json.as_deref(), "--heatmap-json"),
        ],
        &loaded.files,
    )?;
    // A CSV that cannot be written (a full disk) is reported at the end, naming the file; the
    // games go on, for the summary.
    let mut csv = CsvOut::new(csv_out.as_ref(), &loaded.scenario);
    interrupt::install();
    let mut summary = Summary::new(&loaded.scenario, seed);
    // Games by length, for the plot: the summary keeps only the mean and spread.
    let mut lengths = BTreeMap::<u32, u64>::new();
    // Where the games went: every batch names what no unit entered and who never fought.
    let mut heat = Heat::new(&loaded.scenario);
    let complete = play_chunks(&loaded.scenario, &loaded.catalog, &opts, |records| {
        for r in &records {
            summary.add(r);
            *lengths.entry(r.turns).or_default() += 1;
            csv.row(seed, r);
            if let Some(m) = &r.marks {
                heat.add(m);
            }
        }
        Ok(())
    })?;
    summary.reach = Some(Reach::of(&loaded.scenario, &heat));
    let csv_failed = csv.commit();
    summary.complete = complete;
    identify(&mut summary, &loaded.hashes, &loaded.scenario, &opts);
    summary.finish();
    if !complete {
        errln!(
            "{}: the summary counts the {} games played whole of {}",
            interrupt::interrupted(),
            summary.runs,
            shard_games(&opts)
        );
    }
    if json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        out!("{}", present::batch_summary::render(&summary));
    }
    if let Some(out) = &plot_out {
        let svg = present::picture::plot::batch(&present::picture::plot::Batch {
            summary: &summary,
            lengths: &lengths,
        })?;
        output::write_svg_as(&svg, out)?;
    }
    if let Some(out) = &heatmap_out {
        draw_heatmap(&[(String::new(), &loaded.scenario, &heat)], out)?;
    }
    if let Some(out) = &heatmap_json_out {
        let value = present::picture::heatmap::json(&loaded.scenario, &heat);
        out.write((serde_json::to_string_pretty(&value)? + "\n").as_bytes())?;
    }
    if let Some(failed) = csv_failed {
        return Err(failed.into());
    }
    Ok(interrupt::status(complete))
}

/// Draws where one or more batches went (before and after a change, each labelled).
pub fn draw_heatmap(
    batches: &[present::picture::heatmap::Batch<'_>],
    out: &Output,
) -> anyhow::Result<()> {
    let svg = present::picture::heatmap::svg(&present::picture::style::Style::bundled(), batches);
    output::write_svg_as(&svg, out)
}

/// The `--csv` file of a batch, written row by row; the first failure stops the writing and is
/// kept for the end.
struct CsvOut<'a> {
    writer: Option<csv::Writer<output::Pending<'a>>>,
    path: Option<&'a std::path::Path>,
    failed: Option<BadInput>,
}

impl<'a> CsvOut<'a> {
    fn new(out: Option<&'a Output>, scenario: &Scenario) -> Self {
        let mut me = Self {
            writer: None,
            path: out.map(Output::path),
            failed: None,
        };
        if let Some(out) = out {
            match out.open() {
                Ok(file) => {
                    let mut w = csv::Writer::from_writer(file);
                    let header = csv_header(&mut w, scenario);
                    me.writer = Some(w);
                    me.check(header);
                }
                Err(e) => me.failed = Some(e),
            }
        }
        me
    }

    fn check(&mut self, done: csv::Result<()>) {
        match done {
            Ok(()) => {}
            // Written through a pipe closed early (`--csv >(head)`): the reader has what it
            // wanted; quietly, as standard output.
            Err(e) if matches!(e.kind(), csv::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::BrokenPipe) =>
            {
                self.writer = None;
            }
            Err(e) => self.fail(&e),
        }
    }

    fn fail(&mut self, e: &dyn std::fmt::Display) {
        let path = self
            .path
            .map_or_else(String::new, |p| p.display().to_string());
        self.failed = Some(BadInput(format!(
            "{path}: --csv: cannot write: {}",
            crate::stdout::in_words(e)
        )));
        // Dropped: the temporary file goes with it, the old file stays as it was.
        self.writer = None;
    }

    fn row(&mut self, seed: u64, r: &GameRecord) {
        if let Some(w) = &mut self.writer {
            let done = csv_row(w, seed, r);
            self.check(done);
        }
    }

    /// Finishes the file; the failure, if there was one.
    fn commit(mut self) -> Option<BadInput> {
        if let Some(w) = self.writer.take() {
            match w.into_inner() {
                Ok(file) => {
                    if let Err(e) = file.commit() {
                        self.failed = Some(e);
                    }
                }
                Err(e) if e.error().kind() == std::io::ErrorKind::BrokenPipe => {}
                Err(e) => self.fail(e.error()),
            }
        }
        self.failed
    }
}
