//! `hexwar tune`: vary a unit stat and find where a scenario is balanced, with the same seeds for
//! every value (common random numbers), or rank which stats move the win rate most. The stats
//! that can vary are the [`model::Stat`]s.

use std::path::PathBuf;
use std::process::ExitCode;

use model::Catalog;
use model::Stat as Field;

use present::picture::plot::{self, TunePoint};

use crate::PlayOptions;
use crate::balance::change::{self, Change, Step};
use crate::batch;
use crate::data::{BadInput, load_scenario, load_scenario_from};
use crate::{interrupt, vary};

/// The arguments of `hexwar tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The scenario file.
    file: PathBuf,
    /// What to vary, as `balance --vary` names it: a number over a range, a batch a value
    /// (`TYPE.FIELD=A..B[:STEP]`, `turns=A..B[:STEP]`; without the range, two steps either way
    /// of the scenario's value), or a batch for each of balance's changes of a kind (`first`,
    /// `objectives`, `arrivals`, `units`). Fields: assault, movement, save, armor, motivation,
    /// skill, `tank_assault`, leadership, fire.dice, fire.range.
    #[arg(
        long,
        value_name = "KNOB[=A..B[:STEP]]",
        required_unless_present = "sensitivity"
    )]
    vary: Option<String>,
    /// Rank every stat of the scenario's unit types by how much one step up or down moves
    /// the win rate.
    #[arg(long, conflicts_with = "vary")]
    sensitivity: bool,
    /// Games per value.
    #[arg(long, default_value_t = 1000)]
    runs: u64,
    /// The side whose win rate is tuned (default: the attacker).
    #[arg(long)]
    side: Option<String>,
    /// The win rate to aim for.
    #[arg(long, default_value_t = 0.5)]
    target: f64,
    /// Batch seed (the same for every value).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print JSON: the stat, side, target, runs and seed, each value's wins, win rate and
    /// interval, the best value, `values_asked` and `complete` (false when a signal stopped
    /// the tuning: `best` is then of the values played).
    #[arg(long)]
    json: bool,
    /// Also draw the win rate against the value, with its interval, the target and the value
    /// nearest it, as a picture: `NAME.svg` or `NAME.png`.
    #[arg(long, value_name = "FILE", requires = "vary")]
    plot: Option<PathBuf>,
    #[command(flatten)]
    play: PlayOptions,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    catalog: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Play only games i with i mod N == I of each batch, and print (with --json) the shard's
    /// counts for `hexwar merge`, which adds the shards into the whole tuning.
    #[arg(long, value_name = "I/N", value_parser = batch::Shard::parse, requires = "json")]
    shard: Option<batch::Shard>,
}

