//! `hexwar skill FILE`: the skill trace. Each side plays at rising strength (by default
//! random, `doctrine@1`, `doctrine`, then the search AI at rising budgets) against one fixed
//! opponent; each win rate comes with its interval, and the trace with the rank correlation
//! between strength and win rate (with its bootstrap interval) and the gap between the
//! strongest and the weakest. A scenario whose win rate skill moves by less than
//! [`DICE_GAME`] is a dice game.

use std::path::PathBuf;
use std::process::ExitCode;

use present::picture::plot;
use stats::wilson;

use crate::batch;
use crate::data::{BadInput, load_scenario};
use crate::interrupt;

/// Below this gap between the strongest and the weakest win rate, skill barely matters.
pub const DICE_GAME: f64 = 0.20;
/// The default ladder, weakest first.
pub const LADDER: [&str; 6] = [
    "random",
    "doctrine@1",
    "doctrine",
    "search:16",
    "search:64",
    "search:256",
];
/// Bootstrap draws of the rank correlation's interval.
const REPS: usize = 1000;

/// The arguments of `hexwar skill`.
#[derive(clap::Args)]
pub struct SkillArgs {
    /// The scenario file.
    file: PathBuf,
    /// The AIs a side plays as, weakest first, comma-separated (default: random,
    /// doctrine@1, doctrine, search:16, search:64, search:256).
    #[arg(long, value_delimiter = ',', value_name = "AI,AI,...")]
    ladder: Vec<String>,
    /// The fixed opponent.
    #[arg(long, default_value = "doctrine", value_name = "AI")]
    opponent: String,
    /// Trace only this side (default: both).
    #[arg(long, value_name = "SIDE")]
    side: Option<String>,
    /// Games a rung.
    #[arg(long, default_value_t = 200)]
    runs: u64,
    /// Batch seed (the same games for every rung).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print JSON: per side each rung's wins, win rate and interval, the rank correlation
    /// with its interval, the gap with its interval, and whether it is a dice game.
    #[arg(long)]
    json: bool,
    /// Also draw the trace: `NAME.svg` or `NAME.png`.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Play only games i with i mod N == I of each rung, and print (with --json) the shard's
    /// counts for `hexwar merge`, which adds the shards into the whole trace.
    #[arg(long, value_name = "I/N", value_parser = batch::Shard::parse, requires = "json")]
    shard: Option<batch::Shard>,
}

/// What a skill trace was asked, for its report and its shards.
#[derive(serde::Serialize, serde::Deserialize)]
struct Asked {
    scenario: String,
    opponent: String,
    runs: u64,
    seed: u64,
    ladder: Vec<String>,
    /// The sides traced: id and role.
    sides: Vec<(String, String)>,
}

/// One rung of a side's trace.
#[derive(serde::Serialize)]
struct Rung {
    ai: String,
    wins: u64,
    games: u64,
    win_rate: f64,
    ci95: [f64; 2],
}

/// One side's trace.
#[derive(serde::Serialize)]
struct Trace {
    side: String,
    role: String,
    rungs: Vec<Rung>,
    spearman: f64,
    spearman_ci95: [f64; 2],
    gap: f64,
    gap_ci95: [f64; 2],
    dice_game: bool,
}

/// The strongest rung's win rate less the weakest's, with the normal interval of a difference
/// of two independent shares.
fn gap(weak: &Rung, strong: &Rung) -> (f64, [f64; 2]) {
    let var = |r: &Rung| r.win_rate * (1.0 - r.win_rate) / r.games.max(1) as f64;
    let d = strong.win_rate - weak.win_rate;
    let half = rating::Z95 * (var(weak) + var(strong)).sqrt();
    (d, [d - half, d + half])
}

