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
    let opts = batch::Options {
        runs,
        seed,
        threads,
        shard: batch::Shard::ALL,
        progress: false,
    };
    interrupt::install();
    // One bar for the whole tuning: a step per batch of `runs` games.
    let bar = batch::progress_bar(0, &format!("batches of {runs} games"), !quiet);
    // `None` once the user interrupts: the values already played are kept and shown.
    let rate = |catalog: &model::Catalog| -> anyhow::Result<Option<game::SideStats>> {
        let summary = batch::summary_of(&loaded.scenario, catalog, &opts)?;
        bar.inc(1);
        Ok(summary.complete.then(|| summary.sides[side_index].clone()))
    };
    let side_id = loaded.scenario.sides[side_index].id.clone();
    let complete;
    if let Some(text) = vary {
        let (stat, values) = parse_vary(&text, &loaded.catalog)?;
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
        let mut rows = Vec::new();
        let asked = values.len();
        bar.set_length(asked as u64);
        for v in values {
            let c = with_stat(&loaded.catalog, &stat, v).map_err(BadInput)?;
            match rate(&c)? {
                Some(r) => rows.push((v, r)),
                None => break,
            }
        }
        bar.finish_and_clear();
        complete = rows.len() == asked;
        if !complete {
            errln!(
                "{}: {} of {asked} values played; the table and the nearest show those only",
                interrupt::interrupted(),
                rows.len()
            );
        }
        let best = rows
            .iter()
            .min_by(|a, b| {
                (a.1.win_rate - target)
                    .abs()
                    .total_cmp(&(b.1.win_rate - target).abs())
            })
            .map(|r| r.0);
        let mut plotted = None;
        if let Some(out) = &plot {
            let points: Vec<TunePoint> = rows
                .iter()
                .map(|(v, s)| TunePoint {
                    value: *v,
                    win_rate: s.win_rate,
                    ci95: s.ci95,
                })
                .collect();
            let stat_name = format!("{}.{}", stat.type_id, stat.field.name());
            let svg = plot::tune(&plot::Tune {
                stat: &stat_name,
                side: &side_id,
                target,
                runs,
                points: &points,
                best,
            })?;
            plotted = Some((svg, out));
        }
        if json {
            let values: Vec<serde_json::Value> = rows
                .iter()
                .map(|(v, s)| serde_json::json!({"value": v, "wins": s.wins, "win_rate": s.win_rate, "ci95": s.ci95}))
                .collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "stat": format!("{}.{}", stat.type_id, stat.field.name()),
                    "side": side_id, "target": target, "runs": runs, "seed": seed,
                    "values": values, "best": best,
                    "values_asked": asked, "complete": complete,
                }))?
            );
        } else {
            outln!(
                "{}.{}: win rate of {side_id} over {runs} game{} per value (same seeds for every value)\n",
                stat.type_id,
                stat.field,
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
                outln!(
                    "\nnearest to {:.0}%: {}.{} = {b}",
                    target * 100.0,
                    stat.type_id,
                    stat.field
                );
            }
        }
        // The table is out first: a plot that fails to write loses nothing computed.
        if let Some((svg, out)) = plotted {
            crate::output::write_svg_as(&svg, out)?;
        }
    } else {
        let Some(base) = rate(&loaded.catalog)? else {
            errln!(
                "{}: before the scenario as it stands was played",
                interrupt::interrupted()
            );
            return Ok(interrupt::status(false));
        };
        let mut interrupted = false;
        let mut types: Vec<String> = loaded
            .scenario
            .units
            .iter()
            .map(|u| loaded.catalog.get(u.type_id).id.clone())
            .collect();
        types.sort();
        types.dedup();
        let mut rows: Vec<(String, i64, i64, f64, f64)> = Vec::new();
        let stats = types
            .iter()
            .filter_map(|t| loaded.catalog.id(t))
            .map(|id| {
                Field::ALL
                    .iter()
                    .filter(|f| f.get(loaded.catalog.get(id)).is_some())
                    .count()
            })
            .sum::<usize>();
        bar.set_length(1 + 2 * stats as u64);
        'types: for t in &types {
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
                let mut deltas = [f64::NAN; 2];
                for (k, d) in [-1i64, 1].into_iter().enumerate() {
                    if let Ok(c) = with_stat(&loaded.catalog, &stat, now + d) {
                        let Some(r) = rate(&c)? else {
                            interrupted = true;
                            break 'types;
                        };
                        deltas[k] = r.win_rate - base.win_rate;
                    }
                }
                rows.push((format!("{t}.{field}"), now, 0, deltas[0], deltas[1]));
            }
        }
        bar.finish_and_clear();
        complete = !interrupted;
        if interrupted {
            errln!(
                "{}: {} stats ranked; the table shows those",
                interrupt::interrupted(),
                rows.len()
            );
        }
        let size = |r: &(String, i64, i64, f64, f64)| r.3.abs().max(r.4.abs()).max(0.0);
        rows.retain(|r| !(r.3.is_nan() && r.4.is_nan()));
        rows.sort_by(|a, b| size(b).total_cmp(&size(a)).then(a.0.cmp(&b.0)));
        if json {
            let list: Vec<serde_json::Value> = rows
                .iter()
                .map(|r| serde_json::json!({"stat": r.0, "value": r.1, "down": if r.3.is_nan() { None } else { Some(r.3) }, "up": if r.4.is_nan() { None } else { Some(r.4) }}))
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
                outln!("{:<24} {:>5} {:>8} {:>8}", r.0, r.1, cell(r.3), cell(r.4));
            }
            outln!("\nOne step is one point of the stat; the same seeds are used for every run.");
        }
    }
    Ok(interrupt::status(complete))
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