/// Runs `hexwar tune`.
pub fn run(args: TuneArgs) -> anyhow::Result<ExitCode> {
    let TuneArgs {
        file,
        vary,
        sensitivity: _,
        runs,
        side,
        target,
        seed,
        threads,
        json,
        plot,
        play,
        catalog,
        quiet,
        shard,
    } = args;
    batch::check_runs_threads(runs, threads)?;
    if !(0.0..=1.0).contains(&target) {
        return Err(BadInput("--target is a win rate between 0 and 1".to_owned()).into());
    }
    if let Some(p) = &plot {
        crate::output::picture_format(p)?;
    }
    let mut loaded = load_scenario(&file, catalog.as_deref())?;
    // The plot's path is checked before the first game: a table computed is never lost to it.
    let plot = match &plot {
        Some(p) => Some(crate::output::Output::check(p, "--plot", &loaded.files)?),
        None => None,
    };
    let unplayed = loaded.scenario.clone();
    play.apply(&mut loaded.scenario)?;
    let side_index = match &side {
        None => loaded.scenario.attacker().index(),
        Some(id) => loaded
            .scenario
            .sides
            .iter()
            .position(|s| &s.id == id)
            .ok_or_else(|| {
                let [a, b] = [&loaded.scenario.sides[0].id, &loaded.scenario.sides[1].id];
                BadInput(format!(
                    "--side `{}`: no such side{} (the sides are `{a}` and `{b}`)",
                    model::shown(id),
                    hexmap::did_you_mean(id, [a.as_str(), b.as_str()])
                ))
            })?,
    };
    batch::check_shard(shard.unwrap_or(batch::Shard::ALL), runs)?;
    let opts = batch::Options {
        runs,
        seed,
        threads,
        shard: shard.unwrap_or(batch::Shard::ALL),
        progress: false,
        first_mover: false,
        watch: false,
    };
    // The batches to play: each value of the stat, or the scenario as it stands and each
    // stat a step down and up.
    let side_id = loaded.scenario.sides[side_index].id.clone();
    let mut variants: Vec<Variant> = Vec::new();
    let asked = if let Some(text) = &vary {
        let knob = knob_of(text, &unplayed, &loaded.catalog)?;
        if plot.is_some() && matches!(knob, Knob::Changes(_)) {
            return Err(BadInput(format!(
                "--plot draws the win rate against a number: vary turns or TYPE.FIELD (`{}` is a list of changes)",
                model::shown(text)
            ))
            .into());
        }
        // A change of the scenario is written into its TOML and read back as any scenario is.
        let (origin, shown, source) = crate::data::scenario_text(&file)?;
        let doc: toml_edit::DocumentMut = source
            .parse()
            .map_err(|e| BadInput(format!("{shown}: {e}")))?;
        let changed = |change: &Change| -> Result<Option<model::Scenario>, BadInput> {
            if change.0.is_empty() {
                return Ok(None);
            }
            let mut changed =
                load_scenario_from(&origin, &shown, &change.apply(&doc), catalog.as_deref())
                    .map_err(|e| {
                        BadInput(format!(
                            "{change}: the scenario it makes does not load: {e}"
                        ))
                    })?
                    .scenario;
            play.apply(&mut changed)?;
            Ok(Some(changed))
        };
        match knob {
            Knob::Stat(stat, values) => {
                let name = format!("{}.{}", stat.type_id, stat.field.name());
                for &v in &values {
                    let c = with_stat(&loaded.catalog, &stat, v).map_err(BadInput)?;
                    variants.push(Variant::of(format!("{name} = {v}"), c));
                }
                Asked::values(name, values, &side_id, target, runs, seed)
            }
            Knob::Turns(values) => {
                let from = i64::from(unplayed.turns);
                for &to in &values {
                    let step = Step {
                        field: change::Field::Turns,
                        edit: change::Edit::Set { from, to },
                    };
                    let change = Change(if to == from { Vec::new() } else { vec![step] });
                    variants.push(Variant {
                        label: format!("turns = {to}"),
                        scenario: changed(&change)?,
                        catalog: loaded.catalog.clone(),
                    });
                }
                Asked::values("turns".to_owned(), values, &side_id, target, runs, seed)
            }
            Knob::Changes(steps) => {
                variants.push(Variant::of(
                    "as it stands".to_owned(),
                    loaded.catalog.clone(),
                ));
                for step in &steps {
                    variants.push(Variant {
                        label: step.to_string(),
                        scenario: changed(&Change(vec![step.clone()]))?,
                        catalog: loaded.catalog.clone(),
                    });
                }
                Asked {
                    stat: None,
                    changes: steps.iter().map(ToString::to_string).collect(),
                    ..Asked::values(String::new(), Vec::new(), &side_id, target, runs, seed)
                }
            }
        }
    } else {
        variants.push(Variant::of(
            "as it stands".to_owned(),
            loaded.catalog.clone(),
        ));
        let mut types: Vec<String> = loaded
            .scenario
            .units
            .iter()
            .map(|u| loaded.catalog.get(u.type_id).id.clone())
            .collect();
        types.sort();
        types.dedup();
        let mut stats = Vec::new();
        for t in &types {
            let Some(id) = loaded.catalog.id(t) else {
                continue;
            };
            for field in Field::ALL {
                let Some(now) = field.get(loaded.catalog.get(id)) else {
                    continue;
                };
                let stat = Stat {
                    type_id: t.clone(),
                    field,
                };
                let mut steps = [None, None];
                for (k, d) in [-1i64, 1].into_iter().enumerate() {
                    if let Ok(c) = with_stat(&loaded.catalog, &stat, now + d) {
                        steps[k] = Some(variants.len());
                        variants.push(Variant::of(format!("{t}.{field} = {}", now + d), c));
                    }
                }
                stats.push((format!("{t}.{field}"), now, steps));
            }
        }
        Asked {
            stat: None,
            stats,
            ..Asked::values(String::new(), Vec::new(), &side_id, target, runs, seed)
        }
    };
    interrupt::install();
    // One bar for the whole tuning: a step per batch of `runs` games.
    let bar = batch::progress_bar(
        variants.len() as u64,
        &format!("batches of {runs} games"),
        !quiet,
    );
    let mut parts = Vec::new();
    for Variant {
        label,
        scenario,
        catalog,
    } in &variants
    {
        let scenario = scenario.as_ref().unwrap_or(&loaded.scenario);
        let mut summary = batch::summary_of(scenario, catalog, &opts)?;
        batch::identify(&mut summary, &loaded.hashes, scenario, &opts);
        bar.inc(1);
        // A signal: the batches played whole are kept and shown.
        if !summary.complete {
            break;
        }
        parts.push(crate::shards::Part {
            label: label.clone(),
            summary,
            tally: None,
        });
    }
    bar.finish_and_clear();
    let complete = parts.len() == variants.len();
    if let Some(shard) = shard {
        let file = crate::shards::Shards::new("tune", serde_json::to_value(&asked)?, shard, parts);
        outln!("{}", serde_json::to_string_pretty(&file)?);
        return Ok(interrupt::status(complete));
    }
    if !complete {
        errln!(
            "{}: {} of {} batches played; the table shows those",
            interrupt::interrupted(),
            parts.len(),
            variants.len()
        );
    }
    let plotted = report(&asked, &parts, json, complete)?;
    // The table is out first: a plot that fails to write loses nothing computed.
    if let (Some(out), Some(points)) = (&plot, plotted) {
        let best = nearest(&points, target);
        let svg = plot::tune(&plot::Tune {
            stat: asked.stat.as_deref().unwrap_or_default(),
            side: &side_id,
            target,
            runs,
            points: &points,
            best,
        })?;
        crate::output::write_svg_as(&svg, out)?;
    }
    Ok(interrupt::status(complete))
}

