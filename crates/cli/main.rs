//! The `hexwar` command line: a thin layer over the `hexmap` and `counters` crates.

mod data;
mod odds;
mod run;
mod show;
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
    Show {
        /// The scenario file.
        file: PathBuf,
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
        /// The scenario file.
        file: PathBuf,
        /// Seed for the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play at most this many game turns (default: the scenario's limit).
        #[arg(long)]
        turns: Option<u32>,
        /// JSON Lines: one event per line, the last line the result.
        #[arg(long)]
        json: bool,
        /// Override the scenario's `counterattacks` rule (R11).
        #[arg(long, value_parser = ["on", "off"])]
        counterattacks: Option<String>,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
    },
    /// Exact odds of an assault (or an overrun) between two stacks, by dynamic programming.
    ///
    /// Units are catalog ids, comma-separated, each with optional states `:weakened` and
    /// `:disorganized`. HQ leadership goes to the attacking unit it helps most (R8.1).
    #[command(
        after_help = "Examples:\n  hexwar odds btr70,hq_mrr vs m2:disorganized\n  hexwar odds mr_coy vs t72 --terrain city --json\n  hexwar odds t72 vs mech_inf --overrun"
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
        /// Print JSON (keys: attacker_wins, defender_destroyed, defender_retreats,
        /// defender_holds, attacker_hits, defender_hits, their means, exact).
        #[arg(long)]
        json: bool,
        /// Unit catalog folder.
        #[arg(long, value_name = "DIR")]
        catalog: Option<PathBuf>,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e:#}");
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
                    Ok(_) => println!("{}: ok", f.display()),
                    Err(e) => {
                        bad = true;
                        println!("{e}");
                    }
                }
            }
            Ok(if bad {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Show { file, catalog } => {
            let loaded = load_scenario(&file, catalog.as_deref())?;
            print!("{}", show::render(&loaded.scenario, &loaded.catalog));
            Ok(ExitCode::SUCCESS)
        }
        Command::Run {
            file,
            seed,
            turns,
            json,
            counterattacks,
            catalog,
        } => {
            let mut loaded = load_scenario(&file, catalog.as_deref())?;
            if let Some(c) = counterattacks {
                loaded.scenario.rules.counterattacks = c == "on";
            }
            if let Some(t) = turns {
                if t == 0 {
                    return Err(BadInput("--turns must be at least 1".to_owned()).into());
                }
                loaded.scenario.turns = loaded.scenario.turns.min(t);
            }
            let rules = counters::Rules::new(&loaded.scenario, &loaded.catalog);
            let mut dice = counters::GameRng::seed_from_u64(seed);
            let (end, events) = counters::play(&rules, &mut dice)?;
            if json {
                println!(
                    "{}",
                    serde_json::json!({ "seed": seed, "scenario": loaded.scenario.title })
                );
                for e in &events {
                    println!("{}", serde_json::to_string(e)?);
                }
                println!(
                    "{}",
                    serde_json::json!({ "result": end.outcome, "seed": seed })
                );
            } else {
                print!("{}", run::narrative(&rules, seed, &events, &end));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Odds {
            matchup,
            terrain,
            overrun,
            counterattacks,
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
            };
            println!("{}", odds::run(&catalog, &table, &request)?.trim_end());
            Ok(ExitCode::SUCCESS)
        }
        Command::Units { json, catalog } => {
            let cwd = std::env::current_dir()?;
            let dir = CatalogDir::resolve(catalog.as_deref(), &cwd);
            let catalog = dir.load(&mut Texts::default())?;
            if json {
                println!("{}", units::json(&catalog)?);
            } else {
                print!("{}", units::table(&catalog));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
