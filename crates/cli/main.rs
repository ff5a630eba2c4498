//! The `hexwar` command line: a thin layer over the `hexmap` and `counters` crates.

#[macro_use]
mod stdout;
mod arena;
mod balance;
mod batch;
mod data;
mod interrupt;
mod odds;
mod output;
mod play;
mod render;
mod rules;
mod show;
mod tune;
mod units;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use data::{BadInput, CatalogDir, Texts, load_scenario};

/// A hex-and-counter operational wargame engine.
///
/// Scenarios are TOML files; unit catalogs and the terrain table live in `data/`.
#[derive(Parser)]
#[command(name = "hexwar", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How games are played: the rule and AI overrides `run`, `batch`, `tune` and `play` share.
#[derive(Clone, clap::Args)]
pub struct PlayOptions {
    /// Override the scenario's `counterattacks` rule (R11).
    #[arg(long, value_parser = ["on", "off"])]
    pub(crate) counterattacks: Option<String>,
    /// The AI of a side: SIDE=doctrine|doctrine@1|passive|random (`doctrine` the latest,
    /// `doctrine@1` the frozen reference), and for a doctrine AI the win probability above which
    /// it assaults: SIDE=doctrine:0.65 (repeatable).
    #[arg(long, value_name = "SIDE=KIND[:THRESHOLD]")]
    pub(crate) ai: Vec<String>,
}

impl PlayOptions {
    /// Applies the overrides to a loaded scenario.
    pub fn apply(&self, scenario: &mut counters::Scenario) -> Result<(), BadInput> {
        if let Some(c) = &self.counterattacks {
            scenario.rules.counterattacks = c == "on";
        }
        batch::override_ai(scenario, &self.ai)
    }
}