/// One batch of a tuning: the scenario (`None`: as loaded) and the catalog it plays with.
struct Variant {
    label: String,
    scenario: Option<model::Scenario>,
    catalog: Catalog,
}

impl Variant {
    /// The loaded scenario with another catalog.
    fn of(label: String, catalog: Catalog) -> Self {
        Self {
            label,
            scenario: None,
            catalog,
        }
    }
}

/// What `--vary` varies.
enum Knob {
    /// A stat of a unit type, over these values.
    Stat(Stat, Vec<i64>),
    /// The turn limit, over these values.
    Turns(Vec<i64>),
    /// Each of `balance`'s changes of a kind (`first`, `objectives`, `arrivals`, `units`).
    Changes(Vec<Step>),
}

/// What a tuning was asked, for its report and its shards.
#[derive(serde::Serialize, serde::Deserialize)]
struct Asked {
    /// The number varied (`--vary TYPE.FIELD` or `turns`), or none.
    stat: Option<String>,
    /// Its values, a batch each.
    values: Vec<i64>,
    /// `--sensitivity`: each stat, its value, and which batches are a step down and up.
    stats: Vec<(String, i64, [Option<usize>; 2])>,
    /// `--vary first|objectives|arrivals|units`: each change, a batch each after the
    /// scenario as it stands.
    #[serde(default)]
    changes: Vec<String>,
    side: String,
    target: f64,
    runs: u64,
    seed: u64,
}

impl Asked {
    fn values(
        stat: String,
        values: Vec<i64>,
        side: &str,
        target: f64,
        runs: u64,
        seed: u64,
    ) -> Self {
        Self {
            stat: Some(stat),
            values,
            stats: Vec::new(),
            changes: Vec::new(),
            side: side.to_owned(),
            target,
            runs,
            seed,
        }
    }
}

/// The value whose win rate is nearest the target.
fn nearest(points: &[TunePoint], target: f64) -> Option<i64> {
    points
        .iter()
        .min_by(|a, b| {
            (a.win_rate - target)
                .abs()
                .total_cmp(&(b.win_rate - target).abs())
        })
        .map(|p| p.value)
}

