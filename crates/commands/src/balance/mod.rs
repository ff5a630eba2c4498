//! `hexwar balance`: the smallest change of a scenario (fewest fields, then smallest steps) that
//! brings every expectation of its `[expect]` to PASS, as `hexwar test` would judge it.
//!
//! The changes race (`race.rs`): every change plays the same first games of the `[expect]`
//! batch (common random numbers), a change leaves the race once its 95% interval lies wholly
//! outside a range it must meet, and the rest go on to twice the games, up to the `[expect]`
//! batch itself. Single changes race first; if none passes, pairs of the [`PAIRED`] closest
//! singles race. The change found is judged on exactly the games `hexwar test` plays on the file
//! it writes. With `--shard I/N` a run races the changes k with k mod N = I and writes them for
//! `hexwar merge`; since each change's fate is its own, the merged shards are the single run.

pub(crate) mod change;
mod race;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use model::{Catalog, Scenario};
use stats::Finding;
use toml_edit::DocumentMut;

pub use change::{Change, Edit, Field, Step};
pub use race::{FIRST_ROUND, Outcome};

use crate::batch;
use crate::data::{BadInput, load_scenario_from, read_text, scenario_text};
use crate::interrupt;
use crate::output::Output;
use crate::test::finding_line;
use crate::{AiOverride, options};
use race::{Entrant, Setup};

/// The singles whose pairs race when no single change balances the scenario.
pub const PAIRED: usize = 10;

/// The arguments of `hexwar balance`.
#[derive(clap::Args)]
pub struct BalanceArgs {
    /// The scenario file; its `[expect]` says what balanced means.
    file: PathBuf,
    /// What may change (repeatable): `turns`, `first`, `objectives`, `arrivals`, `units`, or a
    /// stat, TYPE.FIELD (fields: assault, movement, save, armor, motivation, skill,
    /// `tank_assault`, leadership, fire.dice, fire.range); a number may be bounded,
    /// `turns=4..6`, `t72.assault=2..5`. Default: everything the scenario uses.
    #[arg(long, value_name = "TYPE.FIELD[=A..B]|KNOB")]
    vary: Vec<String>,
    /// The largest step of a number (turn limit, arrival turn, stat) either way.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=20))]
    max_step: u8,
    /// The AI of a side, over the `[expect]`'s (repeatable): SIDE=KIND[:SETTING] as for
    /// `hexwar batch`; the scenario written names them in its `[expect] ai`.
    #[arg(long, value_name = "SIDE=KIND[:SETTING]", value_parser = AiOverride::parse)]
    ai: Vec<AiOverride>,
    /// Write the balanced scenario here (never over its input).
    #[arg(long, value_name = "OUT")]
    write: Option<PathBuf>,
    /// Also draw where the games went, the scenario as it stands above the change proposed
    /// (the one found, else the closest), over the `[expect]` batch of each: `NAME.svg` or
    /// `NAME.png`.
    #[arg(long, value_name = "FILE", conflicts_with = "shard")]
    heatmap: Option<PathBuf>,
    /// Print the whole report as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Unit catalog folder (the shared catalog the scenario's `[types]` sit over); the file
    /// written names it (`catalog = ...`).
    #[arg(long, value_name = "DIR")]
    catalog: Option<PathBuf>,
    /// No progress.
    #[arg(short, long)]
    quiet: bool,
    /// Race only the changes k with k mod N == I, and print (with --json) the shard's results
    /// for `hexwar merge`.
    #[arg(long, value_name = "I/N", value_parser = batch::Shard::parse, requires = "json", conflicts_with = "write")]
    shard: Option<batch::Shard>,
    /// Race the pairs of the closest singles of a sharded run, whose merged singles are in
    /// this file (`hexwar merge --json` of the first shards, when no single change passed).
    #[arg(long, value_name = "SINGLES.json")]
    pairs: Option<PathBuf>,
}