/// Each side's trace from its rungs' batches, printed as text or JSON.
fn report(asked: &Asked, parts: &[crate::shards::Part], json: bool) -> anyhow::Result<Vec<Trace>> {
    let mut traces = Vec::new();
    let rungs_a_side = asked.ladder.len();
    for (k, (id, role)) in asked.sides.iter().enumerate() {
        let mine = parts
            .get(k * rungs_a_side..(k + 1) * rungs_a_side)
            .ok_or_else(|| {
                BadInput("a skill trace's shards hold fewer batches than its ladder".to_owned())
            })?;
        let rungs: Vec<Rung> = asked
            .ladder
            .iter()
            .zip(mine)
            .map(|(ai, p)| {
                let side = p.summary.sides.iter().find(|s| &s.id == id);
                let wins = side.map_or(0, |s| s.wins);
                let games = p.summary.runs;
                Rung {
                    ai: ai.clone(),
                    wins,
                    games,
                    win_rate: wins as f64 / games.max(1) as f64,
                    ci95: wilson(wins, games),
                }
            })
            .collect();
        let rates: Vec<f64> = rungs.iter().map(|r| r.win_rate).collect();
        let counts: Vec<(u64, u64)> = rungs.iter().map(|r| (r.wins, r.games)).collect();
        let mut rng = model::GameRng::for_game(asked.seed, k as u64);
        #[expect(clippy::cast_precision_loss, reason = "53 random bits")]
        let mut uniform = || (rng.next_seed() >> 11) as f64 / (1u64 << 53) as f64;
        let (g, g_ci) = gap(&rungs[0], &rungs[rungs.len() - 1]);
        traces.push(Trace {
            side: id.clone(),
            role: role.clone(),
            spearman: rating::spearman(&rates),
            spearman_ci95: rating::spearman_interval(&counts, REPS, &mut uniform),
            gap: g,
            gap_ci95: g_ci,
            dice_game: g < DICE_GAME,
            rungs,
        });
    }
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    let (opponent, runs, seed) = (&asked.opponent, asked.runs, asked.seed);
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "scenario": asked.scenario,
                "opponent": opponent,
                "runs": runs,
                "seed": seed,
                "dice_game_below": DICE_GAME,
                "sides": traces,
            }))?
        );
    } else {
        outln!(
            "{}: each side at rising strength against {opponent}, {runs} games a rung (seed {seed})",
            asked.scenario
        );
        for t in &traces {
            outln!("\n{} ({}):", t.side, t.role);
            outln!("  {:<14} {:>9}  95% CI (Wilson)", "AI", "WIN RATE");
            for r in &t.rungs {
                outln!(
                    "  {:<14} {:>9}  [{}, {}]",
                    r.ai,
                    pct(r.win_rate),
                    pct(r.ci95[0]),
                    pct(r.ci95[1])
                );
            }
            outln!(
                "  rank correlation of strength and win rate (Spearman): {:.2} [{:.2}, {:.2}]",
                t.spearman,
                t.spearman_ci95[0],
                t.spearman_ci95[1]
            );
            outln!(
                "  strongest - weakest: {:+.1} points [{:+.1}, {:+.1}]: {}",
                t.gap * 100.0,
                t.gap_ci95[0] * 100.0,
                t.gap_ci95[1] * 100.0,
                if t.dice_game {
                    format!(
                        "under {:.0} points, skill barely moves this side's results (a dice game)",
                        DICE_GAME * 100.0
                    )
                } else {
                    "skill moves this side's results".to_owned()
                }
            );
        }
    }
    Ok(traces)
}

