//! `hexwar diff A.toml B.toml`: what changed between two versions of a scenario (its knobs,
//! sides, units, objectives, orders, the stats its units play with, its expectations), and with
//! `--runs N` what the change did to every measure, on the same games of each (common random
//! numbers: game i has the same dice in both), each difference with its paired 95% interval.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;

use model::{Arrival, Catalog, Location, Scenario, Stat};
use stats::GameRecord;
use stats::heat::Heat;

use crate::batch;
use crate::data::{Loaded, load_scenario};
use crate::test::describe;
use crate::{AiOverride, options};

/// The arguments of `hexwar diff`.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The scenario before.
    a: PathBuf,
    /// The scenario after.
    b: PathBuf,
    /// Also play this many games of each (the same seeds) and show what the change did to
    /// every measure.
    #[arg(long)]
    runs: Option<u64>,
    /// Batch seed of those games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The AI of a side in both (repeatable); otherwise each plays with its `[expect] ai`, else
    /// its sides' own.
    #[arg(long, value_name = "SIDE=KIND[:SETTING]", value_parser = AiOverride::parse)]
    ai: Vec<AiOverride>,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print JSON: the changes, and with --runs each measure before and after with the
    /// difference and its paired interval.
    #[arg(long)]
    json: bool,
    /// With --runs, also draw where each version's games went, one above the other (as
    /// `hexwar batch --heatmap` draws one): `NAME.svg` or `NAME.png`.
    #[arg(long, value_name = "FILE", requires = "runs")]
    heatmap: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// One line of the difference: what, before, after (`None`: not there).
#[derive(serde::Serialize)]
struct Change {
    what: String,
    before: Option<String>,
    after: Option<String>,
}