/// A balance run, or one shard of it: what `hexwar merge` adds up.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct BalanceShards {
    /// Always `balance`.
    pub hexwar: String,
    /// What was asked (the scenario by content, the flags that change the result).
    pub asked: serde_json::Value,
    /// `singles` or `pairs`.
    pub stage: String,
    /// The number of shards of the run.
    pub shard_count: u64,
    /// The shards these results hold.
    pub shards: Vec<u64>,
    /// The scenario as it stands.
    pub base: Outcome,
    /// The single changes raced.
    pub singles: Vec<Outcome>,
    /// The pairs raced.
    pub pairs: Vec<Outcome>,
    /// Of all singles (or pairs) of the stage, how many there are.
    pub stage_size: usize,
    /// Games played besides the scenario's own batch, changes tried, and those refused.
    pub games: u64,
    /// See `games`.
    pub tried: u64,
    /// See `games`.
    pub refused: u64,
    /// The pairs stage: the games, changes tried and refused of the singles stage it
    /// continues (each pair shard carries them; they count once).
    #[serde(default)]
    pub carried: [u64; 3],
    /// False when a signal cut the run short.
    pub complete: bool,
}

/// One expectation's finding with its name, for the report.
#[derive(serde::Serialize)]
struct Measured {
    name: String,
    #[serde(flatten)]
    finding: Finding,
}

fn measured(o: &Outcome) -> Vec<Measured> {
    o.findings()
        .into_iter()
        .zip(&o.names)
        .map(|(finding, name)| Measured {
            name: name.clone(),
            finding,
        })
        .collect()
}

