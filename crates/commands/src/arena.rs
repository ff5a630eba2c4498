//! `hexwar arena`: how strong each AI is. Named AIs play every pairing on every scenario in
//! pairs of games (the same dice, the sides swapped, so that a scenario's bias cancels); the
//! result is each pairing's score with its interval, a rating per AI on the Elo scale anchored
//! at `doctrine@1`, and the matrix of head-to-head scores. `--sprt A B` instead plays pairs
//! until a sequential test decides whether A is stronger than B by a stated margin.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use counters::Rules;
use model::{AiName, OutOfDice, Scenario};
use rayon::prelude::*;
use stats::GameRecord;
use stats::arena::{
    ArenaIdentity, ArenaScenario, ArenaSummary, Entrant, Pentanomial, Sprt, SprtVerdict,
};

use crate::batch::{Shard, progress_bar};
use crate::data::{BadInput, Loaded, load_scenario};
use crate::output::Output;
use session::seeding::game_dice;

/// `hexwar arena`'s arguments.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  hexwar arena scenarios/ --ai doctrine@1 --ai random --runs 200
  hexwar arena scenarios/ --ai doctrine@1 --ai doctrine --ai search --ai fast=search:64 --runs 200
  hexwar arena scenarios/ --ai doctrine@1 --ai bold=doctrine:0.35 --ai careful=doctrine:0.8 --plot arena.svg
  hexwar arena scenarios/ --ai doctrine@1 --ai doctrine --runs 1000 --shard 0/2 --json > a.json
  hexwar merge a.json b.json
  hexwar arena scenarios/ --ai doctrine@1 --ai bold=doctrine:0.35 --sprt bold doctrine@1 --elo0 0 --elo1 30

Each pairing plays --runs pairs on each scenario. Pair i is two games on the dice of game i of
`hexwar batch --seed SEED`: first AI A on the scenario's first side and B on the second, then
the sides swapped. A game won scores 1, lost 0, both sides lost (R17.4) half a point each.

The score's 95% interval is from the pairs' spread (pentanomial, as chess engine testing does).
The ratings are a Bradley-Terry fit of every game at once on the Elo scale (400 points: ten to
one odds), doctrine@1 at 0 when it plays (else the first AI), with one virtual draw per pairing
so that an AI that lost every game still gets a finite rating; their intervals count games as
independent, which pairing makes cautious.

--sprt A B plays pairs of A against B on every scenario in turn, until the log-likelihood ratio
of \"A is ELO1 stronger\" over \"A is ELO0 stronger\" leaves [ln(beta/(1-alpha)), ln((1-beta)/alpha)],
or --runs pairs (default 100000) have been played undecided.")]
pub struct ArenaArgs {
    /// Scenario files, or folders whose `*.toml` files are scenarios.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// An AI, as `--ai` names it elsewhere (`doctrine@1`, `doctrine`, `doctrine:0.35`,
    /// `exploiter`, `passive`, `random`, `search`, `search:64`), optionally named: `bold=doctrine:0.35`
    /// (repeatable, at least two).
    #[arg(long = "ai", value_name = "[NAME=]AI", required = true, value_parser = named_ai)]
    ais: Vec<(Entrant, String)>,
    /// Pairs per pairing and scenario, 200 if not given (with --sprt: the most pairs to play,
    /// 100,000 if not given).
    #[arg(long)]
    runs: Option<u64>,
    /// Seed: pair i plays the dice of game i of `hexwar batch --seed SEED`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core). The results are the same for any number.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Play only pairs i with i mod N == I (merge the summaries with `hexwar merge`).
    #[arg(long, value_name = "I/N", conflicts_with = "sprt", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Print the summary as JSON (counts included, for `hexwar merge`).
    #[arg(long)]
    json: bool,
    /// Also draw the ratings with their intervals and the matrix of scores, as `NAME.svg` or
    /// `NAME.png`.
    #[arg(long, value_name = "FILE", conflicts_with = "sprt")]
    plot: Option<PathBuf>,
    /// Test whether AI A is stronger than AI B (names or AIs of --ai), sequentially.
    #[arg(long, num_args = 2, value_names = ["A", "B"], requires_all = ["elo0", "elo1"])]
    sprt: Option<Vec<String>>,
    /// With --sprt: H0, A is at most this many Elo stronger than B (-1000 to 1000).
    #[arg(long, allow_negative_numbers = true, requires = "sprt")]
    elo0: Option<f64>,
    /// With --sprt: H1, A is at least this many Elo stronger (-1000 to 1000).
    #[arg(long, allow_negative_numbers = true, requires = "sprt")]
    elo1: Option<f64>,
    /// With --sprt: the chance of accepting H1 when H0 holds (0.000001 to 0.5).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// With --sprt: the chance of accepting H0 when H1 holds (0.000001 to 0.5).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    catalog: Option<PathBuf>,
}

