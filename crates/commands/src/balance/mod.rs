//! `hexwar balance`: the smallest change of a scenario (fewest fields, then smallest steps) that
//! brings every expectation of its `[expect]` to PASS, as `hexwar test` would judge it.
//!
//! The changes race (successive halving over a doubling number of games, Jamieson and
//! Talwalkar 2016): every change plays the same first games of the `[expect]` batch (common
//! random numbers: game i has the same dice under every change), a change is dropped once its
//! 95% interval lies wholly outside a range it must meet, and at most [`KEPT`] of the closest go
//! on to twice the games, up to the `[expect]` batch itself. Single changes race first; if none
//! passes, pairs of the closest singles race. The change found is judged on exactly the games
//! `hexwar test` plays on the file it writes.

mod change;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use counters::Rules;
use game::{Finding, GameRecord, Tally, Verdict};
use model::{Catalog, Expectations, Scenario, Stat};
use rayon::prelude::*;
use toml_edit::DocumentMut;

pub use change::{Change, Edit, Field, Step};

use crate::batch;
use crate::data::{BadInput, load_scenario_from, read_text};
use crate::interrupt;
use crate::output::Output;
use crate::test::{describe, finding_line, type_counts};
use crate::{AiOverride, options};

/// The most changes that go on to the next round of a race.
pub const KEPT: usize = 24;
/// The singles whose pairs race when no single change balances the scenario.
pub const PAIRED: usize = 10;
/// Games of the first round (or the whole `[expect]` batch, if smaller).
pub const FIRST_ROUND: u64 = 200;

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
    /// Print the whole report as JSON.
    #[arg(long)]
    json: bool,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Unit catalog folder (the shared catalog the scenario's `[types]` sit over).
    #[arg(long, value_name = "DIR")]
    catalog: Option<PathBuf>,
    /// No progress.
    #[arg(short, long)]
    quiet: bool,
}

/// A change in the race: the scenario it makes and its games so far.
struct Entrant {
    change: Change,
    text: String,
    scenario: Scenario,
    catalog: Catalog,
    players: ai::Players,
    tally: Tally,
    games: u64,
    findings: Vec<Finding>,
    /// Out of the race: a range it cannot meet, or not among the closest.
    out: bool,
}

impl Entrant {
    /// How far the measured values lie outside the expected ranges, each in widths of its
    /// range: 0 when every value is inside.
    fn miss(&self) -> f64 {
        self.findings
            .iter()
            .map(|f| {
                let [lo, hi] = f.expectation.between;
                let width = (hi - lo).max(1e-9);
                ((lo - f.value).max(0.0) + (f.value - hi).max(0.0)) / width
            })
            .sum()
    }

    /// How far the values lie from the middles of their ranges, in half-widths: the tie-break
    /// between changes of one size.
    fn off_centre(&self) -> f64 {
        self.findings
            .iter()
            .map(|f| {
                let [lo, hi] = f.expectation.between;
                (f.value - (lo + hi) / 2.0).abs() / ((hi - lo) / 2.0).max(1e-9)
            })
            .sum()
    }

    fn passes(&self, runs: u64) -> bool {
        self.games == runs && self.findings.iter().all(|f| f.verdict == Verdict::Pass)
    }
}

/// Everything a race needs besides its entrants.
struct Setup {
    file: PathBuf,
    shown: String,
    doc: DocumentMut,
    catalog_dir: Option<PathBuf>,
    ai: Vec<AiOverride>,
    expect: Expectations,
    runs: u64,
    pool: rayon::ThreadPool,
    bar: indicatif::ProgressBar,
    games: u64,
    tried: u64,
    refused: u64,
}

impl Setup {
    /// The scenario a change makes, loaded as any scenario is, with the AIs it is balanced
    /// with; `None` when the loader refuses it (a unit taken that an order names, a turn limit
    /// below an order's turn, a stack over the limit).
    fn entrant(&mut self, change: Change) -> anyhow::Result<Option<Entrant>> {
        self.tried += 1;
        let text = change.apply(&self.doc);
        let Ok(mut loaded) =
            load_scenario_from(&self.file, &self.shown, &text, self.catalog_dir.as_deref())
        else {
            self.refused += 1;
            return Ok(None);
        };
        for (side, ai) in &self.expect.ai {
            loaded.scenario.sides[side.index()].ai = model::AiName::new(ai.text.clone());
        }
        options::override_ai(&mut loaded.scenario, &self.ai)?;
        let players =
            ai::Players::stopping(&loaded.scenario, Some(interrupt::flag())).map_err(BadInput)?;
        let sides = loaded.scenario.sides.clone().map(|s| s.id);
        let tally = Tally::new(
            &self.expect,
            &sides,
            &type_counts(&loaded.scenario, &loaded.catalog),
        );
        Ok(Some(Entrant {
            change,
            text,
            scenario: loaded.scenario,
            catalog: loaded.catalog,
            players,
            tally,
            games: 0,
            findings: Vec::new(),
            out: false,
        }))
    }