#[derive(Subcommand)]
enum Command {
    /// Validate scenario files and report every problem with file, line and column.
    ///
    /// Prints `FILE: ok` for each good file. Exit status 0 when all are good, 2 otherwise.
    #[command(after_help = "Example:\n  hexwar check scenarios/*.toml")]
    Check {
        /// Scenario files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Unit catalog folder (default: the scenario's `catalog`, else `data/units` above it).
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
    /// Draw a scenario's map in the terminal: labels, terrain, unit stacks, objectives, legend.
    #[command(after_help = "Example:\n  hexwar show scenarios/meeting_engagement.toml")]
    #[command(
        after_help = "Examples:\n  hexwar show scenarios/dawn_assault.toml\n  hexwar show scenarios/dawn_assault.toml --after 5 --seed 3"
    )]
    Show {
        /// The scenario file.
        file: PathBuf,
        /// Show the position after this many game turns of a game played by the AIs (with
        /// smoke marked `~`), instead of the start.
        #[arg(long, value_name = "TURNS")]
        after: Option<u32>,
        /// Seed for the dice of that game (the batch seed, as for `run`).
        #[arg(long, default_value_t = 1, requires = "after")]
        seed: u64,
        /// Game I of `hexwar batch --seed SEED`, as for `run`.
        #[arg(long, value_name = "I", default_value_t = 0, requires = "after")]
        game: u64,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
    /// Play a scenario to its end: orders where given, the AI elsewhere.
    ///
    /// Prints a narrative with every die, then the winner, how the battle ended, victory points
    /// and losses. The seed is always printed; the same seed gives the same game.
    #[command(
        after_help = "Examples:\n  hexwar run scenarios/dawn_assault.toml --seed 7\n  hexwar run scenarios/meeting_engagement.toml --json > game.jsonl"
    )]
    Run {
        /// The scenario file (not needed with --resume).
        #[arg(required_unless_present = "resume")]
        file: Option<PathBuf>,
        /// Seed for the dice: with --game, the batch seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play game I of `hexwar batch --seed SEED` (the `game` column of its CSV): the same
        /// dice, the same game.
        #[arg(long, value_name = "I", default_value_t = 0)]
        game: u64,
        /// Play at most this many game turns (default: the scenario's limit).
        #[arg(long)]
        turns: Option<u32>,
        /// JSON Lines: one event per line, the last line the result.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        play: PlayOptions,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
        /// Save the game (as `hexwar play` saves one), so that `hexwar replay` can check it.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
        /// Play on a game saved by `hexwar play`: its lines, then the AI for every side.
        #[arg(long, value_name = "SAVE", conflicts_with_all = ["seed", "game", "turns", "catalog"])]
        resume: Option<PathBuf>,
    },
    /// Exact odds of an assault (or an overrun) between two stacks, by dynamic programming.
    ///
    /// Units are catalog ids, comma-separated, each with optional states `:weakened` and
    /// `:disorganized`. HQ leadership goes to the attacking unit it helps most (R8.1).
    #[command(
        after_help = "Examples:\n  hexwar odds btr70,hq_mrr vs m2:disorganized\n  hexwar odds mr_coy vs t72 --terrain city --json\n  hexwar odds t72,t72,mr_coy,hq_mrr vs mech_inf,m2,tow_team,hq_tf --terrain city\n  hexwar odds t72 vs mech_inf --overrun"
    )]
    Odds {
        /// `ATTACKERS vs DEFENDERS`, e.g. `btr70,hq_mrr vs m2:disorganized`.
        #[arg(required = true, num_args = 1.., value_name = "ATTACKERS vs DEFENDERS")]
        matchup: Vec<String>,
        /// Terrain of the defended hex.
        #[arg(long, default_value = "clear")]
        terrain: String,
        /// An overrun by one vehicle (R10) instead of an assault.
        #[arg(long)]
        overrun: bool,
        /// Counterattacks (R11): `on` computes the whole melee, `off` the first round only.
        #[arg(long, default_value = "on", value_parser = ["off", "on"])]
        counterattacks: String,
        /// Who counterattacks in the melee: `doctrine` (the AI's choice: when the round would
        /// score a hit with p >= 0.5), `always` (every unit that may), `never` (every unit breaks
        /// off when it may); for both sides, or per side: `attacker=always,defender=never`.
        #[arg(long, default_value = "doctrine", value_name = "CHOICES")]
        choices: String,
        /// The whole melee exactly however long it takes (by default a fight of more than about
        /// 60,000 positions, a second or two of work, is sampled instead).
        #[arg(long)]
        exact: bool,
        /// Print JSON. With counterattacks (the default), the whole melee: `attacker_wins`,
        /// `defender_holds`, `both_broken`; `defenders_end` (held, destroyed, retreated,
        /// `broke_off`); `attacker_losses` and `defender_losses` (destroyed and weakened: each a
        /// distribution by number of units, and `destroyed_mean`, `weakened_mean`); units (per
        /// unit, or per line of units no rule tells apart: units, kind, side, and its chances:
        /// destroyed, captured, retreated, `broke_off`, stayed); exact, `error_bound`, states,
        /// samples, counterattacks, choices, and the first round under `first_round`. With `--counterattacks off`, the first round:
        /// `attacker_wins`, `defender_destroyed`, `defender_retreats`, `defender_holds`, `attacker_hits`,
        /// `defender_hits`, `attacker_hits_mean`, `defender_hits_mean`, exact, counterattacks. With
        /// `--overrun`: `all_break_through`, `defenders_destroyed`, `attacker_hits`, `defender_hits`,
        /// `attacker_hits_mean`, `defender_hits_mean`, exact.
        #[arg(long)]
        json: bool,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
    /// Play a scenario many times in parallel and summarize: win rates with Wilson 95%
    /// intervals, how battles ended, victory points, game length, losses per unit type, and when
    /// the attacker took each objective.
    ///
    /// Game i is seeded from (SEED, i), so the results are the same for any --threads and any
    /// split into --shard runs; `hexwar merge` adds shard summaries (--json) exactly.
    #[command(
        after_help = "Examples:\n  hexwar batch scenarios/dawn_assault.toml --runs 10000\n  hexwar batch scenarios/dawn_assault.toml --runs 10000 --shard 0/2 --json > a.json\n  hexwar batch scenarios/dawn_assault.toml --runs 10000 --shard 1/2 --json > b.json\n  hexwar merge a.json b.json"
    )]
    Batch {
        /// The scenario file.
        file: PathBuf,
        /// Games in the batch (all shards together).
        #[arg(long, default_value_t = 1000)]
        runs: u64,
        /// Batch seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Play only games i with i mod N == I.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
        /// Print the summary as JSON (counts included, for `hexwar merge`).
        #[arg(long)]
        json: bool,
        /// Also write one CSV row per game to this file.
        #[arg(long, value_name = "FILE")]
        csv: Option<PathBuf>,
        /// Also draw the batch: win rates with their intervals, how long the games last, units
        /// lost by type, and when each objective fell; as `NAME.svg` or `NAME.png`.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
        /// No progress bar.
        #[arg(long, short)]
        quiet: bool,
        #[command(flatten)]
        play: PlayOptions,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
    /// Measure the AIs' strength: named AIs play every pairing on every scenario in pairs of
    /// games (the same dice, the sides swapped), with scores and their 95% intervals, ratings
    /// on the Elo scale (`doctrine@1` = 0) and the matrix of head-to-head scores; or, with
    /// --sprt, a sequential test of whether one AI is stronger than another.
    Arena(arena::ArenaArgs),
    /// Merge batch or arena summaries (from `hexwar batch --json` or `hexwar arena --json`, e.g.
    /// one per shard) into one.
    #[command(after_help = "Example:\n  hexwar merge shard0.json shard1.json --json")]
    Merge {
        /// Summary files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print JSON rather than the table.
        #[arg(long)]
        json: bool,
        /// Merge an incomplete set: shards missing, or summaries of interrupted batches. The
        /// result is marked incomplete.
        #[arg(long)]
        partial: bool,
    },
    /// Vary a unit stat and find where a scenario is balanced, with the same seeds for every
    /// value (common random numbers); or rank which stats move the win rate most.
    #[command(
        after_help = "Examples:\n  hexwar tune scenarios/dawn_assault.toml --vary t72.assault=1..5 --runs 2000\n  hexwar tune scenarios/dawn_assault.toml --vary m1.fire.dice=2..5 --side nato --target 0.5\n  hexwar tune scenarios/meeting_engagement.toml --sensitivity --runs 400"
    )]
    Tune(tune::TuneArgs),
    /// Command a side yourself, a phase at a time, at a prompt or from a script on standard
    /// input; the AI plays the other side as in `run`. `save FILE` at the prompt saves the game.
    #[command(
        after_help = "Examples:\n  hexwar play scenarios/meeting_engagement.toml --side soviet\n  hexwar play scenarios/night_recon.toml --hotseat --seed 7\n  hexwar play --resume game.toml\n  printf 'end\\nmove bmp_4 0404\\nend\\n' | hexwar play scenarios/meeting_engagement.toml --side soviet\n\nType `help` at the prompt for the commands: the grammar of scenario orders\n(move UNIT HEX... or move UNIT DESTINATION, assault HEX with UNIT..., fire UNIT at UNIT, ...),\nand end, undo, status, odds assault|overrun ..., legal UNIT, map [UNIT], units, log, rules ID,\nsave FILE, quit. A script gives one line per prompt: the first `end` above is the recon\ndeployment (R15.4)."
    )]
    Play(play::PlayArgs),
    /// Draw the map and its counters as a picture: SVG, or PNG. Flat-topped hexes labelled CCRR
    /// (R0.4), terrain by colour and pattern, elevation, objectives, smoke, and a counter per
    /// unit with its NATO symbol, id and state; a legend beside the map.
    #[command(
        after_help = "Examples:\n  hexwar render scenarios/dawn_assault.toml -o dawn.png\n  hexwar render scenarios/dawn_assault.toml --after 4 --seed 3 -o turn4.svg\n  hexwar render --save game.toml --turn 2 -o game.png"
    )]
    Render(render::RenderArgs),
    /// Tell a saved game (`hexwar play`, `save FILE`) from its start, checking each player
    /// turn's position against the save: a file edited by hand, a changed scenario or catalog,
    /// or a hexwar that plays differently is reported where it diverges (exit 2).
    ///
    /// With --html, write a replay page instead: one self-contained HTML file (no network)
    /// that steps through the game with the map, fire lines and assault arrows, the dice and the
    /// narrative. Arrow keys step, Page Down jumps a turn, Home and End go to the ends.
    #[command(
        after_help = "Examples:\n  hexwar replay game.toml\n  hexwar replay game.toml --html game.html\n  hexwar replay --seed 1 scenarios/night_recon.toml --html night.html"
    )]
    Replay(play::ReplayArgs),
    /// Check each scenario's balance expectations (`[expect]`): play its batch and report every
    /// expectation as PASS (the measured value's whole 95% interval lies in the expected range),
    /// FAIL (wholly outside it) or INCONCLUSIVE (across an end of it, with about how many games
    /// would settle it).
    #[command(
        after_help = "Examples:\n  hexwar test scenarios/\n  hexwar test scenarios/dawn_assault.toml --runs 5000 --junit balance.xml\n\nExit status: 0 when no expectation fails; 1 when one fails (or, with --strict, when one is\ninconclusive: by default an inconclusive expectation is reported but does not fail the run,\nsince more games, not a change, would settle it); 2 for bad input (a broken scenario, no\n[expect] anywhere, a report that cannot be written).\n\nThe games are those of `hexwar batch FILE --runs N --seed S` with the runs, seed and AIs of\nthe file's [expect] (`ai = { soviet = \"doctrine@1\" }`; --runs and --ai override them): the\nsame numbers for any --threads."
    )]
    Test {
        /// Scenario files, or folders whose `*.toml` files are scenarios.
        #[arg(required = true, value_name = "FILE|DIR")]
        paths: Vec<PathBuf>,
        /// Games per scenario (default: each file's `[expect] runs`, else 1000).
        #[arg(long)]
        runs: Option<u64>,
        /// Worker threads (0: one per core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
        /// Write a `JUnit` XML report here (one test case per expectation).
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
        /// Inconclusive expectations fail the run too.
        #[arg(long)]
        strict: bool,
        /// Print JSON: per scenario its file, title, runs, seed and findings (each with its
        /// expectation, value, ci95, verdict and `games_to_settle`), and the counts.
        #[arg(long)]
        json: bool,
        /// No progress bar.
        #[arg(short, long)]
        quiet: bool,
        #[command(flatten)]
        play: PlayOptions,
    },
    /// Read the rulebook: the sections, one rule with hexwar's decisions, or every rule that
    /// mentions a word. The rulebook is `docs/rules.md`, built into the binary.
    #[command(
        after_help = "Examples:\n  hexwar rules            # the sections\n  hexwar rules R9.4       # one rule and the decisions that complete it\n  hexwar rules R11        # a whole section\n  hexwar rules overrun    # every rule that mentions a word\n\nAn id or section the rulebook does not have, or a word no rule mentions, exits 2."
    )]
    Rules {
        /// A rule id (`R9.4`), a section (`R9`), or a word (`overrun`).
        query: Option<String>,
    },
    /// List the unit catalog as a table, or as JSON with every stat.
    #[command(after_help = "Examples:\n  hexwar units\n  hexwar units --json --catalog my_units/")]
    Units {
        /// Print a JSON array of objects (absent values are null).
        #[arg(long)]
        json: bool,
        /// Unit catalog folder (default: `data/units` in this folder or above, else built in).
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
}