/// Pairs per pairing and scenario when `--runs` is not given.
const DEFAULT_PAIRS: u64 = 200;
/// The most pairs `--sprt` plays when `--runs` is not given.
const DEFAULT_SPRT_PAIRS: u64 = 100_000;
/// Pairs played between two checks for an interrupt.
const CHUNK: usize = 2048;

/// The longest name an arena's AI may be given.
const MAX_NAME: usize = 32;

/// `[NAME=]AI` (clap's value parser for the arena's `--ai`): an AI, named by itself unless a
/// name is given.
fn named_ai(text: &str) -> Result<(Entrant, String), String> {
    let (name, spec) = match text.split_once('=') {
        Some((n, s)) => (Some(n.trim()), s),
        None => (None, text),
    };
    let ai = ai::canonical(spec)?;
    let name = name.map_or_else(|| ai.clone(), str::to_owned);
    let ok = |c: char| c.is_ascii_alphanumeric() || "@:._-".contains(c);
    if name.is_empty() || name.len() > MAX_NAME || !name.chars().all(ok) {
        return Err(format!(
            "a name is one word of 1 to {MAX_NAME} letters, digits and `@:._-`, e.g. bold=doctrine:0.35"
        ));
    }
    // A name that is another AI's would mislead every table (and the anchor, `doctrine@1`).
    if let Ok(other) = ai::canonical(&name)
        && other != ai
    {
        return Err(format!(
            "`{name}` is the name of another AI than {ai}: call it something else, e.g. mine={ai}"
        ));
    }
    Ok((
        Entrant {
            name,
            spec: ai.clone(),
        },
        ai,
    ))
}

/// The AIs as given, checked together: names unique, at least two.
fn entrants(given: &[(Entrant, String)]) -> Result<Vec<(Entrant, String)>, BadInput> {
    for (i, (e, _)) in given.iter().enumerate() {
        if given[..i].iter().any(|(f, _)| f.name == e.name) {
            return Err(BadInput(format!(
                "--ai: two AIs named `{}` (name one: NAME=AI)",
                e.name
            )));
        }
    }
    if given.len() < 2 {
        return Err(BadInput(
            "an arena needs at least two AIs: --ai doctrine@1 --ai random".to_owned(),
        ));
    }
    Ok(given.to_vec())
}

