//! `hexwar tune`: vary a unit stat and find where a scenario is balanced, with the same seeds for
//! every value (common random numbers), or rank which stats move the win rate most. The stats
//! that can vary are the [`model::Stat`]s.

use std::path::PathBuf;
use std::process::ExitCode;

use model::Catalog;
use model::Stat as Field;

use present::picture::plot::{self, TunePoint};

use crate::PlayOptions;
use crate::batch;
use crate::data::{BadInput, load_scenario};
use crate::interrupt;

/// The arguments of `hexwar tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The scenario file.
    file: PathBuf,
    /// TYPE.FIELD=A..B[:STEP]; fields: assault, movement, save, armor, motivation, skill,
    /// `tank_assault`, leadership, fire.dice, fire.range.
    #[arg(
        long,
        value_name = "TYPE.FIELD=A..B[:STEP]",
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
    play.apply(&mut loaded.scenario)?;
    let side_index = match &side {
        None => loaded.scenario.attacker().index(),
        Some(id) => loaded
            .scenario
            .sides
            .iter()
            .position(|s| &s.id == id)
            .ok_or_else(|| {
                BadInput(format!(
                    "--side `{id}`: the sides are `{}` and `{}`",
                    loaded.scenario.sides[0].id, loaded.scenario.sides[1].id
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
    };
    // The batches to play: each value of the stat, or the scenario as it stands and each
    // stat a step down and up.
    let side_id = loaded.scenario.sides[side_index].id.clone();
    let mut variants: Vec<(String, Catalog)> = Vec::new();
    let asked = if let Some(text) = &vary {
        let (stat, values) = parse_vary(text, &loaded.catalog)?;
        // A type the scenario does not field would change nothing: say which it has.
        let mut types: Vec<String> = Vec::new();
        for u in &loaded.scenario.units {
            for t in std::iter::once(u.type_id).chain(loaded.catalog.dismounted(u.type_id)) {
                types.push(loaded.catalog.get(t).id.clone());
            }
        }
        types.sort();
        types.dedup();
        if !types.contains(&stat.type_id) {
            return Err(BadInput(format!(
                "--vary `{text}`: unit type `{}` is not in this scenario, so varying it changes nothing; its types are {}",
                stat.type_id,
                types.join(", ")
            ))
            .into());
        }
        let name = format!("{}.{}", stat.type_id, stat.field.name());
        for &v in &values {
            let c = with_stat(&loaded.catalog, &stat, v).map_err(BadInput)?;
            variants.push((format!("{name} = {v}"), c));
        }
        Asked {
            stat: Some(name),
            values,
            stats: Vec::new(),
            side: side_id.clone(),
            target,
            runs,
            seed,
        }
    } else {
        variants.push(("as it stands".to_owned(), loaded.catalog.clone()));
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
                        variants.push((format!("{t}.{field} = {}", now + d), c));
                    }
                }
                stats.push((format!("{t}.{field}"), now, steps));
            }
        }
        Asked {
            stat: None,
            values: Vec::new(),
            stats,
            side: side_id.clone(),
            target,
            runs,
            seed,
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
    for (label, catalog) in &variants {
        let mut summary = batch::summary_of(&loaded.scenario, catalog, &opts)?;
        batch::identify(&mut summary, &loaded.hashes, &loaded.scenario, &opts);
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

/// What a tuning was asked, for its report and its shards.
#[derive(serde::Serialize, serde::Deserialize)]
struct Asked {
    /// The stat varied (`--vary`), or none (`--sensitivity`).
    stat: Option<String>,
    /// Its values, a batch each.
    values: Vec<i64>,
    /// `--sensitivity`: each stat, its value, and which batches are a step down and up.
    stats: Vec<(String, i64, [Option<usize>; 2])>,
    side: String,
    target: f64,
    runs: u64,
    seed: u64,
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

/// The most values one `--vary` may name.
pub const MAX_VALUES: u64 = 1000;

/// Parses `TYPE.FIELD=A..B[:STEP]` against a catalog.
pub fn parse_vary(text: &str, catalog: &Catalog) -> Result<(Stat, Vec<i64>), BadInput> {
    let bad = |why: String| BadInput(format!("--vary `{text}`: {why}"));
    let (stat, range) = text
        .split_once('=')
        .ok_or_else(|| bad("expected TYPE.FIELD=A..B[:STEP], e.g. t72.assault=2..5".to_owned()))?;
    let (type_id, field) = stat
        .split_once('.')
        .ok_or_else(|| bad("expected TYPE.FIELD before `=`".to_owned()))?;
    let id = catalog.id(type_id).ok_or_else(|| {
        bad(format!(
            "unknown unit type `{type_id}` (see `hexwar units`)"
        ))
    })?;
    let field: Field = field.parse().map_err(bad)?;
    let (span, step) = match range.split_once(':') {
        Some((span, step)) => (
            span,
            step.parse::<usize>()
                .ok()
                .filter(|&s| s >= 1)
                .ok_or_else(|| bad(format!("bad step `{step}`: a whole number of at least 1")))?,
        ),
        None => (range, 1),
    };
    let (a, b) = span
        .split_once("..")
        .ok_or_else(|| bad("expected a range A..B".to_owned()))?;
    let (a, b): (i64, i64) = (
        a.parse().map_err(|_| bad(format!("bad number `{a}`")))?,
        b.parse().map_err(|_| bad(format!("bad number `{b}`")))?,
    );
    if a > b {
        return Err(bad("the range must run upwards".to_owned()));
    }
    // The ends first, before anything is allocated: a field's values run from its least to its
    // most, so a range whose ends it takes is small.
    let mut probe = catalog.get(id).clone();
    for v in [a, b] {
        field.set(&mut probe, v).map_err(bad)?;
    }
    let count = a.abs_diff(b) / u64::try_from(step).unwrap_or(u64::MAX) + 1;
    if count > MAX_VALUES {
        return Err(bad(format!(
            "{count} values: at most {MAX_VALUES} are tuned at once (use :STEP)"
        )));
    }
    let values: Vec<i64> = (a..=b).step_by(step).collect();
    for &v in &values {
        field.set(&mut probe, v).map_err(bad)?;
    }
    Ok((
        Stat {
            type_id: type_id.to_owned(),
            field,
        },
        values,
    ))
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