/// The table (or JSON) of a tuning from its batches; for `--vary`, the points to plot.
fn report(
    asked: &Asked,
    parts: &[crate::shards::Part],
    json: bool,
    complete: bool,
) -> anyhow::Result<Option<Vec<TunePoint>>> {
    let rate = |p: &crate::shards::Part| {
        p.summary
            .sides
            .iter()
            .find(|s| s.id == asked.side)
            .cloned()
            .unwrap_or_default()
    };
    let (side_id, runs, seed, target) = (&asked.side, asked.runs, asked.seed, asked.target);
    if let Some(stat) = &asked.stat {
        let rows: Vec<(i64, stats::SideStats)> = asked
            .values
            .iter()
            .zip(parts)
            .map(|(v, p)| (*v, rate(p)))
            .collect();
        let points: Vec<TunePoint> = rows
            .iter()
            .map(|(v, s)| TunePoint {
                value: *v,
                win_rate: s.win_rate,
                ci95: s.ci95,
            })
            .collect();
        let best = nearest(&points, target);
        if json {
            let values: Vec<serde_json::Value> = rows
                .iter()
                .map(|(v, s)| serde_json::json!({"value": v, "wins": s.wins, "win_rate": s.win_rate, "ci95": s.ci95}))
                .collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "stat": stat,
                    "side": side_id, "target": target, "runs": runs, "seed": seed,
                    "values": values, "best": best,
                    "values_asked": asked.values.len(), "complete": complete,
                }))?
            );
        } else {
            outln!(
                "{stat}: win rate of {side_id} over {runs} game{} per value (same seeds for every value)\n",
                if runs == 1 { "" } else { "s" }
            );
            outln!("{:>6}  {:>9}  95% CI (Wilson)", "VALUE", "WIN RATE");
            for (v, s) in &rows {
                let mark = if Some(*v) == best {
                    "  <- nearest to the target"
                } else {
                    ""
                };
                outln!(
                    "{v:>6}  {:>8.1}%  [{:.1}%, {:.1}%]{mark}",
                    s.win_rate * 100.0,
                    s.ci95[0] * 100.0,
                    s.ci95[1] * 100.0
                );
            }
            if let Some(b) = best {
                outln!("\nnearest to {:.0}%: {stat} = {b}", target * 100.0);
            }
        }
        return Ok(Some(points));
    }
    let Some(base) = parts.first().map(rate) else {
        errln!(
            "{}: before the scenario as it stands was played",
            interrupt::interrupted()
        );
        return Ok(None);
    };
    if !asked.changes.is_empty() {
        report_changes(asked, parts, &base, json, complete, &rate)?;
        return Ok(None);
    }
    let delta = |k: Option<usize>| {
        k.and_then(|k| parts.get(k))
            .map_or(f64::NAN, |p| rate(p).win_rate - base.win_rate)
    };
    let mut rows: Vec<(String, i64, f64, f64)> = asked
        .stats
        .iter()
        // A stat whose steps were not all played (a signal) is left out.
        .filter(|(_, _, steps)| steps.iter().flatten().all(|&k| k < parts.len()))
        .map(|(name, now, [down, up])| (name.clone(), *now, delta(*down), delta(*up)))
        .collect();
    let size = |r: &(String, i64, f64, f64)| r.2.abs().max(r.3.abs()).max(0.0);
    rows.retain(|r| !(r.2.is_nan() && r.3.is_nan()));
    rows.sort_by(|a, b| size(b).total_cmp(&size(a)).then(a.0.cmp(&b.0)));
    if json {
        let list: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| serde_json::json!({"stat": r.0, "value": r.1, "down": if r.2.is_nan() { None } else { Some(r.2) }, "up": if r.3.is_nan() { None } else { Some(r.3) }}))
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(
                &serde_json::json!({"side": side_id, "runs": runs, "seed": seed, "base_win_rate": base.win_rate, "stats": list, "complete": complete})
            )?
        );
    } else {
        outln!(
            "win rate of {side_id}: {:.1}% over {runs} game{}; change in points for one step down / up:\n",
            base.win_rate * 100.0,
            if runs == 1 { "" } else { "s" }
        );
        outln!("{:<24} {:>5} {:>8} {:>8}", "STAT", "NOW", "-1", "+1");
        let cell = |d: f64| {
            if d.is_nan() {
                "-".to_owned()
            } else {
                format!("{:+.1}", d * 100.0)
            }
        };
        for r in &rows {
            outln!("{:<24} {:>5} {:>8} {:>8}", r.0, r.1, cell(r.2), cell(r.3));
        }
        outln!("\nOne step is one point of the stat; the same seeds are used for every run.");
    }
    Ok(None)
}