/// The rule switches and AI settings of a scenario as played, for a batch summary's identity.
fn settings(s: &counters::Scenario) -> String {
    let r = &s.rules;
    let mut out = format!(
        "stacking_limit={} counterattacks={} tank_assault={}",
        r.stacking_limit, r.counterattacks, r.tank_assault
    );
    for side in &s.sides {
        out.push_str(&format!(
            " {}={:?}:{}",
            side.id, side.ai, side.assault_threshold
        ));
    }
    out
}

fn main() -> ExitCode {
    // Output piped into `head` and closed early ends hexwar quietly, as it does `cat`: SIGPIPE
    // stays ignored (Rust's default), and the broken pipe is met in `stdout`, which ends quietly.
    let cli = Cli::parse();
    if stdout::check_open().is_err() {
        errln!("hexwar: standard output is closed: nothing could be shown");
        return ExitCode::from(2);
    }
    let done = run(cli);
    stdout::finish();
    match done {
        Ok(code) => code,
        // A file written through a pipe that was closed (`--csv >(head)`): quietly, as stdout.
        Err(e)
            if e.chain().any(|c| {
                let pipe = |io: &std::io::Error| io.kind() == std::io::ErrorKind::BrokenPipe;
                c.downcast_ref::<std::io::Error>().is_some_and(pipe)
                    || c.downcast_ref::<csv::Error>()
                        .is_some_and(|e| matches!(e.kind(), csv::ErrorKind::Io(io) if pipe(io)))
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(e) => {
            errln!("{e:#}");
            if e.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check { files, catalog } => {
            let mut bad = false;
            for f in &files {
                match load_scenario(f, catalog.as_deref()) {
                    Ok(_) => outln!("{}: ok", f.display()),
                    Err(e) => {
                        bad = true;
                        errln!("{e}");
                    }
                }
            }
            Ok(if bad {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Show {
            file,
            after,
            seed,
            game,
            catalog,
        } => {
            let loaded = load_scenario(&file, catalog.as_deref())?;
            let position = match after {
                None => None,
                Some(0) => return Err(BadInput("--after must be at least 1".to_owned()).into()),
                Some(t) => {
                    let mut short = loaded.scenario.clone();
                    short.turns = short.turns.min(t);
                    let rules = counters::Rules::new(&short, &loaded.catalog);
                    // The same game as `hexwar run --seed S --game I --turns T`.
                    let (mut dice, ai_rng) = batch::game_dice(seed, game);
                    let (end, _) = counters::play_with(&rules, &mut dice, ai_rng)?;
                    Some(end)
                }
            };
            out!(
                "{}",
                show::render(&loaded.scenario, &loaded.catalog, position.as_ref())
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            file,
            seed,
            game,
            turns,
            json,
            play,
            catalog,
            save,
            resume,
        } => {
            if let Some(saved) = resume {
                return play::run_resumed(&saved, save.as_deref(), json);
            }
            let file = file.unwrap_or_default();
            let mut loaded = load_scenario(&file, catalog.as_deref())?;
            play.apply(&mut loaded.scenario)?;
            if let Some(t) = turns {
                if t == 0 {
                    return Err(BadInput("--turns must be at least 1".to_owned()).into());
                }
                loaded.scenario.turns = loaded.scenario.turns.min(t);
            }
            let rules = counters::Rules::new(&loaded.scenario, &loaded.catalog);
            if let Some(path) = save {
                let out = output::Output::check(&path, "--save", &loaded.files)?;
                let record = play::Record {
                    name: file.display().to_string(),
                    text: data::read_text(&file)?,
                    catalog_hash: loaded.hashes[1].clone(),
                    terrain_hash: loaded.hashes[2].clone(),
                    overrides: play.clone(),
                    turn_limit: turns,
                };
                return play::run_saving(rules, seed, game, record, &out, json);
            }
            // Game `game` of `hexwar batch --seed SEED`: any row of a batch can be replayed.
            let (mut dice, ai_rng) = batch::game_dice(seed, game);
            let (end, events) = counters::play_with(&rules, &mut dice, ai_rng)?;
            if json {
                use hexwar::events_json;
                outln!("{}", events_json::header(&rules, seed, game));
                for e in &events {
                    outln!("{}", events_json::event(&rules, e));
                }
                outln!("{}", events_json::result(&rules, end.outcome(), seed, game));
            } else {
                out!(
                    "{}",
                    hexwar::narrate::narrative(&rules, seed, game, &events, &end)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Odds {
            matchup,
            terrain,
            overrun,
            exact,
            counterattacks,
            choices,
            json,
            catalog,
        } => {
            let cwd = std::env::current_dir()?;
            let catalog =
                CatalogDir::resolve(catalog.as_deref(), &cwd).load(&mut Texts::default())?;
            let table = counters::bundled::terrain();
            let text = matchup.join(" ");
            let request = odds::Request {
                matchup: &text,
                terrain: &terrain,
                overrun,
                json,
                counterattacks: counterattacks == "on",
                choices: odds::parse_choices(&choices)?,
                exact,
            };
            outln!("{}", odds::run(&catalog, &table, &request)?.trim_end());
            Ok(ExitCode::SUCCESS)
        }
        Command::Batch {
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
        } => {
            if let Some(p) = &plot {
                render::picture_format(p)?;
            }
            batch::check_runs_threads(runs, threads)?;
            let shard = shard
                .as_deref()
                .map_or(Ok(batch::Shard::ALL), batch::Shard::parse)?;
            if shard.count > runs {
                return Err(BadInput(format!(
                    "--shard {}/{}: more shards than games (--runs {runs})",
                    shard.index, shard.count
                ))
                .into());
            }
            let mut loaded = load_scenario(&file, catalog.as_deref())?;
            play.apply(&mut loaded.scenario)?;
            let opts = batch::Options {
                runs,
                seed,
                threads,
                shard,
                progress: !quiet,
            };
            // Outputs are checked before the first game: nothing played is lost to a bad path.
            let [csv_out, plot_out] = output::Output::check_all(
                [(csv.as_deref(), "--csv"), (plot.as_deref(), "--plot")],
                &loaded.files,
            )?;
            let mut csv_out = match &csv_out {
                Some(out) => {
                    let mut w = csv::Writer::from_writer(out.open()?);
                    batch::csv_header(&mut w, &loaded.scenario).map_err(|e| {
                        BadInput(format!("{}: cannot write: {e}", out.path().display()))
                    })?;
                    Some(w)
                }
                None => None,
            };
            interrupt::install();
            let mut summary = counters::Summary::new(&loaded.scenario, seed);
            // Games by length, for the plot: the summary keeps only the mean and spread.
            let mut lengths = std::collections::BTreeMap::<u32, u64>::new();
            let complete =
                batch::play_chunks(&loaded.scenario, &loaded.catalog, &opts, |records| {
                    for r in &records {
                        summary.add(r);
                        *lengths.entry(r.turns).or_default() += 1;
                        if let Some(w) = &mut csv_out {
                            batch::csv_row(w, seed, r)?;
                        }
                    }
                    Ok(())
                })?;
            if let Some(w) = csv_out {
                w.into_inner()
                    .map_err(|e| BadInput(format!("--csv: cannot write: {}", e.error())))?
                    .commit()?;
            }
            summary.complete = complete;
            summary.identity = Some(counters::Identity {
                scenario_hash: loaded.hashes[0].clone(),
                catalog_hash: loaded.hashes[1].clone(),
                terrain_hash: loaded.hashes[2].clone(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                settings: settings(&loaded.scenario),
                runs,
                shard_count: opts.shard.count,
            });
            summary.shards = vec![opts.shard.index];
            summary.finish();
            if !complete {
                errln!(
                    "interrupted: the summary counts the {} games played of {}",
                    summary.runs,
                    batch::shard_games(&opts)
                );
            }
            if json {
                outln!("{}", serde_json::to_string_pretty(&summary)?);
            } else {
                out!("{}", batch::render(&summary));
            }
            if let Some(out) = &plot_out {
                let svg = hexwar::picture::plot::batch(&hexwar::picture::plot::Batch {
                    summary: &summary,
                    lengths: &lengths,
                })?;
                render::write_svg_as(&svg, out)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Merge {
            files,
            json,
            partial,
        } => {
            if let Some(first) = files.first()
                && arena::is_arena_summary(&data::read_text(first)?)
            {
                return arena::merge(&files, json, partial);
            }
            let mut merged: Option<counters::Summary> = None;
            for f in &files {
                let text = data::read_text(f)?;
                let s: counters::Summary = serde_json::from_str(&text).map_err(|e| {
                    BadInput(format!(
                        "{}: not a batch summary (`hexwar batch --json`): {e}",
                        f.display()
                    ))
                })?;
                s.check()
                    .map_err(|e| BadInput(format!("{}: {e}", f.display())))?;
                if s.identity.is_none() {
                    return Err(BadInput(format!(
                        "{}: {}",
                        f.display(),
                        counters::MergeError::NoIdentity
                    ))
                    .into());
                }
                match &mut merged {
                    None => merged = Some(s),
                    Some(m) => m
                        .merge(&s)
                        .map_err(|e| BadInput(format!("{}: {e}", f.display())))?,
                }
            }
            let mut summary = merged.unwrap_or_default();
            let missing = summary.missing_shards();
            let count = summary.identity.as_ref().map_or(1, |i| i.shard_count);
            if !partial {
                batch::refuse_incomplete("batch", count, &missing, summary.complete)?;
            }
            summary.complete &= missing.is_empty();
            summary.finish();
            if json {
                outln!("{}", serde_json::to_string_pretty(&summary)?);
            } else {
                out!("{}", batch::render(&summary));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Arena(args) => arena::run(&args),
        Command::Tune(args) => tune::run(args),
        Command::Play(args) => play::run(&args),
        Command::Replay(args) => match &args.html {
            Some(html) => render::replay_page(&args.path, args.seed, args.game, html),
            None => play::replay(&args),
        },
        Command::Render(args) => render::run(args),
        Command::Test {
            paths,
            runs,
            threads,
            junit,
            strict,
            json,
            quiet,
            play,
        } => balance::run(
            &paths,
            &balance::Options {
                runs,
                threads,
                junit,
                strict,
                play,
                quiet,
                json,
            },
        ),
        Command::Rules { query } => {
            out!("{}", rules::answer(rules::RULEBOOK, query.as_deref())?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Units { json, catalog } => {
            let cwd = std::env::current_dir()?;
            let dir = CatalogDir::resolve(catalog.as_deref(), &cwd);
            let catalog = dir.load(&mut Texts::default())?;
            if json {
                outln!("{}", units::json(&catalog)?);
            } else {
                out!("{}", units::table(&catalog));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