/// The pairs that race when no single passes: each two of the [`PAIRED`] closest singles on
/// distinct fields, as indices into the singles.
fn pairs_of(singles: &[Outcome], steps: &[Step]) -> Vec<(usize, usize)> {
    let mut closest: Vec<&Outcome> = singles.iter().collect();
    closest.sort_by(|a, b| a.miss().total_cmp(&b.miss()).then(a.steps.cmp(&b.steps)));
    let best: Vec<usize> = closest.iter().take(PAIRED).map(|o| o.steps[0]).collect();
    let mut pairs = Vec::new();
    for (i, &a) in best.iter().enumerate() {
        for &b in &best[i + 1..] {
            // Two objectives moved into one hex would be one objective.
            let same_hex = matches!(
                (&steps[a].edit, &steps[b].edit),
                (Edit::Move(x), Edit::Move(y)) if x == y
            );
            if steps[a].field != steps[b].field && !same_hex {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// The report of a whole run.
struct Report<'a> {
    shown: &'a str,
    title: String,
    runs: u64,
    seed: u64,
    ai: Vec<String>,
    all: &'a BalanceShards,
    seconds: f64,
}

impl Report<'_> {
    fn found(&self) -> Option<&Outcome> {
        let runs = self.runs;
        self.all
            .singles
            .iter()
            .chain(&self.all.pairs)
            .filter(|o| o.passes(runs))
            .min_by(|a, b| {
                a.size
                    .cmp(&b.size)
                    .then(a.off_centre().total_cmp(&b.off_centre()))
                    .then(a.steps.cmp(&b.steps))
            })
    }

    fn closest(&self) -> Option<&Outcome> {
        let runs = self.runs;
        self.all
            .singles
            .iter()
            .chain(&self.all.pairs)
            .filter(|o| o.games() > 0)
            .min_by(|a, b| {
                (a.games() != runs)
                    .cmp(&(b.games() != runs))
                    .then(a.miss().total_cmp(&b.miss()))
                    .then(a.size.cmp(&b.size))
                    .then(a.steps.cmp(&b.steps))
            })
    }

    fn already(&self) -> bool {
        self.all.base.passes(self.runs)
    }

    fn result(&self) -> &'static str {
        if !self.all.complete {
            "stopped"
        } else if self.already() {
            "already_balanced"
        } else if self.found().is_some() {
            "balanced"
        } else {
            "unbalanceable"
        }
    }

    /// Prints it; the exit status: found (or none needed), or not.
    fn print(&self, json: bool) -> anyhow::Result<ExitCode> {
        let (found, closest, already) = (self.found(), self.closest(), self.already());
        let result = self.result();
        let shown_outcome = found.or(closest);
        let diff = shown_outcome.map(|o| o.diff.clone());
        let games = self.all.games + self.all.carried[0] + self.all.base.games();
        let tried = self.all.tried + self.all.carried[1];
        let refused = self.all.refused + self.all.carried[2];
        let words = |o: &Outcome| o.change.clone();
        if json {
            let report = serde_json::json!({
                "file": self.shown,
                "result": result,
                "complete": self.all.complete,
                "runs": self.runs,
                "seed": self.seed,
                "ai": self.ai,
                "before": measured(&self.all.base),
                "change": found.map(words),
                "after": found.map(measured),
                "closest": if found.is_none() { closest.map(|o| serde_json::json!({
                    "change": words(o),
                    "games": o.games(),
                    "findings": measured(o),
                })) } else { None },
                "toml_diff": diff,
                // Every change raced: its words, the games it played (fewer when it left the
                // race), whether it passed, and its measured values.
                "candidates": self.all.singles.iter().chain(&self.all.pairs).map(|o| serde_json::json!({
                    "change": words(o),
                    "games": o.games(),
                    "passed": o.passes(self.runs),
                    "values": o.findings().iter().map(|f| f.value).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
                "singles": self.all.singles.len(),
                "pairs": self.all.pairs.len(),
                "refused": refused,
                "games": games,
                "seconds": self.seconds,
            });
            outln!("{}", serde_json::to_string_pretty(&report)?);
        } else {
            outln!(
                "{}: {}, {} games a change (seed {}), {}",
                self.shown,
                self.title,
                self.runs,
                self.seed,
                self.ai.join(" ")
            );
            outln!("before:");
            for m in measured(&self.all.base) {
                outln!("{}", finding_line(&m.finding, &m.name));
            }
            match (result, found, closest) {
                ("already_balanced", ..) => {
                    outln!("every expectation already passes: nothing to change");
                }
                (_, Some(o), _) => {
                    outln!("after: {}", o.change.join(", "));
                    for m in measured(o) {
                        outln!("{}", finding_line(&m.finding, &m.name));
                    }
                }
                ("unbalanceable", _, Some(o)) => {
                    outln!(
                        "no change within the bounds meets every expectation; the closest, {} ({} games):",
                        o.change.join(", "),
                        o.games()
                    );
                    for m in measured(o) {
                        outln!("{}", finding_line(&m.finding, &m.name));
                    }
                }
                _ => {}
            }
            if let Some(d) = &diff
                && !already
            {
                outln!("\n{}", d.trim_end());
            }
            outln!(
                "\ntried {tried} changes ({} single, {} pairs; {refused} the loader refused), {games} games, {:.1} s",
                self.all.singles.len(),
                self.all.pairs.len(),
                self.seconds
            );
        }
        Ok(if found.is_some() || already {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }
}

/// What a balance was asked, by content: shards of other questions do not merge.
#[derive(serde::Serialize, serde::Deserialize, PartialEq)]
struct Asked {
    file: String,
    scenario_hash: String,
    catalog_hash: String,
    title: String,
    vary: Vec<String>,
    max_step: u8,
    ai: Vec<String>,
    /// The AIs as played, `side=name`.
    playing: Vec<String>,
    runs: u64,
    seed: u64,
}

/// Runs `hexwar balance`.
pub fn run(args: BalanceArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let BalanceArgs {
        file,
        vary: vary_text,
        max_step,
        ai,
        write,
        heatmap,
        json,
        threads,
        catalog,
        quiet,
        shard,
        pairs: pairs_file,
    } = args;
    batch::check_runs_threads(1, threads)?;
    let (origin, shown, text) = scenario_text(&file)?;
    let base = load_scenario_from(&origin, &shown, &text, catalog.as_deref())?;
    let Some(expect) = base.scenario.expect.clone().filter(|e| !e.items.is_empty()) else {
        return Err(BadInput(format!(
            "{shown}: no [expect] section: balance needs the expectations it is to meet (docs/scenario-format.md says how to write them)"
        ))
        .into());
    };
    let mut files = base.files.clone();
    if let Some(f) = origin.file() {
        files.push(f.to_owned());
    }
    let out = match &write {
        Some(p) => Some(Output::check(p, "--write", &files)?),
        None => None,
    };
    if let Some(p) = &heatmap {
        crate::output::picture_format(p)?;
    }
    let heatmap_out = match &heatmap {
        Some(p) => Some(Output::check(p, "--heatmap", &files)?),
        None => None,
    };
    let vary = Vary::parse(&vary_text, &base.scenario, &base.catalog)?;
    let doc: DocumentMut = text
        .parse()
        .map_err(|e| BadInput(format!("{shown}: {e}")))?;
    // The AIs named by `--ai` are written into the balanced scenario's `[expect] ai`.
    let mut doc_with_ai = doc.clone();
    for o in &ai {
        doc_with_ai["expect"]["ai"][o.side.as_str()] = toml_edit::value(o.ai.as_str());
    }
    // `--ai` names sides the scenario has, two AIs a side at most: checked before any game.
    options::override_ai(&mut base.scenario.clone(), &ai)?;
    let shard_given = shard.is_some();
    let shard = shard.unwrap_or(batch::Shard::ALL);
    let bounds = change::Bounds {
        max_step: i64::from(max_step),
    };
    let keep = |f: &Field, v: i64| vary.keeps(f, v);
    let singles = change::single_steps(&base.scenario, &base.catalog, &bounds, &keep);
    if singles.is_empty() {
        return Err(BadInput("--vary leaves nothing to change in this scenario".to_owned()).into());
    }
    interrupt::install();
    let mut setup = Setup {
        origin: origin.clone(),
        shown: shown.clone(),
        text: text.clone(),
        doc: doc_with_ai,
        catalog_dir: catalog,
        ai: ai.clone(),
        expect: expect.clone(),
        pool: rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?,
        bar: batch::progress_bar(0, "games", !quiet),
        games: 0,
        tried: 0,
        refused: 0,
    };
    let runs = expect.runs;

    // The scenario as it stands: `hexwar test`'s verdicts (its AIs named before any game).
    let Some(before) = setup.entrant(Vec::new(), &Change::default())? else {
        return Err(BadInput(format!("{shown}: cannot be read back after editing")).into());
    };
    setup.tried = 0;
    let asked = Asked {
        file: shown.clone(),
        scenario_hash: base.hashes[0].clone(),
        catalog_hash: base.hashes[1].clone(),
        title: base.scenario.title.clone(),
        vary: vary_text,
        max_step,
        ai: ai.iter().map(|a| a.text.clone()).collect(),
        playing: model::Side::BOTH
            .iter()
            .map(|&s| before.playing(s))
            .collect(),
        runs,
        seed: expect.seed,
    };
    let asked_value = serde_json::to_value(&asked)?;
    // The second stage of a sharded run starts from the merged singles of the first, which
    // hold the scenario's own games too: checked before any game.
    let first = match &pairs_file {
        Some(path) => {
            let first = read_balance(path)?;
            if first.asked != asked_value || first.stage != "singles" {
                return Err(BadInput(format!(
                    "{}: not the merged singles of this balance (the scenario, its data and the flags must be the same)",
                    path.display()
                ))
                .into());
            }
            if !first.missing().is_empty() || !first.complete {
                return Err(BadInput(format!(
                    "{}: the singles of some shards are missing; merge them all first",
                    path.display()
                ))
                .into());
            }
            Some(first)
        }
        None => None,
    };
    let mut before = [before];
    let mut complete = match &first {
        Some(f) => {
            before[0].outcome = f.base.clone();
            true
        }
        None => setup.play_to(&mut before, runs)?,
    };
    let [before] = before;
    let base_games = setup.games;
    let mine = |k: usize| k as u64 % shard.count == shard.index;
    let change_of = |steps: &[usize]| Change(steps.iter().map(|&i| singles[i].clone()).collect());
    let race = |setup: &mut Setup, list: Vec<Vec<usize>>| -> anyhow::Result<(Vec<Outcome>, bool)> {
        let mut entrants: Vec<Entrant> = Vec::new();
        for steps in list {
            let c = change_of(&steps);
            if let Some(e) = setup.entrant(steps, &c)? {
                entrants.push(e);
            }
        }
        let done = setup.race(&mut entrants)?;
        Ok((entrants.into_iter().map(|e| e.outcome).collect(), done))
    };
    let mut all = BalanceShards {
        hexwar: "balance".to_owned(),
        asked: asked_value.clone(),
        stage: "singles".to_owned(),
        shard_count: shard.count,
        shards: vec![shard.index],
        base: before.outcome.clone(),
        singles: Vec::new(),
        pairs: Vec::new(),
        stage_size: singles.len(),
        games: 0,
        tried: 0,
        refused: 0,
        carried: [0; 3],
        complete,
    };
    if let Some(first) = first {
        all.singles = first.singles;
        all.carried = [first.games, first.tried, first.refused];
        all.stage = "pairs".to_owned();
        let list: Vec<Vec<usize>> = pairs_of(&all.singles, &singles)
            .into_iter()
            .enumerate()
            .filter(|(k, _)| mine(*k))
            .map(|(_, (a, b))| vec![a, b])
            .collect();
        all.stage_size = pairs_of(&all.singles, &singles).len();
        if complete {
            let (pairs, done) = race(&mut setup, list)?;
            all.pairs = pairs;
            complete = done;
        }
    } else if complete && !before.outcome.passes(runs) {
        let list: Vec<Vec<usize>> = (0..singles.len())
            .filter(|&k| mine(k))
            .map(|k| vec![k])
            .collect();
        let (outcomes, done) = race(&mut setup, list)?;
        all.singles = outcomes;
        complete = done;
        if complete && !shard_given && !all.singles.iter().any(|o| o.passes(runs)) {
            let list: Vec<Vec<usize>> = pairs_of(&all.singles, &singles)
                .into_iter()
                .map(|(a, b)| vec![a, b])
                .collect();
            let (pairs, done) = race(&mut setup, list)?;
            all.pairs = pairs;
            complete = done;
        }
    }
    setup.bar.finish_and_clear();
    // In the order a merge of shards gives them.
    all.singles.sort_by(|a, b| a.steps.cmp(&b.steps));
    all.pairs.sort_by(|a, b| a.steps.cmp(&b.steps));
    all.games += setup.games - base_games;
    all.tried += setup.tried;
    all.refused += setup.refused;
    all.complete = complete;
    if shard_given {
        outln!("{}", serde_json::to_string_pretty(&all)?);
        return Ok(interrupt::status(complete));
    }
    let report = Report {
        shown: &shown,
        title: asked.title.clone(),
        runs,
        seed: expect.seed,
        ai: asked.playing.clone(),
        all: &all,
        seconds: start.elapsed().as_secs_f64(),
    };
    let status = report.print(json)?;
    if !complete {
        errln!(
            "{}: the search was cut short; nothing written",
            interrupt::interrupted()
        );
        return Ok(interrupt::status(false));
    }
    if let (Some(out), Some(proposed)) = (&heatmap_out, report.found().or(report.closest())) {
        let opts = batch::Options {
            runs,
            seed: expect.seed,
            threads,
            shard: batch::Shard::ALL,
            progress: !quiet,
            first_mover: false,
            watch: true,
        };
        let change = change_of(&proposed.steps);
        let (Some(before), Some(after)) = (
            setup.entrant(Vec::new(), &Change::default())?,
            setup.entrant(proposed.steps.clone(), &change)?,
        ) else {
            return Err(BadInput(format!("{shown}: cannot be read back after editing")).into());
        };
        let (heat_before, done) = before.heat(&opts)?;
        let (heat_after, done_after) = if done {
            after.heat(&opts)?
        } else {
            (stats::heat::Heat::new(after.scenario()), false)
        };
        if done && done_after {
            batch::draw_heatmap(
                &[
                    ("as it stands".to_owned(), before.scenario(), &heat_before),
                    (format!("with {change}"), after.scenario(), &heat_after),
                ],
                out,
            )?;
        } else {
            errln!("{}: no heatmap drawn", interrupt::interrupted());
            return Ok(interrupt::status(false));
        }
    }
    if let (Some(out), Some(found)) = (&out, report.found()) {
        let mut doc = setup.doc.clone();
        // Measured with `--catalog DIR`: the file written names that catalog, so that
        // `hexwar test` of it plays what was measured.
        if let Some(dir) = setup
            .catalog_dir
            .as_ref()
            .and_then(|d| d.canonicalize().ok())
        {
            doc["catalog"] = toml_edit::value(dir.to_string_lossy().as_ref());
        }
        let text = change_of(&found.steps).apply(&doc);
        let text = match origin.file() {
            Some(f) => rebased(&text, f, out.path()),
            None => text,
        };
        out.write(text.as_bytes())?;
        if !json {
            outln!("wrote {}", out.path().display());
        }
    }
    Ok(status)
}

fn read_balance(path: &std::path::Path) -> Result<BalanceShards, BadInput> {
    let text = read_text(path)?;
    serde_json::from_str(&text).map_err(|e| {
        BadInput(format!(
            "{}: not a balance file (`hexwar balance --shard I/N --json`, or their merge): {e}",
            path.display()
        ))
    })
}

impl BalanceShards {
    /// The shards missing from a complete stage.
    #[must_use]
    pub fn missing(&self) -> Vec<std::ops::Range<u64>> {
        stats::missing_shards(self.shard_count, &self.shards)
    }

    /// Whether a JSON text is a balance file.
    #[must_use]
    pub fn is_balance(text: &str) -> bool {
        serde_json::from_str::<serde_json::Value>(text)
            .is_ok_and(|v| v.get("hexwar").and_then(|h| h.as_str()) == Some("balance"))
    }

    /// Adds another shard of the same stage of the same run.
    ///
    /// # Errors
    /// Another question or stage, another shard count, a shard counted twice, or another
    /// scenario as it stands.
    pub fn merge(&mut self, other: &Self) -> Result<(), BadInput> {
        let differ = |what: &str| BadInput(format!("shards of another balance: {what} differ"));
        crate::shards::same_run(
            "balance",
            [&self.asked, &other.asked],
            [self.shard_count, other.shard_count],
            &self.shards,
            &other.shards,
        )?;
        if self.stage != other.stage || self.stage_size != other.stage_size {
            return Err(differ("the stages (singles, pairs)"));
        }
        if self.base.tally != other.base.tally {
            return Err(differ("the scenario's own games"));
        }
        match self.stage.as_str() {
            "pairs" => {
                if self.singles.len() != other.singles.len()
                    || self
                        .singles
                        .iter()
                        .zip(&other.singles)
                        .any(|(a, b)| a.steps != b.steps || a.tally != b.tally)
                {
                    return Err(differ("the singles the pairs came from"));
                }
                if self.carried != other.carried {
                    return Err(differ("the singles' counts"));
                }
                self.pairs.extend(other.pairs.iter().cloned());
                self.pairs.sort_by(|a, b| a.steps.cmp(&b.steps));
            }
            _ => {
                self.singles.extend(other.singles.iter().cloned());
                self.singles.sort_by(|a, b| a.steps.cmp(&b.steps));
            }
        }
        self.games += other.games;
        self.tried += other.tried;
        self.refused += other.refused;
        self.complete &= other.complete;
        self.shards.extend(other.shards.iter().copied());
        self.shards.sort_unstable();
        Ok(())
    }
}

/// `hexwar merge` of balance shards: the report of the whole run, or, when the singles are all
/// in and none passed, the file the pairs stage starts from.
pub(crate) fn merge(files: &[PathBuf], json: bool, partial: bool) -> anyhow::Result<ExitCode> {
    let mut merged: Option<BalanceShards> = None;
    for f in files {
        let s = read_balance(f)?;
        match &mut merged {
            None => merged = Some(s),
            Some(m) => m
                .merge(&s)
                .map_err(|e| BadInput(format!("{}: {e}", f.display())))?,
        }
    }
    let Some(all) = merged else {
        return Err(BadInput("no balance files".to_owned()).into());
    };
    let missing = all.missing();
    if !partial {
        batch::refuse_incomplete("balance", all.shard_count, &missing, all.complete)?;
    }
    let asked: Asked = serde_json::from_value(all.asked.clone())
        .map_err(|e| BadInput(format!("not a balance file: {e}")))?;
    let pairs_needed = all.stage == "singles"
        && !all.base.passes(asked.runs)
        && !all.singles.iter().any(|o| o.passes(asked.runs));
    if pairs_needed && missing.is_empty() {
        if json {
            outln!("{}", serde_json::to_string_pretty(&all)?);
        } else {
            outln!(
                "no single change balances {}: the pairs of the {PAIRED} closest remain. Merge these shards with --json into a file, then race the pairs in shards with `hexwar balance {} --pairs THAT.json --shard I/N --json` and merge those.",
                asked.file,
                asked.file
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let report = Report {
        shown: &asked.file,
        title: asked.title.clone(),
        runs: asked.runs,
        seed: asked.seed,
        ai: asked.playing.clone(),
        all: &all,
        seconds: 0.0,
    };
    report.print(json)
}

/// What `--vary` names, as a filter over the fields and values.
struct Vary {
    kinds: Vec<(String, Option<(i64, i64)>)>,
}

impl Vary {
    fn parse(texts: &[String], scenario: &Scenario, catalog: &Catalog) -> Result<Self, BadInput> {
        let mut kinds = Vec::new();
        for text in texts {
            let knob = crate::vary::parse(text, scenario, catalog)?;
            let range = knob.range();
            if range.is_some_and(|r| r.step != 1) {
                return Err(BadInput(format!(
                    "--vary `{}`: balance takes bounds A..B, not a step (it tries every value within --max-step)",
                    model::shown(text)
                )));
            }
            kinds.push((knob.kind(), range.map(|r| (r.low, r.high))));
        }
        Ok(Self { kinds })
    }

    fn keeps(&self, field: &Field, value: i64) -> bool {
        self.kinds.is_empty()
            || self.kinds.iter().any(|(kind, bounds)| {
                *kind == field.kind() && bounds.is_none_or(|(a, z)| (a..=z).contains(&value))
            })
    }
}

/// The scenario's text to be written in another folder: the data folders it names (`catalog`,
/// `terrain`, relative to the file) named from there, so that it reads the same data.
fn rebased(text: &str, from: &std::path::Path, to: &std::path::Path) -> String {
    let dir = |p: &std::path::Path| {
        p.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."))
            .canonicalize()
    };
    let (Ok(from), Ok(to)) = (dir(from), dir(to)) else {
        return text.to_owned();
    };
    let Ok(mut doc) = text.parse::<DocumentMut>() else {
        return text.to_owned();
    };
    if from == to {
        return text.to_owned();
    }
    for key in ["catalog", "terrain"] {
        let Some(rel) = doc.get(key).and_then(toml_edit::Item::as_str) else {
            continue;
        };
        let Ok(target) = from.join(rel).canonicalize() else {
            continue;
        };
        doc[key] = toml_edit::value(relative(&target, &to).to_string_lossy().as_ref());
    }
    doc.to_string()
}

/// `target` as a path from the folder `base` (both absolute).
fn relative(target: &std::path::Path, base: &std::path::Path) -> PathBuf {
    let (t, b): (Vec<_>, Vec<_>) = (target.components().collect(), base.components().collect());
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}

/// The change as a unified diff of the scenario's text.
fn toml_diff(before: &str, after: &str, name: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(1)
        .header(name, "balanced")
        .to_string()
}