    /// Plays every entrant still in the race up to `n` games, in parallel: game i of each is
    /// game i of the `[expect]` batch. False when a signal stopped it.
    fn play_to(&mut self, entrants: &mut [Entrant], n: u64) -> anyhow::Result<bool> {
        let work: Vec<(usize, u64)> = entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.out)
            .flat_map(|(k, e)| (e.games..n).map(move |i| (k, i)))
            .collect();
        self.bar.inc_length(work.len() as u64);
        let seed = self.expect.seed;
        for chunk in work.chunks(8192) {
            let played: Result<Vec<Option<GameRecord>>, model::OutOfDice> =
                self.pool.install(|| {
                    chunk
                        .par_iter()
                        .map(|&(k, i)| {
                            let e = &entrants[k];
                            batch::played_whole(|| {
                                let rules = Rules::new(&e.scenario, &e.catalog);
                                let (dice, ai) = session::seeding::game_dice(seed, i);
                                let record =
                                    GameRecord::played(i, &mut e.players.game(rules, dice, ai))?;
                                self.bar.inc(1);
                                Ok(record)
                            })
                        })
                        .collect()
                });
            let (records, whole) = batch::whole_prefix(played?);
            for (&(k, _), r) in chunk.iter().zip(&records) {
                entrants[k].tally.add(r);
                entrants[k].games += 1;
            }
            self.games += records.len() as u64;
            if !whole {
                return Ok(false);
            }
        }
        for e in entrants.iter_mut().filter(|e| !e.out) {
            e.findings = e.tally.findings();
        }
        Ok(true)
    }

    /// Races the entrants to the `[expect]` batch. False when a signal stopped it.
    fn race(&mut self, entrants: &mut [Entrant]) -> anyhow::Result<bool> {
        let mut n = FIRST_ROUND.min(self.runs);
        loop {
            if !self.play_to(entrants, n)? {
                return Ok(false);
            }
            for e in entrants.iter_mut().filter(|e| !e.out) {
                e.out = e.findings.iter().any(|f| f.verdict == Verdict::Fail);
            }
            if n == self.runs {
                return Ok(true);
            }
            let mut alive: Vec<usize> = (0..entrants.len()).filter(|&k| !entrants[k].out).collect();
            alive.sort_by(|&a, &b| {
                let (a, b) = (&entrants[a], &entrants[b]);
                a.miss()
                    .total_cmp(&b.miss())
                    .then(a.change.size().cmp(&b.change.size()))
            });
            for &k in alive.iter().skip(KEPT) {
                entrants[k].out = true;
            }
            n = n.saturating_mul(2).min(self.runs);
        }
    }
}

/// What `--vary` names, as a filter over the fields and values.
struct Vary {
    kinds: Vec<(String, Option<(i64, i64)>)>,
}