/// The report of a skill trace merged from its shards (`hexwar merge`), as the single run's.
pub(crate) fn report_merged(
    shards: &crate::shards::Shards,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let asked: Asked = shards.asked()?;
    report(&asked, &shards.parts, json)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `hexwar skill`.
pub fn run(args: SkillArgs) -> anyhow::Result<ExitCode> {
    let SkillArgs {
        file,
        ladder,
        opponent,
        side,
        runs,
        seed,
        threads,
        json,
        plot: plot_path,
        quiet,
        shard,
    } = args;
    batch::check_runs_threads(runs, threads)?;
    let ladder: Vec<String> = if ladder.is_empty() {
        LADDER.iter().map(|s| (*s).to_owned()).collect()
    } else {
        ladder.iter().map(|s| s.trim().to_owned()).collect()
    };
    if ladder.len() < 2 {
        return Err(BadInput("--ladder needs two AIs at least, weakest first".to_owned()).into());
    }
    for ai in ladder.iter().chain(std::iter::once(&opponent)) {
        ai::check_name(ai).map_err(|e| BadInput(format!("AI `{}`: {e}", model::shown(ai))))?;
    }
    if let Some(p) = &plot_path {
        crate::output::picture_format(p)?;
    }
    let loaded = load_scenario(&file, None)?;
    let plot_out = match &plot_path {
        Some(p) => Some(crate::output::Output::check(p, "--plot", &loaded.files)?),
        None => None,
    };
    let sides: Vec<usize> = match &side {
        None => vec![0, 1],
        Some(id) => vec![
            loaded
                .scenario
                .sides
                .iter()
                .position(|s| &s.id == id)
                .ok_or_else(|| {
                    BadInput(format!(
                        "--side `{}`: the sides are `{}` and `{}`",
                        model::shown(id),
                        loaded.scenario.sides[0].id,
                        loaded.scenario.sides[1].id
                    ))
                })?,
        ],
    };
    interrupt::install();
    let shard_given = shard.is_some();
    let shard = shard.unwrap_or(batch::Shard::ALL);
    batch::check_shard(shard, runs)?;
    let opts = batch::Options {
        runs,
        seed,
        threads,
        shard,
        progress: !quiet,
        first_mover: false,
        watch: false,
    };
    let asked = Asked {
        scenario: loaded.scenario.title.clone(),
        opponent: opponent.clone(),
        runs,
        seed,
        ladder: ladder.clone(),
        sides: sides
            .iter()
            .map(|&s| {
                let info = &loaded.scenario.sides[s];
                (info.id.clone(), format!("{:?}", info.role).to_lowercase())
            })
            .collect(),
    };
    let mut parts = Vec::new();
    'sides: for &s in &sides {
        for ai in &ladder {
            let mut scenario = loaded.scenario.clone();
            scenario.sides[s].ai = model::AiName::new(ai.clone());
            scenario.sides[1 - s].ai = model::AiName::new(opponent.clone());
            let mut summary = batch::summary_of(&scenario, &loaded.catalog, &opts)?;
            batch::identify(&mut summary, &loaded.hashes, &scenario, &opts);
            let stopped = !summary.complete;
            parts.push(crate::shards::Part {
                label: format!("{} as {ai}", scenario.sides[s].id),
                summary,
                tally: None,
            });
            if stopped {
                break 'sides;
            }
        }
    }
    if parts.iter().any(|p| !p.summary.complete) {
        errln!(
            "{}: the trace is cut short; nothing shown",
            interrupt::interrupted()
        );
        return Ok(interrupt::status(false));
    }
    if shard_given {
        let file = crate::shards::Shards::new("skill", serde_json::to_value(&asked)?, shard, parts);
        outln!("{}", serde_json::to_string_pretty(&file)?);
        return Ok(ExitCode::SUCCESS);
    }
    let traces = report(&asked, &parts, json)?;
    if let Some(out) = &plot_out {
        let lines: Vec<plot::SkillLine<'_>> = traces
            .iter()
            .map(|t| plot::SkillLine {
                side: &t.side,
                points: t.rungs.iter().map(|r| (r.win_rate, r.ci95)).collect(),
            })
            .collect();
        let svg = plot::skill(&plot::Skill {
            scenario: &loaded.scenario.title,
            opponent: &opponent,
            runs,
            ladder: &ladder,
            lines: &lines,
        })?;
        crate::output::write_svg_as(&svg, out)?;
    }
    Ok(ExitCode::SUCCESS)
}
