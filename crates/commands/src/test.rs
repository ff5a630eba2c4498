//! `hexwar test`: plays each scenario's `[expect]` batch and reports every expectation as PASS,
//! FAIL or INCONCLUSIVE, as text and optionally as a `JUnit` XML report.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use model::{Measure, Scenario};
use stats::{Finding, Tally, Verdict};

use crate::batch;
use crate::data::{BadInput, load_scenario};

/// `hexwar test`.
#[derive(clap::Args)]
pub struct TestArgs {
    /// Scenario files, or folders whose `*.toml` files are scenarios.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Games per scenario (default: each file's `[expect] runs`, else 1000).
    #[arg(long)]
    pub runs: Option<u64>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Write a `JUnit` XML report here (one test case per expectation).
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Inconclusive expectations fail the run too.
    #[arg(long)]
    pub strict: bool,
    /// Print JSON: per scenario its file, title, runs, games played, complete, seed and
    /// findings (each with its expectation, value, ci95, verdict and `games_to_settle`), the
    /// scenarios not tested (a signal stopped the run), complete, and the counts.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,
    /// Play only games i with i mod N == I of each scenario's batch, and print (with --json)
    /// the shard's tallies for `hexwar merge`, which adds the shards into the whole run's
    /// verdicts.
    #[arg(long, value_name = "I/N", value_parser = batch::Shard::parse, requires = "json")]
    pub shard: Option<batch::Shard>,
    /// The rule and AI overrides.
    #[command(flatten)]
    pub play: crate::PlayOptions,
}

/// What a shard file of `hexwar test` says of each scenario besides its counts.
#[derive(serde::Serialize, serde::Deserialize)]
struct Asked {
    file: String,
    title: String,
    runs: u64,
    seed: u64,
    ai: Vec<String>,
    names: Vec<String>,
}

/// One scenario's results.
#[derive(serde::Serialize)]
struct Tested {
    file: String,
    title: String,
    runs: u64,
    /// The games played: `runs`, or fewer when a signal stopped the run.
    games: u64,
    /// Whether every game of `runs` was played.
    complete: bool,
    seed: u64,
    /// The AI of each side, as `--ai` names them (`soviet=doctrine@1`).
    ai: Vec<String>,
    findings: Vec<Finding>,
    /// What each finding measures, in words.
    names: Vec<String>,
    #[serde(skip)]
    seconds: f64,
}