fn changes(a: &Loaded, b: &Loaded) -> Vec<Change> {
    let mut out = Vec::new();
    let mut one = |what: &str, x: Option<String>, y: Option<String>| {
        if x != y {
            out.push(Change {
                what: what.to_owned(),
                before: x,
                after: y,
            });
        }
    };
    let (sa, sb) = (&a.scenario, &b.scenario);
    let side = |s: &Scenario, x: model::Side| s.sides[x.index()].id.clone();
    one("title", Some(sa.title.clone()), Some(sb.title.clone()));
    one(
        "turns",
        Some(sa.turns.to_string()),
        Some(sb.turns.to_string()),
    );
    one("first", Some(side(sa, sa.first)), Some(side(sb, sb.first)));
    one(
        "recon_first",
        Some(side(sa, sa.recon_first)),
        Some(side(sb, sb.recon_first)),
    );
    one(
        "time_of_day",
        Some(format!("{:?}", sa.time_of_day).to_lowercase()),
        Some(format!("{:?}", sb.time_of_day).to_lowercase()),
    );
    one(
        "fair_fight",
        Some(sa.fair_fight.to_string()),
        Some(sb.fair_fight.to_string()),
    );
    one(
        "rules",
        Some(format!("{:?}", sa.rules)),
        Some(format!("{:?}", sb.rules)),
    );
    for i in 0..2 {
        let show = |s: &Scenario| {
            let x = &s.sides[i];
            format!(
                "{} ({:?}, motivation {}, ai {}, assault threshold {}, air {:?})",
                x.id, x.role, x.motivation, x.ai.text, x.assault_threshold, x.air_sorties
            )
        };
        one(&format!("side {}", i + 1), Some(show(sa)), Some(show(sb)));
    }
    let map = |s: &Scenario| {
        s.map
            .hexes()
            .map(|h| s.map.terrain(h).map(|t| t.id.clone()))
            .collect::<Vec<_>>()
    };
    if (sa.map.cols(), sa.map.rows()) != (sb.map.cols(), sb.map.rows()) {
        one(
            "map",
            Some(format!("{} x {}", sa.map.cols(), sa.map.rows())),
            Some(format!("{} x {}", sb.map.cols(), sb.map.rows())),
        );
    } else {
        let differ = map(sa)
            .iter()
            .zip(map(sb))
            .filter(|(x, y)| **x != *y)
            .count();
        if differ > 0 {
            one(
                "map",
                Some("as it was".to_owned()),
                Some(format!("{differ} hexes of other terrain")),
            );
        }
    }
    // Keyed lists: objectives by hex, units and types' stats by id, orders and expectations
    // by their words.
    let mut keyed = |what: &str, x: Vec<(String, String)>, y: Vec<(String, String)>| {
        let keys: BTreeSet<&String> = x.iter().chain(&y).map(|(k, _)| k).collect();
        for k in keys {
            let find = |v: &[(String, String)]| v.iter().find(|(q, _)| q == k).map(|p| p.1.clone());
            one(&format!("{what} {k}"), find(&x), find(&y));
        }
    };
    let objectives = |s: &Scenario| {
        s.objectives
            .iter()
            .map(|o| (s.map.label(o.hex).to_string(), o.name.clone()))
            .collect()
    };
    keyed("objective", objectives(sa), objectives(sb));
    let units = |l: &Loaded| {
        let s = &l.scenario;
        s.units
            .iter()
            .enumerate()
            .map(|(i, u)| (s.unit_names[i].clone(), unit_line(s, &l.catalog, i, u)))
            .collect()
    };
    keyed("unit", units(a), units(b));
    let stats = |l: &Loaded| {
        let mut v = Vec::new();
        for (_, t) in l.catalog.iter() {
            for stat in Stat::ALL {
                let own = l
                    .scenario
                    .types
                    .iter()
                    .any(|o| o.type_id == t.id && o.stat == stat);
                if let Some(x) = stat.get(t) {
                    let whose = if own { " (the scenario's own)" } else { "" };
                    v.push((format!("{}.{stat}", t.id), format!("{x}{whose}")));
                }
            }
        }
        v
    };
    keyed("stat", stats(a), stats(b));
    let orders = |s: &Scenario| {
        s.orders
            .iter()
            .map(|o| {
                let text = format!(
                    "turn {}: {}",
                    o.turn,
                    model::order_text(s, o.unit, &o.action)
                );
                (text.clone(), "given".to_owned())
            })
            .collect()
    };
    keyed("order", orders(sa), orders(sb));
    let expect = |s: &Scenario| {
        s.expect
            .iter()
            .flat_map(|e| {
                let mut v: Vec<(String, String)> = e
                    .items
                    .iter()
                    .map(|x| {
                        (
                            describe(&x.measure, s),
                            format!("{}..{}", x.between[0], x.between[1]),
                        )
                    })
                    .collect();
                v.push(("runs".to_owned(), e.runs.to_string()));
                v.push(("seed".to_owned(), e.seed.to_string()));
                for (side, ai) in &e.ai {
                    v.push((
                        format!("ai of {}", s.sides[side.index()].id),
                        ai.text.clone(),
                    ));
                }
                v
            })
            .collect()
    };
    keyed("expect", expect(sa), expect(sb));
    out
}

/// A unit as the diff shows it: type, side, where it starts, its state.
fn unit_line(s: &Scenario, catalog: &Catalog, i: usize, u: &model::Unit) -> String {
    let place = match (&s.arrivals[i], u.location) {
        (Arrival::Reserve { turn, .. }, _) => format!("reserve, turn {turn}"),
        (Arrival::Ambush { .. }, _) => "in ambush".to_owned(),
        (_, Location::Aboard(t)) => format!("aboard {}", s.unit_names[t.index()]),
        (_, Location::Map(h)) => format!("at {}", s.map.label(h)),
        (_, other) => format!("{other:?}"),
    };
    let st = u.state;
    let flags: Vec<&str> = [
        (st.weakened, "weakened"),
        (st.disorganized, "disorganized"),
        (st.pinned, "pinned"),
        (st.gone_to_ground, "gone to ground"),
    ]
    .into_iter()
    .filter_map(|(on, w)| on.then_some(w))
    .collect();
    let mut line = format!(
        "{}, {}, {place}",
        catalog.get(u.type_id).id,
        s.sides[u.side.index()].id
    );
    if !flags.is_empty() {
        line.push_str(", ");
        line.push_str(&flags.join(", "));
    }
    line
}

