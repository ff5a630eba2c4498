//! The `hexwar` binary: parses the command line into the typed arguments of a command (clap
//! checks every value) and calls the `commands` library, which does the work.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use commands::{
    arena, balance, batch, blunders, diff, generate, inspect, merge, odds, play, render, skill,
    test, tune,
};

/// mimalloc: the games allocate and free many small vectors (plans, paths, odds tables), and
/// glibc's malloc was a tenth of a game's instructions.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A hex-and-counter operational wargame engine.
///
/// Scenarios are TOML files; unit catalogs and the terrain table live in `data/`.
#[derive(Parser)]
#[command(name = "hexwar", version, about, long_about = None, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: CliCommand,
}

#[derive(Subcommand)]
enum CliCommand {
    /// Validate scenario files and report every problem with file, line and column.
    ///
    /// Prints `FILE: ok` for each good file. Exit status 0 when all are good, 2 otherwise.
    #[command(after_help = "Example:\n  hexwar check scenarios/*.toml")]
    Check(inspect::CheckArgs),
    /// Write a new scenario from a seed and a few knobs: a map (roads, a town, woods, hills,
    /// marsh, perhaps a river), two forces from the unit catalog, objectives and a turn limit,
    /// as a commented scenario file that passes `hexwar check` and plays to an end.
    ///
    /// Knobs left out are drawn from the seed. The seeds held out in the data folder are the AIs'
    /// held-out set: no fit may use them.
    #[command(
        after_help = "Examples:\n  hexwar generate --seed 17 -o my_battle.toml\n  hexwar generate --seed 3 --size 16x12 --light dusk --terrain close --forces battalion --objectives 2\n  hexwar generate --seed 100 --count 50 --dir generated/\n  hexwar generate --seed 17 | hexwar render /dev/stdin -o map.png"
    )]
    Generate(generate::GenerateArgs),
    /// Draw a scenario's map in the terminal: labels, terrain, unit stacks, objectives, legend.
    #[command(
        after_help = "Examples:\n  hexwar show scenarios/dawn_assault.toml\n  hexwar show scenarios/dawn_assault.toml --after 5 --seed 3"
    )]
    Show(inspect::ShowArgs),
    /// Play a scenario to its end: orders where given, the AI elsewhere.
    ///
    /// Prints a narrative with every die, then the winner, how the battle ended, victory points
    /// and losses. The seed is always printed; the same seed gives the same game.
    #[command(
        after_help = "Examples:\n  hexwar run scenarios/dawn_assault.toml --seed 7\n  hexwar run scenarios/meeting_engagement.toml --json > game.jsonl"
    )]
    Run(play::RunArgs),
    /// Exact odds of an assault (or an overrun) between two stacks on an open field, by dynamic
    /// programming.
    ///
    /// Units are catalog ids, comma-separated, each with optional states `:weakened` and
    /// `:disorganized`. HQ leadership goes to the attacking unit it helps most (R8.1). The field
    /// is open: every retreat and break-off finds room, so these are a matchup's odds; a
    /// position's own (its map, the units around it) are the prompt's `odds assault HEX with
    /// UNIT...` in `hexwar play`, or, for a saved game, `hexwar odds --position SAVE HEX with
    /// UNIT...`.
    #[command(
        after_help = "Examples:\n  hexwar odds btr70,hq_mrr vs m2:disorganized\n  hexwar odds mr_coy vs t72 --terrain city --json\n  hexwar odds t72,t72,mr_coy,hq_mrr vs mech_inf,m2,tow_team,hq_tf --terrain city\n  hexwar odds t72 vs mech_inf --overrun\n  hexwar odds --position game.toml 0604 with t72_4"
    )]
    Odds(odds::OddsArgs),
    /// Play a scenario many times in parallel and summarize: win rates with Wilson 95%
    /// intervals, how battles ended, victory points, game length, losses per unit type, and when
    /// the attacker took each objective.
    ///
    /// Game i is seeded from (SEED, i), so the results are the same for any --threads and any
    /// split into --shard runs; `hexwar merge` adds shard summaries (--json) exactly.
    #[command(
        after_help = "Examples:\n  hexwar batch scenarios/dawn_assault.toml --runs 10000\n  hexwar batch scenarios/dawn_assault.toml --runs 1000 --heatmap dawn.png --heatmap-json dawn.json\n  hexwar batch scenarios/dawn_assault.toml --runs 10000 --shard 0/2 --json > a.json\n  hexwar batch scenarios/dawn_assault.toml --runs 10000 --shard 1/2 --json > b.json\n  hexwar merge a.json b.json"
    )]
    Batch(batch::BatchArgs),
    /// Count the blunders a wargamer calls, per side and game, in a scenario's games (those of
    /// `hexwar batch` with the same seed and AIs): units that moved into an assault they will
    /// lose, shaken units left next to the enemy, HQs that add nothing to an assault, and
    /// objectives left uncontested on the turn that decides them.
    #[command(
        after_help = "Examples:\n  hexwar blunders scenarios/dawn_assault.toml --runs 400\n  hexwar blunders scenarios/meeting_engagement.toml --ai soviet=search --ai us=doctrine --json"
    )]
    Blunders(blunders::BlundersArgs),
    /// Measure the AIs' strength: named AIs play every pairing on every scenario in pairs of
    /// games (the same dice, the sides swapped), with scores and their 95% intervals, ratings
    /// on the Elo scale (`doctrine@1` = 0) and the matrix of head-to-head scores; or, with
    /// --sprt, a sequential test of whether one AI is stronger than another.
    Arena(arena::ArenaArgs),
    /// Merge the shards of a run into the single run's result: batch or arena summaries
    /// (`hexwar batch --json`, `hexwar arena --json`), or the shard files of `tune`, `test`,
    /// `skill` and `balance` (`--shard I/N --json`).
    #[command(
        after_help = "Examples:\n  hexwar merge shard0.json shard1.json --json\n  hexwar merge test-*.json\n  hexwar merge balance-*.json --json > singles.json   # then, if no single change passed:\n  hexwar balance my.toml --pairs singles.json --shard 0/2 --json > pairs-0.json ..."
    )]
    Merge(merge::MergeArgs),
    /// Vary a unit stat and find where a scenario is balanced, with the same seeds for every
    /// value (common random numbers); or rank which stats move the win rate most.
    #[command(
        after_help = "Examples:\n  hexwar tune scenarios/dawn_assault.toml --vary t72.assault=1..5 --runs 2000\n  hexwar tune scenarios/dawn_assault.toml --vary m1.fire.dice=2..5 --side nato --target 0.5\n  hexwar tune scenarios/dawn_assault.toml --vary turns=5..9 --plot turns.svg\n  hexwar tune scenarios/dawn_assault.toml --vary objectives --runs 1000\n  hexwar tune scenarios/meeting_engagement.toml --sensitivity --runs 400"
    )]
    Tune(tune::TuneArgs),
    /// Command a side yourself, a phase at a time, at a prompt or from a script on standard
    /// input; the search AI plays the other side (or the AI `--ai` names). `save FILE` at the
    /// prompt saves the game.
    #[command(
        after_help = "Examples:\n  hexwar play scenarios/meeting_engagement.toml --side soviet\n  hexwar play scenarios/night_recon.toml --hotseat --seed 7\n  hexwar play --resume game.toml\n  hexwar play scenarios/dawn_assault.toml --side nato --ai soviet=search:1024\n  printf 'end\\nmove bmp_4 0404\\nend\\n' | hexwar play scenarios/meeting_engagement.toml --side soviet\n\nType `help` at the prompt for the commands: the grammar of scenario orders\n(move UNIT HEX... or move UNIT DESTINATION, assault HEX with UNIT..., fire UNIT at UNIT, ...),\nand end, undo, status, odds assault|overrun ..., legal UNIT, map [UNIT], units, log, rules ID,\nsave FILE, quit. A script gives one line per prompt: the first `end` above is the recon\ndeployment (R15.4)."
    )]
    Play(play::PlayArgs),
    /// Play in the browser: a local web server with the scenarios, the map you click, and the
    /// search AI, the doctrine AI or another person as the opponent.
    ///
    /// Prints its URL as the first line of standard output and serves until Ctrl-C. It listens
    /// on 127.0.0.1 unless --bind says otherwise. Saves downloaded from a game page resume at
    /// `hexwar play --resume`, and the other way round (upload a save on the first page).
    #[command(
        after_help = "Examples:\n  hexwar serve                      # open the URL it prints\n  hexwar serve --port 9000 my_scenarios/\n  hexwar serve --bind 0.0.0.0       # other machines may play (a warning is printed)"
    )]
    Serve(serve::ServeArgs),
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
    Test(test::TestArgs),
    /// Find the smallest change of a scenario (fewest fields, then smallest steps) that brings
    /// every expectation of its `[expect]` to PASS, as `hexwar test` judges them.
    ///
    /// It may change the turn limit, which side moves first, which hexes are objectives (one
    /// dropped, or moved to a neighbouring hex), a reserve's turn of arrival, a unit taken from or added to a side, and unit stats through
    /// the scenario's own `[types.TYPE]` (the shared catalog stays as it is): everything the
    /// scenario uses, or what --vary names. The changes race on the same games of the
    /// `[expect]` batch (common random numbers): a change is dropped once its 95% interval lies
    /// outside a range, the rest go on to twice the games, up to the batch itself; pairs of
    /// the ten closest singles race if no single change passes. --shard I/N --json races a
    /// share of the changes for `hexwar merge`.
    #[command(
        after_help = "Examples:\n  hexwar balance scenarios/meeting_engagement.toml\n  hexwar balance my.toml --vary turns --vary t72.assault=2..5 --write my_balanced.toml\n  hexwar balance my.toml --ai soviet=doctrine@1 --json > report.json\n  hexwar balance my.toml --vary turns --heatmap before_after.png\n\nExit status: 0 when a change is found (or none is needed), 1 when no change within the\nbounds meets every expectation (the closest is shown), 2 for bad input, 130 when stopped."
    )]
    Balance(balance::BalanceArgs),
    /// What changed between two versions of a scenario: its knobs, sides, units, objectives,
    /// orders, the stats its units play with (the catalog's or its own `[types]`) and its
    /// expectations; with --runs, what the change did to every measure.
    ///
    /// With --runs N both versions play the same N games (game i on the same dice in both,
    /// each with its `[expect]` AIs unless --ai says otherwise), and each measure's change is
    /// shown with its paired 95% interval.
    #[command(
        after_help = "Examples:\n  hexwar diff scenarios/meeting_engagement.toml my_meeting.toml\n  hexwar diff old.toml new.toml --runs 4000\n  hexwar diff old.toml new.toml --runs 4000 --json\n  hexwar diff old.toml new.toml --runs 1000 --heatmap before_after.png"
    )]
    Diff(diff::DiffArgs),
    /// The skill trace: each side plays at rising strength (random, doctrine@1, doctrine, the
    /// search AI at rising budgets) against one fixed opponent; each win rate with its
    /// interval, the rank correlation of strength and win rate with its interval, and the gap
    /// between the strongest and the weakest (under 20 points: a dice game).
    #[command(
        after_help = "Examples:\n  hexwar skill scenarios/meeting_engagement.toml\n  hexwar skill scenarios/night_recon.toml --runs 400 --plot night_skill.svg\n  hexwar skill my.toml --ladder random,doctrine@1,doctrine --opponent doctrine@1 --side soviet --json"
    )]
    Skill(skill::SkillArgs),
    /// Read the rulebook: the sections, one rule with hexwar's decisions, or every rule that
    /// mentions a word. The rulebook is `docs/rules.md`, built into the binary.
    #[command(
        after_help = "Examples:\n  hexwar rules            # the sections\n  hexwar rules R9.4       # one rule and the decisions that complete it\n  hexwar rules R11        # a whole section\n  hexwar rules overrun    # every rule that mentions a word\n\nAn id or section the rulebook does not have, or a word no rule mentions, exits 2."
    )]
    Rules(inspect::RulesArgs),
    /// List the scenarios built into hexwar with their briefings, sizes and the rules they
    /// exercise; every command takes a bundled scenario's name as well as a path.
    #[command(
        after_help = "Examples:\n  hexwar scenarios\n  hexwar scenarios --json\n  hexwar run dawn_assault --seed 1\n\nA file of that name in the current folder wins over the bundled scenario; standard error\nsays which was used."
    )]
    Scenarios(inspect::ScenariosArgs),
    /// List the unit catalog as a table, or as JSON with every stat.
    #[command(after_help = "Examples:\n  hexwar units\n  hexwar units --json --catalog my_units/")]
    Units(inspect::UnitsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(code) = commands::start() {
        return code;
    }
    commands::finish(run(cli.command))
}

