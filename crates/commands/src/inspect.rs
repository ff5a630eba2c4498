//! The commands that read and show without playing a batch: `hexwar check`, `show`, `units`
//! and `rules`.

use std::path::PathBuf;
use std::process::ExitCode;

use present::{show, units};

use crate::data::{BadInput, CatalogDir, load_scenario};

/// `hexwar check`.
#[derive(clap::Args)]
pub struct CheckArgs {
    /// Scenario files to check.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Unit catalog folder (default: the scenario's `catalog`, else `data/units` above it).
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
}

/// Validates scenario files, reporting every problem with file, line and column.
#[must_use]
pub fn check(args: &CheckArgs) -> ExitCode {
    let mut bad = false;
    for f in &args.files {
        match load_scenario(f, args.catalog.as_deref()) {
            Ok(_) => outln!("{}: ok", f.display()),
            Err(e) => {
                bad = true;
                errln!("{e}");
            }
        }
    }
    if bad {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// `hexwar show`.
#[derive(clap::Args)]
pub struct ShowArgs {
    /// The scenario file.
    pub file: PathBuf,
    /// Show the position after this many game turns of a game played by the AIs (with
    /// smoke marked `~`), instead of the start.
    #[arg(long, value_name = "TURNS", value_parser = crate::options::turns)]
    pub after: Option<u32>,
    /// Seed for the dice of that game (the batch seed, as for `run`).
    #[arg(long, default_value_t = 1, requires = "after")]
    pub seed: u64,
    /// Game I of `hexwar batch --seed SEED`, as for `run`.
    #[arg(long, value_name = "I", default_value_t = 0, requires = "after")]
    pub game: u64,
    /// Unit catalog folder.
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
    /// The AIs and rules of that game, as for `run`.
    #[command(flatten)]
    pub play: crate::options::PlayOptions,
}

/// Draws a scenario's map in the terminal, at the start or after some turns of an AI game.
pub fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_scenario(&args.file, args.catalog.as_deref())?;
    let position = match args.after {
        None => None,
        Some(t) => {
            let mut short = loaded.scenario.clone();
            short.turns = short.turns.min(t);
            args.play.apply(&mut short)?;
            let rules = counters::Rules::new(&short, &loaded.catalog);
            // The same game as `hexwar run --seed S --game I --turns T`.
            let (dice, ai_rng) = session::seeding::game_dice(args.seed, args.game);
            let players = ai::Players::of(&short).map_err(crate::data::BadInput)?;
            Some(players.play(rules, dice, ai_rng)?.state().clone())
        }
    };
    out!(
        "{}",
        show::render(&loaded.scenario, &loaded.catalog, position.as_ref())
    );
    Ok(ExitCode::SUCCESS)
}

/// `hexwar units`.
#[derive(clap::Args)]
pub struct UnitsArgs {
    /// Print a JSON array of objects (absent values are null).
    #[arg(long)]
    pub json: bool,
    /// Unit catalog folder (default: `data/units` in this folder or above, else built in).
    #[arg(long, value_name = "DIR")]
    pub catalog: Option<PathBuf>,
}

/// Lists the unit catalog.
pub fn units(args: &UnitsArgs) -> anyhow::Result<ExitCode> {
    let catalog = CatalogDir::load_from_cwd(args.catalog.as_deref())?;
    if args.json {
        outln!("{}", units::json(&catalog)?);
    } else {
        out!("{}", units::table(&catalog));
    }
    Ok(ExitCode::SUCCESS)
}

/// `hexwar rules`.
#[derive(clap::Args)]
pub struct RulesArgs {
    /// A rule id (`R9.4`), a section (`R9`), or a word (`overrun`).
    pub query: Option<String>,
}

/// Answers from the rulebook built into the binary.
pub fn rules(args: &RulesArgs) -> Result<ExitCode, BadInput> {
    out!(
        "{}",
        crate::rules::answer(crate::rules::RULEBOOK, args.query.as_deref())?
    );
    Ok(ExitCode::SUCCESS)
}