/// Runs `hexwar test`.
pub fn run(opts: &TestArgs) -> anyhow::Result<ExitCode> {
    let paths = &opts.paths;
    batch::check_runs_threads(opts.runs.unwrap_or(1), opts.threads)?;
    crate::interrupt::install();
    let mut all_tested = Vec::new();
    let mut skipped = Vec::new();
    // Load everything first: bad input stops the run before any game.
    let mut loaded = Vec::new();
    for file in crate::data::scenario_files(paths)? {
        let mut l = load_scenario(&file, None)?;
        // The AIs the scenario was balanced with, then `--ai` over them.
        if let Some(e) = l.scenario.expect.clone() {
            for (side, ai) in &e.ai {
                l.scenario.sides[side.index()].ai = model::AiName::new(ai.text.clone());
            }
        }
        opts.play.apply(&mut l.scenario)?;
        match l.scenario.expect.clone() {
            Some(e) if !e.items.is_empty() => loaded.push((file, l, e)),
            _ => skipped.push(file),
        }
    }
    // The report is checked once every input is read, before any game: never opened (nor
    // emptied) when nothing will be tested, never one of the scenarios or their data.
    let inputs: Vec<PathBuf> = loaded
        .iter()
        .flat_map(|(_, l, _)| l.files.iter().cloned())
        .chain(skipped.iter().cloned())
        .collect();
    let report = match &opts.junit {
        Some(path) => Some(crate::output::Output::check(path, "--junit", &inputs)?),
        None => None,
    };
    if loaded.is_empty() {
        return Err(BadInput(format!(
            "no scenario with an [expect] section among {} (docs/scenario-format.md says how to write one)",
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    // Stopped by a signal: what was measured is reported, marked incomplete, and the scenarios
    // not reached are named.
    let shard = opts.shard.unwrap_or(batch::Shard::ALL);
    let mut not_tested: Vec<String> = Vec::new();
    let mut asked = Vec::new();
    let mut parts = Vec::new();
    for (file, l, expect) in loaded {
        if crate::interrupt::requested() {
            not_tested.push(file.display().to_string());
            continue;
        }
        let runs = opts.runs.unwrap_or(expect.runs);
        batch::check_shard(shard, runs)?;
        let start = std::time::Instant::now();
        let sides = l.scenario.sides.clone().map(|s| s.id);
        let mut tally = Tally::new(&expect, &sides, &type_counts(&l.scenario, &l.catalog));
        let mut summary = stats::Summary::new(&l.scenario, expect.seed);
        let batch_opts = batch::Options {
            runs,
            seed: expect.seed,
            threads: opts.threads,
            shard,
            progress: !opts.quiet,
            first_mover: tally.needs_first_mover(),
            watch: false,
        };
        let complete = batch::play_chunks(&l.scenario, &l.catalog, &batch_opts, |records| {
            for r in &records {
                tally.add(r);
                summary.add(r);
            }
            Ok(())
        })?;
        if tally.games() == 0 && opts.shard.is_none() {
            not_tested.push(file.display().to_string());
            continue;
        }
        summary.complete = complete;
        batch::identify(&mut summary, &l.hashes, &l.scenario, &batch_opts);
        summary.finish();
        let players = ai::Players::of(&l.scenario).map_err(BadInput)?;
        let a = Asked {
            file: file.display().to_string(),
            title: l.scenario.title.clone(),
            runs,
            seed: expect.seed,
            ai: model::Side::BOTH
                .iter()
                .map(|&s| {
                    let id = &l.scenario.sides[s.index()].id;
                    format!("{id}={}", players.of_side(s).name())
                })
                .collect(),
            names: expect
                .items
                .iter()
                .map(|e| describe(&e.measure, &l.scenario))
                .collect(),
        };
        let part = crate::shards::Part {
            label: a.file.clone(),
            summary,
            tally: Some(tally),
        };
        let mut t = tested(&a, &part);
        t.seconds = start.elapsed().as_secs_f64();
        if !opts.json {
            out!("{}", render(&t));
        }
        if opts.shard.is_some() {
            asked.push(a);
            parts.push(part);
        }
        all_tested.push(t);
    }
    let tested = all_tested;
    if let Some(shard) = opts.shard {
        let file = crate::shards::Shards::new("test", serde_json::to_value(&asked)?, shard, parts);
        outln!("{}", serde_json::to_string_pretty(&file)?);
        return Ok(crate::interrupt::status(
            file.complete() && not_tested.is_empty(),
        ));
    }
    let complete = not_tested.is_empty() && tested.iter().all(|t| t.complete);
    if !opts.json {
        for f in &skipped {
            outln!("{}: no [expect]: skipped", f.display());
        }
        for f in &not_tested {
            outln!("{f}: not tested: {}", crate::interrupt::interrupted());
        }
    }
    if !complete {
        errln!(
            "{}: the verdicts are of the games played; the JSON and the report say `complete: false`",
            crate::interrupt::interrupted()
        );
    }
    let skipped: Vec<String> = skipped.iter().map(|f| f.display().to_string()).collect();
    let (_, fail, open) = totals(&tested, &skipped, &not_tested, opts.strict, opts.json)?;
    if let Some(out) = &report {
        out.write(junit(&tested, &not_tested)?.as_bytes())?;
    }
    if !complete {
        return Ok(crate::interrupt::status(false));
    }
    Ok(if fail > 0 || (opts.strict && open > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Prints the run's JSON, or the count of expectations that passed, failed and were
/// inconclusive; returns those counts.
fn totals(
    tested: &[Tested],
    skipped: &[String],
    not_tested: &[String],
    strict: bool,
    json: bool,
) -> anyhow::Result<(usize, usize, usize)> {
    let count = |v: Verdict| {
        tested
            .iter()
            .flat_map(|t| &t.findings)
            .filter(|f| f.verdict == v)
            .count()
    };
    let (pass, fail, open) = (
        count(Verdict::Pass),
        count(Verdict::Fail),
        count(Verdict::Inconclusive),
    );
    let complete = not_tested.is_empty() && tested.iter().all(|t| t.complete);
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "scenarios": tested,
                "skipped": skipped,
                "not_tested": not_tested,
                "complete": complete,
                "pass": pass,
                "fail": fail,
                "inconclusive": open,
            }))?
        );
    } else {
        outln!(
            "\nexpectations: {pass} pass, {fail} fail, {open} inconclusive{}",
            if open > 0 && !strict {
                " (inconclusive ones do not fail the run without --strict)"
            } else {
                ""
            }
        );
    }
    Ok((pass, fail, open))
}

/// A scenario's results from its part of the run.
fn tested(a: &Asked, part: &crate::shards::Part) -> Tested {
    let findings = part.tally.as_ref().map(Tally::findings).unwrap_or_default();
    Tested {
        file: a.file.clone(),
        title: a.title.clone(),
        runs: a.runs,
        games: part.summary.runs,
        complete: part.summary.complete && part.summary.runs == a.runs,
        seed: a.seed,
        ai: a.ai.clone(),
        findings,
        names: a.names.clone(),
        seconds: 0.0,
    }
}

/// The report of a test run merged from its shards (`hexwar merge`), as the single run's:
/// each scenario's verdicts, then the counts; the exit status as the single run's.
pub(crate) fn report_merged(
    shards: &crate::shards::Shards,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let asked: Vec<Asked> = shards.asked()?;
    let tested: Vec<Tested> = asked
        .iter()
        .zip(&shards.parts)
        .map(|(a, p)| tested(a, p))
        .collect();
    if !json {
        for t in &tested {
            out!("{}", render(t));
        }
    }
    let (_, fail, _) = totals(&tested, &[], &[], false, json)?;
    Ok(if fail > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Units of each catalog type in the scenario, for loss rates.
pub(crate) fn type_counts(scenario: &Scenario, catalog: &model::Catalog) -> Vec<(String, u32)> {
    let mut counts: Vec<(String, u32)> = Vec::new();
    for u in &scenario.units {
        let id = &catalog.get(u.type_id).id;
        match counts.iter_mut().find(|(t, _)| t == id) {
            Some(c) => c.1 += 1,
            None => counts.push((id.clone(), 1)),
        }
    }
    counts
}

/// What an expectation measures, in words.
pub(crate) fn describe(m: &Measure, scenario: &Scenario) -> String {
    match m {
        Measure::WinRate(Some(side)) => format!("win rate of {}", scenario.sides[side.index()].id),
        Measure::WinRate(None) => "both sides lose".to_owned(),
        Measure::EndReason(r) => format!("ended by {}", stats::reason_name(*r)),
        Measure::GameLength => "game length (turns)".to_owned(),
        Measure::LossRate(t) => format!("{t} units lost"),
        Measure::Balance => "balance".to_owned(),
        Measure::Decisiveness => "decisiveness".to_owned(),
        Measure::Drawishness => "drawishness (both lose)".to_owned(),
        Measure::LeadChanges => "lead changes a game".to_owned(),
        Measure::FirstMover => "first mover's advantage".to_owned(),
    }
}

/// A value as a percentage (shares) or a plain number (game length).
fn fmt(m: &Measure, x: f64) -> String {
    match m {
        Measure::GameLength | Measure::LeadChanges => format!("{x:.2}"),
        _ => format!("{:.1}%", x * 100.0),
    }
}

fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Pass => "PASS",
        Verdict::Fail => "FAIL",
        Verdict::Inconclusive => "INCONCLUSIVE",
    }
}

/// One expectation's line: verdict, what, value, interval, range, and what would settle it.
pub(crate) fn finding_line(f: &Finding, name: &str) -> String {
    let m = &f.expectation.measure;
    let mut out = format!(
        "  {:<13} {:<24} {:>7}  [{}, {}]  expected {}..{}",
        verdict_name(f.verdict),
        name,
        fmt(m, f.value),
        fmt(m, f.ci95[0]),
        fmt(m, f.ci95[1]),
        fmt(m, f.expectation.between[0]),
        fmt(m, f.expectation.between[1]),
    );
    match (f.verdict, f.games_to_settle) {
        (Verdict::Inconclusive, Some(n)) => {
            let _ = write!(out, "  (about {n} games would likely settle it)");
        }
        (Verdict::Inconclusive, None) => {
            let _ = write!(out, "  (the value sits on the edge of the range)");
        }
        _ => {}
    }
    out
}

/// The lines of one scenario.
fn render(t: &Tested) -> String {
    let games = if t.complete {
        format!("{} game{}", t.runs, if t.runs == 1 { "" } else { "s" })
    } else {
        format!(
            "{} of {} games ({})",
            t.games,
            t.runs,
            crate::interrupt::interrupted()
        )
    };
    let mut out = format!(
        "{}: {}, {games}, seed {}, {}\n",
        t.file,
        t.title,
        t.seed,
        t.ai.join(" ")
    );
    for (f, name) in t.findings.iter().zip(&t.names) {
        out.push_str(&finding_line(f, name));
        out.push('\n');
    }
    out
}

/// The `JUnit` XML report (written by `quick-junit`, cargo-nextest's serializer, which escapes
/// and counts): one test suite per scenario, one test case per expectation; a FAIL is a
/// `<failure>`, an INCONCLUSIVE a `<skipped>`, both with the measured figures. A run stopped by
/// a signal says so in each figure of the scenario it stopped in, and gives each scenario it
/// did not reach one `<skipped>` case.
fn junit(tested: &[Tested], not_tested: &[String]) -> anyhow::Result<String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut report = Report::new("hexwar test");
    for t in tested {
        let mut suite = TestSuite::new(t.file.as_str());
        suite.set_time(std::time::Duration::from_secs_f64(t.seconds.max(0.0)));
        for (f, what) in t.findings.iter().zip(&t.names) {
            let m = &f.expectation.measure;
            let name = format!(
                "{what} in {}..{}",
                fmt(m, f.expectation.between[0]),
                fmt(m, f.expectation.between[1])
            );
            let figures = format!(
                "measured {} [{}, {}] over {} game{} (seed {}){}",
                fmt(m, f.value),
                fmt(m, f.ci95[0]),
                fmt(m, f.ci95[1]),
                t.games,
                if t.games == 1 { "" } else { "s" },
                t.seed,
                if t.complete {
                    String::new()
                } else {
                    format!(
                        "; incomplete, {} after {} of {} games",
                        crate::interrupt::interrupted(),
                        t.games,
                        t.runs
                    )
                }
            );
            let status = match f.verdict {
                Verdict::Pass if t.complete => TestCaseStatus::success(),
                Verdict::Pass => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(format!("passing so far: {figures}"));
                    s
                }
                Verdict::Fail => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(figures).set_type("balance");
                    s
                }
                Verdict::Inconclusive => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(format!("inconclusive: {figures}"));
                    s
                }
            };
            let mut case = TestCase::new(name, status);
            case.set_classname(t.file.as_str());
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    for file in not_tested {
        let mut suite = TestSuite::new(file.as_str());
        let mut s = TestCaseStatus::skipped();
        s.set_message(format!(
            "not tested: {} before its games",
            crate::interrupt::interrupted()
        ));
        let mut case = TestCase::new("every expectation", s);
        case.set_classname(file.as_str());
        suite.add_test_case(case);
        report.add_test_suite(suite);
    }
    Ok(report.to_string()?)
}

#[cfg(test)]
mod tests {
    use super::{Tested, junit};

    #[test]
    fn the_report_is_xml_whatever_the_file_is_called() {
        let t = Tested {
            file: "a<b & \"c\">'.toml".to_owned(),
            title: String::new(),
            runs: 1,
            games: 1,
            complete: true,
            seed: 1,
            ai: vec![],
            findings: vec![],
            names: vec![],
            seconds: 0.5,
        };
        let xml = junit(&[t], &[]).unwrap();
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let suite = doc
            .descendants()
            .find(|n| n.has_tag_name("testsuite"))
            .unwrap();
        assert_eq!(suite.attribute("name"), Some("a<b & \"c\">'.toml"));
    }
}