/// A measure before and after, and the paired difference with its 95% interval.
#[derive(serde::Serialize)]
struct Moved {
    measure: String,
    before: f64,
    after: f64,
    difference: f64,
    ci95: [f64; 2],
}

/// The measures of a game, as numbers a game (shares as 0 or 1).
fn per_game(r: &GameRecord, sides: &[String; 2]) -> [f64; 7] {
    let won = |id: &str| f64::from(u8::from(r.winner == id));
    [
        won(&sides[0]),
        won(&sides[1]),
        won("none"),
        won(&sides[0]) - won(&sides[1]),
        f64::from(u8::from(r.end != "turn_limit")),
        f64::from(r.turns),
        f64::from(r.lead_changes),
    ]
}

fn measures(
    a: &[GameRecord],
    b: &[GameRecord],
    sides: &[String; 2],
    other: &[String; 2],
) -> Vec<Moved> {
    let names = [
        format!("win rate of {}", sides[0]),
        format!("win rate of {}", sides[1]),
        "both lose".to_owned(),
        "gap between the win rates".to_owned(),
        "decisiveness".to_owned(),
        "game length (turns)".to_owned(),
        "lead changes a game".to_owned(),
    ];
    let n = a.len().min(b.len());
    let mut sums = [[0.0_f64; 4]; 7];
    for (x, y) in a.iter().zip(b).take(n) {
        let (x, y) = (per_game(x, sides), per_game(y, other));
        for k in 0..7 {
            let d = y[k] - x[k];
            sums[k][0] += x[k];
            sums[k][1] += y[k];
            sums[k][2] += d;
            sums[k][3] += d * d;
        }
    }
    let nf = n.max(1) as f64;
    names
        .into_iter()
        .zip(sums)
        .map(|(measure, [sa, sb, d, dd])| {
            let (difference, _, ci95) = stats::mean_interval(d, dd, n as u64);
            Moved {
                measure,
                before: sa / nf,
                after: sb / nf,
                difference,
                ci95,
            }
        })
        .collect()
}

/// The games of one scenario, with its `[expect]` AIs, then `--ai`.
fn play(
    l: &mut Loaded,
    ai: &[AiOverride],
    opts: &batch::Options,
) -> anyhow::Result<(Vec<GameRecord>, Heat, bool)> {
    if let Some(e) = l.scenario.expect.clone() {
        for (side, ai) in &e.ai {
            l.scenario.sides[side.index()].ai = model::AiName::new(ai.text.clone());
        }
    }
    options::override_ai(&mut l.scenario, ai)?;
    let mut records = Vec::new();
    let mut heat = Heat::new(&l.scenario);
    let complete = batch::play_chunks(&l.scenario, &l.catalog, opts, |r| {
        for mut record in r {
            if let Some(m) = record.marks.take() {
                heat.add(&m);
            }
            records.push(record);
        }
        Ok(())
    })?;
    Ok((records, heat, complete))
}

/// The most games `diff --runs` plays of each version (their records are kept to pair them).
pub const MAX_DIFF_RUNS: u64 = 10_000_000;