/// The table (or JSON) of `--vary first|objectives|arrivals|units`: the win rate with each
/// change, against the scenario as it stands (`parts[0]`), nearest the target first.
fn report_changes(
    asked: &Asked,
    parts: &[crate::shards::Part],
    base: &stats::SideStats,
    json: bool,
    complete: bool,
    rate: &dyn Fn(&crate::shards::Part) -> stats::SideStats,
) -> anyhow::Result<()> {
    let (side_id, runs, seed, target) = (&asked.side, asked.runs, asked.seed, asked.target);
    let mut rows: Vec<(&str, stats::SideStats)> = asked
        .changes
        .iter()
        .zip(parts.iter().skip(1))
        .map(|(c, p)| (c.as_str(), rate(p)))
        .collect();
    rows.sort_by(|a, b| {
        (a.1.win_rate - target)
            .abs()
            .total_cmp(&(b.1.win_rate - target).abs())
    });
    if json {
        let list: Vec<serde_json::Value> = rows
            .iter()
            .map(|(c, s)| serde_json::json!({"change": c, "wins": s.wins, "win_rate": s.win_rate, "ci95": s.ci95}))
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "side": side_id, "target": target, "runs": runs, "seed": seed,
                "as_it_stands": {"wins": base.wins, "win_rate": base.win_rate, "ci95": base.ci95},
                "changes": list, "changes_asked": asked.changes.len(), "complete": complete,
            }))?
        );
        return Ok(());
    }
    outln!(
        "win rate of {side_id} over {runs} game{} a change (same seeds for every change), nearest {:.0}% first\n",
        if runs == 1 { "" } else { "s" },
        target * 100.0
    );
    let width = rows
        .iter()
        .map(|r| r.0.chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    outln!(
        "{:<width$}  {:>9}  {:<16}  {:>7}",
        "CHANGE",
        "WIN RATE",
        "95% CI (Wilson)",
        "POINTS"
    );
    let line = |name: &str, s: &stats::SideStats, delta: String| {
        outln!(
            "{name:<width$}  {:>8.1}%  {:<16}  {delta:>7}",
            s.win_rate * 100.0,
            format!("[{:.1}%, {:.1}%]", s.ci95[0] * 100.0, s.ci95[1] * 100.0)
        );
    };
    line("as it stands", base, String::new());
    for (c, s) in &rows {
        line(
            c,
            s,
            format!("{:+.1}", (s.win_rate - base.win_rate) * 100.0),
        );
    }
    outln!(
        "\nPOINTS: the change of the win rate against the scenario as it stands; `hexwar balance` combines changes."
    );
    Ok(())
}

/// The report of a tuning merged from its shards (`hexwar merge`), as the single run's.
pub(crate) fn report_merged(
    shards: &crate::shards::Shards,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let asked: Asked = shards.asked()?;
    let complete = shards.complete() && shards.missing().is_empty();
    report(&asked, &shards.parts, json, complete)?;
    Ok(ExitCode::SUCCESS)
}

/// A stat to vary: `TYPE.FIELD`.
pub struct Stat {
    /// Unit type id.
    pub type_id: String,
    /// The field.
    pub field: Field,
}

/// How far either way of the scenario's value `--vary turns` or `TYPE.FIELD` goes without a
/// range.
const STEPS_WITHOUT_A_RANGE: i64 = 2;

/// What `--vary` varies in a tuning: a number's values (its range, or two steps either way of
/// the scenario's value), or each of `balance`'s changes of the knob's kind.
fn knob_of(text: &str, scenario: &model::Scenario, catalog: &Catalog) -> Result<Knob, BadInput> {
    let around = |now: i64, least: i64, most: i64| -> Vec<i64> {
        ((now - STEPS_WITHOUT_A_RANGE).max(least)..=(now + STEPS_WITHOUT_A_RANGE).min(most))
            .collect()
    };
    Ok(match vary::parse(text, scenario, catalog)? {
        vary::Knob::Turns(range) => Knob::Turns(range.map_or_else(
            || {
                around(
                    i64::from(scenario.turns),
                    1,
                    i64::from(model::scenario::MAX_TURNS),
                )
            },
            |r| r.values(),
        )),
        vary::Knob::Stat {
            type_id,
            field,
            range,
        } => {
            let values = match range {
                Some(r) => r.values(),
                None => {
                    let typ = catalog.id(&type_id).map(|id| catalog.get(id));
                    let now = typ.and_then(|t| field.get(t)).unwrap_or_default();
                    let r = field.range();
                    around(now, i64::from(*r.start()), i64::from(*r.end()))
                }
            };
            Knob::Stat(Stat { type_id, field }, values)
        }
        knob => {
            let bounds = change::Bounds {
                max_step: STEPS_WITHOUT_A_RANGE,
            };
            let kind = knob.kind();
            let steps = change::single_steps(scenario, catalog, &bounds, &|f, _| f.kind() == kind);
            if steps.is_empty() {
                return Err(BadInput(format!(
                    "--vary `{}`: this scenario has no {kind} to change",
                    model::shown(text)
                )));
            }
            Knob::Changes(steps)
        }
    })
}

/// A catalog with one stat changed.
fn with_stat(catalog: &Catalog, stat: &Stat, v: i64) -> Result<Catalog, String> {
    let mut c = catalog.clone();
    let id = c
        .id(&stat.type_id)
        .ok_or_else(|| format!("unknown unit type `{}`", stat.type_id))?;
    stat.field.set(c.get_mut(id), v)?;
    Ok(c)
}
