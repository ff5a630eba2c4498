//! The commands that read and show without playing a batch: `hexwar check`, `show`, `units`,
//! `rules` and `scenarios`.

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

/// `hexwar scenarios`.
#[derive(clap::Args)]
pub struct ScenariosArgs {
    /// Print a JSON array: each scenario's name, title, briefing, turns, map size, time of day,
    /// sides with their roles and units, and the rules it exercises.
    #[arg(long)]
    pub json: bool,
}

/// The rule families a scenario's header says it exercises: the rule ids on its `# Rules
/// exercised: R4 R5 ...` line.
#[must_use]
pub fn rules_exercised(text: &str) -> Vec<String> {
    text.lines()
        .take_while(|l| l.starts_with('#') || l.trim().is_empty())
        .find_map(|l| l.strip_prefix("# Rules exercised:"))
        .map(|list| {
            list.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|w| {
                    w.strip_prefix('R').is_some_and(|n| {
                        !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.')
                    })
                })
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// A side of a bundled scenario, as `hexwar scenarios` lists it.
#[derive(serde::Serialize)]
struct ListedSide {
    id: String,
    name: String,
    role: String,
    units: usize,
}

/// A bundled scenario, as `hexwar scenarios` lists it.
#[derive(serde::Serialize)]
struct Listed {
    name: &'static str,
    title: String,
    briefing: String,
    turns: u32,
    map: [u16; 2],
    time_of_day: String,
    sides: Vec<ListedSide>,
    rules: Vec<String>,
}

/// Lists the scenarios built into hexwar, which every command takes by name.
pub fn scenarios(args: &ScenariosArgs) -> anyhow::Result<ExitCode> {
    let mut list = Vec::new();
    for (name, text) in model::bundled::SCENARIOS {
        let s = model::bundled::scenario(name, text)
            .map_err(|_| BadInput(format!("the bundled scenario {name} does not load")))?;
        let sides = model::Side::BOTH
            .iter()
            .map(|&side| {
                let info = &s.sides[side.index()];
                ListedSide {
                    id: info.id.clone(),
                    name: info.name.clone(),
                    role: format!("{:?}", info.role).to_lowercase(),
                    units: s.units.iter().filter(|u| u.side == side).count(),
                }
            })
            .collect();
        list.push(Listed {
            name,
            title: s.title.clone(),
            briefing: s.description.trim().to_owned(),
            turns: s.turns,
            map: [s.map.cols(), s.map.rows()],
            time_of_day: format!("{:?}", s.time_of_day).to_lowercase(),
            sides,
            rules: rules_exercised(text),
        });
    }
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "The scenarios built into hexwar; every command takes a name (`hexwar run dawn_assault`), a file of that name in this folder first.\n"
    );
    for v in &list {
        let sides: Vec<String> = v
            .sides
            .iter()
            .map(|x| format!("{} ({}, {} units)", x.id, x.role, x.units))
            .collect();
        outln!(
            "{}: {}\n  {} turns, {} x {} hexes, {}; {}",
            v.name,
            v.title,
            v.turns,
            v.map[0],
            v.map[1],
            v.time_of_day,
            sides.join(" against ")
        );
        if !v.rules.is_empty() {
            outln!("  rules exercised: {}", v.rules.join(" "));
        }
        for line in v.briefing.lines() {
            outln!("  {}", line.trim());
        }
        outln!("");
    }
    Ok(ExitCode::SUCCESS)
}