/// Runs `hexwar diff`.
pub fn run(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    if let Some(n) = args.runs {
        batch::check_runs_threads(n, args.threads)?;
        if n > MAX_DIFF_RUNS {
            return Err(crate::BadInput(format!(
                "--runs: at most {MAX_DIFF_RUNS} games of each version"
            ))
            .into());
        }
    }
    if let Some(p) = &args.heatmap {
        crate::output::picture_format(p)?;
    }
    let mut a = load_scenario(&args.a, None)?;
    let mut b = load_scenario(&args.b, None)?;
    let heatmap_out = match &args.heatmap {
        Some(p) => {
            let read: Vec<PathBuf> = a.files.iter().chain(&b.files).cloned().collect();
            Some(crate::output::Output::check(p, "--heatmap", &read)?)
        }
        None => None,
    };
    let list = changes(&a, &b);
    let (an, bn) = (args.a.display().to_string(), args.b.display().to_string());
    let mut moved = None;
    let mut complete = true;
    if let Some(runs) = args.runs {
        crate::interrupt::install();
        let opts = batch::Options {
            runs,
            seed: args.seed,
            threads: args.threads,
            shard: batch::Shard::ALL,
            progress: !args.quiet,
            first_mover: false,
            watch: heatmap_out.is_some(),
        };
        let (ra, ha, ca) = play(&mut a, &args.ai, &opts)?;
        let (rb, hb, cb) = if ca {
            play(&mut b, &args.ai, &opts)?
        } else {
            (Vec::new(), Heat::new(&b.scenario), false)
        };
        complete = ca && cb;
        if complete && let Some(out) = &heatmap_out {
            batch::draw_heatmap(
                &[
                    (format!("before ({an})"), &a.scenario, &ha),
                    (format!("after ({bn})"), &b.scenario, &hb),
                ],
                out,
            )?;
        }
        let ids = |l: &Loaded| l.scenario.sides.clone().map(|s| s.id);
        moved = Some((
            measures(&ra, &rb, &ids(&a), &ids(&b)),
            ra.len().min(rb.len()),
        ));
    }
    if args.json {
        let (ms, games) = moved.map_or((None, 0), |(m, g)| (Some(m), g));
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "before": an,
                "after": bn,
                "changes": list,
                "runs": args.runs,
                "seed": args.seed,
                "games": games,
                "complete": complete,
                "measures": ms,
            }))?
        );
    } else {
        outln!("{an} -> {bn}:");
        if list.is_empty() {
            outln!("  no difference in what the games play");
        }
        for c in &list {
            match (&c.before, &c.after) {
                (Some(x), Some(y)) => outln!("  ~ {}: {x} -> {y}", c.what),
                (None, Some(y)) => outln!("  + {}: {y}", c.what),
                (Some(x), None) => outln!("  - {}: {x}", c.what),
                (None, None) => {}
            }
        }
        if let Some((ms, games)) = &moved {
            let s = |x: f64, share: bool| {
                if share {
                    format!("{:.1}%", x * 100.0)
                } else {
                    format!("{x:.2}")
                }
            };
            outln!(
                "\n{games} games of each (seed {}, game i on the same dice in both); the difference after - before with its paired 95% interval:",
                args.seed
            );
            outln!(
                "  {:<28} {:>8} {:>8} {:>9}  95% CI",
                "MEASURE",
                "BEFORE",
                "AFTER",
                "CHANGE"
            );
            for m in ms {
                let share = !m.measure.starts_with("game length")
                    && !m.measure.starts_with("lead")
                    && !m.measure.starts_with("gap");
                outln!(
                    "  {:<28} {:>8} {:>8} {:>9}  [{}, {}]{}",
                    m.measure,
                    s(m.before, share),
                    s(m.after, share),
                    s(m.difference, share),
                    s(m.ci95[0], share),
                    s(m.ci95[1], share),
                    if m.ci95[0] > 0.0 || m.ci95[1] < 0.0 {
                        ""
                    } else {
                        "  (no change shown)"
                    }
                );
            }
        }
    }
    if !complete {
        errln!(
            "{}: the measures are of the games played",
            crate::interrupt::interrupted()
        );
        return Ok(crate::interrupt::status(false));
    }
    Ok(ExitCode::SUCCESS)
}