fn run(command: CliCommand) -> anyhow::Result<ExitCode> {
    match command {
        CliCommand::Check(args) => Ok(inspect::check(&args)),
        CliCommand::Show(args) => inspect::show(&args),
        CliCommand::Generate(args) => generate::run(&args),
        CliCommand::Run(args) => play::run_game(args),
        CliCommand::Odds(args) => odds::command(&args),
        CliCommand::Batch(args) => batch::run(args),
        CliCommand::Blunders(args) => blunders::run(&args),
        CliCommand::Merge(args) => merge::run(&args),
        CliCommand::Arena(args) => arena::run(&args),
        CliCommand::Tune(args) => tune::run(args),
        CliCommand::Play(args) => play::run(&args),
        CliCommand::Replay(args) => match &args.html {
            Some(html) => render::replay_page(&args.path, args.seed, args.game, html),
            None => play::replay(&args),
        },
        CliCommand::Serve(args) => serve::run(&args),
        CliCommand::Render(args) => render::run(args),
        CliCommand::Test(args) => test::run(&args),
        CliCommand::Balance(args) => balance::run(args),
        CliCommand::Diff(args) => diff::run(&args),
        CliCommand::Skill(args) => skill::run(args),
        CliCommand::Rules(args) => Ok(inspect::rules(&args)?),
        CliCommand::Units(args) => inspect::units(&args),
        CliCommand::Scenarios(args) => inspect::scenarios(&args),
    }
}