/// The scenarios, loaded.
fn scenarios(args: &ArenaArgs) -> Result<Vec<(PathBuf, Loaded)>, anyhow::Error> {
    let files = crate::data::scenario_files(&args.paths)?;
    if files.is_empty() {
        return Err(BadInput(format!(
            "no scenario files in {}",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    let loaded: Vec<(PathBuf, Loaded)> = files
        .into_iter()
        .map(|f| Ok::<_, anyhow::Error>((f.clone(), load_scenario(&f, args.catalog.as_deref())?)))
        .collect::<Result<_, _>>()?;
    // The same scenario twice (named twice, or by two paths) would count its games twice.
    for (i, (f, l)) in loaded.iter().enumerate() {
        if let Some((g, _)) = loaded[..i].iter().find(|(_, m)| m.hashes == l.hashes) {
            return Err(BadInput(format!(
                "{} and {} are the same scenario (same content, catalog and terrain): give it once",
                g.display(),
                f.display()
            ))
            .into());
        }
    }
    Ok(loaded)
}

/// Every scenario with every ordered pair of AIs on its sides: `variant(s, x, y)` has AI `x`
/// on scenario `s`'s first side and `y` on its second.
struct Variants {
    scenarios: Vec<Vec<Scenario>>,
    /// The AIs of each variant's sides.
    players: Vec<Vec<ai::Players>>,
    ais: usize,
}

impl Variants {
    fn new(loaded: &[(PathBuf, Loaded)], ais: &[(Entrant, String)]) -> Result<Self, BadInput> {
        let n = ais.len();
        let scenarios: Vec<Vec<Scenario>> = loaded
            .iter()
            .map(|(_, l)| {
                (0..n * n)
                    .map(|xy| {
                        let mut s = l.scenario.clone();
                        s.sides[0].ai = AiName::new(ais[xy / n].1.clone());
                        s.sides[1].ai = AiName::new(ais[xy % n].1.clone());
                        s
                    })
                    .collect()
            })
            .collect();
        let players = scenarios
            .iter()
            .map(|vs| {
                vs.iter()
                    .map(|v| ai::Players::stopping(v, Some(crate::interrupt::flag())))
                    .collect::<Result<_, _>>()
            })
            .collect::<Result<_, _>>()
            .map_err(BadInput)?;
        Ok(Self {
            scenarios,
            players,
            ais: n,
        })
    }
}

/// The rules of every variant, borrowed from the variants and the catalogs.
fn rules_of<'a>(variants: &'a Variants, loaded: &'a [(PathBuf, Loaded)]) -> Vec<Vec<Rules<'a>>> {
    variants
        .scenarios
        .iter()
        .zip(loaded)
        .map(|(vs, (_, l))| vs.iter().map(|s| Rules::new(s, &l.catalog)).collect())
        .collect()
}

/// Plays pair `i` of AI `a` against `b` on scenario `s`: `a` on the first side, then on the
/// second, on the same dice.
fn play_pair(
    rules: &[Vec<Rules<'_>>],
    variants: &Variants,
    seed: u64,
    (s, a, b): (usize, usize, usize),
    i: u64,
) -> Result<(GameRecord, GameRecord), OutOfDice> {
    let n = variants.ais;
    let game = |x: usize, y: usize| -> Result<GameRecord, OutOfDice> {
        let r = &rules[s][x * n + y];
        let (dice, ai) = game_dice(seed, i);
        let game = variants.players[s][x * n + y].play(*r, dice, ai)?;
        Ok(GameRecord::new(i, r, game.state()))
    };
    Ok((game(a, b)?, game(b, a)?))
}

fn pool(threads: usize, work: u64) -> anyhow::Result<rayon::ThreadPool> {
    let threads = threads
        .min(crate::batch::MAX_THREADS)
        .min(usize::try_from(work).unwrap_or(1).max(1));
    Ok(rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?)
}

/// Runs `hexwar arena`.
pub fn run(args: &ArenaArgs) -> anyhow::Result<ExitCode> {
    if let Some(p) = &args.plot {
        crate::output::picture_format(p)?;
    }
    let ais = entrants(&args.ais)?;
    if let Some(names) = &args.sprt {
        return sprt(args, &ais, names);
    }
    let pairs = args.runs.unwrap_or(DEFAULT_PAIRS);
    crate::batch::check_runs_threads(pairs, args.threads)?;
    let shard = args.shard.unwrap_or(Shard::ALL);
    if shard.count > pairs {
        return Err(BadInput(format!(
            "--shard {}/{}: more shards than pairs (--runs {pairs})",
            shard.index, shard.count
        ))
        .into());
    }
    let loaded = scenarios(args)?;
    let read: Vec<PathBuf> = loaded.iter().flat_map(|(_, l)| l.files.clone()).collect();
    let [plot_out] = Output::check_all([(args.plot.as_deref(), "--plot")], &read)?;
    let identity = ArenaIdentity {
        scenarios: loaded
            .iter()
            .map(|(f, l)| ArenaScenario {
                title: l.scenario.title.clone(),
                file: f.display().to_string(),
                sides: [
                    l.scenario.sides[0].id.clone(),
                    l.scenario.sides[1].id.clone(),
                ],
                scenario_hash: l.hashes[0].clone(),
                catalog_hash: l.hashes[1].clone(),
                terrain_hash: l.hashes[2].clone(),
            })
            .collect(),
        ais: ais.iter().map(|(e, _)| e.clone()).collect(),
        pairs,
        seed: args.seed,
        version: env!("CARGO_PKG_VERSION").to_owned(),
        shard_count: shard.count,
    };
    let mut summary = ArenaSummary::new(identity);
    summary.shards = vec![shard.index];
    let variants = Variants::new(&loaded, &ais)?;
    let rules = rules_of(&variants, &loaded);
    // Pair i of every pairing before pair i + 1 of any: an interrupted arena is even.
    let pairings: Vec<(usize, usize, usize)> = summary
        .results
        .iter()
        .map(|p| (p.scenario, p.a, p.b))
        .collect();
    // This shard's pairs, counted, not listed (memory stays flat whatever --runs): unit j is
    // pairing j % P of the shard's pair j / P.
    let mine = crate::batch::shard_games(&crate::batch::Options {
        runs: pairs,
        seed: args.seed,
        threads: args.threads,
        shard,
        progress: false,
        first_mover: false,
        watch: false,
    });
    let per = pairings.len() as u64;
    let units = mine.saturating_mul(per);
    let bar = progress_bar(units.saturating_mul(2), "games, {per_sec}", !args.quiet);
    let pool = pool(args.threads, units)?;
    crate::interrupt::install();
    let mut complete = true;
    let mut next = 0u64;
    while next < units {
        let end = next.saturating_add(CHUNK as u64).min(units);
        let played: Result<Vec<_>, OutOfDice> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map(|j| {
                    let k = usize::try_from(j % per).unwrap_or(0);
                    let i = shard.index + (j / per) * shard.count;
                    crate::batch::played_whole(|| {
                        let pair = play_pair(&rules, &variants, args.seed, pairings[k], i)?;
                        bar.inc(2);
                        Ok((k, pair))
                    })
                })
                .collect()
        });
        // The pairs played whole before the first cut short: a signal stops the arena.
        let (played, whole) = crate::batch::whole_prefix(played?);
        complete = whole;
        for (k, (first, second)) in played {
            summary.add_pair(k, &first, &second);
        }
        if !complete {
            break;
        }
        next = end;
    }
    bar.finish_and_clear();
    summary.complete = complete;
    summary.finish(ai::ANCHOR);
    if !complete {
        errln!(
            "{}: the summary counts the pairs played whole",
            crate::interrupt::interrupted()
        );
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        out!("{}", render(&summary));
    }
    if let Some(out) = &plot_out {
        let svg = present::picture::plot::arena(&summary)?;
        crate::output::write_svg_as(&svg, out)?;
    }
    Ok(crate::interrupt::status(complete))
}

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// An Elo difference as `+35` or `-120`; `+inf` where a score of 0 or 1 gives no finite one.
fn elo(x: f64) -> String {
    if x.is_finite() {
        // Never `-0`.
        format!("{:+.0}", x.round() + 0.0)
    } else if x > 0.0 {
        "+inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

/// The arena as tables: per scenario its pairings, then the ratings and the matrix.
pub fn render(s: &ArenaSummary) -> String {
    let a = &s.arena;
    let names: Vec<&str> = a.ais.iter().map(|e| e.name.as_str()).collect();
    let w = names.iter().map(|n| n.len()).max().unwrap_or(2).max(2);
    let mut out = format!(
        "arena: {} AI{}, {} scenario{}, {} pairs (2 games each) per pairing and scenario, seed {}{}\n",
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        a.scenarios.len(),
        if a.scenarios.len() == 1 { "" } else { "s" },
        a.pairs,
        a.seed,
        if s.complete {
            String::new()
        } else if s.missing_shards().is_empty() {
            " (INCOMPLETE: interrupted; the pairs played whole are counted)".to_owned()
        } else {
            let lacking: u64 = s.missing_shards().iter().map(|r| r.end - r.start).sum();
            format!(
                " (INCOMPLETE: {lacking} of {} shards missing; the pairs merged are counted)",
                a.shard_count
            )
        }
    );
    for (si, sc) in a.scenarios.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n{} ({}): A's score over pairs, each AI once on each side\n  {:<w$}  {:<w$} {:>6} {:>6} {:>6} {:>6} {:>7}  {:<16} {:<20} {} SCORES",
            sc.title,
            sc.file,
            "A",
            "B",
            "PAIRS",
            "A WINS",
            "B WINS",
            "BOTH",
            "SCORE",
            "95% CI",
            "ELO (95% CI)",
            sc.sides[0].to_uppercase(),
        );
        for p in s.results.iter().filter(|p| p.scenario == si) {
            let rated = p.pairs.elo().map_or_else(
                || "-".to_owned(),
                |(e, [lo, hi])| format!("{} [{}, {}]", elo(e), elo(lo), elo(hi)),
            );
            let _ = writeln!(
                out,
                "  {:<w$}  {:<w$} {:>6} {:>6} {:>6} {:>6} {:>7}  {:<16} {:<20} {}",
                names[p.a],
                names[p.b],
                p.pairs.pairs(),
                p.a_wins,
                p.b_wins,
                p.both_lose,
                pct(p.score),
                format!("[{}, {}]", pct(p.ci95[0]), pct(p.ci95[1])),
                rated,
                pct(p.first_side_score),
            );
        }
    }
    let _ = writeln!(
        out,
        "\nratings (Bradley-Terry over every game, {} = 0; intervals count games as independent):\n  {:<w$} {:>6}  {:<13} {:>7} {:>7}",
        s.anchor, "AI", "ELO", "95% CI", "GAMES", "SCORE"
    );
    let mut order: Vec<usize> = (0..s.ratings.len()).collect();
    order.sort_by(|&i, &j| {
        let key = |k: usize| s.ratings[k].elo.unwrap_or(f64::NEG_INFINITY);
        key(j).total_cmp(&key(i)).then(i.cmp(&j))
    });
    for &i in &order {
        let r = &s.ratings[i];
        let (e, ci) = match (r.elo, r.ci95) {
            (Some(e), Some(_)) if r.ai == s.anchor => (elo(e), "(anchor)".to_owned()),
            (Some(e), Some([lo, hi])) => (elo(e), format!("[{}, {}]", elo(lo), elo(hi))),
            _ => ("?".to_owned(), "(no fit)".to_owned()),
        };
        let _ = writeln!(
            out,
            "  {:<w$} {:>6}  {:<13} {:>7} {:>7}",
            r.ai,
            e,
            ci,
            r.games,
            pct(r.score)
        );
    }
    let _ = writeln!(
        out,
        "\nhead to head (the row's score against the column, every scenario):"
    );
    let cw = w.max(6);
    let mut head = format!("  {:<w$}", "");
    for n in &names {
        let _ = write!(head, " {n:>cw$}");
    }
    let _ = writeln!(out, "{head}");
    for (i, row) in s.matrix.iter().enumerate() {
        let mut line = format!("  {:<w$}", names[i]);
        for cell in row {
            let text = cell.map_or_else(|| "-".to_owned(), pct);
            let _ = write!(line, " {text:>cw$}");
        }
        let _ = writeln!(out, "{line}");
    }
    out
}

/// The SPRT's outcome, as `--json` prints it.
#[derive(serde::Serialize)]
struct SprtReport<'a> {
    a: &'a str,
    b: &'a str,
    test: Sprt,
    bounds: [f64; 2],
    llr: f64,
    verdict: Option<SprtVerdict>,
    pairs: Pentanomial,
    games: u64,
    score: f64,
    ci95: [f64; 2],
    elo: Option<f64>,
    /// The Elo interval of the score measured.
    elo_ci95: [f64; 2],
    /// The hypothesis accepted lies outside what was measured: H1 accepted with the whole
    /// interval below `elo1`, or H0 with it above `elo0`. The test chose the nearer of two
    /// wrong hypotheses; the interval says how strong A is.
    beyond: bool,
    scenarios: Vec<String>,
    seed: u64,
    complete: bool,
}

/// `--sprt A B`: pairs of A against B on every scenario in turn, until the test decides.
fn sprt(args: &ArenaArgs, ais: &[(Entrant, String)], names: &[String]) -> anyhow::Result<ExitCode> {
    let find = |name: &str| -> Result<usize, BadInput> {
        ais.iter()
            .position(|(e, _)| e.name == name || e.spec == name)
            .ok_or_else(|| {
                BadInput(format!(
                    "--sprt: `{name}` is none of the AIs of --ai ({})",
                    ais.iter()
                        .map(|(e, _)| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    };
    let (a, b) = (find(&names[0])?, find(&names[1])?);
    if a == b {
        return Err(BadInput("--sprt: A and B must be two different AIs".to_owned()).into());
    }
    let test = Sprt::new(
        args.elo0.unwrap_or(0.0),
        args.elo1.unwrap_or(0.0),
        args.alpha,
        args.beta,
    )
    .map_err(|e| BadInput(format!("--sprt: {e}")))?;
    let cap = args.runs.unwrap_or(DEFAULT_SPRT_PAIRS);
    crate::batch::check_runs_threads(cap, args.threads)?;
    let loaded = scenarios(args)?;
    let variants = Variants::new(&loaded, ais)?;
    let rules = rules_of(&variants, &loaded);
    let k = loaded.len() as u64;
    let bar = progress_bar(cap, "pairs at most, {per_sec}", !args.quiet);
    let pool = pool(args.threads, cap)?;
    crate::interrupt::install();
    let mut seen = Pentanomial::default();
    let mut verdict = None;
    let mut complete = true;
    let mut next = 0u64;
    // Pair j is pair j / k of scenario j % k: every scenario in turn, in a fixed order, so the
    // stopping point is the same for any --threads.
    'play: while next < cap {
        let end = next.saturating_add(CHUNK as u64).min(cap);
        let played: Result<Vec<_>, OutOfDice> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map(|j| {
                    let s = usize::try_from(j % k).unwrap_or(0);
                    crate::batch::played_whole(|| {
                        let pair = play_pair(&rules, &variants, args.seed, (s, a, b), j / k)?;
                        bar.inc(1);
                        Ok((s, pair))
                    })
                })
                .collect()
        });
        let (played, whole) = crate::batch::whole_prefix(played?);
        complete = whole;
        for (s, (first, second)) in played {
            let sides = &loaded[s].1.scenario.sides;
            let sides = [sides[0].id.clone(), sides[1].id.clone()];
            seen.add(stats::arena::half_points(&sides, &first, &second));
            if let Some(v) = test.verdict(&seen) {
                verdict = Some(v);
                break 'play;
            }
        }
        if !complete {
            break;
        }
        next = end;
    }
    // A test decided before the signal is whole.
    complete |= verdict.is_some();
    bar.finish_and_clear();
    let report = SprtReport {
        a: &ais[a].0.name,
        b: &ais[b].0.name,
        test,
        bounds: test.bounds(),
        llr: test.llr(&seen),
        verdict,
        pairs: seen,
        games: 2 * seen.pairs(),
        score: seen.score().unwrap_or(0.5),
        ci95: seen.ci95().unwrap_or([0.0, 1.0]),
        elo: seen.elo().map(|(e, _)| e).filter(|e| e.is_finite()),
        elo_ci95: seen
            .ci95()
            .unwrap_or([0.0, 1.0])
            .map(stats::arena::elo_of_score),
        beyond: beyond(
            &test,
            verdict,
            seen.ci95()
                .unwrap_or([0.0, 1.0])
                .map(stats::arena::elo_of_score),
        ),
        scenarios: loaded
            .iter()
            .map(|(f, _)| f.display().to_string())
            .collect(),
        seed: args.seed,
        complete,
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", render_sprt(&report));
    }
    Ok(crate::interrupt::status(complete))
}

/// Whether the hypothesis accepted lies wholly outside the Elo interval measured: H1 ("at
/// least `elo1`") with the whole interval below `elo1`, or H0 ("at most `elo0`") with it above.
fn beyond(test: &Sprt, verdict: Option<SprtVerdict>, [lo, hi]: [f64; 2]) -> bool {
    match verdict {
        Some(SprtVerdict::H1) => hi < test.elo1,
        Some(SprtVerdict::H0) => lo > test.elo0,
        None => false,
    }
}

/// "at least 30 Elo stronger than B", or with a negative margin "at most 30 Elo weaker than B".
fn margin(bound: &str, elo: f64, b: &str) -> String {
    if elo >= 0.0 {
        format!("{bound} {elo} Elo stronger than {b}")
    } else {
        let flipped = if bound == "at least" {
            "at most"
        } else {
            "at least"
        };
        format!("{flipped} {} Elo weaker than {b}", -elo)
    }
}

fn render_sprt(r: &SprtReport<'_>) -> String {
    let t = &r.test;
    let mut out = format!(
        "SPRT: is {} stronger than {}? H0: at most {:+} Elo, H1: at least {:+} Elo (alpha {}, beta {})\n",
        r.a, r.b, t.elo0, t.elo1, t.alpha, t.beta
    );
    let decided = match r.verdict {
        Some(SprtVerdict::H1) => format!(
            "H1 accepted: {} is {}",
            r.a,
            margin("at least", t.elo1, r.b)
        ),
        Some(SprtVerdict::H0) => {
            format!("H0 accepted: {} is {}", r.a, margin("at most", t.elo0, r.b))
        }
        None if r.complete => "undecided: the most pairs were played (--runs)".to_owned(),
        None => format!("undecided: {}", crate::interrupt::interrupted()),
    };
    let _ = writeln!(
        out,
        "{decided}\n  after {} pairs ({} games) over {}, seed {}\n  LLR {:.3}, bounds [{:.3}, {:.3}]\n  {}'s score {} [{}, {}], {} Elo\n  pairs by {}'s points (0, 1/2, 1, 3/2, 2): {:?}",
        r.pairs.pairs(),
        r.games,
        r.scenarios.join(", "),
        r.seed,
        r.llr,
        r.bounds[0],
        r.bounds[1],
        r.a,
        pct(r.score),
        pct(r.ci95[0]),
        pct(r.ci95[1]),
        r.elo.map_or_else(|| "no finite".to_owned(), elo),
        r.a,
        r.pairs.counts
    );
    if r.beyond {
        let _ = writeln!(
            out,
            "  but {}'s measured difference, {} [{}, {}] Elo, lies outside that: the test chose the \
             nearer of two hypotheses that both miss; read the interval, or test margins near it",
            r.a,
            r.elo.map_or_else(|| "no finite".to_owned(), elo),
            elo(r.elo_ci95[0]),
            elo(r.elo_ci95[1]),
        );
    }
    out
}

/// Whether a summary file is an arena's (it names its arena), not a batch's.
#[must_use]
pub fn is_arena_summary(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text)
        .is_ok_and(|v| v.get("arena").is_some_and(serde_json::Value::is_object))
}

/// `hexwar merge` of arena summaries: every count added, the ratings fitted again.
pub fn merge(files: &[PathBuf], json: bool, partial: bool) -> anyhow::Result<ExitCode> {
    let mut merged: Option<ArenaSummary> = None;
    for f in files {
        let text = crate::data::read_text(f)?;
        let s: ArenaSummary = serde_json::from_str(&text).map_err(|e| {
            BadInput(format!(
                "{}: not an arena summary (`hexwar arena --json`): {e}",
                f.display()
            ))
        })?;
        s.check()
            .map_err(|e| BadInput(format!("{}: {e}", f.display())))?;
        match &mut merged {
            None => merged = Some(s),
            Some(m) => m
                .merge(&s)
                .map_err(|e| BadInput(format!("{}: {e}", f.display())))?,
        }
    }
    let Some(mut summary) = merged else {
        return Err(BadInput("no summaries to merge".to_owned()).into());
    };
    let missing = summary.missing_shards();
    if !partial {
        crate::batch::refuse_incomplete(
            "arena",
            summary.arena.shard_count,
            &missing,
            summary.complete,
        )?;
    }
    summary.complete &= missing.is_empty();
    summary.finish(ai::ANCHOR);
    if json {
        outln!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        out!("{}", render(&summary));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{Sprt, SprtVerdict, beyond};

    /// The report warns only where the hypothesis accepted misses the whole interval (measured:
    /// `--sprt doctrine random --elo0 700 --elo1 1000` accepts H0 with +805 [+734, +927]).
    #[test]
    fn an_accepted_hypothesis_outside_the_interval_is_said() {
        let t = Sprt::new(700.0, 1000.0, 0.05, 0.05).unwrap();
        assert!(beyond(&t, Some(SprtVerdict::H0), [734.0, 927.0]));
        assert!(!beyond(&t, Some(SprtVerdict::H0), [650.0, 927.0]));
        assert!(beyond(&t, Some(SprtVerdict::H1), [734.0, 927.0]));
        assert!(!beyond(&t, Some(SprtVerdict::H1), [734.0, f64::INFINITY]));
        assert!(!beyond(&t, None, [734.0, 927.0]));
    }
}