impl Vary {
    fn parse(texts: &[String], scenario: &Scenario, catalog: &Catalog) -> Result<Self, BadInput> {
        let mut kinds = Vec::new();
        for text in texts {
            let bad = |why: String| BadInput(format!("--vary `{}`: {why}", model::shown(text)));
            let (name, bounds) = match text.split_once('=') {
                Some((n, b)) => {
                    let (a, z) = b
                        .split_once("..")
                        .ok_or_else(|| bad("bounds are A..B, e.g. t72.assault=2..5".to_owned()))?;
                    let num = |s: &str| {
                        s.trim().parse::<i64>().map_err(|_| {
                            bad(format!("`{}` is not a whole number", model::shown(s)))
                        })
                    };
                    let (a, z) = (num(a)?, num(z)?);
                    if a > z {
                        return Err(bad(format!(
                            "{a}..{z} is empty: the low end is above the high"
                        )));
                    }
                    (n.trim(), Some((a, z)))
                }
                None => (text.trim(), None),
            };
            match name {
                "turns" => {
                    if let Some((a, z)) = bounds
                        && (a < 1 || z > i64::from(model::scenario::MAX_TURNS))
                    {
                        return Err(bad(format!(
                            "a turn limit is 1 to {}",
                            model::scenario::MAX_TURNS
                        )));
                    }
                }
                "first" | "objectives" | "arrivals" | "units" => {
                    if bounds.is_some() {
                        return Err(bad(format!("`{name}` takes no bounds")));
                    }
                }
                stat => {
                    let (t, f) = stat.split_once('.').ok_or_else(|| {
                        bad(
                            "expected turns, first, objectives, arrivals, units or TYPE.FIELD"
                                .to_owned(),
                        )
                    })?;
                    let field: Stat = f.parse().map_err(bad)?;
                    let id = catalog
                        .id(t)
                        .ok_or_else(|| bad(format!("unknown unit type `{}`", model::shown(t))))?;
                    let fielded = scenario
                        .units
                        .iter()
                        .any(|u| u.type_id == id || catalog.dismounted(u.type_id) == Some(id));
                    if !fielded {
                        return Err(bad(format!("no unit of type `{t}` is in this scenario")));
                    }
                    if field.get(catalog.get(id)).is_none() {
                        return Err(bad(format!("unit type `{t}` has no {}", field.name())));
                    }
                    if let Some((a, z)) = bounds {
                        let r = field.range();
                        if a < i64::from(*r.start()) || z > i64::from(*r.end()) {
                            return Err(bad(format!(
                                "{} is {}..{} in the catalog",
                                field.name(),
                                r.start(),
                                r.end()
                            )));
                        }
                    }
                }
            }
            kinds.push((name.to_owned(), bounds));
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

/// One expectation before and after, for the report.
#[derive(serde::Serialize)]
struct Measured {
    name: String,
    #[serde(flatten)]
    finding: Finding,
}

fn measured(e: &Entrant) -> Vec<Measured> {
    e.findings
        .iter()
        .map(|f| Measured {
            name: describe(&f.expectation.measure, &e.scenario),
            finding: f.clone(),
        })
        .collect()
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

/// Runs `hexwar balance`.
pub fn run(args: BalanceArgs) -> anyhow::Result<ExitCode> {
    let start = Instant::now();
    let BalanceArgs {
        file,
        vary,
        max_step,
        ai,
        write,
        json,
        threads,
        catalog,
        quiet,
    } = args;
    batch::check_runs_threads(1, threads)?;
    let text = read_text(&file)?;
    let shown = file.display().to_string();
    let base = load_scenario_from(&file, &shown, &text, catalog.as_deref())?;
    let Some(expect) = base.scenario.expect.clone().filter(|e| !e.items.is_empty()) else {
        return Err(BadInput(format!(
            "{shown}: no [expect] section: balance needs the expectations it is to meet (docs/scenario-format.md says how to write them)"
        ))
        .into());
    };
    let mut files = base.files.clone();
    files.push(file.clone());
    let out = match &write {
        Some(p) => Some(Output::check(p, "--write", &files)?),
        None => None,
    };
    let vary = Vary::parse(&vary, &base.scenario, &base.catalog)?;
    let doc: DocumentMut = text
        .parse()
        .map_err(|e| BadInput(format!("{shown}: {e}")))?;
    // The AIs named by `--ai` are written into the balanced scenario's `[expect] ai`.
    let mut doc_with_ai = doc.clone();
    for o in &ai {
        doc_with_ai["expect"]["ai"][o.side.as_str()] = toml_edit::value(o.ai.as_str());
    }
    let mut check_ai = base.scenario.clone();
    options::override_ai(&mut check_ai, &ai)?;
    interrupt::install();
    let mut setup = Setup {
        file: file.clone(),
        shown: shown.clone(),
        doc: doc_with_ai,
        catalog_dir: catalog,
        ai,
        runs: expect.runs,
        expect,
        pool: rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?,
        bar: batch::progress_bar(0, "games", !quiet),
        games: 0,
        tried: 0,
        refused: 0,
    };
    let runs = setup.runs;
    let bounds = change::Bounds {
        max_step: i64::from(max_step),
    };
    let keep = |f: &Field, v: i64| vary.keeps(f, v);
    let singles = change::single_steps(&base.scenario, &base.catalog, &bounds, &keep);
    if singles.is_empty() {
        return Err(BadInput("--vary leaves nothing to change in this scenario".to_owned()).into());
    }

    // The scenario as it is: `hexwar test`'s verdicts.
    let Some(before) = setup.entrant(Change::default())? else {
        return Err(BadInput(format!("{shown}: cannot be read back after editing")).into());
    };
    let mut before = [before];
    let mut complete = setup.play_to(&mut before, runs)?;
    let [before] = before;
    let mut entrants: Vec<Entrant> = Vec::new();
    let mut pairs_tried = 0;
    let already = complete && before.passes(runs);
    if complete && !already {
        for s in &singles {
            if let Some(e) = setup.entrant(Change(vec![s.clone()]))? {
                entrants.push(e);
            }
        }
        complete = setup.race(&mut entrants)?;
        if complete && !entrants.iter().any(|e| e.passes(runs)) {
            // Pairs of the closest singles, each on its own field.
            let mut closest: Vec<&Entrant> = entrants.iter().collect();
            closest.sort_by(|a, b| a.miss().total_cmp(&b.miss()));
            let best: Vec<Change> = closest
                .iter()
                .take(PAIRED)
                .map(|e| e.change.clone())
                .collect();
            let mut pairs = Vec::new();
            for (i, a) in best.iter().enumerate() {
                for b in &best[i + 1..] {
                    if let Some(c) = a.and(&b.0[0])
                        && let Some(e) = setup.entrant(c)?
                    {
                        pairs.push(e);
                    }
                }
            }
            pairs_tried = pairs.len();
            complete = setup.race(&mut pairs)?;
            entrants.extend(pairs);
        }
    }
    setup.bar.finish_and_clear();
    let found = entrants.iter().filter(|e| e.passes(runs)).min_by(|a, b| {
        a.change
            .size()
            .cmp(&b.change.size())
            .then(a.off_centre().total_cmp(&b.off_centre()))
    });
    let closest = entrants.iter().filter(|e| e.games > 0).min_by(|a, b| {
        (a.games != runs)
            .cmp(&(b.games != runs))
            .then(a.miss().total_cmp(&b.miss()))
            .then(a.change.size().cmp(&b.change.size()))
    });
    let result = if !complete {
        "stopped"
    } else if already {
        "already_balanced"
    } else if found.is_some() {
        "balanced"
    } else {
        "unbalanceable"
    };
    let shown_entrant = found.or(closest);
    let diff = shown_entrant.map(|e| toml_diff(&text, &e.text, &shown));
    let seconds = start.elapsed().as_secs_f64();
    let ai_names: Vec<String> = model::Side::BOTH
        .iter()
        .map(|&s| {
            let id = &before.scenario.sides[s.index()].id;
            format!("{id}={}", before.players.of_side(s).name())
        })
        .collect();
    if json {
        let report = serde_json::json!({
            "file": shown,
            "result": result,
            "complete": complete,
            "runs": runs,
            "seed": setup.expect.seed,
            "ai": ai_names,
            "before": measured(&before),
            "change": found.map(|e| e.change.0.iter().map(ToString::to_string).collect::<Vec<_>>()),
            "after": found.map(measured),
            "closest": if found.is_none() { closest.map(|e| serde_json::json!({
                "change": e.change.0.iter().map(ToString::to_string).collect::<Vec<_>>(),
                "games": e.games,
                "findings": measured(e),
            })) } else { None },
            "toml_diff": diff,
            "singles": singles.len(),
            "pairs": pairs_tried,
            "refused": setup.refused,
            "games": setup.games,
            "seconds": seconds,
        });
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        outln!(
            "{shown}: {}, {runs} games a change (seed {}), {}",
            before.scenario.title,
            setup.expect.seed,
            ai_names.join(" ")
        );
        outln!("before:");
        for m in measured(&before) {
            outln!("{}", finding_line(&m.finding, &m.name));
        }
        match (result, found, closest) {
            ("already_balanced", ..) => {
                outln!("every expectation already passes: nothing to change");
            }
            (_, Some(e), _) => {
                outln!("after: {}", e.change);
                for m in measured(e) {
                    outln!("{}", finding_line(&m.finding, &m.name));
                }
            }
            ("unbalanceable", _, Some(e)) => {
                outln!(
                    "no change within the bounds meets every expectation; the closest, {} ({} games):",
                    e.change,
                    e.games
                );
                for m in measured(e) {
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
            "\ntried {} changes ({} single, {pairs_tried} pairs; {} the loader refused), {} games, {seconds:.1} s",
            setup.tried - 1,
            singles.len(),
            setup.refused,
            setup.games
        );
    }
    if !complete {
        errln!(
            "{}: the search was cut short; nothing written",
            interrupt::interrupted()
        );
        return Ok(interrupt::status(false));
    }
    if let (Some(out), Some(e)) = (&out, found) {
        out.write(rebased(&e.text, &file, out.path()).as_bytes())?;
        if !json {
            outln!("wrote {}", out.path().display());
        }
    }
    Ok(if found.is_some() || already {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
